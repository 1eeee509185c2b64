/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sweep_table.h - what `idlelab sweep` and `idlelab merge` share: a case's row as named
 * texts, and writing the rows of all cases as DIR/sweep.csv and DIR/sweep.json.
 *
 * Both commands build every row from text (a local sweep from its own cells as the text
 * formats print them, merge from the per-case CSV files that `idlelab run` wrote), and one
 * function turns the texts back into typed cells, so a merge of the per-case outputs gives
 * the same bytes as the local sweep of the same cases.
 */
#ifndef IDLELAB_SWEEP_TABLE_H
#define IDLELAB_SWEEP_TABLE_H

#include <stddef.h>

#include "output/sweep_rows.h"

/**
 * sweep_write_dir - write @recs (sorted by case number here) as DIR/sweep.csv and sweep.json
 *
 * Columns are the union of the records' columns in order of first appearance; a case
 * without a column (another platform's states) has an empty cell. Both files are written to
 * temporary files and renamed at the end; on failure nothing is left behind, and @dir is
 * removed again if this call created it. Messages go to stderr as "idlelab @cmd: ...".
 * When a case has an iteration other than 0, DIR/summary.csv and DIR/summary.json hold
 * the summary statistics of the iterations (lib/output/summary.h) per platform, parameter
 * values and device, each governor against the first, paired by seed (with --ensemble
 * @ensemble, 0: none, the envelope of the model variants' intervals: lib/output/summary.h);
 * written the same way. Return: a CLI exit code.
 */
int sweep_write_dir(const char *dir, struct il_sweep_rec *recs, size_t n, int ensemble,
		    const char *cmd);

#endif /* IDLELAB_SWEEP_TABLE_H */
