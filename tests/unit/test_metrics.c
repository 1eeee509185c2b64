// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tests of lib/metrics: the latency histogram, PowerNightmares, miss ratios, the energy model.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "metrics/metrics.h"
#include "util/array.h"

static void test_hist_exact_small(void **state)
{
	struct il_hist h;

	assert_int_equal(il_hist_init(&h), 0);
	for (u64 v = 1; v <= 2047; v++)
		il_hist_add(&h, v);
	assert_int_equal(h.count, 2047);
	assert_int_equal(il_hist_percentile(&h, 500), 1024);
	assert_int_equal(il_hist_percentile(&h, 990), 2027);
	assert_int_equal(il_hist_percentile(&h, 999), 2045);
	assert_int_equal(il_hist_percentile(&h, 1000), 2047);
	assert_int_equal(il_hist_percentile(&h, 0), 1);
	assert_int_equal(h.max, 2047);
	assert_true(il_hist_mean(&h) == 1024.0);
	il_hist_free(&h);
}

/* From 2048 ns a bucket is 1/1024 of its power of two wide: the value is within 0.098 %. */
static void test_hist_precision(void **state)
{
	struct il_hist h;
	static const u64 values[] = { 2048, 2049, 4095, 12345, 999999, 1032192, 1033000,
				      123456789, 40000000000ULL };

	for (size_t i = 0; i < ARRAY_SIZE(values); i++) {
		u64 v = values[i], got;

		assert_int_equal(il_hist_init(&h), 0);
		il_hist_add(&h, v);
		il_hist_add(&h, v * 2); /* so that max does not clip the median */
		il_hist_add(&h, v * 2);
		got = il_hist_percentile(&h, 300);
		assert_int_equal(got, v); /* one distinct value in its bucket: exact */
		il_hist_free(&h);
		/* two values in one bucket: the rank-2 value b reads as a, within 1/1024 */
		if (v >= 2 * IL_HIST_SUB) {
			unsigned int msb = 63 - (unsigned int)__builtin_clzll(v);
			u64 width = 1ULL << (msb - IL_HIST_SUB_BITS);
			u64 lo = v & ~(width - 1), hi = lo + width / 2;

			assert_int_equal(il_hist_init(&h), 0);
			il_hist_add(&h, hi);
			il_hist_add(&h, lo);
			il_hist_add(&h, 4 * v);
			il_hist_add(&h, 4 * v);
			got = il_hist_percentile(&h, 500);
			assert_int_equal(got, lo);
			assert_true((double)(hi - got) / (double)hi < 0.001);
			il_hist_free(&h);
		}
	}
	assert_int_equal(il_hist_init(&h), 0);
	assert_int_equal(il_hist_percentile(&h, 500), 0);
	assert_true(il_hist_mean(&h) == 0.0);
	il_hist_free(&h);
}

/* Two latencies 0.2 % apart, which the old 64-step histogram put into one bucket, differ. */
static void test_hist_resolves_close_values(void **state)
{
	struct il_hist a, b;

	assert_int_equal(il_hist_init(&a), 0);
	assert_int_equal(il_hist_init(&b), 0);
	for (int i = 0; i < 1000; i++) {
		il_hist_add(&a, 1032192 + (u64)i);
		il_hist_add(&b, 1034300 + (u64)i);
	}
	assert_true(il_hist_percentile(&a, 990) < il_hist_percentile(&b, 990));
	assert_true(il_hist_mean(&a) == 1032192 + 499.5);
	il_hist_free(&a);
	il_hist_free(&b);
}

/* A copy that dropped its buckets (a lab result) reports 0 rather than reading freed memory. */
static void test_hist_without_buckets(void **state)
{
	struct il_hist h = { .count = 3, .max = 9, .sum = 12, .bucket = NULL };

	assert_int_equal(il_hist_percentile(&h, 500), 0);
	assert_true(il_hist_mean(&h) == 4.0);
	il_hist_free(&h);
}

/* The summary carries p50, p90, p99, p99.9, the exact mean and the exact max. */
static void test_summary_latency(void **state)
{
	struct il_metrics m;
	struct il_summary s;

	assert_int_equal(il_metrics_init(&m, 1, 2, NULL), 0);
	for (u64 v = 1; v <= 1000; v++)
		il_hist_add(&m.wake_latency, v);
	il_hist_add(&m.wake_latency, 1000003);
	il_metrics_summarize(&m, NULL, &s);
	assert_int_equal(s.wake_count, 1001);
	assert_int_equal(s.wake_p50_ns, 501);
	assert_int_equal(s.wake_p90_ns, 901);
	assert_int_equal(s.wake_p99_ns, 991);
	assert_int_equal(s.wake_p999_ns, 1000);
	assert_int_equal(s.wake_max_ns, 1000003);
	assert_true(s.wake_mean_ns == (500500.0 + 1000003.0) / 1001.0);
	il_metrics_free(&m);
}

/*
 * One finished idle period, recorded the way the simulator records it (lib/sim/engine.c):
 * the PowerNightmare test per period, the usage, time, above and below counts from the
 * device's accounting.
 */
static void record_idle(struct il_metrics *m, unsigned int cpu, int idx, u64 diff_ns,
			enum il_miss miss)
{
	struct il_state_usage usage[CPUIDLE_STATE_MAX] = { 0 };

	usage[idx].usage = 1;
	usage[idx].time_ns = diff_ns;
	usage[idx].above = miss == IL_MISS_ABOVE;
	usage[idx].below = miss == IL_MISS_BELOW;
	il_metrics_nightmare(m, cpu, idx, diff_ns);
	il_metrics_add_usage(m, cpu, usage);
}

static void test_nightmares_and_ratio(void **state)
{
	struct il_metrics m;
	struct il_summary s;
	static const u64 pn_us[IL_PN_LEVELS] = { 50, 500, 5000, 5000 };

	assert_int_equal(il_metrics_init(&m, 2, 3, NULL), 0);
	/* Default thresholds: state 0 100 µs, state 1 1000 µs; the deepest state never counts. */
	record_idle(&m, 0, 0, 100000, IL_MISS_NONE);     /* not over 100 µs */
	record_idle(&m, 0, 0, 100001, IL_MISS_BELOW);    /* nightmare */
	record_idle(&m, 1, 1, 2000000, IL_MISS_BELOW);   /* nightmare */
	record_idle(&m, 1, 2, 90000000, IL_MISS_NONE);   /* deepest: never */
	record_idle(&m, 1, 2, 10000, IL_MISS_ABOVE);
	il_metrics_open_idle(&m, 1, 2, 5000);
	m.duration_ns = 100000000;
	il_metrics_summarize(&m, NULL, &s);
	assert_int_equal(s.idles, 5);
	assert_int_equal(s.belows, 2);
	assert_int_equal(s.aboves, 1);
	assert_int_equal(s.idle_misses, 3);
	assert_true(s.idle_miss_ratio > 0.5999 && s.idle_miss_ratio < 0.6001);
	assert_int_equal(s.nightmares, 2);
	assert_int_equal(s.state_nightmare_ns[0], 100001);
	assert_int_equal(s.state_nightmare_ns[1], 2000000);
	assert_int_equal(s.time_ns[2], 90000000 + 10000 + 5000);
	assert_int_equal(s.usage[2], 2);
	assert_false(s.energy_known);
	il_metrics_free(&m);

	assert_int_equal(il_metrics_init(&m, 1, 2, pn_us), 0);
	record_idle(&m, 0, 0, 60000, IL_MISS_NONE);
	il_metrics_summarize(&m, NULL, &s);
	assert_int_equal(s.nightmares, 1);
	il_metrics_free(&m);
}

/* 1 s busy at 2 W, 1 s in a 100 mW state with 1000 entries of 50 µJ: 2 + 0.1 + 0.05 J. */
static void test_energy(void **state)
{
	struct il_metrics m;
	struct il_summary s;
	struct il_power pw = { .active_uw = 2000000, .known = true };

	pw.state_uw[0] = 100000;
	pw.entry_exit_nj[0] = 50000;
	assert_int_equal(il_metrics_init(&m, 1, 1, NULL), 0);
	m.cpu[0].busy_ns = 1000000000;
	for (int i = 0; i < 1000; i++)
		record_idle(&m, 0, 0, 1000000, IL_MISS_NONE);
	m.duration_ns = 2000000000;
	il_metrics_summarize(&m, &pw, &s);
	assert_true(s.energy_known);
	assert_true(s.joules > 2.1499 && s.joules < 2.1501);
	assert_true(s.watts > 1.0749 && s.watts < 1.0751);
	il_metrics_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hist_exact_small),
		cmocka_unit_test(test_hist_precision),
		cmocka_unit_test(test_hist_resolves_close_values),
		cmocka_unit_test(test_hist_without_buckets),
		cmocka_unit_test(test_summary_latency),
		cmocka_unit_test(test_nightmares_and_ratio),
		cmocka_unit_test(test_energy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
