// SPDX-License-Identifier: GPL-2.0-only
/*
 * adrestia.c - the wakeup cost of periodic 20 µs sleeps (adrestia's "periodic" test).
 *
 * DOC: adrestia model
 *
 * seeds/000 test 6, "adrestia wakeup latency tests ... wakeup cost (periodic, 20us):
 * 3331nSec" (teo-6.13 on the i5-10600K; menu-6.13 3207 ns). Threads (one per CPU by
 * default) sleep interval_us on a timer, then run work_ns; the wakeup cost is the time
 * from the timer's expiry until the thread runs. The simulator charges only the idle
 * state's exit latency (and nothing for the timer interrupt or the context switch), so
 * its costs are the idle-state part of adrestia's number. Score: wakeup_ns.
 */
#include "background.h"
#include "scenario.h"
#include "sleepers.h"

enum { P_THREADS, P_INTERVAL, P_WORK, P_BG, P_BG_SHAPE };

static const struct il_scn_param adrestia_params[] = {
	[P_THREADS] = { "threads", IL_SCN_INT, 0, 0, 100000, NULL, "",
			"sleeping threads; 0: one per CPU" },
	[P_INTERVAL] = { "interval_us", IL_SCN_INT, 20, 1, 100000000, NULL, "us",
			 "sleep per loop" },
	[P_WORK] = { "work_ns", IL_SCN_INT, 1000, 1, 100000000, NULL, "", "work per wakeup" },
	[P_BG] = { "background", IL_SCN_INT, 1, 0, 1, NULL, "",
		   "housekeeping timers and interrupts" },
	IL_BG_PARAMS(P_BG_SHAPE),
	{ 0 }
};

static int adrestia_setup(struct il_sim *sim, void *ctx, const struct il_scn_args *args)
{
	struct il_sleepers_params p = {
		.threads =
			args->v[P_THREADS] ? (unsigned int)args->v[P_THREADS] : il_sim_ncpus(sim),
		.work_ns = (u64)args->v[P_WORK],
		.sleep_ns = (u64)args->v[P_INTERVAL] * NSEC_PER_USEC,
	};

	return il_sleepers_scn_setup(sim, ctx, &p, args->v[P_BG], &args->v[P_BG_SHAPE]);
}

static double adrestia_score(const struct il_sim *sim, const void *ctx)
{
	return il_sleepers_cost_ns(((const struct il_sleepers_scn *)ctx)->s);
}

const struct il_scenario il_scn_adrestia = {
	.name = "adrestia",
	.summary = "periodic 20 us timer sleeps: the idle-state part of the wakeup cost",
	.score = "wakeup_ns",
	.score_help = "mean ns from timer expiry until the thread runs",
	.score_prec = 0,
	.higher_is_better = false,
	.sources = "adrestia periodic test as Doug Smythies runs it, seeds/000 test 6",
	.params = adrestia_params,
	.ctx_size = sizeof(struct il_sleepers_scn),
	.setup = adrestia_setup,
	.cleanup = il_sleepers_scn_cleanup,
	.score_fn = adrestia_score,
};
