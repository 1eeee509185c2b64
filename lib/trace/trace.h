/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace.h - streaming readers for recorded cpuidle traces.
 *
 * DOC: trace readers
 *
 * A trace is read one event at a time; nothing is kept per event, so memory does not grow
 * with the length of the trace (only with the number of CPUs).
 *
 *  1. il_trace_open() reads the first bytes of the file and asks every reader in the
 *     explicit list (lib/trace/readers.h) how sure it is that the file is in its format
 *     ("probe"). The most confident reader wins; a reader can be forced (-F/--input-format).
 *  2. il_trace_next() returns the next event of interest, decoded into a flat struct
 *     il_trace_event: timestamps are integer nanoseconds parsed as two integers (seconds
 *     and the fraction, whatever its number of digits), never through floating point.
 *  3. Lines that are not events of interest are counted (skipped) and never decoded
 *     beyond their name. Lines that cannot be parsed, events on a CPU outside the trace's
 *     CPU count, and events whose timestamp goes back in time on their CPU are "bad": each
 *     is reported through the diagnostic hook with its line number, counted, and dropped.
 *  4. The library never prints: diagnostics go to the hook set with il_trace_set_diag().
 *
 * Text formats share the event part of a line ("cpu_idle: state=1 cpu_id=0") and differ
 * only in the head before it (task, pid, CPU, flags, timestamp); each reader parses its
 * head and hands the rest to the common event decoder (lib/trace/decode.c).
 */
#ifndef IDLELAB_TRACE_H
#define IDLELAB_TRACE_H

#include <stdbool.h>
#include <stdio.h>

#include "../cpuidle.h"
#include "../error.h"

/* CPU numbers above this are treated as garbage rather than allocated for. */
#define IL_TRACE_MAX_CPUS 8192
/* PWR_EVENT_EXIT: the cpu_idle "state" of an idle exit, (u32)-1. */
#define IL_PWR_EVENT_EXIT 4294967295U
#define IL_TRACE_LABEL_LEN 32

enum il_ev {
	IL_EV_OTHER,          /* a known line whose event is not used; only counted */
	IL_EV_CPU_IDLE,       /* power:cpu_idle: state, cpu_id (exit: state == IL_PWR_EVENT_EXIT) */
	IL_EV_CPU_IDLE_MISS,  /* power:cpu_idle_miss: cpu_id, state, below */
	IL_EV_HRTIMER_SETUP,  /* timer:hrtimer_setup / hrtimer_init: timer, clockid */
	IL_EV_HRTIMER_START,  /* timer:hrtimer_start: timer, expires, softexpires, label=function */
	IL_EV_HRTIMER_CANCEL, /* timer:hrtimer_cancel: timer */
	IL_EV_HRTIMER_EXPIRE, /* timer:hrtimer_expire_entry: timer, now, label=function */
	IL_EV_TIMER_START, /* timer:timer_start (timer wheel): timer, expires (jiffies, the bucket
			       * expiry when printed), target_cpu, now (jiffies at the start; 0 if
			       * the line has no [timeout=]) */
	IL_EV_TIMER_CANCEL,   /* timer:timer_cancel: timer */
	IL_EV_TIMER_EXPIRE,   /* timer:timer_expire_entry: timer, now (jiffies) */
	IL_EV_TICK_STOP,      /* timer:tick_stop: success, label=dependency */
	IL_EV_IRQ,            /* irq:irq_handler_entry: irq, label=name */
	IL_EV_IRQ_VECTOR,     /* irq_vectors:*_entry: vector, label=event name without "_entry" */
	IL_EV_IRQ_EXIT,       /* irq:irq_handler_exit and irq_vectors:*_exit */
	IL_EV_IPI_SEND,       /* ipi:ipi_send_cpu / ipi_send_cpumask / ipi_raise: target_cpu
			       * (-1 = mask) */
	IL_EV_IPI_ENTRY,      /* ipi:ipi_entry (arm, arm64): label=reason */
	IL_EV_SCHED_WAKEUP,   /* sched:sched_wakeup: next_pid=woken pid, target_cpu, label=comm;
			       * sched:sched_wake_idle_without_ipi: next_pid -1, target_cpu */
	IL_EV_SCHED_SWITCH,   /* sched:sched_switch: prev_pid, next_pid, label=next comm */
	IL_EV__COUNT
};

#define IL_EV_BIT(type) (1U << (type))
#define IL_EV_ALL (~0U)

/* Clock bases of hrtimer_setup/init; only CLOCK_MONOTONIC-like ones share the trace clock. */
enum il_clockid {
	IL_CLOCK_UNKNOWN = -1,
	IL_CLOCK_REALTIME = 0,
	IL_CLOCK_MONOTONIC = 1,
	IL_CLOCK_BOOTTIME = 7,
	IL_CLOCK_TAI = 11,
};

/* One decoded event. String fields point nowhere: they are copied into @label. */
struct il_trace_event {
	enum il_ev type;
	unsigned int cpu;  /* the CPU that recorded the event */
	int pid;           /* the task running on it; 0 is the idle task, -1 if unknown */
	u64 ts_ns;         /* trace clock, ns */
	u64 line;          /* 1-based line number (record number for binary formats) */
	char flags[8];     /* latency flags as printed ("d.h1."), "" when the format has none */

	u32 state;         /* cpu_idle / cpu_idle_miss */
	u32 cpu_id;
	bool below;        /* cpu_idle_miss: type=below (too shallow) or above */
	u64 timer;         /* hrtimer / timer pointer (hashed or raw) */
	u64 expires;       /* hrtimer ns; timer wheel: jiffies */
	u64 softexpires;   /* hrtimer ns; 0 when not recorded */
	u64 now;           /* hrtimer_expire_entry ns; timer_expire_entry jiffies */
	int clockid;       /* enum il_clockid */
	int success;       /* tick_stop */
	int irq;           /* irq_handler_entry */
	int vector;        /* irq_vectors */
	int target_cpu;    /* ipi_send_cpu, sched_wakeup, timer_start; -1 if many/unknown */
	/* timer_start: 1 when flags= has D (TIMER_DEFERRABLE: the timer does not wake an idle
	 * CPU), 0 when it has not, -1 when unknown (no flags field, or a reader whose text
	 * comes from libtraceevent, which prints "D|P|I" for every timer) */
	int deferrable;
	int prev_pid;      /* sched_switch */
	int next_pid;      /* sched_switch; sched_wakeup: the woken task */
	char label[IL_TRACE_LABEL_LEN];
};

/*
 * The labels of IL_EV_IRQ_VECTOR that are the CPU's local timer: x86's irq_vectors
 * local_timer_entry (LOC, the APIC timer) and powerpc's decrementer
 * (powerpc:timer_interrupt_entry, delivered as a vector event with this label).
 */
#define IL_TRACE_X86_TIMER "local_timer"
#define IL_TRACE_PPC_TIMER "timer_interrupt"
/** il_trace_vector_is_local_timer - whether vector event label @label is the local timer */
bool il_trace_vector_is_local_timer(const char *label);

/* What a reader learnt from the file's header (all optional). */
struct il_trace_info {
	int ncpus;            /* from "#P:N" / "cpus=N"; 0 if not stated */
	char instance[32];    /* trace-cmd report instance prefix, "" if none */
	bool ns_timestamps;   /* the fraction had 9 digits */
	/* idlestat's header: per-CPU state names and target residencies (µs) of CPU 0. */
	int header_states;    /* 0 when the header had none */
	char state_name[CPUIDLE_STATE_MAX][IL_NAME_LEN];
	unsigned int state_residency_us[CPUIDLE_STATE_MAX];
};

/* Counters a reader keeps while streaming. */
struct il_trace_counts {
	u64 lines;
	u64 events[IL_EV__COUNT]; /* events by type, delivered or masked out (IL_EV_OTHER:
				   * events idlelab does not use, skipped) */
	u64 comments;             /* header and comment lines */
	u64 bad_lines;            /* unparsable lines */
	u64 bad_cpu;              /* CPU outside the trace's CPU count */
	u64 out_of_order;         /* timestamp went back on the same CPU */
};

struct il_trace;

/* Diagnostic hook: @line is 0 when the message is not about one line. */
typedef void (*il_trace_diag_fn)(void *ctx, const char *path, u64 line, const char *msg);

/**
 * il_trace_open - open @path ("-" is standard input) and detect its format
 * @path: the trace file
 * @format: a reader name to force ("ftrace", "trace-cmd", "perf", "idlestat", "dat",
 *          "systrace"), or
 *          NULL to detect
 *
 * A file compressed with gzip, xz or zstd (told by its magic bytes, not its name) is
 * decompressed while it is read, with the same flat memory (lib/trace/codec.c).
 *
 * Return: the trace, or NULL with errno set: ENOENT etc. from fopen, EINVAL if no reader
 * recognised the file or @format is unknown, ENOTSUP if the format (or the compression)
 * needs an optional library that was not built in; @err (may be NULL) then holds a sentence.
 */
struct il_trace *il_trace_open(const char *path, const char *format, struct il_error *err);

/**
 * il_trace_open_file - like il_trace_open() on an already open stream, which stays open
 * @f: the stream (read from its current position)
 * @name: what diagnostics call it
 * @format: as for il_trace_open()
 * @err: as for il_trace_open()
 */
struct il_trace *il_trace_open_file(FILE *f, const char *name, const char *format,
				    struct il_error *err);

/** il_trace_error - why the last il_trace_next() on @t failed (EBADMSG: what is corrupt) */
const char *il_trace_error(const struct il_trace *t);

/**
 * il_trace_set_events - deliver only the event types in @mask (IL_EV_BIT(type) | ...)
 *
 * The other known events are counted under their type but not decoded, which makes
 * reading much faster when few types are needed. Default: IL_EV_ALL.
 */
void il_trace_set_events(struct il_trace *t, u32 mask);

/** il_trace_set_diag - report bad lines through @fn (default: none) */
void il_trace_set_diag(struct il_trace *t, il_trace_diag_fn fn, void *ctx);

/**
 * il_trace_next - read the next event
 * @t: the trace
 * @ev: filled in on success
 *
 * Return: 1 when @ev holds an event, 0 at the end of the trace, -1 on a read error
 * (errno set; EBADMSG: corrupt compressed data, il_trace_error(@t) says how). Bad lines are
 * skipped, never returned.
 */
int il_trace_next(struct il_trace *t, struct il_trace_event *ev);

/** il_trace_close - free @t and close its file */
void il_trace_close(struct il_trace *t);

/**
 * il_trace_progress - how far reading has got, for a progress display
 * @done: bytes of the file read so far (compressed bytes for a compressed trace)
 * @total: the file's size, 0 when it is not known (a pipe)
 */
void il_trace_progress(const struct il_trace *t, u64 *done, u64 *total);
/** il_trace_compression - "gzip", "xz", "zstd", or "none" */
const char *il_trace_compression(const struct il_trace *t);

/** il_trace_reader_name - the name of the reader that reads @t */
const char *il_trace_reader_name(const struct il_trace *t);
const struct il_trace_info *il_trace_info(const struct il_trace *t);
const struct il_trace_counts *il_trace_counts(const struct il_trace *t);
/** il_trace_path - the path given to il_trace_open() */
const char *il_trace_path(const struct il_trace *t);

/** il_ev_name - short name of an event type ("cpu_idle", "hrtimer_start", ...) */
const char *il_ev_name(enum il_ev type);

/* The reader list, for `idlelab stats --formats` and tests. */
int il_trace_reader_count(void);
/**
 * il_trace_reader_at - name and one-line description of reader @i
 * Return: 0, or -1 if @i is out of range. *@unavailable is NULL when the reader is built in,
 * otherwise the reason it is not.
 */
int il_trace_reader_at(int i, const char **name, const char **desc, const char **unavailable);

#endif /* IDLELAB_TRACE_H */
