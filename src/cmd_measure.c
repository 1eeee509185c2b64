// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_measure.c - `idlelab measure`: a live A/B of cpuidle governors around a command.
 *
 * DOC: how a measurement runs
 *
 *  1. Check everything before touching anything: the driver, the governors (one that is not
 *     in available_governors is reported and skipped), the CPUs, the states to disable, that
 *     current_governor and those disable files are writable (else: root is needed), then
 *     take the lock file so that a second measure is refused.
 *  2. Install the signal handlers, then change settings only through a struct
 *     il_live_changes, which saved each file's text before its first write.
 *  3. For each iteration, for each governor (A B A B ..., so drift over time does not favour
 *     one): switch current_governor, settle, snapshot the counters of the selected CPUs and
 *     RAPL, fork/exec the command (no shell) in its own process group with its stdout on a
 *     pipe, copy that output to our stderr while keeping it for the metric regexes, wait,
 *     snapshot again. idles/aboves/belows are the sums of the usage/above/below deltas.
 *  4. Restore every saved file, release the lock, print the tables (table, tsv, csv, json).
 *
 * Signals: SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1/2 set a flag and SIGKILL the
 * command's process group; the main loop sees the flag, restores, prints what was measured
 * and dies of the same signal. A second such signal restores from the handler itself (with
 * async-signal-safe writes) and dies at once; so do SIGSEGV, SIGBUS, SIGFPE, SIGILL and
 * SIGABRT. SIGPIPE is ignored, so a closed stderr cannot kill us before restoring. A
 * command that crashes, is killed or exits non-zero ends the measurement the same way,
 * with exit status 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <pwd.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "progress.h"
#include "live/live.h"
#include "output/output.h"
#include "summary_cli.h"
#include "util/atomic.h"
#include "util/parse.h"

#define MEASURE_MAX_GOVERNORS 16
#define MEASURE_MAX_METRICS 8
#define MEASURE_MAX_DISABLE 32
#define MEASURE_MAX_ITER 1000
#define MEASURE_LIST_LEN 1024
#define MEASURE_DEFAULT_SETTLE_NS 1000000000ULL
#define MEASURE_MAX_SETTLE_NS (3600ULL * 1000000000ULL)
#define MEASURE_CAPTURE_MAX (16u << 20) /* output kept for the metric regexes */
#define MEASURE_LOCK_FILE "/run/idlelab.lock"
#define MEASURE_TRACE_BUFFER_KB 16384
#define MEASURE_TRACE_BUFFER_KB_MAX (4u << 20)
#define MEASURE_MAX_GROUPS 256
/* Not quiet: a 1-minute load average above this before the first run, or a process other
 * than the command that used this share of a measured CPU during a run (and >= 2 ticks). */
#define MEASURE_QUIET_LOAD 1.0
#define MEASURE_QUIET_SHARE 0.10
#define MEASURE_QUIET_REPORT 3 /* the busiest processes named per run */

enum {
	MEASURE_OPT_HELP = 1, MEASURE_OPT_GOV, MEASURE_OPT_ITER, MEASURE_OPT_METRIC,
	MEASURE_OPT_CPUS, MEASURE_OPT_SETTLE, MEASURE_OPT_DISABLE, MEASURE_OPT_ROOT,
	MEASURE_OPT_LOCK, MEASURE_OPT_FORMAT, MEASURE_OPT_OUTPUT, MEASURE_OPT_TRACE,
	MEASURE_OPT_TRACE_BUFFER, MEASURE_OPT_BASELINE, MEASURE_OPT_PROGRESS,
	MEASURE_OPT_NO_PROGRESS, MEASURE_OPT_USER, MEASURE_OPT_ALLOW_MISSING,
};

static const struct cli_opt measure_opts[] = {
	{ MEASURE_OPT_HELP, 'h', "help", false },
	{ MEASURE_OPT_GOV, 'g', "governor", true },
	{ MEASURE_OPT_ITER, 'n', "iter", true },
	{ MEASURE_OPT_METRIC, 'm', "metric", true },
	{ MEASURE_OPT_CPUS, 'c', "cpus", true },
	{ MEASURE_OPT_SETTLE, 0, "settle", true },
	{ MEASURE_OPT_DISABLE, 'd', "disable", true },
	{ MEASURE_OPT_ROOT, 0, "root", true },
	{ MEASURE_OPT_LOCK, 0, "lock", true },
	{ MEASURE_OPT_FORMAT, 'f', "format", true },
	{ MEASURE_OPT_OUTPUT, 'o', "output", true },
	{ MEASURE_OPT_TRACE, 0, "trace", true },
	{ MEASURE_OPT_TRACE_BUFFER, 0, "trace-buffer-kb", true },
	{ MEASURE_OPT_BASELINE, 0, "baseline", true },
	PROGRESS_CLI_OPTS(MEASURE_OPT_PROGRESS, MEASURE_OPT_NO_PROGRESS),
	{ MEASURE_OPT_USER, 0, "user", true },
	{ MEASURE_OPT_ALLOW_MISSING, 0, "allow-missing", false },
	{ 0 },
};

struct measure_args {
	int ngov;
	const char *governors[MEASURE_MAX_GOVERNORS];
	int ndisable;
	const char *disable[MEASURE_MAX_DISABLE]; /* state names or indexes */
	char list_buf[MEASURE_LIST_LEN];           /* storage for governors[] and disable[] */
	size_t list_used;
	unsigned int iter;
	int nmetric;
	const char *metrics[MEASURE_MAX_METRICS];  /* NAME=REGEX */
	const char *cpus;
	u64 settle_ns;
	const char *root;
	const char *lock;
	const char *format;
	const char *output;
	const char *trace;                         /* --trace PREFIX */
	unsigned int trace_buffer_kb;
	const char *user;                          /* --user USER: who runs CMD */
	bool allow_missing;                        /* --allow-missing: skip absent governors */
	char **cmd;                                /* NULL-terminated, from argv */
	const char *baseline;                      /* --baseline: of the summaries' deltas */
	enum progress_mode progress;               /* --progress, --no-progress */
};

void cmd_measure_usage(FILE *out)
{
	fprintf(out,
		"usage: idlelab measure -g GOV[,GOV...] [--iter N] [--metric NAME=REGEX] [--cpus LIST]\n"
		"                       [--settle T] [--disable STATE[,STATE...]] [--root DIR]\n"
		"                       [--lock FILE] [-f FORMAT] [-o FILE] [--trace PREFIX\n"
		"                       [--trace-buffer-kb KB]] [--user USER] [--allow-missing]\n"
		"                       [--] CMD [ARGS...]\n"
		"\n"
		"Run CMD once per governor and iteration, interleaved (A B A B ...), on this machine:\n"
		"switch current_governor, settle, snapshot the cpuidle counters and RAPL energy, run\n"
		"CMD (fork/exec, no shell), snapshot again. Print the linux-pm table (gov iter\n"
		"<metrics> joules idles idle_misses idle_miss_ratio belows aboves wall_s) and the\n"
		"per-state deltas. CMD's stdout is copied to stderr (so the tables on stdout stay\n"
		"clean) and searched by the --metric expressions. Every setting changed is put back\n"
		"on exit, on SIGINT/SIGTERM/SIGHUP, and when CMD fails. Needs root (it writes sysfs).\n"
		"\n"
		"  -g, --governor LIST  kernel governors to compare (available_governors); repeatable\n"
		"  -n, --iter N         iterations per governor (default 1)\n"
		"  -m, --metric NAME=REGEX  a column NAME holding the first match of the POSIX extended\n"
		"                       REGEX in CMD's stdout: its first group, else the whole match,\n"
		"                       read as a number with an optional k/M/G/T suffix; repeatable\n"
		"  -c, --cpus LIST      sum the counters of these CPUs only, e.g. 0-3,8 (default: all);\n"
		"                       --disable applies to them too. CMD is not pinned: use taskset\n"
		"      --settle T       wait T after each switch before measuring (default 1s; 500ms,\n"
		"                       2s, a bare number is seconds)\n"
		"  -d, --disable LIST   disable these idle states (names or indexes) during the whole\n"
		"                       measurement; repeatable\n"
		"      --root DIR       use DIR/sys/... instead of /sys/... (a fixture tree)\n"
		"      --lock FILE      the lock file (default DIR/run/idlelab.lock)\n"
		"  -f, --format FMT     table (default), tsv, csv or json\n"
		"  -o, --output FILE    write the tables to FILE (whole or not at all) instead of stdout\n"
		"      --trace PREFIX   record each run in a private tracing instance (trace_clock mono;\n"
		"                       power:cpu_idle, cpu_idle_miss, timer, irq, ipi events) into\n"
		"                       PREFIX-GOV-ITER.trace, which 'idlelab replay' reads\n"
		"      --trace-buffer-kb KB  trace buffer per CPU (default 16384)\n"
		"      --baseline GOV   the governor the summaries compare with (default: the first)\n"
		"      --progress       show the runs done and an ETA on stderr even when it is not\n"
		"                       a terminal\n"
		"      --no-progress    never show progress (default: only on a terminal)\n"
		"      --user USER      run CMD as USER (name or uid; its groups from the group file);\n"
		"                       idlelab itself keeps root for sysfs. Under sudo the default is\n"
		"                       the invoking user (SUDO_UID/SUDO_GID), said on stderr; --user\n"
		"                       root keeps CMD as root\n"
		"      --allow-missing  skip a governor not in available_governors (default: refused,\n"
		"                       an A/B with a missing arm is not an A/B)\n"
		"\n"
		"With --iter N > 1, each table is followed by its summary: per metric (and state) and\n"
		"governor n, mean, sd, min, max and the 95 %% confidence interval of the mean, and the\n"
		"difference from the baseline in %% with its 95 %% interval and p (Welch's t-test: live\n"
		"runs share no seed). tsv and csv print ONE table: columns table (runs or states), row\n"
		"(iter or summary, with --iter > 1), then the union of the tables' columns.\n"
		"\n"
		"Exit status: 0 all runs done; 1 nothing measurable, a setting could not be changed or\n"
		"restored, or CMD failed; 2 usage error; killed by the signal that interrupted it.\n");
}

/* ---- arguments ---------------------------------------------------------------------------------- */

/* Split "a,b" into @names (count in *@n), copying the words into args->list_buf. */
static int add_list(struct measure_args *args, const char *value, const char **names, int *n,
		    int max, const char *what, struct cli_error *err)
{
	size_t len = strlen(value);
	char *copy = args->list_buf + args->list_used, *save = NULL;

	if (args->list_used + len + 1 > sizeof(args->list_buf))
		return cli_error_set(err, "%s: list too long", what);
	memcpy(copy, value, len + 1);
	args->list_used += len + 1;
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		if (*n >= max)
			return cli_error_set(err, "%s: more than %d entries", what, max);
		names[(*n)++] = w;
	}
	return CLI_PARSE_OK;
}

static int parse_iter(const char *value, unsigned int *iter, struct cli_error *err)
{
	uint64_t v;

	if (il_parse_count(value, 1, MEASURE_MAX_ITER, &v))
		return cli_error_set(err, "--iter: '%s' is not in [1, %d]", value, MEASURE_MAX_ITER);
	*iter = (unsigned int)v;
	return CLI_PARSE_OK;
}

/* A metric is compiled here only to check it: a bad expression is a usage error. */
static int add_metric(struct measure_args *args, const char *value, struct cli_error *err)
{
	struct il_live_metric m;
	struct il_error lerr;

	if (args->nmetric == MEASURE_MAX_METRICS)
		return cli_error_set(err, "--metric: at most %d", MEASURE_MAX_METRICS);
	if (il_live_metric_parse(value, &m, &lerr))
		return cli_error_set(err, "%s", lerr.msg);
	for (int i = 0; i < args->nmetric; i++) {
		size_t len = strlen(m.name);

		if (!strncmp(args->metrics[i], m.name, len) && args->metrics[i][len] == '=') {
			il_live_metric_free(&m);
			return cli_error_set(err, "--metric: '%s' given twice", m.name);
		}
	}
	if (il_summary_column(m.name)) {
		il_live_metric_free(&m);
		return cli_error_set(err, "--metric: '%s' is a column of the summaries; "
				     "choose another name", m.name);
	}
	il_live_metric_free(&m);
	args->metrics[args->nmetric++] = value;
	return CLI_PARSE_OK;
}

static int measure_option(int id, const char *value, struct measure_args *args,
			  struct cli_error *err)
{
	struct il_error lerr;

	switch (id) {
	case MEASURE_OPT_GOV:
		return add_list(args, value, args->governors, &args->ngov, MEASURE_MAX_GOVERNORS,
				"--governor", err);
	case MEASURE_OPT_DISABLE:
		return add_list(args, value, args->disable, &args->ndisable, MEASURE_MAX_DISABLE,
				"--disable", err);
	case MEASURE_OPT_ITER:
		return parse_iter(value, &args->iter, err);
	case MEASURE_OPT_METRIC:
		return add_metric(args, value, err);
	case MEASURE_OPT_CPUS: {
		unsigned int *cpus;

		/* Checked here so that a typo is a usage error; used after the machine is read. */
		if (il_live_parse_cpulist(value, &cpus, &lerr) < 0)
			return cli_error_set(err, "%s", lerr.msg);
		free(cpus);
		args->cpus = value;
		return CLI_PARSE_OK;
	}
	case MEASURE_OPT_SETTLE:
		if (il_parse_time(value, 0, MEASURE_MAX_SETTLE_NS, &args->settle_ns))
			return cli_error_set(err, "--settle: '%s' is not a time in [0, 1h] "
					     "(500ms, 1.5s, 2s, 1m; a bare number is seconds)",
					     value);
		return CLI_PARSE_OK;
	case MEASURE_OPT_ROOT:
		args->root = value;
		return CLI_PARSE_OK;
	case MEASURE_OPT_LOCK:
		args->lock = value;
		return CLI_PARSE_OK;
	case MEASURE_OPT_FORMAT:
		if (!il_output_find(value))
			return cli_error_set(err, "unknown format '%s' (table, tsv, csv or json)", value);
		args->format = value;
		return CLI_PARSE_OK;
	case MEASURE_OPT_OUTPUT:
		args->output = value;
		return CLI_PARSE_OK;
	case MEASURE_OPT_TRACE:
		if (il_live_trace_missing())
			return cli_error_set(err, "--trace: %s", il_live_trace_missing());
		args->trace = value;
		return CLI_PARSE_OK;
	case MEASURE_OPT_BASELINE:
		args->baseline = value;
		return CLI_PARSE_OK;
	case MEASURE_OPT_USER:
		args->user = value;
		return CLI_PARSE_OK;
	case MEASURE_OPT_ALLOW_MISSING:
		args->allow_missing = true;
		return CLI_PARSE_OK;
	case MEASURE_OPT_TRACE_BUFFER: {
		uint64_t v;

		if (il_parse_count(value, 64, MEASURE_TRACE_BUFFER_KB_MAX, &v))
			return cli_error_set(err, "--trace-buffer-kb: '%s' is not in [64, %u]", value,
					     MEASURE_TRACE_BUFFER_KB_MAX);
		args->trace_buffer_kb = (unsigned int)v;
		return CLI_PARSE_OK;
	}
	case MEASURE_OPT_PROGRESS:
	case MEASURE_OPT_NO_PROGRESS:
		args->progress = id == MEASURE_OPT_PROGRESS ? PROGRESS_ON : PROGRESS_OFF;
		return CLI_PARSE_OK;
	default:
		return cli_error_set(err, "unexpected option");
	}
}

static int measure_parse_args(int argc, char **argv, struct measure_args *args,
			      struct cli_error *err)
{
	struct cli_scan s;
	const char *value;
	int id;

	memset(args, 0, sizeof(*args));
	args->iter = 1;
	args->settle_ns = MEASURE_DEFAULT_SETTLE_NS;
	args->format = "table";
	args->trace_buffer_kb = MEASURE_TRACE_BUFFER_KB;
	cli_scan_init(&s, argc, argv);
	while ((id = cli_next_opt(&s, measure_opts, &value, err)) != CLI_OPT_END) {
		if (id == CLI_PARSE_ERROR)
			return CLI_PARSE_ERROR;
		if (id == MEASURE_OPT_HELP)
			return CLI_PARSE_HELP;
		if (id == CLI_OPT_POSITIONAL) {
			/* The command and everything after it belong to the command. */
			args->cmd = &argv[s.i - 1];
			break;
		}
		if (measure_option(id, value, args, err))
			return CLI_PARSE_ERROR;
	}
	if (!args->ngov)
		return cli_error_set(err, "no governor given (-g menu,teo,...)");
	if (!args->cmd)
		return cli_error_set(err, "no command given (idlelab measure -g ... -- CMD ARGS)");
	if (summary_check_baseline(args->baseline, args->governors, args->ngov, err))
		return CLI_PARSE_ERROR;
	return CLI_PARSE_OK;
}

/* ---- signals --------------------------------------------------------------------------------------- */

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2 };
static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* "SIGINT" for the messages (strsignal() says "Interrupt"). */
static const char *signal_name(int sig)
{
	static const struct {
		int sig;
		const char *name;
	} names[] = {
		{ SIGINT, "SIGINT" }, { SIGTERM, "SIGTERM" }, { SIGHUP, "SIGHUP" }, { SIGQUIT, "SIGQUIT" },
		{ SIGALRM, "SIGALRM" }, { SIGUSR1, "SIGUSR1" }, { SIGUSR2, "SIGUSR2" },
		{ SIGSEGV, "SIGSEGV" }, { SIGBUS, "SIGBUS" }, { SIGFPE, "SIGFPE" }, { SIGILL, "SIGILL" },
		{ SIGABRT, "SIGABRT" }, { SIGKILL, "SIGKILL" }, { SIGPIPE, "SIGPIPE" },
	};

	for (size_t i = 0; i < NELEMS(names); i++)
		if (names[i].sig == sig)
			return names[i].name;
	return "a signal";
}

static volatile sig_atomic_t stop_signal;   /* the first stop signal received */
static volatile sig_atomic_t child_pgid;    /* the running command's process group, or 0 */
static struct il_live_changes *volatile signal_changes;

static void kill_child(void)
{
	pid_t pg = (pid_t)child_pgid;

	if (pg > 0) {
		kill(-pg, SIGKILL);
		kill(pg, SIGKILL);
	}
}

/* Put everything back and die of @sig: only async-signal-safe calls. */
static void restore_and_die(int sig)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t set;

	kill_child();
	if (signal_changes)
		il_live_restore(signal_changes);
	/* A trace or -o file being written is not left behind under its temporary name. */
	il_atomic_unlink_all();
	sigaction(sig, &dfl, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);
}

static void on_stop_signal(int sig)
{
	int saved = errno;

	if (stop_signal)
		restore_and_die(sig); /* the second one: the user insists */
	stop_signal = sig;
	kill_child();
	errno = saved;
}

static void on_fatal_signal(int sig)
{
	restore_and_die(sig);
}

/* The dispositions found at start, for the command and for the way out. */
static struct sigaction orig_stop[NELEMS(stop_signals)], orig_fatal[NELEMS(fatal_signals)], orig_pipe;
static bool signals_installed;

static void install_signals(struct il_live_changes *ch)
{
	struct sigaction sa = { 0 };

	signal_changes = ch;
	for (size_t i = 0; i < NELEMS(stop_signals); i++)
		sigaction(stop_signals[i], NULL, &orig_stop[i]);
	for (size_t i = 0; i < NELEMS(fatal_signals); i++)
		sigaction(fatal_signals[i], NULL, &orig_fatal[i]);
	sigaction(SIGPIPE, NULL, &orig_pipe);
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NELEMS(stop_signals); i++)
		sigaddset(&sa.sa_mask, stop_signals[i]);
	/* No SA_RESTART: a blocking call returns EINTR so the loop sees the flag. */
	sa.sa_handler = on_stop_signal;
	for (size_t i = 0; i < NELEMS(stop_signals); i++) {
		/* Under nohup a hangup is not a reason to stop: keep ignoring it. */
		if (stop_signals[i] == SIGHUP && orig_stop[i].sa_handler == SIG_IGN)
			continue;
		sigaction(stop_signals[i], &sa, NULL);
	}
	sa.sa_handler = on_fatal_signal;
	for (size_t i = 0; i < NELEMS(fatal_signals); i++)
		sigaction(fatal_signals[i], &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	signals_installed = true;
}

/* In the child before exec, and on the way out: the dispositions idlelab was started with. */
static void original_signals(void)
{
	for (size_t i = 0; i < NELEMS(stop_signals); i++)
		sigaction(stop_signals[i], &orig_stop[i], NULL);
	for (size_t i = 0; i < NELEMS(fatal_signals); i++)
		sigaction(fatal_signals[i], &orig_fatal[i], NULL);
	sigaction(SIGPIPE, &orig_pipe, NULL);
}

static void uninstall_signals(void)
{
	if (signals_installed)
		original_signals();
	signals_installed = false;
	signal_changes = NULL;
}

/* ---- the measurement's state ------------------------------------------------------------------------ */

struct run_row {
	const char *gov;
	unsigned int iter;
	double metric[MEASURE_MAX_METRICS];
	int metric_rc[MEASURE_MAX_METRICS];
	bool energy_ok;
	double joules;
	u64 wall_ns;
	unsigned int have;          /* IL_LF_* counters present on every CPU and state */
	u64 idles, aboves, belows;
	int nstates;
	struct il_live_delta st[CPUIDLE_STATE_MAX];
	char names[CPUIDLE_STATE_MAX][IL_NAME_LEN];
};

/* Who runs the command: idlelab keeps its rights, the child drops to these before exec. */
struct run_as {
	bool drop;
	uid_t uid;
	gid_t gid;
	int ngroups;
	gid_t groups[MEASURE_MAX_GROUPS];
};

struct measure {
	struct measure_args *args;
	struct progress prog;                /* runs done, on stderr between the runs */
	struct run_as user;
	struct il_live lv;
	struct il_live_cpuidle ci;
	int ngov;                            /* governors kept */
	const char *gov[MEASURE_MAX_GOVERNORS];
	int ncpu;                            /* measured CPUs */
	unsigned int *cpu;
	struct il_live_cpu *before, *after;  /* [ncpu] */
	int ndisable_paths;
	char (*disable_path)[IL_LIVE_PATH_MAX];
	struct il_live_metric metric[MEASURE_MAX_METRICS];
	struct il_live_rapl rapl;
	u64 energy_before[IL_LIVE_RAPL_MAX], energy_after[IL_LIVE_RAPL_MAX];
	struct il_live_changes changes;
	struct il_live_trace *trace;
	struct il_live_procs procs_before, procs_after;
	bool procs_ok;                       /* ROOT/proc could be listed */
	pid_t last_child;                    /* the process group of the last run's command */
	int lock_fd;
	int nrows;
	struct run_row *rows;
	char *capture;
	size_t capture_len;
	bool capture_truncated;
};

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

static void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void warn(const char *fmt, ...)
{
	va_list ap;

	fputs("idlelab measure: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* ---- setup (nothing is changed here) ------------------------------------------------------------------ */

static int pick_governors(struct measure *m)
{
	for (int i = 0; i < m->args->ngov; i++) {
		const char *g = m->args->governors[i];
		bool dup = false;

		for (int k = 0; k < m->ngov; k++)
			dup |= !strcmp(m->gov[k], g);
		if (dup)
			continue;
		if (!il_live_governor_available(&m->ci, g)) {
			char list[IL_LIVE_GOV_MAX * (IL_LIVE_GOV_NAME_LEN + 1) + 1] = "";
			size_t used = 0;

			for (int k = 0; k < m->ci.ngov; k++)
				used += (size_t)snprintf(list + used, sizeof(list) - used, " %s",
							 m->ci.available[k]);
			if (!m->args->allow_missing) {
				warn("governor '%s' is not available here (available_governors:%s): "
				     "an A/B without it is not the one asked for; --allow-missing "
				     "skips it", g, m->ci.ngov ? list : " none");
				return -1;
			}
			warn("governor '%s' is not available here (available_governors:%s); skipped", g,
			     m->ci.ngov ? list : " none");
			continue;
		}
		m->gov[m->ngov++] = g;
	}
	if (!m->ngov) {
		warn("none of the governors given is available; nothing to measure");
		return -1;
	}
	return 0;
}

static bool in_list(const unsigned int *list, int n, unsigned int v)
{
	for (int i = 0; i < n; i++)
		if (list[i] == v)
			return true;
	return false;
}

/* The measured CPUs: --cpus (each must exist and have cpuidle), else all with cpuidle. */
static int pick_cpus(struct measure *m)
{
	unsigned int *all = NULL, *want = NULL;
	int nall, nwant = 0, ret = -1;
	struct il_error err;

	nall = il_live_list_cpus(&m->lv, &all, &err);
	if (nall < 0) {
		warn("%s", err.msg);
		return -1;
	}
	if (m->args->cpus) {
		nwant = il_live_parse_cpulist(m->args->cpus, &want, &err);
		if (nwant < 0) {
			warn("%s", err.msg);
			goto out;
		}
	}
	m->cpu = calloc((size_t)nall, sizeof(*m->cpu));
	m->before = calloc((size_t)nall, sizeof(*m->before));
	m->after = calloc((size_t)nall, sizeof(*m->after));
	if (!m->cpu || !m->before || !m->after) {
		warn("out of memory");
		goto out;
	}
	for (int i = 0; i < nwant; i++)
		if (!in_list(all, nall, want[i])) {
			warn("--cpus: cpu%u does not exist", want[i]);
			goto out;
		}
	for (int i = 0; i < nall; i++) {
		struct il_live_cpu *c = &m->before[m->ncpu];

		if (nwant && !in_list(want, nwant, all[i]))
			continue;
		if (il_live_read_cpu(&m->lv, all[i], IL_LIVE_READ_ALL, c, &err)) {
			warn("%s", err.msg);
			goto out;
		}
		if (!c->has_cpuidle) {
			if (nwant) {
				warn("--cpus: cpu%u has no cpuidle directory (offline?)", all[i]);
				goto out;
			}
			continue;
		}
		/* It keeps its cpuidle directory, but does not idle: nothing to measure. */
		if (c->offline) {
			if (nwant) {
				warn("--cpus: cpu%u is offline", all[i]);
				goto out;
			}
			continue;
		}
		m->cpu[m->ncpu++] = all[i];
	}
	if (!m->ncpu) {
		warn("no CPU has a cpuidle directory; nothing to measure");
		goto out;
	}
	ret = 0;
out:
	free(all);
	free(want);
	return ret;
}

/* Every --disable state on every measured CPU, as the list of disable files to write. */
static int resolve_disable(struct measure *m)
{
	int cap = m->args->ndisable * m->ncpu;

	if (!cap)
		return 0;
	m->disable_path = calloc((size_t)cap, sizeof(*m->disable_path));
	if (!m->disable_path) {
		warn("out of memory");
		return -1;
	}
	for (int c = 0; c < m->ncpu; c++) {
		for (int k = 0; k < m->args->ndisable; k++) {
			const char *spec = m->args->disable[k];
			int idx = il_live_find_state(&m->before[c], spec);

			if (idx < 0) {
				warn("--disable: cpu%u has no state '%s'", m->cpu[c], spec);
				return -1;
			}
			if (il_live_path(&m->lv, m->disable_path[m->ndisable_paths], IL_LIVE_PATH_MAX,
					 "/sys/devices/system/cpu/cpu%u/cpuidle/state%d/disable", m->cpu[c],
					 idx)) {
				warn("path too long");
				return -1;
			}
			m->ndisable_paths++;
		}
	}
	return 0;
}

static int compile_metrics(struct measure *m)
{
	struct il_error err;

	for (int i = 0; i < m->args->nmetric; i++) {
		if (il_live_metric_parse(m->args->metrics[i], &m->metric[i], &err)) {
			warn("%s", err.msg);
			return -1;
		}
	}
	return 0;
}

static void open_rapl(struct measure *m)
{
	struct il_error err;

	if (il_live_rapl_open(&m->lv, &m->rapl, &err)) {
		m->rapl.status = IL_RAPL_ABSENT;
		snprintf(m->rapl.why, sizeof(m->rapl.why), "%s", err.msg);
	}
	/* Said once, here: joules stays "-" in every row. */
	if (m->rapl.status != IL_RAPL_OK)
		warn("energy: not measured, %s", m->rapl.why);
}

/* Fail before anything changes when a file we will write is not writable. */
static int check_writable(struct measure *m)
{
	char path[IL_LIVE_PATH_MAX];
	struct il_error err;

	if (il_live_path(&m->lv, path, sizeof(path), "/sys/devices/system/cpu/cpuidle/current_governor") ||
	    il_live_check_writable(path, &err)) {
		warn("%s", err.msg);
		return -1;
	}
	for (int i = 0; i < m->ndisable_paths; i++)
		if (il_live_check_writable(m->disable_path[i], &err)) {
			warn("%s", err.msg);
			return -1;
		}
	return 0;
}

/* One line before the runs: what is measured, so a log says it. */
static void announce(const struct measure *m)
{
	char gov[MEASURE_MAX_GOVERNORS * (IL_LIVE_GOV_NAME_LEN + 1) + 1] = "";
	char energy[IL_LIVE_RAPL_MAX * 66 + 8] = "none";
	size_t used = 0;

	for (int i = 0; i < m->ngov; i++)
		used += (size_t)snprintf(gov + used, sizeof(gov) - used, "%s%s", i ? " " : "", m->gov[i]);
	if (m->rapl.status == IL_RAPL_OK) {
		used = (size_t)snprintf(energy, sizeof(energy), "RAPL");
		for (int i = 0; i < m->rapl.nzones; i++)
			used += (size_t)snprintf(energy + used, sizeof(energy) - used, " %s",
						 m->rapl.zone[i].name);
	}
	fprintf(stderr, "idlelab measure: %s driver on %d CPU%s (cpu%u..cpu%u); governors %s; %u "
		"iteration%s; settle %.3gs; energy %s\n", m->ci.driver, m->ncpu, m->ncpu == 1 ? "" : "s",
		m->cpu[0], m->cpu[m->ncpu - 1], gov, m->args->iter, m->args->iter == 1 ? "" : "s",
		(double)m->args->settle_ns / 1e9, energy);
}

/* A uid or gid in decimal, as sudo writes SUDO_UID/SUDO_GID. */
static int parse_id(const char *text, unsigned int *id)
{
	uint64_t v;

	if (!text || il_parse_count(text, 0, (uid_t)-1 - 1, &v))
		return -1;
	*id = (unsigned int)v;
	return 0;
}

/* The supplementary groups of @pw (the group file), else only @gid. */
static void user_groups(struct run_as *u, const struct passwd *pw)
{
	int n = MEASURE_MAX_GROUPS;

	if (!pw || getgrouplist(pw->pw_name, u->gid, u->groups, &n) < 0) {
		u->groups[0] = u->gid;
		n = 1;
	}
	u->ngroups = n;
}

/*
 * --user USER, else the user who ran sudo (SUDO_UID, SUDO_GID), else nobody to change to.
 * Only root can change users; idlelab itself keeps its rights either way.
 */
static int resolve_user(struct measure *m)
{
	const char *sudo_uid = getenv("SUDO_UID");
	struct passwd *pw = NULL;
	struct run_as *u = &m->user;
	unsigned int id;

	if (m->args->user) {
		pw = getpwnam(m->args->user);
		if (!pw && !parse_id(m->args->user, &id))
			pw = getpwuid((uid_t)id);
		if (!pw) {
			warn("--user: no user '%s' in the password database", m->args->user);
			return -1;
		}
		u->uid = pw->pw_uid;
		u->gid = pw->pw_gid;
	} else if (sudo_uid && geteuid() == 0) {
		const char *sudo_gid = getenv("SUDO_GID");
		unsigned int gid;

		if (parse_id(sudo_uid, &id) || (sudo_gid && parse_id(sudo_gid, &gid))) {
			warn("SUDO_UID='%s', SUDO_GID='%s': not user and group ids; give --user "
			     "USER (--user root to run the command as root)", sudo_uid,
			     sudo_gid ? sudo_gid : "");
			return -1;
		}
		pw = getpwuid((uid_t)id);
		u->uid = (uid_t)id;
		u->gid = sudo_gid ? (gid_t)gid : pw ? pw->pw_gid : (gid_t)id;
	} else {
		return 0;
	}
	if (u->uid == geteuid() && u->gid == getegid())
		return 0; /* already that user: nothing to drop */
	if (geteuid() != 0) {
		warn("--user %s: only root can run the command as another user", m->args->user);
		return -1;
	}
	user_groups(u, pw);
	u->drop = true;
	if (!m->args->user)
		fprintf(stderr, "idlelab measure: running the command as %s (uid %u, gid %u), "
			"who ran sudo (SUDO_UID/SUDO_GID); --user root to run it as root\n",
			pw ? pw->pw_name : "?", (unsigned int)u->uid, (unsigned int)u->gid);
	return 0;
}

/* Before the first run: the load average (ROOT/proc/loadavg). */
static void check_load(struct measure *m)
{
	struct il_error err;
	double load;

	if (il_live_loadavg(&m->lv, &load, &err))
		warn("quiet check: %s; the load average is not checked", err.msg);
	else if (load > MEASURE_QUIET_LOAD)
		warn("the machine is not quiet: load average %.2f over the last minute "
		     "(more than %.1f); the runs share the CPUs with it", load, MEASURE_QUIET_LOAD);
	if (il_live_procs_read(&m->lv, &m->procs_before, &err))
		warn("quiet check: %s; other processes are not checked", err.msg);
	else
		m->procs_ok = true;
}

/* After a run: processes other than the command that kept a measured CPU busy. */
static void check_foreign(struct measure *m, const struct run_row *row)
{
	struct il_live_proc busy[MEASURE_QUIET_REPORT];
	long tck = sysconf(_SC_CLK_TCK);
	struct il_error err;
	u64 min_ticks;
	int n;

	if (!m->procs_ok || tck <= 0)
		return;
	if (il_live_procs_read(&m->lv, &m->procs_after, &err)) {
		warn("quiet check: %s", err.msg);
		return;
	}
	min_ticks = (u64)((double)row->wall_ns / 1e9 * (double)tck * MEASURE_QUIET_SHARE);
	if (min_ticks < 2)
		min_ticks = 2;
	n = il_live_procs_busy(&m->procs_before, &m->procs_after, m->cpu, m->ncpu,
			       (int)m->last_child, (int)getpid(), min_ticks, busy,
			       MEASURE_QUIET_REPORT);
	for (int i = 0; i < n; i++)
		warn("not quiet: pid %d (%s) used %.0f%% of a CPU during %s iter %u, last on "
		     "measured cpu%u", busy[i].pid, busy[i].comm,
		     100.0 * (double)busy[i].ticks / (double)tck / ((double)row->wall_ns / 1e9),
		     row->gov, row->iter, busy[i].cpu);
}

static int setup(struct measure *m)
{
	struct il_error err;

	if (il_live_init(&m->lv, m->args->root, &err) || il_live_read_cpuidle(&m->lv, &m->ci, &err)) {
		warn("%s", err.msg);
		return -1;
	}
	if (!il_live_has_driver(&m->ci)) {
		warn("no cpuidle driver is registered (current_driver: %s): there are no idle-state "
		     "counters to measure", m->ci.driver);
		return -1;
	}
	if (!m->ci.can_switch) {
		char path[IL_LIVE_PATH_MAX];

		il_live_path(&m->lv, path, sizeof(path), "/sys/devices/system/cpu/cpuidle/current_governor");
		warn("%s: missing: this kernel cannot switch governors at run time (5.8+, or boot with "
		     "cpuidle_sysfs_switch)", path);
		return -1;
	}
	if (pick_governors(m) || pick_cpus(m) || resolve_disable(m) || compile_metrics(m) ||
	    check_writable(m) || resolve_user(m))
		return -1;
	open_rapl(m);
	announce(m);
	check_load(m);
	m->rows = calloc((size_t)m->ngov * m->args->iter, sizeof(*m->rows));
	m->capture = malloc(MEASURE_CAPTURE_MAX + 1);
	if (!m->rows || !m->capture) {
		warn("out of memory");
		return -1;
	}
	return 0;
}

/* ---- one run ---------------------------------------------------------------------------------------------- */

static int snapshot(struct measure *m, struct il_live_cpu *snap, u64 *energy)
{
	struct il_error err;

	for (int c = 0; c < m->ncpu; c++)
		if (il_live_read_cpu(&m->lv, m->cpu[c], IL_LIVE_READ_COUNTERS, &snap[c], &err)) {
			warn("%s", err.msg);
			return -1;
		}
	if (m->rapl.status == IL_RAPL_OK && il_live_rapl_read(&m->rapl, energy, &err)) {
		warn("energy: %s; not measured from here on", err.msg);
		m->rapl.status = IL_RAPL_UNREADABLE;
	}
	return 0;
}

/* Sleep @ns, waking early when a stop signal came. */
static void settle(u64 ns)
{
	u64 end = now_ns() + ns;

	while (!stop_signal) {
		u64 now = now_ns(), slice;
		struct timespec ts;

		if (now >= end)
			break;
		slice = end - now < 100000000ULL ? end - now : 100000000ULL;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)slice;
		nanosleep(&ts, NULL);
	}
}

/* Keep what fits of @len bytes for the regexes; a NUL byte would end the text early. */
static void keep_output(struct measure *m, const char *buf, size_t len)
{
	size_t room = MEASURE_CAPTURE_MAX - m->capture_len;

	if (len > room) {
		len = room;
		m->capture_truncated = true;
	}
	for (size_t i = 0; i < len; i++)
		m->capture[m->capture_len++] = buf[i] ? buf[i] : '\n';
}

static void pass_through(struct measure *m, int fd)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		keep_output(m, buf, (size_t)n);
		/* Best effort: a closed stderr must not stop the measurement. */
		if (write(STDERR_FILENO, buf, (size_t)n) < 0)
			errno = 0;
	}
}

/* Whether @pid has ended, without reaping it: the zombie keeps its pid and process group. */
static bool has_ended(pid_t pid)
{
	siginfo_t si = { 0 };

	return !waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) && si.si_pid == pid;
}

/*
 * Copy the command's output until it ends (or a stop signal came), then kill what it left in
 * its process group and reap it; its wait status in *@status. The command's end, not the end
 * of its output, ends the run: a child it left behind may hold the pipe open.
 */
static int follow_child(struct measure *m, pid_t pid, int fd, int *status)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	while (!stop_signal && !has_ended(pid)) {
		/* poll() ignores a negative fd: after EOF this only waits. */
		if (poll(&pfd, 1, 100) > 0) {
			if (pfd.revents & POLLIN)
				pass_through(m, fd);
			else if (pfd.revents & (POLLHUP | POLLERR))
				pfd.fd = -1;
		}
	}
	pass_through(m, fd);
	kill(-pid, SIGKILL);
	child_pgid = 0;
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

/* In the child: become @u (groups, then group, then user: the order in which each step still
 * has the right to take the next). Return 0, or -1 with errno set. */
static int drop_privileges(const struct run_as *u)
{
	if (!u->drop)
		return 0;
	if (setgroups((size_t)u->ngroups, u->groups) || setgid(u->gid) || setuid(u->uid))
		return -1;
	/* Root must be gone for good, not only the effective id. */
	if (u->uid != 0 && (setuid(0) == 0 || geteuid() == 0)) {
		errno = EPERM;
		return -1;
	}
	return 0;
}

/* fork/exec the command in its own process group, stdout on a pipe. Return its pid, or -1. */
static pid_t start_child(char **cmd, const struct run_as *user, int *fd, pid_t *pgid)
{
	sigset_t all, old;
	int p[2];
	pid_t pid;

	if (pipe(p)) {
		warn("pipe: %s", strerror(errno));
		return -1;
	}
	/* No signal between fork() and child_pgid being set may miss the child. */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	pid = fork();
	if (pid == 0) {
		original_signals();
		sigprocmask(SIG_SETMASK, &old, NULL);
		setpgid(0, 0);
		close(p[0]);
		if (dup2(p[1], STDOUT_FILENO) < 0)
			_exit(127);
		close(p[1]);
		if (drop_privileges(user)) {
			dprintf(STDERR_FILENO, "idlelab measure: cannot run '%s' as uid %u: %s\n",
				cmd[0], (unsigned int)user->uid, strerror(errno));
			_exit(127);
		}
		execvp(cmd[0], cmd);
		dprintf(STDERR_FILENO, "idlelab measure: cannot run '%s': %s\n", cmd[0], strerror(errno));
		_exit(127);
	}
	if (pid > 0) {
		setpgid(pid, pid);
		child_pgid = pid;
	}
	*pgid = pid;
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(p[1]);
	if (pid < 0) {
		warn("fork: %s", strerror(errno));
		close(p[0]);
		return -1;
	}
	*fd = p[0];
	return pid;
}

/* Return 0 when the command exited with status 0, else say how it ended and return -1. */
static int check_status(int status, const char *cmd, const struct run_row *row)
{
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status))
		warn("'%s' exited with status %d (%s iter %u); stopping", cmd,
		     WEXITSTATUS(status), row->gov, row->iter);
	else if (WIFSIGNALED(status) && !stop_signal)
		warn("'%s' was killed by %s (signal %d) (%s iter %u); stopping", cmd,
		     signal_name(WTERMSIG(status)), WTERMSIG(status), row->gov, row->iter);
	return -1;
}

static int run_command(struct measure *m, struct run_row *row)
{
	int fd, status = 0;
	pid_t pid;
	u64 start;

	m->capture_len = 0;
	m->capture_truncated = false;
	start = now_ns();
	pid = start_child(m->args->cmd, &m->user, &fd, &m->last_child);
	if (pid < 0)
		return -1;
	if (follow_child(m, pid, fd, &status)) {
		warn("waitpid: %s", strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	row->wall_ns = now_ns() - start;
	m->capture[m->capture_len] = '\0';
	if (stop_signal)
		return -1;
	return check_status(status, m->args->cmd[0], row);
}

static void add_deltas(struct run_row *row, const struct il_live_cpu *cpu,
		       const struct il_live_delta *d, bool first)
{
	if (first) {
		row->have = IL_LF_COUNTERS;
		row->nstates = cpu->nstates;
		for (int i = 0; i < cpu->nstates; i++) {
			memcpy(row->names[i], cpu->st[i].name, IL_NAME_LEN);
			row->st[i].have = IL_LF_COUNTERS;
		}
	}
	for (int i = 0; i < cpu->nstates && i < CPUIDLE_STATE_MAX; i++) {
		struct il_live_delta *s = &row->st[i];

		if (i >= row->nstates) {
			/* A CPU with more states than the first: the extra ones still count. */
			memcpy(row->names[i], cpu->st[i].name, IL_NAME_LEN);
			s->have = IL_LF_COUNTERS;
			row->nstates = i + 1;
		}
		s->have &= d[i].have;
		row->have &= d[i].have;
		s->usage += d[i].usage;
		s->time_us += d[i].time_us;
		s->above += d[i].above;
		s->below += d[i].below;
		s->rejected += d[i].rejected;
		row->idles += d[i].usage;
		row->aboves += d[i].above;
		row->belows += d[i].below;
	}
}

/* A measured CPU that never went idle says nothing about the governor: say so. */
static void warn_no_idles(const struct measure *m, int c, const struct il_live_delta *d,
			  const struct run_row *row)
{
	u64 usage = 0;

	for (int i = 0; i < m->after[c].nstates && i < CPUIDLE_STATE_MAX; i++) {
		if (!(d[i].have & IL_LF_USAGE))
			return;
		usage += d[i].usage;
	}
	if (!usage)
		warn("cpu%u recorded 0 idles during %s iter %u: it never went idle (busy the "
		     "whole run: another load, or the command itself), so it shows nothing of "
		     "the governor", m->cpu[c], row->gov, row->iter);
}

static int compute_counters(struct measure *m, struct run_row *row)
{
	struct il_live_delta d[CPUIDLE_STATE_MAX];
	struct il_error err;

	for (int c = 0; c < m->ncpu; c++) {
		if (il_live_diff(&m->before[c], &m->after[c], d, &err)) {
			warn("%s (%s iter %u); stopping", err.msg, row->gov, row->iter);
			return -1;
		}
		add_deltas(row, &m->after[c], d, c == 0);
		warn_no_idles(m, c, d, row);
	}
	return 0;
}

static void compute_energy(struct measure *m, struct run_row *row)
{
	u64 total = 0, uj;

	row->energy_ok = false;
	if (m->rapl.status != IL_RAPL_OK)
		return;
	for (int z = 0; z < m->rapl.nzones; z++) {
		if (!il_live_energy_delta(m->energy_before[z], m->energy_after[z],
					  m->rapl.zone[z].max_range_uj, &uj)) {
			warn("energy: %s went from %llu to %llu uJ and max_energy_range_uj is unknown; "
			     "joules not measured for %s iter %u", m->rapl.zone[z].name,
			     (unsigned long long)m->energy_before[z],
			     (unsigned long long)m->energy_after[z], row->gov, row->iter);
			return;
		}
		total += uj;
	}
	row->energy_ok = true;
	row->joules = (double)total / 1e6;
}

static void compute_metrics(struct measure *m, struct run_row *row)
{
	char match[64];

	for (int i = 0; i < m->args->nmetric; i++) {
		row->metric_rc[i] = il_live_metric_eval(&m->metric[i], m->capture, &row->metric[i], match,
							sizeof(match));
		if (row->metric_rc[i] == IL_METRIC_NO_MATCH)
			warn("metric %s: no match in the output of %s iter %u%s", m->metric[i].name,
			     row->gov, row->iter,
			     m->capture_truncated ? " (only its first 16 MiB were searched)" : "");
		else if (row->metric_rc[i] == IL_METRIC_NOT_A_NUMBER)
			warn("metric %s: '%s' is not a number (%s iter %u)", m->metric[i].name,
			     match, row->gov, row->iter);
	}
}

static int stop_trace(struct measure *m)
{
	struct il_error err;
	long long lost = il_live_trace_stop(m->trace, &err);

	if (lost < 0)
		warn("%s", err.msg);
	else if (lost > 0)
		warn("trace: %lld events lost to a full buffer (raise --trace-buffer-kb)", lost);
	return lost < 0 ? -1 : 0;
}

/* Where the trace of @row goes: PREFIX-GOV-ITER.trace. Return 0, or -1 when too long. */
static int trace_file(const struct measure *m, const struct run_row *row, char *buf, size_t cap)
{
	return (size_t)snprintf(buf, cap, "%s-%s-%u.trace", m->args->trace, row->gov, row->iter) <
	       cap ? 0 : -1;
}

static int save_trace(struct measure *m, struct run_row *row)
{
	char path[IL_LIVE_PATH_MAX];
	struct il_error err;

	if (trace_file(m, row, path, sizeof(path))) {
		warn("--trace: name too long");
		return -1;
	}
	if (il_live_trace_save(m->trace, path, &err)) {
		warn("%s", err.msg);
		return -1;
	}
	return 0;
}

static int measure_one(struct measure *m, const char *gov, unsigned int iter)
{
	struct run_row *row = &m->rows[m->nrows];
	struct il_error err;
	int rc;

	row->gov = gov;
	row->iter = iter;
	rc = il_live_switch_governor(&m->lv, &m->changes, &m->ci, gov, &err);
	if (rc != IL_SWITCH_OK) {
		warn("%s", err.msg);
		return -1;
	}
	progress_clear(&m->prog);
	fprintf(stderr, "idlelab measure: run %d of %u: %s iter %u\n", m->nrows + 1,
		m->ngov * m->args->iter, gov, iter);
	settle(m->args->settle_ns);
	if (m->procs_ok && il_live_procs_read(&m->lv, &m->procs_before, &err)) {
		warn("quiet check: %s; other processes are not checked", err.msg);
		m->procs_ok = false;
	}
	if (stop_signal || snapshot(m, m->before, m->energy_before))
		return -1;
	if (m->trace && il_live_trace_start(m->trace, &err)) {
		warn("%s", err.msg);
		return -1;
	}
	if (run_command(m, row))
		return -1;
	if (m->trace && stop_trace(m) < 0)
		return -1;
	if (snapshot(m, m->after, m->energy_after) || compute_counters(m, row))
		return -1;
	if (m->trace && save_trace(m, row))
		return -1;
	compute_energy(m, row);
	compute_metrics(m, row);
	check_foreign(m, row);
	m->nrows++;
	progress_update(&m->prog, (unsigned long long)m->nrows);
	return 0;
}

/* ---- the measurement ---------------------------------------------------------------------------------- */

static int apply_disable(struct measure *m)
{
	struct il_error err;

	for (int i = 0; i < m->ndisable_paths && !stop_signal; i++)
		if (il_live_write(&m->changes, m->disable_path[i], "1", &err)) {
			warn("%s", err.msg);
			return -1;
		}
	return 0;
}

static int restore(struct measure *m)
{
	const struct il_live_change *gov = NULL;
	const char *path;
	int ndisable = 0, ndirs = 0;

	if (il_live_restore(&m->changes)) {
		for (int i = 0; (path = il_live_restore_failed(&m->changes, i)); i++)
			warn("could not restore %s", path);
		return -1;
	}
	for (int i = 0; i < m->changes.n; i++) {
		const struct il_live_change *c = &m->changes.c[i];
		size_t len = strlen(c->path);

		if (c->remove_dir)
			ndirs++;
		else if (len >= 16 && !strcmp(c->path + len - 16, "current_governor"))
			gov = c;
		else
			ndisable++;
	}
	if (gov)
		fprintf(stderr, "idlelab measure: restored current_governor to %.*s",
			(int)gov->orig_len - 1, gov->orig);
	if (ndisable)
		fprintf(stderr, "%s %d disable file%s", gov ? " and" : "idlelab measure: restored",
			ndisable, ndisable == 1 ? "" : "s");
	if (ndirs)
		fprintf(stderr, "%sremoved the tracing instance",
			gov || ndisable ? "; " : "idlelab measure: ");
	if (gov || ndisable || ndirs)
		fputc('\n', stderr);
	return 0;
}

static int open_trace(struct measure *m)
{
	char missing[256];
	struct il_error err;

	if (!m->args->trace)
		return 0;
	if (il_live_trace_open(&m->lv, &m->changes, m->args->trace_buffer_kb, &m->trace, missing,
			       sizeof(missing), &err)) {
		warn("--trace: %s", err.msg);
		return -1;
	}
	if (missing[0])
		warn("trace: this kernel lacks %s; recording without", missing);
	return 0;
}

static int measure_loop(struct measure *m)
{
	int ret = 0;

	if (open_trace(m) || apply_disable(m))
		return -1;
	progress_begin(&m->prog, m->args->progress, "idlelab measure", PROGRESS_COUNT, "runs",
		       (unsigned long long)m->ngov * m->args->iter);
	for (unsigned int it = 0; it < m->args->iter && !ret; it++)
		for (int g = 0; g < m->ngov && !ret; g++)
			if (stop_signal || measure_one(m, m->gov[g], it))
				ret = -1;
	progress_end(&m->prog);
	return ret;
}

/* ---- output ---------------------------------------------------------------------------------------------- */

static void set_counter(struct il_table *t, int r, int c, bool have, u64 v)
{
	if (have)
		il_table_set_int(t, r, c, (s64)v);
}

/* Scores like fio's IOPS are whole numbers: no decimals for them, two otherwise. */
static int score_decimals(double v)
{
	return v < 1e15 && v > -1e15 && v == (double)(long long)v ? 0 : 2;
}

static int runs_table(const struct measure *m, struct il_table *t)
{
	static const char *const tail[] = { "joules", "idles", "idle_misses", "idle_miss_ratio",
					    "belows", "aboves", "wall_s" };
	static const char *const head[] = { "gov", "iter" };
	int nm = m->args->nmetric;

	if (il_table_init(t, "runs", 2, head))
		return -1;
	for (int i = 0; i < nm; i++)
		if (il_table_add_col(t, m->metric[i].name) < 0)
			return -1;
	for (size_t i = 0; i < NELEMS(tail); i++)
		if (il_table_add_col(t, tail[i]) < 0)
			return -1;
	if (m->args->trace && il_table_add_col(t, "trace") < 0)
		return -1;
	for (int k = 0; k < m->nrows; k++) {
		const struct run_row *row = &m->rows[k];
		bool misses = (row->have & (IL_LF_ABOVE | IL_LF_BELOW)) == (IL_LF_ABOVE | IL_LF_BELOW);
		int r = il_table_add_row(t), c = 2;

		if (r < 0 || il_table_set_str(t, r, 0, row->gov))
			return -1;
		il_table_set_int(t, r, 1, row->iter);
		for (int i = 0; i < nm; i++, c++)
			if (row->metric_rc[i] == IL_METRIC_FOUND)
				il_table_set_real(t, r, c, row->metric[i], score_decimals(row->metric[i]));
		if (row->energy_ok)
			il_table_set_real(t, r, c, row->joules, 2);
		set_counter(t, r, c + 1, row->have & IL_LF_USAGE, row->idles);
		set_counter(t, r, c + 2, misses, row->aboves + row->belows);
		if (misses && (row->have & IL_LF_USAGE))
			il_table_set_real(t, r, c + 3, row->idles ?
					  (double)(row->aboves + row->belows) / (double)row->idles : 0.0, 3);
		set_counter(t, r, c + 4, row->have & IL_LF_BELOW, row->belows);
		set_counter(t, r, c + 5, row->have & IL_LF_ABOVE, row->aboves);
		il_table_set_real(t, r, c + 6, (double)row->wall_ns / 1e9, 3);
		if (m->args->trace) {
			char path[IL_LIVE_PATH_MAX];

			if (trace_file(m, row, path, sizeof(path)) || il_table_set_str(t, r, c + 7, path))
				return -1;
		}
	}
	return 0;
}

static int states_table(const struct measure *m, struct il_table *t)
{
	static const char *const cols[] = { "gov", "iter", "state", "name", "usage", "time_us",
					    "above", "below", "rejected" };

	if (il_table_init(t, "states", (int)NELEMS(cols), cols))
		return -1;
	for (int k = 0; k < m->nrows; k++) {
		const struct run_row *row = &m->rows[k];

		for (int i = 0; i < row->nstates; i++) {
			const struct il_live_delta *s = &row->st[i];
			int r = il_table_add_row(t);

			if (r < 0 || il_table_set_str(t, r, 0, row->gov) ||
			    il_table_set_str(t, r, 3, row->names[i]))
				return -1;
			il_table_set_int(t, r, 1, row->iter);
			il_table_set_int(t, r, 2, i);
			set_counter(t, r, 4, s->have & IL_LF_USAGE, s->usage);
			set_counter(t, r, 5, s->have & IL_LF_TIME, s->time_us);
			set_counter(t, r, 6, s->have & IL_LF_ABOVE, s->above);
			set_counter(t, r, 7, s->have & IL_LF_BELOW, s->below);
			set_counter(t, r, 8, s->have & IL_LF_REJECTED, s->rejected);
		}
	}
	return 0;
}

/* The governor the summaries compare with: --baseline, else the first one measured. */
static const char *measure_baseline(const struct measure *m)
{
	const char *base = m->args->baseline ? m->args->baseline : m->gov[0];

	for (int k = 0; k < m->ngov; k++)
		if (!strcmp(m->gov[k], base))
			return base;
	warn("baseline '%s' was not measured: the summaries have no deltas", base);
	return base;
}

/* --iter > 1: the summaries of the runs (per governor) and states (per state and governor). */
static int summary_tables(const struct measure *m, const struct il_table *runs,
			  const struct il_table *states, struct il_table *sum)
{
	static const char *const state_keys[] = { "state", "name", NULL };
	struct il_summary_spec spec = { .gov = "gov", .iter = "iter" };

	/* Welch (not .paired): live runs share no seed; iteration i of each ran at another time. */
	spec.baseline = measure_baseline(m);
	if (il_summary_table(&sum[0], "runs summary", runs, &spec))
		return -1;
	spec.keys = state_keys;
	return il_summary_table(&sum[1], "states summary", states, &spec);
}

static int print_results(const struct measure *m)
{
	static const char *const lead_names[] = { "table" };
	static const char *const leads[2][1] = { { "runs" }, { "states" } };
	const struct il_output_format *fmt = il_output_find(m->args->format);
	struct il_table runs = { 0 }, states = { 0 }, sum[2] = { { 0 } };
	bool summary = m->args->iter > 1;
	struct il_result_part parts[2] = {
		{ &runs, summary ? &sum[0] : NULL, leads[0] },
		{ &states, summary ? &sum[1] : NULL, leads[1] },
	};
	char *buf = NULL, note[256];
	size_t len = 0;
	FILE *mem;
	int ret = -1;

	if (runs_table(m, &runs) || states_table(m, &states) ||
	    (summary && summary_tables(m, &runs, &states, sum))) {
		warn("out of memory");
		goto out;
	}
	summary_note(note, sizeof(note), m->args->baseline ? m->args->baseline : m->gov[0], false);
	mem = open_memstream(&buf, &len);
	if (!mem) {
		warn("out of memory");
		goto out;
	}
	if (summary_write(mem, fmt, parts, 2, lead_names, 1, note) | fclose(mem)) {
		warn("cannot format the results: %s", strerror(errno));
		goto out;
	}
	if (cli_write_output(m->args->output, buf, len)) {
		warn("cannot write %s: %s", m->args->output ? m->args->output : "the results",
		     strerror(errno));
		goto out;
	}
	ret = 0;
out:
	free(buf);
	il_table_free(&runs);
	il_table_free(&states);
	il_table_free(&sum[0]);
	il_table_free(&sum[1]);
	return ret;
}

static void free_measure(struct measure *m)
{
	for (int i = 0; i < MEASURE_MAX_METRICS; i++)
		il_live_metric_free(&m->metric[i]);
	il_live_changes_free(&m->changes);
	il_live_trace_free(m->trace);
	il_live_procs_free(&m->procs_before);
	il_live_procs_free(&m->procs_after);
	free(m->cpu);
	free(m->before);
	free(m->after);
	free(m->disable_path);
	free(m->rows);
	free(m->capture);
}

static int lock_path(const struct measure *m, char *buf, size_t cap)
{
	if (m->args->lock) {
		snprintf(buf, cap, "%s", m->args->lock);
		return 0;
	}
	return il_live_path(&m->lv, buf, cap, MEASURE_LOCK_FILE);
}

/* Steps 2-4 of the DOC: lock, change, measure, restore. Return the exit code. */
static int measure_locked(struct measure *m)
{
	char lock[IL_LIVE_PATH_MAX];
	struct il_error err;
	int loop, restored, printed;

	if (lock_path(m, lock, sizeof(lock))) {
		warn("lock file path too long");
		return CLI_EXIT_RUNTIME;
	}
	m->lock_fd = il_live_lock(lock, &err);
	if (m->lock_fd < 0) {
		warn("%s", err.msg);
		return CLI_EXIT_RUNTIME;
	}
	if (il_live_changes_init(&m->changes, 1 + m->ndisable_paths + (m->args->trace ? 1 : 0), &err)) {
		warn("%s", err.msg);
		il_live_unlock(m->lock_fd);
		return CLI_EXIT_RUNTIME;
	}
	install_signals(&m->changes);
	loop = measure_loop(m);
	restored = restore(m);
	il_live_unlock(m->lock_fd);
	printed = m->nrows || !loop ? print_results(m) : 0;
	if (stop_signal) {
		warn("interrupted by %s after %d of %u runs; settings restored%s",
		     signal_name(stop_signal), m->nrows, m->ngov * m->args->iter,
		     restored ? " only in part" : "");
		return -(int)stop_signal;
	}
	return loop || restored || printed ? CLI_EXIT_RUNTIME : CLI_EXIT_OK;
}

int cmd_measure(int argc, char **argv)
{
	struct measure_args args;
	struct measure m = { .lock_fd = -1 };
	struct cli_error cerr;
	int ret;

	switch (measure_parse_args(argc, argv, &args, &cerr)) {
	case CLI_PARSE_ERROR:
		return cli_usage_error("measure", cerr.msg);
	case CLI_PARSE_HELP:
		cmd_measure_usage(stdout);
		return CLI_EXIT_OK;
	}
	if (!il_output_find(args.format)->available) {
		warn("format %s: %s", args.format, il_output_find(args.format)->missing);
		return CLI_EXIT_RUNTIME;
	}
	m.args = &args;
	ret = setup(&m) ? CLI_EXIT_RUNTIME : measure_locked(&m);
	/* The handlers point into @m: take them away first. */
	uninstall_signals();
	free_measure(&m);
	if (ret < 0) {
		/* Die of the signal that stopped us, as the shell expects. */
		struct sigaction dfl = { .sa_handler = SIG_DFL };

		fflush(NULL);
		sigaction(-ret, &dfl, NULL);
		raise(-ret);
		return 128 - ret;
	}
	return ret;
}
