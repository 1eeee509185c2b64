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

enum { P_N, P_WORK, P_SLEEP, P_BG };

static const struct il_scn_param threads_params[] = {
	[P_N] = { "n", IL_SCN_INT, 500, 1, 100000, NULL, "", "threads" },
	[P_WORK] = { "work_us", IL_SCN_INT, 10, 1, 100000000, NULL, "us", "median work per loop (log-normal, sigma 0.3)" },
	[P_SLEEP] = { "sleep_us", IL_SCN_INT, 2000, 1, 100000000, NULL, "us", "sleep per loop (timer)" },
	[P_BG] = { "background", IL_SCN_INT, 1, 0, 1, NULL, "", "housekeeping timers and interrupts" },
	{ 0 }
};

struct threads_ctx {
	struct il_sleepers *s;
	struct il_bg *bg;
};

static int threads_setup(struct il_sim *sim, void *ctx, const struct il_scn_args *args)
{
	struct threads_ctx *t = ctx;
	struct il_sleepers_params p = {
		.threads = (unsigned int)args->v[P_N],
		.work_ns = (u64)args->v[P_WORK] * NSEC_PER_USEC,
		.work_sigma = 300,
		.sleep_ns = (u64)args->v[P_SLEEP] * NSEC_PER_USEC,
	};

	t->s = il_sleepers_start(sim, &p, 1);
	if (!t->s)
		return -1;
	if (args->v[P_BG]) {
		struct il_bg_params bp;

		il_bg_defaults(&bp);
		t->bg = il_bg_start(sim, &bp, 2);
		if (!t->bg)
			return -1;
	}
	return 0;
}

static void threads_cleanup(void *ctx)
{
	struct threads_ctx *t = ctx;

	il_sleepers_free(t->s);
	il_bg_free(t->bg);
}

static double threads_score(const struct il_sim *sim, const void *ctx)
{
	const struct threads_ctx *t = ctx;

	return (double)il_sleepers_loops(t->s) * 1e9 / (double)il_sim_duration_ns(sim);
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
	.ctx_size = sizeof(struct threads_ctx),
	.setup = threads_setup,
	.cleanup = threads_cleanup,
	.score_fn = threads_score,
};
