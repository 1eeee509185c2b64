// SPDX-License-Identifier: GPL-2.0-only
/*
 * Properties every preset must keep on random state tables and random inputs:
 *
 *  1. the selected index is a valid state; with every state enabled it is never out of range;
 *  2. where the version enforces the latency limit in all paths (menu >= 6.17, teo, the oracle),
 *     the selected state meets it unless it is the shallowest enabled state;
 *  3. stop_tick rules: 4.16 menu and ladder never clear stop_tick; menu >= 4.17, teo and haltpoll
 *     never stop a running tick for a polling state;
 *  4. a select() queries the sleep length at most once;
 *  5. the oracle never misses (no above, no below) when the QoS limit does not bind;
 *  6. determinism: the same input stream gives the same decisions and the same internal state;
 *  7. menu-5 (85975daeaa4d) never picks a deeper state than menu-4 for the same wakeups on a
 *     table whose deep state's residency is at most a tick (rk3588's): its one change only
 *     shortens predictions (docs/lab.md, "Which counter is the seeds' belows column?").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "testenv.h"

#define STEPS 20000

struct rng {
	u64 s;
};

static u64 rng_next(struct rng *r)
{
	/* splitmix64 */
	u64 z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static s64 rng_range(struct rng *r, s64 lo, s64 hi)
{
	return lo + (s64)(rng_next(r) % (u64)(hi - lo + 1));
}

/* An increasing table of 2..6 states; state 0 polling half of the time. */
static int random_table(struct rng *r, s64 states[][2], bool *poll0)
{
	int n = (int)rng_range(r, 2, 6);
	s64 lat = 0, res = 0;

	*poll0 = rng_next(r) & 1;
	for (int i = 0; i < n; i++) {
		if (i > 0 || !*poll0) {
			lat += rng_range(r, 1, 300) * 1000;
			res += rng_range(r, 1, 2000) * 1000;
		}
		states[i][0] = lat;
		states[i][1] = res;
	}
	return n;
}

static void random_inputs(struct rng *r, struct testenv *te, s64 *residency)
{
	static const s64 scale[] = { 10000, 200000, 3000000, 50000000 };

	te->sleep_ns = rng_range(r, 0, scale[rng_next(r) % 4]);
	te->delta_next_ns = te->sleep_ns < 1000000 ? te->sleep_ns : rng_range(r, 0, 1000000);
	te->tick_stopped = (rng_next(r) % 4) == 0;
	te->got_tick = (rng_next(r) % 5) == 0;
	te->qos.cpu_latency_us = (rng_next(r) % 3) ? PM_QOS_CPU_LATENCY_DEFAULT_VALUE
						   : (s32)rng_range(r, 0, 400);
	*residency = (rng_next(r) % 50) == 0 ? -1 : rng_range(r, 0, te->sleep_ns);
	te->oracle_ns = *residency;
}

static bool enforces_latency_everywhere(const struct il_preset *p)
{
	const char *fam = p->gov->name;

	if (!strcmp(fam, "teo") || !strcmp(fam, "oracle"))
		return true;
	/* 779b1a1cb13a (6.17) is also in Debian's 6.12.117, not in its 6.1.192. */
	return !strcmp(fam, "menu") &&
	       (p->kver >= IL_KV(6, 17, 0) || p->core == &il_core_debian_6_12);
}

static bool never_clears_stop_tick(const struct il_preset *p)
{
	return !strcmp(p->gov->name, "ladder") ||
	       (!strcmp(p->gov->name, "menu") && p->core->idle_loop == IL_LOOP_4_16);
}

static bool keeps_tick_for_polling(const struct il_preset *p)
{
	const char *fam = p->gov->name;

	return (!strcmp(fam, "menu") && p->core->idle_loop != IL_LOOP_4_16) || !strcmp(fam, "teo") ||
	       !strcmp(fam, "haltpoll");
}

static int shallowest_enabled(const struct testenv *te)
{
	for (int i = 0; i < te->drv.state_count; i++)
		if (!te->dev.states_usage[i].disable)
			return i;
	return 0;
}

static void check_step(const struct il_preset *p, struct testenv *te, int idx, bool stop_tick,
		       bool tick_was_stopped, s64 latency_ns)
{
	const struct il_state *s;

	assert_in_range(idx, 0, te->drv.state_count - 1);
	assert_true(te->sleep_queries <= 1);
	s = &te->drv.states[idx];
	if (enforces_latency_everywhere(p) && idx != shallowest_enabled(te))
		assert_true(s->exit_latency_ns <= latency_ns);
	if (never_clears_stop_tick(p))
		assert_true(stop_tick);
	if (keeps_tick_for_polling(p) && (s->flags & CPUIDLE_FLAG_POLLING) && !tick_was_stopped)
		assert_false(stop_tick);
}

/* Run one random stream through @p; return a digest of all decisions and the final vars. */
static u64 run_stream(const struct il_preset *p, u64 seed)
{
	struct rng r = { seed };
	struct testenv te;
	s64 states[CPUIDLE_STATE_MAX][2];
	struct il_var vars[IL_MAX_VARS];
	u64 digest = 1469598103934665603ULL;
	bool poll0;
	int n = random_table(&r, states, &poll0);

	te_init(&te, p->name, poll0, n, states);
	for (int step = 0; step < STEPS; step++) {
		bool stop_tick, tick_was_stopped;
		s64 residency, latency_ns;
		int idx;

		random_inputs(&r, &te, &residency);
		tick_was_stopped = te.tick_stopped;
		latency_ns = (s64)te.qos.cpu_latency_us * NSEC_PER_USEC;
		te.sleep_queries = 0;
		idx = te_idle(&te, residency, &stop_tick);
		check_step(p, &te, idx, stop_tick, tick_was_stopped, latency_ns);
		digest = (digest ^ (u64)(idx * 2 + stop_tick)) * 1099511628211ULL;
	}
	for (int i = 0, nv = p->gov->vars(&te.dev, vars, IL_MAX_VARS); i < nv; i++)
		digest = (digest ^ vars[i].value) * 1099511628211ULL;
	te_fini(&te);
	return digest;
}

static void test_all_presets_keep_properties(void **state)
{
	int count = il_preset_count();

	assert_true(count > 0);
	for (int i = 0; i < count; i++) {
		const struct il_preset *p = il_preset_at(i);

		for (u64 seed = 1; seed <= 3; seed++)
			assert_int_equal(run_stream(p, seed), run_stream(p, seed));
	}
}

static void test_oracle_never_misses_without_qos(void **state)
{
	static const s64 table[][2] = { { 0, 0 }, { 2000, 2000 }, { 10000, 20000 }, { 133000, 600000 } };
	struct testenv te;
	struct rng r = { 42 };

	te_init(&te, "oracle", true, 4, table);
	for (int step = 0; step < STEPS; step++) {
		bool stop_tick;
		s64 res = rng_range(&r, 0, 5000000);

		te.oracle_ns = res;
		te_idle(&te, res, &stop_tick);
	}
	for (int i = 0; i < 4; i++) {
		assert_int_equal(te.dev.states_usage[i].above, 0);
		assert_int_equal(te.dev.states_usage[i].below, 0);
	}
	te_fini(&te);
}

/*
 * menu-4 and menu-5 from the same state: before each select, menu-5's per-CPU data is a
 * copy of menu-4's (the same recent intervals and correction factors), and both see the same
 * random inputs on rk3588's two states. Only menu-4 runs the whole idle period; run side by
 * side, their histories would drift apart through menu_update()'s exit-latency correction.
 */
static void test_menu5_never_deeper_than_menu4(void **state)
{
	static const s64 rk3588[][2] = { { 1000, 1000 }, { 220000, 1000000 } };
	size_t size = il_preset_find("menu-4")->gov->data_size;
	struct testenv m4, m5;
	struct rng r = { 7 };
	int shallower = 0;

	te_init(&m4, "menu-4", false, 2, rk3588);
	te_init(&m5, "menu-5", false, 2, rk3588);
	for (int step = 0; step < 10 * STEPS; step++) {
		bool stop4, stop5;
		s64 res;
		int i4, i5;

		random_inputs(&r, &m4, &res);
		/* The state menu_update() folds in at the start of select, too. */
		memcpy(m5.dev.governor_data, m4.dev.governor_data, size);
		m5.dev.last_state_idx = m4.dev.last_state_idx;
		m5.dev.last_residency_ns = m4.dev.last_residency_ns;
		m5.dev.poll_time_limit = m4.dev.poll_time_limit;
		m5.now_ns = m4.now_ns;
		m5.sleep_ns = m4.sleep_ns;
		m5.delta_next_ns = m4.delta_next_ns;
		m5.tick_stopped = m4.tick_stopped;
		m5.got_tick = m4.got_tick;
		m5.qos = m4.qos;
		i5 = te_select(&m5, &stop5);
		i4 = te_idle(&m4, res, &stop4);
		assert_true(i5 <= i4);
		shallower += i5 < i4;
	}
	/* ... and the difference is real: menu-5 does pick the shallower state at times. */
	assert_true(shallower > 0);
	te_fini(&m4);
	te_fini(&m5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_presets_keep_properties),
		cmocka_unit_test(test_oracle_never_misses_without_qos),
		cmocka_unit_test(test_menu5_never_deeper_than_menu4),
	};

	return cmocka_run_group_tests_name("properties", tests, NULL, NULL);
}
