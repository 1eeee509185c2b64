/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pm_qos.h (kshim) - the 4.x PM QoS calls of menu and ladder (µs, int), answered by the
 * current device's environment.
 */
#ifndef KSHIM_LINUX_PM_QOS_H
#define KSHIM_LINUX_PM_QOS_H

#include <linux/kernel.h>
#include <linux/cpu.h>

enum {
	PM_QOS_RESERVED = 0,
	PM_QOS_CPU_DMA_LATENCY,
	PM_QOS_NETWORK_LATENCY,
	PM_QOS_NETWORK_THROUGHPUT,
	PM_QOS_MEMORY_BANDWIDTH,
	PM_QOS_NUM_CLASSES,
};

#define PM_QOS_DEFAULT_VALUE (-1)
#define PM_QOS_CPU_DMA_LAT_DEFAULT_VALUE (2000 * USEC_PER_SEC)

static inline int pm_qos_request(int pm_qos_class)
{
	const struct il_env *env = kshim_dev()->env;
	struct il_qos q;

	if (pm_qos_class != PM_QOS_CPU_DMA_LATENCY)
		kshim_count_warn();
	env->ops->qos(env, &q);
	return q.cpu_latency_us;
}

static inline s32 dev_pm_qos_raw_read_value(struct device *device)
{
	const struct il_env *env = kshim_dev()->env;
	struct il_qos q;

	(void)device;
	env->ops->qos(env, &q);
	return q.resume_latency_us;
}

#endif
