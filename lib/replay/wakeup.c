// SPDX-License-Identifier: GPL-2.0-only
/*
 * wakeup.c - the sleep length of each idle period of a trace without timer events, from the
 * interrupt that ended it (the model: wakeup.h, docs/trace.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wakeup.h"
#include "../output/output.h"

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

bool il_replay_local_timer(const struct il_trace_event *ev)
{
	switch (ev->type) {
	case IL_EV_IRQ:
		return !strcmp(ev->label, "arch_timer") || !strcmp(ev->label, "riscv-timer") ||
		       !strcmp(ev->label, "twd") || starts_with(ev->label, "mct_tick");
	case IL_EV_IRQ_VECTOR: /* x86's LOC, powerpc's decrementer */
		return il_trace_vector_is_local_timer(ev->label);
	case IL_EV_IPI_ENTRY:
		return starts_with(ev->label, "Timer broadcast");
	default:
		return false;
	}
}

/* The next tick boundary after @ns, counted from @ns. */
static s64 to_next_tick(u64 ns, u64 tick_nsec)
{
	return (s64)((ns / tick_nsec + 1) * tick_nsec - ns);
}

/* Give @p its sleep length @sleep_ns (from @from) and replay it. */
static int run(struct il_replay *r, struct replay_inputs *in, struct wake_period *p,
	       s64 sleep_ns, enum il_sleep_from from)
{
	s64 tick = to_next_tick(p->in.enter_ts, in->tick_nsec);

	p->in.sleep_ns = sleep_ns;
	p->in.delta_next_ns = sleep_ns < tick ? sleep_ns : tick;
	in->notes->sleep_from[p->end][from]++;
	return il_replay_run_period(r, &p->in);
}

/* Replay every queued period with its lower bound (the queue is full, or at the end). */
static int run_queue_lower(struct il_replay *r, struct replay_inputs *in,
			   struct replay_cpu_inputs *c)
{
	for (unsigned int i = 0; i < c->nqueue; i++)
		if (run(r, in, &c->queue[i], c->queue[i].in.residency_ns, IL_SLEEP_FROM_LOWER))
			return -1;
	c->nqueue = 0;
	return 0;
}

/* A local-timer interrupt at @ts: every queued period's sleep length ends there at most. */
static int run_queue_upper(struct il_replay *r, struct replay_inputs *in,
			   struct replay_cpu_inputs *c, u64 ts)
{
	for (unsigned int i = 0; i < c->nqueue; i++) {
		struct wake_period *p = &c->queue[i];
		s64 upper = (s64)(ts - p->in.enter_ts);

		/* The bound cannot be below what was measured (an interrupt inside the period). */
		if (upper < p->in.residency_ns)
			upper = p->in.residency_ns;
		if (run(r, in, p, upper, IL_SLEEP_FROM_NEXT_TIMER))
			return -1;
	}
	c->nqueue = 0;
	return 0;
}

static int enqueue(struct il_replay *r, struct replay_inputs *in, struct replay_cpu_inputs *c,
		   const struct wake_period *p)
{
	if (c->nqueue == IL_WAKE_QUEUE_MAX && run_queue_lower(r, in, c))
		return -1;
	if (c->nqueue == c->cap_queue) {
		unsigned int cap = c->cap_queue ? c->cap_queue * 2 : 16;
		struct wake_period *q = realloc(c->queue, cap * sizeof(*q));

		if (!q) {
			errno = ENOMEM;
			return -1;
		}
		c->queue = q;
		c->cap_queue = cap;
	}
	c->queue[c->nqueue++] = *p;
	return 0;
}

/* The current period's wakeup is known: replay it now (a timer) or queue it for its bound. */
static int finish_period(struct il_replay *r, struct replay_inputs *in,
			 struct replay_cpu_inputs *c, enum il_wake_end end)
{
	struct wake_period p = { .in = c->cur, .end = end };

	c->wake = WAKE_IDLE_NONE;
	if (end == IL_WAKE_END_TIMER)
		return run(r, in, &p, p.in.residency_ns, IL_SLEEP_FROM_EXACT);
	return enqueue(r, in, c, &p);
}

int wake_enter(struct il_replay *r, struct replay_inputs *in, struct replay_cpu_inputs *c,
	       const struct il_trace_event *ev)
{
	struct il_replay_inputs *cur = &c->cur;

	/* The last period's window closes unanswered: nothing seen woke it. */
	if (c->wake == WAKE_WINDOW && finish_period(r, in, c, IL_WAKE_END_NONE))
		return -1;
	memset(cur, 0, sizeof(*cur));
	cur->cpu = ev->cpu;
	cur->enter_ts = ev->ts_ns;
	cur->enter_line = ev->line;
	cur->recorded_state = (int)ev->state;
	c->wake = WAKE_IN;
	return 0;
}

int wake_exit(struct il_replay *r, struct replay_inputs *in, struct replay_cpu_inputs *c)
{
	if (c->wake == WAKE_IN_KNOWN)
		return finish_period(r, in, c, c->wake_end);
	c->wake = WAKE_WINDOW;
	return 0;
}

int wake_interrupt(struct il_replay *r, struct replay_inputs *in, struct replay_cpu_inputs *c,
		   const struct il_trace_event *ev)
{
	bool timer = il_replay_local_timer(ev);
	enum il_wake_end end = timer ? IL_WAKE_END_TIMER : IL_WAKE_END_OTHER;

	/* Older periods first: their upper bound is this interrupt, if it is the timer. */
	if (timer && run_queue_upper(r, in, c, ev->ts_ns))
		return -1;
	switch (c->wake) {
	case WAKE_IN:
		c->wake = WAKE_IN_KNOWN;
		c->wake_end = end;
		return 0;
	case WAKE_WINDOW:
		return finish_period(r, in, c, end);
	default:
		return 0;
	}
}

int wake_switch(struct il_replay *r, struct replay_inputs *in, struct replay_cpu_inputs *c,
		const struct il_trace_event *ev)
{
	/* The idle task leaves with no interrupt seen: a wakeup without one (a polling
	 * state's need_resched, an IPI the trace does not show). */
	if (c->wake == WAKE_WINDOW && ev->prev_pid == 0)
		return finish_period(r, in, c, IL_WAKE_END_NONE);
	return 0;
}

int wake_finish(struct il_replay *r, struct replay_inputs *in)
{
	for (unsigned int i = 0; i < in->ncpus; i++) {
		struct replay_cpu_inputs *c = &in->cpu[i];

		if (c->wake == WAKE_WINDOW && finish_period(r, in, c, IL_WAKE_END_NONE))
			return -1;
		if (run_queue_lower(r, in, c))
			return -1;
	}
	return 0;
}

void wake_free(struct replay_cpu_inputs *c)
{
	free(c->queue);
	c->queue = NULL;
	c->nqueue = c->cap_queue = 0;
}

/* ---- the table ----------------------------------------------------------------------- */

static const char *const end_names[IL_WAKE_END__COUNT] = {
	[IL_WAKE_END_TIMER] = "local timer interrupt",
	[IL_WAKE_END_OTHER] = "another interrupt",
	[IL_WAKE_END_NONE] = "no interrupt seen",
};

static const char *const from_names[IL_SLEEP_FROM__COUNT] = {
	[IL_SLEEP_FROM_EXACT] = "measured duration (exact)",
	[IL_SLEEP_FROM_NEXT_TIMER] = "next local timer interrupt (upper bound)",
	[IL_SLEEP_FROM_LOWER] = "measured duration (lower bound)",
};

int il_replay_sleep_table(struct il_table *t, const struct il_replay *r)
{
	static const char *const cols[] = { "ended_by", "sleep_length", "periods" };
	const struct il_replay_notes *n = il_replay_notes(r);

	if (il_table_init(t, "sleep length", 3, cols))
		return -1;
	for (int e = 0; e < IL_WAKE_END__COUNT; e++)
		for (int f = 0; f < IL_SLEEP_FROM__COUNT; f++) {
			int row;

			if (!n->sleep_from[e][f])
				continue;
			row = il_table_add_row(t);
			if (row < 0 || il_table_set_str(t, row, 0, end_names[e]) ||
			    il_table_set_str(t, row, 1, from_names[f]))
				return -1;
			il_table_set_int(t, row, 2, (s64)n->sleep_from[e][f]);
		}
	return 0;
}
