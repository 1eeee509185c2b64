// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_parse.c - the command line's number parsers (lib/util/parse.c): counts in base 10
 * only, no sign, overflow refused, the caller's range; times with units, fractions exact to
 * the nanosecond, bounds; CONFIG_HZ as platform files allow it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/parse.h"

static void count_ok(const char *s, uint64_t want)
{
	uint64_t v = 12345;

	assert_int_equal(il_parse_count(s, 0, UINT64_MAX, &v), 0);
	assert_true(v == want);
}

static void count_bad(const char *s, uint64_t min, uint64_t max, int e)
{
	uint64_t v = 7;

	errno = 0;
	assert_int_equal(il_parse_count(s, min, max, &v), -1);
	assert_int_equal(errno, e);
	assert_true(v == 7); /* untouched */
}

static void test_counts(void **state)
{
	count_ok("0", 0);
	count_ok("10", 10);
	count_ok("010", 10); /* base 10, not octal */
	count_ok("18446744073709551615", UINT64_MAX);
	count_bad("18446744073709551616", 0, UINT64_MAX, ERANGE);
	count_bad("99999999999999999999999", 0, UINT64_MAX, ERANGE);
	count_bad("", 0, 10, EINVAL);
	count_bad("+1", 0, 10, EINVAL);
	count_bad("-1", 0, 10, EINVAL);
	count_bad(" 1", 0, 10, EINVAL);
	count_bad("1 ", 0, 10, EINVAL);
	count_bad("0x10", 0, 100, EINVAL);
	count_bad("1e3", 0, 10000, EINVAL);
	count_bad("0", 1, 10, ERANGE);
	count_bad("11", 1, 10, ERANGE);
}

static void test_count_in_a_longer_text(void **state)
{
	const char *spec = "12..34:5";
	uint64_t v;

	assert_int_equal(il_parse_count_n(spec, 2, 0, 100, &v), 0);
	assert_true(v == 12);
	assert_int_equal(il_parse_count_n(spec + 4, 2, 0, 100, &v), 0);
	assert_true(v == 34);
	assert_int_equal(il_parse_count_n(spec, 3, 0, 100, &v), -1);
	assert_int_equal(il_parse_count_n(spec, 0, 0, 100, &v), -1);
}

static uint64_t time_of(const char *s)
{
	uint64_t ns = 0;

	if (il_parse_time(s, 0, UINT64_MAX, &ns))
		fail_msg("'%s' refused (errno %d)", s, errno);
	return ns;
}

static void time_bad(const char *s, uint64_t min, uint64_t max, int e)
{
	uint64_t ns = 3;

	errno = 0;
	assert_int_equal(il_parse_time(s, min, max, &ns), -1);
	assert_int_equal(errno, e);
	assert_true(ns == 3);
}

static void test_times(void **state)
{
	assert_true(time_of("10") == 10 * IL_PARSE_NS_PER_S); /* a bare number is seconds */
	assert_true(time_of("30s") == 30 * IL_PARSE_NS_PER_S);
	assert_true(time_of("500ms") == 500000000ULL);
	assert_true(time_of("1500us") == 1500000ULL);
	assert_true(time_of("100ns") == 100);
	assert_true(time_of("2m") == 120 * IL_PARSE_NS_PER_S);
	assert_true(time_of("1h") == IL_PARSE_HOUR_NS);
	assert_true(time_of("1.5s") == 1500000000ULL);
	assert_true(time_of("0.25ms") == 250000ULL);
	assert_true(time_of("1.5") == 1500000000ULL);
	assert_true(time_of("0.5h") == 1800 * IL_PARSE_NS_PER_S);
	assert_true(time_of("1.000000001s") == 1000000001ULL);
	assert_true(time_of("0") == 0);
	time_bad("1.5ns", 0, UINT64_MAX, EINVAL);   /* finer than a nanosecond */
	time_bad("1.0000000001s", 0, UINT64_MAX, EINVAL);
	time_bad("1.", 0, UINT64_MAX, EINVAL);
	time_bad(".5s", 0, UINT64_MAX, EINVAL);
	time_bad("5x", 0, UINT64_MAX, EINVAL);
	time_bad("5 s", 0, UINT64_MAX, EINVAL);
	time_bad("-1s", 0, UINT64_MAX, EINVAL);
	time_bad("+1s", 0, UINT64_MAX, EINVAL);
	time_bad("", 0, UINT64_MAX, EINVAL);
	time_bad("s", 0, UINT64_MAX, EINVAL);
	time_bad("0", 1, UINT64_MAX, ERANGE);        /* 0 where it means nothing */
	time_bad("25h", 1, 24 * IL_PARSE_HOUR_NS, ERANGE);
	time_bad("99999999999999h", 0, UINT64_MAX, ERANGE); /* overflow, not a wrap */
	time_bad("18446744073709551616ns", 0, UINT64_MAX, ERANGE);
}

static void test_tick_hz(void **state)
{
	unsigned int hz = 0;

	assert_int_equal(il_parse_tick_hz("100", &hz), 0);
	assert_int_equal(hz, 100);
	assert_int_equal(il_parse_tick_hz("250", &hz), 0);
	assert_int_equal(il_parse_tick_hz("300", &hz), 0);
	assert_int_equal(il_parse_tick_hz("1000", &hz), 0);
	assert_int_equal(hz, 1000);
	errno = 0;
	assert_int_equal(il_parse_tick_hz("7", &hz), -1);
	assert_int_equal(errno, ERANGE);
	assert_int_equal(il_parse_tick_hz("100000", &hz), -1);
	assert_int_equal(il_parse_tick_hz("1k", &hz), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(hz, 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_count_in_a_longer_text),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_tick_hz),
	};

	return cmocka_run_group_tests_name("parse", tests, NULL, NULL);
}
