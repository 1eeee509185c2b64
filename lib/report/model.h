/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * model.h - the results behind `idlelab report`: the JSON files idlelab writes, what kind
 * each is, and the common model the charts are drawn from.
 *
 * DOC: report model
 *
 *  1. Every JSON file idlelab writes is an object of tables, {"title": [row, ...], ...},
 *     each row an object of columns (lib/output/json.c). il_rpt_detect() tells the kind
 *     from the tables, never from the file name:
 *       sweep     "sweep" rows with case, governor, platform (sweep -o, merge -o)
 *       replay    a "trace" table and "governors" rows with agree_pct (replay -f json)
 *       stats     a "trace" table and "states" rows with entries (stats -f json)
 *       run       a "summary" linux-pm table and a "run" key/value table (run -f json)
 *       battery   a "battery" key/value table and linux-pm tables (battery -o)
 *       compare   nothing but linux-pm tables (compare -f json)
 *       verdict   a "verdict" key/value table and "verdict_cells" rows (verdict -f json);
 *                 it makes no groups, only the heat maps of heatmap.c
 *       fidelity  a "fidelity" key/value table and "fidelity numbers" rows with seeds and
 *                 lab_mean (tests/fidelity/fidelity --json); no groups, only fidelity.c
 *     Any input with a "bound" table (replay; run/compare --bound) also gets the frontier
 *     chart of frontier.c.
 *     A "linux-pm table" has rows with device, gov, iter, the score, idles ... usage_STATE;
 *     the readers take its result columns by catalogue line (IL_RPT_PM_COL), never by a name
 *     of their own.
 *  2. il_model_build() turns them into "groups": one per table and device (a run: per
 *     platform, scenario, parameters and device, so `run -g menu` and `run -g teo` of the
 *     same case meet in one group; a sweep: per platform and parameter values; a replay:
 *     its governors; a stats file: its CPUs). A group has rows (a governor and
 *     iteration, or a CPU), the score column, its idle states, and per row the counts,
 *     energy, entries per state and, where the input has it, idle time per state.
 *  3. The chart builders (relative.c, miss.c, residency.c, energy.c, sweep.c, histogram.c)
 *     average a governor's iterations (ratios as sums over sums) and fill the structs of
 *     chart.h; they neither print nor draw.
 */
#ifndef IDLELAB_REPORT_MODEL_H
#define IDLELAB_REPORT_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "chart.h"
#include "../error.h"
#include "../metrics/metrics.h"

#ifdef HAVE_JANSSON
#include <jansson.h>

#define IL_RPT_MAX_STATES 64 /* idle states of one group; more are left out */

/*
 * The result columns the readers take, by catalogue line (lib/metrics): the name the
 * catalogue gives struct il_summary's field @f in a linux-pm row (run, compare, battery,
 * sweep; replay's governors table names its counts alike), and in the lab's "states" table.
 */
#define IL_RPT_PM_COL(f) (IL_METRIC_OF(f, IL_MT_PM)->name)
#define IL_RPT_STATE_COL(f) (IL_METRIC_OF(f, IL_MT_STATES)->name)

enum il_rpt_kind {
	IL_RPT_RUN,
	IL_RPT_COMPARE,
	IL_RPT_BATTERY,
	IL_RPT_SWEEP,
	IL_RPT_REPLAY,
	IL_RPT_STATS,
	IL_RPT_VERDICT,
	IL_RPT_FIDELITY,
};

const char *il_rpt_kind_name(enum il_rpt_kind kind);

struct il_rpt_input {
	char *name; /* as shown: the file's base name */
	enum il_rpt_kind kind;
	json_t *root;
};

/**
 * il_rpt_detect - the kind of the idlelab JSON @root
 * Return: 0, or -1 with the reason in @why
 */
int il_rpt_detect(const json_t *root, enum il_rpt_kind *kind, struct il_error *why);
/** il_rpt_is_summary - @t is the summary of a linux-pm table (lib/output/summary.h): not drawn */
bool il_rpt_is_summary(const json_t *t);
/** il_rpt_is_bound - table @key is the open-loop bound's or a gap to it: frontier.c draws it */
bool il_rpt_is_bound(const char *key);
/**
 * il_rpt_input_parse - parse @text (the contents of @name) and detect its kind
 * Return: 0, or -1 with the reason in @err (without the name)
 */
int il_rpt_input_parse(struct il_rpt_input *in, const char *name, const char *text,
		       struct il_error *err);
void il_rpt_input_free(struct il_rpt_input *in);

/* Where a group comes from, which decides the charts it is in. */
enum il_group_src {
	IL_GROUP_LAB,    /* run, compare, battery: every chart */
	IL_GROUP_SWEEP,  /* one point of a sweep: the relative table and the sweep charts */
	IL_GROUP_REPLAY, /* governors over a trace: misses, entries per state, energy */
	IL_GROUP_TRACE,  /* a stats file, rows are CPUs: misses, states, histograms */
};

struct il_pm_row {
	const char *gov; /* the governor as the input names it, or "cpu N" */
	double score, idles, misses, belows, aboves, joules, watts; /* NaN: unknown */
	double *usage;   /* [nstates] entries, NaN: unknown */
	double *idle_s;  /* [nstates] idle time in s, NaN: unknown */
	char *gov_owned; /* gov, when the row made its name ("cpu N") */
};

struct il_pm_group {
	char *key;      /* what makes rows meet in this group */
	char *title;
	char *score;    /* the score column, NULL: none */
	char *file;     /* the input it came from (the first one) */
	enum il_group_src src;
	int nstates;
	char **states;
	int nrows, cap;
	struct il_pm_row *rows;
};

struct il_model {
	int ngroups, cap;
	struct il_pm_group *groups;
	int ngov;       /* the governors of lab, sweep and replay rows, first seen first */
	char **gov;
	int nin;
	const struct il_rpt_input *in; /* the inputs, for sweeps and histograms */
};

/** il_model_build - the groups of @nin inputs; Return: 0, or -1 with @err set */
int il_model_build(struct il_model *m, const struct il_rpt_input *in, int nin,
		   struct il_error *err);
void il_model_free(struct il_model *m);
/** il_model_gov - the index of governor @name in m->gov, or -1 */
int il_model_gov(const struct il_model *m, const char *name);
/** il_model_gov_color - the colour of governor @name, the same in every chart */
const char *il_model_gov_color(const struct il_model *m, const char *name);

/* A governor's mean over the rows of a group (NaN when it has none with a value). */
struct il_gov_mean {
	int nrows;
	double score, idles, misses, belows, aboves, joules, watts;
};

/** il_group_mean - the mean of @gov's rows in @g; Return: the number of its rows */
int il_group_mean(const struct il_pm_group *g, const char *gov, struct il_gov_mean *mean);

/**
 * il_row_names - the row names (governors, CPUs) of the groups @groups[0..@ng): governors
 * in the model's order, then the others as they come; Return: their number (at most @cap)
 */
int il_row_names(const struct il_model *m, const int *groups, int ng, const char **names, int cap);
/** il_bars_series - name and colour the series of @b after @names */
int il_bars_series(struct il_bars *b, const struct il_model *m, const char *const *names);

#define IL_REPORT_MAX_SERIES 256

/* What a per-group bar chart takes from each group: whether it has a bar, and its values. */
struct il_group_bars_ops {
	bool (*want)(const struct il_model *m, const struct il_pm_group *g, const void *ctx);
	/* the @b->nseg values of row name @name in @g (left NaN when it has none) */
	void (*fill)(const struct il_pm_group *g, const char *name, double *vals, const void *ctx);
	const void *ctx;
};

/**
 * il_group_bars - @b with one category per group that @ops->want accepts (titled like the
 * group) and one series per row name of those groups, filled by @ops->fill;
 * Return: 0, 1 when no group has a bar, -1 (ENOMEM)
 */
int il_group_bars(const struct il_model *m, const struct il_group_bars_ops *ops, int nseg,
		  struct il_bars *b);

/**
 * il_score_better - +1 when a higher score @name is better (iops, *_per_s), -1 when a
 * lower one is (times: *_us, *_ns; *_pct), 0 when it is not known
 */
int il_score_better(const char *name);

/*
 * ---- chart builders -------------------------------------------------------------------------
 * Each returns 0 when it made its chart(s) (the caller frees them), 1 when the inputs have
 * nothing for it (nothing to free), -1 on failure (errno ENOMEM, or EINVAL for a bad option).
 */

/** il_pick_baseline - @want when some lab or sweep group has it, else NULL with @err set; with
 * @want NULL the first governor of the first lab or sweep group */
const char *il_pick_baseline(const struct il_model *m, const char *want, struct il_error *err);

/* The seeds' "relative to BASE" table: per score, a governor's average, max and min change. */
struct il_rel_summary {
	int nscore, ngov;
	char **score;
	char **gov;
	double *avg, *max, *min; /* [score][gov], % */
	int *n;                  /* [score][gov] groups counted */
};

int il_chart_relative(const struct il_model *m, const char *base, struct il_bars *b);
int il_rel_summary(const struct il_model *m, const char *base, struct il_rel_summary *r);
void il_rel_summary_free(struct il_rel_summary *r);
/** il_rel_change - (@v - @base) / |@base| in %, NaN when @base is 0 or either is NaN */
double il_rel_change(double v, double base);

int il_chart_miss(const struct il_model *m, struct il_bars *b);
/** il_chart_energy - joules (@watts false) or watts per governor and group */
int il_chart_energy(const struct il_model *m, bool watts, struct il_bars *b);
/**
 * il_chart_residency - stacked shares per state: of idle time (@by_time) or of idle
 * entries; one chart per distinct list of states. Return: 0 (*@n charts in *@out), or -1
 */
int il_chart_residency(const struct il_model *m, bool by_time, struct il_bars **out, int *n);

struct il_sweep_opts {
	const char *x;          /* the parameter on the x axis; NULL: the first numeric one */
	const char *const *metric; /* NULL-terminated; NULL: above_pct, below_pct */
};

/**
 * il_sweep_params - the swept parameters of sweep rows @rows (the columns between
 * "platform" and "iter"); Return: their number (at most @cap), names into @names
 */
int il_sweep_params(const json_t *rows, const char **names, int cap);
/**
 * il_chart_sweep - the curves of sweep input @in: per metric and per value of the other
 * parameter, one line per governor (and platform, when several)
 * Return: 0 (*@n charts in *@out), or -1 with @err set (errno EINVAL: a bad option)
 */
int il_chart_sweep(const struct il_model *m, const struct il_rpt_input *in,
		   const struct il_sweep_opts *o, struct il_lines **out, int *n,
		   struct il_error *err);
/** il_chart_histogram - the residency histogram of stats input @in (states summed over CPUs) */
int il_chart_histogram(const struct il_rpt_input *in, struct il_cols *c);

void il_charts_free_bars(struct il_bars *b, int n);
void il_charts_free_lines(struct il_lines *l, int n);

/* ---- small JSON helpers (model.c) ----------------------------------------------------------- */

/** il_json_num - @key of row @o as a number, NaN when absent, null or not a number */
double il_json_num(const json_t *o, const char *key);
/** il_json_str - @key of row @o as a string, NULL when absent or not a string */
const char *il_json_str(const json_t *o, const char *key);
/** il_json_kv - the value of "key" @key in the key/value table @t, as a string, or NULL */
const char *il_json_kv(const json_t *t, const char *key);
/** il_pm_score_col - the score column of linux-pm row @o: the one after "iter" (or "device") */
const char *il_pm_score_col(const json_t *o);

/**
 * il_heat_summary - the summary line of every governor of every verdict input among
 * @in[0..@nin), for the top of the page (heatmap.c). Return: the number of lines written
 */
int il_heat_summary(FILE *out, const struct il_rpt_input *in, int nin);

/**
 * il_heat_section - the heat maps of every verdict input among @in[0..@nin) (heatmap.c):
 * per governor judged and metric, platforms x scenarios coloured by the change of the mean;
 * Return: the number of maps written
 */
int il_heat_section(FILE *out, const struct il_rpt_input *in, int nin);

/**
 * il_fidelity_section - per fidelity input among @in[0..@nin) (fidelity.c): the lab against
 * the seeds on log axes, and the seeds' findings in the lab; Return: the charts written
 */
int il_fidelity_section(FILE *out, const struct il_rpt_input *in, int nin);
/** il_bound_has - @in has an open-loop "bound" table */
bool il_bound_has(const struct il_rpt_input *in);
/**
 * il_bound_section - per bound table of @in[0..@nin) (frontier.c): the frontier and the
 * governors of its gap table, coloured as in @m; Return: the charts written
 */
int il_bound_section(FILE *out, const struct il_rpt_input *in, int nin, const struct il_model *m);

#endif /* HAVE_JANSSON */
#endif /* IDLELAB_REPORT_MODEL_H */
