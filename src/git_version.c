// SPDX-License-Identifier: GPL-2.0-only
/*
 * git_version.c - the build's `git describe` (the Makefile passes it, and rebuilds this
 * file only when it changes), so a review or a verdict names exactly which idlelab produced it.
 */
#include "git_version.h"

#ifndef IL_GIT_DESCRIBE
#define IL_GIT_DESCRIBE "unknown"
#endif

const char *cli_git_describe(void)
{
	return IL_GIT_DESCRIBE;
}
