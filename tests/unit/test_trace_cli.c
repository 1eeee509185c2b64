// SPDX-License-Identifier: GPL-2.0-only
/*
 * The argument parsers of `idlelab stats` and `idlelab replay` (src/trace_cli.c): every
 * option, its defaults, and every usage error, without I/O.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/trace_cli.h"
#include "util/array.h"

#define ARGC(a) ((int)ARRAY_SIZE(a) - 1)

static void test_stats_defaults_and_options(void **state)
{
	char *plain[] = { "stats", "t.trace", NULL };
	char *all[] = { "stats", "-p", "skx", "-F", "perf", "-f", "json", "-o", "out.json",
			"--max-warnings", "3", "--nightmare", "50,0,700", "--no-hist", "t.perf", NULL };
	struct stats_args a;
	struct cli_error err;

	assert_int_equal(stats_parse_args(ARGC(plain), plain, &a, &err), CLI_PARSE_OK);
	assert_string_equal(a.in.trace, "t.trace");
	assert_null(a.in.platform);
	assert_null(a.in.reader);
	assert_string_equal(a.in.format, "table");
	assert_int_equal(a.in.max_warnings, TRACE_CLI_MAX_WARNINGS);
	assert_int_equal(a.nightmare_us[0], 100);
	assert_int_equal(a.nightmare_us[3], 4000);
	assert_int_equal(a.nightmare_us[4], 0);
	assert_false(a.no_hist);

	assert_int_equal(stats_parse_args(ARGC(all), all, &a, &err), CLI_PARSE_OK);
	assert_string_equal(a.in.platform, "skx");
	assert_string_equal(a.in.reader, "perf");
	assert_string_equal(a.in.format, "json");
	assert_string_equal(a.in.output, "out.json");
	assert_int_equal(a.in.max_warnings, 3);
	assert_int_equal(a.nightmare_us[0], 50);
	assert_int_equal(a.nightmare_us[1], 0);
	assert_int_equal(a.nightmare_us[2], 700);
	assert_int_equal(a.nightmare_us[3], 0);
	assert_true(a.no_hist);
	assert_string_equal(a.in.trace, "t.perf");
}

static void stats_error(char **argv, int argc, const char *want)
{
	struct stats_args a;
	struct cli_error err;

	assert_int_equal(stats_parse_args(argc, argv, &a, &err), CLI_PARSE_ERROR);
	if (!strstr(err.msg, want))
		fail_msg("'%s' does not say '%s'", err.msg, want);
}

static void test_stats_errors(void **state)
{
	char *none[] = { "stats", NULL };
	char *two[] = { "stats", "a", "b", NULL };
	char *reader[] = { "stats", "-F", "nosuch", "a", NULL };
	char *format[] = { "stats", "-f", "xml", "a", NULL };
	char *nm[] = { "stats", "--nightmare", "1,-2", "a", NULL };
	char *nm_empty[] = { "stats", "--nightmare", ",", "a", NULL };
	char *warn[] = { "stats", "--max-warnings", "x", "a", NULL };
	char *opt[] = { "stats", "--bogus", "a", NULL };
	char *help[] = { "stats", "-h", NULL };
	struct stats_args a;
	struct cli_error err;

	stats_error(none, ARGC(none), "no trace");
	stats_error(two, ARGC(two), "one trace at a time");
	stats_error(reader, ARGC(reader), "unknown input format");
	stats_error(format, ARGC(format), "unknown format");
	stats_error(nm, ARGC(nm), "not a number");
	stats_error(nm_empty, ARGC(nm_empty), "needs a list");
	stats_error(warn, ARGC(warn), "--max-warnings");
	stats_error(opt, ARGC(opt), "bogus");
	assert_int_equal(stats_parse_args(ARGC(help), help, &a, &err), CLI_PARSE_HELP);
}

static void test_replay_options(void **state)
{
	char *argv[] = { "replay", "-g", "menu,teo", "-g", "oracle", "-r", "menu-6.18", "--hz", "250",
			 "--cpu", "3", "--param", "guest_halt_poll_ns=0", "--periods", "-p", "haltpoll-vm",
			 "t.trace", NULL };
	char *only_recorded[] = { "replay", "-r", "menu-6.18", "t.trace", NULL };
	struct replay_args a;
	struct cli_error err;

	assert_int_equal(replay_parse_args(ARGC(argv), argv, &a, &err), CLI_PARSE_OK);
	assert_int_equal(a.ngov, 3);
	assert_string_equal(a.governors[0], "menu");
	assert_string_equal(a.governors[1], "teo");
	assert_string_equal(a.governors[2], "oracle");
	assert_string_equal(a.recorded, "menu-6.18");
	assert_int_equal(a.hz, 250);
	assert_int_equal(a.cpu, 3);
	assert_int_equal(a.nparams, 1);
	assert_string_equal(a.params[0], "guest_halt_poll_ns=0");
	assert_true(a.periods);
	assert_string_equal(a.in.platform, "haltpoll-vm");
	assert_string_equal(a.in.trace, "t.trace");

	assert_int_equal(replay_parse_args(ARGC(only_recorded), only_recorded, &a, &err), CLI_PARSE_OK);
	assert_int_equal(a.ngov, 0);
	assert_int_equal(a.cpu, -1);
	assert_int_equal(a.hz, 0);
}

static void replay_error(char **argv, int argc, const char *want)
{
	struct replay_args a;
	struct cli_error err;

	assert_int_equal(replay_parse_args(argc, argv, &a, &err), CLI_PARSE_ERROR);
	if (!strstr(err.msg, want))
		fail_msg("'%s' does not say '%s'", err.msg, want);
}

static void test_replay_errors(void **state)
{
	char *nogov[] = { "replay", "t", NULL };
	char *notrace[] = { "replay", "-g", "menu", NULL };
	char *hz[] = { "replay", "-g", "menu", "--hz", "0", "t", NULL };
	char *cpu[] = { "replay", "-g", "menu", "--cpu", "-1", "t", NULL };
	char *param[] = { "replay", "-g", "menu", "--param", "novalue", "t", NULL };
	char *missing[] = { "replay", "t", "-g", NULL };

	replay_error(nogov, ARGC(nogov), "no governor");
	replay_error(notrace, ARGC(notrace), "no trace");
	replay_error(hz, ARGC(hz), "--hz");
	replay_error(cpu, ARGC(cpu), "--cpu");
	replay_error(param, ARGC(param), "NAME=VALUE");
	replay_error(missing, ARGC(missing), "needs a value");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats_defaults_and_options),
		cmocka_unit_test(test_stats_errors),
		cmocka_unit_test(test_replay_options),
		cmocka_unit_test(test_replay_errors),
	};

	return cmocka_run_group_tests_name("trace_cli", tests, NULL, NULL);
}
