/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tables.h - a replay's results as output tables (see tables.c).
 */
#ifndef IDLELAB_REPLAY_TABLES_H
#define IDLELAB_REPLAY_TABLES_H

#include "../output/output.h"
#include "replay.h"

/* The tables, in the order `idlelab replay` prints them after the trace's own. */
enum il_replay_table {
	IL_REPLAY_T_NOTES,     /* "replay": the model and what the rebuild could not do */
	IL_REPLAY_T_SLEEP,     /* "sleep length": by what ended each period (wakeup model only) */
	IL_REPLAY_T_GOVS,      /* "governors": the linux-pm rows */
	IL_REPLAY_T_USAGE,
	IL_REPLAY_T_CONFUSION, /* of governor @focus; none without governors */
	IL_REPLAY_T_TICK,      /* of governor @focus; none without governors */
	IL_REPLAY_T_BOUND,
	IL_REPLAY_T_GAP,
	IL_REPLAY_TABLES,
};

/**
 * il_replay_tables - the tables of replay @rep, run with @cfg, into @tables[IL_REPLAY_TABLES]
 * @focus: the governor (index in @cfg->presets) whose confusion and tick tables are built
 * Return: 0, or -1 with errno ENOMEM (@tables then freed). A table not built has no columns.
 */
int il_replay_tables(struct il_replay *rep, const struct il_replay_cfg *cfg, int focus,
		     struct il_table *tables);

#endif /* IDLELAB_REPLAY_TABLES_H */
