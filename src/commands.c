// SPDX-License-Identifier: GPL-2.0-only
/*
 * commands.c - the subcommand table, the global options, and `idlelab help`.
 */
#include <string.h>

#include "cli.h"
#include "cli_opts.h"
#include "commands.h"
#include "complete.h"
#include "util/array.h"

static const struct cli_command commands[] = {
#define IL_COMMAND_ENTRY(name, summary) { #name, summary, cmd_##name, cmd_##name##_usage },
	IL_COMMANDS(IL_COMMAND_ENTRY)
#undef IL_COMMAND_ENTRY
};

/* The names alone, for `help --complete commands`. */
static const char *const command_names[] = {
#define IL_COMMAND_NAME(name, summary) #name,
	IL_COMMANDS(IL_COMMAND_NAME)
#undef IL_COMMAND_NAME
	NULL,
};

int cli_command_count(void)
{
	return (int)ARRAY_SIZE(commands);
}

const struct cli_command *cli_command_at(int i)
{
	return i >= 0 && i < cli_command_count() ? &commands[i] : NULL;
}

int cli_command_find(const char *name)
{
	for (int i = 0; i < cli_command_count(); i++)
		if (!strcmp(commands[i].name, name))
			return i;
	return -1;
}

void cli_print_usage(FILE *out)
{
	fprintf(out, "usage: idlelab COMMAND [ARGS...]\n"
		     "       idlelab --help | --version\n"
		     "\n"
		     "Faithful ports of the Linux cpuidle governors, in a lab.\n"
		     "\n"
		     "Commands:\n");
	for (int i = 0; i < cli_command_count(); i++)
		fprintf(out, "  %-12s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n"
		     "Run 'idlelab help COMMAND' for a command's options.\n"
		     "\n"
		     "Exit status (every command; see idlelab(1)):\n"
		     "  0  success\n"
		     "  1  bad input or failure: a file that cannot be read or written, a bad "
		     "platform\n"
		     "     file, step script, rt-app file or trace, a file: governor that does not "
		     "load, a compiler\n"
		     "     failure, a run that failed, a kgov difference\n"
		     "  2  usage error (bad option, missing argument, unknown command, governor "
		     "or\n"
		     "     built-in name)\n"
		     "  3  a verdict or threshold failed (--fail-on)\n"
		     "  128+N  killed by signal N (130: SIGINT, 143: SIGTERM); measure first puts "
		     "back\n"
		     "     every setting it changed\n");
}

int global_parse_args(int argc, char **argv, struct global_args *args, struct cli_error *err)
{
	const char *first;

	memset(args, 0, sizeof(*args));
	args->action = GLOBAL_USAGE_ERROR;
	if (argc < 2)
		return cli_error_set(err, "no command given");
	first = argv[1];
	if (!strcmp(first, "--help") || !strcmp(first, "-h")) {
		args->action = GLOBAL_HELP;
		return CLI_PARSE_OK;
	}
	if (!strcmp(first, "--version") || !strcmp(first, "-V")) {
		args->action = GLOBAL_VERSION;
		return CLI_PARSE_OK;
	}
	if (first[0] == '-')
		return cli_error_set(err, "unknown option '%s'", first);
	args->command = cli_command_find(first);
	if (args->command < 0)
		return cli_error_set(err, "unknown command '%s'", first);
	args->action = GLOBAL_COMMAND;
	args->argc = argc - 1;
	args->argv = argv + 1;
	return CLI_PARSE_OK;
}

/* ---- idlelab help ------------------------------------------------------------------------- */

enum { HELP_OPT_COMPLETE = 1 };

static const struct cli_opt help_opts[] = {
	CLI_OPTS_HELP,
	{ HELP_OPT_COMPLETE, 0, "complete", true },
	{ 0 },
};

int help_parse_args(int argc, char **argv, struct help_args *args, struct cli_error *err)
{
	struct cli_scan s;
	const char *value;
	int id;

	memset(args, 0, sizeof(*args));
	cli_scan_init(&s, argc, argv);
	while ((id = cli_next_opt(&s, help_opts, &value, err)) != CLI_OPT_END) {
		switch (id) {
		case CLI_PARSE_ERROR:
			return CLI_PARSE_ERROR;
		case CLI_OPT_HELP:
			return CLI_PARSE_HELP;
		case HELP_OPT_COMPLETE:
			args->complete = value;
			break;
		case CLI_OPT_POSITIONAL:
			if (args->complete && !args->complete_arg && !args->command) {
				args->complete_arg = value;
				break;
			}
			if (args->command)
				return cli_error_set(err, "help takes at most one command");
			if (cli_command_find(value) < 0)
				return cli_error_set(err, "unknown command '%s'", value);
			args->command = value;
			break;
		}
	}
	if (args->complete && args->command)
		return cli_error_set(err, "--complete takes no command");
	return CLI_PARSE_OK;
}

void cmd_help_usage(FILE *out)
{
	fprintf(out, "usage: idlelab help [COMMAND]\n"
		     "       idlelab help --complete WHAT [ARG]\n"
		     "\n"
		     "Show the overview of idlelab, or the options of COMMAND.\n"
		     "\n"
		     "      --complete WHAT  print one name per line, for shell completion: "
		     "commands,\n"
		     "                       governors, platforms, scenarios, params SCENARIO "
		     "(its\n"
		     "                       parameters, an enum's values after the name), "
		     "formats,\n"
		     "                       readers, verdict-metrics (what verdict -m takes)\n");
}

int cmd_help(int argc, char **argv)
{
	struct help_args args;
	struct cli_error err;

	switch (help_parse_args(argc, argv, &args, &err)) {
	case CLI_PARSE_ERROR:
		return cli_usage_error("help", err.msg);
	case CLI_PARSE_HELP:
		cmd_help_usage(stdout);
		return CLI_EXIT_OK;
	}
	if (args.complete) {
		if (cli_complete(stdout, args.complete, args.complete_arg, command_names))
			return cli_usage_error("help", "--complete: unknown list or argument "
						       "(" COMPLETE_WHAT ")");
		return CLI_EXIT_OK;
	}
	if (args.command)
		commands[cli_command_find(args.command)].usage(stdout);
	else
		cli_print_usage(stdout);
	return CLI_EXIT_OK;
}
