/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stats.h - per-CPU, per-state statistics of a recorded trace.
 *
 * DOC: trace statistics
 *
 * Feed the events of a trace to il_stats_event() (IL_STATS_EVENTS are the ones used; others
 * are ignored), then call il_stats_finish(). Memory is per CPU and per state, never per
 * event.
 *
 *  1. An "idle period" is a cpu_idle enter (state S) followed on the same CPU by a
 *     cpu_idle exit (state 4294967295). Its "residency" is exit time - enter time, as
 *     cpuidle_enter_state() measures it (there with local_clock(), here with the trace
 *     clock, so with the trace's precision: 1 µs for tracefs text).
 *  2. Per state: entries, residency min/avg/max/total, a log2 histogram, the
 *     cpu_idle_miss events as recorded, and - when a state table is given - above/below
 *     recomputed by the kernel's rules (il_cpuidle_account(), kernel-governors.md §1.3).
 *  3. "PowerNightmares": periods in state i longer than threshold[i] (Doug Smythies'
 *     100/1000/2000/4000 µs by default), counted with their time. The deepest state of a
 *     known table has none: there is nowhere deeper to go.
 *  4. "Wake source": what ended each period. For a non-polling state, the first
 *     interrupt on that CPU inside the period: an IRQ (number and name), an IPI vector, or
 *     the local timer, named by the hrtimer that expired ("tick" for the tick's own).
 *     A polling state does not stop on interrupts but on need_resched, so it is credited
 *     to the interrupt during which a task was woken for that CPU, or to a wakeup from
 *     another CPU (which needs no IPI while the CPU polls), or to "none".
 *  5. Tick stops (timer:tick_stop), successful or not with the blocking dependency.
 *  6. Irregular input is counted, never fatal: an exit without an enter (a window that
 *     starts inside idle), an enter while already idle (the exit was lost), a period still
 *     open at the end, a state number beyond the table, a miss with no period before it.
 */
#ifndef IDLELAB_STATS_H
#define IDLELAB_STATS_H

#include "../cpuidle.h"
#include "../trace/trace.h"

/* The event types the statistics use: read a trace with il_trace_set_events(t, this). */
#define IL_STATS_EVENTS                                                                     \
	(IL_EV_BIT(IL_EV_CPU_IDLE) | IL_EV_BIT(IL_EV_CPU_IDLE_MISS) | IL_EV_BIT(IL_EV_TICK_STOP) | \
	 IL_EV_BIT(IL_EV_IRQ) | IL_EV_BIT(IL_EV_IRQ_VECTOR) | IL_EV_BIT(IL_EV_IPI_ENTRY) |        \
	 IL_EV_BIT(IL_EV_HRTIMER_EXPIRE) | IL_EV_BIT(IL_EV_SCHED_WAKEUP))

#define IL_STATS_MAX_STATES 16
/* Residency histogram: [0,1) µs, [1,2), [2,4), ... [2^21, 2^22), >= 2^22 µs. */
#define IL_STATS_HIST_BUCKETS 24
#define IL_STATS_MAX_WAKES 48
#define IL_STATS_MAX_TICK_DEPS 8

enum il_wake_kind {
	IL_WAKE_TICK,    /* the tick's hrtimer */
	IL_WAKE_TIMER,   /* another hrtimer; label = its function */
	IL_WAKE_LOCAL_TIMER, /* the local timer fired but no hrtimer expired in the period */
	IL_WAKE_IRQ,     /* a device IRQ; id = number, label = name */
	IL_WAKE_IPI,     /* IPI vector (call_function*, reschedule) or ipi_entry; label */
	IL_WAKE_VECTOR,  /* another irq_vectors entry; label */
	IL_WAKE_REMOTE,  /* a polling CPU woken by a task wakeup on another CPU, no IPI */
	IL_WAKE_NONE,    /* no interrupt recorded inside the period */
	IL_WAKE_OTHER,   /* the table of sources overflowed */
};

struct il_wake_source {
	enum il_wake_kind kind;
	int id;
	char label[IL_TRACE_LABEL_LEN];
	u64 count;
	u64 above, below; /* of the periods it ended, how many were recomputed misses */
};

struct il_trace_state_stats {
	u64 entries;
	u64 min_ns, max_ns, total_ns;
	u64 hist[IL_STATS_HIST_BUCKETS];
	u64 miss_above, miss_below; /* recorded cpu_idle_miss events */
	u64 above, below;           /* recomputed from the state table (0 without one) */
	u64 nightmares, nightmare_ns;
};

struct il_tick_dep {
	char label[IL_TRACE_LABEL_LEN];
	u64 count;
};

struct il_trace_cpu_stats {
	u64 events;          /* events recorded on this CPU, of every used type */
	u64 first_ts, last_ts;
	u64 periods;         /* completed idle periods */
	u64 idle_ns;
	u64 exits_without_enter;
	u64 enters_while_idle;
	u64 bad_state;       /* state number >= IL_STATS_MAX_STATES or beyond the table */
	u64 misses_without_period;
	u64 tick_stops, tick_stop_failures;
	struct il_tick_dep tick_deps[IL_STATS_MAX_TICK_DEPS];
	int ntick_deps;
	int nstates;         /* 1 + highest state seen */
	struct il_trace_state_stats st[IL_STATS_MAX_STATES];
	struct il_wake_source wakes[IL_STATS_MAX_WAKES];
	int nwakes;
	/* An idle period still open at the end of the trace (not counted above). */
	bool open_at_end;
	u32 open_state;
	u64 open_since_ns, open_line;

	/* Running state while reading. */
	bool in_idle;
	u32 cur_state;
	u64 enter_ts, enter_line;
	bool have_wake;              /* the current period's source is known */
	struct il_wake_source wake;  /* ... and is this (count fields unused) */
	bool have_last_irq;          /* polling: the last interrupt seen in the period */
	struct il_wake_source last_irq;
	bool timer_pending;          /* local_timer seen; the next hrtimer expiry names it */
	bool miss_expected;          /* a period just ended: a cpu_idle_miss may follow */
	u32 last_period_state;
};

struct il_stats_cfg {
	/* The trace's state table, or NULL: then no above/below and no polling knowledge. */
	const struct il_driver *drv;
	/*
	 * Per-CPU tables (NULL: drv for every CPU): CPU c's table for above/below is cpu_drv[c]
	 * for c < ncpu_drv; a CPU beyond them has none (no above/below, as without drv).
	 */
	const struct il_driver *const *cpu_drv;
	unsigned int ncpu_drv;
	/* PowerNightmare threshold per state, µs; 0 = none. */
	unsigned int nightmare_us[IL_STATS_MAX_STATES];
};

struct il_stats;

/** il_stats_default_cfg - no table, thresholds 100/1000/2000/4000 µs for states 0-3 */
void il_stats_default_cfg(struct il_stats_cfg *cfg);

/**
 * il_stats_new - start collecting
 * Return: the collector, or NULL with errno = ENOMEM.
 */
struct il_stats *il_stats_new(const struct il_stats_cfg *cfg);
/** il_stats_event - account one event (any type; unused ones are ignored) */
void il_stats_event(struct il_stats *s, const struct il_trace_event *ev);
/** il_stats_finish - mark periods still open at the end of the trace */
void il_stats_finish(struct il_stats *s);
void il_stats_free(struct il_stats *s);

/**
 * il_stats_cpu_table - the state table @cpu's periods are measured against: its own with
 * per-CPU tables (il_stats_cfg.cpu_drv), else the trace's; NULL when there is none
 */
const struct il_driver *il_stats_cpu_table(const struct il_stats *s, unsigned int cpu);
/** il_stats_ncpus - 1 + the highest CPU that recorded an event */
unsigned int il_stats_ncpus(const struct il_stats *s);
/** il_stats_cpu - the statistics of @cpu (< il_stats_ncpus()) */
const struct il_trace_cpu_stats *il_stats_cpu(const struct il_stats *s, unsigned int cpu);
/** il_stats_span - first and last timestamp over all CPUs, ns */
void il_stats_span(const struct il_stats *s, u64 *first_ns, u64 *last_ns);
/** il_stats_hist_lower_us - lower bound of histogram bucket @b, µs */
u64 il_stats_hist_lower_us(int b);
/** il_wake_kind_name - "tick", "timer", "irq", ... */
const char *il_wake_kind_name(enum il_wake_kind kind);
/**
 * il_wake_source_name - "irq 36 virtio1-req.0", "ipi call_function_single", "tick", ...
 * Return: @buf.
 */
const char *il_wake_source_name(const struct il_wake_source *w, char *buf, size_t len);

#endif /* IDLELAB_STATS_H */
