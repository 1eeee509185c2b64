/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * printk.h (kshim) - printk() and WARN() are counted, never printed: a governor that warns in
 * the lab is reported by `idlelab kgov check`, and the library itself never prints.
 */
#ifndef KSHIM_LINUX_PRINTK_H
#define KSHIM_LINUX_PRINTK_H

#include <linux/kshim.h>

#define printk(...) (kshim_count_printk(), 0)
#define pr_emerg(...) kshim_count_printk()
#define pr_alert(...) kshim_count_printk()
#define pr_crit(...) kshim_count_printk()
#define pr_err(...) kshim_count_printk()
#define pr_warn(...) kshim_count_printk()
#define pr_notice(...) kshim_count_printk()
#define pr_info(...) kshim_count_printk()
#define pr_debug(...) kshim_count_printk()
#define pr_warn_once(...) kshim_count_printk()
#define pr_info_once(...) kshim_count_printk()

#define WARN_ON(cond) ({ bool __kc = !!(cond); if (__kc) kshim_count_warn(); __kc; })
#define WARN_ON_ONCE(cond) WARN_ON(cond)
#define WARN(cond, ...) WARN_ON(cond)
#define WARN_ONCE(cond, ...) WARN_ON(cond)
#define BUG_ON(cond) WARN_ON(cond)

#endif
