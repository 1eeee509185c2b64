/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace_cli.h - what `idlelab stats` and `idlelab replay` share: their arguments and pure
 * parsers, opening a trace with its diagnostics printed, and finding the trace's state table.
 *
 * The state table of a trace comes from -p (a built-in platform or a platform file), or
 * else from the trace itself (an idlestat header names the states and their target
 * residencies), never from the machine that runs idlelab.
 */
#ifndef IDLELAB_TRACE_CLI_H
#define IDLELAB_TRACE_CLI_H

#include "cli.h"
#include "output/output.h"
#include "perfetto_cli.h"
#include "progress.h"
#include "platform/platform.h"
#include "stats/stats.h"
#include "trace/trace.h"

/* Diagnostics (bad lines) printed before the rest are only counted. */
#define TRACE_CLI_MAX_WARNINGS 10

struct trace_input_args {
	const char *trace;    /* path, "-" for stdin */
	const char *platform; /* -p: built-in name or path, NULL: from the trace */
	const char *reader;   /* --input-format: force a reader */
	const char *output;   /* -o, NULL: stdout */
	/* -f: an output format of lib/output ("table", "tsv", "csv", "json") */
	const char *format;
	int max_warnings;     /* --max-warnings, default TRACE_CLI_MAX_WARNINGS */
	enum progress_mode progress; /* --progress, --no-progress */
};

struct stats_args {
	struct trace_input_args in;
	unsigned int nightmare_us[IL_STATS_MAX_STATES]; /* --nightmare 100,1000,... */
	bool no_hist;         /* --no-hist: leave the histograms out of the table */
};

#define REPLAY_MAX_GOVERNORS 32
#define REPLAY_GOV_LIST_LEN 1024

struct replay_args {
	struct trace_input_args in;
	int ngov;
	const char *governors[REPLAY_MAX_GOVERNORS];
	char gov_buf[REPLAY_GOV_LIST_LEN];   /* storage for governors[] */
	size_t gov_buf_used;
	const char *recorded;  /* --recorded GOV: the port of the governor that recorded it */
	unsigned int hz;       /* --hz, 0: the platform's */
	int cpu;               /* --cpu N, -1: all */
	bool periods;          /* --periods: one CSV line per idle period instead of the summary */
	int nparams;
	const char *params[16]; /* --param NAME=VALUE */
	struct perfetto_args perfetto; /* --perfetto FILE: the timeline of every governor */
	/* --sleep-length: where the sleep length comes from; auto: timers if the trace has
	 * timer events, else wakeups (docs/trace.md) */
	enum { SLEEP_AUTO, SLEEP_TIMERS, SLEEP_WAKEUPS } sleep_length;
};

int stats_parse_args(int argc, char **argv, struct stats_args *args, struct cli_error *err);
int replay_parse_args(int argc, char **argv, struct replay_args *args, struct cli_error *err);

/* An open trace and the state table it is read with. */
struct trace_source {
	const char *cmd;
	struct il_trace *trace;
	struct il_platform plat;     /* from -p, or built from the trace's header */
	bool have_table;
	char table_origin[IL_PLAT_ORIGIN_LEN + 32]; /* "platform haltpoll-vm", "idlestat header" */
	int max_warnings;
	u64 warnings;                /* diagnostics reported by the reader */
	struct progress *progress;   /* while reading: erased before a diagnostic is printed */
};

/**
 * trace_source_open - load the platform of @in (if any), open the trace, and fall back to
 * the state table in the trace's header
 * Return: CLI_EXIT_OK, or the exit code after printing why (1: unreadable trace or
 * platform file, 2: unknown built-in platform or reader).
 */
int trace_source_open(struct trace_source *src, const char *cmd, const struct trace_input_args *in);
void trace_source_close(struct trace_source *src);
/**
 * trace_check_cpus - warn when the platform given with -p has another CPU count than the
 * trace (its header's, else the @seen CPUs with events, which only bounds it from below)
 */
void trace_check_cpus(const struct trace_source *src, const struct trace_input_args *in,
		      unsigned int seen);
/** trace_source_drv - the state table, or NULL when there is none */
const struct il_driver *trace_source_drv(const struct trace_source *src);

/* Events between two looks at how much of the file has been read. */
#define TRACE_PROGRESS_EVENTS 4096

/** trace_progress_begin - progress of reading @src's file, in bytes of the file */
void trace_progress_begin(struct progress *p, struct trace_source *src, const char *what,
			  const struct trace_input_args *in);
/** trace_progress_end - the last line, when the trace has been read */
void trace_progress_end(struct progress *p, struct trace_source *src);
/** trace_progress_update - how far reading @src's file has got */
void trace_progress_update(struct progress *p, const struct trace_source *src);

/** trace_read_error - say why il_trace_next() failed on @t: corrupt compressed data, or errno */
void trace_read_error(const char *cmd, const struct il_trace *t);

/**
 * trace_summary_table - the table "trace": what was read (file, format, counts of every
 * event type, bad input) and where the state table came from, as key/value rows
 * Return: 0, or -1 with errno ENOMEM.
 */
int trace_summary_table(struct il_table *t, const struct trace_source *src);

/**
 * trace_write_tables - render @tables in @in's format to @in's output
 * Return: CLI_EXIT_OK, or CLI_EXIT_RUNTIME after printing why.
 */
int trace_write_tables(const char *cmd, const struct trace_input_args *in,
		       const struct il_table *const *tables, int ntables);

/* Helpers for building key/value tables. */
int trace_kv_str(struct il_table *t, const char *key, const char *value);
int trace_kv_int(struct il_table *t, const char *key, s64 value);

#endif /* IDLELAB_TRACE_CLI_H */
