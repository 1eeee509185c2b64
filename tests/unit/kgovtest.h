/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kgovtest.h - what the kgov unit tests share: build an upstream-shaped governor file and load
 * it, failing the test with the compiler's command and log when either step fails.
 */
#ifndef IDLELAB_KGOVTEST_H
#define IDLELAB_KGOVTEST_H

#include "governor.h"
#include "kgov/kgov.h"

/**
 * kt_build_and_load - compile @src into @obj and load it under @like's framework rules
 * @scan: if not NULL, what the build found in the source
 */
const struct il_preset *kt_build_and_load(const char *src, const char *obj,
					  const struct il_preset *like, struct kgov_scan *scan);

#endif /* IDLELAB_KGOVTEST_H */
