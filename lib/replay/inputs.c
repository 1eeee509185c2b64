// SPDX-License-Identifier: GPL-2.0-only
/*
 * inputs.c - per-CPU timer queues and tick state rebuilt from trace events, and the
 * sleep length a governor would have been given at each idle entry (see inputs.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "inputs.h"
#include "wakeup.h"
#include "../util/grow.h"

/* An hrtimer this far past its expiry must have fired or been cancelled unseen. */
#define STALE_NS (10 * NSEC_PER_MSEC)
/* Expiries this far beyond the trace clock belong to another clock base (REALTIME, TAI). */
#define FOREIGN_CLOCK_NS (1000000ULL * NSEC_PER_SEC)
/* A trace clock within this of the timers' clock is taken to be the same clock. */
#define SAME_CLOCK_NS (1 * NSEC_PER_MSEC)

int inputs_init(struct replay_inputs *in, u64 tick_nsec, struct il_replay_notes *notes)
{
	memset(in, 0, sizeof(*in));
	in->tick_nsec = tick_nsec;
	in->notes = notes;
	return 0;
}

static void queue_free(struct timer_queue *q)
{
	free(q->t);
	q->t = NULL;
	q->n = q->cap = 0;
}

void inputs_free(struct replay_inputs *in)
{
	for (unsigned int i = 0; i < in->ncpus; i++) {
		queue_free(&in->cpu[i].hr);
		queue_free(&in->cpu[i].wheel);
		wake_free(&in->cpu[i]);
	}
	free(in->cpu);
	in->cpu = NULL;
	in->ncpus = 0;
}

struct replay_cpu_inputs *inputs_cpu(struct replay_inputs *in, unsigned int cpu)
{
	void *arr = in->cpu;

	if (il_grow_zeroed(&arr, &in->ncpus, cpu, sizeof(*in->cpu), 2))
		return NULL;
	in->cpu = arr;
	return &in->cpu[cpu];
}

/* ---- timer queues ---------------------------------------------------------------------- */

static int queue_find(const struct timer_queue *q, u64 ptr)
{
	for (unsigned int i = 0; i < q->n; i++)
		if (q->t[i].ptr == ptr)
			return (int)i;
	return -1;
}

static void queue_del(struct timer_queue *q, int i)
{
	q->t[i] = q->t[--q->n];
}

/* Return: 0, or -1 when there is no memory for the timer. */
static int queue_put(struct timer_queue *q, u64 ptr, u64 expires, bool tick,
		     bool maybe_deferrable)
{
	int i = queue_find(q, ptr);

	if (i < 0) {
		if (q->n == q->cap) {
			unsigned int cap = q->cap ? q->cap * 2 : 16;
			struct timer_slot *t = realloc(q->t, cap * sizeof(*t));

			if (!t)
				return -1;
			q->t = t;
			q->cap = cap;
		}
		i = (int)q->n++;
	}
	q->t[i].ptr = ptr;
	q->t[i].expires = expires;
	q->t[i].tick = tick;
	q->t[i].maybe_deferrable = maybe_deferrable;
	return 0;
}

/* Take @ptr off whichever CPU's queue has it, looking at @cpu's first. */
static void remove_everywhere(struct replay_inputs *in, unsigned int cpu, u64 ptr, bool wheel)
{
	int i;

	if (cpu < in->ncpus) {
		struct timer_queue *q = wheel ? &in->cpu[cpu].wheel : &in->cpu[cpu].hr;

		i = queue_find(q, ptr);
		if (i >= 0) {
			queue_del(q, i);
			return;
		}
	}
	for (unsigned int c = 0; c < in->ncpus; c++) {
		struct timer_queue *q = wheel ? &in->cpu[c].wheel : &in->cpu[c].hr;

		i = queue_find(q, ptr);
		if (i >= 0) {
			queue_del(q, i);
			return;
		}
	}
}

/* ---- clocks ---------------------------------------------------------------------------- */

/* The trace timestamp in the timers' clock (CLOCK_MONOTONIC). */
static u64 timer_clock(const struct replay_inputs *in, u64 ts)
{
	return (u64)((s64)ts + (in->clock_known ? in->clock_off : 0));
}

/* hrtimer_expire_entry prints now= in the timer's clock: learn the offset once. */
static void learn_clock(struct replay_inputs *in, const struct il_trace_event *ev)
{
	s64 off = (s64)ev->now - (s64)ev->ts_ns;

	if (in->clock_known || !ev->now)
		return;
	in->clock_known = true;
	in->clock_off = off > -SAME_CLOCK_NS && off < SAME_CLOCK_NS ? 0 : off;
	in->notes->clock_offset_known = true;
	in->notes->clock_offset_ns = in->clock_off;
}

static u64 tick_number(const struct replay_inputs *in, u64 mono)
{
	return mono / in->tick_nsec;
}

/* A jiffies reading at @ts: keep the largest jiffies - tick number seen. */
static void learn_jiffies(struct replay_inputs *in, u64 jiffies, u64 ts)
{
	s64 off = (s64)jiffies - (s64)tick_number(in, timer_clock(in, ts));

	if (!in->jiffies_known || off > in->jiffies_off) {
		in->jiffies_off = off;
		in->jiffies_known = true;
	}
}

static u64 jiffies_to_mono(const struct replay_inputs *in, u64 jiffies)
{
	s64 tick = (s64)jiffies - in->jiffies_off;

	return tick > 0 ? (u64)tick * in->tick_nsec : 0;
}

/* ---- events ---------------------------------------------------------------------------- */

/* The tick's hrtimer, by the handler names of the kernels we know. */
static bool tick_function(const char *fn)
{
	return !strcmp(fn, "tick_nohz_handler") || !strcmp(fn, "tick_sched_timer") ||
	       !strcmp(fn, "tick_nohz_highres_handler");
}

static u64 tick_expires(const struct replay_cpu_inputs *c, bool *found)
{
	for (unsigned int i = 0; i < c->hr.n; i++)
		if (c->hr.t[i].tick) {
			*found = true;
			return c->hr.t[i].expires;
		}
	*found = false;
	return 0;
}

static void hrtimer_start(struct replay_inputs *in, struct replay_cpu_inputs *c,
			  const struct il_trace_event *ev)
{
	bool tick = tick_function(ev->label) || (c->tick_ptr && ev->timer == c->tick_ptr);

	if (ev->expires > timer_clock(in, ev->ts_ns) + FOREIGN_CLOCK_NS) {
		in->notes->foreign_clock_timers++;
		remove_everywhere(in, ev->cpu, ev->timer, false);
		return;
	}
	if (tick)
		c->tick_ptr = ev->timer;
	if (queue_find(&c->hr, ev->timer) < 0)
		remove_everywhere(in, ev->cpu, ev->timer, false);
	if (queue_put(&c->hr, ev->timer, ev->expires, tick, false))
		in->oom = true;
}

static void hrtimer_expire(struct replay_inputs *in, struct replay_cpu_inputs *c,
			   const struct il_trace_event *ev)
{
	learn_clock(in, ev);
	remove_everywhere(in, ev->cpu, ev->timer, false);
	if (tick_function(ev->label) || (c->tick_ptr && ev->timer == c->tick_ptr)) {
		c->tick_ptr = ev->timer;
		if (c->in_idle)
			c->got_tick = true;
	}
}

static void timer_start(struct replay_inputs *in, const struct il_trace_event *ev)
{
	unsigned int target = ev->target_cpu >= 0 ? (unsigned int)ev->target_cpu : ev->cpu;
	struct replay_cpu_inputs *t = inputs_cpu(in, target);

	if (ev->now)
		learn_jiffies(in, ev->now, ev->ts_ns);
	if (!t) {
		in->oom = true;
		return;
	}
	/*
	 * A deferrable timer sits in the wheel's BASE_DEF, which the idle path's next-event
	 * search never looks at: it fires when something else wakes the CPU. Queued, it
	 * makes the sleep length short and then negative (by up to STALE_NS) until the CPU
	 * wakes for another reason.
	 */
	if (ev->deferrable == 1) {
		remove_everywhere(in, target, ev->timer, true);
		return;
	}
	if (queue_find(&t->wheel, ev->timer) < 0)
		remove_everywhere(in, target, ev->timer, true);
	if (queue_put(&t->wheel, ev->timer, ev->expires, false, ev->deferrable < 0))
		in->oom = true;
}

static void tick_stop(struct replay_cpu_inputs *c, const struct il_trace_event *ev)
{
	if (!ev->success || c->tick_stopped)
		return;
	c->tick_stopped = true;
	c->stopped_since_exit = true;
	c->pre_stop_expires = tick_expires(c, &c->have_pre_stop);
}

void inputs_event(struct replay_inputs *in, const struct il_trace_event *ev)
{
	struct replay_cpu_inputs *c = inputs_cpu(in, ev->cpu);

	if (!c) {
		in->oom = true;
		return;
	}
	switch (ev->type) {
	case IL_EV_HRTIMER_START:
		hrtimer_start(in, c, ev);
		break;
	case IL_EV_HRTIMER_CANCEL:
		remove_everywhere(in, ev->cpu, ev->timer, false);
		break;
	case IL_EV_HRTIMER_EXPIRE:
		hrtimer_expire(in, c, ev);
		break;
	case IL_EV_TIMER_START:
		timer_start(in, ev);
		break;
	case IL_EV_TIMER_EXPIRE:
		learn_jiffies(in, ev->now, ev->ts_ns);
		remove_everywhere(in, ev->cpu, ev->timer, true);
		break;
	case IL_EV_TIMER_CANCEL:
		remove_everywhere(in, ev->cpu, ev->timer, true);
		break;
	case IL_EV_TICK_STOP:
		tick_stop(c, ev);
		break;
	case IL_EV_SCHED_SWITCH:
		/* The idle task leaves: tick_nohz_idle_exit() restarts a stopped tick. */
		if (ev->prev_pid == 0 && ev->next_pid != 0)
			c->tick_stopped = false;
		break;
	default:
		break;
	}
}

/* ---- the inputs at an idle entry ------------------------------------------------------- */

static void drop_stale_from(struct replay_inputs *in, struct timer_queue *q, u64 now, bool wheel)
{
	for (unsigned int i = 0; i < q->n;) {
		u64 expires = wheel ? jiffies_to_mono(in, q->t[i].expires) : q->t[i].expires;
		u64 limit = q->t[i].maybe_deferrable ? in->tick_nsec : STALE_NS;

		if (expires + limit < now) {
			in->notes->stale_timers++;
			queue_del(q, (int)i);
			continue;
		}
		i++;
	}
}

static void drop_stale(struct replay_inputs *in, struct replay_cpu_inputs *c, u64 now)
{
	drop_stale_from(in, &c->hr, now, false);
	if (in->jiffies_known)
		drop_stale_from(in, &c->wheel, now, true);
}

/* Earliest hrtimer other than the tick, KTIME_MAX if none. */
static u64 next_hrtimer_without_tick(const struct replay_cpu_inputs *c)
{
	u64 next = KTIME_MAX;

	for (unsigned int i = 0; i < c->hr.n; i++)
		if (!c->hr.t[i].tick && c->hr.t[i].expires < next)
			next = c->hr.t[i].expires;
	return next;
}

/* The next timer-wheel expiry of the CPU in the timers' clock, KTIME_MAX if none/unknown. */
static u64 next_wheel(struct replay_inputs *in, const struct replay_cpu_inputs *c)
{
	u64 next = UINT64_MAX;

	for (unsigned int i = 0; i < c->wheel.n; i++)
		if (c->wheel.t[i].expires < next)
			next = c->wheel.t[i].expires;
	if (next == UINT64_MAX)
		return KTIME_MAX;
	if (!in->jiffies_known) {
		in->notes->wheel_uncalibrated++;
		return KTIME_MAX;
	}
	return jiffies_to_mono(in, next);
}

/* When the tick would fire next if it runs at select. */
static u64 running_tick_expiry(struct replay_inputs *in, const struct replay_cpu_inputs *c,
			       u64 now)
{
	bool found;
	u64 exp;

	if (c->stopped_since_exit && c->have_pre_stop)
		return c->pre_stop_expires;
	exp = tick_expires(c, &found);
	if (found)
		return exp;
	/* Not seen yet (the trace began after it was armed): the next tick boundary. */
	in->notes->tick_unknown++;
	return (tick_number(in, now) + 1) * in->tick_nsec;
}

static s64 until(u64 when, u64 now)
{
	return when >= (u64)KTIME_MAX ? (s64)(KTIME_MAX - (s64)now) : (s64)(when - now);
}

void inputs_enter(struct replay_inputs *in, struct replay_cpu_inputs *c,
		  const struct il_trace_event *ev)
{
	struct il_replay_inputs *cur = &c->cur;
	u64 now = timer_clock(in, ev->ts_ns);
	bool tick_ran = !c->tick_stopped || c->stopped_since_exit;
	u64 programmed, hr_next, wheel, basemono, next, tick;
	bool queued;

	drop_stale(in, c, now);
	hr_next = next_hrtimer_without_tick(c);
	programmed = hr_next;
	if (tick_ran) {
		tick = running_tick_expiry(in, c, now);
	} else {
		/* A stopped tick's timer, if queued, was set to the next timer event. */
		tick = tick_expires(c, &queued);
		if (!queued)
			tick = KTIME_MAX;
	}
	if (tick < programmed)
		programmed = tick;
	if (programmed == (u64)KTIME_MAX)
		in->notes->no_timers++;

	cur->cpu = ev->cpu;
	cur->enter_ts = ev->ts_ns;
	cur->enter_line = ev->line;
	cur->tick_stopped = !tick_ran;
	cur->recorded_stop = c->stopped_since_exit;
	cur->recorded_state = (int)ev->state;
	cur->delta_next_ns = until(programmed, now);

	/* tick_nohz_next_event(): keep the tick if the wheel needs it within a tick. */
	wheel = next_wheel(in, c);
	basemono = tick_number(in, now) * in->tick_nsec;
	if (tick_ran && wheel != (u64)KTIME_MAX && wheel - basemono <= in->tick_nsec) {
		cur->sleep_ns = cur->delta_next_ns;
	} else {
		next = wheel < hr_next ? wheel : hr_next;
		cur->sleep_ns = until(next, now);
	}
	if (cur->sleep_ns < 0 || cur->delta_next_ns < 0)
		in->notes->negative_sleep++;
}
