// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_measure.c - `idlelab measure`: a live A/B of cpuidle governors around a command.
 *
 * The front end of lib/live's measurement (live.h, "how a measurement runs"): options and
 * their syntax, the signal handlers, the messages on stderr and the tables on stdout or -o.
 *
 * Signals: SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1/2 call
 * il_live_session_interrupt() (a flag, and SIGKILL to the command's process group); the
 * loop sees the flag, restores, prints what was measured and we die of the same signal. A
 * second such signal restores from the handler itself (il_live_session_abort(),
 * async-signal-safe) and dies at once; so do SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT.
 * SIGPIPE is ignored, so a closed stderr cannot kill us before restoring. An inherited
 * ignored SIGHUP (nohup) stays ignored. A command that crashes, is killed or exits non-zero
 * ends the measurement the same way, with exit status 1.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_opts.h"
#include "commands.h"
#include "progress.h"
#include "live/live.h"
#include "output/output.h"
#include "summary_cli.h"
#include "util/atomic.h"
#include "util/parse.h"
#include "util/array.h"

#define MEASURE_LIST_LEN 1024
#define MEASURE_DEFAULT_SETTLE_NS 1000000000ULL
#define MEASURE_MAX_SETTLE_NS (3600ULL * 1000000000ULL)
#define MEASURE_TRACE_BUFFER_KB 16384
#define MEASURE_TRACE_BUFFER_KB_MAX (4u << 20)

enum {
	MEASURE_OPT_METRIC = 1, MEASURE_OPT_CPUS, MEASURE_OPT_SETTLE, MEASURE_OPT_DISABLE,
	MEASURE_OPT_ROOT, MEASURE_OPT_LOCK, MEASURE_OPT_TRACE, MEASURE_OPT_TRACE_BUFFER,
	MEASURE_OPT_BASELINE, MEASURE_OPT_USER, MEASURE_OPT_ALLOW_MISSING,
};

static const struct cli_opt measure_opts[] = {
	CLI_OPTS_HELP, CLI_OPTS_GOV, CLI_OPTS_ITER,
	{ MEASURE_OPT_METRIC, 'm', "metric", true },
	{ MEASURE_OPT_CPUS, 'c', "cpus", true },
	{ MEASURE_OPT_SETTLE, 0, "settle", true },
	{ MEASURE_OPT_DISABLE, 'd', "disable", true },
	{ MEASURE_OPT_ROOT, 0, "root", true },
	{ MEASURE_OPT_LOCK, 0, "lock", true },
	CLI_OPTS_FORMAT, CLI_OPTS_OUT,
	{ MEASURE_OPT_TRACE, 0, "trace", true },
	{ MEASURE_OPT_TRACE_BUFFER, 0, "trace-buffer-kb", true },
	{ MEASURE_OPT_BASELINE, 0, "baseline", true },
	CLI_OPTS_PROGRESS,
	{ MEASURE_OPT_USER, 0, "user", true },
	{ MEASURE_OPT_ALLOW_MISSING, 0, "allow-missing", false },
	{ 0 },
};

struct measure_args {
	struct il_live_measure_opts o;             /* what to measure: lib/live's options */
	char list_buf[MEASURE_LIST_LEN];           /* storage for -g and --disable words */
	size_t list_used;
	int argc;                                  /* ours, for the command's words in it */
	char **argv;
	const char *lock;
	const char *format;
	const char *output;
	const char *baseline;                      /* --baseline: of the summaries' deltas */
	enum progress_mode progress;               /* --progress, --no-progress */
};

void cmd_measure_usage(FILE *out)
{
	fprintf(out,
		"usage: idlelab measure -g GOV[,GOV...] [--iter N] [--metric NAME=REGEX] [--cpus "
		"LIST]\n"
		"                       [--settle T] [--disable STATE[,STATE...]] [--root DIR]\n"
		"                       [--lock FILE] [-f FORMAT] [-o FILE] [--trace PREFIX\n"
		"                       [--trace-buffer-kb KB]] [--user USER] [--allow-missing]\n"
		"                       [--] CMD [ARGS...]\n"
		"\n"
		"Run CMD once per governor and iteration, interleaved (A B A B ...), on this "
		"machine:\n"
		"switch current_governor, settle, snapshot the cpuidle counters and RAPL energy, "
		"run\n"
		"CMD (fork/exec, no shell), snapshot again. Print the linux-pm table (gov iter\n"
		"<metrics> joules idles idle_misses idle_miss_ratio belows aboves wall_s) and the\n"
		"per-state deltas. CMD's stdout is copied to stderr (so the tables on stdout stay\n"
		"clean) and searched by the --metric expressions. Every setting changed is put "
		"back\n"
		"on exit, on SIGINT/SIGTERM/SIGHUP, and when CMD fails. Needs root (it writes "
		"sysfs).\n"
		"\n"
		"  -g, --governor LIST  kernel governors to compare (available_governors); "
		"repeatable\n"
		"  -n, --iter N         iterations per governor (default 1)\n"
		"  -m, --metric NAME=REGEX  a column NAME holding the first match of the POSIX "
		"extended\n"
		"                       REGEX in CMD's stdout: its first group, else the whole "
		"match,\n"
		"                       read as a number with an optional k/M/G/T suffix; "
		"repeatable\n"
		"  -c, --cpus LIST      sum the counters of these CPUs only, e.g. 0-3,8 (default: "
		"all);\n"
		"                       --disable applies to them too. CMD is not pinned: use "
		"taskset\n"
		"      --settle T       wait T after each switch before measuring (default 1s; "
		"500ms,\n"
		"                       2s, a bare number is seconds)\n"
		"  -d, --disable LIST   disable these idle states (names or indexes) during the "
		"whole\n"
		"                       measurement; repeatable\n"
		"      --root DIR       use DIR/sys/... instead of /sys/... (a fixture tree)\n"
		"      --lock FILE      the lock file (default DIR/run/idlelab.lock)\n"
		"  -f, --format FMT     table (default), tsv, csv or json\n"
		"  -o, --output FILE    write the tables to FILE (whole or not at all) instead of "
		"stdout\n"
		"      --trace PREFIX   record each run in a private tracing instance (trace_clock "
		"mono;\n"
		"                       power:cpu_idle, cpu_idle_miss, timer, irq, ipi events) "
		"into\n"
		"                       PREFIX-GOV-ITER.trace, which 'idlelab replay' reads\n"
		"      --trace-buffer-kb KB  trace buffer per CPU (default 16384)\n"
		"      --baseline GOV   the governor the summaries compare with (default: the "
		"first)\n"
		"      --progress       show the runs done and an ETA on stderr even when it is "
		"not\n"
		"                       a terminal\n"
		"      --no-progress    never show progress (default: only on a terminal)\n"
		"      --user USER      run CMD as USER (name or uid; its groups from the group "
		"file);\n"
		"                       idlelab itself keeps root for sysfs. Under sudo the "
		"default is\n"
		"                       the invoking user (SUDO_UID/SUDO_GID), said on stderr; "
		"--user\n"
		"                       root keeps CMD as root\n"
		"      --allow-missing  skip a governor not in available_governors (default: "
		"refused,\n"
		"                       an A/B with a missing arm is not an A/B)\n"
		"\n"
		"With --iter N > 1, each table is followed by its summary: per metric (and state) "
		"and\n"
		"governor n, mean, sd, min, max and the 95 %% confidence interval of the mean, and "
		"the\n"
		"difference from the baseline in %% with its 95 %% interval and p (Welch's t-test: "
		"live\n"
		"runs share no seed). tsv and csv print ONE table: columns table (runs or states), "
		"row\n"
		"(iter or summary, with --iter > 1), then the union of the tables' columns.\n"
		"\n"
		"Exit status: 0 all runs done; 1 nothing measurable, a setting could not be "
		"changed or\n"
		"restored, or CMD failed; 2 usage error; killed by the signal that interrupted "
		"it.\n");
}

/* ---- the library's errors, worded with our options ------------------------------------------ */

/* The library names no flag: the option an error is about is put before its message (and
 * what would get past it after: cli_remedy()). */
static const char *option_of(enum il_error_input about)
{
	switch (about) {
	case IL_INPUT_CPUS: return "--cpus: ";
	case IL_INPUT_DISABLE: return "--disable: ";
	case IL_INPUT_METRIC: return "--metric: ";
	case IL_INPUT_TRACE: return "--trace: ";
	case IL_INPUT_USER: return "--user: ";
	case IL_INPUT_NONE: break;
	}
	return "";
}

/* ---- arguments ------------------------------------------------------------------------------- */

/* A metric is compiled here only to check it: a bad expression is a usage error. */
static int add_metric(struct il_live_measure_opts *o, const char *value, struct cli_error *err)
{
	struct il_live_metric m;
	struct il_error lerr;
	int ret = CLI_PARSE_OK;

	if (o->nmetric == IL_LIVE_METRICS_MAX)
		return cli_error_set(err, "--metric: at most %d", IL_LIVE_METRICS_MAX);
	if (il_live_metric_parse(value, &m, &lerr))
		return cli_error_set(err, "%s%s", option_of(lerr.about), lerr.msg);
	for (int i = 0; i < o->nmetric && !ret; i++) {
		size_t len = strlen(m.name);

		if (!strncmp(o->metrics[i], m.name, len) && o->metrics[i][len] == '=')
			ret = cli_error_set(err, "--metric: '%s' given twice", m.name);
	}
	if (!ret && il_summary_column(m.name))
		ret = cli_error_set(err, "--metric: '%s' is a column of the summaries; "
				    "choose another name", m.name);
	il_live_metric_free(&m);
	if (!ret)
		o->metrics[o->nmetric++] = value;
	return ret;
}

/* The first word that is no option is the command: it and all after it are its own. */
static int set_command(struct measure_args *args, const char *value)
{
	for (int i = 1; i < args->argc; i++) {
		if (args->argv[i] == value) {
			args->o.cmd = &args->argv[i];
			break;
		}
	}
	return CLI_PARSE_STOP;
}

static int measure_option(void *state, int id, const char *value, struct cli_error *err)
{
	struct measure_args *args = state;
	struct il_live_measure_opts *o = &args->o;
	struct il_error lerr;
	unsigned int *cpus;
	uint64_t kb;
	int iter;

	switch (id) {
	case CLI_OPT_POSITIONAL:
		return set_command(args, value);
	case CLI_OPT_GOV:
		return cli_append_list(value, args->list_buf, sizeof(args->list_buf),
				       &args->list_used, o->governors, IL_LIVE_MEASURE_GOV_MAX,
				       &o->ngov, "governor", err);
	case MEASURE_OPT_DISABLE:
		return cli_append_list(value, args->list_buf, sizeof(args->list_buf),
				       &args->list_used, o->disable, IL_LIVE_DISABLE_MAX,
				       &o->ndisable, "idle state", err);
	case CLI_OPT_ITER:
		if (cli_opt_iter(value, &iter, err))
			return CLI_PARSE_ERROR;
		o->iter = (unsigned int)iter;
		return CLI_PARSE_OK;
	case MEASURE_OPT_TRACE_BUFFER:
		if (cli_opt_count(value, "--trace-buffer-kb", 64, MEASURE_TRACE_BUFFER_KB_MAX, &kb,
				  err))
			return CLI_PARSE_ERROR;
		o->trace_buffer_kb = (unsigned int)kb;
		return CLI_PARSE_OK;
	case MEASURE_OPT_METRIC:
		return add_metric(o, value, err);
	case MEASURE_OPT_CPUS:
		/* Checked here so that a typo is a usage error; used after the machine is read. */
		if (il_live_parse_cpulist(value, &cpus, &lerr) < 0)
			return cli_error_set(err, "%s%s", option_of(lerr.about), lerr.msg);
		free(cpus);
		o->cpus = value;
		return CLI_PARSE_OK;
	case MEASURE_OPT_SETTLE:
		if (il_parse_time(value, 0, MEASURE_MAX_SETTLE_NS, &o->settle_ns))
			return cli_error_set(err, "--settle: '%s' is not a time in [0, 1h] "
					     "(500ms, 1.5s, 2s, 1m; a bare number is seconds)",
					     value);
		return CLI_PARSE_OK;
	case CLI_OPT_FORMAT:
		return cli_opt_format(value, &args->format, err);
	case MEASURE_OPT_TRACE:
		if (il_live_trace_missing())
			return cli_error_set(err, "--trace: %s", il_live_trace_missing());
		o->trace = value;
		return CLI_PARSE_OK;
	case CLI_OPT_PROGRESS:
	case CLI_OPT_NO_PROGRESS:
		return cli_opt_progress(id, &args->progress);
	case MEASURE_OPT_ALLOW_MISSING:
		o->allow_missing = true;
		break;
	case MEASURE_OPT_ROOT:
		o->root = value;
		break;
	case MEASURE_OPT_USER:
		o->user = value;
		break;
	case MEASURE_OPT_LOCK:
		args->lock = value;
		break;
	case CLI_OPT_OUT:
		args->output = value;
		break;
	case MEASURE_OPT_BASELINE:
		args->baseline = value;
		break;
	}
	return CLI_PARSE_OK;
}

static int measure_parse(int argc, char **argv, void *state, struct cli_error *err)
{
	struct measure_args *args = state;
	int ret;

	args->argc = argc;
	args->argv = argv;
	args->o.iter = 1;
	args->o.settle_ns = MEASURE_DEFAULT_SETTLE_NS;
	args->o.trace_buffer_kb = MEASURE_TRACE_BUFFER_KB;
	args->o.echo_fd = STDERR_FILENO; /* the tables on stdout stay clean */
	args->format = "table";
	ret = cli_parse_options(argc, argv, measure_opts, CLI_OPT_HELP, measure_option, args,
				err);
	if (ret != CLI_PARSE_OK)
		return ret;
	if (!args->o.ngov)
		return cli_error_set(err, "no governor given (-g menu,teo,...)");
	if (!args->o.cmd)
		return cli_error_set(err, "no command given (idlelab measure -g ... -- CMD ARGS)");
	if (summary_check_baseline(args->baseline, args->o.governors, args->o.ngov, err))
		return CLI_PARSE_ERROR;
	return CLI_PARSE_OK;
}

/* ---- signals --------------------------------------------------------------------------------- */

/* The signals we catch: NSTOP that stop the measurement, then the fatal ones, then SIGPIPE. */
static const int caught[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2,
	SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGPIPE,
};
#define NSTOP 7

static struct il_live_session *volatile signal_session;

/* Die of @sig, as the shell expects: only async-signal-safe calls. */
static void die_of(int sig)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t set;

	sigaction(sig, &dfl, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);
}

/* Put everything back and die of @sig. */
static void restore_and_die(int sig)
{
	if (signal_session)
		il_live_session_abort(signal_session);
	/* A trace or -o file being written is not left behind under its temporary name. */
	il_atomic_unlink_all();
	die_of(sig);
}

static void on_stop_signal(int sig)
{
	/* The second one: the user insists. */
	if (!signal_session || !il_live_session_interrupt(signal_session, sig))
		restore_and_die(sig);
}

static void on_fatal_signal(int sig)
{
	restore_and_die(sig);
}

/* The dispositions found at start, for the command and for the way out. */
static struct sigaction orig[ARRAY_SIZE(caught)];
static bool signals_installed;

static void install_signals(struct il_live_session *s)
{
	struct sigaction sa = { 0 };

	signal_session = s;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NSTOP; i++)
		sigaddset(&sa.sa_mask, caught[i]);
	/* No SA_RESTART: a blocking call returns EINTR so the loop sees the flag. */
	for (size_t i = 0; i < ARRAY_SIZE(caught); i++) {
		sigaction(caught[i], NULL, &orig[i]);
		/* Under nohup a hangup is not a reason to stop: keep ignoring it. */
		if (caught[i] == SIGHUP && orig[i].sa_handler == SIG_IGN)
			continue;
		/* SIGPIPE ignored: a closed stderr cannot kill us before restoring. */
		sa.sa_handler = i < NSTOP ? on_stop_signal :
				caught[i] == SIGPIPE ? SIG_IGN : on_fatal_signal;
		sigaction(caught[i], &sa, NULL);
	}
	signals_installed = true;
}

/* In the command before exec, and on the way out: the dispositions idlelab was started with. */
static void original_signals(void *unused)
{
	if (!signals_installed)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(caught); i++)
		sigaction(caught[i], &orig[i], NULL);
}

static void uninstall_signals(void)
{
	original_signals(NULL);
	signals_installed = false;
	signal_session = NULL;
}

/* ---- messages -------------------------------------------------------------------------------- */

#define warn(...) cli_warn("measure", __VA_ARGS__)

/* An error of the library, with the option it is about and its remedy. */
static void warn_lib(const struct il_error *err)
{
	warn("%s%s%s", option_of(err->about), err->msg, cli_remedy(err->need));
}

/* What the hooks need: the progress line, erased before each run's own line. */
struct measure_ui {
	struct progress prog;
	enum progress_mode mode;
	bool begun;
};

static void on_say(void *ctx, enum il_live_say kind, enum il_error_need need, const char *msg)
{
	warn("%s%s", msg, cli_remedy(need));
}

static void on_begin(void *ctx, int nruns)
{
	struct measure_ui *ui = ctx;

	progress_begin(&ui->prog, ui->mode, "idlelab measure", PROGRESS_COUNT, "runs",
		       (unsigned long long)nruns);
	ui->begun = true;
}

static void on_run_start(void *ctx, int run, int nruns, const char *gov, unsigned int iter)
{
	struct measure_ui *ui = ctx;

	progress_clear(&ui->prog);
	fprintf(stderr, "idlelab measure: run %d of %d: %s iter %u\n", run, nruns, gov, iter);
}

static void on_run_done(void *ctx, int done)
{
	progress_update(&((struct measure_ui *)ctx)->prog, (unsigned long long)done);
}

/* ---- output ---------------------------------------------------------------------------------- */

struct measure_output {
	const struct il_live_session *s;
	const struct measure_args *args;
};

/* The tables into @mem; Return: 0, 1 when writing failed, or -1 (out of memory, said). */
static int format_results(FILE *mem, const void *ctx)
{
	static const char *const lead_names[] = { "table" };
	static const char *const leads[2][1] = { { "runs" }, { "states" } };
	const struct measure_output *out = ctx;
	const struct measure_args *args = out->args;
	struct il_live_results r;
	char note[256];
	int ret = -1;

	if (il_live_results_build(out->s, args->baseline, &r)) {
		warn("out of memory");
	} else {
		struct il_result_part parts[2] = {
			{ r.runs, r.sum[0], leads[0] }, { r.states, r.sum[1], leads[1] },
		};

		summary_note(note, sizeof(note), args->baseline ? args->baseline : out->s->gov[0],
			     false, 0);
		ret = summary_write(mem, il_output_find(args->format), parts, 2, lead_names, 1,
				    note) ? 1 : 0;
	}
	il_live_results_free(&r);
	return ret;
}

static int print_results(const struct il_live_session *s, const struct measure_args *args)
{
	const struct measure_output out = { s, args };

	return cli_write_formatted("measure", args->output, format_results, &out);
}

/* ---- the measurement ------------------------------------------------------------------------- */

/* Steps 2-4 of live.h's DOC: lock, change, measure, restore. Return the exit code. */
static int measure_locked(struct il_live_session *s, const struct measure_args *args,
			  struct measure_ui *ui)
{
	struct il_error err = { 0 };
	int loop, restored, printed;

	if (il_live_session_lock(s, args->lock, &err)) {
		warn_lib(&err);
		return CLI_EXIT_RUNTIME;
	}
	install_signals(s);
	loop = il_live_session_measure(s, &err);
	if (loop && err.msg[0])
		warn_lib(&err);
	if (ui->begun)
		progress_end(&ui->prog);
	restored = il_live_session_restore(s);
	printed = s->nrows || !loop ? print_results(s, args) : 0;
	if (s->stop) {
		warn("interrupted by %s after %d of %d runs; settings restored%s",
		     il_live_signal_name(s->stop), s->nrows, il_live_session_nruns(s),
		     restored ? " only in part" : "");
		return -(int)s->stop;
	}
	return loop || restored || printed ? CLI_EXIT_RUNTIME : CLI_EXIT_OK;
}

static int measure_run(void *state)
{
	struct measure_args *args = state;
	struct measure_ui ui = { .mode = args->progress };
	struct il_live_hooks hooks = {
		.say = on_say, .begin = on_begin, .run_start = on_run_start,
		.run_done = on_run_done, .in_child = original_signals, .ctx = &ui,
	};
	struct il_live_session s;
	struct il_error err = { 0 };
	int ret;

	if (!il_output_find(args->format)->available) {
		warn("format %s: %s", args->format, il_output_find(args->format)->missing);
		return CLI_EXIT_RUNTIME;
	}
	/* Before any setting is changed: a measurement that cannot be written is not begun. */
	if (cli_check_output("measure", args->output, false))
		return CLI_EXIT_RUNTIME;
	args->o.sudo_uid = getenv("SUDO_UID");
	args->o.sudo_gid = getenv("SUDO_GID");
	if (il_live_session_init(&s, &args->o, &hooks, &err)) {
		warn_lib(&err);
		ret = CLI_EXIT_RUNTIME;
	} else {
		ret = measure_locked(&s, args, &ui);
	}
	/* The handlers point into @s: take them away first. */
	uninstall_signals();
	il_live_session_free(&s);
	return ret < 0 ? 128 - ret : ret;
}

int cmd_measure(int argc, char **argv)
{
	static const struct cli_lifecycle lc = {
		.name = "measure", .size = sizeof(struct measure_args), .parse = measure_parse,
		.usage = cmd_measure_usage, .run = measure_run,
	};
	int ret = cli_main(&lc, argc, argv);

	/* 128 + N (measure's own codes are 0-2): stopped by signal N, everything put back,
	 * the handlers undone and all freed. */
	if (ret > 128) {
		fflush(NULL);
		die_of(ret - 128);
	}
	return ret;
}
