/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sweep_rows.h - a sweep's rows: each case's row as named texts (a local sweep's own cells
 * as the text formats print them, or a per-case CSV file that `idlelab run` wrote, which
 * merge reads), turned back into typed cells in one table, so that a merge of the per-case
 * outputs gives the same bytes as the local sweep of the same cases; and its summary.
 */
#ifndef IDLELAB_SWEEP_ROWS_H
#define IDLELAB_SWEEP_ROWS_H

#include <stdbool.h>
#include <stddef.h>

struct il_table;

struct il_sweep_rec {
	long long case_no; /* the "case" column: the case's index in the sweep */
	int n;
	char **names;
	char **texts;
};

/**
 * il_sweep_rec_set - the row of one case from @n column @names and @texts
 *
 * The first column must be "case". The "gov" column of the linux-pm row is dropped (the
 * "governor" label has it), and so is a column whose name came earlier (the label wins).
 * Return: 0, or -1 (errno ENOMEM, or EINVAL for a missing or bad "case" column).
 */
int il_sweep_rec_set(struct il_sweep_rec *rec, int n, const char *const *names,
		     const char *const *texts);
void il_sweep_rec_free(struct il_sweep_rec *rec);

/**
 * il_sweep_table - the table "sweep" of @recs, sorted here by case number: the union of the
 * records' columns in order of first appearance; a case without a column (another
 * platform's states) has an empty cell; each text typed back ("-" empty, integer, real with
 * its decimals, else text)
 * Return: 0, or -1 (ENOMEM). @t is initialised here; free it with il_table_free().
 */
int il_sweep_table(struct il_table *t, struct il_sweep_rec *recs, size_t n);
/** il_sweep_has_iterations - whether a row of @t has an iteration other than 0 */
bool il_sweep_has_iterations(const struct il_table *t);
/**
 * il_sweep_summary - the table "summary" of @t: per platform, parameter values (the columns
 * between "platform" and "iter") and device, each governor against the first, paired by
 * seed; iteration k ran model variant k % @ensemble (0: no ensemble), whose intervals the
 * summary's envelop (lib/output/summary.h)
 * Return: 0, or -1 (ENOMEM).
 */
int il_sweep_summary(struct il_table *sum, const struct il_table *t, int ensemble);

#endif /* IDLELAB_SWEEP_ROWS_H */
