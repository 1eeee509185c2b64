// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_ladder.c - hand-worked cases for the ladder port (lib/gov/ladder.c).
 *
 * Table used throughout (exit latency / target residency): POLL 0/0, C1 2/2 µs, C1E 10/20 µs,
 * C6 133/600 µs. State 0 polls, so first_idx = 1 and enable() leaves ladder on C1 with:
 *   C1:  promotion 2 µs after 4 periods, no demotion time (first_idx)
 *   C1E: promotion 10 µs after 4, demotion 10 µs after 1
 *   C6:  no promotion time (deepest), demotion 133 µs after 1
 * "last_residency" below is the measured period minus the exit latency of the state it was
 * spent in, as ladder computes it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "testenv.h"
#include "util/array.h"

#define US 1000LL

static const s64 skx[][2] = {
	{ 0, 0 }, { 2 * US, 2 * US }, { 10 * US, 20 * US }, { 133 * US, 600 * US },
};

static void ladder_init(struct testenv *te, const char *preset)
{
	te_init(te, preset, true, 4, skx);
}

static s64 var_s(struct testenv *te, const char *name)
{
	return (s64)te_var(te, name);
}

/* Run @n idle periods of @residency_ns, asserting ladder picked @expect each time. */
static void idle_n(struct testenv *te, int n, s64 residency_ns, int expect)
{
	bool stop_tick;

	for (int i = 0; i < n; i++)
		assert_int_equal(te_idle(te, residency_ns, &stop_tick), expect);
}

/* Climb from C1 to C1E with four long periods (50 µs: 48 µs net > C1's 2 µs). */
static void climb_to_c1e(struct testenv *te)
{
	te->dev.last_residency_ns = 50 * US;
	idle_n(te, 3, 50 * US, 1);
	idle_n(te, 1, 50 * US, 2);
}

/* enable() sets the thresholds listed in the header, from first_idx (1) on; state 0's data
 * stays zero. */
static void test_enable_thresholds(void **state)
{
	struct testenv te;

	ladder_init(&te, "ladder-7.1");
	assert_int_equal(te.dev.last_state_idx, 1);
	assert_int_equal(var_s(&te, "last_state_idx"), 1);
	assert_int_equal(te_var(&te, "states[1].threshold.promotion_count"), 4);
	assert_int_equal(te_var(&te, "states[1].threshold.demotion_count"), 1);
	assert_int_equal(te_var(&te, "states[1].threshold.promotion_time_ns"), 2000);
	assert_int_equal(te_var(&te, "states[1].threshold.demotion_time_ns"), 0);
	assert_int_equal(te_var(&te, "states[2].threshold.promotion_time_ns"), 10000);
	assert_int_equal(te_var(&te, "states[2].threshold.demotion_time_ns"), 10000);
	assert_int_equal(te_var(&te, "states[3].threshold.promotion_time_ns"), 0);
	assert_int_equal(te_var(&te, "states[3].threshold.demotion_time_ns"), 133000);
	assert_int_equal(te_var(&te, "states[0].threshold.promotion_count"), 0);
	assert_int_equal(te_var(&te, "states[0].threshold.promotion_time_ns"), 0);
	te_fini(&te);
}

/* Promotion: each long period in C1 adds one to its promotion counter; the 4th select (count
 * reaches PROMOTION_COUNT) moves to C1E and clears C1's counters. The tick is never touched. */
static void test_promotion_after_four_long(void **state)
{
	struct testenv te;
	bool stop_tick;

	ladder_init(&te, "ladder-7.1");
	te.dev.last_residency_ns = 50 * US; /* as if just back from 50 µs in C1 */
	for (int i = 1; i <= 3; i++) {
		assert_int_equal(te_idle(&te, 50 * US, &stop_tick), 1);
		assert_true(stop_tick);
		assert_int_equal(var_s(&te, "states[1].stats.promotion_count"), i);
	}
	assert_int_equal(te_idle(&te, 50 * US, &stop_tick), 2);
	assert_true(stop_tick);
	assert_int_equal(var_s(&te, "states[1].stats.promotion_count"), 0);
	assert_int_equal(te.dev.last_state_idx, 2);
	te_fini(&te);
}

/* A period that is not long enough (2 µs in C1: 0 net, not > 2 µs) neither promotes nor
 * demotes (C1 is first_idx), and leaves the promotion counter where it was. */
static void test_no_promotion_when_short(void **state)
{
	struct testenv te;

	ladder_init(&te, "ladder-7.1");
	te.dev.last_residency_ns = 50 * US;
	idle_n(&te, 2, 2 * US, 1);  /* first select counts the 50 µs; the second sees 0 net */
	idle_n(&te, 5, 2 * US, 1);
	assert_int_equal(var_s(&te, "states[1].stats.promotion_count"), 1);
	te_fini(&te);
}

/* Demotion: on C1E, one period of 15 µs (5 µs net < demotion time 10 µs) is enough
 * (DEMOTION_COUNT 1) to go back to C1. */
static void test_demotion_after_one_short(void **state)
{
	struct testenv te;
	bool stop_tick;

	ladder_init(&te, "ladder-7.1");
	climb_to_c1e(&te);
	/* Back from 50 µs in C1E (40 µs net > 10 µs): C1E's promotion counter starts. */
	assert_int_equal(te_idle(&te, 15 * US, &stop_tick), 2);
	assert_int_equal(var_s(&te, "states[2].stats.promotion_count"), 1);
	/* Back from 15 µs in C1E: demote, and C1E's counters are cleared. */
	assert_int_equal(te_idle(&te, 15 * US, &stop_tick), 1);
	assert_int_equal(var_s(&te, "states[2].stats.promotion_count"), 0);
	assert_int_equal(var_s(&te, "states[2].stats.demotion_count"), 0);
	assert_int_equal(te.dev.last_state_idx, 1);
	te_fini(&te);
}

/* Negative residency: 5 µs in C1E is 5 - 10 = -5 µs net. As s64 vs u64 the comparison is
 * unsigned, so -5000 reads as ~1.8e19: larger than the promotion time (counts as long) and
 * never shorter than the demotion time. Four such periods promote C1E to C6. */
static void test_negative_residency_promotes(void **state)
{
	struct testenv te;
	bool stop_tick;

	ladder_init(&te, "ladder-7.1");
	climb_to_c1e(&te);
	te.dev.last_residency_ns = 5 * US; /* as if the period in C1E had lasted 5 µs */
	assert_int_equal(te_idle(&te, 5 * US, &stop_tick), 2);
	assert_int_equal(var_s(&te, "states[2].stats.promotion_count"), 1);
	assert_int_equal(te_idle(&te, 5 * US, &stop_tick), 2);
	assert_int_equal(te_idle(&te, 5 * US, &stop_tick), 2);
	assert_int_equal(var_s(&te, "states[2].stats.promotion_count"), 3);
	assert_int_equal(var_s(&te, "states[2].stats.demotion_count"), 0);
	assert_int_equal(te_idle(&te, 5 * US, &stop_tick), 3);
	te_fini(&te);
}

/* The first select after enable sees last_residency_ns 0: 0 - 2 µs is negative, so it
 * counts as a long period too. */
static void test_first_select_counts_as_long(void **state)
{
	struct testenv te;
	bool stop_tick;

	ladder_init(&te, "ladder-6.13");
	assert_int_equal(te_select(&te, &stop_tick), 1);
	assert_int_equal(var_s(&te, "states[1].stats.promotion_count"), 1);
	te_fini(&te);
}

/* QoS demotion: on C6 with a 50 µs limit, C6 (133 µs) is too slow; the search goes down from
 * C1E (10 µs <= 50 µs) and stops there. */
static void test_qos_demotion(void **state)
{
	struct testenv te;
	bool stop_tick;

	ladder_init(&te, "ladder-7.1");
	te.dev.last_state_idx = 3;
	te.dev.last_residency_ns = 1000 * US;
	te.qos.cpu_latency_us = 50;
	assert_int_equal(te_select(&te, &stop_tick), 2);
	assert_int_equal(te.dev.last_state_idx, 2);
	te_fini(&te);
}

/* The search never tests first_idx: with a 1 µs limit even C1 (2 µs) is too slow, but the
 * loop stops at i == first_idx and returns C1 anyway. The 7.1 framework also applies the
 * 6.19 wakeup-latency QoS, so that limit alone must do the same. */
static void test_qos_demotion_stops_at_first_idx(void **state)
{
	struct testenv te;
	bool stop_tick;

	ladder_init(&te, "ladder-7.1");
	te.dev.last_state_idx = 3;
	te.dev.last_residency_ns = 1000 * US;
	te.qos.wakeup_latency_us = 1;
	assert_int_equal(te_select(&te, &stop_tick), 1);
	te_fini(&te);
}

/* The QoS limit also blocks promotion: on C1E with a 100 µs limit, C6 (133 µs) is never
 * reached however long the periods are. */
static void test_qos_blocks_promotion(void **state)
{
	struct testenv te;

	ladder_init(&te, "ladder-7.1");
	climb_to_c1e(&te);
	te.qos.resume_latency_us = 100;
	idle_n(&te, 8, 1000 * US, 2);
	assert_int_equal(var_s(&te, "states[2].stats.promotion_count"), 0);
	te_fini(&te);
}

/* A disabled deeper state blocks promotion; disabling the current one demotes at once. */
static void test_disabled_states(void **state)
{
	struct testenv te;
	bool stop_tick;

	ladder_init(&te, "ladder-7.1");
	te.dev.states_usage[2].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	te.dev.last_residency_ns = 50 * US;
	idle_n(&te, 6, 50 * US, 1);
	te.dev.states_usage[2].disable = 0;
	climb_to_c1e(&te);
	te.dev.states_usage[2].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	assert_int_equal(te_select(&te, &stop_tick), 1);
	te_fini(&te);
}

/* latency_req 0 sends ladder to state 0 and clears the counters of the state it leaves.
 * State 0 is below first_idx, so its thresholds are all zero: the next select counts any non-zero period (3 µs > 0) and 1 >= 0 promotes at
 * once. reflect(0) does not record state 0, select already did. */
static void test_zero_latency_then_uninitialised_state0(void **state)
{
	struct testenv te;
	bool stop_tick;

	ladder_init(&te, "ladder-7.1");
	climb_to_c1e(&te);
	assert_int_equal(te_idle(&te, 50 * US, &stop_tick), 2);
	assert_int_equal(var_s(&te, "states[2].stats.promotion_count"), 1);
	te.qos.cpu_latency_us = 0;
	assert_int_equal(te_idle(&te, 3 * US, &stop_tick), 0);
	assert_int_equal(te.dev.last_state_idx, 0);
	assert_int_equal(var_s(&te, "states[2].stats.promotion_count"), 0); /* cleared on leaving */
	il_qos_defaults(&te.qos);
	assert_int_equal(te_select(&te, &stop_tick), 1);
	assert_int_equal(var_s(&te, "states[0].stats.promotion_count"), 0); /* cleared on leaving */
	te_fini(&te);
}

/* ... unless the period in state 0 was exactly 0: 0 > 0 fails, and state 0 is below
 * first_idx so it cannot demote either: ladder stays in state 0. */
static void test_state0_zero_residency_stays(void **state)
{
	struct testenv te;
	bool stop_tick;

	ladder_init(&te, "ladder-7.1");
	te.qos.cpu_latency_us = 0;
	assert_int_equal(te_idle(&te, 0, &stop_tick), 0);
	il_qos_defaults(&te.qos);
	assert_int_equal(te_idle(&te, 0, &stop_tick), 0);
	assert_int_equal(te_idle(&te, 0, &stop_tick), 0);
	te_fini(&te);
}

/* 4.16: µs thresholds, ladder's own last_state_idx (dev->last_state_idx is not touched) and
 * the 4.x-only drv->states[].disabled, which blocks promotion exactly like the per-CPU bit. */
static void test_4_16_usec_and_own_last_idx(void **state)
{
	struct testenv te;

	ladder_init(&te, "ladder-4.16");
	assert_int_equal(te_var(&te, "states[1].threshold.promotion_time"), 2);
	assert_int_equal(te_var(&te, "states[3].threshold.demotion_time"), 133);
	te.dev.last_residency = 50;
	te.drv.states[2].disabled = true;
	idle_n(&te, 6, 50 * US, 1);
	te.drv.states[2].disabled = false;
	idle_n(&te, 3, 50 * US, 1);
	idle_n(&te, 1, 50 * US, 2);
	assert_int_equal(var_s(&te, "last_state_idx"), 2);
	assert_int_equal(te.dev.last_state_idx, 0);
	te_fini(&te);
}

/* 6.x ignores drv->states[].disabled (the field is gone there; only the per-CPU bit counts). */
static void test_6_x_ignores_4_x_disabled_flag(void **state)
{
	struct testenv te;

	ladder_init(&te, "ladder-6.12.117");
	te.drv.states[2].disabled = true;
	climb_to_c1e(&te);
	te_fini(&te);
}

/* 4.x negative residency is int µs: 5 µs in C1E is (int)(5u - 10u) = -5, compared with the
 * u32 thresholds as 4294967291: no demotion, promotion counted, as in the ns versions. */
static void test_4_17_negative_residency(void **state)
{
	struct testenv te;
	bool stop_tick;

	ladder_init(&te, "ladder-4.17");
	te.dev.last_residency = 50;
	idle_n(&te, 3, 50 * US, 1);
	idle_n(&te, 1, 5 * US, 2);
	assert_int_equal(te_idle(&te, 5 * US, &stop_tick), 2);
	assert_int_equal(var_s(&te, "states[2].stats.promotion_count"), 1);
	assert_int_equal(var_s(&te, "states[2].stats.demotion_count"), 0);
	te_fini(&te);
}

/* 4.x QoS: the device resume latency (50 µs) is lower than the global request, so it is the
 * limit, and C6 demotes to C1E. */
static void test_4_16_resume_latency(void **state)
{
	struct testenv te;
	bool stop_tick;

	ladder_init(&te, "ladder-4.16");
	te.dev.last_residency = 1000;
	/* climb C1 -> C1E -> C6 with long periods: 4 selects per rung */
	idle_n(&te, 3, 1000 * US, 1);
	idle_n(&te, 1, 1000 * US, 2);
	idle_n(&te, 3, 1000 * US, 2);
	idle_n(&te, 1, 1000 * US, 3);
	te.qos.resume_latency_us = 50;
	assert_int_equal(te_select(&te, &stop_tick), 2);
	te_fini(&te);
}

/* reflect() ignores state 0: if the core entered state 0 instead of the chosen C1E (say, the
 * broadcast timer fell back), ladder stays on C1E; any deeper entered state is recorded. */
static void test_reflect_ignores_state0(void **state)
{
	struct testenv te;

	ladder_init(&te, "ladder-7.1");
	climb_to_c1e(&te);
	il_cpuidle_reflect(&te.dev, 0);
	assert_int_equal(te.dev.last_state_idx, 2);
	il_cpuidle_reflect(&te.dev, 3);
	assert_int_equal(te.dev.last_state_idx, 3);
	te_fini(&te);
}

/* The same preset names resolve, and the "ladder" alias now means ladder-7.1. */
static void test_presets_and_alias(void **state)
{
	static const char *const names[] = { "ladder-4.16", "ladder-4.17", "ladder-6.13",
					     "ladder-7.1", "ladder-6.1.192", "ladder-6.12.117" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		const struct il_preset *p = il_preset_find(names[i]);

		assert_non_null(p);
		assert_non_null(p->upstream);
		assert_non_null(p->changes);
	}
	assert_ptr_equal(il_preset_find("ladder"), il_preset_find("ladder-7.1"));
	assert_ptr_equal(il_preset_find("ladder-7.1")->core, &il_core_7_0);
	assert_ptr_equal(il_preset_find("ladder-6.1.192")->core, &il_core_debian_6_1);
}

/* vars(): one "last_state_idx" plus six fields per driver state, all upstream fields. */
static void test_vars_are_upstream_fields(void **state)
{
	struct testenv te;
	struct il_var vars[IL_MAX_VARS];
	int n;

	ladder_init(&te, "ladder-6.13");
	n = te.dev.preset->gov->vars(&te.dev, vars, IL_MAX_VARS);
	assert_int_equal(n, 1 + 6 * 4);
	for (int i = 0; i < n; i++)
		assert_false(vars[i].diag);
	assert_int_equal(te.dev.preset->gov->vars(&te.dev, vars, 3), 3);
	te_fini(&te);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_enable_thresholds),
		cmocka_unit_test(test_promotion_after_four_long),
		cmocka_unit_test(test_no_promotion_when_short),
		cmocka_unit_test(test_demotion_after_one_short),
		cmocka_unit_test(test_negative_residency_promotes),
		cmocka_unit_test(test_first_select_counts_as_long),
		cmocka_unit_test(test_qos_demotion),
		cmocka_unit_test(test_qos_demotion_stops_at_first_idx),
		cmocka_unit_test(test_qos_blocks_promotion),
		cmocka_unit_test(test_disabled_states),
		cmocka_unit_test(test_zero_latency_then_uninitialised_state0),
		cmocka_unit_test(test_state0_zero_residency_stays),
		cmocka_unit_test(test_4_16_usec_and_own_last_idx),
		cmocka_unit_test(test_6_x_ignores_4_x_disabled_flag),
		cmocka_unit_test(test_4_17_negative_residency),
		cmocka_unit_test(test_4_16_resume_latency),
		cmocka_unit_test(test_reflect_ignores_state0),
		cmocka_unit_test(test_presets_and_alias),
		cmocka_unit_test(test_vars_are_upstream_fields),
	};

	return cmocka_run_group_tests_name("ladder", tests, NULL, NULL);
}
