// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpuidle.c - the governor-independent half of the cpuidle core: driver init, the
 * framework rule sets, the polling window, and the accounting of cpuidle_enter_state().
 *
 * Follows drivers/cpuidle/{driver.c,cpuidle.c,poll_state.c} of the kernel versions named
 * in the rule sets below (see docs/kernel-governors.md §1 in the shared docs).
 */
#include <errno.h>
#include <limits.h>

#include "core.h"

const struct il_core_rules il_core_4_16 = { "4.16", IL_LOOP_4_16, IL_POLL_4_16, IL_QOS_4_X,
					    IL_ACCT_4_X };
const struct il_core_rules il_core_4_17 = { "4.17", IL_LOOP_4_17, IL_POLL_4_17, IL_QOS_4_X,
					    IL_ACCT_4_X };
const struct il_core_rules il_core_6_13 = { "6.13", IL_LOOP_6_X, IL_POLL_5_X, IL_QOS_5_X,
					    IL_ACCT_5_X };
const struct il_core_rules il_core_6_19 = { "6.19", IL_LOOP_6_X, IL_POLL_5_X, IL_QOS_6_19,
					    IL_ACCT_5_X };
const struct il_core_rules il_core_6_19_9 = { "6.19.9", IL_LOOP_6_19_9, IL_POLL_5_X, IL_QOS_6_19,
					      IL_ACCT_5_X };
const struct il_core_rules il_core_7_0 = { "7.0", IL_LOOP_7_0, IL_POLL_5_X, IL_QOS_6_19,
					   IL_ACCT_5_X };
/* Debian's stable trees carry the 7.0 idle loop but the 6.13 QoS body (kernel-governors.md §0). */
const struct il_core_rules il_core_debian_6_1 = { "debian-6.1", IL_LOOP_7_0, IL_POLL_5_X,
						  IL_QOS_5_X, IL_ACCT_5_X };
const struct il_core_rules il_core_debian_6_12 = { "debian-6.12", IL_LOOP_7_0, IL_POLL_5_X,
						   IL_QOS_5_X, IL_ACCT_5_X };
/* 6.18.26+ LTS: idle.c bf92ae29361e has the 7.0 loop; governor.c 0d0f9751ff8f the 6.13 QoS body. */
const struct il_core_rules il_core_6_18_35 = { "6.18.35", IL_LOOP_7_0, IL_POLL_5_X, IL_QOS_5_X,
					       IL_ACCT_5_X };

void il_driver_init(struct il_driver *drv)
{
	for (int i = 0; i < drv->state_count; i++) {
		struct il_state *s = &drv->states[i];

		if (s->target_residency > 0)
			s->target_residency_ns = (s64)s->target_residency * NSEC_PER_USEC;
		else if (s->target_residency_ns < 0)
			s->target_residency_ns = 0;
		else
			s->target_residency =
				(unsigned int)(s->target_residency_ns / NSEC_PER_USEC);

		if (s->exit_latency > 0)
			s->exit_latency_ns = (s64)s->exit_latency * NSEC_PER_USEC;
		else if (s->exit_latency_ns < 0)
			s->exit_latency_ns = 0;
		else
			s->exit_latency = (unsigned int)(s->exit_latency_ns / NSEC_PER_USEC);
	}
}

int il_env_set_hz(struct il_env *env, unsigned int hz)
{
	if (hz == 0) {
		errno = EINVAL;
		return -1;
	}
	env->hz = hz;
	env->tick_nsec = (NSEC_PER_SEC + hz / 2) / hz;
	env->tick_usec = (USEC_PER_SEC + hz / 2) / hz;
	return 0;
}

/* CPUIDLE_POLL_MIN: states with a shorter target residency do not bound the poll window. */
#define CPUIDLE_POLL_MIN 10000

static u64 poll_time_5_x(const struct il_driver *drv, struct il_device *dev)
{
	u64 limit_ns = dev->env->tick_nsec / 16;

	if (dev->poll_limit_ns)
		return dev->poll_limit_ns;

	for (int i = 1; i < drv->state_count; i++) {
		u64 state_limit;

		if (dev->states_usage[i].disable)
			continue;
		state_limit = (u64)drv->states[i].target_residency_ns;
		if (state_limit < CPUIDLE_POLL_MIN)
			continue;
		limit_ns = state_limit < limit_ns ? state_limit : limit_ns;
		break;
	}
	/* The kernel caches the result where haltpoll keeps its window. */
	dev->poll_limit_ns = limit_ns;
	return limit_ns;
}

u64 il_cpuidle_poll_time(const struct il_driver *drv, struct il_device *dev)
{
	switch (dev->preset->core->poll) {
	case IL_POLL_4_16:
		return U64_MAX_NS;
	case IL_POLL_4_17:
		return dev->env->tick_nsec / 16;
	case IL_POLL_5_X:
	default:
		return poll_time_5_x(drv, dev);
	}
}

static bool shallower_state_enabled(const struct il_device *dev, int entered)
{
	for (int i = entered - 1; i >= 0; i--)
		if (!dev->states_usage[i].disable)
			return true;
	return false;
}

/* The next enabled deeper state would have fitted the idle time net of the exit latency. */
static bool deeper_state_fitted(const struct il_driver *drv, const struct il_device *dev,
				int entered, s64 diff)
{
	s64 delay = drv->states[entered].exit_latency_ns;

	if (diff <= delay)
		return false;
	for (int i = entered + 1; i < drv->state_count; i++) {
		if (dev->states_usage[i].disable)
			continue;
		return diff - delay >= drv->states[i].target_residency_ns;
	}
	return false;
}

enum il_miss il_cpuidle_account(const struct il_driver *drv, struct il_device *dev, int index,
				s64 diff_ns)
{
	struct il_state_usage *u;
	s64 us;

	if (diff_ns < 0) {
		dev->last_residency_ns = 0;
		dev->last_residency = 0;
		dev->states_usage[index].rejected++;
		return IL_MISS_REJECTED;
	}

	u = &dev->states_usage[index];
	dev->last_residency_ns = (u64)diff_ns;
	us = diff_ns / NSEC_PER_USEC;
	dev->last_residency = us > INT_MAX ? INT_MAX : (int)us;
	u->time_ns += (u64)diff_ns;
	u->usage++;

	/*
	 * above/below follow the 5.x+ rules for every preset: they are a measurement of the
	 * decision, not an input of any governor (4.x kernels simply did not count them).
	 */
	if (diff_ns < drv->states[index].target_residency_ns) {
		if (shallower_state_enabled(dev, index)) {
			u->above++;
			return IL_MISS_ABOVE;
		}
	} else if (deeper_state_fitted(drv, dev, index, diff_ns)) {
		u->below++;
		return IL_MISS_BELOW;
	}
	return IL_MISS_NONE;
}

void il_cpuidle_reflect(struct il_device *dev, int index)
{
	if (index >= 0 && dev->preset->gov->reflect)
		dev->preset->gov->reflect(dev, index);
}
