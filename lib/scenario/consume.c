// SPDX-License-Identifier: GPL-2.0-only
/*
 * consume.c - periodic work/sleep at a fixed frequency and load (Doug Smythies' "consume").
 *
 * DOC: consume model
 *
 * seeds/000 test 7: "periodic workflow. Various work/sleep frequencies and loads ... 73,
 * 113, 211, 347, and 401 Hertz. IS a timer based test." Each of `threads` threads (one
 * per CPU, from CPU 0) wakes on an absolute periodic timer at freq Hz, works load % of
 * the period and sleeps until the next period. Its idle periods are timer wakeups that
 * every governor can see; the interest is which state it picks and the power.
 *
 * Score: late_us, the mean delay from the period's timer to the start of the work (the
 * exit latency of the state the CPU was in, when it was not polling).
 */
#include <stdio.h>
#include <stdlib.h>

#include "background.h"
#include "scenario.h"

enum { P_FREQ, P_LOAD, P_THREADS, P_BG, P_BG_SHAPE };

static const struct il_scn_param consume_params[] = {
	[P_FREQ] = { "freq", IL_SCN_INT, 73, 1, 100000, NULL, "hz",
		     "work/sleep frequency (the seeds: 73, 113, 211, 347, 401)" },
	[P_LOAD] = { "load", IL_SCN_INT, 30, 0, 100, NULL, "pct", "work share of each period" },
	[P_THREADS] = { "threads", IL_SCN_INT, 1, 1, IL_SIM_CPUS_MAX, NULL, "",
			"threads, one per CPU from CPU 0" },
	[P_BG] = { "background", IL_SCN_INT, 1, 0, 1, NULL, "",
		   "housekeeping timers and interrupts" },
	IL_BG_PARAMS(P_BG_SHAPE),
	{ 0 }
};

struct consume_thread {
	struct consume_ctx *cc;
	struct il_sim_timer timer;
	u64 period_start;
};

struct consume_ctx {
	u64 period_ns;
	u64 work_ns;
	struct consume_thread *threads;
	unsigned int nthreads;
	u64 late_sum_ns;
	u64 periods;
	struct il_bg *bg;
};

static void consume_done(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct consume_thread *t = arg;

	t->period_start += t->cc->period_ns;
	il_sim_timer_start(sim, &t->timer, cpu, t->period_start);
}

static void consume_started(struct consume_ctx *cc, struct consume_thread *t, u64 start)
{
	cc->late_sum_ns += start - t->period_start;
	cc->periods++;
}

/* The work's start is known when it ends: its done time minus its length. */
static void consume_work_done(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct consume_thread *t = arg;

	consume_started(t->cc, t, il_sim_now(sim) - t->cc->work_ns);
	consume_done(sim, cpu, arg);
}

static void consume_timer(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct consume_thread *t = arg;

	il_sim_wake(sim, cpu, cpu, t->cc->work_ns, consume_work_done, t, -1);
}

static int consume_setup(struct il_sim *sim, void *ctx, const struct il_scn_args *args)
{
	struct consume_ctx *cc = ctx;
	unsigned int ncpus = il_sim_ncpus(sim);

	cc->period_ns = NSEC_PER_SEC / (u64)args->v[P_FREQ];
	cc->work_ns = cc->period_ns * (u64)args->v[P_LOAD] / 100;
	if (!cc->work_ns)
		cc->work_ns = 1;
	cc->nthreads =
		(unsigned int)args->v[P_THREADS] < ncpus ? (unsigned int)args->v[P_THREADS] : ncpus;
	cc->threads = calloc(cc->nthreads, sizeof(*cc->threads));
	if (!cc->threads)
		return -1;
	for (unsigned int i = 0; i < cc->nthreads; i++) {
		struct consume_thread *t = &cc->threads[i];

		t->cc = cc;
		t->period_start = cc->period_ns;
		il_sim_timer_init(&t->timer, consume_timer, t);
		if (il_sim_timer_start(sim, &t->timer, i, t->period_start))
			return -1;
	}
	return il_bg_start_default(sim, args->v[P_BG], &args->v[P_BG_SHAPE], 2, &cc->bg);
}

static void consume_cleanup(void *ctx)
{
	struct consume_ctx *cc = ctx;

	free(cc->threads);
	il_bg_free(cc->bg);
}

static double consume_score(const struct il_sim *sim, const void *ctx)
{
	const struct consume_ctx *cc = ctx;

	return cc->periods ? (double)cc->late_sum_ns / 1e3 / (double)cc->periods : 0.0;
}

static void consume_label(const struct il_scn_args *args, char *buf, size_t cap)
{
	snprintf(buf, cap, "%lldhz-%lld%%", (long long)args->v[P_FREQ], (long long)args->v[P_LOAD]);
}

const struct il_scenario il_scn_consume = {
	.name = "consume",
	.summary = "periodic timer-based work/sleep at a fixed frequency and load",
	.score = "late_us",
	.score_help = "mean µs from the period timer to the start of the work",
	.score_prec = 3,
	.higher_is_better = false,
	.default_cpus = 0,
	.sources = "Doug Smythies' consume test, seeds/000 test 7",
	.params = consume_params,
	.ctx_size = sizeof(struct consume_ctx),
	.setup = consume_setup,
	.cleanup = consume_cleanup,
	.score_fn = consume_score,
	.label = consume_label,
};
