/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * summary.h - summary statistics of the per-iteration rows of a result table.
 *
 * DOC: summary tables
 *
 * compare, battery, sweep and measure print one row per governor and iteration. When there
 * are several iterations, il_summary_add() reads those rows and writes a second table with
 * one row per group (the @keys columns, e.g. device), metric (every numeric column that is
 * not a key, the governor, the iteration or a @skip column) and governor:
 *
 *   KEYS... GOV metric n mean sd min max ci_lo ci_hi ci_pct baseline test
 *   delta delta_lo delta_hi delta_pct delta_pct_lo delta_pct_hi p
 *
 * ci_lo/ci_hi: the confidence interval of the mean (Student's t, lib/stat); ci_pct: its
 * half-width in % of the mean (perf stat -r's "+- x %"). The delta columns compare the
 * governor with the group's baseline (empty on the baseline's own rows): the difference
 * of the means, its confidence interval, the same in % of the baseline's mean, and the
 * two-sided t-test p-value. test says how: "paired" when the runs share seeds (iteration
 * i of each governor ran seed N+i, and both have the same iterations), else "welch";
 * "paired envelope" or "welch envelope" under an ensemble (below).
 * Cells empty in the input are left out of n; a metric a governor has no number for gets
 * no row. Rows come group by group, metric by metric, governor by governor, in the order
 * the input first shows them, so the output is as deterministic as the input.
 *
 * With an @ensemble of E model variants (iteration k ran variant k % E, compare, battery
 * and sweep --ensemble), the intervals are the verdict's (docs/verdict.md "Intervals"): each
 * variant's own, over its iterations, and the summary's the envelope of them, from the lowest
 * lower bound to the highest upper one; p is the largest of the variants' p-values (the
 * difference holds under every variant at that level). n, mean, sd, min, max and the
 * difference are over all the rows. A variant with one iteration has no interval: with one
 * seed per variant the summary has none either.
 *
 * il_summary_text() turns such a table into the one the table format prints, as
 * perf stat -r does: "2394.1 ± 1.2 %" and "-12.1 % [-14.0, -10.2]".
 */
#ifndef IDLELAB_OUTPUT_SUMMARY_H
#define IDLELAB_OUTPUT_SUMMARY_H

#include "output.h"

struct il_summary_spec {
	const char *const *keys; /* NULL-terminated columns that name a group; NULL: one group */
	const char *gov;         /* the column of what is compared, e.g. "gov" */
	const char *iter;        /* the iteration column: pairs runs, is no metric; NULL: none */
	const char *const *skip; /* NULL-terminated other columns that are no metric; may be NULL */
	const char *baseline;    /* the @gov value compared against; NULL: each group's first */
	bool paired;             /* equal iterations ran the same seed */
	double level;            /* of every interval; 0: IL_STAT_LEVEL (95 %) */
	int ensemble;            /* iteration k ran model variant k % ensemble; 0, 1: none */
};

/**
 * il_summary_column - @name is one of the summary's own columns (metric, n, mean, ...): a
 * metric called so would share that column in the long form of csv and tsv
 */
bool il_summary_column(const char *name);

/** il_summary_init - an empty summary table for the rows of @in; Return: 0, or -1 (errno) */
int il_summary_init(struct il_table *out, const char *title, const struct il_table *in,
		    const struct il_summary_spec *spec);

/**
 * il_summary_add - append to @out the summary of rows [@row0, @row0 + @nrows) of @in
 *
 * A caller whose table holds several separately run groups with the same key texts adds
 * each row range on its own. Return: 0, or -1 with errno EINVAL (a key, governor or
 * iteration column missing, rows out of range, a bad level) or ENOMEM.
 */
int il_summary_add(struct il_table *out, const struct il_table *in, int row0, int nrows,
		   const struct il_summary_spec *spec);

/** il_summary_table - il_summary_init() and il_summary_add() of every row of @in */
int il_summary_table(struct il_table *out, const char *title, const struct il_table *in,
		     const struct il_summary_spec *spec);

/**
 * il_summary_text - the summary table @sum as the table format shows it, titled @title
 *
 * The key and governor columns, metric and n as they are, then "mean ± ci" (the 95 % CI's
 * half-width in % of the mean; absolute when the mean is 0), sd, min, max, "delta [95 %
 * CI]" in % of the baseline (absolute when its mean is 0; "baseline" on the baseline's rows)
 * and p ("<0.001" below 0.001). Columns are padded so the numbers line up.
 * Return: 0, or -1 with errno EINVAL (@sum is no summary table) or ENOMEM.
 */
int il_summary_text(struct il_table *out, const char *title, const struct il_table *sum);

/* One result of a command: its per-iteration table, and that table's summary or NULL. */
struct il_result_part {
	const struct il_table *rows;
	const struct il_table *summary;
	const char *const *lead; /* for the long form: the texts of the leading columns */
};

/* The tables to hand to a format's write(); @own holds the ones made for it. */
struct il_result_out {
	int n;
	const struct il_table **tables;
	int nown;
	struct il_table *own;
};

/**
 * il_result_tables - what a command prints of its @n results in the format named @format
 *
 * table: each rows table, then its summary through il_summary_text(), titled
 *        "SUMMARY-TITLE (@note)" when @note is not NULL;
 * json:  each rows table, then its summary as it is (a key per table, as always);
 * csv, tsv: one table when there is more than one to print: il_table_long() with the
 *        @nlead leading columns @lead_names (each part's @lead texts), then a column "row"
 *        that says "iter" or "summary" when a summary is there; every rows table's rows
 *        first, then every summary's (so the metric columns come before the statistics');
 *        a single table as it is.
 * Return: 0, or -1 with errno ENOMEM / EINVAL.
 */
int il_result_tables(struct il_result_out *o, const char *format,
		     const struct il_result_part *parts, int n, const char *const *lead_names,
		     int nlead, const char *note);
void il_result_out_free(struct il_result_out *o);

#endif /* IDLELAB_OUTPUT_SUMMARY_H */
