// SPDX-License-Identifier: GPL-2.0-only
/*
 * kgov_args.c - the options of `idlelab kgov` and their pure parser, kgov_parse_args()
 * (tested in tests/unit/test_cli.c), shared by the actions' files.
 */
#include <string.h>

#include "cli.h"
#include "cli_opts.h"
#include "kgov_args.h"
#include "util/parse.h"

enum {
	KGOV_OPT_VERBOSE = 1,
	KGOV_OPT_AGAINST,
	KGOV_OPT_STEPS,
	KGOV_OPT_SEED,
	KGOV_OPT_RANDOM,
	KGOV_OPT_AS,
	KGOV_OPT_SHOW,
	KGOV_OPT_FORMAT,
	KGOV_OPT_SCENARIO,
};

static const struct cli_opt kgov_opts[] = {
	/* -s and -n are --seed and --steps here; -f is table or json */
	CLI_OPTS_HELP, CLI_OPTS_OUT,
	{ KGOV_OPT_VERBOSE, 'v', "verbose", false },
	{ KGOV_OPT_AGAINST, 'a', "against", true },
	{ KGOV_OPT_STEPS, 'n', "steps", true },
	{ KGOV_OPT_SEED, 's', "seed", true },
	CLI_OPTS_PLAT,
	{ KGOV_OPT_RANDOM, 0, "random-platforms", false },
	{ KGOV_OPT_AS, 0, "as", true },
	CLI_OPTS_PROGRESS,
	{ KGOV_OPT_SHOW, 0, "show", true },
	{ KGOV_OPT_FORMAT, 'f', "format", true },
	{ KGOV_OPT_SCENARIO, 0, "scenario", true },
	CLI_OPTS_TIME,
	{ 0 },
};

/* Base 10 like every other command (lib/util/parse.h): "010" is ten, "0x10" is refused. */
static int parse_count(const char *s, unsigned long long *out)
{
	uint64_t v;

	if (il_parse_count(s, 0, UINT64_MAX, &v))
		return -1;
	*out = v;
	return 0;
}

bool kgov_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* One option of kgov_opts. Return: CLI_PARSE_OK, or CLI_PARSE_ERROR with @err set. */
static int kgov_option(struct kgov_args *args, int id, const char *value, struct cli_error *err)
{
	switch (id) {
	case CLI_OPT_OUT:
		args->out = value;
		return CLI_PARSE_OK;
	case KGOV_OPT_VERBOSE:
		args->verbose = true;
		return CLI_PARSE_OK;
	case KGOV_OPT_AGAINST:
		args->against = value;
		return CLI_PARSE_OK;
	case KGOV_OPT_STEPS:
		if (parse_count(value, &args->steps) || !args->steps)
			return cli_error_set(err, "--steps takes a positive count, not '%s'",
					     value);
		args->steps_set = true;
		return CLI_PARSE_OK;
	case KGOV_OPT_SEED:
		if (parse_count(value, &args->seed))
			return cli_error_set(err, "--seed takes a non-negative number, not '%s'",
					     value);
		args->seed_set = true;
		return CLI_PARSE_OK;
	case KGOV_OPT_AS:
		args->as = value;
		return CLI_PARSE_OK;
	case KGOV_OPT_SHOW:
		if (parse_count(value, &args->show) || args->show > 1000)
			return cli_error_set(err, "--show takes a count up to 1000, not '%s'",
					     value);
		args->show_set = true;
		return CLI_PARSE_OK;
	case KGOV_OPT_FORMAT:
		if (!strcmp(value, "table"))
			args->format = KGOV_FMT_TABLE;
		else if (!strcmp(value, "json"))
			args->format = KGOV_FMT_JSON;
		else
			return cli_error_set(err, "unknown format '%s' (table or json)", value);
		args->format_set = true;
		return CLI_PARSE_OK;
	case KGOV_OPT_SCENARIO:
		args->scenario = value;
		return CLI_PARSE_OK;
	case CLI_OPT_TIME:
		return cli_opt_time(value, &args->time_ns, err);
	case CLI_OPT_PLAT:
		args->platform = value;
		return CLI_PARSE_OK;
	case KGOV_OPT_RANDOM:
		args->random_platforms = true;
		return CLI_PARSE_OK;
	case CLI_OPT_PROGRESS:
	case CLI_OPT_NO_PROGRESS:
		return cli_opt_progress(id, &args->progress);
	}
	return CLI_PARSE_OK;
}

/* The action, then its file(s). */
static int kgov_positional(struct kgov_args *args, const char *value, struct cli_error *err)
{
	if (!args->action) {
		if (!strcmp(value, "build"))
			args->action = KGOV_BUILD;
		else if (!strcmp(value, "check"))
			args->action = KGOV_CHECK;
		else if (!strcmp(value, "record"))
			args->action = KGOV_RECORD;
		else if (!strcmp(value, "verify"))
			args->action = KGOV_VERIFY;
		else if (!strcmp(value, "diff"))
			args->action = KGOV_DIFF;
		else
			return cli_error_set(err, "unknown action '%s' (build, check, record, "
					     "verify or diff)", value);
	} else if (!args->src) {
		args->src = value;
	} else if (args->action == KGOV_DIFF && !args->src2) {
		args->src2 = value;
	} else {
		return cli_error_set(err, "more than one %s given",
				     args->action == KGOV_VERIFY ? "vector file" : "source file");
	}
	return CLI_PARSE_OK;
}

static int kgov_check_diff(const struct kgov_args *args, struct cli_error *err)
{
	if (!args->src || !args->src2)
		return cli_error_set(err,
				     "diff needs OLD and NEW (C files, .so objects or presets)");
	if (args->against || args->out)
		return cli_error_set(err, "diff takes OLD NEW, not --against or -o");
	if (args->platform && args->random_platforms)
		return cli_error_set(err, "-p and --random-platforms exclude each other");
	if (args->scenario && (args->platform || args->random_platforms || args->steps_set))
		return cli_error_set(err, "--scenario replays one lab run: it excludes -p, "
				     "--random-platforms and --steps (--seed is the run's)");
	if (args->time_ns && !args->scenario)
		return cli_error_set(err, "--time is the length of --scenario's lab run");
	if (args->scenario && !strchr(args->scenario, ':'))
		return cli_error_set(err, "--scenario takes PLATFORM:SCENARIO, not '%s'",
				     args->scenario);
	return CLI_PARSE_OK;
}

/* What each action needs and refuses, once every option is known. */
static int kgov_check_action(const struct kgov_args *args, struct cli_error *err)
{
	if (!args->action)
		return cli_error_set(err, "no action given (build, check, record, verify or diff)");
	if (args->action != KGOV_DIFF &&
	    (args->show_set || args->format_set || args->scenario || args->time_ns))
		return cli_error_set(err, "--show, -f, --scenario and --time are options of diff");
	if (args->action == KGOV_DIFF)
		return kgov_check_diff(args, err);
	if (!args->src)
		return cli_error_set(err, args->action == KGOV_VERIFY ? "no vector file given"
							       : "no governor source file given");
	if (args->as && args->action != KGOV_RECORD)
		return cli_error_set(err, "--as is an option of record and diff");
	if (args->action == KGOV_RECORD) {
		if (!args->out)
			return cli_error_set(err,
					     "record needs -o FILE (the vector file to write)");
		if (args->against)
			return cli_error_set(err, "record takes --as PRESET, not --against");
		if (args->platform && args->random_platforms)
			return cli_error_set(err, "-p and --random-platforms exclude each other");
		return CLI_PARSE_OK;
	}
	if (args->action == KGOV_VERIFY) {
		if (!args->against)
			return cli_error_set(err,
					     "verify needs --against PRESET (the port to replay)");
		if (args->out || args->platform || args->random_platforms || args->steps_set ||
		    args->seed_set)
			return cli_error_set(err,
					     "verify takes only --against: the seed, steps and "
					     "platform come from the vector file");
		return CLI_PARSE_OK;
	}
	if (args->action == KGOV_BUILD) {
		if (args->against || args->platform || args->random_platforms)
			return cli_error_set(err,
				"--against, -p and --random-platforms are options of check");
		if (kgov_ends_with(args->src, ".so"))
			return cli_error_set(err, "build takes a C source file, not '%s'",
					     args->src);
	} else {
		if (!args->against)
			return cli_error_set(err,
				"check needs --against PRESET (the port to compare with)");
		if (args->out)
			return cli_error_set(err, "-o is an option of build");
		if (args->platform && args->random_platforms)
			return cli_error_set(err, "-p and --random-platforms exclude each other");
	}
	return CLI_PARSE_OK;
}

int kgov_parse_args(int argc, char **argv, struct kgov_args *args, struct cli_error *err)
{
	struct cli_scan s;
	const char *value;
	int id, ret = CLI_PARSE_OK;

	memset(args, 0, sizeof(*args));
	args->steps = KGOV_DEFAULT_STEPS;
	args->seed = 1;
	args->show = KGOV_DEFAULT_SHOW;
	cli_scan_init(&s, argc, argv);
	while (ret == CLI_PARSE_OK &&
	       (id = cli_next_opt(&s, kgov_opts, &value, err)) != CLI_OPT_END) {
		if (id == CLI_PARSE_ERROR)
			return CLI_PARSE_ERROR;
		if (id == CLI_OPT_HELP)
			return CLI_PARSE_HELP;
		ret = id == CLI_OPT_POSITIONAL ? kgov_positional(args, value, err) :
						 kgov_option(args, id, value, err);
	}
	return ret == CLI_PARSE_OK ? kgov_check_action(args, err) : ret;
}
