// SPDX-License-Identifier: GPL-2.0-only
/*
 * pidpersec.c - serialized short tasks, one at a time (Doug Smythies' "PIDs per second").
 *
 * DOC: pidpersec model
 *
 * seeds/000 test 8: "Start the next task in the list of stuff to do (with a new PID).
 * Wait for it to finish." A parent on CPU 0 forks (fork_us of its CPU time) and sleeps;
 * the child starts on the next CPU in turn (fork balancing places a new task on an idle
 * CPU; affinity=1 keeps it on CPU 0, Doug's "1cpu" reference), works work_us and exits,
 * which wakes the parent. Each step wakes an idle CPU twice, so exit latencies add up.
 * Score: pids_per_s.
 */
#include "background.h"
#include "scenario.h"

enum { P_WORK, P_FORK, P_AFFINITY, P_BG, P_BG_SHAPE };

static const struct il_scn_param pidpersec_params[] = {
	[P_WORK] = { "work_us", IL_SCN_INT, 100, 0, 100000000, NULL, "us", "work of each task" },
	[P_FORK] = { "fork_us", IL_SCN_INT, 30, 0, 100000000, NULL, "us",
		     "parent's fork + exec + wait cost per task" },
	[P_AFFINITY] = { "affinity", IL_SCN_INT, 0, 0, 1, NULL, "",
			 "1: children run on the parent's CPU" },
	[P_BG] = { "background", IL_SCN_INT, 1, 0, 1, NULL, "",
		   "housekeeping timers and interrupts" },
	IL_BG_PARAMS(P_BG_SHAPE),
	{ 0 }
};

struct pidpersec_ctx {
	u64 work_ns;
	u64 fork_ns;
	bool affinity;
	unsigned int next_cpu;
	u64 pids;
	struct il_bg *bg;
};

static void pid_forked(struct il_sim *sim, unsigned int cpu, void *arg);

/* Where the next child runs: the CPUs after the parent's in turn, or the parent's own. */
static unsigned int pid_child_cpu(const struct pidpersec_ctx *pp, unsigned int ncpus)
{
	return pp->affinity || ncpus < 2 ? 0 : 1 + pp->next_cpu % (ncpus - 1);
}

/* The parent forks; the work's hint tells the oracle which CPU the child will wake. */
static int pid_fork(struct il_sim *sim, struct pidpersec_ctx *pp, unsigned int from)
{
	return il_sim_wake(sim, from, 0, pp->fork_ns ? pp->fork_ns : 1, pid_forked, pp,
			   (int)pid_child_cpu(pp, il_sim_ncpus(sim)));
}

/* The child exited: the parent, on CPU 0, wakes and forks the next one. */
static void pid_exited(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct pidpersec_ctx *pp = arg;

	pp->pids++;
	pid_fork(sim, pp, cpu);
}

static void pid_forked(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct pidpersec_ctx *pp = arg;
	unsigned int child = pid_child_cpu(pp, il_sim_ncpus(sim));

	pp->next_cpu++;
	il_sim_wake(sim, cpu, child, pp->work_ns ? pp->work_ns : 1, pid_exited, pp, 0);
}

static int pidpersec_setup(struct il_sim *sim, void *ctx, const struct il_scn_args *args)
{
	struct pidpersec_ctx *pp = ctx;

	pp->work_ns = (u64)args->v[P_WORK] * NSEC_PER_USEC;
	pp->fork_ns = (u64)args->v[P_FORK] * NSEC_PER_USEC;
	pp->affinity = args->v[P_AFFINITY];
	if (il_bg_start_default(sim, args->v[P_BG], &args->v[P_BG_SHAPE], 2, &pp->bg))
		return -1;
	return pid_fork(sim, pp, 0);
}

static void pidpersec_cleanup(void *ctx)
{
	il_bg_free(((struct pidpersec_ctx *)ctx)->bg);
}

static double pidpersec_score(const struct il_sim *sim, const void *ctx)
{
	return (double)((const struct pidpersec_ctx *)ctx)->pids * 1e9 /
	       (double)il_sim_duration_ns(sim);
}

const struct il_scenario il_scn_pidpersec = {
	.name = "pidpersec",
	.summary = "serialized short tasks: fork, wait for the child, repeat (single-threaded)",
	.score = "pids_per_s",
	.score_help = "tasks completed per second",
	.score_prec = 0,
	.higher_is_better = true,
	.sources = "Doug Smythies' shell-intensive serialized workload, seeds/000 test 8 (amounts "
		   "assumed)",
	.params = pidpersec_params,
	.ctx_size = sizeof(struct pidpersec_ctx),
	.setup = pidpersec_setup,
	.cleanup = pidpersec_cleanup,
	.score_fn = pidpersec_score,
};
