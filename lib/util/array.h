/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * array.h - the element count of an array whose size the compiler knows (a table, a
 * list of names), as the kernel's ARRAY_SIZE().
 */
#ifndef IDLELAB_UTIL_ARRAY_H
#define IDLELAB_UTIL_ARRAY_H

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#endif /* IDLELAB_UTIL_ARRAY_H */
