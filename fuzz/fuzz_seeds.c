// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the scoreboard's table reader (tests/fidelity/seeds.c, what `make
 * fidelity` and `fidelity SEEDS.TSV` read) on arbitrary bytes. A table is accepted whole or
 * refused with "FILE:LINE: why"; an accepted one holds only rows the scoreboard can use: a
 * known metric, a source seeds/FILE:LINE, a run length in (0, 3600] s and, for a number whose
 * size is not compared, the reason.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/fidelity/seeds.h"
#include "fuzz_stream.h"

static void check_row(const struct fid_row *r)
{
	if (r->kind < 0 || r->kind >= FID_NMETRICS || strncmp(r->source, "seeds/", 6) ||
	    !(r->lab_s > 0 && r->lab_s <= 3600) || (!r->magnitude && !r->why[0]) || !r->line)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fid_table t;
	char err[512] = "";
	FILE *f;

	f = fuzz_stream(data, size);
	if (!f)
		return 0;
	if (fid_load_stream(f, "fuzz.tsv", &t, err, sizeof(err))) {
		if (strncmp(err, "fuzz.tsv:", 9))
			abort();
	} else {
		if (!t.n)
			abort();
		for (size_t i = 0; i < t.n; i++)
			check_row(&t.rows[i]);
		fid_free(&t);
	}
	fclose(f);
	return 0;
}
