// SPDX-License-Identifier: GPL-2.0-only
/*
 * tables.c - a measurement's results as output tables (lib/output/): the runs (the linux-pm
 * row of the seeds: gov iter <metrics> joules, the metric catalogue's columns of measure
 * (lib/metrics: idles idle_misses idle_miss_ratio belows aboves ...), wall_s, and the trace
 * file with --trace), the per-state deltas, and with several
 * iterations their summaries. A value that was not measured (a counter the kernel lacks, a
 * metric without a match, energy without RAPL) is left empty: the formats show "-".
 */
#include <stdlib.h>
#include <string.h>

#include "live.h"
#include "metrics/metrics.h"
#include "output/output.h"
#include "output/summary.h"
#include "util/array.h"

/* Scores like fio's IOPS are whole numbers: no decimals for them, two otherwise. */
static int score_decimals(double v)
{
	return v < 1e15 && v > -1e15 && v == (double)(long long)v ? 0 : 2;
}

static int runs_columns(const struct il_live_session *s, struct il_table *t)
{
	static const char *const head[] = { "gov", "iter" };

	if (il_table_init(t, "runs", 2, head))
		return -1;
	for (int i = 0; i < s->opts->nmetric; i++)
		if (il_table_add_col(t, s->metric[i].name) < 0)
			return -1;
	if (il_table_add_col(t, "joules") < 0)
		return -1;
	for (int i = 0; i < il_metric_count(); i++)
		if ((il_metric_at(i)->tables & IL_MT_LIVE) &&
		    il_table_add_col(t, il_metric_at(i)->name) < 0)
			return -1;
	if (il_table_add_col(t, "wall_s") < 0 ||
	    (s->opts->trace && il_table_add_col(t, "trace") < 0))
		return -1;
	return 0;
}

/* The kernel counters (IL_MC_*) that every CPU and state of @row had. */
static unsigned int row_counters(const struct il_live_run *row)
{
	return (row->have & IL_LF_USAGE ? IL_MC_USAGE : 0) |
	       (row->have & IL_LF_ABOVE ? IL_MC_ABOVE : 0) |
	       (row->have & IL_LF_BELOW ? IL_MC_BELOW : 0) |
	       (row->have & IL_LF_REJECTED ? IL_MC_REJECTED : 0);
}

/*
 * The catalogue's columns of the runs table (metrics.h) from @row's counters, from column
 * @c on; a column made of a counter the kernel lacks stays empty. Return: the next column.
 */
static int runs_metrics(const struct il_live_run *row, struct il_table *t, int r, int c)
{
	unsigned int have = row_counters(row);
	struct il_summary sum;

	memset(&sum, 0, sizeof(sum));
	for (int i = 0; i < row->nstates; i++) {
		sum.usage[i] = row->st[i].usage;
		sum.above[i] = row->st[i].above;
		sum.below[i] = row->st[i].below;
		sum.state_rejected[i] = row->st[i].rejected;
	}
	il_summary_totals(&sum, row->nstates);
	for (int i = 0; i < il_metric_count(); i++) {
		const struct il_metric_def *d = il_metric_at(i);

		bool measured = (d->counters & have) == d->counters;

		if (!(d->tables & IL_MT_LIVE))
			continue;
		if (measured && d->prec == IL_PREC_COUNT)
			il_table_set_int(t, r, c, (s64)il_metric_count_value(d, &sum, 0));
		else if (measured)
			il_table_set_real(t, r, c, il_metric_value(d, &sum, 0), d->prec);
		c++; /* a column not measured stays empty: "-" */
	}
	return c;
}

static int runs_row(const struct il_live_session *s, const struct il_live_run *row,
		    struct il_table *t)
{
	int r = il_table_add_row(t), c = 2;

	if (r < 0 || il_table_set_str(t, r, 0, row->gov))
		return -1;
	il_table_set_int(t, r, 1, row->iter);
	for (int i = 0; i < s->opts->nmetric; i++, c++)
		if (row->metric_rc[i] == IL_METRIC_FOUND)
			il_table_set_real(t, r, c, row->metric[i], score_decimals(row->metric[i]));
	if (row->energy_ok)
		il_table_set_real(t, r, c, row->joules, 2);
	c = runs_metrics(row, t, r, c + 1);
	il_table_set_real(t, r, c, (double)row->wall_ns / 1e9, 3);
	if (s->opts->trace) {
		char path[IL_LIVE_PATH_MAX];

		if (il_live_trace_file(s, row, path, sizeof(path)) ||
		    il_table_set_str(t, r, c + 1, path))
			return -1;
	}
	return 0;
}

int il_live_runs_table(const struct il_live_session *s, struct il_table *t)
{
	if (runs_columns(s, t))
		return -1;
	for (int k = 0; k < s->nrows; k++)
		if (runs_row(s, &s->rows[k], t))
			return -1;
	return 0;
}

int il_live_states_table(const struct il_live_session *s, struct il_table *t)
{
	static const char *const cols[] = { "gov", "iter", "state", "name", "usage", "time_us",
					    "above", "below", "rejected" };

	if (il_table_init(t, "states", (int)ARRAY_SIZE(cols), cols))
		return -1;
	for (int k = 0; k < s->nrows; k++) {
		const struct il_live_run *row = &s->rows[k];

		for (int i = 0; i < row->nstates; i++) {
			const struct il_live_delta *d = &row->st[i];
			int r = il_table_add_row(t);

			if (r < 0 || il_table_set_str(t, r, 0, row->gov) ||
			    il_table_set_str(t, r, 3, row->names[i]))
				return -1;
			il_table_set_int(t, r, 1, row->iter);
			il_table_set_int(t, r, 2, i);
			il_table_set_count(t, r, 4, d->have & IL_LF_USAGE, d->usage);
			il_table_set_count(t, r, 5, d->have & IL_LF_TIME, d->time_us);
			il_table_set_count(t, r, 6, d->have & IL_LF_ABOVE, d->above);
			il_table_set_count(t, r, 7, d->have & IL_LF_BELOW, d->below);
			il_table_set_count(t, r, 8, d->have & IL_LF_REJECTED, d->rejected);
		}
	}
	return 0;
}

/* The governor the summaries compare with: @baseline, else the first one measured. */
static const char *baseline_of(const struct il_live_session *s, const char *baseline)
{
	const char *base = baseline ? baseline : s->gov[0];

	for (int k = 0; k < s->ngov; k++)
		if (!strcmp(s->gov[k], base))
			return base;
	il_live_say(&s->hooks, IL_LIVE_WARNING, "baseline '%s' was not measured: the summaries "
		    "have no deltas", base);
	return base;
}

static int summary_tables(const struct il_live_session *s, const char *baseline,
			  struct il_live_results *r)
{
	static const char *const state_keys[] = { "state", "name", NULL };
	struct il_summary_spec spec = { .gov = "gov", .iter = "iter" };

	r->sum[0] = calloc(1, sizeof(*r->sum[0]));
	r->sum[1] = calloc(1, sizeof(*r->sum[1]));
	if (!r->sum[0] || !r->sum[1])
		return -1;
	/* Welch (not .paired): live runs share no seed; iteration i of each ran at another time. */
	spec.baseline = baseline_of(s, baseline);
	if (il_summary_table(r->sum[0], "runs summary", r->runs, &spec))
		return -1;
	spec.keys = state_keys;
	return il_summary_table(r->sum[1], "states summary", r->states, &spec);
}

int il_live_results_build(const struct il_live_session *s, const char *baseline,
			  struct il_live_results *r)
{
	memset(r, 0, sizeof(*r));
	r->runs = calloc(1, sizeof(*r->runs));
	r->states = calloc(1, sizeof(*r->states));
	if (!r->runs || !r->states || il_live_runs_table(s, r->runs) ||
	    il_live_states_table(s, r->states))
		return -1;
	return s->opts->iter > 1 ? summary_tables(s, baseline, r) : 0;
}

void il_live_results_free(struct il_live_results *r)
{
	struct il_table *all[] = { r->runs, r->states, r->sum[0], r->sum[1] };

	for (size_t i = 0; i < ARRAY_SIZE(all); i++) {
		if (all[i])
			il_table_free(all[i]);
		free(all[i]);
	}
	memset(r, 0, sizeof(*r));
}
