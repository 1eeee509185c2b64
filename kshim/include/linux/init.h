/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * init.h (kshim) - initcalls are recorded in the "kshim_initcall" section; the runtime runs
 * them once when the shared object is initialised (that is how the governor registers).
 */
#ifndef KSHIM_LINUX_INIT_H
#define KSHIM_LINUX_INIT_H

#include <linux/kshim.h>

#define kshim_initcall(fn)                                                         \
	static kshim_initcall_t __kshim_initcall_##fn KSHIM_USED_IN("kshim_initcall") \
		__attribute__((__aligned__(sizeof(void *)))) = fn

#define early_initcall(fn) kshim_initcall(fn)
#define pure_initcall(fn) kshim_initcall(fn)
#define core_initcall(fn) kshim_initcall(fn)
#define postcore_initcall(fn) kshim_initcall(fn)
#define arch_initcall(fn) kshim_initcall(fn)
#define subsys_initcall(fn) kshim_initcall(fn)
#define fs_initcall(fn) kshim_initcall(fn)
#define device_initcall(fn) kshim_initcall(fn)
#define late_initcall(fn) kshim_initcall(fn)
#define module_init(fn) kshim_initcall(fn)
/* Nothing unloads a governor in the lab; keep the declaration form. */
#define module_exit(fn) _Static_assert(1, #fn)

#endif
