/* SPDX-License-Identifier: GPL-2.0-only */
/* sched/clock.h (kshim) - local_clock() of the current device's environment, ns. */
#ifndef KSHIM_LINUX_SCHED_CLOCK_H
#define KSHIM_LINUX_SCHED_CLOCK_H

#include <linux/kernel.h>

static inline u64 local_clock(void)
{
	const struct il_env *env = kshim_dev()->env;

	return env->ops->local_clock(env);
}

#endif
