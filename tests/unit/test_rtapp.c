// SPDX-License-Identifier: GPL-2.0-only
/*
 * rt-app files: the reader (every event kind, prefixes and file order, loops, instances,
 * barriers' users, timers, global settings, json-c's comments and trailing commas, every
 * class of error with its FILE:LINE:COL and key path) and the rtapp scenario (timer and
 * sleep periods, relative and absolute timers, barriers, lost resumes, mutex hand-over,
 * semaphores, affinity, duration, runtime chunks, calibration, the 2-CPU ring against the
 * built-in pingpong, determinism, the -s operand and its checks).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "rtapp/rtapp.h"
#include "lab/lab.h"
#include "platform/platform.h"
#include "testlab.h"
#include "util/array.h"

#define MS 1000000ULL

static struct il_rtapp *parse_ok(const char *text)
{
	struct il_rtapp *rt;
	struct il_error err;

	if (il_rtapp_parse(text, strlen(text), "t.json", &rt, &err))
		fail_msg("unexpected error: %s", err.msg);
	return rt;
}

/* @text fails with a message that starts with @where and contains @what. */
static void parse_bad(const char *text, const char *where, const char *what)
{
	struct il_rtapp *rt;
	struct il_error err;

	if (!il_rtapp_parse(text, strlen(text), "t.json", &rt, &err))
		fail_msg("accepted: %s", text);
	assert_null(rt);
	if (strncmp(err.msg, where, strlen(where)) || !strstr(err.msg, what))
		fail_msg("got '%s', want '%s...%s'", err.msg, where, what);
}

/* ---- the reader ------------------------------------------------------------------------- */

static void test_every_event_in_file_order(void **state)
{
	static const char text[] =
		"{ \"tasks\": { \"t\": {\n"
		"  \"sleep9\": 5, \"run1\": 10, \"runtime0\": 20, \"timer\": { \"ref\": \"tick\", \"period\": 1000 },\n"
		"  \"barrier\": \"b\", \"suspend\": \"s\", \"resume\": \"s\", \"signal\": \"c\", \"broad\": \"c\",\n"
		"  \"wait\": { \"ref\": \"c\", \"mutex\": \"m\" }, \"sync\": { \"ref\": \"c\", \"mutex\": \"m\" },\n"
		"  \"lock\": \"m\", \"unlock\": \"m\", \"yield\": \"\", \"sem_post\": \"p\", \"sem_wait\": \"p\" } } }";
	static const enum il_rtapp_ev want[] = {
		IL_RTAPP_SLEEP, IL_RTAPP_RUN, IL_RTAPP_RUNTIME, IL_RTAPP_TIMER, IL_RTAPP_BARRIER,
		IL_RTAPP_SUSPEND, IL_RTAPP_RESUME, IL_RTAPP_SIGNAL, IL_RTAPP_BROAD, IL_RTAPP_WAIT,
		IL_RTAPP_SYNC, IL_RTAPP_LOCK, IL_RTAPP_UNLOCK, IL_RTAPP_YIELD, IL_RTAPP_SEM_POST,
		IL_RTAPP_SEM_WAIT,
	};
	struct il_rtapp *rt = parse_ok(text);
	const struct il_rtapp_phase *ph = &rt->tasks[0].phases[0];

	assert_int_equal(rt->ntasks, 1);
	assert_int_equal(rt->tasks[0].nphases, 1);
	assert_int_equal(ph->nevents, (int)ARRAY_SIZE(want));
	for (int i = 0; i < ph->nevents; i++)
		assert_int_equal(ph->events[i].type, want[i]);
	assert_string_equal(ph->events[0].key, "sleep9");
	assert_int_equal(ph->events[0].usec, 5);
	assert_int_equal(ph->events[1].usec, 10);
	assert_int_equal(ph->events[2].usec, 20);
	assert_int_equal(ph->events[3].usec, 1000);
	/* suspend and resume name the same condition; signal, broad, wait and sync another */
	assert_int_equal(ph->events[5].res, ph->events[6].res);
	assert_int_equal(ph->events[7].res, ph->events[9].res);
	assert_int_equal(ph->events[9].mutex, ph->events[11].res);
	assert_int_equal(rt->res[ph->events[11].res].type, IL_RTAPP_RES_MUTEX);
	assert_int_equal(rt->res[ph->events[14].res].type, IL_RTAPP_RES_SEM);
	assert_int_equal(ph->events[0].res, -1);
	il_rtapp_free(rt);
}

static void test_loops_phases_instances(void **state)
{
	static const char text[] =
		"{ \"tasks\": {\n"
		"  \"a\": { \"instance\": 3, \"loop\": 2, \"cpus\": [1, 3], \"delay\": 500, \"phases\": {\n"
		"      \"p1\": { \"loop\": 4, \"run\": 1, \"barrier\": \"b\" },\n"
		"      \"p2\": { \"cpus\": [0], \"sleep\": 1, \"barrier\": \"b\" } } },\n"
		"  \"b\": { \"loop\": 7, \"run\": 2, \"barrier\": \"b\" },\n"
		"  \"c\": { \"run\": 3 },\n"
		"  \"d\": { \"instance\": 0, \"run\": 3 } } }";
	struct il_rtapp *rt = parse_ok(text);
	const struct il_rtapp_task *a = &rt->tasks[0], *b = &rt->tasks[1], *c = &rt->tasks[2];

	assert_int_equal(rt->ntasks, 4);
	assert_int_equal(rt->nthreads, 5);
	assert_int_equal(a->instances, 3);
	assert_int_equal(a->loop, 2);
	assert_int_equal(a->delay_us, 500);
	assert_int_equal(a->nphases, 2);
	assert_string_equal(a->phases[0].name, "p1");
	assert_int_equal(a->phases[0].loop, 4);
	assert_int_equal(a->phases[1].loop, 1);          /* a phase's default */
	assert_int_equal(a->cpus.n, 2);
	assert_int_equal(a->cpus.cpu[1], 3);
	assert_int_equal(a->phases[1].cpus.cpu[0], 0);
	/* without phases, "loop" counts the events and the task ends; without it, forever */
	assert_int_equal(b->phases[0].loop, 7);
	assert_int_equal(b->loop, 1);
	assert_int_equal(c->phases[0].loop, 1);
	assert_int_equal(c->loop, -1);
	/* barrier b: 3 instances x 2 events of a, 1 of b */
	assert_int_equal(rt->res[a->phases[0].events[1].res].users, 7);
	assert_int_equal(rt->max_cpu, 3);
	assert_non_null(strstr(rt->max_cpu_where, "t.json:2:"));
	assert_non_null(strstr(rt->max_cpu_where, "tasks.a.cpus[1]"));
	assert_false(rt->all_pinned); /* b and c have no cpus */
	il_rtapp_free(rt);

	rt = parse_ok("{ \"tasks\": { \"x\": { \"cpus\": [2], \"run\": 1 }, \"y\": { \"phases\": {"
		      " \"p\": { \"cpus\": [0], \"run\": 1 } } } } }");
	assert_true(rt->all_pinned);
	assert_int_equal(rt->max_cpu, 2);
	il_rtapp_free(rt);
}

static void test_timers_and_suspend_names(void **state)
{
	static const char text[] =
		"{ \"tasks\": {\n"
		"  \"a\": { \"timer0\": { \"ref\": \"unique\", \"period\": 10 }, \"timer1\": { \"ref\": \"shared\", \"period\": 10,"
		" \"mode\": \"absolute\" }, \"suspend\": \"\" },\n"
		"  \"b\": { \"timer0\": { \"ref\": \"unique\", \"period\": 10 }, \"timer1\": { \"ref\": \"shared\", \"period\": 20 },"
		" \"resume\": \"a\", \"timer2\": { \"period\": 5 } } } }";
	struct il_rtapp *rt = parse_ok(text);
	const struct il_rtapp_event *a = rt->tasks[0].phases[0].events, *b = rt->tasks[1].phases[0].events;

	/* "unique..." timers belong to their task; other names are shared */
	assert_int_not_equal(a[0].res, b[0].res);
	assert_int_equal(rt->res[a[0].res].task, 0);
	assert_int_equal(rt->res[b[0].res].task, 1);
	assert_int_equal(a[1].res, b[1].res);
	assert_int_equal(rt->res[a[1].res].task, -1);
	assert_true(rt->res[a[1].res].absolute);
	assert_false(rt->res[a[0].res].absolute);
	assert_string_equal(rt->res[b[3].res].name, "unknown"); /* rt-app's default ref */
	/* an empty suspend waits on the task's own name, which b resumes */
	assert_int_equal(a[2].res, b[2].res);
	assert_string_equal(rt->res[a[2].res].name, "a");
	il_rtapp_free(rt);
}

static void test_global_and_notes(void **state)
{
	static const char text[] =
		"{ \"global\": { \"duration\": 6, \"calibration\": 120, \"default_policy\": \"SCHED_FIFO\",\n"
		"  \"logdir\": \"./\", \"log_basename\": \"x\", \"log_size\": \"file\", \"ftrace\": true, \"gnuplot\": false,\n"
		"  \"lock_pages\": false, \"pi_enabled\": false, \"io_device\": \"/dev/null\", \"mem_buffer_size\": 4096,\n"
		"  \"cumulative_slack\": false },\n"
		"  \"resources\": {},\n"
		"  \"tasks\": { \"t\": { \"policy\": \"SCHED_DEADLINE\", \"priority\": 10, \"dl-runtime\": 1000,\n"
		"    \"dl-period\": 10000, \"util_min\": 100, \"taskgroup\": \"/tg\", \"run\": 1 } } }";
	struct il_rtapp *rt = parse_ok(text);
	bool policy_note = false;

	assert_int_equal(rt->duration_s, 6);
	assert_int_equal(rt->calib_ns_per_loop, 120);
	assert_true(rt->nnotes >= 3);
	for (int i = 0; i < rt->nnotes; i++)
		policy_note = policy_note || strstr(rt->notes[i], "priority") != NULL;
	assert_true(policy_note);
	il_rtapp_free(rt);

	rt = parse_ok("{ \"global\": { \"calibration\": \"CPU3\" }, \"tasks\": { \"t\": { \"run\": 1 } } }");
	assert_int_equal(rt->calib_ns_per_loop, 0);
	assert_int_equal(rt->calib_cpu, 3);
	assert_int_equal(rt->duration_s, 0);
	il_rtapp_free(rt);
}

/* json-c's leniencies, as in rt-app's own examples; positions stay those of the file. */
static void test_comments_and_trailing_commas(void **state)
{
	static const char ok[] =
		"{\n"
		"  /* a comment with \"quotes\", commas, and // slashes */\n"
		"  \"tasks\": { \"t\": { \"run\": 1, // end of line\n"
		"     \"sleep\": 2, }, },\n"
		"  \"global\": { \"logdir\": \"/tmp//x/*y*/\", }\n"
		"}\n";
	struct il_rtapp *rt = parse_ok(ok);

	assert_int_equal(rt->tasks[0].phases[0].nevents, 2);
	il_rtapp_free(rt);
	parse_bad("{ /* one\n two */ \"tasks\": {\n  \"t\": { \"rn\": 1 } } }", "t.json:3:10:", "tasks.t.rn: unknown key");
	parse_bad("{ \"tasks\": {} /* never closed\n", "t.json:1:15:", "comment not closed");
}

static void test_errors_with_positions(void **state)
{
	static const struct {
		const char *text, *where, *what;
	} bad[] = {
		{ "{ \"tasks\": { \"t\": { \"run\": 1 } }", "t.json:1:", "" },                     /* jansson's syntax error */
		{ "{ \"tasks\": { \"t\": {\n \"run\": 1,\n \"run\": 2 } } }", "t.json:3:", "run0" },   /* duplicate key */
		{ "[]", "t.json:1:1:", "one JSON object" },
		{ "{ \"global\": {} }", "t.json:1:1:", "no \"tasks\"" },
		{ "{ \"tasks\": {}, \"extra\": 1 }", "t.json:1:16:", "extra: unknown key" },
		{ "{ \"tasks\": {} }", "t.json:1:3:", "tasks: expected an object of one or more tasks" },
		{ "{ \"tasks\": { \"t\": {\n  \"foo\": 1, \"run\": 1 } } }", "t.json:2:3:", "tasks.t.foo: unknown key" },
		{ "{ \"tasks\": { \"t\": { \"run\": \"10\" } } }", "t.json:1:21:", "tasks.t.run: expected an integer" },
		{ "{ \"tasks\": { \"t\": { \"sleep\": -1 } } }", "t.json:1:", "tasks.t.sleep: -1 is outside" },
		{ "{ \"tasks\": { \"t\": { \"phases\": { \"p1\": {\n \"timer\": { \"ref\": \"x\", \"perod\": 1 } } } } } }",
		  "t.json:2:25:", "tasks.t.phases.p1.timer.perod: unknown key" },
		{ "{ \"tasks\": { \"t\": { \"timer\": { \"mode\": \"abs\" } } } }", "t.json:1:", "tasks.t.timer.mode:" },
		{ "{ \"tasks\": { \"t\": { \"mem\": 100 } } }", "t.json:1:21:", "\"mem\" events are not supported" },
		{ "{ \"tasks\": { \"t\": { \"iorun\": 100 } } }", "t.json:1:", "not supported" },
		{ "{ \"tasks\": { \"t\": { \"fork\": \"u\" } } }", "t.json:1:", "not supported" },
		{ "{ \"tasks\": { \"t\": { \"run\": 1, \"phases\": { \"p\": { \"run\": 1 } } } } }", "t.json:1:21:",
		  "tasks.t.run: an event beside \"phases\"" },
		{ "{ \"tasks\": { \"t\": { \"phases\": { \"p\": { \"loop\": 3 } } } } }", "t.json:1:33:",
		  "tasks.t.phases.p: no events" },
		{ "{ \"tasks\": { \"t\": { \"phases\": { \"p\": { \"loop\": 0, \"run\": 1 } } } } }", "t.json:1:",
		  "tasks.t.phases.p.loop: a phase loop of 0" },
		{ "{ \"tasks\": { \"t\": { \"cpus\": [], \"run\": 1 } } }", "t.json:1:21:", "tasks.t.cpus: expected a non-empty" },
		{ "{ \"tasks\": { \"t\": { \"cpus\": [0,\n \"1\"], \"run\": 1 } } }", "t.json:2:2:", "tasks.t.cpus[1]: expected an integer" },
		{ "{ \"tasks\": { \"t\": { \"cpus\": [5000], \"run\": 1 } } }", "t.json:1:", "tasks.t.cpus[0]: 5000 is outside" },
		{ "{ \"tasks\": { \"t\": { \"instance\": -2, \"run\": 1 } } }", "t.json:1:21:", "tasks.t.instance:" },
		{ "{ \"tasks\": { \"t\": { \"instance\": 0, \"run\": 1 } } }", "t.json:1:3:", "tasks: no threads" },
		{ "{ \"tasks\": { \"t\": { \"policy\": \"SCHED_FAST\", \"run\": 1 } } }", "t.json:1:", "unknown policy" },
		{ "{ \"tasks\": { \"t\": { \"barrier\": 3 } } }", "t.json:1:", "tasks.t.barrier: expected a string" },
		{ "{ \"tasks\": { \"t\": { \"wait\": \"c\" } } }", "t.json:1:", "tasks.t.wait: expected an object" },
		{ "{ \"tasks\": { \"t\": { \"wait\": { \"ref\": \"c\", \"lock\": \"m\" } } } }", "t.json:1:", "tasks.t.wait.lock: unknown key" },
		{ "{ \"tasks\": { \"t\": 1 } }", "t.json:1:14:", "tasks.t: expected a task object" },
		{ "{ \"global\": { \"duratoin\": 1 }, \"tasks\": { \"t\": { \"run\": 1 } } }", "t.json:1:15:",
		  "global.duratoin: unknown key" },
		{ "{ \"global\": { \"calibration\": \"fast\" }, \"tasks\": { \"t\": { \"run\": 1 } } }", "t.json:1:",
		  "global.calibration: \"fast\" is not" },
		{ "{ \"tasks\": { \"t\": { \"suspend\" } } }", "t.json:1:", "" },                      /* workgen's bare key */
		{ "{ \"tasks\": { \"t\": { \"run\": 1 } } } x", "t.json:1:", "" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		parse_bad(bad[i].text, bad[i].where, bad[i].what);
}

static void test_load_file(void **state)
{
	struct il_rtapp *rt;
	struct il_error err;

	assert_int_equal(il_rtapp_load_file("/nonexistent/x.json", &rt, &err), -1);
	assert_non_null(strstr(err.msg, "/nonexistent/x.json: cannot open"));
	assert_string_equal(il_rtapp_ev_name(IL_RTAPP_SEM_WAIT), "sem_wait");
}

/* ---- the scenario ------------------------------------------------------------------------- */

/* A temporary file holding @text; the path is static until the next call. */
static const char *tmp_json(const char *text)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/idlelab-rtapp-XXXXXX.json");
	fd = mkstemps(path, 5);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

/* Run @text with "rtapp:FILE,@params" for @time_ns on haltpoll-vm under menu, with @seed. */
static void run_text_seed(const char *text, const char *params, u64 time_ns, u64 seed,
			  struct il_lab_result *res)
{
	const char *path = tmp_json(text);
	char spec[256];

	snprintf(spec, sizeof(spec), "rtapp:%s%s%s", path, *params ? "," : "", params);
	tl_lab_run("haltpoll-vm", "menu", spec, seed, time_ns, res);
	unlink(path);
}

/*
 * The same, started on a tick (phase_us=0): the tests below count what rt-app's events do
 * from time 0; the start's phase has its own test.
 */
static void run_text(const char *text, const char *params, u64 time_ns, struct il_lab_result *res)
{
	char with_phase[200];

	snprintf(with_phase, sizeof(with_phase), "phase_us=0%s%s", *params ? "," : "", params);
	run_text_seed(text, with_phase, time_ns, 1, res);
}

/* Idle periods of one CPU that runs a single 100 us piece of work, with @params. */
static u64 one_run_idles(const char *params, u64 seed)
{
	static const char text[] = "{ \"tasks\": { \"t\": { \"loop\": 1, \"run\": 100 } } }";
	struct il_lab_result res;
	u64 n;

	run_text_seed(text, params, 20 * MS, seed, &res);
	n = res.sum.idles;
	il_lab_result_free(&res);
	return n;
}

/*
 * rt-app's start (1. of rtapp.c's DOC): on the tick with phase_us=0 the thread runs at once;
 * phase_us=2000 leaves the CPU idle until then, one idle period more, ended by the start's
 * timer. By default the start is drawn from the seed within one tick period (haltpoll-vm:
 * 4 ms), so it is not 0 either.
 */
static void test_start_phase(void **state)
{
	u64 on_tick = one_run_idles("cpus=1,background=0,phase_us=0", 1);

	(void)state;
	assert_int_equal(one_run_idles("cpus=1,background=0,phase_us=2000", 1), on_tick + 1);
	for (u64 seed = 1; seed <= 4; seed++)
		assert_int_equal(one_run_idles("cpus=1,background=0", seed), on_tick + 1);
}

/* Wakeups of an idle CPU by the thread's timers, on one quiet CPU. */
static u64 quiet_wakes(const char *text, u64 time_ns)
{
	struct il_lab_result res;
	u64 n;

	run_text(text, "cpus=1,background=0", time_ns, &res);
	n = res.sum.wake_count;
	il_lab_result_free(&res);
	return n;
}

static void test_timer_and_sleep_periods(void **state)
{
	/* a 10 ms timer from time 0: expiries at 10, 20 ... 990 ms */
	assert_int_equal(quiet_wakes("{ \"tasks\": { \"t\": { \"run\": 1000, \"timer\": { \"ref\": \"u\", \"period\": 10000 } } } }",
				     995 * MS), 99);
	/* run 5 ms then sleep 10 ms: a 15 ms loop (plus the wakeup's cost) */
	assert_int_equal(quiet_wakes("{ \"tasks\": { \"t\": { \"run\": 5000, \"sleep\": 10000 } } }", 1000 * MS), 66);
	/* a delay moves the timer's base: the start at 5 ms, then expiries at 15, 25 ... 995 ms */
	assert_int_equal(quiet_wakes("{ \"tasks\": { \"t\": { \"delay\": 5000, \"run\": 1000,"
				     " \"timer\": { \"ref\": \"u\", \"period\": 10000 } } } }", 999 * MS), 100);
}

/*
 * A phase that overruns its period once, then ten 1 ms loops on the same 10 ms timer. A
 * relative timer restarts from the overrun and sleeps in all ten; an absolute one keeps
 * its grid, so the first loop after the overrun finds its expiry already past.
 */
static void test_relative_and_absolute_timers(void **state)
{
	static const char fmt[] =
		"{ \"tasks\": { \"t\": { \"loop\": 1, \"phases\": {\n"
		"  \"late\": { \"run\": 25000, \"timer\": { \"ref\": \"unique\", \"period\": 10000, \"mode\": \"%s\" } },\n"
		"  \"steady\": { \"loop\": 10, \"run\": 1000, \"timer\": { \"ref\": \"unique\", \"period\": 10000 } } } } } }";
	char text[512];
	u64 rel, abs;

	snprintf(text, sizeof(text), fmt, "relative");
	rel = quiet_wakes(text, 500 * MS);
	snprintf(text, sizeof(text), fmt, "absolute");
	abs = quiet_wakes(text, 500 * MS);
	assert_int_equal(rel, 10);
	assert_int_equal(abs, 9);
}

/* Three instances wait at a barrier for a slower fourth thread: three wakeups per round. */
static void test_barrier_users(void **state)
{
	struct il_lab_result res;

	run_text("{ \"tasks\": { \"fast\": { \"instance\": 3, \"run\": 1000, \"barrier\": \"b\" },"
		 " \"slow\": { \"run\": 5000, \"barrier\": \"b\" } } }", "cpus=4,background=0", 100 * MS, &res);
	/* a round is 5 ms of work plus the cost of the wakeups: 19 or 20 rounds in 100 ms */
	assert_in_range(res.sum.wake_count, 3 * 19, 3 * 20);
	/* each wakeup leaves haltpoll-vm's HLT, 10-20 us (its actual_exit_latency) */
	assert_true(res.score > 10.0 && res.score < 25.0);
	il_lab_result_free(&res);
}

/* rt-app's resume is a condition broadcast: lost when the other thread is not suspended yet. */
static void test_resume_is_lost_without_a_waiter(void **state)
{
	static const char fmt[] =
		"{ \"tasks\": { \"ping\": { \"cpus\": [0], %s \"resume\": \"pong\", \"suspend\": \"ping\" },"
		" \"pong\": { \"cpus\": [1], \"suspend\": \"pong\", \"resume\": \"ping\" } } }";
	char text[512];
	struct il_lab_result res;

	snprintf(text, sizeof(text), fmt, "");
	run_text(text, "background=0", 100 * MS, &res);
	assert_int_equal(res.sum.wake_count, 0); /* both suspended for good */
	assert_int_equal(res.ncpus, 2);          /* the platform's */
	il_lab_result_free(&res);
	snprintf(text, sizeof(text), fmt, "\"delay\": 100,");
	run_text(text, "background=0", 100 * MS, &res);
	assert_true(res.sum.wake_count > 3000); /* a ping-pong, each wake 10-20 us out of HLT */
	il_lab_result_free(&res);
}

/* Two threads taking turns on a mutex held for 2 ms: each unlock hands it over. */
static void test_mutex_hand_over(void **state)
{
	struct il_lab_result res;

	run_text("{ \"tasks\": { \"a\": { \"instance\": 2, \"lock\": \"m\", \"run\": 2000, \"unlock\": \"m\" } } }",
		 "cpus=2,background=0", 100 * MS, &res);
	assert_in_range(res.sum.wake_count, 48, 50);
	il_lab_result_free(&res);
}

/* A producer posts a semaphore every 1 ms; the consumer sleeps on it in between. */
static void test_semaphore(void **state)
{
	struct il_lab_result res;

	run_text("{ \"tasks\": { \"prod\": { \"cpus\": [0], \"sem_post\": \"s\", \"sleep\": 1000 },"
		 " \"cons\": { \"cpus\": [1], \"sem_wait\": \"s\", \"run\": 100 } } }", "background=0", 100 * MS, &res);
	/* each loop wakes both: the producer's timer and the consumer's semaphore */
	assert_in_range(res.sum.wake_count, 2 * 98, 2 * 100);
	il_lab_result_free(&res);
}

/* Affinity: threads pinned to CPU 1 leave CPU 0 idle; a phase's cpus move the thread. */
static void test_affinity(void **state)
{
	struct il_lab_result res;

	run_text("{ \"tasks\": { \"t\": { \"instance\": 2, \"cpus\": [1], \"run\": 1000, \"sleep\": 1000 } } }",
		 "cpus=2,background=0", 100 * MS, &res);
	assert_int_equal(res.m.cpu[0].busy_ns, 0);
	assert_true(res.m.cpu[1].busy_ns > 50 * MS);
	il_lab_result_free(&res);

	run_text("{ \"tasks\": { \"t\": { \"phases\": { \"a\": { \"cpus\": [0], \"loop\": 10, \"run\": 1000, \"sleep\": 1000 },"
		 " \"b\": { \"cpus\": [2], \"loop\": 10, \"run\": 1000, \"sleep\": 1000 } } } } }",
		 "cpus=3,background=0", 100 * MS, &res);
	assert_true(res.m.cpu[0].busy_ns > 20 * MS);
	assert_int_equal(res.m.cpu[1].busy_ns, 0);
	assert_true(res.m.cpu[2].busy_ns > 20 * MS);
	il_lab_result_free(&res);

	/* unpinned threads spread: each CPU runs one of the two */
	run_text("{ \"tasks\": { \"t\": { \"instance\": 2, \"run\": 1000, \"sleep\": 1000 } } }",
		 "cpus=2,background=0", 100 * MS, &res);
	assert_true(res.m.cpu[0].busy_ns > 40 * MS && res.m.cpu[1].busy_ns > 40 * MS);
	il_lab_result_free(&res);
}

/* "duration": the use case stops after 1 s; a busy loop leaves the rest of the run idle. */
static void test_duration(void **state)
{
	struct il_lab_result res;

	run_text("{ \"global\": { \"duration\": 1 }, \"tasks\": { \"t\": { \"run\": 1000 } } }",
		 "cpus=1,background=0", 2000 * MS, &res);
	assert_in_range(res.m.cpu[0].busy_ns, 999 * MS, 1001 * MS);
	il_lab_result_free(&res);
}

/* runtime spins in 32 µs chunks; run scales with ns_per_loop against the file's calibration. */
static void test_runtime_chunks_and_calibration(void **state)
{
	struct il_lab_result res;
	u64 per_loop;

	run_text("{ \"tasks\": { \"t\": { \"runtime\": 10, \"sleep\": 1000 } } }", "cpus=1,background=0,switch_ns=1000",
		 100 * MS, &res);
	/* the first loop starts without a wakeup */
	per_loop = res.m.cpu[0].busy_ns / (res.sum.wake_count + 1);
	assert_in_range(per_loop, 33000 - 100, 33000 + 100);
	il_lab_result_free(&res);

	run_text("{ \"global\": { \"calibration\": 100 }, \"tasks\": { \"t\": { \"run\": 1000, \"sleep\": 1000 } } }",
		 "cpus=1,background=0,switch_ns=1000,ns_per_loop=200", 1000 * MS, &res);
	per_loop = res.m.cpu[0].busy_ns / (res.sum.wake_count + 1);
	assert_in_range(per_loop, 2001000 - 20000, 2001000 + 20000); /* unscaled: 1001000 */
	il_lab_result_free(&res);
}

/*
 * block_ns (6. of rtapp.c's DOC): every sleep costs that much work on the thread's CPU after
 * it, so a loop of runtime 10 (one 32 us chunk), a 1 us switch and a sleep is busy 38 us with
 * block_ns=5000, 33 us without.
 */
static void test_block_cost(void **state)
{
	struct il_lab_result res;
	u64 per_loop;

	(void)state;
	run_text("{ \"tasks\": { \"t\": { \"runtime\": 10, \"sleep\": 1000 } } }",
		 "cpus=1,background=0,switch_ns=1000,block_ns=5000", 100 * MS, &res);
	per_loop = res.m.cpu[0].busy_ns / (res.sum.wake_count + 1);
	assert_in_range(per_loop, 38000 - 100, 38000 + 100);
	il_lab_result_free(&res);
}

/* A phase of events that take no time still advances time (the loop guard). */
static void test_zero_time_loop_advances(void **state)
{
	struct il_lab_result res;

	run_text("{ \"tasks\": { \"t\": { \"resume\": \"nobody\" } } }", "cpus=1,background=0", 10 * MS, &res);
	assert_in_range(res.m.cpu[0].busy_ns, 9 * MS, 10 * MS);
	il_lab_result_free(&res);
}

/*
 * The 2-CPU barrier ring is the built-in pingpong with a fixed stop: each stop costs
 * switch_ns (pingpong's 900 ns overhead_ns, with overhead_sigma=0) plus the wakeup, so a trip
 * is 2 * wu_lat_us and the idle periods match.
 */
static void test_ring_matches_pingpong(void **state)
{
	static const char ring[] =
		"{ \"tasks\": { \"ring0\": { \"cpus\": [0], \"barrier0\": \"tok1\", \"barrier1\": \"tok0\" },"
		" \"ring1\": { \"cpus\": [1], \"barrier0\": \"tok1\", \"barrier1\": \"tok0\" } } }";
	struct il_lab_result pp, rt;

	tl_lab_run("haltpoll-vm", "menu", "pingpong:overhead_sigma=0", 1, 300 * MS, &pp);
	run_text(ring, "", 300 * MS, &rt);
	assert_int_equal(rt.ncpus, 2);
	assert_in_range(rt.sum.idles, pp.sum.idles - pp.sum.idles / 1000, pp.sum.idles + pp.sum.idles / 1000);
	assert_true(rt.sum.idles > 15000); /* a trip is two wakes out of HLT, 10-20 us each */
	assert_true(2 * rt.score > pp.score * 0.999 && 2 * rt.score < pp.score * 1.001);
	for (int s = 0; s < pp.nstates; s++)
		assert_in_range(rt.sum.usage[s], pp.sum.usage[s] - pp.sum.usage[s] / 100 - 5,
				pp.sum.usage[s] + pp.sum.usage[s] / 100 + 5);
	il_lab_result_free(&pp);
	il_lab_result_free(&rt);
}

static void test_same_seed_same_run(void **state)
{
	static const char text[] = "{ \"tasks\": { \"w\": { \"instance\": 20, \"run\": 50, \"sleep\": 700 } } }";
	struct il_lab_result a, b;

	run_text(text, "cpus=4", 200 * MS, &a);
	run_text(text, "cpus=4", 200 * MS, &b);
	assert_int_equal(a.sum.idles, b.sum.idles);
	assert_int_equal(a.sum.busy_ns, b.sum.busy_ns);
	assert_true(a.score == b.score);
	il_lab_result_free(&a);
	il_lab_result_free(&b);
}

/* -s rtapp:FILE[,k=v]: the operand, its checks and what the CPU count becomes. */
static void test_spec_operand(void **state)
{
	const struct il_scenario *scn;
	struct il_scn_args args;
	struct il_scn_common common;
	struct il_error err;
	const char *path = tmp_json("{ \"tasks\": { \"t\": {\n \"cpus\": [0, 5], \"run\": 1 } } }");
	char spec[256], buf[600];

	snprintf(spec, sizeof(spec), "rtapp:%s,switch_ns=500,tick_hz=100", path);
	assert_int_equal(il_scn_parse(spec, &scn, &args, &common, &err), 0);
	assert_string_equal(scn->name, "rtapp");
	assert_string_equal(args.operand, path);
	assert_int_equal(args.v[il_scn_param_index(scn, "switch_ns")], 500);
	assert_int_equal(common.hz, 100);
	assert_int_equal(common.cpus, 0);
	assert_int_equal(common.min_cpus, 6); /* the machine needs CPU 5 */
	assert_non_null(strstr(common.min_cpus_where, "tasks.t.cpus[1]"));
	{
		struct il_platform plat;

		/* 2 CPUs: refused, naming the file, the thread and the CPU; cpus=6 allowed */
		assert_int_equal(il_platform_load("haltpoll-vm", &plat, &err), 0);
		assert_int_equal(il_lab_check_cpus(scn, &common, &plat, &err), -1);
		assert_non_null(strstr(err.msg, path));
		assert_non_null(strstr(err.msg, "tasks.t.cpus[1]: CPU 5 is beyond the 2 CPUs"));
		assert_non_null(strstr(err.msg, "give cpus=6"));
		common.cpus = 6;
		assert_int_equal(il_lab_check_cpus(scn, &common, &plat, &err), 0);
		common.cpus = 0;
	}
	il_scn_format_args(scn, &args, buf, sizeof(buf));
	assert_int_equal(strncmp(buf, path, strlen(path)), 0);
	assert_non_null(strstr(buf, ",switch_ns=500"));
	scn->label(&args, buf, sizeof(buf));
	assert_int_equal(strncmp(buf, "idlelab-rtapp-", 14), 0);
	assert_null(strstr(buf, ".json"));

	snprintf(spec, sizeof(spec), "rtapp:%s,cpus=4", path);
	assert_int_equal(il_scn_parse(spec, &scn, &args, &common, &err), -1);
	assert_non_null(strstr(err.msg, ":2:"));
	assert_non_null(strstr(err.msg, "tasks.t.cpus[1]"));
	assert_non_null(strstr(err.msg, "cpus=4"));
	unlink(path);

	assert_int_equal(il_scn_parse("rtapp", &scn, &args, &common, &err), -1);
	assert_non_null(strstr(err.msg, "no FILE.json given"));
	assert_int_equal(il_scn_parse("rtapp:,cpus=2", &scn, &args, &common, &err), -1);
	assert_int_equal(il_scn_parse("rtapp:/nonexistent.json", &scn, &args, &common, &err), -1);
	assert_non_null(strstr(err.msg, "cannot open"));
	path = tmp_json("{ \"tasks\": { \"t\": { \"run\": 1 } } }");
	snprintf(spec, sizeof(spec), "rtapp:%s,bogus=1", path);
	assert_int_equal(il_scn_parse(spec, &scn, &args, &common, &err), -1);
	assert_non_null(strstr(err.msg, "unknown parameter"));
	unlink(path);
}

/* Built without jansson, the reader says what is missing. */
static void test_without_jansson(void **state)
{
	struct il_rtapp *rt;
	struct il_error err;

	assert_int_equal(il_rtapp_parse("{}", 2, "t.json", &rt, &err), -1);
	assert_null(rt);
	assert_non_null(strstr(err.msg, "t.json: rt-app files need jansson"));
}

int main(void)
{
	const struct CMUnitTest no_jansson[] = { cmocka_unit_test(test_without_jansson) };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_event_in_file_order),
		cmocka_unit_test(test_loops_phases_instances),
		cmocka_unit_test(test_timers_and_suspend_names),
		cmocka_unit_test(test_global_and_notes),
		cmocka_unit_test(test_comments_and_trailing_commas),
		cmocka_unit_test(test_errors_with_positions),
		cmocka_unit_test(test_load_file),
		cmocka_unit_test(test_timer_and_sleep_periods),
		cmocka_unit_test(test_relative_and_absolute_timers),
		cmocka_unit_test(test_barrier_users),
		cmocka_unit_test(test_resume_is_lost_without_a_waiter),
		cmocka_unit_test(test_mutex_hand_over),
		cmocka_unit_test(test_semaphore),
		cmocka_unit_test(test_affinity),
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_runtime_chunks_and_calibration),
		cmocka_unit_test(test_block_cost),
		cmocka_unit_test(test_zero_time_loop_advances),
		cmocka_unit_test(test_ring_matches_pingpong),
		cmocka_unit_test(test_start_phase),
		cmocka_unit_test(test_same_seed_same_run),
		cmocka_unit_test(test_spec_operand),
	};

#ifdef HAVE_JANSSON
	(void)no_jansson;
	return cmocka_run_group_tests(tests, NULL, NULL);
#else
	(void)tests;
	return cmocka_run_group_tests(no_jansson, NULL, NULL);
#endif
}
