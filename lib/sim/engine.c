// SPDX-License-Identifier: GPL-2.0-only
/*
 * engine.c - the event loop, the CPUs' work queues, timers, the tick and the idle loop.
 *
 * DOC: the idle loop, per kernel version
 *
 * A CPU whose work queue is empty enters do_idle(). Each iteration of the loop runs one
 * idle period, following kernel/sched/idle.c of the preset's kernel (rules->idle_loop):
 *
 *  1. IL_LOOP_4_16: the tick is stopped first (tick_nohz_idle_enter(), and again at the
 *     exit of every interrupt that does not end the loop), unless the next timer is within
 *     one tick of the last tick. The governor then selects; its sleep length is the time
 *     to the programmed event: the next timer, or the next tick if the tick still runs.
 *  2. IL_LOOP_4_17 and IL_LOOP_6_X: the governor selects first, with stop_tick = true. If
 *     it answers true the tick is stopped (again unless the next timer is within one tick).
 *     If it answers false the tick is retained: a running tick keeps running and will wake
 *     the CPU at the next tick. 6.x writes "stop_tick || tick_nohz_tick_stopped()", and 4.17
 *     leaves a stopped tick stopped when asked to retain it, so both behave the same here.
 *  3. IL_LOOP_6_19_9: a driver with a single state bypasses the governor (no select, no
 *     reflect), retains the tick and enters state 0.
 *  4. IL_LOOP_7_0: the same bypass, but the tick is stopped when do_idle() saw a tick in the
 *     previous iteration (tick_nohz_idle_got_tick(), false in the first iteration) or when it
 *     is stopped already.
 *
 * Then the CPU sits in the state until a wakeup:
 *
 *    idle_start       wake_ns                  end (idle period ends, cpuidle_enter_state
 *        |--- state idx ---|-- exit latency --|     measures end - idle_start)
 *                          ^ timer, tick, device interrupt or IPI
 *
 * A polling state instead runs interrupt handlers in place and ends only when the CPU has
 * work (need_resched) or at il_cpuidle_poll_time() (which sets poll_time_limit on 5.x+
 * rules); it has no exit latency. At the end of a period the core accounts it
 * (il_cpuidle_account), reflect runs if select did, 7.0 reads got_tick, and the loop
 * either goes round again or leaves: then a stopped tick restarts (tick_nohz_idle_exit())
 * and the queued work runs.
 *
 * The tick of a busy CPU is not simulated: nothing in this model reads it. While a CPU is
 * in the idle loop with its tick running, a tick event at each multiple of TICK_NSEC sets
 * got_idle_tick and wakes it; a tick event that finds the CPU busy does nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim-local.h"
#include "../core/core.h"

#define KTIME_MAX_U ((u64)KTIME_MAX)

static void cpu_idle_iteration(struct il_sim *sim, unsigned int cpu, bool first);
static void cpu_interrupt(struct il_sim *sim, unsigned int cpu);

/* ---- small helpers -------------------------------------------------------------------- */

static void sim_fail(struct il_sim *sim, int err)
{
	if (!sim->error)
		sim->error = err;
}

/* ---- per-CPU events and the tournament tree ---------------------------------------------- */

static const struct sim_slot slot_none = { KTIME_MAX_U, UINT64_MAX };

static bool slot_before(const struct sim_slot *a, const struct sim_slot *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

/*
 * A slot of a CPU changed. The tree is brought up to date lazily, once per event, for every
 * CPU touched (an event often clears a slot and sets it again).
 */
static void cpu_mark_dirty(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];

	if (!c->dirty) {
		c->dirty = true;
		sim->dirty[sim->ndirty++] = cpu;
	}
}

/* Find the earliest slot of @cpu again and replay its matches up the tree. */
static void tree_update(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];
	struct sim_node *tree = sim->tree;
	unsigned int best = SLOT_SELF, n = sim->leaves + cpu;

	for (unsigned int k = SLOT_SELF + 1; k < SLOT_COUNT; k++)
		if (slot_before(&c->slot[k], &c->slot[best]))
			best = k;
	c->next_slot = (u8)best;
	c->dirty = false;
	tree[n].t = c->slot[best].t;
	tree[n].seq = c->slot[best].seq;
	/*
	 * Replay the matches on the way up. The comparison is branch-free (the winner is hard to
	 * predict); once a match's result is what it was, the ones above it are too.
	 */
	for (n /= 2; n; n /= 2) {
		const struct sim_node *l = &tree[2 * n], *r = &tree[2 * n + 1];
		unsigned int right = (unsigned int)(r->t < l->t) | ((unsigned int)(r->t == l->t) & (unsigned int)(r->seq < l->seq));
		const struct sim_node *w = &tree[2 * n + right];

		if (tree[n].cpu == w->cpu && tree[n].t == w->t && tree[n].seq == w->seq)
			break;
		/* Field by field: the next level reads them back one by one (store forwarding). */
		tree[n].t = w->t;
		tree[n].seq = w->seq;
		tree[n].cpu = w->cpu;
	}
}

static void tree_flush(struct il_sim *sim)
{
	for (unsigned int i = 0; i < sim->ndirty; i++)
		tree_update(sim, sim->dirty[i]);
	sim->ndirty = 0;
}

static void slot_set(struct il_sim *sim, unsigned int cpu, unsigned int k, u64 t)
{
	struct sim_slot *sl = &sim->cpu[cpu].slot[k];

	sl->t = t;
	sl->seq = sim->next_seq++;
	cpu_mark_dirty(sim, cpu);
}

static void slot_clear(struct il_sim *sim, unsigned int cpu, unsigned int k)
{
	sim->cpu[cpu].slot[k] = slot_none;
	cpu_mark_dirty(sim, cpu);
}

/* Queue an IPI for @cpu in the shared heap. */
static void push_ipi(struct il_sim *sim, u64 t, unsigned int cpu)
{
	struct sim_ev ev = { .t = t, .seq = sim->next_seq++, .type = EV_IPI, .cpu = (u16)cpu, .hint_cpu = -1 };

	if (sim_evq_push(&sim->q, &ev))
		sim_fail(sim, errno);
}

/* Schedule the one pending "self" event of a CPU (work done, exit done, poll limit); it replaces any earlier one. */
static void push_self(struct il_sim *sim, unsigned int cpu, u64 t, enum sim_ev_type type)
{
	sim->cpu[cpu].self_type = (u8)type;
	slot_set(sim, cpu, SLOT_SELF, t);
}

u64 sim_next_tick_after(const struct il_sim *sim, u64 t)
{
	return (t / sim->tick_ns + 1) * sim->tick_ns;
}

/* ---- timers: a per-CPU min-heap --------------------------------------------------------- */

u64 sim_next_timer(const struct sim_cpu *c)
{
	return c->th_len ? c->th[0]->expires : KTIME_MAX_U;
}

static void th_set(struct sim_cpu *c, unsigned int i, struct il_sim_timer *t)
{
	c->th[i] = t;
	t->heap_pos = (int)i;
}

static void th_sift_up(struct sim_cpu *c, unsigned int i)
{
	struct il_sim_timer *t = c->th[i];

	while (i > 0) {
		unsigned int parent = (i - 1) / 2;

		if (c->th[parent]->expires <= t->expires)
			break;
		th_set(c, i, c->th[parent]);
		i = parent;
	}
	th_set(c, i, t);
}

static void th_sift_down(struct sim_cpu *c, unsigned int i)
{
	struct il_sim_timer *t = c->th[i];

	for (;;) {
		unsigned int l = 2 * i + 1, r = l + 1, m = l;

		if (l >= c->th_len)
			break;
		if (r < c->th_len && c->th[r]->expires < c->th[l]->expires)
			m = r;
		if (c->th[m]->expires >= t->expires)
			break;
		th_set(c, i, c->th[m]);
		i = m;
	}
	th_set(c, i, t);
}

static void th_remove(struct sim_cpu *c, struct il_sim_timer *t)
{
	unsigned int i = (unsigned int)t->heap_pos;
	struct il_sim_timer *last = c->th[--c->th_len];

	t->heap_pos = -1;
	if (last == t)
		return;
	th_set(c, i, last);
	th_sift_up(c, i);
	th_sift_down(c, (unsigned int)last->heap_pos);
}

/* Make sure an EV_TIMER is pending no later than the earliest timer of @cpu. */
static void timer_event_update(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];
	u64 head = sim_next_timer(c);

	if (head >= c->timer_ev_at)
		return; /* an event at or before the head is pending already */
	c->timer_ev_at = head < sim->now ? sim->now : head;
	slot_set(sim, cpu, SLOT_TIMER, c->timer_ev_at);
}

void il_sim_timer_init(struct il_sim_timer *t, il_sim_fn fn, void *arg)
{
	memset(t, 0, sizeof(*t));
	t->fn = fn;
	t->arg = arg;
	t->heap_pos = -1;
}

int il_sim_timer_start(struct il_sim *sim, struct il_sim_timer *t, unsigned int cpu, u64 expires)
{
	struct sim_cpu *c;

	if (cpu >= sim->cfg.ncpus) {
		errno = EINVAL;
		return -1;
	}
	if (il_sim_timer_armed(t))
		il_sim_timer_cancel(sim, t);
	c = &sim->cpu[cpu];
	if (c->th_len == c->th_cap) {
		unsigned int cap = c->th_cap ? 2 * c->th_cap : 8;
		struct il_sim_timer **n = realloc(c->th, cap * sizeof(*n));

		if (!n) {
			errno = ENOMEM;
			return -1;
		}
		c->th = n;
		c->th_cap = cap;
	}
	t->expires = expires;
	t->cpu = cpu;
	th_set(c, c->th_len++, t);
	th_sift_up(c, c->th_len - 1);
	timer_event_update(sim, cpu);
	return 0;
}

/*
 * A cancelled head leaves its EV_TIMER pending; that event finds nothing expired, wakes
 * nobody and schedules the event for the new head.
 */
void il_sim_timer_cancel(struct il_sim *sim, struct il_sim_timer *t)
{
	if (il_sim_timer_armed(t))
		th_remove(&sim->cpu[t->cpu], t);
}

/* Run every timer of @cpu that has expired; return how many ran. */
static int run_expired_timers(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];
	int ran = 0;

	c->timer_ev_at = KTIME_MAX_U;
	while (c->th_len && c->th[0]->expires <= sim->now) {
		struct il_sim_timer *t = c->th[0];

		th_remove(c, t);
		ran++;
		if (t->fn)
			t->fn(sim, cpu, t->arg);
	}
	timer_event_update(sim, cpu);
	return ran;
}

/* ---- the tick ------------------------------------------------------------------------- */

static void tick_arm(struct il_sim *sim, unsigned int cpu, u64 t)
{
	struct sim_cpu *c = &sim->cpu[cpu];

	c->tick_armed = true;
	c->tick_at = t;
	slot_set(sim, cpu, SLOT_TICK, t);
}

static void tick_disarm(struct il_sim *sim, unsigned int cpu)
{
	sim->cpu[cpu].tick_armed = false;
	slot_clear(sim, cpu, SLOT_TICK);
}

/*
 * tick_nohz_idle_stop_tick(): stop the tick unless it runs and the next timer is due within
 * one tick of the last tick (tick_nohz_next_event() returning 0). A stopped tick stays
 * stopped; its clock event simply follows the next timer.
 */
/*
 * Whether a running tick has to keep running: RCU callbacks are pending, or the next timer
 * is due within one tick of the last tick (tick_nohz_next_event() returns 0).
 */
bool sim_tick_must_run(const struct il_sim *sim, const struct sim_cpu *c)
{
	u64 basemono = sim->now - sim->now % sim->tick_ns;
	u64 next_timer = sim_next_timer(c);

	if (c->rcu_pending)
		return true;
	return next_timer != KTIME_MAX_U && (s64)(next_timer - basemono) <= (s64)sim->tick_ns;
}

static void tick_try_stop(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];

	if (c->tick_stopped || sim_tick_must_run(sim, c))
		return;
	c->tick_stopped = true;
	sim->m.cpu[cpu].tick_stops++;
	tick_disarm(sim, cpu);
}

/* ---- work ------------------------------------------------------------------------------ */

/* The run queue is a ring whose capacity is a power of two. */
static int rq_push(struct sim_cpu *c, const struct sim_work *w)
{
	if (c->rq_len == c->rq_cap) {
		unsigned int cap = c->rq_cap ? 2 * c->rq_cap : 8;
		struct sim_work *n = malloc(cap * sizeof(*n));

		if (!n) {
			errno = ENOMEM;
			return -1;
		}
		for (unsigned int i = 0; i < c->rq_len; i++)
			n[i] = c->rq[(c->rq_head + i) & (c->rq_cap - 1)];
		free(c->rq);
		c->rq = n;
		c->rq_cap = cap;
		c->rq_head = 0;
	}
	c->rq[(c->rq_head + c->rq_len) & (c->rq_cap - 1)] = *w;
	c->rq_len++;
	return 0;
}

static void rq_pop(struct sim_cpu *c, struct sim_work *w)
{
	*w = c->rq[c->rq_head];
	c->rq_head = (c->rq_head + 1) & (c->rq_cap - 1);
	c->rq_len--;
}

static void cpu_start_work(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];

	rq_pop(c, &c->cur);
	c->mode = CPU_BUSY;
	c->work_start = sim->now;
	c->work_end = sim->now + c->cur.run_ns;
	if (c->cur.woke_idle)
		il_hist_add(&sim->m.wake_latency, sim->now - c->cur.queued_ns);
	push_self(sim, cpu, c->work_end, EV_WORK_DONE);
}

/*
 * tick_nohz_idle_exit(): leave the idle loop, restart a stopped tick, run the work. A tick
 * event still queued stays: it fires on the busy CPU without effect, and the next idle
 * entry queues the following one.
 */
static void cpu_leave_idle_loop(struct il_sim *sim, unsigned int cpu)
{
	sim->cpu[cpu].tick_stopped = false;
	cpu_start_work(sim, cpu);
}

static void work_done(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];
	struct sim_work w = c->cur;

	sim->m.cpu[cpu].busy_ns += c->work_end - c->work_start;
	c->work_start = c->work_end;
	if (sim->cfg.rcu_permille && il_rng_chance(&sim->rng, sim->cfg.rcu_permille))
		c->rcu_pending = true;
	if (w.done)
		w.done(sim, cpu, w.arg);
	if (c->rq_len)
		cpu_start_work(sim, cpu);
	else
		cpu_idle_iteration(sim, cpu, true);
}

int il_sim_wake(struct il_sim *sim, unsigned int from_cpu, unsigned int cpu, u64 run_ns,
		il_sim_fn done, void *arg, int hint_cpu)
{
	struct sim_cpu *c;
	struct sim_work w = { .run_ns = run_ns, .queued_ns = sim->now, .done = done, .arg = arg,
			      .hint_cpu = hint_cpu };

	if (cpu >= sim->cfg.ncpus) {
		errno = EINVAL;
		return -1;
	}
	c = &sim->cpu[cpu];
	w.woke_idle = c->mode == CPU_IDLE || c->mode == CPU_WAKING;
	if (rq_push(c, &w))
		return -1;
	if (c->mode != CPU_IDLE || from_cpu == cpu)
		return 0; /* busy or waking: it runs the work next; on @cpu: the caller's interrupt ends the idle */
	if (c->polling) {
		cpu_interrupt(sim, cpu); /* need_resched is seen by the polling loop */
		return 0;
	}
	push_ipi(sim, sim->now + sim->cfg.ipi_ns, cpu);
	return 0;
}

/* ---- idle periods ---------------------------------------------------------------------- */

static void enter_state(struct il_sim *sim, unsigned int cpu, int idx)
{
	struct sim_cpu *c = &sim->cpu[cpu];

	c->mode = CPU_IDLE;
	c->idx = idx;
	c->idle_start = sim->now;
	c->polling = sim->drv.states[idx].flags & CPUIDLE_FLAG_POLLING;
	if (c->polling) {
		u64 limit;

		if (c->dev.preset->core->poll >= IL_POLL_5_X)
			c->dev.poll_time_limit = false;
		limit = il_cpuidle_poll_time(&sim->drv, &c->dev);
		if (limit != U64_MAX_NS)
			push_self(sim, cpu, sim->now + limit, EV_POLL_LIMIT);
	}
	if (!c->tick_stopped && !(c->tick_armed && c->tick_at > sim->now))
		tick_arm(sim, cpu, sim_next_tick_after(sim, sim->now));
}

static bool single_state_bypass(const struct il_sim *sim, const struct sim_cpu *c)
{
	return sim->drv.state_count <= 1 && c->dev.preset->core->idle_loop >= IL_LOOP_6_19_9;
}

/* cpuidle_idle_call(): choose the state and what to do with the tick, then enter it. */
static void cpu_idle_iteration(struct il_sim *sim, unsigned int cpu, bool first)
{
	struct sim_cpu *c = &sim->cpu[cpu];
	enum il_idle_loop loop = c->dev.preset->core->idle_loop;
	bool stop_tick = true;
	int idx = 0;

	if (first)
		c->loop_got_tick = false;
	c->governed = !single_state_bypass(sim, c);
	if (!c->governed) {
		stop_tick = loop == IL_LOOP_7_0 && (c->loop_got_tick || c->tick_stopped);
	} else {
		if (loop == IL_LOOP_4_16)
			tick_try_stop(sim, cpu);
		sim->selects++;
		idx = c->dev.preset->gov->select(&sim->drv, &c->dev, &stop_tick);
		if (idx < 0 || idx >= sim->drv.state_count)
			idx = 0; /* a port bug; the property tests catch it, the simulator survives it */
		if (loop == IL_LOOP_4_16)
			stop_tick = true; /* 4.16 has no stop_tick: the tick was handled above */
	}
	c->stop_tick = stop_tick;
	if (loop != IL_LOOP_4_16) {
		if (stop_tick || c->tick_stopped)
			tick_try_stop(sim, cpu);
		else
			sim->m.cpu[cpu].ticks_retained++;
	}
	enter_state(sim, cpu, idx);
}

static void notify_period(struct il_sim *sim, unsigned int cpu, enum il_miss miss)
{
	struct sim_cpu *c = &sim->cpu[cpu];
	struct il_sim_period p = {
		.cpu = cpu, .idx = c->idx, .governed = c->governed, .stop_tick = c->stop_tick,
		.tick_stopped = c->tick_stopped, .start_ns = c->idle_start, .end_ns = sim->now,
		.wake_ns = c->wake_ns, .miss = miss,
	};

	sim->obs.period(sim->obs.ctx, &p);
}

/* The CPU runs again: account the period, reflect, then loop or leave the loop. */
static void idle_period_end(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];
	u64 diff = sim->now - c->idle_start;
	enum il_miss miss;

	miss = il_cpuidle_account(&sim->drv, &c->dev, c->idx, (s64)diff);
	il_metrics_idle(&sim->m, cpu, c->idx, diff, miss);
	if (sim->obs.period)
		notify_period(sim, cpu, miss);
	c->polling = false;
	if (c->governed)
		il_cpuidle_reflect(&c->dev, c->idx);
	if (c->dev.preset->core->idle_loop == IL_LOOP_7_0)
		c->loop_got_tick = c->env.ops->got_tick(&c->env);
	if (c->rq_len)
		cpu_leave_idle_loop(sim, cpu);
	else
		cpu_idle_iteration(sim, cpu, false);
}

/*
 * An interrupt arrived on @cpu (its handler has run). A real idle state is left after its
 * exit latency; a polling state only ends when the CPU has work.
 */
static void cpu_interrupt(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];

	if (c->mode != CPU_IDLE)
		return;
	if (c->polling && !c->rq_len)
		return;
	c->mode = CPU_WAKING;
	c->wake_ns = sim->now;
	sim->m.cpu[cpu].wakeups++;
	push_self(sim, cpu, sim->now + (c->polling ? 0 : (u64)sim->drv.states[c->idx].exit_latency_ns),
		  EV_EXIT_DONE);
}

static void poll_limit(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];

	if (c->dev.preset->core->poll >= IL_POLL_5_X)
		c->dev.poll_time_limit = true;
	c->wake_ns = sim->now;
	sim->m.cpu[cpu].poll_limits++;
	idle_period_end(sim, cpu);
}

static void tick_fire(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];

	c->tick_armed = false;
	c->rcu_pending = false; /* the grace period ends with this tick (a simplification) */
	if (c->mode != CPU_IDLE && c->mode != CPU_WAKING)
		return; /* a busy CPU's tick: nothing else here reads it */
	c->got_idle_tick = true;
	tick_arm(sim, cpu, sim->now + sim->tick_ns);
	cpu_interrupt(sim, cpu);
}

/* ---- the event loop -------------------------------------------------------------------- */

/* Run the per-CPU event of @type that is due on @cpu (its slot is cleared already). */
static void dispatch_cpu(struct il_sim *sim, unsigned int cpu, enum sim_ev_type type)
{
	switch (type) {
	case EV_WORK_DONE:
		work_done(sim, cpu);
		break;
	case EV_EXIT_DONE:
		idle_period_end(sim, cpu);
		break;
	case EV_POLL_LIMIT:
		poll_limit(sim, cpu);
		break;
	case EV_TICK:
		tick_fire(sim, cpu);
		break;
	case EV_TIMER:
		if (run_expired_timers(sim, cpu))
			cpu_interrupt(sim, cpu);
		break;
	default:
		break;
	}
}

static void dispatch_shared(struct il_sim *sim, const struct sim_ev *ev)
{
	if (ev->type == EV_IRQ && ev->fn)
		ev->fn(sim, ev->cpu, ev->arg);
	cpu_interrupt(sim, ev->cpu);
}

/* Take the earliest per-CPU event off its slot and run it. */
static void run_cpu_event(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];
	unsigned int k = c->next_slot;
	enum sim_ev_type type = k == SLOT_SELF ? (enum sim_ev_type)c->self_type : k == SLOT_TICK ? EV_TICK : EV_TIMER;

	slot_clear(sim, cpu, k);
	dispatch_cpu(sim, cpu, type);
}

int il_sim_irq(struct il_sim *sim, unsigned int cpu, u64 when, il_sim_fn fn, void *arg, int hint_cpu)
{
	struct sim_ev ev = { .t = when < sim->now ? sim->now : when, .type = EV_IRQ, .cpu = (u16)cpu,
			     .fn = fn, .arg = arg, .hint_cpu = (s16)hint_cpu };

	if (cpu >= sim->cfg.ncpus) {
		errno = EINVAL;
		return -1;
	}
	ev.seq = sim->next_seq++;
	return sim_evq_push(&sim->q, &ev);
}

/* Close the periods and work the end of the run cuts short, so every CPU adds up to it. */
static void close_run(struct il_sim *sim)
{
	for (unsigned int i = 0; i < sim->cfg.ncpus; i++) {
		struct sim_cpu *c = &sim->cpu[i];

		if (c->mode == CPU_IDLE || c->mode == CPU_WAKING)
			il_metrics_open_idle(&sim->m, i, c->idx, sim->now - c->idle_start);
		else if (c->mode == CPU_BUSY)
			sim->m.cpu[i].busy_ns += sim->now - c->work_start;
	}
	sim->m.duration_ns = sim->now;
}

int il_sim_run(struct il_sim *sim)
{
	u64 end = sim->cfg.duration_ns;
	struct sim_ev ev;

	for (unsigned int i = 0; i < sim->cfg.ncpus; i++) {
		if (sim->cpu[i].rq_len)
			cpu_start_work(sim, i);
		else
			cpu_idle_iteration(sim, i, true);
	}
	/* The next event is the earlier, by (time, scheduling order), of the heap's head and the tree's winner. */
	while (!sim->error) {
		const struct sim_node *next;
		unsigned int cpu;
		bool shared;
		u64 t;

		tree_flush(sim);
		next = &sim->tree[1];
		cpu = next->cpu;
		shared = sim->q.len && (sim->q.ev[0].t < next->t ||
					     (sim->q.ev[0].t == next->t && sim->q.ev[0].seq < next->seq));
		t = shared ? sim->q.ev[0].t : next->t;

		if (t >= end || (!shared && next->t == KTIME_MAX_U))
			break;
		sim->now = t;
		sim->events++;
		if (shared) {
			sim_evq_pop(&sim->q, &ev);
			dispatch_shared(sim, &ev);
		} else {
			run_cpu_event(sim, cpu);
		}
	}
	sim->now = end;
	close_run(sim);
	if (sim->error) {
		errno = sim->error;
		return -1;
	}
	return 0;
}

/* ---- construction ---------------------------------------------------------------------- */

void il_sim_config_defaults(struct il_sim_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->ncpus = 1;
	cfg->hz = 1000;
	cfg->duration_ns = NSEC_PER_SEC;
	cfg->seed = 1;
	cfg->ipi_ns = IL_SIM_IPI_NS_DEFAULT;
	il_qos_defaults(&cfg->qos);
}

static int cpu_init(struct il_sim *sim, unsigned int i)
{
	struct sim_cpu *c = &sim->cpu[i];

	c->mode = CPU_START;
	c->timer_ev_at = KTIME_MAX_U;
	for (unsigned int k = 0; k < SLOT_COUNT; k++)
		c->slot[k] = slot_none;
	c->qos = sim->cfg.qos;
	c->env.ops = &il_sim_env_ops;
	c->sim = sim;
	c->env.ctx = c;
	c->env.cpu = i;
	il_env_set_hz(&c->env, sim->cfg.hz);
	c->dev.cpu = i;
	c->dev.env = &c->env;
	for (int s = 0; s < sim->drv.state_count; s++) {
		if (sim->drv.states[s].flags & CPUIDLE_FLAG_UNUSABLE)
			c->dev.states_usage[s].disable |= CPUIDLE_STATE_DISABLED_BY_DRIVER;
		if (sim->drv.states[s].flags & CPUIDLE_FLAG_OFF)
			c->dev.states_usage[s].disable |= CPUIDLE_STATE_DISABLED_BY_USER;
	}
	return il_gov_bind(&sim->drv, &c->dev, sim->cfg.preset);
}

struct il_sim *il_sim_new(const struct il_sim_config *cfg)
{
	struct il_sim *sim;

	if (!cfg->drv || !cfg->preset || !cfg->ncpus || cfg->ncpus > IL_SIM_CPUS_MAX || !cfg->hz ||
	    cfg->drv->state_count < 1 || cfg->drv->state_count > CPUIDLE_STATE_MAX) {
		errno = EINVAL;
		return NULL;
	}
	sim = calloc(1, sizeof(*sim));
	if (!sim)
		goto out_nomem;
	sim->cfg = *cfg;
	sim->drv = *cfg->drv;
	sim->tick_ns = (NSEC_PER_SEC + cfg->hz / 2) / cfg->hz;
	il_rng_init(&sim->rng, cfg->seed, 0x5c0de);
	sim->cpu = calloc(cfg->ncpus, sizeof(*sim->cpu));
	for (sim->leaves = 1; sim->leaves < cfg->ncpus; sim->leaves *= 2)
		;
	sim->tree = calloc(2 * sim->leaves, sizeof(*sim->tree));
	sim->dirty = calloc(cfg->ncpus, sizeof(*sim->dirty));
	if (!sim->cpu || !sim->tree || !sim->dirty || il_metrics_init(&sim->m, cfg->ncpus, sim->drv.state_count, cfg->pn_us))
		goto out_free;
	/* Nothing is pending yet: every node holds "none"; leaves past ncpus keep it for ever. */
	for (unsigned int n = 1; n < 2 * sim->leaves; n++) {
		sim->tree[n].t = slot_none.t;
		sim->tree[n].seq = slot_none.seq;
		sim->tree[n].cpu = n >= sim->leaves ? n - sim->leaves : 0;
	}
	for (unsigned int n = sim->leaves - 1; n; n--)
		sim->tree[n].cpu = sim->tree[2 * n].cpu;
	for (unsigned int i = 0; i < cfg->ncpus; i++) {
		if (cpu_init(sim, i)) {
			int err = errno;

			il_sim_free(sim);
			errno = err;
			return NULL;
		}
	}
	return sim;

out_free:
	il_sim_free(sim);
out_nomem:
	errno = ENOMEM;
	return NULL;
}

void il_sim_free(struct il_sim *sim)
{
	if (!sim)
		return;
	for (unsigned int i = 0; sim->cpu && i < sim->cfg.ncpus; i++) {
		struct sim_cpu *c = &sim->cpu[i];

		if (c->dev.preset)
			il_gov_unbind(&sim->drv, &c->dev);
		free(c->rq);
		free(c->th); /* the timers themselves belong to the scenario */
	}
	free(sim->cpu);
	free(sim->tree);
	free(sim->dirty);
	il_metrics_free(&sim->m);
	sim_evq_free(&sim->q);
	free(sim);
}

/* ---- accessors ------------------------------------------------------------------------- */

u64 il_sim_now(const struct il_sim *sim)
{
	return sim->now;
}

unsigned int il_sim_ncpus(const struct il_sim *sim)
{
	return sim->cfg.ncpus;
}

u64 il_sim_tick_ns(const struct il_sim *sim)
{
	return sim->tick_ns;
}

u64 il_sim_duration_ns(const struct il_sim *sim)
{
	return sim->cfg.duration_ns;
}

void il_sim_rng_init(const struct il_sim *sim, struct il_rng *r, u64 stream)
{
	il_rng_init(r, sim->cfg.seed, stream);
}

void il_sim_iowait_add(struct il_sim *sim, unsigned int cpu, int delta)
{
	if (cpu < sim->cfg.ncpus)
		sim->cpu[cpu].nr_iowait += (unsigned long)(long)delta;
}

void il_sim_set_load(struct il_sim *sim, unsigned int cpu, unsigned long weight)
{
	if (cpu < sim->cfg.ncpus)
		sim->cpu[cpu].load = weight;
}

bool il_sim_cpu_idle(const struct il_sim *sim, unsigned int cpu)
{
	enum sim_cpu_mode mode = sim->cpu[cpu].mode;

	return mode == CPU_IDLE || mode == CPU_WAKING;
}

const struct il_metrics *il_sim_metrics(const struct il_sim *sim)
{
	return &sim->m;
}

const struct il_device *il_sim_device(const struct il_sim *sim, unsigned int cpu)
{
	return &sim->cpu[cpu].dev;
}

u64 il_sim_events(const struct il_sim *sim)
{
	return sim->events;
}

u64 il_sim_selects(const struct il_sim *sim)
{
	return sim->selects;
}

void il_sim_set_observer(struct il_sim *sim, const struct il_sim_observer *obs)
{
	sim->obs = *obs;
}
