/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * idle.h - the background parameters shared by the idle and idle-busy scenarios.
 */
#ifndef IDLELAB_SCN_IDLE_H
#define IDLELAB_SCN_IDLE_H

#include "background.h"
#include "scenario.h"

enum {
	IL_IDLE_P_TIMERS, IL_IDLE_P_PMIN, IL_IDLE_P_PMAX, IL_IDLE_P_TASK, IL_IDLE_P_BURST,
	IL_IDLE_P_PAIR, IL_IDLE_P_IRQ, IL_IDLE_P_RATE, IL_IDLE_P_WHEEL, IL_IDLE_NPARAMS
};

/* The first IL_IDLE_NPARAMS entries of both scenarios' tables, defaults as il_bg_defaults(). */
#define IL_IDLE_BG_PARAMS \
	[IL_IDLE_P_TIMERS] = { "timers", IL_SCN_INT, 4, 0, 64, NULL, "", \
			       "periodic housekeeping timers per CPU" }, \
	[IL_IDLE_P_PMIN] = { "period_min_us", IL_SCN_INT, 20000, 1, 100000000, NULL, "us", \
			     "shortest timer period" }, \
	[IL_IDLE_P_PMAX] = { "period_max_us", IL_SCN_INT, 1000000, 1, 100000000, NULL, "us", \
			     "longest timer period" }, \
	[IL_IDLE_P_TASK] = { "task_pct", IL_SCN_INT, 50, 0, 100, NULL, "pct", \
			     "timer expiries that wake a kworker" }, \
	[IL_IDLE_P_BURST] = { "burst_pct", IL_SCN_INT, IL_BG_BURST_PCT, 0, 100, NULL, "pct", \
			      IL_BG_BURST_HELP, &il_bg_burst_unc }, \
	[IL_IDLE_P_PAIR] = { "pair_pct", IL_SCN_INT, IL_BG_PAIR_PCT, 0, 100, NULL, "pct", \
			     IL_BG_PAIR_HELP, &il_bg_pair_unc }, \
	[IL_IDLE_P_IRQ] = { "irq_hz", IL_SCN_INT, IL_BG_IRQ_HZ, 0, 1000000, NULL, "hz", \
			    IL_BG_IRQ_HELP, &il_bg_irq_unc }, \
	[IL_IDLE_P_RATE] = IL_BG_RATE_PARAM_UNC(NULL), \
	[IL_IDLE_P_WHEEL] = { "wheel_pct", IL_SCN_INT, IL_BG_WHEEL_PCT, 0, 100, NULL, "pct", \
			      IL_BG_WHEEL_HELP }

/** il_idle_bg_setup - start the background of @args on every CPU but @skip_cpu (-1: none) */
int il_idle_bg_setup(struct il_sim *sim, struct il_bg **bg, const struct il_scn_args *args,
		     int skip_cpu);
/** il_idle_wakeups_per_s - the idle scenarios' score */
double il_idle_wakeups_per_s(const struct il_sim *sim);

#endif /* IDLELAB_SCN_IDLE_H */
