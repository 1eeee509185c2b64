/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * uncertain.h - what a model parameter is and how far it may be off: its class (measured,
 * datasheet, fitted, assumed) and a plausible range, for platform files and scenario
 * parameter tables alike.
 *
 * DOC: uncertain parameters
 *
 *  1. A class says where a number comes from: `measured` (a measurement; its range is the
 *     measurement's spread), `datasheet` (a cited datasheet or driver value; usually exact,
 *     so no range), `fitted` (chosen to reproduce a result: it names what it was fitted to)
 *     or `assumed` (nobody measured it). fitted and assumed numbers must carry a range.
 *  2. A range is a ratio to the nominal value, "0.5x..2x" (sampled log-uniformly: a factor
 *     of 2 either way is as likely), or absolute, in the units the count and time parsers
 *     take: "50000..200000" for a count, "600..1200ns" or "600ns..1.2us"... for a time (a
 *     bare lower bound takes the upper bound's unit), sampled uniformly; or a set of the
 *     values a choice can take, "250,1000" (CONFIG_HZ: a kernel is built with one of them),
 *     each as likely.
 *  3. A range must hold its own nominal value (lo <= nominal <= hi): a parameter whose range
 *     excludes what the model runs with contradicts itself.
 *  4. A platform file gives them on an "uncertain:" line under the cpus/hz/active_power_uw
 *     or state line, next to its source: notes:
 *
 *	state C6 ... power_uw=160000 entry_exit_energy_nj=48467
 *	  source: power: assumption ...
 *	  uncertain: power_uw class=assumed range=0.5x..2x why="order of magnitude unknown"
 *
 *     il_plat_unc_line() parses one; the platform keeps them in plat->unc[].
 *  5. An ensemble (lib/verdict/ensemble.c) draws model variants inside these ranges;
 *     il_unc_range_at() maps a uniform u in [0, 1] into the range.
 */
#ifndef IDLELAB_UNCERTAIN_H
#define IDLELAB_UNCERTAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "../error.h"

#define IL_UNC_WHY_LEN 256
#define IL_UNC_FIT_LEN 160
#define IL_UNC_PARAM_LEN 48

enum il_unc_class {
	IL_UNC_MEASURED,
	IL_UNC_DATASHEET,
	IL_UNC_FITTED,
	IL_UNC_ASSUMED,
	IL_UNC_CLASSES,
};

enum il_unc_kind {
	IL_UNC_NO_RANGE, /* a class alone: the number is taken as exact */
	IL_UNC_RATIO,    /* lo, hi: factors of the nominal value */
	IL_UNC_ABS,      /* lo, hi: values in the parameter's base unit (ns for a time) */
	IL_UNC_SET,      /* set[0..nset), ascending: the values of a choice; lo, hi its ends */
};

#define IL_UNC_SET_MAX 4

struct il_unc_range {
	enum il_unc_kind kind;
	double lo, hi;
	double set[IL_UNC_SET_MAX];
	int nset;
};

/** il_unc_class_name - "measured", "datasheet", "fitted", "assumed" */
const char *il_unc_class_name(enum il_unc_class c);
/** il_unc_class_find - the class called @name, or -1 */
int il_unc_class_find(const char *name);

/**
 * il_unc_range_parse - "0.5x..2x", "50000..200000" (@time false), "600..1200ns" (@time
 * true, as ns) or a set of counts "250,1000" (@time false) into @r
 * Return: 0, or -1 with a static explanation in *@why.
 */
int il_unc_range_parse(const char *s, bool time, struct il_unc_range *r, const char **why);
/** il_unc_range_holds - whether @r holds @nominal (a ratio range holds 1x; a set lists it) */
bool il_unc_range_holds(const struct il_unc_range *r, double nominal);
/** il_unc_range_lo - the lowest value of @r around @nominal; il_unc_range_hi the highest */
double il_unc_range_lo(const struct il_unc_range *r, double nominal);
double il_unc_range_hi(const struct il_unc_range *r, double nominal);
/**
 * il_unc_range_at - the value at @u in [0, 1] of @r around @nominal: log-uniform between
 * the factors of a ratio range, uniform in an absolute one, equal shares of [0, 1] for the
 * values of a set
 */
double il_unc_range_at(const struct il_unc_range *r, double nominal, double u);
/** il_unc_range_format - "0.5x..2x", "600..1200ns", "50000..200000", "250,1000" into @buf */
const char *il_unc_range_format(const struct il_unc_range *r, bool time, char *buf, size_t cap);

/* A platform parameter that may carry a class and a range. */
enum il_plat_field {
	IL_PF_ACTIVE_POWER, /* active_power_uw (no state) */
	IL_PF_EXIT,         /* a state's exit_latency */
	IL_PF_RESIDENCY,
	IL_PF_POWER,
	IL_PF_ENERGY,
	IL_PF_CORE_EXIT,
	IL_PF_HZ,           /* hz (no state): CONFIG_HZ, a set of its choices */
	IL_PF_COUNT,
};

/** il_plat_field_name - "active_power_uw", "exit_latency", "power_uw" ... */
const char *il_plat_field_name(enum il_plat_field f);
/** il_plat_field_find - the field called @name, or -1 */
int il_plat_field_find(const char *name);
/** il_plat_field_is_time - whether @f is a time (ns) rather than a count */
bool il_plat_field_is_time(enum il_plat_field f);
/** il_plat_field_is_power - whether @f only enters the energy model (power or energy) */
bool il_plat_field_is_power(enum il_plat_field f);

struct il_plat_unc {
	enum il_plat_field field;
	int state;                    /* the state's index; -1 for active_power_uw */
	int table;                    /* the state's table (plat->tables[]); -1 without tables */
	enum il_unc_class cls;
	struct il_unc_range range;
	char why[IL_UNC_WHY_LEN];       /* where the range comes from */
	char fitted_to[IL_UNC_FIT_LEN]; /* a fitted number: what it was fitted to */
	int line;
};

struct il_lexer;
struct il_token;

/* What the line above an "uncertain:" line set. */
struct il_plat_unc_target {
	const char *item;        /* "active_power_uw", "state C6", "cpus" ... */
	int state;               /* the state's index, -1 for a header line */
	int table;               /* the state's table block, -1 outside one */
	unsigned int fields_set; /* bit (1 << enum il_plat_field) per field the line gave */
	double nominal[IL_PF_COUNT];
};

struct il_platform;

/**
 * il_plat_unc_line - one "uncertain:" line (its tokens @toks[0..@n)) about the line @t
 * describes, appended to @plat->unc[]
 * Return: 0, or -1 with @err set at @file:@line (an unknown class or field, a range on a
 * field the line does not set or that excludes its nominal value, a fitted number without
 * fitted_to=, a range without why=, a field annotated twice).
 */
int il_plat_unc_line(struct il_platform *plat, const struct il_plat_unc_target *t,
		     const struct il_token *toks, int n, const char *file, int line,
		     struct il_error *err);

/** il_plat_unc_name - "active_power_uw", "cpu-sleep.power_uw" into @buf */
const char *il_plat_unc_name(const struct il_platform *plat, const struct il_plat_unc *u, char *buf,
			     size_t cap);
/** il_platform_param - the value of @u's parameter in @plat (ns for a time) */
double il_platform_param(const struct il_platform *plat, const struct il_plat_unc *u);
/** il_platform_param_set - set @u's parameter of @plat to @v (rounded; a time in ns) */
void il_platform_param_set(struct il_platform *plat, const struct il_plat_unc *u, double v);

#endif /* IDLELAB_UNCERTAIN_H */
