// SPDX-License-Identifier: GPL-2.0-only
/*
 * mechanism.c - why a cell was called: the seeds of the cell rerun for both sides with their
 * full counters (the verdict keeps only what its metrics need), summed per side: entries and
 * residency per state, aboves, belows and tick stops.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../lab/battery.h"
#include "review.h"

static void add_side(struct il_review_side *side, const struct il_lab_result *r, int nstates)
{
	side->idles += r->sum.idles;
	side->aboves += r->sum.aboves;
	side->belows += r->sum.belows;
	side->tick_stops += r->sum.tick_stops;
	for (int i = 0; i < nstates; i++) {
		side->usage[i] += r->sum.usage[i];
		side->time_ns[i] += r->sum.time_ns[i];
	}
}

int il_review_mechanism(const struct il_review_verdict *rv, int p, int s,
			struct il_review_mechanism *m, struct il_error *err)
{
	size_t n = 2 * (size_t)rv->v.n;
	struct il_lab_spec *specs = calloc(n, sizeof(*specs));
	struct il_lab_result *res = calloc(n, sizeof(*res));
	int ret = 0;

	memset(m, 0, sizeof(*m));
	if (!specs || !res) {
		free(specs);
		free(res);
		return il_error_set(err, "review", 0, "out of memory");
	}
	for (int g = 0; g < 2; g++)
		for (int it = 0; it < rv->v.n; it++)
			il_verdict_spec(&rv->plan, &rv->v, p, s, g, it,
					&specs[(size_t)g * (size_t)rv->v.n + (size_t)it]);
	if (il_lab_run_all(specs, res, n, rv->plan.threads, NULL))
		ret = il_error_set(err, "review", 0, "rerun of %s on %s: %s", rv->v.spec[s],
				   rv->v.plat[p], strerror(errno));
	for (size_t i = 0; i < n && !ret; i++) {
		m->nstates = res[i].nstates;
		add_side(&m->side[i / (size_t)rv->v.n], &res[i], res[i].nstates);
	}
	for (int i = 0; !ret && i < m->nstates && i < CPUIDLE_STATE_MAX; i++)
		snprintf(m->state_names[i], sizeof(m->state_names[i]), "%s",
			 res[0].drv.states[i].name);
	for (size_t i = 0; i < n; i++)
		il_lab_result_free(&res[i]);
	free(specs);
	free(res);
	return ret;
}
