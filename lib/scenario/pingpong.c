// SPDX-License-Identifier: GPL-2.0-only
/*
 * pingpong.c - a token passed around a ring of CPUs (Doug Smythies' ping-pong tests).
 *
 * DOC: ping-pong model
 *
 * seeds/000, tests 2-4: "Pass a token between 2 CPUs on 2 different cores. Do a variable
 * amount of work at each stop. NOT a timer based test." with 2, 6 and 12 CPUs. Here:
 *
 *  1. the CPUs of the ring (cpus=N, default 2) hold one token; the CPU that holds it runs
 *     work_us of work plus overhead_ns (the pipe write, the read on the other side and the
 *     context switches), then wakes the next CPU of the ring;
 *  2. the next CPU sees the wakeup at once if it is polling, otherwise after an IPI and the
 *     exit latency of its idle state: this is where idle-state choices cost throughput;
 *  3. score: us_per_loop, the simulated time divided by the number of full trips around
 *     the ring. Doug's "fast" dwell point on the i5-10600K is about 3.8 µs per loop for
 *     2 CPUs: the default overhead of 900 ns per stop plus the 1 µs exit latency of C1 (no
 *     IPI: intel_idle's MWAIT sees need_resched directly) lands there when both CPUs use C1;
 *     both CPUs polling would give 1.8 µs.
 *
 * There are no timers in the ring; the background model (on by default) adds the rare
 * housekeeping wakeups of a real system.
 */
#include "background.h"
#include "scenario.h"

enum { P_WORK, P_OVERHEAD, P_BG };

static const struct il_scn_param pingpong_params[] = {
	[P_WORK] = { "work_us", IL_SCN_INT, 0, 0, 100000000, NULL, "us", "work at each stop" },
	[P_OVERHEAD] = { "overhead_ns", IL_SCN_INT, 900, 0, 100000000, NULL, "",
			 "pipe and context-switch cost per stop" },
	[P_BG] = { "background", IL_SCN_INT, 1, 0, 1, NULL, "",
		   "housekeeping timers and interrupts" },
	{ 0 }
};

struct pingpong_ctx {
	u64 stop_ns;
	u64 stops;
	unsigned int ncpus;
	struct il_bg *bg;
};

static void pingpong_pass(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct pingpong_ctx *pp = arg;
	unsigned int next = (cpu + 1) % pp->ncpus;

	pp->stops++;
	il_sim_wake(sim, cpu, next, pp->stop_ns, pingpong_pass, pp, (int)((next + 1) % pp->ncpus));
}

static int pingpong_setup(struct il_sim *sim, void *ctx, const struct il_scn_args *args)
{
	struct pingpong_ctx *pp = ctx;

	pp->ncpus = il_sim_ncpus(sim);
	pp->stop_ns = (u64)args->v[P_WORK] * NSEC_PER_USEC + (u64)args->v[P_OVERHEAD];
	if (!pp->stop_ns)
		pp->stop_ns = 1; /* a token that costs nothing would never let time advance */
	if (il_bg_start_default(sim, args->v[P_BG], 2, &pp->bg))
		return -1;
	return il_sim_wake(sim, 0, 0, pp->stop_ns, pingpong_pass, pp, pp->ncpus > 1 ? 1 : 0);
}

static void pingpong_cleanup(void *ctx)
{
	il_bg_free(((struct pingpong_ctx *)ctx)->bg);
}

static double pingpong_score(const struct il_sim *sim, const void *ctx)
{
	const struct pingpong_ctx *pp = ctx;
	double loops = (double)pp->stops / pp->ncpus;

	return loops > 0 ? (double)il_sim_duration_ns(sim) / 1e3 / loops : 0.0;
}

/* A ring of one CPU passes the token to itself: it never idles, and its score means nothing. */
static int pingpong_check(const struct il_scn_args *args, struct il_scn_common *common,
			  struct il_error *err)
{
	if (common->cpus == 1)
		return il_error_set(err, "pingpong", 0,
				    "cpus=1: the token needs a ring of at least 2 CPUs (one runs "
				    "while the others idle); a ring of one never idles");
	return 0;
}

const struct il_scenario il_scn_pingpong = {
	.name = "pingpong",
	.summary =
		"a token passed around a ring of CPUs with work at each stop (non-timer wakeups)",
	.score = "us_per_loop",
	.score_help = "simulated µs per trip around the ring",
	.score_prec = 3,
	.higher_is_better = false,
	.default_cpus = 2,
	.sources =
		"Doug Smythies' 2/6/12-CPU ping-pong sweeps and dwell points, seeds/000 tests 2-4",
	.params = pingpong_params,
	.ctx_size = sizeof(struct pingpong_ctx),
	.setup = pingpong_setup,
	.cleanup = pingpong_cleanup,
	.score_fn = pingpong_score,
	.check = pingpong_check,
};
