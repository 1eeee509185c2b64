/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfetto_cli.h - `--perfetto FILE` of `idlelab run` and `idlelab replay`: the options,
 * their pure parsers, and writing the timeline (lib/timeline/timeline.h) to FILE through a
 * temporary file, so FILE appears whole or not at all.
 */
#ifndef IDLELAB_PERFETTO_CLI_H
#define IDLELAB_PERFETTO_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "lab/lab.h"
#include "sim/sim.h"
#include "timeline/timeline.h"

struct perfetto_args {
	const char *path;   /* --perfetto FILE, NULL: no timeline */
	uint64_t limit;     /* --perfetto-limit N (default IL_TIMELINE_LIMIT_DEFAULT, 0: none) */
	uint64_t from_ns;   /* --perfetto-window A..B */
	uint64_t to_ns;     /* 0: to the end */
	bool limit_set;
	bool window_set;
};

enum perfetto_opt {
	PERFETTO_OPT_FILE,
	PERFETTO_OPT_LIMIT,
	PERFETTO_OPT_WINDOW,
};

/* The three options, for a command's option table: ids FILE, LIMIT, WINDOW. */
#define PERFETTO_CLI_OPTS(FILE_ID, LIMIT_ID, WINDOW_ID)          \
	{ FILE_ID, 0, "perfetto", true },                        \
	{ LIMIT_ID, 0, "perfetto-limit", true },                 \
	{ WINDOW_ID, 0, "perfetto-window", true }

/* The lines of the commands' usage text. */
#define PERFETTO_CLI_USAGE                                                                   \
	"      --perfetto FILE    write a timeline of every idle period (Chrome trace-event\n" \
	"                         JSON) to FILE: open it in ui.perfetto.dev (docs/perfetto.md)\n" \
	"      --perfetto-limit N keep at most N events (default 200000, about 20 MB; 0: all);\n" \
	"                         the file says where it was cut\n"                         \
	"      --perfetto-window A..B  only what overlaps [A, B) from the start (e.g.\n"   \
	"                         100ms..150ms; A.. to the end)\n"

void perfetto_args_init(struct perfetto_args *a);

/**
 * perfetto_parse_window - "A..B", "A.." or "..B" with durations as --time takes them
 * ("500us", "2ms", "1s", or 0 for A); B must be after A
 * Return: 0, or -1.
 */
int perfetto_parse_window(const char *s, uint64_t *from_ns, uint64_t *to_ns);

/** perfetto_option - take option @which with @value; Return: CLI_PARSE_OK or CLI_PARSE_ERROR */
int perfetto_option(struct perfetto_args *a, enum perfetto_opt which, const char *value,
		    struct cli_error *err);
/** perfetto_check - after parsing: the limit and window need a file */
int perfetto_check(const struct perfetto_args *a, struct cli_error *err);

/** perfetto_open - an empty timeline for @a; prints why for @cmd and returns NULL on failure */
struct il_timeline *perfetto_open(const struct perfetto_args *a, const char *cmd);

/**
 * perfetto_save - write @tl to @a->path through a temporary file
 * Return: CLI_EXIT_OK, or CLI_EXIT_RUNTIME after printing why for @cmd.
 */
int perfetto_save(struct il_timeline *tl, const struct perfetto_args *a, const char *cmd);

/** perfetto_note_truncation - tell the user on stderr when the limit cut the timeline */
void perfetto_note_truncation(const struct il_timeline *tl, const struct perfetto_args *a,
			      const char *cmd);

/* ---- run: one simulated governor ---------------------------------------------------------- */

struct perfetto_sim {
	struct il_timeline *tl;
	struct il_tl_sim sim;
	struct il_sim_observer obs;
	struct il_power pw;
	int pid;
};

/**
 * perfetto_sim_begin - a timeline for the lab run of @spec, whose observer it becomes
 * Return: CLI_EXIT_OK, or CLI_EXIT_RUNTIME after printing why for @cmd.
 */
int perfetto_sim_begin(struct perfetto_sim *ps, const struct perfetto_args *a,
		       struct il_lab_spec *spec,
		       const char *cmd);
/**
 * perfetto_sim_end - after the run: close the open periods and write the file
 * Return: CLI_EXIT_OK, or CLI_EXIT_RUNTIME after printing why for @cmd.
 */
int perfetto_sim_end(struct perfetto_sim *ps, const struct perfetto_args *a,
		     const struct il_lab_spec *spec,
		     const struct il_lab_result *res, const char *cmd);
void perfetto_sim_free(struct perfetto_sim *ps);

#endif /* IDLELAB_PERFETTO_CLI_H */
