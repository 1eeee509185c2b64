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
 *  5. Ensembles (ensemble.c, robust.c): the numbers of a platform file and a scenario that
 *     carry a range (lib/platform/uncertain.h) span a model space; with ensemble N > 0 a
 *     (platform, scenario) pair may run, besides the nominal model (variant 0), N members
 *     of a Latin hypercube over it (variants 1..N; log-uniform in a ratio range) and the
 *     two ends of every range one parameter at a time (variants N+1..N+2K), on the same
 *     seeds (common random numbers). Which pairs do is a function of the runs already in
 *     (il_verdict_needs()): the hypercube for the pairs with a candidate cell under the
 *     nominal model (adjusted p <= max(alpha, IL_VERDICT_SCREEN_P) and beyond min_effect),
 *     the ends for the pairs with a called or sensitive cell after it. A cell is `better` or
 *     `worse` only when it passes the family-wise test under the nominal model AND moves
 *     beyond min_effect the same way in every variant it was run under; `sensitive` when
 *     its direction depends on the variant (il_verdict_robust_class()), with the
 *     parameters whose range ends alone change it; else `same`.
 *  6. il_verdict_order() sorts the cells worst first; il_verdict_summary() is the one-line
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
/* The flipping parameters of a cell: a name is never cut; what does not fit is counted. */
#define IL_VERDICT_FLIPS_LEN 512
/* A cell's note: "flips with " + the flips + the power-numbers remark. */
#define IL_VERDICT_NOTE_LEN (IL_VERDICT_FLIPS_LEN + 128)
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
/* Members of the Latin hypercube an ensemble verdict runs by default, and the most it takes. */
#define IL_VERDICT_DEFAULT_ENSEMBLE 6
#define IL_ENS_MAX_MEMBERS 64
#define IL_ENS_MAX_PARAMS 48
/* The screen: a cell whose nominal adjusted p-value is above this cannot be called anyway,
 * so it only spends ensemble runs on finding it sensitive. */
#define IL_VERDICT_SCREEN_P 0.2

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
	/* What the energy model multiplies (summed over the CPUs): time running work, and per
	 * state time and entries, so that a variant that changes power numbers only is computed
	 * from the nominal run (il_verdict_joules()). */
	u64 busy_ns;
	int nstates;
	u64 state_ns[CPUIDLE_STATE_MAX];
	u64 state_usage[CPUIDLE_STATE_MAX];
	/* The counts a review's mechanism sums over the nominal runs (lib/review/mechanism.c),
	 * which a case file does not carry. */
	u64 idles, aboves, belows, tick_stops;
};

/** il_verdict_run_of - the part of @res a verdict uses, from a run of @duration_ns */
void il_verdict_run_of(const struct il_lab_result *res, u64 duration_ns, struct il_verdict_run *r);

/** il_verdict_joules - the energy of run @r under @plat's power numbers (energy_known off when
 * @plat has none) into @out: a copy of @r with joules recomputed */
void il_verdict_joules(const struct il_verdict_run *r, const struct il_platform *plat,
		       struct il_verdict_run *out);

/* The fields of a case file: the score, each catalogue metric's, joules, energy_known,
 * duration_ns, busy_ns, state_ns, state_usage. */
#define IL_VERDICT_RUN_FIELDS (il_vmetric_count() + 5)
#define IL_VERDICT_RUN_FIELDS_MAX (IL_VM_MAX + 5)
/** il_verdict_run_field - the name of field @i of il_verdict_run_format() */
const char *il_verdict_run_field(int i);
/** il_verdict_run_format - field @i of @r as exact text (%.17g, integers) into @buf */
const char *il_verdict_run_format(const struct il_verdict_run *r, int i, char *buf, size_t cap);
/**
 * il_verdict_run_parse - @r from the @n fields @names / @texts (in any order; others ignored)
 * Return: 0, or -1 with @err set (a field missing or not a number; the file is the caller's)
 */
int il_verdict_run_parse(int n, const char *const *names, const char *const *texts,
			 struct il_verdict_run *r, struct il_error *err);

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
	IL_VERDICT_SENSITIVE, /* the direction depends on the model variant */
};

/** il_verdict_class_name - "worse", "same", "better", "-", "n/a", "sensitive" */
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
	/* The ensemble: the variants the class rests on (1: the nominal model alone), the
	 * extremes of their Δ %, and the interval printed: from the lowest lower to the highest
	 * upper bound of the variants' seed intervals (the nominal one's for nvar 1). */
	int nvar;
	double model_lo, model_hi;
	double lo, hi;
	char flips[IL_VERDICT_FLIPS_LEN]; /* "fio.lat_us, rk3588:WFI.power_uw" or "" */
};

struct il_verdict_opts {
	double alpha;
	double min_effect_pct;
	bool paired;          /* every governor ran the same seeds */
	unsigned int metrics; /* bit (1 << enum il_vmetric) per metric judged */
	u64 perm_seed;        /* of random relabellings, when there are too many to enumerate */
};

/* ---- ensembles (ensemble.c) ---------------------------------------------------------------- */

/* One uncertain number in play: a platform's "uncertain:" entry or a scenario parameter. */
struct il_ens_param {
	char name[96];       /* "rk3588:cpu-sleep.power_uw", "fio.lat_us" */
	int plat_unc;        /* index into plat->unc[], or -1 */
	int scn_param;       /* index into the scenario's parameters, or -1 */
	enum il_unc_class cls;
	struct il_unc_range range;
	double nominal, lo, hi; /* the value in play and its range's ends (clamped to the
				 * parameter's limits) */
	bool power;          /* enters the energy model only */
};

struct il_ens_space {
	int k;
	struct il_ens_param p[IL_ENS_MAX_PARAMS];
	bool power_assumed;  /* the platform's energy model rests on assumed numbers */
	u64 hash;            /* of the platform's and the scenario's names */
};

enum il_ens_kind { IL_ENS_NOMINAL, IL_ENS_LHS, IL_ENS_OAT_LO, IL_ENS_OAT_HI };

/**
 * il_ens_space_of - the uncertain numbers of @plat and of @scn with @args and @common (NULL:
 * none given; a tick_hz= there fixes the platform's hz); Return: 0 or -1
 */
int il_ens_space_of(const struct il_platform *plat, const struct il_scenario *scn,
		    const struct il_scn_args *args, const struct il_scn_common *common,
		    struct il_ens_space *sp, struct il_error *err);
/** il_ens_nvar - the variants of @sp under an ensemble of @ensemble (1: nominal only) */
int il_ens_nvar(const struct il_ens_space *sp, int ensemble);
/** il_ens_kind_of - what variant @var is; @param: the parameter of a one-at-a-time end */
enum il_ens_kind il_ens_kind_of(const struct il_ens_space *sp, int ensemble, int var, int *param);
/** il_ens_values - the values of @sp's parameters in variant @var (of the verdict @seed) */
void il_ens_values(const struct il_ens_space *sp, int ensemble, u64 seed, int var, double *vals);
/** il_ens_apply - set the values @vals on copies @plat (of the pair's platform) and @args */
void il_ens_apply(const struct il_ens_space *sp, const double *vals, struct il_platform *plat,
		  struct il_scn_args *args);

/**
 * il_ens_declares - whether the platform and scenario of @spec declare an uncertain number
 * with its arguments (a background switched off takes its rate out of play);
 * Return: 1, 0, or -1 with @err set
 */
int il_ens_declares(const struct il_lab_spec *spec, struct il_error *err);

/* The rows of compare, battery and sweep: --seed, --iter (seeds) and --ensemble (0: none). */
struct il_ens_rows {
	u64 seed;
	int iter, ensemble;
};

/**
 * il_ens_row_spec - row @it (0 .. iter x ensemble - 1) of compare, battery and sweep: set
 * @spec (the nominal one) to run it. Without an ensemble, seed + @it. With one, member
 * @it % E of the Latin hypercube over the uncertain numbers of its platform and scenario
 * (seeded by @rows->seed, as a verdict's; the variant's platform goes into @plat_buf, which
 * spec->plat then points to) on seed + @it / E, the same seeds under every member (common
 * random numbers), except that a member which simulates like an earlier one (the same
 * numbers but power: all of them when nothing is uncertain) would run that member's very
 * runs again, counted twice by the summaries: the r-th such member runs seed + iter x r +
 * @it / E instead. Return: 0; 1 when nothing is uncertain (the nominal model, @plat_buf
 * unused); -1 with @err set
 */
int il_ens_row_spec(struct il_lab_spec *spec, const struct il_ens_rows *rows, int it,
		    struct il_platform *plat_buf, struct il_error *err);

/* ---- robust calls (robust.c): for the verdict and for tests/fidelity ------------------------ */

/*
 * One cell's values: @nvar model variants (variant 0 the nominal model), @n seeds each,
 * variant v's seed i at [v * n + i] of @base and @new_ (the same seeds in every variant:
 * common random numbers). @p_adj is the cell's adjusted p-value of the family-wise test
 * under the nominal model (il_verdict_judge() runs it over all the cells of a governor).
 */
struct il_robust_in {
	int nvar, n;
	const double *base, *new_;
	bool paired;
	bool higher_better;
	double min_effect_pct;
	double alpha, p_adj;
};

struct il_robust_out {
	enum il_verdict_class cls;  /* worse, same, better or sensitive */
	struct il_stat_diff nominal; /* variant 0's difference */
	double model_lo, model_hi;  /* the variants' lowest and highest Δ % */
	double lo, hi;              /* the envelope of the variants' seed intervals, Δ % */
	int dir[IL_ENS_MAX_MEMBERS + 2 * IL_ENS_MAX_PARAMS + 1]; /* per variant, see below */
};

/**
 * il_verdict_direction - which way @new_ moved from @base: +1 in the metric's good
 * direction beyond @min_effect_pct % (any change from a zero mean counts), -1 in its bad
 * one, 0 within; the difference into @d
 * Return: 0, or -1 with errno (EINVAL)
 */
int il_verdict_direction(const double *base, const double *new_, int n, bool paired,
			 bool higher_better, double min_effect_pct, int *dir,
			 struct il_stat_diff *d);
/**
 * il_verdict_robust_class - the class of a cell whose variants moved @dir[0..@nvar)
 * (dir[0]: the nominal model), @passes: its nominal adjusted p-value is at most alpha.
 * `sensitive` when one variant moved it the good way and another the bad way, or when it
 * passes and some variant does not move it as the nominal model does; `better`/`worse`
 * when it passes and every variant moves it the same way; else `same`.
 */
enum il_verdict_class il_verdict_robust_class(const int *dir, int nvar, bool passes);
/**
 * il_verdict_classify_cell - one cell from its per-seed, per-variant values (@in) into
 * @out: the class, the nominal difference, the model spread and the envelope
 * Return: 0, or -1 with errno (EINVAL: a bad count, a variant whose values cannot be
 * compared)
 */
int il_verdict_classify_cell(const struct il_robust_in *in, struct il_robust_out *out);
/**
 * il_verdict_flips - the parameters of @sp whose range ends alone move a cell otherwise than
 * its nominal direction @nominal, into @buf ("fio.lat_us, rk3588:WFI.power_uw", "" when
 * none): @ends holds the direction under each parameter's low and high end, in order
 * (2 x sp->k). A name is never cut: when the list would not fit, it ends with "and N more".
 */
void il_verdict_flips(char *buf, size_t cap, const struct il_ens_space *sp, const int *ends,
		      int nominal);

/* The grid and its results. il_verdict_init() allocates; the caller fills the names, the
 * scenarios, na[] and runs[]; il_verdict_judge() fills the cells. */
/*
 * How the front end names the settings the verdict's text points to (the library names no
 * command-line flag): each NULL leaves its pointer out of the text.
 */
struct il_verdict_words {
	const char *nominal;   /* the setting of the nominal model alone ("--ensemble 0") */
	const char *more_iter; /* enough seeds a side to judge a difference ("--iter 5") */
};

struct il_verdict {
	const struct il_verdict_words *words; /* the caller's, NULL: none (after init) */
	int nplat, nscn, ngov, base, n;
	const char *const *gov;     /* [ngov] */
	const char *const *plat;    /* [nplat] */
	const char *const *spec;    /* [nscn] as -s took them */
	const struct il_scenario *const *scn; /* [nscn] */
	const struct il_scn_args *args;       /* [nscn] */
	const struct il_scn_common *common;   /* [nscn]; NULL: none given (il_ens_space_of()) */
	char (*na)[IL_VERDICT_REASON_LEN];    /* [nplat * nscn]: "" when the case runs */
	struct il_verdict_run *runs;          /* [il_verdict_index()] */
	int ncells;
	struct il_verdict_cell *cells;        /* in il_verdict_order() after judging */
	bool judged;                          /* n >= 2: the cells carry a verdict */
	bool paired;                          /* as judged */
	struct il_stat_perm perm;             /* of the last family tested */
	/* The ensemble (il_verdict_ensemble_init()): 0 members is the nominal model alone. */
	int ensemble;
	u64 ens_seed;
	int nvar_max;                         /* variant slots per pair in runs[] */
	struct il_ens_space *space;           /* [nplat * nscn], NULL without an ensemble */
	bool *power_assumed;                  /* [nplat]: its energy model rests on assumptions */
	const struct il_platform *models;     /* [nplat]: the platforms the variants change */
	int ens_runs;                         /* pairs that ran the hypercube (after judging) */
	int oat_runs;                         /* pairs that ran the range ends */
	size_t runs_done;                     /* lab runs il_verdict_run() made */
	size_t sims_done; /* the simulations they took (variants of power numbers share one) */
};

/** il_verdict_init - allocate na[] and runs[] of @nplat x @nscn x @ngov x @n; Return: 0 or -1 */
int il_verdict_init(struct il_verdict *v, int nplat, int nscn, int ngov, int base, int n);
void il_verdict_free(struct il_verdict *v);
/** il_verdict_index - the index of run @it of governor @g on (@p, @s) in runs[] */
size_t il_verdict_index(const struct il_verdict *v, int p, int s, int g, int it);
/** il_verdict_vindex - the same under model variant @var (0: the nominal model) */
size_t il_verdict_vindex(const struct il_verdict *v, int p, int s, int var, int g, int it);
/**
 * il_verdict_power_only - whether variant @var of (@p, @s) changes power numbers only: every
 * other uncertain number of it is at its nominal value (one end of a power number's range, an
 * end at its parameter's nominal value, a hypercube member of a pair whose other numbers are
 * all power numbers or on a set's nominal value): its simulation is the nominal one (nothing
 * but the energy reads power)
 */
bool il_verdict_power_only(const struct il_verdict *v, int p, int s, int var);
/**
 * il_verdict_derived - whether variant @var of (@p, @s) is power only on a platform of one
 * state table and no power domains: its runs are the nominal runs with their energy
 * recomputed from the summed counters (il_verdict_joules()), not lab runs. (With several
 * tables or domains the power-only variants of a seed are priced in one lab run: run.c.)
 */
bool il_verdict_derived(const struct il_verdict *v, int p, int s, int var);
/** il_verdict_nvar - the variants pair (@p, @s) has (1 without an ensemble) */
int il_verdict_nvar(const struct il_verdict *v, int p, int s);
/**
 * il_verdict_ensemble_init - give @v an ensemble of @ensemble members over the uncertain
 * numbers of @plat[p] and v->scn[s] (v->scn, v->args set): the spaces, and runs[] grown to
 * hold every variant. Return: 0, or -1 with @err set (a malformed scenario annotation) or
 * errno ENOMEM
 */
int il_verdict_ensemble_init(struct il_verdict *v, const struct il_platform *plat, int ensemble,
			     u64 seed, struct il_error *err);
/**
 * il_verdict_needs - which pairs need the runs of ensemble stage @stage (1: the hypercube,
 * 2: the range ends), judged from the runs before it; @need: [nplat * nscn]
 * Return: 0, or -1 with errno
 */
int il_verdict_needs(struct il_verdict *v, const struct il_verdict_opts *o, int stage, bool *need);
/** il_verdict_judge - classify every cell; Return: 0, or -1 with errno (ENOMEM, EINVAL) */
int il_verdict_judge(struct il_verdict *v, const struct il_verdict_opts *o);

struct il_verdict_count {
	int worse, same, better, unjudged, na, sensitive;
};

/** il_verdict_counts - how many cells of governor @g are in each class */
void il_verdict_counts(const struct il_verdict *v, int g, struct il_verdict_count *c);
/**
 * il_verdict_cell_note - the note of cell @c: the n/a reason, the parameters that flip it,
 * and for an energy cell on assumed power numbers that it rests on them
 */
const char *il_verdict_cell_note(const struct il_verdict *v, const struct il_verdict_cell *c,
				 char *buf, size_t cap);
/** il_verdict_cell_delta - "+11.0 % [+9.1, +12.9]" of @c into @buf (the printed interval) */
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
/* What a verdict was run with, besides the grid (the "verdict" settings table). */
struct il_verdict_settings {
	u64 first_seed;
	bool unpaired;
	u64 time_ns;
	double alpha, min_effect_pct;
};

/**
 * il_verdict_settings_table - "verdict": key/value rows of what was run and how it was
 * judged (baseline, governors, platforms, scenarios, seeds, design, time, alpha, minimum
 * effect, the test, the ensemble, the energy model). Return: 0, or -1 (ENOMEM)
 */
int il_verdict_settings_table(const struct il_verdict *v, const struct il_verdict_settings *st,
			      struct il_table *t);
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

/* Where case @k (an index into runs[]) sits in the grid. */
struct il_verdict_pos {
	int p, s, var, g, it;
};

/** il_verdict_pos_of - the coordinates of case @k */
struct il_verdict_pos il_verdict_pos_of(const struct il_verdict *v, size_t k);
/** il_verdict_cases - the size of the grid runs[] spans (n/a cases included) */
size_t il_verdict_cases(const struct il_verdict *v);
/** il_verdict_case_na - whether case @k is not run (its pair is n/a or has no such variant) */
bool il_verdict_case_na(const struct il_verdict *v, size_t k);

/** il_verdict_seed - the seed of run @it of governor @g: shared when paired, else its own */
u64 il_verdict_seed(const struct il_verdict_plan *pl, const struct il_verdict *v, int g, int it);
/** il_verdict_mark_na - fill v->na[] for the cases whose scenario needs more CPUs */
void il_verdict_mark_na(struct il_verdict *v, const struct il_verdict_plan *pl);
/** il_verdict_spec - the lab spec of run @it of @g on (@p, @s) */
void il_verdict_spec(const struct il_verdict_plan *pl, const struct il_verdict *v, int p, int s,
		     int g, int it, struct il_lab_spec *spec);
/** il_verdict_vspec - the same under model variant @var; @plat_buf: room for the variant's
 * platform (the spec points into it) */
void il_verdict_vspec(const struct il_verdict_plan *pl, const struct il_verdict *v, int p, int s,
		      int var, int g, int it, struct il_lab_spec *spec,
		      struct il_platform *plat_buf);
/**
 * il_verdict_run - run every case that is not n/a on pl->threads threads into v->runs; with
 * an ensemble, then the variants il_verdict_needs() asks for, judged with @o
 * @failed: out, the index of the first failed run (in il_verdict_index() order)
 * Return: 0, or -1 with errno of that run
 */
int il_verdict_run(struct il_verdict *v, const struct il_verdict_plan *pl,
		   const struct il_verdict_opts *o, size_t *failed);

#endif /* IDLELAB_VERDICT_H */
