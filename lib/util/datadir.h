/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * datadir.h - where idlelab's installed data is: the kernel-API shim (kshim/) and the
 * shipped real traces (traces/). Part of the install like the binary, never of the host.
 */
#ifndef IDLELAB_UTIL_DATADIR_H
#define IDLELAB_UTIL_DATADIR_H

#include <stdbool.h>
#include <stddef.h>

/**
 * il_datadir_find - the directory @sub of idlelab's data (a path relative to the source
 * tree, installed as <datadir>/idlelab/@sub) for which @ok holds, in this order:
 *  1. a program running from the build directory it was linked in (the CLI, the unit
 *     tests) uses the source tree's @sub, so a development build never picks up older
 *     installed data;
 *  2. an installed binary: <bindir>/../share/idlelab/@sub next to the executable (a tree
 *     installed with any PREFIX, moved, or staged under DESTDIR), then the datadir compiled
 *     in at build time (`make install datadir=...`);
 *  3. the source tree it was built from, then ./@sub.
 * Return: @out (the directory, @cap bytes at most), or NULL when none is found.
 */
const char *il_datadir_find(char *out, size_t cap, const char *sub, bool (*ok)(const char *dir));

#endif /* IDLELAB_UTIL_DATADIR_H */
