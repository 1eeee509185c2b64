// SPDX-License-Identifier: GPL-2.0-only
/*
 * tables.c - the statistics of a trace (stats.h) as output tables: span, cpus, states,
 * histogram, wake_sources and notes (`idlelab stats`; the CLI adds the trace's own table
 * and prints them).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tables.h"
#include "util/array.h"

static const char *state_name(const struct il_driver *drv, int i, char *buf, size_t len)
{
	if (drv && i < drv->state_count)
		snprintf(buf, len, "%s", drv->states[i].name);
	else
		snprintf(buf, len, "state%d", i);
	return buf;
}

/* ns as µs with three decimals: the value is exact, the double only carries it to the output. */
static void set_us(struct il_table *t, int row, int col, u64 ns)
{
	il_table_set_real(t, row, col, (double)ns / 1000.0, 3);
}

/* Rows of @t are filled column by column through this cursor. */
struct row_cursor {
	struct il_table *t;
	int row, col;
};

static int row_start(struct row_cursor *c, struct il_table *t)
{
	c->t = t;
	c->col = 0;
	c->row = il_table_add_row(t);
	return c->row < 0 ? -1 : 0;
}

static void put_int(struct row_cursor *c, s64 v)
{
	il_table_set_int(c->t, c->row, c->col++, v);
}

static void put_str(struct row_cursor *c, const char *v)
{
	il_table_set_str(c->t, c->row, c->col++, v);
}

static void put_us(struct row_cursor *c, u64 ns)
{
	set_us(c->t, c->row, c->col++, ns);
}

static void put_empty(struct row_cursor *c)
{
	c->col++;
}

/* ---- the tables -------------------------------------------------------------------------- */

/* An exit without its enter (the trace starts inside an idle period) is an idle event too. */
static bool has_idle_events(const struct il_trace_cpu_stats *c)
{
	return c->nstates > 0 || c->open_at_end || c->exits_without_enter;
}

static int cpus_table(struct il_table *t, const struct il_stats *s)
{
	static const char *const cols[] = {
		"cpu", "idle_events", "events", "periods", "idle_us", "idle_permille", "tick_stops",
		"tick_stop_failures", "exits_without_enter", "enters_while_idle",
		"misses_without_period", "bad_state", "open_at_end_line",
	};
	u64 first, last;

	il_stats_span(s, &first, &last);
	if (il_table_init(t, "cpus", (int)ARRAY_SIZE(cols), cols))
		return -1;
	for (unsigned int cpu = 0; cpu < il_stats_ncpus(s); cpu++) {
		const struct il_trace_cpu_stats *c = il_stats_cpu(s, cpu);
		struct row_cursor r;

		if (row_start(&r, t))
			return -1;
		put_int(&r, cpu);
		put_str(&r, has_idle_events(c) ? "yes" : "no");
		put_int(&r, (s64)c->events);
		put_int(&r, (s64)c->periods);
		put_us(&r, c->idle_ns);
		put_int(&r, last > first ? (s64)(c->idle_ns * 1000 / (last - first)) : 0);
		put_int(&r, (s64)c->tick_stops);
		put_int(&r, (s64)c->tick_stop_failures);
		put_int(&r, (s64)c->exits_without_enter);
		put_int(&r, (s64)c->enters_while_idle);
		put_int(&r, (s64)c->misses_without_period);
		put_int(&r, (s64)c->bad_state);
		if (c->open_at_end)
			put_int(&r, (s64)c->open_line);
	}
	return 0;
}

/* The table that names @cpu's states: its own on a platform with per-CPU tables. */
static const struct il_driver *cpu_names(const struct il_stats *s, const struct il_driver *drv,
					 unsigned int cpu)
{
	const struct il_driver *own = drv ? il_stats_cpu_table(s, cpu) : NULL;

	return own ? own : drv;
}

static int states_table(struct il_table *t, const struct il_stats *s, const struct il_driver *drv)
{
	static const char *const cols[] = {
		"cpu", "state", "name", "entries", "min_us", "avg_us", "max_us", "total_us",
		"above", "below", "miss_above", "miss_below", "nightmares", "nightmare_us",
	};
	char name[IL_NAME_LEN + 8];

	if (il_table_init(t, "states", (int)ARRAY_SIZE(cols), cols))
		return -1;
	for (unsigned int cpu = 0; cpu < il_stats_ncpus(s); cpu++) {
		const struct il_trace_cpu_stats *c = il_stats_cpu(s, cpu);

		for (int i = 0; i < c->nstates; i++) {
			const struct il_trace_state_stats *st = &c->st[i];
			struct row_cursor r;

			if (row_start(&r, t))
				return -1;
			put_int(&r, cpu);
			put_int(&r, i);
			put_str(&r, state_name(cpu_names(s, drv, cpu), i, name, sizeof(name)));
			put_int(&r, (s64)st->entries);
			if (st->entries) {
				put_us(&r, st->min_ns);
				put_us(&r, st->total_ns / st->entries);
				put_us(&r, st->max_ns);
			} else {
				put_empty(&r);
				put_empty(&r);
				put_empty(&r);
			}
			put_us(&r, st->total_ns);
			if (drv) {
				put_int(&r, (s64)st->above);
				put_int(&r, (s64)st->below);
			} else {
				put_empty(&r);
				put_empty(&r);
			}
			put_int(&r, (s64)st->miss_above);
			put_int(&r, (s64)st->miss_below);
			if (drv) { /* (none counted without: the deepest state is unknown) */
				put_int(&r, (s64)st->nightmares);
				put_us(&r, st->nightmare_ns);
			} else {
				put_empty(&r);
				put_empty(&r);
			}
		}
	}
	return 0;
}

static int hist_table(struct il_table *t, const struct il_stats *s, const struct il_driver *drv)
{
	static const char *const cols[] = { "cpu", "state", "name", "from_us", "to_us", "entries" };
	char name[IL_NAME_LEN + 8];

	if (il_table_init(t, "histogram", (int)ARRAY_SIZE(cols), cols))
		return -1;
	for (unsigned int cpu = 0; cpu < il_stats_ncpus(s); cpu++) {
		const struct il_trace_cpu_stats *c = il_stats_cpu(s, cpu);

		for (int i = 0; i < c->nstates; i++) {
			for (int b = 0; b < IL_STATS_HIST_BUCKETS; b++) {
				struct row_cursor r;

				if (!c->st[i].hist[b])
					continue;
				if (row_start(&r, t))
					return -1;
				put_int(&r, cpu);
				put_int(&r, i);
				put_str(&r, state_name(cpu_names(s, drv, cpu), i, name,
						       sizeof(name)));
				put_int(&r, (s64)il_stats_hist_lower_us(b));
				if (b + 1 < IL_STATS_HIST_BUCKETS)
					put_int(&r, (s64)il_stats_hist_lower_us(b + 1));
				else
					put_empty(&r);
				put_int(&r, (s64)c->st[i].hist[b]);
			}
		}
	}
	return 0;
}

static int by_count_desc(const void *a, const void *b)
{
	const struct il_wake_source *x = a, *y = b;

	return x->count < y->count ? 1 : x->count > y->count ? -1 : 0;
}

static int wakes_table(struct il_table *t, const struct il_stats *s, bool have_table)
{
	static const char *const cols[] = { "cpu", "source", "count", "above", "below" };
	struct il_wake_source w[IL_STATS_MAX_WAKES];
	char name[96];

	if (il_table_init(t, "wake_sources", (int)ARRAY_SIZE(cols), cols))
		return -1;
	for (unsigned int cpu = 0; cpu < il_stats_ncpus(s); cpu++) {
		const struct il_trace_cpu_stats *c = il_stats_cpu(s, cpu);

		memcpy(w, c->wakes, (size_t)c->nwakes * sizeof(*w));
		qsort(w, (size_t)c->nwakes, sizeof(*w), by_count_desc);
		for (int i = 0; i < c->nwakes; i++) {
			struct row_cursor r;

			if (row_start(&r, t))
				return -1;
			put_int(&r, cpu);
			put_str(&r, il_wake_source_name(&w[i], name, sizeof(name)));
			put_int(&r, (s64)w[i].count);
			if (have_table) {
				put_int(&r, (s64)w[i].above);
				put_int(&r, (s64)w[i].below);
			}
		}
	}
	return 0;
}

static int note(struct il_table *t, unsigned int cpu, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int note(struct il_table *t, unsigned int cpu, const char *fmt, ...)
{
	char text[256];
	struct row_cursor r;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (row_start(&r, t))
		return -1;
	put_int(&r, cpu);
	put_str(&r, text);
	return 0;
}

static int cpu_notes(struct il_table *t, unsigned int cpu, const struct il_trace_cpu_stats *c,
		     const struct il_driver *drv)
{
	char name[IL_NAME_LEN + 8], b[32];
	int err = 0;

	if (!has_idle_events(c))
		return note(t, cpu, "no idle events: idle state unknown (%llu other events "
			    "recorded on it)", (unsigned long long)c->events);
	if (c->exits_without_enter)
		err |= note(t, cpu, "%llu idle exit(s) without an enter (the trace starts inside "
			    "an idle period)", (unsigned long long)c->exits_without_enter);
	if (c->enters_while_idle)
		err |= note(t, cpu, "%llu idle enter(s) while already idle (an exit was lost); "
			    "the earlier period was dropped",
			    (unsigned long long)c->enters_while_idle);
	if (c->misses_without_period)
		err |= note(t, cpu, "%llu cpu_idle_miss event(s) not right after the exit of a "
			    "period in that state", (unsigned long long)c->misses_without_period);
	if (c->bad_state)
		err |= note(t, cpu, "%llu event(s) with a state number beyond the state table",
			    (unsigned long long)c->bad_state);
	for (int i = 0; i < c->ntick_deps; i++)
		err |= note(t, cpu, "tick_stop refused %llu time(s): dependency %s",
			    (unsigned long long)c->tick_deps[i].count, c->tick_deps[i].label);
	if (c->open_at_end)
		err |= note(t, cpu, "the idle period in %s entered at line %llu (%s us) is still "
			    "open at the end of the trace; not counted",
			    state_name(drv, (int)c->open_state, name, sizeof(name)),
			    (unsigned long long)c->open_line,
			    il_ns_us_text((long long)c->open_since_ns, b, sizeof(b)));
	return err;
}

static int notes_table(struct il_table *t, const struct il_stats *s, const struct il_driver *drv)
{
	static const char *const cols[] = { "cpu", "note" };

	if (il_table_init(t, "notes", 2, cols))
		return -1;
	for (unsigned int cpu = 0; cpu < il_stats_ncpus(s); cpu++)
		if (cpu_notes(t, cpu, il_stats_cpu(s, cpu), drv))
			return -1;
	return 0;
}

/* The "settings" of this run: span and PowerNightmare thresholds. */
static int settings_table(struct il_table *t, const struct il_stats *s,
			  const unsigned int *nightmare_us)
{
	static const char *const cols[] = { "key", "value" };
	char key[32];
	u64 first, last;
	int err = 0;

	if (il_table_init(t, "span", 2, cols))
		return -1;
	il_stats_span(s, &first, &last);
	err |= il_table_kv_int(t, "first_ns", (s64)first);
	err |= il_table_kv_int(t, "last_ns", (s64)last);
	for (int i = 0; i < IL_STATS_MAX_STATES; i++) {
		if (!nightmare_us[i])
			continue;
		snprintf(key, sizeof(key), "nightmare_state%d_us", i);
		err |= il_table_kv_int(t, key, nightmare_us[i]);
	}
	return err;
}

int il_stats_tables(const struct il_stats *s, const struct il_driver *drv,
		    const unsigned int *nightmare_us, struct il_table *tables)
{
	memset(tables, 0, IL_STATS_TABLES * sizeof(*tables));
	if (settings_table(&tables[IL_STATS_T_SPAN], s, nightmare_us) ||
	    cpus_table(&tables[IL_STATS_T_CPUS], s) ||
	    states_table(&tables[IL_STATS_T_STATES], s, drv) ||
	    hist_table(&tables[IL_STATS_T_HIST], s, drv) ||
	    wakes_table(&tables[IL_STATS_T_WAKES], s, drv != NULL) ||
	    notes_table(&tables[IL_STATS_T_NOTES], s, drv))
		return il_tables_fail(tables, IL_STATS_TABLES);
	return 0;
}
