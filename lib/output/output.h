/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * output.h - result tables and the formats that render them (table, tsv, csv, json).
 *
 * DOC: output
 *
 * Results are gathered once into tables of typed cells (text, integer, real with a number
 * of decimals) and then rendered by one backend per file: table.c (aligned text with a
 * "# title" line), tsv.c and csv.c (one header line, then rows), json.c (through jansson:
 * an object with one array of row objects per table). The backends write to a FILE the
 * caller gives. tsv and csv print each table as a header line and rows, tables separated
 * by a blank line: a caller that wants one header passes one table, and il_table_long()
 * (long.c) makes one table of several: the commands that print several tables (compare,
 * battery, measure) merge them for csv and tsv, so a tool reads the file in one call.
 * summary.h turns the per-iteration rows of a table into summary statistics.
 */
#ifndef IDLELAB_OUTPUT_H
#define IDLELAB_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "../cpuidle.h"

enum il_cell_kind {
	IL_CELL_EMPTY, /* "-" in text, null in JSON */
	IL_CELL_STR,
	IL_CELL_INT,
	IL_CELL_REAL,
};

struct il_cell {
	enum il_cell_kind kind;
	char *s;
	s64 i;
	double d;
	int prec;
};

struct il_table {
	char *title;
	int ncols;
	char **cols;
	int nrows;
	int cap_rows;
	struct il_cell *cells; /* nrows * ncols */
};

/** il_table_init - an empty table called @title with the @ncols column names in @cols */
int il_table_init(struct il_table *t, const char *title, int ncols, const char *const *cols);
/** il_table_add_col - append a column (before any row) ; Return: its index, or -1 */
int il_table_add_col(struct il_table *t, const char *name);
/** il_table_add_row - append an empty row; Return: its index, or -1 with errno ENOMEM */
int il_table_add_row(struct il_table *t);
int il_table_set_str(struct il_table *t, int row, int col, const char *s);
void il_table_set_int(struct il_table *t, int row, int col, s64 v);
void il_table_set_real(struct il_table *t, int row, int col, double v, int prec);
/** il_table_set_count - set counter @v when @have (a counter that was read); else leave it "-" */
void il_table_set_count(struct il_table *t, int row, int col, bool have, u64 v);
void il_table_free(struct il_table *t);
/** il_tables_fail - free the @n tables @t (built or not) and set errno ENOMEM; Return: -1 */
int il_tables_fail(struct il_table *t, int n);
/** il_table_col - the index of column @name, or -1 */
int il_table_col(const struct il_table *t, const char *name);

/** il_table_copy_cell - set cell (@row, @col) of @t to a copy of @c; Return: 0 or -1 (ENOMEM) */
int il_table_copy_cell(struct il_table *t, int row, int col, const struct il_cell *c);

/**
 * il_table_long - the @n tables @in as one long table @out (called @title)
 * @lead: the names of @nlead leading columns that say where a row came from
 * @vals: their texts, @nlead per table: row r of table i gets vals[i * nlead + k] in column
 *        k; NULL leaves the cell empty
 *
 * The columns of @out are the leading ones, then the union of the tables' columns in the
 * order they first appear; a row of a table that lacks a column has an empty cell there.
 * Cells keep their kind and precision.
 * Return: 0, or -1 with errno ENOMEM, or EINVAL when a table has a column named like a
 * leading one.
 */
int il_table_long(struct il_table *out, const char *title, const struct il_table *const *in, int n,
		  const char *const *lead, int nlead, const char *const *vals);
/**
 * il_table_prepend_cols - @n text columns @keys before @t's, every row of them @vals (run's
 * --label). A key may repeat one of @t's columns: sweep's jobs label each row with its
 * iteration, which merge reads from the first column of that name.
 * Return: 0, or -1 with errno ENOMEM (@t unchanged).
 */
int il_table_prepend_cols(struct il_table *t, const char *const *keys, const char *const *vals,
			  int n);
/** il_table_long_titles - il_table_long() with one leading column @col: each table's title */
int il_table_long_titles(struct il_table *out, const struct il_table *const *in, int n,
			 const char *col);

/** il_text_columns - the columns @s takes on a terminal: its UTF-8 characters ("±" is one) */
size_t il_text_columns(const char *s);

/** il_ns_us_text - exact µs text of @ns ("1995", "2.5", "-0.001") into @buf */
const char *il_ns_us_text(long long ns, char *buf, size_t cap);

/** il_table_kv_str - a row @key, @value of a key/value table; 0, or -1 (ENOMEM) */
int il_table_kv_str(struct il_table *t, const char *key, const char *value);
/** il_table_kv_int - a row @key, @value of a key/value table; 0, or -1 (ENOMEM) */
int il_table_kv_int(struct il_table *t, const char *key, s64 value);

/** il_cell_text - the text of a cell as the text formats print it, into @buf */
const char *il_cell_text(const struct il_cell *c, char *buf, size_t cap);

/**
 * il_csv_field - write @s to @out as one CSV field: as it is, or in double quotes with its
 * quotes doubled when it holds a comma, quote or line break (RFC 4180)
 */
void il_csv_field(FILE *out, const char *s);

/* A delimited format (csv.c, tsv.c): its separator and how it writes one field. */
struct il_delimited {
	char sep;
	void (*field)(FILE *out, const char *s);
};

/** il_delimited_write - @tables in delimited format @fmt (delimited.c); 0, or -1 (ferror) */
int il_delimited_write(FILE *out, const struct il_delimited *fmt,
		       const struct il_table *const *tables, int ntables);

struct il_output_format {
	const char *name;
	bool available;      /* false: built without the library it needs */
	const char *missing; /* why it is not available */
	/* Return: 0, or -1 with errno set. */
	int (*write)(FILE *out, const struct il_table *const *tables, int ntables);
};

/** il_output_find - the format called @name ("table", "tsv", "csv", "json"), or NULL */
const struct il_output_format *il_output_find(const char *name);

extern const struct il_output_format il_output_table, il_output_tsv, il_output_csv, il_output_json;

#endif /* IDLELAB_OUTPUT_H */
