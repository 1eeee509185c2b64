// SPDX-License-Identifier: GPL-2.0-only
/*
 * relative.c - governors against a baseline, as in the seeds' "Results relative to
 * teo-613" tables: per group the change of a governor's mean score against the baseline's
 * mean score, in %, as bars; and per score (iops, us_per_loop ...) the average, largest
 * and smallest change over the groups that have both, sweep points included, as a table.
 * Which way is better depends on the score (il_score_better); the changes are not turned
 * around, the labels say it.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

#ifdef HAVE_JANSSON

#define ARROW_DOWN "\xe2\x86\x93"
#define ARROW_UP "\xe2\x86\x91"

double il_rel_change(double v, double base)
{
	if (isnan(v) || isnan(base) || base == 0)
		return NAN;
	return (v - base) / fabs(base) * 100;
}

static bool group_has(const struct il_pm_group *g, const char *gov)
{
	for (int r = 0; r < g->nrows; r++)
		if (!strcmp(g->rows[r].gov, gov))
			return true;
	return false;
}

const char *il_pick_baseline(const struct il_model *m, const char *want, struct il_error *err)
{
	for (int i = 0; i < m->ngroups; i++) {
		const struct il_pm_group *g = &m->groups[i];

		if (g->src != IL_GROUP_LAB && g->src != IL_GROUP_SWEEP)
			continue;
		if (!want && g->nrows)
			return m->gov[il_model_gov(m, g->rows[0].gov)];
		if (want && group_has(g, want))
			return m->gov[il_model_gov(m, want)];
	}
	if (!want)
		return NULL;
	{
		char have[IL_ERROR_LEN] = "";
		size_t used = 0, cap = sizeof(have);
		bool any = false;

		for (int i = 0; i < m->ngov && used < cap; i++) {
			bool lab = false;

			for (int k = 0; k < m->ngroups && !lab; k++)
				lab = (m->groups[k].src == IL_GROUP_LAB ||
				       m->groups[k].src == IL_GROUP_SWEEP) &&
				      group_has(&m->groups[k], m->gov[i]);
			if (lab) {
				used += (size_t)snprintf(have + used, cap - used, " %s", m->gov[i]);
				any = true;
			}
		}
		il_error_set(err, NULL, 0, "no governor '%s' in the lab or sweep results (they "
			     "have:%s%s", want, have, any ? ")" : " none)");
	}
	errno = EINVAL;
	return NULL;
}

/* The change of @gov against @base in group @g, NaN when either has no score. */
static double group_change(const struct il_pm_group *g, const char *gov, const char *base)
{
	struct il_gov_mean a, b;

	if (!g->score || !il_group_mean(g, gov, &a) || !il_group_mean(g, base, &b))
		return NAN;
	return il_rel_change(a.score, b.score);
}

static const char *better_text(const char *score)
{
	int better = il_score_better(score);

	return better > 0 ? " " ARROW_UP : better < 0 ? " " ARROW_DOWN : "";
}

int il_chart_relative(const struct il_model *m, const char *base, struct il_bars *b)
{
	int *cats = calloc((size_t)m->ngroups + 1, sizeof(int)),
	    *sers = calloc((size_t)m->ngov + 1, sizeof(int));
	int ncat = 0, nser = 0, ret = -1;

	if (!cats || !sers)
		goto out;
	for (int s = 0; s < m->ngov; s++) {
		bool used = false;

		for (int i = 0; i < m->ngroups && strcmp(m->gov[s], base); i++)
			used |= m->groups[i].src == IL_GROUP_LAB &&
				!isnan(group_change(&m->groups[i], m->gov[s], base));
		if (used)
			sers[nser++] = s;
	}
	for (int i = 0; i < m->ngroups; i++) {
		bool any = false;

		for (int s = 0; s < nser && m->groups[i].src == IL_GROUP_LAB; s++)
			any |= !isnan(group_change(&m->groups[i], m->gov[sers[s]], base));
		if (any)
			cats[ncat++] = i;
	}
	if (!ncat) {
		ret = 1;
		goto out;
	}
	if (il_bars_init(b, ncat, nser, 1))
		goto out;
	for (int c = 0; c < ncat; c++) {
		const struct il_pm_group *g = &m->groups[cats[c]];

		b->cat[c] = il_strf("%s\n%s%s", g->title, g->score, better_text(g->score));
		for (int s = 0; s < nser; s++)
			*il_bars_at(b, c, s, 0) = group_change(g, m->gov[sers[s]], base);
	}
	for (int s = 0; s < nser; s++) {
		b->ser[s] = il_strf("%s", m->gov[sers[s]]);
		b->ser_color[s] = il_strf("%s", il_model_gov_color(m, m->gov[sers[s]]));
	}
	b->title = il_strf("Score relative to %s", base);
	b->subtitle = il_strf("change of each governor's mean score against %s's, "
			      "per scenario and device", base);
	b->axis = il_strf("score change against %s, %%", base);
	b->note = il_strf("%s higher is better, %s lower is better (by the score's name); a group "
			  "whose baseline score is 0 is left out; \xc2\xbb a bar cut at the axis "
			  "end (its label is exact)",
			  ARROW_UP, ARROW_DOWN);
	b->unit = il_strf("%%");
	b->prec = 1;
	b->sign = true;
	b->value_labels = true;
	b->clip = true;
	ret = 0;
	for (int c = 0; c < ncat; c++)
		ret |= b->cat[c] ? 0 : -1;
	for (int s = 0; s < nser; s++)
		ret |= b->ser[s] && b->ser_color[s] ? 0 : -1;
	if (ret || !b->title || !b->subtitle || !b->axis || !b->note || !b->unit) {
		il_bars_free(b);
		ret = -1;
	}
out:
	free(cats);
	free(sers);
	if (ret < 0)
		errno = ENOMEM;
	return ret;
}

/* ---- the table ------------------------------------------------------------------------------ */

static int score_index(const struct il_rel_summary *r, const char *score)
{
	for (int i = 0; i < r->nscore; i++)
		if (!strcmp(r->score[i], score))
			return i;
	return -1;
}

static int add_score(struct il_rel_summary *r, const char *score, int ngov)
{
	size_t n = (size_t)(r->nscore + 1), cells = n * (size_t)ngov;
	char **sc = realloc(r->score, n * sizeof(char *));
	double *avg, *max, *min;
	int *cnt;

	if (!sc)
		return -1;
	r->score = sc;
	avg = realloc(r->avg, cells * sizeof(double));
	r->avg = avg ? avg : r->avg;
	max = realloc(r->max, cells * sizeof(double));
	r->max = max ? max : r->max;
	min = realloc(r->min, cells * sizeof(double));
	r->min = min ? min : r->min;
	cnt = realloc(r->n, cells * sizeof(int));
	r->n = cnt ? cnt : r->n;
	if (!avg || !max || !min || !cnt || !(r->score[r->nscore] = strdup(score)))
		return -1;
	for (size_t k = (size_t)r->nscore * (size_t)ngov; k < cells; k++) {
		r->avg[k] = 0;
		r->max[k] = -INFINITY;
		r->min[k] = INFINITY;
		r->n[k] = 0;
	}
	return r->nscore++;
}

int il_rel_summary(const struct il_model *m, const char *base, struct il_rel_summary *r)
{
	memset(r, 0, sizeof(*r));
	r->gov = calloc((size_t)m->ngov + 1, sizeof(char *));
	if (!r->gov)
		goto fail;
	for (int s = 0; s < m->ngov; s++)
		if (strcmp(m->gov[s], base) && !(r->gov[r->ngov++] = strdup(m->gov[s])))
			goto fail;
	for (int i = 0; i < m->ngroups; i++) {
		const struct il_pm_group *g = &m->groups[i];

		if ((g->src != IL_GROUP_LAB && g->src != IL_GROUP_SWEEP) || !g->score)
			continue;
		for (int s = 0; s < r->ngov; s++) {
			double d = group_change(g, r->gov[s], base);
			int k = score_index(r, g->score);
			size_t cell;

			if (isnan(d))
				continue;
			if (k < 0 && (k = add_score(r, g->score, r->ngov)) < 0)
				goto fail;
			cell = (size_t)k * (size_t)r->ngov + (size_t)s;
			r->avg[cell] += d;
			r->max[cell] = fmax(r->max[cell], d);
			r->min[cell] = fmin(r->min[cell], d);
			r->n[cell]++;
		}
	}
	for (size_t k = 0; k < (size_t)r->nscore * (size_t)r->ngov; k++) {
		if (r->n[k]) {
			r->avg[k] /= r->n[k];
		} else {
			r->avg[k] = r->max[k] = r->min[k] = NAN;
		}
	}
	if (!r->nscore) {
		il_rel_summary_free(r);
		return 1;
	}
	return 0;
fail:
	il_rel_summary_free(r);
	errno = ENOMEM;
	return -1;
}

void il_rel_summary_free(struct il_rel_summary *r)
{
	for (int i = 0; r->score && i < r->nscore; i++)
		free(r->score[i]);
	for (int i = 0; r->gov && i < r->ngov; i++)
		free(r->gov[i]);
	free(r->score);
	free(r->gov);
	free(r->avg);
	free(r->max);
	free(r->min);
	free(r->n);
	memset(r, 0, sizeof(*r));
}

#endif /* HAVE_JANSSON */
