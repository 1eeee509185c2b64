// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_menu.c - hand-worked cases for the menu port (lib/gov/menu.c).
 *
 * Conventions used below (HZ = 1000, so TICK_NSEC = 1 000 000 ns and TICK_USEC = 1000):
 *
 *  - feed() loads the eight recent intervals: with every exit latency set to 0 and no
 *    polling flag, "measured" is exactly the residency (2 * 0 < residency, nothing to
 *    subtract), and with a 1 s timer (or KTIME_MAX when the timer is not read) nothing is
 *    capped, so intervals[] receives exactly the given µs values. A last select folds the
 *    eighth sample in; the real table is restored afterwards. For the 6.17+ presets the
 *    UINT_MAX pushed by the very first select sits in intervals[0] and is overwritten by
 *    the eighth sample, so the ring holds exactly the eight samples in every preset.
 *  - feed() only touches the correction factor of bucket 5 (its 1 s timer, or the KTIME_MAX
 *    of a select that skipped the timer), so every other bucket is still at 8192 (= 1.0)
 *    afterwards and the timer prediction is (timer_ns * 8192 + 4 096 000) / 8 192 000 µs,
 *    which is the timer in µs for a whole-µs timer (the added half µs is truncated away).
 *  - te_select() does not reflect, so repeated selects see the same statistics.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "testenv.h"
#include "util/array.h"

#define US 1000LL
#define MS 1000000LL
#define NO_PREDICTION 4294967295ULL /* UINT_MAX from get_typical_interval() */

/* A plain table for the typical-interval cases: its values do not matter there. */
static const s64 plain[][2] = { { 1 * US, 1 * US }, { 10 * US, 20 * US }, { 100 * US, 500 * US } };

static void feed(struct testenv *te, const unsigned int *samples_us, int n)
{
	struct il_driver saved = te->drv;
	bool stop_tick;

	for (int i = 0; i < te->drv.state_count; i++) {
		te->drv.states[i].exit_latency_ns = 0;
		te->drv.states[i].exit_latency = 0;
		te->drv.states[i].flags = 0;
	}
	te->sleep_ns = NSEC_PER_SEC;
	te->delta_next_ns = NSEC_PER_SEC;
	te->tick_stopped = false;
	for (int i = 0; i < n; i++)
		te_idle(te, (s64)samples_us[i] * US, &stop_tick);
	te_select(te, &stop_tick);
	te->drv = saved;
}

static void feed_same(struct testenv *te, unsigned int sample_us)
{
	unsigned int s[8];

	for (int i = 0; i < 8; i++)
		s[i] = sample_us;
	feed(te, s, 8);
}

/* The typical interval @preset computes for @samples (eight of them). */
static u64 typical_of(const char *preset, const unsigned int *samples)
{
	struct testenv te;
	u64 ret;

	te_init(&te, preset, false, 3, plain);
	feed(&te, samples, 8);
	ret = te_var(&te, "typical_us");
	te_fini(&te);
	return ret;
}

/*
 * Samples {100, 1000 x 7}: n = 8, sum 7100, avg 887; one-pass E[v^2] = 7 010 000 / 8 =
 * 876 250, variance 876 250 - 887^2 (786 769) = 89 481 > 400 and 887^2 < 36 * 89 481, so
 * the first pass fails and 8 > 6 samples allow a retry.
 *  - menu-3 (60256e458e1c) drops every sample >= max = 1000: {100} is left, variance 0,
 *    typical 100. menu-6.13 fails its first pass as well (two-pass variance
 *    (787^2 + 7 * 113^2) / 8 = 88 594) and keeps samples <= max - 1: the same {100}, 100.
 *  - menu-4 (8de7606f0fe2) compares the ends: avg - min = 787 > max - avg = 113, so it
 *    drops the low sample: 7 x 1000, variance 0, typical 1000.
 */
static void test_outliers_one_end_vs_both(void **state)
{
	static const unsigned int s[8] = { 100, 1000, 1000, 1000, 1000, 1000, 1000, 1000 };

	assert_int_equal(typical_of("menu-3", s), 100);
	assert_int_equal(typical_of("menu-6.13", s), 100);
	assert_int_equal(typical_of("menu-4", s), 1000);
}

/*
 * Samples doubling from 10 to 1280 µs, D variant (one pass, farther end dropped):
 *  pass 1: n 8, sum 2550, avg 318; sum of squares 2 184 500 / 8 = 273 062; variance
 *          273 062 - 101 124 = 171 938: fails. max - avg (962) > avg - min (308): drop 1280.
 *  pass 2: n 7, sum 1270, avg 181; 546 100 / 7 = 78 014; variance 78 014 - 32 761 = 45 253:
 *          fails (32 761 < 36 * 45 253). 459 > 171: drop 640.
 *  pass 3: n 6, sum 630, avg 105; 136 500 / 6 = 22 750; variance 22 750 - 11 025 = 11 725:
 *          fails, and 6 * 4 <= 24 ends the search.
 * menu-5 (85975daeaa4d) then returns the largest remaining sample, 320, since 6 >= 4;
 * menu-4 before it and menu-6.18 after the revert return UINT_MAX (no prediction).
 * menu-6.17 still carries 85975daeaa4d: 320.
 */
static void test_return_max(void **state)
{
	static const unsigned int s[8] = { 10, 20, 40, 80, 160, 320, 640, 1280 };

	assert_int_equal(typical_of("menu-5", s), 320);
	assert_int_equal(typical_of("menu-6.17", s), 320);
	assert_int_equal(typical_of("menu-4", s), NO_PREDICTION);
	assert_int_equal(typical_of("menu-6.18", s), NO_PREDICTION);
}

/*
 * Samples {100, 139} x 4: sum 956, avg = 956 >> 3 = 119 (true mean 119.5).
 *  - two passes (menu-6.13, and menu-1 which only dropped an unused variable):
 *    4 * (100 - 119)^2 + 4 * (139 - 119)^2 = 1444 + 1600 = 3044, / 8 = 380 <= 400:
 *    typical 119.
 *  - one pass (menu-2, 13982929fb08): 4 * 10 000 + 4 * 19 321 = 117 284, / 8 = 14 660,
 *    minus 119^2 = 14 161 gives 499: > 400, and 14 161 < 36 * 499 = 17 964, so it fails;
 *    the retry keeps samples <= max - 1 = 138: {100} x 4, variance 0, typical 100.
 */
static void test_one_pass_rounding(void **state)
{
	static const unsigned int s[8] = { 100, 139, 100, 139, 100, 139, 100, 139 };

	assert_int_equal(typical_of("menu-6.13", s), 119);
	assert_int_equal(typical_of("menu-1", s), 119);
	assert_int_equal(typical_of("menu-2", s), 100);
}

/*
 * 779b1a1cb13a (6.17) checks the exit latency before the residency.
 * Table S0 1/1 µs, S1 10/20 µs, S2 200 µs / 3 ms; PM QoS 100 µs; tick stopped; timer and
 * delta_tick 10 ms; typical 2000 µs (eight 2000 µs samples).
 * Prediction: the timer is read (2 ms > 15 µs), bucket 4 (10 ms), factor 1.0: 10 000 µs;
 * predicted = min(10 ms, 2 ms) = 2 ms >= TICK_NSEC, so the stopped tick keeps it.
 *  - menu-6.13 and menu-6.16: S0 and S1 fit (residency <= 2 ms, exit latency <= 100 µs).
 *    S2's 3 ms residency exceeds 2 ms; S1 is shallow (20 µs < tick) and 3 ms <= 10 ms
 *    delta_tick, so S2 is returned from inside the loop, exit latency 200 µs > QoS.
 *  - menu-6.17: S2 fails the latency test first (200 > 100 µs): S1. The stopped tick and
 *    the 2 ms prediction leave the tick alone: stop_tick stays true in all three.
 */
static void test_latency_before_residency(void **state)
{
	static const s64 t[][2] = { { 1 * US, 1 * US }, { 10 * US, 20 * US }, { 200 * US, 3 * MS } };
	static const struct {
		const char *preset;
		int expect;
	} cases[] = { { "menu-6.13", 2 }, { "menu-6.16", 2 }, { "menu-6.17", 1 } };

	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		struct testenv te;
		bool stop_tick;

		te_init(&te, cases[c].preset, false, 3, t);
		feed_same(&te, 2000);
		te.tick_stopped = true;
		te.sleep_ns = 10 * MS;
		te.delta_next_ns = 10 * MS;
		te.qos.cpu_latency_us = 100;
		assert_int_equal(te_select(&te, &stop_tick), cases[c].expect);
		assert_true(stop_tick);
		assert_int_equal(te_var(&te, "predicted_ns"), 2 * MS);
		te_fini(&te);
	}
}

/* Select once with a running tick, timer @timer_ns and tick @delta_ns, after feeding @typical. */
static int poll_case(const char *preset, s64 s1_exit, s64 s1_res, unsigned int typical,
		     s64 timer_ns, bool *stop_tick)
{
	const s64 t[][2] = { { 0, 0 }, { s1_exit, s1_res } };
	struct testenv te;
	int idx;

	te_init(&te, preset, true, 2, t);
	feed_same(&te, typical);
	te.sleep_ns = timer_ns;
	te.delta_next_ns = 500 * US;
	idx = te_select(&te, stop_tick);
	te_fini(&te);
	return idx;
}

/*
 * Polling override, S0 = POLL, tick running, next tick 500 µs away.
 * Cases (a), (b): typical 20 µs > 15 µs, so the timer (100 µs, bucket 2, factor 1.0 ->
 * 100 µs) is read; predicted = 20 µs. S1's 30 µs residency exceeds it, so only the
 * override can pick S1 (S1's residency fits the 100 µs timer in every case).
 *  (a) S1 25/30 µs. menu-6.17 only asks residency <= timer: S1. menu-6.18 also wants exit
 *      latency <= prediction (25 > 20): no, and 20 µs < tick ends the loop on POLL.
 *      menu-6.13 clamps latency_req to 20 µs with the tick running and wants S1's exit
 *      latency within it: no, POLL.
 *  (b) S1 10/30 µs. menu-6.18 and menu-6.13: 10 <= 20, S1. menu-6.19 (07d815701274)
 *      needs a residency below 15 µs: 30 is not, POLL.
 *  (c) S1 5/12 µs, typical 10 µs: below 15 µs the timer is not read (next_timer_ns =
 *      KTIME_MAX). menu-6.19: 12 < 15, 12 <= KTIME_MAX, 5 <= 10: S1.
 * The tick is kept in every case: POLL is polling, and S1 leaves predicted_ns at its own
 * residency (< 1 ms); S1's residency is within the 500 µs to the tick, so no demotion.
 */
static void test_polling_override(void **state)
{
	bool stop_tick;

	assert_int_equal(poll_case("menu-6.17", 25 * US, 30 * US, 20, 100 * US, &stop_tick), 1);
	assert_false(stop_tick);
	assert_int_equal(poll_case("menu-6.18", 25 * US, 30 * US, 20, 100 * US, &stop_tick), 0);
	assert_false(stop_tick);
	assert_int_equal(poll_case("menu-6.13", 25 * US, 30 * US, 20, 100 * US, &stop_tick), 0);

	assert_int_equal(poll_case("menu-6.18", 10 * US, 30 * US, 20, 100 * US, &stop_tick), 1);
	assert_false(stop_tick);
	assert_int_equal(poll_case("menu-6.13", 10 * US, 30 * US, 20, 100 * US, &stop_tick), 1);
	assert_int_equal(poll_case("menu-6.19", 10 * US, 30 * US, 20, 100 * US, &stop_tick), 0);
	assert_false(stop_tick);

	assert_int_equal(poll_case("menu-6.19", 5 * US, 12 * US, 10, 100 * US, &stop_tick), 1);
	assert_false(stop_tick);
}

/*
 * 80606f4eb8d7 (7.0): a stopped tick forces the timer read.
 * Table S0 1/1 µs, S1 50/100 µs, S2 500 µs / 2 ms; typical 10 µs; tick stopped; timer and
 * delta 300 µs.
 *  - menu-6.19: 10 µs <= 15 µs, no timer read: next_timer_ns = KTIME_MAX. The stopped
 *    tick replaces the short prediction by that: every state fits, S2.
 *  - menu-7.0: the timer is read (300 µs, bucket 2, factor 1.0 -> 300 µs); predicted =
 *    min(300, 10) = 10 µs < tick, so predicted = 300 µs. S1 (100 µs) fits, S2 does not;
 *    300 µs < tick ends the loop: S1.
 */
static void test_timer_read_with_tick_stopped(void **state)
{
	static const s64 t[][2] = { { 1 * US, 1 * US }, { 50 * US, 100 * US }, { 500 * US, 2 * MS } };
	struct testenv te;
	bool stop_tick;
	int queries;

	te_init(&te, "menu-6.19", false, 3, t);
	feed_same(&te, 10);
	te.tick_stopped = true;
	te.sleep_ns = te.delta_next_ns = 300 * US;
	queries = te.sleep_queries;
	assert_int_equal(te_select(&te, &stop_tick), 2);
	assert_int_equal(te.sleep_queries, queries);
	assert_int_equal(te_var(&te, "timer_queried"), 0);
	assert_int_equal(te_var(&te, "predicted_ns"), KTIME_MAX);
	te_fini(&te);

	te_init(&te, "menu-7.0", false, 3, t);
	feed_same(&te, 10);
	te.tick_stopped = true;
	te.sleep_ns = te.delta_next_ns = 300 * US;
	queries = te.sleep_queries;
	assert_int_equal(te_select(&te, &stop_tick), 1);
	assert_int_equal(te.sleep_queries, queries + 1);
	assert_int_equal(te_var(&te, "next_timer_ns"), 300 * US);
	assert_int_equal(te_var(&te, "predicted_ns"), 300 * US);
	te_fini(&te);
}

/*
 * SAFE_TIMER_RANGE_NS (7.1) = 2 ticks = 2 ms. Table S0 1/1 µs, S1 50/100 µs, S2 500 µs /
 * 1 ms; typical 10 µs; tick stopped.
 * Timer 1.5 ms (bucket 3, factor 1.0 -> 1500 µs): predicted = min(1.5 ms, 10 µs) = 10 µs.
 *  - menu-7.0 replaces it by the timer: 1.5 ms, S2 (1 ms) fits: S2.
 *  - menu-7.1: 1.5 ms is within 2 ms, the timer is a safety net, predicted stays 10 µs:
 *    S1's 100 µs does not fit, 10 µs < tick ends the loop: S0.
 * Timer 2.5 ms (beyond 2 ms): menu-7.1 also takes the timer: S2.
 */
static void test_safe_timer_range(void **state)
{
	static const s64 t[][2] = { { 1 * US, 1 * US }, { 50 * US, 100 * US }, { 500 * US, 1 * MS } };
	struct testenv te;
	bool stop_tick;

	te_init(&te, "menu-7.0", false, 3, t);
	feed_same(&te, 10);
	te.tick_stopped = true;
	te.sleep_ns = te.delta_next_ns = 1500 * US;
	assert_int_equal(te_select(&te, &stop_tick), 2);
	te_fini(&te);

	te_init(&te, "menu-7.1", false, 3, t);
	feed_same(&te, 10);
	te.tick_stopped = true;
	te.sleep_ns = te.delta_next_ns = 1500 * US;
	assert_int_equal(te_select(&te, &stop_tick), 0);
	assert_int_equal(te_var(&te, "predicted_ns"), 10 * US);
	te.sleep_ns = te.delta_next_ns = 2500 * US;
	assert_int_equal(te_select(&te, &stop_tick), 2);
	assert_int_equal(te_var(&te, "predicted_ns"), 2500 * US);
	te_fini(&te);
}

/*
 * fa3fa55de0d6: a select with no update pending after an entry that left no residency
 * pushes UINT_MAX into the ring. After feeding eight 100 µs samples, the ring pointer is
 * at 0 for menu-6.16 (eight pushes) and at 1 for menu-6.17 / menu-6.1.192 (the first
 * select's UINT_MAX plus eight). One rejected entry (no reflect, residency 0) later:
 *  - menu-6.16 pushes nothing: pointer 0, intervals[0] still 100.
 *  - menu-6.17 and menu-6.1.192 push UINT_MAX at 1, pointer 2. The typical interval
 *    ignores it (D keeps samples < UINT_MAX; B1 keeps <= INT_MAX): 7 x 100, typical 100.
 * The 1 ms timer keeps menu-6.1.192 out of its state-0 short cut (S1 residency 20 µs), and
 * its B1 exit does not fire: min 100 < timer prediction 1000 µs.
 */
static void test_uint_max_push(void **state)
{
	static const char *const pushing[] = { "menu-6.17", "menu-6.1.192" };
	struct testenv te;
	bool stop_tick;

	te_init(&te, "menu-6.16", false, 3, plain);
	feed_same(&te, 100);
	assert_int_equal(te_var(&te, "interval_ptr"), 0);
	te_idle(&te, -1, &stop_tick);
	te.sleep_ns = te.delta_next_ns = 1 * MS;
	te_select(&te, &stop_tick);
	assert_int_equal(te_var(&te, "interval_ptr"), 0);
	assert_int_equal(te_var(&te, "intervals[0]"), 100);
	te_fini(&te);

	for (size_t p = 0; p < 2; p++) {
		te_init(&te, pushing[p], false, 3, plain);
		feed_same(&te, 100);
		assert_int_equal(te_var(&te, "interval_ptr"), 1);
		te_idle(&te, -1, &stop_tick);
		te.sleep_ns = te.delta_next_ns = 1 * MS;
		te_select(&te, &stop_tick);
		assert_int_equal(te_var(&te, "interval_ptr"), 2);
		assert_int_equal(te_var(&te, "intervals[1]"), NO_PREDICTION);
		assert_int_equal(te_var(&te, "typical_us"), 100);
		te_fini(&te);
	}
}

/*
 * 4.x latency limit: predicted_us / (1 + 2 * load in tenths + 10 * nr_iowait).
 * Table S0 1/1, S1 50/100, S2 100/500 µs; typical 1000 µs; timer 2 ms (bucket 3, or 9
 * with iowait, both factor 1.0: predicted_us = (2000 * 8192 + 4096) / 8192 = 2000);
 * predicted = min(2000, 1000) = 1000 µs, so every residency fits and latency decides.
 *  - no iowait, no load: limit 1000 / 1 = 1000 µs: S2 (100 µs) is allowed: S2.
 *  - one iowaiter: 1000 / 11 = 90 µs: S1 (50) yes, S2 (100) no: S1.
 *  - load.weight 2048 (= 1.0): get_loadavg = 10, multiplier 21, 1000 / 21 = 47 µs: S0.
 * 4.17 with a running tick: the latency stop sets expected_interval to the chosen state's
 * residency (100 µs, 1 µs) < TICK_USEC, so the tick is kept; in the first case the
 * expected interval is 1000 µs, not < 1000: stop_tick stays true. 4.16 never writes it.
 */
static void test_4_x_iowait_multiplier(void **state)
{
	static const s64 t[][2] = { { 1 * US, 1 * US }, { 50 * US, 100 * US }, { 100 * US, 500 * US } };
	static const char *const presets[] = { "menu-4.16", "menu-4.17" };

	for (size_t p = 0; p < 2; p++) {
		bool v417 = p == 1;
		struct testenv te;
		bool stop_tick;

		te_init(&te, presets[p], false, 3, t);
		feed_same(&te, 1000);
		te.sleep_ns = 2 * MS;
		te.delta_next_ns = 1 * MS;

		assert_int_equal(te_select(&te, &stop_tick), 2);
		assert_true(stop_tick);
		assert_int_equal(te_var(&te, "predicted_us"), 1000);

		te.nr_iowait = 1;
		assert_int_equal(te_select(&te, &stop_tick), 1);
		assert_int_equal(te_var(&te, "bucket"), 9);
		assert_int_equal((s64)te_var(&te, "latency_req"), 90);
		assert_true(stop_tick == !v417);

		te.nr_iowait = 0;
		te.load = 2048;
		assert_int_equal(te_select(&te, &stop_tick), 0);
		assert_int_equal((s64)te_var(&te, "latency_req"), 47);
		assert_true(stop_tick == !v417);
		te_fini(&te);
	}
}

/*
 * 4.x polling avoidance on a fresh device: the eight intervals are 0, and variant A has no
 * empty-set exit: average 0, variance 0 <= 400, typical 0, so predicted_us = 0 and no
 * residency fits (S1 2 µs > 0). Only first_idx decides between POLL and S1 (2/2 µs):
 *  - timer 30 µs > max(20, 2) and QoS > 2 µs: first_idx = 1, the loop starts at S1: S1.
 *  - timer 15 µs <= 20: POLL.
 *  - timer 30 µs but QoS 1 µs (not > S1's 2 µs exit latency): POLL.
 * 4.17 keeps the tick each time (POLL polls; S1 with expected 0 < TICK_USEC); 4.16 never
 * touches stop_tick (true as te_select() set it).
 */
static void test_4_x_polling_avoidance(void **state)
{
	static const s64 t[][2] = { { 0, 0 }, { 2 * US, 2 * US } };
	static const char *const presets[] = { "menu-4.16", "menu-4.17" };

	for (size_t p = 0; p < 2; p++) {
		bool v417 = p == 1;
		struct testenv te;
		bool stop_tick;

		te_init(&te, presets[p], true, 2, t);
		te.sleep_ns = te.delta_next_ns = 30 * US;
		assert_int_equal(te_select(&te, &stop_tick), 1);
		assert_int_equal(te_var(&te, "typical_us"), 0);
		assert_int_equal(te_var(&te, "predicted_us"), 0);
		assert_true(stop_tick == !v417);

		te.sleep_ns = te.delta_next_ns = 15 * US;
		assert_int_equal(te_select(&te, &stop_tick), 0);
		assert_true(stop_tick == !v417);

		te.sleep_ns = te.delta_next_ns = 30 * US;
		te.qos.cpu_latency_us = 1;
		assert_int_equal(te_select(&te, &stop_tick), 0);
		te_fini(&te);
	}
}

/*
 * A poll timeout after a select that skipped the timer: measured = next_timer_ns =
 * KTIME_MAX, and ktime_to_us(KTIME_MAX) = 9 223 372 036 854 775 = 2 147 483 * 2^32 +
 * 2 783 138 807, which the unsigned int ring keeps as 2 783 138 807 (> INT_MAX).
 * Table POLL 0/0, S1 20/100 µs; typical 5 µs (<= 15 µs: no timer read, bucket 5).
 * With the tick running latency_req = 5 µs, S1's 20 µs exit latency fails the override:
 * POLL. The 100 µs poll exceeds the poll limit min(TICK_NSEC / 16 = 62.5 µs, S1's 100 µs),
 * so poll_time_limit is set. The next select's update stores the huge value at the ring
 * pointer (0 after feeding 8) and, since KTIME_MAX >= MAX_INTERESTING, adds a full
 * RESOLUTION to bucket 5: cf5 - cf5 / 8 + 1024.
 * typical_us stays 5 in both: menu-6.13 drops it at once (> INT_MAX); menu-6.15 keeps it
 * in the first pass, where the variance (~8.5e17) exceeds U64_MAX / 36 (~5.1e17), and
 * drops it as the max-side outlier (avg - min = 347 892 350 < max - avg), leaving 7 x 5.
 */
static void test_ktime_max_truncation(void **state)
{
	static const s64 t[][2] = { { 0, 0 }, { 20 * US, 100 * US } };
	static const char *const presets[] = { "menu-6.13", "menu-6.15" };

	for (size_t p = 0; p < 2; p++) {
		struct testenv te;
		bool stop_tick;
		u64 cf5;

		te_init(&te, presets[p], true, 2, t);
		feed_same(&te, 5);
		cf5 = te_var(&te, "correction_factor[5]");
		assert_int_equal(te_idle(&te, 100 * US, &stop_tick), 0);
		assert_false(stop_tick);
		assert_true(te.dev.poll_time_limit);
		assert_int_equal(te_var(&te, "next_timer_ns"), KTIME_MAX);
		te_select(&te, &stop_tick);
		assert_int_equal(te_var(&te, "intervals[0]"), 2783138807ULL);
		assert_int_equal(te_var(&te, "correction_factor[5]"), cf5 - cf5 / 8 + 1024);
		assert_int_equal(te_var(&te, "typical_us"), 5);
		te_fini(&te);
	}
}

/*
 * B1 (menu-6.1.192) on a fresh device: the first select pushes UINT_MAX (dropped, above
 * INT_MAX), the seven zeros stay; their min 0 is below the 1000 µs timer prediction (1 ms,
 * bucket 3, factor 1.0), so B1 computes avg 0, variance 0: typical 0, predicted_ns 0. The
 * running tick lowers latency_req to 0 / 1; S0's 1 µs residency already exceeds 0, and
 * 0 < tick ends the loop: S0 with the tick kept.
 * menu-6.13 returns UINT_MAX for the all-zero ring, so the timer decides: predicted 1 ms,
 * S2 (500 µs) fits, and 1 ms is not below TICK_NSEC: S2 with the tick stopped.
 */
static void test_b1_zero_table(void **state)
{
	static const s64 t[][2] = { { 1 * US, 1 * US }, { 10 * US, 50 * US }, { 100 * US, 500 * US } };
	struct testenv te;
	bool stop_tick;

	te_init(&te, "menu-6.1.192", false, 3, t);
	te.sleep_ns = te.delta_next_ns = 1 * MS;
	assert_int_equal(te_select(&te, &stop_tick), 0);
	assert_false(stop_tick);
	assert_int_equal(te_var(&te, "typical_us"), 0);
	assert_int_equal(te_var(&te, "predicted_ns"), 0);
	assert_int_equal(te_var(&te, "intervals[0]"), NO_PREDICTION);
	te_fini(&te);

	te_init(&te, "menu-6.13", false, 3, t);
	te.sleep_ns = te.delta_next_ns = 1 * MS;
	assert_int_equal(te_select(&te, &stop_tick), 2);
	assert_true(stop_tick);
	assert_int_equal(te_var(&te, "typical_us"), NO_PREDICTION);
	assert_int_equal(te_var(&te, "predicted_ns"), 1 * MS);
	te_fini(&te);
}

/* Every preset of the brief exists, with its framework rules; "menu" is menu-7.1. */
static void test_presets(void **state)
{
	static const struct {
		const char *name;
		const struct il_core_rules *core;
	} want[] = {
		{ "menu-4.16", &il_core_4_16 },   { "menu-4.17", &il_core_4_17 },
		{ "menu-6.13", &il_core_6_13 },   { "menu-1", &il_core_6_13 },
		{ "menu-2", &il_core_6_13 },      { "menu-3", &il_core_6_13 },
		{ "menu-4", &il_core_6_13 },      { "menu-5", &il_core_6_13 },
		{ "menu-6.15", &il_core_6_13 },   { "menu-6.16", &il_core_6_13 },
		{ "menu-6.17", &il_core_6_13 },   { "menu-6.18", &il_core_6_13 },
		{ "menu-6.19", &il_core_6_19 },   { "menu-7.0", &il_core_7_0 },
		{ "menu-7.1", &il_core_7_0 },     { "menu-6.1.192", &il_core_debian_6_1 },
		{ "menu-6.12.117", &il_core_debian_6_12 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		const struct il_preset *p = il_preset_find(want[i].name);

		assert_non_null(p);
		assert_ptr_equal(p->core, want[i].core);
		assert_string_equal(p->gov->name, "menu");
	}
	assert_string_equal(il_preset_find("menu")->name, "menu-7.1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_outliers_one_end_vs_both),
		cmocka_unit_test(test_return_max),
		cmocka_unit_test(test_one_pass_rounding),
		cmocka_unit_test(test_latency_before_residency),
		cmocka_unit_test(test_polling_override),
		cmocka_unit_test(test_timer_read_with_tick_stopped),
		cmocka_unit_test(test_safe_timer_range),
		cmocka_unit_test(test_uint_max_push),
		cmocka_unit_test(test_4_x_iowait_multiplier),
		cmocka_unit_test(test_4_x_polling_avoidance),
		cmocka_unit_test(test_ktime_max_truncation),
		cmocka_unit_test(test_b1_zero_table),
		cmocka_unit_test(test_presets),
	};

	return cmocka_run_group_tests_name("menu", tests, NULL, NULL);
}
