// SPDX-License-Identifier: GPL-2.0-only
/*
 * Replay: the governor inputs rebuilt from timer events (delta_next with the tick, sleep
 * length without it, the tick's expiry from before a tick_stop, the tick state through the
 * idle loop, got_tick, the timer wheel once jiffies are tied to the clock, stale and
 * foreign-clock timers), then governors run over the periods: every period replayed once
 * per governor, agreement and the confusion table consistent, the oracle picking the state
 * the residency fits, tunables applied, and the real ladder excerpt replayed by the ladder
 * port with full agreement.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gov/governors.h"
#include "replay/replay.h"
#include "testlab.h"

#define US 1000ULL
#define TICK_US 4000ULL /* haltpoll-vm: HZ 250 */
#define MAX_PERIODS 16

static struct il_platform plat;
static struct il_replay_inputs seen[MAX_PERIODS];
static int seen_picks[MAX_PERIODS][4];
static int nseen;

static void hook(void *ctx, const struct il_replay_inputs *in, const int *picks, const bool *stops)
{
	if (nseen < MAX_PERIODS) {
		seen[nseen] = *in;
		for (int i = 0; i < 4 && i < *(int *)ctx; i++)
			seen_picks[nseen][i] = picks[i];
	}
	nseen++;
}

static struct il_replay *new_replay(const char *const *govs, int ngov, int *ctx)
{
	struct il_replay_cfg cfg = { 0 };
	struct il_error err;
	struct il_replay *r;

	if (il_platform_load("haltpoll-vm", &plat, &err))
		fail_msg("%s", err.msg);
	cfg.plat = &plat;
	cfg.cpu = -1;
	for (int i = 0; i < ngov; i++) {
		cfg.presets[i] = il_preset_find(govs[i]);
		assert_non_null(cfg.presets[i]);
	}
	cfg.ngov = ngov;
	r = il_replay_new(&cfg, &err);
	if (!r)
		fail_msg("%s", err.msg);
	*ctx = ngov;
	nseen = 0;
	il_replay_set_period_hook(r, hook, ctx);
	return r;
}

static void idle(struct il_replay *r, unsigned int cpu, u64 ts_us, u32 state)
{
	struct il_trace_event ev = tl_event(IL_EV_CPU_IDLE, cpu, ts_us);

	ev.state = state;
	il_replay_event(r, &ev);
}

static void hrtimer(struct il_replay *r, enum il_ev type, unsigned int cpu, u64 ts_us, u64 ptr,
		    u64 expires_us, const char *fn)
{
	struct il_trace_event ev = tl_event(type, cpu, ts_us);

	ev.timer = ptr;
	ev.expires = expires_us * US;
	ev.now = ts_us * US;
	strcpy(ev.label, fn);
	il_replay_event(r, &ev);
}

static void simple(struct il_replay *r, enum il_ev type, unsigned int cpu, u64 ts_us, int a, int b)
{
	struct il_trace_event ev = tl_event(type, cpu, ts_us);

	ev.success = a;
	ev.prev_pid = a;
	ev.next_pid = b;
	il_replay_event(r, &ev);
}

#define TICK 0x7ec
#define SLEEPER 0x51ee9

/* ASan builds: a failed huge allocation returns NULL (as malloc does) instead of aborting. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

/* An allocation that fails is an error of il_replay_event(), not a period silently dropped:
 * a CPU number so high that its state cannot be allocated. */
static void test_allocation_failure_is_an_error(void **state)
{
	struct il_trace_event ev = tl_event(IL_EV_CPU_IDLE, 0x7fffffffu, 100);
	const char *const govs[] = { "menu" };
	int ctx;
	struct il_replay *r = new_replay(govs, 1, &ctx);

	ev.state = 1;
	errno = 0;
	assert_int_equal(il_replay_event(r, &ev), -1);
	assert_int_equal(errno, ENOMEM);
	ev = tl_event(IL_EV_HRTIMER_START, 0x7fffffffu, 100);
	ev.timer = 1;
	ev.expires = 200 * US;
	assert_int_equal(il_replay_event(r, &ev), -1);
	assert_int_equal(errno, ENOMEM);
	il_replay_free(r);
	/* A CPU that fits: 0 again. */
	r = new_replay(govs, 1, &ctx);
	ev = tl_event(IL_EV_CPU_IDLE, 1, 100);
	ev.state = 1;
	assert_int_equal(il_replay_event(r, &ev), 0);
	il_replay_free(r);
}

static void test_inputs_from_timers(void **state)
{
	static const char *const govs[] = { "menu-6.18" };
	int ctx;
	struct il_replay *r = new_replay(govs, 1, &ctx);

	hrtimer(r, IL_EV_HRTIMER_START, 0, 100, TICK, 4000, "tick_nohz_handler");
	hrtimer(r, IL_EV_HRTIMER_START, 0, 200, SLEEPER, 9000, "hrtimer_wakeup");
	/* 1: tick running, a sleeper at 9 ms. */
	idle(r, 0, 1000, 1);
	idle(r, 0, 1500, IL_PWR_EVENT_EXIT);
	/* 2: select, then the tick stops and is reprogrammed for the sleeper. */
	simple(r, IL_EV_TICK_STOP, 0, 1600, 1, 0);
	hrtimer(r, IL_EV_HRTIMER_START, 0, 1605, TICK, 9000, "tick_nohz_handler");
	idle(r, 0, 1610, 1);
	hrtimer(r, IL_EV_HRTIMER_CANCEL, 0, 9000, SLEEPER, 0, "");
	hrtimer(r, IL_EV_HRTIMER_EXPIRE, 0, 9000, TICK, 0, "tick_nohz_handler");
	idle(r, 0, 9002, IL_PWR_EVENT_EXIT);
	/* 3: still in the idle loop: the tick stays stopped; no timer left at all. */
	idle(r, 0, 9010, 1);
	idle(r, 0, 9020, IL_PWR_EVENT_EXIT);
	/* 4: the idle task left and came back: the tick runs again. */
	simple(r, IL_EV_SCHED_SWITCH, 0, 9030, 0, 77);
	hrtimer(r, IL_EV_HRTIMER_START, 0, 9031, TICK, 12000, "tick_nohz_handler");
	simple(r, IL_EV_SCHED_SWITCH, 0, 9040, 77, 0);
	idle(r, 0, 9050, 1);
	idle(r, 0, 9060, IL_PWR_EVENT_EXIT);
	il_replay_finish(r);

	assert_int_equal(nseen, 4);
	assert_int_equal(seen[0].delta_next_ns, 3000 * US);
	assert_int_equal(seen[0].sleep_ns, 8000 * US);
	assert_false(seen[0].tick_stopped);
	assert_false(seen[0].recorded_stop);
	assert_int_equal(seen[0].residency_ns, 500 * US);
	assert_false(seen[0].got_tick);

	assert_true(seen[1].recorded_stop);
	assert_false(seen[1].tick_stopped);          /* it still ran at select */
	assert_int_equal(seen[1].delta_next_ns, 2390 * US); /* the tick from before the stop */
	assert_int_equal(seen[1].sleep_ns, 7390 * US);
	assert_true(seen[1].got_tick);

	assert_true(seen[2].tick_stopped);
	assert_false(seen[2].recorded_stop);
	assert_int_equal(seen[2].sleep_ns, KTIME_MAX - (s64)(9010 * US));
	assert_false(seen[2].got_tick);

	assert_false(seen[3].tick_stopped);
	assert_int_equal(seen[3].delta_next_ns, 2950 * US);
	assert_int_equal(il_replay_notes(r)->periods, 4);
	assert_int_equal(il_replay_notes(r)->tick_unknown, 0);
	il_replay_free(r);
}

static void test_inputs_wheel_and_odd_timers(void **state)
{
	static const char *const govs[] = { "oracle" };
	struct il_trace_event ev;
	int ctx;
	struct il_replay *r = new_replay(govs, 1, &ctx);

	/* jiffies 1000 at 100 µs: jiffy J starts at (J - 1000) ticks. */
	ev = tl_event(IL_EV_TIMER_START, 1, 100);
	ev.timer = 0xabc;
	ev.now = 1000;
	ev.expires = 1003; /* 3 ticks = 12 ms */
	ev.target_cpu = 0;
	il_replay_event(r, &ev);
	hrtimer(r, IL_EV_HRTIMER_START, 0, 150, SLEEPER, 50000, "hrtimer_wakeup");
	/* A REALTIME expiry (ns since 1970) is not a CLOCK_MONOTONIC time. */
	hrtimer(r, IL_EV_HRTIMER_START, 0, 160, 0xdead, 1700000000000000ULL, "posix_timer_fn");
	/* Tick never seen: the next boundary (4 ms) is assumed. */
	idle(r, 0, 1000, 1);
	idle(r, 0, 1100, IL_PWR_EVENT_EXIT);
	/* A timer far in the past was never seen to fire: dropped. */
	hrtimer(r, IL_EV_HRTIMER_START, 0, 1200, 0xbeef, 1300, "stale_fn");
	idle(r, 0, 30000, 1);
	idle(r, 0, 30100, IL_PWR_EVENT_EXIT);
	idle(r, 0, 40000, 4); /* beyond the 2-state table */
	idle(r, 0, 40100, IL_PWR_EVENT_EXIT);
	idle(r, 0, 50000, 1); /* open at the end */
	il_replay_finish(r);

	assert_int_equal(nseen, 2);
	assert_int_equal(seen[0].delta_next_ns, 3000 * US);
	assert_int_equal(seen[0].sleep_ns, 11000 * US); /* the wheel timer at 12 ms */
	assert_int_equal(il_replay_notes(r)->foreign_clock_timers, 1);
	assert_int_equal(il_replay_notes(r)->tick_unknown, 3); /* every enter, the open one too */
	assert_int_equal(il_replay_notes(r)->stale_timers, 2); /* the hrtimer and the wheel timer */
	assert_int_equal(il_replay_notes(r)->bad_state, 1);
	assert_int_equal(il_replay_notes(r)->exits_without_enter, 1);
	assert_int_equal(il_replay_notes(r)->open_at_end, 1);
	assert_int_equal(seen[1].sleep_ns, 20000 * US); /* only the sleeper at 50 ms is left */
	il_replay_free(r);
}

static void test_governor_rows(void **state)
{
	static const char *const govs[] = { "oracle", "menu-6.18", "haltpoll-6.13" };
	const struct il_replay_row *row, *trace;
	struct il_trace_event ev;
	int ctx;
	struct il_replay *r = new_replay(govs, 3, &ctx);

	hrtimer(r, IL_EV_HRTIMER_START, 0, 10, TICK, 4000, "tick_nohz_handler");
	for (int i = 0; i < 10; i++) {
		u64 t = 100 + (u64)i * 300;

		idle(r, 0, t, i == 3 ? 0 : 1);
		idle(r, 0, t + (i == 3 ? 5 : 100), IL_PWR_EVENT_EXIT);
		if (i == 3) {
			ev = tl_event(IL_EV_CPU_IDLE_MISS, 0, t + 5);
			ev.below = true;
			il_replay_event(r, &ev);
		}
	}
	il_replay_finish(r);
	assert_int_equal(nseen, 10);
	trace = il_replay_trace_row(r);
	assert_int_equal(trace->idles, 10);
	assert_int_equal(trace->miss_below, 1);
	assert_int_equal(trace->below, 1); /* 5 µs of POLL: the 1 µs HLT would have fitted */
	assert_int_equal(trace->usage[0], 1);
	assert_int_equal(trace->agree, 10);
	for (int g = 0; g < 3; g++) {
		u64 sum = 0;

		row = il_replay_gov_row(r, g);
		assert_int_equal(row->idles, 10);
		for (int a = 0; a < 2; a++)
			for (int b = 0; b < 2; b++)
				sum += row->confusion[a][b];
		assert_int_equal(sum, 10);
		assert_int_equal(row->agree, row->confusion[0][0] + row->confusion[1][1]);
		assert_int_equal(row->usage[0] + row->usage[1], 10);
		assert_int_equal(row->tick_decisions, 10);
	}
	/* Every period lasted >= 1 µs: the oracle always halts, and so never misses. */
	row = il_replay_gov_row(r, 0);
	assert_int_equal(row->usage[1], 10);
	assert_int_equal(row->above + row->below, 0);
	assert_int_equal(row->agree, 9);
	for (int i = 0; i < 10; i++)
		assert_int_equal(seen_picks[i][0], 1);
	assert_null(il_replay_gov_row(r, 3));
	/* The bound saw the same 10 periods; no governor is below its frontier. */
	assert_int_equal(il_replay_bound(r)->periods, 10);
	for (int g = 0; g < 3; g++) {
		double gap;

		assert_int_equal(il_replay_gov_row(r, g)->bound.periods, 10);
		assert_int_equal(il_bound_gap(il_replay_bound(r), &il_replay_gov_row(r, g)->bound, &gap), 0);
		assert_true(gap >= 0);
	}
	il_replay_free(r);
}

/*
 * The open-loop bound by hand. State 0: 1 W, no exit latency, no entry energy; state 1:
 * 0.1 W, 10 µs exit latency, 5000 nJ per entry + exit. A 1 µs period costs 1000 nJ in state 0
 * and 5100 nJ in state 1; a 100 µs period 100000 nJ and 15000 nJ. At lambda = 0 (energy only)
 * the sequence [1 µs, 100 µs] costs 16000 nJ with 10 µs of added latency; at infinite lambda
 * 101000 nJ with none; state 1 is worth its latency on the 100 µs period up to 8500 nJ/µs.
 */
static void bound_driver(struct il_driver *drv)
{
	memset(drv, 0, sizeof(*drv));
	drv->state_count = 2;
	drv->states[0].power_uw = 1000000;
	drv->states[1].power_uw = 100000;
	drv->states[1].exit_latency_ns = 10 * US;
	drv->states[1].target_residency_ns = 20 * US;
	drv->states[1].entry_exit_energy_nj = 5000;
}

static void test_bound_by_hand(void **state)
{
	struct il_bound_gov deep = { 0 }, poll = { 0 }, mixed = { 0 };
	const struct il_bound_point *last;
	struct il_driver drv;
	struct il_bound b;
	double e, gap;

	bound_driver(&drv);
	assert_int_equal(il_bound_energy_nj(&drv, 0, 1 * US), 1000);
	assert_int_equal(il_bound_energy_nj(&drv, 1, 100 * US), 15000);
	assert_int_equal(il_bound_init(&b, &drv, NULL, -1), 0);
	il_bound_add(&b, 1 * US);
	il_bound_add(&b, 100 * US);
	assert_int_equal(b.pt[0].energy_nj, 16000);
	assert_int_equal(b.pt[0].latency_ns, 10 * US);
	last = &b.pt[IL_BOUND_NLAMBDA - 1];
	assert_int_equal(last->energy_nj, 101000);
	assert_int_equal(last->latency_ns, 0);
	/* the frontier is monotone: less latency costs more energy */
	for (int k = 1; k < IL_BOUND_NLAMBDA; k++) {
		assert_true(b.pt[k].latency_ns <= b.pt[k - 1].latency_ns);
		assert_true(b.pt[k].energy_nj >= b.pt[k - 1].energy_nj);
	}
	/* state 1 for both: 20100 nJ, 20 µs; the bound at >= 10 µs is 16000: +25.625 % */
	il_bound_gov_add(&deep, &drv, 1, 1 * US);
	il_bound_gov_add(&deep, &drv, 1, 100 * US);
	assert_int_equal(il_bound_gap(&b, &deep, &gap), 0);
	assert_float_equal(gap, 20100.0 / 16000.0 - 1.0, 1e-12);
	/* state 0 for both is the latency-optimal point itself: gap 0 */
	il_bound_gov_add(&poll, &drv, 0, 1 * US);
	il_bound_gov_add(&poll, &drv, 0, 100 * US);
	assert_int_equal(il_bound_gap(&b, &poll, &gap), 0);
	assert_float_equal(gap, 0.0, 1e-12);
	/* halfway in latency: the highest supporting line. The hull's edge from (10 µs, 16000)
	 * to (0, 101000) has slope 8500 nJ/µs; the grid's nearest prices are 8192 (the deep
	 * point: 16000 + 8192 x 5) and 16384 (the shallow one: 101000 - 16384 x 5). */
	assert_int_equal(il_bound_at_latency(&b, 5 * US, &e), 0);
	assert_float_equal(e, 16000.0 + 8192.0 * 5, 1e-9);
	mixed.energy_nj = 58500;
	mixed.latency_ns = 5 * US;
	assert_int_equal(il_bound_gap(&b, &mixed, &gap), 0);
	assert_float_equal(gap, 58500.0 / 56960.0 - 1.0, 1e-12);
}

/*
 * Two periods whose deep/shallow break-even prices (90 x d - 500 nJ/µs: 2200 for 30 µs,
 * 4000 for 50 µs) fall between the same two grid prices (2048, 4096): the grid sees both
 * deep (20 µs, 18000 nJ) and both shallow (0, 80000), not the vertex between them (10 µs,
 * 40000: the 30 µs period shallow). The straight line joining the two points says 49000 at
 * 10 µs, above that achievable choice (a gap of -18 %); the supporting lines never are.
 */
static void test_bound_skipped_vertex(void **state)
{
	struct il_bound_gov gov = { 0 };
	struct il_driver drv;
	struct il_bound b;
	double e, gap;

	bound_driver(&drv);
	assert_int_equal(il_bound_init(&b, &drv, NULL, -1), 0);
	il_bound_add(&b, 30 * US);
	il_bound_add(&b, 50 * US);
	il_bound_gov_add(&gov, &drv, 0, 30 * US);
	il_bound_gov_add(&gov, &drv, 1, 50 * US);
	assert_int_equal(gov.energy_nj, 40000);
	assert_int_equal(gov.latency_ns, 10 * US);
	assert_int_equal(il_bound_at_latency(&b, 10 * US, &e), 0);
	assert_true(e <= 40000.0);
	/* the 4096 line: 80000 - 4096 x 10, above the 2048 one (18000 + 2048 x 10) */
	assert_float_equal(e, 80000.0 - 4096.0 * 10, 1e-9);
	assert_int_equal(il_bound_gap(&b, &gov, &gap), 0);
	assert_true(gap >= 0);
}

/* QoS below state 1's exit latency, or state 1 disabled: only state 0 is in the bound. With
 * nothing usable every state is (the init says so). */
static void test_bound_usable_states(void **state)
{
	struct il_device dev;
	struct il_driver drv;
	struct il_bound b;

	bound_driver(&drv);
	assert_int_equal(il_bound_init(&b, &drv, NULL, 5 * US), 0);
	il_bound_add(&b, 100 * US);
	assert_int_equal(b.pt[0].energy_nj, 100000);
	memset(&dev, 0, sizeof(dev));
	dev.states_usage[1].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	assert_int_equal(il_bound_init(&b, &drv, &dev, -1), 0);
	il_bound_add(&b, 100 * US);
	assert_int_equal(b.pt[0].energy_nj, 100000);
	dev.states_usage[0].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	assert_int_equal(il_bound_init(&b, &drv, &dev, -1), -1);
	il_bound_add(&b, 100 * US);
	assert_int_equal(b.pt[0].energy_nj, 15000);
	/* below the least-latency point there is no bound */
	drv.states[0].exit_latency_ns = 1 * US;
	assert_int_equal(il_bound_init(&b, &drv, NULL, -1), 0);
	il_bound_add(&b, 100 * US);
	{
		double e;

		assert_int_equal(il_bound_at_latency(&b, 0, &e), -1);
	}
}

static void test_params(void **state)
{
	struct il_replay_cfg cfg = { 0 };
	struct il_error err;
	struct il_replay *r;

	assert_int_equal(il_platform_load("haltpoll-vm", &plat, &err), 0);
	cfg.plat = &plat;
	cfg.cpu = -1;
	cfg.ngov = 1;
	cfg.presets[0] = il_preset_find("haltpoll-6.13");
	cfg.nparams = 1;
	cfg.params[0] = "no_such_param=1";
	assert_null(il_replay_new(&cfg, &err));
	assert_non_null(strstr(err.msg, "no_such_param"));
	cfg.params[0] = "guest_halt_poll_ns=banana";
	assert_null(il_replay_new(&cfg, &err));
	cfg.params[0] = "guest_halt_poll_ns";
	assert_null(il_replay_new(&cfg, &err));
	cfg.params[0] = "guest_halt_poll_ns=0";
	r = il_replay_new(&cfg, &err);
	assert_non_null(r);
	il_replay_free(r);
}

static void test_fixture_ladder(void **state)
{
	static const char *const govs[] = { "ladder-6.13" };
	struct il_trace *t = il_trace_open("tests/fixtures/traces/ladder-head.trace", NULL, NULL);
	struct il_trace_event ev;
	const struct il_replay_row *row;
	int ctx;
	struct il_replay *r = new_replay(govs, 1, &ctx);

	assert_non_null(t);
	while (il_trace_next(t, &ev) == 1)
		il_replay_event(r, &ev);
	il_replay_finish(r);
	il_trace_close(t);
	row = il_replay_gov_row(r, 0);
	assert_int_equal(row->idles, 4);
	assert_int_equal(row->agree, 4);
	assert_int_equal(il_replay_cpu_periods(r, 0), 4);
	assert_int_equal(il_replay_cpu_periods(r, 1), 0);
	assert_int_equal(il_replay_ncpus(r), 2);
	assert_int_equal(il_replay_notes(r)->open_at_end, 1);
	assert_true(il_replay_notes(r)->clock_offset_known);
	assert_int_equal(il_replay_notes(r)->clock_offset_ns, 0);
	il_replay_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_allocation_failure_is_an_error),
		cmocka_unit_test(test_inputs_from_timers),
		cmocka_unit_test(test_inputs_wheel_and_odd_timers),
		cmocka_unit_test(test_governor_rows),
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_fixture_ladder),
		cmocka_unit_test(test_bound_by_hand),
		cmocka_unit_test(test_bound_skipped_vertex),
		cmocka_unit_test(test_bound_usable_states),
	};

	return cmocka_run_group_tests_name("replay", tests, NULL, NULL);
}
