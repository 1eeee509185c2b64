// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CLI's pure argument parsers: every option in its short and long forms, the values
 * they take, and the usage errors (which become exit status 2). Linked with the CLI objects
 * except main() (see the test_cli rule in the Makefile).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../src/cli.h"
#include "../../src/cli_opts.h"
#include "../../src/commands.h"
#include "../../src/kgov_args.h"
#include "../../src/lab_cli.h"
#include "../../src/perfetto_cli.h"
#include "../../src/trace_cli.h"
#include "util/array.h"

#define ARGV(...) ((char *[]){ __VA_ARGS__, NULL })
#define ARGC(...) ((int)(sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *)))
#define PARSE(fn, args, err, ...) fn(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), args, err)

static void test_global(void **state)
{
	struct global_args g;
	struct cli_error err;

	assert_int_equal(global_parse_args(1, ARGV("idlelab"), &g, &err), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "no command given");
	assert_int_equal(PARSE(global_parse_args, &g, &err, "idlelab", "--help"), CLI_PARSE_OK);
	assert_int_equal(g.action, GLOBAL_HELP);
	assert_int_equal(PARSE(global_parse_args, &g, &err, "idlelab", "-h"), CLI_PARSE_OK);
	assert_int_equal(g.action, GLOBAL_HELP);
	assert_int_equal(PARSE(global_parse_args, &g, &err, "idlelab", "--version"), CLI_PARSE_OK);
	assert_int_equal(g.action, GLOBAL_VERSION);
	assert_int_equal(PARSE(global_parse_args, &g, &err, "idlelab", "-V"), CLI_PARSE_OK);
	assert_int_equal(g.action, GLOBAL_VERSION);
	assert_int_equal(PARSE(global_parse_args, &g, &err, "idlelab", "--frobnicate"), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "unknown option '--frobnicate'");
	assert_int_equal(PARSE(global_parse_args, &g, &err, "idlelab", "frobnicate"), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "unknown command 'frobnicate'");
	assert_int_equal(PARSE(global_parse_args, &g, &err, "idlelab", "step", "-g", "menu"), CLI_PARSE_OK);
	assert_int_equal(g.action, GLOBAL_COMMAND);
	assert_string_equal(cli_command_at(g.command)->name, "step");
	assert_int_equal(g.argc, 3);
	assert_string_equal(g.argv[0], "step");
	assert_string_equal(g.argv[2], "menu");
}

static void test_command_table(void **state)
{
	static const char *const expected[] = { "governors", "platforms", "step", "help" };

	for (size_t i = 0; i < ARRAY_SIZE(expected); i++) {
		int idx = cli_command_find(expected[i]);

		assert_true(idx >= 0);
		assert_non_null(cli_command_at(idx)->run);
		assert_non_null(cli_command_at(idx)->usage);
		assert_true(strlen(cli_command_at(idx)->summary) > 10);
	}
	assert_int_equal(cli_command_find("nope"), -1);
	assert_null(cli_command_at(cli_command_count()));
}

static void test_governors_args(void **state)
{
	struct governors_args a;
	struct cli_error err;

	assert_int_equal(PARSE(governors_parse_args, &a, &err, "governors"), CLI_PARSE_OK);
	assert_int_equal(a.format, CLI_FORMAT_TABLE);
	assert_int_equal(PARSE(governors_parse_args, &a, &err, "governors", "-f", "csv"), CLI_PARSE_OK);
	assert_int_equal(a.format, CLI_FORMAT_CSV);
	assert_int_equal(PARSE(governors_parse_args, &a, &err, "governors", "-fjson"), CLI_PARSE_OK);
	assert_int_equal(a.format, CLI_FORMAT_JSON);
	assert_int_equal(PARSE(governors_parse_args, &a, &err, "governors", "--format=csv"), CLI_PARSE_OK);
	assert_int_equal(a.format, CLI_FORMAT_CSV);
	assert_int_equal(PARSE(governors_parse_args, &a, &err, "governors", "--format", "table"), CLI_PARSE_OK);
	assert_int_equal(a.format, CLI_FORMAT_TABLE);
	assert_int_equal(PARSE(governors_parse_args, &a, &err, "governors", "-h"), CLI_PARSE_HELP);
	assert_int_equal(PARSE(governors_parse_args, &a, &err, "governors", "--help"), CLI_PARSE_HELP);
	assert_int_equal(PARSE(governors_parse_args, &a, &err, "governors", "-f", "xml"), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "unknown format 'xml' (table, csv or json)");
	assert_int_equal(PARSE(governors_parse_args, &a, &err, "governors", "-f"), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "option '-f' needs a value");
	assert_int_equal(PARSE(governors_parse_args, &a, &err, "governors", "menu"), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "unexpected argument 'menu'");
	assert_int_equal(PARSE(governors_parse_args, &a, &err, "governors", "--help=1"), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "option '--help' takes no value");
	assert_int_equal(PARSE(governors_parse_args, &a, &err, "governors", "-x"), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "unknown option '-x'");
}

static void test_platforms_args(void **state)
{
	struct platforms_args a;
	struct cli_error err;

	assert_int_equal(PARSE(platforms_parse_args, &a, &err, "platforms"), CLI_PARSE_OK);
	assert_null(a.platform);
	assert_int_equal(PARSE(platforms_parse_args, &a, &err, "platforms", "skx", "-f", "json"),
			 CLI_PARSE_OK);
	assert_string_equal(a.platform, "skx");
	assert_int_equal(a.format, CLI_FORMAT_JSON);
	/* After "--" a name that looks like an option is a platform file. */
	assert_int_equal(PARSE(platforms_parse_args, &a, &err, "platforms", "--", "-odd.plat"),
			 CLI_PARSE_OK);
	assert_string_equal(a.platform, "-odd.plat");
	assert_int_equal(PARSE(platforms_parse_args, &a, &err, "platforms", "skx", "icx"),
			 CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "more than one platform given");
	assert_int_equal(PARSE(platforms_parse_args, &a, &err, "platforms", "--formats", "csv"),
			 CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "unknown option '--formats'");
}

static void test_step_args(void **state)
{
	struct step_args a;
	struct cli_error err;

	assert_int_equal(PARSE(step_parse_args, &a, &err, "step", "-g", "menu,teo-6.13", "-p", "skx",
			       "--input", "builtin:demo"),
			 CLI_PARSE_OK);
	assert_int_equal(a.ngov, 2);
	assert_string_equal(a.governors[0], "menu");
	assert_string_equal(a.governors[1], "teo-6.13");
	assert_string_equal(a.platform, "skx");
	assert_string_equal(a.input, "builtin:demo");
	assert_null(a.output);
	assert_int_equal(a.format, CLI_FORMAT_TABLE);
	assert_false(a.all_vars || a.detail || a.print_input);
	assert_int_equal(a.hz, 0);

	assert_int_equal(PARSE(step_parse_args, &a, &err, "step", "--governor=menu", "-gladder",
			       "--governor", "oracle,haltpoll", "--platform=./x.plat", "-i", "-",
			       "-o", "out.csv", "--format", "csv", "--vars", "--detail", "--hz", "250",
			       "--param", "guest_halt_poll_ns=0", "--param=guest_halt_poll_grow=4"),
			 CLI_PARSE_OK);
	assert_int_equal(a.ngov, 4);
	assert_string_equal(a.governors[1], "ladder");
	assert_string_equal(a.governors[3], "haltpoll");
	assert_string_equal(a.platform, "./x.plat");
	assert_string_equal(a.input, "-");
	assert_string_equal(a.output, "out.csv");
	assert_int_equal(a.format, CLI_FORMAT_CSV);
	assert_true(a.all_vars && a.detail);
	assert_int_equal(a.hz, 250);
	assert_int_equal(a.nparams, 2);
	assert_string_equal(a.params[1], "guest_halt_poll_grow=4");

	/* --print-input needs only the input. */
	assert_int_equal(PARSE(step_parse_args, &a, &err, "step", "--print-input", "-i", "builtin:demo"),
			 CLI_PARSE_OK);
	assert_true(a.print_input);
	assert_int_equal(PARSE(step_parse_args, &a, &err, "step", "-h", "-g"), CLI_PARSE_HELP);
}

static const struct {
	const char *args[12];
	const char *want;
} step_errors[] = {
	{ { "step", "-p", "skx", "-i", "x" }, "no governor given (-g GOV[,GOV...])" },
	{ { "step", "-g", "menu", "-i", "x" }, "no platform given (-p NAME or -p FILE.plat)" },
	{ { "step", "-g", "menu", "-p", "skx" }, "no input given (--input FILE, --input - or --input builtin:demo)" },
	{ { "step", "-g", "menu,,teo", "-p", "skx", "-i", "x" }, "empty governor name in 'menu,,teo'" },
	{ { "step", "-g", "menu,", "-p", "skx", "-i", "x" }, "empty governor name in 'menu,'" },
	{ { "step", "-g", "menu", "-p", "skx", "-p", "icx", "-i", "x" }, "more than one platform given" },
	{ { "step", "-g", "menu", "-p", "skx", "-i", "x", "-i", "y" }, "more than one input given" },
	{ { "step", "-g", "menu", "-p", "skx", "-i", "x", "--hz", "200" }, "invalid --hz '200' (CONFIG_HZ: 100, 250, 300 or 1000)" },
	{ { "step", "-g", "menu", "-p", "skx", "-i", "x", "--param", "knob" }, "invalid --param 'knob' (NAME=VALUE)" },
	{ { "step", "-g", "menu", "-p", "skx", "-i", "x", "--param", "=1" }, "invalid --param '=1' (NAME=VALUE)" },
	{ { "step", "-g", "menu", "-p", "skx", "-i", "x", "-f", "yaml" }, "unknown format 'yaml' (table, csv or json)" },
	{ { "step", "-g", "menu", "-p", "skx", "-i", "builtin:" }, "empty built-in script name in 'builtin:'" },
	{ { "step", "-g", "menu", "-p", "skx", "script.step" }, "unexpected argument 'script.step' (the script is given with --input)" },
	{ { "step", "-g", "menu", "-p", "skx", "-i" }, "option '-i' needs a value" },
	{ { "step", "-g", "menu", "-p", "skx", "-i", "x", "--vars=yes" }, "option '--vars' takes no value" },
	{ { "step", "-gmenu", "-p", "skx", "-i", "x", "-vd" }, "unknown option '-v'" },
};

static void test_step_arg_errors(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(step_errors); i++) {
		struct step_args a;
		struct cli_error err;
		int argc = 0;

		while (step_errors[i].args[argc])
			argc++;
		if (step_parse_args(argc, (char **)step_errors[i].args, &a, &err) != CLI_PARSE_ERROR)
			fail_msg("case %zu accepted", i);
		if (strcmp(err.msg, step_errors[i].want))
			fail_msg("case %zu: got \"%s\", want \"%s\"", i, err.msg, step_errors[i].want);
	}
}

static void test_help_args(void **state)
{
	struct help_args a;
	struct cli_error err;

	assert_int_equal(PARSE(help_parse_args, &a, &err, "help"), CLI_PARSE_OK);
	assert_null(a.command);
	assert_int_equal(PARSE(help_parse_args, &a, &err, "help", "step"), CLI_PARSE_OK);
	assert_string_equal(a.command, "step");
	assert_int_equal(PARSE(help_parse_args, &a, &err, "help", "--help"), CLI_PARSE_HELP);
	assert_int_equal(PARSE(help_parse_args, &a, &err, "help", "nope"), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "unknown command 'nope'");
	assert_int_equal(PARSE(help_parse_args, &a, &err, "help", "step", "governors"), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "help takes at most one command");
}

static void test_helpers(void **state)
{
	char buf[32];
	enum cli_format f;

	assert_string_equal(cli_ns_to_us(1995000, buf, sizeof(buf)), "1995");
	assert_string_equal(cli_ns_to_us(2500, buf, sizeof(buf)), "2.5");
	assert_string_equal(cli_ns_to_us(1, buf, sizeof(buf)), "0.001");
	assert_string_equal(cli_ns_to_us(-5000, buf, sizeof(buf)), "-5");
	assert_string_equal(cli_ns_to_us(-1230, buf, sizeof(buf)), "-1.23");
	assert_string_equal(cli_ns_to_us(0, buf, sizeof(buf)), "0");
	assert_string_equal(cli_ns_to_us(INT64_MIN, buf, sizeof(buf)), "-9223372036854775.808");
	assert_int_equal(cli_parse_format("json", &f), 0);
	assert_int_equal(f, CLI_FORMAT_JSON);
	assert_string_equal(cli_format_name(f), "json");
	assert_int_equal(cli_parse_format("JSON", &f), -1);
}

static void test_kgov_args(void **state)
{
	struct kgov_args a;
	struct cli_error err;

	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "build", "m.c"), CLI_PARSE_OK);
	assert_int_equal(a.action, KGOV_BUILD);
	assert_string_equal(a.src, "m.c");
	assert_null(a.out);
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "build", "m.c", "-o", "x.so", "-v"),
			 CLI_PARSE_OK);
	assert_string_equal(a.out, "x.so");
	assert_true(a.verbose);
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "check", "m.c", "--against",
			       "menu-7.1", "--steps", "5000", "--seed", "010", "-p", "skx"),
			 CLI_PARSE_OK);
	assert_int_equal(a.action, KGOV_CHECK);
	assert_string_equal(a.against, "menu-7.1");
	/* Base 10 as in every command: 010 is ten, not eight. */
	assert_true(a.steps == 5000 && a.seed == 10);
	assert_string_equal(a.platform, "skx");
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "check", "m.c", "--against",
			       "menu-7.1", "--seed", "0x10"), CLI_PARSE_ERROR);
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "check", "m.c", "--against",
			       "menu-7.1", "--steps", "+5"), CLI_PARSE_ERROR);
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "check", "m.so", "-a", "teo",
			       "-n", "7", "-s", "3", "--random-platforms"), CLI_PARSE_OK);
	assert_true(a.steps == 7 && a.seed == 3 && a.random_platforms);
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "check", "m.c", "-a", "menu"),
			 CLI_PARSE_OK);
	assert_true(a.steps == KGOV_DEFAULT_STEPS && a.seed == 1);
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "record", "m.c", "--as", "menu-6.18",
			       "-o", "v.kv.xz", "--steps", "1000000"), CLI_PARSE_OK);
	assert_int_equal(a.action, KGOV_RECORD);
	assert_string_equal(a.as, "menu-6.18");
	assert_string_equal(a.out, "v.kv.xz");
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "verify", "v.kv.xz", "--against",
			       "menu-6.18"), CLI_PARSE_OK);
	assert_int_equal(a.action, KGOV_VERIFY);
	assert_string_equal(a.src, "v.kv.xz");
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "--help"), CLI_PARSE_HELP);
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "check", "-h"), CLI_PARSE_HELP);
}

static void test_kgov_arg_errors(void **state)
{
	struct kgov_args a;
	struct cli_error err;

	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov"), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "no action given (build, check, record, verify or diff)");
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "make", "m.c"), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "unknown action 'make' (build, check, record, verify or diff)");
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "build"), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "no governor source file given");
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "verify"), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "no vector file given");
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "build", "a.c", "b.c"), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "more than one source file given");
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "build", "m.so"), CLI_PARSE_ERROR);
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "build", "m.c", "-a", "menu"),
			 CLI_PARSE_ERROR);
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "check", "m.c"), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "check needs --against PRESET (the port to compare with)");
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "check", "m.c", "-a", "menu", "-o",
			       "x"), CLI_PARSE_ERROR);
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "check", "m.c", "-a", "menu", "-p",
			       "skx", "--random-platforms"), CLI_PARSE_ERROR);
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "check", "m.c", "-a", "menu",
			       "--steps", "0"), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "--steps takes a positive count, not '0'");
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "check", "m.c", "-a", "menu",
			       "--seed", "-2"), CLI_PARSE_ERROR);
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "check", "m.c", "-a", "menu",
			       "--steps", "12x"), CLI_PARSE_ERROR);
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "check", "m.c", "-a", "menu",
			       "--as", "menu"), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "--as is an option of record and diff");
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "record", "m.c"), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "record needs -o FILE (the vector file to write)");
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "record", "m.c", "-o", "v", "-a",
			       "menu"), CLI_PARSE_ERROR);
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "record", "m.c", "-o", "v", "-p",
			       "skx", "--random-platforms"), CLI_PARSE_ERROR);
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "verify", "v"), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "verify needs --against PRESET (the port to replay)");
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "verify", "v", "-a", "menu",
			       "--steps", "5"), CLI_PARSE_ERROR);
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "verify", "v", "w", "-a", "menu"),
			 CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "more than one vector file given");
	assert_int_equal(PARSE(kgov_parse_args, &a, &err, "kgov", "check", "m.c", "--frob"),
			 CLI_PARSE_ERROR);
}

/* lab_parse_args of run (@compare false) or compare into la. */
#define LAB_PARSE(compare, ...) lab_parse_args(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), compare, &la, &err)

/* --perfetto FILE, --perfetto-limit N and --perfetto-window A..B of run and replay. */
static void test_perfetto_args(void **state)
{
	static struct lab_args la;
	static struct replay_args ra;
	struct cli_error err;
	uint64_t from, to;

	assert_int_equal(perfetto_parse_window("100ms..150ms", &from, &to), 0);
	assert_true(from == 100000000 && to == 150000000);
	assert_int_equal(perfetto_parse_window("0..1500us", &from, &to), 0);
	assert_true(from == 0 && to == 1500000);
	assert_int_equal(perfetto_parse_window("2s..", &from, &to), 0);
	assert_true(from == 2000000000 && to == 0);
	assert_int_equal(perfetto_parse_window("..3ms", &from, &to), 0);
	assert_true(from == 0 && to == 3000000);
	assert_int_equal(perfetto_parse_window("..", &from, &to), -1);
	assert_int_equal(perfetto_parse_window("3ms", &from, &to), -1);
	assert_int_equal(perfetto_parse_window("3ms..3ms", &from, &to), -1);
	assert_int_equal(perfetto_parse_window("3ms..1ms", &from, &to), -1);
	assert_int_equal(perfetto_parse_window("1ms..2ms..3ms", &from, &to), -1);
	assert_int_equal(perfetto_parse_window("-1ms..2ms", &from, &to), -1);

	assert_int_equal(LAB_PARSE(false, "run", "-g", "menu", "-p", "skx", "-s",
			       "idle"), CLI_PARSE_OK);
	assert_null(la.perfetto.path);
	assert_true(la.perfetto.limit == IL_TIMELINE_LIMIT_DEFAULT);
	assert_int_equal(LAB_PARSE(false, "run", "-g", "menu", "-p", "skx", "-s",
			       "idle", "--perfetto", "t.json", "--perfetto-limit=0", "--perfetto-window",
			       "1ms..2ms"), CLI_PARSE_OK);
	assert_string_equal(la.perfetto.path, "t.json");
	assert_true(la.perfetto.limit == 0 && la.perfetto.from_ns == 1000000 && la.perfetto.to_ns == 2000000);
	assert_int_equal(LAB_PARSE(false, "run", "-g", "menu", "-p", "skx", "-s",
			       "idle", "--perfetto-limit", "10"), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "--perfetto-limit and --perfetto-window need --perfetto FILE");
	assert_int_equal(LAB_PARSE(false, "run", "-g", "menu", "-p", "skx", "-s",
			       "idle", "--perfetto", "t", "--perfetto-limit", "1e6"), CLI_PARSE_ERROR);
	assert_int_equal(LAB_PARSE(false, "run", "-g", "menu", "-p", "skx", "-s",
			       "idle", "--perfetto", "-"), CLI_PARSE_ERROR);
	assert_int_equal(LAB_PARSE(true, "compare", "-g", "menu", "-p", "skx", "-s",
			       "idle", "--perfetto", "t"), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "--perfetto is an option of run");

	assert_int_equal(PARSE(replay_parse_args, &ra, &err, "replay", "-g", "teo", "t.trace", "--perfetto",
			       "r.json", "--perfetto-window", "5ms.."), CLI_PARSE_OK);
	assert_string_equal(ra.perfetto.path, "r.json");
	assert_true(ra.perfetto.from_ns == 5000000 && ra.perfetto.to_ns == 0);
	assert_int_equal(PARSE(replay_parse_args, &ra, &err, "replay", "-g", "teo", "t.trace",
			       "--perfetto-window", "5ms.."), CLI_PARSE_ERROR);
	assert_int_equal(PARSE(replay_parse_args, &ra, &err, "replay", "-g", "teo", "t.trace", "--perfetto",
			       "r.json", "--perfetto-window", "5ms"), CLI_PARSE_ERROR);
}

/* ---- the shared lifecycle and option helpers (src/cli.c, src/cli_opts.c) ------------------- */

enum { T_OPT_HELP = 1, T_OPT_NAME, T_OPT_FLAG };

static const struct cli_opt t_opts[] = {
	{ T_OPT_HELP, 'h', "help", false },
	{ T_OPT_NAME, 'g', "governor", true },
	{ T_OPT_FLAG, 0, "flag", false },
	{ 0 },
};

struct t_state {
	char buf[64];
	size_t used;
	const char *names[4];
	int n;
	int positionals;
	bool flag;
	int ran;      /* how often run was called */
	int released; /* how often release was called */
};

static struct t_state *t_last; /* the state cli_main() gave the steps, seen after it freed it */
static struct t_state t_seen;

static int t_option(void *state, int id, const char *value, struct cli_error *err)
{
	struct t_state *t = state;

	switch (id) {
	case T_OPT_NAME:
		return cli_append_list(value, t->buf, sizeof(t->buf), &t->used, t->names, 4, &t->n, "governor",
				       err);
	case T_OPT_FLAG:
		t->flag = true;
		return CLI_PARSE_OK;
	}
	if (!strcmp(value, "bad"))
		return cli_error_set(err, "unexpected argument '%s'", value);
	if (!strcmp(value, "stop"))
		return CLI_PARSE_STOP;
	t->positionals++;
	return CLI_PARSE_OK;
}

static int t_parse(int argc, char **argv, void *state, struct cli_error *err)
{
	t_last = state;
	return cli_parse_options(argc, argv, t_opts, T_OPT_HELP, t_option, state, err);
}

static int t_run(void *state)
{
	struct t_state *t = state;

	t->ran++;
	return t->flag ? 7 : CLI_EXIT_OK;
}

static void t_release(void *state)
{
	struct t_state *t = state;

	t->released++;
	t_seen = *t;
}

static void t_usage(FILE *out)
{
	(void)out;
}

static void test_cli_parse_options(void **state)
{
	struct t_state t;
	struct cli_error err;

	memset(&t, 0, sizeof(t));
	assert_int_equal(PARSE(t_parse, &t, &err, "x", "-g", "a,b", "pos", "--governor=c", "--flag"), CLI_PARSE_OK);
	assert_int_equal(t.n, 3);
	assert_string_equal(t.names[0], "a");
	assert_string_equal(t.names[2], "c");
	assert_int_equal(t.positionals, 1);
	assert_true(t.flag);
	/* help wins where it stands, an error stops the scan there */
	memset(&t, 0, sizeof(t));
	assert_int_equal(PARSE(t_parse, &t, &err, "x", "-g", "a", "-h", "--nope"), CLI_PARSE_HELP);
	assert_int_equal(PARSE(t_parse, &t, &err, "x", "--nope", "-h"), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "unknown option '--nope'");
	memset(&t, 0, sizeof(t));
	assert_int_equal(PARSE(t_parse, &t, &err, "x", "bad", "-h"), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "unexpected argument 'bad'");
	/* CLI_PARSE_STOP (measure's CMD): what follows is not scanned, not even a bad option */
	memset(&t, 0, sizeof(t));
	assert_int_equal(PARSE(t_parse, &t, &err, "x", "-g", "a", "stop", "--nope", "-g", "b"), CLI_PARSE_OK);
	assert_int_equal(t.n, 1);
}

static void test_cli_append_list(void **state)
{
	struct t_state t;
	struct cli_error err;

	memset(&t, 0, sizeof(t));
	assert_int_equal(PARSE(t_parse, &t, &err, "x", "-g", "a", "-g", "b,c"), CLI_PARSE_OK);
	assert_int_equal(t.n, 3);
	assert_string_equal(t.names[1], "b");
	memset(&t, 0, sizeof(t));
	assert_int_equal(PARSE(t_parse, &t, &err, "x", "-g", "a,b", "-g", "c,d,e"), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "more than 4 governors");
	memset(&t, 0, sizeof(t));
	assert_int_equal(PARSE(t_parse, &t, &err, "x", "-g", "a", "-g", ","), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "empty governor list");
	/* an empty name between names is a typo, not a name less (step refused it already) */
	memset(&t, 0, sizeof(t));
	assert_int_equal(PARSE(t_parse, &t, &err, "x", "-g", "a,,b"), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "empty governor name in 'a,,b'");
	memset(&t, 0, sizeof(t));
	assert_int_equal(PARSE(t_parse, &t, &err, "x", "-g", "a,"), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "empty governor name in 'a,'");
	memset(&t, 0, sizeof(t));
	assert_int_equal(PARSE(t_parse, &t, &err, "x", "-g", "0123456789012345678901234567890123456789",
			       "-g", "0123456789012345678901234567890"), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "governor list too long");
}

static void test_cli_main(void **state)
{
	const struct cli_lifecycle lc = {
		.name = "test", .size = sizeof(struct t_state), .parse = t_parse, .usage = t_usage,
		.run = t_run, .release = t_release,
	};

	/* a usage error: 2, run is not called, what parse left is released */
	memset(&t_seen, 0, sizeof(t_seen));
	assert_int_equal(cli_main(&lc, 2, ARGV("test", "--nope")), CLI_EXIT_USAGE);
	assert_int_equal(t_seen.ran, 0);
	assert_int_equal(t_seen.released, 1);
	/* help: 0, no run */
	memset(&t_seen, 0, sizeof(t_seen));
	assert_int_equal(cli_main(&lc, 2, ARGV("test", "-h")), CLI_EXIT_OK);
	assert_int_equal(t_seen.ran, 0);
	assert_int_equal(t_seen.released, 1);
	/* run's status is the command's; the state starts zeroed */
	memset(&t_seen, 0, sizeof(t_seen));
	assert_int_equal(cli_main(&lc, 1, ARGV("test")), CLI_EXIT_OK);
	assert_int_equal(t_seen.ran, 1);
	assert_int_equal(t_seen.n, 0);
	assert_int_equal(cli_main(&lc, 2, ARGV("test", "--flag")), 7);
	assert_int_equal(t_seen.ran, 1);
	assert_true(t_seen.flag);
	assert_non_null(t_last);
}

static void test_cli_opts(void **state)
{
	struct cli_error err;
	uint64_t ns, seed, kb;
	unsigned int jobs;
	const char *fmt = NULL;
	int iter;

	assert_int_equal(cli_opt_time("1.5s", &ns, &err), CLI_PARSE_OK);
	assert_int_equal(ns, 1500000000ULL);
	assert_int_equal(cli_opt_time("25h", &ns, &err), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "--time: '25h' is not a duration in (0, 24h] (30s, 1.5s, 500ms, 2m, 1h)");
	assert_int_equal(cli_opt_seed("010", UINT64_MAX, &seed, &err), CLI_PARSE_OK);
	assert_int_equal(seed, 10);
	assert_int_equal(cli_opt_seed("+1", UINT64_MAX, &seed, &err), CLI_PARSE_ERROR);
	assert_int_equal(cli_opt_iter("1000", &iter, &err), CLI_PARSE_OK);
	assert_int_equal(iter, 1000);
	assert_int_equal(cli_opt_iter("0", &iter, &err), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "--iter: '0' is not in [1, 1000]");
	assert_int_equal(cli_opt_jobs("257", &jobs, &err), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "--jobs: '257' is not in [1, 256]");
	assert_int_equal(cli_opt_format("tsv", &fmt, &err), CLI_PARSE_OK);
	assert_string_equal(fmt, "tsv");
	assert_int_equal(cli_opt_format("xml", &fmt, &err), CLI_PARSE_ERROR);
	assert_true(cli_default_jobs() >= 1 && cli_default_jobs() <= CLI_MAX_JOBS);
	assert_int_equal(cli_opt_count("64", "--kb", 64, 128, &kb, &err), CLI_PARSE_OK);
	assert_int_equal(kb, 64);
	assert_int_equal(cli_opt_count("63", "--kb", 64, 128, &kb, &err), CLI_PARSE_ERROR);
	assert_string_equal(err.msg, "--kb: '63' is not in [64, 128]");
	assert_int_equal(cli_opt_count("1k", "--kb", 64, 128, &kb, &err), CLI_PARSE_ERROR);
}

/* What cli_write_formatted()'s format step is given to write, and whether it fails. */
static int t_format(FILE *out, const void *ctx)
{
	int fail = *(const int *)ctx;

	fputs("abc\n", out);
	return fail;
}

static void test_cli_write_formatted(void **state)
{
	char dir[] = "/tmp/test_cli.XXXXXX", path[64], text[8] = "";
	int ok = 0, failed = 1, said = -1;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out", dir);
	/* a failed format step, said or not: -1 and no file */
	assert_int_equal(cli_write_formatted("test", path, t_format, &failed), -1);
	assert_int_equal(cli_write_formatted("test", path, t_format, &said), -1);
	assert_int_equal(access(path, F_OK), -1);
	/* else the whole text, in the file */
	assert_int_equal(cli_write_formatted("test", path, t_format, &ok), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(text, sizeof(text), f));
	fclose(f);
	assert_string_equal(text, "abc\n");
	/* a file that cannot be written: -1 */
	snprintf(path, sizeof(path), "%s/no/such/dir", dir);
	assert_int_equal(cli_write_formatted("test", path, t_format, &ok), -1);
	snprintf(path, sizeof(path), "%s/out", dir);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_global),
		cmocka_unit_test(test_command_table),
		cmocka_unit_test(test_governors_args),
		cmocka_unit_test(test_platforms_args),
		cmocka_unit_test(test_step_args),
		cmocka_unit_test(test_step_arg_errors),
		cmocka_unit_test(test_help_args),
		cmocka_unit_test(test_helpers),
		cmocka_unit_test(test_kgov_args),
		cmocka_unit_test(test_kgov_arg_errors),
		cmocka_unit_test(test_perfetto_args),
		cmocka_unit_test(test_cli_parse_options),
		cmocka_unit_test(test_cli_append_list),
		cmocka_unit_test(test_cli_main),
		cmocka_unit_test(test_cli_opts),
		cmocka_unit_test(test_cli_write_formatted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
