/* SPDX-License-Identifier: GPL-2.0-only */
/* compiler.h (kshim) - nothing a governor uses beyond what linux/kernel.h provides. */
#ifndef KSHIM_LINUX_COMPILER_H
#define KSHIM_LINUX_COMPILER_H

#include <linux/kernel.h>

#endif
