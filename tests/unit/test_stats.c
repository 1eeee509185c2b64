// SPDX-License-Identifier: GPL-2.0-only
/*
 * Trace statistics: residency accounting per state, the histogram, recorded misses against
 * above/below recomputed by the kernel's rules, PowerNightmares, what ended each period
 * (first interrupt for a halting state, the wakeup for a polling one, the hrtimer behind a
 * local timer), tick stops, and every irregularity (window starting inside idle, lost exit,
 * period open at the end, orphan miss, state beyond the table, CPU without idle events).
 * Finally the statistics of a real excerpt read through the trace reader.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stats/stats.h"
#include "testlab.h"

#define US 1000ULL

/* POLL 0/0, C1 2/2 µs, C6 100/600 µs. */
static struct il_driver test_drv(void)
{
	struct il_driver drv;

	memset(&drv, 0, sizeof(drv));
	drv.state_count = 3;
	strcpy(drv.states[0].name, "POLL");
	drv.states[0].flags = CPUIDLE_FLAG_POLLING;
	strcpy(drv.states[1].name, "C1");
	drv.states[1].exit_latency = 2;
	drv.states[1].target_residency = 2;
	strcpy(drv.states[2].name, "C6");
	drv.states[2].exit_latency = 100;
	drv.states[2].target_residency = 600;
	il_driver_init(&drv);
	return drv;
}

static void idle(struct il_stats *s, unsigned int cpu, u64 ts_us, u32 state)
{
	struct il_trace_event ev = tl_event(IL_EV_CPU_IDLE, cpu, ts_us);

	ev.state = state;
	ev.cpu_id = cpu;
	il_stats_event(s, &ev);
}

static void period(struct il_stats *s, unsigned int cpu, u64 from_us, u64 to_us, u32 state)
{
	idle(s, cpu, from_us, state);
	idle(s, cpu, to_us, IL_PWR_EVENT_EXIT);
}

static void miss(struct il_stats *s, unsigned int cpu, u64 ts_us, u32 state, bool below)
{
	struct il_trace_event ev = tl_event(IL_EV_CPU_IDLE_MISS, cpu, ts_us);

	ev.state = state;
	ev.below = below;
	il_stats_event(s, &ev);
}

static void irq(struct il_stats *s, unsigned int cpu, u64 ts_us, int nr, const char *name)
{
	struct il_trace_event ev = tl_event(IL_EV_IRQ, cpu, ts_us);

	ev.irq = nr;
	strcpy(ev.label, name);
	il_stats_event(s, &ev);
}

static void vector(struct il_stats *s, unsigned int cpu, u64 ts_us, const char *name)
{
	struct il_trace_event ev = tl_event(IL_EV_IRQ_VECTOR, cpu, ts_us);

	strcpy(ev.label, name);
	il_stats_event(s, &ev);
}

static void expire(struct il_stats *s, unsigned int cpu, u64 ts_us, const char *fn)
{
	struct il_trace_event ev = tl_event(IL_EV_HRTIMER_EXPIRE, cpu, ts_us);

	strcpy(ev.label, fn);
	il_stats_event(s, &ev);
}

static void wakeup(struct il_stats *s, unsigned int cpu, u64 ts_us, int target)
{
	struct il_trace_event ev = tl_event(IL_EV_SCHED_WAKEUP, cpu, ts_us);

	ev.target_cpu = target;
	il_stats_event(s, &ev);
}

static struct il_stats *new_stats(const struct il_driver *drv)
{
	struct il_stats_cfg cfg;
	struct il_stats *s;

	il_stats_default_cfg(&cfg);
	cfg.drv = drv;
	s = il_stats_new(&cfg);
	assert_non_null(s);
	return s;
}

static u64 wake_count(const struct il_trace_cpu_stats *c, enum il_wake_kind kind, const char *label)
{
	for (int i = 0; i < c->nwakes; i++)
		if (c->wakes[i].kind == kind && !strcmp(c->wakes[i].label, label))
			return c->wakes[i].count;
	return 0;
}

static void test_residency_and_histogram(void **state)
{
	struct il_driver drv = test_drv();
	struct il_stats *s = new_stats(&drv);
	const struct il_trace_cpu_stats *c;

	period(s, 0, 100, 103, 1);   /* 3 µs  */
	period(s, 0, 200, 210, 1);   /* 10 µs */
	period(s, 0, 300, 1300, 2);  /* 1000 µs */
	period(s, 0, 2000, 2000, 1); /* 0 µs: bucket [0,1) */
	il_stats_finish(s);
	c = il_stats_cpu(s, 0);
	assert_int_equal(c->periods, 4);
	assert_int_equal(c->nstates, 3);
	assert_int_equal(c->st[1].entries, 3);
	assert_int_equal(c->st[1].min_ns, 0);
	assert_int_equal(c->st[1].max_ns, 10 * US);
	assert_int_equal(c->st[1].total_ns, 13 * US);
	assert_int_equal(c->st[2].entries, 1);
	assert_int_equal(c->idle_ns, 1013 * US);
	assert_int_equal(c->st[1].hist[0], 1); /* 0 µs */
	assert_int_equal(c->st[1].hist[2], 1); /* 3 µs in [2,4) */
	assert_int_equal(c->st[1].hist[4], 1); /* 10 µs in [8,16) */
	assert_int_equal(c->st[2].hist[10], 1); /* 1000 µs in [512,1024) */
	assert_int_equal(il_stats_hist_lower_us(0), 0);
	assert_int_equal(il_stats_hist_lower_us(4), 8);
	il_stats_free(s);
}

static void test_misses_recorded_and_recomputed(void **state)
{
	struct il_driver drv = test_drv();
	struct il_stats *s = new_stats(&drv);
	const struct il_trace_cpu_stats *c;

	period(s, 0, 100, 101, 1);    /* 1 µs < C1's 2 µs and POLL is enabled: above */
	miss(s, 0, 101, 1, false);
	period(s, 0, 200, 900, 1);    /* 700 - 2 >= 600: C6 would have fitted: below */
	miss(s, 0, 900, 1, true);
	period(s, 0, 1000, 1400, 2);  /* 400 < 600: above */
	period(s, 0, 2000, 2005, 0);  /* 5 µs in POLL >= C1's 2 µs: below */
	miss(s, 0, 3000, 2, true);    /* no period of state 2 just ended */
	il_stats_finish(s);
	c = il_stats_cpu(s, 0);
	assert_int_equal(c->st[1].above, 1);
	assert_int_equal(c->st[1].below, 1);
	assert_int_equal(c->st[1].miss_above, 1);
	assert_int_equal(c->st[1].miss_below, 1);
	assert_int_equal(c->st[2].above, 1);
	assert_int_equal(c->st[2].miss_below, 1); /* recorded as is */
	assert_int_equal(c->st[0].below, 1);
	assert_int_equal(c->misses_without_period, 1);
	il_stats_free(s);

	/* Without a state table nothing is recomputed. */
	s = new_stats(NULL);
	period(s, 0, 100, 101, 1);
	c = il_stats_cpu(s, 0);
	assert_int_equal(c->st[1].above + c->st[1].below, 0);
	il_stats_free(s);
}

static void test_nightmares(void **state)
{
	struct il_driver drv = test_drv();
	struct il_stats *s = new_stats(&drv);
	const struct il_trace_cpu_stats *c;

	period(s, 0, 0, 150, 0);        /* POLL > 100 µs */
	period(s, 0, 200, 250, 0);      /* POLL 50 µs: no */
	period(s, 0, 300, 1400, 1);     /* C1 1100 > 1000 µs */
	period(s, 0, 2000, 12000, 2);   /* C6 is the deepest state: never */
	il_stats_finish(s);
	c = il_stats_cpu(s, 0);
	assert_int_equal(c->st[0].nightmares, 1);
	assert_int_equal(c->st[0].nightmare_ns, 150 * US);
	assert_int_equal(c->st[1].nightmares, 1);
	assert_int_equal(c->st[2].nightmares, 0);
	il_stats_free(s);
}

static void test_wake_sources(void **state)
{
	struct il_driver drv = test_drv();
	struct il_stats *s = new_stats(&drv);
	const struct il_trace_cpu_stats *c;

	/* Halting state: the first interrupt ends it. */
	idle(s, 0, 100, 1);
	irq(s, 0, 110, 36, "virtio1-req.0");
	vector(s, 0, 111, "local_timer");
	idle(s, 0, 120, IL_PWR_EVENT_EXIT);
	/* The local timer named by the hrtimer that expired. */
	idle(s, 0, 200, 1);
	vector(s, 0, 210, "local_timer");
	expire(s, 0, 211, "tick_nohz_handler");
	idle(s, 0, 220, IL_PWR_EVENT_EXIT);
	idle(s, 0, 300, 1);
	vector(s, 0, 310, "local_timer");
	expire(s, 0, 311, "hrtimer_wakeup");
	idle(s, 0, 320, IL_PWR_EVENT_EXIT);
	idle(s, 0, 400, 1);
	vector(s, 0, 410, "call_function_single");
	idle(s, 0, 420, IL_PWR_EVENT_EXIT);
	period(s, 0, 500, 510, 1); /* nothing recorded inside */
	/* Polling: a tick inside does not end it; a wakeup from CPU 1 does. */
	idle(s, 0, 600, 0);
	vector(s, 0, 605, "local_timer");
	expire(s, 0, 606, "tick_nohz_handler");
	wakeup(s, 1, 607, 0);
	idle(s, 0, 610, IL_PWR_EVENT_EXIT);
	/* Polling: a wakeup inside this CPU's interrupt credits that interrupt. */
	idle(s, 0, 700, 0);
	vector(s, 0, 705, "local_timer");
	expire(s, 0, 706, "hrtimer_wakeup");
	wakeup(s, 0, 707, 0);
	idle(s, 0, 710, IL_PWR_EVENT_EXIT);
	/* Polling, no wakeup recorded: none. */
	idle(s, 0, 800, 0);
	vector(s, 0, 805, "local_timer");
	expire(s, 0, 806, "tick_nohz_handler");
	idle(s, 0, 810, IL_PWR_EVENT_EXIT);
	il_stats_finish(s);

	c = il_stats_cpu(s, 0);
	assert_int_equal(wake_count(c, IL_WAKE_IRQ, "virtio1-req.0"), 1);
	assert_int_equal(wake_count(c, IL_WAKE_TICK, ""), 1);
	assert_int_equal(wake_count(c, IL_WAKE_TIMER, "hrtimer_wakeup"), 2);
	assert_int_equal(wake_count(c, IL_WAKE_IPI, "call_function_single"), 1);
	assert_int_equal(wake_count(c, IL_WAKE_NONE, ""), 2);
	assert_int_equal(wake_count(c, IL_WAKE_REMOTE, ""), 1);
	il_stats_free(s);
}

static void test_irregular_input(void **state)
{
	struct il_driver drv = test_drv();
	struct il_stats *s = new_stats(&drv);
	struct il_trace_event ev;
	const struct il_trace_cpu_stats *c;

	idle(s, 0, 50, IL_PWR_EVENT_EXIT);  /* the window starts inside idle */
	idle(s, 0, 100, 1);
	idle(s, 0, 200, 2);                 /* the exit of the first was lost */
	idle(s, 0, 300, IL_PWR_EVENT_EXIT);
	idle(s, 0, 400, 7);                 /* beyond the table */
	idle(s, 0, 500, IL_PWR_EVENT_EXIT); /* so this exit has no enter */
	ev = tl_event(IL_EV_TICK_STOP, 0, 550);
	ev.success = 1;
	il_stats_event(s, &ev);
	ev = tl_event(IL_EV_TICK_STOP, 0, 560);
	strcpy(ev.label, "SCHED");
	il_stats_event(s, &ev);
	il_stats_event(s, &ev);
	idle(s, 0, 600, 1);                 /* still open at the end */
	vector(s, 1, 700, "reschedule");    /* CPU 1: events but no idle ones */
	il_stats_finish(s);

	c = il_stats_cpu(s, 0);
	assert_int_equal(c->periods, 1);
	assert_int_equal(c->st[2].entries, 1);
	assert_int_equal(c->exits_without_enter, 2);
	assert_int_equal(c->enters_while_idle, 1);
	assert_int_equal(c->bad_state, 1);
	assert_int_equal(c->tick_stops, 1);
	assert_int_equal(c->tick_stop_failures, 2);
	assert_int_equal(c->ntick_deps, 1);
	assert_string_equal(c->tick_deps[0].label, "SCHED");
	assert_true(c->open_at_end);
	assert_int_equal(c->open_state, 1);
	assert_int_equal(c->open_since_ns, 600 * US);
	assert_int_equal(il_stats_ncpus(s), 2);
	c = il_stats_cpu(s, 1);
	assert_int_equal(c->events, 1);
	assert_int_equal(c->nstates, 0);
	assert_int_equal(c->periods, 0);
	assert_null(il_stats_cpu(s, 2));
	il_stats_free(s);
}

/* The first 160 lines of the real ladder trace: 5 enters and 4 exits on CPU 0. */
static void test_fixture_excerpt(void **state)
{
	struct il_trace *t = il_trace_open("tests/fixtures/traces/ladder-head.trace", NULL, NULL);
	struct il_stats *s = new_stats(NULL);
	const struct il_trace_cpu_stats *c;
	struct il_trace_event ev;
	char name[64];

	assert_non_null(t);
	while (il_trace_next(t, &ev) == 1)
		il_stats_event(s, &ev);
	il_stats_finish(s);
	il_trace_close(t);
	c = il_stats_cpu(s, 0);
	assert_int_equal(c->periods, 4);
	assert_int_equal(c->st[1].entries, 4);
	/* 591.171147 -> 591.171266 is the first period: 119 µs, the shortest. */
	assert_int_equal(c->st[1].min_ns, 119 * US);
	assert_true(c->open_at_end);
	assert_int_equal(il_stats_cpu(s, 1)->nstates, 0);
	assert_true(c->nwakes > 0);
	assert_string_equal(il_wake_source_name(&c->wakes[0], name, sizeof(name)),
			    "ipi call_function_single");
	il_stats_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_residency_and_histogram),
		cmocka_unit_test(test_misses_recorded_and_recomputed),
		cmocka_unit_test(test_nightmares),
		cmocka_unit_test(test_wake_sources),
		cmocka_unit_test(test_irregular_input),
		cmocka_unit_test(test_fixture_excerpt),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
