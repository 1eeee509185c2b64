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
#include "cli_opts.h"
#include "metrics/metrics.h"
#include "perfetto_cli.h"

struct il_platform;
struct il_preset;

#define LAB_MAX_GOVERNORS CLI_MAX_GOVERNORS
#define LAB_MAX_SCENARIOS CLI_MAX_SCENARIOS
#define LAB_GOV_LIST_LEN CLI_GOV_LIST_LEN
#define LAB_DEFAULT_TIME_NS (10ULL * 1000000000ULL)
#define LAB_MAX_ITER CLI_MAX_ITER
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
	CLI_RUN_OPTS;             /* --iter and --ensemble: compare's; no -j, no progress */
	/* --baseline (compare): the governor of the deltas; NULL: the first */
	const char *baseline;
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
int lab_parse_args(int argc, char **argv, bool compare, struct lab_args *args,
		   struct cli_error *err);

/**
 * lab_main - parse, run and print run (@compare false) or compare, whose help text @usage
 * prints (the command files own it, and call this: they are leaves)
 * Return: the exit code
 */
int lab_main(int argc, char **argv, bool compare, void (*usage)(FILE *out));

#endif /* IDLELAB_LAB_CLI_H */
