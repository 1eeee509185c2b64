// SPDX-License-Identifier: GPL-2.0-only
/*
 * input.c - reading the JSON that idlelab writes and telling which command wrote it, from
 * the tables it holds (model.h, step 1). Anything else is refused with the reason.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "util/array.h"

#ifdef HAVE_JANSSON

const char *il_rpt_kind_name(enum il_rpt_kind kind)
{
	static const char *const names[] = {
		[IL_RPT_RUN] = "run", [IL_RPT_COMPARE] = "compare", [IL_RPT_BATTERY] = "battery",
		[IL_RPT_SWEEP] = "sweep", [IL_RPT_REPLAY] = "replay", [IL_RPT_STATS] = "stats",
		[IL_RPT_VERDICT] = "verdict", [IL_RPT_FIDELITY] = "fidelity",
	};

	return (unsigned int)kind < ARRAY_SIZE(names) ? names[kind] : "?";
}

/* A table: a non-empty array of objects. */
static bool is_table(const json_t *t)
{
	size_t i;
	json_t *row;

	if (!json_is_array(t) || !json_array_size(t))
		return false;
	json_array_foreach(t, i, row)
		if (!json_is_object(row))
			return false;
	return true;
}

static bool rows_have(const json_t *t, const char *const *keys)
{
	size_t i;
	json_t *row;

	if (!is_table(t))
		return false;
	json_array_foreach(t, i, row)
		for (const char *const *k = keys; *k; k++)
			if (!json_object_get(row, *k))
				return false;
	return true;
}

/* Every row of @t has a string in column @key. */
static bool rows_have_string(const json_t *t, const char *key)
{
	size_t i;
	json_t *row;

	json_array_foreach(t, i, row)
		if (!json_is_string(json_object_get(row, key)))
			return false;
	return true;
}

static bool is_kv_table(const json_t *t)
{
	static const char *const kv[] = { "key", "value", NULL };

	return rows_have(t, kv);
}

static bool is_pm_table(const json_t *t)
{
	const char *const pm[] = { "device", "gov", "iter", IL_RPT_PM_COL(idles),
				   IL_RPT_PM_COL(idle_misses), IL_RPT_PM_COL(belows),
				   IL_RPT_PM_COL(aboves), NULL };
	size_t i;
	json_t *row;

	if (!rows_have(t, pm))
		return false;
	json_array_foreach(t, i, row)
		if (!json_is_string(json_object_get(row, "gov")) ||
		    !json_is_number(json_object_get(row, IL_RPT_PM_COL(idles))))
			return false;
	return true;
}

/* A summary of a linux-pm table (lib/output/summary.h), which the report does not draw. */
bool il_rpt_is_summary(const json_t *t)
{
	static const char *const sum[] = { "metric", "n", "mean", "sd", "min", "max", NULL };

	return rows_have(t, sum);
}

/* An open-loop bound table or a gap to it (replay, run/compare --bound): frontier.c draws it. */
bool il_rpt_is_bound(const char *key)
{
	return !strncmp(key, "bound", 5) || !strncmp(key, "gap to bound", 12);
}

/*
 * Every table of @root is a linux-pm table, except the key/value table @except if not NULL,
 * summaries of the linux-pm tables and the open-loop bound's tables.
 */
static bool all_pm_tables(const json_t *root, const char *except)
{
	const char *key;
	json_t *t;
	int n = 0;

	json_object_foreach((json_t *)root, key, t) {
		if ((except && !strcmp(key, except)) || il_rpt_is_summary(t) ||
		    il_rpt_is_bound(key))
			continue;
		if (!is_pm_table(t))
			return false;
		n++;
	}
	return n > 0;
}

/*
 * Every row of a verdict's cells names its governor, baseline, platform, scenario, metric
 * and verdict as strings: a row without one has no place in the heat maps, so the input is
 * refused, with the row and the field, rather than the row skipped.
 */
static bool verdict_rows_ok(const json_t *rows, const char *const *keys, struct il_error *why)
{
	size_t i;
	json_t *row;

	json_array_foreach(rows, i, row)
		for (const char *const *k = keys; *k; k++)
			if (!json_is_string(json_object_get(row, *k))) {
				il_error_set(why, NULL, 0, "a verdict whose verdict_cells row "
					     "%zu has no %s (a string is needed; the row would "
					     "have no heat-map cell)", i + 1, *k);
				return false;
			}
	return true;
}

int il_rpt_detect(const json_t *root, enum il_rpt_kind *kind, struct il_error *why)
{
	const char *const sweep[] = { "case", "governor", "platform", "iter",
				      IL_RPT_PM_COL(idles), NULL };
	const char *const replay[] = { "governor", IL_RPT_PM_COL(idles), "agree_pct", NULL };
	static const char *const stats[] = { "cpu", "state", "name", "entries", NULL };
	static const char *const verdict[] = { "gov", "baseline", "platform", "scenario",
					       "metric_key", "verdict", NULL };
	const json_t *trace = json_object_get(root, "trace");
	const json_t *rows = json_object_get(root, "sweep");
	static const char *const fidelity[] = { "group", "family", "metric", "seeds", "lab_mean",
						"sized", NULL };
	const json_t *govs = json_object_get(root, "governors");

	if (!json_is_object(root)) {
		il_error_set(why, NULL, 0,
			     "not idlelab JSON: the top level is not an object of tables");
		return -1;
	}
	if (rows_have(rows, sweep) && rows_have_string(rows, "governor") &&
	    rows_have_string(rows, "platform"))
		*kind = IL_RPT_SWEEP;
	else if (is_kv_table(trace) && rows_have(govs, replay) &&
		 rows_have_string(govs, "governor"))
		*kind = IL_RPT_REPLAY;
	else if (is_kv_table(trace) && rows_have(json_object_get(root, "states"), stats))
		*kind = IL_RPT_STATS;
	else if (is_kv_table(json_object_get(root, "fidelity")) &&
		 rows_have(json_object_get(root, "fidelity numbers"), fidelity))
		*kind = IL_RPT_FIDELITY;
	else if (is_kv_table(json_object_get(root, "verdict")) &&
		 rows_have(json_object_get(root, "verdict_cells"), verdict)) {
		if (!verdict_rows_ok(json_object_get(root, "verdict_cells"), verdict, why))
			return -1;
		*kind = IL_RPT_VERDICT;
	} else if (is_pm_table(json_object_get(root, "summary")) &&
		 is_kv_table(json_object_get(root, "run")))
		*kind = IL_RPT_RUN;
	else if (is_kv_table(json_object_get(root, "battery")) && all_pm_tables(root, "battery"))
		*kind = IL_RPT_BATTERY;
	else if (all_pm_tables(root, NULL))
		*kind = IL_RPT_COMPARE;
	else {
		il_error_set(why, NULL, 0, "not a result idlelab report reads (the JSON of run, "
			     "compare, battery, sweep, merge, replay, stats, verdict or fidelity)");
		return -1;
	}
	return 0;
}

int il_rpt_input_parse(struct il_rpt_input *in, const char *name, const char *text,
		       struct il_error *err)
{
	json_error_t jerr;

	memset(in, 0, sizeof(*in));
	in->root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	if (!in->root) {
		il_error_set(err, NULL, 0, "not JSON: line %d, column %d: %s", jerr.line,
			     jerr.column, jerr.text);
		errno = EINVAL;
		return -1;
	}
	if (il_rpt_detect(in->root, &in->kind, err)) {
		il_rpt_input_free(in);
		errno = EINVAL;
		return -1;
	}
	in->name = strdup(name);
	if (!in->name) {
		il_error_set(err, NULL, 0, "%s", strerror(ENOMEM));
		il_rpt_input_free(in);
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

void il_rpt_input_free(struct il_rpt_input *in)
{
	json_decref(in->root);
	free(in->name);
	memset(in, 0, sizeof(*in));
}

#endif /* HAVE_JANSSON */
