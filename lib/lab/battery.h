/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * battery.h - the seeds' benchmark battery: a fixed list of scenario variants, and running
 * many lab runs on several threads.
 */
#ifndef IDLELAB_LAB_BATTERY_H
#define IDLELAB_LAB_BATTERY_H

#include <stddef.h>

#include "lab.h"

/* What `idlelab battery` and `make demo` run by default (docs/lab.md). */
#define IL_BATTERY_GOVERNORS \
	"menu-4.16,menu-6.13,menu-5,menu-6.17,menu-6.18,menu,teo-6.13,teo,oracle-heuristic"
#define IL_BATTERY_PLATFORMS "i5-10600k,rk3588"
/* 5 simulated seconds per run: the default battery (414 runs) takes about 50 s of CPU. */
#define IL_BATTERY_TIME_NS (5ULL * NSEC_PER_SEC)

struct il_battery_case {
	const char *spec; /* what `-s` takes: "fio:device=nvme" */
	const char *seed; /* the seeds' test it stands for */
};

/** il_battery_count - the number of scenario variants of the battery */
int il_battery_count(void);
/** il_battery_at - variant @i (0 <= i < il_battery_count()), or NULL */
const struct il_battery_case *il_battery_at(int i);

/* What a battery ran, for its settings table. */
struct il_battery_settings {
	u64 time_ns, seed;          /* per run; the first seed */
	int iter, ensemble;         /* seeds per case; model variants (0: the nominal model) */
	const char *const *platforms;
	int nplat;
	const char *const *governors;
	int ngov;
	const char *const *scenarios;
	int nscn;
};

struct il_table;

/**
 * il_battery_settings_table - the key/value table "battery": simulated_s_per_run, seed,
 * iterations, ensemble (only when not 0, so a battery without it keeps its bytes), each
 * platform, governor and scenario, energy
 * Return: 0, or -1 (ENOMEM). @t is initialised here; free it with il_table_free().
 */
int il_battery_settings_table(struct il_table *t, const struct il_battery_settings *s);

/**
 * il_lab_run_all - il_lab_run() of @specs[0..@n) into @res[0..@n) on up to @threads threads
 * @errs: errno of each failed run (0 for a success); may be NULL
 *
 * Every run is independent and deterministic, so the results do not depend on @threads or
 * on the order the threads pick the runs in. A failed run leaves its result zeroed.
 * Return: 0 when every run succeeded, else -1 with errno of the first failure (by index).
 */
int il_lab_run_all(const struct il_lab_spec *specs, struct il_lab_result *res, size_t n,
		   unsigned int threads, int *errs);

/* Called after each run finishes with how many have; from any worker, one call at a time. */
typedef void (*il_lab_progress_fn)(void *ctx, size_t done, size_t total);

/**
 * il_lab_run_all_progress - il_lab_run_all() that reports each finished run to @fn (may be
 * NULL), for a progress display: the library itself never prints
 */
int il_lab_run_all_progress(const struct il_lab_spec *specs, struct il_lab_result *res, size_t n,
			    unsigned int threads, int *errs, il_lab_progress_fn fn, void *ctx);

#endif /* IDLELAB_LAB_BATTERY_H */
