// SPDX-License-Identifier: GPL-2.0-only
/*
 * The step driver: the script parser (defaults, units, every error with its line), and the
 * order of events around a governor, checked with a test governor that records what it
 * sees (select/reflect calls, stop_tick, the clock, the got-tick flag, QoS, the oracle) under
 * each family of core rules. Finally every real preset runs the built-in demo on every
 * built-in platform without selecting an invalid state.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "step/step.h"
#include "util/array.h"

/* ---- the script parser -------------------------------------------------------------------- */

static int parse(const char *text, struct il_step_script *s, struct il_error *err)
{
	return il_step_parse(text, strlen(text), "t.step", s, err);
}

static void test_parse_fields_and_units(void **state)
{
	struct il_step_script s;
	struct il_error err;
	const char *text = "# comment\n"
			   "\n"
			   "sleep=2ms res=40us\n"
			   "  res=rejected sleep=-5us   # trailing comment\n"
			   "sleep=1500 delta=-3 stopped=1 qos=20 res=0 tick=1 iowait=2 load=1024 span=7us oracle=9ms\n"
			   "sleep=1ms qos=none res=1ms\r\n";

	if (parse(text, &s, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(s.count, 4);
	assert_int_equal(s.entries[0].line, 3);
	assert_int_equal(s.entries[0].sleep_ns, 2000000);
	assert_int_equal(s.entries[0].res_ns, 40000);
	assert_false(s.entries[0].has_delta || s.entries[0].has_qos || s.entries[0].rejected);
	assert_int_equal(s.entries[1].line, 4);
	assert_true(s.entries[1].rejected);
	assert_int_equal(s.entries[1].sleep_ns, -5000);
	const struct il_step_input *e = &s.entries[2];
	assert_int_equal(e->sleep_ns, 1500);
	assert_true(e->has_delta);
	assert_int_equal(e->delta_ns, -3);
	assert_true(e->stopped && e->tick && e->has_qos && e->has_span && e->has_oracle);
	assert_int_equal(e->qos_us, 20);
	assert_int_equal(e->iowait, 2);
	assert_int_equal(e->load, 1024);
	assert_int_equal(e->span_ns, 7000);
	assert_int_equal(e->oracle_ns, 9000000);
	assert_false(s.entries[3].has_qos);
	il_step_script_free(&s);
}

struct bad_script {
	const char *text;
	const char *want;
};

static const struct bad_script bad_scripts[] = {
	{ "sleep=1ms res=1us\nsleeep=1ms res=1us\n", "t.step:2: unknown field 'sleeep'" },
	{ "sleep=1ms res=1us res=2us\n", "t.step:1: duplicate field 'res'" },
	{ "\n\nres=1us\n", "t.step:3: missing sleep=" },
	{ "sleep=1ms\n", "t.step:1: missing res=" },
	{ "sleep=1ms res=1us stopped=2\n", "t.step:1: invalid stopped '2' (0 or 1)" },
	{ "sleep=1ms res=1us tick=yes\n", "t.step:1: invalid tick 'yes' (0 or 1)" },
	{ "sleep=1ms res=12x\n", "t.step:1: invalid res '12x': not a number" },
	{ "sleep=1ms res=-1us\n", "t.step:1: invalid res '-1us': negative values are not allowed here" },
	{ "sleep=1ms res=1us span=-1\n", "t.step:1: invalid span '-1': negative" },
	{ "sleep=3601000ms res=1us\n", "t.step:1: invalid sleep '3601000ms': value out of range" },
	{ "sleep=99999999999999999999 res=1us\n", "t.step:1: invalid sleep '99999999999999999999': not a number" },
	{ "sleep=1ms res=1us qos=2147483648\n", "t.step:1: invalid qos '2147483648'" },
	{ "sleep=1ms res=1us qos=-1\n", "t.step:1: invalid qos '-1'" },
	{ "sleep=1ms res=1us iowait=4294967296\n", "t.step:1: invalid iowait '4294967296'" },
	{ "sleep=1ms res=rejected tick=1\n", "t.step:1: tick=1 with res=rejected" },
	{ "sleep=1ms res=1us extra\n", "t.step:1: expected key=value, got 'extra'" },
	{ "sleep=1ms res=\"1us\n", "t.step:1: unterminated quote" },
	{ "sleep=1ms res=1us\n=3\n", "t.step:2: '=' without a key before it" },
	{ "# only comments\n\n", "t.step: no idle entries" },
	{ "", "t.step: no idle entries" },
};

static void test_parse_errors(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(bad_scripts); i++) {
		struct il_step_script s;
		struct il_error err;

		memset(&err, 0, sizeof(err));
		if (parse(bad_scripts[i].text, &s, &err) != -1)
			fail_msg("case %zu accepted", i);
		if (strncmp(err.msg, bad_scripts[i].want, strlen(bad_scripts[i].want)))
			fail_msg("case %zu: got \"%s\", want \"%s...\"", i, err.msg, bad_scripts[i].want);
		il_step_script_free(&s);
	}
}

static void test_parse_nul_byte(void **state)
{
	static const char text[] = "sleep=1ms res=1us\nsleep=1ms\0 res=1us\n";
	struct il_step_script s;
	struct il_error err;

	assert_int_equal(il_step_parse(text, sizeof(text) - 1, "t.step", &s, &err), -1);
	assert_string_equal(err.msg, "t.step:2: NUL byte in the input");
	il_step_script_free(&s);
}

static void test_builtin_demo(void **state)
{
	const char *text = il_step_builtin_text("demo");
	struct il_step_script s;
	struct il_error err;
	bool tick = false, stopped = false, rejected = false, qos = false;

	assert_non_null(text);
	assert_null(il_step_builtin_text("nope"));
	assert_string_equal(il_step_builtin_name(0), "demo");
	assert_int_equal(il_step_parse(text, strlen(text), "builtin:demo", &s, &err), 0);
	/* What the demo promises to exercise (docs/step.md). */
	for (size_t i = 0; i < s.count; i++) {
		tick |= s.entries[i].tick;
		stopped |= s.entries[i].stopped;
		rejected |= s.entries[i].rejected;
		qos |= s.entries[i].has_qos;
	}
	assert_true(tick && stopped && rejected && qos);
	assert_true(s.count >= 10);
	il_step_script_free(&s);
}

static void test_resolve_defaults(void **state)
{
	struct il_step_input in = { .sleep_ns = 5000000, .res_ns = 300000 }, out;

	il_step_resolve_inputs(1000000, &in, &out);
	assert_int_equal(out.delta_ns, 1000000); /* min(sleep, tick) */
	assert_int_equal(out.span_ns, 300000);
	assert_int_equal(out.oracle_ns, 300000);
	in.sleep_ns = 400000;
	il_step_resolve_inputs(1000000, &in, &out);
	assert_int_equal(out.delta_ns, 400000);
	in.sleep_ns = 5000000;
	in.stopped = true;
	il_step_resolve_inputs(1000000, &in, &out);
	assert_int_equal(out.delta_ns, 5000000); /* stopped tick: the next event is the timer */
	in.rejected = true;
	il_step_resolve_inputs(1000000, &in, &out);
	assert_int_equal(out.span_ns, 0);
	assert_int_equal(out.oracle_ns, 0);
	in.has_delta = true;
	in.delta_ns = 7;
	in.has_span = true;
	in.span_ns = 8;
	il_step_resolve_inputs(1000000, &in, &out);
	assert_int_equal(out.delta_ns, 7);
	assert_int_equal(out.span_ns, 8);
}

/* ---- a test governor that records what it sees ------------------------------------------- */

struct fake_data {
	unsigned int knob;
	int selects;
};

static struct {
	int index;          /* what select returns */
	bool clear_stop;    /* select writes *stop_tick = false */
	bool query_sleep;   /* select asks for the sleep length */
	bool read_got_tick; /* reflect reads the got-tick flag */
	/* observed */
	int selects, reflects, reflect_index;
	bool stop_tick_in;
	s64 sleep_seen, delta_seen, oracle_seen, latency_seen;
	u64 clock_at_select, clock_at_reflect, residency_at_reflect;
	bool got_tick_at_reflect;
} fk;

static int fake_select(struct il_driver *drv, struct il_device *dev, bool *stop_tick)
{
	struct il_qos q;

	((struct fake_data *)dev->governor_data)->selects++;
	fk.selects++;
	fk.stop_tick_in = *stop_tick;
	fk.clock_at_select = dev->env->ops->local_clock(dev->env);
	fk.oracle_seen = dev->env->ops->oracle_idle_ns(dev->env);
	dev->env->ops->qos(dev->env, &q);
	fk.latency_seen = q.cpu_latency_us;
	if (fk.query_sleep)
		fk.sleep_seen = dev->env->ops->sleep_length(dev->env, &fk.delta_seen);
	if (fk.clear_stop)
		*stop_tick = false;
	return fk.index;
}

static void fake_reflect(struct il_device *dev, int index)
{
	fk.reflects++;
	fk.reflect_index = index;
	fk.clock_at_reflect = dev->env->ops->local_clock(dev->env);
	fk.residency_at_reflect = dev->last_residency_ns;
	if (fk.read_got_tick)
		fk.got_tick_at_reflect = dev->env->ops->got_tick(dev->env);
}

static int fake_vars(const struct il_device *dev, struct il_var *vars, int max)
{
	const struct fake_data *d = dev->governor_data;

	vars[0] = (struct il_var){ .name = "selects", .value = (u64)d->selects };
	vars[1] = (struct il_var){ .name = "knob", .value = d->knob, .diag = true };
	return 2;
}

static const struct il_param fake_params[] = {
	{ "knob", IL_PARAM_UINT, 7, offsetof(struct fake_data, knob), "a test knob" },
	{ 0 },
};

static const struct il_governor fake_gov = {
	.name = "fake",
	.data_size = sizeof(struct fake_data),
	.select = fake_select,
	.reflect = fake_reflect,
	.vars = fake_vars,
	.params = fake_params,
};

#define FAKE(core_) { .name = "fake-" #core_, .gov = &fake_gov, .core = &il_core_##core_ }
static const struct il_preset fake_4_16 = FAKE(4_16), fake_4_17 = FAKE(4_17),
			      fake_6_13 = FAKE(6_13), fake_6_19_9 = FAKE(6_19_9),
			      fake_7_0 = FAKE(7_0);

static const char plat_text[] = "platform t\ndriver d\ndescription x\n"
				"cpus 1\n source: s\nhz 1000\n source: s\n"
				"state POLL exit_latency=0us target_residency=0us flags=polling\n source: s\n"
				"state C1 exit_latency=2us target_residency=20us\n source: s\n"
				"state C6 exit_latency=100us target_residency=500us\n source: s\n";

static struct il_platform *test_platform(int states)
{
	struct il_platform *p = malloc(sizeof(*p));
	struct il_error err;

	assert_non_null(p);
	assert_int_equal(il_platform_parse(plat_text, strlen(plat_text), "t.plat", p, &err), 0);
	p->drv.state_count = states;
	return p;
}

static struct il_step_input entry(s64 sleep_ns, s64 res_ns)
{
	return (struct il_step_input){ .line = 1, .sleep_ns = sleep_ns, .res_ns = res_ns };
}

static int run(struct il_step_cpu *cpu, struct il_step_input in, struct il_step_record *rec)
{
	struct il_error err;
	int ret = il_step_cpu_run(cpu, &in, "t.step", rec, &err);

	if (ret)
		fail_msg("%s", err.msg);
	return ret;
}

static struct il_step_cpu *start(const struct il_platform *p, const struct il_preset *preset)
{
	struct il_error err;
	struct il_step_cpu *cpu;

	memset(&fk, 0, sizeof(fk));
	cpu = il_step_cpu_alloc(p, 0, preset, &err);
	if (!cpu)
		fail_msg("%s", err.msg);
	return cpu;
}

static void test_order_of_events(void **state)
{
	struct il_platform *p = test_platform(3);
	struct il_step_cpu *cpu = start(p, &fake_6_13);
	struct il_step_record rec;
	struct il_step_input in = entry(5000000, 300000);

	fk.index = 2;
	fk.query_sleep = true;
	in.has_qos = true;
	in.qos_us = 42;
	in.has_span = true;
	in.span_ns = 310000;
	in.has_oracle = true;
	in.oracle_ns = 299000;
	run(cpu, in, &rec);
	assert_int_equal(fk.selects, 1);
	assert_true(fk.stop_tick_in);
	assert_int_equal(fk.sleep_seen, 5000000);
	assert_int_equal(fk.delta_seen, 1000000); /* min(sleep, TICK_NSEC at HZ=1000) */
	assert_int_equal(fk.latency_seen, 42);
	assert_int_equal(fk.oracle_seen, 299000);
	assert_int_equal(fk.clock_at_select, NSEC_PER_SEC);
	assert_int_equal(fk.reflects, 1);
	assert_int_equal(fk.reflect_index, 2);
	assert_int_equal(fk.clock_at_reflect, NSEC_PER_SEC + 310000); /* advanced by span */
	assert_int_equal(fk.residency_at_reflect, 300000);
	assert_int_equal(rec.index, 2);
	assert_int_equal(rec.sleep_queries, 1);
	assert_true(rec.stop_tick);
	assert_int_equal(rec.tick_action, IL_TICK_STOP);
	assert_int_equal(rec.miss, IL_MISS_ABOVE); /* 300 us < 500 us in C6 */
	assert_int_equal(rec.now_ns, NSEC_PER_SEC);
	assert_int_equal(rec.in.delta_ns, 1000000);
	/* vars: both collected; the knob holds its default. */
	assert_int_equal(rec.nvars, 2);
	assert_string_equal(rec.vars[0].name, "selects");
	assert_int_equal(rec.vars[0].value, 1);
	assert_int_equal(rec.vars[1].value, 7);

	/* A rejected entry: accounted, no reflect, the clock stands still by default. */
	fk.query_sleep = false;
	in = entry(5000000, 0);
	in.rejected = true;
	run(cpu, in, &rec);
	assert_int_equal(fk.selects, 2);
	assert_int_equal(fk.reflects, 1);
	assert_int_equal(rec.miss, IL_MISS_REJECTED);
	assert_int_equal(rec.sleep_queries, 0);
	assert_int_equal(rec.now_ns, NSEC_PER_SEC + 310000);
	il_step_cpu_free(cpu);
	free(p);
}

static void test_tick_rules(void **state)
{
	static const struct {
		const struct il_preset *preset;
		bool clear_stop, stopped;
		enum il_tick_action want;
	} cases[] = {
		{ &fake_4_16, true, false, IL_TICK_ON_ENTRY },
		{ &fake_4_17, true, false, IL_TICK_RETAIN },
		{ &fake_4_17, true, true, IL_TICK_RETAIN },  /* 4.17 looks at stop_tick only */
		{ &fake_4_17, false, false, IL_TICK_STOP },
		{ &fake_6_13, true, false, IL_TICK_RETAIN },
		{ &fake_6_13, true, true, IL_TICK_STOP },    /* a stopped tick stays stopped */
		{ &fake_7_0, true, true, IL_TICK_STOP },
	};
	struct il_platform *p = test_platform(3);

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct il_step_cpu *cpu = start(p, cases[i].preset);
		struct il_step_input in = entry(2000000, 100000);
		struct il_step_record rec;

		fk.index = 1;
		fk.clear_stop = cases[i].clear_stop;
		in.stopped = cases[i].stopped;
		run(cpu, in, &rec);
		assert_int_equal(rec.stop_tick, !cases[i].clear_stop);
		if (rec.tick_action != cases[i].want)
			fail_msg("case %zu: tick %s", i, il_tick_action_name(rec.tick_action));
		il_step_cpu_free(cpu);
	}
	free(p);
}

static void test_got_tick_flag(void **state)
{
	struct il_platform *p = test_platform(3);
	struct il_step_cpu *cpu = start(p, &fake_6_13);
	struct il_step_input in = entry(50000000, 900000);
	struct il_step_record rec;

	fk.index = 1;
	in.tick = true;
	/* 6.13: nobody reads the flag in this entry, so it is still set at the next reflect. */
	run(cpu, in, &rec);
	fk.read_got_tick = true;
	run(cpu, entry(2000000, 100000), &rec);
	assert_true(fk.got_tick_at_reflect);
	run(cpu, entry(2000000, 100000), &rec);
	assert_false(fk.got_tick_at_reflect); /* reading cleared it */
	il_step_cpu_free(cpu);

	/* 7.0: do_idle() reads the flag after every entry, so it never carries over. */
	cpu = start(p, &fake_7_0);
	fk.index = 1;
	run(cpu, in, &rec);
	fk.read_got_tick = true;
	run(cpu, entry(2000000, 100000), &rec);
	assert_false(fk.got_tick_at_reflect);
	run(cpu, in, &rec);
	assert_true(fk.got_tick_at_reflect); /* set before reflect of its own entry */
	il_step_cpu_free(cpu);
	free(p);
}

static void test_poll_time_limit(void **state)
{
	struct il_platform *p = test_platform(3);
	struct il_step_cpu *cpu = start(p, &fake_6_13);
	struct il_step_record rec;

	/* cpuidle_poll_time(): min(TICK_NSEC / 16, first residency >= 10 us) = 20 us here. */
	fk.index = 0;
	run(cpu, entry(2000000, 20000), &rec);
	assert_false(rec.poll_time_limit);
	run(cpu, entry(2000000, 20001), &rec);
	assert_true(rec.poll_time_limit);
	fk.index = 1; /* a non-polling state leaves the flag alone */
	run(cpu, entry(2000000, 5), &rec);
	assert_true(rec.poll_time_limit);
	il_step_cpu_free(cpu);

	/* 4.17 has no poll_time_limit flag. */
	cpu = start(p, &fake_4_17);
	fk.index = 0;
	run(cpu, entry(2000000, 100000), &rec);
	assert_false(rec.poll_time_limit);
	il_step_cpu_free(cpu);
	free(p);
}

static void test_single_state_bypass(void **state)
{
	struct il_platform *p = test_platform(1);
	struct il_step_cpu *cpu = start(p, &fake_7_0);
	struct il_step_input in = entry(50000000, 900000);
	struct il_step_record rec;

	in.tick = true;
	run(cpu, in, &rec);
	assert_true(rec.bypassed);
	assert_int_equal(fk.selects, 0);
	assert_int_equal(fk.reflects, 0);
	assert_false(rec.stop_tick); /* nothing read a tick before the first entry */
	assert_int_equal(rec.tick_action, IL_TICK_RETAIN);
	run(cpu, entry(2000000, 100000), &rec);
	assert_true(rec.stop_tick); /* do_idle() saw the tick wakeup of the previous entry */
	assert_int_equal(rec.tick_action, IL_TICK_STOP);
	il_step_cpu_free(cpu);

	cpu = start(p, &fake_6_19_9);
	run(cpu, in, &rec);
	run(cpu, entry(2000000, 100000), &rec);
	assert_true(rec.bypassed);
	assert_int_equal(rec.tick_action, IL_TICK_RETAIN);
	il_step_cpu_free(cpu);

	/* Before 6.19.9 the governor runs even with one state. */
	cpu = start(p, &fake_6_13);
	run(cpu, in, &rec);
	assert_false(rec.bypassed);
	assert_int_equal(fk.selects, 1);
	il_step_cpu_free(cpu);
	free(p);
}

static void test_invalid_index_and_params(void **state)
{
	struct il_platform *p = test_platform(3);
	struct il_step_cpu *cpu = start(p, &fake_6_13);
	struct il_step_input in = entry(2000000, 100000);
	struct il_step_record rec;
	struct il_error err;

	assert_int_equal(il_step_cpu_set_param(cpu, "knob", "11", &err), 0);
	assert_int_equal(il_step_cpu_set_param(cpu, "nope", "1", &err), 1);
	assert_int_equal(il_step_cpu_set_param(cpu, "knob", "x", &err), -1);
	assert_non_null(strstr(err.msg, "invalid value 'x' for knob"));
	fk.index = 1;
	run(cpu, in, &rec);
	assert_int_equal(rec.vars[1].value, 11);

	fk.index = 3;
	in.line = 17;
	assert_int_equal(il_step_cpu_run(cpu, &in, "t.step", &rec, &err), -1);
	assert_string_equal(err.msg, "t.step:17: fake-6_13 selected state 3, but d has 3 states");
	fk.index = -1;
	assert_int_equal(il_step_cpu_run(cpu, &in, "t.step", &rec, &err), -1);
	il_step_cpu_free(cpu);
	free(p);
}

/* Every real preset on every built-in platform: the demo runs and stays deterministic. */
static void test_presets_run_demo(void **state)
{
	const char *text = il_step_builtin_text("demo");
	struct il_platform *p = malloc(sizeof(*p));
	struct il_step_record *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	struct il_step_script s;
	struct il_error err;

	assert_int_equal(il_step_parse(text, strlen(text), "builtin:demo", &s, &err), 0);
	for (int pi = 0; pi < il_platform_builtin_count(); pi++) {
		assert_int_equal(il_platform_load(il_platform_builtin_name(pi), p, &err), 0);
		for (int g = 0; g < il_preset_count(); g++) {
			const struct il_preset *preset = il_preset_at(g);
			struct il_step_cpu *c1 = il_step_cpu_alloc(p, 0, preset, &err);
			struct il_step_cpu *c2 = il_step_cpu_alloc(p, 0, preset, &err);

			assert_non_null(c1);
			assert_non_null(c2);
			for (size_t i = 0; i < s.count; i++) {
				if (il_step_cpu_run(c1, &s.entries[i], "builtin:demo", a, &err) ||
				    il_step_cpu_run(c2, &s.entries[i], "builtin:demo", b, &err))
					fail_msg("%s on %s: %s", preset->name, p->name, err.msg);
				assert_int_equal(a->index, b->index);
				assert_int_equal(a->nvars, b->nvars);
				for (int v = 0; v < a->nvars; v++)
					assert_int_equal(a->vars[v].value, b->vars[v].value);
			}
			il_step_cpu_free(c1);
			il_step_cpu_free(c2);
		}
	}
	il_step_script_free(&s);
	free(a);
	free(b);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_fields_and_units),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_parse_nul_byte),
		cmocka_unit_test(test_builtin_demo),
		cmocka_unit_test(test_resolve_defaults),
		cmocka_unit_test(test_order_of_events),
		cmocka_unit_test(test_tick_rules),
		cmocka_unit_test(test_got_tick_flag),
		cmocka_unit_test(test_poll_time_limit),
		cmocka_unit_test(test_single_state_bypass),
		cmocka_unit_test(test_invalid_index_and_params),
		cmocka_unit_test(test_presets_run_demo),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
