/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fixtree.h - private copies of the sysfs/proc fixture trees of tests/fixtures/sysfs/ for the
 * unit tests of lib/live: each test copies a tree into a fresh temporary directory, changes
 * files in it, and removes it, so tests never share state or touch the real /sys.
 */
#ifndef IDLELAB_TEST_FIXTREE_H
#define IDLELAB_TEST_FIXTREE_H

#include <limits.h>

/* Run the shell command made from @fmt; the test fails unless it exits 0. */
void fixtree_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Make @root (PATH_MAX bytes) a fresh directory /tmp/idlelab-test-@tag.XXXXXX, readable by
 * everyone (a test may drop privileges), holding a copy of fixture @name (NULL: empty).
 */
void fixtree_copy(char *root, const char *tag, const char *name);
/* Remove the copy @root, if any, and mark it empty. */
void fixtree_remove(char *root);
/* Write @value + "\n" to @root/@rel, creating the directories on the way. */
void fixtree_put(const char *root, const char *rel, const char *value);

#endif
