// SPDX-License-Identifier: GPL-2.0-only
/*
 * jbb.c - SPECjbb-like request handling: frequent non-timer wakeups, short idles of high
 * variance, few timer interrupts.
 *
 * DOC: jbb model
 *
 * The workload behind the Feb-2025 menu series (seeds/000, cover letter): after commit
 * 0611a640e60a the local timer interrupt rate fell by almost 80 % and menu, reading mostly
 * timers, picked the deepest state far too often, halving critical-jOPS. Here every CPU
 * serves requests that arrive by IPI from the network or from other threads (Poisson,
 * mean gap gap_us), each taking work_us (log-normal, sigma 0.8: short and long
 * transactions mixed). The background timers are thinned to timer_pct % of their rate
 * (100 gives the default background, the "before" case; the default 20 is the "after").
 * Score: resp_us, the mean time from a request's arrival to its completion (requests
 * still in service when the run ends are not counted).
 */
#include <stdlib.h>

#include "background.h"
#include "scenario.h"
#include "util/array.h"

enum { P_GAP, P_WORK, P_SIGMA, P_TIMER, P_BG_SHAPE };

static const struct il_scn_param jbb_params[] = {
	[P_GAP] = { "gap_us", IL_SCN_INT, 150, 1, 100000000, NULL, "us",
		    "mean time between requests per CPU" },
	[P_WORK] = { "work_us", IL_SCN_INT, 40, 1, 100000000, NULL, "us", "median service time" },
	[P_SIGMA] = { "work_sigma", IL_SCN_INT, 800, 0, 3000, NULL, "",
		      "log-normal sigma x1000 of the service time" },
	[P_TIMER] = { "timer_pct", IL_SCN_INT, 20, 0, 1000, NULL, "pct",
		      "background timer rate in % of the default" },
	IL_BG_PARAMS_UNC(P_BG_SHAPE, "timer_pct", NULL),
	{ 0 }
};

struct jbb_request {
	struct jbb_ctx *j;
	u64 arrived_ns;
	struct jbb_request *next_free;
};

/* Requests come from blocks kept on a list, and go back to a free list when served. */
struct jbb_block {
	struct jbb_block *next;
	struct jbb_request req[256];
};

struct jbb_ctx {
	u64 gap_ns;
	u64 work_ns;
	unsigned int sigma;
	struct il_rng rng;
	u64 done;
	u64 resp_sum_ns;
	struct jbb_block *blocks;
	struct jbb_request *free;
	struct il_bg *bg;
};

static struct jbb_request *jbb_alloc(struct jbb_ctx *j)
{
	struct jbb_request *r;

	if (!j->free) {
		struct jbb_block *b = calloc(1, sizeof(*b));

		if (!b)
			return NULL;
		b->next = j->blocks;
		j->blocks = b;
		for (size_t i = 0; i < ARRAY_SIZE(b->req); i++) {
			b->req[i].next_free = j->free;
			j->free = &b->req[i];
		}
	}
	r = j->free;
	j->free = r->next_free;
	return r;
}

static void jbb_arrive(struct il_sim *sim, unsigned int cpu, void *arg);

static void jbb_done(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct jbb_request *r = arg;
	struct jbb_ctx *j = r->j;

	j->done++;
	j->resp_sum_ns += il_sim_now(sim) - r->arrived_ns;
	r->next_free = j->free;
	j->free = r;
}

static void jbb_schedule(struct il_sim *sim, struct jbb_ctx *j, unsigned int cpu)
{
	il_sim_irq(sim, cpu, il_sim_now(sim) + il_rng_exp_ns(&j->rng, j->gap_ns), jbb_arrive, j,
		   -1);
}

static void jbb_arrive(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct jbb_ctx *j = arg;
	struct jbb_request *r = jbb_alloc(j);
	u64 work = il_rng_lognormal_ns(&j->rng, j->work_ns, j->sigma);

	if (r) {
		r->j = j;
		r->arrived_ns = il_sim_now(sim);
		il_sim_wake(sim, cpu, cpu, work ? work : 1, jbb_done, r, -1);
	}
	jbb_schedule(sim, j, cpu);
}

static int jbb_setup(struct il_sim *sim, void *ctx, const struct il_scn_args *args)
{
	struct jbb_ctx *j = ctx;
	unsigned int n = il_sim_ncpus(sim);
	struct il_bg_params bp;

	j->gap_ns = (u64)args->v[P_GAP] * NSEC_PER_USEC;
	j->work_ns = (u64)args->v[P_WORK] * NSEC_PER_USEC;
	j->sigma = (unsigned int)args->v[P_SIGMA];
	il_sim_rng_init(sim, &j->rng, 1);
	for (unsigned int c = 0; c < n; c++)
		jbb_schedule(sim, j, c);
	il_bg_defaults(&bp);
	il_bg_apply_shape(&bp, &args->v[P_BG_SHAPE]);
	if (!args->v[P_TIMER])
		return 0;
	/* Fewer timer wakeups: the same timers, periods stretched by 100 / timer_pct. */
	bp.period_min_us = bp.period_min_us * 100 / (u64)args->v[P_TIMER];
	bp.period_max_us = bp.period_max_us * 100 / (u64)args->v[P_TIMER];
	j->bg = il_bg_start(sim, &bp, 2);
	return j->bg ? 0 : -1;
}

static void jbb_cleanup(void *ctx)
{
	struct jbb_ctx *j = ctx;

	while (j->blocks) {
		struct jbb_block *b = j->blocks;

		j->blocks = b->next;
		free(b);
	}
	il_bg_free(j->bg);
}

static double jbb_score(const struct il_sim *sim, const void *ctx)
{
	const struct jbb_ctx *j = ctx;

	return j->done ? (double)j->resp_sum_ns / 1e3 / (double)j->done : 0.0;
}

const struct il_scenario il_scn_jbb = {
	.name = "jbb",
	.summary = "SPECjbb-like: requests by IPI, short high-variance idles, few timer interrupts",
	.score = "resp_us",
	.score_help = "mean µs from a request's arrival to its completion",
	.score_prec = 2,
	.higher_is_better = false,
	.sources = "the SPECjbb regression behind the Feb-2025 menu series, seeds/000 cover letter "
		   "(amounts assumed)",
	.params = jbb_params,
	.ctx_size = sizeof(struct jbb_ctx),
	.setup = jbb_setup,
	.cleanup = jbb_cleanup,
	.score_fn = jbb_score,
};
