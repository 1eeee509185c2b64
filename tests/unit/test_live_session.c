// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_live_session.c - a whole measurement (lib/live/setup.c, session.c) on private copies of
 * the fixture trees of tests/fixtures/sysfs/: the workload is a shell command that plays the
 * kernel by adding known amounts to the fixture's counters, so every delta is known. Covers
 * the checks made before anything changes (driver, governors, CPUs, disable states), the
 * runs and their order, counters and energy, metrics, restoration after a change, a failure
 * and an interruption, the lock, and the quiet-machine warnings.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "fixtree.h"

#include "live/live.h"
#include "output/output.h"

#define CPU "/sys/devices/system/cpu"
#define GOV CPU "/cpuidle/current_governor"
#define MAX_SAID 64

static char root[PATH_MAX];

/* ---- fixture helpers ------------------------------------------------------------------------ */

/* A private copy of fixture @name in a fresh temporary directory. */
static void copy_fixture(const char *name)
{
	fixtree_copy(root, "session", name);
}

static int remove_copy(void **state)
{
	(void)state;
	fixtree_remove(root);
	return 0;
}

static void put(const char *rel, const char *value)
{
	fixtree_put(root, rel, value);
}

static const char *get(const char *rel)
{
	static char buf[IL_LIVE_VALUE_MAX];
	char path[PATH_MAX];

	assert_true((size_t)snprintf(path, sizeof(path), "%s%s", root, rel) < sizeof(path));
	assert_int_equal(il_live_read_text(path, buf, sizeof(buf)), 0);
	return buf;
}

static bool exists(const char *rel)
{
	char path[PATH_MAX];

	assert_true((size_t)snprintf(path, sizeof(path), "%s%s", root, rel) < sizeof(path));
	return access(path, F_OK) == 0;
}

/* ---- a session with hooks that keep what they are told -------------------------------------- */

struct said {
	int n;
	enum il_live_say kind[MAX_SAID];
	char msg[MAX_SAID][2 * IL_ERROR_LEN];
	int starts, dones, begun;
	int stop_at;                /* run_start of this run interrupts (0: never) */
	struct il_live_session *s;
};

static struct said said;

static void on_say(void *ctx, enum il_live_say kind, enum il_error_need need, const char *msg)
{
	struct said *w = ctx;

	assert_true(w->n < MAX_SAID);
	w->kind[w->n] = kind;
	snprintf(w->msg[w->n++], sizeof(w->msg[0]), "%s", msg);
}

static void on_begin(void *ctx, int nruns)
{
	((struct said *)ctx)->begun = nruns;
}

static void on_run_start(void *ctx, int run, int nruns, const char *gov, unsigned int iter)
{
	struct said *w = ctx;

	w->starts++;
	if (run == w->stop_at)
		assert_true(il_live_session_interrupt(w->s, SIGINT));
}

static void on_run_done(void *ctx, int done)
{
	((struct said *)ctx)->dones = done;
}

static const struct il_live_hooks hooks = {
	.say = on_say, .begin = on_begin, .run_start = on_run_start, .run_done = on_run_done,
	.ctx = &said,
};

/* The message of @kind that contains @text, or NULL. */
static const char *heard(enum il_live_say kind, const char *text)
{
	for (int i = 0; i < said.n; i++)
		if (said.kind[i] == kind && strstr(said.msg[i], text))
			return said.msg[i];
	return NULL;
}

static char cmd_text[4 * PATH_MAX];
static char *cmd[] = { "sh", "-c", cmd_text, NULL };

/*
 * Options for a measurement on the copy, the command being the shell text @fmt: in it, bump F D
 * adds D to the file ROOT/F (a counter of the copy) and $R is the root.
 */
static void opts_for(struct il_live_measure_opts *o, const char *govs, const char *fmt, ...)
{
	static char govbuf[256];
	char body[3 * PATH_MAX], *save = NULL;
	va_list ap;

	memset(o, 0, sizeof(*o));
	memset(&said, 0, sizeof(said));
	snprintf(govbuf, sizeof(govbuf), "%s", govs);
	for (char *g = strtok_r(govbuf, ",", &save); g; g = strtok_r(NULL, ",", &save))
		o->governors[o->ngov++] = g;
	o->root = root;
	o->iter = 1;
	o->echo_fd = -1;
	o->cmd = cmd;
	va_start(ap, fmt);
	vsnprintf(body, sizeof(body), fmt, ap);
	va_end(ap);
	assert_true((size_t)snprintf(cmd_text, sizeof(cmd_text), "R='%s'; bump() { echo $(($(cat "
				     "\"$R/$1\") + $2)) > \"$R/$1\"; }; %s", root, body) <
		    sizeof(cmd_text));
}

/* Init, lock, measure, restore: the return of il_live_session_measure(). */
static int measure(struct il_live_session *s, const struct il_live_measure_opts *o,
		   struct il_error *err)
{
	int ret;

	said.s = s;
	said.n = 0;
	assert_int_equal(il_live_session_init(s, o, &hooks, err), 0);
	assert_int_equal(il_live_session_lock(s, NULL, err), 0);
	ret = il_live_session_measure(s, err);
	assert_int_equal(il_live_session_restore(s), 0);
	return ret;
}

/* The tsv text of the runs (or states) table. */
static char *table_text(const struct il_live_session *s, bool states)
{
	const struct il_table *tp;
	struct il_table t = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(states ? il_live_states_table(s, &t) : il_live_runs_table(s, &t), 0);
	tp = &t;
	assert_int_equal(il_output_tsv.write(f, &tp, 1), 0);
	assert_int_equal(fclose(f), 0);
	il_table_free(&t);
	return buf;
}

/* ---- the runs ------------------------------------------------------------------------------- */

#define S(cpu, st, file) CPU "/cpu" #cpu "/cpuidle/state" #st "/" #file

static void test_counts_interleaved_and_restored(void **state)
{
	struct il_live_measure_opts o;
	struct il_live_session s;
	struct il_error err;
	char *text;

	copy_fixture("haltpoll-vm");
	opts_for(&o, "menu,ladder,menu", "bump %s 100; bump %s 3; bump %s 3; bump %s 20; "
		 "bump %s 2; echo \"IOPS=12.4k disabled=$(cat \"$R/%s\")\"", S(0, 1, usage),
		 S(1, 0, usage), S(1, 0, below), S(1, 1, usage), S(1, 1, above), S(1, 0, disable));
	o.iter = 2;
	o.ndisable = 1;
	o.disable[0] = "POLL";
	o.nmetric = 2;
	o.metrics[0] = "iops=IOPS=([0-9.]+k)";
	o.metrics[1] = "d=disabled=([01])";
	assert_int_equal(measure(&s, &o, &err), 0);
	/* menu once, without repeats; A B A B */
	assert_int_equal(s.ngov, 2);
	assert_int_equal(s.nrows, 4);
	assert_int_equal(said.begun, 4);
	assert_int_equal(said.starts, 4);
	assert_int_equal(said.dones, 4);
	assert_string_equal(s.rows[1].gov, "ladder");
	assert_int_equal(s.rows[2].iter, 1);
	assert_string_equal(s.rows[2].gov, "menu");
	for (int k = 0; k < 4; k++) {
		assert_int_equal(s.rows[k].idles, 123);
		assert_int_equal(s.rows[k].belows, 3);
		assert_int_equal(s.rows[k].aboves, 2);
		assert_false(s.rows[k].energy_ok);
		assert_true(s.rows[k].metric[0] == 12400.0);
		assert_true(s.rows[k].metric[1] == 1.0); /* POLL disabled during the run */
	}
	text = table_text(&s, false);
	assert_non_null(strstr(text, "gov\titer\tiops\td\tjoules\tidles\tidle_misses\t"
			       "idle_miss_ratio\tbelows\taboves\trejected\twall_s\n"));
	assert_non_null(strstr(text, "ladder\t1\t12400\t1\t-\t123\t5\t0.041\t3\t2\t"));
	free(text);
	text = table_text(&s, true);
	assert_non_null(strstr(text, "menu\t0\t1\thaltpoll idle\t120\t0\t2\t0\t0\n"));
	assert_non_null(strstr(text, "ladder\t1\t0\tPOLL\t3\t0\t0\t3\t0\n"));
	free(text);
	/* Everything back, and said. */
	assert_string_equal(get(GOV), "haltpoll");
	assert_string_equal(get(S(0, 0, disable)), "0");
	assert_string_equal(get(S(1, 0, disable)), "0");
	assert_non_null(heard(IL_LIVE_INFO, "restored current_governor to haltpoll and 2 disable "
			      "files"));
	assert_non_null(heard(IL_LIVE_INFO, "haltpoll driver on 2 CPUs (cpu0..cpu1); governors "
			      "menu ladder; 2 iterations; settle 0s; energy none"));
	assert_non_null(heard(IL_LIVE_WARNING, "energy: not measured, no "));
	assert_null(heard(IL_LIVE_WARNING, "recorded 0 idles"));
	il_live_session_free(&s);
}

static void test_cpus_subset_and_states_left_alone(void **state)
{
	struct il_live_measure_opts o;
	struct il_live_session s;
	struct il_error err;

	copy_fixture("haltpoll-vm");
	put(S(0, 0, disable), "1");
	opts_for(&o, "ladder", "bump %s 100; bump %s 7", S(0, 1, usage), S(1, 1, usage));
	o.cpus = "1";
	o.ndisable = 1;
	o.disable[0] = "0";
	assert_int_equal(measure(&s, &o, &err), 0);
	assert_int_equal(s.ncpu, 1);
	assert_int_equal(s.rows[0].idles, 7);
	/* cpu0's state was not ours to change; cpu1's is back to 0 */
	assert_string_equal(get(S(0, 0, disable)), "1");
	assert_string_equal(get(S(1, 0, disable)), "0");
	assert_non_null(heard(IL_LIVE_INFO, "restored current_governor to haltpoll and 1 disable "
			      "file"));
	assert_null(heard(IL_LIVE_INFO, "1 disable files"));
	il_live_session_free(&s);
}

static void test_energy_across_the_wrap(void **state)
{
	struct il_live_measure_opts o;
	struct il_live_session s;
	struct il_error err;
	char uj[32];

	copy_fixture("desktop-rapl");
	/* package-0 is 400000 uJ before its wrap at max_energy_range_uj: add 400000 */
	snprintf(uj, sizeof(uj), "%s", get("/sys/class/powercap/intel-rapl:0/energy_uj"));
	opts_for(&o, "teo", "bump %s 10; echo %llu > \"$R/sys/class/powercap/intel-rapl:0/"
		 "energy_uj\"", S(0, 3, usage),
		 strtoull(uj, NULL, 10) + 400000ULL -
		 strtoull(get("/sys/class/powercap/intel-rapl:0/max_energy_range_uj"), NULL, 10));
	assert_int_equal(measure(&s, &o, &err), 0);
	assert_int_equal(s.ncpu, 3); /* cpu3 is offline */
	assert_true(s.rows[0].energy_ok);
	assert_true(s.rows[0].joules > 0.3999 && s.rows[0].joules < 0.4001);
	assert_non_null(heard(IL_LIVE_INFO, "energy RAPL package-0"));
	assert_null(heard(IL_LIVE_WARNING, "energy:"));
	il_live_session_free(&s);
}

static void test_metric_without_match_and_not_a_number(void **state)
{
	struct il_live_measure_opts o;
	struct il_live_session s;
	struct il_error err;

	copy_fixture("haltpoll-vm");
	opts_for(&o, "menu", "echo 'avg=79.87 v=zz'");
	o.nmetric = 3;
	o.metrics[0] = "iops=IOPS=([0-9]+)";
	o.metrics[1] = "clat=[0-9]+\\.[0-9]+";
	o.metrics[2] = "v=v=([a-z]+)";
	assert_int_equal(measure(&s, &o, &err), 0);
	assert_int_equal(s.rows[0].metric_rc[0], IL_METRIC_NO_MATCH);
	assert_int_equal(s.rows[0].metric_rc[1], IL_METRIC_FOUND);
	assert_true(s.rows[0].metric[1] == 79.87);
	assert_int_equal(s.rows[0].metric_rc[2], IL_METRIC_NOT_A_NUMBER);
	assert_non_null(heard(IL_LIVE_WARNING, "metric iops: no match in the output of menu "
			      "iter 0"));
	assert_non_null(heard(IL_LIVE_WARNING, "metric v: 'zz' is not a number (menu iter 0)"));
	il_live_session_free(&s);
}

/* ---- failures: stop, restore ---------------------------------------------------------------- */

static void expect_failure(const char *body, const char *msg)
{
	struct il_live_measure_opts o;
	struct il_live_session s;
	struct il_error err;

	copy_fixture("haltpoll-vm");
	opts_for(&o, "menu,ladder", "%s", body);
	o.ndisable = 1;
	o.disable[0] = "POLL";
	assert_int_equal(measure(&s, &o, &err), -1);
	assert_non_null(strstr(err.msg, msg));
	assert_int_equal(s.nrows, 0);
	assert_int_equal(s.stop, 0);
	assert_string_equal(get(GOV), "haltpoll");
	assert_string_equal(get(S(0, 0, disable)), "0");
	assert_string_equal(get(S(1, 0, disable)), "0");
	il_live_session_free(&s);
	remove_copy(NULL);
}

static void test_failing_command_stops_and_restores(void **state)
{
	expect_failure("exit 3", "'sh' exited with status 3 (menu iter 0); stopping");
	expect_failure("kill -SEGV $$", "'sh' was killed by SIGSEGV (signal 11) (menu iter 0); "
		       "stopping");
	expect_failure("bump " S(0, 1, usage) " -10", "went back from 881425 to 881415");
}

static void test_command_not_found(void **state)
{
	static char *missing[] = { "/nonexistent/idlelab-no-such-command", NULL };
	struct il_live_measure_opts o;
	struct il_live_session s;
	struct il_error err;

	copy_fixture("haltpoll-vm");
	opts_for(&o, "menu", "true");
	o.cmd = missing;
	assert_int_equal(measure(&s, &o, &err), -1);
	assert_non_null(heard(IL_LIVE_WARNING, "cannot run '/nonexistent/idlelab-no-such-command': "
			      "No such file or directory"));
	assert_non_null(strstr(err.msg, "exited with status 127"));
	assert_string_equal(get(GOV), "haltpoll");
	il_live_session_free(&s);
}

static void test_interrupt_stops_after_the_run_done(void **state)
{
	struct il_live_measure_opts o;
	struct il_live_session s;
	struct il_error err;

	copy_fixture("haltpoll-vm");
	opts_for(&o, "menu,ladder", "bump %s 1", S(0, 1, usage));
	o.iter = 2;
	o.ndisable = 1;
	o.disable[0] = "POLL";
	said.stop_at = 2;
	assert_int_equal(measure(&s, &o, &err), -1);
	assert_string_equal(err.msg, "");
	assert_int_equal(s.stop, SIGINT);
	assert_int_equal(s.nrows, 1);
	assert_int_equal(said.starts, 2);
	/* A second stop is the signal handler's cue to abort. */
	assert_false(il_live_session_interrupt(&s, SIGTERM));
	assert_int_equal(s.stop, SIGINT);
	assert_string_equal(get(GOV), "haltpoll");
	assert_string_equal(get(S(1, 0, disable)), "0");
	il_live_session_free(&s);
}

/*
 * The settle before a run sleeps once, not in slices (no wakeups of our own while the machine
 * settles), and a stop signal during it ends it at once.
 */
static void test_settle_sleeps_once(void **state)
{
	struct il_live_measure_opts o;
	struct il_live_session s;
	struct rusage before, after;
	struct il_error err;

	copy_fixture("haltpoll-vm");
	opts_for(&o, "menu", "true");
	o.settle_ns = 1000000000ULL;
	getrusage(RUSAGE_SELF, &before);
	assert_int_equal(measure(&s, &o, &err), 0);
	getrusage(RUSAGE_SELF, &after);
	/* The command's wait and the settle: a few; sleeping in 100 ms slices made 10 more. */
	assert_in_range(after.ru_nvcsw - before.ru_nvcsw, 0, 6);
	il_live_session_free(&s);
}

static struct il_live_session *alarm_session;

static void on_alarm_stop(int sig)
{
	il_live_session_interrupt(alarm_session, sig);
}

static void test_stop_during_settle(void **state)
{
	struct sigaction sa = { .sa_handler = on_alarm_stop }, old;
	struct il_live_measure_opts o;
	struct il_live_session s;
	struct il_error err;
	unsigned long long t0;

	copy_fixture("haltpoll-vm");
	opts_for(&o, "menu", "true");
	o.settle_ns = 60000000000ULL;
	alarm_session = &s;
	sigaction(SIGALRM, &sa, &old);
	alarm(1);
	t0 = il_live_now_ns();
	assert_int_equal(measure(&s, &o, &err), -1);
	sigaction(SIGALRM, &old, NULL);
	assert_true(il_live_now_ns() - t0 < 30000000000ULL);
	assert_int_equal(s.stop, SIGALRM);
	assert_int_equal(s.nrows, 0);
	assert_string_equal(get(GOV), "haltpoll");
	il_live_session_free(&s);
}

/* What a signal handler does: put everything back right now. */
static void test_abort_restores_at_once(void **state)
{
	struct il_live_measure_opts o;
	struct il_live_session s;
	struct il_error err;
	char path[PATH_MAX];

	copy_fixture("haltpoll-vm");
	opts_for(&o, "menu", "true");
	o.ndisable = 1;
	o.disable[0] = "1"; /* room for cpu1's state1 */
	assert_int_equal(il_live_session_init(&s, &o, &hooks, &err), 0);
	assert_int_equal(il_live_session_lock(&s, NULL, &err), 0);
	assert_int_equal(il_live_switch_governor(&s.lv, &s.changes, &s.ci, "menu", &err), 0);
	assert_true((size_t)snprintf(path, sizeof(path), "%s" S(1, 1, disable), root) <
		    sizeof(path));
	assert_int_equal(il_live_write(&s.changes, path, "1", &err), 0);
	assert_string_equal(get(GOV), "menu");
	il_live_session_abort(&s);
	assert_string_equal(get(GOV), "haltpoll");
	assert_string_equal(get(S(1, 1, disable)), "0");
	il_live_session_free(&s);
}

/* A setting that cannot be put back is named, and the restore says it failed. */
static void test_restore_failure_said(void **state)
{
	struct il_live_measure_opts o;
	struct il_live_session s;
	struct il_error err;

	copy_fixture("haltpoll-vm");
	opts_for(&o, "menu", "true");
	assert_int_equal(il_live_session_init(&s, &o, &hooks, &err), 0);
	assert_int_equal(il_live_session_lock(&s, NULL, &err), 0);
	assert_int_equal(il_live_switch_governor(&s.lv, &s.changes, &s.ci, "menu", &err), 0);
	/* The file became a directory: no write can put "haltpoll" back. */
	fixtree_sh("rm '%s" GOV "' && mkdir '%s" GOV "'", root, root);
	said.n = 0;
	assert_int_equal(il_live_session_restore(&s), -1);
	assert_non_null(heard(IL_LIVE_WARNING, "could not restore "));
	assert_non_null(heard(IL_LIVE_WARNING, "/cpuidle/current_governor"));
	assert_null(heard(IL_LIVE_INFO, "restored"));
	/* The lock is released all the same. */
	assert_int_equal(s.lock_fd, -1);
	il_live_session_free(&s);
}

/* ---- checks before anything changes --------------------------------------------------------- */

static void expect_refused(const char *fixture, struct il_live_measure_opts *o, const char *msg)
{
	struct il_live_session s;
	struct il_error err;

	assert_int_equal(il_live_session_init(&s, o, &hooks, &err), -1);
	assert_non_null(strstr(err.msg, msg));
	il_live_session_free(&s);
	/* Nothing written, no lock taken. */
	assert_false(exists("/run/idlelab.lock"));
	if (!strcmp(fixture, "haltpoll-vm"))
		assert_string_equal(get(GOV), "haltpoll");
}

static void test_missing_governor(void **state)
{
	struct il_live_measure_opts o;
	struct il_live_session s;
	struct il_error err;

	copy_fixture("haltpoll-vm");
	opts_for(&o, "menu,teo", "true");
	expect_refused("haltpoll-vm", &o, "governor 'teo' is not available here "
		       "(available_governors: ladder menu haltpoll): an A/B without it is not the "
		       "one asked for");
	/* The library names no flag: it says what would get past, the CLI words it. */
	assert_int_equal(il_live_session_init(&s, &o, &hooks, &err), -1);
	assert_null(strstr(err.msg, "--allow-missing"));
	assert_int_equal(err.need, IL_NEED_ALLOW_MISSING);
	il_live_session_free(&s);
	o.allow_missing = true;
	assert_int_equal(il_live_session_init(&s, &o, &hooks, &err), 0);
	assert_int_equal(s.ngov, 1);
	assert_string_equal(s.gov[0], "menu");
	assert_non_null(heard(IL_LIVE_WARNING, "governor 'teo' is not available here "
			      "(available_governors: ladder menu haltpoll); skipped"));
	il_live_session_free(&s);
	opts_for(&o, "teo,foo", "true");
	o.allow_missing = true;
	expect_refused("haltpoll-vm", &o, "none of the governors given is available");
}

static void test_refused_before_any_change(void **state)
{
	struct il_live_measure_opts o;

	copy_fixture("haltpoll-vm");
	opts_for(&o, "menu", "true");
	o.cpus = "7";
	expect_refused("haltpoll-vm", &o, "cpu7 does not exist");
	o.cpus = NULL;
	o.ndisable = 1;
	o.disable[0] = "C6";
	expect_refused("haltpoll-vm", &o, "cpu0 has no state 'C6'");
	o.ndisable = 0;
	o.user = "no-such-user-idlelab";
	expect_refused("haltpoll-vm", &o, "no user 'no-such-user-idlelab' in the password "
		       "database");
	remove_copy(NULL);

	copy_fixture("desktop-rapl");
	opts_for(&o, "menu", "true");
	o.cpus = "3";
	expect_refused("desktop-rapl", &o, "cpu3 has no cpuidle directory (offline?)");
	remove_copy(NULL);

	copy_fixture("no-driver");
	opts_for(&o, "menu", "true");
	expect_refused("no-driver", &o, "no cpuidle driver is registered (current_driver: none)");
	assert_string_equal(get(GOV), "menu");
	remove_copy(NULL);

	copy_fixture("old-kernel");
	opts_for(&o, "menu", "true");
	expect_refused("old-kernel", &o, "cannot switch governors at run time");
}

static void test_lock_refuses_a_second_session(void **state)
{
	struct il_live_measure_opts o;
	struct il_live_session a, b;
	struct il_error err;

	copy_fixture("haltpoll-vm");
	opts_for(&o, "menu", "true");
	assert_int_equal(il_live_session_init(&a, &o, &hooks, &err), 0);
	assert_int_equal(il_live_session_init(&b, &o, &hooks, &err), 0);
	assert_int_equal(il_live_session_lock(&a, NULL, &err), 0);
	assert_int_equal(il_live_session_lock(&b, NULL, &err), -1);
	assert_non_null(strstr(err.msg, "another idlelab measure is running"));
	assert_int_equal(il_live_session_restore(&a), 0);
	assert_int_equal(il_live_session_lock(&b, NULL, &err), 0);
	il_live_session_free(&a);
	il_live_session_free(&b);
}

/* ---- was the machine quiet? ----------------------------------------------------------------- */

/* A proc/PID/stat line: utime @ticks, last on @cpu (field 39), process group @pid. */
static void proc_stat(char *buf, size_t cap, int pid, const char *comm, int ticks, int cpu)
{
	snprintf(buf, cap, "%d (%s) R 1 %d %d 0 -1 4194304 0 0 0 0 %d 0 0 0 20 0 1 0 100 0 0 0 0 0 "
		 "0 0 0 0 0 0 0 0 0 0 17 %d 0 0 0 0 0", pid, comm, pid, pid, ticks, cpu);
}

static void test_quiet_machine_warnings(void **state)
{
	struct il_live_measure_opts o;
	struct il_live_session s;
	struct il_error err;
	char line[256], later[256];

	copy_fixture("haltpoll-vm");
	/* No proc/loadavg: said, not silently skipped. */
	opts_for(&o, "menu", "bump %s 5; bump %s 5", S(0, 1, usage), S(1, 1, usage));
	assert_int_equal(measure(&s, &o, &err), 0);
	assert_non_null(heard(IL_LIVE_WARNING, "quiet check: "));
	assert_non_null(heard(IL_LIVE_WARNING, "/proc/loadavg: cannot read"));
	assert_null(heard(IL_LIVE_WARNING, "not quiet"));
	il_live_session_free(&s);

	put("/proc/loadavg", "3.50 2.00 1.00 2/345 6789");
	proc_stat(line, sizeof(line), 4242, "spin ner", 1000, 1);
	put("/proc/4242/stat", line);
	proc_stat(line, sizeof(line), 4243, "idler", 1000, 1);
	put("/proc/4243/stat", line);
	/* The workload plays a foreign spinner: 4242 gains 50 ticks on cpu1 during the run. */
	proc_stat(later, sizeof(later), 4242, "spin ner", 1050, 1);
	opts_for(&o, "menu", "echo '%s' > \"$R/proc/4242/stat\"; bump %s 5; sleep 0.2", later,
		 S(0, 1, usage));
	assert_int_equal(measure(&s, &o, &err), 0);
	assert_non_null(heard(IL_LIVE_WARNING, "the machine is not quiet: load average 3.50 over "
			      "the last minute (more than 1.0); the runs share the CPUs with it"));
	assert_non_null(heard(IL_LIVE_WARNING, "not quiet: pid 4242 (spin ner) used "));
	assert_non_null(heard(IL_LIVE_WARNING, "% of a CPU during menu iter 0, last on measured "
			      "cpu1"));
	assert_null(heard(IL_LIVE_WARNING, "pid 4243"));
	assert_non_null(heard(IL_LIVE_WARNING, "cpu1 recorded 0 idles during menu iter 0"));
	assert_null(heard(IL_LIVE_WARNING, "cpu0 recorded"));
	il_live_session_free(&s);

	/* --cpus 0: a process on cpu1 does not count. */
	proc_stat(line, sizeof(line), 4242, "spin ner", 1000, 1);
	put("/proc/4242/stat", line);
	o.cpus = "0";
	assert_int_equal(measure(&s, &o, &err), 0);
	assert_null(heard(IL_LIVE_WARNING, "pid 4242"));
	il_live_session_free(&s);
}

#define T(f) cmocka_unit_test_teardown(f, remove_copy)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_counts_interleaved_and_restored),
		T(test_cpus_subset_and_states_left_alone),
		T(test_energy_across_the_wrap),
		T(test_metric_without_match_and_not_a_number),
		T(test_failing_command_stops_and_restores),
		T(test_command_not_found),
		T(test_interrupt_stops_after_the_run_done),
		T(test_settle_sleeps_once),
		T(test_stop_during_settle),
		T(test_abort_restores_at_once),
		T(test_restore_failure_said),
		T(test_missing_governor),
		T(test_refused_before_any_change),
		T(test_lock_refuses_a_second_session),
		T(test_quiet_machine_warnings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
