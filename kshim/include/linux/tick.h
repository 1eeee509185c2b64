/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tick.h (kshim) - the nohz tick queries, answered by the current device's environment.
 *
 * tick_nohz_get_sleep_length() took no argument up to 4.16 and returns *delta_next since
 * 4.17; the macro picks the form by the number of arguments the file passes.
 */
#ifndef KSHIM_LINUX_TICK_H
#define KSHIM_LINUX_TICK_H

#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/jiffies.h>

static inline ktime_t kshim_sleep_length_4_17(ktime_t *delta_next)
{
	const struct il_env *env = kshim_dev()->env;

	return env->ops->sleep_length(env, delta_next);
}

static inline ktime_t kshim_sleep_length_4_16(void)
{
	const struct il_env *env = kshim_dev()->env;

	return env->ops->sleep_length(env, NULL);
}

#define KSHIM_PICK_SLEEP_LENGTH(_0, _1, fn, ...) fn
#define tick_nohz_get_sleep_length(...)                                            \
	KSHIM_PICK_SLEEP_LENGTH(_0, ##__VA_ARGS__, kshim_sleep_length_4_17,         \
				kshim_sleep_length_4_16)(__VA_ARGS__)

static inline bool tick_nohz_tick_stopped(void)
{
	const struct il_env *env = kshim_dev()->env;

	return env->ops->tick_stopped(env);
}

static inline bool tick_nohz_idle_got_tick(void)
{
	const struct il_env *env = kshim_dev()->env;

	return env->ops->got_tick(env);
}

/* nohz is enabled in the lab (ladder raises its rating when it is not). */
extern bool tick_nohz_enabled;

#endif
