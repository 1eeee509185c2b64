/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bound.h - the open-loop bound: energy against added exit latency for a known sequence of
 * idle periods.
 *
 * DOC: open-loop bound
 *
 * Given the lengths of a sequence of idle periods (a trace's, or a lab run's replayed open
 * loop), every period can be spent in any usable state; nothing feeds back. Then:
 *
 *  1. The energy of period d in state i is the model the lab and replay use (lib/metrics,
 *     replay.c): power_uw(i) x d + entry_exit_energy_nj(i), in integer nJ
 *     (il_bound_energy_nj()). The exit latency it adds to the work the wakeup releases is
 *     exit_latency_ns(i).
 *  2. With a price lambda (nJ per µs of exit latency), the per-period choice minimising
 *     energy + lambda x latency is exact for the sum: the sum is separable, so the per-period
 *     minima add up to the minimum of the sequence. lambda = 0 is the energy-optimal choice
 *     (no sequence of state picks spends less); large lambda is the latency-optimal one.
 *  3. Each lambda gives one point (total energy E, total added latency L) of the lower convex
 *     hull of everything any governor could achieve on that sequence (Lagrangian relaxation),
 *     and the points, in decreasing latency, trace the Pareto frontier. What holds between
 *     two points is each point's supporting line, not the straight line joining them: no
 *     choice has energy + lambda x latency below the point's E + lambda x L, so at latency
 *     l the energy is at least E + lambda x (L - l), for every lambda. The bound at l is the
 *     highest of those lines. (The straight line joins two hull vertices only when no vertex
 *     lies between them; with a price grid it can skip some, and then it sits above what a
 *     governor can reach: a "gap" below 0.) A governor's energy is compared with the bound
 *     at its own added latency: "gap to bound".
 *  4. Usable states: enabled in the table and within the QoS limit given; states a governor
 *     may not pick are not in the bound either.
 *
 * This is a bound only for the sequence it is given: in closed loop a different choice
 * changes the periods themselves, which no open-loop figure captures (docs/governor.md).
 */
#ifndef IDLELAB_BOUND_H
#define IDLELAB_BOUND_H

#include "../cpuidle.h"

/* The prices of the frontier: 0, then 2^k / 16 nJ per µs for k = 0 .. IL_BOUND_NLAMBDA - 3
 * (1/16 .. 2^28), then "infinite" (the least latency, then the least energy). Doubling steps:
 * the bound between two points is the higher of their supporting lines, which the finer
 * grid keeps close to the hull. */
#define IL_BOUND_NLAMBDA 35

struct il_bound_point {
	double lambda_nj_per_us;  /* < 0: infinite */
	u64 energy_nj;
	u64 latency_ns;           /* summed exit latency of the chosen states */
};

struct il_bound {
	int nstates;
	bool usable[CPUIDLE_STATE_MAX];
	u64 power_uw[CPUIDLE_STATE_MAX];
	u64 entry_exit_nj[CPUIDLE_STATE_MAX];
	u64 exit_ns[CPUIDLE_STATE_MAX];
	u64 periods;
	struct il_bound_point pt[IL_BOUND_NLAMBDA];
};

/* A governor's own total over the same periods, in the same model. */
struct il_bound_gov {
	u64 periods;
	u64 energy_nj;
	u64 latency_ns;
};

/**
 * il_bound_init - a bound over @drv's states that are enabled (il_state_enabled() on @dev, or
 * not drv->states[].disabled when @dev is NULL) and whose exit latency is at most @qos_ns
 * (< 0: no limit)
 * Return: 0, or -1 when no state is usable (then every state is, as a governor's fallback).
 */
int il_bound_init(struct il_bound *b, const struct il_driver *drv, const struct il_device *dev,
		  s64 qos_ns);
/** il_bound_energy_nj - the model energy of one period of @ns in state @idx of @drv, nJ */
u64 il_bound_energy_nj(const struct il_driver *drv, int idx, u64 ns);
/** il_bound_add - add one idle period of @ns to every point of the frontier */
void il_bound_add(struct il_bound *b, u64 ns);
/** il_bound_gov_add - add one period of @ns a governor spent in state @idx */
void il_bound_gov_add(struct il_bound_gov *g, const struct il_driver *drv, int idx, u64 ns);

/**
 * il_bound_merge - add the frontier of other periods @b (same prices) into @into: the
 * per-period choices are independent, so the sums at one price are the minimum of all the
 * periods at it (per-CPU tables: each table's CPUs have a bound of their own)
 */
void il_bound_merge(struct il_bound *into, const struct il_bound *b);
/**
 * il_bound_at_latency - the least energy any choice can have at total added latency
 * @latency_ns, as far as the frontier's points show it: the highest of their supporting
 * lines (step 3; the energy-optimal point's energy for more latency than it adds)
 * Return: 0, or -1 when @latency_ns is below the least-latency point (no choice reaches it).
 */
int il_bound_at_latency(const struct il_bound *b, u64 latency_ns, double *energy_nj);
/**
 * il_bound_gap - @g's energy over the frontier at @g's latency, minus 1 (0.041: +4.1 %)
 * Return: 0, or -1 if there is no frontier point at that latency or no energy.
 */
int il_bound_gap(const struct il_bound *b, const struct il_bound_gov *g, double *gap);

struct il_table;

/**
 * il_bound_table - the table "bound": one row per distinct frontier point, in decreasing
 * added latency (lambda, energy, total and per-period added latency)
 * Return: 0, or -1 with errno ENOMEM.
 */
int il_bound_table(struct il_table *t, const struct il_bound *b);
/**
 * il_bound_gap_table_init - the table "gap to bound" (of @what, a scenario name, or NULL),
 * columns governor, iter, energy_mj, added_latency_us, bound_mj, gap_pct, energy_optimal_mj,
 * verdict; il_bound_gap_row() adds one row
 */
int il_bound_gap_table_init(struct il_table *t, const char *what);
int il_bound_gap_row(struct il_table *t, const char *gov, int iter, const struct il_bound *b,
		     const struct il_bound_gov *g);

#endif /* IDLELAB_BOUND_H */
