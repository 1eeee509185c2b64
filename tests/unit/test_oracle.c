// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_oracle.c - hand-worked cases for the oracle governor (lib/gov/oracle.c).
 *
 * Table (exit latency / target residency, µs): POLL 0/0, C1 2/2, C1E 10/20, C6 133/600,
 * C10 890/5000 (skl's deepest). HZ 1000, so TICK_NSEC = 1 ms: only C10's residency reaches a
 * tick, so only a C10 choice lets the tick stop.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "testenv.h"
#include "util/array.h"

#define US 1000LL

static const s64 table[][2] = {
	{ 0, 0 }, { 2 * US, 2 * US }, { 10 * US, 20 * US }, { 133 * US, 600 * US },
	{ 890 * US, 5000 * US },
};

static void oracle_init(struct testenv *te)
{
	te_init(te, "oracle", true, 5, table);
}

static int pick(struct testenv *te, s64 idle_ns, bool *stop_tick)
{
	te->oracle_ns = idle_ns;
	return te_select(te, stop_tick);
}

/* The deepest state whose residency fits: 700 µs -> C6 (600 <= 700 < 5000); 100 µs -> C1E;
 * exactly 20 µs -> C1E (<= is inclusive); 19.999 µs -> C1; 1 ns -> POLL. C6 and shallower
 * stay under one tick, so the tick is kept. */
static void test_deepest_fitting_state(void **state)
{
	static const struct {
		s64 idle_ns;
		int idx;
	} cases[] = {
		{ 700 * US, 3 }, { 100 * US, 2 }, { 20 * US, 2 }, { 20 * US - 1, 1 }, { 1, 0 },
	};
	struct testenv te;
	bool stop_tick;

	oracle_init(&te);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		assert_int_equal(pick(&te, cases[i].idle_ns, &stop_tick), cases[i].idx);
		assert_false(stop_tick);
	}
	te_fini(&te);
}

/* 6 ms fits C10 (5 ms), whose residency is >= TICK_NSEC: the tick may stop. At HZ 200 the
 * tick is exactly 5 ms and still may stop (>=). At HZ 100 the tick is 10 ms, C10's 5 ms falls
 * short, and the oracle keeps the tick. */
static void test_stop_tick_only_for_tick_long_states(void **state)
{
	struct testenv te;
	bool stop_tick;

	oracle_init(&te);
	assert_int_equal(pick(&te, 6000 * US, &stop_tick), 4);
	assert_true(stop_tick);
	il_env_set_hz(&te.env, 200);
	assert_int_equal(pick(&te, 6000 * US, &stop_tick), 4);
	assert_true(stop_tick);
	il_env_set_hz(&te.env, 100);
	assert_int_equal(pick(&te, 6000 * US, &stop_tick), 4);
	assert_false(stop_tick);
	te_fini(&te);
}

/* QoS: a 100 µs CPU latency limit rules out C6 (133 µs) and C10, so 700 µs gets C1E. The
 * device resume latency and (7.0 framework) the CPU wakeup latency limit count the same way. */
static void test_qos_limits_choice(void **state)
{
	struct testenv te;
	bool stop_tick;

	oracle_init(&te);
	te.qos.cpu_latency_us = 100;
	assert_int_equal(pick(&te, 700 * US, &stop_tick), 2);
	il_qos_defaults(&te.qos);
	te.qos.resume_latency_us = 100;
	assert_int_equal(pick(&te, 700 * US, &stop_tick), 2);
	il_qos_defaults(&te.qos);
	te.qos.wakeup_latency_us = 100;
	assert_int_equal(pick(&te, 700 * US, &stop_tick), 2);
	/* exit latency == limit is allowed: 133 µs admits C6 */
	te.qos.wakeup_latency_us = 133;
	assert_int_equal(pick(&te, 700 * US, &stop_tick), 3);
	te_fini(&te);
}

/* A zero latency limit leaves only POLL (exit latency 0). */
static void test_zero_latency(void **state)
{
	struct testenv te;
	bool stop_tick;

	oracle_init(&te);
	te.qos.cpu_latency_us = 0;
	assert_int_equal(pick(&te, 6000 * US, &stop_tick), 0);
	assert_false(stop_tick);
	te_fini(&te);
}

/* Disabled states are skipped without ending the scan: without C6, 700 µs gets C1E and 6 ms
 * still gets C10; without C1E, 100 µs gets C1. */
static void test_disabled_states_skipped(void **state)
{
	struct testenv te;
	bool stop_tick;

	oracle_init(&te);
	te.dev.states_usage[3].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	assert_int_equal(pick(&te, 700 * US, &stop_tick), 2);
	assert_int_equal(pick(&te, 6000 * US, &stop_tick), 4);
	te.dev.states_usage[3].disable = 0;
	te.dev.states_usage[2].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	assert_int_equal(pick(&te, 100 * US, &stop_tick), 1);
	te_fini(&te);
}

/* Nothing fits: state 0, or the first enabled state when state 0 is disabled. A 0 ns period
 * fits POLL (0 <= 0); with POLL disabled nothing fits, so C1, the first enabled, is used.
 * A negative duration fits nothing either. */
static void test_fallback_first_enabled(void **state)
{
	struct testenv te;
	bool stop_tick;

	oracle_init(&te);
	assert_int_equal(pick(&te, 0, &stop_tick), 0);
	assert_int_equal(pick(&te, -5, &stop_tick), 0);
	te.dev.states_usage[0].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	assert_int_equal(pick(&te, 0, &stop_tick), 1);
	te.dev.states_usage[1].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	assert_int_equal(pick(&te, 1 * US, &stop_tick), 2);
	te_fini(&te);
}

/* The oracle is told the duration through the env call and not through the timer query:
 * it never asks for the sleep length. vars() shows what it was told, marked diagnostic. */
static void test_uses_oracle_input_only(void **state)
{
	struct il_var vars[IL_MAX_VARS];
	struct testenv te;
	bool stop_tick;
	int n;

	oracle_init(&te);
	te.sleep_ns = 10 * US; /* a timer input that would mislead a real governor */
	assert_int_equal(pick(&te, 700 * US, &stop_tick), 3);
	assert_int_equal(te.sleep_queries, 0);
	assert_int_equal((s64)te_var(&te, "oracle_idle_ns"), 700 * US);
	n = te.dev.preset->gov->vars(&te.dev, vars, IL_MAX_VARS);
	assert_true(n > 0);
	for (int i = 0; i < n; i++)
		assert_true(vars[i].diag);
	te_fini(&te);
}

/* oracle-heuristic-lat: the exit latency must also be at most latency_pct (10) % of the
 * period. 700 µs affords 70 µs: C6 (133) is out, C1E (10) in. 6 ms affords 600 µs: C10 (890)
 * is out, C6 in. 20 ms affords 2 ms: C10. latency_pct 100 admits C6 at 700 µs; 1000 is read
 * as 100; 0 leaves POLL. Values that are no unsigned int are refused. */
static void test_latency_aware(void **state)
{
	struct testenv te;
	bool stop_tick;

	te_init(&te, "oracle-heuristic-lat", true, 5, table);
	assert_int_equal(pick(&te, 700 * US, &stop_tick), 2);
	assert_int_equal(pick(&te, 6000 * US, &stop_tick), 3);
	assert_int_equal(pick(&te, 20000 * US, &stop_tick), 4);
	assert_int_equal(il_gov_set_param(&te.dev, "latency_pct", "100"), 0);
	assert_int_equal(pick(&te, 700 * US, &stop_tick), 3);
	assert_int_equal(il_gov_set_param(&te.dev, "latency_pct", "1000"), 0);
	assert_int_equal(pick(&te, 700 * US, &stop_tick), 3);
	assert_int_equal(il_gov_set_param(&te.dev, "latency_pct", "0"), 0);
	assert_int_equal(pick(&te, 700 * US, &stop_tick), 0);
	assert_int_equal(il_gov_set_param(&te.dev, "latency_pct", "ten"), -1);
	/* the QoS limit still applies: 100 µs rules out C6 even at latency_pct 100 */
	assert_int_equal(il_gov_set_param(&te.dev, "latency_pct", "100"), 0);
	te.qos.cpu_latency_us = 100;
	assert_int_equal(pick(&te, 700 * US, &stop_tick), 2);
	te_fini(&te);
}

/* The preset says it is no kernel governor and runs under the 7.0 framework; "oracle" is
 * the alias of oracle-heuristic, whose name says what it is. */
static void test_preset(void **state)
{
	const struct il_preset *p = il_preset_find("oracle");

	assert_non_null(p);
	assert_string_equal(p->name, "oracle-heuristic");
	assert_null(strstr(p->upstream, "lower bound"));
	assert_string_equal(p->kernel, "none");
	assert_non_null(strstr(p->upstream, "none"));
	assert_ptr_equal(p->core, &il_core_7_0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deepest_fitting_state),
		cmocka_unit_test(test_stop_tick_only_for_tick_long_states),
		cmocka_unit_test(test_qos_limits_choice),
		cmocka_unit_test(test_zero_latency),
		cmocka_unit_test(test_disabled_states_skipped),
		cmocka_unit_test(test_fallback_first_enabled),
		cmocka_unit_test(test_uses_oracle_input_only),
		cmocka_unit_test(test_latency_aware),
		cmocka_unit_test(test_preset),
	};

	return cmocka_run_group_tests_name("oracle", tests, NULL, NULL);
}
