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
		[IL_VERDICT_NA] = "n/a",
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
	v->na = NULL;
	v->runs = NULL;
	v->cells = NULL;
}

size_t il_verdict_index(const struct il_verdict *v, int p, int s, int g, int it)
{
	return (((size_t)p * (size_t)v->nscn + (size_t)s) * (size_t)v->ngov + (size_t)g) *
		       (size_t)v->n +
	       (size_t)it;
}

/* The values of metric @m of governor @g's runs on (@p, @s) into @x; Return: 0, or -1 + why. */
static int cell_values(const struct il_verdict *v, int p, int s, int g, enum il_vmetric m,
		       double *x, const char **why)
{
	for (int it = 0; it < v->n; it++)
		if (il_vmetric_value(m, v->scn[s], &v->args[s],
				     &v->runs[il_verdict_index(v, p, s, g, it)], &x[it], why))
			return -1;
	return 0;
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
		[IL_VERDICT_WORSE] = 0, [IL_VERDICT_SAME] = 1, [IL_VERDICT_UNJUDGED] = 1,
		[IL_VERDICT_BETTER] = 2, [IL_VERDICT_NA] = 3,
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

int il_verdict_judge(struct il_verdict *v, const struct il_verdict_opts *o)
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
		}
	}
}

const char *il_verdict_cell_delta(const struct il_verdict_cell *c, char *buf, size_t cap)
{
	if (c->cls == IL_VERDICT_NA)
		snprintf(buf, cap, "-");
	else if (isnan(c->d.rel))
		snprintf(buf, cap, c->d.diff == 0.0 ? "0 (both 0)" : "%+.4g from 0", c->d.diff);
	else if (isnan(c->d.rel_lo))
		snprintf(buf, cap, "%+.1f %%", c->d.rel);
	else
		snprintf(buf, cap, "%+.1f %% [%+.1f, %+.1f]", c->d.rel, c->d.rel_lo, c->d.rel_hi);
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

const char *il_verdict_summary(const struct il_verdict *v, int g, char *buf, size_t cap)
{
	struct il_verdict_count k;
	size_t len;

	il_verdict_counts(v, g, &k);
	len = (size_t)snprintf(buf, cap, "%s vs %s on %d platform%s × %d scenario%s, %d seed%s%s: ",
			       v->gov[g], v->gov[v->base], v->nplat, v->nplat == 1 ? "" : "s",
			       v->nscn, v->nscn == 1 ? "" : "s", v->n, v->n == 1 ? "" : "s",
			       v->paired ? "" : " each, unpaired");
	if (len >= cap)
		return buf;
	if (!v->judged) {
		len += (size_t)snprintf(buf + len, cap - len, "means only, no verdict in %d cells "
					"(one run a side has no spread to judge a difference "
					"against; use --iter 5)", k.unjudged);
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
		len += (size_t)snprintf(buf + len, cap - len, ", same in %d", k.same);
	if (len < cap && k.na)
		snprintf(buf + len, cap - len, ", n/a in %d", k.na);
	return buf;
}
