/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * module.h (kshim) - module_param()s are recorded in the "kshim_param" section; they keep the
 * file's defaults and can be set through the runtime before (or between) runs.
 */
#ifndef KSHIM_LINUX_MODULE_H
#define KSHIM_LINUX_MODULE_H

#include <linux/kernel.h>
#include <linux/init.h>

#define module_param(var, kind, perm)                                         \
	static struct kshim_param __kshim_param_##var KSHIM_USED_IN("kshim_param") \
		__attribute__((__aligned__(sizeof(void *)))) = {              \
		.name = #var, .addr = &var, .type = #kind, .size = sizeof(var) }
#define MODULE_PARM_DESC(name, desc) _Static_assert(1, #name)
#define MODULE_LICENSE(s) _Static_assert(1, s)
#define MODULE_AUTHOR(s) _Static_assert(1, s)
#define MODULE_DESCRIPTION(s) _Static_assert(1, s)
#define EXPORT_SYMBOL(sym) _Static_assert(1, #sym)
#define EXPORT_SYMBOL_GPL(sym) _Static_assert(1, #sym)

#endif
