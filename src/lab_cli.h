/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lab_cli.h - what `idlelab run` and `idlelab compare` share: their arguments, the pure
 * parser, and running the lab and printing its tables.
 */
#ifndef IDLELAB_LAB_CLI_H
#define IDLELAB_LAB_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "metrics/metrics.h"
#include "perfetto_cli.h"

struct il_platform;
struct il_preset;

#define LAB_MAX_GOVERNORS 64
#define LAB_MAX_SCENARIOS 64
#define LAB_GOV_LIST_LEN 2048
#define LAB_DEFAULT_TIME_NS (10ULL * 1000000000ULL)
#define LAB_MAX_ITER 1000
#define LAB_MAX_LABELS 16

struct lab_args {
	bool compare;             /* compare: several governors, --iter; run: one governor */
	int ngov;
	const char *governors[LAB_MAX_GOVERNORS];
	char gov_buf[LAB_GOV_LIST_LEN];
	size_t gov_buf_used;
	const char *platform;     /* -p */
	int nscn;
	const char *scenarios[LAB_MAX_SCENARIOS]; /* -s, repeatable in compare */
	uint64_t time_ns;         /* --time */
	uint64_t seed;            /* --seed */
	int iter;                 /* --iter (compare) */
	const char *baseline;     /* --baseline (compare): the governor of the deltas; NULL: the first */
	const char *format;       /* --format: table, tsv, csv, json */
	bool pn_set;
	uint64_t pn_us[IL_PN_LEVELS]; /* --pn-us */
	uint64_t active_uw;       /* --active-mw, in µW */
	const char *output;       /* -o: write there (through a temporary file) instead of stdout */
	int nlabel;
	const char *labels[LAB_MAX_LABELS]; /* --label K=V (run): leading columns of the row */
	struct perfetto_args perfetto; /* --perfetto FILE (run): the timeline */
	bool bound;               /* --bound: the open-loop frontier and each row's gap to it */
};

/**
 * lab_parse_args - parse the options of run (@compare false) or compare (true)
 * Return: CLI_PARSE_OK, CLI_PARSE_HELP or CLI_PARSE_ERROR with @err set.
 */
int lab_parse_args(int argc, char **argv, bool compare, struct lab_args *args, struct cli_error *err);

/* The longest simulated time: beyond it a duration is a typo. */
#define LAB_MAX_TIME_NS (24ULL * 3600ULL * 1000000000ULL)

/** lab_parse_time - "30s", "1.5s", "500ms", "2m", "1h", "1500us", "100ns" (il_parse_time());
 * a bare number is seconds; in (0, 24h] */
int lab_parse_time(const char *s, uint64_t *ns);

/**
 * lab_scn_file_error - whether @err, from il_scn_parse(), is about the file a scenario's
 * operand names (-s rtapp:FILE): bad input (exit 1, like a bad platform file), not usage
 */
bool lab_scn_file_error(const struct il_scenario *scn, const struct il_scn_args *args,
			const struct il_error *err);

/** lab_parse_count - a whole decimal number in [0, @max] into *@out; Return: 0 or -1 */
int lab_parse_count(const char *s, uint64_t max, uint64_t *out);

/** lab_parse_count_to - lab_parse_count of the text from @s up to @end_at, inside a longer text */
int lab_parse_count_to(const char *s, const char *end_at, uint64_t max, uint64_t *out);

/**
 * lab_split_list - split the comma-separated @list into at most @max @names and *@n of them,
 * the text kept in @buf of @cap bytes; @what ("governor") names the items in errors
 * Return: CLI_PARSE_OK or CLI_PARSE_ERROR with @err set (too long, too many, empty).
 */
int lab_split_list(const char *list, char *buf, size_t cap, const char **names, int max, int *n,
		   const char *what, struct cli_error *err);

/**
 * lab_find_presets - look up the @n governor names of @names into @presets; for an unknown
 * one, print a usage error of @cmd
 * Return: CLI_EXIT_OK or CLI_EXIT_USAGE.
 */
int lab_find_presets(const char *const *names, int n, const struct il_preset **presets, const char *cmd);

/**
 * lab_load_platform - load the built-in platform or platform file @name into @plat; on
 * failure print why for @cmd
 * Return: CLI_EXIT_OK, CLI_EXIT_RUNTIME (a file) or CLI_EXIT_USAGE (an unknown name).
 */
int lab_load_platform(const char *name, struct il_platform *plat, const char *cmd);

/** lab_main - parse, run and print; Return: the exit code */
int lab_main(int argc, char **argv, bool compare);

#endif /* IDLELAB_LAB_CLI_H */
