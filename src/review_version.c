// SPDX-License-Identifier: GPL-2.0-only
/*
 * review_version.c - the build's `git describe` (the Makefile passes it, and rebuilds this
 * file only when it changes), so a review names exactly which idlelab produced it.
 */
#include "review_version.h"

#ifndef IL_GIT_DESCRIBE
#define IL_GIT_DESCRIBE "unknown"
#endif

const char *review_git_describe(void)
{
	return IL_GIT_DESCRIBE;
}
