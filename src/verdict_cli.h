/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * verdict_cli.h - `idlelab verdict` (src/verdict_cli.c) for its command file, and what
 * `idlelab merge` needs of it: the case files of `verdict --emit-jobs` turned back into the
 * verdict, the same bytes as a local one.
 *
 * A case file is the CSV of one line of names and one of values: the verdict's own
 * options (VERDICT_CASE_FIRST_COL, as shell words), the case's index and coordinates,
 * then the fields of struct il_verdict_run in exact text.
 */
#ifndef IDLELAB_VERDICT_CLI_H
#define IDLELAB_VERDICT_CLI_H

/* The first column of a verdict case file (a sweep case file starts with "case"). */
#define VERDICT_CASE_FIRST_COL "verdict_args"

#include <stdio.h>

struct verdict_merge;

/**
 * verdict_main - parse, run and print `idlelab verdict`, whose help text @usage prints
 * Return: the exit code (0, 1, 2, or 3 under --fail-on)
 */
int verdict_main(int argc, char **argv, void (*usage)(FILE *out));

/** verdict_merge_new - an empty merge; NULL when out of memory */
struct verdict_merge *verdict_merge_new(void);
/**
 * verdict_merge_add - add the case file @path (its @n column @names and @texts); the first
 * one sets up the verdict from its options, the others must have the same
 * Return: 0, or the exit code of the failure (message printed)
 */
int verdict_merge_add(struct verdict_merge *m, const char *path, int n, const char *const *names,
		      const char *const *texts);
/**
 * verdict_merge_finish - judge and write the verdict to @out (NULL: stdout) once every case
 * is there; Return: the exit code (0, 1, or 3 under the cases' --fail-on)
 */
int verdict_merge_finish(struct verdict_merge *m, const char *out);
void verdict_merge_free(struct verdict_merge *m);

#endif /* IDLELAB_VERDICT_CLI_H */
