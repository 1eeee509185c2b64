// SPDX-License-Identifier: GPL-2.0-only
/*
 * sweep.c - the curves of a sweep (the JSON of `idlelab sweep -o DIR` or `merge`): x is a
 * swept parameter, one line per governor (per governor and platform when the sweep has
 * several platforms), y a metric; one chart per metric and per value of the other swept
 * parameter, the way the seeds split their wakeup tables into pipe and timer.
 *
 * Metrics: "above_pct", "below_pct" and "miss_pct" (aboves, belows, idle_misses in % of
 * idles, the default being the first two, as in the seeds' tables), "score" (the
 * scenario's score column), or any numeric column of the sweep (joules, watts,
 * wakeup_p99_us, usage_STATE ...). Iterations are averaged; the ratios are sums over
 * sums.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "svg.h"
#include "util/array.h"

#ifdef HAVE_JANSSON

#define MAX_PARAMS 2
#define MAX_VALUES 10000
#define MAX_SERIES 256

struct metric_def {
	const char *name;
	size_t num; /* the catalogue line summed on top, x 100: its struct il_summary field */
	const char *title;
	const char *ylabel;
};

#define SUMMARY(f) offsetof(struct il_summary, f)

static const struct metric_def ratio_metrics[] = {
	{ "above_pct", SUMMARY(aboves), "Above %", "aboves (state too deep), % of idles" },
	{ "below_pct", SUMMARY(belows), "Below %", "belows (state too shallow), % of idles" },
	{ "miss_pct", SUMMARY(idle_misses), "Idle misses %", "idle misses, % of idles" },
};

static const struct metric_def *ratio_metric(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(ratio_metrics); i++)
		if (!strcmp(ratio_metrics[i].name, name))
			return &ratio_metrics[i];
	return NULL;
}

/* The column behind @metric ("score" is the score column), or NULL when there is none. */
static const char *metric_column(const json_t *row, const char *metric)
{
	if (!strcmp(metric, "score"))
		return il_pm_score_col(row);
	return json_is_number(json_object_get(row, metric)) ||
	       json_is_null(json_object_get(row, metric)) ? metric : NULL;
}

static void metric_list(const json_t *row, char *buf, size_t cap)
{
	size_t used = (size_t)snprintf(buf, cap, "above_pct, below_pct, miss_pct, score");
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)row, key, v)
		if (json_is_number(v) && used < cap && strcmp(key, "case") && strcmp(key, "iter") &&
		    strcmp(key, "seed"))
			used += (size_t)snprintf(buf + used, cap - used, ", %s", key);
}

/*
 * Distinct values of @key over the rows of @rows whose @fkey is @fval (all rows when @fval
 * is NULL): JSON values compared by equality, in order of appearance.
 */
static int distinct_where(const json_t *rows, const char *key, const json_t **vals, int cap,
			  const char *fkey, const json_t *fval)
{
	int n = 0;
	size_t i;
	json_t *row;

	json_array_foreach(rows, i, row) {
		const json_t *v = json_object_get(row, key);
		bool seen = false;

		if (fval && !json_equal(json_object_get(row, fkey), (json_t *)fval))
			continue;

		for (int k = 0; k < n && !seen; k++)
			seen = json_equal((json_t *)vals[k], (json_t *)v);
		if (!seen && n < cap)
			vals[n++] = v;
	}
	return n;
}

static int distinct(const json_t *rows, const char *key, const json_t **vals, int cap)
{
	return distinct_where(rows, key, vals, cap, NULL, NULL);
}

static bool all_numbers(const json_t *const *vals, int n)
{
	for (int i = 0; i < n; i++)
		if (!json_is_number(vals[i]))
			return false;
	return n > 0;
}

static int by_number(const void *a, const void *b)
{
	double x = json_number_value(*(const json_t *const *)a),
	       y = json_number_value(*(const json_t *const *)b);

	return (x > y) - (x < y);
}

static void value_text(const json_t *v, char *buf, size_t cap)
{
	if (json_is_string(v))
		snprintf(buf, cap, "%s", json_string_value(v));
	else
		snprintf(buf, cap, "%g", json_number_value(v));
}

/* The series name of @row: its governor, and platform when the sweep has several. */
static void series_name(const json_t *row, bool platforms, char *buf, size_t cap)
{
	if (platforms)
		snprintf(buf, cap, "%s / %s", il_json_str(row, "governor"),
			 il_json_str(row, "platform"));
	else
		snprintf(buf, cap, "%s", il_json_str(row, "governor"));
}

/* The " (unit)" of a catalogue line (lib/metrics): "" for a count or a ratio. */
static const char *metric_unit(const struct il_metric_def *d)
{
	static const struct { const char *unit, *shown; } units[] = {
		{ "us", " (\xc2\xb5s)" }, { "s", " (s)" }, { "J", " (J)" }, { "W", " (W)" },
		{ "%", " (%)" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcmp(d->unit, units[i].unit))
			return units[i].shown;
	return "";
}

/*
 * The unit of a column: the catalogue's for a result metric, else from its name (a swept
 * parameter, a score): "wakeup_us", "us_per_loop" in µs ...; "" if none.
 */
static const char *column_unit(const char *name)
{
	static const struct { const char *suffix, *prefix, *unit; } units[] = {
		{ "_us", "us_per_", " (\xc2\xb5s)" }, { "_ns", "ns_per_", " (ns)" },
		{ "_s", NULL, " (s)" }, { "_pct", NULL, " (%)" },
	};
	const struct il_metric_def *d = il_metric_find(name, IL_MT_PM);
	size_t len = strlen(name);

	if (d)
		return metric_unit(d);
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		size_t l = strlen(units[i].suffix);

		if ((len >= l && !strcmp(name + len - l, units[i].suffix)) ||
		    (units[i].prefix && !strncmp(name, units[i].prefix, strlen(units[i].prefix))))
			return units[i].unit;
	}
	return "";
}

struct sweep_ctx {
	const json_t *rows;
	const char *x, *facet;
	const json_t *xs[MAX_VALUES];
	int nx;
	char *ser[MAX_SERIES];
	int nser;
	bool platforms;
	int iters;
};

static int collect_series(struct sweep_ctx *k)
{
	const json_t *plats[2];
	char name[512];
	size_t i;
	json_t *row;

	k->platforms = distinct(k->rows, "platform", plats, 2) > 1;
	json_array_foreach(k->rows, i, row) {
		bool seen = false;

		series_name(row, k->platforms, name, sizeof(name));
		for (int s = 0; s < k->nser && !seen; s++)
			seen = !strcmp(k->ser[s], name);
		if (!seen && k->nser < MAX_SERIES && !(k->ser[k->nser++] = strdup(name)))
			return -1;
		if (json_integer_value(json_object_get(row, "iter")) + 1 > k->iters)
			k->iters = (int)json_integer_value(json_object_get(row, "iter")) + 1;
	}
	return 0;
}

/* Fill the points of chart @l: rows with @facet = @fv (any row without a facet). */
static void fill_points(const struct sweep_ctx *k, const char *metric, const json_t *fv,
			struct il_lines *l)
{
	const struct metric_def *rm = ratio_metric(metric);
	double *num = calloc((size_t)l->nser * (size_t)l->npt + 1, sizeof(double));
	double *den = calloc((size_t)l->nser * (size_t)l->npt + 1, sizeof(double));
	char name[512];
	size_t i;
	json_t *row;

	if (!num || !den)
		goto out;
	json_array_foreach(k->rows, i, row) {
		const char *col = rm ? il_metric_of(rm->num, IL_MT_PM)->name :
				       metric_column(row, metric);
		double v = col ? il_json_num(row, col) : NAN, x = il_json_num(row, k->x);
		double idles = il_json_num(row, IL_RPT_PM_COL(idles));
		int s = -1, p = -1;

		if (fv && !json_equal(json_object_get(row, k->facet), (json_t *)fv))
			continue;
		series_name(row, k->platforms, name, sizeof(name));
		for (int j = 0; j < l->nser && s < 0; j++)
			if (!strcmp(l->ser[j], name))
				s = j;
		for (int j = 0; j < l->npt && p < 0; j++)
			if (l->x[j] == x)
				p = j;
		if (s < 0 || p < 0 || isnan(v) || (rm && !(idles > 0)))
			continue;
		num[(size_t)s * (size_t)l->npt + (size_t)p] += rm ? 100 * v : v;
		den[(size_t)s * (size_t)l->npt + (size_t)p] += rm ? idles : 1;
	}
	for (size_t c = 0; c < (size_t)l->nser * (size_t)l->npt; c++)
		if (den[c] > 0)
			l->y[c] = num[c] / den[c];
out:
	free(num);
	free(den);
}

static int one_chart(struct sweep_ctx *k, const struct il_model *m, const struct il_rpt_input *in,
		     const char *metric, const json_t *fv, struct il_lines *l)
{
	const struct metric_def *rm = ratio_metric(metric);
	const char *col = rm ? NULL : metric_column(json_array_get(k->rows, 0), metric);
	char fval[256] = "";

	/* The x values of this chart's rows only, ascending. */
	k->nx = distinct_where(k->rows, k->x, k->xs, MAX_VALUES, k->facet, fv);
	qsort(k->xs, (size_t)k->nx, sizeof(k->xs[0]), by_number);
	if (il_lines_init(l, k->nser, k->nx))
		return -1;
	for (int p = 0; p < k->nx; p++)
		l->x[p] = json_number_value(k->xs[p]);
	for (int s = 0; s < k->nser; s++) {
		char *gov = strdup(k->ser[s]), *slash = gov ? strstr(gov, " / ") : NULL;

		if (slash)
			*slash = '\0';
		l->ser[s] = strdup(k->ser[s]);
		l->ser_color[s] = gov ? strdup(k->platforms ? il_color_series(s) :
					       il_model_gov_color(m, gov)) : NULL;
		free(gov);
		if (!l->ser[s] || !l->ser_color[s])
			goto fail;
	}
	fill_points(k, metric, fv, l);
	if (fv)
		value_text(fv, fval, sizeof(fval));
	l->title = fv ? il_strf("%s against %s, %s=%s", rm ? rm->title : col, k->x, k->facet, fval)
		      : il_strf("%s against %s", rm ? rm->title : col, k->x);
	l->subtitle = il_strf("sweep %s: the mean of %d iteration%s per point", in->name, k->iters,
			      k->iters == 1 ? "" : "s");
	l->xlabel = il_strf("%s%s", k->x, column_unit(k->x));
	l->ylabel = rm ? il_strf("%s", rm->ylabel) : il_strf("%s%s", col, column_unit(col));
	l->xname = il_strf("%s", k->x);
	l->unit = il_strf("%s", rm ? "%" : "");
	l->prec = rm ? 2 : 3;
	il_lines_choose_axes(l);
	if (rm)
		l->ylog = false; /* a share of idles reads linearly, as in the seeds' tables */
	if (l->xlog || l->ylog)
		l->note = il_strf("log scale on %s",
				  l->xlog && l->ylog ? "both axes" : l->xlog ? "x" : "y");
	if (!l->title || !l->subtitle || !l->xlabel || !l->ylabel || !l->xname || !l->unit ||
	    ((l->xlog || l->ylog) && !l->note))
		goto fail;
	return 0;
fail:
	il_lines_free(l);
	return -1;
}

static int bad_option(struct il_error *err, const char *fmt, const char *a, const char *b)
{
	il_error_set(err, NULL, 0, fmt, a, b);
	errno = EINVAL;
	return -1;
}

static int check_metrics(const json_t *row, const char *const *metrics, struct il_error *err)
{
	char list[2048];

	for (const char *const *mt = metrics; *mt; mt++) {
		if (ratio_metric(*mt) || metric_column(row, *mt))
			continue;
		metric_list(row, list, sizeof(list));
		il_error_set(err, NULL, 0, "no metric '%s' (this sweep has: %s)", *mt, list);
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* x: the parameter asked for, else the first with numbers only; the facet is the other. */
static int choose_x(struct sweep_ctx *k, const char **params, int np, const char *want,
		    struct il_error *err)
{
	char list[256] = "";

	for (int p = 0; p < np; p++) {
		k->nx = distinct(k->rows, params[p], k->xs, MAX_VALUES);
		if (want ? !strcmp(params[p], want) : all_numbers(k->xs, k->nx)) {
			k->x = params[p];
			k->facet = np == 2 ? params[1 - p] : NULL;
			break;
		}
	}
	for (int p = 0; p < np; p++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", p ? ", " : "",
			 params[p]);
	if (want && !k->x)
		return bad_option(err, "no swept parameter '%s' (this sweep has: %s)", want,
				  list);
	if (k->x && !all_numbers(k->xs, k->nx))
		return bad_option(err,
				  "swept parameter '%s' is not numeric: no curve over it (%s)",
				  k->x, list);
	if (!k->x) {
		il_error_set(err, NULL, 0,
			     "no numeric swept parameter (%s): no curves, see the table", list);
		return 1;
	}
	return 0;
}

int il_chart_sweep(const struct il_model *m, const struct il_rpt_input *in,
		   const struct il_sweep_opts *o, struct il_lines **out, int *n,
		   struct il_error *err)
{
	static const char *const default_metrics[] = { "above_pct", "below_pct", NULL };
	const char *const *metrics = o && o->metric ? o->metric : default_metrics;
	struct sweep_ctx *k = calloc(1, sizeof(*k));
	const char *params[MAX_PARAMS];
	const json_t *fvals[MAX_VALUES];
	int np, nf = 1, nm = 0, ret = -1;
	struct il_lines *charts = NULL;

	*out = NULL;
	*n = 0;
	if (!k)
		goto nomem;
	k->rows = json_object_get(in->root, "sweep");
	np = il_sweep_params(k->rows, params, MAX_PARAMS);
	if (check_metrics(json_array_get(k->rows, 0), metrics, err))
		goto out;
	ret = choose_x(k, params, np, o ? o->x : NULL, err);
	if (ret)
		goto out;
	if (k->facet)
		nf = distinct(k->rows, k->facet, fvals, MAX_VALUES);
	while (metrics[nm])
		nm++;
	if (collect_series(k) || !(charts = calloc((size_t)(nm * nf) + 1, sizeof(*charts))))
		goto nomem;
	/* Value of the other parameter first, then metric: pipe above, pipe below, timer ... */
	for (int f = 0; f < nf; f++) {
		for (int mt = 0; mt < nm; mt++) {
			if (one_chart(k, m, in, metrics[mt], k->facet ? fvals[f] : NULL,
				      &charts[*n]))
				goto nomem;
			(*n)++;
		}
	}
	*out = charts;
	ret = 0;
	goto out;
nomem:
	il_charts_free_lines(charts, *n);
	*n = 0;
	il_error_set(err, NULL, 0, "%s", strerror(ENOMEM));
	errno = ENOMEM;
	ret = -1;
out:
	for (int s = 0; k && s < k->nser; s++)
		free(k->ser[s]);
	free(k);
	return ret;
}

void il_charts_free_lines(struct il_lines *l, int n)
{
	for (int i = 0; l && i < n; i++)
		il_lines_free(&l[i]);
	free(l);
}

#endif /* HAVE_JANSSON */
