// SPDX-License-Identifier: GPL-2.0-only
/*
 * tsv.c - tab-separated values: a header line, then the rows, for each table.
 * Tabs and newlines inside text cells become spaces, so every row stays one line.
 */
#include "output.h"

static void tsv_field(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\t' || *s == '\n' ? ' ' : *s, out);
}

static void tsv_table(FILE *out, const struct il_table *t)
{
	char buf[64];

	for (int c = 0; c < t->ncols; c++) {
		if (c)
			fputc('\t', out);
		tsv_field(out, t->cols[c]);
	}
	fputc('\n', out);
	for (int r = 0; r < t->nrows; r++) {
		for (int c = 0; c < t->ncols; c++) {
			if (c)
				fputc('\t', out);
			tsv_field(out,
				  il_cell_text(&t->cells[(size_t)r * (size_t)t->ncols + (size_t)c],
					       buf, sizeof(buf)));
		}
		fputc('\n', out);
	}
}

/* Tables after the first (only when they have other columns) follow after a blank line. */
static int tsv_write(FILE *out, const struct il_table *const *tables, int ntables)
{
	for (int i = 0; i < ntables; i++) {
		if (i)
			fputc('\n', out);
		tsv_table(out, tables[i]);
	}
	return ferror(out) ? -1 : 0;
}

const struct il_output_format il_output_tsv = { "tsv", true, NULL, tsv_write };
