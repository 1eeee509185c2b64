// SPDX-License-Identifier: GPL-2.0-only
/*
 * table.c - aligned text: "# title", a header line and the rows, columns padded to width.
 */
#include <stdlib.h>
#include <string.h>

#include "output.h"

#define CELL_BUF 64

static void column_widths(const struct il_table *t, size_t *w)
{
	char buf[CELL_BUF];

	for (int c = 0; c < t->ncols; c++)
		w[c] = strlen(t->cols[c]);
	for (int r = 0; r < t->nrows; r++) {
		for (int c = 0; c < t->ncols; c++) {
			size_t len = strlen(il_cell_text(&t->cells[(size_t)r * (size_t)t->ncols + (size_t)c], buf, sizeof(buf)));

			if (len > w[c])
				w[c] = len;
		}
	}
}

/* A column with any text in it is left-aligned; numbers-only columns are right-aligned. */
static bool column_has_text(const struct il_table *t, int c)
{
	for (int r = 0; r < t->nrows; r++)
		if (t->cells[(size_t)r * (size_t)t->ncols + (size_t)c].kind == IL_CELL_STR)
			return true;
	return false;
}

static void write_one(FILE *out, const struct il_table *t, const size_t *w, bool *left)
{
	char buf[CELL_BUF];

	for (int c = 0; c < t->ncols; c++)
		left[c] = column_has_text(t, c);
	if (t->title && *t->title)
		fprintf(out, "# %s\n", t->title);
	for (int c = 0; c < t->ncols; c++)
		fprintf(out, "%s%-*s", c ? "  " : "", c + 1 < t->ncols ? (int)w[c] : 0, t->cols[c]);
	fputc('\n', out);
	for (int r = 0; r < t->nrows; r++) {
		for (int c = 0; c < t->ncols; c++) {
			const char *s = il_cell_text(&t->cells[(size_t)r * (size_t)t->ncols + (size_t)c], buf, sizeof(buf));
			/* No padding after the last column when it is left-aligned. */
			int width = left[c] ? (c + 1 < t->ncols ? -(int)w[c] : 0) : (int)w[c];

			fprintf(out, "%s%*s", c ? "  " : "", width, s);
		}
		fputc('\n', out);
	}
}

static int table_write(FILE *out, const struct il_table *const *tables, int ntables)
{
	for (int i = 0; i < ntables; i++) {
		size_t *w = calloc((size_t)tables[i]->ncols + 1, sizeof(*w));
		bool *left = calloc((size_t)tables[i]->ncols + 1, sizeof(*left));

		if (!w || !left) {
			free(w);
			free(left);
			return -1;
		}
		column_widths(tables[i], w);
		if (i)
			fputc('\n', out);
		write_one(out, tables[i], w, left);
		free(w);
		free(left);
	}
	return ferror(out) ? -1 : 0;
}

const struct il_output_format il_output_table = { "table", true, NULL, table_write };
