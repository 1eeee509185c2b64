// SPDX-License-Identifier: GPL-2.0-only
/*
 * oracle.c - future-knowing heuristics for comparisons ("oracle-heuristic", alias "oracle",
 * and "oracle-heuristic-lat"); not kernel governors, and not bounds.
 *
 * DOC: oracle heuristics
 *
 * No kernel has these governors and no kernel governor could implement them: they are told
 * the true length of the coming idle period, which a real CPU cannot know. They answer "what
 * would a perfect predictor of the idle duration have picked from this state table under
 * this latency limit". That is a heuristic, not a bound: in closed loop a choice changes
 * what happens next (a deep state's exit latency slows the work it wakes, which then idles
 * longer or more often: on rk3588 video, seeds 1-2, oracle-heuristic spends 7.44-7.50 J where
 * teo-7.1 spends 6.21-6.27 J), so neither energy nor misses of other governors are bounded
 * by it. The open-loop
 * bound is lib/replay/bound.h (`--bound` of run and compare, the bound rows of replay).
 *
 * oracle-heuristic (the former "oracle"):
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
 * oracle-heuristic-lat, latency-aware: the same, but step 2 also requires that the exit
 * latency is one the work waiting on this wakeup can afford: at most latency_pct percent
 * (tunable, default 10; a value above 100 is read as 100) of the coming idle period. The
 * wakeup releases the work after the exit latency, so a request loop that idles d between
 * requests is slowed by at most latency_pct % per request, where the plain heuristic can
 * pay a millisecond-long C-state exit for a 3 ms gap.
 *
 * The duration they are told is only as good as the environment's: with a retained tick the
 * environment decides whether the tick ends the period early. They keep no history; vars()
 * shows the inputs of the last select as diagnostics. They run under the 7.0 framework rules.
 */
#include "governors.h"
#include "kcompat.h"

struct oracle_device {
	s64 idle_ns;     /* the true duration told at the last select */
	s64 latency_req; /* the latency limit at the last select, ns */
	unsigned int latency_pct; /* oracle-heuristic-lat: affordable share of the idle period */
};

/* Which rule a preset follows (il_preset.cfg). */
struct oracle_cfg {
	bool latency_aware;
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

/* oracle-heuristic-lat: the exit latency the waiting work affords, latency_pct % of idle_ns. */
static s64 oracle_affordable_ns(const struct oracle_device *od, s64 idle_ns)
{
	unsigned int pct = od->latency_pct > 100 ? 100 : od->latency_pct;

	if (idle_ns <= 0)
		return 0;
	return idle_ns / 100 * pct + idle_ns % 100 * pct / 100;
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
	const struct oracle_cfg *cfg = dev->preset->cfg;
	s64 limit = latency_req;
	int fallback = -1, idx = -1;

	if (cfg && cfg->latency_aware) {
		s64 afford = oracle_affordable_ns(od, idle_ns);

		if (afford < limit)
			limit = afford;
	}
	for (int i = 0; i < drv->state_count; i++) {
		if (!il_state_enabled(drv, dev, i))
			continue;
		if (fallback < 0)
			fallback = i;
		if (oracle_state_fits(&drv->states[i], idle_ns, limit))
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

/* Any unsigned int is accepted, as a uint module parameter is; select() reads it clamped to
 * 100, as a kernel governor clamps a module parameter where it reads it. */
static const struct il_param oracle_lat_params[] = {
	{ "latency_pct", IL_PARAM_UINT, 10, offsetof(struct oracle_device, latency_pct),
	  "exit latency the waiting work affords, % of the idle period (read clamped to 100)" },
	{ 0 }
};

static const struct il_governor oracle_lat_governor = {
	.name = "oracle",
	.rating = 0,
	.data_size = sizeof(struct oracle_device),
	.select = oracle_select,
	.vars = oracle_vars,
	.params = oracle_lat_params,
};

static const struct oracle_cfg oracle_cfg_fit = { .latency_aware = false };
static const struct oracle_cfg oracle_cfg_lat = { .latency_aware = true };

const struct il_preset il_presets_oracle[] = {
	{
		.name = "oracle-heuristic",
		.gov = &oracle_governor,
		.kver = 0, /* no kernel file */
		.core = &il_core_7_0,
		.kernel = "none",
		.upstream = "none (lab-only future-knowing heuristic: not a kernel governor, not a "
			    "bound)",
		.changes = "knows the true idle duration; deepest fitting state within the QoS "
			   "limit",
		.cfg = &oracle_cfg_fit,
	},
	{
		.name = "oracle-heuristic-lat",
		.gov = &oracle_lat_governor,
		.kver = 0,
		.core = &il_core_7_0,
		.kernel = "none",
		.upstream = "none (lab-only future-knowing heuristic: not a kernel governor, not a "
			    "bound)",
		.changes = "oracle-heuristic, and an exit latency <= latency_pct % of the idle "
			   "period",
		.cfg = &oracle_cfg_lat,
	},
	{ 0 }
};
