/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * replay.h - run governors open loop over the idle periods of a recorded trace.
 *
 * DOC: counterfactual replay
 *
 * For every idle period of every CPU of a trace (a cpu_idle enter and its exit):
 *
 *  1. Rebuild the inputs the kernel's governor had at select() (lib/replay/inputs.h): the
 *     sleep length and delta_next from the hrtimer queue and the timer wheel, the tick
 *     state; and at reflect(): the measured residency (exit - enter) and got_tick.
 *  2. Run every governor on its own copy of the CPU ("open loop"): select() with those
 *     inputs, the cpuidle core's accounting of the measured residency in the state it
 *     picked (il_cpuidle_account(): above/below by the kernel's rules), then reflect().
 *     The residency is the recorded one whatever state the governor picked: a deeper
 *     state's longer exit latency or a poll limit would have changed what happened next,
 *     and that feedback is ignored. The tick state too is the recorded one.
 *  3. Compare each pick with the recorded state ("agreement", with a confusion table
 *     recorded x picked) and, where the tick ran at select, stop_tick with whether the
 *     tick was stopped (tick_stop) before the enter.
 *  4. Keep the recorded governor's own row from the trace: its states, the cpu_idle_miss
 *     events it got, and the same accounting of its states for comparison.
 *
 * The energy is a model value over the idle periods only (state power x residency +
 * entry/exit energy from the platform); busy time is the same for every governor in an
 * open-loop replay and is left out.
 */
#ifndef IDLELAB_REPLAY_H
#define IDLELAB_REPLAY_H

#include "../core/core.h"
#include "../governor.h"
#include "../error.h"
#include "../platform/platform.h"
#include "../trace/trace.h"
#include "bound.h"

/* The event types replay uses: read a trace with il_trace_set_events(t, this). */
#define IL_REPLAY_EVENTS                                                                      \
	(IL_EV_BIT(IL_EV_CPU_IDLE) | IL_EV_BIT(IL_EV_CPU_IDLE_MISS) |                           \
	 IL_EV_BIT(IL_EV_HRTIMER_START) | IL_EV_BIT(IL_EV_HRTIMER_CANCEL) |                     \
	 IL_EV_BIT(IL_EV_HRTIMER_EXPIRE) | IL_EV_BIT(IL_EV_TIMER_START) |                       \
	 IL_EV_BIT(IL_EV_TIMER_CANCEL) | IL_EV_BIT(IL_EV_TIMER_EXPIRE) |                        \
	 IL_EV_BIT(IL_EV_TICK_STOP) | IL_EV_BIT(IL_EV_SCHED_SWITCH))

/* Without timer events (--sleep-length wakeups): the wakeup model needs the interrupts. */
#define IL_REPLAY_WAKEUP_EVENTS                                                               \
	(IL_EV_BIT(IL_EV_CPU_IDLE) | IL_EV_BIT(IL_EV_CPU_IDLE_MISS) | IL_EV_BIT(IL_EV_IRQ) |    \
	 IL_EV_BIT(IL_EV_IRQ_VECTOR) | IL_EV_BIT(IL_EV_IPI_ENTRY) |                             \
	 IL_EV_BIT(IL_EV_SCHED_SWITCH))
/* The timer events: a trace with none of them is replayed with the wakeup model. */
#define IL_REPLAY_TIMER_EVENTS                                                                \
	(IL_EV_BIT(IL_EV_HRTIMER_SETUP) | IL_EV_BIT(IL_EV_HRTIMER_START) |                      \
	 IL_EV_BIT(IL_EV_HRTIMER_CANCEL) | IL_EV_BIT(IL_EV_HRTIMER_EXPIRE) |                    \
	 IL_EV_BIT(IL_EV_TIMER_START) | IL_EV_BIT(IL_EV_TIMER_CANCEL) |                         \
	 IL_EV_BIT(IL_EV_TIMER_EXPIRE) | IL_EV_BIT(IL_EV_TICK_STOP))

/* Where the sleep length given to the governors comes from (docs/trace.md). */
enum il_sleep_source {
	IL_SLEEP_TIMERS,  /* the rebuilt hrtimer queue and timer wheel (lib/replay/inputs.h) */
	IL_SLEEP_WAKEUPS, /* what ended each period (lib/replay/wakeup.h): no timer events */
};

/* What ended an idle period, in the wakeup model. */
enum il_wake_end {
	IL_WAKE_END_TIMER,  /* the CPU's local-timer interrupt */
	IL_WAKE_END_OTHER,  /* another interrupt or IPI */
	IL_WAKE_END_NONE,   /* no interrupt seen before the CPU ran a task (or the trace ended) */
	IL_WAKE_END__COUNT
};

/* Which sleep length a period got, in the wakeup model. */
enum il_sleep_from {
	IL_SLEEP_FROM_EXACT,      /* = the measured duration (a local-timer wakeup) */
	IL_SLEEP_FROM_NEXT_TIMER, /* = the CPU's next local-timer interrupt (an upper bound) */
	IL_SLEEP_FROM_LOWER,      /* = the measured duration (a lower bound: nothing better) */
	IL_SLEEP_FROM__COUNT
};

/**
 * il_replay_local_timer - whether @ev is the CPU's local timer interrupt: irq_handler_entry
 * of arch_timer (Arm generic timer), riscv-timer, twd (Cortex-A9 private timer) or
 * mct_tickN (Exynos MCT); the x86 irq_vectors local_timer_entry (LOC, the APIC timer);
 * powerpc's decrementer (powerpc:timer_interrupt_entry, il_trace_vector_is_local_timer()); an
 * Arm ipi_entry "Timer broadcast interrupts" (the broadcast that stands in for a local
 * timer stopped in a deep state). Return: true or false.
 */
bool il_replay_local_timer(const struct il_trace_event *ev);

#define IL_REPLAY_MAX_GOVS 32
#define IL_REPLAY_MAX_PARAMS 16

struct il_replay_cfg {
	const struct il_platform *plat; /* the state table, HZ and power model */
	unsigned int hz;                /* CONFIG_HZ, 0: the platform's */
	int ngov;
	const struct il_preset *presets[IL_REPLAY_MAX_GOVS];
	int cpu;                        /* only this CPU, -1: all */
	/* Governor tunables "NAME=VALUE", set on every governor that has NAME (the traced
	 * kernel's module parameters, e.g. guest_halt_poll_ns=0). */
	int nparams;
	const char *params[IL_REPLAY_MAX_PARAMS];
	enum il_sleep_source sleep_source;
	const char *sleep_why;          /* how sleep_source was chosen, for the notes; NULL: none */
};

/* What one governor (or the trace itself) did over the replayed periods. */
struct il_replay_row {
	u64 idles;
	u64 above, below;               /* il_cpuidle_account() of the picked states */
	u64 usage[CPUIDLE_STATE_MAX];
	u64 time_ns[CPUIDLE_STATE_MAX];
	u64 energy_nj;                  /* model, idle periods only */
	u64 agree;                      /* picked the recorded state */
	u64 confusion[CPUIDLE_STATE_MAX][CPUIDLE_STATE_MAX]; /* [recorded][picked] */
	u64 tick_decisions;             /* periods where the tick ran at select */
	u64 tick_agree;                 /* stop_tick matched the recorded tick_stop */
	u64 stop_tick;                  /* of tick_decisions, how many asked to stop it */
	/* [tick_stop recorded][stop_tick asked]: [1][0] contradicts the trace (the kernel stops
	 * the tick only when asked); [0][1] may be the kernel keeping it anyway (RCU,
	 * irq_work or a timer-wheel timer within a tick). */
	u64 tick_confusion[2][2];
	u64 miss_above, miss_below;     /* the trace's row only: cpu_idle_miss as recorded */
	struct il_bound_gov bound;      /* energy and summed exit latency in the bound's model */
};

/* What the reconstruction could not know, counted. */
struct il_replay_notes {
	u64 periods;
	u64 exits_without_enter;        /* the trace starts inside an idle period */
	u64 open_at_end;                /* periods still open when the trace ends */
	u64 enters_while_idle;          /* an exit was lost */
	u64 bad_state;                  /* recorded state outside the platform's table */
	u64 no_table;                   /* periods of CPUs the platform's per-CPU tables lack */
	u64 tick_unknown;               /* tick timer not seen yet: next tick boundary assumed */
	u64 no_timers;                  /* no hrtimer known on the CPU at all */
	u64 wheel_uncalibrated;         /* wheel timers present but jiffies not tied to time */
	u64 stale_timers;               /* timers long past their expiry, dropped */
	u64 foreign_clock_timers;       /* expiry far in the future: another clock base */
	u64 negative_sleep;             /* the rebuilt sleep length was negative */
	s64 clock_offset_ns;            /* timers' clock - trace clock (0 for trace_clock=mono) */
	bool clock_offset_known;
	/* the wakeup model: periods by what ended them and the sleep length they got */
	u64 sleep_from[IL_WAKE_END__COUNT][IL_SLEEP_FROM__COUNT];
};

/* The inputs rebuilt for one idle period, and what the trace recorded. */
struct il_replay_inputs {
	unsigned int cpu;
	u64 enter_ts, exit_ts;          /* trace clock */
	u64 enter_line;
	s64 sleep_ns;                   /* tick_nohz_get_sleep_length() */
	s64 delta_next_ns;              /* *delta_next */
	bool tick_stopped;              /* tick_nohz_tick_stopped() at select */
	bool got_tick;                  /* the tick fired inside the period */
	s64 residency_ns;
	int recorded_state;
	bool recorded_stop; /* the tick was stopped between the previous exit and the enter */
};

/* Per-period hook: the inputs and every governor's pick (index, stop_tick). */
typedef void (*il_replay_period_fn)(void *ctx, const struct il_replay_inputs *in,
				    const int *picks, const bool *stops);

struct il_replay;

/**
 * il_replay_new - prepare a replay of @cfg's governors on @cfg's platform
 * Return: the replay, or NULL with @err set (no platform, a governor cannot be bound, a
 * parameter no governor has or with a value it refuses, out of memory).
 */
struct il_replay *il_replay_new(const struct il_replay_cfg *cfg, struct il_error *err);
/** il_replay_set_period_hook - call @fn after every replayed period */
void il_replay_set_period_hook(struct il_replay *r, il_replay_period_fn fn, void *ctx);
/**
 * il_replay_event - feed one trace event, in trace order
 * Return: 0, or -1 with errno ENOMEM when memory ran out: a period or a timer would be
 * lost, so the results would cover less than the trace; stop there.
 */
int il_replay_event(struct il_replay *r, const struct il_trace_event *ev);
/**
 * il_replay_run_period - replay every governor over one period whose inputs are already
 * known (rebuilt by an earlier pass, or made up), as if it had just been read
 * Return: 0, or -1 if the CPU's devices cannot be set up (out of memory).
 */
int il_replay_run_period(struct il_replay *r, const struct il_replay_inputs *in);
/**
 * il_replay_finish - count the periods still open at the end; in the wakeup model, replay
 * the periods that waited for a later local-timer interrupt (with their lower bound)
 * Return: 0, or -1 with errno ENOMEM.
 */
int il_replay_finish(struct il_replay *r);
/**
 * il_replay_trace_has_timers - whether the trace at @path (read with reader @format, NULL:
 * detected) has any timer event (IL_REPLAY_TIMER_EVENTS): the first one ends the scan
 * Return: 1 or 0, or -1 with @err set (the trace cannot be read).
 */
int il_replay_trace_has_timers(const char *path, const char *format, struct il_error *err);
void il_replay_free(struct il_replay *r);

/** il_replay_gov_row - totals of governor @i (in cfg order) over the replayed CPUs */
const struct il_replay_row *il_replay_gov_row(const struct il_replay *r, int i);
/** il_replay_trace_row - the recorded governor's row, from the trace */
const struct il_replay_row *il_replay_trace_row(const struct il_replay *r);
const struct il_replay_notes *il_replay_notes(const struct il_replay *r);
/** il_replay_bound - the open-loop frontier of the replayed periods (bound.h) */
const struct il_bound *il_replay_bound(struct il_replay *r);
struct il_table;
/**
 * il_replay_sleep_table - in the wakeup model, the periods by what ended them and which
 * sleep length they got (lib/replay/wakeup.c); empty with the timer model
 * Return: 0, or -1 (out of memory).
 */
int il_replay_sleep_table(struct il_table *t, const struct il_replay *r);

/** il_replay_ncpus - 1 + the highest CPU with events; CPUs without periods replay nothing */
unsigned int il_replay_ncpus(const struct il_replay *r);
/** il_replay_cpu_periods - how many periods of @cpu were replayed */
u64 il_replay_cpu_periods(const struct il_replay *r, unsigned int cpu);

#endif /* IDLELAB_REPLAY_H */
