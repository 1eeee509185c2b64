// SPDX-License-Identifier: GPL-2.0-only
/*
 * env.c - the kernel inputs a governor reads, answered from the simulated CPU (lib/env.h).
 *
 * DOC: sleep length
 *
 * tick_nohz_get_sleep_length() is modelled on kernel/time/tick-sched.c, with "now" the idle
 * entry time, ts->idle_entrytime: when do_idle() started or an interrupt in it last exited
 * (engine.c's idle_entry_ns). That is the time of the select but after a poll limit, when
 * the loop goes round without an interrupt: the lengths then count from the earlier start,
 * longer by the time spent polling, as the kernel's do.
 *
 *  - delta_next: the time to the programmed clock event, the earlier of the next timer and,
 *    while the tick runs, the next tick;
 *  - the return value: the time to the next timer as if the tick were stopped, except that
 *    while the tick runs and must keep running (the next timer is within one tick of the
 *    last tick, or RCU callbacks are pending: tick_nohz_next_event() gives no stop time),
 *    it is delta_next;
 *  - the 4.16 form (delta_next == NULL) returns the time to the programmed event after the
 *    idle loop has stopped the tick if it could.
 *
 * With no timer at all the next timer is KTIME_MAX, as in the kernel. A timer or tick whose
 * interrupt is late (engine.c) is still programmed for its expiry: the lengths are then
 * negative, as the kernel's are when the clock event has not fired yet.
 */
#include "sim-local.h"

/*
 * The environment's ctx is its CPU's env_state (il_sim_env_ops.state_at_ctx: lib/kcompat.h
 * reads the QoS limits, tick_stopped and got_tick there); the CPU points back at the machine.
 */
static struct sim_cpu *env_cpu(const struct il_env *env)
{
	return (struct sim_cpu *)((char *)env->ctx - offsetof(struct sim_cpu, env_state));
}

static struct il_sim *env_sim(const struct il_env *env)
{
	return env_cpu(env)->sim;
}

static u64 min_u64(u64 a, u64 b)
{
	return a < b ? a : b;
}

/* The tick the clock event waits for: @next, unless an earlier one's interrupt is late. */
static u64 sim_tick_programmed(const struct sim_cpu *c, u64 next)
{
	return (c->late_raised & LATE_TICK) ? c->tick_at : next;
}

static s64 sim_sleep_length(const struct il_env *env, s64 *delta_next)
{
	struct il_sim *sim = env_sim(env);
	struct sim_cpu *c = env_cpu(env);
	u64 now = c->idle_entry_ns;
	u64 next_timer = sim_next_timer(c);
	u64 base, programmed;

	if (c->env_state.tick_stopped) {
		programmed = min_u64(next_timer, KTIME_MAX_U) - now;
		if (!delta_next)
			return (s64)programmed;
		*delta_next = (s64)programmed;
		return (s64)(next_timer - now);
	}
	/*
	 * The tick runs: the programmed event is the earlier of the next timer and tick; a tick
	 * whose interrupt is late is still the programmed one (in the past).
	 */
	base = sim_tick_base(sim);
	programmed = min_u64(next_timer, sim_tick_programmed(c, base + sim->tick_ns)) - now;
	if (!delta_next)
		return (s64)programmed;
	*delta_next = (s64)programmed;
	if (sim_tick_must_run_at(sim, c, base))
		return (s64)programmed;
	return (s64)(next_timer - now);
}

static bool sim_tick_stopped(const struct il_env *env)
{
	return env_cpu(env)->env_state.tick_stopped;
}

static bool sim_got_tick(const struct il_env *env)
{
	return il_env_state_take_got_tick(&env_cpu(env)->env_state);
}

static void sim_qos(const struct il_env *env, struct il_qos *out)
{
	*out = env_cpu(env)->env_state.qos;
}

static unsigned long sim_nr_iowait(const struct il_env *env)
{
	return env_sim(env)->head.nr_iowait[env->cpu];
}

static unsigned long sim_load_weight(const struct il_env *env)
{
	return env_cpu(env)->load;
}

static u64 sim_local_clock(const struct il_env *env)
{
	return env_sim(env)->head.now;
}

/* When work queued or running on other CPUs will wake @cpu (their hint), KTIME_MAX if never. */
static u64 hinted_work_wake(const struct il_sim *sim, unsigned int cpu)
{
	u64 best = KTIME_MAX_U;

	for (unsigned int i = 0; i < sim->cfg.ncpus; i++) {
		const struct sim_cpu *o = &sim->cpu[i];
		u64 end;

		if (i == cpu || o->mode != CPU_BUSY)
			continue;
		end = o->work_end;
		if (o->cur.hint_cpu == (int)cpu) {
			best = min_u64(best, end);
			continue;
		}
		for (unsigned int k = 0; k < o->rq_len; k++) {
			const struct sim_work *w = &o->rq[(o->rq_head + k) & (o->rq_cap - 1)];

			end += w->run_ns;
			if (w->hint_cpu == (int)cpu) {
				best = min_u64(best, end);
				break;
			}
		}
	}
	return best;
}

/* When a queued interrupt or IPI reaches @cpu, directly or through its hint. */
static u64 queued_interrupt_wake(const struct il_sim *sim, unsigned int cpu)
{
	const struct sim_cpu *c = &sim->cpu[cpu];
	/* an IPI in its self slot (EV_IPI); the slot's time is KTIME_MAX when empty */
	u64 best = c->self_type == EV_IPI ? c->slot[SLOT_SELF].t : KTIME_MAX_U;

	for (unsigned int o = 0; o < sim->cfg.ncpus; o++) {
		const struct sim_cpu *oc = &sim->cpu[o];
		const struct sim_ev *ev = &oc->irq_next;

		if (oc->slot[SLOT_IRQ].seq == SLOT_NONE_SEQ)
			continue; /* none pending, and the heap is empty */
		if (o == cpu || ev->hint_cpu == (int)cpu)
			best = min_u64(best, ev->t);
		for (size_t i = 0; i < oc->irq.len; i++) {
			ev = &oc->irq.ev[i];
			if (o == cpu || ev->hint_cpu == (int)cpu)
				best = min_u64(best, ev->t);
		}
	}
	return best;
}

/*
 * The oracle's true idle length: the earliest of this CPU's next timer, its running tick on
 * the 4.16 loop (later loops stop or keep the tick after select, as the oracle asks), a
 * queued interrupt for it, and the end of work elsewhere that will wake it. A wakeup that
 * another CPU's future timer or interrupt will cause is seen only once that CPU runs the
 * work that sends it.
 */
static s64 sim_oracle_idle_ns(const struct il_env *env)
{
	struct il_sim *sim = env_sim(env);
	struct sim_cpu *c = env_cpu(env);
	u64 now = sim->head.now;
	u64 wake = sim_next_timer(c);

	/* Only the 4.16 loop has settled the tick before select; later ones follow stop_tick. */
	if (!c->env_state.tick_stopped && c->dev.preset->core->idle_loop == IL_LOOP_4_16)
		wake = min_u64(wake, sim_next_tick(sim));
	if (c->rq_len)
		return 0;
	wake = min_u64(wake, queued_interrupt_wake(sim, env->cpu));
	wake = min_u64(wake, hinted_work_wake(sim, env->cpu));
	return wake == KTIME_MAX_U ? KTIME_MAX : (s64)(wake - now);
}

const struct il_env_ops il_sim_env_ops = {
	.sleep_length = sim_sleep_length,
	.tick_stopped = sim_tick_stopped,
	.got_tick = sim_got_tick,
	.qos = sim_qos,
	.nr_iowait = sim_nr_iowait,
	.load_weight = sim_load_weight,
	.local_clock = sim_local_clock,
	.oracle_idle_ns = sim_oracle_idle_ns,
	.state_at_ctx = true,
};
