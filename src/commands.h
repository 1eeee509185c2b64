/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * commands.h - the one explicit list of idlelab subcommands.
 *
 * Each entry X(name, summary) is a command implemented in src/cmd_<name>.c as
 *
 *	int cmd_<name>(int argc, char **argv);   argv[0] is "<name>"; returns the exit code
 *	void cmd_<name>_usage(FILE *out);        its help text ("idlelab help <name>")
 *
 * A command file is a leaf: only commands.c calls it (tests/cli/deps.t); what two commands
 * share lives in a helper file below both (cli.c, cli_opts.c, lab_cli.c, verdict_cli.c ...),
 * and cli_main() runs its lifecycle. Adding a command means adding that file and one line
 * here. Keep the summary one short line: it is the command's row in `idlelab --help`.
 */
#ifndef IDLELAB_COMMANDS_H
#define IDLELAB_COMMANDS_H

#include <stdio.h>

#define IL_COMMANDS(X)                                                                       \
	X(governors, "list the governor presets: kernel, upstream file and what changed")  \
	X(platforms, "list the built-in platforms, or show one platform's states and sources") \
	X(scenarios, "list the simulator's workloads and their parameters")                \
	X(run, "simulate one governor on a platform and scenario; the linux-pm row")      \
	X(compare, "the linux-pm table: several governors x iterations in the simulator")  \
	X(battery, "the seeds' battery: every scenario variant x governors x platforms")   \
	X(sweep, "one or two scenario parameters over ranges x governors x platforms")     \
	X(verdict, "better, worse or same than a baseline, per platform x scenario x metric") \
	X(merge, "combine the per-case outputs of sweep --emit-jobs into one result set") \
	X(report, "one offline HTML page of tables and SVG charts from result JSON files")  \
	X(step, "drive governors through a scripted sequence of idle entries")             \
	X(stats, "per-CPU, per-state statistics of a recorded trace")                      \
	X(replay, "run governors open loop over a recorded trace; agreement with it")   \
	X(kgov, "compile an upstream governor file; check a port against it")          \
	X(review, "a governor patch in, a linux-pm reply out: impact, verdict, mechanism") \
	X(measure, "live A/B of kernel governors around a command: the linux-pm table")   \
	X(states, "cpuidle states and counters of this machine, a tree or a dump; deltas")  \
	X(help, "show the help of idlelab or of one command")

#define IL_DECLARE_COMMAND(name, summary)        \
	int cmd_##name(int argc, char **argv); \
	void cmd_##name##_usage(FILE *out);
IL_COMMANDS(IL_DECLARE_COMMAND)
#undef IL_DECLARE_COMMAND

struct cli_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
	void (*usage)(FILE *out);
};

int cli_command_count(void);
const struct cli_command *cli_command_at(int i);
/** cli_command_find - the command called @name; Return: its index, or -1 */
int cli_command_find(const char *name);
/** cli_print_usage - the overview: synopsis, commands, exit codes */
void cli_print_usage(FILE *out);

#endif /* IDLELAB_COMMANDS_H */
