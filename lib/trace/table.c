// SPDX-License-Identifier: GPL-2.0-only
/*
 * table.c - what a trace reader read (trace.h) as key/value rows: the table "trace" that
 * `idlelab stats` and `idlelab replay` print first.
 */
#include "table.h"

int il_trace_table(struct il_table *t, const struct il_trace *tr, const char *states_from)
{
	static const char *const cols[] = { "key", "value" };
	const struct il_trace_counts *c = il_trace_counts(tr);
	const struct il_trace_info *info = il_trace_info(tr);
	int err = 0;

	if (il_table_init(t, "trace", 2, cols))
		return -1;
	err |= il_table_kv_str(t, "path", il_trace_path(tr));
	err |= il_table_kv_str(t, "format", il_trace_reader_name(tr));
	if (info->instance[0])
		err |= il_table_kv_str(t, "instance", info->instance);
	err |= il_table_kv_str(t, "timestamps", info->ns_timestamps ? "ns" : "us");
	if (info->ncpus)
		err |= il_table_kv_int(t, "cpus", info->ncpus);
	err |= il_table_kv_str(t, "states_from", states_from);
	err |= il_table_kv_int(t, "lines", (s64)c->lines);
	for (int i = 1; i < IL_EV__COUNT; i++)
		err |= il_table_kv_int(t, il_ev_name((enum il_ev)i), (s64)c->events[i]);
	err |= il_table_kv_int(t, "skipped_events", (s64)c->events[IL_EV_OTHER]);
	err |= il_table_kv_int(t, "unparsable_lines", (s64)c->bad_lines);
	err |= il_table_kv_int(t, "events_on_unknown_cpus", (s64)c->bad_cpu);
	err |= il_table_kv_int(t, "events_out_of_order", (s64)c->out_of_order);
	return err ? -1 : 0;
}
