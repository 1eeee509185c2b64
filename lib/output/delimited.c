// SPDX-License-Identifier: GPL-2.0-only
/*
 * delimited.c - the one backend of the delimited formats (csv.c, tsv.c): per table a
 * header line, then the rows, fields separated by the format's separator and written by
 * its field writer (CSV quotes, TSV flattens); tables after the first follow after a blank
 * line; lines end in \n.
 */
#include "output.h"

static void delimited_line(FILE *out, const struct il_delimited *fmt, const char *const *text,
			   const struct il_cell *cells, int n)
{
	char buf[64];

	for (int c = 0; c < n; c++) {
		if (c)
			fputc(fmt->sep, out);
		fmt->field(out, text ? text[c] : il_cell_text(&cells[c], buf, sizeof(buf)));
	}
	fputc('\n', out);
}

int il_delimited_write(FILE *out, const struct il_delimited *fmt,
		       const struct il_table *const *tables, int ntables)
{
	for (int i = 0; i < ntables; i++) {
		const struct il_table *t = tables[i];

		if (i)
			fputc('\n', out);
		delimited_line(out, fmt, (const char *const *)t->cols, NULL, t->ncols);
		for (int r = 0; r < t->nrows; r++)
			delimited_line(out, fmt, NULL, &t->cells[(size_t)r * (size_t)t->ncols],
				       t->ncols);
	}
	return ferror(out) ? -1 : 0;
}
