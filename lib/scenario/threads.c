// SPDX-License-Identifier: GPL-2.0-only
/*
 * threads.c - many threads doing a little work and sleeping a little (Doug Smythies).
 *
 * DOC: threads model
 *
 * seeds/000 test 9: "500 threads of do a little work and then sleep a little. IS a timer
 * based test." Here n threads (default 500) spread over the CPUs each run work_us
 * (log-normal, sigma 0.3) and sleep sleep_us on a timer, through lib/scenario/sleepers.h.
 * The defaults (10 µs of work, 2 ms of sleep: about 20 % load on 12 CPUs) are assumptions;
 * the thread does not give Doug's numbers. Score: loops_per_s, all threads together.
 */
#include "background.h"
#include "scenario.h"
#include "sleepers.h"

enum { P_N, P_WORK, P_SLEEP, P_BG, P_BG_SHAPE };

static const struct il_scn_param threads_params[] = {
	[P_N] = { "n", IL_SCN_INT, 500, 1, 100000, NULL, "", "threads" },
	[P_WORK] = { "work_us", IL_SCN_INT, 10, 1, 100000000, NULL, "us",
		     "median work per loop (log-normal, sigma 0.3)" },
	[P_SLEEP] = { "sleep_us", IL_SCN_INT, 2000, 1, 100000000, NULL, "us",
		      "sleep per loop (timer)" },
	[P_BG] = { "background", IL_SCN_INT, 1, 0, 1, NULL, "",
		   "housekeeping timers and interrupts" },
	IL_BG_PARAMS(P_BG_SHAPE),
	{ 0 }
};

static int threads_setup(struct il_sim *sim, void *ctx, const struct il_scn_args *args)
{
	struct il_sleepers_params p = {
		.threads = (unsigned int)args->v[P_N],
		.work_ns = (u64)args->v[P_WORK] * NSEC_PER_USEC,
		.work_sigma = 300,
		.sleep_ns = (u64)args->v[P_SLEEP] * NSEC_PER_USEC,
	};

	return il_sleepers_scn_setup(sim, ctx, &p, args->v[P_BG], &args->v[P_BG_SHAPE]);
}

const struct il_scenario il_scn_threads = {
	.name = "threads",
	.summary = "many threads doing a little work and sleeping a little on timers",
	.score = "loops_per_s",
	.score_help = "work/sleep loops per second, all threads",
	.score_prec = 0,
	.higher_is_better = true,
	.sources = "Doug Smythies' many-threads periodic test, seeds/000 test 9 (amounts assumed)",
	.params = threads_params,
	.ctx_size = sizeof(struct il_sleepers_scn),
	.setup = threads_setup,
	.cleanup = il_sleepers_scn_cleanup,
	.score_fn = il_sleepers_scn_loops_per_s,
};
