/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * percpu.h (kshim) - per-CPU variables that live in each lab device.
 *
 * DEFINE_PER_CPU(type, name) declares a one-element array that is never used for storage:
 * its address is the key under which the runtime finds the variable's offset inside the
 * device block (dev->governor_data). this_cpu_ptr()/per_cpu_ptr()/per_cpu() return the
 * storage in the block of the current device, typed as the variable. Asking for another CPU
 * than the current device's is counted as a shim error (no upstream governor does it).
 */
#ifndef KSHIM_LINUX_PERCPU_H
#define KSHIM_LINUX_PERCPU_H

#include <linux/kshim.h>

#define DEFINE_PER_CPU(type, var)                                                    \
	__typeof__(type) var[1];                                                     \
	static struct kshim_percpu __kshim_percpu_##var KSHIM_USED_IN("kshim_percpu") \
		__attribute__((__aligned__(sizeof(void *)))) = {                     \
		.key = &var, .size = sizeof(type), .align = __alignof__(type), .name = #var }

#define DEFINE_PER_CPU_ALIGNED(type, var) DEFINE_PER_CPU(type, var)
#define DEFINE_PER_CPU_SHARED_ALIGNED(type, var) DEFINE_PER_CPU(type, var)

#define per_cpu_ptr(ptr, cpu) \
	((__typeof__(&(*(ptr))[0]))kshim_percpu_ptr((ptr), (unsigned int)(cpu)))
#define this_cpu_ptr(ptr) per_cpu_ptr(ptr, kshim_dev()->cpu)
#define raw_cpu_ptr(ptr) this_cpu_ptr(ptr)
#define per_cpu(var, cpu) (*per_cpu_ptr(&(var), cpu))
#define __this_cpu_read(var) (*this_cpu_ptr(&(var)))
#define this_cpu_read(var) (*this_cpu_ptr(&(var)))
#define __this_cpu_write(var, val) (*this_cpu_ptr(&(var)) = (val))
#define this_cpu_write(var, val) (*this_cpu_ptr(&(var)) = (val))

#endif
