// SPDX-License-Identifier: GPL-2.0-only
/*
 * miss.c - idle misses per governor and scenario/device: the linux-pm idle_miss_ratio as a
 * percentage of idle entries, each bar split into "below" (the state was too shallow: a
 * deeper one would have fitted the idle time) and "above" (too deep: the CPU woke before
 * the state's target residency), the kernel's cpu_idle_miss counts. Iterations are summed
 * (misses over entries), so the bar is the ratio of the totals.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

#ifdef HAVE_JANSSON

static bool group_has_misses(const struct il_pm_group *g)
{
	if (g->src == IL_GROUP_SWEEP)
		return false;
	for (int r = 0; r < g->nrows; r++)
		if (g->rows[r].idles > 0 && !isnan(g->rows[r].belows) && !isnan(g->rows[r].aboves))
			return true;
	return false;
}

/* Below and above of @gov in @g as % of its idle entries. */
static void miss_pct(const struct il_pm_group *g, const char *gov, double *below, double *above)
{
	double idles = 0, b = 0, a = 0;

	for (int r = 0; r < g->nrows; r++) {
		const struct il_pm_row *row = &g->rows[r];

		if (strcmp(row->gov, gov) || !(row->idles > 0) || isnan(row->belows) ||
		    isnan(row->aboves))
			continue;
		idles += row->idles;
		b += row->belows;
		a += row->aboves;
	}
	*below = idles > 0 ? 100 * b / idles : NAN;
	*above = idles > 0 ? 100 * a / idles : NAN;
}

static bool want_misses(const struct il_model *m, const struct il_pm_group *g, const void *ctx)
{
	return group_has_misses(g);
}

static void fill_misses(const struct il_pm_group *g, const char *gov, double *v, const void *ctx)
{
	miss_pct(g, gov, &v[0], &v[1]);
}

int il_chart_miss(const struct il_model *m, struct il_bars *b)
{
	const struct il_group_bars_ops ops = { want_misses, fill_misses, NULL };
	int ret = il_group_bars(m, &ops, 2, b);

	if (ret)
		return ret;
	b->seg[0] = il_strf("below (state too shallow)");
	b->seg[1] = il_strf("above (state too deep)");
	b->seg_color[0] = il_strf("#76b7b2");
	b->seg_color[1] = il_strf("#e15759");
	b->title = il_strf("Idle misses per governor");
	b->subtitle =
		il_strf("idle_miss_ratio in %% of idle entries, split into belows and aboves");
	b->axis = il_strf("idle misses, %% of idle entries");
	b->unit = il_strf("%%");
	b->prec = 2;
	b->value_labels = true;
	if (!b->seg[0] || !b->seg[1] || !b->seg_color[0] || !b->seg_color[1] || !b->title ||
	    !b->subtitle || !b->axis || !b->unit) {
		il_bars_free(b);
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

#endif /* HAVE_JANSSON */
