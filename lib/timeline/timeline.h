/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * timeline.h - a per-CPU timeline of idle periods, written as a Chrome trace-event JSON file
 * that ui.perfetto.dev and chrome://tracing open.
 *
 * DOC: timeline
 *
 * A timeline holds "processes" (one per governor run: the simulated governor, or in a
 * replay each governor and the recorded trace itself), each with one "track" per CPU.
 * Producers report, per process and CPU, in roughly increasing time:
 *
 *  1. idle periods: the state, entry and end time (the CPU runs again), the wakeup time
 *     and what woke it, the kernel's miss verdict (above/below) and the tick decision;
 *  2. tick stops (the tick went from running to stopped at an idle entry);
 *  3. busy time: the gap between two idle periods of a CPU is "busy" (it ran work). A
 *     process with edges also counts as busy the time from 0 to its first idle entry and
 *     from its last period to the end, unless a period is still open there.
 *
 *      |-- busy --|--------- C6 ---------|-- busy --|-- C1 --|
 *                 ^ tick stop       ^ wakeup (timer)       ^ miss above
 *
 * The writer turns them into "X" slices (idle states, busy), "i" instants (wakeups with
 * their cause, tick stops and retains, misses, poll limits) and "C" counters: each CPU's
 * modelled power (its state's power while idle, the active power while busy) and the
 * process's total, derived when the file is written. "M" events name the processes and
 * the tracks ("CPU 3").
 *
 * Size: a run of seconds has millions of idle periods. Events are kept in memory until
 * il_timeline_write(); at most opts.limit of them (X slices weigh 3 when there are power
 * counters: the slice and its two counter updates). When the limit is reached at time T,
 * the timeline keeps only what begins at or before T: every track is complete up to T,
 * and the file says so (otherData.truncated, complete_until_us, and a global instant at
 * T). A window [from, to) relative to the origin keeps only what overlaps it.
 *
 * Output is deterministic: events are written sorted by time, ties in the order they were
 * reported; numbers are printed from integers (ts and dur in µs with three decimals, i.e.
 * exact ns; power in mW with three decimals, i.e. exact µW).
 */
#ifndef IDLELAB_TIMELINE_H
#define IDLELAB_TIMELINE_H

#include <stdbool.h>
#include <stdio.h>

#include "../cpuidle.h"
#include "../core/core.h"
#include "../metrics/metrics.h"
#include "../platform/platform.h"

/*
 * The default event limit: about 100 bytes per event, so files stay near 20 MB, which
 * ui.perfetto.dev loads in seconds.
 */
#define IL_TIMELINE_LIMIT_DEFAULT 200000ULL

struct il_timeline_opts {
	u64 limit;   /* events kept at most (see DOC), 0: no limit */
	u64 from_ns; /* window, relative to the origin */
	u64 to_ns;   /* 0: to the end */
};

/* One idle period of a CPU, as il_timeline_idle() takes it. */
struct il_tl_idle {
	unsigned int cpu;
	int state;            /* index in the process's state table */
	u64 start_ns;
	u64 end_ns;           /* the CPU runs again; for an open period, the end of the run */
	u64 wake_ns;          /* when the wakeup arrived (<= end_ns) */
	const char *cause;    /* what ended it ("timer", "tick", ...), NULL: unknown */
	enum il_miss miss;
	bool stop_tick;       /* the governor's answer */
	bool tick_retained;   /* the tick kept running at this entry */
	bool open;            /* the end of the run cut it short: no verdict (a wakeup if cause) */
};

struct il_timeline;

/** il_timeline_new - an empty timeline; Return: it, or NULL with errno ENOMEM */
struct il_timeline *il_timeline_new(const struct il_timeline_opts *opts);
void il_timeline_free(struct il_timeline *tl);

/**
 * il_timeline_process - add a process named @name over @drv's states
 * @pw: power model for the counters; NULL or !pw->known: no power counters
 * @edges: the CPUs are busy from time 0 until their first idle entry (a simulation); a
 *         replayed trace knows nothing before a CPU's first period
 * Return: its pid (1, 2, ...), or -1 with errno set (ENOMEM, EINVAL).
 */
int il_timeline_process(struct il_timeline *tl, const char *name, const struct il_driver *drv,
			const struct il_power *pw, bool edges);
/**
 * il_timeline_process_plat - il_timeline_process() over @plat's state tables: with per-CPU
 * tables (docs/platforms.md), each CPU's slices, misses and power use its own table
 * Return: its pid, or -1 with errno set.
 */
int il_timeline_process_plat(struct il_timeline *tl, const char *name,
			     const struct il_platform *plat, const struct il_power *pw, bool edges);
/** il_timeline_cpus - make sure process @pid has tracks for CPUs 0..@ncpus-1; Return: 0 or -1 */
int il_timeline_cpus(struct il_timeline *tl, int pid, unsigned int ncpus);
/** il_timeline_set_origin - the time the window is relative to (default 0) */
void il_timeline_set_origin(struct il_timeline *tl, u64 origin_ns);
/** il_timeline_meta - a key/value of the file's otherData (copied); Return: 0 or -1 */
int il_timeline_meta(struct il_timeline *tl, const char *key, const char *value);

/* ---- what producers report (errors are kept and returned by il_timeline_write) --------- */

/** il_timeline_idle - an idle period of process @pid (the busy gap before it is derived) */
void il_timeline_idle(struct il_timeline *tl, int pid, const struct il_tl_idle *p);
/** il_timeline_tick_stop - the tick of @cpu stopped at @t */
void il_timeline_tick_stop(struct il_timeline *tl, int pid, unsigned int cpu, u64 t);
/** il_timeline_busy_until - @cpu ran work from its last period's end until @t */
void il_timeline_busy_until(struct il_timeline *tl, int pid, unsigned int cpu, u64 t);

/**
 * il_timeline_write - write the JSON file to @out
 * Return: 0, or -1 with errno set (ENOMEM while recording, or a write error).
 */
int il_timeline_write(struct il_timeline *tl, FILE *out);

/** il_timeline_truncated - whether the limit was reached; *@at_ns: where (if not NULL) */
bool il_timeline_truncated(const struct il_timeline *tl, u64 *at_ns);
/** il_timeline_events - events kept so far (the limit's count) */
u64 il_timeline_events(const struct il_timeline *tl);

/* ---- producers: the simulator and replay ------------------------------------------------ */

struct il_sim_observer;
struct il_replay_inputs;

/* The simulator's observer (lib/sim/sim.h) feeding one process of a timeline. */
struct il_tl_sim {
	struct il_timeline *tl;
	int pid;
};

/** il_tl_sim_init - observe a simulation as process @pid of @tl */
void il_tl_sim_init(struct il_tl_sim *s, struct il_timeline *tl, int pid);
/** il_tl_sim_observer - the hooks to give il_sim_set_observer() (or il_lab_spec.observer) */
void il_tl_sim_observer(struct il_tl_sim *s, struct il_sim_observer *obs);
/**
 * il_tl_sim_finish - after the run of @ncpus CPUs ended at @end_ns: tracks for every CPU,
 * and the busy time up to the end where no period was open
 * Return: 0, or -1 with errno set.
 */
int il_tl_sim_finish(struct il_tl_sim *s, unsigned int ncpus, u64 end_ns);

/*
 * A replay (lib/replay/replay.h) feeding a timeline: process pid_recorded shows the trace's
 * own states, process pids[i] governor i's picks over the same periods.
 */
struct il_tl_replay {
	struct il_timeline *tl;
	const struct il_platform *plat;  /* each CPU's table: il_platform_cpu_table() */
	/* per table, accounts every pick for its above/below verdict */
	struct il_device acct[IL_PLAT_TABLES_MAX];
	int ngov;
	int pid_recorded;
	const int *pids;
	bool origin_set;
};

/**
 * il_tl_replay_init - report to @tl: the recorded states as @pid_recorded, governor i as
 * @pids[i] (@pids must live as long as @r)
 */
void il_tl_replay_init(struct il_tl_replay *r, struct il_timeline *tl,
		       const struct il_platform *plat, int ngov, int pid_recorded, const int *pids);
/**
 * il_tl_replay_period - the replay's period hook (il_replay_period_fn), with @ctx the
 * il_tl_replay
 */
void il_tl_replay_period(void *ctx, const struct il_replay_inputs *in, const int *picks,
			 const bool *stops);

#endif /* IDLELAB_TIMELINE_H */
