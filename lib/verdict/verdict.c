// SPDX-License-Identifier: GPL-2.0-only
/*
 * verdict.c - the cells of a verdict, their test and classification, the order they are
 * shown in, and the summary line (see verdict.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verdict.h"

/* Cells named in a summary line before "…". */
#define SUMMARY_CELLS 3

const char *il_verdict_class_name(enum il_verdict_class c)
{
	static const char *const names[] = {
		[IL_VERDICT_WORSE] = "worse", [IL_VERDICT_SAME] = "same",
		[IL_VERDICT_BETTER] = "better", [IL_VERDICT_UNJUDGED] = "-",
		[IL_VERDICT_NA] = "n/a", [IL_VERDICT_SENSITIVE] = "sensitive",
	};

	return names[c];
}

int il_verdict_init(struct il_verdict *v, int nplat, int nscn, int ngov, int base, int n)
{
	memset(v, 0, sizeof(*v));
	if (nplat < 1 || nscn < 1 || ngov < 2 || base < 0 || base >= ngov || n < 1) {
		errno = EINVAL;
		return -1;
	}
	v->nplat = nplat;
	v->nscn = nscn;
	v->ngov = ngov;
	v->base = base;
	v->n = n;
	v->nvar_max = 1;
	v->na = calloc((size_t)nplat * (size_t)nscn, sizeof(*v->na));
	v->runs = calloc((size_t)nplat * (size_t)nscn * (size_t)ngov * (size_t)n, sizeof(*v->runs));
	if (!v->na || !v->runs) {
		il_verdict_free(v);
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

void il_verdict_free(struct il_verdict *v)
{
	free(v->na);
	free(v->runs);
	free(v->cells);
	free(v->space);
	free(v->power_assumed);
	v->power_assumed = NULL;
	v->na = NULL;
	v->runs = NULL;
	v->cells = NULL;
	v->space = NULL;
}

size_t il_verdict_vindex(const struct il_verdict *v, int p, int s, int var, int g, int it)
{
	size_t pair = (size_t)p * (size_t)v->nscn + (size_t)s;

	return ((pair * (size_t)v->nvar_max + (size_t)var) * (size_t)v->ngov + (size_t)g) *
		       (size_t)v->n +
	       (size_t)it;
}

size_t il_verdict_index(const struct il_verdict *v, int p, int s, int g, int it)
{
	return il_verdict_vindex(v, p, s, 0, g, it);
}

int il_verdict_nvar(const struct il_verdict *v, int p, int s)
{
	return v->space ? il_ens_nvar(&v->space[p * v->nscn + s], v->ensemble) : 1;
}

int il_verdict_ensemble_init(struct il_verdict *v, const struct il_platform *plat, int ensemble,
			     u64 seed, struct il_error *err)
{
	size_t pairs = (size_t)v->nplat * (size_t)v->nscn;

	v->ensemble = ensemble;
	v->ens_seed = seed;
	v->models = plat;
	v->power_assumed = calloc((size_t)v->nplat, sizeof(bool));
	if (!v->power_assumed) {
		errno = ENOMEM;
		return -1;
	}
	for (int p = 0; p < v->nplat; p++)
		for (int i = 0; i < plat[p].nunc; i++)
			v->power_assumed[p] |= il_plat_field_is_power(plat[p].unc[i].field) &&
					       plat[p].unc[i].cls == IL_UNC_ASSUMED;
	if (ensemble <= 0)
		return 0;
	if (ensemble > IL_ENS_MAX_MEMBERS) {
		errno = EINVAL;
		return -1;
	}
	v->space = calloc(pairs, sizeof(*v->space));
	if (!v->space) {
		errno = ENOMEM;
		return -1;
	}
	v->nvar_max = 1;
	for (int p = 0; p < v->nplat; p++)
		for (int s = 0; s < v->nscn; s++) {
			struct il_ens_space *sp = &v->space[p * v->nscn + s];

			if (il_ens_space_of(&plat[p], v->scn[s], &v->args[s],
					    v->common ? &v->common[s] : NULL, sp, err))
				return -1;
			if (il_ens_nvar(sp, ensemble) > v->nvar_max)
				v->nvar_max = il_ens_nvar(sp, ensemble);
		}
	free(v->runs);
	v->runs = calloc(pairs * (size_t)v->nvar_max * (size_t)v->ngov * (size_t)v->n,
			 sizeof(*v->runs));
	if (!v->runs) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

bool il_verdict_power_only(const struct il_verdict *v, int p, int s, int var)
{
	const struct il_ens_space *sp = v->space ? &v->space[p * v->nscn + s] : NULL;
	double vals[IL_ENS_MAX_PARAMS];

	if (!sp || !var || var >= il_ens_nvar(sp, v->ensemble))
		return false;
	/*
	 * Every number but power at its nominal value: a power number's end, an end at the
	 * nominal value, a hypercube member of a pair whose other numbers are all power or a
	 * set's nominal value (hz 250 of 250,1000). Its simulation is the nominal one.
	 */
	il_ens_values(sp, v->ensemble, v->ens_seed, var, vals);
	for (int j = 0; j < sp->k; j++)
		if (!sp->p[j].power && vals[j] != sp->p[j].nominal)
			return false;
	return true;
}

bool il_verdict_derived(const struct il_verdict *v, int p, int s, int var)
{
	/* Per-CPU tables and power domains price each CPU and each physical state on its own
	 * (il_cpu_energy_j(), lib/sim/domain.c): the summed times cannot be re-priced. Run it
	 * (run.c prices such variants of one seed in one simulation). */
	if (v->models && (v->models[p].ntables > 1 || v->models[p].ndomains))
		return false;
	return il_verdict_power_only(v, p, s, var);
}

/* The runs of derived variant @var of (@p, @s): the nominal runs, their energy recomputed. */
static int derive_variant(struct il_verdict *v, int p, int s, int var)
{
	const struct il_ens_space *sp = &v->space[p * v->nscn + s];
	struct il_platform *plat = malloc(sizeof(*plat));
	struct il_scn_args args = { 0 }; /* a power number's end sets no scenario parameter */
	double vals[IL_ENS_MAX_PARAMS];

	if (!plat) {
		errno = ENOMEM;
		return -1;
	}
	*plat = v->models[p];
	il_ens_values(sp, v->ensemble, v->ens_seed, var, vals);
	il_ens_apply(sp, vals, plat, &args);
	for (int g = 0; g < v->ngov; g++)
		for (int it = 0; it < v->n; it++)
			il_verdict_joules(&v->runs[il_verdict_index(v, p, s, g, it)], plat,
					  &v->runs[il_verdict_vindex(v, p, s, var, g, it)]);
	free(plat);
	return 0;
}

/* Fill the derived variants' runs of every pair from its nominal runs; Return: 0 or -1. */
static int derive_runs(struct il_verdict *v)
{
	for (int p = 0; v->space && p < v->nplat; p++)
		for (int s = 0; s < v->nscn; s++)
			for (int var = 1; var < il_verdict_nvar(v, p, s); var++)
				if (il_verdict_derived(v, p, s, var) &&
				    !v->na[p * v->nscn + s][0] && derive_variant(v, p, s, var))
					return -1;
	return 0;
}

/* The values of metric @m of governor @g's runs on (@p, @s) under variant @var into @x. */
static int cell_values_var(const struct il_verdict *v, int p, int s, int var, int g,
			   enum il_vmetric m, double *x, const char **why)
{
	for (int it = 0; it < v->n; it++)
		if (il_vmetric_value(m, v->scn[s], &v->args[s],
				     &v->runs[il_verdict_vindex(v, p, s, var, g, it)], &x[it], why))
			return -1;
	return 0;
}

/* The values of metric @m of governor @g's runs on (@p, @s) into @x; Return: 0, or -1 + why. */
static int cell_values(const struct il_verdict *v, int p, int s, int g, enum il_vmetric m,
		       double *x, const char **why)
{
	return cell_values_var(v, p, s, 0, g, m, x, why);
}

static bool all_zero(const double *x, int n)
{
	for (int i = 0; i < n; i++)
		if (x[i] != 0.0)
			return false;
	return true;
}

static double mean_of(const double *x, int n)
{
	double sum = 0.0;

	for (int i = 0; i < n; i++)
		sum += x[i];
	return sum / n;
}

/*
 * Δ % in the metric's bad direction, the sort key. A change from a zero mean has no
 * percentage; it sorts at 0, after the worse and before the better cells that have one.
 */
static double badness_of(const struct il_verdict_cell *c, bool higher_better)
{
	double rel = isnan(c->d.rel) ? 0.0 : c->d.rel;

	return higher_better ? -rel : rel;
}

/* Whether the mean moved in the metric's bad direction. */
static bool moved_bad(const struct il_verdict_cell *c, bool higher_better)
{
	return higher_better ? c->d.diff < 0 : c->d.diff > 0;
}

struct family {
	int m;
	int *cell;                 /* cell index per member */
	struct il_stat_cell *sc;
	double *vals;              /* 2n per member */
	double *t, *p;
};

static int family_alloc(struct family *f, int cap, int n)
{
	memset(f, 0, sizeof(*f));
	f->cell = calloc((size_t)cap, sizeof(*f->cell));
	f->sc = calloc((size_t)cap, sizeof(*f->sc));
	f->vals = calloc((size_t)cap * 2 * (size_t)n, sizeof(*f->vals));
	f->t = calloc((size_t)cap, sizeof(*f->t));
	f->p = calloc((size_t)cap, sizeof(*f->p));
	return f->cell && f->sc && f->vals && f->t && f->p ? 0 : -1;
}

static void family_free(struct family *f)
{
	free(f->cell);
	free(f->sc);
	free(f->vals);
	free(f->t);
	free(f->p);
}

/*
 * Fill cell @c (governor @g on (@p, @s), metric @m): its means and difference, or n/a, or
 * `same` when the metric is zero on both sides; a cell left to test joins @f.
 */
static int cell_prepare(struct il_verdict *v, const struct il_verdict_opts *o,
			struct il_verdict_cell *c, struct family *f)
{
	double *a = f->vals + (size_t)f->m * 2 * (size_t)v->n, *b = a + v->n;
	const char *why = NULL;

	c->t = c->p_adj = NAN;
	c->base_mean = c->new_mean = NAN;
	if (v->na[c->p * v->nscn + c->s][0]) {
		c->cls = IL_VERDICT_NA;
		snprintf(c->why, sizeof(c->why), "%s", v->na[c->p * v->nscn + c->s]);
		return 0;
	}
	if (cell_values(v, c->p, c->s, v->base, c->metric, a, &why) ||
	    cell_values(v, c->p, c->s, c->g, c->metric, b, &why)) {
		c->cls = IL_VERDICT_NA;
		snprintf(c->why, sizeof(c->why), "%s", why);
		return 0;
	}
	c->base_mean = mean_of(a, v->n);
	c->new_mean = mean_of(b, v->n);
	if (il_stat_diff(a, v->n, b, v->n, o->paired ? IL_STAT_PAIRED : IL_STAT_WELCH,
			 IL_STAT_LEVEL, &c->d))
		return -1;
	c->nvar = 1;
	c->model_lo = c->model_hi = c->d.rel;
	c->lo = isnan(c->d.rel_lo) ? c->d.rel : c->d.rel_lo;
	c->hi = isnan(c->d.rel_hi) ? c->d.rel : c->d.rel_hi;
	c->badness = badness_of(c, il_vmetric_higher_better(c->metric, v->scn[c->s]));
	if (v->n < 2) {
		c->cls = IL_VERDICT_UNJUDGED;
		return 0;
	}
	if (all_zero(a, v->n) && all_zero(b, v->n)) {
		c->cls = IL_VERDICT_SAME;
		c->p_adj = 1.0;
		return 0;
	}
	f->sc[f->m].a = a;
	f->sc[f->m].b = b;
	f->cell[f->m++] = (int)(c - v->cells);
	return 0;
}

static bool beyond_effect(const struct il_verdict_cell *c, double min_pct)
{
	if (isnan(c->d.rel))
		return c->d.diff != 0.0; /* from a zero mean: any change is unbounded */
	return fabs(c->d.rel) > min_pct;
}

static void classify(struct il_verdict *v, const struct il_verdict_opts *o,
		     struct il_verdict_cell *c)
{
	if (c->p_adj <= o->alpha && beyond_effect(c, o->min_effect_pct))
		c->cls = moved_bad(c, il_vmetric_higher_better(c->metric, v->scn[c->s])) ?
			IL_VERDICT_WORSE : IL_VERDICT_BETTER;
	else
		c->cls = IL_VERDICT_SAME;
}

/* The family of governor @g: every testable cell, one max-T test. */
static int judge_family(struct il_verdict *v, const struct il_verdict_opts *o, int first, int count)
{
	struct family f;
	int ret = -1;

	if (family_alloc(&f, count, v->n))
		goto out;
	for (int i = first; i < first + count; i++)
		if (cell_prepare(v, o, &v->cells[i], &f))
			goto out;
	if (f.m && v->n >= 2) {
		v->perm = (struct il_stat_perm){ .na = v->n,
						 .nb = v->n,
						 .max_perm = IL_VERDICT_MAX_PERM,
						 .draws = IL_VERDICT_DRAWS,
						 .seed = o->perm_seed };
		if (il_stat_maxt(f.sc, f.m, &v->perm, f.t, f.p))
			goto out;
		for (int k = 0; k < f.m; k++) {
			struct il_verdict_cell *c = &v->cells[f.cell[k]];

			c->t = f.t[k];
			c->p_adj = f.p[k];
			classify(v, o, c);
		}
	}
	ret = 0;
out:
	if (ret && !errno)
		errno = ENOMEM;
	family_free(&f);
	return ret;
}

static int class_rank(enum il_verdict_class c)
{
	static const int rank[] = {
		[IL_VERDICT_WORSE] = 0, [IL_VERDICT_SENSITIVE] = 1, [IL_VERDICT_SAME] = 2,
		[IL_VERDICT_UNJUDGED] = 2, [IL_VERDICT_BETTER] = 3, [IL_VERDICT_NA] = 4,
	};

	return rank[c];
}

/* Worst first: per governor, worse cells, then same, better, n/a; within a class by badness. */
static int by_worst(const void *pa, const void *pb)
{
	const struct il_verdict_cell *a = pa, *b = pb;

	if (a->g != b->g)
		return a->g - b->g;
	if (class_rank(a->cls) != class_rank(b->cls))
		return class_rank(a->cls) - class_rank(b->cls);
	if (a->cls != IL_VERDICT_NA && a->badness != b->badness)
		return a->badness > b->badness ? -1 : 1;
	if (a->p != b->p)
		return a->p - b->p;
	if (a->s != b->s)
		return a->s - b->s;
	return (int)a->metric - (int)b->metric;
}

/* The nominal judgement: every governor's family under the nominal model, unsorted. */
static int judge_nominal(struct il_verdict *v, const struct il_verdict_opts *o)
{
	int nm = 0, k = 0;

	for (int m = 0; m < IL_VM_COUNT; m++)
		nm += !!(o->metrics & (1u << m));
	if (!nm) {
		errno = EINVAL;
		return -1;
	}
	free(v->cells);
	v->ncells = (v->ngov - 1) * v->nplat * v->nscn * nm;
	v->cells = calloc((size_t)v->ncells, sizeof(*v->cells));
	if (!v->cells) {
		errno = ENOMEM;
		return -1;
	}
	v->judged = v->n >= 2;
	v->paired = o->paired;
	for (int g = 0; g < v->ngov; g++) {
		int first = k;

		if (g == v->base)
			continue;
		for (int p = 0; p < v->nplat; p++)
			for (int s = 0; s < v->nscn; s++)
				for (int m = 0; m < IL_VM_COUNT; m++)
					if (o->metrics & (1u << m))
						v->cells[k++] = (struct il_verdict_cell){
							.p = p, .s = s, .g = g, .metric = m
						};
		if (judge_family(v, o, first, k - first))
			return -1;
	}
	return 0;
}

/* Whether cell @c under the nominal model may be called: the screen of the ensemble. */
static bool candidate(const struct il_verdict_cell *c, const struct il_verdict_opts *o)
{
	double screen = o->alpha > IL_VERDICT_SCREEN_P ? o->alpha : IL_VERDICT_SCREEN_P;

	return c->cls != IL_VERDICT_NA && !isnan(c->p_adj) && c->p_adj <= screen &&
	       beyond_effect(c, o->min_effect_pct);
}

/*
 * Cell @c over variants [0, @nvar) of its pair: its class, model spread and envelope
 * (il_verdict_classify_cell()); with @oat, the parameters whose range ends alone change its
 * direction into c->flips.
 */
static int judge_cell_variants(struct il_verdict *v, const struct il_verdict_opts *o,
			       struct il_verdict_cell *c, int nvar, bool oat, double *buf)
{
	const struct il_ens_space *sp = &v->space[c->p * v->nscn + c->s];
	double *a = buf, *b = buf + (size_t)nvar * v->n;
	struct il_robust_out out;
	struct il_robust_in in = {
		.nvar = nvar, .n = v->n, .base = a, .new_ = b, .paired = o->paired,
		.higher_better = il_vmetric_higher_better(c->metric, v->scn[c->s]),
		.min_effect_pct = o->min_effect_pct, .alpha = o->alpha, .p_adj = c->p_adj,
	};
	const char *why;

	for (int var = 0; var < nvar; var++)
		if (cell_values_var(v, c->p, c->s, var, v->base, c->metric, a + var * v->n, &why) ||
		    cell_values_var(v, c->p, c->s, var, c->g, c->metric, b + var * v->n, &why))
			return 0; /* a variant without a value (no energy): the nominal call */
	if (il_verdict_classify_cell(&in, &out))
		return -1;
	c->cls = isnan(c->p_adj) && out.cls != IL_VERDICT_SENSITIVE ? c->cls : out.cls;
	c->nvar = nvar;
	c->model_lo = out.model_lo;
	c->model_hi = out.model_hi;
	c->lo = out.lo;
	c->hi = out.hi;
	c->flips[0] = '\0';
	if (oat && c->cls != IL_VERDICT_SAME)
		il_verdict_flips(c->flips, sizeof(c->flips), sp, out.dir + v->ensemble + 1,
				 out.dir[0]);
	return 0;
}

/*
 * Judge the ensemble's stages up to @upto (0: the nominal model only; 1: the hypercube of
 * the screened pairs; 2: the range ends of the pairs with a called or sensitive cell);
 * @need, when given, marks the pairs the next stage asks for.
 */
static int judge_stages(struct il_verdict *v, const struct il_verdict_opts *o, int upto,
			bool *need)
{
	size_t pairs = (size_t)v->nplat * (size_t)v->nscn;
	bool *stage1 = calloc(pairs, sizeof(bool)), *stage2 = calloc(pairs, sizeof(bool));
	double *buf = calloc(2 * (size_t)v->nvar_max * (size_t)v->n, sizeof(double));
	int ret = -1;

	if (!stage1 || !stage2 || !buf) {
		errno = ENOMEM;
		goto out;
	}
	if (judge_nominal(v, o))
		goto out;
	if (derive_runs(v))
		goto out;
	v->ens_runs = v->oat_runs = 0;
	for (int i = 0; v->space && v->judged && i < v->ncells; i++) {
		const struct il_verdict_cell *c = &v->cells[i];
		int ps = c->p * v->nscn + c->s;

		stage1[ps] |= il_verdict_nvar(v, c->p, c->s) > 1 && candidate(c, o);
	}
	for (size_t ps = 0; upto >= 1 && ps < pairs; ps++)
		v->ens_runs += stage1[ps];
	for (int i = 0; upto >= 1 && i < v->ncells; i++) {
		struct il_verdict_cell *c = &v->cells[i];
		int ps = c->p * v->nscn + c->s;

		if (!stage1[ps] || c->cls == IL_VERDICT_NA || c->cls == IL_VERDICT_UNJUDGED)
			continue;
		if (judge_cell_variants(v, o, c, 1 + v->ensemble, false, buf))
			goto out;
		stage2[ps] |= c->cls == IL_VERDICT_BETTER || c->cls == IL_VERDICT_WORSE ||
			      c->cls == IL_VERDICT_SENSITIVE;
	}
	for (size_t ps = 0; upto >= 2 && ps < pairs; ps++)
		v->oat_runs += stage2[ps];
	for (int i = 0; upto >= 2 && i < v->ncells; i++) {
		struct il_verdict_cell *c = &v->cells[i];

		if (stage2[c->p * v->nscn + c->s] && c->cls != IL_VERDICT_NA &&
		    c->cls != IL_VERDICT_UNJUDGED &&
		    judge_cell_variants(v, o, c, il_verdict_nvar(v, c->p, c->s), true, buf))
			goto out;
	}
	if (need)
		memcpy(need, upto == 0 ? stage1 : stage2, pairs * sizeof(bool));
	ret = 0;
out:
	free(stage1);
	free(stage2);
	free(buf);
	return ret;
}

int il_verdict_needs(struct il_verdict *v, const struct il_verdict_opts *o, int stage, bool *need)
{
	return judge_stages(v, o, stage - 1, need);
}

int il_verdict_judge(struct il_verdict *v, const struct il_verdict_opts *o)
{
	if (judge_stages(v, o, 2, NULL))
		return -1;
	qsort(v->cells, (size_t)v->ncells, sizeof(*v->cells), by_worst);
	return 0;
}

void il_verdict_counts(const struct il_verdict *v, int g, struct il_verdict_count *c)
{
	memset(c, 0, sizeof(*c));
	for (int i = 0; i < v->ncells; i++) {
		if (v->cells[i].g != g)
			continue;
		switch (v->cells[i].cls) {
		case IL_VERDICT_WORSE:
			c->worse++;
			break;
		case IL_VERDICT_SAME:
			c->same++;
			break;
		case IL_VERDICT_BETTER:
			c->better++;
			break;
		case IL_VERDICT_UNJUDGED:
			c->unjudged++;
			break;
		case IL_VERDICT_NA:
			c->na++;
			break;
		case IL_VERDICT_SENSITIVE:
			c->sensitive++;
			break;
		}
	}
}

const char *il_verdict_cell_note(const struct il_verdict *v, const struct il_verdict_cell *c,
				 char *buf, size_t cap)
{
	const char *nominal = v->words ? v->words->nominal : NULL;
	size_t len = 0;

	buf[0] = '\0';
	if (c->cls == IL_VERDICT_NA)
		return snprintf(buf, cap, "%s", c->why), buf;
	if (c->flips[0])
		len += (size_t)snprintf(buf, cap, "flips with %s", c->flips);
	else if (c->cls == IL_VERDICT_SENSITIVE)
		len += (size_t)snprintf(buf, cap, "no single range end changes it: several "
					"parameters together");
	if ((int)c->metric != IL_VM_ENERGY || !v->power_assumed || !v->power_assumed[c->p] ||
	    len >= cap)
		return buf;
	len += (size_t)snprintf(buf + len, cap - len, "%srests on assumed power numbers",
				len ? "; " : "");
	if (c->nvar > 1 || len >= cap)
		return buf;
	if (v->ensemble)
		snprintf(buf + len, cap - len, " (not in the ensemble: no candidate effect)");
	else
		snprintf(buf + len, cap - len, " (%s%stheir ranges not tried)",
			 nominal ? nominal : "", nominal ? ": " : "");
	return buf;
}

const char *il_verdict_cell_delta(const struct il_verdict_cell *c, char *buf, size_t cap)
{
	if (c->cls == IL_VERDICT_NA)
		snprintf(buf, cap, "-");
	else if (isnan(c->d.rel))
		snprintf(buf, cap, c->d.diff == 0.0 ? "0 (both 0)" : "%+.4g from 0", c->d.diff);
	else if (isnan(c->d.rel_lo) && c->nvar <= 1)
		snprintf(buf, cap, "%+.1f %%", c->d.rel);
	else
		snprintf(buf, cap, "%+.1f %% [%+.1f, %+.1f]", c->d.rel, c->lo, c->hi);
	return buf;
}

/* "i5-10600k pingpong:cpus=2 us_per_loop +11.0 % [+9.1, +12.9]" */
static int cell_text(const struct il_verdict *v, const struct il_verdict_cell *c, char *buf,
		     size_t cap)
{
	char name[64], delta[96];

	return snprintf(buf, cap, "%s %s %s %s", v->plat[c->p], v->spec[c->s],
			il_vmetric_name(c->metric, v->scn[c->s], name, sizeof(name)),
			il_verdict_cell_delta(c, delta, sizeof(delta)));
}

/* Append the first cells of class @cls of governor @g: " (a; b; c …)". */
static size_t list_cells(const struct il_verdict *v, int g, enum il_verdict_class cls, char *buf,
			 size_t cap)
{
	size_t len = 0;
	int shown = 0, total = 0;

	/* Worse cells from the worst, better ones from the best: the end of the order. */
	for (int j = 0; j < v->ncells; j++) {
		const struct il_verdict_cell *c =
			&v->cells[cls == IL_VERDICT_BETTER ? v->ncells - 1 - j : j];

		if (c->g != g || c->cls != cls)
			continue;
		if (total++ >= SUMMARY_CELLS)
			continue;
		len += (size_t)snprintf(buf + len, len < cap ? cap - len : 0, "%s",
					shown++ ? "; " : " (");
		if (len < cap)
			len += (size_t)cell_text(v, c, buf + len, cap - len);
	}
	if (shown && len < cap)
		len += (size_t)snprintf(buf + len, cap - len, "%s)", total > shown ? " …" : "");
	return len;
}

/* Whether a pair of @v declares an uncertain number (what its ensemble can vary). */
static bool any_uncertain(const struct il_verdict *v)
{
	for (int i = 0; v->space && i < v->nplat * v->nscn; i++)
		if (v->space[i].k)
			return true;
	return false;
}

const char *il_verdict_summary(const struct il_verdict *v, int g, char *buf, size_t cap)
{
	struct il_verdict_count k;
	size_t len;

	il_verdict_counts(v, g, &k);
	len = (size_t)snprintf(buf, cap, "%s vs %s on %d platform%s × %d scenario%s, %d seed%s%s, ",
			       v->gov[g], v->gov[v->base], v->nplat, v->nplat == 1 ? "" : "s",
			       v->nscn, v->nscn == 1 ? "" : "s", v->n, v->n == 1 ? "" : "s",
			       v->paired ? "" : " each, unpaired");
	if (len < cap && v->ensemble)
		len += (size_t)snprintf(buf + len, cap - len, "ensemble of %d model variants "
					"(pairs screened in: %d, scanned: %d%s)", v->ensemble,
					v->ens_runs, v->oat_runs, any_uncertain(v) ? "" :
					"; no pair declares an uncertain number: the nominal "
					"model");
	else if (len < cap && v->words && v->words->nominal)
		len += (size_t)snprintf(buf + len, cap - len, "nominal model only (%s)",
					v->words->nominal);
	else if (len < cap)
		len += (size_t)snprintf(buf + len, cap - len, "nominal model only");
	if (len < cap)
		len += (size_t)snprintf(buf + len, cap - len, ": ");
	if (len >= cap)
		return buf;
	if (!v->judged) {
		len += (size_t)snprintf(buf + len, cap - len, "means only, no verdict in %d cells "
					"(one run a side has no spread to judge a difference "
					"against%s%s)", k.unjudged,
					v->words && v->words->more_iter ? "; use " : "",
					v->words && v->words->more_iter ? v->words->more_iter : "");
		if (len < cap && k.na)
			snprintf(buf + len, cap - len, ", n/a in %d", k.na);
		return buf;
	}
	len += (size_t)snprintf(buf + len, cap - len, "worse in %d cell%s", k.worse,
				k.worse == 1 ? "" : "s");
	if (len < cap)
		len += list_cells(v, g, IL_VERDICT_WORSE, buf + len, cap - len);
	if (len < cap)
		len += (size_t)snprintf(buf + len, cap - len, ", better in %d", k.better);
	if (len < cap)
		len += list_cells(v, g, IL_VERDICT_BETTER, buf + len, cap - len);
	if (len < cap)
		len += (size_t)snprintf(buf + len, cap - len, ", sensitive in %d", k.sensitive);
	if (len < cap)
		len += list_cells(v, g, IL_VERDICT_SENSITIVE, buf + len, cap - len);
	if (len < cap)
		len += (size_t)snprintf(buf + len, cap - len, ", same in %d", k.same);
	if (len < cap && k.na)
		snprintf(buf + len, cap - len, ", n/a in %d", k.na);
	return buf;
}
