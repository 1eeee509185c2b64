/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wakeup.h - the sleep length of a trace without timer events, from what ended each idle
 * period (the model is in docs/trace.md, "Traces without timer events").
 *
 * DOC: sleep length from wakeups
 *
 * Without hrtimer_* / timer_* / tick_stop events no timer queue can be rebuilt, so the
 * sleep length a governor was given at select() is estimated after the fact, per CPU:
 *
 *  1. What ended the period: the first interrupt on the CPU after the enter (irq_handler_entry,
 *     an x86 irq_vectors *_entry, an Arm ipi_entry), inside the period or right after its
 *     exit, before the CPU switches to a task (drivers that enable interrupts in the idle
 *     instruction, like haltpoll's, trace it before the exit; intel_idle and psci after).
 *  2. A local-timer interrupt (il_replay_local_timer()) means a timer expired: the sleep
 *     length was the measured duration ("exact": up to the exit latency and the timer's
 *     slack; when the tick ran and the wakeup was the tick, the true sleep length was
 *     longer: the tick, not the next timer, ended the period).
 *  3. Any other interrupt, or none seen: the sleep length was at least the measured
 *     duration; the CPU's next local-timer interrupt in the trace bounds it from above (a
 *     timer queued at the enter fires by then unless it was cancelled). The period waits
 *     for that interrupt ("next timer", upper); when IL_WAKE_QUEUE_MAX periods of a CPU
 *     wait, and at the end of the trace, the waiting ones take the lower bound (the
 *     measured duration).
 *  4. delta_next = min(sleep length, the next tick boundary): the tick is taken to run at
 *     select (no tick_stop events say otherwise); tick_stopped false, got_tick false.
 */
#ifndef IDLELAB_REPLAY_WAKEUP_H
#define IDLELAB_REPLAY_WAKEUP_H

#include "inputs.h"

/* Periods per CPU waiting for their upper bound; when this many wait, they take the lower. */
#define IL_WAKE_QUEUE_MAX 4096

int wake_enter(struct il_replay *r, struct replay_inputs *in, struct replay_cpu_inputs *c,
	       const struct il_trace_event *ev);
int wake_exit(struct il_replay *r, struct replay_inputs *in, struct replay_cpu_inputs *c);
int wake_interrupt(struct il_replay *r, struct replay_inputs *in, struct replay_cpu_inputs *c,
		   const struct il_trace_event *ev);
int wake_switch(struct il_replay *r, struct replay_inputs *in, struct replay_cpu_inputs *c,
		const struct il_trace_event *ev);
/* The end of the trace: close every CPU's open window and queue. */
int wake_finish(struct il_replay *r, struct replay_inputs *in);
void wake_free(struct replay_cpu_inputs *c);

#endif /* IDLELAB_REPLAY_WAKEUP_H */
