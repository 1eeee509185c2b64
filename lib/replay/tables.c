// SPDX-License-Identifier: GPL-2.0-only
/*
 * tables.c - a replay's results (replay.h) as output tables: the notes, the linux-pm rows
 * of the trace and of every governor, the usage per state, the confusion and tick tables of
 * one governor, the open-loop bound and every row's gap to it (`idlelab replay`; the CLI
 * adds the trace's own table and prints them).
 */
#include <stdio.h>
#include <string.h>

#include "tables.h"
#include "util/array.h"

static const char *state_name(const struct il_driver *drv, int i)
{
	return i < drv->state_count ? drv->states[i].name : "?";
}

/* A percentage of two counts; empty when there is nothing to count. */
static void set_ratio(struct il_table *t, int row, int col, u64 num, u64 den, double scale,
		      int prec)
{
	if (den)
		il_table_set_real(t, row, col, scale * (double)num / (double)den, prec);
}

static int notes_table(struct il_table *t, const struct il_replay *rep,
			const struct il_replay_cfg *cfg)
{
	static const char *const cols[] = { "key", "value" };
	const struct il_replay_notes *n = il_replay_notes(rep);
	char key[48];
	int err = 0;

	if (il_table_init(t, "replay", 2, cols))
		return -1;
	err |= il_table_kv_str(t, "model",
			       "open loop: residency and tick state as recorded (docs/trace.md)");
	if (cfg->sleep_why)
		err |= il_table_kv_str(t, "sleep_length", cfg->sleep_why);
	err |= il_table_kv_int(t, "hz", cfg->hz ? cfg->hz : (cfg->plat->hz ? cfg->plat->hz : 250));
	err |= il_table_kv_int(t, "periods", (s64)n->periods);
	err |= il_table_kv_int(t, "exits_without_enter", (s64)n->exits_without_enter);
	err |= il_table_kv_int(t, "open_at_end", (s64)n->open_at_end);
	err |= il_table_kv_int(t, "lost_exits", (s64)n->enters_while_idle);
	err |= il_table_kv_int(t, "states_beyond_table", (s64)n->bad_state);
	if (cfg->plat->ntables > 1) { /* per-CPU tables: a traced CPU may have none */
		err |= il_table_kv_int(t, "periods_of_cpus_without_table", (s64)n->no_table);
		err |= il_table_kv_str(t, "tables", "per CPU: each CPU's own table");
	}
	err |= il_table_kv_int(t, "tick_timer_not_yet_seen", (s64)n->tick_unknown);
	err |= il_table_kv_int(t, "no_timer_at_all", (s64)n->no_timers);
	err |= il_table_kv_int(t, "stale_timers_dropped", (s64)n->stale_timers);
	err |= il_table_kv_int(t, "other_clock_base_timers", (s64)n->foreign_clock_timers);
	err |= il_table_kv_int(t, "negative_sleep_length", (s64)n->negative_sleep);
	err |= il_table_kv_int(t, "wheel_without_jiffies", (s64)n->wheel_uncalibrated);
	if (n->clock_offset_known)
		err |= il_table_kv_int(t, "clock_offset_ns", n->clock_offset_ns);
	else
		err |= il_table_kv_str(t, "clock_offset_ns", "unknown (no hrtimer_expire_entry)");
	for (unsigned int cpu = 0; cpu < il_replay_ncpus(rep); cpu++) {
		if (il_replay_cpu_periods(rep, cpu))
			continue;
		snprintf(key, sizeof(key), "cpu%u", cpu);
		err |= il_table_kv_str(t, key, "no idle periods in the trace: nothing replayed");
	}
	return err;
}

/* One linux-pm row: the trace's own (recorded misses or recomputed) or a governor's. */
static int pm_row(struct il_table *t, const char *name, const struct il_replay_row *row,
		  bool trace, bool recomputed)
{
	u64 above = trace && !recomputed ? row->miss_above : row->above;
	u64 below = trace && !recomputed ? row->miss_below : row->below;
	int r = il_table_add_row(t), c = 0;

	if (r < 0 || il_table_set_str(t, r, c++, name))
		return -1;
	il_table_set_int(t, r, c++, (s64)row->idles);
	il_table_set_int(t, r, c++, (s64)(above + below));
	set_ratio(t, r, c++, above + below, row->idles, 1.0, 4);
	il_table_set_int(t, r, c++, (s64)below);
	il_table_set_int(t, r, c++, (s64)above);
	il_table_set_real(t, r, c++, (double)row->energy_nj / 1e6, 3);
	if (!trace) {
		set_ratio(t, r, c, row->agree, row->idles, 100.0, 2);
		set_ratio(t, r, c + 1, row->tick_agree, row->tick_decisions, 100.0, 2);
	}
	c += 2;
	il_table_set_int(t, r, c++, (s64)row->stop_tick);
	return 0;
}

static int governors_table(struct il_table *t, const struct il_replay *rep,
			const struct il_replay_cfg *cfg)
{
	static const char *const cols[] = {
		"governor", "idles", "idle_misses", "idle_miss_ratio", "belows", "aboves",
		"energy_mj", "agree_pct", "tick_agree_pct", "stop_tick",
	};
	const struct il_replay_row *trace = il_replay_trace_row(rep);

	if (il_table_init(t, "governors", (int)ARRAY_SIZE(cols), cols) ||
	    pm_row(t, "recorded (cpu_idle_miss)", trace, true, false) ||
	    pm_row(t, "recorded (recomputed)", trace, true, true))
		return -1;
	for (int i = 0; i < cfg->ngov; i++)
		if (pm_row(t, cfg->presets[i]->name, il_replay_gov_row(rep, i), false, false))
			return -1;
	return 0;
}

static int usage_row(struct il_table *t, const char *name, const struct il_replay_row *row,
		     int nstates)
{
	int r = il_table_add_row(t);

	if (r < 0 || il_table_set_str(t, r, 0, name))
		return -1;
	for (int s = 0; s < nstates; s++)
		il_table_set_int(t, r, 1 + s, (s64)row->usage[s]);
	return 0;
}

static int usage_table(struct il_table *t, const struct il_replay *rep,
			const struct il_replay_cfg *cfg)
{
	static const char *const cols[] = { "governor" };
	const struct il_driver *drv = &cfg->plat->drv;

	if (il_table_init(t, "usage", 1, cols))
		return -1;
	for (int s = 0; s < drv->state_count; s++)
		if (il_table_add_col(t, state_name(drv, s)) < 0)
			return -1;
	if (usage_row(t, "recorded", il_replay_trace_row(rep), drv->state_count))
		return -1;
	for (int i = 0; i < cfg->ngov; i++)
		if (usage_row(t, cfg->presets[i]->name, il_replay_gov_row(rep, i),
			      drv->state_count))
			return -1;
	return 0;
}

/* Rows: recorded state; columns: the state @gov picked. */
static int confusion_table(struct il_table *t, const struct il_replay *rep,
			const struct il_replay_cfg *cfg, int gov)
{
	static const char *const cols[] = { "recorded" };
	const struct il_driver *drv = &cfg->plat->drv;
	const struct il_replay_row *row = il_replay_gov_row(rep, gov);
	char title[96];

	snprintf(title, sizeof(title), "confusion %s (rows: recorded, columns: picked)",
		 cfg->presets[gov]->name);
	if (il_table_init(t, title, 1, cols))
		return -1;
	for (int s = 0; s < drv->state_count; s++)
		if (il_table_add_col(t, state_name(drv, s)) < 0)
			return -1;
	for (int rs = 0; rs < drv->state_count; rs++) {
		int r = il_table_add_row(t);

		if (r < 0 || il_table_set_str(t, r, 0, state_name(drv, rs)))
			return -1;
		for (int s = 0; s < drv->state_count; s++)
			il_table_set_int(t, r, 1 + s, (s64)row->confusion[rs][s]);
	}
	return 0;
}

/* stop_tick against tick_stop, over the periods where the tick ran at select. */
static int tick_table(struct il_table *t, const struct il_replay *rep,
			const struct il_replay_cfg *cfg, int gov)
{
	static const char *const cols[] = {
		"tick_stop_recorded", "stop_tick_asked", "periods", "meaning",
	};
	static const char *const meaning[2][2] = {
		{ "agree: kept",
		  "the kernel may keep it anyway (RCU, irq_work, a timer within a tick)" },
		{ "contradicts the trace (the kernel stops the tick only when asked)",
		  "agree: stopped" },
	};
	const struct il_replay_row *row = il_replay_gov_row(rep, gov);
	char title[64];

	snprintf(title, sizeof(title), "tick %s", cfg->presets[gov]->name);
	if (il_table_init(t, title, (int)ARRAY_SIZE(cols), cols))
		return -1;
	for (int rec = 1; rec >= 0; rec--) {
		for (int ask = 1; ask >= 0; ask--) {
			int r = il_table_add_row(t);

			if (r < 0 || il_table_set_str(t, r, 0, rec ? "yes" : "no") ||
			    il_table_set_str(t, r, 1, ask ? "yes" : "no") ||
			    il_table_set_str(t, r, 3, meaning[rec][ask]))
				return -1;
			il_table_set_int(t, r, 2, (s64)row->tick_confusion[rec][ask]);
		}
	}
	return 0;
}

/* The open-loop frontier of the replayed periods, and every row's distance to it. */
static int gap_table(struct il_table *t, struct il_replay *rep,
			const struct il_replay_cfg *cfg)
{
	const struct il_bound *b = il_replay_bound(rep);

	if (il_bound_gap_table_init(t, NULL) ||
	    il_bound_gap_row(t, "recorded", 0, b, &il_replay_trace_row(rep)->bound))
		return -1;
	for (int i = 0; i < cfg->ngov; i++)
		if (il_bound_gap_row(t, cfg->presets[i]->name, 0, b,
				     &il_replay_gov_row(rep, i)->bound))
			return -1;
	return 0;
}

int il_replay_tables(struct il_replay *rep, const struct il_replay_cfg *cfg, int focus,
		     struct il_table *tables)
{
	memset(tables, 0, IL_REPLAY_TABLES * sizeof(*tables));
	if (notes_table(&tables[IL_REPLAY_T_NOTES], rep, cfg) ||
	    (cfg->sleep_source == IL_SLEEP_WAKEUPS &&
	     il_replay_sleep_table(&tables[IL_REPLAY_T_SLEEP], rep)) ||
	    governors_table(&tables[IL_REPLAY_T_GOVS], rep, cfg) ||
	    usage_table(&tables[IL_REPLAY_T_USAGE], rep, cfg) ||
	    (cfg->ngov && (confusion_table(&tables[IL_REPLAY_T_CONFUSION], rep, cfg, focus) ||
			   tick_table(&tables[IL_REPLAY_T_TICK], rep, cfg, focus))) ||
	    il_bound_table(&tables[IL_REPLAY_T_BOUND], il_replay_bound(rep)) ||
	    gap_table(&tables[IL_REPLAY_T_GAP], rep, cfg))
		return il_tables_fail(tables, IL_REPLAY_TABLES);
	return 0;
}
