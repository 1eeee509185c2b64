// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tests of lib/lab/battery.c: the battery's variants all parse and are distinct, and
 * il_lab_run_all() gives every run the result a lone il_lab_run() gives it, whatever the
 * number of threads (what makes `idlelab battery -j N` print the same bytes for any N).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gov/governors.h"
#include "lab/battery.h"

static void test_variants_parse(void **state)
{
	struct il_error err;

	assert_int_equal(il_battery_count(), 23);
	assert_null(il_battery_at(il_battery_count()));
	assert_null(il_battery_at(-1));
	for (int i = 0; i < il_battery_count(); i++) {
		const struct il_battery_case *bc = il_battery_at(i);
		const struct il_scenario *scn;
		struct il_scn_args args;
		struct il_scn_common common;

		assert_int_equal(il_scn_parse(bc->spec, &scn, &args, &common, &err), 0);
		assert_non_null(bc->seed);
		for (int k = 0; k < i; k++)
			assert_string_not_equal(bc->spec, il_battery_at(k)->spec);
	}
}

#define NRUNS 6

static void set_spec(struct il_lab_spec *s, const struct il_platform *plat, const char *gov, const char *scn,
		     u64 seed)
{
	struct il_error err;

	memset(s, 0, sizeof(*s));
	s->plat = plat;
	s->preset = il_preset_find(gov);
	assert_non_null(s->preset);
	assert_int_equal(il_scn_parse(scn, &s->scn, &s->args, &s->common, &err), 0);
	s->duration_ns = 200 * NSEC_PER_MSEC;
	s->seed = seed;
}

static void assert_same_result(const struct il_lab_result *a, const struct il_lab_result *b)
{
	assert_string_equal(a->label, b->label);
	assert_true(a->score == b->score);
	assert_int_equal(a->events, b->events);
	assert_int_equal(a->selects, b->selects);
	assert_int_equal(a->sum.idles, b->sum.idles);
	assert_int_equal(a->sum.belows, b->sum.belows);
	assert_int_equal(a->sum.aboves, b->sum.aboves);
	assert_memory_equal(a->sum.usage, b->sum.usage, sizeof(a->sum.usage));
	assert_memory_equal(a->sum.time_ns, b->sum.time_ns, sizeof(a->sum.time_ns));
	assert_int_equal(a->sum.wake_p99_ns, b->sum.wake_p99_ns);
}

static void test_run_all_matches_single_runs(void **state)
{
	struct il_platform plat;
	struct il_error err;
	struct il_lab_spec specs[NRUNS];
	struct il_lab_result one[NRUNS], all[NRUNS];
	int errs[NRUNS];

	assert_int_equal(il_platform_load("rk3588", &plat, &err), 0);
	/* 5 and 12 CPUs: tournament trees with empty leaves. */
	set_spec(&specs[0], &plat, "menu-6.13", "fio:device=sda,cpus=5", 1);
	set_spec(&specs[1], &plat, "teo", "pingpong:cpus=12", 2);
	set_spec(&specs[2], &plat, "oracle", "adrestia", 1);
	set_spec(&specs[3], &plat, "menu-4.16", "idle-busy", 3);
	set_spec(&specs[4], &plat, "menu-5", "jbb", 1);
	set_spec(&specs[5], &plat, "teo-6.13", "video", 1);
	for (int i = 0; i < NRUNS; i++)
		assert_int_equal(il_lab_run(&specs[i], &one[i]), 0);
	for (unsigned int threads = 1; threads <= 4; threads += 3) {
		memset(errs, 0xff, sizeof(errs));
		assert_int_equal(il_lab_run_all(specs, all, NRUNS, threads, errs), 0);
		for (int i = 0; i < NRUNS; i++) {
			assert_int_equal(errs[i], 0);
			assert_same_result(&one[i], &all[i]);
			il_lab_result_free(&all[i]);
		}
	}
	for (int i = 0; i < NRUNS; i++)
		il_lab_result_free(&one[i]);
}

static void test_run_all_reports_failure(void **state)
{
	struct il_platform plat;
	struct il_error err;
	struct il_lab_spec specs[2];
	struct il_lab_result res[2];
	int errs[2];

	assert_int_equal(il_platform_load("rk3588", &plat, &err), 0);
	set_spec(&specs[0], &plat, "teo", "idle", 1);
	set_spec(&specs[1], &plat, "teo", "idle", 1);
	specs[1].duration_ns = 0; /* invalid: il_lab_run() fails with EINVAL */
	assert_int_equal(il_lab_run_all(specs, res, 2, 2, errs), -1);
	assert_int_equal(errs[0], 0);
	assert_int_equal(errs[1], EINVAL);
	il_lab_result_free(&res[0]);
	il_lab_result_free(&res[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_variants_parse),
		cmocka_unit_test(test_run_all_matches_single_runs),
		cmocka_unit_test(test_run_all_reports_failure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
