// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_review_trace.c - a real trace through a review's two sides (lib/review/trace.c): a
 * governor against itself agrees in every period with equal rows; two governors give the
 * rows each gets in either place; a trace without idle periods is refused by name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "output/output.h"
#include "platform/platform.h"
#include "review/review.h"

#define VM_TRACE "tests/fixtures/traces/vm.trace"

static struct il_platform plat;

static int setup(void **state)
{
	struct il_error err;

	(void)state;
	return il_platform_load("skx", &plat, &err);
}

static void review_trace(const char *base, const char *patched, struct il_review_trace *res)
{
	struct il_review_trace_opts o = { .base = il_preset_find(base),
					  .patched = il_preset_find(patched), .plat = &plat,
					  .sleep_source = IL_SLEEP_TIMERS };
	struct il_trace *t = il_trace_open(VM_TRACE, NULL, NULL);
	struct il_error err = { 0 };

	assert_non_null(t);
	assert_non_null(o.base);
	assert_non_null(o.patched);
	assert_int_equal(il_review_trace_replay(&o, t, res, &err), 0);
	il_trace_close(t);
}

/* Identical sides: every period the same pick, the same rows, the same gap. */
static void test_same_governor_agrees(void **state)
{
	struct il_review_trace res;

	(void)state;
	review_trace("menu-6.12.117", "menu-6.12.117", &res);
	assert_int_equal(res.periods, 81);
	assert_int_equal(res.periods_total, 81);
	assert_int_equal(res.same_state, res.periods);
	assert_int_equal(res.same_both, res.periods);
	assert_int_equal(res.side[0].energy_nj, res.side[1].energy_nj);
	assert_int_equal(res.side[0].above, res.side[1].above);
	assert_int_equal(res.side[0].below, res.side[1].below);
	assert_true(res.side[0].energy_nj > 0);
	assert_int_equal(res.have_gap[0], res.have_gap[1]);
	if (res.have_gap[0])
		assert_true(res.gap[0] == res.gap[1] && res.gap[0] >= 0);
}

/* Two governors: each side's row is what it gets as the first side (a plain replay), and
 * the agreement is counted over the periods (menu and teo differ on skx's table). */
static void test_two_governors(void **state)
{
	struct il_review_trace mt, tm, mm;

	(void)state;
	review_trace("menu-6.12.117", "teo-6.12.117", &mt);
	review_trace("teo-6.12.117", "menu-6.12.117", &tm);
	review_trace("menu-6.12.117", "menu-6.12.117", &mm);
	assert_int_equal(mt.side[0].energy_nj, mm.side[0].energy_nj);
	assert_int_equal(mt.side[1].energy_nj, tm.side[0].energy_nj);
	assert_int_equal(mt.side[0].agree, tm.side[1].agree);
	assert_int_equal(mt.same_state, tm.same_state);
	assert_true(mt.same_state < mt.periods);
	assert_true(mt.same_both <= mt.same_state);
}

/* vm.trace without its cpu_idle lines: nothing to replay, refused with the trace's name. */
static void test_no_idle_period_refused(void **state)
{
	struct il_review_trace_opts o = { .base = il_preset_find("menu"),
					  .patched = il_preset_find("teo"), .plat = &plat,
					  .sleep_source = IL_SLEEP_TIMERS };
	FILE *in = fopen(VM_TRACE, "r"), *f = tmpfile();
	struct il_review_trace res;
	struct il_error err = { 0 };
	struct il_trace *t;
	char line[4096];

	(void)state;
	assert_non_null(in);
	assert_non_null(f);
	while (fgets(line, sizeof(line), in))
		if (!strstr(line, "cpu_idle"))
			fputs(line, f);
	fclose(in);
	rewind(f);
	t = il_trace_open_file(f, "no-idle.trace", NULL, &err);
	assert_non_null(t);
	assert_int_equal(il_review_trace_replay(&o, t, &res, &err), -1);
	assert_non_null(strstr(err.msg, "no-idle.trace"));
	assert_non_null(strstr(err.msg, "no idle period"));
	il_trace_close(t);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_governor_agrees),
		cmocka_unit_test(test_two_governors),
		cmocka_unit_test(test_no_idle_period_refused),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
