/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jiffies.h (kshim) - TICK_NSEC and TICK_USEC of the current device's environment.
 *
 * In the kernel both are constant expressions of type long ((NSEC_PER_SEC + HZ/2) / HZ); the
 * shim keeps the type, because it decides signed or unsigned comparisons in the governors.
 */
#ifndef KSHIM_LINUX_JIFFIES_H
#define KSHIM_LINUX_JIFFIES_H

#include <linux/kernel.h>

static inline long kshim_tick_nsec(void)
{
	return (long)kshim_dev()->env->tick_nsec;
}

static inline long kshim_tick_usec(void)
{
	return (long)kshim_dev()->env->tick_usec;
}

static inline long kshim_hz(void)
{
	return (long)kshim_dev()->env->hz;
}

#define HZ kshim_hz()
#define TICK_NSEC kshim_tick_nsec()
#define TICK_USEC kshim_tick_usec()

#endif
