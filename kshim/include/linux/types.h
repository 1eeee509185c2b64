/* SPDX-License-Identifier: GPL-2.0-only */
/* types.h (kshim) - s64/u64/ktime_t come from lib/cpuidle.h; this adds the rest. */
#ifndef KSHIM_LINUX_TYPES_H
#define KSHIM_LINUX_TYPES_H

#include <linux/kshim.h>

struct list_head {
	struct list_head *next, *prev;
};

#endif
