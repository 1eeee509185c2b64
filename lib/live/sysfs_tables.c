// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysfs_tables.c - what `idlelab states` shows of a cpuidle tree (a live root or a dump read
 * back through it): the "cpuidle" table (driver, governors, energy counters) and the
 * "states" table (every CPU's states with their sysfs counters).
 */
#include <stdio.h>
#include <stdlib.h>

#include "../output/output.h"
#include "live.h"
#include "util/array.h"

static const char *const info_cols[] = { "item", "value" };

static const char *const state_cols[] = {
	"cpu", "state", "name", "desc", "latency_us", "residency_us", "disable", "default_status",
	"usage", "time_us", "above", "below", "rejected",
};

#define NSTATE_COLS ((int)ARRAY_SIZE(state_cols))

int il_live_info_table(struct il_table *t, const struct il_live *lv,
		       const struct il_live_cpuidle *ci, const struct il_live_rapl *rapl)
{
	char list[IL_LIVE_GOV_MAX * (IL_LIVE_GOV_NAME_LEN + 1) + 1] = "";
	char energy[sizeof(rapl->why) + 64] = "";
	size_t used = 0;

	if (il_table_init(t, "cpuidle", 2, info_cols))
		return -1;
	for (int i = 0; i < ci->ngov; i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s", i ? " " : "",
					 ci->available[i]);
	if (rapl->status == IL_RAPL_OK) {
		used = 0;
		for (int i = 0; i < rapl->nzones; i++)
			used += (size_t)snprintf(energy + used, sizeof(energy) - used,
						 "%s%s (RAPL)", i ? ", " : "", rapl->zone[i].name);
	} else {
		snprintf(energy, sizeof(energy), "none: %s", rapl->why);
	}
	if (il_table_kv_str(t, "root", il_live_root_name(lv)) ||
	    il_table_kv_str(t, "driver", ci->driver) ||
	    il_table_kv_str(t, "governor", ci->governor) ||
	    il_table_kv_str(t, "available_governors", ci->ngov ? list : "-") ||
	    il_table_kv_str(t, "governor_switch",
			    ci->can_switch ? "current_governor (writable by root)"
					   : "no (current_governor_ro only)") ||
	    il_table_kv_str(t, "energy", energy))
		return -1;
	return 0;
}

static int state_row(struct il_table *t, const struct il_live_cpu *cpu, int i)
{
	const struct il_live_state *s = &cpu->st[i];
	int r = il_table_add_row(t);

	if (r < 0)
		return -1;
	il_table_set_int(t, r, 0, cpu->cpu);
	il_table_set_int(t, r, 1, i);
	if (il_table_set_str(t, r, 2, s->name) ||
	    ((s->have & IL_LF_DESC) && il_table_set_str(t, r, 3, s->desc)) ||
	    ((s->have & IL_LF_DEFAULT_STATUS) && il_table_set_str(t, r, 7, s->default_status)))
		return -1;
	il_table_set_count(t, r, 4, s->have & IL_LF_LATENCY, s->latency_us);
	il_table_set_count(t, r, 5, s->have & IL_LF_RESIDENCY, s->residency_us);
	il_table_set_count(t, r, 6, s->have & IL_LF_DISABLE, s->disable);
	il_table_set_count(t, r, 8, s->have & IL_LF_USAGE, s->usage);
	il_table_set_count(t, r, 9, s->have & IL_LF_TIME, s->time_us);
	il_table_set_count(t, r, 10, s->have & IL_LF_ABOVE, s->above);
	il_table_set_count(t, r, 11, s->have & IL_LF_BELOW, s->below);
	il_table_set_count(t, r, 12, s->have & IL_LF_REJECTED, s->rejected);
	return 0;
}

/*
 * A CPU without cpuidle, or offline: one row that says so in the name column. An offline
 * CPU keeps its cpuidle directory, but its counters stand still until it is back.
 */
static int no_states_row(struct il_table *t, unsigned int cpu, const char *why)
{
	int r = il_table_add_row(t);

	if (r < 0)
		return -1;
	il_table_set_int(t, r, 0, cpu);
	return il_table_set_str(t, r, 2, why);
}

int il_live_sysfs_states_table(struct il_table *t, const struct il_live *lv, struct il_error *err)
{
	struct il_live_cpu *cpu = malloc(sizeof(*cpu));
	unsigned int *cpus = NULL;
	int n, ret = 0;

	if (il_table_init(t, "states", NSTATE_COLS, state_cols)) {
		free(cpu);
		return il_error_set(err, "states", 0, "out of memory");
	}
	n = il_live_list_cpus(lv, &cpus, err);
	if (n < 0 || !cpu) {
		free(cpu);
		free(cpus);
		return n < 0 ? -1 : il_error_set(err, "states", 0, "out of memory");
	}
	for (int i = 0; i < n && !ret; i++) {
		int rows = 0;

		if (il_live_read_cpu(lv, cpus[i], IL_LIVE_READ_ALL, cpu, err)) {
			ret = -1;
			break;
		}
		if (!cpu->has_cpuidle)
			rows = no_states_row(t, cpus[i], "(no cpuidle directory)");
		else if (cpu->offline)
			rows = no_states_row(t, cpus[i], "(offline)");
		for (int k = 0; k < cpu->nstates && !rows; k++)
			rows = state_row(t, cpu, k);
		if (rows)
			ret = il_error_set(err, "states", 0, "out of memory");
	}
	free(cpus);
	free(cpu);
	return ret;
}
