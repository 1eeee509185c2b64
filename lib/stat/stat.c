// SPDX-License-Identifier: GPL-2.0-only
/*
 * stat.c - summaries, differences and the step-down max-T permutation test (see stat.h).
 *
 * Student's t distribution comes from libRmath (Debian's r-mathlib, R's standalone
 * mathematics library, GPL-2+), not from tables of our own.
 */
#define _GNU_SOURCE /* qsort_r */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MATHLIB_STANDALONE 1
#include <Rmath.h>

#include "stat.h"
#include "../util/rng.h"

/* Relative size below which a spread or a difference is rounding, not data. */
#define STAT_ZERO_REL 1e-12
/* Relative tolerance when a relabelled statistic is compared with the observed one. */
#define STAT_TIE_REL 1e-9

double il_stat_t_quantile(double prob, double df)
{
	return qt(prob, df, 1, 0);
}

double il_stat_t_sf2(double t, double df)
{
	if (isnan(t) || isnan(df))
		return NAN;
	if (isinf(t))
		return 0.0;
	return 2.0 * pt(fabs(t), df, 0, 0);
}

static double mean_of(const double *x, int n)
{
	double sum = 0.0;

	for (int i = 0; i < n; i++)
		sum += x[i];
	return sum / n;
}

/* The sample variance around @mean (two passes: no cancellation for large, close values). */
static double var_of(const double *x, int n, double mean)
{
	double ss = 0.0;

	if (n < 2)
		return 0.0;
	for (int i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	return ss / (n - 1);
}

static double abs_max(const double *x, int n)
{
	double m = 0.0;

	for (int i = 0; i < n; i++)
		m = fmax(m, fabs(x[i]));
	return m;
}

int il_stat_summarize(const double *x, int n, double level, struct il_stat_summary *s)
{
	memset(s, 0, sizeof(*s));
	if (n < 1 || !(level > 0.0 && level < 1.0)) {
		errno = EINVAL;
		return -1;
	}
	s->n = n;
	s->mean = mean_of(x, n);
	s->sd = sqrt(var_of(x, n, s->mean));
	s->min = s->max = x[0];
	for (int i = 1; i < n; i++) {
		s->min = fmin(s->min, x[i]);
		s->max = fmax(s->max, x[i]);
	}
	if (n < 2) {
		s->ci_lo = s->ci_hi = NAN;
		return 0;
	}
	double half = il_stat_t_quantile(0.5 + level / 2.0, n - 1) * s->sd / sqrt(n);

	s->ci_lo = s->mean - half;
	s->ci_hi = s->mean + half;
	return 0;
}

double il_stat_ci_rel(const struct il_stat_summary *s)
{
	if (s->n < 2 || s->mean == 0.0)
		return NAN;
	return 100.0 * (s->ci_hi - s->ci_lo) / 2.0 / fabs(s->mean);
}

/*
 * The t statistic of a difference @diff with squared standard error @se2; @scale is the
 * size of the data, below whose rounding a spread or difference counts as none.
 */
static double t_of(double diff, double se2, double scale)
{
	double zero = STAT_ZERO_REL * scale;

	if (se2 <= zero * zero) {
		if (fabs(diff) <= zero)
			return 0.0;
		return diff > 0 ? INFINITY : -INFINITY;
	}
	return diff / sqrt(se2);
}

/* Fill the interval, t and p of @d from its diff, squared standard error and df. */
static void diff_finish(struct il_stat_diff *d, double se2, double scale, double level,
			double mean_a)
{
	double half = il_stat_t_quantile(0.5 + level / 2.0, d->df) * sqrt(fmax(se2, 0.0));

	d->t = t_of(d->diff, se2, scale);
	d->p = d->t == 0.0 ? 1.0 : il_stat_t_sf2(d->t, d->df);
	if (isinf(d->t))
		half = 0.0;
	d->ci_lo = d->diff - half;
	d->ci_hi = d->diff + half;
	if (mean_a == 0.0) {
		d->rel = d->rel_lo = d->rel_hi = NAN;
		return;
	}
	d->rel = 100.0 * d->diff / fabs(mean_a);
	d->rel_lo = 100.0 * d->ci_lo / fabs(mean_a);
	d->rel_hi = 100.0 * d->ci_hi / fabs(mean_a);
}

static int diff_paired(const double *a, const double *b, int n, double level,
		       struct il_stat_diff *d)
{
	double *dx = malloc((size_t)n * sizeof(*dx));
	double scale = fmax(abs_max(a, n), abs_max(b, n)), var;

	if (!dx)
		return -1;
	for (int i = 0; i < n; i++)
		dx[i] = b[i] - a[i];
	d->diff = mean_of(dx, n);
	var = var_of(dx, n, d->diff);
	free(dx);
	d->df = n - 1;
	diff_finish(d, var / n, scale, level, mean_of(a, n));
	return 0;
}

static void diff_welch(const double *a, int na, const double *b, int nb, double level,
		       struct il_stat_diff *d)
{
	double ma = mean_of(a, na), mb = mean_of(b, nb);
	double qa = var_of(a, na, ma) / na, qb = var_of(b, nb, mb) / nb;
	double se2 = qa + qb;
	double den = qa * qa / (na - 1) + qb * qb / (nb - 1);

	d->diff = mb - ma;
	/* With no spread on either side the distribution is degenerate; any df gives the same. */
	d->df = den > 0.0 ? se2 * se2 / den : na + nb - 2;
	diff_finish(d, se2, fmax(abs_max(a, na), abs_max(b, nb)), level, ma);
}

int il_stat_diff(const double *a, int na, const double *b, int nb, enum il_stat_design design,
		 double level, struct il_stat_diff *d)
{
	memset(d, 0, sizeof(*d));
	d->design = design;
	if (na < 1 || nb < 1 || !(level > 0.0 && level < 1.0) ||
	    (design == IL_STAT_PAIRED && na != nb)) {
		errno = EINVAL;
		return -1;
	}
	if (na < 2 || nb < 2) {
		double ma = mean_of(a, na);

		d->diff = mean_of(b, nb) - ma;
		d->ci_lo = d->ci_hi = d->df = d->t = d->p = NAN;
		d->rel = ma == 0.0 ? NAN : 100.0 * d->diff / fabs(ma);
		d->rel_lo = d->rel_hi = NAN;
		return 0;
	}
	if (design == IL_STAT_PAIRED)
		return diff_paired(a, b, na, level, d);
	diff_welch(a, na, b, nb, level, d);
	return 0;
}

/* ---- Westfall-Young step-down max-T -------------------------------------------------- */

/*
 * One cell prepared for relabelling: its na + nb values centred on their mean (so that
 * sums of squares do not cancel), their total and total of squares.
 */
struct perm_cell {
	double *x;
	double sum, sumsq;
	double scale;
};

struct perm_ctx {
	const struct il_stat_perm *perm;
	int m, n;
	struct perm_cell *cells;
	int *order;      /* cells by observed |t|, largest first */
	double *abs_obs; /* observed |t| per cell */
	u64 *hits;       /* per rank: relabellings whose successive maximum reaches it */
	/* the current relabelling: in_a[i] = run i counts as baseline; paired: pair i swapped */
	unsigned char *in_a;
};

/*
 * The paired t of the current sign flips of @c's differences (in_a[i]: pair i swapped).
 * Two passes: with common random numbers the differences can be nearly constant, and one
 * pass's sum of squares would then cancel.
 */
static double perm_t_paired(const struct perm_ctx *ctx, const struct perm_cell *c)
{
	int n = ctx->n;
	double sum = 0.0, ss = 0.0, mean;

	for (int i = 0; i < n; i++)
		sum += ctx->in_a[i] ? -c->x[i] : c->x[i];
	mean = sum / n;
	for (int i = 0; i < n; i++) {
		double e = (ctx->in_a[i] ? -c->x[i] : c->x[i]) - mean;

		ss += e * e;
	}
	return t_of(mean, ss / (n - 1) / n, c->scale);
}

/* Welch's t of the current relabelling of @c (b minus a), or the paired t. */
static double perm_t(const struct perm_ctx *ctx, const struct perm_cell *c)
{
	int na = ctx->perm->na, nb = ctx->perm->nb;
	double sa = 0.0, qa = 0.0;

	if (ctx->perm->paired)
		return perm_t_paired(ctx, c);

	for (int i = 0; i < ctx->n; i++) {
		if (ctx->in_a[i]) {
			sa += c->x[i];
			qa += c->x[i] * c->x[i];
		}
	}
	double sb = c->sum - sa, qb = c->sumsq - qa;
	double ma = sa / na, mb = sb / nb;
	double va = fmax((qa - na * ma * ma) / (na - 1), 0.0);
	double vb = fmax((qb - nb * mb * mb) / (nb - 1), 0.0);

	return t_of(mb - ma, va / na + vb / nb, c->scale);
}

static int by_abs_desc(const void *pa, const void *pb, void *arg)
{
	const double *v = arg;
	int a = *(const int *)pa, b = *(const int *)pb;

	if (v[a] != v[b])
		return v[a] < v[b] ? 1 : -1;
	return a - b;
}

/* Count, for the current relabelling, which ranks its successive maxima reach. */
static void perm_count(struct perm_ctx *ctx)
{
	double u = 0.0;

	for (int k = ctx->m - 1; k >= 0; k--) {
		int j = ctx->order[k];
		double obs = ctx->abs_obs[j];

		u = fmax(u, fabs(perm_t(ctx, &ctx->cells[j])));
		/* u >= obs first: for an infinite obs the tolerance is inf - inf, NaN */
		if (u >= obs || u >= obs - STAT_TIE_REL * obs)
			ctx->hits[k]++;
	}
}

/* C(n, k), or UINT64_MAX when it does not fit. */
static u64 n_choose_k(int n, int k)
{
	u64 r = 1;

	for (int i = 1; i <= k; i++) {
		u64 num = (u64)(n - k + i);

		if (r > UINT64_MAX / num)
			return UINT64_MAX;
		r = r * num / (u64)i;
	}
	return r;
}

/* Every relabelling: the combinations of na runs out of n in lexicographic order. */
static void perm_exact(struct perm_ctx *ctx)
{
	int na = ctx->perm->na, n = ctx->n;
	int c[na];

	for (int i = 0; i < na; i++)
		c[i] = i;
	for (;;) {
		memset(ctx->in_a, 0, (size_t)n);
		for (int i = 0; i < na; i++)
			ctx->in_a[c[i]] = 1;
		perm_count(ctx);
		int i = na - 1;

		while (i >= 0 && c[i] == n - na + i)
			i--;
		if (i < 0)
			return;
		c[i]++;
		for (int k = i + 1; k < na; k++)
			c[k] = c[k - 1] + 1;
	}
}

/* Every sign flip of the pairs: the n bits of a counter. */
static void flips_exact(struct perm_ctx *ctx)
{
	u64 total = (u64)1 << ctx->n;

	for (u64 mask = 0; mask < total; mask++) {
		for (int i = 0; i < ctx->n; i++)
			ctx->in_a[i] = (unsigned char)(mask >> i & 1);
		perm_count(ctx);
	}
}

/* No flip (the observed differences), then @draws random ones (a fair coin per pair). */
static void flips_random(struct perm_ctx *ctx)
{
	struct il_rng rng;

	il_rng_init(&rng, ctx->perm->seed, 0x666c6970ULL /* "flip" */);
	memset(ctx->in_a, 0, (size_t)ctx->n);
	perm_count(ctx);
	for (u64 d = 0; d < ctx->perm->draws; d++) {
		for (int i = 0; i < ctx->n; i++)
			ctx->in_a[i] = (unsigned char)il_rng_below(&rng, 2);
		perm_count(ctx);
	}
}

/* The observed relabelling, then @draws random ones (partial Fisher-Yates shuffles). */
static void perm_random(struct perm_ctx *ctx)
{
	int na = ctx->perm->na, n = ctx->n;
	int idx[n];
	struct il_rng rng;

	il_rng_init(&rng, ctx->perm->seed, 0x7065726dULL /* "perm" */);
	memset(ctx->in_a, 0, (size_t)n);
	memset(ctx->in_a, 1, (size_t)na);
	perm_count(ctx);
	for (u64 d = 0; d < ctx->perm->draws; d++) {
		for (int i = 0; i < n; i++)
			idx[i] = i;
		memset(ctx->in_a, 0, (size_t)n);
		for (int i = 0; i < na; i++) {
			int j = i + (int)il_rng_below(&rng, (u64)(n - i));
			int tmp = idx[i];

			idx[i] = idx[j];
			idx[j] = tmp;
			ctx->in_a[idx[i]] = 1;
		}
		perm_count(ctx);
	}
}

/* A paired cell holds the n differences b - a, which a sign flip leaves centred as they are. */
static int pairs_prepare(struct perm_cell *c, const struct il_stat_cell *cell, int n)
{
	c->x = malloc((size_t)n * sizeof(*c->x));
	if (!c->x)
		return -1;
	c->scale = fmax(abs_max(cell->a, n), abs_max(cell->b, n));
	for (int i = 0; i < n; i++)
		c->x[i] = cell->b[i] - cell->a[i];
	return 0;
}

/* An unpaired cell holds its na + nb runs, centred, with their total and total of squares. */
static int runs_prepare(struct perm_cell *c, const struct il_stat_cell *cell, int na, int nb)
{
	int n = na + nb;
	double center;

	c->x = malloc((size_t)n * sizeof(*c->x));
	if (!c->x)
		return -1;
	memcpy(c->x, cell->a, (size_t)na * sizeof(double));
	memcpy(c->x + na, cell->b, (size_t)nb * sizeof(double));
	c->scale = abs_max(c->x, n);
	center = mean_of(c->x, n);
	c->sum = c->sumsq = 0.0;
	for (int i = 0; i < n; i++) {
		c->x[i] -= center;
		c->sum += c->x[i];
		c->sumsq += c->x[i] * c->x[i];
	}
	return 0;
}

static int perm_prepare(struct perm_ctx *ctx, const struct il_stat_cell *cells, double *t_obs)
{
	int na = ctx->perm->na, n = ctx->n;

	for (int j = 0; j < ctx->m; j++) {
		struct perm_cell *c = &ctx->cells[j];

		if (ctx->perm->paired ? pairs_prepare(c, &cells[j], n) :
					runs_prepare(c, &cells[j], na, ctx->perm->nb))
			return -1;
	}
	/* the observed labels: the first na runs are the baseline, no pair is flipped */
	memset(ctx->in_a, 0, (size_t)n);
	if (!ctx->perm->paired)
		memset(ctx->in_a, 1, (size_t)na);
	for (int j = 0; j < ctx->m; j++) {
		t_obs[j] = perm_t(ctx, &ctx->cells[j]);
		ctx->abs_obs[j] = fabs(t_obs[j]);
		ctx->order[j] = j;
	}
	qsort_r(ctx->order, (size_t)ctx->m, sizeof(int), by_abs_desc, ctx->abs_obs);
	return 0;
}

static void perm_free(struct perm_ctx *ctx)
{
	if (ctx->cells)
		for (int j = 0; j < ctx->m; j++)
			free(ctx->cells[j].x);
	free(ctx->cells);
	free(ctx->order);
	free(ctx->abs_obs);
	free(ctx->hits);
	free(ctx->in_a);
}

int il_stat_maxt(const struct il_stat_cell *cells, int m, struct il_stat_perm *perm, double *t_obs,
		 double *p_adj)
{
	struct perm_ctx ctx = { .perm = perm, .m = m,
				.n = perm->paired ? perm->na : perm->na + perm->nb };
	u64 total;
	int ret = -1;

	if (m < 1 || perm->na < 2 || perm->nb < 2 || (perm->paired && perm->na != perm->nb)) {
		errno = EINVAL;
		return -1;
	}
	ctx.cells = calloc((size_t)m, sizeof(*ctx.cells));
	ctx.order = calloc((size_t)m, sizeof(*ctx.order));
	ctx.abs_obs = calloc((size_t)m, sizeof(*ctx.abs_obs));
	ctx.hits = calloc((size_t)m, sizeof(*ctx.hits));
	ctx.in_a = calloc((size_t)ctx.n, 1);
	if (!ctx.cells || !ctx.order || !ctx.abs_obs || !ctx.hits || !ctx.in_a ||
	    perm_prepare(&ctx, cells, t_obs))
		goto out;
	if (perm->paired)
		total = ctx.n < 64 ? (u64)1 << ctx.n : UINT64_MAX;
	else
		total = n_choose_k(ctx.n, perm->na);
	perm->exact = total <= perm->max_perm;
	if (perm->exact) {
		(perm->paired ? flips_exact : perm_exact)(&ctx);
		perm->used = total;
	} else {
		(perm->paired ? flips_random : perm_random)(&ctx);
		perm->used = perm->draws + 1;
	}
	/* Step-down: a cell's p-value is at least that of every cell ranked above it. */
	double floor = 0.0;

	for (int k = 0; k < m; k++) {
		double p = (double)ctx.hits[k] / (double)perm->used;

		floor = fmax(floor, p);
		p_adj[ctx.order[k]] = fmin(floor, 1.0);
	}
	ret = 0;
out:
	if (ret)
		errno = ENOMEM;
	perm_free(&ctx);
	return ret;
}

/* ---- Holm ----------------------------------------------------------------------------- */

static int by_value_asc(const void *pa, const void *pb, void *arg)
{
	const double *v = arg;
	int a = *(const int *)pa, b = *(const int *)pb;

	if (v[a] != v[b])
		return v[a] < v[b] ? -1 : 1;
	return a - b;
}

int il_stat_holm(const double *p, int m, double *adj)
{
	int *order;
	double floor = 0.0;

	if (m < 1) {
		errno = EINVAL;
		return -1;
	}
	order = malloc((size_t)m * sizeof(*order));
	if (!order)
		return -1;
	for (int i = 0; i < m; i++)
		order[i] = i;
	qsort_r(order, (size_t)m, sizeof(int), by_value_asc, (void *)p);
	for (int k = 0; k < m; k++) {
		floor = fmax(floor, fmin(1.0, (double)(m - k) * p[order[k]]));
		adj[order[k]] = floor;
	}
	free(order);
	return 0;
}
