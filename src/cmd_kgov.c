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
 */
#include <errno.h>
#include <fcntl.h>
#ifdef HAVE_JANSSON
#include <jansson.h>
#endif
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_opts.h"
#include "cmd_kgov.h"
#include "commands.h"
#include "kgov/kgov.h"
#include "lab/lab.h"
#include "platform/platform.h"
#include "util/atomic.h"
#include "util/parse.h"

enum {
	KGOV_OPT_HELP = 1,
	KGOV_OPT_OUT,
	KGOV_OPT_VERBOSE,
	KGOV_OPT_AGAINST,
	KGOV_OPT_STEPS,
	KGOV_OPT_SEED,
	KGOV_OPT_PLATFORM,
	KGOV_OPT_RANDOM,
	KGOV_OPT_AS,
	KGOV_OPT_PROGRESS,
	KGOV_OPT_NO_PROGRESS,
	KGOV_OPT_SHOW,
	KGOV_OPT_FORMAT,
	KGOV_OPT_SCENARIO,
	KGOV_OPT_TIME,
};

static const struct cli_opt kgov_opts[] = {
	{ KGOV_OPT_HELP, 'h', "help", false },
	{ KGOV_OPT_OUT, 'o', "output", true },
	{ KGOV_OPT_VERBOSE, 'v', "verbose", false },
	{ KGOV_OPT_AGAINST, 'a', "against", true },
	{ KGOV_OPT_STEPS, 'n', "steps", true },
	{ KGOV_OPT_SEED, 's', "seed", true },
	{ KGOV_OPT_PLATFORM, 'p', "platform", true },
	{ KGOV_OPT_RANDOM, 0, "random-platforms", false },
	{ KGOV_OPT_AS, 0, "as", true },
	PROGRESS_CLI_OPTS(KGOV_OPT_PROGRESS, KGOV_OPT_NO_PROGRESS),
	{ KGOV_OPT_SHOW, 0, "show", true },
	{ KGOV_OPT_FORMAT, 'f', "format", true },
	{ KGOV_OPT_SCENARIO, 0, "scenario", true },
	{ KGOV_OPT_TIME, 't', "time", true },
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

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

int kgov_parse_args(int argc, char **argv, struct kgov_args *args, struct cli_error *err)
{
	struct cli_scan s;
	const char *value;
	int id;

	memset(args, 0, sizeof(*args));
	args->steps = KGOV_DEFAULT_STEPS;
	args->seed = 1;
	args->show = KGOV_DEFAULT_SHOW;
	cli_scan_init(&s, argc, argv);
	while ((id = cli_next_opt(&s, kgov_opts, &value, err)) != CLI_OPT_END) {
		switch (id) {
		case CLI_PARSE_ERROR:
			return CLI_PARSE_ERROR;
		case KGOV_OPT_HELP:
			return CLI_PARSE_HELP;
		case KGOV_OPT_OUT:
			args->out = value;
			break;
		case KGOV_OPT_VERBOSE:
			args->verbose = true;
			break;
		case KGOV_OPT_AGAINST:
			args->against = value;
			break;
		case KGOV_OPT_STEPS:
			if (parse_count(value, &args->steps) || !args->steps)
				return cli_error_set(err, "--steps takes a positive count, not '%s'", value);
			args->steps_set = true;
			break;
		case KGOV_OPT_SEED:
			if (parse_count(value, &args->seed))
				return cli_error_set(err, "--seed takes a non-negative number, not '%s'", value);
			args->seed_set = true;
			break;
		case KGOV_OPT_AS:
			args->as = value;
			break;
		case KGOV_OPT_SHOW:
			if (parse_count(value, &args->show) || args->show > 1000)
				return cli_error_set(err, "--show takes a count up to 1000, not '%s'", value);
			args->show_set = true;
			break;
		case KGOV_OPT_FORMAT:
			if (!strcmp(value, "table"))
				args->format = KGOV_FMT_TABLE;
			else if (!strcmp(value, "json"))
				args->format = KGOV_FMT_JSON;
			else
				return cli_error_set(err, "unknown format '%s' (table or json)", value);
			args->format_set = true;
			break;
		case KGOV_OPT_SCENARIO:
			args->scenario = value;
			break;
		case KGOV_OPT_TIME:
			if (cli_opt_time(value, &args->time_ns, err))
				return CLI_PARSE_ERROR;
			break;
		case KGOV_OPT_PLATFORM:
			args->platform = value;
			break;
		case KGOV_OPT_RANDOM:
			args->random_platforms = true;
			break;
		case KGOV_OPT_PROGRESS:
		case KGOV_OPT_NO_PROGRESS:
			args->progress = id == KGOV_OPT_PROGRESS ? PROGRESS_ON : PROGRESS_OFF;
			break;
		case CLI_OPT_POSITIONAL:
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
			break;
		}
	}
	if (!args->action)
		return cli_error_set(err, "no action given (build, check, record, verify or diff)");
	if (args->action != KGOV_DIFF &&
	    (args->show_set || args->format_set || args->scenario || args->time_ns))
		return cli_error_set(err, "--show, -f, --scenario and --time are options of diff");
	if (args->action == KGOV_DIFF) {
		if (!args->src || !args->src2)
			return cli_error_set(err, "diff needs OLD and NEW (C files, .so objects or presets)");
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
	if (!args->src)
		return cli_error_set(err, args->action == KGOV_VERIFY ? "no vector file given"
							       : "no governor source file given");
	if (args->as && args->action != KGOV_RECORD)
		return cli_error_set(err, "--as is an option of record and diff");
	if (args->action == KGOV_RECORD) {
		if (!args->out)
			return cli_error_set(err, "record needs -o FILE (the vector file to write)");
		if (args->against)
			return cli_error_set(err, "record takes --as PRESET, not --against");
		if (args->platform && args->random_platforms)
			return cli_error_set(err, "-p and --random-platforms exclude each other");
		return CLI_PARSE_OK;
	}
	if (args->action == KGOV_VERIFY) {
		if (!args->against)
			return cli_error_set(err, "verify needs --against PRESET (the port to replay)");
		if (args->out || args->platform || args->random_platforms || args->steps_set ||
		    args->seed_set)
			return cli_error_set(err, "verify takes only --against: the seed, steps and "
					     "platform come from the vector file");
		return CLI_PARSE_OK;
	}
	if (args->action == KGOV_BUILD) {
		if (args->against || args->platform || args->random_platforms)
			return cli_error_set(err, "--against, -p and --random-platforms are options of check");
		if (ends_with(args->src, ".so"))
			return cli_error_set(err, "build takes a C source file, not '%s'", args->src);
	} else {
		if (!args->against)
			return cli_error_set(err, "check needs --against PRESET (the port to compare with)");
		if (args->out)
			return cli_error_set(err, "-o is an option of build");
		if (args->platform && args->random_platforms)
			return cli_error_set(err, "-p and --random-platforms exclude each other");
	}
	return CLI_PARSE_OK;
}

void cmd_kgov_usage(FILE *out)
{
	fprintf(out, "usage: idlelab kgov build SRC.c [-o OUT.so] [-v]\n"
		     "       idlelab kgov check SRC.c|OBJ.so --against PRESET [--steps N] [--seed S]\n"
		     "                          [-p PLATFORM | --random-platforms] [-v]\n"
		     "       idlelab kgov record SRC.c|OBJ.so [--as PRESET] [--steps N] [--seed S]\n"
		     "                           [-p PLATFORM | --random-platforms] -o FILE[.xz]\n"
		     "       idlelab kgov verify FILE[.xz] --against PRESET\n"
		     "       idlelab kgov diff OLD NEW [--as PRESET] [--steps N] [--seed S]\n"
		     "                         [-p PLATFORM | --random-platforms | --scenario PLATFORM:SCEN]\n"
		     "                         [--time T] [--show K] [-f table|json]\n"
		     "\n"
		     "Run an unmodified upstream drivers/cpuidle/governors/{menu,teo,ladder,haltpoll}.c\n"
		     "in the lab. The file is compiled with the system compiler ($CC, else cc) against\n"
		     "idlelab's kernel-API shim (kshim/; $IDLELAB_KSHIM_DIR overrides where it is).\n"
		     "\n"
		     "build   compile SRC.c into a shared object (default: SRC's name with .so, here).\n"
		     "        Any command that takes -g accepts it as file:OUT.so, or as\n"
		     "        file:OUT.so@PRESET to run it under PRESET's framework rules.\n"
		     "check   run SRC.c (compiled on the fly) and the built-in PRESET in lockstep on\n"
		     "        random, corner-reaching inputs; compare after every select() and reflect()\n"
		     "        the index, stop_tick and every internal value; stop at the first\n"
		     "        difference and describe it. The file runs under PRESET's framework rules.\n"
		     "        The last line says how many decisions were compared.\n"
		     "record  run SRC.c alone on check's input stream and write a golden vector: its\n"
		     "        every decision and digests of its internal values (not the inputs, which\n"
		     "        are regenerated from the seed). It runs under --as PRESET's framework\n"
		     "        rules (default: the preset that follows the file's blob). FILE.xz is\n"
		     "        compressed with xz(1).\n"
		     "verify  replay a vector against the built-in PRESET; stop at the first decision\n"
		     "        or digest that differs and describe it. The last line says how many\n"
		     "        decisions were verified.\n"
		     "diff    the decision-level impact of a patch: run OLD and NEW (each a C file, a\n"
		     "        .so from build, or a preset) on check's input stream, each with its own\n"
		     "        state and tick, without stopping at a difference; count the select()\n"
		     "        decisions whose index, stop_tick or either differs (counts and %%) and\n"
		     "        show the first K with their inputs and both sides' internal values.\n"
		     "        Both run under one framework (idle loop, QoS, core rules), said with\n"
		     "        the reason: a preset OLD's, else the preset of OLD's blob, else --as,\n"
		     "        else a preset NEW's, else a guess from OLD's era.\n"
		     "        Exit status 0 whether or not they differ.\n"
		     "\n"
		     "  -o, --output OUT.so       build: where to write the object\n"
		     "  -o, --output FILE         record: the vector file to write\n"
		     "  -a, --against PRESET      check, verify: the port to compare with (idlelab\n"
		     "                            governors)\n"
		     "      --as PRESET           record: the framework rules and var names to use;\n"
		     "                            diff: the rules of both when OLD's blob is unknown\n"
		     "      --steps N             check, record: decisions (default %llu; -n is an alias\n"
		     "                            kept for old scripts)\n"
		     "      --seed S              check, record: seed of the random inputs (default 1;\n"
		     "                            -s is an alias kept for old scripts: elsewhere -s is\n"
		     "                            the scenario)\n"
		     "  -p, --platform PLATFORM   check, record: use this platform's state table\n"
		     "      --random-platforms    check, record: a new random state table every few\n"
		     "                            thousand steps (the default)\n"
		     "  -v, --verbose             show the compiler command and output; check: also the\n"
		     "                            values compared\n"
		     "      --progress            check, record, diff: show the decisions done on stderr even\n"
		     "                            when it is not a terminal\n"
		     "      --no-progress         check, record, diff: never (default: only on a terminal)\n"
		     "      --show K              diff: differing decisions to describe (default %llu)\n"
		     "      --scenario PLAT:SCEN  diff: the idle periods of one lab run of SCEN on PLAT\n"
		     "                            (as `idlelab run`, under OLD), replayed open loop\n"
		     "  -t, --time T              diff --scenario: the lab run's length (default 10s)\n"
		     "  -f, --format FMT          diff: table (default) or json\n"
		     "\n"
		     "Exit status: 0 no difference (or built), 1 a difference, a build failure or a\n"
		     "runtime error, 2 usage error.\n", KGOV_DEFAULT_STEPS, KGOV_DEFAULT_SHOW);
}

/* "drivers/.../menu.c" -> "menu.so" */
static void default_output(const char *src, char *out, size_t cap)
{
	const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
	size_t n = strlen(base);

	if (ends_with(base, ".c"))
		n -= 2;
	snprintf(out, cap, "%.*s.so", (int)n, base);
}

/* A directory given as the source file: say so, rather than the read error it gives. */
static int check_source(const char *src)
{
	struct stat st;

	if (stat(src, &st) || !S_ISDIR(st.st_mode))
		return 0;
	fprintf(stderr, "idlelab kgov: %s: is a directory, not a governor source file (e.g. "
		"%s/drivers/cpuidle/governors/menu.c)\n", src, src);
	return -1;
}

/*
 * Where the object goes must be a file we can write: try it before compiling, so the error
 * names the path and the reason (the compiler's would be buried in its output).
 */
static int check_output(const char *out, const char *what, const char *example)
{
	struct stat st;
	bool existed = !stat(out, &st);
	int fd;

	if (existed && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "idlelab kgov: %s: is a directory; give the %s's file name "
			"(-o %s/%s)\n", out, what, out, example);
		return -1;
	}
	fd = open(out, O_WRONLY | O_CREAT, 0644);
	if (fd < 0) {
		fprintf(stderr, "idlelab kgov: cannot write %s: %s\n", out, strerror(errno));
		return -1;
	}
	close(fd);
	if (!existed)
		unlink(out);
	return 0;
}

/* The governor family and blob of the last successful build(), for what cmd_build() says. */
static char built_family[64], built_blob[41];

static int build(const char *src, const char *out, bool verbose)
{
	struct il_kgov_build_result res;
	struct il_error err = { 0 };
	int ret;

	if (check_source(src))
		return CLI_EXIT_RUNTIME;
	ret = il_kgov_build(src, out, NULL, &res, &err);
	if (verbose || ret)
		fprintf(ret ? stderr : stdout, "%s\n", res.command[0] ? res.command : "(not compiled)");
	if (res.log && *res.log && (verbose || ret))
		fputs(res.log, stderr);
	free(res.log);
	if (ret) {
		fprintf(stderr, "idlelab kgov: %s\n", err.msg);
		return CLI_EXIT_RUNTIME;
	}
	if (verbose)
		printf("%s: %s governor, blob %.12s, select(%s), per-CPU %s%s\n", out, res.scan.family,
		       res.scan.blob, res.scan.stop_tick ? "drv, dev, &stop_tick" : "drv, dev",
		       res.scan.percpu_tag[0] ? "struct " : "(none)", res.scan.percpu_tag);
	snprintf(built_family, sizeof(built_family), "%s", res.scan.family);
	snprintf(built_blob, sizeof(built_blob), "%s", res.scan.blob);
	return CLI_EXIT_OK;
}

/*
 * What build says: the -g that runs the object, with the preset whose framework rules fit
 * (the one whose upstream blob it is); a patched file follows no preset, so the user names
 * the one the tree is based on, as a reply must say which rules it ran.
 */
static void print_built(const char *src, const char *out)
{
	struct il_kgov_framework_query q = { .family = built_family, .blob = built_blob };
	struct il_kgov_framework fw;

	printf("kgov: wrote %s (the %s governor of %s); run it with -g file:%s@", out,
	       built_family[0] ? built_family : "?", src, out);
	if (!il_kgov_framework_choose(&q, &fw, NULL))
		printf("%s (blob %.12s is %s's)\n", fw.preset->name, built_blob, fw.preset->name);
	else
		printf("PRESET, PRESET the version the file is based on (blob %.12s is no preset's; "
		       "idlelab governors)\n", built_blob);
}

static int cmd_build(const struct kgov_args *args)
{
	char out[4096];
	int ret;

	if (args->out)
		snprintf(out, sizeof(out), "%s", args->out);
	else
		default_output(args->src, out, sizeof(out));
	if (check_source(args->src) || check_output(out, "object", "NAME.so"))
		return CLI_EXIT_RUNTIME;
	ret = build(args->src, out, args->verbose);
	if (ret == CLI_EXIT_OK)
		print_built(args->src, out);
	return ret;
}

/*
 * A governor file that loops forever (a mutated get_typical_interval() can) would hang the
 * check: a watchdog ends it when no decision finished for WATCHDOG_SECONDS.
 */
#define WATCHDOG_SECONDS 10

static struct il_kgov_progress watchdog_progress;
static unsigned long long watchdog_seen;

static void put_str(const char *s)
{
	ssize_t ignored = write(STDERR_FILENO, s, strlen(s));

	(void)ignored;
}

static void watchdog(int sig)
{
	char num[24], *p = num + sizeof(num) - 1;
	unsigned long long n = watchdog_progress.decisions;
	const char *in = (const char *)watchdog_progress.in;

	(void)sig;
	if (n != watchdog_seen || !in) {
		watchdog_seen = n;
		alarm(WATCHDOG_SECONDS);
		return;
	}
	*p = '\0';
	do {
		*--p = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	put_str("idlelab kgov: decision #");
	put_str(p);
	put_str(" did not finish: ");
	put_str(in);
	put_str(" hangs (no progress for 10 s)\n");
	_exit(CLI_EXIT_RUNTIME);
}

static void start_watchdog(void)
{
	struct sigaction sa = { .sa_handler = watchdog };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	alarm(WATCHDOG_SECONDS);
}

static void print_counters(const struct il_preset *up)
{
	struct il_kgov_counters c;

	if (il_kgov_counters(up, &c))
		return;
	if (c.warns || c.printks)
		printf("note: the kernel file issued %lu WARN()s and %lu printk()s during the check\n",
		       c.warns, c.printks);
	if (c.shim_errors)
		printf("note: %lu shim errors (kernel calls the shim could not answer for the "
		       "current CPU); the result is not trustworthy\n", c.shim_errors);
}

static int cmd_check(const struct kgov_args *args)
{
	struct il_kgov_check_opts opts = { .seed = args->seed, .steps = args->steps,
					   .platform = args->platform, .check_reflect = true };
	struct il_kgov_load_opts lopts = { 0 };
	struct il_kgov_check_result res;
	struct il_error err = { 0 };
	const struct il_preset *port, *up;
	char tmpdir[] = "/tmp/idlelab-kgov-check-XXXXXX", obj[sizeof(tmpdir) + 16];
	bool built = false;
	struct il_kgov_counters counters = { 0 };
	struct progress prog;
	int ret;

	port = il_preset_find(args->against);
	if (!port || il_kgov_is_loaded(port))
		return cli_usage_error("kgov", "unknown preset for --against (see idlelab governors)");
	if (!ends_with(args->src, ".so")) {
		if (!mkdtemp(tmpdir)) {
			fprintf(stderr, "idlelab kgov: %s: %s\n", tmpdir, strerror(errno));
			return CLI_EXIT_RUNTIME;
		}
		snprintf(obj, sizeof(obj), "%s/gov.so", tmpdir);
		ret = build(args->src, obj, args->verbose);
		built = true;
		if (ret)
			goto out_tmp;
	}
	lopts.like = port;
	up = il_kgov_load(built ? obj : args->src, &lopts, &err);
	if (!up) {
		fprintf(stderr, "idlelab kgov: %s\n", err.msg);
		ret = CLI_EXIT_RUNTIME;
		goto out_tmp;
	}
	opts.progress = &watchdog_progress;
	start_watchdog();
	progress_begin(&prog, args->progress, "idlelab kgov check", PROGRESS_COUNT, "decisions",
		       args->steps);
	progress_watch(&prog, &watchdog_progress.decisions);
	ret = il_kgov_check(up, port, &opts, &res, &err);
	progress_end(&prog);
	alarm(0);
	if (ret < 0) {
		fprintf(stderr, "idlelab kgov: %s\n", err.msg);
		ret = CLI_EXIT_RUNTIME;
		goto out_tmp;
	}
	if (ret > 0)
		fputs(res.first.report, stdout);
	print_counters(up);
	il_kgov_counters(up, &counters);
	if (args->verbose && res.not_compared[0])
		printf("upstream fields the port does not show (not compared): %s\n", res.not_compared);
	if (res.invalid_index_runs)
		printf("note: %u run(s) ended early because both sides returned an index outside "
		       "the state table (first: %s)\n", res.invalid_index_runs, res.invalid_index);
	printf("kgov: %s vs %s: %llu decisions compared (%u runs, %d vars, %llu values), %s\n",
	       args->src, port->name, res.decisions, res.runs, res.vars_compared, res.comparisons,
	       ret ? "first MISMATCH above" : "no mismatch");
	il_kgov_check_result_free(&res);
	ret = ret || counters.shim_errors ? CLI_EXIT_RUNTIME : CLI_EXIT_OK;
out_tmp:
	if (built) {
		unlink(obj);
		rmdir(tmpdir);
	}
	return ret;
}

/* ---- vector files ---------------------------------------------------------------------------- */

extern char **environ;

/* Run "xz ARG" with @in_fd as its stdin and @out_fd as its stdout. Return: its exit status. */
static int run_xz(const char *arg, int in_fd, int out_fd, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	char *argv[] = { "xz", (char *)arg, NULL };
	int ret;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in_fd, STDIN_FILENO);
	posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
	ret = posix_spawnp(pid, "xz", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return ret;
}

static int wait_xz(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* A pipe neither end of which leaks into xz (it would never see the end of its input). */
static int cloexec_pipe(int p[2])
{
	if (pipe(p))
		return -1;
	fcntl(p[0], F_SETFD, FD_CLOEXEC);
	fcntl(p[1], F_SETFD, FD_CLOEXEC);
	return 0;
}

/* Write @b to @path, whole or not at all (lib/util/atomic.h); through "xz -9e" if the name ends
 * in .xz. */
static int write_vector(const char *path, const struct kgov_buf *b)
{
	struct il_atomic file;
	bool xz = ends_with(path, ".xz");
	int ret = 0, fd, out, p[2];
	pid_t pid;

	if (il_atomic_open(&file, path))
		return -1;
	fd = out = file.fd;
	if (xz) {
		if (cloexec_pipe(p) || run_xz("-9ec", p[0], fd, &pid)) {
			il_atomic_abort(&file);
			return -1;
		}
		close(p[0]);
		out = p[1];
	}
	for (size_t off = 0; off < b->len && !ret;) {
		ssize_t n = write(out, b->data + off, b->len - off);

		if (n < 0 && errno != EINTR)
			ret = -1;
		else if (n > 0)
			off += (size_t)n;
	}
	if (xz) {
		close(out);
		if (wait_xz(pid))
			ret = -1;
	}
	if (ret) {
		il_atomic_abort(&file);
		return -1;
	}
	return il_atomic_commit(&file);
}

static int read_all(int fd, struct kgov_buf *b)
{
	for (;;) {
		ssize_t n;

		if (b->cap - b->len < 65536) {
			unsigned char *nd = realloc(b->data, b->cap * 2 + 65536);

			if (!nd)
				return -1;
			b->data = nd;
			b->cap = b->cap * 2 + 65536;
		}
		n = read(fd, b->data + b->len, b->cap - b->len);
		if (n == 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -1;
		if (n > 0)
			b->len += (size_t)n;
	}
}

/* Read @path into @b, through "xz -dc" if it starts with the xz magic. */
static int read_vector(const char *path, struct kgov_buf *b)
{
	static const unsigned char xz_magic[6] = { 0xfd, '7', 'z', 'X', 'Z', 0 };
	unsigned char magic[6];
	int fd = open(path, O_RDONLY | O_CLOEXEC), p[2], ret;
	pid_t pid;

	if (fd < 0)
		return -1;
	if (read(fd, magic, sizeof(magic)) != sizeof(magic) || memcmp(magic, xz_magic, 6)) {
		ret = lseek(fd, 0, SEEK_SET) || read_all(fd, b) ? -1 : 0;
		close(fd);
		return ret;
	}
	if (lseek(fd, 0, SEEK_SET) || cloexec_pipe(p) || run_xz("-dc", fd, p[1], &pid)) {
		close(fd);
		return -1;
	}
	close(p[1]);
	close(fd);
	ret = read_all(p[0], b);
	close(p[0]);
	return wait_xz(pid) || ret ? -1 : 0;
}

/* Load SRC.c (built into @tmpdir) or OBJ.so like @like (NULL: by its blob). */
static const struct il_preset *load_source(const struct kgov_args *args, const struct il_preset *like,
					   char *tmpdir, char *obj, size_t obj_cap, bool *built)
{
	struct il_kgov_load_opts lopts = { .like = like };
	struct il_error err = { 0 };
	const struct il_preset *up;

	*built = false;
	if (!ends_with(args->src, ".so")) {
		if (!mkdtemp(tmpdir)) {
			fprintf(stderr, "idlelab kgov: %s: %s\n", tmpdir, strerror(errno));
			return NULL;
		}
		snprintf(obj, obj_cap, "%s/gov.so", tmpdir);
		*built = true;
		if (build(args->src, obj, args->verbose))
			return NULL;
	}
	up = il_kgov_load(*built ? obj : args->src, &lopts, &err);
	if (!up)
		fprintf(stderr, "idlelab kgov: %s\n", err.msg);
	return up;
}

static int cmd_record(const struct kgov_args *args)
{
	struct il_kgov_check_opts opts = { .seed = args->seed, .steps = args->steps,
					   .platform = args->platform };
	char tmpdir[] = "/tmp/idlelab-kgov-record-XXXXXX", obj[sizeof(tmpdir) + 16];
	const struct il_preset *as = NULL, *up;
	struct il_kgov_check_result res;
	struct il_error err = { 0 };
	struct kgov_buf buf = { 0 };
	struct il_kgov_counters counters = { 0 };
	struct progress prog;
	bool built;
	int ret = CLI_EXIT_RUNTIME;

	/* Before minutes of recording: a vector that cannot be written is said at once. */
	if (check_output(args->out, "vector", "NAME.kv.xz"))
		return CLI_EXIT_RUNTIME;
	if (args->as) {
		as = il_preset_find(args->as);
		if (!as || il_kgov_is_loaded(as))
			return cli_usage_error("kgov", "unknown preset for --as (see idlelab governors)");
	}
	up = load_source(args, as, tmpdir, obj, sizeof(obj), &built);
	if (!up)
		goto out_tmp;
	if (!as)
		as = il_kgov_like(up);
	if (!as) {
		fprintf(stderr, "idlelab kgov: %s follows no built-in preset: give --as PRESET\n",
			args->src);
		goto out_tmp;
	}
	opts.progress = &watchdog_progress;
	progress_begin(&prog, args->progress, "idlelab kgov record", PROGRESS_COUNT, "decisions",
		       args->steps);
	progress_watch(&prog, &watchdog_progress.decisions);
	ret = il_kgov_record(up, as, &opts, &buf, &res, &err);
	progress_end(&prog);
	if (ret) {
		ret = CLI_EXIT_RUNTIME;
		fprintf(stderr, "idlelab kgov: %s\n", err.msg);
		goto out_buf;
	}
	ret = CLI_EXIT_RUNTIME;
	il_kgov_counters(up, &counters);
	if (counters.shim_errors) {
		fprintf(stderr, "idlelab kgov: %lu shim errors while recording: not written\n",
			counters.shim_errors);
		goto out_buf;
	}
	if (write_vector(args->out, &buf)) {
		fprintf(stderr, "idlelab kgov: %s: cannot write%s: %s\n", args->out,
			ends_with(args->out, ".xz") ? " through xz" : "", strerror(errno));
		unlink(args->out);
		goto out_buf;
	}
	if (res.invalid_index_runs)
		printf("note: %u run(s) ended early on an index outside the state table (first: %s)\n",
		       res.invalid_index_runs, res.invalid_index);
	printf("kgov: %s (blob %.12s) as %s: %llu decisions recorded (%u runs, seed %llu, %s) "
	       "to %s\n", args->src, il_kgov_blob(up) ? il_kgov_blob(up) : "?", as->name,
	       res.decisions, res.runs, args->seed, args->platform ? args->platform : "random platforms",
	       args->out);
	ret = CLI_EXIT_OK;
out_buf:
	kgov_buf_free(&buf);
out_tmp:
	if (built) {
		unlink(obj);
		rmdir(tmpdir);
	}
	return ret;
}

static int cmd_verify(const struct kgov_args *args)
{
	const struct il_preset *port = il_preset_find(args->against);
	struct il_kgov_verify_result vr;
	struct kgov_vec_header h;
	struct il_error err = { 0 };
	struct kgov_buf buf = { 0 };
	int ret;

	if (!port || il_kgov_is_loaded(port))
		return cli_usage_error("kgov", "unknown preset for --against (see idlelab governors)");
	if (read_vector(args->src, &buf)) {
		fprintf(stderr, "idlelab kgov: %s: %s\n", args->src,
			errno ? strerror(errno) : "cannot read (xz failed)");
		kgov_buf_free(&buf);
		return CLI_EXIT_RUNTIME;
	}
	ret = il_kgov_verify(buf.data, buf.len, port, &h, &vr, &err);
	kgov_buf_free(&buf);
	if (ret < 0) {
		fprintf(stderr, "idlelab kgov: %s: %s\n", args->src, err.msg);
		return CLI_EXIT_RUNTIME;
	}
	if (ret > 0)
		fputs(vr.report, stdout);
	free(vr.report);
	printf("kgov: %s (recorded as %s, blob %.12s) vs %s: %llu of %llu decisions verified, %s\n",
	       args->src, h.preset, h.blob, port->name, vr.verified, h.steps,
	       ret ? "first MISMATCH above" : "no mismatch");
	return ret ? CLI_EXIT_RUNTIME : CLI_EXIT_OK;
}

/* ---- diff ------------------------------------------------------------------------------------- */

#define DIFF_LAB_TIME_NS (10ULL * 1000000000ULL) /* as `idlelab run` */

/* --scenario PLATFORM:SCEN: the lab spec; Return: 0, or an exit status after a message. */
static int diff_lab_spec(const struct kgov_args *args, struct il_platform *plat,
			 struct il_lab_spec *spec, char *source, size_t cap)
{
	const char *colon = strchr(args->scenario, ':');
	char name[256];
	struct il_error err;

	snprintf(name, sizeof(name), "%.*s", (int)(colon - args->scenario), args->scenario);
	if (il_platform_load(name, plat, &err)) {
		fprintf(stderr, "idlelab kgov diff: %s\n", err.msg);
		return il_platform_is_path(name) ? CLI_EXIT_RUNTIME : CLI_EXIT_USAGE;
	}
	memset(spec, 0, sizeof(*spec));
	if (il_scn_parse(colon + 1, &spec->scn, &spec->args, &spec->common, &err))
		return cli_usage_error("kgov", err.msg);
	spec->plat = plat;
	spec->duration_ns = args->time_ns ? args->time_ns : DIFF_LAB_TIME_NS;
	spec->seed = args->seed;
	snprintf(source, cap, "the idle periods of a %g s lab run of %s on %s driven by OLD "
		 "(seed %llu), replayed open loop", (double)spec->duration_ns / 1e9, colon + 1,
		 plat->name, args->seed);
	return 0;
}

/* One side of a diff: a preset, or a file built (.c) into its own directory, or an object. */
struct diff_side {
	const char *label;      /* "OLD" or "NEW" */
	const char *spec;
	const struct il_preset *p;
	const char *object;     /* a file side: the object to load (NULL: a preset) */
	char tmpdir[40], obj[64];
	bool built;
};

/* The framework both sides run under, and why (lib/kgov/frame.c). */
struct diff_framework {
	struct il_kgov_framework fw;
	bool shared;            /* false: two built-in presets, each under its own rules */
};

/*
 * Find a preset side, or build a C file side (not loaded yet: the framework it runs under is
 * chosen once both sides are known). Return: 0, CLI_EXIT_USAGE for an unknown preset, or
 * CLI_EXIT_RUNTIME after a message.
 */
static int diff_resolve(struct diff_side *s, bool verbose)
{
	if (!ends_with(s->spec, ".c") && !ends_with(s->spec, ".so")) {
		s->p = il_preset_find(s->spec);
		if (!s->p) {
			const char *why = il_preset_find_error(s->spec);

			if (why) {
				fprintf(stderr, "idlelab kgov diff: %s %s\n", s->label, why);
				return CLI_EXIT_RUNTIME;
			}
			fprintf(stderr, "idlelab kgov diff: %s '%s' is no preset (idlelab governors), "
				"C file or .so object\n", s->label, s->spec);
			return CLI_EXIT_USAGE;
		}
		return 0;
	}
	if (access(s->spec, R_OK)) {
		fprintf(stderr, "idlelab kgov diff: %s %s: %s\n", s->label, s->spec, strerror(errno));
		return CLI_EXIT_RUNTIME;
	}
	s->object = s->spec;
	if (ends_with(s->spec, ".c")) {
		snprintf(s->tmpdir, sizeof(s->tmpdir), "/tmp/idlelab-kgov-diff-XXXXXX");
		if (!mkdtemp(s->tmpdir)) {
			fprintf(stderr, "idlelab kgov diff: %s: %s\n", s->tmpdir, strerror(errno));
			return CLI_EXIT_RUNTIME;
		}
		snprintf(s->obj, sizeof(s->obj), "%s/gov.so", s->tmpdir);
		s->built = true;
		if (build(s->spec, s->obj, verbose))
			return CLI_EXIT_RUNTIME;
		s->object = s->obj;
	}
	return 0;
}

/* Load a file side under @like (NULL: as il_kgov_load() guesses). Return: 0 or an exit status. */
static int diff_load(struct diff_side *s, const struct il_preset *like)
{
	struct il_kgov_load_opts lopts = { .like = like };
	struct il_error err = { 0 };

	s->p = il_kgov_load(s->object, &lopts, &err);
	if (!s->p) {
		fprintf(stderr, "idlelab kgov diff: %s %s: %s\n", s->label, s->spec, err.msg);
		return CLI_EXIT_RUNTIME;
	}
	return 0;
}

/*
 * One framework for both sides: a built-in OLD's own; for a file OLD its blob's preset, else
 * --as, else a built-in NEW's, else the guess from OLD's era (stated). Two built-in presets
 * each keep their own rules (they are versions of the framework too).
 */
static int diff_choose_framework(const struct kgov_args *args, struct diff_side *old,
				 struct diff_side *new, struct diff_framework *f)
{
	struct il_kgov_framework_query q = { .base_name = old->spec };
	const struct il_preset *as = NULL;
	struct il_error err = { 0 };
	char guess[160];
	int ret;

	if (args->as) {
		as = il_preset_find(args->as);
		if (!as || il_kgov_is_loaded(as))
			return cli_usage_error("kgov", "unknown preset for --as (see idlelab governors)");
	}
	f->shared = true;
	if (!old->object) {
		f->fw.preset = old->p;
		f->fw.why = IL_KGOV_FW_FALLBACK;
		snprintf(f->fw.reason, sizeof(f->fw.reason), "OLD is the built-in preset %s",
			 old->p->name);
		if (as)
			fprintf(stderr, "idlelab kgov diff: note: --as is not used: OLD, a built-in "
				"preset, decides the framework\n");
		if (new->object)
			return diff_load(new, old->p);
		f->shared = old->p->core == new->p->core;
		return 0;
	}
	ret = diff_load(old, NULL);
	if (ret)
		return ret;
	q.family = old->p->gov->name;
	q.blob = il_kgov_blob(old->p);
	q.as = as;
	if (!new->object) {
		q.fallback = new->p;
		snprintf(guess, sizeof(guess), "NEW is the built-in preset %s (OLD's blob %.12s is no "
			 "preset's)", new->p->name, q.blob);
	} else {
		q.fallback = il_kgov_like(old->p);
		snprintf(guess, sizeof(guess), "guessed from OLD's era (its blob %.12s is no preset's): "
			 "give --as PRESET to choose", q.blob);
	}
	q.fallback_reason = guess;
	if (il_kgov_framework_choose(&q, &f->fw, &err)) {
		fprintf(stderr, "idlelab kgov diff: %s\n", err.msg);
		return CLI_EXIT_RUNTIME;
	}
	ret = diff_load(old, f->fw.preset);
	if (!ret && new->object)
		ret = diff_load(new, f->fw.preset);
	if (!new->object && new->p->core != f->fw.preset->core)
		f->shared = false;
	return ret;
}

static void diff_cleanup(struct diff_side *s)
{
	if (!s->built)
		return;
	unlink(s->obj);
	rmdir(s->tmpdir);
}

static double pct(unsigned long long n, unsigned long long d)
{
	return d ? 100.0 * (double)n / (double)d : 0.0;
}

static const struct il_var *diff_find_var(const struct il_var *vars, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(vars[i].name, name))
			return &vars[i];
	return NULL;
}

static void print_value(const struct il_var *v)
{
	if (!v)
		printf(" %20s", "-");
	else if (v->is_signed)
		printf(" %20lld", (long long)(s64)v->value);
	else
		printf(" %20llu", (unsigned long long)v->value);
}

static void print_case_table(const struct il_kgov_diff_case *k)
{
	const struct kgov_step *in = &k->in[0];

	printf("\ndecision #%llu (run %u step %llu): index %d vs %d, stop_tick %d vs %d\n",
	       k->decision + 1, k->run, k->step, k->idx[0], k->idx[1], k->stop_tick[0],
	       k->stop_tick[1]);
	printf("  HZ=%u, %d states:", k->hz, k->drv.state_count);
	for (int i = 0; i < k->drv.state_count; i++)
		printf(" %s %lld/%lldns%s", k->drv.states[i].name,
		       (long long)k->drv.states[i].exit_latency_ns,
		       (long long)k->drv.states[i].target_residency_ns,
		       k->disable[i] ? " (disabled)" : "");
	printf("\n  inputs: sleep_length=%lld delta_next=%lld tick_stopped=%d/%d got_tick=%d "
	       "qos(cpu=%d resume=%d wakeup=%d us) nr_iowait=%lu clock=%llu -> %s residency=%lld%s\n",
	       (long long)in->sleep_ns, (long long)in->delta_next_ns, in->tick_stopped,
	       k->in[1].tick_stopped, in->got_tick, in->qos.cpu_latency_us, in->qos.resume_latency_us,
	       in->qos.wakeup_latency_us, in->nr_iowait, (unsigned long long)in->clock_ns,
	       in->rejected ? "REJECTED" : "entered", (long long)in->residency_ns,
	       in->poll_timeout ? " poll_time_limit" : "");
	printf("  %-34s %20s %20s\n", "", "old", "new");
	for (int i = 0; i < k->nvars[0]; i++) {
		const struct il_var *o = &k->vars[0][i];
		const struct il_var *n = diff_find_var(k->vars[1], k->nvars[1], o->name);

		printf("%c %-34s", n && n->value != o->value ? '*' : ' ', o->name);
		print_value(o);
		print_value(n);
		printf("\n");
	}
	for (int i = 0; i < k->nvars[1]; i++) {
		const struct il_var *n = &k->vars[1][i];

		if (diff_find_var(k->vars[0], k->nvars[0], n->name))
			continue;
		printf("  %-34s", n->name);
		print_value(NULL);
		print_value(n);
		printf("\n");
	}
}

/* "the rules of menu-6.12.117 (core debian-6.12) for both sides: REASON" */
static void framework_line(const struct diff_side *old, const struct diff_side *new,
			   const struct diff_framework *f, char *buf, size_t cap)
{
	if (!old->object && !new->object)
		snprintf(buf, cap, "two presets, each under its own rules: OLD core %s, "
			 "NEW core %s", old->p->core->name, new->p->core->name);
	else if (f->shared)
		snprintf(buf, cap, "the rules of %s (core %s) for both sides: %s", f->fw.preset->name,
			 f->fw.preset->core->name, f->fw.reason);
	else
		snprintf(buf, cap, "each built-in preset its own rules: OLD core %s, NEW core %s",
			 old->p->core->name, new->p->core->name);
}

/* "where they differ": the differing decisions by combination of input features */
static void print_diff_features(const struct il_kgov_diff_result *r)
{
	unsigned int keys[1u << IL_KGOV_FEAT_COUNT];
	unsigned int n = il_kgov_features_sorted(r->by_features, keys);

	if (n)
		printf("where they differ (features of the period, %% of all decisions):\n");
	for (unsigned int i = 0; i < n; i++) {
		char what[160];

		kgov_features_text(keys[i], what, sizeof(what));
		printf("  %12llu %8.4f%%  %s\n", r->by_features[keys[i]],
		       pct(r->by_features[keys[i]], r->decisions), what);
	}
}

static void print_diff_table(const struct diff_side *old, const struct diff_side *new,
			     const struct diff_framework *f, const char *source,
			     const struct il_kgov_diff_result *r)
{
	char fw[512];

	framework_line(old, new, f, fw, sizeof(fw));
	printf("kgov diff: %s (%s) vs %s (%s)\n", old->spec, old->p->upstream ? old->p->upstream : "-",
	       new->spec, new->p->upstream ? new->p->upstream : "-");
	printf("input: %s; %llu decisions in %u runs\n", source, r->decisions, r->runs);
	printf("framework: %s\n", fw);
	printf("%-22s %12s %9s\n", "differing decisions", "count", "%");
	printf("%-22s %12llu %8.4f%%\n", "index", r->idx_differ, pct(r->idx_differ, r->decisions));
	if (r->compared_stop_tick) {
		printf("%-22s %12llu %8.4f%%\n", "stop_tick", r->stop_tick_differ,
		       pct(r->stop_tick_differ, r->decisions));
		printf("%-22s %12llu %8.4f%%\n", "index or stop_tick", r->any_differ,
		       pct(r->any_differ, r->decisions));
	} else {
		printf("%-22s %12s %9s\n", "stop_tick", "-", "-");
	}
	print_diff_features(r);
	if (r->ended_runs)
		printf("note: %u run(s) ended early: a side chose an index outside the state table\n",
		       r->ended_runs);
	if (r->ncases)
		printf("\nthe first %u differing decisions (* marks values that differ):\n", r->ncases);
	for (unsigned int i = 0; i < r->ncases; i++)
		print_case_table(&r->cases[i]);
}

#ifdef HAVE_JANSSON
static json_t *json_vars(const struct il_var *vars, int n)
{
	json_t *o = json_object();

	for (int i = 0; i < n; i++)
		json_object_set_new(o, vars[i].name, vars[i].is_signed ?
				    json_integer((json_int_t)(s64)vars[i].value) :
				    json_integer((json_int_t)vars[i].value));
	return o;
}

static json_t *json_case(const struct il_kgov_diff_case *k)
{
	const struct kgov_step *in = &k->in[0];
	json_t *o = json_object(), *states = json_array(), *inputs = json_object();

	json_object_set_new(o, "decision", json_integer((json_int_t)k->decision + 1));
	json_object_set_new(o, "run", json_integer(k->run));
	json_object_set_new(o, "step", json_integer((json_int_t)k->step));
	json_object_set_new(o, "hz", json_integer(k->hz));
	for (int i = 0; i < k->drv.state_count; i++) {
		json_t *s = json_object();

		json_object_set_new(s, "name", json_string(k->drv.states[i].name));
		json_object_set_new(s, "exit_latency_ns", json_integer(k->drv.states[i].exit_latency_ns));
		json_object_set_new(s, "target_residency_ns",
				    json_integer(k->drv.states[i].target_residency_ns));
		json_object_set_new(s, "polling", json_boolean(k->drv.states[i].flags & CPUIDLE_FLAG_POLLING));
		json_object_set_new(s, "disabled", json_boolean(k->disable[i] != 0));
		json_array_append_new(states, s);
	}
	json_object_set_new(o, "states", states);
	json_object_set_new(inputs, "sleep_length_ns", json_integer(in->sleep_ns));
	json_object_set_new(inputs, "delta_next_ns", json_integer(in->delta_next_ns));
	json_object_set_new(inputs, "tick_stopped_old", json_boolean(in->tick_stopped));
	json_object_set_new(inputs, "tick_stopped_new", json_boolean(k->in[1].tick_stopped));
	json_object_set_new(inputs, "got_tick", json_boolean(in->got_tick));
	json_object_set_new(inputs, "qos_cpu_us", json_integer(in->qos.cpu_latency_us));
	json_object_set_new(inputs, "qos_resume_us", json_integer(in->qos.resume_latency_us));
	json_object_set_new(inputs, "qos_wakeup_us", json_integer(in->qos.wakeup_latency_us));
	json_object_set_new(inputs, "nr_iowait", json_integer((json_int_t)in->nr_iowait));
	json_object_set_new(inputs, "clock_ns", json_integer((json_int_t)in->clock_ns));
	json_object_set_new(inputs, "rejected", json_boolean(in->rejected));
	json_object_set_new(inputs, "residency_ns", json_integer(in->residency_ns));
	json_object_set_new(o, "inputs", inputs);
	for (int s = 0; s < 2; s++) {
		json_t *side = json_object();

		json_object_set_new(side, "index", json_integer(k->idx[s]));
		json_object_set_new(side, "stop_tick", json_boolean(k->stop_tick[s]));
		json_object_set_new(side, "vars", json_vars(k->vars[s], k->nvars[s]));
		json_object_set_new(o, s ? "new" : "old", side);
	}
	return o;
}

static json_t *json_side(const struct diff_side *s)
{
	json_t *o = json_object();

	json_object_set_new(o, "spec", json_string(s->spec));
	json_object_set_new(o, "preset", json_string(s->p->name));
	json_object_set_new(o, "upstream", json_string(s->p->upstream ? s->p->upstream : ""));
	return o;
}

/* [{features: {"tick stopped": true, ...}, count, pct}] for every non-empty combination */
static json_t *json_features(const struct il_kgov_diff_result *r)
{
	json_t *a = json_array();

	for (unsigned int key = 0; key < 1u << IL_KGOV_FEAT_COUNT; key++) {
		json_t *o, *f;

		if (!r->by_features[key])
			continue;
		o = json_object();
		f = json_object();
		for (int i = 0; i < IL_KGOV_FEAT_COUNT; i++)
			json_object_set_new(f, il_kgov_feature_name(i, true),
					    json_boolean(key & (1u << i)));
		json_object_set_new(o, "features", f);
		json_object_set_new(o, "count", json_integer((json_int_t)r->by_features[key]));
		json_object_set_new(o, "pct", json_real(pct(r->by_features[key], r->decisions)));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *json_framework(const struct diff_side *old, const struct diff_side *new,
			      const struct diff_framework *f)
{
	json_t *o = json_object();
	char fw[512];

	framework_line(old, new, f, fw, sizeof(fw));
	json_object_set_new(o, "shared", json_boolean(f->shared));
	json_object_set_new(o, "preset", json_string(f->fw.preset->name));
	json_object_set_new(o, "old_core", json_string(old->p->core->name));
	json_object_set_new(o, "new_core", json_string(new->p->core->name));
	json_object_set_new(o, "reason", json_string(f->fw.reason));
	json_object_set_new(o, "text", json_string(fw));
	return o;
}

static int print_diff_json(const struct diff_side *old, const struct diff_side *new,
			   const struct diff_framework *f, const char *source,
			   const struct il_kgov_diff_result *r)
{
	json_t *root = json_object(), *cases = json_array();
	int ret;

	json_object_set_new(root, "old", json_side(old));
	json_object_set_new(root, "new", json_side(new));
	json_object_set_new(root, "framework", json_framework(old, new, f));
	json_object_set_new(root, "input", json_string(source));
	json_object_set_new(root, "decisions", json_integer((json_int_t)r->decisions));
	json_object_set_new(root, "runs", json_integer(r->runs));
	json_object_set_new(root, "index_differ", json_integer((json_int_t)r->idx_differ));
	json_object_set_new(root, "index_differ_pct", json_real(pct(r->idx_differ, r->decisions)));
	if (r->compared_stop_tick) {
		json_object_set_new(root, "stop_tick_differ", json_integer((json_int_t)r->stop_tick_differ));
		json_object_set_new(root, "stop_tick_differ_pct",
				    json_real(pct(r->stop_tick_differ, r->decisions)));
		json_object_set_new(root, "any_differ", json_integer((json_int_t)r->any_differ));
		json_object_set_new(root, "any_differ_pct", json_real(pct(r->any_differ, r->decisions)));
	} else {
		json_object_set_new(root, "stop_tick_differ", json_null());
		json_object_set_new(root, "any_differ", json_integer((json_int_t)r->idx_differ));
	}
	json_object_set_new(root, "by_features", json_features(r));
	json_object_set_new(root, "ended_runs", json_integer(r->ended_runs));
	for (unsigned int i = 0; i < r->ncases; i++)
		json_array_append_new(cases, json_case(&r->cases[i]));
	json_object_set_new(root, "cases", cases);
	ret = json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	putchar('\n');
	json_decref(root);
	return ret;
}
#else
static int print_diff_json(const struct diff_side *old, const struct diff_side *new,
			   const struct diff_framework *f, const char *source,
			   const struct il_kgov_diff_result *r)
{
	return -1;
}
#endif

static int cmd_diff(const struct kgov_args *args)
{
	struct diff_side old = { .label = "OLD", .spec = args->src };
	struct diff_side new = { .label = "NEW", .spec = args->src2 };
	struct il_kgov_check_opts opts = { .seed = args->seed, .steps = args->steps,
					   .platform = args->platform };
	struct il_kgov_diff_result res;
	struct il_error err = { 0 };
	struct il_platform plat;
	struct il_lab_spec spec;
	struct diff_framework fw;
	char source[512];
	int ret, diffed;

	ret = diff_resolve(&old, args->verbose);
	if (!ret)
		ret = diff_resolve(&new, args->verbose);
	if (!ret)
		ret = diff_choose_framework(args, &old, &new, &fw);
	if (ret)
		goto out;
	ret = CLI_EXIT_RUNTIME;
	opts.progress = &watchdog_progress;
	if (args->scenario) {
		ret = diff_lab_spec(args, &plat, &spec, source, sizeof(source));
		if (ret)
			goto out;
		ret = CLI_EXIT_RUNTIME;
		diffed = il_kgov_diff_lab(old.p, new.p, &spec, (unsigned int)args->show, &res, &err);
	} else {
		snprintf(source, sizeof(source), "kgov check's random stream, seed %llu, %s",
			 args->seed, args->platform ? args->platform : "random platforms");
		struct progress prog;

		start_watchdog();
		progress_begin(&prog, args->progress, "idlelab kgov diff", PROGRESS_COUNT, "decisions",
			       args->steps);
		progress_watch(&prog, &watchdog_progress.decisions);
		diffed = il_kgov_diff(old.p, new.p, &opts, (unsigned int)args->show, &res, &err);
		progress_end(&prog);
	}
	if (diffed) {
		alarm(0);
		fprintf(stderr, "idlelab kgov diff: %s\n", err.msg);
		goto out;
	}
	alarm(0);
	if (args->format == KGOV_FMT_JSON) {
		if (print_diff_json(&old, &new, &fw, source, &res)) {
			fprintf(stderr, "idlelab kgov diff: JSON output needs libjansson (install "
					"libjansson-dev and rebuild)\n");
			il_kgov_diff_result_free(&res);
			goto out;
		}
	} else {
		print_diff_table(&old, &new, &fw, source, &res);
	}
	il_kgov_diff_result_free(&res);
	ret = CLI_EXIT_OK;
out:
	diff_cleanup(&old);
	diff_cleanup(&new);
	return ret;
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
	fprintf(stderr, "idlelab kgov: %s: no such built-in platform (see 'idlelab platforms')\n", name);
	return CLI_EXIT_USAGE;
}

static int kgov_main(void *state)
{
	struct kgov_args *args = state;

	if (check_platform_name(args->platform))
		return CLI_EXIT_USAGE;
	switch (args->action) {
	case KGOV_BUILD:
		return cmd_build(args);
	case KGOV_RECORD:
		return cmd_record(args);
	case KGOV_VERIFY:
		return cmd_verify(args);
	case KGOV_DIFF:
		return cmd_diff(args);
	default:
		return cmd_check(args);
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
