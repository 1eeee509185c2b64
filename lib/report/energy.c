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

#define MAX_SERIES 256

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

int il_chart_energy(const struct il_model *m, bool watts, struct il_bars *b)
{
	int *cats = calloc((size_t)m->ngroups + 1, sizeof(int)), ncat = 0, nser;
	const char *names[MAX_SERIES];
	struct il_gov_mean mean;

	if (!cats)
		goto nomem;
	for (int i = 0; i < m->ngroups; i++)
		if (group_has_energy(m, &m->groups[i], watts))
			cats[ncat++] = i;
	if (!ncat) {
		free(cats);
		return 1;
	}
	nser = il_row_names(m, cats, ncat, names, MAX_SERIES);
	if (il_bars_init(b, ncat, nser, 1))
		goto nomem;
	for (int c = 0; c < ncat; c++) {
		const struct il_pm_group *g = &m->groups[cats[c]];

		if (!(b->cat[c] = strdup(g->title)))
			goto nomem_bars;
		for (int s = 0; s < nser; s++)
			if (il_group_mean(g, names[s], &mean))
				*il_bars_at(b, c, s, 0) = pick(&mean, watts);
	}
	if (il_bars_series(b, m, names))
		goto nomem_bars;
	b->title = il_strf(watts ? "Average power" : "Energy");
	b->subtitle = il_strf(watts ? "mean power over the simulated time, per governor"
				    : "energy over the simulated time (a replay: over the trace), per governor");
	b->axis = il_strf(watts ? "power, W" : "energy, J");
	b->unit = il_strf(watts ? " W" : " J");
	b->note = il_strf("model values from the platform's power numbers; the mean of the iterations");
	b->prec = value_prec(b);
	b->value_labels = true;
	if (!b->title || !b->subtitle || !b->axis || !b->unit || !b->note)
		goto nomem_bars;
	free(cats);
	return 0;
nomem_bars:
	il_bars_free(b);
nomem:
	free(cats);
	errno = ENOMEM;
	return -1;
}

#endif /* HAVE_JANSSON */
