// SPDX-License-Identifier: GPL-2.0-only
/*
 * child.c - the workload of a measurement: the command, run without a shell in its own
 * process group, as the user it should run as, with its stdout on a pipe.
 *
 *  1. il_live_user_resolve(): --user USER, else the user who ran sudo (SUDO_UID/SUDO_GID,
 *     given by the caller), else nobody to change to. Only root can change users; the
 *     measurement itself keeps its rights either way.
 *  2. il_live_child_run(): every signal is blocked from fork() until the process group is
 *     published in *pgid, so a stop signal cannot miss the command. The child sets its own
 *     process group, lets the caller restore its signal dispositions, drops privileges
 *     (groups, then group, then user: the order in which each step still has the right to
 *     take the next) and execs. Why it could not is sent back on a close-on-exec pipe (an
 *     exec that works closes it), so the library prints nothing, not even from the child.
 *  3. The parent copies the output until the command has ended (waitid WNOWAIT: the zombie
 *     keeps its pid and process group), then SIGKILLs what is left in the group and reaps.
 *     It waits in ppoll() on the output pipe and a pidfd of the command with no timeout,
 *     signals (not faults) blocked but inside ppoll(), so a stop interrupts the wait and
 *     cannot fall between the check and the wait: the measurement adds no wakeups of its
 *     own to the machine it measures. (A 100 ms poll did, 10 a second on one CPU: in the validation
 *     guest each took 190-250 us of that CPU and left the next hand-offs slow,
 *     docs/validation.md.) Without pidfds (Linux < 5.3) it looks every 100 ms.
 */
#define _GNU_SOURCE /* pipe2(), ppoll() */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "live.h"
#include "util/parse.h"
#include "util/array.h"

/* ---- who runs the command ------------------------------------------------------------------ */

/* A uid or gid in decimal, as sudo writes SUDO_UID/SUDO_GID. */
static int parse_id(const char *text, unsigned int *id)
{
	uint64_t v;

	if (!text || il_parse_count(text, 0, (uid_t)-1 - 1, &v))
		return -1;
	*id = (unsigned int)v;
	return 0;
}

/* The supplementary groups of @pw (the group file), else only the primary group. */
static void user_groups(struct il_live_user *u, const struct passwd *pw)
{
	gid_t groups[IL_LIVE_GROUPS_MAX];
	int n = IL_LIVE_GROUPS_MAX;

	if (!pw || getgrouplist(pw->pw_name, (gid_t)u->gid, groups, &n) < 0) {
		groups[0] = (gid_t)u->gid;
		n = 1;
	}
	for (int i = 0; i < n; i++)
		u->groups[i] = (unsigned int)groups[i];
	u->ngroups = n;
}

int il_live_user_resolve(struct il_live_user *u, const char *name, const char *sudo_uid,
			 const char *sudo_gid, char *note, size_t note_cap, struct il_error *err)
{
	struct passwd *pw = NULL;
	unsigned int id;

	memset(u, 0, sizeof(*u));
	if (note_cap)
		note[0] = '\0';
	if (name) {
		pw = getpwnam(name);
		if (!pw && !parse_id(name, &id))
			pw = getpwuid((uid_t)id);
		if (!pw)
			return il_error_input(err, IL_INPUT_USER, "no user '%s' in the password "
					      "database", name);
		u->uid = pw->pw_uid;
		u->gid = pw->pw_gid;
	} else if (sudo_uid && geteuid() == 0) {
		unsigned int gid;

		if (parse_id(sudo_uid, &id) || (sudo_gid && parse_id(sudo_gid, &gid))) {
			il_error_set(err, NULL, 0, "SUDO_UID='%s', SUDO_GID='%s': not user and "
				     "group ids", sudo_uid, sudo_gid ? sudo_gid : "");
			return il_error_need(err, IL_NEED_USER);
		}
		pw = getpwuid((uid_t)id);
		u->uid = id;
		u->gid = sudo_gid ? gid : pw ? pw->pw_gid : id;
	} else {
		return 0;
	}
	if (u->uid == geteuid() && u->gid == getegid())
		return 0; /* already that user: nothing to drop */
	if (geteuid() != 0)
		return il_error_input(err, IL_INPUT_USER, "%s: only root can run the command as "
				      "another user", name);
	user_groups(u, pw);
	u->drop = true;
	if (!name && note_cap)
		snprintf(note, note_cap, "running the command as %s (uid %u, gid %u), who ran sudo "
			 "(SUDO_UID/SUDO_GID)",
			 pw ? pw->pw_name : "?", u->uid, u->gid);
	return 0;
}

/* In the child: become @u. Return 0, or -1 with errno set. */
static int drop_privileges(const struct il_live_user *u)
{
	gid_t groups[IL_LIVE_GROUPS_MAX];

	if (!u || !u->drop)
		return 0;
	for (int i = 0; i < u->ngroups; i++)
		groups[i] = (gid_t)u->groups[i];
	if (setgroups((size_t)u->ngroups, groups) || setgid((gid_t)u->gid) || setuid((uid_t)u->uid))
		return -1;
	/* Root must be gone for good, not only the effective id. */
	if (u->uid != 0 && (setuid(0) == 0 || geteuid() == 0)) {
		errno = EPERM;
		return -1;
	}
	return 0;
}

/* ---- the command's output ------------------------------------------------------------------ */

int il_live_output_init(struct il_live_output *out, size_t cap, struct il_error *err)
{
	out->text = malloc(cap + 1);
	out->len = 0;
	out->cap = out->text ? cap : 0;
	out->truncated = false;
	if (!out->text)
		return il_error_set(err, NULL, 0, "out of memory");
	out->text[0] = '\0';
	return 0;
}

void il_live_output_free(struct il_live_output *out)
{
	free(out->text);
	memset(out, 0, sizeof(*out));
}

/* Keep what fits of @len bytes for the regexes; a NUL byte would end the text early. */
static void keep_output(struct il_live_output *out, const char *buf, size_t len)
{
	size_t room = out->cap - out->len;

	if (len > room) {
		len = room;
		out->truncated = true;
	}
	for (size_t i = 0; i < len; i++)
		out->text[out->len++] = buf[i] ? buf[i] : '\n';
}

static void pass_through(const struct il_live_child_opts *o, struct il_live_output *out, int fd)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		keep_output(out, buf, (size_t)n);
		/* Best effort: a closed stderr must not stop the measurement. */
		if (o->echo_fd >= 0 && write(o->echo_fd, buf, (size_t)n) < 0)
			errno = 0;
	}
}

/* ---- running it ---------------------------------------------------------------------------- */

static bool stopped(const struct il_live_child_opts *o)
{
	return o->stop && *o->stop;
}

/* Whether @pid has ended, without reaping it: the zombie keeps its pid and process group. */
static bool has_ended(pid_t pid)
{
	siginfo_t si = { 0 };

	return !waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) && si.si_pid == pid;
}

/* Why the child could not exec, as it sends it on the close-on-exec pipe. */
struct exec_failure {
	int dropping;               /* 1: changing user failed, 0: exec failed */
	int error;                  /* errno */
};

/* In the child: never returns. */
static void child(const struct il_live_child_opts *o, const sigset_t *mask, int out_fd,
		  int report_fd)
{
	struct exec_failure f = { 0, 0 };

	if (o->in_child)
		o->in_child(o->ctx);
	sigprocmask(SIG_SETMASK, mask, NULL);
	setpgid(0, 0);
	if (dup2(out_fd, STDOUT_FILENO) < 0)
		_exit(127);
	close(out_fd);
	if (drop_privileges(o->user)) {
		f.dropping = 1;
	} else {
		execvp(o->argv[0], o->argv);
		f.dropping = 0;
	}
	f.error = errno;
	if (write(report_fd, &f, sizeof(f)) < 0)
		_exit(127);
	_exit(127);
}

/* The child's report: nothing (the exec worked) or why it failed, into res->exec_error. */
static void read_exec_report(const struct il_live_child_opts *o, int fd,
			     struct il_live_child_result *res)
{
	struct exec_failure f;
	ssize_t n;

	do
		n = read(fd, &f, sizeof(f));
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(f))
		return;
	if (f.dropping)
		snprintf(res->exec_error, sizeof(res->exec_error), "cannot run '%s' as uid %u: %s",
			 o->argv[0], o->user ? o->user->uid : 0, strerror(f.error));
	else
		snprintf(res->exec_error, sizeof(res->exec_error), "cannot run '%s': %s",
			 o->argv[0], strerror(f.error));
}

/* fork the child with every signal blocked until its process group is published. */
static pid_t start(const struct il_live_child_opts *o, int out[2], int report[2])
{
	sigset_t all, old;
	pid_t pid;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	pid = fork();
	if (pid == 0) {
		close(out[0]);
		close(report[0]);
		child(o, &old, out[1], report[1]);
	}
	if (pid > 0) {
		setpgid(pid, pid);
		if (o->pgid)
			*o->pgid = pid;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return pid;
}

/* Where pidfds are missing (3. of the DOC), the wait looks this often. */
#define FOLLOW_FALLBACK_NS 100000000L

/* A descriptor readable once @pid has ended (Linux 5.3), else -1. */
static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

void il_live_block_for_wait(sigset_t *caller)
{
	static const int faults[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS };
	sigset_t blocked;

	sigfillset(&blocked);
	for (size_t i = 0; i < ARRAY_SIZE(faults); i++)
		sigdelset(&blocked, faults[i]);
	sigprocmask(SIG_BLOCK, &blocked, caller);
}

/* Copy the output until the command ends or a stop is asked; then kill its group, reap it. */
static int follow(const struct il_live_child_opts *o, struct il_live_output *out, pid_t pid,
		  int fd, int *status)
{
	static const struct timespec fallback = { 0, FOLLOW_FALLBACK_NS };
	struct pollfd pfd[2] = { { .fd = fd, .events = POLLIN }, { .fd = -1, .events = POLLIN } };
	sigset_t caller;

	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	pfd[1].fd = open_pidfd(pid);
	il_live_block_for_wait(&caller);
	while (!stopped(o) && !has_ended(pid)) {
		/* ppoll() ignores a negative fd: after EOF this only waits for the end. */
		if (ppoll(pfd, 2, pfd[1].fd >= 0 ? NULL : &fallback, &caller) > 0) {
			if (pfd[0].revents & POLLIN)
				pass_through(o, out, fd);
			else if (pfd[0].revents & (POLLHUP | POLLERR))
				pfd[0].fd = -1;
		}
	}
	sigprocmask(SIG_SETMASK, &caller, NULL);
	if (pfd[1].fd >= 0)
		close(pfd[1].fd);
	pass_through(o, out, fd);
	kill(-pid, SIGKILL);
	if (o->pgid)
		*o->pgid = 0;
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

int il_live_child_run(const struct il_live_child_opts *o, struct il_live_output *out,
		      struct il_live_child_result *res, struct il_error *err)
{
	int p[2], report[2], ret;
	unsigned long long t0;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	out->len = 0;
	out->truncated = false;
	if (pipe(p))
		return il_error_set(err, NULL, 0, "pipe: %s", strerror(errno));
	if (pipe2(report, O_CLOEXEC)) {
		close(p[0]);
		close(p[1]);
		return il_error_set(err, NULL, 0, "pipe: %s", strerror(errno));
	}
	t0 = il_live_now_ns();
	pid = start(o, p, report);
	res->pgid = pid;
	close(p[1]);
	close(report[1]);
	if (pid < 0) {
		close(p[0]);
		close(report[0]);
		return il_error_set(err, NULL, 0, "fork: %s", strerror(errno));
	}
	read_exec_report(o, report[0], res);
	close(report[0]);
	ret = follow(o, out, pid, p[0], &res->status);
	close(p[0]);
	if (ret)
		return il_error_set(err, NULL, 0, "waitpid: %s", strerror(errno));
	res->wall_ns = il_live_now_ns() - t0;
	out->text[out->len] = '\0';
	return 0;
}

int il_live_child_check(const struct il_live_child_result *res, const char *cmd,
			const char *what, bool stopped, struct il_error *err)
{
	int status = res->status;

	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	err->msg[0] = '\0';
	err->line = 0;
	if (WIFEXITED(status))
		il_error_set(err, NULL, 0, "'%s' exited with status %d (%s); stopping", cmd,
			     WEXITSTATUS(status), what);
	else if (WIFSIGNALED(status) && !stopped)
		il_error_set(err, NULL, 0, "'%s' was killed by %s (signal %d) (%s); stopping", cmd,
			     il_live_signal_name(WTERMSIG(status)), WTERMSIG(status), what);
	return -1;
}
