// SPDX-License-Identifier: GPL-2.0-only
/*
 * tables.c - lab results as tables: the linux-pm row, the per-state and per-CPU details.
 *
 * DOC: the linux-pm table
 *
 * The columns after device, gov, iter and the score are the catalogue's (lib/metrics:
 * metrics.h); today, as in the seeds (Loehle's "device gov iter iops idles idle_misses
 * idle_miss_ratio belows aboves") with the score column named after the scenario's score,
 * then rejected, joules, watts (model values; "-" when the platform has no power numbers),
 * nightmares, nightmare_s, wakeup_p99_us, then wakeup_p50_us, wakeup_mean_us and
 * wakeup_max_us (mean and max exact, the percentiles within 0.1 %: metrics.h), and one
 * usage_<state> column per state.
 */
#include <stdio.h>
#include <string.h>

#include "tables.h"
#include "util/array.h"

static const char *const pm_fixed[] = { "device", "gov", "iter" };

/* The columns of the catalogue's lines in @table (metrics.h), after the table's own. */
static int add_catalogue_cols(struct il_table *t, unsigned int table)
{
	for (int i = 0; i < il_metric_count(); i++)
		if ((il_metric_at(i)->tables & table) &&
		    il_table_add_col(t, il_metric_at(i)->name) < 0)
			return -1;
	return 0;
}

/* One cell of catalogue line @d from @s; an energy value stays empty ("-") when unknown. */
static void set_metric(struct il_table *t, int row, int col, const struct il_metric_def *d,
		       const struct il_summary *s, int state)
{
	if (d->energy && !s->energy_known)
		return;
	if (d->prec == IL_PREC_COUNT)
		il_table_set_int(t, row, col, (s64)il_metric_count_value(d, s, state));
	else
		il_table_set_real(t, row, col, il_metric_value(d, s, state), d->prec);
}

/* The cells of the catalogue's lines in @table from column @col on; Return: the next column. */
static int set_catalogue_cells(struct il_table *t, int row, int col, unsigned int table,
			       const struct il_summary *s, int state)
{
	for (int i = 0; i < il_metric_count(); i++)
		if (il_metric_at(i)->tables & table)
			set_metric(t, row, col++, il_metric_at(i), s, state);
	return col;
}

int il_report_pm_init(struct il_table *t, const char *title, const struct il_scenario *scn,
		      const struct il_driver *drv)
{
	char name[IL_NAME_LEN + 8];

	if (il_table_init(t, title, 3, pm_fixed))
		return -1;
	if (il_table_add_col(t, scn->score) < 0 || add_catalogue_cols(t, IL_MT_PM))
		goto fail;
	for (int i = 0; i < drv->state_count; i++) {
		snprintf(name, sizeof(name), "usage_%s", drv->states[i].name);
		if (il_table_add_col(t, name) < 0)
			goto fail;
	}
	return 0;
fail:
	il_table_free(t);
	return -1;
}

int il_report_pm_row(struct il_table *t, const char *gov, int iter, const struct il_scenario *scn,
		     const struct il_lab_result *res)
{
	const struct il_summary *s = &res->sum;
	int row = il_table_add_row(t), c = 0;

	if (row < 0)
		return -1;
	if (il_table_set_str(t, row, c++, res->label) || il_table_set_str(t, row, c++, gov))
		return -1;
	il_table_set_int(t, row, c++, iter);
	il_table_set_real(t, row, c++, res->score, scn->score_prec);
	c = set_catalogue_cells(t, row, c, IL_MT_PM, s, 0);
	for (int i = 0; i < res->nstates && c < t->ncols; i++)
		il_table_set_int(t, row, c++, (s64)s->usage[i]);
	return 0;
}

int il_report_states(struct il_table *t, const struct il_lab_result *res)
{
	static const char *const head[] = { "state" };

	if (il_table_init(t, "states", 1, head) || add_catalogue_cols(t, IL_MT_STATES))
		return -1;
	for (int i = 0; i < res->nstates; i++) {
		int row = il_table_add_row(t);

		if (row < 0 || il_table_set_str(t, row, 0, res->drv.states[i].name))
			return -1;
		set_catalogue_cells(t, row, 1, IL_MT_STATES, &res->sum, i);
	}
	return 0;
}

int il_report_cpus(struct il_table *t, const struct il_lab_result *res)
{
	static const char *const head[] = { "cpu" };
	struct il_summary one;

	if (il_table_init(t, "cpus", 1, head) || add_catalogue_cols(t, IL_MT_CPUS))
		return -1;
	for (unsigned int c = 0; c < res->ncpus; c++) {
		int row = il_table_add_row(t);

		if (row < 0)
			return -1;
		il_metrics_summarize_cpu(&res->m, c, &one);
		il_table_set_int(t, row, 0, c);
		set_catalogue_cells(t, row, 1, IL_MT_CPUS, &one, 0);
	}
	return 0;
}

static const char *const run_cols[] = { "key", "value" };

int il_report_run_info(struct il_table *t, const struct il_lab_spec *spec,
		       const struct il_lab_result *res)
{
	char args[256];
	struct { const char *k; const char *v; } text[] = {
		{ "platform", spec->plat->name },
		{ "governor", spec->preset->name },
		{ "scenario", spec->scn->name },
		{ "params", args },
		{ "energy",
		  res->sum.energy_known ? "model values (platform power numbers)" : "unknown" },
	};
	struct { const char *k; s64 v; } nums[] = {
		{ "cpus", res->ncpus }, { "hz", res->hz }, { "time_ns", (s64)res->m.duration_ns },
		{ "seed", (s64)spec->seed }, { "events", (s64)res->events },
		{ "selects", (s64)res->selects },
		{ "wakeup_p50_ns", (s64)res->sum.wake_p50_ns },
		{ "wakeup_p90_ns", (s64)res->sum.wake_p90_ns },
		{ "wakeup_p99_ns", (s64)res->sum.wake_p99_ns },
		{ "wakeup_p999_ns", (s64)res->sum.wake_p999_ns },
		{ "wakeup_mean_ns", (s64)(res->sum.wake_mean_ns + 0.5) },
		{ "wakeup_max_ns", (s64)res->sum.wake_max_ns },
		{ "wakeup_count", (s64)res->sum.wake_count },
		{ "tick_stops", (s64)res->sum.tick_stops },
		{ "ticks_retained", (s64)res->sum.ticks_retained },
	};

	il_scn_format_args(spec->scn, &spec->args, args, sizeof(args));
	if (il_table_init(t, "run", 2, run_cols))
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(text); i++) {
		int row = il_table_add_row(t);

		if (row < 0 || il_table_set_str(t, row, 0, text[i].k) ||
		    il_table_set_str(t, row, 1, text[i].v))
			return -1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(nums); i++) {
		int row = il_table_add_row(t);

		if (row < 0 || il_table_set_str(t, row, 0, nums[i].k))
			return -1;
		il_table_set_int(t, row, 1, nums[i].v);
	}
	return 0;
}
