// SPDX-License-Identifier: GPL-2.0-only
/*
 * session.c - steps 2 to 4 of a measurement (live.h): the lock, the loop of runs (A B A B
 * ... per iteration), one run, the restoration of every setting, and what a signal handler
 * may call. rtla's osnoise tool is the model: the tool logic here, options and printing in
 * the front end (src/cmd_measure.c).
 *
 * One run: switch current_governor (read back: the kernel must have taken it), settle
 * (waking early on a stop), read every process's CPU time for the quiet check, snapshot,
 * start the trace, run the command, stop the trace, snapshot again, diff every CPU (a
 * counter that went back stops the measurement), save the trace, then energy, metrics and
 * the foreign processes that kept a measured CPU busy.
 */
#define _GNU_SOURCE /* ppoll() */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "live.h"
#include "util/array.h"

const char *il_live_signal_name(int sig)
{
	static const struct {
		int sig;
		const char *name;
	} names[] = {
		{ SIGINT, "SIGINT" }, { SIGTERM, "SIGTERM" }, { SIGHUP, "SIGHUP" },
		{ SIGQUIT, "SIGQUIT" }, { SIGALRM, "SIGALRM" }, { SIGUSR1, "SIGUSR1" },
		{ SIGUSR2, "SIGUSR2" }, { SIGSEGV, "SIGSEGV" }, { SIGBUS, "SIGBUS" },
		{ SIGFPE, "SIGFPE" }, { SIGILL, "SIGILL" }, { SIGABRT, "SIGABRT" },
		{ SIGKILL, "SIGKILL" }, { SIGPIPE, "SIGPIPE" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].sig == sig)
			return names[i].name;
	return "a signal";
}

static void say_v(const struct il_live_hooks *h, enum il_live_say kind, enum il_error_need need,
		  const char *fmt, va_list ap)
{
	char msg[2 * IL_ERROR_LEN];

	if (!h || !h->say)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	h->say(h->ctx, kind, need, msg);
}

void il_live_say(const struct il_live_hooks *h, enum il_live_say kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say_v(h, kind, IL_NEED_NOTHING, fmt, ap);
	va_end(ap);
}

void il_live_say_need(const struct il_live_hooks *h, enum il_live_say kind,
		      enum il_error_need need, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say_v(h, kind, need, fmt, ap);
	va_end(ap);
}

static void warn(const struct il_live_session *s, const char *msg)
{
	il_live_say(&s->hooks, IL_LIVE_WARNING, "%s", msg);
}

/* ---- step 2: the lock ---------------------------------------------------------------------- */

int il_live_session_lock(struct il_live_session *s, const char *path, struct il_error *err)
{
	char lock[IL_LIVE_PATH_MAX];
	int room = 1 + s->ndisable_paths + (s->opts->trace ? 1 : 0);

	if (path)
		snprintf(lock, sizeof(lock), "%s", path);
	else if (il_live_path(&s->lv, lock, sizeof(lock), IL_LIVE_LOCK_FILE))
		return il_error_set(err, NULL, 0, "lock file path too long");
	s->lock_fd = il_live_lock(lock, err);
	if (s->lock_fd < 0)
		return -1;
	if (il_live_changes_init(&s->changes, room, err)) {
		il_live_unlock(s->lock_fd);
		s->lock_fd = -1;
		return -1;
	}
	return 0;
}

int il_live_session_nruns(const struct il_live_session *s)
{
	return s->ngov * (int)s->opts->iter;
}

/* ---- one run ------------------------------------------------------------------------------- */

unsigned long long il_live_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

/*
 * Sleep @ns, waking early when a stop was asked: one ppoll() for the whole time, the signals
 * blocked outside it (il_live_block_for_wait()), so that the machine settles without our own
 * wakeups and a stop signal cannot come between the check and the sleep.
 */
static void settle(const struct il_live_session *s, u64 ns)
{
	unsigned long long end = il_live_now_ns() + ns, now;
	sigset_t caller;

	il_live_block_for_wait(&caller);
	while (!s->stop && (now = il_live_now_ns()) < end) {
		struct timespec left = {
			.tv_sec = (time_t)((end - now) / 1000000000ULL),
			.tv_nsec = (long)((end - now) % 1000000000ULL),
		};

		ppoll(NULL, 0, &left, &caller);
	}
	sigprocmask(SIG_SETMASK, &caller, NULL);
}

/* The counters and RAPL; energy that cannot be read is said, and not measured from then on. */
static int snapshot(struct il_live_session *s, struct il_live_cpu *snap, u64 *energy,
		    struct il_error *err)
{
	struct il_error e;

	if (il_live_snapshot(&s->lv, s->cpu, s->ncpu, snap, err))
		return -1;
	if (s->rapl.status == IL_RAPL_OK && il_live_rapl_read(&s->rapl, energy, &e)) {
		il_live_say(&s->hooks, IL_LIVE_WARNING, "energy: %s; not measured from here on",
			    e.msg);
		s->rapl.status = IL_RAPL_UNREADABLE;
	}
	return 0;
}

static int run_command(struct il_live_session *s, struct il_live_run *row, struct il_error *err)
{
	struct il_live_child_opts o = {
		.argv = s->opts->cmd, .user = &s->user, .echo_fd = s->opts->echo_fd,
		.in_child = s->hooks.in_child, .ctx = s->hooks.ctx, .stop = &s->stop,
		.pgid = &s->child_pgid,
	};
	struct il_live_child_result res;
	char what[IL_LIVE_GOV_NAME_LEN + 32];

	if (il_live_child_run(&o, &s->output, &res, err))
		return -1;
	s->last_pgid = res.pgid;
	row->wall_ns = res.wall_ns;
	if (res.exec_error[0])
		warn(s, res.exec_error);
	if (s->stop) {
		err->msg[0] = '\0';
		return -1;
	}
	snprintf(what, sizeof(what), "%s iter %u", row->gov, row->iter);
	return il_live_child_check(&res, s->opts->cmd[0], what, false, err);
}

static int count(struct il_live_session *s, struct il_live_run *row, struct il_error *err)
{
	struct il_live_delta d[CPUIDLE_STATE_MAX];

	for (int c = 0; c < s->ncpu; c++) {
		if (il_live_diff(&s->before[c], &s->after[c], d, err)) {
			size_t len = strlen(err->msg);

			snprintf(err->msg + len, sizeof(err->msg) - len, " (%s iter %u); stopping",
				 row->gov, row->iter);
			return -1;
		}
		il_live_run_add_cpu(row, &s->after[c], d, c == 0);
		/* A measured CPU that never went idle says nothing about the governor. */
		if (il_live_never_idle(&s->after[c], d))
			il_live_say(&s->hooks, IL_LIVE_WARNING, "cpu%u recorded 0 idles during %s "
				    "iter %u: it never went idle (busy the whole run: another "
				    "load, or the command itself), so it shows nothing of the "
				    "governor",
				    s->cpu[c], row->gov, row->iter);
	}
	return 0;
}

static void measure_metrics(struct il_live_session *s, struct il_live_run *row)
{
	char match[IL_LIVE_METRICS_MAX][IL_LIVE_MATCH_LEN];

	il_live_run_metrics(row, s->metric, s->opts->nmetric, &s->output, match);
	for (int i = 0; i < s->opts->nmetric; i++) {
		if (row->metric_rc[i] == IL_METRIC_NO_MATCH)
			il_live_say(&s->hooks, IL_LIVE_WARNING, "metric %s: no match in the output "
				    "of %s iter %u%s", s->metric[i].name, row->gov, row->iter,
				    s->output.truncated ? " (only its first 16 MiB were searched)" :
				    "");
		else if (row->metric_rc[i] == IL_METRIC_NOT_A_NUMBER)
			il_live_say(&s->hooks, IL_LIVE_WARNING, "metric %s: '%s' is not a number "
				    "(%s iter %u)", s->metric[i].name, match[i], row->gov,
				    row->iter);
	}
}

/* After a run: processes other than the command that kept a measured CPU busy. */
static void check_foreign(struct il_live_session *s, const struct il_live_run *row)
{
	struct il_live_proc busy[IL_LIVE_QUIET_REPORT];
	long tck = sysconf(_SC_CLK_TCK);
	double wall = (double)row->wall_ns / 1e9;
	struct il_error err;
	u64 min_ticks;
	int n;

	if (!s->procs_ok || tck <= 0)
		return;
	if (il_live_procs_read(&s->lv, &s->procs_after, &err)) {
		il_live_say(&s->hooks, IL_LIVE_WARNING, "quiet check: %s", err.msg);
		return;
	}
	min_ticks = (u64)(wall * (double)tck * IL_LIVE_QUIET_SHARE);
	if (min_ticks < 2)
		min_ticks = 2;
	n = il_live_procs_busy(&s->procs_before, &s->procs_after, s->cpu, s->ncpu, s->last_pgid,
			       (int)getpid(), min_ticks, busy, IL_LIVE_QUIET_REPORT);
	for (int i = 0; i < n; i++)
		il_live_say(&s->hooks, IL_LIVE_WARNING, "not quiet: pid %d (%s) used %.0f%% of a "
			    "CPU during %s iter %u, last on measured cpu%u", busy[i].pid,
			    busy[i].comm, 100.0 * (double)busy[i].ticks / (double)tck / wall,
			    row->gov, row->iter, busy[i].cpu);
}

static int stop_trace(struct il_live_session *s, struct il_error *err)
{
	long long lost = il_live_trace_stop(s->trace, err);

	if (lost > 0)
		il_live_say_need(&s->hooks, IL_LIVE_WARNING, IL_NEED_TRACE_BUFFER,
				 "trace: %lld events lost to a full buffer", lost);
	return lost < 0 ? -1 : 0;
}

int il_live_trace_file(const struct il_live_session *s, const struct il_live_run *row,
		       char *buf, size_t cap)
{
	return (size_t)snprintf(buf, cap, "%s-%s-%u.trace", s->opts->trace, row->gov, row->iter) <
	       cap ? 0 : -1;
}

static int save_trace(struct il_live_session *s, const struct il_live_run *row,
		      struct il_error *err)
{
	char path[IL_LIVE_PATH_MAX];

	if (il_live_trace_file(s, row, path, sizeof(path)))
		return il_error_input(err, IL_INPUT_TRACE, "name too long");
	return il_live_trace_save(s->trace, path, err);
}

static int measure_one(struct il_live_session *s, const char *gov, unsigned int iter,
		       struct il_error *err)
{
	struct il_live_run *row = &s->rows[s->nrows];
	struct il_error e;

	row->gov = gov;
	row->iter = iter;
	if (il_live_switch_governor(&s->lv, &s->changes, &s->ci, gov, err) != IL_SWITCH_OK)
		return -1;
	if (s->hooks.run_start)
		s->hooks.run_start(s->hooks.ctx, s->nrows + 1, il_live_session_nruns(s), gov, iter);
	settle(s, s->opts->settle_ns);
	if (s->procs_ok && il_live_procs_read(&s->lv, &s->procs_before, &e)) {
		il_live_say(&s->hooks, IL_LIVE_WARNING, "quiet check: %s; other processes are not "
			    "checked", e.msg);
		s->procs_ok = false;
	}
	err->msg[0] = '\0';
	if (s->stop || snapshot(s, s->before, s->energy_before, err))
		return -1;
	if ((s->trace && il_live_trace_start(s->trace, err)) || run_command(s, row, err) ||
	    (s->trace && stop_trace(s, err)) || snapshot(s, s->after, s->energy_after, err) ||
	    count(s, row, err) || (s->trace && save_trace(s, row, err)))
		return -1;
	if (il_live_run_energy(&s->rapl, s->energy_before, s->energy_after, row, &e))
		warn(s, e.msg);
	measure_metrics(s, row);
	check_foreign(s, row);
	s->nrows++;
	if (s->hooks.run_done)
		s->hooks.run_done(s->hooks.ctx, s->nrows);
	return 0;
}

/* ---- step 3: the loop ---------------------------------------------------------------------- */

static int open_trace(struct il_live_session *s, struct il_error *err)
{
	char missing[256];
	struct il_error e;

	if (!s->opts->trace)
		return 0;
	if (il_live_trace_open(&s->lv, &s->changes, s->opts->trace_buffer_kb, &s->trace, missing,
			       sizeof(missing), &e))
		return il_error_input(err, IL_INPUT_TRACE, "%s", e.msg);
	if (missing[0])
		il_live_say(&s->hooks, IL_LIVE_WARNING, "trace: this kernel lacks %s; recording "
			    "without", missing);
	return 0;
}

static int apply_disable(struct il_live_session *s, struct il_error *err)
{
	for (int i = 0; i < s->ndisable_paths && !s->stop; i++)
		if (il_live_write(&s->changes, s->disable_path[i], "1", err))
			return -1;
	return 0;
}

int il_live_session_measure(struct il_live_session *s, struct il_error *err)
{
	err->msg[0] = '\0';
	err->line = 0;
	if (open_trace(s, err) || apply_disable(s, err))
		return -1;
	if (s->hooks.begin)
		s->hooks.begin(s->hooks.ctx, il_live_session_nruns(s));
	for (unsigned int it = 0; it < s->opts->iter; it++)
		for (int g = 0; g < s->ngov; g++)
			if (s->stop || measure_one(s, s->gov[g], it, err))
				return -1;
	return 0;
}

/* ---- step 4 and signals -------------------------------------------------------------------- */

static bool is_governor(const struct il_live_change *c)
{
	size_t len = strlen(c->path);

	return len >= 16 && !strcmp(c->path + len - 16, "current_governor");
}

/* "restored current_governor to haltpoll and 2 disable files; removed the tracing instance" */
static void say_restored(const struct il_live_session *s)
{
	const struct il_live_change *gov = NULL;
	int ndisable = 0, ndirs = 0, n = 0;
	char msg[IL_LIVE_VALUE_MAX + 128];

	for (int i = 0; i < s->changes.n; i++) {
		const struct il_live_change *c = &s->changes.c[i];

		if (c->remove_dir)
			ndirs++;
		else if (is_governor(c))
			gov = c;
		else
			ndisable++;
	}
	if (gov)
		n += snprintf(msg + n, sizeof(msg) - (size_t)n, "restored current_governor to %.*s",
			      (int)gov->orig_len - 1, gov->orig);
	if (ndisable)
		n += snprintf(msg + n, sizeof(msg) - (size_t)n, "%s %d disable file%s",
			      gov ? " and" : "restored", ndisable, ndisable == 1 ? "" : "s");
	if (ndirs)
		snprintf(msg + n, sizeof(msg) - (size_t)n, "%sremoved the tracing instance",
			 gov || ndisable ? "; " : "");
	if (gov || ndisable || ndirs)
		il_live_say(&s->hooks, IL_LIVE_INFO, "%s", msg);
}

int il_live_session_restore(struct il_live_session *s)
{
	const char *path;
	int ret = 0;

	if (il_live_restore(&s->changes)) {
		for (int i = 0; (path = il_live_restore_failed(&s->changes, i)); i++)
			il_live_say(&s->hooks, IL_LIVE_WARNING, "could not restore %s", path);
		ret = -1;
	} else {
		say_restored(s);
	}
	il_live_unlock(s->lock_fd);
	s->lock_fd = -1;
	return ret;
}

static void kill_child(struct il_live_session *s)
{
	pid_t pg = (pid_t)s->child_pgid;

	if (pg > 0) {
		kill(-pg, SIGKILL);
		kill(pg, SIGKILL);
	}
}

bool il_live_session_interrupt(struct il_live_session *s, int sig)
{
	int saved = errno;

	if (s->stop)
		return false;
	s->stop = sig;
	kill_child(s);
	errno = saved;
	return true;
}

void il_live_session_abort(struct il_live_session *s)
{
	kill_child(s);
	il_live_restore(&s->changes);
}

void il_live_session_free(struct il_live_session *s)
{
	for (int i = 0; i < IL_LIVE_METRICS_MAX; i++)
		il_live_metric_free(&s->metric[i]);
	il_live_changes_free(&s->changes);
	il_live_trace_free(s->trace);
	il_live_procs_free(&s->procs_before);
	il_live_procs_free(&s->procs_after);
	il_live_output_free(&s->output);
	il_live_unlock(s->lock_fd);
	free(s->cpu);
	free(s->before);
	free(s->after);
	free(s->disable_path);
	free(s->rows);
	s->trace = NULL;
	s->cpu = NULL;
	s->before = s->after = NULL;
	s->disable_path = NULL;
	s->rows = NULL;
	s->lock_fd = -1;
}
