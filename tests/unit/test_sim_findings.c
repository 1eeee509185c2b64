// SPDX-License-Identifier: GPL-2.0-only
/*
 * The seeds' findings (issue 4, "Tests"), as regression tests of the lab. Each test names
 * the thread it comes from; docs/lab.md says how each one is set up and where the model's
 * numbers still differ from the seeds'.
 *
 *  1. pseries pipe wakeups at 30-120 µs: menu-6.13 puts the wakee CPU in CEDE nearly every
 *     time (above ratio near 100 %), teo almost never (Aboorva Devarajan, 07d815701274).
 *  2. fast 2-CPU ping-pong on the i5-10600K: menu-6.17 (779b1a1cb13a) almost never polls
 *     where menu-6.16 does, and loses throughput; menu-6.18 (db86f55bf81a) restores both
 *     (Doug Smythies, seeds/002). 2b: at the default parameters no seed falls into a slow
 *     C2/C3 mode and menu-6.18 stays with menu-6.16.
 *  3. idle and idle + one busy CPU: menu-4.16 spends far more time in PowerNightmares than
 *     menu-4.17, the "stop the tick later" series (seeds/003).
 *  4. fio on rk3588: teo has a lower idle miss ratio than menu-6.13 on nvme and mmcblk
 *     (Christian Loehle, seeds/000).
 *  4b. fio on rk3588, the request structure of the seeds' rows (seeds/000, "full dump",
 *     30 s runs) in the battery's rows: nvme about 2 idle periods per request, sda 19,
 *     mmcblk 13; teo with few too-deep and almost no too-shallow periods, menu-6.13 with
 *     many more too-deep ones and slower than teo and menu-5 on all three devices.
 *  4c. fio on rk3588, the battery's rows: menu-5 has far fewer of the misses the seeds' table
 *     calls "belows" than menu-6.13 on nvme, sda and mmcblk, and more iops; menu-4 still has
 *     menu-6.13's. Those misses are the kernel's aboves (too deep): docs/lab.md, "Which
 *     counter is the seeds' belows column?", gives the four reasons.
 *  5. SPECjbb (seeds/000, cover letter): with fewer timer interrupts menu-6.13 picks the
 *     deepest state far more often and the response time suffers; teo does not; the
 *     series (menu-5) restores it.
 *  6. pseries timer wakeups at 130 µs: menu-6.13 sleeps too shallow and too deep in about
 *     15 % of the wakee's periods each (Aboorva Devarajan, seeds/001: 16.71 % and 15.84 %),
 *     menu-5 and teo-6.14 too deep in under 1 %. A snooze that reaches its limit (CEDE's 120
 *     µs) is too shallow, and the CEDE menu-6.13 selects next, with the sleep length still
 *     counted from the idle loop's start, ends at the timer a few µs later: too deep.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "lab/battery.h"
#include "scenario/scenarios.h"
#include "testlab.h"
#include "util/array.h"

#define SEC 1000000000ULL

static u64 cpu_idles(const struct il_lab_result *res, unsigned int cpu)
{
	u64 idles = 0;

	for (int i = 0; i < res->nstates; i++)
		idles += res->m.cpu[cpu].st[i].usage;
	return idles;
}

/* aboves (too deep) or, with @below, belows (too shallow) / idles of one CPU. */
static double cpu_miss_ratio(const struct il_lab_result *res, unsigned int cpu, bool below)
{
	u64 idles = cpu_idles(res, cpu), misses = 0;

	for (int i = 0; i < res->nstates; i++)
		misses += below ? res->m.cpu[cpu].st[i].below : res->m.cpu[cpu].st[i].above;
	return idles ? (double)misses / (double)idles : 0.0;
}

static void test_pseries_pipe_wakeups(void **state)
{
	static const char *const specs[] = {
		"wakeup:mode=pipe,interval_us=30", "wakeup:mode=pipe,interval_us=60", "wakeup:mode=pipe,interval_us=120",
	};

	for (size_t i = 0; i < ARRAY_SIZE(specs); i++) {
		struct il_lab_result menu, teo, teo613;

		tl_lab_run("pseries", "menu-6.13", specs[i], 1, SEC, &menu);
		tl_lab_run("pseries", "teo", specs[i], 1, SEC, &teo);
		tl_lab_run("pseries", "teo-6.13", specs[i], 1, SEC, &teo613);
		/* CPU 1 is the wakee: it sees only the pipe wakeups. */
		assert_true(cpu_miss_ratio(&menu, 1, false) > 0.9);
		assert_true(cpu_miss_ratio(&teo, 1, false) < 0.05);
		assert_true(cpu_miss_ratio(&teo613, 1, false) < 0.05);
		il_lab_result_free(&menu);
		il_lab_result_free(&teo);
		il_lab_result_free(&teo613);
	}
}

static void test_pseries_timer_130us(void **state)
{
	struct il_lab_result menu, menu5, teo;
	const char *spec = "wakeup:mode=timer,interval_us=130";

	tl_lab_run("pseries", "menu-6.13", spec, 1, SEC, &menu);
	tl_lab_run("pseries", "menu-5", spec, 1, SEC, &menu5);
	tl_lab_run("pseries", "teo-6.14", spec, 1, SEC, &teo);
	assert_in_range((u64)(1000 * cpu_miss_ratio(&menu, 1, true)), 100, 200);
	assert_in_range((u64)(1000 * cpu_miss_ratio(&menu, 1, false)), 100, 200);
	assert_true(cpu_miss_ratio(&menu5, 1, false) < 0.01);
	assert_true(cpu_miss_ratio(&teo, 1, false) < 0.01);
	/* the waker's CPU idles in one period from the start until its watchdog timer */
	assert_true(cpu_idles(&menu, 0) <= 1);
	il_lab_result_free(&menu);
	il_lab_result_free(&menu5);
	il_lab_result_free(&teo);
}

/* usage of state 0 (POLL) / idles */
static double poll_share(const struct il_lab_result *res)
{
	return res->sum.idles ? (double)res->sum.usage[0] / (double)res->sum.idles : 0.0;
}

/*
 * qos_us=100 leaves POLL and C1 as the only candidates (C2_ACPI exits in 120 µs), the
 * choice the finding is about; see docs/lab.md for the ring's bi-stability without it.
 */
static void test_pingpong_poll(void **state)
{
	for (u64 seed = 1; seed <= 3; seed++) {
		struct il_lab_result m16, m17, m18;

		tl_lab_run("i5-10600k", "menu-6.16", "pingpong:qos_us=100", seed, SEC / 2, &m16);
		tl_lab_run("i5-10600k", "menu-6.17", "pingpong:qos_us=100", seed, SEC / 2, &m17);
		tl_lab_run("i5-10600k", "menu-6.18", "pingpong:qos_us=100", seed, SEC / 2, &m18);
		assert_string_equal(m16.drv.states[0].name, "POLL");
		assert_true(poll_share(&m16) > 0.2);
		assert_true(poll_share(&m17) < 0.001);
		assert_true(poll_share(&m18) > 0.2);
		/* us_per_loop: 6.17 is slower by more than 10 %, 6.18 is back. */
		assert_true(m17.score > 1.1 * m16.score);
		assert_true(m18.score < 1.02 * m16.score);
		il_lab_result_free(&m16);
		il_lab_result_free(&m17);
		il_lab_result_free(&m18);
	}
}

/*
 * 2b. Doug's finding at the DEFAULT ring (no QoS limit), seeds/002 lines 36-38: menu-6.17
 * loses 5-20 % against menu-6.16, which polls on part of its periods, and menu-6.18 is back.
 * What carries it is the stop's measured spread (pingpong's overhead_sigma, bench/pipe_hop):
 * with a fixed 900 ns stop every POLL period is a 0 us sample, eight in a row leave menu-6.16
 * with no prediction, and its C2 excursions ate the gain on most seeds (docs/lab.md). 5 s,
 * as a 1 s ring can still sit in one mode for its whole run.
 */
static void test_pingpong_default_617(void **state)
{
	for (u64 seed = 1; seed <= 3; seed++) {
		struct il_lab_result m16, m17, m18, fixed16;

		tl_lab_run("i5-10600k", "menu-6.16", "pingpong", seed, 5 * SEC, &m16);
		tl_lab_run("i5-10600k", "menu-6.17", "pingpong", seed, 5 * SEC, &m17);
		tl_lab_run("i5-10600k", "menu-6.18", "pingpong", seed, 5 * SEC, &m18);
		assert_true(m17.score > 1.05 * m16.score && m17.score < 1.20 * m16.score);
		assert_true(poll_share(&m16) > 0.05);
		assert_true(poll_share(&m17) < 0.001);
		assert_true(m18.score < 1.05 * m16.score && m18.score > 0.95 * m16.score);
		/* The fixed stop of before stays out of the slow C2/C3 mode of older models. */
		tl_lab_run("i5-10600k", "menu-6.16", "pingpong:overhead_sigma=0", seed, SEC,
			   &fixed16);
		assert_true(fixed16.score < 4.0);
		il_lab_result_free(&m16);
		il_lab_result_free(&m17);
		il_lab_result_free(&m18);
		il_lab_result_free(&fixed16);
	}
}

static void test_4_16_powernightmares(void **state)
{
	static const char *const specs[] = { "idle", "idle-busy" };

	for (size_t i = 0; i < ARRAY_SIZE(specs); i++) {
		struct il_lab_result m416, m417;

		tl_lab_run("skx", "menu-4.16", specs[i], 1, 30 * SEC, &m416);
		tl_lab_run("skx", "menu-4.17", specs[i], 1, 30 * SEC, &m417);
		assert_true(m416.sum.nightmare_s > 3 * m417.sum.nightmare_s);
		assert_true(m416.sum.nightmare_s > 1.0);
		il_lab_result_free(&m416);
		il_lab_result_free(&m417);
	}
}

static void test_fio_teo_fewer_misses(void **state)
{
	static const char *const specs[] = { "fio:device=nvme", "fio:device=mmcblk" };

	for (size_t i = 0; i < ARRAY_SIZE(specs); i++) {
		for (u64 seed = 1; seed <= 2; seed++) {
			struct il_lab_result menu, teo;

			tl_lab_run("rk3588", "menu-6.13", specs[i], seed, 5 * SEC, &menu);
			tl_lab_run("rk3588", "teo", specs[i], seed, 5 * SEC, &teo);
			assert_true(teo.sum.idle_miss_ratio < menu.sum.idle_miss_ratio);
			/* and it does not cost throughput: iops at least menu's */
			assert_true(teo.score >= menu.score);
			il_lab_result_free(&menu);
			il_lab_result_free(&teo);
		}
	}
}

/* The battery's row for @device ("fio:device=nvme..."): the rows `make demo` prints. */
static const char *battery_fio_spec(const char *device)
{
	char prefix[64];

	snprintf(prefix, sizeof(prefix), "fio:device=%s,", device);
	for (int i = 0; i < il_battery_count(); i++)
		if (!strncmp(il_battery_at(i)->spec, prefix, strlen(prefix)))
			return il_battery_at(i)->spec;
	fail_msg("no battery row for %s", device);
	return NULL;
}

/* A count per completed request. */
static double per_request(const struct il_lab_result *res, u64 count, u64 time_ns)
{
	return (double)count / (res->score * (double)time_ns / (double)SEC);
}

/*
 * The request structure of the battery's rk3588 rows against the seeds' (lib/scenario/fio.c
 * DOC, docs/lab.md "fio on rk3588: the request structure"); "teo" in the seeds is 6.14-rc1's,
 * and their `belows` column is the kernel's aboves (too deep). The seeds' values are in the
 * comments; the bounds leave room for the seeds of the lab (1 and 2 here).
 */
/* teo-6.14 (the seeds' "teo"), menu-6.13 and menu-5 on one of the battery's fio rows. */
struct fio_row {
	struct il_lab_result teo, m613, m5;
};

static void fio_row_run(struct fio_row *r, const char *device, u64 seed, u64 t)
{
	const char *spec = battery_fio_spec(device);

	tl_lab_run("rk3588", "teo-6.14", spec, seed, t, &r->teo);
	tl_lab_run("rk3588", "menu-6.13", spec, seed, t, &r->m613);
	tl_lab_run("rk3588", "menu-5", spec, seed, t, &r->m5);
}

static void fio_row_free(struct fio_row *r)
{
	il_lab_result_free(&r->teo);
	il_lab_result_free(&r->m613);
	il_lab_result_free(&r->m5);
}

static void test_fio_request_structure(void **state)
{
	const u64 t = 5 * SEC;

	for (u64 seed = 1; seed <= 2; seed++) {
		struct fio_row r;

		/* nvme0n1: 2.3 idle periods per request; teo 0.0007 too-deep periods per request,
		 * menu-6.13 0.30 (400x) at 0.83 of teo's iops, menu-5 0.0016 at 0.99. */
		fio_row_run(&r, "nvme", seed, t);
		assert_in_range((u64)(100 * per_request(&r.teo, r.teo.sum.idles, t)), 170, 240);
		assert_true(per_request(&r.teo, r.teo.sum.aboves, t) < 0.015);
		assert_true(r.m613.sum.aboves > 4 * r.teo.sum.aboves);
		assert_true(per_request(&r.teo, r.teo.sum.belows, t) < 0.005);
		assert_true(per_request(&r.m613, r.m613.sum.belows, t) < 0.005);
		assert_true(r.m613.score < 0.95 * r.teo.score);
		assert_true(r.m5.score > 0.98 * r.teo.score);
		fio_row_free(&r);

		/* sda: 19 idle periods per request; teo 0.32 too deep, menu-6.13 3.5 at 0.73 of
		 * teo's iops, menu-5 0.82 at 0.96. */
		fio_row_run(&r, "sda", seed, t);
		assert_in_range((u64)per_request(&r.teo, r.teo.sum.idles, t), 16, 22);
		assert_in_range((u64)(100 * per_request(&r.teo, r.teo.sum.aboves, t)), 8, 40);
		assert_true(per_request(&r.teo, r.teo.sum.belows, t) < 0.1);
		assert_true(r.m613.sum.aboves > 2 * r.m5.sum.aboves);
		assert_true(r.m613.score < 0.9 * r.teo.score);
		assert_true(r.m5.score > 0.93 * r.teo.score);
		fio_row_free(&r);

		/* mmcblk1: 13 idle periods per request; teo 0.71 too deep and none too shallow,
		 * menu-6.13 1.34, menu-5 1.04; iops teo 876 > menu-5 851 > menu-6.13 821. */
		fio_row_run(&r, "mmcblk", seed, t);
		assert_in_range((u64)per_request(&r.teo, r.teo.sum.idles, t), 11, 17);
		assert_in_range((u64)(100 * per_request(&r.teo, r.teo.sum.aboves, t)), 25, 60);
		assert_true(per_request(&r.teo, r.teo.sum.belows, t) < 0.08);
		assert_true(r.m613.sum.aboves > 3 * r.m5.sum.aboves / 2);
		assert_in_range((u64)r.teo.score, 790, 960);
		assert_true(r.m613.score < r.teo.score);
		assert_true(r.m5.score > 1.01 * r.m613.score);
		fio_row_free(&r);
	}
}

static void test_fio_menu5_fewer_too_deep(void **state)
{
	/* menu-5's too-deep misses at most 1/3 of menu-6.13's on nvme, 1/2 on sda, 2/3 on mmcblk
	 * (seeds 0.005, 0.23, 0.77). */
	static const struct {
		const char *device;
		unsigned int num, den;
	} rows[] = { { "nvme", 1, 3 }, { "sda", 1, 2 }, { "mmcblk", 2, 3 } };
	const u64 t = 5 * SEC;

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		const char *spec = battery_fio_spec(rows[i].device);

		for (u64 seed = 1; seed <= 2; seed++) {
			struct il_lab_result m613, m4, m5;

			tl_lab_run("rk3588", "menu-6.13", spec, seed, t, &m613);
			tl_lab_run("rk3588", "menu-4", spec, seed, t, &m4);
			tl_lab_run("rk3588", "menu-5", spec, seed, t, &m5);
			assert_true(m5.sum.aboves * rows[i].den < m613.sum.aboves * rows[i].num);
			assert_true(m5.score > m613.score);
			/* the change is patch 5's: menu-4 keeps 1.5x menu-5's misses or more */
			assert_true(2 * m4.sum.aboves > 3 * m5.sum.aboves);
			il_lab_result_free(&m613);
			il_lab_result_free(&m4);
			il_lab_result_free(&m5);
		}
	}
}

static double deepest_share(const struct il_lab_result *res)
{
	return (double)res->sum.usage[res->nstates - 1] / (double)res->sum.idles;
}

static void test_jbb_fewer_timers(void **state)
{
	struct il_lab_result before, after, m5, teo, teo_before;

	tl_lab_run("i5-10600k", "menu-6.13", "jbb:timer_pct=500", 1, SEC, &before);
	tl_lab_run("i5-10600k", "menu-6.13", "jbb:timer_pct=20", 1, SEC, &after);
	tl_lab_run("i5-10600k", "menu-5", "jbb:timer_pct=20", 1, SEC, &m5);
	tl_lab_run("i5-10600k", "teo", "jbb:timer_pct=20", 1, SEC, &teo);
	tl_lab_run("i5-10600k", "teo", "jbb:timer_pct=500", 1, SEC, &teo_before);
	/*
	 * resp_us: menu-6.13 gets worse with fewer timers, teo does not move. The size is
	 * modest (about +15 %): with requests running on other CPUs the package stays up, so
	 * a C3_ACPI wake costs the core's 85 us, not the declared 1034 us
	 * (platforms/i5-10600k.plat core_exit_latency); the finding is in the choice of the
	 * deepest state, whose share grows more than 5 times.
	 */
	assert_true(after.score > 1.1 * before.score);
	assert_true(deepest_share(&after) > 5 * deepest_share(&before));
	assert_true(teo.score < 1.1 * teo_before.score);
	/* menu-5 brings it back near teo */
	assert_true(m5.score < 0.8 * after.score);
	assert_true(m5.score < 1.2 * teo.score);
	il_lab_result_free(&before);
	il_lab_result_free(&after);
	il_lab_result_free(&m5);
	il_lab_result_free(&teo);
	il_lab_result_free(&teo_before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pseries_pipe_wakeups),
		cmocka_unit_test(test_pseries_timer_130us),
		cmocka_unit_test(test_pingpong_poll),
		cmocka_unit_test(test_pingpong_default_617),
		cmocka_unit_test(test_4_16_powernightmares),
		cmocka_unit_test(test_fio_teo_fewer_misses),
		cmocka_unit_test(test_fio_request_structure),
		cmocka_unit_test(test_fio_menu5_fewer_too_deep),
		cmocka_unit_test(test_jbb_fewer_timers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
