/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scenario.h - workloads for the simulator and their typed parameters.
 *
 * DOC: scenarios
 *
 *  1. A scenario (struct il_scenario, one file each in lib/scenario/) sets up timers,
 *     interrupts and work on a struct il_sim and keeps its own score (iops, µs per loop ...).
 *  2. Its parameters are a typed table (struct il_scn_param): integer with a range and a
 *     unit, or one of a list of names. Every default is documented in the table's help text
 *     and, where it models a real device or machine, in the scenario's sources line.
 *  3. Every scenario also takes the common parameters cpus=N, tick_hz=N, qos_us=N, ipi_ns=N
 *     and rcu_pct=N (struct il_scn_common); a scenario may give cpus and rcu_pct defaults
 *     of its own (pingpong: 2 CPUs).
 *  4. The registry is the explicit list IL_SCENARIOS() in lib/scenario/scenarios.h.
 *  5. One whole run of a scenario (platform + preset + scenario + seed) is il_lab_run(),
 *     lib/lab/lab.h.
 */
#ifndef IDLELAB_SCENARIO_H
#define IDLELAB_SCENARIO_H

#include <stddef.h>

#include "../sim/sim.h"
#include "../platform/platform.h"

#define IL_SCN_MAX_PARAMS 32
#define IL_SCN_LABEL_LEN 64
#define IL_SCN_OPERAND_LEN 512 /* as long as a whole -s specification */

enum il_scn_type {
	IL_SCN_INT,
	IL_SCN_ENUM,
};

/*
 * What a parameter's default or fitted value is (lib/platform/uncertain.h): its class, and
 * for fitted and assumed numbers a range, a ratio ("0.9x..1.1x") or absolute in the
 * parameter's own unit ("101..257"), with where the range comes from. An ensemble varies
 * the value in play (the default or the one given) inside it; a value of 0 or below (off,
 * "device default") is not varied by a ratio range, nor one whose parameter's off_with is 0
 * or whose replaced_by is not (struct il_scn_param).
 */
struct il_scn_unc {
	enum il_unc_class cls;
	const char *range;     /* NULL: the class alone */
	const char *why;
	const char *fitted_to; /* a fitted value: what it was fitted to */
};

struct il_scn_param {
	const char *name;
	enum il_scn_type type;
	s64 def;                    /* IL_SCN_ENUM: index into choices */
	s64 min, max;               /* IL_SCN_INT range */
	const char *const *choices; /* IL_SCN_ENUM: NULL-terminated names */
	const char *unit;           /* "us", "hz", "pct", "" */
	const char *help;
	const struct il_scn_unc *unc; /* NULL: a choice of the user's, not a model number */
	/*
	 * The scenario's own switches of the number's mechanism (the same uncertainty is in play
	 * in one scenario and not in another): the parameter of the same table that switches it
	 * off when 0 (the background's rate without a background), and the one whose value other
	 * than 0 replaces it (fio's bg_hz, a timer-only background, has no burst share); when
	 * either holds the number is not in play. NULL: none.
	 */
	const char *off_with;
	const char *replaced_by;
};

/* Parameter values, in the order of the scenario's table. */
struct il_scn_args {
	s64 v[IL_SCN_MAX_PARAMS];
	bool set[IL_SCN_MAX_PARAMS];
	char operand[IL_SCN_OPERAND_LEN]; /* a scenario with an operand: its file, else "" */
};

struct il_scn_common;

struct il_scenario {
	const char *name;
	const char *summary;
	const char *score;         /* the score column: "iops", "us_per_loop" ... */
	const char *score_help;
	int score_prec;            /* decimals printed */
	bool higher_is_better;
	unsigned int default_cpus; /* 0: the platform's CPU count */
	unsigned int default_rcu_pct; /* work pieces that leave RCU callbacks (lib/sim/sim.h 8.) */
	const char *sources;       /* where the defaults come from */
	const struct il_scn_param *params; /* terminated by .name == NULL */
	size_t ctx_size;
	/* Set up the workload on @sim (all CPUs idle at 0). Return 0, or -1 with errno set. */
	int (*setup)(struct il_sim *sim, void *ctx, const struct il_scn_args *args);
	/*
	 * Free what setup allocated besides ctx itself (may be NULL); runs after the simulator
	 * is freed.
	 */
	void (*cleanup)(void *ctx);
	/* The score after the run. */
	double (*score_fn)(const struct il_sim *sim, const void *ctx);
	/* The seeds' "device" column, e.g. "nvme"; NULL: the scenario name. */
	void (*label)(const struct il_scn_args *args, char *buf, size_t cap);
	/* A scenario that reads a file takes it first: "rtapp:FILE.json,k=v". NULL: none. */
	const char *operand;
	/*
	 * Optional, run at the end of il_scn_parse(): check the operand (read the file, so that
	 * its errors show at once) and set common defaults that depend on it.
	 * Return: 0, or -1 with @err set.
	 */
	int (*check)(const struct il_scn_args *args, struct il_scn_common *common,
		     struct il_error *err);
};

/* Common parameters, accepted by every scenario. */
struct il_scn_common {
	unsigned int cpus;   /* 0: scenario default, else the platform's */
	unsigned int hz;     /* 0: the platform's */
	s64 qos_us;          /* < 0: no latency limit */
	s64 ipi_ns;          /* < 0: the platform's default, see il_lab_ipi_ns() */
	s64 rcu_pct;         /* < 0: the scenario's default_rcu_pct */
	/* set by a scenario's check(): the machine needs at least this many CPUs (a workload
	 * file naming CPU min_cpus - 1), and where that CPU is named ("FILE:LINE:COL: tasks.T.
	 * cpus[i]"); il_lab_check_cpus() refuses a platform with fewer unless cpus=N is given */
	unsigned int min_cpus;
	char min_cpus_where[320];
	/* nohz_full=LIST: CPUs that keep the tick stopped while they run one task (none: 0s) */
	u64 nohz_full[IL_SIM_CPUS_MAX / 64];
	bool has_nohz_full;
};

/* Registry (lib/scenario/registry.c). */
int il_scenario_count(void);
const struct il_scenario *il_scenario_at(int i);
const struct il_scenario *il_scenario_find(const char *name);

/** il_scn_nparams - the number of entries of @scn's parameter table */
int il_scn_nparams(const struct il_scenario *scn);
/** il_scn_param_index - the index of parameter @name of @scn, or -1 */
int il_scn_param_index(const struct il_scenario *scn, const char *name);
/** il_scn_defaults - fill @args with @scn's defaults */
void il_scn_defaults(const struct il_scenario *scn, struct il_scn_args *args);

/**
 * il_scn_parse - parse "NAME[:k=v,k=v...]", or "NAME:OPERAND[,k=v...]" for a scenario with
 * an operand (the operand ends at the first comma)
 * @spec: what the user typed after -s
 * @scn: the scenario found
 * @args: its parameters, defaults where not given
 * @common: the common parameters (cpus, tick_hz, qos_us)
 * @err: a message on failure
 *
 * Integer values take an optional unit suffix matching the parameter's (us, ms, hz, pct).
 * Return: 0, or -1 with @err set (unknown scenario or parameter, bad value, out of range,
 * missing operand, or the scenario's check() failed).
 */
int il_scn_parse(const char *spec, const struct il_scenario **scn, struct il_scn_args *args,
		 struct il_scn_common *common, struct il_error *err);

/**
 * il_scn_param_range - the range of @p (IL_UNC_NO_RANGE when it has none)
 * Return: 0, or -1 with @err set when the table's annotation is malformed (an unknown range
 * text, a fitted value without fitted_to, a range without why, a default outside it)
 */
int il_scn_param_range(const struct il_scenario *scn, const struct il_scn_param *p,
		       struct il_unc_range *r, struct il_error *err);

/*
 * A benchmark's start against the tick grid: a real one is launched at no particular point
 * of it, and where its own timers fall between the ticks decides how the kept tick cuts its
 * idle periods. -1 draws the start per run from the seed, uniformly over one tick period.
 */
#define IL_SCN_PHASE_PARAM(help) { "phase_us", IL_SCN_INT, -1, -1, 1000000, NULL, "us", help }

/**
 * il_scn_start_ns - the start a "phase_us" parameter gives: @phase_us itself, or (-1) a draw
 * over one tick period from the run's random stream @stream
 */
u64 il_scn_start_ns(const struct il_sim *sim, s64 phase_us, u64 stream);

/**
 * il_scn_format_args - "device=nvme,jobs=1" with the values of every parameter (the operand
 * first)
 */
void il_scn_format_args(const struct il_scenario *scn, const struct il_scn_args *args, char *buf,
			size_t cap);

#endif /* IDLELAB_SCENARIO_H */
