// SPDX-License-Identifier: GPL-2.0-only
/*
 * observe.c - the producers of a timeline: the simulator's observer hooks and replay's
 * period hook, turned into il_timeline_*() calls (timeline.h).
 *
 * Simulator: period() reports each finished period with what woke it and the core's
 * verdict, tick_stop() each tick stop, open() the periods the end of the run cuts short;
 * the timeline derives the busy time between periods, and il_tl_sim_finish() the busy
 * time up to the end. The tick was retained at an entry when the governor answered
 * stop_tick = false and the tick was running (the engine's ticks_retained count). An open
 * period keeps its tick decision and, if it was woken, its wakeup, so the counts of the
 * file match the run's metrics.
 *
 * Replay: every replayed period becomes one slice in the recorded process (the traced
 * state) and one in each governor's process (its pick), over the same measured times (open
 * loop: the picks change nothing that follows). Each pick's above/below verdict is
 * il_cpuidle_account() of its state over the measured residency, on a device with the
 * platform's disabled states, as replay itself counts them. Where the tick ran at select,
 * a tick stop (stop_tick asked; for the trace, tick_stop seen before the enter) or a retain
 * is shown at the enter. The only traced wakeup cause is the tick (got_tick).
 */
#include <string.h>

#include "timeline.h"
#include "../platform/platform.h"
#include "../replay/replay.h"
#include "../sim/sim.h"

/* ---- the simulator ------------------------------------------------------------------------- */

static const char *wake_name(enum il_sim_wake cause)
{
	switch (cause) {
	case IL_SIM_WAKE_NONE:
		return NULL;
	case IL_SIM_WAKE_TIMER:
		return "timer";
	case IL_SIM_WAKE_TICK:
		return "tick";
	case IL_SIM_WAKE_IRQ:
		return "irq";
	case IL_SIM_WAKE_IPI:
		return "ipi";
	case IL_SIM_WAKE_RESCHED:
		return "resched";
	case IL_SIM_WAKE_POLL_LIMIT:
		return "poll limit";
	}
	return NULL;
}

/* A period as the timeline takes it; @open: the end of the run cut it short. */
static void sim_report(struct il_tl_sim *s, const struct il_sim_period *p, bool open)
{
	struct il_tl_idle idle = {
		.cpu = p->cpu,
		.state = p->idx,
		.start_ns = p->start_ns,
		.end_ns = p->end_ns,
		.wake_ns = p->wake_ns,
		.cause = wake_name(p->cause),
		.miss = open ? IL_MISS_NONE : p->miss,
		.stop_tick = p->stop_tick,
		/* the tick kept running because the governor asked: the engine's ticks_retained */
		.tick_retained = !p->stop_tick && !p->tick_stopped,
		.open = open,
	};

	il_timeline_idle(s->tl, s->pid, &idle);
}

static void sim_period(void *ctx, const struct il_sim_period *p)
{
	sim_report(ctx, p, false);
}

static void sim_open(void *ctx, const struct il_sim_period *p)
{
	sim_report(ctx, p, true);
}

static void sim_tick_stop(void *ctx, unsigned int cpu, u64 t)
{
	struct il_tl_sim *s = ctx;

	il_timeline_tick_stop(s->tl, s->pid, cpu, t);
}

void il_tl_sim_init(struct il_tl_sim *s, struct il_timeline *tl, int pid)
{
	s->tl = tl;
	s->pid = pid;
}

void il_tl_sim_observer(struct il_tl_sim *s, struct il_sim_observer *obs)
{
	memset(obs, 0, sizeof(*obs));
	obs->ctx = s;
	obs->period = sim_period;
	obs->tick_stop = sim_tick_stop;
	obs->open = sim_open;
}

int il_tl_sim_finish(struct il_tl_sim *s, unsigned int ncpus, u64 end_ns)
{
	if (il_timeline_cpus(s->tl, s->pid, ncpus))
		return -1;
	for (unsigned int cpu = 0; cpu < ncpus; cpu++)
		il_timeline_busy_until(s->tl, s->pid, cpu, end_ns);
	return 0;
}

/* ---- replay -------------------------------------------------------------------------------- */

void il_tl_replay_init(struct il_tl_replay *r, struct il_timeline *tl,
		       const struct il_platform *plat, int ngov, int pid_recorded, const int *pids)
{
	memset(r, 0, sizeof(*r));
	r->tl = tl;
	r->plat = plat;
	il_platform_device_init(plat, &r->acct[0]);
	for (int t = 1; t < plat->ntables; t++) /* per-CPU tables */
		il_platform_table_device_init(plat, t, &r->acct[t]);
	r->ngov = ngov;
	r->pid_recorded = pid_recorded;
	r->pids = pids;
}

/* One process's slice of the period: state @idx, the tick as asked (@stop). */
static void replay_slice(struct il_tl_replay *r, int pid, const struct il_replay_inputs *in,
			 int idx, bool stop, const char *cause)
{
	struct il_tl_idle idle = {
		.cpu = in->cpu, .state = idx, .start_ns = in->enter_ts, .end_ns = in->exit_ts,
		.wake_ns = in->exit_ts, .cause = cause, .stop_tick = stop,
		.tick_retained = !in->tick_stopped && !stop,
	};
	int t = il_platform_cpu_table(r->plat, in->cpu); /* the CPU's own table's verdict */

	idle.miss = il_cpuidle_account(il_platform_cpu_drv(r->plat, in->cpu), &r->acct[t], idx,
				       in->residency_ns);
	if (!in->tick_stopped && stop)
		il_timeline_tick_stop(r->tl, pid, in->cpu, in->enter_ts);
	il_timeline_idle(r->tl, pid, &idle);
}

void il_tl_replay_period(void *ctx, const struct il_replay_inputs *in, const int *picks,
			 const bool *stops)
{
	struct il_tl_replay *r = ctx;

	if (!r->origin_set) {
		il_timeline_set_origin(r->tl, in->enter_ts);
		r->origin_set = true;
	}
	replay_slice(r, r->pid_recorded, in, in->recorded_state, in->recorded_stop,
		     in->got_tick ? "tick" : NULL);
	for (int i = 0; i < r->ngov; i++)
		replay_slice(r, r->pids[i], in, picks[i], stops[i], NULL);
}
