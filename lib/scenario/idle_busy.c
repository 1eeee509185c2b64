// SPDX-License-Identifier: GPL-2.0-only
/*
 * idle_busy.c - the idle system with one CPU 100 % busy (the 2018 "100% load on one CPU").
 *
 * DOC: idle-busy model
 *
 * seeds/003, Doug Smythies, "Part 2: 100% load on one CPU test. Test duration 4 hours":
 * one CPU (busy_cpu, default the last) runs a CPU hog for the whole run; the others are
 * idle with the background model of the idle scenario. The busy CPU's tick keeps the
 * scheduler's nohz idle balancing going: every kick_ms it kicks the first idle CPU with an
 * IPI that runs the balancing softirq there and wakes no task (a non-timer wakeup).
 * kick_ms defaults to 32 ms, LOAD_AVG_PERIOD, the period of the blocked-load updates that
 * trigger the kick when a single task runs. Score: wakeups_per_s, as for idle.
 */
#include "idle.h"

enum { P_BUSY = IL_IDLE_NPARAMS, P_KICK };

static const struct il_scn_param idle_busy_params[] = {
	IL_IDLE_BG_PARAMS,
	[P_BUSY] = { "busy_cpu", IL_SCN_INT, -1, -1, IL_SIM_CPUS_MAX - 1, NULL, "",
		     "the busy CPU; -1: the last" },
	[P_KICK] = { "kick_ms", IL_SCN_INT, 32, 0, 100000, NULL, "ms",
		     "nohz idle-balance kick period (0: none)" },
	{ 0 }
};

struct idle_busy_ctx {
	struct il_bg *bg;
	unsigned int busy;
	u64 kick_ns;
	struct il_sim_timer kick; /* on the busy CPU, standing in for its tick */
};

/* Kick the first idle CPU, as find_new_ilb() picks it, and re-arm. */
static void idle_busy_kick(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct idle_busy_ctx *ib = arg;
	unsigned int n = il_sim_ncpus(sim);

	for (unsigned int c = 0; c < n; c++) {
		if (c != ib->busy && il_sim_cpu_idle(sim, c)) {
			il_sim_irq(sim, c, il_sim_now(sim), NULL, NULL, -1);
			break;
		}
	}
	il_sim_timer_start(sim, &ib->kick, cpu, il_sim_now(sim) + ib->kick_ns);
}

static int idle_busy_setup(struct il_sim *sim, void *ctx, const struct il_scn_args *args)
{
	struct idle_busy_ctx *ib = ctx;
	unsigned int n = il_sim_ncpus(sim);

	ib->busy = args->v[P_BUSY] < 0 ? n - 1 : (unsigned int)args->v[P_BUSY] % n;
	ib->kick_ns = (u64)args->v[P_KICK] * NSEC_PER_MSEC;
	/* The hog runs past the end of any run. */
	if (il_sim_wake(sim, ib->busy, ib->busy, (u64)KTIME_MAX / 2, NULL, NULL, -1))
		return -1;
	if (il_idle_bg_setup(sim, &ib->bg, args, (int)ib->busy))
		return -1;
	il_sim_timer_init(&ib->kick, idle_busy_kick, ib);
	if (ib->kick_ns && n > 1)
		return il_sim_timer_start(sim, &ib->kick, ib->busy, ib->kick_ns);
	return 0;
}

static void idle_busy_cleanup(void *ctx)
{
	il_bg_free(((struct idle_busy_ctx *)ctx)->bg);
}

static double idle_busy_score(const struct il_sim *sim, const void *ctx)
{
	return il_idle_wakeups_per_s(sim);
}

const struct il_scenario il_scn_idle_busy = {
	.name = "idle-busy",
	.summary = "idle system with one CPU 100% busy (nohz idle-balance kicks to idle CPUs)",
	.score = "wakeups_per_s",
	.score_help = "idle periods ended by an interrupt or by work, per second, all CPUs",
	.score_prec = 1,
	.higher_is_better = false,
	.sources = "Doug Smythies' 100% load on one CPU test (seeds/003)",
	.params = idle_busy_params,
	.ctx_size = sizeof(struct idle_busy_ctx),
	.setup = idle_busy_setup,
	.cleanup = idle_busy_cleanup,
	.score_fn = idle_busy_score,
};
