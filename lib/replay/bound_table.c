// SPDX-License-Identifier: GPL-2.0-only
/*
 * bound_table.c - the open-loop frontier and each governor's gap to it, as output tables
 * (shared by replay, run and compare).
 */
#include <stdio.h>

#include "bound.h"
#include "../output/output.h"
#include "util/array.h"

int il_bound_table(struct il_table *t, const struct il_bound *b)
{
	static const char *const cols[] = {
		"bound", "lambda_nj_per_us", "energy_mj", "added_latency_us", "latency_us_per_idle",
	};
	int last = -1, n = 0;

	if (il_table_init(t, "bound (open loop: per period the state minimising energy + lambda x "
			     "exit latency)", (int)ARRAY_SIZE(cols), cols))
		return -1;
	for (int k = 0; k < IL_BOUND_NLAMBDA; k++) {
		const struct il_bound_point *p = &b->pt[k];
		char name[32];
		int r;

		if (last >= 0 && b->pt[last].energy_nj == p->energy_nj &&
		    b->pt[last].latency_ns == p->latency_ns)
			continue;
		last = k;
		r = il_table_add_row(t);
		snprintf(name, sizeof(name), "bound %d", n++);
		if (r < 0 || il_table_set_str(t, r, 0, name))
			return -1;
		if (p->lambda_nj_per_us < 0) {
			if (il_table_set_str(t, r, 1, "inf"))
				return -1;
		} else {
			il_table_set_real(t, r, 1, p->lambda_nj_per_us, 4);
		}
		il_table_set_real(t, r, 2, (double)p->energy_nj / 1e6, 3);
		il_table_set_real(t, r, 3, (double)p->latency_ns / 1e3, 1);
		if (b->periods)
			il_table_set_real(t, r, 4, (double)p->latency_ns / 1e3 / (double)b->periods,
					  3);
	}
	return 0;
}

int il_bound_gap_table_init(struct il_table *t, const char *what)
{
	static const char *const cols[] = {
		"governor", "iter", "energy_mj", "added_latency_us", "bound_mj", "gap_pct",
		"energy_optimal_mj", "verdict",
	};

	char title[160];

	snprintf(title, sizeof(title), "gap to bound%s%s (the governor's idle periods, open loop)",
		 what ? " " : "", what ? what : "");
	return il_table_init(t, title, (int)ARRAY_SIZE(cols), cols);
}

int il_bound_gap_row(struct il_table *t, const char *gov, int iter, const struct il_bound *b,
		     const struct il_bound_gov *g)
{
	int r = il_table_add_row(t);
	double e, gap;
	char verdict[96];

	if (r < 0 || il_table_set_str(t, r, 0, gov))
		return -1;
	il_table_set_int(t, r, 1, iter);
	il_table_set_real(t, r, 2, (double)g->energy_nj / 1e6, 3);
	il_table_set_real(t, r, 3, (double)g->latency_ns / 1e3, 1);
	if (il_bound_at_latency(b, g->latency_ns, &e) || il_bound_gap(b, g, &gap)) {
		snprintf(verdict, sizeof(verdict), "no frontier point at this added latency");
	} else {
		il_table_set_real(t, r, 4, e / 1e6, 3);
		il_table_set_real(t, r, 5, 100.0 * gap, 2);
		il_table_set_real(t, r, 6, (double)b->pt[0].energy_nj / 1e6, 3);
		snprintf(verdict, sizeof(verdict),
			 "gap to bound: %+.1f %% energy at equal added latency", 100.0 * gap);
	}
	return il_table_set_str(t, r, 7, verdict);
}
