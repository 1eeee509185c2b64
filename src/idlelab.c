// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlelab.c - main(): the global options, then the subcommand (src/commands.h).
 */
#include <stdio.h>

#include "cli.h"
#include "commands.h"

int main(int argc, char **argv)
{
	struct global_args args;
	struct cli_error err;

	if (global_parse_args(argc, argv, &args, &err) != CLI_PARSE_OK) {
		fprintf(stderr, "idlelab: %s\n\n", err.msg);
		cli_print_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	switch (args.action) {
	case GLOBAL_HELP:
		cli_print_usage(stdout);
		return CLI_EXIT_OK;
	case GLOBAL_VERSION:
		printf("idlelab %s\n", IDLELAB_VERSION);
		return CLI_EXIT_OK;
	case GLOBAL_COMMAND:
		return cli_command_at(args.command)->run(args.argc, args.argv);
	default:
		return CLI_EXIT_USAGE;
	}
}
