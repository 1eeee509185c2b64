/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * grow.h - growing an array indexed by CPU number, as the trace readers meet CPUs.
 */
#ifndef IDLELAB_UTIL_GROW_H
#define IDLELAB_UTIL_GROW_H

#include <stddef.h>

/**
 * il_grow_zeroed - make *@arr (of *@cap elements of @size bytes) hold index @index: its
 * capacity doubles from @first (or from *@cap) until it does, the new elements zeroed
 * Return: 0 (*@arr and *@cap updated), or -1 with errno ENOMEM (both unchanged).
 */
int il_grow_zeroed(void **arr, unsigned int *cap, unsigned int index, size_t size,
		   unsigned int first);

#endif /* IDLELAB_UTIL_GROW_H */
