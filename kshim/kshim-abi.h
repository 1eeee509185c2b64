/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kshim-abi.h - what a kgov shared object exports to idlelab.
 *
 * A kgov object (built by il_kgov_build() from an upstream governor file, the shim runtime
 * kshim/kshim.c and a generated wrapper) exports one symbol, "kshim_module", of this type.
 * It is the only contact between idlelab and the object: idlelab never links against the
 * object's symbols, and the object never links against idlelab (it reaches the lab only through
 * the il_device and il_env pointers it is handed).
 */
#ifndef IDLELAB_KSHIM_ABI_H
#define IDLELAB_KSHIM_ABI_H

#include <stddef.h>

#include "../lib/governor.h"

/* Bumped on every incompatible change of this header or of lib/cpuidle.h, lib/env.h. */
#define KSHIM_ABI_VERSION 3

/* Facts about the upstream file, written by the generated wrapper. */
struct kshim_file {
	const char *family;        /* .name of its struct cpuidle_governor: "menu" */
	const char *percpu_type;   /* "struct menu_device", or "" when the file has none */
	const char *source;        /* the absolute path of the file */
	const char *blob;          /* its git blob id (40 hex digits) */
	int units_us;              /* it reads the 4.x µs fields (no *_ns anywhere) */
	int select_nargs;          /* 2: select(drv, dev) (<= 4.16); 3: (drv, dev, &stop_tick) */
};

struct kshim_module {
	int abi;                   /* KSHIM_ABI_VERSION of the headers it was built with */
	size_t il_device_size;     /* sizeof(struct il_device) it was built with */
	size_t il_driver_size;
	size_t il_governor_size;
	const struct kshim_file *file;
	/*
	 * Run the file's initcalls (which register the governor) and lay out its per-CPU
	 * variables. Return: 0, or a negative errno (-ENOENT: nothing was registered).
	 */
	int (*init)(void);
	/* The captured governor as an idlelab family (valid after init). */
	const struct il_governor *(*governor)(void);
	/* What the kernel would have printed: WARN()s, printk()s; and shim errors (a kernel
	 * call made outside a governor call, a per-CPU access for another CPU, ...). */
	unsigned long (*warn_count)(void);
	unsigned long (*printk_count)(void);
	unsigned long (*shim_error_count)(void);
};

#endif /* IDLELAB_KSHIM_ABI_H */
