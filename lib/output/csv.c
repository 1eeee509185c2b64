// SPDX-License-Identifier: GPL-2.0-only
/*
 * csv.c - comma-separated values: a header line, then the rows, for each table. A
 * field with a comma, quote or line break is quoted with its quotes doubled (RFC 4180);
 * lines end in \n.
 */
#include <string.h>

#include "output.h"

void il_csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void csv_table(FILE *out, const struct il_table *t)
{
	char buf[64];

	for (int c = 0; c < t->ncols; c++) {
		if (c)
			fputc(',', out);
		il_csv_field(out, t->cols[c]);
	}
	fputc('\n', out);
	for (int r = 0; r < t->nrows; r++) {
		for (int c = 0; c < t->ncols; c++) {
			if (c)
				fputc(',', out);
			il_csv_field(
				out,
				il_cell_text(&t->cells[(size_t)r * (size_t)t->ncols + (size_t)c],
					     buf, sizeof(buf)));
		}
		fputc('\n', out);
	}
}

/* Tables after the first (only when they have other columns) follow after a blank line. */
static int csv_write(FILE *out, const struct il_table *const *tables, int ntables)
{
	for (int i = 0; i < ntables; i++) {
		if (i)
			fputc('\n', out);
		csv_table(out, tables[i]);
	}
	return ferror(out) ? -1 : 0;
}

const struct il_output_format il_output_csv = { "csv", true, NULL, csv_write };
