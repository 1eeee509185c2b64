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
 *
 * "build" compiles the file with the kernel-API shim (lib/kgov/, kshim/) into a shared object
 * that `-g file:OUT.so` runs like a built-in preset. "check" runs the file and a port in
 * lockstep on random inputs and stops at the first decision or internal value that differs.
 * "record" keeps what the file decided as a golden vector (lib/kgov/vector.c), "verify" replays
 * a vector against a port. Vector files ending in .xz are compressed and read through xz(1).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_kgov.h"
#include "commands.h"
#include "kgov/kgov.h"
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
				else if (!strcmp(value, "record"))
					args->action = KGOV_RECORD;
				else if (!strcmp(value, "verify"))
					args->action = KGOV_VERIFY;
				else
					return cli_error_set(err, "unknown action '%s' (build, check, record "
							     "or verify)", value);
			} else if (!args->src) {
				args->src = value;
			} else {
				return cli_error_set(err, "more than one %s given",
						     args->action == KGOV_VERIFY ? "vector file" : "source file");
			}
			break;
		}
	}
	if (!args->action)
		return cli_error_set(err, "no action given (build, check, record or verify)");
	if (!args->src)
		return cli_error_set(err, args->action == KGOV_VERIFY ? "no vector file given"
							       : "no governor source file given");
	if (args->as && args->action != KGOV_RECORD)
		return cli_error_set(err, "--as is an option of record");
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
		     "\n"
		     "  -o, --output OUT.so       build: where to write the object\n"
		     "  -o, --output FILE         record: the vector file to write\n"
		     "  -a, --against PRESET      check, verify: the port to compare with (idlelab\n"
		     "                            governors)\n"
		     "      --as PRESET           record: the framework rules and var names to use\n"
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
	bool built;
	int ret = CLI_EXIT_RUNTIME;

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
	if (il_kgov_record(up, as, &opts, &buf, &res, &err)) {
		fprintf(stderr, "idlelab kgov: %s\n", err.msg);
		goto out_buf;
	}
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
	switch (args.action) {
	case KGOV_BUILD:
		return cmd_build(&args);
	case KGOV_RECORD:
		return cmd_record(&args);
	case KGOV_VERIFY:
		return cmd_verify(&args);
	default:
		return cmd_check(&args);
	}
}
