/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * verdict.h - `idlelab verdict`: is a governor better or worse than a baseline, on which
 * platforms, scenarios and metrics, and by more than the noise?
 *
 * DOC: verdict
 *
 *  1. A verdict is a grid of cases: platforms x scenarios x governors x runs (seeds). A
 *     (platform, scenario) whose scenario needs more CPUs than the platform has is not run;
 *     its cells are n/a with the reason (il_verdict_cpus_needed()).
 *  2. What a verdict keeps of one lab run is struct il_verdict_run: the score and the
 *     summary fields its metrics come from, nothing else, so a case file of `--emit-jobs` can
 *     carry it exactly (il_verdict_run_format() / il_verdict_run_parse(), %.17g).
 *  3. Metrics (il_verdict_metric_*): the scenario's score, idle_misses, idle_miss_ratio,
 *     aboves, belows, the wakeup latency p99, and energy per unit of work where the
 *     scenario's score measures work (the table il_verdict_work_at(): iops -> requests,
 *     us_per_loop -> loops ...), Joules alone where it does not. Every registered
 *     scenario has an entry in that table; none is defaulted.
 *  4. il_verdict_judge(): for every governor but the baseline, the family of its cells
 *     (platform x scenario x metric) is tested at once with the Westfall-Young step-down
 *     max-T permutation test (lib/stat/stat.h, il_stat_maxt()); a cell is `worse` or
 *     `better` when its adjusted p-value is at most alpha AND its mean moved by more than
 *     min_effect %, in the metric's bad or good direction. A metric identically zero on
 *     both sides is `same` without a test. With one run a side nothing is judged
 *     (IL_VERDICT_UNJUDGED): there is no spread to measure a difference against.
 *     The interval shown is that of il_stat_diff(): paired by seed, or Welch's when every
 *     governor ran its own seeds.
 *  5. il_verdict_order() sorts the cells worst first; il_verdict_summary() is the one-line
 *     summary per governor; il_verdict_table() builds the output table (text form with
 *     "+1.2 % [+0.8, +1.6]" columns, or the long machine form). Nothing here prints.
 */
#ifndef IDLELAB_VERDICT_H
#define IDLELAB_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "../output/output.h"
#include "../lab/battery.h"
#include "../lab/lab.h"
#include "../stat/stat.h"

#define IL_VERDICT_REASON_LEN 128
#define IL_VERDICT_DEFAULT_ALPHA 0.05
#define IL_VERDICT_DEFAULT_MIN_EFFECT 1.0 /* % */
#define IL_VERDICT_DEFAULT_ITER 5
/* 2 simulated seconds per run: the battery on all 8 platforms for 2 governors x 5 seeds in
 * well under a minute on 2 cores (docs/verdict.md "Run time": noise against time). */
#define IL_VERDICT_TIME_NS (2ULL * 1000000000ULL)
/* Relabellings of the permutation test: every one up to this many (C(10,5) = 252 for 5
 * seeds; C(16,8) = 12870 for 8), else this many random ones. */
#define IL_VERDICT_MAX_PERM 20000
#define IL_VERDICT_DRAWS 9999

/*
 * The verdict's metrics, by index: the scenario's score (IL_VM_SCORE), then the lines of the
 * metric catalogue marked IL_MT_VERDICT in their verdict_rank order (lib/metrics/metrics.h),
 * then energy (IL_VM_ENERGY, the last). A metric of the catalogue is judged without a line
 * here.
 */
enum il_vmetric { IL_VM_SCORE };
#define IL_VM_MAX 16 /* at most this many metrics (a bit each in il_verdict_opts.metrics) */
#define IL_VM_COUNT il_vmetric_count()
#define IL_VM_ENERGY (il_vmetric_count() - 1)
#define IL_VM_ALL (~0u) /* every metric: il_verdict_judge() reads the bits below IL_VM_COUNT */

/** il_vmetric_count - the number of the verdict's metrics, score and energy included */
int il_vmetric_count(void);
/** il_vmetric_def - the catalogue line of metric @m, NULL for the score and energy */
const struct il_metric_def *il_vmetric_def(int m);

/* What a verdict keeps of one lab run. */
struct il_verdict_run {
	double score;
	double field[IL_VM_MAX]; /* [m]: the summary field il_vmetric_def(m) reads */
	double joules;
	bool energy_known;
	u64 duration_ns;
};

/** il_verdict_run_of - the part of @res a verdict uses, from a run of @duration_ns */
void il_verdict_run_of(const struct il_lab_result *res, u64 duration_ns, struct il_verdict_run *r);

/* The fields of a case file: the score, each catalogue metric's, joules, energy_known,
 * duration_ns. */
#define IL_VERDICT_RUN_FIELDS (il_vmetric_count() + 2)
#define IL_VERDICT_RUN_FIELDS_MAX (IL_VM_MAX + 2)
/** il_verdict_run_field - the name of field @i of il_verdict_run_format() */
const char *il_verdict_run_field(int i);
/** il_verdict_run_format - field @i of @r as exact text (%.17g, integers) into @buf */
const char *il_verdict_run_format(const struct il_verdict_run *r, int i, char *buf, size_t cap);
/**
 * il_verdict_run_parse - @r from the @n fields @names / @texts (in any order; others ignored)
 * Return: 0, or -1 with the reason in @why (a field missing or not a number)
 */
int il_verdict_run_parse(int n, const char *const *names, const char *const *texts,
			 struct il_verdict_run *r, char *why, size_t cap);

/* ---- metrics (metrics.c) ------------------------------------------------------------------ */

enum il_work_kind {
	IL_WORK_NONE, /* the score does not measure work: energy is Joules per run */
	IL_WORK_RATE, /* the score is work per second */
	IL_WORK_TIME, /* the score is µs per work item (per ring trip, per transaction) */
};

/* How much work one run of a scenario did, from its score. */
struct il_verdict_work {
	const char *scenario;  /* il_scenario.name */
	enum il_work_kind kind;
	const char *unit;      /* the work item: "request"; NULL for IL_WORK_NONE */
	const char *per_param; /* a parameter the score is per (netrr: per pair), or NULL */
	const char *why;       /* why the score does or does not measure work */
};

int il_verdict_work_count(void);
const struct il_verdict_work *il_verdict_work_at(int i);
/** il_verdict_work_find - the entry of scenario @name, or NULL */
const struct il_verdict_work *il_verdict_work_find(const char *name);

/** il_vmetric_find - the metric called @name (score, idle_misses, ..., energy), or -1 */
int il_vmetric_find(const char *name);
/** il_vmetric_key - the name -m takes for @m ("score", "energy" ...) */
const char *il_vmetric_key(enum il_vmetric m);
/** il_vmetric_name - the column name of @m for @scn ("iops", "uj_per_request" ...) */
const char *il_vmetric_name(enum il_vmetric m, const struct il_scenario *scn, char *buf,
			    size_t cap);
/** il_vmetric_higher_better - whether a higher value of @m is better for @scn */
bool il_vmetric_higher_better(enum il_vmetric m, const struct il_scenario *scn);
/** il_vmetric_prec - the decimals a mean of @m is shown with */
int il_vmetric_prec(enum il_vmetric m, const struct il_scenario *scn);
/**
 * il_vmetric_value - the value of @m in run @r of @scn with @args
 * Return: 0, or -1 with *@why set (energy unknown on the platform, no work done)
 */
int il_vmetric_value(enum il_vmetric m, const struct il_scenario *scn,
		     const struct il_scn_args *args, const struct il_verdict_run *r, double *v,
		     const char **why);

/** il_verdict_cpus_needed - the CPUs a run of @scn with @common takes on @plat */
unsigned int il_verdict_cpus_needed(const struct il_scenario *scn,
				    const struct il_scn_common *common,
				    const struct il_platform *plat);

/* ---- the verdict (verdict.c) ----------------------------------------------------------------- */

enum il_verdict_class {
	IL_VERDICT_WORSE,
	IL_VERDICT_SAME,
	IL_VERDICT_BETTER,
	IL_VERDICT_UNJUDGED, /* one run a side: means only */
	IL_VERDICT_NA,       /* not run or no value: see why */
};

/** il_verdict_class_name - "worse", "same", "better", "-", "n/a" */
const char *il_verdict_class_name(enum il_verdict_class c);

struct il_verdict_cell {
	int p, s, g;          /* platform, scenario, governor (not the baseline) */
	enum il_vmetric metric;
	enum il_verdict_class cls;
	char why[IL_VERDICT_REASON_LEN]; /* n/a: the reason */
	double base_mean, new_mean;      /* NaN for n/a */
	struct il_stat_diff d;           /* the difference, new minus base */
	double t, p_adj;                 /* NaN when not tested */
	double badness;                  /* Δ % in the bad direction: the sort key */
};

struct il_verdict_opts {
	double alpha;
	double min_effect_pct;
	bool paired;          /* every governor ran the same seeds */
	unsigned int metrics; /* bit (1 << enum il_vmetric) per metric judged */
	u64 perm_seed;        /* of random relabellings, when there are too many to enumerate */
};

/* The grid and its results. il_verdict_init() allocates; the caller fills the names, the
 * scenarios, na[] and runs[]; il_verdict_judge() fills the cells. */
struct il_verdict {
	int nplat, nscn, ngov, base, n;
	const char *const *gov;     /* [ngov] */
	const char *const *plat;    /* [nplat] */
	const char *const *spec;    /* [nscn] as -s took them */
	const struct il_scenario *const *scn; /* [nscn] */
	const struct il_scn_args *args;       /* [nscn] */
	char (*na)[IL_VERDICT_REASON_LEN];    /* [nplat * nscn]: "" when the case runs */
	struct il_verdict_run *runs;          /* [il_verdict_index()] */
	int ncells;
	struct il_verdict_cell *cells;        /* in il_verdict_order() after judging */
	bool judged;                          /* n >= 2: the cells carry a verdict */
	bool paired;                          /* as judged */
	struct il_stat_perm perm;             /* of the last family tested */
};

/** il_verdict_init - allocate na[] and runs[] of @nplat x @nscn x @ngov x @n; Return: 0 or -1 */
int il_verdict_init(struct il_verdict *v, int nplat, int nscn, int ngov, int base, int n);
void il_verdict_free(struct il_verdict *v);
/** il_verdict_index - the index of run @it of governor @g on (@p, @s) in runs[] */
size_t il_verdict_index(const struct il_verdict *v, int p, int s, int g, int it);
/** il_verdict_judge - classify every cell; Return: 0, or -1 with errno (ENOMEM, EINVAL) */
int il_verdict_judge(struct il_verdict *v, const struct il_verdict_opts *o);

struct il_verdict_count {
	int worse, same, better, unjudged, na;
};

/** il_verdict_counts - how many cells of governor @g are in each class */
void il_verdict_counts(const struct il_verdict *v, int g, struct il_verdict_count *c);
/** il_verdict_cell_delta - "+11.0 % [+9.1, +12.9]" of @c into @buf */
const char *il_verdict_cell_delta(const struct il_verdict_cell *c, char *buf, size_t cap);
/**
 * il_verdict_summary - the one-line summary of governor @g against the baseline:
 * "menu-6.17 vs menu-6.16 on 8 platforms × 21 scenarios, 5 seeds: worse in 3 cells (...) ..."
 */
const char *il_verdict_summary(const struct il_verdict *v, int g, char *buf, size_t cap);

/* ---- output tables (table.c) ----------------------------------------------------------------- */

/**
 * il_verdict_table - the cells as one table "verdict_cells": @text true gives the columns a
 * reader wants (means, "Δ % [CI]", p, verdict), false the long machine form (every number
 * in its own column). Return: 0, or -1 (ENOMEM)
 */
int il_verdict_table(const struct il_verdict *v, bool text, struct il_table *t);
/** il_verdict_summary_table - "verdict_summary": one row per governor with its line and counts */
int il_verdict_summary_table(const struct il_verdict *v, struct il_table *t);

/* ---- running the grid (run.c) ---------------------------------------------------------------- */

struct il_verdict_plan {
	const struct il_platform *plat;       /* [v->nplat] */
	const struct il_preset *const *preset; /* [v->ngov] */
	const struct il_scn_common *common;   /* [v->nscn] */
	u64 duration_ns;
	u64 seed;
	bool paired;
	unsigned int threads;
	/* Told after each finished run how many of the grid's runs (n/a ones not counted) are
	 * done, for a progress display; may be NULL. */
	il_lab_progress_fn progress;
	void *progress_ctx;
};

/** il_verdict_seed - the seed of run @it of governor @g: shared when paired, else its own */
u64 il_verdict_seed(const struct il_verdict_plan *pl, const struct il_verdict *v, int g, int it);
/** il_verdict_mark_na - fill v->na[] for the cases whose scenario needs more CPUs */
void il_verdict_mark_na(struct il_verdict *v, const struct il_verdict_plan *pl);
/** il_verdict_spec - the lab spec of run @it of @g on (@p, @s) */
void il_verdict_spec(const struct il_verdict_plan *pl, const struct il_verdict *v, int p, int s,
		     int g, int it, struct il_lab_spec *spec);
/**
 * il_verdict_run - run every case that is not n/a on pl->threads threads into v->runs
 * @failed: out, the index of the first failed run (in il_verdict_index() order)
 * Return: 0, or -1 with errno of that run
 */
int il_verdict_run(struct il_verdict *v, const struct il_verdict_plan *pl, size_t *failed);

#endif /* IDLELAB_VERDICT_H */
