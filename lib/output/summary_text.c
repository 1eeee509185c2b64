// SPDX-License-Identifier: GPL-2.0-only
/*
 * summary_text.c - a summary table (summary.h) as the table format shows it, after
 * perf stat -r: "mean ± half-width of the CI in %", "delta in % [CI]", p.
 *
 * Each shown cell is built from parts (the mean, the interval) of which the leading ones
 * are padded to the widest of their column, so that the numbers line up although the
 * cells are text.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "summary.h"
#include "util/array.h"

#define PART_LEN 48
#define NPARTS 3

/* The summary columns il_summary_text() reads, after the keys and the governor. */
enum { T_METRIC, T_N, T_MEAN, T_SD, T_MIN, T_MAX, T_CI_LO, T_CI_HI, T_CI_PCT, T_BASE, T_TEST,
       T_D, T_D_LO, T_D_HI, T_DP, T_DP_LO, T_DP_HI, T_P, T_COUNT };

static const char *const sum_names[T_COUNT] = {
	"metric", "n", "mean", "sd", "min", "max", "ci_lo", "ci_hi", "ci_pct", "baseline", "test",
	"delta", "delta_lo", "delta_hi", "delta_pct", "delta_pct_lo", "delta_pct_hi", "p",
};

/* The shown columns after the keys and the governor. */
enum { S_METRIC, S_N, S_MEAN, S_SD, S_MIN, S_MAX, S_DELTA, S_P, S_COUNT };

static const char *const shown_names[S_COUNT] = {
	"metric", "n", "mean ± ci", "sd", "min", "max", "delta [ci]", "p",
};

struct text_ctx {
	const struct il_table *sum;
	int first;        /* the column of "metric" in @sum */
	int col[T_COUNT]; /* of each summary column in @sum */
};

static const struct il_cell *sum_cell(const struct text_ctx *c, int row, int t)
{
	return &c->sum->cells[(size_t)row * (size_t)c->sum->ncols + (size_t)c->col[t]];
}

static bool has(const struct text_ctx *c, int row, int t)
{
	const struct il_cell *x = sum_cell(c, row, t);

	return x->kind == IL_CELL_REAL || x->kind == IL_CELL_INT;
}

static double num(const struct text_ctx *c, int row, int t)
{
	const struct il_cell *x = sum_cell(c, row, t);

	return x->kind == IL_CELL_INT ? (double)x->i : x->d;
}

static int prec_of(const struct text_ctx *c, int row, int t)
{
	return sum_cell(c, row, t)->kind == IL_CELL_REAL ? sum_cell(c, row, t)->prec : 0;
}

/* The parts of the "mean ± ci" cell: the mean, and the half-width in % (or absolute). */
static void mean_parts(const struct text_ctx *c, int r, char p[NPARTS][PART_LEN])
{
	int prec = prec_of(c, r, T_MEAN);

	snprintf(p[0], PART_LEN, "%.*f", prec, num(c, r, T_MEAN));
	if (has(c, r, T_CI_PCT))
		snprintf(p[1], PART_LEN, "%.1f %%", num(c, r, T_CI_PCT));
	else if (has(c, r, T_CI_LO) && has(c, r, T_CI_HI))
		snprintf(p[1], PART_LEN, "%.*f", prec,
			 (num(c, r, T_CI_HI) - num(c, r, T_CI_LO)) / 2.0);
}

/*
 * The parts of "delta [ci]": the difference in % (absolute when the baseline's mean is 0),
 * the interval's ends.
 */
static void delta_parts(const struct text_ctx *c, int r, bool baseline, char p[NPARTS][PART_LEN])
{
	int t = has(c, r, T_DP) ? T_DP : T_D;
	int prec = t == T_DP ? 1 : prec_of(c, r, T_D);
	const char *unit = t == T_DP ? " %" : "";

	if (baseline) {
		snprintf(p[0], PART_LEN, "baseline");
		return;
	}
	if (!has(c, r, t))
		return;
	snprintf(p[0], PART_LEN, "%+.*f%s", prec, num(c, r, t), unit);
	if (has(c, r, t + 1) && has(c, r, t + 2)) {
		snprintf(p[1], PART_LEN, "%+.*f", prec, num(c, r, t + 1));
		snprintf(p[2], PART_LEN, "%+.*f", prec, num(c, r, t + 2));
	}
}

static void p_parts(const struct text_ctx *c, int r, char p[NPARTS][PART_LEN])
{
	if (!has(c, r, T_P))
		return;
	if (num(c, r, T_P) < 0.001)
		snprintf(p[0], PART_LEN, "<0.001");
	else
		snprintf(p[0], PART_LEN, "%.3f", num(c, r, T_P));
}

static size_t width_of(const char *s)
{
	return il_text_columns(s);
}

static void pad_left(char *dst, size_t cap, const char *s, size_t w)
{
	size_t len = width_of(s), n = 0;

	while (len + n < w && n + 1 < cap)
		dst[n++] = ' ';
	snprintf(dst + n, cap - n, "%s", s);
}

/*
 * One shown column from the parts of every row: the first @npad parts right-aligned to the
 * widest of their kind, joined by @sep1, @sep2 and @end (" ± ", or " [", ", ", "]"); rows
 * without a first part stay empty, rows without the others show the first part alone.
 */
static int set_column(struct il_table *out, int col, char (*parts)[NPARTS][PART_LEN], int nrows,
		      int nparts, int npad, const char *sep1, const char *sep2, const char *end)
{
	size_t w[NPARTS] = { 0 };

	for (int r = 0; r < nrows; r++)
		for (int k = 0; k < nparts; k++)
			if (width_of(parts[r][k]) > w[k])
				w[k] = width_of(parts[r][k]);
	for (int r = 0; r < nrows; r++) {
		char a[3][PART_LEN + 32], text[4 * PART_LEN + 128];

		if (!*parts[r][0])
			continue;
		for (int k = 0; k < nparts; k++)
			pad_left(a[k], sizeof(a[k]), parts[r][k], k < npad ? w[k] : 0);
		if (nparts == 1 || !*parts[r][1])
			snprintf(text, sizeof(text), "%s", a[0]);
		else if (nparts == 2)
			snprintf(text, sizeof(text), "%s%s%s%s", a[0], sep1, a[1], end);
		else
			snprintf(text, sizeof(text), "%s%s%s%s%s%s", a[0], sep1, a[1], sep2, a[2],
				 end);
		if (il_table_set_str(out, r, col, text))
			return -1;
	}
	return 0;
}

/* Whether row @r's governor is some row's baseline. */
static bool is_baseline(const struct text_ctx *c, int r)
{
	size_t at = (size_t)r * (size_t)c->sum->ncols + (size_t)c->first - 1;
	const struct il_cell *g = &c->sum->cells[at];
	char buf[64];
	const char *gov = il_cell_text(g, buf, sizeof(buf));

	for (int i = 0; i < c->sum->nrows; i++) {
		const struct il_cell *b = sum_cell(c, i, T_BASE);

		if (b->kind == IL_CELL_STR && !strcmp(b->s, gov))
			return true;
	}
	return false;
}

static int text_ctx_init(struct text_ctx *c, const struct il_table *sum)
{
	c->sum = sum;
	c->first = il_table_col(sum, "metric");
	if (c->first < 1 || c->first + T_COUNT != sum->ncols) {
		errno = EINVAL;
		return -1;
	}
	for (int t = 0; t < T_COUNT; t++) {
		c->col[t] = c->first + t;
		if (strcmp(sum->cols[c->col[t]], sum_names[t])) {
			errno = EINVAL;
			return -1;
		}
	}
	return 0;
}

static int copy_plain(struct il_table *out, const struct text_ctx *c)
{
	static const int plain[][2] = {
		{ S_METRIC, T_METRIC }, { S_N, T_N }, { S_SD, T_SD }, { S_MIN, T_MIN },
		{ S_MAX, T_MAX },
	};

	for (int r = 0; r < c->sum->nrows; r++) {
		if (il_table_add_row(out) < 0)
			return -1;
		const struct il_cell *row = &c->sum->cells[(size_t)r * (size_t)c->sum->ncols];

		for (int k = 0; k < c->first; k++)
			if (il_table_copy_cell(out, r, k, &row[k]))
				return -1;
		for (size_t i = 0; i < ARRAY_SIZE(plain); i++) {
			int to = c->first + plain[i][0];

			if (il_table_copy_cell(out, r, to, sum_cell(c, r, plain[i][1])))
				return -1;
		}
	}
	return 0;
}

int il_summary_text(struct il_table *out, const char *title, const struct il_table *sum)
{
	char (*mean)[NPARTS][PART_LEN], (*delta)[NPARTS][PART_LEN], (*p)[NPARTS][PART_LEN];
	struct text_ctx c;
	int ret = -1;

	if (text_ctx_init(&c, sum))
		return -1;
	if (il_table_init(out, title, 0, NULL))
		return -1;
	mean = calloc((size_t)sum->nrows + 1, sizeof(*mean));
	delta = calloc((size_t)sum->nrows + 1, sizeof(*delta));
	p = calloc((size_t)sum->nrows + 1, sizeof(*p));
	if (!mean || !delta || !p)
		goto out;
	for (int k = 0; k < c.first; k++)
		if (il_table_add_col(out, sum->cols[k]) < 0)
			goto out;
	for (int s = 0; s < S_COUNT; s++)
		if (il_table_add_col(out, shown_names[s]) < 0)
			goto out;
	if (copy_plain(out, &c))
		goto out;
	for (int r = 0; r < sum->nrows; r++) {
		mean_parts(&c, r, mean[r]);
		delta_parts(&c, r, is_baseline(&c, r), delta[r]);
		p_parts(&c, r, p[r]);
	}
	if (set_column(out, c.first + S_MEAN, mean, sum->nrows, 2, 2, " ± ", "", "") ||
	    set_column(out, c.first + S_DELTA, delta, sum->nrows, 3, 1, " [", ", ", "]") ||
	    set_column(out, c.first + S_P, p, sum->nrows, 1, 1, "", "", ""))
		goto out;
	ret = 0;
out:
	free(mean);
	free(delta);
	free(p);
	if (ret) {
		errno = ENOMEM;
		il_table_free(out);
	}
	return ret;
}
