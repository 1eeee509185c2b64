/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sched/stat.h (kshim) - the runqueue numbers menu read before 6.12: the number of tasks in
 * iowait (4.x get_iowait_load(), 5.x/6.1 nr_iowait_cpu()) and the 4.x runqueue load weight.
 */
#ifndef KSHIM_LINUX_SCHED_STAT_H
#define KSHIM_LINUX_SCHED_STAT_H

#include <linux/kernel.h>

static inline unsigned int nr_iowait_cpu(int cpu)
{
	const struct il_env *env = kshim_dev()->env;

	(void)cpu;
	return (unsigned int)env->ops->nr_iowait(env);
}

static inline void get_iowait_load(unsigned long *nr_waiters, unsigned long *load)
{
	const struct il_env *env = kshim_dev()->env;

	*nr_waiters = env->ops->nr_iowait(env);
	*load = env->ops->load_weight(env);
}

#endif
