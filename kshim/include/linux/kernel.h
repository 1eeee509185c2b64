/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel.h (kshim) - the arithmetic helpers governors use: min/max, 64-bit division, WARN,
 * printk. Semantics follow the kernel's 64-bit definitions (asm-generic/div64.h, minmax.h).
 */
#ifndef KSHIM_LINUX_KERNEL_H
#define KSHIM_LINUX_KERNEL_H

#include <linux/kshim.h>
#include <linux/types.h>
#include <linux/limits.h>
#include <linux/init.h>
#include <linux/percpu.h>
#include <linux/math64.h>
#include <linux/printk.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BIT(n) (1UL << (n))
#define BIT_ULL(n) (1ULL << (n))

#define container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/*
 * min()/max() evaluate each argument once and compare after the usual arithmetic
 * conversions, which is what the kernel's type-checked versions do for the argument types
 * they accept.
 */
#define min(x, y) ({ __typeof__(x) _kx = (x); __typeof__(y) _ky = (y); _kx < _ky ? _kx : _ky; })
#define max(x, y) ({ __typeof__(x) _kx = (x); __typeof__(y) _ky = (y); _kx > _ky ? _kx : _ky; })
#define min_t(type, x, y) ({ type _kx = (x); type _ky = (y); _kx < _ky ? _kx : _ky; })
#define max_t(type, x, y) ({ type _kx = (x); type _ky = (y); _kx > _ky ? _kx : _ky; })
#define clamp(v, lo, hi) min(max(v, lo), hi)
#define clamp_t(type, v, lo, hi) min_t(type, max_t(type, v, lo), hi)

#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))

/* The kernel's memset/memcpy; no libc header may enter a kernel translation unit. */
#define memset(s, c, n) __builtin_memset((s), (c), (n))
#define memcpy(d, s, n) __builtin_memcpy((d), (s), (n))

static inline int kshim_smp_processor_id(void)
{
	return (int)kshim_dev()->cpu;
}
#define smp_processor_id() kshim_smp_processor_id()
#define raw_smp_processor_id() kshim_smp_processor_id()

#endif
