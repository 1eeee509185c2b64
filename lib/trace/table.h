/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * table.h - what a trace reader read, as the output table "trace" (see table.c).
 */
#ifndef IDLELAB_TRACE_TABLE_H
#define IDLELAB_TRACE_TABLE_H

#include "../output/output.h"
#include "trace.h"

/**
 * il_trace_table - the table "trace" of @tr: file, format, counts of every event type, bad
 * input, and @states_from (where the state table came from, as the caller names it)
 * Return: 0, or -1 with errno ENOMEM.
 */
int il_trace_table(struct il_table *t, const struct il_trace *tr, const char *states_from);

#endif /* IDLELAB_TRACE_TABLE_H */
