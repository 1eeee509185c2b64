/* SPDX-License-Identifier: GPL-2.0-only */
/* asm/io.h (kshim) - included by ladder.c; nothing in it is used. */
#ifndef KSHIM_ASM_IO_H
#define KSHIM_ASM_IO_H

#include <linux/kernel.h>

#endif
