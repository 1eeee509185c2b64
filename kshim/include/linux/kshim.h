/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kshim.h - the base of idlelab's kernel-API shim (kgov).
 *
 * DOC: what the shim is
 *
 * kgov compiles an unmodified upstream drivers/cpuidle/governors/{menu,teo,ladder,haltpoll}.c
 * with the system compiler into a shared object that idlelab loads like any built-in preset.
 * The headers under kshim/include/ stand in for the kernel headers those files include. Every
 * one of them includes this file, which:
 *
 *  1. makes the kernel's cpuidle structures THE SAME TYPES as idlelab's model
 *     (struct cpuidle_device is struct il_device, and so on, lib/cpuidle.h). The model keeps
 *     the fields of every era (4.x µs fields and "disabled", 5.x+ ns fields), so a 4.16 file
 *     and a 7.1 file both compile against it, and the loaded governor works directly on the
 *     devices of the lab: nothing is copied in or out around a call;
 *  2. keeps a "current device" (the CPU the kernel would be running on) that the wrapper sets
 *     around each governor call; every implicit-CPU kernel call (this_cpu_ptr(),
 *     tick_nohz_get_sleep_length(), PM QoS, TICK_NSEC, local_clock()) is answered from that
 *     device's environment (lib/env.h);
 *  3. keeps the per-CPU variables of the governor (DEFINE_PER_CPU) in the device's
 *     governor_data block instead of a static array, so several lab devices with the same CPU
 *     number (a lockstep check, a comparison) never share governor state;
 *  4. records initcalls, module_param()s and per-CPU variables in linker sections, so the
 *     runtime (kshim/kshim.c) finds them without knowing the file;
 *  5. counts WARN()s and printk()s instead of printing them.
 *
 * The integer types are the kernel's: s64/u64 are 64-bit, TICK_NSEC is a signed long like the
 * kernel's constant expression, ktime_t is s64. The file is compiled with -fno-strict-overflow
 * like the kernel.
 */
#ifndef KSHIM_KSHIM_H
#define KSHIM_KSHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/limits.h>

#include <lib/cpuidle.h>
#include <lib/env.h>
#include <lib/governor.h>

/* ---- the kernel's names for the model's structures (same types, not copies) ---------- */
#define cpuidle_state il_state
#define cpuidle_driver il_driver
#define cpuidle_device il_device
#define cpuidle_state_usage il_state_usage

typedef int8_t __s8;
typedef uint8_t __u8;
typedef int16_t __s16;
typedef uint16_t __u16;
typedef int32_t __s32;
typedef uint32_t __u32;
typedef int64_t __s64;
typedef uint64_t __u64;

/* ---- compiler and section annotations ------------------------------------------------ */
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define __read_mostly
#define __init
#define __exit
#define __initdata
#define __cpuidle
#define __always_inline inline __attribute__((__always_inline__))
#define __maybe_unused __attribute__((__unused__))
#define __must_check
#define notrace
#define noinstr
#define READ_ONCE(x) (x)
#define WRITE_ONCE(x, v) ((x) = (v))

#define KSHIM_USED_IN(sec) __attribute__((__used__, __section__(sec)))

/* ---- limits -------------------------------------------------------------------------- */
#ifndef U8_MAX
#define U8_MAX ((u8)~0U)
#endif
#define U16_MAX ((u16)~0U)
#define U32_MAX ((u32)~0U)
#define S32_MIN ((s32)(-S32_MAX - 1))
#define U64_MAX ((u64)~0ULL)
#define S64_MAX ((s64)(U64_MAX >> 1))
#define S64_MIN ((s64)(-S64_MAX - 1))
#define KTIME_MIN (-KTIME_MAX - 1)
#define KTIME_SEC_MAX (KTIME_MAX / NSEC_PER_SEC)

/* ---- the runtime (kshim/kshim.c) ------------------------------------------------------ */

/* The device the current governor call is made for (the kernel's "this CPU"). */
struct il_device *kshim_dev(void);
/* Counters of what the kernel would have printed. */
void kshim_count_warn(void);
void kshim_count_printk(void);

/* One DEFINE_PER_CPU() variable; its storage is at @offset in each device's block. */
struct kshim_percpu {
	void *key;       /* the (unused) static object the file names, used as a lookup key */
	size_t size;
	size_t align;
	const char *name;
	size_t offset;   /* filled by the runtime */
};

/* One module_param(). */
struct kshim_param {
	const char *name;
	void *addr;
	const char *type; /* "uint", "int", "ulong", "bool", "charp" ... as in the kernel */
	size_t size;
};

typedef int (*kshim_initcall_t)(void);

void *kshim_percpu_ptr(const void *key, unsigned int cpu);

/* ---- for the wrapper kgov generates (vars() of the file's per-CPU struct) -------------- */

/* A static string "<a><i><b>" or "<a><i><b><j><c>" (j >= 0), e.g. "state_bins[2].hits". */
const char *kshim_name(const char *a, int i, const char *b, int j, const char *c);

/* Append one var; the signedness comes from the field's type. */
#define KSHIM_PUT(vars, n, max, nm, x) do {                                  \
	if ((n) < (max)) {                                                   \
		(vars)[n].name = (nm);                                       \
		(vars)[n].value = (u64)(x);                                  \
		(vars)[n].is_signed = (__typeof__(x))-1 < (__typeof__(x))0;  \
		(vars)[n].diag = false;                                      \
	}                                                                    \
	(n)++;                                                               \
} while (0)

#endif /* KSHIM_KSHIM_H */
