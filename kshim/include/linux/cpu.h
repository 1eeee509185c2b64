/* SPDX-License-Identifier: GPL-2.0-only */
/* cpu.h (kshim) - get_cpu_device() for the 4.x QoS reads: a token for the current CPU. */
#ifndef KSHIM_LINUX_CPU_H
#define KSHIM_LINUX_CPU_H

#include <linux/kernel.h>

struct device {
	unsigned int id;
};

static inline struct device *get_cpu_device(unsigned int cpu)
{
	static _Thread_local struct device kshim_cpu_device;

	kshim_cpu_device.id = cpu;
	return &kshim_cpu_device;
}

#endif
