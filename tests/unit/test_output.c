// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tests of lib/output: summary statistics of per-iteration rows (groups, metrics, pairing
 * by iteration, the Welch fallback, empty cells, the baseline), their text form, the long
 * table that merges several tables for csv and tsv, the per-format arrangement of results,
 * and the text format's alignment of UTF-8 cells.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "output/output.h"
#include "output/summary.h"
#include "stat/stat.h"

#define assert_near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static const char *const pm_cols[] = { "device", "gov", "iter", "score", "count", "note" };

/* A row of the linux-pm-like table: device, gov, iter, score (3 decimals), count, note. */
static void add_pm(struct il_table *t, const char *dev, const char *gov, int iter, double score,
		   long count)
{
	int r = il_table_add_row(t);

	assert_true(r >= 0);
	assert_int_equal(il_table_set_str(t, r, 0, dev), 0);
	assert_int_equal(il_table_set_str(t, r, 1, gov), 0);
	il_table_set_int(t, r, 2, iter);
	if (!isnan(score))
		il_table_set_real(t, r, 3, score, 3);
	if (count >= 0)
		il_table_set_int(t, r, 4, count);
	assert_int_equal(il_table_set_str(t, r, 5, "text, not a metric"), 0);
}

static const struct il_cell *at(const struct il_table *t, int row, const char *col)
{
	int c = il_table_col(t, col);

	assert_true(c >= 0);
	return &t->cells[(size_t)row * (size_t)t->ncols + (size_t)c];
}

static double num(const struct il_table *t, int row, const char *col)
{
	const struct il_cell *c = at(t, row, col);

	assert_true(c->kind == IL_CELL_INT || c->kind == IL_CELL_REAL);
	return c->kind == IL_CELL_INT ? (double)c->i : c->d;
}

static const char *str(const struct il_table *t, int row, const char *col)
{
	const struct il_cell *c = at(t, row, col);

	return c->kind == IL_CELL_STR ? c->s : "";
}

static bool empty(const struct il_table *t, int row, const char *col)
{
	return at(t, row, col)->kind == IL_CELL_EMPTY;
}

static const char *const dev_keys[] = { "device", NULL };

/* compare's spec: groups by device, iteration i of every governor ran seed N+i. */
#define PAIRED_SPEC { .keys = dev_keys, .gov = "gov", .iter = "iter", .paired = true }

static const double base_score[] = { 10.0, 12.0, 11.0 };
static const double new_score[] = { 9.0, 10.5, 10.0 };
static const long base_count[] = { 100, 104, 99 };
static const long new_count[] = { 90, 95, 97 };

static void fill_two_govs(struct il_table *t, const char *dev)
{
	for (int i = 0; i < 3; i++)
		add_pm(t, dev, "old", i, base_score[i], base_count[i]);
	for (int i = 0; i < 3; i++)
		add_pm(t, dev, "new", i, new_score[i], new_count[i]);
}

/* Rows: for each metric (score, count) the governors old, new; mean/sd/CI as lib/stat says. */
static void test_summary_paired(void **state)
{
	struct il_table t, s;
	struct il_summary_spec spec = PAIRED_SPEC;
	struct il_stat_summary ss;
	struct il_stat_diff d;

	assert_int_equal(il_table_init(&t, "x", 6, pm_cols), 0);
	fill_two_govs(&t, "sda");
	assert_int_equal(il_summary_table(&s, "x summary", &t, &spec), 0);
	assert_int_equal(s.nrows, 4); /* score and count; "note" is text, "iter" no metric */
	assert_string_equal(str(&s, 0, "metric"), "score");
	assert_string_equal(str(&s, 0, "gov"), "old");
	assert_string_equal(str(&s, 1, "gov"), "new");
	assert_string_equal(str(&s, 2, "metric"), "count");
	assert_string_equal(str(&s, 1, "device"), "sda");

	assert_int_equal(il_stat_summarize(new_score, 3, 0.95, &ss), 0);
	assert_int_equal(num(&s, 1, "n"), 3);
	assert_near(num(&s, 1, "mean"), ss.mean, 1e-12);
	assert_near(num(&s, 1, "sd"), ss.sd, 1e-12);
	assert_near(num(&s, 1, "min"), 9.0, 0);
	assert_near(num(&s, 1, "max"), 10.5, 0);
	assert_near(num(&s, 1, "ci_lo"), ss.ci_lo, 1e-12);
	assert_near(num(&s, 1, "ci_hi"), ss.ci_hi, 1e-12);
	assert_near(num(&s, 1, "ci_pct"), il_stat_ci_rel(&ss), 1e-12);
	/* Decimals: the mean one more than the rows; min and max as the rows. */
	assert_int_equal(at(&s, 1, "mean")->prec, 4);
	assert_int_equal(at(&s, 1, "min")->prec, 3);
	assert_int_equal(at(&s, 3, "min")->kind, IL_CELL_INT);

	/* The baseline's own row has no delta; the other one is paired by iteration. */
	assert_true(empty(&s, 0, "baseline") && empty(&s, 0, "delta") && empty(&s, 0, "p"));
	assert_string_equal(str(&s, 1, "baseline"), "old");
	assert_string_equal(str(&s, 1, "test"), "paired");
	assert_int_equal(il_stat_diff(base_score, 3, new_score, 3, IL_STAT_PAIRED, 0.95, &d), 0);
	assert_near(num(&s, 1, "delta"), d.diff, 1e-12);
	assert_near(num(&s, 1, "delta_lo"), d.ci_lo, 1e-12);
	assert_near(num(&s, 1, "delta_hi"), d.ci_hi, 1e-12);
	assert_near(num(&s, 1, "delta_pct"), d.rel, 1e-12);
	assert_near(num(&s, 1, "delta_pct_lo"), d.rel_lo, 1e-12);
	assert_near(num(&s, 1, "p"), d.p, 1e-12);
	assert_true(num(&s, 1, "delta_pct") < 0);
	il_table_free(&s);
	il_table_free(&t);
}

/* The same iterations in another row order pair the same way; different ones fall back to Welch. */
static void test_summary_pairing_and_welch(void **state)
{
	struct il_table t, s;
	struct il_summary_spec spec = PAIRED_SPEC;
	static const double a[] = { 10.0, 12.0 }, b[] = { 9.0, 10.5 };
	struct il_stat_diff d;

	assert_int_equal(il_table_init(&t, "x", 6, pm_cols), 0);
	add_pm(&t, "d", "old", 0, 10.0, -1);
	add_pm(&t, "d", "new", 1, 10.5, -1);
	add_pm(&t, "d", "old", 1, 12.0, -1);
	add_pm(&t, "d", "new", 0, 9.0, -1);
	assert_int_equal(il_summary_table(&s, "s", &t, &spec), 0);
	assert_int_equal(s.nrows, 2); /* count: empty everywhere, no row */
	assert_string_equal(str(&s, 1, "test"), "paired");
	assert_int_equal(il_stat_diff(a, 2, b, 2, IL_STAT_PAIRED, 0.95, &d), 0);
	assert_near(num(&s, 1, "delta_lo"), d.ci_lo, 1e-12);
	il_table_free(&s);

	/* new's iteration 1 becomes 2: the runs no longer share seeds. */
	il_table_set_int(&t, 1, 2, 2);
	assert_int_equal(il_summary_table(&s, "s", &t, &spec), 0);
	assert_string_equal(str(&s, 1, "test"), "welch");
	assert_int_equal(il_stat_diff(a, 2, b, 2, IL_STAT_WELCH, 0.95, &d), 0);
	assert_near(num(&s, 1, "delta_lo"), d.ci_lo, 1e-12);
	il_table_free(&s);

	/* Not declared paired (a live machine): Welch even with equal iterations. */
	il_table_set_int(&t, 1, 2, 1);
	spec.paired = false;
	assert_int_equal(il_summary_table(&s, "s", &t, &spec), 0);
	assert_string_equal(str(&s, 1, "test"), "welch");
	il_table_free(&s);
	il_table_free(&t);
}

/*
 * --ensemble 2: iteration k ran variant k % 2. Under variant 0 "new" is 10 % lower, under
 * variant 1 about 1 % lower: the intervals are the envelope of each variant's own, p the
 * larger of theirs, n and the means over all the rows.
 */
static void test_summary_ensemble_envelope(void **state)
{
	static const double old_v0[] = { 10.0, 12.0, 11.0 }, new_v0[] = { 9.0, 10.7, 9.9 };
	static const double old_v1[] = { 20.0, 21.0, 22.0 }, new_v1[] = { 19.8, 20.9, 21.7 };
	struct il_summary_spec spec = PAIRED_SPEC;
	struct il_stat_diff d0, d1;
	struct il_stat_summary s0, s1;
	struct il_table t, s;

	(void)state;
	spec.ensemble = 2;
	assert_int_equal(il_table_init(&t, "x", 6, pm_cols), 0);
	for (int i = 0; i < 3; i++) {
		add_pm(&t, "d", "old", 2 * i, old_v0[i], -1);
		add_pm(&t, "d", "old", 2 * i + 1, old_v1[i], -1);
	}
	for (int i = 0; i < 3; i++) {
		add_pm(&t, "d", "new", 2 * i, new_v0[i], -1);
		add_pm(&t, "d", "new", 2 * i + 1, new_v1[i], -1);
	}
	assert_int_equal(il_summary_table(&s, "s", &t, &spec), 0);
	assert_int_equal(num(&s, 1, "n"), 6);
	assert_near(num(&s, 1, "mean"), (9.0 + 10.7 + 9.9 + 19.8 + 20.9 + 21.7) / 6, 1e-9);
	assert_int_equal(il_stat_summarize(new_v0, 3, 0.95, &s0), 0);
	assert_int_equal(il_stat_summarize(new_v1, 3, 0.95, &s1), 0);
	assert_near(num(&s, 1, "ci_lo"), fmin(s0.ci_lo, s1.ci_lo), 1e-9);
	assert_near(num(&s, 1, "ci_hi"), fmax(s0.ci_hi, s1.ci_hi), 1e-9);
	assert_int_equal(il_stat_diff(old_v0, 3, new_v0, 3, IL_STAT_PAIRED, 0.95, &d0), 0);
	assert_int_equal(il_stat_diff(old_v1, 3, new_v1, 3, IL_STAT_PAIRED, 0.95, &d1), 0);
	assert_near(num(&s, 1, "delta_lo"), fmin(d0.ci_lo, d1.ci_lo), 1e-9);
	assert_near(num(&s, 1, "delta_hi"), fmax(d0.ci_hi, d1.ci_hi), 1e-9);
	assert_near(num(&s, 1, "delta_pct_lo"), fmin(d0.rel_lo, d1.rel_lo), 1e-9);
	assert_near(num(&s, 1, "delta_pct_hi"), fmax(d0.rel_hi, d1.rel_hi), 1e-9);
	assert_near(num(&s, 1, "p"), fmax(d0.p, d1.p), 1e-3); /* printed with its decimals */
	assert_string_equal(str(&s, 1, "test"), "paired envelope");
	assert_true(fmax(d0.p, d1.p) > 0.01);
	il_table_free(&s);

	/* Without the ensemble the six rows pool into one paired test: a narrower interval. */
	spec.ensemble = 0;
	assert_int_equal(il_summary_table(&s, "s", &t, &spec), 0);
	assert_true(num(&s, 1, "delta_hi") - num(&s, 1, "delta_lo") <
		    fmax(d0.ci_hi, d1.ci_hi) - fmin(d0.ci_lo, d1.ci_lo));
	il_table_free(&s);

	/* A governor with no value under variant 1 (empty cells): no interval, and no error. */
	spec.ensemble = 2;
	for (int i = 0; i < 3; i++) {
		add_pm(&t, "d", "odd", 2 * i, new_v0[i], -1);
		add_pm(&t, "d", "odd", 2 * i + 1, NAN, -1);
	}
	assert_int_equal(il_summary_table(&s, "s", &t, &spec), 0);
	assert_string_equal(str(&s, 2, "gov"), "odd");
	assert_int_equal(num(&s, 2, "n"), 3);
	assert_true(empty(&s, 2, "ci_lo") && empty(&s, 2, "delta_lo") && empty(&s, 2, "p"));
	il_table_free(&s);
	il_table_free(&t);
}

/* A counter the kernel lacks stays empty ("-"), a read one is set, also when it is 0. */
static void test_set_count(void **state)
{
	static const char *const cols[] = { "usage", "above" };
	struct il_table t;

	(void)state;
	assert_int_equal(il_table_init(&t, "c", 2, cols), 0);
	assert_int_equal(il_table_add_row(&t), 0);
	il_table_set_count(&t, 0, 0, true, 0);
	il_table_set_count(&t, 0, 1, false, 7);
	assert_int_equal(t.cells[0].kind, IL_CELL_INT);
	assert_int_equal(t.cells[0].i, 0);
	assert_int_equal(t.cells[1].kind, IL_CELL_EMPTY);
	il_table_free(&t);
}

/* An empty cell is no value: n counts the numbers; and a named baseline. */
static void test_summary_empty_cells_and_baseline(void **state)
{
	struct il_table t, s;
	struct il_summary_spec spec = PAIRED_SPEC;

	spec.baseline = "new";
	assert_int_equal(il_table_init(&t, "x", 6, pm_cols), 0);
	fill_two_govs(&t, "sda");
	add_pm(&t, "sda", "old", 3, NAN, 101); /* a fourth run without a score */
	assert_int_equal(il_summary_table(&s, "s", &t, &spec), 0);
	assert_int_equal(num(&s, 0, "n"), 3);
	assert_int_equal(num(&s, 2, "n"), 4);
	/* Against "new": old's rows carry the delta; 4 against 3 count values cannot pair. */
	assert_string_equal(str(&s, 0, "baseline"), "new");
	assert_string_equal(str(&s, 0, "test"), "paired");
	assert_string_equal(str(&s, 2, "test"), "welch");
	assert_true(empty(&s, 1, "delta"));
	assert_true(num(&s, 0, "delta") > 0);
	il_table_free(&s);

	/* A baseline the group does not have: summaries, no deltas. */
	spec.baseline = "absent";
	assert_int_equal(il_summary_table(&s, "s", &t, &spec), 0);
	for (int r = 0; r < s.nrows; r++)
		assert_true(empty(&s, r, "delta") && empty(&s, r, "baseline"));
	il_table_free(&s);
	il_table_free(&t);
}

/* Groups by key text in first-seen order; row ranges with the same keys stay apart. */
static void test_summary_groups_and_ranges(void **state)
{
	struct il_table t, s;
	struct il_summary_spec spec = PAIRED_SPEC;

	assert_int_equal(il_table_init(&t, "x", 6, pm_cols), 0);
	fill_two_govs(&t, "nvme");
	fill_two_govs(&t, "sda");
	assert_int_equal(il_summary_table(&s, "s", &t, &spec), 0);
	assert_int_equal(s.nrows, 8);
	assert_string_equal(str(&s, 0, "device"), "nvme");
	assert_string_equal(str(&s, 4, "device"), "sda");
	il_table_free(&s);

	/* The same key twice (two -s of one scenario): one summary per range. */
	assert_int_equal(il_summary_init(&s, "s", &t, &spec), 0);
	assert_int_equal(il_summary_add(&s, &t, 0, 3, &spec), 0);
	assert_int_equal(il_summary_add(&s, &t, 3, 3, &spec), 0);
	assert_int_equal(s.nrows, 4); /* old alone in the first range, new alone in the second */
	assert_string_equal(str(&s, 2, "gov"), "new");
	assert_true(empty(&s, 2, "delta")); /* the range's first governor is its baseline */
	assert_int_equal(il_summary_add(&s, &t, 10, 3, &spec), -1);
	assert_int_equal(errno, EINVAL);
	il_table_free(&s);

	spec.keys = (const char *const[]){ "nosuch", NULL };
	assert_int_equal(il_summary_init(&s, "s", &t, &spec), 0);
	assert_int_equal(il_summary_add(&s, &t, 0, t.nrows, &spec), -1);
	assert_int_equal(errno, EINVAL);
	il_table_free(&s);
	assert_true(il_summary_column("mean") && il_summary_column("p"));
	assert_false(il_summary_column("score"));
	il_table_free(&t);
}

/* What @fmt writes of @n tables, as a malloc'ed string. */
static char *render(const struct il_output_format *fmt, const struct il_table *const *tables, int n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(fmt->write(f, tables, n), 0);
	fclose(f);
	return buf;
}

/* The screen column at which @needle starts in @line. */
static size_t screen_col(const char *line, const char *needle)
{
	const char *at = strstr(line, needle);
	char buf[512];

	assert_non_null(at);
	assert_true((size_t)(at - line) < sizeof(buf));
	memcpy(buf, line, (size_t)(at - line));
	buf[at - line] = '\0';
	return il_text_columns(buf);
}

static void test_summary_text(void **state)
{
	struct il_table t, s, x;
	struct il_summary_spec spec = PAIRED_SPEC;
	const struct il_table *p[1] = { &x };
	char *text, want[128];
	struct il_stat_diff d;

	assert_int_equal(il_table_init(&t, "x", 6, pm_cols), 0);
	fill_two_govs(&t, "sda");
	assert_int_equal(il_summary_table(&s, "s", &t, &spec), 0);
	assert_int_equal(il_summary_text(&x, "x summary (note)", &s), 0);
	assert_int_equal(x.nrows, s.nrows);
	assert_string_equal(x.cols[4], "mean ± ci");
	assert_string_equal(x.cols[8], "delta [ci]");
	/* "mean ± half-width in %", the parts padded to their column. */
	snprintf(want, sizeof(want), "%.4f ± %.1f %%", num(&s, 1, "mean"), num(&s, 1, "ci_pct"));
	assert_non_null(strstr(str(&x, 1, "mean ± ci"), want));
	assert_int_equal(il_text_columns(str(&x, 0, "mean ± ci")),
			 il_text_columns(str(&x, 1, "mean ± ci")));
	assert_string_equal(str(&x, 0, "delta [ci]"), "baseline");
	assert_int_equal(il_stat_diff(base_score, 3, new_score, 3, IL_STAT_PAIRED, 0.95, &d), 0);
	snprintf(want, sizeof(want), "%+.1f %% [%+.1f, %+.1f]", d.rel, d.rel_lo, d.rel_hi);
	assert_non_null(strstr(str(&x, 1, "delta [ci]"), want)); /* padded to "baseline" */
	assert_int_equal(il_text_columns(str(&x, 1, "delta [ci]")),
			 strlen("baseline") + strlen(want) - strlen("-10.6 %"));
	snprintf(want, sizeof(want), "%.3f", d.p);
	assert_string_equal(str(&x, 1, "p"), want);
	assert_true(at(&x, 1, "sd")->kind == IL_CELL_REAL);

	/* The table format lines the UTF-8 cells up by columns, not bytes. */
	text = render(&il_output_table, p, 1);
	{
		char *l1 = strchr(text, '\n') + 1, *l2 = strchr(l1, '\n') + 1;
		char *l3 = strchr(l2, '\n') + 1;
		const char *pm1 = strstr(l2, "±"), *pm2 = strstr(l3, "±");

		assert_memory_equal(text, "# x summary (note)\n", 19);
		assert_non_null(pm1);
		assert_non_null(pm2);
		assert_int_equal(pm1 - l2, pm2 - l3);
		/* After a "±" cell, the next columns start where the header says, on the screen. */
		assert_int_equal(screen_col(l1, "delta [ci]"), screen_col(l2, "baseline"));
	}
	free(text);
	il_table_free(&x);
	assert_int_equal(il_summary_text(&x, "bad", &t), -1); /* not a summary */
	assert_int_equal(errno, EINVAL);
	il_table_free(&s);
	il_table_free(&t);
}

static void test_long_table(void **state)
{
	static const char *const ca[] = { "device", "iops" };
	static const char *const cb[] = { "device", "us", "iops" };
	static const char *const lead[] = { "scenario", "row" };
	static const char *const vals[] = { "fio", "iter", "pingpong", NULL };
	struct il_table a, b, out;
	const struct il_table *in[2] = { &a, &b };
	char *csv;

	assert_int_equal(il_table_init(&a, "fio", 2, ca), 0);
	assert_int_equal(il_table_init(&b, "pingpong", 3, cb), 0);
	il_table_add_row(&a);
	il_table_set_str(&a, 0, 0, "sda");
	il_table_set_int(&a, 0, 1, 1200);
	il_table_add_row(&b);
	il_table_set_str(&b, 0, 0, "pp, 2");
	il_table_set_real(&b, 0, 1, 3.5, 3);
	assert_int_equal(il_table_long(&out, "", in, 2, lead, 2, vals), 0);
	assert_int_equal(out.ncols, 5);
	assert_string_equal(out.cols[4], "us"); /* union in first-seen order */
	assert_int_equal(out.nrows, 2);
	assert_true(empty(&out, 1, "row") && empty(&out, 0, "us") && empty(&out, 1, "iops"));
	assert_int_equal(at(&out, 1, "us")->prec, 3);
	csv = render(&il_output_csv, (const struct il_table *const[]){ &out }, 1);
	assert_string_equal(csv, "scenario,row,device,iops,us\n"
				 "fio,iter,sda,1200,-\n"
				 "pingpong,-,\"pp, 2\",-,3.500\n");
	free(csv);
	il_table_free(&out);

	/* Titles as the one leading column. */
	assert_int_equal(il_table_long_titles(&out, in, 2, "table"), 0);
	assert_string_equal(str(&out, 1, "table"), "pingpong");
	il_table_free(&out);

	/* A table column named like a leading one is refused. */
	assert_int_equal(il_table_long(&out, "", in, 2, cb, 1, vals), -1);
	assert_int_equal(errno, EINVAL);
	il_table_free(&a);
	il_table_free(&b);
}

/* Per format: text summaries, machine summaries, or one long table (a single table as it is). */
static void test_result_tables(void **state)
{
	static const char *const lead[] = { "scenario" };
	static const char *const la[] = { "fio" }, *const lb[] = { "idle" };
	struct il_summary_spec spec = PAIRED_SPEC;
	struct il_table a, b, sa, sb;
	struct il_result_part parts[2] = { { &a, &sa, la }, { &b, &sb, lb } };
	struct il_result_out o;

	assert_int_equal(il_table_init(&a, "fio", 6, pm_cols), 0);
	assert_int_equal(il_table_init(&b, "idle", 6, pm_cols), 0);
	fill_two_govs(&a, "sda");
	fill_two_govs(&b, "idle");
	assert_int_equal(il_summary_table(&sa, "fio summary", &a, &spec), 0);
	assert_int_equal(il_summary_table(&sb, "idle summary", &b, &spec), 0);

	assert_int_equal(il_result_tables(&o, "json", parts, 2, lead, 1, "n"), 0);
	assert_int_equal(o.n, 4);
	assert_ptr_equal(o.tables[1], &sa);
	il_result_out_free(&o);

	assert_int_equal(il_result_tables(&o, "table", parts, 2, lead, 1, "note"), 0);
	assert_int_equal(o.n, 4);
	assert_ptr_equal(o.tables[2], &b);
	assert_string_equal(o.tables[1]->title, "fio summary (note)");
	assert_int_equal(il_table_col(o.tables[1], "mean ± ci"), 4);
	il_result_out_free(&o);

	assert_int_equal(il_result_tables(&o, "csv", parts, 2, lead, 1, NULL), 0);
	assert_int_equal(o.n, 1);
	assert_string_equal(o.tables[0]->cols[0], "scenario");
	assert_string_equal(o.tables[0]->cols[1], "row");
	assert_int_equal(o.tables[0]->nrows, a.nrows + b.nrows + sa.nrows + sb.nrows);
	/* Every iteration row first, then the summaries. */
	assert_string_equal(str(o.tables[0], a.nrows + b.nrows - 1, "row"), "iter");
	assert_string_equal(str(o.tables[0], a.nrows + b.nrows - 1, "scenario"), "idle");
	assert_string_equal(str(o.tables[0], a.nrows + b.nrows, "row"), "summary");
	assert_string_equal(str(o.tables[0], a.nrows + b.nrows, "scenario"), "fio");
	il_result_out_free(&o);

	/* No summaries: no "row" column; one table alone: as it is. */
	parts[0].summary = parts[1].summary = NULL;
	assert_int_equal(il_result_tables(&o, "tsv", parts, 2, lead, 1, NULL), 0);
	assert_int_equal(il_table_col(o.tables[0], "row"), -1);
	il_result_out_free(&o);
	assert_int_equal(il_result_tables(&o, "csv", parts, 1, lead, 1, NULL), 0);
	assert_ptr_equal(o.tables[0], &a);
	il_result_out_free(&o);
	il_table_free(&sa);
	il_table_free(&sb);
	il_table_free(&a);
	il_table_free(&b);
}

static void test_text_columns(void **state)
{
	assert_int_equal(il_text_columns(""), 0);
	assert_int_equal(il_text_columns("abc"), 3);
	assert_int_equal(il_text_columns("1.0 ± 2 %"), 9);
	assert_int_equal(il_text_columns("µs"), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_paired),
		cmocka_unit_test(test_summary_pairing_and_welch),
		cmocka_unit_test(test_summary_ensemble_envelope),
		cmocka_unit_test(test_summary_empty_cells_and_baseline),
		cmocka_unit_test(test_summary_groups_and_ranges),
		cmocka_unit_test(test_summary_text),
		cmocka_unit_test(test_long_table),
		cmocka_unit_test(test_set_count),
		cmocka_unit_test(test_result_tables),
		cmocka_unit_test(test_text_columns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
