// SPDX-License-Identifier: GPL-2.0-only
/*
 * kgovtest.c - the build-and-load step of the kgov unit tests (kgovtest.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>

#include "kgovtest.h"

const struct il_preset *kt_build_and_load(const char *src, const char *obj,
					  const struct il_preset *like, struct kgov_scan *scan)
{
	struct il_kgov_build_result br;
	struct il_kgov_load_opts lo = { .like = like };
	struct il_error err = { 0 };
	const struct il_preset *p;
	int ret = il_kgov_build(src, obj, NULL, &br, &err);

	if (ret)
		print_error("%s\n%s\n%s\n", br.command, br.log ? br.log : "", err.msg);
	free(br.log);
	assert_int_equal(ret, 0);
	if (scan)
		*scan = br.scan;
	p = il_kgov_load(obj, &lo, &err);
	if (!p)
		print_error("%s\n", err.msg);
	assert_non_null(p);
	return p;
}
