/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * step_output.h - the output of `idlelab step`: table, side-by-side table, CSV and JSON.
 *
 * The governors run in lockstep, one script line at a time; every row is written to memory
 * and only step_output_finish() hands back the whole text, so a run that fails half-way
 * prints nothing.
 */
#ifndef IDLELAB_STEP_OUTPUT_H
#define IDLELAB_STEP_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"
#include "step/step.h"

struct step_view {
	const struct il_platform *plat;
	unsigned int hz;
	u64 tick_nsec;
	const char *input_name;
	const struct il_step_script *script;
	int ngov;
	const struct il_preset *const *presets;
	enum cli_format format;
	bool all_vars;
	bool detail;
	bool diff_only;  /* --diff: only rows where the governors differ are given */
};

struct step_output;

/** step_output_start - prepare the output of @view (which must outlive it); NULL if no memory */
struct step_output *step_output_start(const struct step_view *view);

/**
 * step_output_row - add the decisions of all governors (@recs[0..ngov-1]) for script entry
 * number @step (0-based)
 */
void step_output_row(struct step_output *out, int step, const struct il_step_record *recs);

/**
 * step_output_finish - the whole output in a malloc'ed buffer (*@len bytes); frees @out
 * Return: the buffer, or NULL (out of memory, or JSON without libjansson).
 */
char *step_output_finish(struct step_output *out, size_t *len);

/** step_output_free - discard @out without producing anything */
void step_output_free(struct step_output *out);

#endif /* IDLELAB_STEP_OUTPUT_H */
