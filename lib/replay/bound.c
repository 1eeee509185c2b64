// SPDX-License-Identifier: GPL-2.0-only
/*
 * bound.c - the open-loop energy / added-latency frontier of a sequence of idle periods
 * (definitions in bound.h).
 */
#include <string.h>

#include "bound.h"

u64 il_bound_energy_nj(const struct il_driver *drv, int idx, u64 ns)
{
	const struct il_state *s = &drv->states[idx];

	/* µW x ns = 1e-15 J; / 1e6 gives nJ. Split to stay far from u64 overflow. */
	return s->power_uw * (ns / NSEC_PER_MSEC) + s->power_uw * (ns % NSEC_PER_MSEC) / 1000000 +
	       s->entry_exit_energy_nj;
}

static double lambda_of(int k)
{
	if (k == 0)
		return 0.0;
	if (k == IL_BOUND_NLAMBDA - 1)
		return -1.0;
	return (double)(1ULL << (k - 1)) / 16.0;
}

int il_bound_init(struct il_bound *b, const struct il_driver *drv, const struct il_device *dev,
		  s64 qos_ns)
{
	int n = 0;

	memset(b, 0, sizeof(*b));
	b->nstates = drv->state_count;
	for (int i = 0; i < drv->state_count; i++) {
		const struct il_state *s = &drv->states[i];

		b->power_uw[i] = s->power_uw;
		b->entry_exit_nj[i] = s->entry_exit_energy_nj;
		b->exit_ns[i] = s->exit_latency_ns > 0 ? (u64)s->exit_latency_ns : 0;
		b->usable[i] = (dev ? il_state_enabled(drv, dev, i) : !s->disabled) &&
			       (qos_ns < 0 || s->exit_latency_ns <= qos_ns);
		n += b->usable[i];
	}
	for (int k = 0; k < IL_BOUND_NLAMBDA; k++)
		b->pt[k].lambda_nj_per_us = lambda_of(k);
	if (n)
		return 0;
	for (int i = 0; i < drv->state_count; i++)
		b->usable[i] = true;
	return -1;
}

static u64 energy_of(const struct il_bound *b, int i, u64 ns)
{
	return b->power_uw[i] * (ns / NSEC_PER_MSEC) +
	       b->power_uw[i] * (ns % NSEC_PER_MSEC) / 1000000 + b->entry_exit_nj[i];
}

/* The state minimising energy + lambda x latency for one period; ties: the lower latency. */
static int best_state(const struct il_bound *b, const u64 *e, double lambda)
{
	int best = -1;
	double best_cost = 0;

	for (int i = 0; i < b->nstates; i++) {
		double cost;

		if (!b->usable[i])
			continue;
		if (lambda < 0) {
			/* infinite price: the least latency, then the least energy */
			if (best < 0 || b->exit_ns[i] < b->exit_ns[best] ||
			    (b->exit_ns[i] == b->exit_ns[best] && e[i] < e[best]))
				best = i;
			continue;
		}
		cost = (double)e[i] + lambda * (double)b->exit_ns[i] / 1000.0;
		if (best < 0 || cost < best_cost ||
		    (cost == best_cost && b->exit_ns[i] < b->exit_ns[best])) {
			best = i;
			best_cost = cost;
		}
	}
	return best;
}

void il_bound_add(struct il_bound *b, u64 ns)
{
	u64 e[CPUIDLE_STATE_MAX];

	for (int i = 0; i < b->nstates; i++)
		e[i] = energy_of(b, i, ns);
	b->periods++;
	for (int k = 0; k < IL_BOUND_NLAMBDA; k++) {
		int i = best_state(b, e, b->pt[k].lambda_nj_per_us);

		b->pt[k].energy_nj += e[i];
		b->pt[k].latency_ns += b->exit_ns[i];
	}
}

void il_bound_gov_add(struct il_bound_gov *g, const struct il_driver *drv, int idx, u64 ns)
{
	g->periods++;
	g->energy_nj += il_bound_energy_nj(drv, idx, ns);
	g->latency_ns +=
		drv->states[idx].exit_latency_ns > 0 ? (u64)drv->states[idx].exit_latency_ns : 0;
}

void il_bound_merge(struct il_bound *into, const struct il_bound *b)
{
	into->periods += b->periods;
	for (int k = 0; k < IL_BOUND_NLAMBDA; k++) {
		into->pt[k].energy_nj += b->pt[k].energy_nj;
		into->pt[k].latency_ns += b->pt[k].latency_ns;
	}
}

int il_bound_at_latency(const struct il_bound *b, u64 latency_ns, double *energy_nj)
{
	const struct il_bound_point *pt = b->pt;
	double best;

	if (latency_ns >= pt[0].latency_ns) {
		*energy_nj = (double)pt[0].energy_nj;
		return 0;
	}
	if (latency_ns < pt[IL_BOUND_NLAMBDA - 1].latency_ns)
		return -1;
	/* The infinite price has a vertical line: it only says where the frontier starts. */
	best = (double)pt[0].energy_nj;
	for (int k = 1; k < IL_BOUND_NLAMBDA - 1; k++) {
		double line = (double)pt[k].energy_nj +
			      pt[k].lambda_nj_per_us *
				      ((double)pt[k].latency_ns - (double)latency_ns) / 1000.0;

		if (line > best)
			best = line;
	}
	*energy_nj = best;
	return 0;
}

int il_bound_gap(const struct il_bound *b, const struct il_bound_gov *g, double *gap)
{
	double e;

	if (il_bound_at_latency(b, g->latency_ns, &e) || e <= 0)
		return -1;
	*gap = (double)g->energy_nj / e - 1.0;
	return 0;
}
