/* SPDX-License-Identifier: GPL-2.0-only */
/* review_version.h - the `git describe` of the tree idlelab was built from, for provenance. */
#ifndef IDLELAB_REVIEW_VERSION_H
#define IDLELAB_REVIEW_VERSION_H

/** review_git_describe - `git describe --always --dirty` at build time, "unknown" outside git */
const char *review_git_describe(void);

#endif
