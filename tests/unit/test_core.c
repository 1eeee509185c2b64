// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_core.c - the governor-independent cpuidle core (lib/core/cpuidle.c): driver init,
 * HZ, the above/below/rejected accounting of cpuidle_enter_state() and cpuidle_poll_time()
 * under each polling rule. Expected values are worked out by hand from the kernel rules
 * (kernel-governors.md §1.3, §1.4; drivers/cpuidle/{driver,cpuidle,poll_state}.c).
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "kcompat.h"
#include "testenv.h"
#include "util/array.h"

#define US 1000LL

/* A core without a governor: the accounting and poll-time code read only these. */
struct core_fixture {
	struct il_env env;
	struct il_driver drv;
	struct il_device dev;
	struct il_preset preset;
};

/* skx-like table: POLL 0/0, C1 2/2, C1E 10/20, C6 133/600 (µs exit latency / residency). */
static void core_setup(struct core_fixture *f, const struct il_core_rules *rules)
{
	static const unsigned int lat_us[] = { 0, 2, 10, 133 }, res_us[] = { 0, 2, 20, 600 };

	memset(f, 0, sizeof(*f));
	il_env_set_hz(&f->env, 1000);
	f->drv.state_count = 4;
	for (int i = 0; i < 4; i++) {
		f->drv.states[i].exit_latency = lat_us[i];
		f->drv.states[i].target_residency = res_us[i];
	}
	f->drv.states[0].flags = CPUIDLE_FLAG_POLLING;
	il_driver_init(&f->drv);
	f->preset.name = "core-test";
	f->preset.core = rules;
	f->dev.env = &f->env;
	f->dev.preset = &f->preset;
}

/* ---- il_driver_init ------------------------------------------------------------------- */

/* A non-zero µs field wins and sets the ns field to µs * 1000, whatever the ns field held. */
static void test_driver_init_us_to_ns(void **state)
{
	struct il_driver drv = { .state_count = 1 };

	drv.states[0].exit_latency = 10;
	drv.states[0].target_residency = 20;
	drv.states[0].exit_latency_ns = 77777;
	drv.states[0].target_residency_ns = 88888;
	il_driver_init(&drv);
	assert_int_equal(drv.states[0].exit_latency_ns, 10000);
	assert_int_equal(drv.states[0].target_residency_ns, 20000);
}

/* A zero µs field keeps the ns field and derives µs from it, truncating (1999 ns -> 1 µs). */
static void test_driver_init_ns_to_us(void **state)
{
	struct il_driver drv = { .state_count = 2 };

	drv.states[0].exit_latency_ns = 999;
	drv.states[0].target_residency_ns = 1999;
	drv.states[1].exit_latency_ns = 150000;
	drv.states[1].target_residency_ns = 600000;
	il_driver_init(&drv);
	assert_int_equal(drv.states[0].exit_latency, 0);
	assert_int_equal(drv.states[0].target_residency, 1);
	assert_int_equal(drv.states[0].exit_latency_ns, 999);
	assert_int_equal(drv.states[1].exit_latency, 150);
	assert_int_equal(drv.states[1].target_residency, 600);
}

/* Negative ns values (µs field 0) are clamped to 0; the µs fields stay 0. */
static void test_driver_init_negative_clamp(void **state)
{
	struct il_driver drv = { .state_count = 1 };

	drv.states[0].exit_latency_ns = -5;
	drv.states[0].target_residency_ns = -1000000;
	il_driver_init(&drv);
	assert_int_equal(drv.states[0].exit_latency_ns, 0);
	assert_int_equal(drv.states[0].target_residency_ns, 0);
	assert_int_equal(drv.states[0].exit_latency, 0);
	assert_int_equal(drv.states[0].target_residency, 0);
}

/* States past state_count are not the driver's and are left alone. */
static void test_driver_init_only_counted_states(void **state)
{
	struct il_driver drv = { .state_count = 1 };

	drv.states[1].target_residency = 7;
	il_driver_init(&drv);
	assert_int_equal(drv.states[1].target_residency_ns, 0);
}

/* ---- il_env_set_hz -------------------------------------------------------------------- */

/* TICK_NSEC = (1e9 + HZ/2) / HZ and TICK_USEC = (1e6 + HZ/2) / HZ, rounded to nearest. */
static void test_env_set_hz(void **state)
{
	static const struct {
		unsigned int hz;
		u64 tick_nsec, tick_usec;
	} cases[] = {
		{ 100, 10000000, 10000 },
		{ 250, 4000000, 4000 },
		{ 300, 3333333, 3333 }, /* (1e9 + 150) / 300 = 3333333.8 -> 3333333 */
		{ 1000, 1000000, 1000 },
	};
	struct il_env env = { 0 };

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		assert_int_equal(il_env_set_hz(&env, cases[i].hz), 0);
		assert_int_equal(env.hz, cases[i].hz);
		assert_int_equal(env.tick_nsec, cases[i].tick_nsec);
		assert_int_equal(env.tick_usec, cases[i].tick_usec);
	}
}

/* HZ 0 has no tick length: -1/EINVAL and the previous values stay. */
static void test_env_set_hz_zero(void **state)
{
	struct il_env env = { 0 };

	il_env_set_hz(&env, 250);
	errno = 0;
	assert_int_equal(il_env_set_hz(&env, 0), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(env.hz, 250);
	assert_int_equal(env.tick_nsec, 4000000);
}

/* ---- the environment's direct reads (lib/env.h, state_at_ctx) ----------------------------- */

/* The ops of an environment that reads the same struct il_env_state through functions. */
static bool st_tick_stopped(const struct il_env *env)
{
	return ((const struct il_env_state *)env->ctx)->tick_stopped;
}

static bool st_got_tick(const struct il_env *env)
{
	struct il_env_state *st = env->ctx;
	bool got = st->got_tick;

	st->got_tick = false;
	return got;
}

static void st_qos(const struct il_env *env, struct il_qos *out)
{
	*out = ((const struct il_env_state *)env->ctx)->qos;
}

/*
 * kcompat.h answers from the struct il_env_state of an environment that opts in, without
 * calling the (here missing) functions, as the functions answer: got_tick is cleared by the
 * read, the QoS limit is the smaller one, the wakeup limit from 6.19 on.
 */
static void test_env_state_direct_reads(void **state)
{
	static const struct il_env_ops direct = { .state_at_ctx = true };
	static const struct il_env_ops calls = {
		.tick_stopped = st_tick_stopped, .got_tick = st_got_tick, .qos = st_qos,
	};
	const struct il_env_ops *ops[] = { &direct, &calls };

	for (int i = 0; i < 2; i++) {
		struct il_env_state st = {
			.qos = { .cpu_latency_us = 300, .wakeup_latency_us = 40,
				 .resume_latency_us = PM_QOS_RESUME_LATENCY_NO_CONSTRAINT },
			.tick_stopped = true, .got_tick = true,
		};
		struct core_fixture f;

		core_setup(&f, &il_core_6_13);
		f.env.ops = ops[i];
		f.env.ctx = &st;
		assert_true(tick_nohz_tick_stopped(&f.dev));
		assert_true(tick_nohz_idle_got_tick(&f.dev));
		assert_false(tick_nohz_idle_got_tick(&f.dev));
		assert_false(st.got_tick);
		assert_int_equal(cpuidle_governor_latency_req(&f.dev), 300 * US);
		assert_int_equal(pm_qos_latency_req_4_x(&f.dev), 300);
		st.qos.resume_latency_us = 100;
		assert_int_equal(pm_qos_latency_req_4_x(&f.dev), 100);
		f.preset.core = &il_core_6_19;
		assert_int_equal(cpuidle_governor_latency_req(&f.dev), 40 * US);
		st.tick_stopped = false;
		assert_false(tick_nohz_tick_stopped(&f.dev));
	}
}

/* ---- il_cpuidle_account --------------------------------------------------------------- */

/* 100 µs in C6 (target residency 600 µs) with POLL..C1E enabled: too deep, "above". */
static void test_account_above(void **state)
{
	struct core_fixture f;

	core_setup(&f, &il_core_6_13);
	assert_int_equal(il_cpuidle_account(&f.drv, &f.dev, 3, 100 * US), IL_MISS_ABOVE);
	assert_int_equal(f.dev.states_usage[3].above, 1);
	assert_int_equal(f.dev.states_usage[3].below, 0);
	assert_int_equal(f.dev.states_usage[3].usage, 1);
	assert_int_equal(f.dev.states_usage[3].time_ns, 100 * US);
	assert_int_equal(f.dev.last_residency_ns, 100 * US);
	assert_int_equal(f.dev.last_residency, 100);
}

/* "above" needs an enabled shallower state: with POLL, C1 and C1E disabled there was no
 * better choice, so a short C6 period is no miss. Re-enabling only POLL makes it one. */
static void test_account_above_needs_shallower_state(void **state)
{
	struct core_fixture f;

	core_setup(&f, &il_core_6_13);
	for (int i = 0; i < 3; i++)
		f.dev.states_usage[i].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	assert_int_equal(il_cpuidle_account(&f.drv, &f.dev, 3, 100 * US), IL_MISS_NONE);
	assert_int_equal(f.dev.states_usage[3].above, 0);
	assert_int_equal(f.dev.states_usage[3].usage, 1);

	f.dev.states_usage[0].disable = 0;
	assert_int_equal(il_cpuidle_account(&f.drv, &f.dev, 3, 100 * US), IL_MISS_ABOVE);
	assert_int_equal(f.dev.states_usage[3].above, 1);
}

/* 30 µs in C1 (exit 2 µs): 30 - 2 = 28 >= C1E's 20 µs, so C1E would have fitted: "below". */
static void test_account_below(void **state)
{
	struct core_fixture f;

	core_setup(&f, &il_core_6_13);
	assert_int_equal(il_cpuidle_account(&f.drv, &f.dev, 1, 30 * US), IL_MISS_BELOW);
	assert_int_equal(f.dev.states_usage[1].below, 1);
	assert_int_equal(f.dev.states_usage[1].above, 0);
}

/* The test is diff - exit_latency >= tr: 22 µs in C1 gives exactly 20 (below), 21.999 µs not. */
static void test_account_below_boundary(void **state)
{
	struct core_fixture f;

	core_setup(&f, &il_core_6_13);
	assert_int_equal(il_cpuidle_account(&f.drv, &f.dev, 1, 22 * US), IL_MISS_BELOW);
	assert_int_equal(il_cpuidle_account(&f.drv, &f.dev, 1, 22 * US - 1), IL_MISS_NONE);
	assert_int_equal(f.dev.states_usage[1].below, 1);
	assert_int_equal(f.dev.states_usage[1].usage, 2);
}

/* Only the NEXT enabled deeper state is checked: with C1E disabled, 30 µs in C1 is compared
 * with C6 (600 µs) only, so it is no miss, even though C1E would have fitted. */
static void test_account_below_next_enabled_only(void **state)
{
	struct core_fixture f;

	core_setup(&f, &il_core_6_13);
	f.dev.states_usage[2].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	assert_int_equal(il_cpuidle_account(&f.drv, &f.dev, 1, 30 * US), IL_MISS_NONE);
	assert_int_equal(il_cpuidle_account(&f.drv, &f.dev, 1, 700 * US), IL_MISS_BELOW);
	assert_int_equal(f.dev.states_usage[1].below, 1);
}

/* No deeper state is checked at all unless diff > exit latency of the entered state: a state
 * with exit 50 µs and residency 10 µs, then one with residency 0. 50 µs is not above (>= 10)
 * and, being equal to the exit latency, not below either, though 50 - 50 >= 0 would hold. */
static void test_account_below_needs_diff_above_exit_latency(void **state)
{
	struct core_fixture f;

	core_setup(&f, &il_core_6_13);
	f.drv.state_count = 3;
	f.drv.states[1].exit_latency_ns = 50 * US;
	f.drv.states[1].target_residency_ns = 10 * US;
	f.drv.states[2].exit_latency_ns = 0;
	f.drv.states[2].target_residency_ns = 0;
	assert_int_equal(il_cpuidle_account(&f.drv, &f.dev, 1, 50 * US), IL_MISS_NONE);
	assert_int_equal(il_cpuidle_account(&f.drv, &f.dev, 1, 50 * US + 1), IL_MISS_BELOW);
}

/* The deepest state can be neither too shallow (no deeper state) nor, when long, too deep. */
static void test_account_deepest_long(void **state)
{
	struct core_fixture f;

	core_setup(&f, &il_core_6_13);
	assert_int_equal(il_cpuidle_account(&f.drv, &f.dev, 3, 5000 * US), IL_MISS_NONE);
	assert_int_equal(f.dev.states_usage[3].above + f.dev.states_usage[3].below, 0);
}

/* A failed entry: last_residency(_ns) become 0 (a previous value must not survive), only
 * "rejected" counts; usage and time stay. */
static void test_account_rejected(void **state)
{
	struct core_fixture f;

	core_setup(&f, &il_core_6_13);
	il_cpuidle_account(&f.drv, &f.dev, 2, 40 * US);
	assert_int_equal(il_cpuidle_account(&f.drv, &f.dev, 2, -1), IL_MISS_REJECTED);
	assert_int_equal(f.dev.last_residency_ns, 0);
	assert_int_equal(f.dev.last_residency, 0);
	assert_int_equal(f.dev.states_usage[2].rejected, 1);
	assert_int_equal(f.dev.states_usage[2].usage, 1);
	assert_int_equal(f.dev.states_usage[2].time_ns, 40 * US);
}

/* The 4.x µs residency truncates (1999 ns -> 1 µs) and is clamped to INT_MAX. */
static void test_account_4_x_us_residency(void **state)
{
	struct core_fixture f;

	core_setup(&f, &il_core_4_16);
	il_cpuidle_account(&f.drv, &f.dev, 3, 1999);
	assert_int_equal(f.dev.last_residency, 1);
	il_cpuidle_account(&f.drv, &f.dev, 3, ((s64)INT_MAX + 5) * US);
	assert_int_equal(f.dev.last_residency, INT_MAX);
	assert_int_equal(f.dev.last_residency_ns, ((s64)INT_MAX + 5) * US);
}

/* ---- il_cpuidle_poll_time ------------------------------------------------------------- */

/* 4.16 polls until a wakeup: no limit. */
static void test_poll_time_4_16(void **state)
{
	struct core_fixture f;

	core_setup(&f, &il_core_4_16);
	assert_true(il_cpuidle_poll_time(&f.drv, &f.dev) == UINT64_MAX);
	assert_int_equal(f.dev.poll_limit_ns, 0);
}

/* 4.17: a fixed TICK_NSEC / 16, nothing cached (HZ 1000: 62500; HZ 250: 250000). */
static void test_poll_time_4_17(void **state)
{
	struct core_fixture f;

	core_setup(&f, &il_core_4_17);
	assert_int_equal(il_cpuidle_poll_time(&f.drv, &f.dev), 62500);
	il_env_set_hz(&f.env, 250);
	assert_int_equal(il_cpuidle_poll_time(&f.drv, &f.dev), 250000);
	assert_int_equal(f.dev.poll_limit_ns, 0);
}

/* 5.x: C1's 2 µs is below the 10 µs minimum and is skipped; C1E's 20 µs is the first state
 * that counts, and min(20000, TICK_NSEC/16 = 62500) = 20000 is cached in poll_limit_ns. */
static void test_poll_time_5_x_first_state_over_min(void **state)
{
	struct core_fixture f;

	core_setup(&f, &il_core_6_13);
	assert_int_equal(il_cpuidle_poll_time(&f.drv, &f.dev), 20000);
	assert_int_equal(f.dev.poll_limit_ns, 20000);
}

/* The cache wins over a changed table: once poll_limit_ns is set it is returned as is. */
static void test_poll_time_5_x_cached(void **state)
{
	struct core_fixture f;

	core_setup(&f, &il_core_6_13);
	il_cpuidle_poll_time(&f.drv, &f.dev);
	f.dev.states_usage[2].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	assert_int_equal(il_cpuidle_poll_time(&f.drv, &f.dev), 20000);

	f.dev.poll_limit_ns = 123456; /* as haltpoll sets it */
	assert_int_equal(il_cpuidle_poll_time(&f.drv, &f.dev), 123456);
}

/* Disabled states are skipped: without C1E the first state over 10 µs is C6 (600 µs), capped
 * at TICK_NSEC/16 = 62500 (HZ 1000); at HZ 100 the cap is 625000, so 600000 stands. */
static void test_poll_time_5_x_disabled_and_cap(void **state)
{
	struct core_fixture f;

	core_setup(&f, &il_core_6_13);
	f.dev.states_usage[2].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	assert_int_equal(il_cpuidle_poll_time(&f.drv, &f.dev), 62500);

	core_setup(&f, &il_core_7_0);
	il_env_set_hz(&f.env, 100);
	f.dev.states_usage[2].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	assert_int_equal(il_cpuidle_poll_time(&f.drv, &f.dev), 600000);
}

/* Exactly 10 µs counts (only shorter states are skipped); no state at or over 10 µs leaves
 * the cap TICK_NSEC/16. */
static void test_poll_time_5_x_minimum(void **state)
{
	struct core_fixture f;

	core_setup(&f, &il_core_debian_6_1);
	f.drv.states[1].target_residency_ns = 10000;
	assert_int_equal(il_cpuidle_poll_time(&f.drv, &f.dev), 10000);

	core_setup(&f, &il_core_debian_6_12);
	f.drv.state_count = 2; /* POLL and C1 (2 µs) only */
	assert_int_equal(il_cpuidle_poll_time(&f.drv, &f.dev), 62500);
	assert_int_equal(f.dev.poll_limit_ns, 62500);
}

/* ---- il_cpuidle_reflect --------------------------------------------------------------- */

static int reflect_calls, reflect_index;

static void counting_reflect(struct il_device *dev, int index)
{
	reflect_calls++;
	reflect_index = index;
}

/* reflect runs only for an entered state (index >= 0), as cpuidle_reflect() does. */
static void test_reflect_only_entered(void **state)
{
	static const struct il_governor gov = { .name = "count", .reflect = counting_reflect };
	struct core_fixture f;

	core_setup(&f, &il_core_7_0);
	f.preset.gov = &gov;
	reflect_calls = 0;
	il_cpuidle_reflect(&f.dev, -16); /* -EBUSY */
	assert_int_equal(reflect_calls, 0);
	il_cpuidle_reflect(&f.dev, 2);
	assert_int_equal(reflect_calls, 1);
	assert_int_equal(reflect_index, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_driver_init_us_to_ns),
		cmocka_unit_test(test_driver_init_ns_to_us),
		cmocka_unit_test(test_driver_init_negative_clamp),
		cmocka_unit_test(test_driver_init_only_counted_states),
		cmocka_unit_test(test_env_set_hz),
		cmocka_unit_test(test_env_set_hz_zero),
		cmocka_unit_test(test_env_state_direct_reads),
		cmocka_unit_test(test_account_above),
		cmocka_unit_test(test_account_above_needs_shallower_state),
		cmocka_unit_test(test_account_below),
		cmocka_unit_test(test_account_below_boundary),
		cmocka_unit_test(test_account_below_next_enabled_only),
		cmocka_unit_test(test_account_below_needs_diff_above_exit_latency),
		cmocka_unit_test(test_account_deepest_long),
		cmocka_unit_test(test_account_rejected),
		cmocka_unit_test(test_account_4_x_us_residency),
		cmocka_unit_test(test_poll_time_4_16),
		cmocka_unit_test(test_poll_time_4_17),
		cmocka_unit_test(test_poll_time_5_x_first_state_over_min),
		cmocka_unit_test(test_poll_time_5_x_cached),
		cmocka_unit_test(test_poll_time_5_x_disabled_and_cap),
		cmocka_unit_test(test_poll_time_5_x_minimum),
		cmocka_unit_test(test_reflect_only_entered),
	};

	return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}
