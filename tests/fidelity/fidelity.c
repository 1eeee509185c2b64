// SPDX-License-Identifier: GPL-2.0-only
/*
 * fidelity.c - the fidelity scoreboard (`make fidelity`): every number of the seeds beside
 * the lab's, and every comparison the seeds make, on several lab seeds.
 *
 * Usage: fidelity [--load-only] [--check BASELINE] [--scan] [--seeds N] [--first-seed S]
 *                 [--paired] [-j N] [--ensemble N]
 *                 [--rows PREFIX,...] [--json FILE] [--markdown FILE]
 *                 [--progress | --no-progress] SEEDS.TSV
 *
 * The lab's runs show a progress line on stderr when it is a terminal (src/progress.h, as
 * idlelab's long commands do; --progress forces it, --no-progress never shows it).
 *
 *  1. Read tests/fidelity/seeds.tsv (seeds.h: one line per number the seeds report, with
 *     the platform, scenario and preset that model it). --load-only stops here.
 *  2. Group the lines into numbers: one per (row group, seeds' label, metric), the mean of
 *     the seeds' iterations. Counts become rates (per second of the seeds' run).
 *  3. Run the lab for every (platform, scenario, preset, run length) the numbers need, on
 *     --seeds seeds (default 5), on -j threads.
 *  4. Per number: the seeds' value, the lab's mean with a 95 % Student-t interval over the
 *     seeds, the ratio lab / seeds, and whether it is within +-25 %; the seeds' zeros are
 *     matched or off (zero_matched()).
 *  5. Per comparison (every pair of presets inside a row group, per metric): the seeds'
 *     class (seeds_class(): a difference or none by Welch's t-test over their iterations,
 *     untested between close single figures), the lab's call (lab_calls(): the verdict's
 *     rule over the lab seeds, a step-down max-T over the whole scoreboard; --paired: over
 *     the paired t and the seed pairs' sign flips, --seeds 6 or more), merged when the two presets
 *     decide identically on the lab's runs (merge_weights()); the lab's robust call
 *     (robust_calls(): every nominal call re-judged under the verdict's model variants,
 *     --ensemble N members of its Latin hypercube, default 6, and the ranges' ends; 0: no
 *     robust call); both scored: sign right, reversed, sensitive, missed, false calls,
 *     effect size (score_cmp(), score_robust()). The goals score the robust call.
 *  6. --scan: what misses, from a one-at-a-time scan over the scenario parameters of
 *     scan_params[] (docs/lab.md, "The fidelity scoreboard"), and Doug's 6.17 finding at
 *     the ends of overhead_ns's range.
 *  7. Per family and overall, the goals of issue 23 and Doug Smythies' 6.17 ping-pong finding,
 *     and one fidelity_* line per figure; --check BASELINE exits 3 when a figure is worse
 *     than the committed one (make fidelity-check, run by make check).
 *  8. --json FILE also writes the numbers and the comparisons as JSON tables (lib/output),
 *     which `idlelab report` draws (docs/report.md); --rows keeps only the row groups that
 *     start with one of the prefixes (a short run; Doug's goal only when its group is kept).
 *     --markdown FILE writes the findings section of docs/lab.md (`make fidelity-doc`).
 *
 * The Student-t quantiles come from lib/stat (r-mathlib's qt()).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "governor.h"
#include "output/output.h"
#include "platform/platform.h"
#include "lab/battery.h"
#include "lab/lab.h"
#include "robust_call.h"
#include "seeds.h"
#include "stat/stat.h"
#include "verdict/verdict.h"
#include "../../src/progress.h"
#include "util/array.h"

#define MAX_SEEDS 64
#define SINGLE_CLAIM 0.05   /* two single figures: a claim from 5 % apart */
/*
 * Two single shares in percent (Aboorva's tables): a claim from 0.5 points apart as well.
 * His menu "No Patch" and "Patch" columns differ by up to 0.54 points (pipe, 120 us) where
 * he reports that the series does not change the behaviour: that is the tables' noise.
 */
#define SHARE_CLAIM_POINTS 0.5
#define WITHIN 0.25

/* ---- statistics (lib/stat) ---------------------------------------------------------- */

/* The half width of the 95 % Student-t interval of the mean of @n values of sd @sd. */
static double t95(double sd, int n)
{
	if (n < 2)
		return NAN;
	return il_stat_t_quantile(0.975, n - 1) * sd / sqrt(n);
}

static void mean_sd(const double *v, int n, double *mean, double *sd)
{
	double m = 0, s = 0;

	for (int i = 0; i < n; i++)
		m += v[i];
	m = n ? m / n : NAN;
	for (int i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	*mean = m;
	*sd = n > 1 ? sqrt(s / (n - 1)) : 0;
}

/* ---- numbers ------------------------------------------------------------------------- */

struct number {
	const struct fid_row *row;  /* the first line of the number */
	double seeds[64];           /* the seeds' iterations (rates when seed_s is given) */
	int nseeds_iter;
	double seeds_mean, seeds_sd;
	int run, base_run;          /* lab runs, -1: none */
	const struct number *ref;   /* throughput_rel: the group's reference */
	double lab[MAX_SEEDS];
	double lab_mean, lab_ci;
	bool modeled;               /* the lab computes it */
};

struct run_key {
	const char *platform, *scenario, *gov;
	double lab_s;
};

/*
 * The first lab seed (--first-seed; the runs use it and the next nseeds - 1): another set is
 * another draw of the same model, which tells a figure's move from the scoreboard's noise.
 */
static unsigned int first_seed = 1;

/* --paired: the lab's test pairs a comparison's two sides by seed (IL_STAT_PAIRED, sign flips). */
static bool paired_test;

/* The seed of the @s-th lab run of every setting (0-based), as the output names it too. */
static unsigned int lab_seed(int s)
{
	return first_seed + (unsigned int)s;
}

struct lab {
	struct run_key *keys;
	size_t nkeys, cap;
	struct il_platform *plat;   /* per key */
	struct il_lab_spec *specs;  /* nkeys * nseeds */
	struct il_lab_result *res;
	int nseeds;
};

static int run_find(struct lab *lab, const char *platform, const char *scenario, const char *gov,
		    double lab_s)
{
	for (size_t i = 0; i < lab->nkeys; i++) {
		const struct run_key *k = &lab->keys[i];

		if (!strcmp(k->platform, platform) && !strcmp(k->scenario, scenario) &&
		    !strcmp(k->gov, gov) && k->lab_s == lab_s)
			return (int)i;
	}
	if (lab->nkeys == lab->cap) {
		size_t nc = lab->cap ? 2 * lab->cap : 64;
		struct run_key *nk = realloc(lab->keys, nc * sizeof(*nk));

		if (!nk)
			return -1;
		lab->keys = nk;
		lab->cap = nc;
	}
	lab->keys[lab->nkeys] = (struct run_key){ platform, scenario, gov, lab_s };
	return (int)lab->nkeys++;
}

static const struct il_lab_result *run_res(const struct lab *lab, int run, int seed)
{
	return &lab->res[(size_t)run * (size_t)lab->nseeds + (size_t)seed];
}

static bool same_number(const struct fid_row *a, const struct fid_row *b)
{
	return !strcmp(a->group, b->group) && !strcmp(a->label, b->label) &&
	       !strcmp(a->metric, b->metric) && !strcmp(a->gov, b->gov);
}

static bool is_count(int kind)
{
	return kind == FID_IDLES || kind == FID_IDLE_MISSES || kind == FID_COL_BELOWS ||
	       kind == FID_COL_ABOVES || kind == FID_JOULES || kind == FID_USAGE_STATE ||
	       kind == FID_PN_COUNT_STATE || kind == FID_PN_S_STATE;
}

static size_t build_numbers(const struct fid_table *t, struct number *num)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++) {
		const struct fid_row *r = &t->rows[i];
		struct number *x = NULL;
		double v = r->value;

		for (size_t j = 0; j < n && !x; j++)
			if (same_number(num[j].row, r))
				x = &num[j];
		if (!x) {
			x = &num[n++];
			memset(x, 0, sizeof(*x));
			x->row = r;
			x->run = x->base_run = -1;
		}
		if (is_count(r->kind) && r->seed_s > 0)
			v /= r->seed_s;
		if (x->nseeds_iter < 64)
			x->seeds[x->nseeds_iter++] = v;
	}
	for (size_t j = 0; j < n; j++)
		mean_sd(num[j].seeds, num[j].nseeds_iter, &num[j].seeds_mean, &num[j].seeds_sd);
	return n;
}

/* The throughput_rel reference of a group: its number of value 1. */
static const struct number *find_ref(const struct number *num, size_t n, const struct number *x)
{
	for (size_t j = 0; j < n; j++)
		if (num[j].row->kind == FID_THROUGHPUT_REL && num[j].seeds_mean == 1.0 &&
		    !strcmp(num[j].row->group, x->row->group))
			return &num[j];
	return NULL;
}

/* Numbers the lab has no value for: no preset, a model input, a sweep the seeds do not give. */
static bool lab_computes(const struct fid_row *r)
{
	return strcmp(r->gov, "-") && r->kind != FID_TIMER_FALL_PCT &&
	       r->kind != FID_SWEEP_AVG_PCT && r->kind != FID_SWEEP_MAX_PCT &&
	       r->kind != FID_SWEEP_MIN_PCT;
}

static int plan_runs(struct lab *lab, struct number *num, size_t n)
{
	for (size_t j = 0; j < n; j++) {
		const struct fid_row *r = num[j].row;

		if (!lab_computes(r))
			continue;
		num[j].run = run_find(lab, r->platform, r->scenario, r->gov, r->lab_s);
		if (r->base[0])
			num[j].base_run = run_find(lab, r->platform, r->base, r->gov, r->lab_s);
		if (r->kind == FID_THROUGHPUT_REL) {
			num[j].ref = find_ref(num, n, &num[j]);
			if (!num[j].ref)
				continue;
		}
		if (num[j].run < 0 || (r->base[0] && num[j].base_run < 0))
			return -1;
		num[j].modeled = true;
	}
	return 0;
}

/* --progress, --no-progress or neither (a line when stderr is a terminal). */
static enum progress_mode progress_mode = PROGRESS_AUTO;

/* il_lab_run_all() of @n runs, with a progress line named @what (see progress_mode). */
static int run_all(const struct il_lab_spec *specs, struct il_lab_result *res, size_t n,
		   unsigned int threads, const char *what)
{
	struct progress pr;
	int rc;

	progress_begin(&pr, progress_mode, what, PROGRESS_COUNT, "runs", n);
	rc = il_lab_run_all_progress(specs, res, n, threads, NULL, progress_lab_cb, &pr);
	progress_end(&pr);
	return rc;
}

static int run_lab(struct lab *lab, unsigned int threads)
{
	size_t n = lab->nkeys * (size_t)lab->nseeds;
	struct il_error err;

	lab->plat = calloc(lab->nkeys ? lab->nkeys : 1, sizeof(*lab->plat));
	lab->specs = calloc(n ? n : 1, sizeof(*lab->specs));
	lab->res = calloc(n ? n : 1, sizeof(*lab->res));
	if (!lab->plat || !lab->specs || !lab->res)
		return -1;
	for (size_t k = 0; k < lab->nkeys; k++) {
		const struct run_key *key = &lab->keys[k];

		if (il_platform_load(key->platform, &lab->plat[k], &err)) {
			fprintf(stderr, "fidelity: %s\n", err.msg);
			return -1;
		}
		for (int s = 0; s < lab->nseeds; s++) {
			struct il_lab_spec *sp = &lab->specs[k * (size_t)lab->nseeds + (size_t)s];

			sp->plat = &lab->plat[k];
			sp->preset = il_preset_find(key->gov);
			if (!sp->preset ||
			    il_scn_parse(key->scenario, &sp->scn, &sp->args, &sp->common, &err)) {
				fprintf(stderr, "fidelity: cannot set up %s %s\n", key->gov,
					key->scenario);
				return -1;
			}
			sp->duration_ns = (u64)(key->lab_s * 1e9);
			sp->seed = lab_seed(s);
		}
	}
	if (run_all(lab->specs, lab->res, n, threads, "fidelity: lab runs")) {
		perror("fidelity: a lab run failed");
		return -1;
	}
	return 0;
}

/* ---- lab values ---------------------------------------------------------------------- */

static double per_s(double v, const struct fid_row *r, const struct il_lab_result *res)
{
	return r->seed_s > 0 ? v / ((double)res->m.duration_ns / 1e9) : v;
}

static double idle_time_ns(const struct il_lab_result *res)
{
	double t = 0;

	for (int i = 0; i < res->nstates; i++)
		t += (double)res->sum.time_ns[i];
	return t;
}

static double wakeup_rate(const struct il_lab_result *res)
{
	double w = 0;

	for (unsigned int c = 0; c < res->ncpus; c++)
		w += (double)res->m.cpu[c].wakeups;
	return w / ((double)res->m.duration_ns / 1e9);
}

/*
 * The CPU whose counters the above_pct and below_pct rows read: cpuidle_wakeup snapshots only
 * its wakee's sysfs files (its -w), and lib/scenario/wakeup.c pins the wakee to CPU 1. The
 * other CPUs' idle periods (the waker's watchdog, a background's) are not in the seeds' figure.
 */
#define FID_PCT_CPU 1

/* 100 * @count of the rows' CPU over its idle periods; the whole machine's on one CPU. */
static double cpu_pct(const struct il_lab_result *res, bool aboves)
{
	struct il_summary one;

	if (res->ncpus <= FID_PCT_CPU)
		one = res->sum;
	else
		il_metrics_summarize_cpu(&res->m, FID_PCT_CPU, &one);
	if (!one.idles)
		return 0;
	return 100.0 * (double)(aboves ? one.aboves : one.belows) / (double)one.idles;
}

static double state_value(const struct fid_row *r, const struct il_lab_result *res)
{
	const struct il_summary *s = &res->sum;

	if (r->state >= res->nstates)
		return NAN;
	if (r->kind == FID_USAGE_STATE)
		return per_s((double)s->usage[r->state], r, res);
	if (r->kind == FID_PN_COUNT_STATE)
		return per_s((double)s->state_nightmares[r->state], r, res);
	return per_s((double)s->state_nightmare_ns[r->state] / 1e9, r, res);
}

static double lab_value(const struct lab *lab, const struct number *x, int seed)
{
	const struct fid_row *r = x->row;
	const struct il_lab_result *res = run_res(lab, x->run, seed), *base;
	const struct il_summary *s = &res->sum;

	switch (r->kind) {
	case FID_SCORE:
		return res->score;
	case FID_IDLES:
		return per_s((double)s->idles, r, res);
	case FID_IDLE_MISSES:
		return per_s((double)s->idle_misses, r, res);
	case FID_COL_BELOWS:
		return per_s((double)s->aboves, r, res);
	case FID_COL_ABOVES:
		return per_s((double)s->belows, r, res);
	case FID_JOULES:
		if (!s->energy_known)
			return NAN;
		return r->seed_s > 0 ? s->watts : s->joules;
	case FID_WATTS:
		return s->energy_known ? s->watts : NAN;
	case FID_ABOVE_PCT:
		return cpu_pct(res, true);
	case FID_BELOW_PCT:
		return cpu_pct(res, false);
	case FID_POLL_PCT:
		if (idle_time_ns(res) <= 0)
			return 0;
		return 100.0 * (double)s->time_ns[0] / idle_time_ns(res);
	case FID_USAGE_STATE:
	case FID_PN_COUNT_STATE:
	case FID_PN_S_STATE:
		return state_value(r, res);
	case FID_THROUGHPUT_REL: {
		const struct il_lab_result *ref = run_res(lab, x->ref->run, seed);
		const struct il_scenario *scn = lab->specs[(size_t)x->run * (size_t)lab->nseeds].scn;
		bool higher = scn->higher_is_better;

		if (res->score <= 0 || ref->score <= 0)
			return NAN;
		return higher ? res->score / ref->score : ref->score / res->score;
	}
	case FID_IRQ_FALL_PCT:
		base = run_res(lab, x->base_run, seed);
		return 100.0 * (1.0 - wakeup_rate(res) / wakeup_rate(base));
	case FID_JOPS_FALL_PCT:
		base = run_res(lab, x->base_run, seed);
		return res->score > 0 ? 100.0 * (1.0 - base->score / res->score) : NAN;
	default:
		return NAN;
	}
}

static void compute_lab(const struct lab *lab, struct number *num, size_t n)
{
	for (size_t j = 0; j < n; j++) {
		double sd;

		if (!num[j].modeled)
			continue;
		for (int s = 0; s < lab->nseeds; s++)
			num[j].lab[s] = lab_value(lab, &num[j], s);
		mean_sd(num[j].lab, lab->nseeds, &num[j].lab_mean, &sd);
		num[j].lab_ci = t95(sd, lab->nseeds);
		if (isnan(num[j].lab_mean))
			num[j].modeled = false;
	}
}

/* ---- the lab's call and the seeds' class of a comparison -------------------------------- */

/*
 * A comparison: numbers a and b of one row group and metric, two presets. seeds: the seeds'
 * class (SEEDS_HIGHER/LOWER: a difference by their own noise, SEEDS_SAME: their iterations
 * show none, SEEDS_UNTESTED: single figures closer than the single-figure threshold, no noise
 * to tell). lab: the lab's call (+1 b above a, -1 below, 0 none), from lab_calls().
 */
enum seeds_class {
	SEEDS_SAME = FID_SEEDS_SAME,
	SEEDS_HIGHER = FID_SEEDS_HIGHER,
	SEEDS_LOWER = FID_SEEDS_LOWER,
	SEEDS_UNTESTED = FID_SEEDS_UNTESTED,
};

struct cmp {
	const struct number *a, *b;
	int seeds;          /* enum seeds_class */
	int lab_dir;        /* the direction of the lab's means */
	int holds;          /* lab seeds on which b - a has the seeds' sign */
	double t, p_adj;    /* the lab's Welch t and family-wise adjusted p over its seeds */
	double rel;         /* lab: mean(b) against mean(a), % */
	int lab;            /* the lab's nominal call */
	int robust;         /* the lab's robust call (ens_classify()): +1, -1, 0 */
	enum fid_robust kind; /* none, a robust call, or sensitive */
	int nvar;           /* the model variants the robust call rests on (1: nominal) */
	bool nominal_only;  /* called over runs of several model spaces: not re-judged */
	double weight;      /* 1 / the comparisons merged with it (identical lab decisions) */
	const char *why;    /* what misses, from the scan (NULL: nothing missed or not scanned) */
	/* a sensitive call: what turns it (ens_flips()); "" for any other */
	char flips_why[IL_VERDICT_FLIPS_LEN + 96];
};

#define LAB_ALPHA IL_VERDICT_DEFAULT_ALPHA           /* the verdict's defaults */
#define LAB_MIN_EFFECT IL_VERDICT_DEFAULT_MIN_EFFECT  /* % */

/* The lab's effect and Welch t for one comparison (the verdict's statistic). */
static void lab_test(struct cmp *c, int nseeds)
{
	struct il_stat_diff d;

	c->rel = 0;
	c->t = 0;
	if (il_stat_diff(c->a->lab, nseeds, c->b->lab, nseeds,
			 paired_test ? IL_STAT_PAIRED : IL_STAT_WELCH, IL_STAT_LEVEL, &d))
		return;
	c->rel = isnan(d.rel) ? (d.diff > 0 ? INFINITY : d.diff < 0 ? -INFINITY : 0) : d.rel;
	c->t = isnan(d.t) ? 0 : d.t;
}

static bool all_zero(const double *v, int n)
{
	for (int i = 0; i < n; i++)
		if (v[i] != 0)
			return false;
	return true;
}

static int call_of(double p_adj, double rel)
{
	return p_adj <= LAB_ALPHA && fabs(rel) > LAB_MIN_EFFECT ? (rel > 0 ? 1 : -1) : 0;
}

/*
 * The lab's calls, over every comparison at once, by the verdict's statistics
 * (lib/verdict): the Westfall-Young step-down max-T permutation test (il_stat_maxt(), Welch's
 * t, every relabelling of the lab seeds) with the whole scoreboard as the family; a call when
 * the adjusted p-value is at most LAB_ALPHA and the mean moved by more than LAB_MIN_EFFECT %.
 * Identically zero on both sides: no call, untested. The ensemble (ens_classify()) re-judges
 * these calls into the robust ones the scoreboard scores.
 */
static int lab_calls(struct cmp *c, size_t n, int nseeds)
{
	struct il_stat_cell *sc = calloc(n ? n : 1, sizeof(*sc));
	double *t = calloc(n ? n : 1, sizeof(*t)), *p = calloc(n ? n : 1, sizeof(*p));
	size_t *idx = calloc(n ? n : 1, sizeof(*idx)), m = 0;
	struct il_stat_perm perm = { .na = nseeds, .nb = nseeds, .max_perm = IL_VERDICT_MAX_PERM,
				     .draws = IL_VERDICT_DRAWS, .seed = 1,
				     .paired = paired_test };
	int ret = -1;

	if (!sc || !t || !p || !idx)
		goto out;
	for (size_t i = 0; i < n; i++) {
		lab_test(&c[i], nseeds);
		c[i].p_adj = 1.0;
		c[i].lab = 0;
		if (all_zero(c[i].a->lab, nseeds) && all_zero(c[i].b->lab, nseeds))
			continue;
		sc[m] = (struct il_stat_cell){ c[i].a->lab, c[i].b->lab };
		idx[m++] = i;
	}
	if (m && il_stat_maxt(sc, (int)m, &perm, t, p))
		goto out;
	for (size_t k = 0; k < m; k++) {
		c[idx[k]].p_adj = p[k];
		c[idx[k]].lab = call_of(p[k], c[idx[k]].rel);
	}
	ret = 0;
out:
	free(sc);
	free(t);
	free(p);
	free(idx);
	return ret;
}

static void lab_free(struct lab *lab);

/* ---- the robust call: the called comparisons under the model's variants ------------------- */

/*
 * The ensemble (issue 23 item 2, the verdict's own machinery: lib/verdict/ensemble.c and
 * robust.c). A robust call needs the nominal call, so only the run keys behind a called
 * comparison run again, under the variants of their (platform, scenario), on the same lab
 * seeds (common random numbers), in the verdict's two stages: the `members` of the Latin
 * hypercube (seeded as a verdict of seed ENS_SEED), then, for the comparisons still called
 * and the sensitive ones, the two ends of every range one at a time: a sensitive comparison
 * stays sensitive under more variants, and the ends that alone turn it name what it rests on
 * (ens_flips()), as the verdict's scan does. A power number's ends run only for an energy
 * comparison: the governors never read power, so for any other metric that variant is the
 * nominal simulation (il_verdict_derived()'s reason) and cannot change the call.
 * fid_robust_call() judges a comparison over every variant both its sides ran under.
 */
#define ENS_SEED 1
#define ENS_KEYS 4 /* a comparison's run keys: each side's run and base run */

struct ens {
	int members;                 /* of the Latin hypercube; 0: the nominal model alone */
	struct il_ens_space *space;  /* per nominal run key */
	int nvar_max;
	int *slot;                   /* [key * nvar_max + var]: its runs in vlab, -1: none */
	int *slot_key, *slot_var;    /* per vlab run key */
	struct il_platform **pbuf;   /* per vlab run key: the variant's platform */
	size_t cap;
	struct lab vlab;             /* the variant runs, laid out as the nominal ones */
	double *a, *b;               /* a comparison's values, [nvar_max * nseeds] each */
	int lhs_keys, oat_keys;      /* run keys that ran the hypercube, some range end */
};

static int ens_init(struct ens *e, const struct lab *lab)
{
	size_t nk = lab->nkeys ? lab->nkeys : 1;
	struct il_error err;

	e->vlab.nseeds = lab->nseeds;
	e->space = calloc(nk, sizeof(*e->space));
	if (!e->space)
		return -1;
	e->nvar_max = 1;
	for (size_t k = 0; k < lab->nkeys; k++) {
		const struct il_lab_spec *sp = &lab->specs[k * (size_t)lab->nseeds];

		if (il_ens_space_of(sp->plat, sp->scn, &sp->args, &sp->common, &e->space[k],
				    &err)) {
			fprintf(stderr, "fidelity: %s\n", err.msg);
			return -1;
		}
		if (il_ens_nvar(&e->space[k], e->members) > e->nvar_max)
			e->nvar_max = il_ens_nvar(&e->space[k], e->members);
	}
	e->slot = malloc(nk * (size_t)e->nvar_max * sizeof(*e->slot));
	e->a = malloc((size_t)e->nvar_max * (size_t)lab->nseeds * sizeof(*e->a));
	e->b = malloc((size_t)e->nvar_max * (size_t)lab->nseeds * sizeof(*e->b));
	if (!e->slot || !e->a || !e->b)
		return -1;
	for (size_t i = 0; i < nk * (size_t)e->nvar_max; i++)
		e->slot[i] = -1;
	return 0;
}

/* Variant @var of run key @key, to run. */
static int ens_add(struct ens *e, int key, int var)
{
	int *slot = &e->slot[(size_t)key * (size_t)e->nvar_max + (size_t)var];

	if (*slot >= 0)
		return 0;
	if (e->vlab.nkeys == e->cap) {
		size_t nc = e->cap ? 2 * e->cap : 64;
		int *nk = realloc(e->slot_key, nc * sizeof(*nk)), *nv;
		struct il_platform **np;

		if (!nk)
			return -1;
		e->slot_key = nk;
		nv = realloc(e->slot_var, nc * sizeof(*nv));
		if (!nv)
			return -1;
		e->slot_var = nv;
		np = realloc(e->pbuf, nc * sizeof(*np));
		if (!np)
			return -1;
		e->pbuf = np;
		e->cap = nc;
	}
	e->slot_key[e->vlab.nkeys] = key;
	e->slot_var[e->vlab.nkeys] = var;
	e->pbuf[e->vlab.nkeys] = NULL;
	*slot = (int)e->vlab.nkeys++;
	return 0;
}

/* Run the variant run keys from @from on: the nominal specs with the variant's values. */
static int ens_run(struct ens *e, const struct lab *lab, size_t from, unsigned int threads)
{
	size_t ns = (size_t)lab->nseeds, n = e->vlab.nkeys;
	struct il_lab_spec *specs = realloc(e->vlab.specs, (n ? n : 1) * ns * sizeof(*specs));
	struct il_lab_result *res;

	if (!specs)
		return -1;
	e->vlab.specs = specs;
	res = realloc(e->vlab.res, (n ? n : 1) * ns * sizeof(*res));
	if (!res)
		return -1;
	e->vlab.res = res;
	memset(res + from * ns, 0, (n - from) * ns * sizeof(*res));
	for (size_t i = from; i < n; i++) {
		const struct il_ens_space *sp = &e->space[e->slot_key[i]];
		const struct il_lab_spec *nominal = &lab->specs[(size_t)e->slot_key[i] * ns];
		struct il_scn_args args = nominal->args;
		double vals[IL_ENS_MAX_PARAMS];

		e->pbuf[i] = malloc(sizeof(*e->pbuf[i]));
		if (!e->pbuf[i])
			return -1;
		*e->pbuf[i] = *nominal->plat;
		il_ens_values(sp, e->members, ENS_SEED, e->slot_var[i], vals);
		il_ens_apply(sp, vals, e->pbuf[i], &args);
		for (size_t s = 0; s < ns; s++) {
			specs[i * ns + s] = lab->specs[(size_t)e->slot_key[i] * ns + s];
			specs[i * ns + s].args = args;
			specs[i * ns + s].plat = e->pbuf[i];
		}
	}
	if (n > from && run_all(specs + from * ns, res + from * ns, (n - from) * ns, threads,
				"fidelity: model variants")) {
		perror("fidelity: a lab run of a model variant failed");
		return -1;
	}
	return 0;
}

static void ens_free(struct ens *e)
{
	for (size_t i = 0; i < e->vlab.nkeys && e->pbuf; i++)
		free(e->pbuf[i]);
	free(e->pbuf);
	lab_free(&e->vlab);
	free(e->space);
	free(e->slot);
	free(e->slot_key);
	free(e->slot_var);
	free(e->a);
	free(e->b);
}

/* The run keys comparison @c rests on, into @k; Return: how many. */
static int cmp_keys(const struct cmp *c, int *k)
{
	int n = 0;

	k[n++] = c->a->run;
	k[n++] = c->b->run;
	if (c->a->base_run >= 0)
		k[n++] = c->a->base_run;
	if (c->b->base_run >= 0)
		k[n++] = c->b->base_run;
	return n;
}

/*
 * The keys span one model space: the same uncertain numbers in the same order and one
 * hypercube (the same platform and scenario, whatever the scenario's arguments), so that
 * variant v sets each number at the same point of its range on every side. Keys on several
 * platforms or scenarios would need a joint space; the seeds' table has none (every row
 * group is one platform and one scenario), so such a comparison keeps its nominal call and
 * is counted apart (fidelity_robust_nominal_only).
 */
static bool one_space(const struct ens *e, const int *k, int nk)
{
	const struct il_ens_space *s0 = &e->space[k[0]];

	for (int i = 1; i < nk; i++) {
		const struct il_ens_space *s = &e->space[k[i]];

		if (s->k != s0->k || s->hash != s0->hash)
			return false;
		for (int j = 0; j < s->k; j++)
			if (strcmp(s->p[j].name, s0->p[j].name))
				return false;
	}
	return true;
}

static bool is_energy(int kind)
{
	return kind == FID_JOULES || kind == FID_WATTS;
}

/*
 * Whether comparison @c needs variant @var of its space @sp: any for an energy comparison;
 * else one that moves a number the simulation reads (a range end of one, a hypercube member
 * of a space that has one), the others being the nominal simulation (see above).
 */
static bool var_needed(const struct ens *e, const struct il_ens_space *sp, const struct cmp *c,
		       int var)
{
	int param;
	enum il_ens_kind kind = il_ens_kind_of(sp, e->members, var, &param);

	if (kind == IL_ENS_NOMINAL || is_energy(c->a->row->kind))
		return true;
	if (kind == IL_ENS_OAT_LO || kind == IL_ENS_OAT_HI)
		return !sp->p[param].power;
	for (int j = 0; j < sp->k; j++)
		if (!sp->p[j].power)
			return true;
	return false;
}

/* The values of @x under variant @var into @out; Return: false when that variant has not run. */
static bool var_values(const struct ens *e, const struct number *x, int var, double *out)
{
	struct number y = *x;
	int nv = e->nvar_max;

	if (!var) {
		memcpy(out, x->lab, (size_t)e->vlab.nseeds * sizeof(*out));
		return true;
	}
	y.run = e->slot[(size_t)x->run * (size_t)nv + (size_t)var];
	if (x->base_run >= 0)
		y.base_run = e->slot[(size_t)x->base_run * (size_t)nv + (size_t)var];
	if (y.run < 0 || (x->base_run >= 0 && y.base_run < 0))
		return false;
	for (int s = 0; s < e->vlab.nseeds; s++)
		out[s] = lab_value(&e->vlab, &y, s);
	return true;
}

/* Ask for the variants of stage @stage (1: the hypercube, 2: the range ends) of @c's keys. */
static int ens_want(struct ens *e, const struct cmp *c, int stage)
{
	int k[ENS_KEYS], nk = cmp_keys(c, k);
	const struct il_ens_space *sp = &e->space[k[0]];
	int nvar = il_ens_nvar(sp, e->members);

	/* A sensitive call stays sensitive under more variants; its range ends name what turns it. */
	if (!c->lab || !one_space(e, k, nk))
		return 0;
	for (int var = stage == 1 ? 1 : e->members + 1; var < (stage == 1 ? e->members + 1 : nvar);
	     var++) {
		if (var >= nvar || !var_needed(e, sp, c, var))
			continue;
		for (int i = 0; i < nk; i++)
			if (ens_add(e, k[i], var))
				return -1;
	}
	return 0;
}

/*
 * How a sensitive comparison's why begins: its nominal call against the seeds' direction.
 * A reversed nominal call that the ensemble makes sensitive is not "the seeds'".
 */
static const char *nominal_opening(const struct cmp *c)
{
	if (c->seeds != SEEDS_HIGHER && c->seeds != SEEDS_LOWER)
		return "the seeds show no difference and";
	return c->lab == c->seeds ? "the nominal call is the seeds' but" :
				    "the nominal call is against the seeds' and";
}

/*
 * What turns sensitive comparison @c, as its why into c->flips_why: the parameters whose
 * range ends alone turn it, or the hypercube's joint variants when none alone does. @dir[i]
 * is the direction under variant @var[i]; a range end that did not run is the nominal
 * simulation (var_needed()), so it moves @c as the nominal model does.
 */
static void ens_flips(const struct ens *e, const struct il_ens_space *sp, struct cmp *c,
		      const int *var, const int *dir, int nv)
{
	int ends[2 * IL_ENS_MAX_PARAMS];
	char flips[IL_VERDICT_FLIPS_LEN];

	for (int j = 0; j < 2 * sp->k; j++)
		ends[j] = dir[0];
	for (int i = 1; i < nv; i++) {
		int param;
		enum il_ens_kind kind = il_ens_kind_of(sp, e->members, var[i], &param);

		if (kind == IL_ENS_OAT_LO || kind == IL_ENS_OAT_HI)
			ends[2 * param + (kind == IL_ENS_OAT_HI)] = dir[i];
	}
	il_verdict_flips(flips, sizeof(flips), sp, ends, dir[0]);
	if (flips[0])
		snprintf(c->flips_why, sizeof(c->flips_why),
			 "%s the range ends of %s turn it round (sensitive)", nominal_opening(c),
			 flips);
	else
		snprintf(c->flips_why, sizeof(c->flips_why),
			 "%s the hypercube's variants turn it round, no range end alone "
			 "(sensitive)", nominal_opening(c));
}

/* @c's robust call over every variant its sides ran under (fid_robust_call()). */
static int ens_classify(struct ens *e, struct cmp *c)
{
	int k[ENS_KEYS], nk = cmp_keys(c, k), ns = e->vlab.nseeds, nv = 0;
	const struct il_ens_space *sp = &e->space[k[0]];
	int var_of[IL_ENS_MAX_MEMBERS + 2 * IL_ENS_MAX_PARAMS + 1];
	int dir[IL_ENS_MAX_MEMBERS + 2 * IL_ENS_MAX_PARAMS + 1];

	c->nominal_only = c->lab && e->members > 0 && !one_space(e, k, nk);
	c->nvar = 1;
	if (c->nominal_only || e->members <= 0) {
		c->robust = c->lab;
		c->kind = c->lab ? FID_ROBUST_CALL : FID_ROBUST_NONE;
		return 0;
	}
	for (int var = 0; c->lab && var < il_ens_nvar(sp, e->members); var++)
		if (var_needed(e, sp, c, var) &&
		    var_values(e, c->a, var, e->a + (size_t)nv * (size_t)ns) &&
		    var_values(e, c->b, var, e->b + (size_t)nv * (size_t)ns))
			var_of[nv++] = var;
	c->nvar = nv ? nv : 1;
	c->robust = fid_robust_call(e->a, e->b, c->nvar, ns, c->lab, LAB_MIN_EFFECT, &c->kind,
				    dir);
	if (c->robust == -2)
		return -1;
	c->flips_why[0] = '\0';
	if (c->kind == FID_ROBUST_SENSITIVE)
		ens_flips(e, sp, c, var_of, dir, nv);
	return 0;
}

static int count_keys(const struct ens *e, size_t from, size_t to)
{
	int n = 0;

	for (size_t i = from; i < to; i++) {
		bool first = true;

		for (size_t j = from; j < i && first; j++)
			first = e->slot_key[j] != e->slot_key[i];
		n += first;
	}
	return n;
}

/* The robust calls of every comparison: the two stages, judged after each. */
static int robust_calls(struct ens *e, const struct lab *lab, struct cmp *c, size_t n,
			unsigned int threads)
{
	size_t from = 0;

	for (int stage = 1; stage <= 2; stage++) {
		for (size_t i = 0; i < n; i++)
			if (e->members > 0 && ens_want(e, &c[i], stage))
				return -1;
		if (e->members > 0)
			fprintf(stderr, "fidelity: the ensemble, %s: %zu lab runs\n",
				stage == 1 ? "the hypercube" : "the range ends",
				(e->vlab.nkeys - from) * (size_t)lab->nseeds);
		if (ens_run(e, lab, from, threads))
			return -1;
		*(stage == 1 ? &e->lhs_keys : &e->oat_keys) = count_keys(e, from, e->vlab.nkeys);
		from = e->vlab.nkeys;
		for (size_t i = 0; i < n; i++)
			if (ens_classify(e, &c[i])) {
				perror("fidelity: a comparison's robust call");
				return -1;
			}
	}
	return 0;
}

/* ---- what misses: a one-at-a-time scan over the scenario's uncertain parameters ------------ */

/*
 * The scenario parameters the scan moves, each to the ends of its range, with where the range
 * comes from (docs/lab.md, "What misses"). mult: the ends are the spec's own value times lo
 * and hi (a parameter the spec does not set is not scanned); else lo and hi are values.
 */
static const struct scan_param {
	const char *scenario, *param;
	bool mult;
	double lo, hi;
	const char *source;
} scan_params[] = {
	{ "fio", "background", false, 0, 0,
	  "the background model is invented (lib/scenario/background.h): off against on" },
	{ "fio", "lat_us", true, 0.5, 2,
	  "the request structure was fitted to rk3588's rows only (docs/lab.md): 0.5x..2x" },
	{ "fio", "irq_extra", true, 0.5, 2, "fitted to rk3588's rows only: 0.5x..2x" },
	{ "pingpong", "overhead_ns", false, 700, 1100,
	  "fitted to one number; Doug's finding holds between about 700 and 950 ns (issue 23)" },
	{ "pingpong", "background", false, 0, 0, "the background model is invented: off" },
	{ "video", "background", false, 0, 0, "the background model is invented: off" },
	{ "wakeup", "background", false, 1, 1, "the background model is invented: on" },
};

#define NSCAN_PARAMS (ARRAY_SIZE(scan_params))
#define MAX_VARIANTS 8

/* The value of @param in the scenario spec @spec ("name:k=v,k=v"); NAN when not set. */
static double spec_value(const char *spec, const char *param)
{
	const char *p = strchr(spec, ':');
	size_t len = strlen(param);

	while (p && *p) {
		p++;
		if (!strncmp(p, param, len) && p[len] == '=')
			return atof(p + len + 1);
		p = strchr(p, ',');
	}
	return NAN;
}

/* @spec with @param set to @value (replaced when the spec has it), into @out. */
static void spec_with(const char *spec, const char *param, double value, char *out, size_t cap)
{
	const char *colon = strchr(spec, ':'), *p;
	size_t len = strlen(param), o;

	if (!colon) {
		snprintf(out, cap, "%s:%s=%.0f", spec, param, value);
		return;
	}
	o = (size_t)snprintf(out, cap, "%.*s:", (int)(colon - spec), spec);
	for (p = colon + 1; *p && o < cap;) {
		size_t n = strcspn(p, ",");

		if (strncmp(p, param, len) || p[len] != '=')
			o += (size_t)snprintf(out + o, cap - o, "%.*s,", (int)n, p);
		p += n + (p[n] == ',');
	}
	if (o < cap)
		snprintf(out + o, cap - o, "%s=%.0f", param, value);
}

static bool scenario_is(const char *spec, const char *name)
{
	size_t len = strcspn(spec, ":");

	return strlen(name) == len && !strncmp(spec, name, len);
}

/* The variants of @spec the scan runs: specs and their names ("lat_us=24"). */
struct variants {
	char spec[MAX_VARIANTS][FID_SPEC + 64];
	char name[MAX_VARIANTS][96];
	int n;
};

static void variants_of(const char *spec, struct variants *v)
{
	v->n = 0;
	for (size_t i = 0; i < NSCAN_PARAMS; i++) {
		const struct scan_param *sp = &scan_params[i];
		double base = spec_value(spec, sp->param), ends[2];

		if (!scenario_is(spec, sp->scenario))
			continue;
		if (sp->mult && isnan(base))
			continue;
		ends[0] = sp->mult ? base * sp->lo : sp->lo;
		ends[1] = sp->mult ? base * sp->hi : sp->hi;
		for (int e = 0; e < (ends[1] == ends[0] ? 1 : 2) && v->n < MAX_VARIANTS; e++) {
			if (!isnan(base) && ends[e] == base)
				continue;
			spec_with(spec, sp->param, ends[e], v->spec[v->n], sizeof(v->spec[0]));
			snprintf(v->name[v->n], sizeof(v->name[0]), "%s %s=%.0f", sp->scenario,
				 sp->param, ends[e]);
			v->n++;
		}
	}
}

/*
 * The scan: every comparison the lab misses (a wrong or missing call where the seeds show a
 * difference, a call where they show none) runs again under each variant of its scenario,
 * on the same lab seeds; the first variant whose call agrees with the seeds names what
 * misses ("covered by fio lat_us=24": the seeds' value lies inside that parameter's range);
 * none: "no scanned parameter: a mechanism the model lacks".
 */
struct scan {
	struct lab lab;
	struct variants *var;    /* per base run key */
	int *first;              /* per base run key: its first variant's run in scan.lab, -1 */
};

/*
 * Missed by the lab's robust call, which the goals score: a difference the seeds show that it
 * does not call robustly with their sign (a sensitive comparison is no call), or a robust call
 * where the seeds show none. A robust call needs the nominal one, so this is every comparison
 * the nominal call misses, less the sensitive false calls, plus the right but sensitive ones.
 */
static bool cmp_missed(const struct cmp *c)
{
	int call = c->kind == FID_ROBUST_SENSITIVE ? 0 : c->robust;

	if (c->seeds == SEEDS_HIGHER || c->seeds == SEEDS_LOWER)
		return call != c->seeds;
	return c->seeds == SEEDS_SAME && call != 0;
}

/* A sensitive comparison is missed through the ensemble's ranges, which the scan need not run. */
static bool cmp_needs_scan(const struct cmp *c)
{
	return cmp_missed(c) && c->kind != FID_ROBUST_SENSITIVE;
}

static bool scannable(const struct number *x)
{
	return x->run >= 0 && x->base_run < 0 && x->row->kind != FID_THROUGHPUT_REL;
}

static int scan_plan(struct scan *sc, const struct lab *lab, const struct cmp *c, size_t n)
{
	bool *need = calloc(lab->nkeys ? lab->nkeys : 1, sizeof(*need));

	sc->var = calloc(lab->nkeys ? lab->nkeys : 1, sizeof(*sc->var));
	sc->first = malloc((lab->nkeys ? lab->nkeys : 1) * sizeof(*sc->first));
	if (!need || !sc->var || !sc->first) {
		free(need);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (cmp_needs_scan(&c[i]) && scannable(c[i].a) && scannable(c[i].b))
			need[c[i].a->run] = need[c[i].b->run] = true;
	for (size_t k = 0; k < lab->nkeys; k++) {
		const struct run_key *key = &lab->keys[k];

		sc->first[k] = -1;
		if (!need[k])
			continue;
		variants_of(key->scenario, &sc->var[k]);
		for (int v = 0; v < sc->var[k].n; v++) {
			int r = run_find(&sc->lab, key->platform, sc->var[k].spec[v], key->gov,
					 key->lab_s);

			if (r < 0) {
				free(need);
				return -1;
			}
			if (!v)
				sc->first[k] = r;
		}
	}
	free(need);
	return 0;
}

/* The lab values of @x in variant @v of its scenario, on every lab seed. */
static void scan_values(const struct scan *sc, const struct number *x, int v, double *out)
{
	struct number y = *x;

	y.run = sc->first[x->run] + v;
	for (int s = 0; s < sc->lab.nseeds; s++)
		out[s] = lab_value(&sc->lab, &y, s);
}

static const char *const no_param = "no scanned parameter: a mechanism the model lacks";
/* What misses in @c: the first variant under which the lab's call agrees with the seeds. */
static void scan_why(const struct scan *sc, struct cmp *c, int nseeds, double t_cut)
{
	const struct variants *va = &sc->var[c->a->run], *vb = &sc->var[c->b->run];
	static char names[4096][96];
	static int nnames;

	c->why = no_param;
	if (sc->first[c->a->run] < 0 || sc->first[c->b->run] < 0 || va->n != vb->n)
		return;
	for (int v = 0; v < va->n; v++) {
		struct number xa = *c->a, xb = *c->b;
		struct cmp t = *c;

		scan_values(sc, c->a, v, xa.lab);
		scan_values(sc, c->b, v, xb.lab);
		t.a = &xa;
		t.b = &xb;
		lab_test(&t, nseeds);
		/* The nominal family's cut-off: called as the weakest nominal call was. */
		t.lab = fabs(t.t) >= t_cut && fabs(t.rel) > LAB_MIN_EFFECT ? (t.rel > 0 ? 1 : -1) : 0;
		if ((c->seeds == SEEDS_SAME && t.lab == 0) || (c->seeds != SEEDS_SAME && t.lab == c->seeds)) {
			for (int i = 0; i < nnames; i++)
				if (!strcmp(names[i], va->name[v])) {
					c->why = names[i];
					return;
				}
			if (nnames < 4096) {
				snprintf(names[nnames], sizeof(names[0]), "%s", va->name[v]);
				c->why = names[nnames++];
			}
			return;
		}
	}
}

/* The smallest |t| the max-T test still called in the nominal family (INFINITY: none). */
static double t_cut_of(const struct cmp *c, size_t n)
{
	double cut = INFINITY;

	for (size_t i = 0; i < n; i++)
		if (c[i].lab && fabs(c[i].t) < cut)
			cut = fabs(c[i].t);
	return cut;
}

/* ---- comparisons merged: presets that decide identically on the lab's runs ---------------- */

static bool same_result(const struct il_lab_result *x, const struct il_lab_result *y)
{
	if (x->score != y->score || x->sum.idles != y->sum.idles ||
	    x->sum.aboves != y->sum.aboves || x->sum.belows != y->sum.belows ||
	    x->nstates != y->nstates)
		return false;
	for (int i = 0; i < x->nstates; i++)
		if (x->sum.usage[i] != y->sum.usage[i] || x->sum.time_ns[i] != y->sum.time_ns[i])
			return false;
	return true;
}

/* Run keys @i and @j: one setting, and every lab seed gives the same result. */
static bool same_runs(const struct lab *lab, int i, int j)
{
	const struct run_key *a = &lab->keys[i], *b = &lab->keys[j];

	if (strcmp(a->platform, b->platform) || strcmp(a->scenario, b->scenario) ||
	    a->lab_s != b->lab_s)
		return false;
	for (int s = 0; s < lab->nseeds; s++)
		if (!same_result(run_res(lab, i, s), run_res(lab, j, s)))
			return false;
	return true;
}

/* Per run key: the first key that decides identically (itself when none before it does). */
static int *run_classes(const struct lab *lab)
{
	int *cls = malloc((lab->nkeys ? lab->nkeys : 1) * sizeof(*cls));

	for (size_t k = 0; cls && k < lab->nkeys; k++) {
		cls[k] = (int)k;
		for (size_t j = 0; j < k; j++)
			if (cls[j] == (int)j && same_runs(lab, (int)j, (int)k)) {
				cls[k] = (int)j;
				break;
			}
	}
	return cls;
}

static int run_of(const struct number *x, const int *cls)
{
	return x->run >= 0 ? cls[x->run] : -1;
}

/* Two comparisons are one when their row group, metric and lab decisions are the same. */
static bool same_cmp(const struct cmp *x, const struct cmp *y, const int *cls)
{
	int xa = run_of(x->a, cls), xb = run_of(x->b, cls), ya = run_of(y->a, cls),
	    yb = run_of(y->b, cls);

	return !strcmp(x->a->row->group, y->a->row->group) &&
	       !strcmp(x->a->row->metric, y->a->row->metric) &&
	       ((xa == ya && xb == yb) || (xa == yb && xb == ya));
}

static int merge_weights(struct cmp *c, size_t n, const struct lab *lab)
{
	int *cls = run_classes(lab);

	if (!cls)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int k = 0;

		for (size_t j = 0; j < n; j++)
			k += same_cmp(&c[i], &c[j], cls);
		c[i].weight = 1.0 / k;
	}
	free(cls);
	return 0;
}

/* ---- tallies ------------------------------------------------------------------------------ */

/*
 * One tally per family and one overall. Comparisons count with their weight (1 / the
 * comparisons merged with them), so that the distinct ones count once.
 */
struct score {
	char family[2 * FID_SPEC];
	int numbers, scored, within, unmodeled, zero, zero_ok;
	int raw;                       /* comparisons, as the seeds' pairs give them */
	double distinct;               /* the same, merged */
	double diff, right, reversed, missed, same, false_calls, untested, untested_called;
	double eff_n, eff_ok;          /* called differences with the right sign: effect size */
	double called;                 /* lab calls (better or worse) */
	int stable_claims, stable;     /* the old figure: the seeds' direction on every lab seed */
	/* The robust call (fid_outcome_of()): where the seeds differ, right, reversed, sensitive
	 * (called nominally, not robustly) and missed (no nominal call); where they show none,
	 * false (robust) calls and sensitive ones; and the robust calls' effect size. */
	double r_right, r_reversed, r_sensitive, r_missed, r_false, r_same_sensitive, r_called;
	double r_eff_n, r_eff_ok, r_nominal_only;
	double r_eff_smaller;          /* effect off with the lab's log ratio the smaller one */
	/* effect off: inside the seeds' own interval of their log ratio, or no interval */
	double r_eff_off_in_ci, r_eff_off_no_ci;
	/* missed, with the seeds' direction on every lab seed: all, and those under the minimum
	 * effect (the others the family-wise test does not call) */
	double r_missed_held, r_missed_held_small;
};

#define MAX_FAM 32
static struct score fams[MAX_FAM];
static int nfams;

static void family_of(const struct fid_row *r, char *buf, size_t cap);

static struct score *fam_of(const struct fid_row *r)
{
	char family[2 * FID_SPEC];

	family_of(r, family, sizeof(family));
	for (int i = 0; i < nfams; i++)
		if (!strcmp(fams[i].family, family))
			return &fams[i];
	if (nfams == MAX_FAM)
		return NULL;
	snprintf(fams[nfams].family, sizeof(fams[nfams].family), "%s", family);
	return &fams[nfams++];
}

/* What misses, by the scan's answer (numbers off, comparisons missed). */
#define MAX_WHY 64
static struct why_tally {
	const char *why;
	int off;
	double missed;
	char families[256];
} whys[MAX_WHY];
static int nwhys;

static void why_count(const char *why, const struct fid_row *r, int off, double missed)
{
	struct why_tally *w = NULL;
	char platform[2 * FID_SPEC];
	size_t len;

	for (int i = 0; i < nwhys && !w; i++)
		if (!strcmp(whys[i].why, why))
			w = &whys[i];
	if (!w) {
		if (nwhys == MAX_WHY)
			return;
		w = &whys[nwhys++];
		w->why = why;
	}
	w->off += off;
	w->missed += missed;
	snprintf(platform, sizeof(platform), "%.*s", (int)strcspn(r->group, "/"), r->group);
	if (!strstr(w->families, platform)) {
		len = strlen(w->families);
		snprintf(w->families + len, sizeof(w->families) - len, "%s%s", len ? ", " : "",
			 platform);
	}
}

/*
 * A number the seeds give as 0 is matched when the lab's is 0 within what the seeds would
 * have shown as 0: half a point for shares in percent, one per second for rates, half a
 * count otherwise (the seeds' figures are integers).
 */
static bool zero_matched(const struct number *x)
{
	const struct fid_row *r = x->row;
	double tol = (r->kind == FID_ABOVE_PCT || r->kind == FID_BELOW_PCT || r->kind == FID_POLL_PCT) ?
			     SHARE_CLAIM_POINTS : r->seed_s > 0 ? 1.0 : 0.5;

	return fabs(x->lab_mean) <= tol;
}

enum { EFFECT_WITHIN, EFFECT_SMALLER, EFFECT_LARGER };

/*
 * Effect size of a called difference with the right sign: |log ratio lab - log ratio seeds|
 * within max(3 %, 30 % of the seeds' log ratio) (issue 23's goal), else the lab's log ratio
 * the smaller or the larger one. A seeds' mean <= 0 has no log ratio: not scored (-1). A lab
 * mean of 0 against two positive seeds' means is an infinite log ratio, so the larger one: the
 * lab that has none of a count where the board has some is off however it is called.
 */
static int effect_class(const struct cmp *c)
{
	double la, lb, sa = c->a->seeds_mean, sb = c->b->seeds_mean, e, tol;

	la = c->a->lab_mean;
	lb = c->b->lab_mean;
	if (sa <= 0 || sb <= 0)
		return -1;
	if (la <= 0 || lb <= 0)
		return EFFECT_LARGER;
	e = fabs(log(lb / la) - log(sb / sa));
	tol = fmax(log(1.03), 0.3 * fabs(log(sb / sa)));
	if (e <= tol)
		return EFFECT_WITHIN;
	return fabs(log(lb / la)) < fabs(log(sb / sa)) ? EFFECT_SMALLER : EFFECT_LARGER;
}

/*
 * The Welch-Satterthwaite degrees of freedom of a difference of two numbers' seeds' means,
 * from each side's squared standard error (@va, @vb: positive sum) and iterations.
 */
static double welch_df(double va, const struct number *a, double vb, const struct number *b)
{
	return (va + vb) * (va + vb) /
	       (va * va / (a->nseeds_iter - 1) + vb * vb / (b->nseeds_iter - 1));
}

/* The delta method's variance of the log of a number's seeds' mean. */
static double log_mean_var(const struct number *x)
{
	return x->seeds_sd * x->seeds_sd / (x->nseeds_iter * x->seeds_mean * x->seeds_mean);
}

/*
 * Whether the lab's log ratio of @c lies inside the seeds' own 95 % interval of theirs, so
 * that an effect off the goal's tolerance is still within what the seeds' iterations know
 * of it: 1 or 0; -1 without an interval (a side with fewer than two iterations). The
 * interval is the delta method's (the variance of log mean ~ sd^2 / (n mean^2)) with
 * Welch-Satterthwaite degrees of freedom. Only for scored effects (effect_class() >= 0).
 */
static int effect_in_seeds_ci(const struct cmp *c)
{
	const struct number *a = c->a, *b = c->b;
	double va, vb, off, half;

	if (a->nseeds_iter < 2 || b->nseeds_iter < 2)
		return -1;
	if (a->lab_mean <= 0 || b->lab_mean <= 0)
		return 0;
	off = fabs(log(b->lab_mean / a->lab_mean) - log(b->seeds_mean / a->seeds_mean));
	va = log_mean_var(a);
	vb = log_mean_var(b);
	if (va + vb == 0)
		return off == 0;
	half = il_stat_t_quantile(0.975, welch_df(va, a, vb, b)) * sqrt(va + vb);
	return off <= half;
}

static int effect_ok(const struct cmp *c)
{
	int k = effect_class(c);

	return k < 0 ? -1 : k == EFFECT_WITHIN;
}

/*
 * The effect of @c as the goal scores it, for the tables: "LAB/SEEDS ok|smaller|larger" (b
 * over a in the lab and in the seeds; off, the lab's effect the smaller or the larger one)
 * for a robust call with the seeds' sign; "-" for any other.
 */
static const char *effect_text(const struct cmp *c, char *buf, size_t cap)
{
	static const char *const names[] = { "ok", "smaller", "larger" };
	int k = fid_outcome_of(c->seeds, c->robust, c->kind) == FID_OUT_RIGHT ? effect_class(c) : -1;

	if (k < 0)
		return "-";
	snprintf(buf, cap, "%.3g/%.3g %s", c->b->lab_mean / c->a->lab_mean,
		 c->b->seeds_mean / c->a->seeds_mean, names[k]);
	return buf;
}

/* An effect off the goal: inside the seeds' own interval of theirs, or without one. */
static void score_effect_off(struct score *t, const struct cmp *c, int eff)
{
	int in_ci;

	if (eff == EFFECT_WITHIN)
		return;
	in_ci = effect_in_seeds_ci(c);
	t->r_eff_off_in_ci += c->weight * (in_ci == 1);
	t->r_eff_off_no_ci += c->weight * (in_ci < 0);
}

/*
 * The robust call's tallies of @c (its seeds' class counted by score_cmp()); @held: the
 * seeds' direction holds on every lab seed.
 */
static void score_robust(struct score *t, const struct cmp *c, bool held)
{
	double w = c->weight;
	int eff;

	t->r_called += w * (c->robust != 0);
	t->r_nominal_only += w * c->nominal_only;
	switch (fid_outcome_of(c->seeds, c->robust, c->kind)) {
	case FID_OUT_RIGHT:
		t->r_right += w;
		if ((eff = effect_class(c)) >= 0) {
			t->r_eff_n += w;
			t->r_eff_ok += w * (eff == EFFECT_WITHIN);
			t->r_eff_smaller += w * (eff == EFFECT_SMALLER);
			score_effect_off(t, c, eff);
		}
		break;
	case FID_OUT_REVERSED:
		t->r_reversed += w;
		break;
	case FID_OUT_SENSITIVE:
		t->r_sensitive += w;
		break;
	case FID_OUT_MISSED:
		t->r_missed += w;
		if (held) {
			t->r_missed_held += w;
			t->r_missed_held_small += w * (fabs(c->rel) <= LAB_MIN_EFFECT);
		}
		break;
	case FID_OUT_FALSE_CALL:
		t->r_false += w;
		break;
	case FID_OUT_SAME_SENSITIVE:
		t->r_same_sensitive += w;
		break;
	default:
		break;
	}
}

static void score_cmp(struct score *t, const struct cmp *c, int nseeds)
{
	double w = c->weight;
	int eff;

	t->raw++;
	t->distinct += w;
	t->called += w * (c->lab != 0);
	switch (c->seeds) {
	case SEEDS_HIGHER:
	case SEEDS_LOWER:
		t->diff += w;
		t->right += w * (c->lab == c->seeds);
		t->reversed += w * (c->lab == -c->seeds);
		t->missed += w * (c->lab == 0);
		t->stable_claims++;
		t->stable += c->holds == nseeds;
		if (c->lab == c->seeds && (eff = effect_ok(c)) >= 0) {
			t->eff_n += w;
			t->eff_ok += w * eff;
		}
		break;
	case SEEDS_SAME:
		t->same += w;
		t->false_calls += w * (c->lab != 0);
		break;
	default:
		t->untested += w;
		t->untested_called += w * (c->lab != 0);
	}
	score_robust(t, c, c->holds == nseeds);
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0.0;
}

static char dir_char(int s);

/* The JSON tables (--json): the numbers and the comparisons, as printed. */
struct json_out {
	struct il_table nums, cmps;
	bool on;
};

static int json_init(struct json_out *j)
{
	static const char *const ncols[] = {
		"group", "family", "gov", "seeds_label", "metric", "seeds_n", "seeds", "lab_mean",
		"lab_ci95", "ratio", "sized", "verdict", "source",
	};
	static const char *const ccols[] = {
		"group", "family", "metric", "a", "b", "seeds", "lab", "holds", "lab_seeds",
		"lab_call", "weight", "why", "robust_call", "variants", "effect",
	};

	j->on = true;
	if (il_table_init(&j->nums, "fidelity numbers", (int)ARRAY_SIZE(ncols), ncols) ||
	    il_table_init(&j->cmps, "fidelity comparisons", (int)ARRAY_SIZE(ccols),
			  ccols))
		return -1;
	return 0;
}

/* The row group's family, which colours it in the report: the platform and scenario name. */
static void family_of(const struct fid_row *r, char *buf, size_t cap)
{
	size_t len = strcspn(r->scenario, ":");

	snprintf(buf, cap, "%s %.*s", r->platform, (int)len, r->scenario);
}

static int json_number(struct json_out *j, const struct number *x, double ratio,
		       const char *verdict)
{
	const struct fid_row *r = x->row;
	struct il_table *t = &j->nums;
	int row = j->on ? il_table_add_row(t) : 0;
	char family[2 * FID_SPEC];

	if (!j->on)
		return 0;
	family_of(r, family, sizeof(family));
	if (row < 0 || il_table_set_str(t, row, 0, r->group) || il_table_set_str(t, row, 1, family) ||
	    il_table_set_str(t, row, 2, r->gov) || il_table_set_str(t, row, 3, r->label) ||
	    il_table_set_str(t, row, 4, r->metric))
		return -1;
	il_table_set_int(t, row, 5, x->nseeds_iter);
	il_table_set_real(t, row, 6, x->seeds_mean, 6);
	if (x->modeled) {
		il_table_set_real(t, row, 7, x->lab_mean, 6);
		if (!isnan(x->lab_ci))
			il_table_set_real(t, row, 8, x->lab_ci, 6);
	}
	if (!isnan(ratio))
		il_table_set_real(t, row, 9, ratio, 4);
	if (il_table_set_str(t, row, 10,
			     x->modeled && r->magnitude && x->seeds_mean != 0 ? "yes" : "no") ||
	    il_table_set_str(t, row, 11, verdict) || il_table_set_str(t, row, 12, r->source))
		return -1;
	return 0;
}

/* The robust call as printed: '<', '>', '=' (none), 's' (sensitive). */
static char robust_char(const struct cmp *c)
{
	return c->kind == FID_ROBUST_SENSITIVE ? 's' : dir_char(c->robust);
}

static char seeds_char(int cls)
{
	return cls == SEEDS_UNTESTED ? '?' : dir_char(cls);
}

static int json_comparison(struct json_out *j, const struct cmp *c, int nseeds,
			   const char *effect)
{
	struct il_table *t = &j->cmps;
	int row = j->on ? il_table_add_row(t) : 0;
	char family[2 * FID_SPEC], sd[2] = { seeds_char(c->seeds), 0 },
	     ld[2] = { dir_char(c->lab_dir), 0 }, lc[2] = { dir_char(c->lab), 0 },
	     rc[2] = { robust_char(c), 0 };

	if (!j->on)
		return 0;
	family_of(c->a->row, family, sizeof(family));
	if (row < 0 || il_table_set_str(t, row, 0, c->a->row->group) ||
	    il_table_set_str(t, row, 1, family) || il_table_set_str(t, row, 2, c->a->row->metric) ||
	    il_table_set_str(t, row, 3, c->a->row->label) ||
	    il_table_set_str(t, row, 4, c->b->row->label) || il_table_set_str(t, row, 5, sd) ||
	    il_table_set_str(t, row, 6, ld) || il_table_set_str(t, row, 9, lc) ||
	    il_table_set_str(t, row, 11, c->why ? c->why : "") ||
	    il_table_set_str(t, row, 12, rc))
		return -1;
	if (strcmp(effect, "-") && il_table_set_str(t, row, 14, effect))
		return -1;
	il_table_set_int(t, row, 13, c->nvar);
	if (c->seeds == SEEDS_HIGHER || c->seeds == SEEDS_LOWER)
		il_table_set_int(t, row, 7, c->holds);
	il_table_set_int(t, row, 8, nseeds);
	il_table_set_real(t, row, 10, c->weight, 4);
	return 0;
}

/* What misses in an off number: the first variant whose lab mean is within 25 %. */
static const char *number_why(const struct scan *sc, const struct number *x)
{
	double v[MAX_SEEDS], m, sd;

	if (!sc || !scannable(x) || sc->first[x->run] < 0)
		return no_param;
	for (int k = 0; k < sc->var[x->run].n; k++) {
		scan_values(sc, x, k, v);
		mean_sd(v, sc->lab.nseeds, &m, &sd);
		if (fabs(m / x->seeds_mean - 1) <= WITHIN)
			return sc->var[x->run].name[k];
	}
	return no_param;
}

static bool is_off(const struct number *x)
{
	return x->modeled && x->row->magnitude && x->seeds_mean != 0 &&
	       fabs(x->lab_mean / x->seeds_mean - 1) > WITHIN;
}

static void score_number(struct score *t, const struct number *x)
{
	t->numbers++;
	if (!x->modeled) {
		t->unmodeled++;
		return;
	}
	if (!x->row->magnitude)
		return;
	if (x->seeds_mean == 0) {
		t->zero++;
		t->zero_ok += zero_matched(x);
		return;
	}
	t->scored++;
	t->within += !is_off(x);
}

static int print_numbers(const struct number *num, size_t n, struct score *t,
			 const struct scan *sc, struct json_out *jo)
{
	printf("## numbers: seeds' value, lab mean +- 95 %% CI over the seeds, ratio lab/seeds\n");
	printf("group\tgov\tseeds_label\tmetric\tseeds_n\tseeds\tlab_mean\tlab_ci95\tratio\t"
	       "verdict\tsource\n");
	for (size_t j = 0; j < n; j++) {
		const struct number *x = &num[j];
		const struct fid_row *r = x->row;
		double ratio = x->modeled && x->seeds_mean != 0 ? x->lab_mean / x->seeds_mean : NAN;
		struct score *f = fam_of(r);
		char verdict[FID_NOTE + 128];

		score_number(t, x);
		if (f && x->modeled)
			score_number(f, x);
		if (!x->modeled) {
			snprintf(verdict, sizeof(verdict), "not run: %s",
				 r->kind == FID_TIMER_FALL_PCT ? "a model input (timer_pct)" :
				 r->why[0] ? r->why : "the lab has no value for it");
		} else if (!r->magnitude) {
			snprintf(verdict, sizeof(verdict), "size not compared: %s", r->why);
		} else if (x->seeds_mean == 0) {
			snprintf(verdict, sizeof(verdict), "seeds 0: %s",
				 zero_matched(x) ? "lab 0 too" : "off");
		} else if (!is_off(x)) {
			snprintf(verdict, sizeof(verdict), "within 25%%");
		} else {
			const char *why = sc ? number_why(sc, x) : NULL;

			snprintf(verdict, sizeof(verdict), "off%s%s", why ? ": " : "", why ? why : "");
			if (why)
				why_count(why, r, 1, 0);
		}
		printf("%s\t%s\t%s\t%s\t%d\t%.6g\t", r->group, r->gov, r->label, r->metric,
		       x->nseeds_iter, x->seeds_mean);
		if (x->modeled)
			printf("%.6g\t%.3g\t", x->lab_mean, x->lab_ci);
		else
			printf("-\t-\t");
		if (isnan(ratio))
			printf("-\t");
		else
			printf("%.3f\t", ratio);
		printf("%s\t%s\n", verdict, r->source);
		if (json_number(jo, x, ratio, verdict))
			return -1;
	}
	return 0;
}

static bool is_share(int kind)
{
	return kind == FID_ABOVE_PCT || kind == FID_BELOW_PCT || kind == FID_POLL_PCT;
}

/*
 * The seeds' class of b against a. With iterations on both sides: Welch's t-test at 95 %
 * over them (a difference, or none). Single figures have no noise to test against: a
 * difference beyond SINGLE_CLAIM (and SHARE_CLAIM_POINTS for shares), else untested.
 */
static int seeds_class(const struct number *a, const struct number *b)
{
	double d = b->seeds_mean - a->seeds_mean;

	if (a->nseeds_iter >= 2 && b->nseeds_iter >= 2) {
		double va = a->seeds_sd * a->seeds_sd / a->nseeds_iter;
		double vb = b->seeds_sd * b->seeds_sd / b->nseeds_iter;
		double se = sqrt(va + vb), df;

		if (se == 0)
			return d > 0 ? SEEDS_HIGHER : d < 0 ? SEEDS_LOWER : SEEDS_SAME;
		df = welch_df(va, a, vb, b);
		if (fabs(d) <= il_stat_t_quantile(0.975, df) * se)
			return SEEDS_SAME;
		return d > 0 ? SEEDS_HIGHER : SEEDS_LOWER;
	}
	if (d == 0 || fabs(d) < SINGLE_CLAIM * fmax(fabs(a->seeds_mean), fabs(b->seeds_mean)))
		return SEEDS_UNTESTED;
	if (is_share(a->row->kind) && fabs(d) < SHARE_CLAIM_POINTS)
		return SEEDS_UNTESTED;
	return d > 0 ? SEEDS_HIGHER : SEEDS_LOWER;
}

static int dir_of(double d)
{
	return d > 0 ? 1 : d < 0 ? -1 : 0;
}

static char dir_char(int s)
{
	return s > 0 ? '<' : s < 0 ? '>' : '=';
}

static bool comparable(const struct number *a, const struct number *b)
{
	return !strcmp(a->row->group, b->row->group) && !strcmp(a->row->metric, b->row->metric) &&
	       a->modeled && b->modeled && strcmp(a->row->gov, b->row->gov) &&
	       a->row->kind != FID_THROUGHPUT_REL;
}

/* Every comparison of the seeds' pairs, with its seeds' class and the lab's direction. */
static struct cmp *build_cmps(const struct number *num, size_t n, int nseeds, size_t *count)
{
	struct cmp *c = NULL;
	size_t k = 0, cap = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			const struct number *a = &num[i], *b = &num[j];
			struct cmp *x;

			if (!comparable(a, b))
				continue;
			if (k == cap) {
				struct cmp *nc = realloc(c, (cap = cap ? 2 * cap : 256) * sizeof(*c));

				if (!nc) {
					free(c);
					return NULL;
				}
				c = nc;
			}
			x = &c[k++];
			memset(x, 0, sizeof(*x));
			x->a = a;
			x->b = b;
			x->seeds = seeds_class(a, b);
			x->lab_dir = dir_of(b->lab_mean - a->lab_mean);
			for (int s = 0; s < nseeds; s++)
				x->holds += dir_of(b->lab[s] - a->lab[s]) == x->seeds;
		}
	*count = k;
	return c ? c : calloc(1, sizeof(*c));
}

static int print_comparisons(struct cmp *c, size_t n, int nseeds, struct score *t,
			     const struct scan *sc, struct json_out *jo)
{
	double cut = t_cut_of(c, n);
	const char *effect;
	char eff[64];

	printf("\n## comparisons: a OP b in the seeds ('=': their iterations show no difference, "
	       "'?': single figures too close to tell) and the lab's call ('=': none; the "
	       "verdict's statistics over the lab seeds, nominal model), the robust call ('s': "
	       "sensitive) and the variants it rests on, on how many lab seeds the seeds' "
	       "direction holds, the weight (1 / comparisons merged), the effect of a robust call "
	       "with the seeds' sign (b over a in the lab / in the seeds: ok, within the goal's "
	       "tolerance, or the lab's effect smaller or larger) and what misses\n");
	printf("group\tmetric\ta\tb\tseeds\tlab\trobust\tvariants\tholds\tweight\teffect\t"
	       "why\n");
	for (size_t i = 0; i < n; i++) {
		struct cmp *x = &c[i];
		struct score *f = fam_of(x->a->row);

		if (sc && cmp_needs_scan(x)) /* what scan_plan() ran variants for */
			scan_why(sc, x, nseeds, cut);
		else if (sc && cmp_missed(x))
			x->why = x->flips_why; /* a sensitive one: what ens_flips() found turns it */
		score_cmp(t, x, nseeds);
		if (f)
			score_cmp(f, x, nseeds);
		if (x->why)
			why_count(x->why, x->a->row, 0, x->weight);
		printf("%s\t%s\t%s\t%s\t%c\t%c\t%c\t%d\t", x->a->row->group, x->a->row->metric,
		       x->a->row->label, x->b->row->label, seeds_char(x->seeds), dir_char(x->lab),
		       robust_char(x), x->nvar);
		if (x->seeds == SEEDS_HIGHER || x->seeds == SEEDS_LOWER)
			printf("%d/%d\t", x->holds, nseeds);
		else
			printf("-\t");
		effect = effect_text(x, eff, sizeof(eff));
		printf("%.3g\t%s\t%s\n", x->weight, effect,
		       x->why ? x->why : cmp_missed(x) ? "missed" : "-");
		if (json_comparison(jo, x, nseeds, effect))
			return -1;
	}
	return 0;
}

/* ---- the 6.17 ping-pong goal ---------------------------------------------------------- */

static const char *const pingpong_govs[] = { "menu-6.16", "menu-6.17", "menu-6.18" };

struct pp_run {
	double us, poll_time_pct, poll_entry_pct;
};

static struct pp_run pingpong_values(const struct il_lab_result *res)
{
	struct pp_run v = { res->score, 0, 0 };
	double t = idle_time_ns(res);

	v.poll_time_pct = t > 0 ? 100.0 * (double)res->sum.time_ns[0] / t : 0;
	if (res->sum.idles)
		v.poll_entry_pct = 100.0 * (double)res->sum.usage[0] / (double)res->sum.idles;
	return v;
}

/* The goal's runs last as long as the rows of its group (seeds.tsv's lab_s); 0: no rows. */
static double group_lab_s(const struct fid_table *t, const char *group)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->rows[i].group, group))
			return t->rows[i].lab_s;
	return 0;
}

/*
 * Doug Smythies (seeds/002 lines 37-38) at the default ping-pong with no QoS limit, on every
 * seed: menu-6.17 5-20 % slower than menu-6.16, POLL near 20 % of 6.16's idle time and near
 * 0 % of 6.17's, and menu-6.18 back with 6.16 (within 5 %).
 */
static struct pp_run pp_vals[MAX_SEEDS][3]; /* for --markdown */

/*
 * Seeds meeting the goal, by the two readings of Doug's "polling, usage going from 20% to
 * 0%" (seeds/002 line 38): "usage" is sysfs's count of entries, his graph (0_residency.png)
 * is a residency, a share of time. The time reading is the goal; both are printed.
 */
struct pp_goal {
	int ok_time, ok_entries;
};

static bool poll_share_ok(double share_616, double share_617)
{
	return share_616 >= 10 && share_616 <= 30 && share_617 < 2;
}

static struct pp_goal print_pingpong_goal(const struct lab *lab, const int *runs)
{
	struct pp_goal ok = { 0, 0 };

	printf("\n## goal: Doug's 6.17 finding at the default ping-pong "
	       "(i5-10600k, 2 CPUs, no QoS)\n");
	printf("seed\tgov\tus_per_loop\tpoll_time_pct\tpoll_entry_pct\n");
	for (int s = 0; s < lab->nseeds; s++) {
		struct pp_run v[3];
		bool slower, poll, poll_entries, back;

		for (int g = 0; g < 3; g++) {
			v[g] = pingpong_values(run_res(lab, runs[g], s));
			pp_vals[s][g] = v[g];
			printf("%u\t%s\t%.3f\t%.1f\t%.1f\n", lab_seed(s), pingpong_govs[g], v[g].us,
			       v[g].poll_time_pct, v[g].poll_entry_pct);
		}
		slower = v[1].us >= 1.05 * v[0].us && v[1].us <= 1.20 * v[0].us;
		poll = poll_share_ok(v[0].poll_time_pct, v[1].poll_time_pct);
		poll_entries = poll_share_ok(v[0].poll_entry_pct, v[1].poll_entry_pct);
		back = fabs(v[2].us / v[0].us - 1) <= 0.05;
		ok.ok_time += slower && poll && back;
		ok.ok_entries += slower && poll_entries && back;
		printf("%u\tgoal\t6.17/6.16 %.3f (%s)\tPOLL time %s, entries %s\t"
		       "6.18/6.16 %.3f (%s)\n",
		       lab_seed(s), v[1].us / v[0].us, slower ? "ok" : "miss", poll ? "ok" : "miss",
		       poll_entries ? "ok" : "miss", v[2].us / v[0].us, back ? "ok" : "miss");
	}
	return ok;
}


/* ---- figures, the baseline and the findings ----------------------------------------------- */

/* The figures `--check FILE` holds against the baseline: name, value, +1 higher is better. */
#define MAX_FIGS 40
static struct figure {
	const char *name;
	double value;
	int better;
} figs[MAX_FIGS];
static int nfigs;

static void fig(const char *name, double value, int better)
{
	if (nfigs < MAX_FIGS)
		figs[nfigs++] = (struct figure){ name, value, better };
}

/* The robust call's figures (the goals). */
static void robust_figures_of(const struct score *t)
{
	fig("fidelity_robust_right_pct", pct(t->r_right, t->diff), 1);
	fig("fidelity_robust_reversed_pct", pct(t->r_reversed, t->diff), -1);
	fig("fidelity_robust_sensitive_pct", pct(t->r_sensitive, t->diff), 0);
	fig("fidelity_robust_missed_pct", pct(t->r_missed, t->diff), -1);
	fig("fidelity_robust_missed_held_pct", pct(t->r_missed_held, t->diff), 0);
	fig("fidelity_robust_false_call_pct", pct(t->r_false, t->same), -1);
	fig("fidelity_robust_same_sensitive_pct", pct(t->r_same_sensitive, t->same), 0);
	fig("fidelity_robust_effect_within_pct", pct(t->r_eff_ok, t->r_eff_n), 1);
	fig("fidelity_robust_effect_off_in_seeds_ci_pct", pct(t->r_eff_off_in_ci, t->r_eff_n), 0);
	fig("fidelity_robust_called_pct", pct(t->r_called, t->distinct), 0);
	fig("fidelity_robust_nominal_only", t->r_nominal_only, 0);
}

/* Every figure; --ensemble 0 has no robust call, so no robust figure (the nominal ones only). */
static void figures_of(const struct score *t, const struct pp_goal *pp, bool pingpong,
		       int members)
{
	fig("fidelity_comparisons_raw", t->raw, 0);
	fig("fidelity_comparisons_distinct", t->distinct, 0);
	fig("fidelity_seeds_differences", t->diff, 0);
	fig("fidelity_seeds_no_difference", t->same, 0);
	fig("fidelity_seeds_untested", t->untested, 0);
	fig("fidelity_ensemble_members", members, 0);
	if (members > 0)
		robust_figures_of(t);
	/* the nominal model's max-T call, as before the ensemble */
	fig("fidelity_nominal_right_pct", pct(t->right, t->diff), 1);
	fig("fidelity_nominal_reversed_pct", pct(t->reversed, t->diff), -1);
	fig("fidelity_nominal_missed_pct", pct(t->missed, t->diff), -1);
	fig("fidelity_nominal_false_call_pct", pct(t->false_calls, t->same), -1);
	fig("fidelity_nominal_effect_within_pct", pct(t->eff_ok, t->eff_n), 1);
	fig("fidelity_nominal_called_pct", pct(t->called, t->distinct), 0);
	fig("fidelity_within_25pct_pct", pct(t->within, t->scored), 1);
	fig("fidelity_seeds_zero", t->zero, 0);
	fig("fidelity_zero_matched_pct", pct(t->zero_ok, t->zero), 1);
	fig("fidelity_stable_pct", pct(t->stable, t->stable_claims), 1);
	if (pingpong)
		fig("fidelity_pingpong_617_seeds_ok", pp->ok_time, 1);
}

static const char *met(bool ok)
{
	return ok ? "met" : "missed";
}

/* Which call the goals score: "robust", or "nominal" under --ensemble 0 (no robust call). */
static const char *goal_call = "robust";

static bool have_robust(void)
{
	return !strcmp(goal_call, "robust");
}

static void print_goal(FILE *f, bool md, const char *what, double part, double whole, bool ok)
{
	char name[256];

	snprintf(name, sizeof(name), what, goal_call);
	fprintf(f, md ? "| %s | %.1f of %.1f (%.1f %%) | %s |\n" :
			"goal %s: %.1f of %.1f (%.1f %%) (%s)\n",
		name, part, whole, pct(part, whole), met(ok));
}

static void print_goals(FILE *f, const struct score *t, bool md)
{
	if (md)
		fprintf(f, "| goal (issue 23; distinct comparisons; the lab's %s call) | lab | "
			   "|\n|---|---|---|\n", goal_call);
	print_goal(f, md, "no %s lab call against the sign of a seeds' difference", t->r_reversed,
		   t->diff, t->r_reversed == 0);
	print_goal(f, md, ">= 80 %% of the seeds' differences called (%s) with the right sign",
		   t->r_right, t->diff, pct(t->r_right, t->diff) >= 80);
	print_goal(f, md, "<= 10 %% %s false calls where the seeds' iterations show no difference",
		   t->r_false, t->same, pct(t->r_false, t->same) <= 10);
	print_goal(f, md, "effect within max(3 %%, 30 %% of the seeds' log ratio) in >= 80 %% of "
		   "the called (%s) differences", t->r_eff_ok, t->r_eff_n,
		   pct(t->r_eff_ok, t->r_eff_n) >= 80);
}

/* The share of each class of the robust call, and the nominal call's figures beside them. */
static void print_classes(FILE *f, const struct score *t, bool md)
{
	const char *li = md ? "* " : "";

	if (!have_robust()) {
		fprintf(f, "%sthe nominal call (no robust call: --ensemble 0): where the seeds differ "
			   "(%.1f) right %.1f %%, reversed %.1f %%, missed %.1f %%; false calls %.1f %% "
			   "where they show none (%.1f); called %.1f of %.1f distinct comparisons\n", li,
			t->diff, pct(t->right, t->diff), pct(t->reversed, t->diff),
			pct(t->missed, t->diff), pct(t->false_calls, t->same), t->same, t->called,
			t->distinct);
		return;
	}
	fprintf(f, "%swhere the seeds differ (%.1f): robust right %.1f %%, reversed %.1f %%, "
		   "sensitive %.1f %%, missed %.1f %% (the nominal call: right %.1f %%, reversed "
		   "%.1f %%, missed %.1f %%)\n", li, t->diff, pct(t->r_right, t->diff),
		pct(t->r_reversed, t->diff), pct(t->r_sensitive, t->diff), pct(t->r_missed, t->diff),
		pct(t->right, t->diff), pct(t->reversed, t->diff), pct(t->missed, t->diff));
	fprintf(f, "%sof the missed ones, %.1f (%.1f %% of the seeds' differences) have the "
		   "seeds' direction on every lab seed, so what misses there is not the model's "
		   "sign: %.1f move the lab's mean by at most the minimum effect (%g %%), the family-"
		   "wise test over the scoreboard's lab seeds does not call the other %.1f\n", li,
		t->r_missed_held, pct(t->r_missed_held, t->diff), t->r_missed_held_small,
		(double)LAB_MIN_EFFECT, t->r_missed_held - t->r_missed_held_small);
	fprintf(f, "%swhere the seeds show none (%.1f): robust false calls %.1f %%, sensitive "
		   "%.1f %%, no call %.1f %% (the nominal call: false calls %.1f %%)\n", li, t->same,
		pct(t->r_false, t->same), pct(t->r_same_sensitive, t->same),
		pct(t->same - t->r_false - t->r_same_sensitive, t->same),
		pct(t->false_calls, t->same));
	fprintf(f, "%sthe lab calls %.1f of %.1f distinct comparisons robustly (%.1f %%), %.1f "
		   "nominally (%.1f %%)\n", li, t->r_called, t->distinct,
		pct(t->r_called, t->distinct), t->called, pct(t->called, t->distinct));
	fprintf(f, "%sthe effect of the robust calls with the seeds' sign (%.1f): within %.1f %%, "
		   "off with the lab's effect smaller than the seeds' %.1f %%, larger %.1f %%\n", li,
		t->r_eff_n, pct(t->r_eff_ok, t->r_eff_n), pct(t->r_eff_smaller, t->r_eff_n),
		pct(t->r_eff_n - t->r_eff_ok - t->r_eff_smaller, t->r_eff_n));
	fprintf(f, "%sof the effects off (%.1f), %.1f (%.1f %% of the called) lie inside the "
		   "seeds' own 95 %% interval of their log ratio (their iterations' spread, the "
		   "delta method), so the seeds cannot tell them from their own; %.1f have no "
		   "interval (single figures)\n", li, t->r_eff_n - t->r_eff_ok, t->r_eff_off_in_ci,
		pct(t->r_eff_off_in_ci, t->r_eff_n), t->r_eff_off_no_ci);
}

/* Which test makes the nominal call: Welch's relabelling or the pairs' sign flips. */
static void print_test(FILE *f, int nseeds, bool md)
{
	if (paired_test)
		fprintf(f, "%sthe nominal call's test: the max-T over the paired t of each "
			   "comparison's %d seed pairs, every one of the 2^%d sign flips (--paired)\n",
			md ? "" : "fidelity: ", nseeds, nseeds);
	else
		fprintf(f, "%sthe nominal call's test: the max-T over Welch's t, every relabelling "
			   "of the %d + %d lab runs (the verdict's)\n",
			md ? "" : "fidelity: ", nseeds, nseeds);
}

/* Which call the figures score: the ensemble behind the robust call. */
static void print_ensemble(FILE *f, const struct ens *e, int nseeds, bool md)
{
	print_test(f, nseeds, md);
	if (e->members <= 0) {
		fprintf(f, "%sno robust call (--ensemble 0: no model variants): the goals score the "
			   "nominal call\n", md ? "" : "fidelity: ");
		return;
	}
	fprintf(f, "%sthe robust call: every nominal call re-judged under the nominal model, %d "
		   "members of the verdict's Latin hypercube (seed %d) and, for the calls and the "
		   "sensitive ones, the ends of every range one at a time (what turns a sensitive "
		   "one), on the same %d lab seeds (%d run settings ran the hypercube, %d some "
		   "range end: %zu lab runs)\n",
		md ? "" : "fidelity: ", e->members, ENS_SEED, nseeds, e->lhs_keys, e->oat_keys,
		e->vlab.nkeys * (size_t)nseeds);
}

static void print_scores(FILE *f, const struct score *t, const char *name, bool md)
{
	if (md) {
		fprintf(f, "| %s | %d / %.1f | %.1f | %.1f (%.0f %%) | %.1f | %.1f | %.1f | "
			   "%.1f (%.1f) / %.1f | %.1f / %.1f | %.1f / %.1f | %d of %d | %d of %d |\n",
			name, t->raw, t->distinct, t->diff, t->r_right, pct(t->r_right, t->diff),
			t->r_reversed, t->r_sensitive, t->r_missed, t->r_false, t->r_same_sensitive,
			t->same, t->r_eff_ok, t->r_eff_n, t->right, t->false_calls, t->within,
			t->scored, t->zero_ok, t->zero);
		return;
	}
	printf("%s\t%d\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t"
	       "%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%d/%d\t%d/%d\n",
	       name, t->raw, t->distinct, t->diff, t->r_right, t->r_reversed, t->r_sensitive,
	       t->r_missed, t->same, t->r_false, t->r_same_sensitive, t->untested, t->r_eff_ok,
	       t->r_eff_n, t->right, t->reversed, t->missed, t->false_calls, t->within, t->scored,
	       t->zero_ok, t->zero);
}

static const char score_head_md[] =
	"| family | comparisons raw / distinct | seeds' differences | robust right | reversed | "
	"sensitive | missed | robust false calls (sensitive) / no difference | effect within / "
	"scored | nominal right / false calls | numbers within +-25 % | seeds' zeros matched |\n"
	"|---|---|---|---|---|---|---|---|---|---|---|---|\n";

static void print_families(const struct score *t)
{
	printf("\n## per family (comparisons weighted: merged ones count once)\n");
	printf("family\traw\tdistinct\tdiff\trobust_right\trobust_reversed\trobust_sensitive\t"
	       "robust_missed\tsame\trobust_false\trobust_same_sensitive\tuntested\t"
	       "robust_eff_ok\trobust_eff_n\tnominal_right\tnominal_reversed\tnominal_missed\t"
	       "nominal_false\twithin25\tzeros_matched\n");
	for (int i = 0; i < nfams; i++)
		print_scores(stdout, &fams[i], fams[i].family, false);
	print_scores(stdout, t, "overall", false);
}

/* --check FILE: every figure of the baseline that has a direction, no worse than there. */
static int check_baseline(const char *path)
{
	FILE *f = fopen(path, "r");
	char name[128];
	double v;
	int worse = 0, line = 0, seen = 0;

	if (!f) {
		fprintf(stderr, "fidelity: %s: %s\n", path, strerror(errno));
		return 1;
	}
	while (fscanf(f, "%127s %lf", name, &v) == 2) {
		int i;

		line++;
		for (i = 0; i < nfigs && strcmp(figs[i].name, name); i++)
			;
		if (i == nfigs) {
			fprintf(stderr, "fidelity: %s:%d: unknown figure %s\n", path, line, name);
			fclose(f);
			return 1;
		}
		seen++;
		/* Figures of another ensemble are not comparable: a bad baseline, not a worse one. */
		if (!strcmp(name, "fidelity_ensemble_members") && v != figs[i].value) {
			fprintf(stderr, "fidelity: %s:%d: the baseline's robust call used %.0f "
				"ensemble members, this run %.0f (--ensemble)\n", path, line, v,
				figs[i].value);
			fclose(f);
			return 1;
		}
		/* The figures print with one decimal: worse by more than the rounding. */
		if (figs[i].better && (figs[i].value - v) * figs[i].better < -0.051) {
			printf("fidelity: %s is worse than the baseline: %.1f (%s: %.1f)\n", name,
			       figs[i].value, path, v);
			worse++;
		}
	}
	if (!feof(f) || !seen) {
		fprintf(stderr, "fidelity: %s:%d: want lines 'fidelity_NAME VALUE'\n", path, line + 1);
		fclose(f);
		return 1;
	}
	fclose(f);
	printf("fidelity: %d figures checked against %s, %d worse\n", seen, path, worse);
	return worse ? 3 : 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: fidelity [--load-only] [--check BASELINE] [--scan] [--seeds N] "
			"[--first-seed S] [--paired] [-j N] [--ensemble N] [--rows PREFIX,...] [--json FILE] "
			"[--markdown FILE] [--progress | --no-progress] SEEDS.TSV\n");
	exit(2);
}

/*
 * --first-seed S: 1 or more, and not with --check: the baseline holds the draw of lab seeds
 * 1..N, another draw differs from it by the scoreboard's noise, not by the model.
 */
static int parse_first_seed(const char *arg, const char *baseline)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || v < 1 || v > 1000000) {
		fprintf(stderr, "fidelity: --first-seed %s: a seed from 1 to 1000000\n", arg);
		return -1;
	}
	if (baseline && v != 1) {
		fprintf(stderr, "fidelity: --check %s holds the draw of lab seeds from 1: not with "
				"--first-seed %lu\n", baseline, v);
		return -1;
	}
	first_seed = (unsigned int)v;
	return 0;
}

/*
 * --paired: the smallest p-value of n pairs' sign flips is 2 / 2^n, which must reach the
 * verdict's alpha (n >= 6); and not with --check, whose baseline is Welch's test.
 */
static int check_paired(int nseeds, const char *baseline)
{
	u64 flips = nseeds < 63 ? (u64)1 << nseeds : UINT64_MAX;

	if (2.0 / (double)flips > LAB_ALPHA) {
		fprintf(stderr, "fidelity: --paired with --seeds %d: %d pairs have %llu sign flips, "
				"whose smallest p-value %.3g is above %g: use --seeds 6 or more\n",
			nseeds, nseeds, (unsigned long long)flips, 2.0 / (double)flips, LAB_ALPHA);
		return -1;
	}
	if (baseline) {
		fprintf(stderr, "fidelity: --check %s holds the figures of Welch's test: not with "
				"--paired\n", baseline);
		return -1;
	}
	return 0;
}

/* @group starts with one of the comma-separated prefixes @rows (NULL: every group). */
static bool row_kept(const char *rows, const char *group)
{
	const char *p = rows;

	if (!rows)
		return true;
	while (*p) {
		size_t len = strcspn(p, ",");

		if (len && !strncmp(group, p, len))
			return true;
		p += len + (p[len] == ',');
	}
	return false;
}

/* Keep the lines of the groups --rows names; Return: how many are left. */
static size_t filter_rows(struct fid_table *t, const char *rows)
{
	size_t k = 0;

	for (size_t i = 0; i < t->n; i++)
		if (row_kept(rows, t->rows[i].group))
			t->rows[k++] = t->rows[i];
	t->n = k;
	return k;
}

static int kv_add(struct il_table *t, const char *key, const char *fmt, double v)
{
	int r = il_table_add_row(t);
	char buf[64];

	snprintf(buf, sizeof(buf), fmt, v);
	if (r < 0 || il_table_set_str(t, r, 0, key) || il_table_set_str(t, r, 1, buf))
		return -1;
	return 0;
}

/*
 * Write the JSON of --json to @path: the summary as key/value rows, the numbers, the
 * comparisons.
 */
static int json_write(struct json_out *j, const char *path, const char *rows, int nseeds)
{
	static const char *const kv[] = { "key", "value" };
	struct il_table sum;
	const struct il_table *tables[3] = { &sum, &j->nums, &j->cmps };
	char tmp[4096];
	FILE *f;
	int r;

	if (il_table_init(&sum, "fidelity", 2, kv))
		return -1;
	r = il_table_add_row(&sum);
	if (r < 0 || il_table_set_str(&sum, r, 0, "rows") ||
	    il_table_set_str(&sum, r, 1, rows ? rows : "all") ||
	    kv_add(&sum, "lab_seeds", "%.0f", nseeds)) {
		il_table_free(&sum);
		return -1;
	}
	for (int i = 0; i < nfigs; i++)
		if (kv_add(&sum, figs[i].name + strlen("fidelity_"), "%.1f", figs[i].value)) {
			il_table_free(&sum);
			return -1;
		}
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	r = !f || il_output_json.write(f, tables, 3);
	if (f && fclose(f))
		r = -1;
	if (!r && rename(tmp, path))
		r = -1;
	if (r) {
		perror(path);
		remove(tmp);
	}
	il_table_free(&sum);
	return r ? -1 : 0;
}

static void md_pingpong(FILE *f, int nseeds)
{
	fprintf(f, "\nDoug's 6.17 finding at the default ping-pong (i5-10600k, 2 CPUs, no QoS; goal: "
		   "6.17 5-20 %% slower than 6.16, POLL 10-30 %% of 6.16's idle time and under 2 %% "
		   "of 6.17's, 6.18 within 5 %% of 6.16):\n\n");
	fprintf(f, "| seed | 6.16 us/loop | 6.17 | 6.18 | 6.17/6.16 | 6.16 POLL time %% | "
		   "entries %% | 6.17 POLL time %% |\n|---|---|---|---|---|---|---|---|\n");
	for (int s = 0; s < nseeds; s++) {
		const struct pp_run *v = pp_vals[s];

		fprintf(f, "| %u | %.3f | %.3f | %.3f | %.3f | %.1f | %.1f | %.1f |\n", lab_seed(s),
			v[0].us, v[1].us, v[2].us, v[1].us / v[0].us, v[0].poll_time_pct,
			v[0].poll_entry_pct, v[1].poll_time_pct);
	}
}

static void md_whys(FILE *f)
{
	fprintf(f, "\nWhat misses, by the one-at-a-time scan (numbers off by more than 25 %%, distinct "
		   "comparisons the robust call misses: no robust call with the seeds' sign where "
		   "they differ, a robust call where they do not): the first scanned parameter whose "
		   "range end makes the lab's call agree with the seeds, none, or, for a sensitive "
		   "call, the parameters whose range ends alone turn it:\n\n");
	for (int i = 0; i < nwhys; i++) {
		const struct why_tally *w = &whys[i];

		fprintf(f, "* **%d off, %.1f missed** (%s): %s\n", w->off, w->missed, w->families,
			w->why);
	}
}

/* --markdown FILE: docs/lab.md's findings, as `make fidelity-doc` puts them between markers. */
static int md_write(const char *path, const struct score *t, int nseeds, bool pingpong,
		    struct pp_goal pp_ok, const struct ens *e)
{
	char tmp[4096];
	FILE *f;
	int r;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		perror(tmp);
		return -1;
	}
	fprintf(f, "<!-- written by `make fidelity-doc` (tests/fidelity/fidelity --scan --markdown) "
		   "from tests/fidelity/seeds.tsv: do not edit by hand -->\n");
	print_goals(f, t, true);
	if (pingpong)
		fprintf(f, "| Doug's 6.17 ping-pong finding on every seed (POLL's share of idle time) "
			   "| %d of %d seeds (%d by its share of idle periods) | %s |\n",
			pp_ok.ok_time, nseeds, pp_ok.ok_entries, met(pp_ok.ok_time == nseeds));
	fprintf(f, "\n");
	print_ensemble(f, e, nseeds, true);
	fprintf(f, "\n");
	print_classes(f, t, true);
	fprintf(f, "\n%s", score_head_md);
	for (int i = 0; i < nfams; i++)
		print_scores(f, &fams[i], fams[i].family, true);
	print_scores(f, t, "**overall**", true);
	if (pingpong)
		md_pingpong(f, nseeds);
	md_whys(f);
	fprintf(f, "\n```\n");
	for (int i = 0; i < nfigs; i++)
		fprintf(f, "%s %.1f\n", figs[i].name, figs[i].value);
	fprintf(f, "```\n");
	r = ferror(f);
	if (fclose(f) || r || rename(tmp, path)) {
		perror(path);
		remove(tmp);
		return -1;
	}
	return 0;
}

/* Doug's finding at the ends of overhead_ns's range (--scan): seeds meeting it at each. */
static const char *const pp_overheads[] = {
	"pingpong:overhead_ns=700", "pingpong:overhead_ns=1100",
};

static void print_pingpong_scan(const struct lab *sl, const int runs[2][3])
{
	for (int o = 0; o < 2; o++) {
		int ok = 0;

		for (int s = 0; s < sl->nseeds; s++) {
			struct pp_run v[3];

			for (int g = 0; g < 3; g++)
				v[g] = pingpong_values(run_res(sl, runs[o][g], s));
			ok += v[1].us >= 1.05 * v[0].us && v[1].us <= 1.20 * v[0].us &&
			      poll_share_ok(v[0].poll_time_pct, v[1].poll_time_pct) &&
			      fabs(v[2].us / v[0].us - 1) <= 0.05;
		}
		printf("scan Doug's 6.17 finding at %s: %d of %d seeds\n", pp_overheads[o], ok,
		       sl->nseeds);
	}
}

static void lab_free(struct lab *lab)
{
	for (size_t i = 0; lab->res && i < lab->nkeys * (size_t)lab->nseeds; i++)
		il_lab_result_free(&lab->res[i]);
	free(lab->res);
	free(lab->specs);
	free(lab->plat);
	free(lab->keys);
}

int main(int argc, char **argv)
{
	struct fid_table t;
	struct lab lab = { .nseeds = 5 };
	struct scan scan = { .lab = { .nseeds = 5 } };
	struct ens ens = { .members = IL_VERDICT_DEFAULT_ENSEMBLE };
	struct score total = { .family = "overall" };
	struct number *num;
	struct cmp *cmps;
	unsigned int threads = 2;
	const char *path = NULL, *rows = NULL, *json = NULL, *markdown = NULL, *baseline = NULL;
	const char *first_seed_arg = NULL;
	struct json_out jo = { .on = false };
	bool load_only = false, do_scan = false, pingpong;
	double pp_lab_s;
	char err[512];
	int pp_runs[3], pp_scan[2][3], rc = 0;
	struct pp_goal pp_ok = { 0, 0 };
	size_t n, ncmp;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--load-only"))
			load_only = true;
		else if (!strcmp(argv[i], "--check") && i + 1 < argc)
			baseline = argv[++i];
		else if (!strcmp(argv[i], "--scan"))
			do_scan = true;
		else if (!strcmp(argv[i], "--seeds") && i + 1 < argc)
			lab.nseeds = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--first-seed") && i + 1 < argc)
			first_seed_arg = argv[++i];
		else if (!strcmp(argv[i], "--ensemble") && i + 1 < argc)
			ens.members = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--paired"))
			paired_test = true;
		else if (!strcmp(argv[i], "-j") && i + 1 < argc)
			threads = (unsigned int)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--rows") && i + 1 < argc)
			rows = argv[++i];
		else if (!strcmp(argv[i], "--json") && i + 1 < argc)
			json = argv[++i];
		else if (!strcmp(argv[i], "--markdown") && i + 1 < argc)
			markdown = argv[++i];
		else if (!strcmp(argv[i], "--progress"))
			progress_mode = PROGRESS_ON;
		else if (!strcmp(argv[i], "--no-progress"))
			progress_mode = PROGRESS_OFF;
		else if (argv[i][0] == '-' || path)
			usage();
		else
			path = argv[i];
	}
	if (!path || lab.nseeds < 2 || lab.nseeds > MAX_SEEDS || !threads || ens.members < 0 ||
	    ens.members > IL_ENS_MAX_MEMBERS)
		usage();
	if (first_seed_arg && parse_first_seed(first_seed_arg, baseline))
		return 2;
	if (paired_test && check_paired(lab.nseeds, baseline))
		return 2;
	if (!ens.members)
		goal_call = "nominal";
	scan.lab.nseeds = lab.nseeds;
	if (fid_load(path, &t, err, sizeof(err))) {
		fprintf(stderr, "fidelity: %s\n", err);
		return 1;
	}
	if (load_only) {
		printf("%s: %zu numbers, every platform, preset, scenario and metric known\n", path,
		       t.n);
		fid_free(&t);
		return 0;
	}
	if (!filter_rows(&t, rows)) {
		fprintf(stderr, "fidelity: no row group starts with %s\n", rows);
		return 2;
	}
	if (json && json_init(&jo))
		return 1;
	num = calloc(t.n, sizeof(*num));
	if (!num)
		return 1;
	n = build_numbers(&t, num);
	if (plan_runs(&lab, num, n))
		return 1;
	pp_lab_s = group_lab_s(&t, "i5-10600k/pingpong-6.17");
	pingpong = row_kept(rows, "i5-10600k/pingpong-6.17") && pp_lab_s > 0;
	for (int g = 0; pingpong && g < 3; g++)
		pp_runs[g] = run_find(&lab, "i5-10600k", "pingpong", pingpong_govs[g], pp_lab_s);
	fprintf(stderr, "fidelity: %zu lab runs (%zu settings x %d seeds) on %u threads\n",
		lab.nkeys * (size_t)lab.nseeds, lab.nkeys, lab.nseeds, threads);
	if (run_lab(&lab, threads))
		return 1;
	compute_lab(&lab, num, n);
	cmps = build_cmps(num, n, lab.nseeds, &ncmp);
	if (!cmps || lab_calls(cmps, ncmp, lab.nseeds) || merge_weights(cmps, ncmp, &lab))
		return 1;
	if (ens_init(&ens, &lab) || robust_calls(&ens, &lab, cmps, ncmp, threads))
		return 1;
	if (do_scan) {
		if (scan_plan(&scan, &lab, cmps, ncmp))
			return 1;
		for (int o = 0; pingpong && o < 2; o++)
			for (int g = 0; g < 3; g++)
				pp_scan[o][g] = run_find(&scan.lab, "i5-10600k", pp_overheads[o],
							 pingpong_govs[g], pp_lab_s);
		fprintf(stderr, "fidelity: the scan: %zu lab runs\n",
			scan.lab.nkeys * (size_t)scan.lab.nseeds);
		if (run_lab(&scan.lab, threads))
			return 1;
	}
	if (print_numbers(num, n, &total, do_scan ? &scan : NULL, &jo) ||
	    print_comparisons(cmps, ncmp, lab.nseeds, &total, do_scan ? &scan : NULL, &jo))
		return 1;
	if (pingpong)
		pp_ok = print_pingpong_goal(&lab, pp_runs);
	if (pingpong && do_scan)
		print_pingpong_scan(&scan.lab, pp_scan);
	print_families(&total);

	printf("\n## goals\n");
	print_ensemble(stdout, &ens, lab.nseeds, false);
	print_goals(stdout, &total, false);
	print_classes(stdout, &total, false);
	if (pingpong)
		printf("goal Doug's 6.17 ping-pong finding on every seed: %d of %d seeds by POLL's "
		       "share of idle time (%s); %d of %d by its share of idle periods (%s)\n",
		       pp_ok.ok_time, lab.nseeds, met(pp_ok.ok_time == lab.nseeds),
		       pp_ok.ok_entries, lab.nseeds, met(pp_ok.ok_entries == lab.nseeds));

	figures_of(&total, &pp_ok, pingpong, ens.members);
	printf("\nfidelity_seeds_lines %zu\n", t.n);
	printf("fidelity_numbers %d\n", total.numbers);
	printf("fidelity_numbers_not_run %d\n", total.unmodeled);
	printf("fidelity_numbers_sized %d\n", total.scored);
	for (int i = 0; i < nfigs; i++)
		printf("%s %.1f\n", figs[i].name, figs[i].value);
	if (json && json_write(&jo, json, rows, lab.nseeds))
		return 1;
	if (markdown && md_write(markdown, &total, lab.nseeds, pingpong, pp_ok, &ens))
		return 1;
	if (baseline)
		rc = check_baseline(baseline);
	if (jo.on) {
		il_table_free(&jo.nums);
		il_table_free(&jo.cmps);
	}
	lab_free(&lab);
	lab_free(&scan.lab);
	ens_free(&ens);
	free(scan.var);
	free(scan.first);
	free(cmps);
	free(num);
	fid_free(&t);
	return rc;
}
