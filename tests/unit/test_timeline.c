// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tests of lib/timeline: the Chrome trace-event writer (slices, busy gaps, instants, power
 * counters, limit, window, escaping, determinism) and its producers (the simulator's
 * observer against the run's metrics, replay's period hook).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#ifdef HAVE_JANSSON
#include <jansson.h>
#endif

#include "gov/governors.h"
#include "platform/platform.h"
#include "replay/replay.h"
#include "sim/sim.h"
#include "testlab.h"
#include "timeline/timeline.h"

/* Two states: C1 (200 mW) and C6 (50 mW); a busy CPU draws 1 W. */
static void two_states(struct il_driver *drv, struct il_power *pw)
{
	memset(drv, 0, sizeof(*drv));
	memset(pw, 0, sizeof(*pw));
	drv->state_count = 2;
	strcpy(drv->states[0].name, "C1");
	strcpy(drv->states[1].name, "C6");
	drv->states[0].power_uw = 200000;
	drv->states[1].power_uw = 50000;
	pw->active_uw = 1000000;
	pw->known = true;
}

/* Write @tl into a malloc'ed string. */
static char *written(struct il_timeline *tl)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(il_timeline_write(tl, f), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static struct il_tl_idle period(unsigned int cpu, int state, u64 start, u64 end)
{
	struct il_tl_idle p = {
		.cpu = cpu, .state = state, .start_ns = start, .end_ns = end, .wake_ns = end,
		.stop_tick = true,
	};

	return p;
}

/* One CPU: busy 0-100, C6 100-300 woken by a timer and too deep, busy, C1 500-900. */
static struct il_timeline *small_timeline(const struct il_timeline_opts *opts)
{
	struct il_timeline *tl = il_timeline_new(opts);
	struct il_driver drv;
	struct il_power pw;
	struct il_tl_idle p;

	two_states(&drv, &pw);
	assert_non_null(tl);
	assert_int_equal(il_timeline_process(tl, "menu \"test\"", &drv, &pw, true), 1);
	il_timeline_tick_stop(tl, 1, 0, 100);
	p = period(0, 1, 100, 300);
	p.wake_ns = 290;
	p.cause = "timer";
	p.miss = IL_MISS_ABOVE;
	il_timeline_idle(tl, 1, &p);
	p = period(0, 0, 500, 900);
	p.stop_tick = false;
	p.tick_retained = true;
	p.miss = IL_MISS_BELOW;
	il_timeline_idle(tl, 1, &p);
	il_timeline_busy_until(tl, 1, 0, 1000);
	return tl;
}

static const struct il_timeline_opts no_limit = { 0 };

/* The exact text of the events: ts and dur in µs with ns digits, counters in mW. */
static void test_events_text(void **state)
{
	struct il_timeline *tl = small_timeline(&no_limit);
	char *out = written(tl);

	assert_non_null(strstr(out, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"tid\":100000,"
				    "\"ts\":0.000,\"args\":{\"name\":\"menu \\\"test\\\"\"}}"));
	assert_non_null(strstr(out, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":100000,"
				    "\"ts\":0.000,\"args\":{\"name\":\"CPU 0\"}}"));
	assert_non_null(strstr(out, "{\"ph\":\"X\",\"cat\":\"busy\",\"name\":\"busy\",\"pid\":1,"
				    "\"tid\":100000,\"ts\":0.000,\"dur\":0.100}"));
	assert_non_null(strstr(out, "{\"ph\":\"X\",\"cat\":\"idle\",\"name\":\"C6\",\"pid\":1,\"tid\":100000,"
				    "\"ts\":0.100,\"dur\":0.200,\"args\":{\"state\":1,\"miss\":\"above\","
				    "\"stop_tick\":true,\"tick_retained\":false,\"wake\":\"timer\"}}"));
	assert_non_null(strstr(out, "{\"ph\":\"i\",\"cat\":\"wakeup\",\"name\":\"wakeup\",\"pid\":1,"
				    "\"tid\":100000,\"ts\":0.290,\"s\":\"t\",\"args\":{\"cause\":\"timer\"}}"));
	assert_non_null(strstr(out, "\"name\":\"miss above\",\"pid\":1,\"tid\":100000,\"ts\":0.300,"));
	assert_non_null(strstr(out, "\"name\":\"miss below\",\"pid\":1,\"tid\":100000,\"ts\":0.900,"));
	assert_non_null(strstr(out, "\"name\":\"tick stop\",\"pid\":1,\"tid\":100000,\"ts\":0.100,"));
	assert_non_null(strstr(out, "\"name\":\"tick retained\",\"pid\":1,\"tid\":100000,\"ts\":0.500,"));
	assert_non_null(strstr(out, "{\"ph\":\"C\",\"cat\":\"power\",\"name\":\"CPU 0 power\",\"pid\":1,"
				    "\"tid\":100000,\"ts\":0.100,\"args\":{\"mW\":50.000}}"));
	assert_non_null(strstr(out, "\"name\":\"total power\",\"pid\":1,\"tid\":100000,\"ts\":0.500,"
				    "\"args\":{\"mW\":200.000}}"));
	assert_non_null(strstr(out, "\"displayTimeUnit\":\"ns\""));
	assert_non_null(strstr(out, "\"truncated\":false"));
	/* The last busy slice: 900..1000 ns, and nothing after the end. */
	assert_non_null(strstr(out, "\"ts\":0.900,\"dur\":0.100}"));
	free(out);
	il_timeline_free(tl);
}

static void test_deterministic(void **state)
{
	struct il_timeline *a = small_timeline(&no_limit), *b = small_timeline(&no_limit);
	char *x = written(a), *y = written(b);

	assert_string_equal(x, y);
	free(x);
	free(y);
	il_timeline_free(a);
	il_timeline_free(b);
}

#ifdef HAVE_JANSSON
static json_t *parsed(struct il_timeline *tl)
{
	char *out = written(tl);
	json_error_t err;
	json_t *doc = json_loads(out, 0, &err);

	if (!doc)
		fail_msg("not JSON: %s at line %d: %s", err.text, err.line, out);
	free(out);
	return doc;
}

static u64 ns_of(json_t *v)
{
	return (u64)(json_number_value(v) * 1000.0 + 0.5);
}

static const char *str_of(json_t *e, const char *key)
{
	return json_string_value(json_object_get(e, key));
}

/* Counts of the events of @doc: X slices, instants by name, counters. */
struct counts {
	int x, busy, idle, open, wakeups, misses, tick_stops, retains, counters, global;
	u64 max_ts;
};

static struct counts count(json_t *doc)
{
	struct counts c = { 0 };
	json_t *ev = json_object_get(doc, "traceEvents"), *e;
	size_t i;
	u64 last = 0;

	json_array_foreach(ev, i, e) {
		const char *ph = str_of(e, "ph"), *name = str_of(e, "name");
		u64 ts = ns_of(json_object_get(e, "ts"));

		assert_non_null(json_object_get(e, "pid"));
		assert_non_null(json_object_get(e, "tid"));
		assert_true(ts >= last); /* sorted by time */
		last = ts;
		if (ts > c.max_ts)
			c.max_ts = ts;
		if (!strcmp(ph, "X")) {
			c.x++;
			if (!strcmp(name, "busy"))
				c.busy++;
			else if (json_object_get(json_object_get(e, "args"), "open"))
				c.open++;
			else
				c.idle++;
		} else if (!strcmp(ph, "C")) {
			c.counters++;
		} else if (!strcmp(ph, "i")) {
			c.global += !strcmp(str_of(e, "s"), "g");
			c.wakeups += !strcmp(name, "wakeup");
			c.misses += !strcmp(str_of(e, "cat"), "miss");
			c.tick_stops += !strcmp(name, "tick stop");
			c.retains += !strcmp(name, "tick retained");
		}
	}
	return c;
}

static void test_structure(void **state)
{
	struct il_timeline *tl = small_timeline(&no_limit);
	json_t *doc = parsed(tl);
	struct counts c = count(doc);

	assert_string_equal(str_of(doc, "displayTimeUnit"), "ns");
	assert_int_equal(c.idle, 2);
	assert_int_equal(c.busy, 3);
	assert_int_equal(c.wakeups, 1);
	assert_int_equal(c.misses, 2);
	assert_int_equal(c.tick_stops, 1);
	assert_int_equal(c.retains, 1);
	/* CPU power changes 5 times (busy, C6, busy, C1, busy), the total with it. */
	assert_int_equal(c.counters, 10);
	assert_string_equal(str_of(json_object_get(json_array_get(json_object_get(doc, "traceEvents"), 0),
						   "args"), "name"), "menu \"test\"");
	json_decref(doc);
	il_timeline_free(tl);
}

/* Two CPUs, each with periods of 1 µs every 2 µs: the limit keeps a complete prefix. */
static void test_limit(void **state)
{
	struct il_timeline_opts opts = { .limit = 20 };
	struct il_timeline *tl = il_timeline_new(&opts);
	struct il_driver drv;
	struct il_power pw;
	json_t *doc, *other;
	struct counts c;
	u64 cutoff;

	two_states(&drv, &pw);
	assert_int_equal(il_timeline_process(tl, "p", &drv, &pw, true), 1);
	for (u64 t = 1000; t < 100000; t += 2000) {
		for (unsigned int cpu = 0; cpu < 2; cpu++) {
			struct il_tl_idle p = period(cpu, 1, t + cpu * 500, t + cpu * 500 + 1000);

			il_timeline_idle(tl, 1, &p);
		}
	}
	assert_true(il_timeline_truncated(tl, &cutoff));
	/*
	 * Slices weigh 3: the 7th (CPU 1's busy 2500-3500) reaches 20, when the latest time
	 * reported is CPU 0's period end at 4000.
	 */
	assert_int_equal(cutoff, 4000);
	doc = parsed(tl);
	c = count(doc);
	assert_int_equal(c.global, 1);
	assert_true(c.max_ts <= cutoff);
	/*
	 * Both tracks complete up to 4000 and no further: CPU 0 busy 0-1000, idle 1000-2000,
	 * busy, idle 3000-4000, busy 4000-5000; CPU 1 busy 0-1500, idle 1500-2500, busy,
	 * idle 3500-4500 (begun before 4000). CPU 1's busy from 4500 on is left out.
	 */
	assert_int_equal(c.idle, 4);
	assert_int_equal(c.busy, 5);
	other = json_object_get(doc, "otherData");
	assert_true(json_is_true(json_object_get(other, "truncated")));
	assert_int_equal(ns_of(json_object_get(other, "complete_until_us")), 4000);
	json_decref(doc);
	il_timeline_free(tl);
}

static void test_window(void **state)
{
	struct il_timeline_opts opts = { .from_ns = 250, .to_ns = 600 };
	struct il_timeline *tl = small_timeline(&opts);
	json_t *doc = parsed(tl);
	struct counts c = count(doc);

	/* C6 100-300 overlaps the window, busy 300-500, C1 500-900 too; busy 0-100 and 900- not. */
	assert_int_equal(c.idle, 2);
	assert_int_equal(c.busy, 1);
	/* Instants inside [250, 600): the wakeup at 290, the miss at 300, the retain at 500. */
	assert_int_equal(c.wakeups, 1);
	assert_int_equal(c.misses, 1);
	assert_int_equal(c.retains, 1);
	assert_int_equal(c.tick_stops, 0);
	json_decref(doc);
	il_timeline_free(tl);
}

static void test_escaping(void **state)
{
	struct il_timeline *tl = il_timeline_new(&no_limit);
	struct il_driver drv;
	json_t *doc;

	two_states(&drv, &(struct il_power){ 0 });
	assert_int_equal(il_timeline_process(tl, "a\"b\\c\nd\x01 \xff\xc3\xa9", &drv, NULL, false), 1);
	assert_int_equal(il_timeline_meta(tl, "trace", "/tmp/x\ty"), 0);
	doc = parsed(tl);
	assert_string_equal(str_of(json_object_get(json_array_get(json_object_get(doc, "traceEvents"), 0),
						   "args"), "name"), "a\"b\\c\nd\x01 ?\xc3\xa9");
	assert_string_equal(str_of(json_object_get(doc, "otherData"), "trace"), "/tmp/x\ty");
	json_decref(doc);
	il_timeline_free(tl);
}

/* The simulator's observer: the file's counts are the run's metrics. */
static void test_sim_counts(void **state)
{
	struct il_timeline *tl = il_timeline_new(&no_limit);
	struct il_platform plat;
	struct il_error err;
	struct il_lab_spec spec = { 0 };
	struct il_lab_result res;
	struct il_sim_observer obs;
	struct il_tl_sim s;
	struct il_power pw;
	u64 wakeups = 0, stops = 0, retains = 0, polls = 0;
	struct counts c;
	json_t *doc;

	assert_int_equal(il_platform_load("haltpoll-vm", &plat, &err), 0);
	il_lab_power(&plat, 0, &pw);
	spec.plat = &plat;
	spec.preset = il_preset_find("menu");
	spec.scn = il_scenario_find("wakeup");
	assert_non_null(spec.preset);
	assert_non_null(spec.scn);
	il_scn_defaults(spec.scn, &spec.args);
	spec.common = (struct il_scn_common){ .qos_us = -1, .ipi_ns = -1, .rcu_pct = -1 };
	spec.duration_ns = 20000000;
	spec.seed = 3;
	assert_int_equal(il_timeline_process(tl, "run", &plat.drv, &pw, true), 1);
	il_tl_sim_init(&s, tl, 1);
	il_tl_sim_observer(&s, &obs);
	spec.observer = &obs;
	assert_int_equal(il_lab_run(&spec, &res), 0);
	assert_int_equal(il_tl_sim_finish(&s, res.ncpus, spec.duration_ns), 0);
	for (unsigned int i = 0; i < res.ncpus; i++) {
		wakeups += res.m.cpu[i].wakeups;
		polls += res.m.cpu[i].poll_limits;
		stops += res.m.cpu[i].tick_stops;
		retains += res.m.cpu[i].ticks_retained;
	}
	doc = parsed(tl);
	c = count(doc);
	assert_true(res.sum.idles > 100);
	assert_int_equal(c.idle, res.sum.idles);
	assert_int_equal(c.misses, res.sum.idle_misses);
	assert_int_equal(c.wakeups, wakeups);
	assert_int_equal(c.tick_stops, stops);
	assert_int_equal(c.retains, retains);
	assert_true(c.open <= (int)res.ncpus);
	assert_true(polls > 0 || c.wakeups > 0);
	json_decref(doc);
	il_lab_result_free(&res);
	il_timeline_free(tl);
}
#else
static void test_structure(void **state) { skip(); }
static void test_limit(void **state) { skip(); }
static void test_window(void **state) { skip(); }
static void test_escaping(void **state) { skip(); }
static void test_sim_counts(void **state) { skip(); }
#endif

/* Replay: the recorded process shows the traced state, each governor its pick and verdict. */
static void test_replay_hook(void **state)
{
	struct il_timeline *tl = il_timeline_new(&no_limit);
	struct il_platform plat;
	struct il_error err;
	struct il_tl_replay r;
	static const int pids[2] = { 2, 3 };
	struct il_replay_inputs in = {
		.cpu = 1, .enter_ts = 5000000, .exit_ts = 5001500, .residency_ns = 1500,
		.recorded_state = 1, .recorded_stop = false, .got_tick = true,
	};
	int picks[2] = { 0, 1 };
	bool stops[2] = { false, true };
	char *out;

	assert_int_equal(il_platform_load("haltpoll-vm", &plat, &err), 0);
	assert_int_equal(il_timeline_process(tl, "recorded", &plat.drv, NULL, false), 1);
	assert_int_equal(il_timeline_process(tl, "a", &plat.drv, NULL, false), 2);
	assert_int_equal(il_timeline_process(tl, "b", &plat.drv, NULL, false), 3);
	il_tl_replay_init(&r, tl, &plat, 2, 1, pids);
	il_tl_replay_period(&r, &in, picks, stops);
	in.enter_ts = 6000000;
	in.exit_ts = 6000100;
	in.residency_ns = 100;
	il_tl_replay_period(&r, &in, picks, stops);
	out = written(tl);
	/* 1.5 µs in the deepest state is no miss; POLL for it is below (the 1 µs state fitted). */
	assert_non_null(strstr(out, "\"name\":\"haltpoll idle\",\"pid\":1,\"tid\":100001,\"ts\":5000.000,"
				    "\"dur\":1.500,\"args\":{\"state\":1,\"miss\":\"none\",\"stop_tick\":false,"
				    "\"tick_retained\":true,\"wake\":\"tick\"}}"));
	assert_non_null(strstr(out, "\"name\":\"POLL\",\"pid\":2,\"tid\":200001,\"ts\":5000.000,"
				    "\"dur\":1.500,\"args\":{\"state\":0,\"miss\":\"below\""));
	assert_non_null(strstr(out, "\"name\":\"miss below\",\"pid\":2,\"tid\":200001,\"ts\":5001.500,"));
	/* 100 ns in the 1 µs state is above for the trace and for b. */
	assert_non_null(strstr(out, "\"name\":\"miss above\",\"pid\":1,\"tid\":100001,\"ts\":6000.100,"));
	assert_non_null(strstr(out, "\"name\":\"miss above\",\"pid\":3,\"tid\":300001,\"ts\":6000.100,"));
	assert_non_null(strstr(out, "\"name\":\"tick stop\",\"pid\":3,\"tid\":300001,\"ts\":5000.000,"));
	/* The gap between the two periods is busy; nothing before the first one. */
	assert_non_null(strstr(out, "\"name\":\"busy\",\"pid\":2,\"tid\":200001,\"ts\":5001.500,"
				    "\"dur\":998.500}"));
	assert_null(strstr(out, "\"name\":\"busy\",\"pid\":2,\"tid\":200001,\"ts\":0.000"));
	/* No power model: no counters. */
	assert_null(strstr(out, "\"ph\":\"C\""));
	free(out);
	il_timeline_free(tl);
}

static void test_bad_input(void **state)
{
	struct il_timeline *tl = il_timeline_new(&no_limit);
	struct il_driver drv;
	struct il_power pw;
	struct il_tl_idle p = period(0, 5, 0, 10); /* no state 5 */
	FILE *f;

	two_states(&drv, &pw);
	drv.state_count = 0;
	assert_int_equal(il_timeline_process(tl, "x", &drv, &pw, true), -1);
	assert_int_equal(errno, EINVAL);
	drv.state_count = 2;
	assert_int_equal(il_timeline_process(tl, "x", &drv, &pw, true), 1);
	il_timeline_idle(tl, 1, &p);
	f = tmpfile();
	assert_non_null(f);
	assert_int_equal(il_timeline_write(tl, f), -1);
	assert_int_equal(errno, EINVAL);
	fclose(f);
	il_timeline_free(tl);
}

/* A full disk: the write fails with the error. */
static void test_write_error(void **state)
{
	struct il_timeline *tl = small_timeline(&no_limit);
	FILE *f = fopen("/dev/full", "w");

	if (!f) {
		il_timeline_free(tl);
		skip();
	}
	assert_int_equal(il_timeline_write(tl, f), -1);
	assert_int_equal(errno, ENOSPC);
	fclose(f);
	il_timeline_free(tl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_events_text),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_structure),
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_sim_counts),
		cmocka_unit_test(test_replay_hook),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_write_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
