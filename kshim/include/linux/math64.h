/* SPDX-License-Identifier: GPL-2.0-only */
/* math64.h (kshim) - the 64-bit (BITS_PER_LONG == 64) division helpers. */
#ifndef KSHIM_LINUX_MATH64_H
#define KSHIM_LINUX_MATH64_H

#include <linux/kshim.h>

/* do_div(): divide the u64 lvalue @n in place by the 32-bit @base, return the remainder. */
#define do_div(n, base) ({                                      \
	uint32_t __kbase = (base);                              \
	uint32_t __krem = (uint32_t)(((uint64_t)(n)) % __kbase); \
	(n) = ((uint64_t)(n)) / __kbase;                        \
	__krem;                                                 \
})

static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	*remainder = (u32)(dividend % divisor);
	return dividend / divisor;
}

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline s64 div_s64(s64 dividend, s32 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

static inline s64 div64_s64(s64 dividend, s64 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_ul(u64 dividend, unsigned long divisor)
{
	return dividend / divisor;
}

#define DIV_ROUND_CLOSEST_ULL(x, divisor) ({                     \
	__typeof__(divisor) __kd = (divisor);                   \
	unsigned long long __ktmp = (x) + (__kd) / 2;           \
	do_div(__ktmp, __kd);                                   \
	__ktmp;                                                 \
})

#define DIV64_U64_ROUND_UP(ll, d) ({ u64 __kd = (d); div64_u64((ll) + __kd - 1, __kd); })

#endif
