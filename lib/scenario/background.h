/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * background.h - the housekeeping activity of an otherwise idle Linux system, shared by the
 * scenarios: per-CPU periodic timers (some only run softirq work, some wake a kworker), the
 * occasional short chain of work (a daemon waking, doing I/O, waking again) and rare device
 * interrupts.
 *
 * DOC: background model (assumptions, tunable per scenario)
 *
 *  1. Each CPU has `timers` periodic timers. Timer k's period is drawn once, log-uniformly in
 *     [period_min_us, period_max_us]; each expiry is jittered by up to 1/8 of the period
 *     (timer slack and rounding). Typical idle servers show 10-100 wakeups per second per
 *     CPU (powertop); the defaults give about 20.
 *  2. On expiry a timer wakes a kworker on its CPU with probability task_pct %, for 3-30 µs.
 *     With probability burst_pct % that work starts a chain of 1-3 more short pieces, each
 *     after a device-interrupt wait of 20-300 µs (non-timer wakeups the governors cannot
 *     see coming).
 *  3. With probability pair_pct % an expiry has a companion timer 2-40 µs later that runs
 *     only softirq work (two timer bases expiring close together).
 *  4. Device interrupts arrive system-wide at irq_hz per second (Poisson), on a random CPU;
 *     half of them wake a short task.
 */
#ifndef IDLELAB_SCN_BACKGROUND_H
#define IDLELAB_SCN_BACKGROUND_H

#include <stdbool.h>

#include "../sim/sim.h"

struct il_bg_params {
	unsigned int timers;       /* per CPU */
	u64 period_min_us;
	u64 period_max_us;
	unsigned int task_pct;
	unsigned int burst_pct;
	unsigned int pair_pct;
	unsigned int irq_hz;       /* system-wide */
	int skip_cpu;              /* a CPU without background timers (a busy one), -1: none */
};

/* Defaults: 4 timers per CPU between 20 ms and 1 s, 50 % wake a task, 30 % bursts, all CPUs. */
void il_bg_defaults(struct il_bg_params *p);

struct il_bg;

/**
 * il_bg_start - arm the background activity on @sim; it lives until il_bg_free()
 * Return: the state, or NULL with errno set.
 */
struct il_bg *il_bg_start(struct il_sim *sim, const struct il_bg_params *p, u64 stream);
void il_bg_free(struct il_bg *bg);

/**
 * il_bg_start_default - a scenario's "background" parameter: when @on, start the default
 * activity (il_bg_defaults()) on @stream into *@bg; when not, leave *@bg alone
 * Return: 0, or -1 with errno set.
 */
int il_bg_start_default(struct il_sim *sim, bool on, u64 stream, struct il_bg **bg);

#endif /* IDLELAB_SCN_BACKGROUND_H */
