/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report.h - `idlelab report`: one offline HTML page of tables and SVG charts from the
 * JSON results idlelab writes (run, compare, battery, sweep, merge, replay, stats).
 *
 * DOC: report page
 *
 *  1. il_page_add() parses one result and tells its kind from its tables (model.h); a
 *     file that is not an idlelab result is refused with the reason.
 *  2. il_page_write() builds the model and writes the page to a FILE: the inputs, then a
 *     section per chart kind that has data (relative to the baseline, sweep curves, idle
 *     misses, state residency, energy, residency histograms), then every input table as
 *     it is. Charts are inline <svg>; the page has no script, no external file, no link
 *     out of itself, and is well-formed XML (XHTML syntax) as well as HTML.
 *  3. The library does not print or exit; errors come back as text in @err, with errno
 *     EINVAL for a bad option (an unknown baseline, metric or sweep parameter).
 */
#ifndef IDLELAB_REPORT_REPORT_H
#define IDLELAB_REPORT_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "../error.h"

struct il_page_opts {
	const char *title;          /* NULL: "idlelab report" */
	const char *baseline;       /* NULL: the first governor of the first lab or sweep result */
	const char *sweep_x;        /* the swept parameter on the x axis; NULL: the first numeric */
	/* sweep y metrics, NULL-terminated; NULL: above_pct, below_pct */
	const char *const *metrics;
};

struct il_page;

/** il_page_new - an empty report; NULL with errno ENOMEM, or ENOTSUP without jansson */
struct il_page *il_page_new(void);
/**
 * il_page_add - add the result @text, called @name in the page
 * Return: 0, or -1 with the reason in @err (errno EINVAL: not an idlelab result)
 */
int il_page_add(struct il_page *p, const char *name, const char *text, struct il_error *err);
/** il_page_kind - the kind ("run", "sweep" ...) of input @i */
const char *il_page_kind(const struct il_page *p, int i);
/** il_page_write - write the page; Return: 0, or -1 with the reason in @err */
int il_page_write(struct il_page *p, const struct il_page_opts *o, FILE *out, struct il_error *err);
void il_page_free(struct il_page *p);

#endif /* IDLELAB_REPORT_REPORT_H */
