// SPDX-License-Identifier: GPL-2.0-only
/*
 * ebizzy.c - sleeping ebizzy: threads that look up records, then sleep.
 *
 * DOC: ebizzy model
 *
 * seeds/000 test 5, "sleeping ebizzy - 128 threads ... The test varies the sleep interval
 * between record lookups." (the sleeping variant of ebizzy, github pratiksampat). Each of
 * n threads (128) searches for search_us (log-normal, sigma 0.5: lookups differ) and then
 * sleeps interval_us on a timer; sweep interval_us to move the load across idle states.
 * Score: records_per_s, one record per search (Doug's "records per second").
 */
#include "background.h"
#include "scenario.h"
#include "sleepers.h"

enum { P_N, P_SEARCH, P_INTERVAL, P_BG, P_BG_SHAPE };

static const struct il_scn_param ebizzy_params[] = {
	[P_N] = { "n", IL_SCN_INT, 128, 1, 100000, NULL, "", "threads" },
	[P_SEARCH] = { "search_us", IL_SCN_INT, 50, 1, 100000000, NULL, "us",
		       "median time of one record search" },
	[P_INTERVAL] = { "interval_us", IL_SCN_INT, 500, 1, 100000000, NULL, "us",
			 "sleep between searches (the swept variable)" },
	[P_BG] = { "background", IL_SCN_INT, 1, 0, 1, NULL, "",
		   "housekeeping timers and interrupts" },
	IL_BG_PARAMS(P_BG_SHAPE),
	{ 0 }
};

static int ebizzy_setup(struct il_sim *sim, void *ctx, const struct il_scn_args *args)
{
	struct il_sleepers_params p = {
		.threads = (unsigned int)args->v[P_N],
		.work_ns = (u64)args->v[P_SEARCH] * NSEC_PER_USEC,
		.work_sigma = 500,
		.sleep_ns = (u64)args->v[P_INTERVAL] * NSEC_PER_USEC,
	};

	return il_sleepers_scn_setup(sim, ctx, &p, args->v[P_BG], &args->v[P_BG_SHAPE]);
}

const struct il_scenario il_scn_ebizzy = {
	.name = "ebizzy",
	.summary = "sleeping ebizzy: threads searching records with a sleep between searches",
	.score = "records_per_s",
	.score_help = "record searches per second, all threads",
	.score_prec = 0,
	.higher_is_better = true,
	.sources = "Doug Smythies' sleeping-ebizzy test, seeds/000 test 5 (amounts assumed)",
	.params = ebizzy_params,
	.ctx_size = sizeof(struct il_sleepers_scn),
	.setup = ebizzy_setup,
	.cleanup = il_sleepers_scn_cleanup,
	.score_fn = il_sleepers_scn_loops_per_s,
};
