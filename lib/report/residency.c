// SPDX-License-Identifier: GPL-2.0-only
/*
 * residency.c - stacked shares per idle state: which states a governor used, as shares of
 * its idle time (a run's per-state time, a trace's residency) or of its idle entries (the
 * usage_STATE columns of every linux-pm row, a replay's picks). Each bar sums to 100 %.
 * Groups with different state tables (platforms) get separate charts. The states are
 * coloured light (shallow) to dark (deep); a polling state (by the kernel's names for
 * it, "POLL" and "snooze") stands apart in sand.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model.h"
#include "svg.h"

#ifdef HAVE_JANSSON

#define MAX_SERIES 256

static const double *row_values(const struct il_pm_row *r, bool by_time)
{
	return by_time ? r->idle_s : r->usage;
}

static bool group_usable(const struct il_pm_group *g, bool by_time)
{
	if (g->src == IL_GROUP_SWEEP || !g->nstates)
		return false;
	if (by_time && g->src != IL_GROUP_LAB && g->src != IL_GROUP_TRACE)
		return false;
	for (int r = 0; r < g->nrows; r++)
		for (int s = 0; s < g->nstates; s++)
			if (row_values(&g->rows[r], by_time)[s] > 0)
				return true;
	return false;
}

static bool same_states(const struct il_pm_group *a, const struct il_pm_group *b)
{
	if (a->nstates != b->nstates)
		return false;
	for (int s = 0; s < a->nstates; s++)
		if (strcmp(a->states[s], b->states[s]))
			return false;
	return true;
}

static bool is_polling(const char *name)
{
	return !strcasecmp(name, "POLL") || !strcasecmp(name, "snooze");
}

/* Shares of @gov's rows in @g into segments [0, nstates) of bar (@c, @s). */
static void shares(struct il_bars *b, int c, int s, const struct il_pm_group *g, const char *gov,
		   bool by_time)
{
	double sum[IL_RPT_MAX_STATES] = { 0 }, total = 0;

	for (int r = 0; r < g->nrows; r++) {
		const double *v = row_values(&g->rows[r], by_time);

		if (strcmp(g->rows[r].gov, gov))
			continue;
		for (int k = 0; k < g->nstates && k < IL_RPT_MAX_STATES; k++) {
			if (isnan(v[k]))
				continue;
			sum[k] += v[k];
			total += v[k];
		}
	}
	for (int k = 0; k < g->nstates && k < IL_RPT_MAX_STATES && total > 0; k++)
		*il_bars_at(b, c, s, k) = 100 * sum[k] / total;
}

static int state_colors(struct il_bars *b)
{
	int deep = 0, k = 0;
	char buf[16];

	for (int i = 0; i < b->nseg; i++)
		deep += !is_polling(b->seg[i]);
	for (int i = 0; i < b->nseg; i++) {
		bool poll = is_polling(b->seg[i]);

		if (!(b->seg_color[i] =
			      strdup(il_color_state(poll ? 0 : k, deep, poll, buf, sizeof(buf)))))
			return -1;
		k += !poll;
	}
	return 0;
}

/* One chart: the groups @cats (all with the states of the first). */
static int one_chart(const struct il_model *m, const int *cats, int ncat, bool by_time,
		     struct il_bars *b)
{
	const struct il_pm_group *first = &m->groups[cats[0]];
	const char *names[MAX_SERIES];
	int nser = il_row_names(m, cats, ncat, names, MAX_SERIES);
	char *states = NULL;
	size_t len = 0;

	if (il_bars_init(b, ncat, nser, first->nstates))
		return -1;
	for (int c = 0; c < ncat; c++) {
		if (!(b->cat[c] = strdup(m->groups[cats[c]].title)))
			goto fail;
		for (int s = 0; s < nser; s++)
			shares(b, c, s, &m->groups[cats[c]], names[s], by_time);
	}
	for (int k = 0; k < first->nstates; k++)
		if (!(b->seg[k] = strdup(first->states[k])))
			goto fail;
	for (int k = 0; k < first->nstates; k++)
		len += strlen(first->states[k]) + 2;
	states = malloc(len + 1);
	if (!states)
		goto fail;
	states[0] = '\0';
	for (int k = 0; k < first->nstates; k++)
		strcat(strcat(states, k ? ", " : ""), first->states[k]);
	b->title = il_strf(by_time ? "Idle time per state (%s)" : "Idle entries per state (%s)",
			   states);
	free(states);
	b->subtitle = il_strf(by_time ? "share of each governor's (or CPU's) idle time spent in "
					"each state" :
					"share of each governor's (or CPU's) idle entries per "
					"state (usage)");
	b->axis = il_strf(by_time ? "share of idle time, %%" : "share of idle entries, %%");
	b->unit = il_strf("%%");
	b->prec = 1;
	b->axis_max = 100;
	if (il_bars_series(b, m, names) || state_colors(b) || !b->title || !b->subtitle ||
	    !b->axis || !b->unit)
		goto fail;
	return 0;
fail:
	il_bars_free(b);
	return -1;
}

int il_chart_residency(const struct il_model *m, bool by_time, struct il_bars **out, int *n)
{
	int *cats = calloc((size_t)m->ngroups + 1, sizeof(int));
	bool *done = calloc((size_t)m->ngroups + 1, sizeof(bool));
	struct il_bars *charts = calloc((size_t)m->ngroups + 1, sizeof(*charts));

	*out = NULL;
	*n = 0;
	if (!cats || !done || !charts)
		goto nomem;
	for (int i = 0; i < m->ngroups; i++) {
		int ncat = 0;

		if (done[i] || !group_usable(&m->groups[i], by_time))
			continue;
		for (int j = i; j < m->ngroups; j++) {
			if (!done[j] && group_usable(&m->groups[j], by_time) &&
			    same_states(&m->groups[i], &m->groups[j])) {
				cats[ncat++] = j;
				done[j] = true;
			}
		}
		if (one_chart(m, cats, ncat, by_time, &charts[*n]))
			goto nomem;
		(*n)++;
	}
	free(cats);
	free(done);
	if (!*n) {
		free(charts);
		return 1;
	}
	*out = charts;
	return 0;
nomem:
	il_charts_free_bars(charts, *n);
	*n = 0;
	free(cats);
	free(done);
	errno = ENOMEM;
	return -1;
}

void il_charts_free_bars(struct il_bars *b, int n)
{
	for (int i = 0; b && i < n; i++)
		il_bars_free(&b[i]);
	free(b);
}

#endif /* HAVE_JANSSON */
