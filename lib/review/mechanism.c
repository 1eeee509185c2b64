// SPDX-License-Identifier: GPL-2.0-only
/*
 * mechanism.c - why a cell was called: the verdict's nominal runs of the cell for both
 * sides, summed per side: entries and residency per state, aboves, belows and tick stops.
 * The verdict keeps these counts of every run (struct il_verdict_run), so nothing is rerun.
 */
#include <stdio.h>
#include <string.h>

#include "review.h"

static void add_side(struct il_review_side *side, const struct il_verdict_run *r)
{
	side->idles += r->idles;
	side->aboves += r->aboves;
	side->belows += r->belows;
	side->tick_stops += r->tick_stops;
	for (int i = 0; i < r->nstates && i < CPUIDLE_STATE_MAX; i++) {
		side->usage[i] += r->state_usage[i];
		side->time_ns[i] += r->state_ns[i];
	}
}

int il_review_mechanism(const struct il_review_verdict *rv, int p, int s,
			struct il_review_mechanism *m, struct il_error *err)
{
	const struct il_verdict *v = &rv->v;
	const struct il_driver *drv = &rv->plan.plat[p].drv;

	memset(m, 0, sizeof(*m));
	if (v->na[p * v->nscn + s][0])
		return il_error_set(err, "review", 0, "%s on %s was not run: %s", v->spec[s],
				    v->plat[p], v->na[p * v->nscn + s]);
	for (int g = 0; g < 2; g++)
		for (int it = 0; it < v->n; it++) {
			const struct il_verdict_run *r = &v->runs[il_verdict_index(v, p, s, g, it)];

			m->nstates = r->nstates;
			add_side(&m->side[g], r);
		}
	for (int i = 0; i < m->nstates && i < CPUIDLE_STATE_MAX; i++)
		snprintf(m->state_names[i], sizeof(m->state_names[i]), "%s", drv->states[i].name);
	return 0;
}
