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
		w[c] = il_text_columns(t->cols[c]);
	for (int r = 0; r < t->nrows; r++) {
		for (int c = 0; c < t->ncols; c++) {
			size_t at = (size_t)r * (size_t)t->ncols + (size_t)c;
			const struct il_cell *cell = &t->cells[at];
			size_t len = il_text_columns(il_cell_text(cell, buf, sizeof(buf)));

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

/* @s in a field of @width columns, left- or right-aligned (printf pads bytes, not columns). */
static void put_padded(FILE *out, const char *s, size_t width, bool left)
{
	size_t len = il_text_columns(s);

	if (!left)
		for (; len < width; len++)
			fputc(' ', out);
	fputs(s, out);
	if (left)
		for (; len < width; len++)
			fputc(' ', out);
}

static void write_one(FILE *out, const struct il_table *t, const size_t *w, bool *left)
{
	char buf[CELL_BUF];

	for (int c = 0; c < t->ncols; c++)
		left[c] = column_has_text(t, c);
	if (t->title && *t->title)
		fprintf(out, "# %s\n", t->title);
	for (int c = 0; c < t->ncols; c++) {
		fputs(c ? "  " : "", out);
		put_padded(out, t->cols[c], c + 1 < t->ncols ? w[c] : 0, true);
	}
	fputc('\n', out);
	for (int r = 0; r < t->nrows; r++) {
		for (int c = 0; c < t->ncols; c++) {
			const char *s =
				il_cell_text(&t->cells[(size_t)r * (size_t)t->ncols + (size_t)c],
					     buf, sizeof(buf));
			/* No padding after the last column when it is left-aligned. */
			size_t width = left[c] && c + 1 == t->ncols ? 0 : w[c];

			fputs(c ? "  " : "", out);
			put_padded(out, s, width, left[c]);
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
