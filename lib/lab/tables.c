// SPDX-License-Identifier: GPL-2.0-only
/*
 * tables.c - lab results as tables: the linux-pm row, the per-state and per-CPU details.
 *
 * DOC: the linux-pm table
 *
 * Columns, as in the seeds (Loehle's "device gov iter iops idles idle_misses
 * idle_miss_ratio belows aboves") with the score column named after the scenario's score,
 * then joules, watts (model values; "-" when the platform has no power numbers),
 * nightmares, nightmare_s, wakeup_p99_us, then wakeup_p50_us, wakeup_mean_us and wakeup_max_us
 * (mean and max exact, the percentiles within 0.1 %: metrics.h), and one usage_<state>
 * column per state.
 */
#include <stdio.h>
#include <string.h>

#include "tables.h"

static const char *const pm_fixed[] = { "device", "gov", "iter" };
static const char *const pm_counts[] = {
	"idles", "idle_misses", "idle_miss_ratio", "belows", "aboves",
	"joules", "watts", "nightmares", "nightmare_s", "wakeup_p99_us",
	"wakeup_p50_us", "wakeup_mean_us", "wakeup_max_us",
};

int il_report_pm_init(struct il_table *t, const char *title, const struct il_scenario *scn,
		      const struct il_driver *drv)
{
	char name[IL_NAME_LEN + 8];

	if (il_table_init(t, title, 3, pm_fixed))
		return -1;
	if (il_table_add_col(t, scn->score) < 0)
		goto fail;
	for (size_t i = 0; i < sizeof(pm_counts) / sizeof(pm_counts[0]); i++)
		if (il_table_add_col(t, pm_counts[i]) < 0)
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

static void set_energy(struct il_table *t, int row, int col, const struct il_summary *s)
{
	if (!s->energy_known)
		return; /* the cells stay empty: "-" */
	il_table_set_real(t, row, col, s->joules, 2);
	il_table_set_real(t, row, col + 1, s->watts, 3);
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
	il_table_set_int(t, row, c++, (s64)s->idles);
	il_table_set_int(t, row, c++, (s64)s->idle_misses);
	il_table_set_real(t, row, c++, s->idle_miss_ratio, 3);
	il_table_set_int(t, row, c++, (s64)s->belows);
	il_table_set_int(t, row, c++, (s64)s->aboves);
	set_energy(t, row, c, s);
	c += 2;
	il_table_set_int(t, row, c++, (s64)s->nightmares);
	il_table_set_real(t, row, c++, s->nightmare_s, 3);
	il_table_set_real(t, row, c++, (double)s->wake_p99_ns / 1e3, 3);
	il_table_set_real(t, row, c++, (double)s->wake_p50_ns / 1e3, 3);
	il_table_set_real(t, row, c++, s->wake_mean_ns / 1e3, 3);
	il_table_set_real(t, row, c++, (double)s->wake_max_ns / 1e3, 3);
	for (int i = 0; i < res->nstates && c < t->ncols; i++)
		il_table_set_int(t, row, c++, (s64)s->usage[i]);
	if (c < t->ncols) /* il_report_pm_add_rejected() */
		il_table_set_int(t, row, c++, (s64)s->rejecteds);
	return 0;
}

int il_report_pm_add_rejected(struct il_table *t)
{
	return il_table_add_col(t, "rejected") < 0 ? -1 : 0;
}

static const char *const state_cols[] = {
	"state", "usage", "time_s", "time_pct", "above", "below", "nightmares", "nightmare_s",
};

int il_report_states(struct il_table *t, const struct il_lab_result *res)
{
	const struct il_summary *s = &res->sum;
	double total_ns = (double)res->m.duration_ns * res->ncpus;

	if (il_table_init(t, "states", 8, state_cols))
		return -1;
	if (res->can_reject && il_table_add_col(t, "rejected") < 0)
		return -1;
	for (int i = 0; i < res->nstates; i++) {
		int row = il_table_add_row(t);

		if (row < 0 || il_table_set_str(t, row, 0, res->drv.states[i].name))
			return -1;
		il_table_set_int(t, row, 1, (s64)s->usage[i]);
		il_table_set_real(t, row, 2, (double)s->time_ns[i] / 1e9, 6);
		il_table_set_real(t, row, 3,
				  total_ns > 0 ? 100.0 * (double)s->time_ns[i] / total_ns : 0.0, 2);
		il_table_set_int(t, row, 4, (s64)s->above[i]);
		il_table_set_int(t, row, 5, (s64)s->below[i]);
		il_table_set_int(t, row, 6, (s64)s->state_nightmares[i]);
		il_table_set_real(t, row, 7, (double)s->state_nightmare_ns[i] / 1e9, 6);
		if (res->can_reject)
			il_table_set_int(t, row, 8, (s64)s->rejected[i]);
	}
	return 0;
}

static const char *const cpu_cols[] = {
	"cpu", "idles", "aboves", "belows", "busy_pct", "wakeups", "poll_limits", "tick_stops",
	"ticks_retained",
};

int il_report_cpus(struct il_table *t, const struct il_lab_result *res)
{
	double dur = (double)res->m.duration_ns;

	if (il_table_init(t, "cpus", 9, cpu_cols))
		return -1;
	for (unsigned int c = 0; c < res->ncpus; c++) {
		const struct il_cpu_stats *cs = &res->m.cpu[c];
		u64 idles = 0, above = 0, below = 0;
		int row = il_table_add_row(t);

		if (row < 0)
			return -1;
		for (int i = 0; i < res->nstates; i++) {
			idles += cs->st[i].usage;
			above += cs->st[i].above;
			below += cs->st[i].below;
		}
		il_table_set_int(t, row, 0, c);
		il_table_set_int(t, row, 1, (s64)idles);
		il_table_set_int(t, row, 2, (s64)above);
		il_table_set_int(t, row, 3, (s64)below);
		il_table_set_real(t, row, 4, dur > 0 ? 100.0 * (double)cs->busy_ns / dur : 0.0, 2);
		il_table_set_int(t, row, 5, (s64)cs->wakeups);
		il_table_set_int(t, row, 6, (s64)cs->poll_limits);
		il_table_set_int(t, row, 7, (s64)cs->tick_stops);
		il_table_set_int(t, row, 8, (s64)cs->ticks_retained);
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
	for (size_t i = 0; i < sizeof(text) / sizeof(text[0]); i++) {
		int row = il_table_add_row(t);

		if (row < 0 || il_table_set_str(t, row, 0, text[i].k) ||
		    il_table_set_str(t, row, 1, text[i].v))
			return -1;
	}
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		int row = il_table_add_row(t);

		if (row < 0 || il_table_set_str(t, row, 0, nums[i].k))
			return -1;
		il_table_set_int(t, row, 1, nums[i].v);
	}
	return 0;
}
