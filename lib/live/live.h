/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * live.h - the machine in front of us: cpuidle sysfs, RAPL powercap, the settings a live
 * measurement changes and puts back.
 *
 * DOC: live mode
 *
 *  1. Every path is built from one root directory (struct il_live, "/" by default): sysfs
 *     under ROOT/sys/devices/system/cpu, RAPL under ROOT/sys/class/powercap, tracefs under
 *     ROOT/sys/kernel/tracing, CONFIG_HZ from ROOT/boot or ROOT/proc. Tests point the root at
 *     a fixture tree (tests/fixtures/sysfs/) and need neither root nor a particular kernel.
 *  2. Reading: il_live_read_cpuidle() gives the driver and governors, il_live_read_cpu() one
 *     CPU's states (description and counters). A file the kernel does not have (older
 *     kernels lack above/below/rejected/default_status) is not an error: the field's bit in
 *     .have stays clear and the reports show "-".
 *  3. Deltas: il_live_diff() subtracts two snapshots of one CPU; counters only grow, so a
 *     counter that went back (the CPU was unplugged and re-registered) is an error, not a
 *     huge number.
 *  4. RAPL: the package zones (name "package-N") under powercap; energy_uj wraps at
 *     max_energy_range_uj, and il_live_energy_delta() adds the range back once when the
 *     second reading is lower. No zones is a normal answer (VMs, Arm), said once by the CLI.
 *  5. Changes: every write to current_governor or stateN/disable goes through a struct
 *     il_live_changes, which saves the file's original text before the first write to it.
 *     il_live_restore() writes the originals back using only open/write/close, so a
 *     signal handler may call it. Nothing is written outside the files a change names.
 *  6. A lock file (flock) keeps two measurements from switching governors under each other.
 *
 * Return convention of this module: 0 on success, -1 on failure with the struct il_error
 * filled; functions that answer a question say so in their Return: line. The library never
 * prints.
 */
#ifndef IDLELAB_LIVE_H
#define IDLELAB_LIVE_H

#include <limits.h>
#include <regex.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "../cpuidle.h"
#include "../error.h"

#define IL_LIVE_PATH_MAX 4096
#define IL_LIVE_GOV_MAX 16           /* governors listed in available_governors */
#define IL_LIVE_GOV_NAME_LEN 16      /* CPUIDLE_NAME_LEN */
#define IL_LIVE_VALUE_MAX 256        /* longest sysfs value kept */
#define IL_LIVE_RAPL_MAX 16          /* RAPL package zones */
#define IL_LIVE_CPUS_MAX 8192

struct il_live_dump;

struct il_live {
	char root[IL_LIVE_PATH_MAX]; /* "" stands for "/"; a dump's file name (see below) */
	/* When set, the cpuidle tree is read from this sysfs dump (lib/live/dump.c), not from
	 * files under root: il_live_read_cpuidle(), il_live_list_cpus(), il_live_read_cpu()
	 * and il_live_detect_hz() answer from it. */
	const struct il_live_dump *dump;
};

/**
 * il_live_init - use @root ("/" or NULL for the running system) as the root of every path
 * Return: 0, or -1 (root too long, or not a directory) with @err set.
 */
int il_live_init(struct il_live *lv, const char *root, struct il_error *err);

/* ---- sysfs dumps (lib/live/dump.c) ---------------------------------------------------- */

/**
 * il_live_dump_parse - a cpuidle sysfs dump: the text of `grep -r .
 * /sys/devices/system/cpu/cpu*\/cpuidle /sys/devices/system/cpu/cpuidle` (@len bytes of
 * @text; @name is what errors call it)
 * Return: the dump, or NULL with @err set to "NAME:LINE: why" (see the DOC in dump.c).
 */
struct il_live_dump *il_live_dump_parse(const char *text, size_t len, const char *name,
					struct il_error *err);
/** il_live_dump_load - il_live_dump_parse() of the file @path; Return: as it */
struct il_live_dump *il_live_dump_load(const char *path, struct il_error *err);
void il_live_dump_free(struct il_live_dump *d);
/**
 * il_live_init_dump - make @lv read @d (which must outlive it) instead of a directory tree
 * Return: 0, or -1 with @err set (a file name longer than a root).
 */
int il_live_init_dump(struct il_live *lv, const struct il_live_dump *d, struct il_error *err);
/** il_live_dump_name - the name the dump was loaded under */
const char *il_live_dump_name(const struct il_live_dump *d);
/**
 * il_live_dump_line - the line of the dump that gave @field (one IL_LF_* bit) of @state
 * of @cpu; Return: the 1-based line, or 0 when the dump has no such line
 */
int il_live_dump_line(const struct il_live_dump *d, unsigned int cpu, int state,
		      unsigned int field);
/** il_live_dump_hz - the dump's CONFIG_HZ=N line; Return: 0 with *@hz and *@line, or -1 */
int il_live_dump_hz(const struct il_live_dump *d, unsigned int *hz, int *line);

/**
 * il_live_open_source - @path as a snapshot to read: a directory is a root (il_live_init()),
 * anything else a dump, loaded into *@dump (free it after @lv) and read through @lv
 * Return: 0, or -1 with @err set.
 */
int il_live_open_source(struct il_live *lv, const char *path, struct il_live_dump **dump,
			struct il_error *err);

/** il_live_root_name - the root as the user gave it ("/" for the running system) */
const char *il_live_root_name(const struct il_live *lv);

/**
 * il_live_path - ROOT followed by the printf-style @fmt (which starts with "/")
 * Return: 0, or -1 with errno ENAMETOOLONG when it does not fit in @cap.
 */
int il_live_path(const struct il_live *lv, char *buf, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/**
 * il_live_read_text - the contents of a (sysfs) file, without its trailing whitespace
 * Return: 0, or -1 with errno set (ENOENT: no such file, EACCES: not readable, EINVAL:
 * empty or holding a NUL byte, EOVERFLOW: longer than @cap - 1).
 */
int il_live_read_text(const char *path, char *buf, size_t cap);

/**
 * il_live_read_u64 - a file holding one unsigned decimal number
 * Return: 0, or -1 with errno set (as il_live_read_text(), EINVAL when not a number).
 */
int il_live_read_u64(const char *path, u64 *out);

/** il_live_now_ns - CLOCK_MONOTONIC in ns: the clock of wall_ns and of the settle wait */
unsigned long long il_live_now_ns(void);

/* ---- cpuidle: driver and governors ----------------------------------------------------- */

struct il_live_cpuidle {
	char driver[IL_LIVE_VALUE_MAX];   /* current_driver; "none" when no driver registered */
	char governor[IL_LIVE_VALUE_MAX]; /* current_governor, else current_governor_ro */
	bool can_switch; /* current_governor exists (5.8+, or cpuidle_sysfs_switch) */
	int ngov;                         /* entries of available_governors (0: file absent) */
	char available[IL_LIVE_GOV_MAX][IL_LIVE_GOV_NAME_LEN];
};

/**
 * il_live_read_cpuidle - ROOT/sys/devices/system/cpu/cpuidle/: driver and governors
 * Return: 0, or -1 with @err set when the directory or current_driver cannot be read (no
 * CONFIG_CPU_IDLE, or not a Linux sysfs tree).
 */
int il_live_read_cpuidle(const struct il_live *lv, struct il_live_cpuidle *ci,
			 struct il_error *err);

/** il_live_governor_available - whether @name is in available_governors; Return: true or false */
bool il_live_governor_available(const struct il_live_cpuidle *ci, const char *name);

/** il_live_has_driver - whether a cpuidle driver is registered; Return: true or false */
bool il_live_has_driver(const struct il_live_cpuidle *ci);

/* ---- CPUs and their states ----------------------------------------------------------------- */

/**
 * il_live_list_cpus - the CPUs that have a ROOT/sys/devices/system/cpu/cpuN directory,
 * ascending, as a malloc'ed array in *@cpus
 * Return: the number of CPUs (at least 1), or -1 with @err set.
 */
int il_live_list_cpus(const struct il_live *lv, unsigned int **cpus, struct il_error *err);

/* Bits of il_live_state.have: which files existed and parsed. */
enum il_live_field {
	IL_LF_NAME = 1 << 0,
	IL_LF_DESC = 1 << 1,
	IL_LF_LATENCY = 1 << 2,
	IL_LF_RESIDENCY = 1 << 3,
	IL_LF_POWER = 1 << 4,
	IL_LF_DISABLE = 1 << 5,
	IL_LF_DEFAULT_STATUS = 1 << 6,
	IL_LF_USAGE = 1 << 7,
	IL_LF_TIME = 1 << 8,
	IL_LF_ABOVE = 1 << 9,
	IL_LF_BELOW = 1 << 10,
	IL_LF_REJECTED = 1 << 11,
};

#define IL_LF_COUNTERS (IL_LF_USAGE | IL_LF_TIME | IL_LF_ABOVE | IL_LF_BELOW | IL_LF_REJECTED)

struct il_live_state {
	unsigned int have;          /* enum il_live_field bits */
	char name[IL_NAME_LEN];
	char desc[IL_DESC_LEN];
	u64 latency_us;             /* exit latency */
	u64 residency_us;           /* target residency */
	u64 power;                  /* power_usage, mW; 4294967295 (-1) when unknown */
	u64 disable;                /* 1: disabled by the user (sysfs shows only that bit) */
	char default_status[16];    /* "enabled" or "disabled" (CPUIDLE_FLAG_OFF) */
	u64 usage;
	u64 time_us;
	u64 above;
	u64 below;
	u64 rejected;
};

struct il_live_cpu {
	unsigned int cpu;
	bool offline;               /* cpuN/online reads 0 (a CPU without that file is online) */
	bool has_cpuidle;           /* cpuN/cpuidle/ exists (not without a driver); a CPU taken
	                             * offline keeps it, its counters standing still */
	int nstates;
	struct il_live_state st[CPUIDLE_STATE_MAX];
};

enum il_live_read_what {
	IL_LIVE_READ_ALL,           /* description, settings and counters */
	IL_LIVE_READ_COUNTERS,      /* name and the counters only (a measurement's snapshots) */
};

/**
 * il_live_read_cpu - the states of CPU @cpu (ROOT/sys/devices/system/cpu/cpuN/cpuidle/stateK)
 * and whether it is online (cpuN/online). A CPU without a cpuidle directory is not an error:
 * has_cpuidle is false.
 * Return: 0, or -1 with @err set (more than CPUIDLE_STATE_MAX states, a state directory
 * without a name file, or a file that exists but cannot be read).
 */
int il_live_read_cpu(const struct il_live *lv, unsigned int cpu, enum il_live_read_what what,
		     struct il_live_cpu *out, struct il_error *err);

struct il_live_delta {
	unsigned int have;          /* IL_LF_* counter bits present in both snapshots */
	u64 usage;
	u64 time_us;
	u64 above;
	u64 below;
	u64 rejected;
};

/**
 * il_live_diff - per-state counter deltas @after - @before of one CPU into @out[nstates]
 * Return: 0, or -1 with @err set when the snapshots do not match (other CPU, other state
 * count or names) or a counter went back (the CPU was re-registered in between).
 */
int il_live_diff(const struct il_live_cpu *before, const struct il_live_cpu *after,
		 struct il_live_delta *out, struct il_error *err);

/**
 * il_live_find_state - the index of the state called @spec on @cpu, or @spec as an index
 * ("2") when it is all digits
 * Return: the index, or -1 when there is no such state.
 */
int il_live_find_state(const struct il_live_cpu *cpu, const char *spec);

struct il_table;

/**
 * il_live_states_diff - the counters of @after minus those of @before (two dumps, trees, or
 * one of each) per CPU and state into @per_cpu, and per state over all CPUs into @total
 * (lib/live/statediff.c), both initialised here (free them on success and failure)
 * Return: 0, or -1 with @err set: other CPUs or states in the two, or a counter that went
 * back (named by the file and line, or path, of its later value).
 */
int il_live_states_diff(const struct il_live *before, const struct il_live *after,
			struct il_table *per_cpu, struct il_table *total, struct il_error *err);

/* The dump's answers behind il_live_read_cpuidle(), _list_cpus() and _read_cpu(). */
int il_live_dump_read_cpuidle(const struct il_live_dump *d, struct il_live_cpuidle *ci,
			      struct il_error *err);
int il_live_dump_list_cpus(const struct il_live_dump *d, unsigned int **cpus,
			   struct il_error *err);
int il_live_dump_read_cpu(const struct il_live_dump *d, unsigned int cpu,
			  enum il_live_read_what what, struct il_live_cpu *out);
/* available_governors' text into @ci->available[] */
void il_live_split_governors(const char *list, struct il_live_cpuidle *ci);

/* ---- RAPL (powercap) ----------------------------------------------------------------------- */

enum il_live_rapl_status {
	IL_RAPL_OK,
	IL_RAPL_ABSENT, /* no powercap package zones under the root */
	IL_RAPL_UNREADABLE, /* zones exist, energy_uj cannot be read (root only since 2020) */
};

struct il_live_rapl_zone {
	char dir[IL_LIVE_PATH_MAX]; /* .../powercap/intel-rapl:0 */
	char name[64];              /* "package-0" */
	u64 max_range_uj;           /* 0: max_energy_range_uj unreadable, wrap cannot be undone */
};

struct il_live_rapl {
	enum il_live_rapl_status status;
	int nzones;
	struct il_live_rapl_zone zone[IL_LIVE_RAPL_MAX];
	char why[IL_LIVE_PATH_MAX + 128]; /* for ABSENT/UNREADABLE: what was looked at */
};

/**
 * il_live_rapl_open - find the RAPL package zones: ROOT/sys/class/powercap/<type>:<N> (no
 * second ":", i.e. not a subzone) whose name starts with "package"
 * Return: 0 with @rapl->status telling OK, ABSENT or UNREADABLE (and why), or -1 with @err
 * set for a malformed tree.
 */
int il_live_rapl_open(const struct il_live *lv, struct il_live_rapl *rapl, struct il_error *err);

/**
 * il_live_rapl_read - energy_uj of every zone into @uj[nzones]
 * Return: 0, or -1 with @err set.
 */
int il_live_rapl_read(const struct il_live_rapl *rapl, u64 *uj, struct il_error *err);

/**
 * il_live_energy_delta - microjoules from @before to @after of a counter that wraps to 0
 * after @max_range_uj: after - before, or (max_range_uj - before) + after when it wrapped
 * Return: true with the delta in *@out, or false when it wrapped but @max_range_uj is 0 or
 * below @before (then the interval cannot be measured).
 */
bool il_live_energy_delta(u64 before, u64 after, u64 max_range_uj, u64 *out);

/* ---- changes and their restoration --------------------------------------------------------- */

struct il_live_change {
	char path[IL_LIVE_PATH_MAX];
	char orig[IL_LIVE_VALUE_MAX + 1]; /* the original text plus "\n" */
	size_t orig_len;
	bool remove_dir;            /* a directory we created (a tracing instance): rmdir it */
	volatile sig_atomic_t restore_failed; /* set by the last il_live_restore() */
};

struct il_live_changes {
	struct il_live_change *c;   /* allocated up front: the restore path never allocates */
	int cap;
	volatile sig_atomic_t n;    /* entries published; a signal handler reads up to here */
};

/**
 * il_live_changes_init - room for @cap changed files
 * Return: 0, or -1 with @err set (out of memory).
 */
int il_live_changes_init(struct il_live_changes *ch, int cap, struct il_error *err);
void il_live_changes_free(struct il_live_changes *ch);

/**
 * il_live_write - write "@value\n" to @path, which must exist; the original text is saved
 * in @ch before the first write to @path. A write refused with EACCES/EPERM says that
 * changing cpuidle settings needs root.
 * Return: 0, or -1 with @err set.
 */
int il_live_write(struct il_live_changes *ch, const char *path, const char *value,
		  struct il_error *err);

/**
 * il_live_created_dir - remember that @path is a directory we created (a tracing instance),
 * to be removed by il_live_restore()
 * Return: 0, or -1 with @err set (table full, path too long).
 */
int il_live_created_dir(struct il_live_changes *ch, const char *path, struct il_error *err);

/**
 * il_live_restore - write every saved original back (and remove every directory created),
 * last change first. Uses only open/write/close and touches no memory but @ch, so it is
 * async-signal-safe, and calling it twice is harmless.
 * Return: the number of files that could not be restored (0: all back).
 */
int il_live_restore(struct il_live_changes *ch);

/**
 * il_live_restore_failed - the path of the @i-th file il_live_restore() could not restore,
 * counting from 0; for the error message after the fact
 * Return: the path, or NULL past the last failure.
 */
const char *il_live_restore_failed(const struct il_live_changes *ch, int i);

enum il_live_switch {
	IL_SWITCH_OK,
	IL_SWITCH_UNAVAILABLE,      /* not in available_governors: skip it */
};

/**
 * il_live_switch_governor - make @name the current cpuidle governor through @ch, and read
 * current_governor back to check the kernel took it
 * Return: IL_SWITCH_OK, IL_SWITCH_UNAVAILABLE (@err says why; nothing written), or -1 with
 * @err set (no current_governor file, write refused, or the kernel kept another governor).
 */
int il_live_switch_governor(const struct il_live *lv, struct il_live_changes *ch,
			    const struct il_live_cpuidle *ci, const char *name,
			    struct il_error *err);

/**
 * il_live_check_writable - whether @path exists and this process may write it, before
 * anything is changed
 * Return: 0, or -1 with @err set (saying that root is needed when permission is missing).
 */
int il_live_check_writable(const char *path, struct il_error *err);

/* ---- lock ---------------------------------------------------------------------------------- */

/**
 * il_live_lock - take an exclusive flock on @path (created if missing) and write our pid
 * into it
 * Return: the open descriptor (keep it open while measuring), or -1 with @err set; a lock
 * held by another process says so, with its pid when the file names one.
 */
int il_live_lock(const char *path, struct il_error *err);

/** il_live_unlock - release the lock taken by il_live_lock() (@fd < 0: nothing) */
void il_live_unlock(int fd);

/* ---- was the machine quiet? (quiet.c) ------------------------------------------------------ */

/** il_live_loadavg - the 1-minute load average from ROOT/proc/loadavg; Return: 0 or -1 */
int il_live_loadavg(const struct il_live *lv, double *load1, struct il_error *err);

struct il_live_proc {
	int pid;
	int pgrp;          /* process group */
	unsigned int cpu;  /* the CPU it last ran on */
	u64 ticks;         /* utime + stime, clock ticks (a delta in il_live_procs_busy()) */
	char comm[32];
};

struct il_live_procs {
	int n, cap;
	struct il_live_proc *p;
};

/**
 * il_live_procs_read - every process's CPU time, last CPU and process group, from
 * ROOT/proc/PID/stat (a process that ends meanwhile is skipped)
 * Return: 0, or -1 (ROOT/proc cannot be listed, out of memory) with @err set.
 */
int il_live_procs_read(const struct il_live *lv, struct il_live_procs *ps, struct il_error *err);
void il_live_procs_free(struct il_live_procs *ps);

/**
 * il_live_procs_busy - the processes in both snapshots, other than @self and outside process
 * group @skip_pgrp, whose CPU time grew by at least @min_ticks and that last ran on one of
 * the @ncpu @cpus; the deltas in .ticks
 * Return: how many were put in @out (at most @max), busiest first.
 */
int il_live_procs_busy(const struct il_live_procs *before, const struct il_live_procs *after,
		       const unsigned int *cpus, int ncpu, int skip_pgrp, int self, u64 min_ticks,
		       struct il_live_proc *out, int max);

/* ---- tracing ------------------------------------------------------------------------------- */

struct il_live_trace;

/** il_live_trace_missing - why --trace cannot work in this build, or NULL when it can */
const char *il_live_trace_missing(void);

/**
 * il_live_trace_open - a private tracing instance "idlelab-PID" under the tracefs of the root
 * (ROOT/sys/kernel/tracing, else ROOT/sys/kernel/debug/tracing), registered in @ch so that
 * il_live_restore() removes it; tracing off, trace_clock mono, @buffer_kb per CPU, and the
 * events a replay needs: power:cpu_idle (required), power:cpu_idle_miss, timer:*, irq:*,
 * irq_vectors:*, ipi:*, sched:sched_wakeup (each optional: not every kernel has them).
 * @missing: set to the optional events this kernel lacks, "" when none (may be NULL)
 * Return: 0 with the instance in *@out, or -1 with @err set.
 */
int il_live_trace_open(const struct il_live *lv, struct il_live_changes *ch, unsigned int buffer_kb,
		       struct il_live_trace **out, char *missing, size_t missing_cap,
		       struct il_error *err);

/** il_live_trace_start - empty the instance's buffer and turn tracing on; Return: 0 or -1 */
int il_live_trace_start(struct il_live_trace *t, struct il_error *err);

/**
 * il_live_trace_stop - turn tracing off
 * Return: the number of events lost to full buffers (overrun, summed over CPUs), or -1 with
 * @err set.
 */
long long il_live_trace_stop(struct il_live_trace *t, struct il_error *err);

/**
 * il_live_trace_save - copy the instance's text trace to @path (via a temporary file and a
 * rename: whole or not at all)
 * Return: 0, or -1 with @err set.
 */
int il_live_trace_save(struct il_live_trace *t, const char *path, struct il_error *err);

/** il_live_trace_dir - the instance's directory */
const char *il_live_trace_dir(const struct il_live_trace *t);

/** il_live_trace_free - free @t; the instance itself is removed by il_live_restore() */
void il_live_trace_free(struct il_live_trace *t);

/* ---- small parsers for the measure options --------------------------------------------------- */

/**
 * il_live_parse_cpulist - a CPU list as the kernel prints it ("0-3,8,10-11") into a
 * malloc'ed ascending array without duplicates
 * Return: the number of CPUs, or -1 with @err set (syntax, range reversed, above
 * IL_LIVE_CPUS_MAX).
 */
int il_live_parse_cpulist(const char *s, unsigned int **cpus, struct il_error *err);

/**
 * il_live_parse_number - a workload score as programs print it: a decimal number with an
 * optional sign, fraction and exponent, then optionally one of the suffixes k/K (x1e3),
 * M (x1e6), G (x1e9), T (x1e12); anything after that is ignored ("12.4k", "9.8k IOPS")
 * Return: 0 with the value in *@out, or -1 when @s does not start with a number.
 */
int il_live_parse_number(const char *s, double *out);

#define IL_LIVE_METRIC_NAME_LEN 32

struct il_live_metric {
	char name[IL_LIVE_METRIC_NAME_LEN];
	regex_t re;
	bool compiled;
};

/**
 * il_live_metric_parse - "NAME=REGEX": a column name (letters, digits, '_', '-', '.') and
 * a POSIX extended regular expression, compiled into @m
 * Return: 0, or -1 with @err set (no '=', bad name, regcomp's message).
 */
int il_live_metric_parse(const char *spec, struct il_live_metric *m, struct il_error *err);
void il_live_metric_free(struct il_live_metric *m);

enum il_live_metric_result {
	IL_METRIC_FOUND,
	IL_METRIC_NO_MATCH,
	IL_METRIC_NOT_A_NUMBER,     /* the match (first group, else the whole match) is no number */
};

/**
 * il_live_metric_eval - the first match of @m in @text: its first capture group if the
 * expression has one and it matched, else the whole match, read by il_live_parse_number()
 * Return: an enum il_live_metric_result; the value in *@value for IL_METRIC_FOUND, and the
 * matched text in @match (may be NULL) otherwise too.
 */
int il_live_metric_eval(const struct il_live_metric *m, const char *text, double *value,
			char *match, size_t match_cap);

/* ---- platform export --------------------------------------------------------------------- */

struct il_live_export {
	const char *name;           /* platform name; NULL: "live-<driver>" */
	unsigned int hz;            /* CONFIG_HZ; 0: find it under the root */
	/* where the caller's hz came from, in its words; NULL: "given by the caller" */
	const char *hz_given;
	int cpu;                    /* CPU whose state table is exported; -1: the first with one */
};

/**
 * il_live_detect_hz - CONFIG_HZ of the kernel under the root: ROOT/boot/config-<release>
 * (release from ROOT/proc/sys/kernel/osrelease), else ROOT/proc/config.gz when built with
 * zlib
 * Return: 0 with *@hz and a note saying where it was found in @source, or -1 with @err set.
 */
int il_live_detect_hz(const struct il_live *lv, unsigned int *hz, char *source, size_t cap,
		      struct il_error *err);

/**
 * il_live_export_platform - a platform file (docs/platforms.md) describing this machine's
 * cpuidle driver and state table, checked by il_platform_parse() before it is returned
 * @warning: set to a note for the user, or "" (may be NULL): the CPUs whose tables differ
 *           (another can be chosen with @opt's cpu)
 * Return: the malloc'ed text (length in *@len), or NULL with @err set.
 */
char *il_live_export_platform(const struct il_live *lv, const struct il_live_export *opt,
			      size_t *len, char *warning, size_t warning_cap, struct il_error *err);

/* ---- a measurement: an A/B of governors around a command ------------------------------------
 *
 * DOC: how a measurement runs (session.c, setup.c, run.c, child.c, tables.c)
 *
 *  1. il_live_session_init() checks everything before touching anything: the driver, the
 *     governors (one that is not in available_governors is refused, or skipped with
 *     allow_missing), the CPUs, the states to disable, that current_governor and those
 *     disable files are writable (else root is needed), who runs the command (--user, else
 *     the sudo user), RAPL, and whether the machine is quiet (load average).
 *  2. il_live_session_lock() takes the lock file, so that a second measure is refused, and
 *     makes room for the saved settings. The CLI installs its signal handlers after it.
 *  3. il_live_session_measure(): for each iteration, for each governor (A B A B ..., so drift
 *     over time does not favour one): switch current_governor, settle, snapshot the counters
 *     of the selected CPUs and RAPL, run the command (child.c: fork/exec, no shell, its own
 *     process group, stdout on a pipe copied to echo_fd and kept for the metric regexes),
 *     snapshot again. idles/aboves/belows are the sums of the usage/above/below deltas.
 *     Every setting is changed through the session's struct il_live_changes.
 *  4. il_live_session_restore() writes every saved file back and releases the lock;
 *     il_live_runs_table() and il_live_states_table() give the results.
 *
 * Signals: a stop signal's handler calls il_live_session_interrupt() (the loop stops at the
 * next check, the command's process group is killed); a second one, or a crash, calls
 * il_live_session_abort(), which restores from the handler. Both are async-signal-safe.
 *
 * Nothing here prints: what the user must be told while it runs (a governor skipped, energy
 * not measured, a metric without a match, a busy foreign process ...) goes to the hooks'
 * say() as one sentence each, and errors come back in a struct il_error.
 */

#define IL_LIVE_MEASURE_GOV_MAX 16   /* -g governors */
#define IL_LIVE_METRICS_MAX 8        /* --metric NAME=REGEX */
#define IL_LIVE_MATCH_LEN 64         /* a metric's match, as a warning quotes it */
#define IL_LIVE_DISABLE_MAX 32       /* --disable states */
#define IL_LIVE_CAPTURE_MAX (16u << 20) /* the command's output kept for the metric regexes */
#define IL_LIVE_GROUPS_MAX 256       /* supplementary groups of the command's user */
#define IL_LIVE_LOCK_FILE "/run/idlelab.lock" /* under the root */
/* Not quiet: a 1-minute load average above this before the first run, or a process other
 * than the command that used this share of a measured CPU during a run (and >= 2 ticks). */
#define IL_LIVE_QUIET_LOAD 1.0
#define IL_LIVE_QUIET_SHARE 0.10
#define IL_LIVE_QUIET_REPORT 3       /* the busiest processes named per run */

/** il_live_signal_name - "SIGINT" for the messages (strsignal() says "Interrupt") */
const char *il_live_signal_name(int sig);

/* Who runs the command: the measurement keeps its rights, the child drops to these. */
struct il_live_user {
	bool drop;                  /* false: the command runs as we do */
	unsigned int uid, gid;
	int ngroups;
	unsigned int groups[IL_LIVE_GROUPS_MAX];
};

/**
 * il_live_user_resolve - who runs the command: @name (a user name, else a uid) when given;
 * else, when we are root, the user who ran sudo (@sudo_uid and @sudo_gid: SUDO_UID and
 * SUDO_GID, NULL when unset); else nobody to change to. The groups come from the group file.
 * @note: set to a sentence for the user when the sudo user was taken by default, else ""
 * Return: 0, or -1 with @err set (no such user, ids that are not numbers, not root).
 */
int il_live_user_resolve(struct il_live_user *u, const char *name, const char *sudo_uid,
			 const char *sudo_gid, char *note, size_t note_cap, struct il_error *err);

/* What the command wrote on stdout, for the metric regexes (a NUL byte is kept as '\n'). */
struct il_live_output {
	char *text;                 /* NUL-terminated */
	size_t len, cap;
	bool truncated;             /* more than @cap bytes came; the rest was not kept */
};

/** il_live_output_init - room for @cap bytes; Return: 0, or -1 with @err set (out of memory) */
int il_live_output_init(struct il_live_output *out, size_t cap, struct il_error *err);
void il_live_output_free(struct il_live_output *out);

/*
 * il_live_block_for_wait - block every signal but the faults and put the mask before into
 * @caller: what a wait blocks outside its ppoll(@caller) (the command's, the settle before a
 * run), so that a stop signal cannot fall between the check of the stop flag and the sleep;
 * sigprocmask(SIG_SETMASK, @caller, NULL) ends it. A fault blocked when it happens would
 * bypass the front end's handler, which puts the machine's settings back.
 */
void il_live_block_for_wait(sigset_t *caller);

struct il_live_child_opts {
	char *const *argv;          /* NULL-terminated; argv[0] is looked up in PATH */
	const struct il_live_user *user; /* NULL: run as we do */
	int echo_fd;                /* the command's stdout is copied here too (-1: nowhere) */
	void (*in_child)(void *ctx); /* called in the child before exec (signal dispositions) */
	void *ctx;
	volatile sig_atomic_t *stop; /* non-zero: kill the command and return (may be NULL) */
	volatile sig_atomic_t *pgid; /* the command's process group while it runs, for a signal
	                              * handler that must kill it (may be NULL) */
};

struct il_live_child_result {
	int status;                 /* as waitpid() gives it */
	unsigned long long wall_ns; /* from before fork() to the command's end */
	int pgid;                   /* its process group (the quiet check leaves it out) */
	char exec_error[IL_ERROR_LEN]; /* why the child could not run it, "" when it did */
};

/**
 * il_live_child_run - run the command in its own process group with stdout on a pipe,
 * copying what it writes to @o->echo_fd and into @out, until it ends or *@o->stop is set;
 * then kill what it left in its process group and reap it. The command's end, not the end
 * of its output, ends the run: a child it left behind may hold the pipe open.
 * Return: 0 with @res filled (also when the command failed: see il_live_child_check()), or
 * -1 with @err set (pipe, fork or waitpid failed).
 */
int il_live_child_run(const struct il_live_child_opts *o, struct il_live_output *out,
		      struct il_live_child_result *res, struct il_error *err);

/**
 * il_live_child_check - whether the command of @res exited with status 0; @what names the
 * run in the message ("menu iter 0"); @stopped: the command was killed because we were
 * asked to stop, which is not the command's failure
 * Return: 0, or -1 with @err saying how it ended (empty when @stopped and killed).
 */
int il_live_child_check(const struct il_live_child_result *res, const char *cmd,
			const char *what, bool stopped, struct il_error *err);

/* One run of the command under one governor: the row of the runs table. */
struct il_live_run {
	const char *gov;
	unsigned int iter;
	double metric[IL_LIVE_METRICS_MAX];
	int metric_rc[IL_LIVE_METRICS_MAX]; /* enum il_live_metric_result */
	bool energy_ok;
	double joules;
	unsigned long long wall_ns;
	unsigned int have;          /* IL_LF_* counters present on every CPU and state */
	u64 idles, aboves, belows;  /* summed over the CPUs and states */
	int nstates;                /* the most states of a measured CPU */
	struct il_live_delta st[CPUIDLE_STATE_MAX]; /* per state, summed over the CPUs */
	char names[CPUIDLE_STATE_MAX][IL_NAME_LEN];
};

/**
 * il_live_snapshot - the counters (IL_LIVE_READ_COUNTERS) of the @ncpu CPUs @cpus into @snap
 * Return: 0, or -1 with @err set.
 */
int il_live_snapshot(const struct il_live *lv, const unsigned int *cpus, int ncpu,
		     struct il_live_cpu *snap, struct il_error *err);

/**
 * il_live_run_add_cpu - add one CPU's deltas @d (of the states of @cpu, its later snapshot)
 * to @run; @first: the first CPU of the run, which sets the state names
 */
void il_live_run_add_cpu(struct il_live_run *run, const struct il_live_cpu *cpu,
			 const struct il_live_delta *d, bool first);

/**
 * il_live_never_idle - whether deltas @d of @cpu's states say it never went idle
 * Return: true when every state has a usage count and they sum to 0.
 */
bool il_live_never_idle(const struct il_live_cpu *cpu, const struct il_live_delta *d);

/**
 * il_live_run_energy - the joules of @run from the RAPL readings @before and @after
 * Return: 0 with run->energy_ok and run->joules set, or -1 with @err set when a zone went
 * back and its range is unknown (run->energy_ok false: joules not measured).
 */
int il_live_run_energy(const struct il_live_rapl *rapl, const u64 *before, const u64 *after,
		       struct il_live_run *run, struct il_error *err);

/**
 * il_live_run_metrics - evaluate the @n @metrics on the command's output into @run
 * (metric[] and metric_rc[]); @matches[i] gets the text of metric i's match, for the
 * warning about a match that is not a number
 */
void il_live_run_metrics(struct il_live_run *run, const struct il_live_metric *metrics, int n,
			 const struct il_live_output *out, char (*matches)[IL_LIVE_MATCH_LEN]);

/* What to measure: the options of `idlelab measure`, already checked for syntax. */
struct il_live_measure_opts {
	const char *root;           /* NULL: "/" */
	int ngov;
	const char *governors[IL_LIVE_MEASURE_GOV_MAX];
	bool allow_missing;         /* skip a governor not in available_governors */
	const char *cpus;           /* a CPU list; NULL: every CPU with cpuidle */
	int ndisable;
	const char *disable[IL_LIVE_DISABLE_MAX]; /* state names or indexes */
	int nmetric;
	const char *metrics[IL_LIVE_METRICS_MAX]; /* NAME=REGEX */
	unsigned int iter;          /* iterations per governor, >= 1 */
	u64 settle_ns;              /* wait after each switch */
	const char *trace;          /* record each run into TRACE-GOV-ITER.trace; NULL: not */
	unsigned int trace_buffer_kb;
	const char *user;           /* --user; NULL: the sudo user, else ourselves */
	const char *sudo_uid, *sudo_gid; /* SUDO_UID, SUDO_GID (NULL: unset) */
	char *const *cmd;           /* NULL-terminated */
	int echo_fd;                /* where the command's output is copied (-1: nowhere) */
};

enum il_live_say {
	IL_LIVE_WARNING,            /* something the numbers do not show: tell the user */
	IL_LIVE_INFO,               /* what is being done: a log line */
};

/* How a session talks to its front end; every member may be NULL. */
struct il_live_hooks {
	/* @need: what the caller could give to change it, the front end words it (lib/error.h) */
	void (*say)(void *ctx, enum il_live_say kind, enum il_error_need need, const char *msg);
	void (*begin)(void *ctx, int nruns);  /* the settings are changed; runs follow */
	void (*run_start)(void *ctx, int run, int nruns, const char *gov, unsigned int iter);
	void (*run_done)(void *ctx, int done);
	void (*in_child)(void *ctx);          /* in the command's process, before exec */
	void *ctx;
};

struct il_live_session {
	const struct il_live_measure_opts *opts;
	struct il_live_hooks hooks;
	struct il_live lv;
	struct il_live_cpuidle ci;
	struct il_live_user user;
	int ngov;                   /* governors kept, in the order given, without repeats */
	const char *gov[IL_LIVE_MEASURE_GOV_MAX];
	int ncpu;                   /* measured CPUs */
	unsigned int *cpu;
	struct il_live_cpu *before, *after; /* [ncpu] */
	int ndisable_paths;
	char (*disable_path)[IL_LIVE_PATH_MAX];
	struct il_live_metric metric[IL_LIVE_METRICS_MAX];
	struct il_live_rapl rapl;
	u64 energy_before[IL_LIVE_RAPL_MAX], energy_after[IL_LIVE_RAPL_MAX];
	struct il_live_changes changes;
	struct il_live_trace *trace;
	struct il_live_procs procs_before, procs_after;
	bool procs_ok;              /* ROOT/proc could be listed */
	int last_pgid;              /* the process group of the last run's command */
	int lock_fd;
	int nrows;                  /* runs done */
	struct il_live_run *rows;   /* [ngov * iter] */
	struct il_live_output output;
	volatile sig_atomic_t stop; /* the signal that asked us to stop, 0: none */
	volatile sig_atomic_t child_pgid; /* the running command's process group, or 0 */
};

/**
 * il_live_say - format a message and hand it to @h->say (nothing when it is NULL)
 */
void il_live_say(const struct il_live_hooks *h, enum il_live_say kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/** il_live_say_need - il_live_say() of a message the setting @need would change */
void il_live_say_need(const struct il_live_hooks *h, enum il_live_say kind,
		      enum il_error_need need, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/**
 * il_live_session_init - step 1 of the DOC: read and check, change nothing. @opts and @hooks
 * must outlive @s. The governors skipped, the sudo user taken, energy not measured, what is
 * measured and a busy machine are said through @hooks.
 * Return: 0, or -1 with @err set; either way il_live_session_free() follows.
 */
int il_live_session_init(struct il_live_session *s, const struct il_live_measure_opts *opts,
			 const struct il_live_hooks *hooks, struct il_error *err);

/**
 * il_live_session_lock - step 2: take the lock file @path (NULL: ROOT/run/idlelab.lock) and
 * make room for the settings that will change
 * Return: 0, or -1 with @err set (another measurement holds the lock, ...).
 */
int il_live_session_lock(struct il_live_session *s, const char *path, struct il_error *err);

/** il_live_session_nruns - the runs asked for: governors times iterations */
int il_live_session_nruns(const struct il_live_session *s);

/**
 * il_live_session_measure - step 3: open the trace, disable the states, and do every run
 * (s->rows[0 .. s->nrows - 1] hold those done)
 * Return: 0 when every run is done; -1 when it stopped early: because of a failure (@err
 * says why) or because il_live_session_interrupt() was called (s->stop set, @err empty).
 */
int il_live_session_measure(struct il_live_session *s, struct il_error *err);

/**
 * il_live_session_restore - step 4: put back every setting changed (saying which, or each
 * one that could not be), then release the lock
 * Return: 0, or -1 when a setting could not be restored.
 */
int il_live_session_restore(struct il_live_session *s);

/**
 * il_live_session_interrupt - ask the measurement to stop (from a signal handler): record
 * @sig and kill the running command's process group. Async-signal-safe.
 * Return: true the first time, false when a stop was already asked.
 */
bool il_live_session_interrupt(struct il_live_session *s, int sig);

/**
 * il_live_session_abort - kill the command and restore every setting now, from a signal
 * handler that will not return. Async-signal-safe.
 */
void il_live_session_abort(struct il_live_session *s);

void il_live_session_free(struct il_live_session *s);

/**
 * il_live_trace_file - where the trace of run @row goes: PREFIX-GOV-ITER.trace
 * Return: 0, or -1 when it does not fit in @cap.
 */
int il_live_trace_file(const struct il_live_session *s, const struct il_live_run *row,
		       char *buf, size_t cap);

struct il_table;

/**
 * il_live_runs_table - the linux-pm table of the runs done: gov iter <metrics> joules idles
 * idle_misses idle_miss_ratio belows aboves wall_s [trace]
 * Return: 0, or -1 (out of memory).
 */
int il_live_runs_table(const struct il_live_session *s, struct il_table *t);

/**
 * il_live_states_table - the per-state deltas of the runs done: gov iter state name usage
 * time_us above below rejected
 * Return: 0, or -1 (out of memory).
 */
int il_live_states_table(const struct il_live_session *s, struct il_table *t);

/**
 * il_live_info_table - the table "cpuidle" of `idlelab states`: item, value (root, driver,
 * governor, available governors, whether the governor can be switched, energy counters)
 * Return: 0, or -1 (out of memory). @t is initialised here; free it with il_table_free().
 */
int il_live_info_table(struct il_table *t, const struct il_live *lv,
		       const struct il_live_cpuidle *ci, const struct il_live_rapl *rapl);

/**
 * il_live_sysfs_states_table - the table "states" of `idlelab states`: every CPU's states
 * with their sysfs values and counters (cpu state name desc latency_us residency_us disable
 * default_status usage time_us above below rejected; a CPU without cpuidle or offline: one
 * row saying so)
 * Return: 0, or -1 with @err set. @t is initialised here; free it with il_table_free().
 */
int il_live_sysfs_states_table(struct il_table *t, const struct il_live *lv,
			       struct il_error *err);

/* The tables of a measurement's results. */
struct il_live_results {
	struct il_table *runs, *states;   /* always */
	struct il_table *sum[2];          /* their summaries with iter > 1, else NULL */
};

/**
 * il_live_results_build - the runs and states tables and, with more than one iteration,
 * their summaries (per governor; per state and governor) with the differences from
 * @baseline (NULL: the first governor; one that was not measured is said, and the summaries
 * then have no deltas). Welch, not paired: live runs share no seed.
 * Return: 0, or -1 (out of memory); either way il_live_results_free() follows.
 */
int il_live_results_build(const struct il_live_session *s, const char *baseline,
			  struct il_live_results *r);
void il_live_results_free(struct il_live_results *r);

#endif /* IDLELAB_LIVE_H */
