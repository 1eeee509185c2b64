// SPDX-License-Identifier: GPL-2.0-only
/*
 * cells.c - building result tables, and the format registry.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "util/array.h"

int il_table_init(struct il_table *t, const char *title, int ncols, const char *const *cols)
{
	memset(t, 0, sizeof(*t));
	t->title = strdup(title ? title : "");
	if (!t->title)
		goto nomem;
	for (int i = 0; i < ncols; i++)
		if (il_table_add_col(t, cols[i]) < 0)
			goto nomem;
	return 0;
nomem:
	il_table_free(t);
	errno = ENOMEM;
	return -1;
}

int il_table_add_col(struct il_table *t, const char *name)
{
	char **cols;
	char *copy;

	if (t->nrows) {
		errno = EINVAL;
		return -1;
	}
	cols = realloc(t->cols, (size_t)(t->ncols + 1) * sizeof(*cols));
	if (!cols)
		return -1;
	t->cols = cols;
	copy = strdup(name);
	if (!copy)
		return -1;
	t->cols[t->ncols] = copy;
	return t->ncols++;
}

int il_table_add_row(struct il_table *t)
{
	if (t->nrows == t->cap_rows) {
		int cap = t->cap_rows ? 2 * t->cap_rows : 16;
		struct il_cell *c = realloc(t->cells, (size_t)cap * (size_t)t->ncols * sizeof(*c));

		if (!c) {
			errno = ENOMEM;
			return -1;
		}
		t->cells = c;
		t->cap_rows = cap;
	}
	memset(&t->cells[(size_t)t->nrows * (size_t)t->ncols], 0,
	       (size_t)t->ncols * sizeof(*t->cells));
	return t->nrows++;
}

static struct il_cell *cell(struct il_table *t, int row, int col)
{
	return &t->cells[(size_t)row * (size_t)t->ncols + (size_t)col];
}

int il_table_set_str(struct il_table *t, int row, int col, const char *s)
{
	struct il_cell *c = cell(t, row, col);

	free(c->s);
	c->s = strdup(s);
	if (!c->s) {
		c->kind = IL_CELL_EMPTY;
		errno = ENOMEM;
		return -1;
	}
	c->kind = IL_CELL_STR;
	return 0;
}

void il_table_set_int(struct il_table *t, int row, int col, s64 v)
{
	struct il_cell *c = cell(t, row, col);

	c->kind = IL_CELL_INT;
	c->i = v;
}

void il_table_set_count(struct il_table *t, int row, int col, bool have, u64 v)
{
	if (have)
		il_table_set_int(t, row, col, (s64)v);
}

void il_table_set_real(struct il_table *t, int row, int col, double v, int prec)
{
	struct il_cell *c = cell(t, row, col);

	c->kind = IL_CELL_REAL;
	c->d = v;
	c->prec = prec;
}

int il_table_col(const struct il_table *t, const char *name)
{
	for (int i = 0; i < t->ncols; i++)
		if (!strcmp(t->cols[i], name))
			return i;
	return -1;
}

void il_table_free(struct il_table *t)
{
	for (int r = 0; r < t->nrows; r++)
		for (int c = 0; c < t->ncols; c++)
			free(cell(t, r, c)->s);
	for (int c = 0; c < t->ncols; c++)
		free(t->cols[c]);
	free(t->cols);
	free(t->cells);
	free(t->title);
	memset(t, 0, sizeof(*t));
}

int il_tables_fail(struct il_table *t, int n)
{
	for (int i = 0; i < n; i++)
		il_table_free(&t[i]);
	errno = ENOMEM;
	return -1;
}

size_t il_text_columns(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80; /* continuation bytes take no column */
	return n;
}

const char *il_cell_text(const struct il_cell *c, char *buf, size_t cap)
{
	switch (c->kind) {
	case IL_CELL_STR:
		return c->s;
	case IL_CELL_INT:
		snprintf(buf, cap, "%" PRId64, c->i);
		return buf;
	case IL_CELL_REAL:
		snprintf(buf, cap, "%.*f", c->prec, c->d);
		return buf;
	default:
		return "-";
	}
}

static const struct il_output_format *const formats[] = {
	&il_output_table, &il_output_tsv, &il_output_csv, &il_output_json,
};

const struct il_output_format *il_output_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		if (!strcmp(formats[i]->name, name))
			return formats[i];
	return NULL;
}

const char *il_ns_us_text(long long ns, char *buf, size_t cap)
{
	unsigned long long mag = ns < 0 ? 0ULL - (unsigned long long)ns : (unsigned long long)ns;
	unsigned long long frac = mag % 1000;
	int n = snprintf(buf, cap, "%s%llu", ns < 0 ? "-" : "", mag / 1000);

	if (frac && n > 0 && (size_t)n < cap) {
		char digits[8];
		int len = snprintf(digits, sizeof(digits), "%03llu", frac);

		while (len > 0 && digits[len - 1] == '0')
			digits[--len] = '\0';
		snprintf(buf + n, cap - (size_t)n, ".%s", digits);
	}
	return buf;
}

int il_table_kv_str(struct il_table *t, const char *key, const char *value)
{
	int row = il_table_add_row(t);

	if (row < 0 || il_table_set_str(t, row, 0, key) || il_table_set_str(t, row, 1, value))
		return -1;
	return 0;
}

int il_table_kv_int(struct il_table *t, const char *key, s64 value)
{
	int row = il_table_add_row(t);

	if (row < 0 || il_table_set_str(t, row, 0, key))
		return -1;
	il_table_set_int(t, row, 1, value);
	return 0;
}
