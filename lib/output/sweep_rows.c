// SPDX-License-Identifier: GPL-2.0-only
/*
 * sweep_rows.c - the rows of a sweep, from text to typed cells, as one table and its
 * summary (definitions in sweep_rows.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../util/parse.h"
#include "output.h"
#include "summary.h"
#include "sweep_rows.h"

static bool keep_column(const char *const *names, int i)
{
	if (!strcmp(names[i], "gov"))
		return false;
	for (int k = 0; k < i; k++)
		if (!strcmp(names[k], names[i]))
			return false;
	return true;
}

static int parse_case_no(const char *s, long long *out)
{
	uint64_t v;

	if (il_parse_count(s, 0, INT64_MAX, &v))
		return -1;
	*out = (long long)v;
	return 0;
}

int il_sweep_rec_set(struct il_sweep_rec *rec, int n, const char *const *names,
		     const char *const *texts)
{
	memset(rec, 0, sizeof(*rec));
	if (n < 1 || strcmp(names[0], "case") || parse_case_no(texts[0], &rec->case_no)) {
		errno = EINVAL;
		return -1;
	}
	rec->names = calloc((size_t)n, sizeof(*rec->names));
	rec->texts = calloc((size_t)n, sizeof(*rec->texts));
	if (!rec->names || !rec->texts)
		goto nomem;
	for (int i = 0; i < n; i++) {
		if (!keep_column(names, i))
			continue;
		rec->names[rec->n] = strdup(names[i]);
		rec->texts[rec->n] = strdup(texts[i]);
		if (!rec->names[rec->n] || !rec->texts[rec->n++])
			goto nomem;
	}
	return 0;
nomem:
	il_sweep_rec_free(rec);
	errno = ENOMEM;
	return -1;
}

void il_sweep_rec_free(struct il_sweep_rec *rec)
{
	for (int i = 0; i < rec->n; i++) {
		free(rec->names[i]);
		free(rec->texts[i]);
	}
	free(rec->names);
	free(rec->texts);
	memset(rec, 0, sizeof(*rec));
}

/* "-?DIGITS": an integer cell. */
static bool text_is_int(const char *s, long long *v)
{
	char *end;

	if (!*s || (*s != '-' && (*s < '0' || *s > '9')))
		return false;
	errno = 0;
	*v = strtoll(s, &end, 10);
	return !errno && !*end && end != s && s[*s == '-'] != '\0';
}

/* "-?DIGITS.DIGITS": a real cell printed with as many decimals as it has. */
static bool text_is_real(const char *s, double *v, int *prec)
{
	const char *p = s + (*s == '-');
	const char *dot = strchr(p, '.');

	if (!dot || dot == p || !dot[1])
		return false;
	for (const char *q = p; *q; q++)
		if (q != dot && (*q < '0' || *q > '9'))
			return false;
	*v = strtod(s, NULL);
	*prec = (int)strlen(dot + 1);
	return true;
}

/* The typed cell of @text: "-" empty, then integer, real, or string. */
static int set_from_text(struct il_table *t, int row, int col, const char *text)
{
	long long i;
	double d;
	int prec;

	if (!strcmp(text, "-"))
		return 0;
	if (text_is_int(text, &i)) {
		il_table_set_int(t, row, col, (s64)i);
		return 0;
	}
	if (text_is_real(text, &d, &prec)) {
		il_table_set_real(t, row, col, d, prec);
		return 0;
	}
	return il_table_set_str(t, row, col, text);
}

static int by_case(const void *a, const void *b)
{
	const struct il_sweep_rec *x = a, *y = b;

	return (x->case_no > y->case_no) - (x->case_no < y->case_no);
}

int il_sweep_table(struct il_table *t, struct il_sweep_rec *recs, size_t n)
{
	qsort(recs, n, sizeof(*recs), by_case);
	if (il_table_init(t, "sweep", 0, NULL))
		return -1;
	for (size_t r = 0; r < n; r++)
		for (int i = 0; i < recs[r].n; i++)
			if (il_table_col(t, recs[r].names[i]) < 0 && il_table_add_col(t,
				recs[r].names[i]) < 0)
				return -1;
	for (size_t r = 0; r < n; r++) {
		int row = il_table_add_row(t);

		if (row < 0)
			return -1;
		for (int i = 0; i < recs[r].n; i++)
			if (set_from_text(t, row, il_table_col(t, recs[r].names[i]),
					  recs[r].texts[i]))
				return -1;
	}
	return 0;
}

/* Whether a row has an iteration other than 0: then the sweep ran several seeds per case. */
bool il_sweep_has_iterations(const struct il_table *t)
{
	int col = il_table_col(t, "iter");

	for (int r = 0; col >= 0 && r < t->nrows; r++) {
		const struct il_cell *c = &t->cells[(size_t)r * (size_t)t->ncols + (size_t)col];

		if (c->kind == IL_CELL_INT && c->i > 0)
			return true;
	}
	return false;
}

/*
 * The summary of the cases: a group is a platform, a value of each parameter (the columns
 * between "platform" and "iter") and a device; the governors are compared with the first,
 * paired by seed (iteration k of every case ran seed N+k), with an @ensemble (0: none) the
 * envelope of the model variants' intervals (summary.h).
 */
int il_sweep_summary(struct il_table *sum, const struct il_table *t, int ensemble)
{
	static const char *const skip[] = { "case", "seed", NULL };
	int from = il_table_col(t, "platform"), to = il_table_col(t, "iter"), nkeys = 0;
	const char **keys = calloc((size_t)t->ncols + 2, sizeof(*keys));
	struct il_summary_spec spec = {
		.gov = "governor", .iter = "iter", .skip = skip, .paired = true,
		.ensemble = ensemble,
	};
	int ret;

	if (!keys)
		return -1;
	for (int c = from; from >= 0 && c < to; c++)
		keys[nkeys++] = t->cols[c];
	if (il_table_col(t, "device") >= 0)
		keys[nkeys++] = "device";
	spec.keys = keys;
	ret = il_summary_table(sum, "summary", t, &spec);
	free(keys);
	return ret;
}
