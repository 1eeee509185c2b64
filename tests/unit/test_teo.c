// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hand-worked cases for the teo presets (lib/gov/teo.c).
 *
 * Every expected value below was worked out by hand from the algorithm (kernel-governors.md §3
 * and the upstream files); the comment next to each check shows the arithmetic. Common facts:
 *
 *  - HZ is 1000 (testenv), so TICK_NSEC = 1 000 000 ns and delta_tick is set to one tick.
 *  - PULSE = 1024; a decay is m -= m >> 3 (1024 -> 896 -> 784 -> 686 -> 601 ...).
 *  - The device starts with last_state_idx = 0 and last_residency_ns = 0, so the FIRST select
 *    runs teo_update() on zeroed data with sleep_length_ns = 0: that "empty wakeup" is
 *    classified like any other and shapes the first decisions.
 *  - te_idle() advances local_clock() by exactly the residency, so in 6.13/6.1 the time span
 *    seen by reflect equals the residency.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "testenv.h"
#include "util/array.h"

#define US 1000LL
#define MS 1000000LL
#define TICK MS

/* skx (Skylake-SP) with POLL: exit latency / target residency in ns. */
static const s64 skx[][2] = { { 0, 0 }, { 2 * US, 2 * US }, { 10 * US, 20 * US },
			      { 133 * US, 600 * US } };
/* rk3399-like ARM table: WFI, CPU_SLEEP, CLUSTER_SLEEP (no polling state). */
static const s64 arm[][2] = { { 1 * US, 1 * US }, { 50 * US, 100 * US }, { 370 * US, 900 * US } };
/* The ARM table plus a deep 5 ms state, so a bin starts beyond the tick. */
static const s64 deep[][2] = { { 1 * US, 1 * US }, { 50 * US, 100 * US }, { 370 * US, 900 * US },
			       { 2 * MS, 5 * MS } };

/* One idle period: timer @sleep_ns away (the tick one tick away), woken after @res_ns. */
static int idle(struct testenv *te, s64 sleep_ns, s64 res_ns, bool *stop_tick)
{
	te->sleep_ns = sleep_ns;
	te->delta_next_ns = sleep_ns >= 0 && sleep_ns < TICK ? sleep_ns : TICK;
	te->sleep_queries = 0;
	te->got_tick_reads = 0;
	return te_idle(te, res_ns, stop_tick);
}

static u64 v(struct testenv *te, const char *name)
{
	return te_var(te, name);
}

/*
 * teo-6.13: the time-span safety net, the hits-only tick bin and a first intercept.
 */
static void test_613_tick_bin_hits_and_intercepts(void **state)
{
	struct testenv te;
	bool stop;

	te_init(&te, "teo-6.13", true, 4, skx);

	/*
	 * Select 1, update on zeroed data: time_span_ns (0) >= sleep_length_ns (0), so measured is
	 * U64_MAX; only tr[0] = 0 <= 0, so idx_timer = idx_duration = 0: a hit, hits[0] = 1024.
	 * The deepest residency 600 µs < TICK opens the tick bin, but TICK <= sleep_length (0)
	 * fails. total = 0 + tick_hits 0 + PULSE = 1024.
	 * Select: candidate 3; intercepts below it 0, 2*0 > 1024 - 1024 fails; no QoS clamp; 600 µs
	 * is not below 15 µs, so the timer is read (5 ms); 5 ms >= TICK and C6 does not poll: 3,
	 * tick stopped.
	 */
	assert_int_equal(idle(&te, 5 * MS, 5 * MS, &stop), 3);
	assert_true(stop);
	assert_int_equal(te.sleep_queries, 1);
	assert_int_equal(v(&te, "state_bins[0].hits"), 1024);
	assert_int_equal(v(&te, "total"), 1024);
	assert_int_equal(v(&te, "tick_hits"), 0);
	/* Reflect: woken by the timer after 5 ms, time_span_ns = 5 ms (no got_tick). */
	assert_int_equal((s64)v(&te, "time_span_ns"), 5 * MS);

	/*
	 * Select 2, update: time span 5 ms >= sleep length 5 ms: measured = U64_MAX again. hits[0]
	 * decays to 896. idx_timer = idx_duration = 3, then the tick bin: TICK <= 5 ms moves
	 * idx_timer to 4 and TICK <= U64_MAX (unsigned) makes it a tick hit: tick_hits = 1024,
	 * bins[3] untouched. total = 896 + 0 + 1024 = 1920.
	 */
	assert_int_equal(idle(&te, 5 * MS, 200 * US, &stop), 3);
	assert_int_equal(v(&te, "state_bins[0].hits"), 896);
	assert_int_equal(v(&te, "state_bins[3].hits"), 0);
	assert_int_equal(v(&te, "tick_hits"), 1024);
	assert_int_equal(v(&te, "total"), 1920);

	/*
	 * Select 3, update: an interrupt after 200 µs in C6 (exit latency 133 µs): measured =
	 * 200000 - 66500 = 133500, which fits tr[2] = 20 µs, not tr[3]: idx_duration = 2, while
	 * the timer bin is the tick bin (4). Intercept: intercepts[2] = 1024. hits[0] 784,
	 * tick_hits 896, total = 784 + 896 + 1024 = 2704.
	 * Select: below state 3 intercepts 1024, hits 784; 2*1024 = 2048 > 2704 - 784 = 1920,
	 * so search down: at i = 2 the sum 1024 already has 2*1024 > 1024 and the tick runs, so
	 * idx = 2. Keep-tick test: tick_intercept_sum = 1024 (all intercepts) > 2704/2 + 2704/8
	 * = 1352 + 338 = 1690 fails; 5 ms >= TICK: state 2 with the tick stopped.
	 */
	assert_int_equal(idle(&te, 5 * MS, 200 * US, &stop), 2);
	assert_true(stop);
	assert_int_equal(v(&te, "state_bins[2].intercepts"), 1024);
	assert_int_equal(v(&te, "tick_hits"), 896);
	assert_int_equal(v(&te, "total"), 2704);
	te_fini(&te);
}

/*
 * teo-6.13 keep-tick rule: tick_intercept_sum > total/2 + total/8 (continues the chain above).
 */
static void test_613_keep_tick(void **state)
{
	struct testenv te;
	bool stop;

	te_init(&te, "teo-6.13", true, 4, skx);
	idle(&te, 5 * MS, 5 * MS, &stop);
	idle(&te, 5 * MS, 200 * US, &stop);
	idle(&te, 5 * MS, 200 * US, &stop); /* state 2, woken after 200 µs */

	/*
	 * Select 4, update: measured = 200000 - 10000/2 = 195000: bin 2 again. Decays: hits[0]
	 * 686, intercepts[2] 896, tick_hits 784; + the intercept: intercepts[2] = 1920, total =
	 * 686 + 896 + 784 + 1024 = 3390. Search: 2*1920 > 3390 - 686 -> state 2. Keep tick:
	 * 1920 > 1695 + 423 = 2118 fails, the tick is stopped.
	 */
	assert_int_equal(idle(&te, 5 * MS, 200 * US, &stop), 2);
	assert_true(stop);
	assert_int_equal(v(&te, "state_bins[2].intercepts"), 1920);
	assert_int_equal(v(&te, "total"), 3390);

	/*
	 * Select 5: hits[0] 601, intercepts[2] 1680 + 1024 = 2704, tick_hits 686; total = 601 +
	 * 1680 + 686 + 1024 = 3991. Still state 2 (2*2704 > 3991 - 601). Keep tick: 2704 > 1995 +
	 * 498 = 2493 holds: duration_ns = TICK/2, below a tick, so the tick keeps running; 20 µs
	 * fits delta_tick (1 ms), the state stays 2.
	 */
	assert_int_equal(idle(&te, 5 * MS, 200 * US, &stop), 2);
	assert_false(stop);
	assert_int_equal(v(&te, "total"), 3991);
	assert_int_equal((s64)v(&te, "duration_ns"), TICK / 2);
	te_fini(&te);
}

/*
 * Intercept search down to state 0: teo-6.13 still reads the timer (so that the wakeup can be
 * classified), teo-6.14 skips the query because short idle periods dominate.
 */
static void test_search_to_state0_timer_query_613_vs_614(void **state)
{
	struct testenv te;
	bool stop;

	/*
	 * 6.13. Select 1 as in the tick-bin test: hits[0] = 1024, total 1024, state 3. Woken after
	 * 1 µs in C6: measured = 1000 / 2 = 500 (below the exit latency), bin 0.
	 * Select 2: hits[0] 896, intercepts[0] 1024 (the timer bin is the tick bin), total 1920.
	 * Below state 3: intercepts 1024, hits 896, 2048 > 1920 - 896 = 1024: search. i = 2 and
	 * i = 1 add nothing (they become first_suitable_idx); i = 0 reaches 2*1024 > 1024 and is
	 * fine with a running tick: idx = 0. The search moved the candidate from 3 to 0, so 6.13
	 * reads the timer and keeps the tick.
	 */
	te_init(&te, "teo-6.13", true, 4, skx);
	idle(&te, 5 * MS, 1 * US, &stop);
	assert_int_equal(idle(&te, 5 * MS, 5 * MS, &stop), 0);
	assert_false(stop);
	assert_int_equal(te.sleep_queries, 1);
	assert_int_equal(v(&te, "state_bins[0].intercepts"), 1024);
	assert_int_equal(v(&te, "total"), 1920);
	te_fini(&te);

	/*
	 * 6.14. Select 1: measured 0 (residency 0 >= exit latency 0 of POLL) is below 15 µs:
	 * short_idles = 1024; hit on bin 0; running total 0 - 0 + 1024 = 1024. State 3 as above.
	 * Select 2: the 500 ns wakeup adds to short_idles: 896 + 1024 = 1920; intercepts[0] =
	 * 1024, total = 1024 - 128 + 1024 = 1920; the same search gives 0. Then idx == 0 and
	 * 2 * 1920 >= 1920: no timer query, the sleep length stays KTIME_MAX, tick kept.
	 */
	te_init(&te, "teo-6.14", true, 4, skx);
	idle(&te, 5 * MS, 1 * US, &stop);
	assert_int_equal(idle(&te, 5 * MS, 5 * MS, &stop), 0);
	assert_false(stop);
	assert_int_equal(te.sleep_queries, 0);
	assert_int_equal(v(&te, "short_idles"), 1920);
	assert_int_equal(v(&te, "total"), 1920);
	assert_int_equal((s64)v(&te, "sleep_length_ns"), KTIME_MAX);
	te_fini(&te);
}

/*
 * teo-6.14 skips the timer for a shallow (< 15 µs) non-zero candidate too.
 */
static void test_614_skip_timer_query_shallow_state(void **state)
{
	struct testenv te;
	bool stop;

	te_init(&te, "teo-6.14", true, 4, skx);
	/* Select 1: state 3 (see above); woken after 5 µs: measured 2500 fits tr[1] = 2 µs. */
	assert_int_equal(idle(&te, 5 * MS, 5 * US, &stop), 3);
	/*
	 * Select 2: short_idles 896 + 1024 = 1920, intercepts[1] = 1024, hits[0] 896, total 1920.
	 * Below 3: intercepts 1024, hits 896: 2048 > 1024, search: i = 2 adds 0 (first suitable),
	 * i = 1 reaches 2048 > 1024: idx = 1. tr[1] = 2 µs < 15 µs and 2*1920 >= 1920: skip the
	 * query, keep the tick.
	 */
	assert_int_equal(idle(&te, 5 * MS, 5 * MS, &stop), 1);
	assert_false(stop);
	assert_int_equal(te.sleep_queries, 0);
	assert_int_equal(v(&te, "state_bins[1].intercepts"), 1024);
	te_fini(&te);
}

/*
 * The 6.13-6.18 intercept search picks a shallower state, and teo_state_ok() vetoes it when
 * the tick is already stopped.
 */
static void test_intercept_search_state_ok(void **state)
{
	static const char *const presets[] = { "teo-6.13", "teo-6.14", "teo-6.17" };

	for (int p = 0; p < 3; p++) {
		struct testenv te;
		bool stop;

		/*
		 * Select 1: state 3 (hits[0] 1024, total 1024). Woken after 200 µs in C6: measured =
		 * 200000 - 66500 = 133500, bin 2 (the timer's bin is 3, or 6.13's tick bin 4).
		 * Select 2: intercepts[2] = 1024, hits[0] 896, total 1920 (6.13: + tick_hits 0;
		 * 6.14: 1024 - 128 + 1024). Below 3: 2*1024 > 1920 - 896: search, i = 2 reaches
		 * 2048 > 1024 with a running tick: state 2. 20 µs is not shallow, the timer is read
		 * (5 ms); keep-tick: 1024 (6.13's sum of intercepts) > 960 + 240 fails, and 6.14 has
		 * no tick intercept at all (133500 < TICK): tick stopped.
		 */
		te_init(&te, presets[p], true, 4, skx);
		idle(&te, 5 * MS, 200 * US, &stop);
		assert_int_equal(idle(&te, 5 * MS, 5 * MS, &stop), 2);
		assert_true(stop);
		assert_int_equal(v(&te, "total"), 1920);
		if (p > 0)
			assert_int_equal(v(&te, "tick_intercepts"), 0);
		te_fini(&te);

		/*
		 * Same history, tick already stopped at select 2: at i = 2 the threshold is reached
		 * but teo_state_ok(2) fails (20 µs < TICK), so first_suitable_idx, still the
		 * candidate 3, is kept.
		 */
		te_init(&te, presets[p], true, 4, skx);
		idle(&te, 5 * MS, 200 * US, &stop);
		te.tick_stopped = true;
		assert_int_equal(idle(&te, 5 * MS, 5 * MS, &stop), 3);
		te_fini(&te);
	}
}

/*
 * The intercept threshold is crossed at a disabled state: 6.13-6.18 (and 6.12.117) fall back to
 * first_suitable_idx, the last enabled state above it; 6.19 keeps walking down to the next
 * enabled state.
 */
static void test_search_threshold_at_disabled_state(void **state)
{
	static const char *const presets[] = { "teo-6.13", "teo-6.14", "teo-6.12.117",
					       "teo-6.19" };
	static const int expected[] = { 3, 3, 3, 1 };

	for (int p = 0; p < 4; p++) {
		struct testenv te;
		bool stop;

		/*
		 * Select 1: hits[0] = 1024 in all four, state 3. Woken after 200 µs in C6: measured
		 * 133500, an intercept in bin 2. C1E (state 2) is then disabled.
		 * Select 2: intercepts[2] 1024, hits[0] 896, total 1920. Candidate 3 (its sums
		 * include bin 2): 2*1024 > 1920 - 896. At i = 2 the sum 1024 crosses 1024/2 but
		 * state 2 is disabled: 6.13/6.14/6.12.117 return first_suitable_idx = 3; 6.19
		 * skips it and takes i = 1 (enabled, sum still 1024). 6.19 then: C1 is shallow but
		 * short_idles 896 (2 * 896 < 1920) and QoS is off, so the timer is read; 1024 tick
		 * intercepts do not exceed 960 + 240: both stop the tick.
		 */
		te_init(&te, presets[p], true, 4, skx);
		idle(&te, 5 * MS, 200 * US, &stop);
		te.dev.states_usage[2].disable = CPUIDLE_STATE_DISABLED_BY_USER;
		assert_int_equal(idle(&te, 5 * MS, 5 * MS, &stop), expected[p]);
		assert_true(stop);
		assert_int_equal(te.sleep_queries, 1);
		te_fini(&te);
	}
}

/*
 * tick_intercepts: 6.14 counts intercepts whose measured time is at least a tick (the test is
 * inverted, fixed in 6.19), 6.19 those within a tick.
 */
static void test_tick_intercepts_614_vs_619(void **state)
{
	static const char *const presets[] = { "teo-6.14", "teo-6.19" };
	static const int expected[] = { 1024, 0 };

	for (int p = 0; p < 2; p++) {
		struct testenv te;
		bool stop;

		te_init(&te, presets[p], false, 4, deep);
		/*
		 * Select 1: residency 0 < exit latency 1 µs: measured 0, short; tr[0] = 1 µs does not
		 * fit sleep_length 0, so idx_timer = idx_duration = 0 (initial values): hit, hits[0]
		 * = 1024, total 1024. Candidate 3, no intercepts, 5 ms state vs 50 ms timer: 3.
		 */
		assert_int_equal(idle(&te, 50 * MS, 3 * MS, &stop), 3);
		/*
		 * Select 2: woken after 3 ms in the 5 ms state (exit 2 ms): measured = 3 ms - 1 ms =
		 * 2 ms, bin 2 (900 µs <= 2 ms < 5 ms), timer bin 3: intercept. 6.14: TICK <= 2 ms
		 * adds PULSE; 6.19: 2 ms <= TICK fails. Both totals: 896 + 1024 = 1920.
		 */
		idle(&te, 50 * MS, 50 * MS, &stop);
		assert_int_equal(v(&te, "state_bins[2].intercepts"), 1024);
		assert_int_equal(v(&te, "tick_intercepts"), expected[p]);
		assert_int_equal(v(&te, "total"), 1920);
		te_fini(&te);
	}
}

/*
 * Decay per version: m -= m >> 3 stops at 7 (7 >> 3 == 0) up to 6.18; teo_decay() (6.19+)
 * drops a metric whose eighth is 0 straight to 0.
 */
static void test_decay_floor_vs_teo_decay(void **state)
{
	static const char *const presets[] = { "teo-6.14", "teo-6.17", "teo-6.19", "teo-7.0",
					       "teo-7.1" };
	static const unsigned int after_60[] = { 7, 7, 0, 0, 0 };

	for (int p = 0; p < 5; p++) {
		struct testenv te;
		bool stop;

		/*
		 * The first update sets short_idles = 1024 (measured 0 < 15 µs) in every version
		 * >= 6.14. Every later wakeup comes 1 µs after a 5 ms timer, measured >= 4.9 ms: never
		 * short (a POLL choice would end on the poll limit: artificial, not short either).
		 */
		te_init(&te, presets[p], true, 4, skx);
		idle(&te, 5 * MS, 5 * MS + 1 * US, &stop);
		assert_int_equal(v(&te, "short_idles"), 1024);
		idle(&te, 5 * MS, 5 * MS + 1 * US, &stop);
		assert_int_equal(v(&te, "short_idles"), 896); /* 1024 - 128 */
		/*
		 * 1024 -> 896 -> 784 -> ... -> 8 -> 7 takes 41 decays; after 60 decays: 7 with the
		 * old rule; teo_decay goes 8 -> 7 -> 0 (42nd decay) and stays 0.
		 */
		for (int k = 2; k <= 60; k++)
			idle(&te, 5 * MS, 5 * MS + 1 * US, &stop);
		assert_int_equal(v(&te, "short_idles"), after_60[p]);
		te_fini(&te);
	}
}

/*
 * The first select on zeroed data: 7.0+ count the empty wakeup as an intercept in bin 0 (a hit
 * needs sleep_length - measured < lat/2, and 0 < 0 fails with POLL's zero exit latency), then
 * pick POLL without reading the timer; 6.19 counts a hit and reads the timer.
 */
static void test_first_select_619_vs_70(void **state)
{
	struct testenv te;
	bool stop;

	/*
	 * 6.19: measured 0, idx_timer = idx_duration = 0: hit, hits[0] = 1024, total 1024,
	 * short_idles 1024. Candidate 3, 2*0 > 1024 - 1024 fails; 600 µs is not shallow: query.
	 */
	te_init(&te, "teo-6.19", true, 4, skx);
	assert_int_equal(idle(&te, 5 * MS, 5 * MS, &stop), 3);
	assert_true(stop);
	assert_int_equal(te.sleep_queries, 1);
	assert_int_equal(v(&te, "state_bins[0].hits"), 1024);
	te_fini(&te);

	/*
	 * 7.0: intercepts[0] = 1024 and, measured 0 <= TICK, tick_intercepts = 1024; total 1024.
	 * Candidate 3: intercepts below 1024, hits 0: 2048 > 1024. intercept_max_idx = 0 (bin 0
	 * holds the most). min_idx = idx0 = 0 >= intercept_max_idx and POLL is enabled: idx = 0.
	 * idx 0 and 2*short_idles 2048 >= 1024: no query, tick kept.
	 */
	te_init(&te, "teo-7.0", true, 4, skx);
	assert_int_equal(idle(&te, 5 * MS, 5 * US, &stop), 0);
	assert_false(stop);
	assert_int_equal(te.sleep_queries, 0);
	assert_int_equal(v(&te, "state_bins[0].intercepts"), 1024);
	assert_int_equal(v(&te, "state_bins[0].hits"), 0);
	assert_int_equal(v(&te, "tick_intercepts"), 1024);
	assert_int_equal((s64)v(&te, "intercept_max_idx"), 0);
	te_fini(&te);
}

/*
 * 7.0+: a hit also needs the wakeup no earlier than lat/2 before the timer. Waking exactly at
 * the timer after a state with exit latency 370 µs gives sleep - measured = 185 µs, not < 185
 * µs: an intercept; 1 ns later it is a hit. 6.19 calls both hits.
 */
static void test_hit_needs_wakeup_near_timer_70(void **state)
{
	static const struct {
		const char *preset;
		s64 res;
		unsigned int hits2, intercepts2;
	} cases[] = {
		{ "teo-7.0", 5 * MS, 0, 1024 },
		{ "teo-7.0", 5 * MS + 1, 1024, 0 },
		{ "teo-7.1", 5 * MS, 0, 1024 },
		{ "teo-6.19", 5 * MS, 1024, 0 },
	};

	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		struct testenv te;
		bool stop;

		/*
		 * Select 1 (ARM table): residency 0 < exit latency 1 µs: measured 0; tr[0] = 1 µs
		 * does not fit the sleep length 0, so both bins stay 0; 0 - 0 < 1000/2: hit in every
		 * version: hits[0] = 1024. Candidate 2 (no intercepts), timer 5 ms: state 2.
		 */
		te_init(&te, cases[c].preset, false, 3, arm);
		assert_int_equal(idle(&te, 5 * MS, cases[c].res, &stop), 2);
		assert_int_equal(v(&te, "state_bins[0].hits"), 1024);
		/* Select 2: measured = res - 185 µs lands in bin 2, the timer's bin. */
		idle(&te, 5 * MS, 5 * MS, &stop);
		assert_int_equal(v(&te, "state_bins[2].hits"), cases[c].hits2);
		assert_int_equal(v(&te, "state_bins[2].intercepts"), cases[c].intercepts2);
		te_fini(&te);
	}
}

/*
 * 6.19+ tick wakeups: total_tick, the "tick wakeups dominate" hit on the deepest bin, and
 * 7.0's "expected intercept did not come" hit on the timer's bin.
 */
static void test_tick_wakeups_619_vs_70(void **state)
{
	struct testenv te;
	bool stop;

	/*
	 * 6.19, ARM table. Select 1: hits[0] = 1024, total 1024, state 2. The tick wakes the CPU
	 * after 1 ms: reflect stores tick_wakeup = true (and consumes the flag).
	 * Select 2: measured = 1 ms - 185 µs = 815 µs, bin 1; hits[0] 896: total = 896 + 1024
	 * = 1920. total_tick = 1024; 3*1024 = 3072 > 2*1920 = 3840 fails, so it is classified
	 * normally: intercept on bin 1, 815 µs <= TICK: tick_intercepts = 1024.
	 */
	te_init(&te, "teo-6.19", false, 3, arm);
	te.got_tick = true;
	assert_int_equal(idle(&te, 5 * MS, 1 * MS, &stop), 2);
	assert_int_equal(v(&te, "tick_wakeup"), 1);
	assert_false(te.got_tick); /* consumed by reflect */
	te.got_tick = true;
	idle(&te, 5 * MS, 1 * MS, &stop);
	assert_int_equal(v(&te, "total_tick"), 1024);
	assert_int_equal(v(&te, "state_bins[1].intercepts"), 1024);
	assert_int_equal(v(&te, "tick_intercepts"), 1024);
	assert_int_equal(v(&te, "total"), 1920);
	/*
	 * Select 3, a second tick wakeup: total_tick = 896 + 1024 = 1920; bins decayed: hits[0]
	 * 784 + intercepts[1] 896 = 1680, total = 2704; 3*1920 = 5760 > 5408: tick wakeups
	 * dominate, hits[2] (the deepest bin) += 1024 and nothing else is counted.
	 */
	idle(&te, 5 * MS, 5 * MS, &stop);
	assert_int_equal(v(&te, "total_tick"), 1920);
	assert_int_equal(v(&te, "state_bins[2].hits"), 1024);
	assert_int_equal(v(&te, "state_bins[1].intercepts"), 896);
	assert_int_equal(v(&te, "total"), 2704);
	te_fini(&te);

	/*
	 * 7.0, same first tick wakeup: after the failed dominance test, 3 * tick_intercepts (0) <
	 * 2 * 896 (the sum without PULSE): the tick most likely replaced an expected intercept
	 * that did not come, so it is a hit on the timer's bin 2 instead of an intercept on bin 1.
	 */
	te_init(&te, "teo-7.0", false, 3, arm);
	te.got_tick = true;
	assert_int_equal(idle(&te, 5 * MS, 1 * MS, &stop), 2);
	idle(&te, 5 * MS, 1 * MS, &stop);
	assert_int_equal(v(&te, "state_bins[2].hits"), 1024);
	assert_int_equal(v(&te, "state_bins[1].intercepts"), 0);
	assert_int_equal(v(&te, "tick_intercepts"), 0);
	te_fini(&te);
}

/*
 * Keep-tick rule of 7.0+: 3 * tick_intercepts >= 2 * total.
 */
static void test_70_keep_tick(void **state)
{
	struct testenv te;
	bool stop;

	te_init(&te, "teo-7.0", false, 3, arm);
	/* Select 1: hits[0] = 1024, short_idles 1024, total 1024 -> state 2 (ARM table). */
	assert_int_equal(idle(&te, 5 * MS, 300 * US, &stop), 2);
	/*
	 * Select 2: woken after 300 µs in state 2 (exit 370 µs): measured 150 µs, short; bin 1:
	 * intercepts[1] = 1024, tick_intercepts = 1024; hits[0] 896, total 1920. Below 2:
	 * intercepts 1024, hits 896: 2048 > 1024. intercept_max_idx = 1; i = 1 reaches 2048 >
	 * 1024 at the max bin: state 1. 100 µs is not shallow: query. 3*1024 = 3072 >= 3840
	 * fails: tick stopped.
	 */
	assert_int_equal(idle(&te, 5 * MS, 300 * US, &stop), 1);
	assert_true(stop);
	assert_int_equal(v(&te, "total"), 1920);
	/*
	 * Select 3: woken after 300 µs in state 1 (exit 50 µs): measured 275 µs, bin 1 again.
	 * hits[0] 784, intercepts[1] 896 + 1024 = 1920, tick_intercepts 896 + 1024 = 1920,
	 * total = 784 + 896 + 1024 = 2704. Search: state 1. Keep tick: 3*1920 = 5760 >= 2*2704
	 * = 5408: duration_ns = TICK/2, the tick keeps running, 100 µs fits delta_tick.
	 */
	assert_int_equal(idle(&te, 5 * MS, 300 * US, &stop), 1);
	assert_false(stop);
	assert_int_equal(v(&te, "tick_intercepts"), 1920);
	assert_int_equal(v(&te, "total"), 2704);
	assert_int_equal((s64)v(&te, "duration_ns"), TICK / 2);
	te_fini(&te);
}

/*
 * 7.1 with the tick stopped: the timer is always read, and a far timer (> 2 * TICK) lifts a
 * shallow choice to the deepest QoS-allowed state that fits. 7.0 reaches a deep state through
 * min_idx instead; with a near timer the two differ.
 */
static void test_71_stopped_tick_rule(void **state)
{
	struct testenv te;
	bool stop;

	/*
	 * 7.1, first select with the tick stopped: the zeroed update gives intercepts[0] = 1024,
	 * short_idles 1024, total 1024; the search walks from 3 down to idx0 = 0 and stops at the
	 * most intercepted bin 0: idx 0. The tick is stopped, so no skip: the timer (5 ms) is read;
	 * 5 ms > 2 ms and tr[0] < TICK: from constraint_idx 3 down, C6 (600 µs <= 5 ms) is taken
	 * and returned with *stop_tick untouched.
	 */
	te_init(&te, "teo-7.1", true, 4, skx);
	te.tick_stopped = true;
	assert_int_equal(idle(&te, 5 * MS, 5 * MS, &stop), 3);
	assert_true(stop);
	assert_int_equal(te.sleep_queries, 1);
	te_fini(&te);

	/* The same with the timer 1.5 ms away (<= 2 * TICK): idx 0 stands, out_tick. */
	te_init(&te, "teo-7.1", true, 4, skx);
	te.tick_stopped = true;
	assert_int_equal(idle(&te, 1500 * US, 1500 * US, &stop), 0);
	assert_false(stop);
	assert_int_equal(te.sleep_queries, 1);
	te_fini(&te);

	/*
	 * 7.0, 1.5 ms, tick stopped: min_idx climbs over every state shorter than a tick up to
	 * the candidate 3 and tr[min_idx] == tr[3], so the search is skipped: 3; 600 µs is not
	 * shallow, query; 3 * 1024 >= 2 * 1024 keeps "the tick" (duration TICK/2), but the tick
	 * is already stopped, so 3 is returned as is.
	 */
	te_init(&te, "teo-7.0", true, 4, skx);
	te.tick_stopped = true;
	assert_int_equal(idle(&te, 1500 * US, 1500 * US, &stop), 3);
	assert_true(stop);
	te_fini(&te);
}

/*
 * QoS 0: teo has no special case. constraint_idx is the deepest state >= 1 with exit latency
 * <= 0, and the only-one-enabled-state path skips the clamp altogether.
 */
static void test_qos_zero(void **state)
{
	static const s64 zero_c1[][2] = { { 0, 0 }, { 0, 2 * US }, { 10 * US, 20 * US },
					  { 133 * US, 600 * US } };
	struct testenv te;
	bool stop;

	/*
	 * 6.14 with a C1 of zero exit latency: candidate 3, no intercepts, clamp to
	 * constraint_idx = 1 (menu would return 0). 2 µs < 15 µs and latency_req 0 < 7.5 µs: no
	 * timer query, tick kept.
	 */
	te_init(&te, "teo-6.14", true, 4, zero_c1);
	te.qos.cpu_latency_us = 0;
	assert_int_equal(idle(&te, 5 * MS, 5 * MS, &stop), 1);
	assert_false(stop);
	assert_int_equal(te.sleep_queries, 0);
	assert_int_equal((s64)v(&te, "constraint_idx"), 1);
	te_fini(&te);

	/* skx: every state >= 1 has a non-zero exit latency: constraint_idx 0, POLL. */
	te_init(&te, "teo-7.1", true, 4, skx);
	te.qos.cpu_latency_us = 0;
	assert_int_equal(idle(&te, 5 * MS, 5 * US, &stop), 0);
	assert_false(stop);
	te_fini(&te);

	/*
	 * Only C6 enabled: idx == idx0 == 3, duration_ns = tr[3] = 600 µs, no clamp: C6 in spite of
	 * QoS 0; 600 µs < TICK keeps the tick, and 3 is not deeper than idx0.
	 */
	te_init(&te, "teo-7.1", true, 4, skx);
	te.qos.cpu_latency_us = 0;
	for (int i = 0; i < 3; i++)
		te.dev.states_usage[i].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	assert_int_equal(idle(&te, 5 * MS, 5 * MS, &stop), 3);
	assert_false(stop);
	assert_int_equal(te.sleep_queries, 0);
	te_fini(&te);
}

/*
 * A single enabled state with a residency beyond a tick: no choice, no timer query, and the
 * tick may stop (duration_ns = tr >= TICK).
 */
static void test_single_enabled_state(void **state)
{
	static const char *const presets[] = { "teo-6.13", "teo-6.14", "teo-6.19", "teo-7.0",
					       "teo-7.1", "teo-6.12.117" };

	for (int p = 0; p < 6; p++) {
		struct testenv te;
		bool stop;

		te_init(&te, presets[p], false, 4, deep);
		for (int i = 0; i < 3; i++)
			te.dev.states_usage[i].disable = CPUIDLE_STATE_DISABLED_BY_USER;
		assert_int_equal(idle(&te, 500 * US, 500 * US, &stop), 3);
		assert_true(stop);
		assert_int_equal(te.sleep_queries, 0);
		assert_int_equal((s64)v(&te, "duration_ns"), 5 * MS);
		te_fini(&te);
	}
}

/*
 * teo-6.12.117 = teo-6.13 + a03b2011808a: after the timer query the shallower state is used
 * even when the stopped tick makes teo_state_ok() fail (as in 6.19+); 6.13 ... 6.18 keep the
 * deeper candidate.
 */
static void test_612117_drops_state_ok_after_query(void **state)
{
	static const char *const presets[] = { "teo-6.13", "teo-6.14", "teo-6.17",
					       "teo-6.12.117", "teo-6.19" };
	static const int expected[] = { 3, 3, 3, 2, 2 };

	for (int p = 0; p < 5; p++) {
		struct testenv te;
		bool stop;

		/*
		 * First select, tick stopped: hits[0] = 1024 (no intercepts in any of these), candidate
		 * 3, no search; C6 is not shallow: the timer is read, 100 µs < tr[3] = 600 µs. The
		 * deepest enabled state below that fits is 2 (20 µs). teo_state_ok(2): tick stopped
		 * and 20 µs < TICK: false, so 6.13-6.18 keep 3; 6.12.117 and 6.19 take 2. The tick
		 * is stopped already: returned as is.
		 */
		te_init(&te, presets[p], true, 4, skx);
		te.tick_stopped = true;
		assert_int_equal(idle(&te, 100 * US, 100 * US, &stop), expected[p]);
		assert_true(stop);
		te_fini(&te);
	}
}

/*
 * The a03b2011808a hunk only matters with a stopped tick (teo_state_ok() is true otherwise), so
 * with the tick always running teo-6.12.117 and teo-6.13 must agree on every decision and every
 * metric, disabled states included. A small LCG drives the inputs.
 */
static void test_612117_equals_613_while_tick_runs(void **state)
{
	struct testenv a, b;
	u64 x = 12345;

	te_init(&a, "teo-6.13", true, 4, skx);
	te_init(&b, "teo-6.12.117", true, 4, skx);
	for (int step = 0; step < 5000; step++) {
		s64 sleep_ns, res_ns;
		bool sa, sb;

		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		sleep_ns = (s64)((x >> 33) % (8 * MS));
		res_ns = (x >> 20) & 1 ? sleep_ns : (s64)((x >> 40) % (sleep_ns + 1));
		if (((x >> 10) & 63) == 0) {
			int i = (int)((x >> 16) & 3);

			a.dev.states_usage[i].disable ^= 1;
			b.dev.states_usage[i].disable ^= 1;
		}
		assert_int_equal(idle(&a, sleep_ns, res_ns, &sa), idle(&b, sleep_ns, res_ns, &sb));
		assert_int_equal(sa, sb);
		for (int i = 0; i < 4; i++) {
			static const char *const names[] = { "state_bins[0].intercepts",
							     "state_bins[1].intercepts",
							     "state_bins[2].intercepts",
							     "state_bins[3].intercepts" };

			assert_int_equal(v(&a, names[i]), v(&b, names[i]));
		}
		assert_int_equal(v(&a, "total"), v(&b, "total"));
		assert_int_equal(v(&a, "tick_hits"), v(&b, "tick_hits"));
	}
	te_fini(&a);
	te_fini(&b);
}

/*
 * 7.0, tick stopped: when the floor min_idx has the same target residency as the candidate,
 * the search is skipped and the (deeper) candidate is kept.
 */
static void test_70_same_residency_shortcut(void **state)
{
	static const s64 twins[][2] = { { 0, 0 }, { 100 * US, 2 * MS }, { 500 * US, 2 * MS } };
	struct testenv te;
	bool stop;

	/*
	 * First select: the zeroed update gives intercepts[0] = 1024, total 1024; candidate 2,
	 * intercepts below it 1024 > 1024 - 0 halves: search. min_idx climbs from 0 to 1 (2 ms >=
	 * TICK) and tr[1] == tr[2]: keep 2 (without this shortcut, min_idx 1 >= intercept_max_idx
	 * 0 would give 1). 2 ms is not shallow: query (5 ms); no keep-tick (2 ms >= TICK): 2.
	 */
	te_init(&te, "teo-7.0", true, 3, twins);
	te.tick_stopped = true;
	assert_int_equal(idle(&te, 5 * MS, 5 * MS, &stop), 2);
	assert_true(stop);
	te_fini(&te);
}

/*
 * Poll time limit + got_tick. Up to 6.18 reflect tests poll_time_limit first and the C `||`
 * never reads (so never clears) got_tick; 6.19+ read got_tick unconditionally in reflect and
 * clear poll_time_limit in the next update.
 */
static void test_poll_timeout_short_circuit(void **state)
{
	static const char *const presets[] = { "teo-6.13", "teo-6.14", "teo-6.19" };

	for (int p = 0; p < 3; p++) {
		struct testenv te;
		bool stop;

		/*
		 * Only POLL enabled: idx == idx0 == 0, duration 0, polling: tick kept. The poll limit
		 * is TICK/16 = 62.5 µs (no enabled state >= 10 µs), so a 100 µs idle period ends on it.
		 */
		te_init(&te, presets[p], true, 4, skx);
		for (int i = 1; i < 4; i++)
			te.dev.states_usage[i].disable = CPUIDLE_STATE_DISABLED_BY_USER;
		te.got_tick = true;
		assert_int_equal(idle(&te, 5 * MS, 100 * US, &stop), 0);
		if (p < 2) {
			assert_int_equal(te.got_tick_reads, 0);
			assert_true(te.got_tick);
			assert_false(te.dev.poll_time_limit);
		} else {
			assert_int_equal(te.got_tick_reads, 1);
			assert_false(te.got_tick);
			assert_true(te.dev.poll_time_limit);
			assert_int_equal(v(&te, "tick_wakeup"), 1);
		}
		if (p == 0) /* the safety net: time_span_ns = sleep_length_ns (KTIME_MAX, unread) */
			assert_int_equal((s64)v(&te, "time_span_ns"), KTIME_MAX);
		if (p == 1)
			assert_int_equal(v(&te, "artificial_wakeup"), 1);
		te_fini(&te);
	}
}

/*
 * 7.x: sleep_length_ns - measured_ns is an s64 subtraction that wraps. After a poll timeout
 * measured_ns = S64_MAX; with a sleep length of -9e18 the difference wraps to
 * +223372036854775809, not < lat/2 = 0, so the wakeup is an intercept, not a hit.
 */
static void test_71_s64_wrap_in_hit_test(void **state)
{
	struct testenv te;
	bool stop;

	/*
	 * Select 1 (7.1, QoS 0, tick stopped): intercepts[0] = 1024 from the zeroed update, the
	 * search gives 0, constraint_idx 0; the stopped tick forces the query (-9e18), which is
	 * not > 2 * TICK: state 0. 100 µs of polling ends on the 20 µs poll limit (first state >=
	 * 10 µs is C1E).
	 */
	te_init(&te, "teo-7.1", true, 4, skx);
	te.qos.cpu_latency_us = 0;
	te.tick_stopped = true;
	assert_int_equal(idle(&te, -9000000000000000000LL, 100 * US, &stop), 0);
	assert_true(te.dev.poll_time_limit);
	/*
	 * Select 2: measured = S64_MAX; no residency fits -9e18, so idx_timer = idx_duration = 0;
	 * -9e18 - S64_MAX wraps positive: intercept. intercepts[0] = 896 + 1024 = 1920, hits[0]
	 * stays 0; S64_MAX <= TICK fails: tick_intercepts only decays, 1024 -> 896.
	 */
	idle(&te, 5 * MS, 5 * MS, &stop);
	assert_int_equal((s64)v(&te, "measured_ns"), INT64_MAX);
	assert_int_equal(v(&te, "state_bins[0].intercepts"), 1920);
	assert_int_equal(v(&te, "state_bins[0].hits"), 0);
	assert_int_equal(v(&te, "tick_intercepts"), 896);
	te_fini(&te);
}

/*
 * teo-6.1.192: the timer is read first, an intercept-driven choice replaces duration_ns by
 * the middle of the chosen state's bin, and the recent ring remembers the last 9 wakeups.
 */
static void test_61192_middle_of_bin(void **state)
{
	struct testenv te;
	bool stop;

	/*
	 * Select 1: zeroed update (time span 0 >= sleep length 0): hit on bin 0, ring slot 0 = -1,
	 * next_recent_idx 1, total 1024. Timer 5 ms: candidate 3 (every state fits), no
	 * intercepts: 3, tick stopped (5 ms >= TICK).
	 */
	te_init(&te, "teo-6.1.192", true, 4, skx);
	assert_int_equal(idle(&te, 5 * MS, 100 * US, &stop), 3);
	assert_true(stop);
	assert_int_equal(te.sleep_queries, 1);
	assert_int_equal((s64)v(&te, "recent_idx[0]"), -1);
	/*
	 * Select 2: woken after 100 µs in C6: measured = 100000 / 2 = 50000 (below the exit
	 * latency), bin 2: intercepts[2] = 1024, recent[2] = 1, ring slot 1 = 2. hits[0] 896,
	 * total 1920. Below 3: intercepts 1024, hits 896; 2*1024 > 1920 - 896 = 1024:
	 * alt_intercepts (alt_recent would need more than 4 recent intercepts). i = 2 reaches
	 * 2048 > 1024 and the tick runs: state 2 with duration = (20 µs + 600 µs) / 2 = 310 µs <
	 * TICK, so the tick is kept; 20 µs fits delta_tick.
	 */
	assert_int_equal(idle(&te, 5 * MS, 5 * MS, &stop), 2);
	assert_false(stop);
	assert_int_equal((s64)v(&te, "duration_ns"), 310 * US);
	assert_int_equal(v(&te, "state_bins[2].recent"), 1);
	assert_int_equal((s64)v(&te, "recent_idx[1]"), 2);
	assert_int_equal((s64)v(&te, "next_recent_idx"), 2);
	assert_int_equal(v(&te, "total"), 1920);
	te_fini(&te);
}

static void test_61192_recent_ring(void **state)
{
	struct testenv te;
	bool stop;

	te_init(&te, "teo-6.1.192", true, 4, skx);
	idle(&te, 5 * MS, 100 * US, &stop); /* update 1: hit, slot 0 */
	/*
	 * Update k (at select k) classifies the wakeup of idle period k - 1. Idle periods 1..5 end
	 * after 100 µs; whatever non-polling state was entered (exit latency 2, 10 or 133 µs),
	 * measured lies in [50, 99] µs: bin 2 every time. So updates 2..6 fill ring slots 1..5
	 * with 2 and recent[2] = 5 (select 1 chose 3; selects 2..5 are checked not to poll).
	 */
	for (int k = 2; k <= 5; k++)
		assert_int_not_equal(idle(&te, 5 * MS, 100 * US, &stop), 0);
	idle(&te, 5 * MS, 5 * MS, &stop); /* select 6 runs update 6 */
	assert_int_equal(v(&te, "state_bins[2].recent"), 5);
	assert_int_equal((s64)v(&te, "next_recent_idx"), 6);
	for (int k = 1; k <= 5; k++) {
		static const char *const slot[] = { "", "recent_idx[1]", "recent_idx[2]",
						    "recent_idx[3]", "recent_idx[4]",
						    "recent_idx[5]" };

		assert_int_equal((s64)v(&te, slot[k]), 2);
	}
	/*
	 * Updates 7..15 classify idle periods 6..14: timer wakeups (residency = sleep length, so
	 * time span >= sleep length, measured = U64_MAX: hits; a poll time-out would count the
	 * same). Each writes -1 into one slot, 6, 7, 8, 0, 1, ..., 5; slots 1..5 give back their
	 * "recent" count. Then every slot is -1, recent[2] = 0 and next_recent_idx = 15 mod 9 = 6.
	 */
	for (int k = 0; k < 9; k++)
		idle(&te, 5 * MS, 5 * MS, &stop);
	assert_int_equal(v(&te, "state_bins[2].recent"), 0);
	assert_int_equal((s64)v(&te, "next_recent_idx"), 6);
	assert_int_equal((s64)v(&te, "recent_idx[3]"), -1);
	te_fini(&te);
}

/*
 * teo-6.1.192: five of the last nine wakeups were intercepts, which alone (alt_recent) sends
 * the search below the candidate while the intercepts metric does not.
 */
static void test_61192_recent_alone_triggers_search(void **state)
{
	struct testenv te;
	bool stop;
	int k;

	te_init(&te, "teo-6.1.192", true, 4, skx);
	/*
	 * Update 1 (zeroed data): hits[0] = 1024. Idle periods 1..60 are 5 ms timer wakeups,
	 * classified by updates 2..61 as hits in bin 3 (time span >= sleep length): hits[3] goes
	 * 1024, 1920, 2704, ... and settles at 8192 (8192 - 1024 + 1024), while hits[0] decays
	 * 1024, 896, ... to 7 and stays there (7 >> 3 == 0).
	 */
	for (k = 1; k <= 60; k++)
		idle(&te, 5 * MS, 5 * MS, &stop);
	/*
	 * Idle periods 61..65 end after 100 µs in C6: bin 2 intercepts, classified by updates
	 * 62..66. Until the 5th one recent[2] <= 4 and the intercepts metric stays below the hits
	 * of bin 3, so C6 keeps being chosen (checked: each of these selects returns 3).
	 */
	for (; k <= 65; k++)
		assert_int_equal(idle(&te, 5 * MS, 100 * US, &stop), 3);
	/*
	 * Select 66, after five decays: hits[3] = 8192 -> 7168 -> 6272 -> 5488 -> 4802 -> 4202,
	 * intercepts[2] = 1024, 1920, 2704, 3390, 3991; hits[0] 7; total = 7 + 4202 + 3991 = 8200.
	 * alt_intercepts: 2*3991 = 7982 > 8200 - 7 = 8193 fails. alt_recent: 5 > 4. Search at
	 * i = 2: 2*5 > 5 (the intercept half is not required): state 2 with duration = 310 µs
	 * (middle of bin 2) < TICK, so the tick is kept.
	 */
	assert_int_equal(idle(&te, 5 * MS, 5 * MS, &stop), 2);
	assert_false(stop);
	assert_int_equal(v(&te, "state_bins[3].hits"), 4202);
	assert_int_equal(v(&te, "state_bins[2].intercepts"), 3991);
	assert_int_equal(v(&te, "state_bins[2].recent"), 5);
	assert_int_equal(v(&te, "state_bins[0].hits"), 7);
	assert_int_equal(v(&te, "total"), 8200);
	assert_int_equal((s64)v(&te, "duration_ns"), 310 * US);
	te_fini(&te);
}

/* vars(): each version shows its own upstream fields only. */
static void test_vars_per_version(void **state)
{
	static const struct {
		const char *preset, *has, *lacks;
	} cases[] = {
		{ "teo-6.13", "tick_hits", "short_idles" },
		{ "teo-6.14", "artificial_wakeup", "time_span_ns" },
		{ "teo-6.19", "total_tick", "artificial_wakeup" },
		{ "teo-7.1", "tick_wakeup", "tick_hits" },
		{ "teo-6.1.192", "recent_idx[8]", "tick_intercepts" },
		{ "teo-6.12.117", "time_span_ns", "state_bins[0].recent" },
	};

	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		struct il_var vars[IL_MAX_VARS];
		struct testenv te;
		bool has = false, lacks = true;
		int n;

		te_init(&te, cases[c].preset, true, 4, skx);
		n = te.dev.preset->gov->vars(&te.dev, vars, IL_MAX_VARS);
		for (int i = 0; i < n; i++) {
			if (!strcmp(vars[i].name, cases[c].has))
				has = !vars[i].diag;
			if (!strcmp(vars[i].name, cases[c].lacks))
				lacks = false;
			/* Bins exist for the 4 states only. */
			assert_int_not_equal(strcmp(vars[i].name, "state_bins[4].hits"), 0);
		}
		assert_true(has);
		assert_true(lacks);
		te_fini(&te);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_613_tick_bin_hits_and_intercepts),
		cmocka_unit_test(test_613_keep_tick),
		cmocka_unit_test(test_search_to_state0_timer_query_613_vs_614),
		cmocka_unit_test(test_614_skip_timer_query_shallow_state),
		cmocka_unit_test(test_intercept_search_state_ok),
		cmocka_unit_test(test_search_threshold_at_disabled_state),
		cmocka_unit_test(test_tick_intercepts_614_vs_619),
		cmocka_unit_test(test_decay_floor_vs_teo_decay),
		cmocka_unit_test(test_first_select_619_vs_70),
		cmocka_unit_test(test_hit_needs_wakeup_near_timer_70),
		cmocka_unit_test(test_tick_wakeups_619_vs_70),
		cmocka_unit_test(test_70_keep_tick),
		cmocka_unit_test(test_71_stopped_tick_rule),
		cmocka_unit_test(test_qos_zero),
		cmocka_unit_test(test_single_enabled_state),
		cmocka_unit_test(test_612117_drops_state_ok_after_query),
		cmocka_unit_test(test_612117_equals_613_while_tick_runs),
		cmocka_unit_test(test_70_same_residency_shortcut),
		cmocka_unit_test(test_poll_timeout_short_circuit),
		cmocka_unit_test(test_71_s64_wrap_in_hit_test),
		cmocka_unit_test(test_61192_middle_of_bin),
		cmocka_unit_test(test_61192_recent_ring),
		cmocka_unit_test(test_61192_recent_alone_triggers_search),
		cmocka_unit_test(test_vars_per_version),
	};

	return cmocka_run_group_tests_name("teo", tests, NULL, NULL);
}
