// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_live_child.c - the workload of a measurement (lib/live/child.c): its output kept and
 * copied, how it ended (exit status, a crash, a command that does not exist), what it left
 * in its process group killed, a stop asked while it runs (also by a signal during the wait),
 * a wait that adds no wakeups (and, without pidfds, one that still ends), and who it runs as.
 */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <cmocka.h>

#include "live/live.h"
#include "util/array.h"

/* Run `sh -c @script` with @out (capacity @cap); the result in @res. */
static void run_sh(const char *script, size_t cap, struct il_live_output *out,
		   struct il_live_child_result *res, struct il_live_child_opts *o)
{
	static char text[4096];
	static char *argv[] = { "sh", "-c", text, NULL };
	struct il_error err;

	snprintf(text, sizeof(text), "%s", script);
	o->argv = argv;
	if (!o->echo_fd)
		o->echo_fd = -1;
	assert_int_equal(il_live_output_init(out, cap, &err), 0);
	assert_int_equal(il_live_child_run(o, out, res, &err), 0);
}

static void test_output_kept_and_copied(void **state)
{
	struct il_live_child_opts o = { 0 };
	struct il_live_child_result res;
	struct il_live_output out;
	struct il_error err;
	char echo[64] = "";
	int p[2];

	assert_int_equal(pipe(p), 0);
	o.echo_fd = p[1];
	run_sh("printf 'IOPS=12.4k\\0x\\n'; echo more >&2", 1024, &out, &res, &o);
	close(p[1]);
	assert_int_equal(read(p[0], echo, sizeof(echo) - 1), 13);
	close(p[0]);
	/* The copy is byte for byte; the text for the regexes has the NUL as a newline. */
	assert_memory_equal(echo, "IOPS=12.4k\0x\n", 13);
	assert_string_equal(out.text, "IOPS=12.4k\nx\n");
	assert_int_equal(out.len, 13);
	assert_false(out.truncated);
	assert_true(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0);
	assert_string_equal(res.exec_error, "");
	assert_int_equal(il_live_child_check(&res, "sh", "menu iter 0", false, &err), 0);
	assert_true(res.wall_ns > 0);
	il_live_output_free(&out);
}

static void test_output_truncated(void **state)
{
	struct il_live_child_opts o = { 0 };
	struct il_live_child_result res;
	struct il_live_output out;

	run_sh("seq 1 1000", 8, &out, &res, &o);
	assert_string_equal(out.text, "1\n2\n3\n4\n");
	assert_true(out.truncated);
	/* Still read to the end: the command was not blocked on a full pipe. */
	assert_true(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0);
	il_live_output_free(&out);
}

static void test_failing_and_crashing_command(void **state)
{
	struct il_live_child_opts o = { 0 };
	struct il_live_child_result res;
	struct il_live_output out;
	struct il_error err;

	run_sh("echo partial; exit 3", 1024, &out, &res, &o);
	assert_string_equal(out.text, "partial\n");
	assert_int_equal(il_live_child_check(&res, "fio", "menu iter 0", false, &err), -1);
	assert_string_equal(err.msg, "'fio' exited with status 3 (menu iter 0); stopping");
	il_live_output_free(&out);

	run_sh("kill -SEGV $$", 1024, &out, &res, &o);
	assert_true(WIFSIGNALED(res.status) && WTERMSIG(res.status) == SIGSEGV);
	assert_int_equal(il_live_child_check(&res, "fio", "teo iter 2", false, &err), -1);
	assert_string_equal(err.msg, "'fio' was killed by SIGSEGV (signal 11) (teo iter 2); "
			    "stopping");
	/* Killed because we were asked to stop: a failure, but not the command's to report. */
	assert_int_equal(il_live_child_check(&res, "fio", "teo iter 2", true, &err), -1);
	assert_string_equal(err.msg, "");
	il_live_output_free(&out);
}

static void test_command_not_found(void **state)
{
	static char *argv[] = { "/nonexistent/idlelab-no-such-command", "x", NULL };
	struct il_live_child_opts o = { .argv = argv, .echo_fd = -1 };
	struct il_live_child_result res;
	struct il_live_output out;
	struct il_error err;

	assert_int_equal(il_live_output_init(&out, 64, &err), 0);
	assert_int_equal(il_live_child_run(&o, &out, &res, &err), 0);
	assert_string_equal(res.exec_error, "cannot run '/nonexistent/idlelab-no-such-command': No "
			    "such file or directory");
	assert_int_equal(il_live_child_check(&res, argv[0], "menu iter 0", false, &err), -1);
	assert_non_null(strstr(err.msg, "exited with status 127 (menu iter 0)"));
	il_live_output_free(&out);
}

/* Its own process group, published while it runs, and nothing of it left afterwards. */
static volatile sig_atomic_t pgid;

static void test_process_group_killed(void **state)
{
	struct il_live_child_opts o = { .pgid = &pgid };
	struct il_live_child_result res;
	struct il_live_output out;

	/* The command ends, but leaves a child behind that holds the pipe open. */
	run_sh("sleep 60 & echo $!", 1024, &out, &res, &o);
	assert_true(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0);
	assert_true(res.pgid > 0 && res.pgid != getpgrp());
	assert_int_equal(pgid, 0);
	/* The sleep is killed (init may not have reaped it yet: poll a little). */
	for (int i = 0; i < 50 && kill(-res.pgid, 0) == 0; i++)
		usleep(100000);
	assert_int_equal(kill(-res.pgid, 0), -1);
	assert_int_equal(errno, ESRCH);
	il_live_output_free(&out);
}

/* A stop asked while it runs (here: before it starts) kills it at once. */
static void test_stop_kills_it(void **state)
{
	static volatile sig_atomic_t stop = SIGINT;
	struct il_live_child_opts o = { .stop = &stop };
	struct il_live_child_result res;
	struct il_live_output out;
	struct il_error err;

	run_sh("sleep 60", 64, &out, &res, &o);
	assert_true(WIFSIGNALED(res.status) && WTERMSIG(res.status) == SIGKILL);
	assert_true(res.wall_ns < 30ULL * 1000000000ULL);
	assert_int_equal(il_live_child_check(&res, "sleep", "menu iter 0", true, &err), -1);
	assert_string_equal(err.msg, "");
	il_live_output_free(&out);
}

/*
 * The wait adds no wakeups of its own to the machine being measured: over a command of one
 * second, only a few voluntary context switches (the exec report, the end; a wait that
 * looked every 100 ms had ten more).
 */
static void test_wait_does_not_poll(void **state)
{
	struct il_live_child_opts o = { 0 };
	struct il_live_child_result res;
	struct il_live_output out;
	struct rusage before, after;

	getrusage(RUSAGE_SELF, &before);
	run_sh("sleep 1", 64, &out, &res, &o);
	getrusage(RUSAGE_SELF, &after);
	assert_true(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0);
	assert_true(res.wall_ns >= 1000000000ULL);
	assert_in_range(after.ru_nvcsw - before.ru_nvcsw, 0, 5);
	il_live_output_free(&out);
}

/* A stop asked by a signal while the command runs interrupts the wait at once. */
static volatile sig_atomic_t alarm_stop;

static void on_alarm(int sig)
{
	alarm_stop = sig;
}

static void test_stop_by_signal_while_waiting(void **state)
{
	struct sigaction sa = { .sa_handler = on_alarm }, old;
	struct il_live_child_opts o = { .stop = &alarm_stop };
	struct il_live_child_result res;
	struct il_live_output out;

	alarm_stop = 0;
	sigaction(SIGALRM, &sa, &old);
	alarm(1);
	run_sh("sleep 60", 64, &out, &res, &o);
	sigaction(SIGALRM, &old, NULL);
	assert_int_equal(alarm_stop, SIGALRM);
	assert_true(WIFSIGNALED(res.status) && WTERMSIG(res.status) == SIGKILL);
	assert_true(res.wall_ns < 30ULL * 1000000000ULL);
	il_live_output_free(&out);
}


/*
 * Without pidfds (Linux < 5.3; here pidfd_open() made to fail with ENOSYS by a seccomp
 * filter) the wait looks every 100 ms: a command still ends it, and so does a stop by a
 * signal. In a child process, which keeps the filter to itself; its exit code says what
 * failed, 77 that the filter could not be set.
 */
static int deny_pidfd_open(void)
{
#ifdef SYS_pidfd_open
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_pidfd_open, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = ARRAY_SIZE(code), .filter = code };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return -1;
	return syscall(SYS_pidfd_open, getpid(), 0) == -1 && errno == ENOSYS ? 0 : -1;
#else
	return 0;
#endif
}

/* run_sh() without cmocka's asserts, which cannot fail a test from a forked child. */
static int run_plain(const char *script, struct il_live_child_opts *o,
		     struct il_live_child_result *res)
{
	static char text[256];
	static char *argv[] = { "sh", "-c", text, NULL };
	struct il_live_output out;
	struct il_error err;
	int ret;

	snprintf(text, sizeof(text), "%s", script);
	o->argv = argv;
	o->echo_fd = -1;
	if (il_live_output_init(&out, 64, &err))
		return -1;
	ret = il_live_child_run(o, &out, res, &err);
	il_live_output_free(&out);
	return ret;
}

static int wait_without_pidfd(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct il_live_child_opts plain = { 0 }, stoppable = { .stop = &alarm_stop };
	struct il_live_child_result res;
	struct rusage before, after;

	if (deny_pidfd_open())
		return 77;
	getrusage(RUSAGE_SELF, &before);
	if (run_plain("sleep 1", &plain, &res) || !WIFEXITED(res.status) ||
	    WEXITSTATUS(res.status) || res.wall_ns < 1000000000ULL)
		return 1;
	getrusage(RUSAGE_SELF, &after);
	/* It looked about ten times: the fallback ran, not a pidfd. */
	if (after.ru_nvcsw - before.ru_nvcsw < 5)
		return 2;
	alarm_stop = 0;
	sigaction(SIGALRM, &sa, NULL);
	alarm(1);
	if (run_plain("sleep 60", &stoppable, &res) || alarm_stop != SIGALRM ||
	    !WIFSIGNALED(res.status) || WTERMSIG(res.status) != SIGKILL ||
	    res.wall_ns >= 30ULL * 1000000000ULL)
		return 3;
	return 0;
}

static void test_wait_without_pidfd(void **state)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0)
		_exit(wait_without_pidfd());
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77)
		skip();
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* The front end restores its signal dispositions in the child: here, SIGTERM ignored. */
static void ignore_term(void *ctx)
{
	signal(SIGTERM, SIG_IGN);
	*(int *)ctx = 1; /* the child's copy: the parent's stays 0 */
}

static void test_in_child_hook(void **state)
{
	int called = 0;
	struct il_live_child_opts o = { .in_child = ignore_term, .ctx = &called };
	struct il_live_child_result res;
	struct il_live_output out;

	run_sh("kill -TERM $$; echo survived", 64, &out, &res, &o);
	assert_string_equal(out.text, "survived\n");
	assert_int_equal(called, 0);
	il_live_output_free(&out);
}

/* ---- who runs it --------------------------------------------------------------------------- */

static void test_user_resolve(void **state)
{
	struct il_live_user u;
	struct il_error err;
	char note[256];

	/* No --user, no sudo: nothing to change. */
	assert_int_equal(il_live_user_resolve(&u, NULL, NULL, NULL,
					      note, sizeof(note), &err), 0);
	assert_false(u.drop);
	assert_string_equal(note, "");
	assert_int_equal(il_live_user_resolve(&u, "no-such-user-idlelab", NULL, NULL, note,
					      sizeof(note), &err), -1);
	/* The library names no flag: it says which setting, the CLI names it (--user). */
	assert_string_equal(err.msg, "no user 'no-such-user-idlelab' in the password database");
	assert_int_equal(err.about, IL_INPUT_USER);
	if (geteuid() != 0 || !getpwnam("nobody")) {
		skip();
		return;
	}
	assert_int_equal(il_live_user_resolve(&u, "nobody", NULL, NULL,
					      note, sizeof(note), &err), 0);
	assert_true(u.drop);
	assert_int_equal(u.uid, getpwnam("nobody")->pw_uid);
	assert_true(u.ngroups >= 1);
	assert_string_equal(note, ""); /* asked for: nothing to say */
	/* --user root: already root, nothing to drop */
	assert_int_equal(il_live_user_resolve(&u, "0", "65534", "65534",
					      note, sizeof(note), &err), 0);
	assert_false(u.drop);
	/* Under sudo the invoking user, said. */
	assert_int_equal(il_live_user_resolve(&u, NULL, "65534", "65534",
					      note, sizeof(note), &err), 0);
	assert_true(u.drop);
	assert_int_equal(u.uid, 65534);
	assert_int_equal(u.gid, 65534);
	/* the front end adds how to run it as root instead (the library names no option) */
	assert_non_null(strstr(note, "(uid 65534, gid 65534), who ran sudo (SUDO_UID/SUDO_GID)"));
	assert_null(strstr(note, "--user"));
	assert_int_equal(il_live_user_resolve(&u, NULL, "x1", NULL, note, sizeof(note), &err), -1);
	assert_string_equal(err.msg, "SUDO_UID='x1', SUDO_GID='': not user and group ids");
	assert_int_equal(err.need, IL_NEED_USER);
}

static void test_runs_as_the_user(void **state)
{
	struct il_live_child_opts o = { 0 };
	struct il_live_child_result res;
	struct il_live_output out;
	struct il_live_user u;
	struct il_error err;
	char want[64];

	if (geteuid() != 0 || !getpwnam("nobody")) {
		skip();
		return;
	}
	assert_int_equal(il_live_user_resolve(&u, "nobody", NULL, NULL, NULL, 0, &err), 0);
	o.user = &u;
	run_sh("echo $(id -u) $(id -g)", 64, &out, &res, &o);
	snprintf(want, sizeof(want), "%u %u\n", u.uid, u.gid);
	assert_string_equal(out.text, want);
	/* ... while we keep root */
	assert_int_equal(geteuid(), 0);
	il_live_output_free(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_output_kept_and_copied),
		cmocka_unit_test(test_output_truncated),
		cmocka_unit_test(test_failing_and_crashing_command),
		cmocka_unit_test(test_command_not_found),
		cmocka_unit_test(test_process_group_killed),
		cmocka_unit_test(test_stop_kills_it),
		cmocka_unit_test(test_wait_does_not_poll),
		cmocka_unit_test(test_stop_by_signal_while_waiting),
		cmocka_unit_test(test_wait_without_pidfd),
		cmocka_unit_test(test_in_child_hook),
		cmocka_unit_test(test_user_resolve),
		cmocka_unit_test(test_runs_as_the_user),
	};

	/* A closed reader of an echo pipe must not kill the test. */
	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
