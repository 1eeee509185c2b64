// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tests of lib/scenario: spec parsing (typed values, units, ranges, common parameters),
 * that every registered scenario runs and scores, and determinism: the same seed gives the
 * same bytes, another seed other bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "output/output.h"
#include "lab/tables.h"
#include "scenario/scenarios.h"
#include "testlab.h"
#include "util/array.h"

#define RUN_NS 200000000ULL /* simulated time of each run: 0.2 s */

static void test_parse(void **state)
{
	const struct il_scenario *scn;
	struct il_scn_args args;
	struct il_scn_common common;
	struct il_error err;

	assert_int_equal(il_scn_parse("fio", &scn, &args, &common, &err), 0);
	assert_string_equal(scn->name, "fio");
	assert_int_equal(common.cpus, 0);
	assert_true(common.qos_us < 0);

	assert_int_equal(il_scn_parse("fio:device=mmcblk,lat_us=2ms,cpus=4,tick_hz=250,qos_us=20", &scn, &args,
				      &common, &err), 0);
	assert_int_equal(args.v[il_scn_param_index(scn, "device")], 2);
	assert_int_equal(args.v[il_scn_param_index(scn, "lat_us")], 2000);
	assert_true(args.set[il_scn_param_index(scn, "lat_us")]);
	assert_int_equal(common.cpus, 4);
	assert_int_equal(common.hz, 250);
	assert_int_equal(common.qos_us, 20);

	assert_int_equal(il_scn_parse("consume:freq=211hz,load=40%", &scn, &args, &common, &err), 0);
	assert_int_equal(args.v[il_scn_param_index(scn, "load")], 40);

	assert_int_equal(il_scn_parse("nosuch", &scn, &args, &common, &err), -1);
	assert_non_null(strstr(err.msg, "unknown scenario"));
	assert_int_equal(il_scn_parse("fio:device=floppy", &scn, &args, &common, &err), -1);
	assert_int_equal(il_scn_parse("fio:jobs=5000", &scn, &args, &common, &err), -1);
	assert_non_null(strstr(err.msg, "outside"));
	assert_int_equal(il_scn_parse("fio:lat_us=5hz", &scn, &args, &common, &err), -1);
	assert_int_equal(il_scn_parse("fio:nokey", &scn, &args, &common, &err), -1);
	assert_int_equal(il_scn_parse("fio:bogus=1", &scn, &args, &common, &err), -1);
	assert_int_equal(il_scn_parse("fio:cpus=0", &scn, &args, &common, &err), -1);
}

/* Every scenario runs on a platform with and one without a polling state and scores > 0. */
/* nohz_full=LIST takes the kernel's cpulist, whose commas continue the list. */
static void test_nohz_full(void **state)
{
	const struct il_scenario *scn;
	struct il_scn_args args;
	struct il_scn_common common;
	struct il_error err;
	struct il_lab_result a, b;

	assert_int_equal(il_scn_parse("netrr:nohz_full=0-1,3,pairs=2", &scn, &args, &common, &err), 0);
	assert_true(common.has_nohz_full);
	assert_int_equal(common.nohz_full[0], 0xb);
	assert_int_equal(args.v[il_scn_param_index(scn, "pairs")], 2);
	assert_int_equal(il_scn_parse("netrr", &scn, &args, &common, &err), 0);
	assert_false(common.has_nohz_full);
	assert_int_equal(common.nohz_full[0], 0);
	assert_int_equal(il_scn_parse("netrr:nohz_full=x", &scn, &args, &common, &err), -1);
	assert_non_null(strstr(err.msg, "nohz_full"));
	assert_int_equal(il_scn_parse("netrr:nohz_full=5-2", &scn, &args, &common, &err), -1);
	assert_int_equal(il_scn_parse("netrr:nohz_full=1024", &scn, &args, &common, &err), -1);
	assert_int_equal(il_scn_parse("netrr:nohz_full=1-", &scn, &args, &common, &err), -1);
	/* The stopped tick reaches the governor: menu-6.19 and menu-7.1 part (issue 16, item 8). */
	tl_lab_run("spr", "menu-6.19", "netrr:nohz_full=0-1", 1, RUN_NS, &a);
	tl_lab_run("spr", "menu-7.1", "netrr:nohz_full=0-1", 1, RUN_NS, &b);
	assert_true(a.score > 1.5 * b.score);
	il_lab_result_free(&a);
	il_lab_result_free(&b);
	tl_lab_run("spr", "menu-6.19", "netrr", 1, RUN_NS, &a);
	tl_lab_run("spr", "menu-7.1", "netrr", 1, RUN_NS, &b);
	assert_true(a.score == b.score);
	il_lab_result_free(&a);
	il_lab_result_free(&b);
}

/*
 * A wakee that falls behind its writes (20 µs of work per 6.7 µs write) serves each byte in
 * turn: each latency counts from its own write, so the mean is the queue's, under the run's
 * 10 ms (it once took the latest write's time, later than the piece's start, and wrapped).
 */
static void test_wakeup_behind(void **state)
{
	struct il_lab_result res;

	(void)state;
	tl_lab_run("pseries", "menu-6.13", "wakeup:mode=pipe,interval_us=5,wakee_ns=20000", 1,
		   10000000, &res);
	assert_true(res.score > 1000.0 && res.score < 10000.0);
	il_lab_result_free(&res);
}

static void test_every_scenario_runs(void **state)
{
	for (int i = 0; i < il_scenario_count(); i++) {
		const struct il_scenario *scn = il_scenario_at(i), *got;
		struct il_lab_result res;

		if (scn->operand)
			continue; /* it needs a file: test_rtapp.c runs it */
		got = tl_lab_run(i % 2 ? "rk3588" : "i5-10600k", "teo", scn->name, 3, RUN_NS, &res);
		assert_ptr_equal(got, scn);
		assert_true(res.sum.idles > 0);
		if (strcmp(scn->score, "late_us") && strcmp(scn->score, "wakeup_us"))
			assert_true(res.score > 0);
		il_lab_result_free(&res);
	}
}

/* The CSV bytes of a compare-like table of three governors on one scenario. */
static char *table_bytes(const char *scn_spec, u64 seed, size_t *len)
{
	static const char *const govs[] = { "menu", "teo", "menu-4.16" };
	struct il_table t;
	const struct il_table *tp = &t;
	char *buf = NULL;
	FILE *f;

	for (size_t g = 0; g < ARRAY_SIZE(govs); g++) {
		const struct il_scenario *scn;
		struct il_lab_result res;

		scn = tl_lab_run("i5-10600k", govs[g], scn_spec, seed, RUN_NS, &res);
		if (!g)
			assert_int_equal(il_report_pm_init(&t, "t", scn, &res.drv), 0);
		assert_int_equal(il_report_pm_row(&t, govs[g], 0, scn, &res), 0);
		il_lab_result_free(&res);
	}
	f = open_memstream(&buf, len);
	assert_non_null(f);
	assert_int_equal(il_output_csv.write(f, &tp, 1), 0);
	fclose(f);
	il_table_free(&t);
	return buf;
}

/* Every parameter table's class and range annotation is well formed and holds its default. */
static void test_parameter_classes(void **state)
{
	int ranged = 0;

	(void)state;
	for (int i = 0; i < il_scenario_count(); i++) {
		const struct il_scenario *scn = il_scenario_at(i);

		for (int k = 0; k < il_scn_nparams(scn); k++) {
			struct il_unc_range r;
			struct il_error err;

			if (il_scn_param_range(scn, &scn->params[k], &r, &err))
				fail_msg("%s", err.msg);
			ranged += r.kind != IL_UNC_NO_RANGE;
		}
	}
	assert_true(ranged >= 20); /* fio's five, pingpong's two, bg_rate_pct in 14 tables */
}

/* A parameter whose off_with or replaced_by names no parameter is refused, by name. */
static void test_parameter_class_names(void **state)
{
	static const struct il_scn_unc unc = { .cls = IL_UNC_ASSUMED, .range = "0.5x..2x",
					       .why = "w" };
	struct il_scn_param params[] = {
		{ "x", IL_SCN_INT, 10, 0, 100, NULL, "", "x", &unc, "x", "x" },
		{ 0 },
	};
	const struct il_scenario scn = { .name = "t", .params = params };
	struct il_unc_range r;
	struct il_error err;

	(void)state;
	assert_int_equal(il_scn_param_range(&scn, &params[0], &r, &err), 0);
	params[0].off_with = "nosuch";
	assert_int_equal(il_scn_param_range(&scn, &params[0], &r, &err), -1);
	assert_non_null(strstr(err.msg, "x: off_with names no parameter 'nosuch'"));
	params[0].off_with = NULL;
	params[0].replaced_by = "bogus";
	assert_int_equal(il_scn_param_range(&scn, &params[0], &r, &err), -1);
	assert_non_null(strstr(err.msg, "x: replaced_by names no parameter 'bogus'"));
	/* a switch is checked on a parameter without a class too */
	params[0].unc = NULL;
	assert_int_equal(il_scn_param_range(&scn, &params[0], &r, &err), -1);
}

/*
 * bg_rate_pct scales the background's rate: the idle scenario's wakeups (the background and
 * nothing else) go with it, 100 is the model draw for draw (the same run as without it),
 * and every scenario with a background takes it.
 */
static void test_background_rate(void **state)
{
	static const char *const specs[] = { "idle", "idle:bg_rate_pct=100", "idle:bg_rate_pct=25",
					     "idle:bg_rate_pct=400" };
	double w[4];

	(void)state;
	for (int i = 0; i < 4; i++) {
		struct il_lab_result res;

		tl_lab_run("rk3588", "teo", specs[i], 5, 4 * RUN_NS, &res);
		w[i] = res.score;
		il_lab_result_free(&res);
	}
	assert_true(w[0] == w[1]);
	assert_true(w[2] > 0.15 * w[0] && w[2] < 0.4 * w[0]);
	assert_true(w[3] > 3.0 * w[0] && w[3] < 6.0 * w[0]);
	for (int i = 0; i < il_scenario_count(); i++) {
		const struct il_scenario *scn = il_scenario_at(i);

		if (il_scn_param_index(scn, "background") >= 0 || !strcmp(scn->name, "jbb"))
			assert_true(il_scn_param_index(scn, "bg_rate_pct") >= 0);
	}
}

static void test_determinism(void **state)
{
	static const char *const specs[] = { "fio:device=sda,migrate_pct=30", "idle", "pingpong:cpus=6,work_us=3" };

	for (size_t i = 0; i < ARRAY_SIZE(specs); i++) {
		size_t la, lb, lc;
		char *a = table_bytes(specs[i], 11, &la);
		char *b = table_bytes(specs[i], 11, &lb);
		char *c = table_bytes(specs[i], 12, &lc);

		assert_int_equal(la, lb);
		assert_memory_equal(a, b, la);
		assert_true(la != lc || memcmp(a, c, la));
		free(a);
		free(b);
		free(c);
	}
}

/* The wakee's idle periods and its mean wakeup latency, one run of pseries wakeup. */
static void wakeup_run(const char *spec, u64 seed, u64 *idles, double *score)
{
	struct il_lab_result res;

	tl_lab_run("pseries", "menu-6.13", spec, seed, RUN_NS, &res);
	*idles = res.sum.idles;
	*score = res.score;
	il_lab_result_free(&res);
}

/*
 * wakeup starts at phase_us into the first tick period: given, nothing else is drawn and
 * every seed is the same run; by default each seed draws its own start, in both modes.
 */
static void test_wakeup_start_phase(void **state)
{
	static const char *const modes[] = { "wakeup:mode=timer", "wakeup:mode=pipe" };
	char spec[64];

	(void)state;
	for (int m = 0; m < 2; m++) {
		u64 i1, i2, drawn[4];
		double s1, s2, sd[4];
		bool differ = false;

		snprintf(spec, sizeof(spec), "%s,phase_us=3000", modes[m]);
		wakeup_run(spec, 1, &i1, &s1);
		wakeup_run(spec, 2, &i2, &s2);
		assert_int_equal(i1, i2);
		assert_true(s1 == s2);
		for (u64 seed = 1; seed <= 4; seed++) {
			wakeup_run(modes[m], seed, &drawn[seed - 1], &sd[seed - 1]);
			differ = differ || drawn[seed - 1] != drawn[0] || sd[seed - 1] != sd[0];
		}
		assert_true(differ);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_nohz_full),
		cmocka_unit_test(test_wakeup_behind),
		cmocka_unit_test(test_every_scenario_runs),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_parameter_classes),
		cmocka_unit_test(test_parameter_class_names),
		cmocka_unit_test(test_background_rate),
		cmocka_unit_test(test_wakeup_start_phase),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
