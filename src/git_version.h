/* SPDX-License-Identifier: GPL-2.0-only */
/* git_version.h - the `git describe` of the tree idlelab was built from, for provenance. */
#ifndef IDLELAB_GIT_VERSION_H
#define IDLELAB_GIT_VERSION_H

/** cli_git_describe - `git describe --always --dirty` at build time, "unknown" outside git */
const char *cli_git_describe(void);

#endif
