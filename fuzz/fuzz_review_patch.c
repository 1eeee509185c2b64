// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the patch reader of `idlelab review` (lib/review/patch.c) and the top
 * Makefile's version (lib/kgov/frame.c) on arbitrary bytes. An accepted patch must have
 * files whose sections lie in order inside the text, a kind each, a reason for every
 * refused file; every error must name the input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kgov/kgov.h"
#include "review/review.h"

static void check_patch(const struct il_review_patch *p, size_t len)
{
	size_t prev_end = 0;

	if (p->nfiles < 1 || p->nfiles > IL_REVIEW_MAX_FILES || !p->message)
		abort();
	for (int i = 0; i < p->nfiles; i++) {
		const struct il_review_file *f = &p->files[i];

		if (f->start > f->end || f->end > len || f->start < prev_end)
			abort();
		if (f->kind == IL_REVIEW_REFUSED && !f->why[0])
			abort();
		if (f->kind != IL_REVIEW_GOVERNOR && f->kind != IL_REVIEW_SUPPORT &&
		    f->kind != IL_REVIEW_REFUSED)
			abort();
		prev_end = f->end;
	}
	if (p->strip != 0 && p->strip != 1)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct il_review_patch p;
	struct il_error err = { 0 };
	char *text = malloc(size + 1), version[32];
	int kver;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (!il_review_patch_parse(text, size, "fuzz.patch", &p, &err)) {
		check_patch(&p, size);
		il_review_patch_free(&p);
	} else if (strncmp(err.msg, "fuzz.patch", 10)) {
		abort();
	}
	if (!il_kgov_parse_makefile_version(text, &kver, version, sizeof(version)) &&
	    (kver < 0 || !version[0]))
		abort();
	free(text);
	return 0;
}
