// SPDX-License-Identifier: GPL-2.0-only
/*
 * oracle.c - the "oracle" governor: a lower bound for comparisons, not a kernel governor.
 *
 * DOC: oracle
 *
 * No kernel has this governor and no kernel governor could implement it: it is told the true
 * length of the coming idle period, which a real CPU cannot know. It answers "what would a
 * perfect predictor have picked from this state table under this latency limit", the bound
 * the other governors' above/below misses and energy are measured against:
 *
 *  1. Ask the environment for the true idle duration (env->ops->oracle_idle_ns; only this
 *     file may call it) and read the latency limit with cpuidle_governor_latency_req().
 *  2. Pick the deepest enabled state whose target residency fits the duration
 *     (target_residency_ns <= duration) and whose exit latency meets the limit.
 *  3. If no state qualifies, fall back to state 0, or to the first enabled state when state 0
 *     is disabled.
 *  4. Keep the tick (*stop_tick = false) unless the chosen state's target residency is at
 *     least one tick (TICK_NSEC), the same bar the kernel governors use for a shallow state.
 *
 * It is a lower bound only as good as the duration it is told: with a retained tick the
 * environment decides whether the tick ends the period early. It keeps no history; vars()
 * shows the inputs of the last select as diagnostics. It runs under the 7.0 framework rules.
 */
#include "governors.h"
#include "kcompat.h"

struct oracle_device {
	s64 idle_ns;     /* the true duration told at the last select */
	s64 latency_req; /* the latency limit at the last select, ns */
};

/* The one call no kernel governor has: the true length of the coming idle period. */
static s64 oracle_idle_ns(const struct il_device *dev)
{
	return dev->env->ops->oracle_idle_ns(dev->env);
}

static bool oracle_state_fits(const struct il_state *s, s64 idle_ns, s64 latency_req)
{
	return s->target_residency_ns <= idle_ns && s->exit_latency_ns <= latency_req;
}

/**
 * oracle_select - the deepest enabled state that the true idle duration justifies
 * @drv: the driver
 * @dev: the CPU
 * @stop_tick: cleared unless the chosen state's target residency reaches a tick
 */
static int oracle_select(struct il_driver *drv, struct il_device *dev, bool *stop_tick)
{
	struct oracle_device *od = dev->governor_data;
	s64 idle_ns = oracle_idle_ns(dev);
	s64 latency_req = cpuidle_governor_latency_req(dev);
	int fallback = -1, idx = -1;

	for (int i = 0; i < drv->state_count; i++) {
		if (!il_state_enabled(drv, dev, i))
			continue;
		if (fallback < 0)
			fallback = i;
		if (oracle_state_fits(&drv->states[i], idle_ns, latency_req))
			idx = i;
	}
	if (idx < 0)
		idx = fallback < 0 ? 0 : fallback;

	if ((u64)drv->states[idx].target_residency_ns < tick_nsec(dev))
		*stop_tick = false;

	od->idle_ns = idle_ns;
	od->latency_req = latency_req;
	return idx;
}

static int oracle_vars(const struct il_device *dev, struct il_var *vars, int max)
{
	const struct oracle_device *od = dev->governor_data;
	int n = 0;

	if (n < max)
		vars[n++] = (struct il_var){ .name = "oracle_idle_ns", .value = (u64)od->idle_ns,
					     .is_signed = true, .diag = true };
	if (n < max)
		vars[n++] = (struct il_var){ .name = "latency_req", .value = (u64)od->latency_req,
					     .is_signed = true, .diag = true };
	return n;
}

static const struct il_governor oracle_governor = {
	.name = "oracle",
	.rating = 0, /* never chosen by rating: the lab selects it by name */
	.data_size = sizeof(struct oracle_device),
	.select = oracle_select,
	.vars = oracle_vars,
};

const struct il_preset il_presets_oracle[] = {
	{
		.name = "oracle",
		.gov = &oracle_governor,
		.kver = 0, /* no kernel file */
		.core = &il_core_7_0,
		.kernel = "none",
		.upstream = "none (lab-only lower bound, not a kernel governor)",
		.changes = "knows the true idle duration; deepest fitting state within the QoS limit",
		.cfg = NULL,
	},
	{ 0 }
};
