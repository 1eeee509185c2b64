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
 *     CPU (powertop); the defaults give 60-70 idle periods per second per CPU (the idle
 *     scenario: 71 on rk3588, 59 on the i5-10600K), of which the timers are ~50.
 *  2. On expiry a timer wakes a kworker on its CPU with probability task_pct %, for 3-30 µs.
 *     With probability burst_pct % that work starts a chain of 1-3 more short pieces, each
 *     after a device-interrupt wait of 20-300 µs (non-timer wakeups the governors cannot
 *     see coming).
 *  3. With probability pair_pct % an expiry has a companion timer 2-40 µs later that runs
 *     only softirq work (two timer bases expiring close together).
 *  4. Device interrupts arrive system-wide at irq_hz per second (Poisson), on a random CPU;
 *     half of them wake a short task.
 *  5. rate_pct scales the whole activity's rate: every timer period (after it is drawn) and
 *     the mean gap between device interrupts are divided by rate_pct / 100, so that 100 is
 *     the model above, draw for draw, and 200 the same pattern twice as often. It is the
 *     scenarios' bg_rate_pct parameter (IL_BG_PARAMS), the first knob an ensemble turns:
 *     its class and range, from powertop, the 6.18 guest's idle trace and the seeds' rk3588,
 *     are il_bg_rate_unc's.
 *  6. Of the shape, the numbers an ensemble turns too are those a real source counts: the
 *     burst share (the scenarios' bg_burst_pct; the idle scenarios' burst_pct), which the
 *     sources that count an idle CPU's misses bound and disagree on (il_bg_burst_unc), and
 *     the device interrupts' rate and the companion share (bg_irq_hz, bg_pair_pct; irq_hz,
 *     pair_pct), which the 6.18 guest's idle trace bounds (il_bg_irq_unc, il_bg_pair_unc).
 *     The timers' number and periods are the model's: bg_rate_pct ranges the rate they give.
 *  7. wheel_pct % of the periodic timers are timer_list timers: each expiry runs at the tick
 *     where the kernel's timer wheel runs it (lib/sim/wheel.c), so that a CPU's timers that
 *     fall into one bucket end one idle period, not several. The rest are hrtimers, run at
 *     their expiry, and so are the companions. The default is 0, the model before the wheel,
 *     until the figures measured with it are re-run (docs/lab.md, "teo's too-deep periods
 *     on an idle CPU, and the timer wheel"). fio's bg_hz timers take it too.
 */
#ifndef IDLELAB_SCN_BACKGROUND_H
#define IDLELAB_SCN_BACKGROUND_H

#include <stdbool.h>

#include "../sim/sim.h"
#include "scenario.h"

struct il_bg_params {
	unsigned int timers;       /* per CPU */
	u64 period_min_us;
	u64 period_max_us;
	unsigned int task_pct;
	unsigned int burst_pct;
	unsigned int pair_pct;
	unsigned int irq_hz;       /* system-wide */
	unsigned int rate_pct;     /* the rate of it all, % of the above (5. of the DOC) */
	unsigned int wheel_pct;    /* timers on the timer wheel (7. of the DOC) */
	int skip_cpu;              /* a CPU without background timers (a busy one), -1: none */
};

/* The burst share of the default background: its nominal value, ranged by il_bg_burst_unc. */
#define IL_BG_BURST_PCT 30

/*
 * Defaults: 4 timers per CPU between 20 ms and 1 s, 50 % wake a task, 30 % bursts, all CPUs,
 * rate 100 %.
 */
void il_bg_defaults(struct il_bg_params *p);

struct il_bg;

/**
 * il_bg_start - arm the background activity on @sim; it lives until il_bg_free()
 * Return: the state, or NULL with errno set.
 */
struct il_bg *il_bg_start(struct il_sim *sim, const struct il_bg_params *p, u64 stream);
void il_bg_free(struct il_bg *bg);

/*
 * The background's numbers that every scenario with the default background takes as its
 * last parameters, in this order (IL_BG_PARAMS); the idle scenarios have their own names.
 */
enum { IL_BG_P_RATE, IL_BG_P_BURST, IL_BG_P_IRQ, IL_BG_P_PAIR, IL_BG_P_WHEEL, IL_BG_NPARAMS };
/* Of them, the ones with a class and range (all but the wheel share, a switch for now). */
#define IL_BG_NRANGED 4

/** il_bg_apply_shape - set @p's rate and shape from a scenario's IL_BG_PARAMS values @shape */
void il_bg_apply_shape(struct il_bg_params *p, const s64 shape[IL_BG_NPARAMS]);

/**
 * il_bg_start_default - a scenario's "background" parameter: when @on, start the default
 * activity (il_bg_defaults()) with the rate and shape of @shape (il_bg_apply_shape()) on
 * @stream into *@bg; when not, leave *@bg alone
 * Return: 0, or -1 with errno set.
 */
int il_bg_start_default(struct il_sim *sim, bool on, const s64 shape[IL_BG_NPARAMS], u64 stream,
			struct il_bg **bg);

/*
 * The classes and ranges of the background's rate, burst share, interrupt rate and companion
 * share (background.c says where they come from). Whether they are in play is the
 * scenario's: the off_with and replaced_by of its IL_BG_PARAMS_UNC entries.
 */
extern const struct il_scn_unc il_bg_rate_unc, il_bg_burst_unc, il_bg_irq_unc, il_bg_pair_unc;

/*
 * The bg_rate_pct entry of a scenario's parameter table, out of play when the parameter
 * named @off_with is 0 (NULL: never).
 */
#define IL_BG_RATE_PARAM_UNC(off_with) \
	{ "bg_rate_pct", IL_SCN_INT, 100, 1, 10000, NULL, "pct", \
	  "the background's rate, % of the model's (its timer periods and interrupt gaps " \
	  "divided by it)", &il_bg_rate_unc, off_with }

/* The nominal interrupt rate and companion share of the default background. */
#define IL_BG_IRQ_HZ 20
#define IL_BG_PAIR_PCT 10

#define IL_BG_BURST_HELP "kworker runs that start a chain of short I/O waits"
#define IL_BG_IRQ_HELP "device interrupts per second, system-wide"
#define IL_BG_PAIR_HELP "expiries followed 2-40 µs later by a softirq-only timer"

/* The share of the timers on the timer wheel: 0 (all hrtimers) until the model switches. */
#define IL_BG_WHEEL_PCT 0
#define IL_BG_WHEEL_HELP \
	"periodic timers that are timer_list timers, run by the timer wheel at a tick (%; 0: " \
	"all are hrtimers, run at their expiry; the 6.18 guest's idle trace has 91)"

/*
 * The IL_BG_NPARAMS entries of a scenario's parameter table from index @first: the
 * background is out of play when the parameter named @off_with is 0 (NULL: never, the idle
 * scenarios, whose background is all they run), and its shape (bursts, interrupts,
 * companions) also when the one named @shape_replaced_by is not (fio's bg_hz, a timer-only
 * background that the rate still scales; NULL: never).
 */
#define IL_BG_PARAMS_UNC(first, off_with, shape_replaced_by) \
	[(first) + IL_BG_P_RATE] = IL_BG_RATE_PARAM_UNC(off_with), \
	[(first) + IL_BG_P_BURST] = { "bg_burst_pct", IL_SCN_INT, IL_BG_BURST_PCT, 0, 100, NULL, \
				      "pct", "the background's " IL_BG_BURST_HELP " (%)", \
				      &il_bg_burst_unc, off_with, shape_replaced_by }, \
	[(first) + IL_BG_P_IRQ] = { "bg_irq_hz", IL_SCN_INT, IL_BG_IRQ_HZ, 0, 1000000, NULL, \
				    "hz", "the background's " IL_BG_IRQ_HELP, &il_bg_irq_unc, \
				    off_with, shape_replaced_by }, \
	[(first) + IL_BG_P_PAIR] = { "bg_pair_pct", IL_SCN_INT, IL_BG_PAIR_PCT, 0, 100, NULL, \
				     "pct", "the background's timer " IL_BG_PAIR_HELP " (%)", \
				     &il_bg_pair_unc, off_with, shape_replaced_by }, \
	[(first) + IL_BG_P_WHEEL] = { "bg_wheel_pct", IL_SCN_INT, IL_BG_WHEEL_PCT, 0, 100, NULL, \
				      "pct", "the background's " IL_BG_WHEEL_HELP }
/* ... of a scenario whose "background" parameter switches the background on and off */
#define IL_BG_PARAMS(first) IL_BG_PARAMS_UNC(first, "background", NULL)

#endif /* IDLELAB_SCN_BACKGROUND_H */
