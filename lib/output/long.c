// SPDX-License-Identifier: GPL-2.0-only
/*
 * long.c - several tables as one "long" table, for the formats a tool reads in one call.
 *
 * csv and tsv print each table with its own header; a reader (Python's csv module, pandas,
 * R's read.csv, awk) then has to split the file first. The long form has one header: the
 * leading columns that say where a row came from (a scenario, a platform, iter or summary
 * rows), then the union of the tables' columns in the order they first appear. A row
 * whose table lacks a column has an empty cell there ("-" in text, as everywhere).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"

static int copy_cell(struct il_table *t, int row, int col, const struct il_cell *c)
{
	switch (c->kind) {
	case IL_CELL_STR:
		return il_table_set_str(t, row, col, c->s);
	case IL_CELL_INT:
		il_table_set_int(t, row, col, c->i);
		return 0;
	case IL_CELL_REAL:
		il_table_set_real(t, row, col, c->d, c->prec);
		return 0;
	default:
		return 0;
	}
}

int il_table_copy_cell(struct il_table *t, int row, int col, const struct il_cell *c)
{
	return copy_cell(t, row, col, c);
}

/* The leading columns, then every table's columns not seen yet. */
static int long_columns(struct il_table *out, const struct il_table *const *in, int n,
			const char *const *lead, int nlead)
{
	for (int k = 0; k < nlead; k++) {
		if (il_table_col(out, lead[k]) >= 0) {
			errno = EINVAL; /* the same leading column twice */
			return -1;
		}
		if (il_table_add_col(out, lead[k]) < 0)
			return -1;
	}
	for (int i = 0; i < n; i++) {
		for (int c = 0; c < in[i]->ncols; c++) {
			int at = il_table_col(out, in[i]->cols[c]);

			if (at >= 0 && at < nlead) {
				errno = EINVAL; /* a table column would hide a leading one */
				return -1;
			}
			if (at < 0 && il_table_add_col(out, in[i]->cols[c]) < 0)
				return -1;
		}
	}
	return 0;
}

static int long_rows(struct il_table *out, const struct il_table *t, int nlead,
		     const char *const *vals)
{
	int *map = calloc((size_t)t->ncols + 1, sizeof(*map));

	if (!map)
		return -1;
	for (int c = 0; c < t->ncols; c++)
		map[c] = il_table_col(out, t->cols[c]);
	for (int r = 0; r < t->nrows; r++) {
		int row = il_table_add_row(out);

		if (row < 0)
			goto fail;
		for (int k = 0; k < nlead; k++)
			if (vals[k] && il_table_set_str(out, row, k, vals[k]))
				goto fail;
		for (int c = 0; c < t->ncols; c++) {
			size_t at = (size_t)r * (size_t)t->ncols + (size_t)c;

			if (copy_cell(out, row, map[c], &t->cells[at]))
				goto fail;
		}
	}
	free(map);
	return 0;
fail:
	free(map);
	return -1;
}

int il_table_long(struct il_table *out, const char *title, const struct il_table *const *in, int n,
		  const char *const *lead, int nlead, const char *const *vals)
{
	if (n < 0 || nlead < 0 || (nlead && (!lead || !vals))) {
		errno = EINVAL;
		return -1;
	}
	if (il_table_init(out, title, 0, NULL))
		return -1;
	if (long_columns(out, in, n, lead, nlead))
		goto fail;
	for (int i = 0; i < n; i++)
		if (long_rows(out, in[i], nlead, vals + (size_t)i * (size_t)nlead))
			goto fail;
	return 0;
fail:
	il_table_free(out);
	return -1;
}

int il_table_long_titles(struct il_table *out, const struct il_table *const *in, int n,
			 const char *col)
{
	const char **vals = calloc((size_t)n + 1, sizeof(*vals));
	int ret;

	if (!vals)
		return -1;
	for (int i = 0; i < n; i++)
		vals[i] = in[i]->title;
	ret = il_table_long(out, "", in, n, &col, 1, vals);
	free(vals);
	return ret;
}

int il_table_prepend_cols(struct il_table *t, const char *const *keys, const char *const *vals,
			  int n)
{
	struct il_table l;
	int ret = 0;

	if (n <= 0)
		return 0;
	if (il_table_init(&l, t->title, 0, NULL))
		return -1;
	for (int i = 0; i < n && !ret; i++)
		ret = il_table_add_col(&l, keys[i]) < 0;
	for (int c = 0; c < t->ncols && !ret; c++)
		ret = il_table_add_col(&l, t->cols[c]) < 0;
	for (int r = 0; r < t->nrows && !ret; r++) {
		ret = il_table_add_row(&l) < 0;
		for (int i = 0; i < n && !ret; i++)
			ret = il_table_set_str(&l, r, i, vals[i]);
		for (int c = 0; c < t->ncols && !ret; c++)
			ret = copy_cell(&l, r, n + c,
					&t->cells[(size_t)r * (size_t)t->ncols + (size_t)c]);
	}
	if (ret) {
		il_table_free(&l);
		errno = ENOMEM;
		return -1;
	}
	il_table_free(t);
	*t = l;
	return 0;
}
