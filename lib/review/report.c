// SPDX-License-Identifier: GPL-2.0-only
/*
 * report.c - the review as tables: the verdict's own three (settings, cells, summary), so
 * that `idlelab report` reads the review's JSON as a verdict (the heat maps), then the
 * mechanism of every called cell and the real traces, which the page shows as they are.
 */
#include <stdio.h>
#include <string.h>

#include "../output/output.h"
#include "review.h"

static double share(u64 n, u64 d)
{
	return d ? 100.0 * (double)n / (double)d : 0.0;
}

/* The "verdict" table: what was run and how it was judged (the keys `idlelab verdict`
 * writes, which the report's heat maps read). */
static int settings_table(const struct il_verdict *v, const struct il_review_report *r,
			  struct il_table *t)
{
	char buf[256];
	int ret;

	if (il_table_init(t, "verdict", 2, (const char *const[]){ "key", "value" }))
		return -1;
	ret = il_table_kv_str(t, "baseline", v->gov[v->base]);
	for (int g = 0; g < v->ngov; g++)
		ret = ret || il_table_kv_str(t, "governor", v->gov[g]);
	for (int p = 0; p < v->nplat; p++)
		ret = ret || il_table_kv_str(t, "platform", v->plat[p]);
	for (int s = 0; s < v->nscn; s++)
		ret = ret || il_table_kv_str(t, "scenario", v->spec[s]);
	ret = ret || il_table_kv_int(t, "seeds", v->n);
	ret = ret || il_table_kv_int(t, "first_seed", (s64)r->seed);
	ret = ret || il_table_kv_str(t, "design", "paired by seed");
	snprintf(buf, sizeof(buf), "%.3f", (double)r->duration_ns / 1e9);
	ret = ret || il_table_kv_str(t, "simulated_s_per_run", buf);
	snprintf(buf, sizeof(buf), "%g", IL_VERDICT_DEFAULT_ALPHA);
	ret = ret || il_table_kv_str(t, "alpha", buf);
	snprintf(buf, sizeof(buf), "%g", IL_VERDICT_DEFAULT_MIN_EFFECT);
	ret = ret || il_table_kv_str(t, "min_effect_pct", buf);
	ret = ret || il_table_kv_str(t, "energy", "model values");
	for (int i = 0; i < r->nprovenance; i++)
		ret = ret || il_table_kv_str(t, r->provenance[i][0], r->provenance[i][1]);
	return ret ? -1 : 0;
}

static int long_row(struct il_table *t, const char *plat, const char *scn, const char *what,
		    double base, double patched, int prec)
{
	int row = il_table_add_row(t);

	if (row < 0 || il_table_set_str(t, row, 0, plat) || il_table_set_str(t, row, 1, scn) ||
	    il_table_set_str(t, row, 2, what))
		return -1;
	il_table_set_real(t, row, 3, base, prec);
	il_table_set_real(t, row, 4, patched, prec);
	return 0;
}

static void state_sums(const struct il_review_mechanism *m, int side, u64 *usage, u64 *time)
{
	*usage = *time = 0;
	for (int i = 0; i < m->nstates; i++) {
		*usage += m->side[side].usage[i];
		*time += m->side[side].time_ns[i];
	}
}

/* One (platform, scenario): entries and time per state, aboves, belows, tick stops. */
static int mechanism_rows(struct il_table *t, const char *plat, const char *scn,
			  const struct il_review_mechanism *m)
{
	const struct il_review_side *b = &m->side[0], *p = &m->side[1];
	u64 ub, up, tb, tp;
	char what[64];
	int ret = 0;

	state_sums(m, 0, &ub, &tb);
	state_sums(m, 1, &up, &tp);
	for (int i = 0; i < m->nstates && !ret; i++) {
		snprintf(what, sizeof(what), "%s entries %%", m->state_names[i]);
		ret = long_row(t, plat, scn, what, share(b->usage[i], ub), share(p->usage[i], up),
			       2);
		snprintf(what, sizeof(what), "%s time %%", m->state_names[i]);
		ret = ret || long_row(t, plat, scn, what, share(b->time_ns[i], tb),
				      share(p->time_ns[i], tp), 2);
	}
	ret = ret || long_row(t, plat, scn, "aboves % of idle periods", share(b->aboves, b->idles),
			      share(p->aboves, p->idles), 3);
	ret = ret || long_row(t, plat, scn, "belows % of idle periods", share(b->belows, b->idles),
			      share(p->belows, p->idles), 3);
	ret = ret || long_row(t, plat, scn, "idle periods", (double)b->idles, (double)p->idles, 0);
	return ret || long_row(t, plat, scn, "tick stops", (double)b->tick_stops,
			       (double)p->tick_stops, 0);
}

static int mechanism_table(const struct il_verdict *v, const struct il_review_report *r,
			   struct il_table *t)
{
	static const char *const cols[] = { "platform", "scenario", "what", "base", "patched" };

	if (il_table_init(t, "review mechanism", 5, cols))
		return -1;
	for (int i = 0; i < r->nmech; i++)
		if (mechanism_rows(t, v->plat[r->mech[i].p], v->spec[r->mech[i].s], r->mech[i].m))
			return -1;
	return 0;
}

static int trace_rows(struct il_table *t, const char *path, const struct il_review_trace *tr)
{
	const struct il_replay_row *b = &tr->side[0], *p = &tr->side[1];
	double same = share(tr->same_state, tr->periods);
	int ret;

	/* symmetric: the share of periods where the other side picked the same state */
	ret = long_row(t, path, "-", "periods", (double)tr->periods, (double)tr->periods, 0);
	ret = ret || long_row(t, path, "-", "same state as the other side %", same, same, 2);
	ret = ret || long_row(t, path, "-", "recorded state agreement %", share(b->agree, b->idles),
			      share(p->agree, p->idles), 2);
	ret = ret || long_row(t, path, "-", "energy mJ", (double)b->energy_nj / 1e6,
			      (double)p->energy_nj / 1e6, 3);
	ret = ret || long_row(t, path, "-", "aboves", (double)b->above, (double)p->above, 0);
	ret = ret || long_row(t, path, "-", "belows", (double)b->below, (double)p->below, 0);
	for (int i = 0; i < 2 && !ret; i++)
		if (!tr->have_gap[i])
			return long_row(t, path, "-", "gap to bound % (none on one side)", 0, 0, 0);
	return ret || long_row(t, path, "-", "gap to bound %", 100.0 * tr->gap[0],
			       100.0 * tr->gap[1], 2);
}

static int traces_table(const struct il_review_report *r, struct il_table *t)
{
	static const char *const cols[] = { "trace", "scenario", "what", "base", "patched" };

	if (il_table_init(t, "review traces", 5, cols))
		return -1;
	for (int i = 0; i < r->ntraces; i++)
		if (trace_rows(t, r->trace_paths[i], r->traces[i]))
			return -1;
	return 0;
}

int il_review_report_tables(const struct il_review_verdict *rv, const struct il_review_report *r,
			    struct il_table *t)
{
	struct il_verdict v = rv->v; /* a view with the names the page shows */

	v.gov = r->gov_names;
	memset(t, 0, IL_REVIEW_REPORT_TABLES * sizeof(*t));
	if (settings_table(&v, r, &t[0]) || mechanism_table(&v, r, &t[1]) ||
	    traces_table(r, &t[2]) || il_verdict_table(&v, false, &t[3]) ||
	    il_verdict_summary_table(&v, &t[4]))
		return il_tables_fail(t, IL_REVIEW_REPORT_TABLES);
	return 0;
}
