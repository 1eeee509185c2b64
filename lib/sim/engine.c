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
 * The exit latency paid is the state's exit_latency (the package worst case the drivers
 * declare) only when the package can have followed the CPUs down: every CPU asleep in a
 * non-polling state, for at least the package's part of that latency (exit_latency -
 * core_exit_latency, as the time the package needs to get there: ACPI's _CST latency is the
 * worst case to enter and exit). Otherwise a running, waking or polling CPU keeps the
 * package up and the wake costs the core's part, core_exit_latency (platform files; default
 * exit_latency, which makes the two the same). A state with a measured wake cost
 * (actual_exit_latency) charges that instead, while the governors still read exit_latency.
 *
 * On an emulator that runs the CPUs on fewer host threads than there are CPUs (platform
 * files' host_threads; QEMU TCG with thread=single: one), a CPU runs (busy, waking, in a
 * retry) only on a thread, as QEMU's round robin does:
 *
 *  a) a CPU that leaves an idle state takes a free thread;
 *  b) with none free, a wake by an IPI or need_resched, which a running CPU raised, is held:
 *     the CPU stays in its state until a thread is free (QEMU notices the other vCPU's
 *     interrupt only when the running one halts);
 *  c) a wake by a timer, the tick or a device interrupt (QEMU's own thread, which kicks the
 *     running vCPU) takes the thread of a running CPU, the next one after it, which is
 *     suspended: its work or exit stops where it is;
 *  d) a CPU that enters an idle state frees its thread for the next waiting CPU after it:
 *     a held wake starts (its exit latency from then), a suspended CPU goes on (work that
 *     ends by the clock, il_sim_wake_clocked(), still ends when it would have, or at once
 *     if that has passed).
 *
 * A polling CPU takes no thread (the poll loop's pause returns to the round robin), and
 *
 *  e) its loop reads the clock only when a thread is free: a poll limit that comes while
 *     every thread runs a CPU is held like a wake, and ends the poll when one is free.
 *
 * An emulator may also deliver timer interrupts late (platform files' timer_late; QEMU TCG
 * in the validation guest: 0.06-0.3 ms after the expiry). With it, the tick's and the timer
 * head's events come in two steps: at the expiry the interrupt is raised (nothing runs), and
 * it arrives a uniform draw from the range later, on a random stream of its own; then the
 * tick or the expired timers run as without it. In between, the CPU may go idle: the
 * governors read the programmed expiry, in the past (a negative sleep length, which menu
 * turns into polling), and an overdue tick stays armed.
 *
 * An emulator may also take a measurable time to run a timer interrupt's handler (platform
 * files' timer_handler; QEMU TCG in the validation guest: tens of microseconds for the
 * tick with its softirqs). With it, each tick or timer interrupt draws that time, on a
 * random stream of its own, and
 *
 *  f) a busy or waking CPU's self event comes that much later (work that ends by the clock,
 *     il_sim_wake_clocked(), only when the handler runs past its end); a CPU woken from a
 *     real state by it leaves the state that much later (the kernel counts the handler in
 *     the residency); a polling CPU runs it in place on a host thread: with none free, the
 *     CPU whose thread it takes (as in c) stops for it.
 *
 * With late timer interrupts, work that ends by the clock (rt-app's "runtime", which reads it
 * every 32 µs) also waits for them, as the guest's does:
 *
 *  g) it cannot end before a timer interrupt raised on its CPU has come: its end moves to the
 *     delivery, so the CPU does not go idle with that timer overdue.
 *
 * A polling state instead runs interrupt handlers in place and ends only when the CPU has
 * work (need_resched) or at il_cpuidle_poll_time() (which sets poll_time_limit on 5.x+
 * rules); it has no exit latency. A poll limit sends the loop round without an interrupt,
 * so the next select's sleep length still counts from ts->idle_entrytime, which only
 * do_idle()'s start and an interrupt's exit set (idle_entry_ns; env.c; a refused entry's
 * retry reads it from its own time: idle_retry()). At the end of a
 * period the core accounts it (il_cpuidle_account), reflect runs if select did, 7.0 reads
 * got_tick, and the loop either goes round again or leaves: then a stopped tick restarts
 * (tick_nohz_idle_exit()) and the queued work runs.
 *
 * The tick of a busy CPU is not simulated: nothing in this model reads it. While a CPU is
 * in the idle loop with its tick running, a tick event at each multiple of TICK_NSEC sets
 * got_idle_tick and wakes it; a tick event that finds the CPU busy does nothing. With late
 * timer interrupts or timed handlers a busy CPU's tick runs too (restarted when the CPU
 * leaves the idle loop): raised while it works, a late one may arrive once the CPU is idle
 * again, and its handler takes the busy CPU's time (f).
 *
 *  h) Every CPU holds the softlockup watchdog's hrtimer (kernel/watchdog.c), re-armed on
 *     its own grid every cfg.watchdog_ns, except nohz_full CPUs, which watchdog_cpumask
 *     leaves out by default. Its handler wakes the CPU's stopper thread (softlockup_fn() by
 *     stop_one_cpu_nowait()), which takes the CPU out of the idle loop for a moment. So no
 *     CPU ever reads a sleep length of KTIME_MAX, which menu's correction factor would wrap
 *     into an arbitrary prediction. Each CPU armed its timer when it came online at boot;
 *     against the run's start that phase is unknown, so it is drawn per run, and CPU i's is
 *     i bring-up steps after CPU 0's (watchdog_start()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim-local.h"
#include "../core/core.h"

static sim_hot void cpu_idle_iteration(struct il_sim *sim, unsigned int cpu, bool first);
static sim_hot void cpu_interrupt(struct il_sim *sim, unsigned int cpu, enum il_sim_wake cause);
static sim_hot void cpu_wake_now(struct il_sim *sim, struct sim_cpu *c, unsigned int cpu,
				 enum il_sim_wake cause);
static void thread_release(struct il_sim *sim, unsigned int cpu);
static bool thread_take(struct il_sim *sim, unsigned int cpu, enum il_sim_wake cause);

/* ---- small helpers -------------------------------------------------------------------- */

static void sim_fail(struct il_sim *sim, int err)
{
	if (!sim->error)
		sim->error = err;
}

/* ---- per-CPU events and the tournament tree ---------------------------------------------- */

/*
 * DOC: the event loop
 *
 * Every event has a key (time, sequence number), as one 128-bit integer; events run in key
 * order, so simultaneous events run in the order they were scheduled.
 *
 *  1. A CPU shows four slots: its self event (work done, exit done, poll limit, or the IPI
 *     that wakes it from a real state), its tick, its timer-head event and its earliest
 *     interrupt (the later ones wait in a heap). The earliest of the last three is cached
 *     ("other"): the self slot changes at nearly every event, the others less often.
 *  2. A tournament tree over the CPUs holds each CPU's earliest slot; a CPU whose slots
 *     changed is marked dirty and replayed up the tree before the next pick. A node is the
 *     key alone: the sequence number names the CPU (SIM_SEQ_CPU_BITS).
 *  3. The winner's events run as a chain: after each, if no other CPU was touched and the
 *     CPU's next event still comes before the best of the rest (the winners of the sibling
 *     subtrees on its path, which cannot have changed), it runs at once, and the tree is
 *     updated once when the chain ends. In an I/O loop a CPU runs interrupt, exit and work
 *     completion back to back this way. The siblings are read from the root down after
 *     the first event, and the first earlier one ends the chain: on a machine of many busy
 *     CPUs most chains are one event long, and end at the sibling nearest the root.
 */

static const struct sim_slot slot_none = { KTIME_MAX_U, SLOT_NONE_SEQ };

static sim_key slot_key(const struct sim_slot *sl)
{
	return sim_key_of(sl->t, sl->seq);
}

/*
 * Slots are written field by field from a key in registers: a slot that was just stored in
 * two halves and is read back as one 16-byte copy cannot be forwarded from the store buffer,
 * and stalls the load until the stores retire.
 */
static void slot_put(struct sim_slot *sl, sim_key key)
{
	sl->t = sim_key_time(key);
	sl->seq = (u64)key;
}

/*
 * A slot of a CPU changed. The tree is brought up to date lazily, once per event, for every
 * CPU touched (an event often clears a slot and sets it again). The CPU whose events run is
 * marked once, when its chain starts (run_cpu_chain()): the changes that only ever concern
 * that CPU (its self event, its interrupt taken off) do not mark it again.
 */
static sim_hot void cpu_mark_dirty(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];

	if (!c->dirty) {
		c->dirty = true;
		sim->dirty[sim->ndirty++] = cpu;
	}
}

/*
 * Find the earliest slot of @c again: note it in next_slot and return its key. The tick,
 * timer and interrupt slots are compared among themselves only when one of them changed.
 */
static inline sim_key cpu_earliest(struct sim_cpu *c)
{
	sim_key self = slot_key(&c->slot[SLOT_SELF]), other;

	if (c->other_stale) {
		unsigned int best = SLOT_TICK;

		other = slot_key(&c->slot[SLOT_TICK]);
		for (unsigned int k = SLOT_TICK + 1; k < SLOT_COUNT; k++) {
			sim_key kk = slot_key(&c->slot[k]);

			if (kk < other) {
				other = kk;
				best = k;
			}
		}
		slot_put(&c->other, other);
		c->other_slot = (u8)best;
		c->other_stale = false;
	} else {
		other = slot_key(&c->other);
	}
	if (self < other) {
		c->next_slot = SLOT_SELF;
		return self;
	}
	c->next_slot = c->other_slot;
	return other;
}

_Static_assert(IL_SIM_CPUS_MAX <= 1u << SIM_SEQ_CPU_BITS, "a sequence number names every CPU");

/* The sequence number of an event of @cpu scheduled now (see SIM_SEQ_CPU_BITS). */
static sim_hot u64 next_seq(struct il_sim *sim, unsigned int cpu)
{
	u64 seq = sim->next_seq | cpu;

	sim->next_seq += 1u << SIM_SEQ_CPU_BITS;
	return seq;
}

/*
 * Replay the matches of @cpu, whose earliest slot is @key now, up the tree: at each level the
 * new candidate meets the winner of the sibling subtree. Keys are unique (every event has its
 * own sequence number) except "none", whose winner is never run; a node is the winner's key,
 * which names its CPU.
 */
static sim_hot void tree_replay(struct il_sim *sim, unsigned int cpu, sim_key key)
{
	char *tree = (char *)sim->tree;
	/*
	 * The walk follows the node's byte offset rather than its index: the sibling's and the
	 * parent's offsets follow from it with no scaling each (15 instructions per level
	 * instead of 17).
	 */
	size_t at = (sim->leaves + cpu) * sizeof(sim_key), root = sizeof(sim_key);

	sim->cpu[cpu].dirty = false;
	*(sim_key *)(tree + at) = key;
	while (at > root) {
		sim_key sk = *(const sim_key *)(tree + (at ^ sizeof(sim_key)));

		if (sk < key) {
			key = sk;
			/*
			 * Keep this a branch: a conditional move would make each level wait for
			 * the one below, where a predicted branch does not (a branch-free replay
			 * was slower, docs/verdict.md "Run time").
			 */
			__asm__ volatile("");
		}
		at = at / 2 & ~(sizeof(sim_key) - 1);
		*(sim_key *)(tree + at) = key;
	}
}

/* Find the earliest slot of @cpu again, and replay it up the tree. */
static void tree_update(struct il_sim *sim, unsigned int cpu)
{
	tree_replay(sim, cpu, cpu_earliest(&sim->cpu[cpu]));
}

static void tree_flush(struct il_sim *sim)
{
	for (unsigned int i = 0; i < sim->ndirty; i++)
		tree_update(sim, sim->dirty[i]);
	sim->ndirty = 0;
}

/*
 * Whether @key, the next event of @cpu, comes before the earliest event of every other CPU:
 * the winners of the sibling subtrees on its path. The sibling nearest the root (half the
 * machine) is met first, as the likeliest to be earlier: on a many-CPU machine most chains end
 * after their first event, there (adrestia on spr: 12 % fewer instructions per run than the
 * whole walk at the chain's start). The others are folded into their minimum without a branch
 * each, bottom-up as in tree_replay(), and compared once: a chain that gets past the first
 * sibling usually goes on. When @key comes first, @rest gets the earliest of them.
 */
static bool tree_first_of_all(const struct il_sim *sim, unsigned int cpu, sim_key key,
			      sim_key *rest)
{
	const char *tree = (const char *)sim->tree;
	size_t at = (sim->leaves + cpu) * sizeof(sim_key), root = sizeof(sim_key);
	sim_key best = slot_key(&slot_none);

	if (sim->leaves > 1) {
		best = sim->tree[cpu < sim->leaves / 2 ? 3 : 2]; /* the other half */
		if (best < key)
			return false;
	}
	while (at / 4 >= root) { /* below the root's children: nodes 4 and up */
		sim_key sk = *(const sim_key *)(tree + (at ^ sizeof(sim_key)));

		best = sk < best ? sk : best;
		at = at / 2 & ~(sizeof(sim_key) - 1);
	}
	if (best < key)
		return false;
	*rest = best;
	return true;
}

/*
 * Slot @k of @c, not the self slot, was written: keep "other" right, or mark it stale when
 * the slot that held it changed (it may have moved later).
 */
static sim_hot void other_update(struct sim_cpu *c, unsigned int k)
{
	sim_key key;

	if (c->other_stale)
		return;
	if (k == c->other_slot) {
		c->other_stale = true;
		return;
	}
	key = slot_key(&c->slot[k]);
	if (key < slot_key(&c->other)) {
		slot_put(&c->other, key);
		c->other_slot = (u8)k;
	}
}

static sim_hot void slot_set(struct il_sim *sim, unsigned int cpu, unsigned int k, u64 t)
{
	struct sim_cpu *c = &sim->cpu[cpu];

	c->slot[k].t = t;
	c->slot[k].seq = next_seq(sim, cpu);
	if (k != SLOT_SELF)
		other_update(c, k);
	cpu_mark_dirty(sim, cpu);
}

/* Clear slot @k of the CPU whose events run (marked dirty already). */
static sim_hot void slot_clear_running(struct sim_cpu *c, unsigned int k)
{
	c->slot[k] = slot_none;
	if (k != SLOT_SELF)
		other_update(c, k);
}

static sim_hot void slot_clear(struct il_sim *sim, unsigned int cpu, unsigned int k)
{
	slot_clear_running(&sim->cpu[cpu], k);
	cpu_mark_dirty(sim, cpu);
}

/* irq_next changed: show its key in the IRQ slot. */
static sim_hot void irq_next_show(struct sim_cpu *c)
{
	c->slot[SLOT_IRQ].t = c->irq_next.t;
	c->slot[SLOT_IRQ].seq = c->irq_next.seq;
	other_update(c, SLOT_IRQ);
}

static sim_hot void irq_next_changed(struct il_sim *sim, struct sim_cpu *c, unsigned int cpu)
{
	irq_next_show(c);
	cpu_mark_dirty(sim, cpu);
}

static sim_hot void irq_fill(struct sim_ev *ev, u64 t, u64 seq, enum sim_ev_type type,
			     unsigned int cpu, il_sim_fn fn, void *arg, int hint_cpu)
{
	ev->t = t;
	ev->seq = seq;
	ev->fn = fn;
	ev->arg = arg;
	ev->cpu = (u16)cpu;
	ev->type = (u8)type;
	ev->hint_cpu = (s16)hint_cpu;
}

/*
 * Queue a device interrupt or an IPI at @t with sequence number @seq for @cpu, which has one
 * pending already: the earlier of the two stays in irq_next, the other goes to the heap. Out
 * of line, so that the usual case below needs no registers saved.
 */
static __attribute__((noinline)) int push_irq_behind(struct il_sim *sim, unsigned int cpu, u64 t,
						      u64 seq, enum sim_ev_type type, il_sim_fn fn,
						      void *arg, int hint_cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];
	struct sim_ev ev;

	if (sim_key_of(t, seq) > slot_key(&c->slot[SLOT_IRQ])) {
		irq_fill(&ev, t, seq, type, cpu, fn, arg, hint_cpu);
		return sim_evq_push(&c->irq, &ev);
	}
	if (sim_evq_push(&c->irq, &c->irq_next)) /* the new one comes first */
		return -1;
	irq_fill(&c->irq_next, t, seq, type, cpu, fn, arg, hint_cpu);
	irq_next_changed(sim, c, cpu);
	return 0;
}

/*
 * Queue a device interrupt or an IPI at @t for @cpu. The usual case, none pending, writes it
 * in place: a copy of a just-built event would read it back before its stores retire.
 */
static sim_hot int push_irq_seq(struct il_sim *sim, unsigned int cpu, u64 t, u64 seq,
				  enum sim_ev_type type, il_sim_fn fn, void *arg, int hint_cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];

	if (c->slot[SLOT_IRQ].seq != SLOT_NONE_SEQ)
		return push_irq_behind(sim, cpu, t, seq, type, fn, arg, hint_cpu);
	irq_fill(&c->irq_next, t, seq, type, cpu, fn, arg, hint_cpu);
	irq_next_changed(sim, c, cpu);
	return 0;
}

/* The same, scheduled now. */
static sim_hot int push_irq(struct il_sim *sim, unsigned int cpu, u64 t, enum sim_ev_type type,
			      il_sim_fn fn, void *arg, int hint_cpu)
{
	return push_irq_seq(sim, cpu, t, next_seq(sim, cpu), type, fn, arg, hint_cpu);
}

/*
 * Take the earliest interrupt of @c, the CPU whose events run, off it (@ev), and bring the
 * next one forward.
 */
static void pop_irq(struct sim_cpu *c, struct sim_ev *ev)
{
	*ev = c->irq_next;
	if (c->irq.len) {
		sim_evq_pop(&c->irq, &c->irq_next);
		irq_next_show(c);
		return;
	}
	slot_clear_running(c, SLOT_IRQ);
}

/*
 * Schedule the one pending "self" event of a CPU (work done, exit done, poll limit); it
 * replaces any earlier one. Only the CPU whose events run, or every CPU before the run,
 * schedules its own: it does not mark the CPU dirty (see cpu_mark_dirty()).
 */
static sim_hot void push_self(struct il_sim *sim, unsigned int cpu, u64 t, enum sim_ev_type type)
{
	struct sim_cpu *c = &sim->cpu[cpu];

	c->self_type = (u8)type;
	c->slot[SLOT_SELF].t = t;
	c->slot[SLOT_SELF].seq = next_seq(sim, cpu);
}

static __attribute__((noinline)) void push_ipi_behind(struct il_sim *sim, u64 t,
							unsigned int cpu);

/*
 * Queue an IPI for @cpu, idle in a real state. Its self slot is empty then (nothing ends a
 * non-polling state but an interrupt), so the IPI waits there (see EV_IPI); one that finds it
 * taken, by an IPI already, takes the interrupt path.
 */
static sim_hot void push_ipi(struct il_sim *sim, u64 t, unsigned int cpu)
{
	if (sim->cpu[cpu].slot[SLOT_SELF].seq != SLOT_NONE_SEQ) {
		push_ipi_behind(sim, t, cpu);
		return;
	}
	push_self(sim, cpu, t, EV_IPI);
	cpu_mark_dirty(sim, cpu); /* another CPU's event sends it */
}

/* push_ipi() on a CPU with an IPI waiting already. Out of line: the rare case. */
static void push_ipi_behind(struct il_sim *sim, u64 t, unsigned int cpu)
{
	if (push_irq(sim, cpu, t, EV_IPI, NULL, NULL, -1))
		sim_fail(sim, errno);
}

/*
 * @cpu, the CPU whose events run, is woken by something else while an IPI waits in its self
 * slot: the IPI moves to the interrupt path with its key (it still arrives, and finds the CPU
 * awake), and the slot is free for the exit. Out of line: the rare case.
 */
static __attribute__((noinline)) void ipi_to_irq(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];

	if (push_irq_seq(sim, cpu, c->slot[SLOT_SELF].t, c->slot[SLOT_SELF].seq, EV_IPI, NULL,
			 NULL, -1))
		sim_fail(sim, errno);
	c->slot[SLOT_SELF] = slot_none;
}

/* ---- timers: a per-CPU min-heap --------------------------------------------------------- */

/* The heap's head may have changed: refresh the cached next_timer. */
static void th_head_changed(struct sim_cpu *c)
{
	c->next_timer = c->th_len ? c->th[0]->expires : KTIME_MAX_U;
}

static void th_set(struct sim_cpu *c, unsigned int i, struct il_sim_timer *t)
{
	c->th[i] = t;
	t->heap_pos = (int)i;
}

/* Inline: in a heap of one or two timers it moves at most one level, cheaper than its call. */
static sim_hot void th_sift_up(struct sim_cpu *c, unsigned int i)
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

/*
 * Take the head off the heap of @c: the expiry path, which needs no sift up (a heap of one or
 * two timers is the usual case: a sleeper's and the background's). Out of line: inlined into
 * the event loop it costs the ping-pong, which has few timers, 0.2 % more instructions.
 */
static __attribute__((noinline)) void th_pop_head(struct sim_cpu *c)
{
	struct il_sim_timer *t = c->th[0];
	struct il_sim_timer *last = c->th[--c->th_len];

	t->heap_pos = -1;
	if (last == t)
		return;
	th_set(c, 0, last);
	th_sift_down(c, 0);
}

/* Make sure an EV_TIMER is pending for an expiry no later than the earliest timer of @cpu. */
static void timer_event_update(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];
	u64 head = sim_next_timer(c);

	if (head >= c->timer_ev_at)
		return; /* an event at or before the head is pending already */
	c->timer_ev_at = head < sim->head.now ? sim->head.now : head;
	c->late_raised &= (u8)~LATE_TIMER;
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
	th_head_changed(c);
	timer_event_update(sim, cpu);
	return 0;
}

/*
 * A cancelled head leaves its EV_TIMER pending; that event finds nothing expired, wakes
 * nobody and schedules the event for the new head.
 */
void il_sim_timer_cancel(struct il_sim *sim, struct il_sim_timer *t)
{
	if (il_sim_timer_armed(t)) {
		th_remove(&sim->cpu[t->cpu], t);
		th_head_changed(&sim->cpu[t->cpu]);
	}
}

/* Run every timer of @cpu that has expired; return how many ran. */
static int run_expired_timers(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];
	int ran = 0;

	c->timer_ev_at = KTIME_MAX_U;
	c->late_raised &= (u8)~LATE_TIMER;
	while (c->th_len && c->th[0]->expires <= sim->head.now) {
		struct il_sim_timer *t = c->th[0];

		th_pop_head(c);
		th_head_changed(c);
		ran++;
		if (t->fn)
			t->fn(sim, cpu, t->arg);
	}
	timer_event_update(sim, cpu);
	return ran;
}

/* ---- the softlockup watchdog (h) ---------------------------------------------------- */

/*
 * How long the stopper thread runs: a switch to it, softlockup_fn() stamping the CPU's
 * touch time, and a switch back. Assumed, the order of a context switch on either side;
 * range 1-10 us. An engine constant, not in the ensemble: at either end the scoreboard moves
 * no more than with another draw of the watchdog's phase (docs/lab.md, "The simulated
 * machine"), one wakeup per CPU every 4 s.
 */
#define WATCHDOG_STOPPER_NS 3000

/*
 * The step between two CPUs' watchdog phases: CPU 0 arms its timer first and each other one
 * when it comes online. Measured once, on the 2-vCPU Firecracker guest of the shared
 * vm-haltpoll traces (6.18; haltpoll_periodic-73hz-401hz_cpu0_5s: watchdog_timer_fn re-armed
 * to expire at 704.238965990 s on CPU 0 and 704.242965990 s on CPU 1, 4 s apart on each);
 * a real machine's bring-up is of the same order, milliseconds per CPU. Range 0-50 ms (CPUs
 * brought up together, a slow bring-up); not in the ensemble, as the stopper's time above.
 */
#define WATCHDOG_BRINGUP_NS 4000000

static void watchdog_fire(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct il_sim_timer *t = arg;

	/* hrtimer_forward_now(): the next expiry on the timer's own grid, not from now */
	if (il_sim_timer_start(sim, t, cpu, t->expires + sim->cfg.watchdog_ns) ||
	    il_sim_wake(sim, cpu, cpu, WATCHDOG_STOPPER_NS, NULL, NULL, -1))
		sim_fail(sim, errno);
}

static int watchdog_start(struct il_sim *sim)
{
	u64 period = sim->cfg.watchdog_ns, phase;
	struct il_rng rng;

	if (!period)
		return 0;
	sim->watchdog = calloc(sim->cfg.ncpus, sizeof(*sim->watchdog));
	if (!sim->watchdog) {
		errno = ENOMEM;
		return -1;
	}
	il_rng_init(&rng, sim->cfg.seed, 0x3d09);
	phase = il_rng_below(&rng, period);
	for (unsigned int i = 0; i < sim->cfg.ncpus; i++) {
		struct il_sim_timer *t = &sim->watchdog[i];
		u64 first = (phase + (u64)i * WATCHDOG_BRINGUP_NS) % period;

		il_sim_timer_init(t, watchdog_fire, t);
		if (sim->cpu[i].nohz_full)
			continue;
		if (il_sim_timer_start(sim, t, i, first ? first : period))
			return -1;
	}
	return 0;
}

/* ---- the tick ------------------------------------------------------------------------- */

/* f, g) @cpu's pending self event (its work, exit or retry) comes @ns later. */
static void self_later(struct il_sim *sim, unsigned int cpu, u64 ns)
{
	struct sim_cpu *c = &sim->cpu[cpu];
	u64 at;

	if (c->thread == THR_SUSPENDED) {
		c->susp_left += ns;
		return;
	}
	if (c->slot[SLOT_SELF].seq == SLOT_NONE_SEQ)
		return;
	at = c->slot[SLOT_SELF].t + ns;
	if (c->self_type == EV_WORK_DONE)
		c->work_end = at;
	push_self(sim, cpu, at, (enum sim_ev_type)c->self_type);
	cpu_mark_dirty(sim, cpu);
}

/* f, g) Busy @cpu's work, which ends by the clock, ends at @at at the earliest. */
static void clocked_work_until(struct il_sim *sim, unsigned int cpu, u64 at)
{
	struct sim_cpu *c = &sim->cpu[cpu];

	if (c->thread != THR_SUSPENDED && at > c->work_end)
		self_later(sim, cpu, at - c->work_end);
}

/* A busy CPU's tick matters when it may come late or its handler takes time (the DOC). */
static bool busy_tick_runs(const struct il_sim *sim)
{
	return sim->cfg.timer_late_max_ns || sim->cfg.timer_handler_max_ns;
}

static void tick_arm(struct il_sim *sim, unsigned int cpu, u64 t)
{
	struct sim_cpu *c = &sim->cpu[cpu];

	c->tick_armed = true;
	c->tick_at = t;
	c->late_raised &= (u8)~LATE_TICK;
	slot_set(sim, cpu, SLOT_TICK, t);
}

static void tick_disarm(struct il_sim *sim, unsigned int cpu)
{
	sim->cpu[cpu].tick_armed = false;
	sim->cpu[cpu].late_raised &= (u8)~LATE_TICK;
	slot_clear(sim, cpu, SLOT_TICK);
}

/*
 * A timer interrupt of @cpu (@what: LATE_TICK or LATE_TIMER) whose event runs now, on a
 * platform that delivers them late: at the expiry, raise it and move its event to the
 * delivery (true: nothing else to do now); at the delivery, let it run (false).
 */
static __attribute__((noinline)) bool timer_irq_raise(struct il_sim *sim, unsigned int cpu,
						      u8 what, unsigned int slot)
{
	struct sim_cpu *c = &sim->cpu[cpu];
	s64 late;

	if (c->late_raised & what) {
		c->late_raised &= (u8)~what;
		return false;
	}
	c->late_raised |= what;
	late = il_rng_range(&sim->late_rng, (s64)sim->cfg.timer_late_min_ns,
			    (s64)sim->cfg.timer_late_max_ns);
	slot_set(sim, cpu, slot, sim->head.now + (u64)late);
	if (c->mode == CPU_BUSY && c->cur.clocked)
		clocked_work_until(sim, cpu, sim->head.now + (u64)late); /* g) */
	return true;
}

/* An armed tick whose event is still to come: its expiry is ahead, or it is on its way. */
static bool tick_pending(const struct il_sim *sim, const struct sim_cpu *c)
{
	return c->tick_armed && (c->tick_at > sim->head.now || (c->late_raised & LATE_TICK));
}

/*
 * tick_nohz_idle_stop_tick(): stop the tick unless it runs and the next timer is due within
 * one tick of the last tick (tick_nohz_next_event() returning 0). A stopped tick stays
 * stopped; its clock event simply follows the next timer.
 */
static void tick_try_stop(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];

	if (c->env_state.tick_stopped || sim_tick_must_run(sim, c))
		return;
	c->env_state.tick_stopped = true;
	c->stats->tick_stops++;
	tick_disarm(sim, cpu);
	if (sim->obs.tick_stop)
		sim->obs.tick_stop(sim->obs.ctx, cpu, sim->head.now);
}

/* ---- work ------------------------------------------------------------------------------ */

/* The run queue is a ring whose capacity is a power of two: double a full one. */
static int rq_grow(struct sim_cpu *c)
{
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
	return 0;
}

/*
 * Start the work at the head of the run queue. What runs keeps only what its end needs;
 * the rest is read in the queue, field by field as il_sim_wake() wrote it (a wider load
 * spanning several of those stores, shortly after them, could not be forwarded from the
 * store buffer).
 */
static sim_hot void cpu_start_work(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];
	const struct sim_work *w = &c->rq[c->rq_head];
	u64 now = sim->head.now;

	c->cur.done = w->done;
	c->cur.arg = w->arg;
	c->cur.hint_cpu = w->hint_cpu;
	c->cur.clocked = w->clocked;
	c->mode = CPU_BUSY;
	c->work_start = now;
	c->work_end = now + w->run_ns;
	if (w->woke_idle)
		il_hist_add(&sim->m.wake_latency, now - w->queued_ns);
	c->rq_head = (c->rq_head + 1) & (c->rq_cap - 1);
	c->rq_len--;
	push_self(sim, cpu, c->work_end, EV_WORK_DONE);
}

/*
 * tick_nohz_idle_exit(): leave the idle loop, restart a stopped tick, run the work. A tick
 * event still queued stays: it fires on the busy CPU without effect, and the next idle
 * entry queues the following one.
 *
 * On a nohz_full CPU that leaves the loop for one piece of work (one task to run), the full
 * dynticks code keeps the tick stopped, or stops it (tick_nohz_full_update_tick(), when
 * can_stop_full_tick() holds): the next idle entry then finds it stopped already. A second
 * piece of work queued meanwhile restarts it (il_sim_wake()).
 */
static sim_hot void cpu_leave_idle_loop(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];

	if (c->nohz_full && c->rq_len == 1) {
		c->env_state.tick_stopped = true;
		if (c->tick_armed)
			tick_disarm(sim, cpu);
	} else {
		c->env_state.tick_stopped = false;
		if (busy_tick_runs(sim) && !c->tick_armed)
			tick_arm(sim, cpu, sim_next_tick(sim));
	}
	cpu_start_work(sim, cpu);
}

static void work_done(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];
	il_sim_fn done = c->cur.done;

	c->stats->busy_ns += c->work_end - c->work_start;
	c->work_start = c->work_end;
	if (sim->cfg.rcu_permille && il_rng_chance(&sim->rng, sim->cfg.rcu_permille))
		c->rcu_pending = true;
	if (done)
		done(sim, cpu, c->cur.arg); /* it may queue work; cur stays until the next start */
	if (c->rq_len)
		cpu_start_work(sim, cpu);
	else
		cpu_idle_iteration(sim, cpu, true);
}

/*
 * Work was queued for @cpu, polling, from another CPU: need_resched is seen by the polling
 * loop. It is idle and has work, and no IPI waits in its self slot (a polling CPU gets
 * none): what cpu_interrupt() would check holds.
 */
static __attribute__((noinline)) int wake_polling_cpu(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];

	if (!c->polling)
		__builtin_unreachable(); /* il_sim_wake() knows: no exit latency to look up */
	cpu_mark_dirty(sim, cpu); /* its self event changes, and its events do not run */
	cpu_wake_now(sim, c, cpu, IL_SIM_WAKE_RESCHED); /* last: a domain's call, if any */
	return 0;
}

/*
 * Work was queued for @cpu, idle in a real state, from another CPU: an IPI. Out of line: the
 * rarer case; it needs no register saved (a second IPI is a call of its own).
 */
static __attribute__((noinline)) int wake_idle_cpu(struct il_sim *sim, unsigned int cpu)
{
	push_ipi(sim, sim->head.now + sim->cfg.ipi_ns, cpu);
	return 0;
}

static __attribute__((noinline)) int wake_full_rq(struct il_sim *sim, unsigned int from_cpu,
						  unsigned int cpu, u64 run_ns, il_sim_fn done,
						  void *arg, int hint_cpu);

/*
 * The usual case (a valid CPU with room in its run queue, busy or woken by the caller's own
 * interrupt) makes no call, and so saves no registers: the others are tail calls.
 */
int il_sim_wake(struct il_sim *sim, unsigned int from_cpu, unsigned int cpu, u64 run_ns,
		il_sim_fn done, void *arg, int hint_cpu)
{
	struct sim_cpu *c;
	struct sim_work *w;

	if (cpu >= sim->cfg.ncpus) {
		errno = EINVAL;
		return -1;
	}
	c = &sim->cpu[cpu];
	if (c->rq_len == c->rq_cap)
		return wake_full_rq(sim, from_cpu, cpu, run_ns, done, arg, hint_cpu);
	w = &c->rq[(c->rq_head + c->rq_len++) & (c->rq_cap - 1)];
	w->run_ns = run_ns;
	w->queued_ns = sim->head.now;
	w->done = done;
	w->arg = arg;
	w->hint_cpu = hint_cpu;
	w->woke_idle = c->mode == CPU_IDLE || c->mode == CPU_WAKING || c->mode == CPU_RETRY;
	w->clocked = false;
	if (c->nohz_full && c->mode == CPU_BUSY)
		c->env_state.tick_stopped = false; /* two tasks: the full dynticks tick restarts */
	/* busy or waking: it runs the work next; on @cpu: the caller's interrupt ends the idle */
	if (c->mode != CPU_IDLE || from_cpu == cpu)
		return 0;
	if (c->polling)
		return wake_polling_cpu(sim, cpu);
	return wake_idle_cpu(sim, cpu);
}

int il_sim_wake_clocked(struct il_sim *sim, unsigned int cpu, u64 run_ns, il_sim_fn done,
			void *arg, int hint_cpu)
{
	struct sim_cpu *c;

	if (il_sim_wake(sim, cpu, cpu, run_ns, done, arg, hint_cpu))
		return -1;
	c = &sim->cpu[cpu];
	c->rq[(c->rq_head + c->rq_len - 1) & (c->rq_cap - 1)].clocked = true; /* still queued */
	return 0;
}

/* il_sim_wake() on a CPU whose run queue is full: make room first. */
static int wake_full_rq(struct il_sim *sim, unsigned int from_cpu, unsigned int cpu, u64 run_ns,
			il_sim_fn done, void *arg, int hint_cpu)
{
	if (rq_grow(&sim->cpu[cpu]))
		return -1;
	return il_sim_wake(sim, from_cpu, cpu, run_ns, done, arg, hint_cpu);
}

/* ---- idle periods ---------------------------------------------------------------------- */

static sim_hot void enter_state(struct il_sim *sim, unsigned int cpu, int idx)
{
	struct sim_cpu *c = &sim->cpu[cpu];

	c->mode = CPU_IDLE;
	c->idx = idx;
	c->idle_start = sim->head.now;
	c->polling = c->polling_states >> idx & 1;
	if (sim->package_wake && !c->polling && ++sim->nasleep == sim->cfg.ncpus)
		sim->all_asleep_ns = sim->head.now;
	if (c->polling) {
		u64 limit;

		if (sim->poll >= IL_POLL_5_X)
			c->dev.poll_time_limit = false;
		limit = il_cpuidle_poll_time(c->drv, &c->dev);
		if (limit != U64_MAX_NS)
			push_self(sim, cpu, sim->head.now + limit, EV_POLL_LIMIT);
	}
	if (!c->env_state.tick_stopped && !tick_pending(sim, c))
		tick_arm(sim, cpu, sim_next_tick(sim));
	if (c->dom)
		sim_domain_changed_fast(sim, c);
	if (c->thread == THR_ON)
		thread_release(sim, cpu);
}

/* 7.0 do_idle(): tick_nohz_idle_got_tick() read after each pass, not a governor input. */
static void loop_read_got_tick(struct il_sim *sim, struct sim_cpu *c)
{
	if (sim->loop == IL_LOOP_7_0) {
		c->loop_got_tick = c->env_state.got_tick;
		c->env_state.got_tick = false;
	}
}

/*
 * The firmware refused the entry (an OS-initiated domain state asked by a CPU that is not the
 * domain's last: domain.c). cpuidle_enter_state() counts it rejected with last_residency_ns
 * 0, cpuidle_reflect() skips the governor (index < 0), and after the firmware's round trip
 * do_idle() goes round again, or leaves if work came meanwhile (idle_retry()).
 */
static void idle_entry_refused(struct il_sim *sim, unsigned int cpu, int idx)
{
	struct sim_cpu *c = &sim->cpu[cpu];

	u64 round_trip = sim->domains[c->dom->dom_of_state[idx]].reject_ns;

	il_cpuidle_account(c->drv, &c->dev, idx, -1);
	c->mode = CPU_RETRY;
	c->idx = idx;
	loop_read_got_tick(sim, c);
	push_self(sim, cpu, sim->head.now + round_trip, EV_RETRY);
}

/* cpuidle_idle_call(): choose the state and what to do with the tick, then enter it. */
static sim_hot void cpu_idle_iteration(struct il_sim *sim, unsigned int cpu, bool first)
{
	struct sim_cpu *c = &sim->cpu[cpu];
	enum il_idle_loop loop = sim->loop;
	bool stop_tick = true;
	int idx = 0;

	if (first) {
		c->loop_got_tick = false;
		c->idle_entry_ns = sim->head.now;
	}
	c->governed = !sim->bypass;
	if (!c->governed) {
		stop_tick = loop == IL_LOOP_7_0 && (c->loop_got_tick || c->env_state.tick_stopped);
	} else {
		if (loop == IL_LOOP_4_16)
			tick_try_stop(sim, cpu);
		sim->selects++;
		idx = sim->select(c->drv, &c->dev, &stop_tick);
		/* a port bug; the property tests catch it, the simulator survives it */
		if (idx < 0 || idx >= c->drv->state_count)
			idx = 0;
		if (loop == IL_LOOP_4_16)
			stop_tick = true; /* 4.16 has no stop_tick: the tick was handled above */
	}
	c->stop_tick = stop_tick;
	if (loop != IL_LOOP_4_16) {
		if (stop_tick || c->env_state.tick_stopped)
			tick_try_stop(sim, cpu);
		else
			c->stats->ticks_retained++;
	}
	if (c->dom && c->dom->dom_of_state[idx] >= 0 && sim_domain_refuses(sim, cpu, idx)) {
		idle_entry_refused(sim, cpu, idx);
		return;
	}
	enter_state(sim, cpu, idx);
}

static void notify_period(struct il_sim *sim, unsigned int cpu, enum il_miss miss)
{
	struct sim_cpu *c = &sim->cpu[cpu];
	struct il_sim_period p = {
		.cpu = cpu, .idx = c->idx, .governed = c->governed, .stop_tick = c->stop_tick,
		.tick_stopped = c->env_state.tick_stopped, .start_ns = c->idle_start,
		.end_ns = sim->head.now,
		.wake_ns = c->wake_ns, .cause = (enum il_sim_wake)c->wake_cause, .miss = miss,
	};

	sim->obs.period(sim->obs.ctx, &p);
}

/*
 * Whether an interrupt ended @c's period, whose exit (tick_nohz_irq_exit()) restarts the
 * idle time: not a poll limit, which sends the loop round with the old idle_entrytime, so
 * that the next sleep length still counts from where the loop started.
 */
static bool woken_by_interrupt(const struct sim_cpu *c)
{
	return c->wake_cause != IL_SIM_WAKE_POLL_LIMIT && c->wake_cause != IL_SIM_WAKE_RESCHED;
}

/* The CPU runs again: account the period, reflect, then loop or leave the loop. */
static sim_hot void idle_period_end(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];
	u64 diff = sim->head.now - c->idle_start;
	enum il_miss miss;

	miss = il_cpuidle_account(c->drv, &c->dev, c->idx, (s64)diff);
	il_metrics_nightmare(&sim->m, cpu, c->idx, diff); /* the rest is in dev->states_usage */
	if (sim->obs.period)
		notify_period(sim, cpu, miss);
	c->polling = false;
	if (c->governed && sim->reflect)
		sim->reflect(&c->dev, c->idx); /* il_cpuidle_reflect(): idx >= 0 here */
	loop_read_got_tick(sim, c);
	if (c->rq_len) {
		cpu_leave_idle_loop(sim, cpu);
		return;
	}
	if (woken_by_interrupt(c))
		c->idle_entry_ns = sim->head.now;
	cpu_idle_iteration(sim, cpu, false);
}

/*
 * A state's measured wake cost (actual_exit_latency in the platform file): a uniform draw
 * from its range, on the engine's exit stream. The package wake does not apply: the
 * measurement is what the machine paid, whoever kept the package up.
 */
static sim_hot u64 actual_exit_ns(struct il_sim *sim, int idx)
{
	u64 lo = sim->actual_lo[idx], hi = sim->actual_hi[idx];

	if (sim->package_wake)
		sim->nasleep--;
	return lo + il_rng_below(&sim->exit_rng, hi - lo + 1);
}

/*
 * The exit latency of the wake that starts now: none for a polling state; the state's
 * actual cost when the platform gives one; the whole when the package can be down (see the
 * top of the file), else the core's part.
 */
static sim_hot u64 wake_exit_ns(struct il_sim *sim, const struct sim_cpu *c)
{
	u64 full = c->exit_ns[c->idx], core = c->core_exit_ns[c->idx];
	bool package_down;

	if (c->polling)
		return 0;
	if (sim->domains) {
		/* replaces the package wake; inline: a CPU of a simple domain, not asking for it */
		if (!c->dom || (c->dom->simple_level >= 0 && !c->dom->req))
			return c->exit_ns[c->idx];
		return sim_domain_wake_exit(sim, c->dev.cpu);
	}
	if (sim->actual_hi[c->idx])
		return actual_exit_ns(sim, c->idx);
	if (!sim->package_wake)
		return full; /* the same either way: no need to know who keeps the package up */
	package_down = sim->nasleep == sim->cfg.ncpus &&
		       sim->head.now - sim->all_asleep_ns >= full - core;
	sim->nasleep--;
	return package_down ? full : core;
}

/* ---- host threads (cfg.host_threads; the DOC at the top, a-d) ------------------------------ */

/* The first CPU after @cpu, in the round robin's order, whose thread state is @want; or -1. */
static int thread_next(const struct il_sim *sim, unsigned int cpu, enum sim_thread want)
{
	unsigned int n = sim->cfg.ncpus;

	for (unsigned int k = 1; k < n; k++) {
		unsigned int i = (cpu + k) % n;

		if (sim->cpu[i].thread == want)
			return (int)i;
	}
	return -1;
}

/* c) Running @cpu loses its thread: its self event (work, exit or retry) waits with its rest. */
static void thread_suspend(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];

	c->thread = THR_SUSPENDED;
	c->susp_type = c->self_type;
	c->susp_left = c->slot[SLOT_SELF].t - sim->head.now;
	c->slot[SLOT_SELF] = slot_none;
	cpu_mark_dirty(sim, cpu);
}

/* a) @c takes a free host thread, if there is one. */
static bool thread_take_free(struct il_sim *sim, struct sim_cpu *c)
{
	if (!sim->threads_free)
		return false;
	sim->threads_free--;
	c->thread = THR_ON;
	return true;
}

/*
 * d) Suspended @cpu has its thread back: its self event, and its busy piece's end, move on;
 * work that ends by the clock (il_sim_wake_clocked()) only if its end has passed meanwhile.
 */
static void thread_resume(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];
	u64 at = sim->head.now + c->susp_left;

	if (c->susp_type == EV_WORK_DONE && c->cur.clocked)
		at = c->work_end > sim->head.now ? c->work_end : sim->head.now;
	if (c->susp_type == EV_WORK_DONE)
		c->work_end = at;
	push_self(sim, cpu, at, (enum sim_ev_type)c->susp_type);
	cpu_mark_dirty(sim, cpu);
}

/*
 * a-c) @cpu, idle, is woken by @cause: Return: whether it runs now (on a free thread, or one
 * taken from a running CPU); false when the wake is held.
 */
static bool thread_take(struct il_sim *sim, unsigned int cpu, enum il_sim_wake cause)
{
	struct sim_cpu *c = &sim->cpu[cpu];
	int victim;

	if (thread_take_free(sim, c))
		return true;
	if (cause == IL_SIM_WAKE_IPI || cause == IL_SIM_WAKE_RESCHED) {
		if (c->thread != THR_HELD || c->susp_type == IL_SIM_WAKE_POLL_LIMIT) {
			c->thread = THR_HELD;
			c->susp_type = (u8)cause;
		}
		return false;
	}
	victim = thread_next(sim, cpu, THR_ON);
	if (victim < 0) /* cannot be: no thread free means host_threads CPUs on one */
		__builtin_unreachable();
	thread_suspend(sim, (unsigned int)victim);
	c->thread = THR_ON;
	return true;
}

/* d) @cpu entered an idle state: its thread goes to the next waiting CPU after it, if any. */
static void thread_release(struct il_sim *sim, unsigned int cpu)
{
	unsigned int n = sim->cfg.ncpus;

	sim->cpu[cpu].thread = THR_NONE;
	sim->threads_free++;
	for (unsigned int k = 1; k < n && sim->threads_free; k++) {
		unsigned int next = (cpu + k) % n;
		struct sim_cpu *c = &sim->cpu[next];

		if (c->thread == THR_SUSPENDED) {
			thread_take_free(sim, c); /* the loop runs while one is free */
			thread_resume(sim, next);
		} else if (c->thread == THR_HELD) {
			c->thread = THR_NONE;
			cpu_mark_dirty(sim, next); /* its self event is set next */
			if (c->susp_type == IL_SIM_WAKE_POLL_LIMIT)
				push_self(sim, next, sim->head.now, EV_POLL_LIMIT); /* e) */
			else
				cpu_wake_now(sim, c, next, (enum il_sim_wake)c->susp_type);
		}
	}
}

/* At the start of a run, @cpu runs work: on a free thread, else suspended at once. */
static void thread_start(struct il_sim *sim, unsigned int cpu)
{
	if (!thread_take_free(sim, &sim->cpu[cpu]))
		thread_suspend(sim, cpu);
}

/* @c, idle, is woken now: the exit latency starts. */
static sim_hot void cpu_wake_now(struct il_sim *sim, struct sim_cpu *c, unsigned int cpu,
				 enum il_sim_wake cause)
{
	if (sim->cfg.host_threads && !thread_take(sim, cpu, cause))
		return; /* held: thread_release() wakes it */
	c->mode = CPU_WAKING;
	c->wake_ns = sim->head.now;
	c->wake_cause = (u8)cause;
	c->stats->wakeups++;
	push_self(sim, cpu, sim->head.now + wake_exit_ns(sim, c), EV_EXIT_DONE);
	if (c->dom)
		sim_domain_changed_fast(sim, c); /* after wake_exit_ns(): an OSI domain is up */
}

/*
 * An interrupt arrived on @cpu (its handler has run). A real idle state is left after its
 * exit latency; a polling state only ends when the CPU has work.
 */
static sim_hot void cpu_interrupt(struct il_sim *sim, unsigned int cpu, enum il_sim_wake cause)
{
	struct sim_cpu *c = &sim->cpu[cpu];

	if (c->mode != CPU_IDLE)
		return;
	if (c->polling && !c->rq_len) {
		c->idle_entry_ns = sim->head.now; /* handled in the poll loop, which goes on */
		return;
	}
	if (c->self_type == EV_IPI && c->slot[SLOT_SELF].seq != SLOT_NONE_SEQ)
		ipi_to_irq(sim, cpu);
	cpu_wake_now(sim, c, cpu, cause);
}

/*
 * The IPI in the self slot of @cpu arrives (EV_IPI): nothing else has woken it since it was
 * sent, so it is still idle in a real state.
 */
static void ipi_arrives(struct il_sim *sim, unsigned int cpu)
{
	cpu_wake_now(sim, &sim->cpu[cpu], cpu, IL_SIM_WAKE_IPI);
}

static void poll_limit(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];

	if (c->thread == THR_HELD)
		return; /* it cannot run its poll loop either: the held wake ends the period */
	if (sim->cfg.host_threads && !sim->threads_free) {
		/* e) its loop runs on no thread: it reads the clock when one is free */
		c->thread = THR_HELD;
		c->susp_type = IL_SIM_WAKE_POLL_LIMIT;
		return;
	}
	if (sim->poll >= IL_POLL_5_X)
		c->dev.poll_time_limit = true;
	c->wake_ns = sim->head.now;
	c->wake_cause = IL_SIM_WAKE_POLL_LIMIT;
	c->stats->poll_limits++;
	idle_period_end(sim, cpu);
}

/* f) A timer interrupt's handler ran on @cpu (after cpu_interrupt(), if it was idle). */
static __attribute__((noinline)) void timer_handler_ran(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];
	u64 ns = (u64)il_rng_range(&sim->handler_rng, (s64)sim->cfg.timer_handler_min_ns,
				   (s64)sim->cfg.timer_handler_max_ns);
	int victim;

	if (c->mode == CPU_BUSY && c->cur.clocked) {
		clocked_work_until(sim, cpu, sim->head.now + ns);
		return;
	}
	if (c->mode == CPU_BUSY || c->mode == CPU_WAKING) {
		self_later(sim, cpu, ns);
		return;
	}
	if (c->mode != CPU_IDLE || !c->polling || !sim->cfg.host_threads || sim->threads_free)
		return;
	victim = thread_next(sim, cpu, THR_ON);
	if (victim >= 0)
		self_later(sim, (unsigned int)victim, ns);
}

/*
 * The tick after the one that fires: a period after it (hrtimer_forward()), or, when it came
 * so late that this is past, the first boundary after now.
 */
static u64 tick_forward(struct il_sim *sim, const struct sim_cpu *c)
{
	u64 next = c->tick_at + sim->tick_ns;

	return next > sim->head.now ? next : sim_next_tick(sim);
}

static void tick_fire(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];

	c->tick_armed = false;
	c->rcu_pending = false; /* the grace period ends with this tick (a simplification) */
	if (c->mode != CPU_IDLE && c->mode != CPU_WAKING) {
		if (busy_tick_runs(sim))
			tick_arm(sim, cpu, tick_forward(sim, c));
		return; /* its handler (f) is run_cpu_event()'s */
	}
	c->env_state.got_tick = true;
	tick_arm(sim, cpu, tick_forward(sim, c));
	cpu_interrupt(sim, cpu, IL_SIM_WAKE_TICK);
}

/* ---- the event loop -------------------------------------------------------------------- */

/*
 * A refused entry has returned (idle_entry_refused()): leave the loop for work, or retry.
 * The kernel's loop would go round with the old idle_entrytime here too, but in this model
 * the CPU's own governor asks for the domain state (domain.c), with inputs that a stale
 * entry time would keep the same until an interrupt: it would be refused every round trip.
 * The retry reads the sleep length from now, so that it shrinks and the choice moves on.
 */
static void idle_retry(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];

	if (c->rq_len) {
		cpu_leave_idle_loop(sim, cpu);
		return;
	}
	c->idle_entry_ns = sim->head.now;
	cpu_idle_iteration(sim, cpu, false);
}

/* Run the self event of @cpu (its slot is cleared already). */
static void dispatch_self(struct il_sim *sim, unsigned int cpu, enum sim_ev_type type)
{
	if (type == EV_WORK_DONE)
		work_done(sim, cpu);
	else if (type == EV_EXIT_DONE)
		idle_period_end(sim, cpu);
	else if (type == EV_POLL_LIMIT)
		poll_limit(sim, cpu);
	else if (type == EV_IPI)
		ipi_arrives(sim, cpu);
	else
		idle_retry(sim, cpu);
}

static void dispatch_shared(struct il_sim *sim, const struct sim_ev *ev)
{
	if (ev->type == EV_IRQ && ev->fn)
		ev->fn(sim, ev->cpu, ev->arg);
	cpu_interrupt(sim, ev->cpu, ev->type == EV_IRQ ? IL_SIM_WAKE_IRQ : IL_SIM_WAKE_IPI);
}

/* Take the earliest event of @cpu off its slot (or its interrupt heap) and run it. */
static void run_cpu_event(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];
	unsigned int k = c->next_slot;
	struct sim_ev ev;

	if (k == SLOT_IRQ) {
		pop_irq(c, &ev);
		dispatch_shared(sim, &ev);
		return;
	}
	slot_clear_running(c, k);
	if (k == SLOT_SELF) {
		dispatch_self(sim, cpu, (enum sim_ev_type)c->self_type);
		return;
	}
	if (sim->cfg.timer_late_max_ns &&
	    timer_irq_raise(sim, cpu, k == SLOT_TICK ? LATE_TICK : LATE_TIMER, k))
		return; /* raised at the expiry, its event moved to the delivery */
	if (k == SLOT_TICK)
		tick_fire(sim, cpu);
	else if (run_expired_timers(sim, cpu))
		cpu_interrupt(sim, cpu, IL_SIM_WAKE_TIMER);
	else
		return; /* nothing expired: no interrupt */
	if (sim->cfg.timer_handler_max_ns)
		timer_handler_ran(sim, cpu);
}

int il_sim_irq(struct il_sim *sim, unsigned int cpu, u64 when, il_sim_fn fn, void *arg,
	       int hint_cpu)
{
	if (cpu >= sim->cfg.ncpus) {
		errno = EINVAL;
		return -1;
	}
	return push_irq(sim, cpu, when < sim->head.now ? sim->head.now : when, EV_IRQ, fn, arg,
			hint_cpu);
}

/*
 * Run the events of @cpu, the tree's winner, from @t on, for as long as the next one of them
 * is still the earliest event of the machine: no other CPU's events changed, and it comes
 * before the best of the rest. The tree is brought up to date once, when the chain ends.
 */
static void run_cpu_chain(struct il_sim *sim, unsigned int cpu, u64 t, u64 end)
{
	struct sim_cpu *c = &sim->cpu[cpu];
	sim_key stop = sim_key_of(end, 0), rest, key;
	bool rest_known = false;

	cpu_mark_dirty(sim, cpu); /* for the changes of its own that do not mark it */
	/*
	 * Go on while the next event comes before the end and before the rest: before the
	 * smaller of the two keys (keys are unique, and "none" is never before the end). The
	 * rest is looked at once the chain may go on; the other CPUs' nodes do not change while
	 * it runs (no other CPU is touched, and the tree is updated after it). A chain that ends
	 * with @cpu alone touched replays it at once, with the key it has just found.
	 */
	for (;;) {
		sim->head.now = t;
		sim->events++;
		run_cpu_event(sim, cpu); /* marks @cpu dirty */
		if (sim->ndirty != 1 || sim->error)
			return;
		key = cpu_earliest(c);
		if (key >= stop)
			break;
		if (!rest_known) {
			if (!tree_first_of_all(sim, cpu, key, &rest))
				break;
			stop = rest < stop ? rest : stop;
			rest_known = true;
		}
		t = sim_key_time(key);
	}
	tree_replay(sim, cpu, key); /* @cpu alone is dirty, and its earliest slot is known */
	sim->ndirty = 0;
}

/* The observer's open(): a period the end of the run cuts short, as far as it got. */
static void notify_open(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];
	bool woken = c->mode == CPU_WAKING;
	struct il_sim_period p = {
		.cpu = cpu, .idx = c->idx, .governed = c->governed, .stop_tick = c->stop_tick,
		.tick_stopped = c->env_state.tick_stopped, .start_ns = c->idle_start,
		.end_ns = sim->head.now,
		.wake_ns = woken ? c->wake_ns : sim->head.now,
		.cause = woken ? (enum il_sim_wake)c->wake_cause : IL_SIM_WAKE_NONE,
	};

	sim->obs.open(sim->obs.ctx, &p);
}

/*
 * The end of the run: add each device's period counts to the metrics, and close the periods
 * and work it cuts short, so every CPU adds up to it.
 */
static void close_run(struct il_sim *sim)
{
	if (sim->domains)
		sim_domain_close(sim);
	for (unsigned int i = 0; i < sim->cfg.ncpus; i++) {
		struct sim_cpu *c = &sim->cpu[i];

		il_metrics_add_usage(&sim->m, i, c->dev.states_usage);
		if (c->mode == CPU_IDLE || c->mode == CPU_WAKING) {
			il_metrics_open_idle(&sim->m, i, c->idx, sim->head.now - c->idle_start);
			if (sim->obs.open)
				notify_open(sim, i);
		} else if (c->mode == CPU_BUSY)
			sim->m.cpu[i].busy_ns += sim->head.now - c->work_start;
	}
	sim->m.duration_ns = sim->head.now;
}

int il_sim_run(struct il_sim *sim)
{
	u64 end = sim->cfg.duration_ns;

	if (watchdog_start(sim))
		return -1;
	for (unsigned int i = 0; i < sim->cfg.ncpus; i++) {
		if (sim->cpu[i].rq_len) {
			cpu_start_work(sim, i);
			if (sim->cfg.host_threads)
				thread_start(sim, i);
		} else
			cpu_idle_iteration(sim, i, true);
		cpu_mark_dirty(sim, i); /* its self event may be set, which does not mark it */
	}
	/* The next event is the tree's winner, by (time, scheduling order). */
	while (!sim->error) {
		sim_key next;

		tree_flush(sim);
		next = sim->tree[1];
		if (sim_key_time(next) >= end || sim_key_time(next) == KTIME_MAX_U)
			break; /* the end, or nothing is pending */
		run_cpu_chain(sim, sim_key_cpu(next), sim_key_time(next), end);
	}
	sim->head.now = end;
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
	cfg->watchdog_ns = IL_SIM_WATCHDOG_NS_DEFAULT;
	il_qos_defaults(&cfg->qos);
}

static int cpu_init(struct il_sim *sim, unsigned int i)
{
	struct sim_cpu *c = &sim->cpu[i];

	c->mode = CPU_START;
	c->nohz_full = sim->cfg.nohz_full && (sim->cfg.nohz_full[i / 64] >> (i % 64) & 1);
	c->timer_ev_at = KTIME_MAX_U;
	c->next_timer = KTIME_MAX_U;
	for (unsigned int k = 0; k < SLOT_COUNT; k++)
		c->slot[k] = slot_none;
	c->other_stale = true;
	c->env_state.qos = sim->cfg.qos;
	c->env.ops = &il_sim_env_ops;
	c->sim = sim;
	c->stats = &sim->m.cpu[i];
	c->env.ctx = &c->env_state;
	c->env.cpu = i;
	il_env_set_hz(&c->env, sim->cfg.hz);
	c->dev.cpu = i;
	c->dev.env = &c->env;
	for (int s = 0; s < c->drv->state_count; s++) {
		if (c->drv->states[s].flags & CPUIDLE_FLAG_UNUSABLE)
			c->dev.states_usage[s].disable |= CPUIDLE_STATE_DISABLED_BY_DRIVER;
		if (c->drv->states[s].flags & CPUIDLE_FLAG_OFF)
			c->dev.states_usage[s].disable |= CPUIDLE_STATE_DISABLED_BY_USER;
	}
	return il_gov_bind(c->drv, &c->dev, sim->cfg.preset);
}

/* A nohz_full= list that names a CPU the machine does not have. */
static bool nohz_full_beyond(const struct il_sim_config *cfg)
{
	if (!cfg->nohz_full || cfg->ncpus > IL_SIM_CPUS_MAX)
		return false;
	for (unsigned int cpu = cfg->ncpus; cpu < IL_SIM_CPUS_MAX; cpu++)
		if (cfg->nohz_full[cpu / 64] >> (cpu % 64) & 1)
			return true;
	return false;
}

struct il_sim *il_sim_new(const struct il_sim_config *cfg)
{
	struct il_sim *sim;

	if (!cfg->drv || !cfg->preset || !cfg->ncpus || cfg->ncpus > IL_SIM_CPUS_MAX || !cfg->hz ||
	    cfg->drv->state_count < 1 || cfg->drv->state_count > CPUIDLE_STATE_MAX ||
	    nohz_full_beyond(cfg) || cfg->timer_late_min_ns > cfg->timer_late_max_ns) {
		errno = EINVAL;
		return NULL;
	}
	sim = calloc(1, sizeof(*sim));
	if (!sim)
		goto out_nomem;
	sim->cfg = *cfg;
	if (sim->cfg.host_threads >= sim->cfg.ncpus)
		sim->cfg.host_threads = 0; /* a thread for every CPU: nothing waits */
	sim->threads_free = sim->cfg.host_threads;
	sim->drv = *cfg->drv;
	sim->tick_ns = (NSEC_PER_SEC + cfg->hz / 2) / cfg->hz;
	sim->loop = cfg->preset->core->idle_loop;
	sim->poll = cfg->preset->core->poll;
	sim->bypass = sim->drv.state_count <= 1 && sim->loop >= IL_LOOP_6_19_9;
	for (int s = 0; s < sim->drv.state_count; s++) {
		if (sim->drv.states[s].flags & CPUIDLE_FLAG_POLLING)
			sim->polling_states |= 1u << s;
		sim->exit_ns[s] = (u64)sim->drv.states[s].exit_latency_ns;
		sim->core_exit_ns[s] = sim->drv.states[s].core_exit_latency_ns > 0 ?
			(u64)sim->drv.states[s].core_exit_latency_ns : sim->exit_ns[s];
		if (!(sim->polling_states >> s & 1) && sim->core_exit_ns[s] != sim->exit_ns[s])
			sim->package_wake = true;
		sim->actual_lo[s] = (u64)sim->drv.states[s].actual_exit_min_ns;
		sim->actual_hi[s] = (u64)sim->drv.states[s].actual_exit_max_ns;
	}
	il_rng_init(&sim->exit_rng, cfg->seed, 0xe817);
	il_rng_init(&sim->late_rng, cfg->seed, 0x1a7e);
	il_rng_init(&sim->handler_rng, cfg->seed, 0x4a4d);
	sim->select = cfg->preset->gov->select;
	sim->reflect = cfg->preset->gov->reflect;
	il_rng_init(&sim->rng, cfg->seed, 0x5c0de);
	sim->cpu = calloc(cfg->ncpus, sizeof(*sim->cpu));
	for (sim->leaves = 1; sim->leaves < cfg->ncpus; sim->leaves *= 2)
		;
	sim->tree = calloc(2 * sim->leaves, sizeof(*sim->tree));
	sim->dirty = calloc(cfg->ncpus, sizeof(*sim->dirty));
	sim->head.ncpus = cfg->ncpus;
	sim->head.nr_iowait = calloc(cfg->ncpus, sizeof(*sim->head.nr_iowait));
	if (cfg->nreprice &&
	    !(sim->reprice_uj = calloc((size_t)cfg->ncpus * cfg->nreprice, sizeof(double))))
		goto out_free;
	if (!sim->cpu || !sim->tree || !sim->dirty || !sim->head.nr_iowait ||
	    il_metrics_init(&sim->m, cfg->ncpus, sim->drv.state_count, cfg->pn_us))
		goto out_free;
	/* Nothing is pending yet: every node holds "none"; leaves past ncpus keep it for ever. */
	for (unsigned int n = 1; n < 2 * sim->leaves; n++)
		sim->tree[n] = slot_key(&slot_none);
	if (sim_topology_init(sim))
		goto out_free;
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
			il_gov_unbind(c->drv, &c->dev);
		free(c->rq);
		free(c->th); /* the timers themselves belong to the scenario */
		sim_evq_free(&c->irq);
	}
	sim_topology_free(sim);
	free(sim->cpu);
	free(sim->tree);
	free(sim->dirty);
	free(sim->head.nr_iowait);
	free(sim->reprice_uj);
	free(sim->watchdog);
	il_metrics_free(&sim->m);
	free(sim);
}

/* ---- accessors ------------------------------------------------------------------------- */

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

void il_sim_set_load(struct il_sim *sim, unsigned int cpu, unsigned long weight)
{
	if (cpu < sim->cfg.ncpus)
		sim->cpu[cpu].load = weight;
}

bool il_sim_cpu_idle(const struct il_sim *sim, unsigned int cpu)
{
	enum sim_cpu_mode mode = sim->cpu[cpu].mode;

	return mode == CPU_IDLE || mode == CPU_WAKING || mode == CPU_RETRY;
}

const struct il_metrics *il_sim_metrics(const struct il_sim *sim)
{
	return &sim->m;
}

double il_sim_domain_adjust_uj(const struct il_sim *sim, unsigned int cpu, unsigned int k)
{
	return sim->reprice_uj[(size_t)cpu * sim->cfg.nreprice + k];
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
