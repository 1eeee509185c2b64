// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_kgov.c - `idlelab kgov build|check|record|verify`: an unmodified upstream governor file
 * in the lab.
 *
 *	idlelab kgov build SRC.c [-o OUT.so] [-v]
 *	idlelab kgov check SRC.c|OBJ.so --against PRESET [--steps N] [--seed S]
 *	                   [-p PLATFORM | --random-platforms] [-v]
 *	idlelab kgov record SRC.c|OBJ.so [--as PRESET] [--steps N] [--seed S]
 *	                    [-p PLATFORM | --random-platforms] -o FILE[.xz]
 *	idlelab kgov verify FILE[.xz] --against PRESET
 *	idlelab kgov diff OLD NEW [--steps N] [--seed S] [-p PLATFORM | --random-platforms]
 *	                  [--scenario PLATFORM:SCEN] [--show K] [-f table|json]
 *
 * "build" compiles the file with the kernel-API shim (lib/kgov/, kshim/) into a shared object
 * that `-g file:OUT.so` runs like a built-in preset. "check" runs the file and a port in
 * lockstep on random inputs and stops at the first decision or internal value that differs.
 * "record" keeps what the file decided as a golden vector (lib/kgov/vector.c), "verify" replays
 * a vector against a port. Vector files ending in .xz are compressed and read through xz(1).
 * "diff" runs two governors (files or presets) on one input stream, each with its own state,
 * and counts the decisions where they differ (il_kgov_diff()).
 *
 * One file per action (kgov_build_cli.c, kgov_check_cli.c, kgov_vector_cli.c for record and
 * verify, kgov_diff_cli.c) and the shared parser (kgov_args.c); this file is the help text
 * and the dispatch.
 */
#include <string.h>

#include "cli.h"
#include "kgov_args.h"
#include "commands.h"
#include "kgov_cli.h"
#include "kgov/kgov.h"
#include "platform/platform.h"

void cmd_kgov_usage(FILE *out)
{
	fprintf(out, "usage: idlelab kgov build SRC.c [-o OUT.so] [-v]\n"
		     "       idlelab kgov check SRC.c|OBJ.so --against PRESET [--steps N] [--seed "
		     "S]\n"
		     "                          [-p PLATFORM | --random-platforms] [-v]\n"
		     "       idlelab kgov record SRC.c|OBJ.so [--as PRESET] [--steps N] [--seed "
		     "S]\n"
		     "                           [-p PLATFORM | --random-platforms] -o FILE[.xz]\n"
		     "       idlelab kgov verify FILE[.xz] --against PRESET\n"
		     "       idlelab kgov diff OLD NEW [--as PRESET] [--steps N] [--seed S]\n"
		     "                         [-p PLATFORM | --random-platforms | --scenario "
		     "PLATFORM:SCEN]\n"
		     "                         [--time T] [--show K] [-f table|json]\n"
		     "\n"
		     "Run an unmodified upstream "
		     "drivers/cpuidle/governors/{menu,teo,ladder,haltpoll}.c\n"
		     "in the lab. The file is compiled with the system compiler ($CC, else cc) "
		     "against\n"
		     "idlelab's kernel-API shim (kshim/; $IDLELAB_KSHIM_DIR overrides where it "
		     "is).\n"
		     "\n"
		     "build   compile SRC.c into a shared object (default: SRC's name with .so, "
		     "here).\n"
		     "        Any command that takes -g accepts it as file:OUT.so, or as\n"
		     "        file:OUT.so@PRESET to run it under PRESET's framework rules.\n"
		     "check   run SRC.c (compiled on the fly) and the built-in PRESET in lockstep "
		     "on\n"
		     "        random, corner-reaching inputs; compare after every select() and "
		     "reflect()\n"
		     "        the index, stop_tick and every internal value; stop at the first\n"
		     "        difference and describe it. The file runs under PRESET's framework "
		     "rules.\n"
		     "        The last line says how many decisions were compared.\n"
		     "record  run SRC.c alone on check's input stream and write a golden vector: "
		     "its\n"
		     "        every decision and digests of its internal values (not the inputs, "
		     "which\n"
		     "        are regenerated from the seed). It runs under --as PRESET's "
		     "framework\n"
		     "        rules (default: the preset that follows the file's blob). FILE.xz "
		     "is\n"
		     "        compressed with xz(1).\n"
		     "verify  replay a vector against the built-in PRESET; stop at the first "
		     "decision\n"
		     "        or digest that differs and describe it. The last line says how many\n"
		     "        decisions were verified.\n"
		     "diff    the decision-level impact of a patch: run OLD and NEW (each a C "
		     "file, a\n"
		     "        .so from build, or a preset) on check's input stream, each with its "
		     "own\n"
		     "        state and tick, without stopping at a difference; count the "
		     "select()\n"
		     "        decisions whose index, stop_tick or either differs (counts and %%) "
		     "and\n"
		     "        show the first K with their inputs and both sides' internal values.\n"
		     "        Both run under one framework (idle loop, QoS, core rules), said "
		     "with\n"
		     "        the reason: a preset OLD's, else the preset of OLD's blob, else "
		     "--as,\n"
		     "        else a preset NEW's, else a guess from OLD's era.\n"
		     "        Exit status 0 whether or not they differ.\n"
		     "\n"
		     "  -o, --output OUT.so       build: where to write the object\n"
		     "  -o, --output FILE         record: the vector file to write\n"
		     "  -a, --against PRESET      check, verify: the port to compare with "
		     "(idlelab\n"
		     "                            governors)\n"
		     "      --as PRESET           record, diff: the framework rules to use "
		     "(record: also\n"
		     "                            the var names; diff: both sides' rules when "
		     "OLD's blob\n"
		     "                            is unknown)\n"
		     "      --steps N             check, record, diff: decisions (default %llu; -n "
		     "is an\n"
		     "                            alias kept for old scripts)\n"
		     "      --seed S              check, record, diff: seed of the random inputs "
		     "(default 1;\n"
		     "                            -s is an alias kept for old scripts: elsewhere "
		     "-s is\n"
		     "                            the scenario)\n"
		     "  -p, --platform PLATFORM   check, record, diff: use this platform's state "
		     "table\n"
		     "      --random-platforms    check, record, diff: a new random state table "
		     "every few\n"
		     "                            thousand steps (the default)\n"
		     "  -v, --verbose             show the compiler command and output; check: "
		     "also the\n"
		     "                            values compared\n"
		     "      --progress            check, record, diff: show the decisions done on "
		     "stderr even\n"
		     "                            when it is not a terminal\n"
		     "      --no-progress         check, record, diff: never (default: only on a "
		     "terminal)\n"
		     "      --show K              diff: differing decisions to describe (default "
		     "%llu)\n"
		     "      --scenario PLAT:SCEN  diff: the idle periods of one lab run of SCEN on "
		     "PLAT\n"
		     "                            (as `idlelab run`, under OLD), replayed open "
		     "loop\n"
		     "  -t, --time T              diff --scenario: the lab run's length (default "
		     "10s)\n"
		     "  -f, --format FMT          diff: table (default) or json\n"
		     "\n"
		     "Exit status: 0 no difference (or built), 1 a difference, a build failure or "
		     "a\n"
		     "runtime error, 2 usage error.\n", KGOV_DEFAULT_STEPS, KGOV_DEFAULT_SHOW);
}

static int kgov_parse(int argc, char **argv, void *state, struct cli_error *err)
{
	return kgov_parse_args(argc, argv, state, err);
}

/* -p NAME: an unknown built-in name is a usage error, found before anything is compiled. */
static int check_platform_name(const char *name)
{
	if (!name || il_platform_is_path(name) || il_platform_builtin_text(name))
		return CLI_EXIT_OK;
	fprintf(stderr, "idlelab kgov: %s: no such built-in platform (see 'idlelab platforms')\n",
		name);
	return CLI_EXIT_USAGE;
}

static int kgov_main(void *state)
{
	struct kgov_args *args = state;

	if (check_platform_name(args->platform))
		return CLI_EXIT_USAGE;
	switch (args->action) {
	case KGOV_BUILD:
		return kgov_cmd_build(args);
	case KGOV_RECORD:
		return kgov_cmd_record(args);
	case KGOV_VERIFY:
		return kgov_cmd_verify(args);
	case KGOV_DIFF:
		return kgov_cmd_diff(args);
	default:
		return kgov_cmd_check(args);
	}
}

int cmd_kgov(int argc, char **argv)
{
	static const struct cli_lifecycle lc = {
		.name = "kgov", .size = sizeof(struct kgov_args), .parse = kgov_parse,
		.usage = cmd_kgov_usage, .run = kgov_main,
	};

	return cli_main(&lc, argc, argv);
}
