/* SPDX-License-Identifier: GPL-2.0-only */
/* sched/loadavg.h (kshim) - the fixed-point format of load averages. */
#ifndef KSHIM_LINUX_SCHED_LOADAVG_H
#define KSHIM_LINUX_SCHED_LOADAVG_H

#include <linux/kernel.h>

#define FSHIFT 11
#define FIXED_1 (1 << FSHIFT)

#endif
