/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * readers.h - the one explicit list of trace readers.
 *
 * Each reader FOO lives in lib/trace/FOO.c and defines
 *	const struct il_trace_reader il_reader_FOO;
 * Detection asks every reader in this order and picks the highest probe score; on a tie
 * the earlier reader wins, so readers with a magic header come first.
 */
#ifndef IDLELAB_TRACE_READERS_H
#define IDLELAB_TRACE_READERS_H

#include "trace-local.h"

#define IL_TRACE_READERS(X) \
	X(idlestat)         \
	X(dat)              \
	X(tracecmd)         \
	X(perf)             \
	X(systrace)         \
	X(ftrace)

IL_TRACE_READERS(IL_DECLARE_READER)

#endif /* IDLELAB_TRACE_READERS_H */
