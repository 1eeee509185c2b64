// SPDX-License-Identifier: GPL-2.0-only
/*
 * idle.c - an idle system: housekeeping timers, short work chains, rare interrupts.
 *
 * DOC: idle model
 *
 * The 2018 "System Idle" test of seeds/003 (Doug Smythies, 1-4 hours on an idle server,
 * counting PowerNightmares) and test 1 of seeds/000. Nothing runs but the background
 * model of lib/scenario/background.h, whose knobs are this scenario's parameters.
 * Score: wakeups_per_s, idle periods ended by an interrupt or by work, per second, summed
 * over CPUs (powertop's "wakeups").
 */
#include "background.h"
#include "idle.h"

static const struct il_scn_param idle_params[] = {
	IL_IDLE_BG_PARAMS,
	{ 0 }
};

int il_idle_bg_setup(struct il_sim *sim, struct il_bg **bg, const struct il_scn_args *args,
		     int skip_cpu)
{
	struct il_bg_params bp = {
		.timers = (unsigned int)args->v[IL_IDLE_P_TIMERS],
		.period_min_us = (u64)args->v[IL_IDLE_P_PMIN],
		.period_max_us = (u64)args->v[IL_IDLE_P_PMAX],
		.task_pct = (unsigned int)args->v[IL_IDLE_P_TASK],
		.burst_pct = (unsigned int)args->v[IL_IDLE_P_BURST],
		.pair_pct = (unsigned int)args->v[IL_IDLE_P_PAIR],
		.irq_hz = (unsigned int)args->v[IL_IDLE_P_IRQ],
		.rate_pct = (unsigned int)args->v[IL_IDLE_P_RATE],
		.wheel_pct = (unsigned int)args->v[IL_IDLE_P_WHEEL],
		.skip_cpu = skip_cpu,
	};

	*bg = il_bg_start(sim, &bp, 2);
	return *bg ? 0 : -1;
}

double il_idle_wakeups_per_s(const struct il_sim *sim)
{
	const struct il_metrics *m = il_sim_metrics(sim);
	u64 wakeups = 0;

	for (unsigned int c = 0; c < m->ncpus; c++)
		wakeups += m->cpu[c].wakeups;
	return (double)wakeups * 1e9 / (double)il_sim_duration_ns(sim);
}

struct idle_ctx {
	struct il_bg *bg;
};

static int idle_setup(struct il_sim *sim, void *ctx, const struct il_scn_args *args)
{
	return il_idle_bg_setup(sim, &((struct idle_ctx *)ctx)->bg, args, -1);
}

static void idle_cleanup(void *ctx)
{
	il_bg_free(((struct idle_ctx *)ctx)->bg);
}

static double idle_score(const struct il_sim *sim, const void *ctx)
{
	return il_idle_wakeups_per_s(sim);
}

const struct il_scenario il_scn_idle = {
	.name = "idle",
	.summary = "an idle system: housekeeping timers, short work chains, rare interrupts",
	.score = "wakeups_per_s",
	.score_help = "idle periods ended by an interrupt or by work, per second, all CPUs",
	.score_prec = 1,
	.higher_is_better = false,
	.sources = "Doug Smythies' idle tests (seeds/003, seeds/000 test 1); rates: background.h",
	.params = idle_params,
	.ctx_size = sizeof(struct idle_ctx),
	.setup = idle_setup,
	.cleanup = idle_cleanup,
	.score_fn = idle_score,
};
