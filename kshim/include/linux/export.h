/* SPDX-License-Identifier: GPL-2.0-only */
/* export.h (kshim) - nothing a governor uses beyond what linux/kernel.h provides. */
#ifndef KSHIM_LINUX_EXPORT_H
#define KSHIM_LINUX_EXPORT_H

#include <linux/kernel.h>

#endif
