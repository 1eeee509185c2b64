/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * step.h - drive one CPU's governor through a scripted sequence of idle entries.
 *
 * DOC: the step driver
 *
 * `idlelab step` answers "what does this governor decide, and why" for idle periods the user
 * writes down one per line (format: docs/step.md). For every line the driver does what the
 * kernel's idle loop and cpuidle core do around a governor (kernel-governors.md §1.2, §1.3):
 *
 *  1. Set the environment the governor reads: the sleep length and the time to the next
 *     programmed event (tick_nohz_get_sleep_length()), whether the tick is already stopped,
 *     the PM QoS limit, nr_iowait and the load, and the oracle's true idle length.
 *  2. Select. stop_tick starts out true. On single-state devices the 6.19.9 and 7.0+ idle
 *     loops skip the governor and enter state 0; the record says so ("bypassed").
 *  3. Decide the tick as the preset's idle loop does: 4.17 stops it iff stop_tick; 6.x and
 *     later also keep an already stopped tick stopped; 4.16 stopped it before select.
 *  4. If the chosen state polls (5.x+ polling rule), set dev->poll_time_limit to whether the
 *     measured residency exceeded cpuidle_poll_time().
 *  5. Account the measured residency like cpuidle_enter_state() (il_cpuidle_account()),
 *     which also classifies the period as a hit, "above" (too deep), "below" (too shallow)
 *     or a rejected entry.
 *  6. Advance local_clock() by the time from select to reflect; if the tick woke the CPU,
 *     set the got-tick flag; then reflect, unless the entry was rejected or bypassed.
 *  7. In 7.0+ idle loops, do_idle() reads (and so clears) the got-tick flag after every
 *     entry; the next bypassed entry uses what it read.
 *
 * The driver returns one struct il_step_record per line: the decision, what the governor
 * asked of the environment, the miss kind, and the governor's vars().
 */
#ifndef IDLELAB_STEP_H
#define IDLELAB_STEP_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/core.h"
#include "../governor.h"
#include "../error.h"
#include "../platform/platform.h"

/* Largest time a step line accepts (|sleep|, delta, res, span, oracle): one hour. */
#define IL_STEP_TIME_MAX_NS (3600 * NSEC_PER_SEC)
#define IL_STEP_LINES_MAX 1000000

/* One line of a step script: the inputs of one idle period. */
struct il_step_input {
	int line;             /* line number in the script */
	s64 sleep_ns;         /* tick_nohz_get_sleep_length() return value; may be negative */
	s64 delta_ns;         /* *delta_next: time to the next programmed event */
	bool has_delta;       /* false: min(sleep, TICK_NSEC), or sleep when the tick is stopped */
	bool stopped;         /* tick_nohz_tick_stopped() */
	bool has_qos;
	s32 qos_us;           /* the CPU latency QoS limit (/dev/cpu_dma_latency), µs */
	bool rejected;        /* the entry failed: last_residency_ns = 0, no reflect */
	s64 res_ns;           /* measured residency */
	bool tick;            /* the tick ended this idle period */
	unsigned long iowait; /* nr_iowait_cpu() */
	unsigned long load;   /* this_rq()->load.weight (4.x menu) */
	s64 span_ns;          /* local_clock() advance from select to reflect */
	bool has_span;        /* false: res (0 for a rejected entry) */
	s64 oracle_ns;        /* true idle length for the oracle */
	bool has_oracle;      /* false: res (0 for a rejected entry) */
};

struct il_step_script {
	struct il_step_input *entries;
	size_t count;
	size_t cap;
};

/**
 * il_step_parse - parse a step script (docs/step.md)
 * @text: the script (a NUL byte inside is an error)
 * @len: its length
 * @file: the name used in error messages ("<stdin>", "builtin:demo", a path)
 * @script: the result, freed with il_step_script_free() (also after an error)
 * @err: "FILE:LINE: message"
 *
 * Return: 0, or -1 with @err set. A script without any idle entry is an error.
 */
int il_step_parse(const char *text, size_t len, const char *file, struct il_step_script *script,
		  struct il_error *err);
void il_step_script_free(struct il_step_script *script);

/* Built-in scripts, "builtin:NAME" on the command line. */
int il_step_builtin_count(void);
const char *il_step_builtin_name(int i);
/** il_step_builtin_text - the text of built-in script @name, or NULL */
const char *il_step_builtin_text(const char *name);

/**
 * il_step_resolve_inputs - @in with the defaults of docs/step.md filled in, for a CPU whose
 * TICK_NSEC is @tick_nsec: delta = min(sleep, tick) (sleep if the tick is stopped), span and
 * oracle = res (0 for a rejected entry)
 */
void il_step_resolve_inputs(u64 tick_nsec, const struct il_step_input *in,
			    struct il_step_input *out);

/* What the idle loop did with the tick after select. */
enum il_tick_action {
	IL_TICK_STOP,    /* tick_nohz_idle_stop_tick() */
	IL_TICK_RETAIN,  /* tick_nohz_idle_retain_tick() */
	IL_TICK_ON_ENTRY /* 4.16: the idle loop stopped it (if it could) before select */
};

struct il_step_record {
	struct il_step_input in; /* the inputs, with the defaults filled in */
	int index;               /* the state entered */
	bool bypassed;           /* the idle loop skipped the governor (single-state device) */
	bool stop_tick;          /* the governor's *stop_tick */
	enum il_tick_action tick_action;
	int sleep_queries;       /* tick_nohz_get_sleep_length() calls during select */
	bool poll_time_limit;    /* dev->poll_time_limit after the entry */
	enum il_miss miss;
	u64 now_ns;              /* local_clock() at select */
	int nvars;
	struct il_var vars[IL_MAX_VARS];
};

struct il_step_cpu;

/**
 * il_step_cpu_alloc - a CPU of @plat (at CONFIG_HZ @hz, 0 = the platform's) running @preset
 * @err: set on failure ("PRESET: message")
 *
 * Return: the CPU, or NULL with @err set (out of memory, or the governor's enable failed).
 */
struct il_step_cpu *il_step_cpu_alloc(const struct il_platform *plat, unsigned int hz,
				      const struct il_preset *preset, struct il_error *err);
void il_step_cpu_free(struct il_step_cpu *cpu);

/**
 * il_step_cpu_set_param - set the governor tunable @name (a module_param of its upstream file,
 * see struct il_param) to @value on @cpu, as writing /sys/module/.../parameters/@name would
 * Return: 0; 1 if the governor has no tunable called @name; -1 with @err set if @value is
 * not valid for it.
 */
int il_step_cpu_set_param(struct il_step_cpu *cpu, const char *name, const char *value,
			  struct il_error *err);

/**
 * il_step_cpu_run - run one idle entry described by @in and fill @rec
 * Return: 0, or -1 with @err set ("FILE:LINE: ..." with @file) if the governor returned an
 * index that is not a state of the driver.
 */
int il_step_cpu_run(struct il_step_cpu *cpu, const struct il_step_input *in, const char *file,
		    struct il_step_record *rec, struct il_error *err);

/** il_step_cpu_driver - the driver the CPU runs on (for state names) */
const struct il_driver *il_step_cpu_driver(const struct il_step_cpu *cpu);
/** il_step_tick_nsec - TICK_NSEC of the CPU */
u64 il_step_cpu_tick_nsec(const struct il_step_cpu *cpu);

/** il_miss_name - "none", "above", "below", "rejected" */
const char *il_miss_name(enum il_miss miss);
/** il_tick_action_name - "stop", "retain", "entry" */
const char *il_tick_action_name(enum il_tick_action action);

#endif /* IDLELAB_STEP_H */
