// SPDX-License-Identifier: GPL-2.0-only
/*
 * energy.c - energy (J) and average power (W) per governor and scenario/device: the lab's
 * model values (the platform's power numbers, docs/platforms.md) and a replay's energy
 * estimate; the mean of a governor's iterations.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

#ifdef HAVE_JANSSON

static double pick(const struct il_gov_mean *mean, bool watts)
{
	return watts ? mean->watts : mean->joules;
}

static bool group_has_energy(const struct il_model *m, const struct il_pm_group *g, bool watts)
{
	struct il_gov_mean mean;

	if (g->src != IL_GROUP_LAB && g->src != IL_GROUP_REPLAY)
		return false;
	for (int s = 0; s < m->ngov; s++)
		if (il_group_mean(g, m->gov[s], &mean) && !isnan(pick(&mean, watts)))
			return true;
	return false;
}

/* Enough decimals for two or three significant digits of the largest value. */
static int value_prec(const struct il_bars *b)
{
	double hi = 0;

	for (int i = 0; i < b->ncat * b->nser; i++)
		if (!isnan(b->v[i]))
			hi = fmax(hi, fabs(b->v[i]));
	return hi >= 100 ? 0 : hi >= 10 ? 1 : hi >= 0.1 ? 2 : 3;
}

static bool want_energy(const struct il_model *m, const struct il_pm_group *g, const void *ctx)
{
	return group_has_energy(m, g, *(const bool *)ctx);
}

static void fill_energy(const struct il_pm_group *g, const char *gov, double *v, const void *ctx)
{
	struct il_gov_mean mean;

	if (il_group_mean(g, gov, &mean))
		*v = pick(&mean, *(const bool *)ctx);
}

int il_chart_energy(const struct il_model *m, bool watts, struct il_bars *b)
{
	const struct il_group_bars_ops ops = { want_energy, fill_energy, &watts };
	int ret = il_group_bars(m, &ops, 1, b);

	if (ret)
		return ret;
	b->title = il_strf(watts ? "Average power" : "Energy");
	b->subtitle = il_strf(watts ? "mean power over the simulated time, per governor" :
				      "energy over the simulated time (a replay: over the trace), "
				      "per governor");
	b->axis = il_strf(watts ? "power, W" : "energy, J");
	b->unit = il_strf(watts ? " W" : " J");
	b->note = il_strf("model values from the platform's power numbers; the mean of the "
			  "iterations");
	b->prec = value_prec(b);
	b->value_labels = true;
	if (!b->title || !b->subtitle || !b->axis || !b->unit || !b->note) {
		il_bars_free(b);
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

#endif /* HAVE_JANSSON */
