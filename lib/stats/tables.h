/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tables.h - a trace's statistics as output tables (see tables.c).
 */
#ifndef IDLELAB_STATS_TABLES_H
#define IDLELAB_STATS_TABLES_H

#include "../output/output.h"
#include "../platform/platform.h"
#include "stats.h"

/* The tables, in the order `idlelab stats` prints them after the trace's own. */
enum il_stats_table {
	IL_STATS_T_SPAN,   /* "span": first and last timestamp, the PowerNightmare thresholds */
	IL_STATS_T_CPUS,
	IL_STATS_T_STATES,
	IL_STATS_T_HIST,   /* "histogram" */
	IL_STATS_T_WAKES,  /* "wake_sources" */
	IL_STATS_T_NOTES,
	IL_STATS_TABLES,
};

/**
 * il_stats_tables - the tables of @s into @tables[IL_STATS_TABLES]
 * @drv: the state table, or NULL (no above/below, states named state<N>)
 * @nightmare_us: the PowerNightmare thresholds per state (IL_STATS_MAX_STATES, 0: none)
 * Return: 0, or -1 with errno ENOMEM (@tables then freed).
 */
int il_stats_tables(const struct il_stats *s, const struct il_driver *drv,
		    const unsigned int *nightmare_us, struct il_table *tables);

#endif /* IDLELAB_STATS_TABLES_H */
