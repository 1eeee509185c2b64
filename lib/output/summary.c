// SPDX-License-Identifier: GPL-2.0-only
/*
 * summary.c - summary statistics of per-iteration rows (see summary.h).
 *
 *  1. Resolve the key, governor and iteration columns; every other column with a number
 *     in the given rows (and not skipped) is a metric.
 *  2. Split the rows into groups by the texts of their key cells, in first-seen order,
 *     and list each group's governors in first-seen order; the baseline is the one named,
 *     or the first.
 *  3. For each group, metric and governor: collect the numbers (with their iteration),
 *     summarize them (lib/stat), and compare them with the baseline's: paired by
 *     iteration when the spec says the runs share seeds and both sides ran the same
 *     iterations, Welch's test otherwise.
 * The statistics are computed here once; il_summary_text() only formats them.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "summary.h"
#include "../stat/stat.h"

/* Decimals of a p-value: 4, or enough for three significant digits of a smaller one. */
#define P_MIN_DECIMALS 4
#define P_MAX_DECIMALS 12
#define PCT_DECIMALS 2

static const char *const stat_cols[] = {
	"metric", "n", "mean", "sd", "min", "max", "ci_lo", "ci_hi", "ci_pct", "baseline", "test",
	"delta", "delta_lo", "delta_hi", "delta_pct", "delta_pct_lo", "delta_pct_hi", "p",
};

enum {
	SC_METRIC, SC_N, SC_MEAN, SC_SD, SC_MIN, SC_MAX, SC_CI_LO, SC_CI_HI, SC_CI_PCT, SC_BASE,
	SC_TEST, SC_D, SC_D_LO, SC_D_HI, SC_DP, SC_DP_LO, SC_DP_HI, SC_P, SC_COUNT,
};

static int count_list(const char *const *l)
{
	int n = 0;

	while (l && l[n])
		n++;
	return n;
}

static const struct il_cell *cell_at(const struct il_table *t, int row, int col)
{
	return &t->cells[(size_t)row * (size_t)t->ncols + (size_t)col];
}

static bool is_number(const struct il_cell *c)
{
	return c->kind == IL_CELL_INT || c->kind == IL_CELL_REAL;
}

static double number_of(const struct il_cell *c)
{
	return c->kind == IL_CELL_INT ? (double)c->i : c->d;
}

static bool in_list(const char *const *l, const char *s)
{
	for (int i = 0; l && l[i]; i++)
		if (!strcmp(l[i], s))
			return true;
	return false;
}

bool il_summary_column(const char *name)
{
	for (int i = 0; i < SC_COUNT; i++)
		if (!strcmp(stat_cols[i], name))
			return true;
	return false;
}

int il_summary_init(struct il_table *out, const char *title, const struct il_table *in,
		    const struct il_summary_spec *spec)
{
	int nkeys = count_list(spec->keys);

	if (!spec->gov || il_table_col(in, spec->gov) < 0) {
		errno = EINVAL;
		return -1;
	}
	if (il_table_init(out, title, nkeys, spec->keys))
		return -1;
	if (il_table_add_col(out, spec->gov) < 0)
		goto fail;
	for (int i = 0; i < SC_COUNT; i++)
		if (il_table_add_col(out, stat_cols[i]) < 0)
			goto fail;
	return 0;
fail:
	il_table_free(out);
	errno = ENOMEM;
	return -1;
}

/* ---- one range of rows ---------------------------------------------------------------------- */

struct sum_ctx {
	const struct il_table *in;
	const struct il_summary_spec *spec;
	struct il_table *out;
	int row0, nrows;
	int nkeys, *key_col, gov_col, iter_col;
	int *group;       /* per row of the range: its group */
	int *gov;         /* per row of the range: its governor's index in its group */
	int ngroups;
	int *group_first; /* per group: its first row */
	double level;
	/* scratch: the numbers of one governor and the baseline, with their iterations, each
	 * 2 x (nrows + 1) long: an ensemble puts one variant's values in the second half */
	double *x, *xi, *b, *bi;
};

static bool same_text(const struct il_cell *a, const struct il_cell *b)
{
	char ba[64], bb[64];

	if (a->kind != b->kind && (a->kind == IL_CELL_EMPTY || b->kind == IL_CELL_EMPTY))
		return false;
	return !strcmp(il_cell_text(a, ba, sizeof(ba)), il_cell_text(b, bb, sizeof(bb)));
}

static bool same_keys(const struct sum_ctx *c, int r1, int r2)
{
	for (int k = 0; k < c->nkeys; k++) {
		int col = c->key_col[k];

		if (!same_text(cell_at(c->in, r1, col), cell_at(c->in, r2, col)))
			return false;
	}
	return true;
}

/* Step 2: groups and, per row, the index of its governor among its group's. */
static void find_groups(struct sum_ctx *c)
{
	for (int i = 0; i < c->nrows; i++) {
		int r = c->row0 + i, g = 0;

		while (g < c->ngroups && !same_keys(c, c->group_first[g], r))
			g++;
		if (g == c->ngroups)
			c->group_first[c->ngroups++] = r;
		c->group[i] = g;
		c->gov[i] = -1;
		for (int j = 0; j < i && c->gov[i] < 0; j++)
			if (c->group[j] == g && same_text(cell_at(c->in, c->row0 + j, c->gov_col),
							  cell_at(c->in, r, c->gov_col)))
				c->gov[i] = c->gov[j];
		if (c->gov[i] < 0) {
			int n = 0;

			for (int j = 0; j < i; j++)
				if (c->group[j] == g && c->gov[j] >= n)
					n = c->gov[j] + 1;
			c->gov[i] = n;
		}
	}
}

static int ngov_of(const struct sum_ctx *c, int g)
{
	int n = 0;

	for (int i = 0; i < c->nrows; i++)
		if (c->group[i] == g && c->gov[i] >= n)
			n = c->gov[i] + 1;
	return n;
}

/* The first row of governor @v in group @g. */
static int gov_row(const struct sum_ctx *c, int g, int v)
{
	for (int i = 0; i < c->nrows; i++)
		if (c->group[i] == g && c->gov[i] == v)
			return c->row0 + i;
	return -1;
}

static int baseline_of(const struct sum_ctx *c, int g)
{
	char buf[64];

	if (!c->spec->baseline)
		return 0;
	for (int v = 0; v < ngov_of(c, g); v++) {
		const struct il_cell *name = cell_at(c->in, gov_row(c, g, v), c->gov_col);

		if (!strcmp(il_cell_text(name, buf, sizeof(buf)), c->spec->baseline))
			return v;
	}
	return -1;
}

/* Sort the @n values @x by their iterations @it (insertion sort: a handful of values). */
static void sort_by_iter(double *x, double *it, int n)
{
	for (int i = 1; i < n; i++) {
		double kx = x[i], ki = it[i];
		int j = i - 1;

		for (; j >= 0 && it[j] > ki; j--) {
			x[j + 1] = x[j];
			it[j + 1] = it[j];
		}
		x[j + 1] = kx;
		it[j + 1] = ki;
	}
}

/*
 * The numbers of metric column @mc for governor @v of group @g into @x (iterations into
 * @it, NAN when unknown), sorted by iteration; Return: how many.
 */
static int collect(const struct sum_ctx *c, int g, int v, int mc, double *x, double *it)
{
	int n = 0;

	for (int i = 0; i < c->nrows; i++) {
		const struct il_cell *m = cell_at(c->in, c->row0 + i, mc);

		if (c->group[i] != g || c->gov[i] != v || !is_number(m))
			continue;
		x[n] = number_of(m);
		it[n] = NAN;
		if (c->iter_col >= 0 && is_number(cell_at(c->in, c->row0 + i, c->iter_col)))
			it[n] = number_of(cell_at(c->in, c->row0 + i, c->iter_col));
		n++;
	}
	sort_by_iter(x, it, n);
	return n;
}

static bool same_iterations(const double *a, const double *b, int n)
{
	for (int i = 0; i < n; i++)
		if (isnan(a[i]) || a[i] != b[i] || (i && a[i] == a[i - 1]))
			return false;
	return true;
}

/* The decimals of column @mc's cells in group @g (the most any has); *@ints: all are integers. */
static int decimals_of(const struct sum_ctx *c, int g, int mc, bool *ints)
{
	int prec = 0;

	*ints = true;
	for (int i = 0; i < c->nrows; i++) {
		const struct il_cell *m = cell_at(c->in, c->row0 + i, mc);

		if (c->group[i] != g || m->kind != IL_CELL_REAL)
			continue;
		*ints = false;
		if (m->prec > prec)
			prec = m->prec;
	}
	return prec;
}

static void set_real(struct il_table *t, int row, int col, double v, int prec)
{
	if (isfinite(v))
		il_table_set_real(t, row, col, v, prec);
}

static int p_decimals(double p)
{
	int d = P_MIN_DECIMALS;

	if (p > 0.0 && p < 0.001)
		d = 2 - (int)floor(log10(p));
	return d > P_MAX_DECIMALS ? P_MAX_DECIMALS : d;
}

struct metric_fmt {
	int prec;  /* decimals of the input's cells */
	bool ints; /* min and max are integers */
};

/* The spec's model variants: 1 without an ensemble. */
static int variants_of(const struct sum_ctx *c)
{
	return c->spec->ensemble > 1 && c->iter_col >= 0 ? c->spec->ensemble : 1;
}

/* The values of @x (@n, iterations @it) that variant @var ran into @out (iterations @oit). */
static int variant_values(const struct sum_ctx *c, const double *x, const double *it, int n,
			  int var, double *out, double *oit)
{
	int e = variants_of(c), m = 0;

	for (int i = 0; i < n; i++)
		if (isfinite(it[i]) && (long long)it[i] % e == var) {
			out[m] = x[i];
			oit[m++] = it[i];
		}
	return m;
}

/* @lo..@hi widened to hold @a..@b (@first: set to it); a NAN end, no interval, stays NAN. */
static void widen(double *lo, double *hi, double a, double b, bool first)
{
	if (first) {
		*lo = a;
		*hi = b;
		return;
	}
	*lo = isnan(*lo) || isnan(a) ? NAN : fmin(*lo, a);
	*hi = isnan(*hi) || isnan(b) ? NAN : fmax(*hi, b);
}

/* The envelope of the variants' intervals of the mean of @x into @s (ensemble only). */
static int envelope_mean(struct sum_ctx *c, int nx, struct il_stat_summary *s)
{
	double *v = c->b + c->nrows + 1, *vi = c->bi + c->nrows + 1;

	for (int var = 0; var < variants_of(c); var++) {
		struct il_stat_summary one = { .ci_lo = NAN, .ci_hi = NAN };
		int m = variant_values(c, c->x, c->xi, nx, var, v, vi);

		/* a variant without a value (an empty cell) has no interval either */
		if (m && il_stat_summarize(v, m, c->level, &one))
			return -1;
		widen(&s->ci_lo, &s->ci_hi, one.ci_lo, one.ci_hi, var == 0);
	}
	return 0;
}

/*
 * The baseline's and the governor's difference under each variant, paired where their
 * iterations are; the envelope of the intervals and the largest p into @d (ensemble only).
 */
static int envelope_diff(struct sum_ctx *c, int nx, int nb, struct il_stat_diff *d)
{
	size_t half = (size_t)c->nrows + 1;
	double *vx = c->x + half, *vxi = c->xi + half, *vb = c->b + half, *vbi = c->bi + half;

	for (int var = 0; var < variants_of(c); var++) {
		int mx = variant_values(c, c->x, c->xi, nx, var, vx, vxi);
		int mb = variant_values(c, c->b, c->bi, nb, var, vb, vbi);
		bool paired = c->spec->paired && mx == mb && same_iterations(vxi, vbi, mx);
		enum il_stat_design design = paired ? IL_STAT_PAIRED : IL_STAT_WELCH;
		struct il_stat_diff one = {
			.ci_lo = NAN, .ci_hi = NAN, .rel_lo = NAN, .rel_hi = NAN, .p = NAN,
		};

		if (mx && mb && il_stat_diff(vb, mb, vx, mx, design, c->level, &one))
			return -1;
		widen(&d->ci_lo, &d->ci_hi, one.ci_lo, one.ci_hi, var == 0);
		widen(&d->rel_lo, &d->rel_hi, one.rel_lo, one.rel_hi, var == 0);
		if (var == 0)
			d->p = one.p;
		else
			d->p = isnan(d->p) || isnan(one.p) ? NAN : fmax(d->p, one.p);
	}
	return 0;
}

/* The test column: the design, and "envelope" over an ensemble's variants (each paired as
 * the iterations allow: a variant's own pairing is what its interval used). */
static const char *test_name(const struct sum_ctx *c, bool paired)
{
	if (variants_of(c) > 1)
		return c->spec->paired ? "paired envelope" : "welch envelope";
	return paired ? "paired" : "welch";
}

static int add_diff(struct sum_ctx *c, int row, const struct metric_fmt *f, const char *base,
		    int nx, int nb)
{
	const int at = c->nkeys + 1;
	bool paired = c->spec->paired && nx == nb && same_iterations(c->xi, c->bi, nx);
	struct il_stat_diff d;

	if (il_stat_diff(c->b, nb, c->x, nx, paired ? IL_STAT_PAIRED : IL_STAT_WELCH, c->level, &d))
		return -1;
	if (variants_of(c) > 1 && envelope_diff(c, nx, nb, &d))
		return -1;
	if (il_table_set_str(c->out, row, at + SC_BASE, base) ||
	    il_table_set_str(c->out, row, at + SC_TEST, test_name(c, paired)))
		return -1;
	set_real(c->out, row, at + SC_D, d.diff, f->prec + 1);
	set_real(c->out, row, at + SC_D_LO, d.ci_lo, f->prec + 1);
	set_real(c->out, row, at + SC_D_HI, d.ci_hi, f->prec + 1);
	set_real(c->out, row, at + SC_DP, d.rel, PCT_DECIMALS);
	set_real(c->out, row, at + SC_DP_LO, d.rel_lo, PCT_DECIMALS);
	set_real(c->out, row, at + SC_DP_HI, d.rel_hi, PCT_DECIMALS);
	set_real(c->out, row, at + SC_P, d.p, p_decimals(d.p));
	return 0;
}

/* One output row: governor @v of group @g, metric column @mc, values in c->x. */
static int add_row(struct sum_ctx *c, int g, int v, int mc, int nx, int base, int nb)
{
	const int at = c->nkeys + 1;
	struct il_stat_summary s;
	struct metric_fmt f;
	const char *base_name;
	char buf[64];
	int src = gov_row(c, g, v), row;

	f.prec = decimals_of(c, g, mc, &f.ints);
	if (il_stat_summarize(c->x, nx, c->level, &s))
		return -1;
	if (variants_of(c) > 1 && envelope_mean(c, nx, &s))
		return -1;
	row = il_table_add_row(c->out);
	if (row < 0)
		return -1;
	for (int k = 0; k < c->nkeys; k++)
		if (il_table_copy_cell(c->out, row, k, cell_at(c->in, src, c->key_col[k])))
			return -1;
	if (il_table_copy_cell(c->out, row, c->nkeys, cell_at(c->in, src, c->gov_col)) ||
	    il_table_set_str(c->out, row, at + SC_METRIC, c->in->cols[mc]))
		return -1;
	il_table_set_int(c->out, row, at + SC_N, s.n);
	set_real(c->out, row, at + SC_MEAN, s.mean, f.prec + 1);
	set_real(c->out, row, at + SC_SD, s.sd, f.prec + 1);
	if (f.ints) {
		il_table_set_int(c->out, row, at + SC_MIN, (s64)s.min);
		il_table_set_int(c->out, row, at + SC_MAX, (s64)s.max);
	} else {
		il_table_set_real(c->out, row, at + SC_MIN, s.min, f.prec);
		il_table_set_real(c->out, row, at + SC_MAX, s.max, f.prec);
	}
	set_real(c->out, row, at + SC_CI_LO, s.ci_lo, f.prec + 1);
	set_real(c->out, row, at + SC_CI_HI, s.ci_hi, f.prec + 1);
	set_real(c->out, row, at + SC_CI_PCT, il_stat_ci_rel(&s), PCT_DECIMALS);
	if (base < 0 || v == base || !nb)
		return 0;
	base_name = il_cell_text(cell_at(c->in, gov_row(c, g, base), c->gov_col), buf, sizeof(buf));
	return add_diff(c, row, &f, base_name, nx, nb);
}

static bool is_metric(const struct sum_ctx *c, int col)
{
	const char *name = c->in->cols[col];

	if (col == c->gov_col || col == c->iter_col || in_list(c->spec->skip, name) ||
	    in_list(c->spec->keys, name))
		return false;
	for (int i = 0; i < c->nrows; i++)
		if (is_number(cell_at(c->in, c->row0 + i, col)))
			return true;
	return false;
}

/* Step 3 for group @g. */
static int add_group(struct sum_ctx *c, int g)
{
	int ngov = ngov_of(c, g), base = baseline_of(c, g);

	for (int mc = 0; mc < c->in->ncols; mc++) {
		int nb = 0;

		if (!is_metric(c, mc))
			continue;
		if (base >= 0)
			nb = collect(c, g, base, mc, c->b, c->bi);
		for (int v = 0; v < ngov; v++) {
			int nx = collect(c, g, v, mc, c->x, c->xi);

			if (nx && add_row(c, g, v, mc, nx, base, nb))
				return -1;
		}
	}
	return 0;
}

static int ctx_init(struct sum_ctx *c, struct il_table *out, const struct il_table *in, int row0,
		    int nrows, const struct il_summary_spec *spec)
{
	size_t n = (size_t)nrows + 1;
	size_t nv = 2 * n; /* scratch of values: the rows', then one variant's (an ensemble) */

	memset(c, 0, sizeof(*c));
	c->in = in;
	c->out = out;
	c->spec = spec;
	c->row0 = row0;
	c->nrows = nrows;
	c->level = spec->level ? spec->level : IL_STAT_LEVEL;
	c->nkeys = count_list(spec->keys);
	c->gov_col = spec->gov ? il_table_col(in, spec->gov) : -1;
	c->iter_col = spec->iter ? il_table_col(in, spec->iter) : -1;
	if (row0 < 0 || nrows < 0 || row0 + nrows > in->nrows || c->gov_col < 0 ||
	    (spec->iter && c->iter_col < 0) || !(c->level > 0.0 && c->level < 1.0) ||
	    out->ncols != c->nkeys + 1 + SC_COUNT) {
		errno = EINVAL;
		return -1;
	}
	c->key_col = calloc((size_t)c->nkeys + 1, sizeof(*c->key_col));
	c->group = calloc(n, sizeof(*c->group));
	c->gov = calloc(n, sizeof(*c->gov));
	c->group_first = calloc(n, sizeof(*c->group_first));
	c->x = calloc(nv, sizeof(*c->x));
	c->xi = calloc(nv, sizeof(*c->xi));
	c->b = calloc(nv, sizeof(*c->b));
	c->bi = calloc(nv, sizeof(*c->bi));
	if (!c->key_col || !c->group || !c->gov || !c->group_first || !c->x || !c->xi || !c->b ||
	    !c->bi) {
		errno = ENOMEM;
		return -1;
	}
	for (int k = 0; k < c->nkeys; k++) {
		c->key_col[k] = il_table_col(in, spec->keys[k]);
		if (c->key_col[k] < 0) {
			errno = EINVAL;
			return -1;
		}
	}
	return 0;
}

static void ctx_free(struct sum_ctx *c)
{
	free(c->key_col);
	free(c->group);
	free(c->gov);
	free(c->group_first);
	free(c->x);
	free(c->xi);
	free(c->b);
	free(c->bi);
}

int il_summary_add(struct il_table *out, const struct il_table *in, int row0, int nrows,
		   const struct il_summary_spec *spec)
{
	struct sum_ctx c;
	int ret = ctx_init(&c, out, in, row0, nrows, spec);

	if (!ret) {
		find_groups(&c);
		for (int g = 0; g < c.ngroups && !ret; g++)
			ret = add_group(&c, g);
	}
	ctx_free(&c);
	return ret;
}

int il_summary_table(struct il_table *out, const char *title, const struct il_table *in,
		     const struct il_summary_spec *spec)
{
	if (il_summary_init(out, title, in, spec))
		return -1;
	if (il_summary_add(out, in, 0, in->nrows, spec)) {
		int e = errno;

		il_table_free(out);
		errno = e;
		return -1;
	}
	return 0;
}
