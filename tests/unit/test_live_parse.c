// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_live_parse.c - the small parsers of `idlelab measure` (lib/live/parse.c): CPU lists,
 * settle durations, workload scores and the NAME=REGEX metrics.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "live/live.h"
#include "util/array.h"

/* ---- CPU lists ---------------------------------------------------------------------------------- */

static void expect_cpus(const char *s, const unsigned int *want, int n)
{
	struct il_error err;
	unsigned int *cpus;

	assert_int_equal(il_live_parse_cpulist(s, &cpus, &err), n);
	for (int i = 0; i < n; i++)
		assert_int_equal(cpus[i], want[i]);
	free(cpus);
}

static void test_cpulist(void **state)
{
	static const unsigned int a[] = { 0, 1, 2, 3, 8 }, b[] = { 1, 3 }, c[] = { 8191 };
	static const unsigned int d[] = { 2, 3, 4, 5, 6 };

	expect_cpus("0-3,8", a, 5);
	expect_cpus("3,1,1", b, 2);  /* sorted, duplicates once */
	expect_cpus("8191", c, 1);
	expect_cpus("4-6,2-5", d, 5); /* overlapping ranges */
}

static void test_cpulist_errors(void **state)
{
	static const char *const bad[] = { "", "a", "1,", ",1", "3-1", "1-", "-1", "8192", "0-8192",
					   "1 2", "1;2", "0x1" };
	struct il_error err;
	unsigned int *cpus;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_int_equal(il_live_parse_cpulist(bad[i], &cpus, &err), -1);
		assert_null(cpus);
		assert_int_equal(err.about, IL_INPUT_CPUS);
	}
	assert_int_equal(il_live_parse_cpulist("3-1", &cpus, &err), -1);
	assert_non_null(strstr(err.msg, "goes backwards"));
}

/* ---- scores --------------------------------------------------------------------------------------- */

static void test_number(void **state)
{
	static const struct {
		const char *s;
		double v;
	} ok[] = {
		{ "307", 307 }, { "12.4k", 12400 }, { "9.8k IOPS", 9800 }, { "2M", 2e6 },
		{ "1.5G", 1.5e9 }, { "3T", 3e12 }, { "7K", 7000 }, { "-3", -3 }, { "+4", 4 },
		{ ".5", 0.5 }, { "1e3", 1000 }, { "80us", 80 }, { "1064.48", 1064.48 },
	};
	static const char *const bad[] = { "", "k", "IOPS=1", "inf", "nan", "0x10", "-", ".", "+.x" };
	double v;

	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		assert_int_equal(il_live_parse_number(ok[i].s, &v), 0);
		assert_float_equal(v, ok[i].v, 1e-9 * (ok[i].v < 0 ? -ok[i].v : ok[i].v) + 1e-12);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		assert_int_equal(il_live_parse_number(bad[i], &v), -1);
}

/* ---- metrics --------------------------------------------------------------------------------------- */

static const char fio_out[] =
	"fiotest: (g=0): rw=randread, bs=(R) 4096B-4096B, ioengine=psync, iodepth=1\n"
	"  read: IOPS=12.4k, BW=48.4MiB/s (50.8MB/s)(242MiB/5001msec)\n"
	"    clat (usec): min=41, max=3019, avg=79.87, stdev=20.15\n"
	"  write: IOPS=99, BW=1MiB/s\n";

static double eval_ok(const char *spec, const char *text)
{
	struct il_live_metric m;
	struct il_error err;
	double v = -1;

	assert_int_equal(il_live_metric_parse(spec, &m, &err), 0);
	assert_int_equal(il_live_metric_eval(&m, text, &v, NULL, 0), IL_METRIC_FOUND);
	il_live_metric_free(&m);
	return v;
}

static void test_metric_eval(void **state)
{
	struct il_live_metric m;
	struct il_error err;
	char match[64];
	double v;

	/* The first match, its first group. */
	assert_float_equal(eval_ok("iops=IOPS=([0-9.]+[kM]?)", fio_out), 12400, 1e-9);
	/* No group: the whole match, read up to the first non-number. */
	assert_float_equal(eval_ok("avg=[0-9]+\\.[0-9]+", "avg 79.87 us"), 79.87, 1e-9);
	/* A group that did not take part: the whole match. */
	assert_float_equal(eval_ok("x=(a)?[0-9]+", "v=12"), 12, 1e-9);
	/* Extended syntax: +, |, {n}. */
	assert_float_equal(eval_ok("bw=BW=([0-9]{2}\\.[0-9]+)(MiB|KiB)", fio_out), 48.4, 1e-9);

	assert_int_equal(il_live_metric_parse("iops=IOPS=([0-9]+)", &m, &err), 0);
	assert_string_equal(m.name, "iops");
	assert_int_equal(il_live_metric_eval(&m, "no score here", &v, match, sizeof(match)),
			 IL_METRIC_NO_MATCH);
	assert_string_equal(match, "");
	il_live_metric_free(&m);
	il_live_metric_free(&m); /* twice is harmless */

	assert_int_equal(il_live_metric_parse("rw=rw=([a-z]+)", &m, &err), 0);
	assert_int_equal(il_live_metric_eval(&m, fio_out, &v, match, sizeof(match)),
			 IL_METRIC_NOT_A_NUMBER);
	assert_string_equal(match, "randread");
	il_live_metric_free(&m);
}

static void test_metric_parse_errors(void **state)
{
	struct il_live_metric m;
	struct il_error err;

	assert_int_equal(il_live_metric_parse("iops", &m, &err), -1);
	assert_non_null(strstr(err.msg, "expected NAME=REGEX"));
	assert_int_equal(il_live_metric_parse("=x", &m, &err), -1);
	assert_int_equal(il_live_metric_parse("a b=x", &m, &err), -1);
	assert_non_null(strstr(err.msg, "metric name"));
	assert_int_equal(il_live_metric_parse("0123456789012345678901234567890123=x", &m, &err), -1);
	assert_int_equal(il_live_metric_parse("x=", &m, &err), -1);
	assert_non_null(strstr(err.msg, "empty regular expression"));
	assert_int_equal(il_live_metric_parse("x=(", &m, &err), -1);
	assert_non_null(strstr(err.msg, "'('"));
	assert_false(m.compiled);
	/* The first '=' ends the name: the expression may hold more. */
	assert_int_equal(il_live_metric_parse("lat.us=clat=([0-9]+)", &m, &err), 0);
	assert_string_equal(m.name, "lat.us");
	il_live_metric_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_cpulist_errors),
		cmocka_unit_test(test_number),
		cmocka_unit_test(test_metric_eval),
		cmocka_unit_test(test_metric_parse_errors),
	};

	return cmocka_run_group_tests_name("live-parse", tests, NULL, NULL);
}
