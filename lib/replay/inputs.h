/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * inputs.h - rebuilding, from a trace, what a governor reads at each idle entry.
 *
 * DOC: governor inputs from a trace
 *
 * A governor's select() reads tick_nohz_get_sleep_length() (the sleep length and
 * *delta_next) and tick_nohz_tick_stopped(); its reflect() reads the measured residency
 * and tick_nohz_idle_got_tick(). None of them is traced, so each is rebuilt per CPU from
 * the events before the cpu_idle enter (kernel-governors.md §1.2, §1.5):
 *
 *  1. The "hrtimer queue" of each CPU: hrtimer_start puts a timer on the queue of the CPU
 *     that recorded it (pointer -> hard expiry), hrtimer_cancel and hrtimer_expire_entry
 *     take it off. The tick's own timer is recognised by its handler's name.
 *  2. The "timer wheel" of each CPU: timer_start (target cpu=, bucket_expiry in jiffies),
 *     timer_cancel, timer_expire_entry. Deferrable timers (flags=D) are left out: they
 *     sit in the wheel's BASE_DEF, which get_next_timer_interrupt() does not search, and
 *     fire only once something else wakes the CPU (the traces of shared/traces/vm-haltpoll
 *     have such a 1 s delayed work on CPU 0; queued, it made the sleep lengths negative by
 *     up to 10 ms). Where a reader cannot tell (libtraceevent's text prints D|P|I for
 *     every timer), every timer is queued, and one that is a tick past its expiry is
 *     taken for deferrable and dropped: a timer that wakes the CPU has fired by then.
 *     Jiffies are tied to the trace clock by the events that print both ("[timeout=N]"
 *     with expires, timer_expire_entry now=); jiffy J starts at the tick boundary
 *     (J - offset) * TICK_NSEC, offset being the largest J - tick number seen (a late tick
 *     can only make a reading too small).
 *  3. At the enter, with now = the enter's timestamp in the timers' clock:
 *       delta_next = earliest hrtimer of the CPU, the tick included while it runs, - now
 *       sleep      = delta_next if the tick runs and the wheel's next timer is within a
 *                    tick of the last tick boundary, else
 *                    min(next wheel timer, earliest hrtimer but the tick) - now
 *     like tick_nohz_get_sleep_length() and tick_nohz_next_event() (6.18).
 *  4. The tick: stopped by tick_stop success=1, running again once the idle task leaves
 *     the CPU (sched_switch prev_pid=0). select() runs before the stop, so a tick_stop
 *     between the previous exit and this enter means "the tick ran at select and the
 *     governor let it stop" (the recorded stop_tick), and the tick's expiry from before
 *     the stop is used for delta_next.
 *  5. got_tick: the tick's hrtimer expired on this CPU inside the period.
 *
 * What cannot be rebuilt is counted (struct il_replay_notes): timers started before the
 * trace began, RCU/irq_work keeping the tick (next_tick = basemono + TICK_NSEC), timers in
 * other clock bases (REALTIME expiries are recognised by being far in the future), and the
 * gap between the kernel's idle_entrytime and the traced enter.
 */
#ifndef IDLELAB_REPLAY_INPUTS_H
#define IDLELAB_REPLAY_INPUTS_H

#include "replay.h"

struct timer_slot {
	u64 ptr;
	u64 expires; /* hrtimer: ns in the timers' clock; wheel: jiffies */
	bool tick;
	bool maybe_deferrable; /* a wheel timer whose flags the reader could not tell */
};

struct timer_queue {
	struct timer_slot *t;
	unsigned int n, cap;
};

/* A finished period waiting for what bounds its sleep length (wakeup.c). */
struct wake_period {
	struct il_replay_inputs in;
	enum il_wake_end end;
};

/* Where a CPU is in the wakeup model (wakeup.c). */
enum wake_phase {
	WAKE_IDLE_NONE,   /* no period to classify */
	WAKE_IN,          /* in a period, no interrupt seen yet */
	WAKE_IN_KNOWN,    /* in a period, its wakeup seen (an interrupt inside it) */
	WAKE_WINDOW,      /* exited; the wakeup may still come (interrupts enabled after exit) */
};

/* One CPU's reconstruction. */
struct replay_cpu_inputs {
	/* the wakeup model (traces without timer events) */
	enum wake_phase wake;
	enum il_wake_end wake_end;
	struct wake_period *queue;  /* periods waiting for the next local-timer interrupt */
	unsigned int nqueue, cap_queue;
	struct timer_queue hr;      /* hrtimers queued on this CPU */
	struct timer_queue wheel;   /* timer-wheel timers targeted at this CPU */
	u64 tick_ptr;               /* the tick's hrtimer, 0 while unknown */
	bool tick_stopped;
	bool stopped_since_exit;    /* tick_stop seen since the last idle exit */
	bool have_pre_stop;         /* ... and the tick's expiry before it */
	u64 pre_stop_expires;
	bool in_idle;
	bool got_tick;              /* the tick fired inside the current period */
	u64 enter_ts;
	u32 enter_state;
	struct il_replay_inputs cur;
};

struct replay_inputs {
	struct replay_cpu_inputs *cpu;
	unsigned int ncpus;
	u64 tick_nsec;
	/* trace clock -> timers' clock */
	bool clock_known;
	s64 clock_off;
	/* jiffies -> tick number */
	bool jiffies_known;
	s64 jiffies_off;
	struct il_replay_notes *notes;
	bool oom;      /* an allocation failed: the inputs are incomplete (il_replay_event() -1) */
};

int inputs_init(struct replay_inputs *in, u64 tick_nsec, struct il_replay_notes *notes);
void inputs_free(struct replay_inputs *in);
/* Make room for @cpu. Return: its state, or NULL on ENOMEM. */
struct replay_cpu_inputs *inputs_cpu(struct replay_inputs *in, unsigned int cpu);
/* Track one non-idle event (timers, tick, sched); an allocation failure sets in->oom. */
void inputs_event(struct replay_inputs *in, const struct il_trace_event *ev);
/* A cpu_idle enter: fill c->cur with the select-time inputs. */
void inputs_enter(struct replay_inputs *in, struct replay_cpu_inputs *c,
		  const struct il_trace_event *ev);

#endif /* IDLELAB_REPLAY_INPUTS_H */
