// SPDX-License-Identifier: GPL-2.0-only
/*
 * grow.c - growing an array indexed by CPU number (grow.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

int il_grow_zeroed(void **arr, unsigned int *cap, unsigned int index, size_t size,
		   unsigned int first)
{
	unsigned int n = *cap ? *cap : first;
	char *p;

	if (index < *cap)
		return 0;
	while (n <= index) {
		if (n > UINT_MAX / 2) {
			errno = ENOMEM; /* a CPU number no array of ours can hold */
			return -1;
		}
		n *= 2;
	}
	p = realloc(*arr, (size_t)n * size);
	if (!p) {
		errno = ENOMEM;
		return -1;
	}
	memset(p + (size_t)*cap * size, 0, (size_t)(n - *cap) * size);
	*arr = p;
	*cap = n;
	return 0;
}
