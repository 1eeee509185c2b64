// SPDX-License-Identifier: GPL-2.0-only
/*
 * tsv.c - tab-separated values (the backend: delimited.c): a header line, then the rows,
 * for each table.
 * Tabs and newlines inside text cells become spaces, so every row stays one line.
 */
#include "output.h"

static void tsv_field(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\t' || *s == '\n' ? ' ' : *s, out);
}

static int tsv_write(FILE *out, const struct il_table *const *tables, int ntables)
{
	static const struct il_delimited fmt = { '\t', tsv_field };

	return il_delimited_write(out, &fmt, tables, ntables);
}

const struct il_output_format il_output_tsv = { "tsv", true, NULL, tsv_write };
