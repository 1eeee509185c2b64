/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rtapp.h - a reader for rt-app's JSON workload files (https://github.com/scheduler-tools/rt-app).
 *
 * DOC: what the reader takes from an rt-app file
 *
 * rt-app describes threads as lists of events ("run", "sleep", "timer", "barrier" ...) that
 * the threads execute in file order. The reader keeps what shapes idle periods and checks
 * the rest:
 *
 *  1. The text is JSON as rt-app's json-c reads it: C and C++ comments and a trailing comma
 *     before '}' or ']' are allowed (the upstream examples use both). They are blanked out,
 *     so every line and column stays that of the file, and the rest goes through jansson.
 *  2. A key may appear only once per object. rt-app itself would keep the last of two equal
 *     keys (json-c replaces the value); its workgen script renames them instead. Repeated
 *     events carry a suffix: "run0", "run1" - an event is known by the prefix of its key, as
 *     in rt-app ("runtime" before "run", "memrun" before "mem", ...).
 *  3. Object members are read in file order (jansson keeps insertion order since 2.8), which
 *     is the order the events run in.
 *  4. "global": duration and calibration are kept; default_policy is checked; the logging,
 *     tracing, page-locking, priority-inheritance and I/O-buffer settings are accepted and
 *     ignored (each leaves a note in il_rtapp.notes).
 *  5. "tasks": each task has instance, loop, delay, cpus, and either "phases" (each with its
 *     own loop and cpus) or its events directly. policy, priority, dl-*, util_*, taskgroup
 *     and nodes_membind are checked for their type and ignored (a note).
 *  6. "resources" (the legacy resource list) is accepted and ignored: rt-app creates every
 *     resource when an event names it, and so does the reader.
 *  7. Unsupported events (mem, memrun, iorun, fork), unknown keys and values of the wrong
 *     type are errors. Every error is "FILE:LINE:COLUMN: key.path: message", the position
 *     being that of the key (or array element) the message is about: jansson does not keep
 *     positions for values, so the reader finds it again in the text by member index.
 *
 * Loops follow upstream rt-app: a task with phases repeats them "loop" times (default -1,
 * forever) and each phase runs its own "loop" times (default 1); a task without phases runs
 * its events "loop" times and ends (default: forever; rt-app 1.0 repeats it forever always).
 */
#ifndef IDLELAB_RTAPP_H
#define IDLELAB_RTAPP_H

#include <stdbool.h>
#include <stddef.h>

#include "../error.h"
#include "../cpuidle.h"

/* Sizes the reader accepts: rt-app has no limits, these keep a fuzzed file in bounds. */
#define IL_RTAPP_THREADS_MAX 100000 /* threads, all tasks' instances together */
#define IL_RTAPP_CPU_MAX 1023       /* highest CPU number in a "cpus" list */
#define IL_RTAPP_FILE_MAX (16 << 20) /* bytes in a file */
#define IL_RTAPP_NOTES_MAX 32

enum il_rtapp_ev {
	IL_RTAPP_RUN,      /* busy loop calibrated in µs ("run"): scales with the CPU's speed */
	IL_RTAPP_RUNTIME,  /* busy for a fixed time in µs ("runtime") */
	IL_RTAPP_SLEEP,    /* nanosleep for µs */
	IL_RTAPP_TIMER,    /* periodic timer: wait for its next expiry */
	IL_RTAPP_BARRIER,  /* wait until every user of the barrier arrived */
	IL_RTAPP_SUSPEND,  /* wait on the condition named by the value (or the task's name) */
	IL_RTAPP_RESUME,   /* wake every thread suspended on a name */
	IL_RTAPP_SIGNAL,   /* wake the first thread waiting on a condition */
	IL_RTAPP_BROAD,    /* wake every thread waiting on a condition */
	IL_RTAPP_WAIT,     /* wait on a condition, releasing a mutex meanwhile */
	IL_RTAPP_SYNC,     /* signal a condition, then wait on it */
	IL_RTAPP_LOCK,     /* take a mutex */
	IL_RTAPP_UNLOCK,   /* release a mutex */
	IL_RTAPP_YIELD,    /* sched_yield() */
	IL_RTAPP_SEM_POST, /* post a counting semaphore (rt-app after 1.0) */
	IL_RTAPP_SEM_WAIT, /* wait on a counting semaphore (rt-app after 1.0) */
};

enum il_rtapp_res_type {
	IL_RTAPP_RES_TIMER,
	IL_RTAPP_RES_BARRIER,
	IL_RTAPP_RES_COND,   /* wait, signal, broad, sync, suspend, resume */
	IL_RTAPP_RES_MUTEX,
	IL_RTAPP_RES_SEM,
};

/* A named resource, created by the first event that names it (as rt-app does). */
struct il_rtapp_res {
	enum il_rtapp_res_type type;
	const char *name;
	int task;        /* a "unique..." timer: the task it belongs to (one per thread); else -1 */
	bool absolute;   /* timer: an event asked for "mode": "absolute" */
	s64 users; /* barrier: threads that arrive at it, counting every event that names it */
};

struct il_rtapp_event {
	enum il_rtapp_ev type;
	const char *key;  /* as written, e.g. "run1" */
	s64 usec;         /* run, runtime, sleep: duration; timer: period */
	int res;          /* timer, barrier, cond, mutex, sem: index into il_rtapp.res; else -1 */
	int mutex;        /* wait, sync: the mutex; else -1 */
};

struct il_rtapp_cpus {
	const int *cpu;   /* NULL: no affinity set here */
	int n;
};

struct il_rtapp_phase {
	const char *name; /* the phase's key, or the task's name for a task without phases */
	s64 loop;         /* iterations, -1: forever */
	struct il_rtapp_cpus cpus;
	const struct il_rtapp_event *events;
	int nevents;
};

struct il_rtapp_task {
	const char *name;
	s64 instances;
	s64 loop;         /* passes over the phases, -1: forever */
	s64 delay_us;     /* initial delay, <= 0: none */
	struct il_rtapp_cpus cpus; /* the default for phases without their own */
	const struct il_rtapp_phase *phases;
	int nphases;
};

struct il_rtapp {
	s64 duration_s;          /* <= 0: until every thread ends */
	s64 calib_ns_per_loop;   /* "calibration" as an integer; 0: calibrated on calib_cpu */
	s64 calib_cpu;
	const struct il_rtapp_task *tasks;
	int ntasks;
	const struct il_rtapp_res *res;
	int nres;
	s64 nthreads;            /* every task's instances */
	int max_cpu;             /* highest CPU of any "cpus" list, -1 if none */
	char max_cpu_where[320]; /* "FILE:LINE:COL: tasks.t.cpus[1]" of that CPU */
	bool all_pinned;         /* every phase of every thread has an affinity */
	const char *notes[IL_RTAPP_NOTES_MAX]; /* settings accepted and ignored, one per kind */
	int nnotes;
	struct il_rtapp_mem *mem; /* private: the memory behind the pointers above */
};

/**
 * il_rtapp_parse - read the rt-app file @text of @len bytes
 * @name: the file name shown in messages
 * @out: the workload, to free with il_rtapp_free()
 * @err: "NAME:LINE:COL: key.path: message" on failure
 * Return: 0, or -1 with @err set (also when built without jansson).
 */
int il_rtapp_parse(const char *text, size_t len, const char *name, struct il_rtapp **out,
		   struct il_error *err);

/** il_rtapp_load_file - read and parse the file at @path; Return: 0, or -1 with @err set */
int il_rtapp_load_file(const char *path, struct il_rtapp **out, struct il_error *err);

void il_rtapp_free(struct il_rtapp *rt);

/** il_rtapp_ev_name - "run", "timer" ... */
const char *il_rtapp_ev_name(enum il_rtapp_ev type);

#endif /* IDLELAB_RTAPP_H */
