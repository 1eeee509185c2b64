// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_kgov.c - `idlelab kgov build|check`: an unmodified upstream governor file in the lab.
 *
 *	idlelab kgov build SRC.c [-o OUT.so] [-v]
 *	idlelab kgov check SRC.c|OBJ.so --against PRESET [--steps N] [--seed S]
 *	                   [-p PLATFORM | --random-platforms] [-v]
 *
 * "build" compiles the file with the kernel-API shim (lib/kgov/, kshim/) into a shared object
 * that `-g file:OUT.so` runs like a built-in preset. "check" runs the file and a port in
 * lockstep on random inputs and stops at the first decision or internal value that differs.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "kgov/kgov.h"

enum kgov_action { KGOV_BUILD = 1, KGOV_CHECK };

struct kgov_args {
	enum kgov_action action;
	const char *src;          /* SRC.c (or OBJ.so for check) */
	const char *out;          /* build -o */
	const char *against;      /* check --against */
	const char *platform;     /* check -p */
	bool random_platforms;    /* check --random-platforms (the default) */
	unsigned long long steps; /* check --steps */
	unsigned long long seed;  /* check --seed */
	bool verbose;
};

enum {
	KGOV_OPT_HELP = 1,
	KGOV_OPT_OUT,
	KGOV_OPT_VERBOSE,
	KGOV_OPT_AGAINST,
	KGOV_OPT_STEPS,
	KGOV_OPT_SEED,
	KGOV_OPT_PLATFORM,
	KGOV_OPT_RANDOM,
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
	{ 0 },
};

#define KGOV_DEFAULT_STEPS 100000ULL

static int parse_count(const char *s, unsigned long long *out)
{
	char *end;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* The pure parser: no I/O. Return: CLI_PARSE_OK, CLI_PARSE_HELP or CLI_PARSE_ERROR. */
int kgov_parse_args(int argc, char **argv, struct kgov_args *args, struct cli_error *err)
{
	struct cli_scan s;
	const char *value;
	int id;

	memset(args, 0, sizeof(*args));
	args->steps = KGOV_DEFAULT_STEPS;
	args->seed = 1;
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
			break;
		case KGOV_OPT_SEED:
			if (parse_count(value, &args->seed))
				return cli_error_set(err, "--seed takes a non-negative number, not '%s'", value);
			break;
		case KGOV_OPT_PLATFORM:
			args->platform = value;
			break;
		case KGOV_OPT_RANDOM:
			args->random_platforms = true;
			break;
		case CLI_OPT_POSITIONAL:
			if (!args->action) {
				if (!strcmp(value, "build"))
					args->action = KGOV_BUILD;
				else if (!strcmp(value, "check"))
					args->action = KGOV_CHECK;
				else
					return cli_error_set(err, "unknown action '%s' (build or check)", value);
			} else if (!args->src) {
				args->src = value;
			} else {
				return cli_error_set(err, "more than one source file given");
			}
			break;
		}
	}
	if (!args->action)
		return cli_error_set(err, "no action given (build or check)");
	if (!args->src)
		return cli_error_set(err, "no governor source file given");
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
		     "\n"
		     "  -o, --output OUT.so       build: where to write the object\n"
		     "  -a, --against PRESET      check: the port to compare with (idlelab governors)\n"
		     "  -n, --steps N             check: decisions to compare (default %llu)\n"
		     "  -s, --seed S              check: seed of the random inputs (default 1)\n"
		     "  -p, --platform PLATFORM   check: use this platform's state table\n"
		     "      --random-platforms    check: a new random state table every few thousand\n"
		     "                            steps (the default)\n"
		     "  -v, --verbose             show the compiler command and output; check: also the\n"
		     "                            values compared\n"
		     "\n"
		     "Exit status: 0 no difference (or built), 1 a difference, a build failure or a\n"
		     "runtime error, 2 usage error.\n", KGOV_DEFAULT_STEPS);
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

static int build(const char *src, const char *out, bool verbose)
{
	struct il_kgov_build_result res;
	struct il_error err = { 0 };
	int ret = il_kgov_build(src, out, NULL, &res, &err);

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
	return CLI_EXIT_OK;
}

static int cmd_build(const struct kgov_args *args)
{
	char out[4096];

	if (args->out)
		snprintf(out, sizeof(out), "%s", args->out);
	else
		default_output(args->src, out, sizeof(out));
	return build(args->src, out, args->verbose);
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
	ret = il_kgov_check(up, port, &opts, &res, &err);
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

int cmd_kgov(int argc, char **argv)
{
	struct kgov_args args;
	struct cli_error err;

	switch (kgov_parse_args(argc, argv, &args, &err)) {
	case CLI_PARSE_ERROR:
		return cli_usage_error("kgov", err.msg);
	case CLI_PARSE_HELP:
		cmd_kgov_usage(stdout);
		return CLI_EXIT_OK;
	}
	return args.action == KGOV_BUILD ? cmd_build(&args) : cmd_check(&args);
}
