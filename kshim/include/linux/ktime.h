/* SPDX-License-Identifier: GPL-2.0-only */
/* ktime.h (kshim) - ktime_t is s64 ns (lib/cpuidle.h); 64-bit conversions. */
#ifndef KSHIM_LINUX_KTIME_H
#define KSHIM_LINUX_KTIME_H

#include <linux/kernel.h>

/* ktime_divns() on 64-bit: a signed division truncating toward zero. */
static inline s64 ktime_divns(const ktime_t kt, s64 div)
{
	WARN_ON(div < 0);
	return kt / div;
}

static inline s64 ktime_to_us(const ktime_t kt)
{
	return ktime_divns(kt, NSEC_PER_USEC);
}

static inline s64 ktime_to_ns(const ktime_t kt)
{
	return kt;
}

static inline ktime_t ns_to_ktime(u64 ns)
{
	return (ktime_t)ns;
}

#define ktime_sub(a, b) ((a) - (b))
#define ktime_add(a, b) ((a) + (b))
#define ktime_add_ns(kt, ns) ((kt) + (ns))
#define ktime_compare(a, b) ((a) < (b) ? -1 : (a) > (b) ? 1 : 0)
#define ktime_before(a, b) ((a) < (b))
#define ktime_after(a, b) ((a) > (b))

#endif
