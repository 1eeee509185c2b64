/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kgov_args.h - the arguments of `idlelab kgov` and their pure parser, kgov_args.c (tested in
 * tests/unit/test_cli.c).
 */
#ifndef IDLELAB_KGOV_ARGS_H
#define IDLELAB_KGOV_ARGS_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "progress.h"

enum kgov_action { KGOV_BUILD = 1, KGOV_CHECK, KGOV_RECORD, KGOV_VERIFY, KGOV_DIFF };

enum kgov_format { KGOV_FMT_TABLE, KGOV_FMT_JSON };

struct kgov_args {
	enum kgov_action action;
	const char *src;          /* SRC.c (or OBJ.so for check) */
	const char *out;          /* build -o */
	const char *against;      /* check, verify --against */
	const char *as;           /* record --as */
	bool steps_set, seed_set;
	const char *platform;     /* check -p */
	bool random_platforms;    /* check --random-platforms (the default) */
	unsigned long long steps; /* check --steps */
	unsigned long long seed;  /* check --seed */
	bool verbose;
	enum progress_mode progress; /* check, record: --progress, --no-progress */
	const char *src2;         /* diff: NEW (src is OLD) */
	unsigned long long show;  /* diff --show */
	bool show_set;
	enum kgov_format format;  /* diff -f */
	bool format_set;
	const char *scenario;     /* diff --scenario PLATFORM:SCEN */
	uint64_t time_ns;         /* diff --time: --scenario's run length (0: the default) */
};

#define KGOV_DEFAULT_SHOW 5ULL

#define KGOV_DEFAULT_STEPS 100000ULL

/* The pure parser: no I/O. Return: CLI_PARSE_OK, CLI_PARSE_HELP or CLI_PARSE_ERROR. */
int kgov_parse_args(int argc, char **argv, struct kgov_args *args, struct cli_error *err);

/** kgov_ends_with - whether @s ends with @suffix (".c", ".so", ".xz") */
bool kgov_ends_with(const char *s, const char *suffix);

#endif /* IDLELAB_KGOV_ARGS_H */
