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

#define LAB_MAX_GOVERNORS 64
#define LAB_MAX_SCENARIOS 64
#define LAB_GOV_LIST_LEN 2048
#define LAB_DEFAULT_TIME_NS (10ULL * 1000000000ULL)
#define LAB_MAX_ITER 1000

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
	const char *format;       /* --format: table, tsv, csv, json */
	bool pn_set;
	uint64_t pn_us[IL_PN_LEVELS]; /* --pn-us */
	uint64_t active_uw;       /* --active-mw, in µW */
};

/**
 * lab_parse_args - parse the options of run (@compare false) or compare (true)
 * Return: CLI_PARSE_OK, CLI_PARSE_HELP or CLI_PARSE_ERROR with @err set.
 */
int lab_parse_args(int argc, char **argv, bool compare, struct lab_args *args, struct cli_error *err);

/** lab_parse_time - "30s", "500ms", "2m", "1500us", "100ns"; a bare number is seconds */
int lab_parse_time(const char *s, uint64_t *ns);

/** lab_main - parse, run and print; Return: the exit code */
int lab_main(int argc, char **argv, bool compare);

#endif /* IDLELAB_LAB_CLI_H */
