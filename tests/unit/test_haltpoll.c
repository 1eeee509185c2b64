// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_haltpoll.c - hand-worked cases for the haltpoll port (lib/gov/haltpoll.c) and the
 * governor tunables (lib/gov/param.c) that carry its module parameters.
 *
 * Table: the cpuidle-haltpoll driver's [0 = poll, 1 = halt (exit 1 µs, residency 1 µs)].
 * Defaults: guest_halt_poll_ns 200000, shrink 2, grow 2, grow_start 50000, allow_shrink y.
 * The poll window is dev->poll_limit_ns; a poll that outlasts it sets dev->poll_time_limit
 * (te_idle() does that, as poll_idle() would).
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "testenv.h"
#include "util/array.h"

#define US 1000LL

static const s64 haltpoll_table[][2] = { { 0, 0 }, { 1 * US, 1 * US } };

static void hp_init(struct testenv *te, const char *preset)
{
	te_init(te, preset, true, 2, haltpoll_table);
}

/* One halt lasting @block_ns; asserts haltpoll chose to halt and left the tick to stop. */
static void halt_for(struct testenv *te, s64 block_ns)
{
	bool stop_tick;

	assert_int_equal(te_idle(te, block_ns, &stop_tick), 1);
	assert_true(stop_tick);
}

/* One poll that runs past the window; asserts haltpoll polled with the tick kept. */
static void poll_times_out(struct testenv *te)
{
	bool stop_tick;

	assert_int_equal(te_idle(te, (s64)te->dev.poll_limit_ns + 1, &stop_tick), 0);
	assert_false(stop_tick);
	assert_true(te->dev.poll_time_limit);
}

/* A halt of @block_ns that follows a poll timeout, as in a steady idle guest. */
static void poll_then_halt(struct testenv *te, s64 block_ns)
{
	poll_times_out(te);
	halt_for(te, block_ns);
}

/* enable() closes the window, so the first select halts and lets the tick stop. */
static void test_first_select_halts(void **state)
{
	struct testenv te;

	hp_init(&te, "haltpoll-7.0");
	assert_int_equal(te_var(&te, "poll_limit_ns"), 0);
	halt_for(&te, 30 * US);
	assert_int_equal((s64)te_var(&te, "last_state_idx"), 1);
	te_fini(&te);
}

/* Grow from 0: a 30 µs halt is longer than the window (0) and within 200 µs, so the window
 * becomes 0 * 2 = 0, raised to grow_start = 50000. */
static void test_grow_from_zero_to_grow_start(void **state)
{
	struct testenv te;

	hp_init(&te, "haltpoll-7.0");
	halt_for(&te, 30 * US);
	assert_int_equal(te.dev.poll_limit_ns, 50000);
	te_fini(&te);
}

/* Doubling: halts of 80 µs and 200 µs each outlast the window: 50000 -> 100000 -> 200000,
 * which is exactly guest_halt_poll_ns. A halt not longer than the window changes nothing. */
static void test_grow_doubles(void **state)
{
	struct testenv te;

	hp_init(&te, "haltpoll-6.13");
	halt_for(&te, 30 * US);
	poll_then_halt(&te, 50 * US); /* exactly the window: growth needs strictly longer */
	assert_int_equal(te.dev.poll_limit_ns, 50000);
	poll_then_halt(&te, 80 * US);
	assert_int_equal(te.dev.poll_limit_ns, 100000);
	poll_then_halt(&te, 200 * US); /* exactly guest_halt_poll_ns still grows (<=) */
	assert_int_equal(te.dev.poll_limit_ns, 200000);
	poll_then_halt(&te, 150 * US); /* 150 µs < 200 µs window: neither grow nor shrink */
	assert_int_equal(te.dev.poll_limit_ns, 200000);
	te_fini(&te);
}

/* Cap: with guest_halt_poll_grow = 3, 50000 -> 150000 -> 450000 capped at 200000. */
static void test_grow_capped_at_guest_halt_poll_ns(void **state)
{
	struct testenv te;

	hp_init(&te, "haltpoll-7.0");
	assert_int_equal(il_gov_set_param(&te.dev, "guest_halt_poll_grow", "3"), 0);
	halt_for(&te, 30 * US);
	poll_then_halt(&te, 100 * US);
	assert_int_equal(te.dev.poll_limit_ns, 150000);
	poll_then_halt(&te, 190 * US);
	assert_int_equal(te.dev.poll_limit_ns, 200000);
	te_fini(&te);
}

/* Grow to 200000, then halts longer than guest_halt_poll_ns (300 µs) shrink it:
 * 200000 / 2 = 100000, then 50000 (not below grow_start, kept). */
static void shrink_to_grow_start(struct testenv *te)
{
	halt_for(te, 30 * US);
	poll_then_halt(te, 80 * US);
	poll_then_halt(te, 150 * US);
	assert_int_equal(te->dev.poll_limit_ns, 200000);
	poll_then_halt(te, 300 * US);
	assert_int_equal(te->dev.poll_limit_ns, 100000);
	poll_then_halt(te, 300 * US);
	assert_int_equal(te->dev.poll_limit_ns, 50000);
}

/* 6.9+ (496d0a648509): the next shrink gives 25000 < grow_start, so the window closes, and
 * the next select halts at once. */
static void test_shrink_resets_below_grow_start(void **state)
{
	static const char *const presets[] = { "haltpoll-6.13", "haltpoll-7.0",
					       "haltpoll-6.12.117" };

	for (size_t i = 0; i < ARRAY_SIZE(presets); i++) {
		struct testenv te;

		hp_init(&te, presets[i]);
		shrink_to_grow_start(&te);
		poll_then_halt(&te, 300 * US);
		assert_int_equal(te.dev.poll_limit_ns, 0);
		halt_for(&te, 300 * US); /* closed window: halt without polling */
		te_fini(&te);
	}
}

/* Debian 6.1.192 lacks 496d0a648509: the window keeps shrinking (25000, 12500) and stays
 * open; a 30 µs halt then grows 12500 * 2 = 25000 back up to grow_start 50000. */
static void test_6_1_192_keeps_small_window(void **state)
{
	struct testenv te;

	hp_init(&te, "haltpoll-6.1.192");
	shrink_to_grow_start(&te);
	poll_then_halt(&te, 300 * US);
	assert_int_equal(te.dev.poll_limit_ns, 25000);
	poll_then_halt(&te, 300 * US);
	assert_int_equal(te.dev.poll_limit_ns, 12500);
	poll_then_halt(&te, 30 * US);
	assert_int_equal(te.dev.poll_limit_ns, 50000);
	te_fini(&te);
}

/* guest_halt_poll_shrink = 0 closes the window on a long halt; allow_shrink = n keeps it. */
static void test_shrink_zero_and_no_shrink(void **state)
{
	struct testenv te;

	hp_init(&te, "haltpoll-6.1.192");
	halt_for(&te, 30 * US);
	assert_int_equal(il_gov_set_param(&te.dev, "guest_halt_poll_allow_shrink", "n"), 0);
	poll_then_halt(&te, 300 * US);
	assert_int_equal(te.dev.poll_limit_ns, 50000);
	assert_int_equal(il_gov_set_param(&te.dev, "guest_halt_poll_allow_shrink", "y"), 0);
	assert_int_equal(il_gov_set_param(&te.dev, "guest_halt_poll_shrink", "0"), 0);
	poll_then_halt(&te, 300 * US);
	assert_int_equal(te.dev.poll_limit_ns, 0);
	te_fini(&te);
}

/* After a halt haltpoll polls (tick kept). A poll ended by a wakeup inside the window (10 µs
 * < 50 µs) leads to another poll; a poll that runs out the window (poll timeout) to a halt. */
static void test_poll_timeout_then_halt(void **state)
{
	struct testenv te;
	bool stop_tick;

	hp_init(&te, "haltpoll-7.0");
	halt_for(&te, 30 * US);
	assert_int_equal(te_idle(&te, 10 * US, &stop_tick), 0);
	assert_false(stop_tick);
	assert_false(te.dev.poll_time_limit);
	assert_int_equal(te_idle(&te, 10 * US, &stop_tick), 0);
	assert_false(stop_tick);
	poll_times_out(&te);
	halt_for(&te, 40 * US);
	te_fini(&te);
}

/* Polls never change the window: reflect() adjusts it only after a halt. */
static void test_poll_does_not_adjust(void **state)
{
	struct testenv te;

	hp_init(&te, "haltpoll-7.0");
	halt_for(&te, 30 * US);
	poll_times_out(&te);
	assert_int_equal(te.dev.poll_limit_ns, 50000);
	assert_int_equal((s64)te_var(&te, "last_state_idx"), 0);
	te_fini(&te);
}

/* latency_req 0: poll with the tick kept, even with a closed window. The core's
 * cpuidle_poll_time() then caches its default window, TICK_NSEC/16 = 62500 at HZ 1000 (the
 * halt state's 1 µs residency is under the 10 µs minimum), so afterwards haltpoll sees an
 * open window it never set and, back from a poll inside it, polls again. */
static void test_zero_latency_polls_and_core_caches_window(void **state)
{
	struct testenv te;
	bool stop_tick;

	hp_init(&te, "haltpoll-7.0");
	te.qos.cpu_latency_us = 0;
	assert_int_equal(te_idle(&te, 5 * US, &stop_tick), 0);
	assert_false(stop_tick);
	assert_int_equal(te.dev.poll_limit_ns, 62500);
	il_qos_defaults(&te.qos);
	assert_int_equal(te_idle(&te, 5 * US, &stop_tick), 0);
	assert_false(stop_tick);
	te_fini(&te);
}

/* Up to 6.19 select() tests !drv->state_count (poll, tick kept); 7.0 dropped it, so with no
 * states and a closed window it answers "halt". The 7.0 idle loop never calls it so. */
static void test_no_states_test_by_version(void **state)
{
	struct testenv te;
	bool stop_tick;

	hp_init(&te, "haltpoll-6.13");
	te.drv.state_count = 0;
	assert_int_equal(te_select(&te, &stop_tick), 0);
	assert_false(stop_tick);
	te.drv.state_count = 2;
	te_fini(&te);

	hp_init(&te, "haltpoll-7.0");
	te.drv.state_count = 0;
	assert_int_equal(te_select(&te, &stop_tick), 1);
	assert_true(stop_tick);
	te.drv.state_count = 2;
	te_fini(&te);
}

/* The grown window is computed in unsigned int: with a 3e9 ns window and grow 2 the product
 * 6e9 wraps to 6e9 - 2^32 = 1705032704, which then stands (>= grow_start, <= 4294967295). */
static void test_grow_truncates_to_u32(void **state)
{
	struct testenv te;

	hp_init(&te, "haltpoll-7.0");
	assert_int_equal(il_gov_set_param(&te.dev, "guest_halt_poll_ns", "4294967295"), 0);
	te.dev.poll_limit_ns = 3000000000ULL;
	te.dev.last_residency_ns = 3500000000ULL;
	il_cpuidle_reflect(&te.dev, 1);
	assert_int_equal(te.dev.poll_limit_ns, 1705032704);
	te_fini(&te);
}

/* ---- tunables (lib/gov/param.c) ------------------------------------------------------- */

/* Every module parameter exists with the kernel's default right after bind. */
static void test_param_defaults(void **state)
{
	static const struct {
		const char *name;
		u64 def;
	} defs[] = {
		{ "guest_halt_poll_ns", 200000 },    { "guest_halt_poll_shrink", 2 },
		{ "guest_halt_poll_grow", 2 },       { "guest_halt_poll_grow_start", 50000 },
		{ "guest_halt_poll_allow_shrink", 1 },
	};
	struct testenv te;

	hp_init(&te, "haltpoll-6.12.117");
	for (size_t i = 0; i < ARRAY_SIZE(defs); i++) {
		const struct il_param *p = il_gov_find_param(te.dev.preset->gov, defs[i].name);
		u64 v = 12345;

		assert_non_null(p);
		assert_non_null(p->help);
		assert_int_equal(p->def, defs[i].def);
		assert_int_equal(il_gov_get_param(&te.dev, defs[i].name, &v), 0);
		assert_int_equal(v, defs[i].def);
	}
	te_fini(&te);
}

/* Unsigned values parse like kstrtouint(s, 0): decimal, 0x hex, leading-0 octal, '+', one
 * trailing newline. */
static void test_param_set_uint_forms(void **state)
{
	static const struct {
		const char *text;
		u64 value;
	} ok[] = { { "100000", 100000 }, { "0x10", 16 }, { "010", 8 }, { "+5", 5 },
		   { "7\n", 7 }, { "0", 0 }, { "4294967295", 4294967295ULL } };
	struct testenv te;
	u64 v;

	hp_init(&te, "haltpoll-7.0");
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		assert_int_equal(il_gov_set_param(&te.dev, "guest_halt_poll_ns", ok[i].text), 0);
		assert_int_equal(il_gov_get_param(&te.dev, "guest_halt_poll_ns", &v), 0);
		assert_int_equal(v, ok[i].value);
	}
	te_fini(&te);
}

/* Bad values fail with EINVAL (not a number) or ERANGE (over UINT_MAX), and leave the value
 * as it was. */
static void test_param_set_bad_values(void **state)
{
	static const struct {
		const char *text;
		int err;
	} bad[] = { { "abc", EINVAL }, { "-1", EINVAL }, { "", EINVAL }, { "12 ", EINVAL },
		    { "0x", EINVAL }, { "08", EINVAL }, { "1\n\n", EINVAL },
		    { "4294967296", ERANGE } };
	struct testenv te;
	u64 v;

	hp_init(&te, "haltpoll-7.0");
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		errno = 0;
		assert_int_equal(il_gov_set_param(&te.dev, "guest_halt_poll_grow", bad[i].text), -1);
		assert_int_equal(errno, bad[i].err);
		assert_int_equal(il_gov_get_param(&te.dev, "guest_halt_poll_grow", &v), 0);
		assert_int_equal(v, 2);
	}
	errno = 0;
	assert_int_equal(il_gov_set_param(&te.dev, "guest_halt_poll_grow", NULL), -1);
	assert_int_equal(errno, EINVAL);
	te_fini(&te);
}

/* Booleans parse like kstrtobool(); a missing value means "set". */
static void test_param_set_bool(void **state)
{
	static const struct {
		const char *text;
		u64 value;
	} ok[] = { { "n", 0 }, { "Y", 1 }, { "0", 0 }, { "1", 1 }, { "off", 0 }, { "on", 1 },
		   { "false", 0 }, { "true", 1 }, { NULL, 1 } };
	struct testenv te;
	u64 v;

	hp_init(&te, "haltpoll-7.0");
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		assert_int_equal(il_gov_set_param(&te.dev, "guest_halt_poll_allow_shrink", ok[i].text),
				 0);
		assert_int_equal(il_gov_get_param(&te.dev, "guest_halt_poll_allow_shrink", &v), 0);
		assert_int_equal(v, ok[i].value);
	}
	errno = 0;
	assert_int_equal(il_gov_set_param(&te.dev, "guest_halt_poll_allow_shrink", "maybe"), -1);
	assert_int_equal(errno, EINVAL);
	te_fini(&te);
}

/* Unknown names, governors without tunables and unbound devices give ENOENT. */
static void test_param_unknown(void **state)
{
	static const s64 two[][2] = { { 0, 0 }, { 2 * US, 2 * US } };
	struct testenv te;
	struct il_device unbound = { 0 };
	u64 v;

	hp_init(&te, "haltpoll-7.0");
	errno = 0;
	assert_int_equal(il_gov_set_param(&te.dev, "halt_poll_ns", "1"), -1);
	assert_int_equal(errno, ENOENT);
	errno = 0;
	assert_int_equal(il_gov_get_param(&te.dev, "halt_poll_ns", &v), -1);
	assert_int_equal(errno, ENOENT);
	te_fini(&te);

	te_init(&te, "ladder-7.1", true, 2, two);
	errno = 0;
	assert_int_equal(il_gov_set_param(&te.dev, "guest_halt_poll_ns", "1"), -1);
	assert_int_equal(errno, ENOENT);
	te_fini(&te);

	errno = 0;
	assert_int_equal(il_gov_set_param(&unbound, "guest_halt_poll_ns", "1"), -1);
	assert_int_equal(errno, ENOENT);
}

/* Values are per device: setting one CPU's tunable leaves another's at its default. */
static void test_param_per_device(void **state)
{
	struct testenv a, b;
	u64 v;

	hp_init(&a, "haltpoll-7.0");
	hp_init(&b, "haltpoll-7.0");
	assert_int_equal(il_gov_set_param(&a.dev, "guest_halt_poll_grow_start", "10000"), 0);
	assert_int_equal(il_gov_get_param(&b.dev, "guest_halt_poll_grow_start", &v), 0);
	assert_int_equal(v, 50000);
	halt_for(&a, 5 * US);
	halt_for(&b, 5 * US);
	assert_int_equal(a.dev.poll_limit_ns, 10000);
	assert_int_equal(b.dev.poll_limit_ns, 50000);
	te_fini(&a);
	te_fini(&b);
}

/* Preset names resolve; "haltpoll" means haltpoll-7.0; vars are upstream device fields. */
static void test_presets_and_vars(void **state)
{
	static const char *const names[] = { "haltpoll-6.13", "haltpoll-7.0", "haltpoll-6.1.192",
					     "haltpoll-6.12.117" };
	struct il_var vars[IL_MAX_VARS];
	struct testenv te;
	int n;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		assert_non_null(il_preset_find(names[i]));
	assert_ptr_equal(il_preset_find("haltpoll"), il_preset_find("haltpoll-7.0"));

	hp_init(&te, "haltpoll");
	n = te.dev.preset->gov->vars(&te.dev, vars, IL_MAX_VARS);
	assert_int_equal(n, 2);
	for (int i = 0; i < n; i++)
		assert_false(vars[i].diag);
	te_fini(&te);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_select_halts),
		cmocka_unit_test(test_grow_from_zero_to_grow_start),
		cmocka_unit_test(test_grow_doubles),
		cmocka_unit_test(test_grow_capped_at_guest_halt_poll_ns),
		cmocka_unit_test(test_shrink_resets_below_grow_start),
		cmocka_unit_test(test_6_1_192_keeps_small_window),
		cmocka_unit_test(test_shrink_zero_and_no_shrink),
		cmocka_unit_test(test_poll_timeout_then_halt),
		cmocka_unit_test(test_poll_does_not_adjust),
		cmocka_unit_test(test_zero_latency_polls_and_core_caches_window),
		cmocka_unit_test(test_no_states_test_by_version),
		cmocka_unit_test(test_grow_truncates_to_u32),
		cmocka_unit_test(test_param_defaults),
		cmocka_unit_test(test_param_set_uint_forms),
		cmocka_unit_test(test_param_set_bad_values),
		cmocka_unit_test(test_param_set_bool),
		cmocka_unit_test(test_param_unknown),
		cmocka_unit_test(test_param_per_device),
		cmocka_unit_test(test_presets_and_vars),
	};

	return cmocka_run_group_tests_name("haltpoll", tests, NULL, NULL);
}
