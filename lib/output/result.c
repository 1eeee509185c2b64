// SPDX-License-Identifier: GPL-2.0-only
/*
 * result.c - the tables a command prints of its results and their summaries, per format
 * (see il_result_tables() in summary.h): summaries shown as text for people, as numbers
 * for machines, and every table in one long table for csv and tsv.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "summary.h"

#define ROW_COL "row"

static bool is_long_format(const char *format)
{
	return !strcmp(format, "csv") || !strcmp(format, "tsv");
}

static int count_tables(const struct il_result_part *parts, int n, bool *any_summary)
{
	int k = 0;

	*any_summary = false;
	for (int i = 0; i < n; i++) {
		k++;
		if (parts[i].summary) {
			k++;
			*any_summary = true;
		}
	}
	return k;
}

/* csv, tsv: the leading texts of each table, plus "iter" / "summary" when summaries are there. */
static int long_table(struct il_result_out *o, const struct il_result_part *parts, int n,
		      const char *const *lead_names, int nlead, bool any_summary)
{
	int nl = nlead + any_summary, nt = 0, ret;
	const struct il_table **in = calloc(2 * (size_t)n + 1, sizeof(*in));
	const char **names = calloc((size_t)nl + 1, sizeof(*names));
	const char **vals = calloc((2 * (size_t)n + 1) * ((size_t)nl + 1), sizeof(*vals));

	ret = !in || !names || !vals ? -1 : 0;
	for (int k = 0; !ret && k < nlead; k++)
		names[k] = lead_names[k];
	if (!ret && any_summary)
		names[nlead] = ROW_COL;
	/* The rows tables first: their columns lead, and the summaries' follow. */
	for (int s = 0; !ret && s < 2; s++) {
		for (int i = 0; i < n; i++) {
			const struct il_table *t = s ? parts[i].summary : parts[i].rows;

			if (!t)
				continue;
			const char **v = vals + (size_t)nt * (size_t)nl;

			for (int k = 0; k < nlead; k++)
				v[k] = parts[i].lead ? parts[i].lead[k] : NULL;
			if (any_summary)
				v[nlead] = s ? "summary" : "iter";
			in[nt++] = t;
		}
	}
	if (!ret)
		ret = il_table_long(&o->own[o->nown], "", in, nt, names, nl, vals);
	if (!ret)
		o->tables[o->n++] = &o->own[o->nown++];
	else if (!errno)
		errno = ENOMEM;
	free(in);
	free(names);
	free(vals);
	return ret;
}

static int text_summary(struct il_result_out *o, const struct il_table *sum, const char *note)
{
	size_t len = strlen(sum->title) + (note ? strlen(note) : 0) + 4;
	char *title = malloc(len);
	int ret;

	if (!title)
		return -1;
	if (note)
		snprintf(title, len, "%s (%s)", sum->title, note);
	else
		snprintf(title, len, "%s", sum->title);
	ret = il_summary_text(&o->own[o->nown], title, sum);
	free(title);
	if (ret)
		return -1;
	o->tables[o->n++] = &o->own[o->nown++];
	return 0;
}

int il_result_tables(struct il_result_out *o, const char *format,
		     const struct il_result_part *parts, int n, const char *const *lead_names,
		     int nlead, const char *note)
{
	bool any_summary, text = !strcmp(format, "table");
	int total = count_tables(parts, n, &any_summary);

	memset(o, 0, sizeof(*o));
	o->tables = calloc((size_t)total + 1, sizeof(*o->tables));
	o->own = calloc((size_t)total + 1, sizeof(*o->own));
	if (!o->tables || !o->own)
		goto nomem;
	if (is_long_format(format) && total > 1) {
		if (long_table(o, parts, n, lead_names, nlead, any_summary))
			goto fail;
		return 0;
	}
	for (int i = 0; i < n; i++) {
		o->tables[o->n++] = parts[i].rows;
		if (!parts[i].summary)
			continue;
		if (!text)
			o->tables[o->n++] = parts[i].summary;
		else if (text_summary(o, parts[i].summary, note))
			goto nomem;
	}
	return 0;
nomem:
	errno = ENOMEM;
fail:
	il_result_out_free(o);
	return -1;
}

void il_result_out_free(struct il_result_out *o)
{
	for (int i = 0; i < o->nown; i++)
		il_table_free(&o->own[i]);
	free(o->own);
	free(o->tables);
	memset(o, 0, sizeof(*o));
}
