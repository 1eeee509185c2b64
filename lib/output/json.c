// SPDX-License-Identifier: GPL-2.0-only
/*
 * json.c - JSON through jansson: {"title": [{"col": value, ...}, ...], ...}, one key per
 * table, keys and rows in order. Reals keep the precision of the table (rounded text
 * turned back into a number), so JSON and text agree digit for digit.
 */
#include <errno.h>
#include <stdlib.h>

#include "output.h"

#ifdef HAVE_JANSSON
#include <jansson.h>

static json_t *json_cell(const struct il_cell *c)
{
	char buf[64];

	switch (c->kind) {
	case IL_CELL_STR:
		return json_string(c->s);
	case IL_CELL_INT:
		return json_integer(c->i);
	case IL_CELL_REAL:
		snprintf(buf, sizeof(buf), "%.*f", c->prec, c->d);
		return json_real(strtod(buf, NULL));
	default:
		return json_null();
	}
}

static json_t *json_table(const struct il_table *t)
{
	json_t *rows = json_array();

	for (int r = 0; rows && r < t->nrows; r++) {
		json_t *row = json_object();

		for (int c = 0; row && c < t->ncols; c++)
			json_object_set_new(
				row, t->cols[c],
				json_cell(&t->cells[(size_t)r * (size_t)t->ncols + (size_t)c]));
		json_array_append_new(rows, row);
	}
	return rows;
}

static int json_write(FILE *out, const struct il_table *const *tables, int ntables)
{
	json_t *root = json_object();
	int ret;

	if (!root) {
		errno = ENOMEM;
		return -1;
	}
	for (int i = 0; i < ntables; i++)
		json_object_set_new(root, tables[i]->title, json_table(tables[i]));
	ret = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
	fputc('\n', out);
	json_decref(root);
	return ret || ferror(out) ? -1 : 0;
}

const struct il_output_format il_output_json = { "json", true, NULL, json_write };
#else
static int json_write(FILE *out, const struct il_table *const *tables, int ntables)
{
	errno = ENOTSUP;
	return -1;
}

const struct il_output_format il_output_json = { "json", false,
						 "built without jansson (install libjansson-dev)",
						 json_write };
#endif
