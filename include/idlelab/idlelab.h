/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * idlelab.h - the public API of libidlelab: run cpuidle governors in the lab from C.
 *
 * DOC: using the library
 *
 * Build with `cc prog.c $(pkg-config --cflags --libs idlelab)`. A program:
 *
 *  1. opens a platform, a built-in ("skx", `idlelab platforms`) or a platform file
 *     (docs/platforms.md), with il_platform_open();
 *  2. finds a preset, a governor at one upstream version ("menu-6.12.117", "teo", or
 *     "file:OBJ.so" built by `idlelab kgov build`), with il_preset_find() (idlelab/governor.h);
 *  3. runs a scenario on them, "fio:jobs=2" as after `idlelab run -s` (`idlelab scenarios`),
 *     for a simulated time and a seed, with il_lab_simulate(): the same run, with the same
 *     numbers, as `idlelab run -g PRESET -p PLATFORM -s SCENARIO --time T --seed S`;
 *  4. reads the metrics of the run with the il_run_*() getters (the linux-pm table's
 *     columns: idles, above, below, idle misses, the scenario's score ...), then frees it.
 *
 * A governor of one's own is a struct il_governor (idlelab/governor.h) written against the
 * kernel-shaped ops (idlelab/cpuidle.h: driver, device, states; idlelab/env.h: what the
 * governor may read from the rest of the kernel). il_preset_make() wraps it in a preset that
 * runs under the framework rules of an existing one, and that preset goes wherever a found
 * one goes.
 *
 * Conventions: times are integer nanoseconds; a function that can fail returns NULL or -1 and
 * writes a one-line message ("FILE:LINE: message" for a bad input file) into @err, @errlen
 * bytes (IL_ERRLEN is always enough); the library never prints and never exits. The
 * kernel-shaped headers define the kernel's short integer types (u64, s64, ...) and a few
 * kernel constants (NSEC_PER_SEC, CPUIDLE_STATE_MAX, ...).
 */
#ifndef IDLELAB_IDLELAB_H
#define IDLELAB_IDLELAB_H

#include <stddef.h>

/* C linkage for the kernel-shaped headers too: C++ includes them through this one. */
#ifdef __cplusplus
extern "C" {
#endif

#include "cpuidle.h"
#include "env.h"
#include "governor.h"

/* The soname's number: bumped on every incompatible change of these headers. */
#define IL_ABI_MAJOR 0

/* A message buffer of this size never truncates an error. */
#define IL_ERRLEN 512

/* ---- platforms -------------------------------------------------------------------------- */

/* A machine: its cpuidle state table, CPU count, HZ, power model (opaque). */
struct il_platform;

/**
 * il_platform_open - load a built-in platform by name, or a platform file by path
 * @spec: "rk3588", or a path (anything with a '/' or ending in ".plat")
 *
 * Return: the platform (free it with il_platform_close()), or NULL with @err set.
 */
IL_PUBLIC struct il_platform *il_platform_open(const char *spec, char *err, size_t errlen);
/** il_platform_close - free a platform from il_platform_open(); NULL is ignored */
IL_PUBLIC void il_platform_close(struct il_platform *plat);
/** il_platform_name - the platform's name ("rk3588") */
IL_PUBLIC const char *il_platform_name(const struct il_platform *plat);
/** il_platform_cpus - how many CPUs it has */
IL_PUBLIC unsigned int il_platform_cpus(const struct il_platform *plat);
/** il_platform_driver - its cpuidle driver: the state table, shallow to deep */
IL_PUBLIC const struct il_driver *il_platform_driver(const struct il_platform *plat);

/* ---- a governor of one's own ------------------------------------------------------------- */

/**
 * il_preset_make - make @out a preset that runs @gov under the framework rules of preset @like
 * @out: the preset to fill; it must outlive every run that uses it
 * @name: its name (kept as a pointer: a string that outlives @out)
 * @gov: the governor; its ops, data_size and params as the ports in lib/gov/ have them
 * @like: a preset name or alias, as for il_preset_find(): "menu-6.12.117", "teo"
 *
 * The idle loop, polling, QoS and accounting rules, and the kernel version the framework
 * reports, are @like's; everything the governor decides is @gov's.
 * Return: 0, or -1 with @err set (unknown @like, or @gov without a select()).
 */
IL_PUBLIC int il_preset_make(struct il_preset *out, const char *name, const struct il_governor *gov,
			     const char *like, char *err, size_t errlen);

/* ---- a lab run ---------------------------------------------------------------------------- */

/* A finished run and its metrics (opaque). */
struct il_run;

/**
 * il_lab_simulate - run @scenario on every CPU of @plat with @preset for @duration_ns
 * @scenario: "NAME[:k=v,...]" as `idlelab run -s` takes it ("fio:jobs=2", "idle")
 * @duration_ns: simulated time, > 0
 * @seed: the seed of every random choice; the same inputs give the same run
 *
 * Return: the run (free it with il_run_free()), or NULL with @err set (a bad scenario or
 * parameter, an inconsistent setup, out of memory, or the governor's enable() failed).
 */
IL_PUBLIC struct il_run *il_lab_simulate(const struct il_platform *plat,
					 const struct il_preset *preset, const char *scenario,
					 u64 duration_ns, u64 seed, char *err, size_t errlen);
/** il_run_free - free a run; NULL is ignored */
IL_PUBLIC void il_run_free(struct il_run *run);

/* Totals over every CPU and state, with the kernel's definitions (drivers/cpuidle/cpuidle.c). */
/** il_run_idles - finished idle periods */
IL_PUBLIC u64 il_run_idles(const struct il_run *run);
/** il_run_aboves - periods in a state too deep for how long they lasted */
IL_PUBLIC u64 il_run_aboves(const struct il_run *run);
/** il_run_belows - periods in a state shallower than a deeper one they would have paid for */
IL_PUBLIC u64 il_run_belows(const struct il_run *run);
/** il_run_idle_misses - aboves + belows */
IL_PUBLIC u64 il_run_idle_misses(const struct il_run *run);
/** il_run_idle_miss_ratio - idle misses / idles (0 without idles) */
IL_PUBLIC double il_run_idle_miss_ratio(const struct il_run *run);
/** il_run_nstates - the number of idle states of the run's driver */
IL_PUBLIC int il_run_nstates(const struct il_run *run);
/** il_run_state_usage - periods spent in state @i (0 for an index out of range) */
IL_PUBLIC u64 il_run_state_usage(const struct il_run *run, int i);
/** il_run_state_time_ns - time spent in state @i, ns (0 for an index out of range) */
IL_PUBLIC u64 il_run_state_time_ns(const struct il_run *run, int i);
/** il_run_wake_p99_ns - the 99th percentile of the wakeup latency work paid, ns */
IL_PUBLIC u64 il_run_wake_p99_ns(const struct il_run *run);
/**
 * il_run_energy_j - the model energy of the run, Joules, into *@joules
 * Return: 0, or -1 when the platform gives no power numbers.
 */
IL_PUBLIC int il_run_energy_j(const struct il_run *run, double *joules);
/** il_run_score - the scenario's own score (iops, µs per loop ...) */
IL_PUBLIC double il_run_score(const struct il_run *run);
/** il_run_score_name - what the score is ("iops"), and whether higher is better */
IL_PUBLIC const char *il_run_score_name(const struct il_run *run, bool *higher_is_better);

#ifdef __cplusplus
}
#endif

#endif /* IDLELAB_IDLELAB_H */
