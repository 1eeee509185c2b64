/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * summary_cli.h - what compare, battery and measure share around summary statistics
 * (lib/output/summary.h): --baseline, the note in the summary tables' titles, writing.
 */
#ifndef IDLELAB_SUMMARY_CLI_H
#define IDLELAB_SUMMARY_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli.h"
#include "output/summary.h"

/** summary_check_baseline - @baseline (NULL: none given) is one of the @n @govs; Return: 0 or -1 */
int summary_check_baseline(const char *baseline, const char *const *govs, int n,
			   struct cli_error *err);

/**
 * summary_note - the note in the titles of summary tables: the confidence level, the
 * baseline and the test ("paired by seed" or "Welch"), into @buf. With --ensemble @ensemble
 * (0: none) it says how the intervals combine the variants' (lib/output/summary.h).
 */
const char *summary_note(char *buf, size_t cap, const char *baseline, bool paired,
			 unsigned int ensemble);

/**
 * summary_write - write @n results (with their summaries) in @fmt to @out, as
 * il_result_tables() arranges them; Return: 0, or -1 with errno set
 */
int summary_write(FILE *out, const struct il_output_format *fmt, const struct il_result_part *parts,
		  int n, const char *const *lead_names, int nlead, const char *note);

#endif /* IDLELAB_SUMMARY_CLI_H */
