// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of kgov that need no upstream kernel source:
 *
 *  1. the random generator: determinism, valid state tables for each framework, and that every
 *     corner the checks rely on (equal/decreasing residencies, negative and KTIME_MAX sleep
 *     lengths, QoS 0, rejected entries, ...) is actually produced;
 *  2. the source scanner and wrapper generator, on small kernel-style texts written here;
 *  3. the lockstep comparison: identical presets agree, different versions and fake
 *     governors that diverge at a known step are caught at that step;
 *  4. the whole pipeline (kshim + build + load + check) on a toy governor written here in the
 *     kernel's style, against a port of it, and a mutated copy that must be rejected.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "testenv.h"
#include "gov/governors.h"
#include "kgov/kgov.h"
#include "util/array.h"

/* ---- 1. the generator ------------------------------------------------------------------ */

static void test_rng_deterministic_and_bounded(void **state)
{
	struct kgov_rng a, b;

	kgov_rng_seed(&a, 42);
	kgov_rng_seed(&b, 42);
	for (int i = 0; i < 1000; i++)
		assert_true(kgov_rng_next(&a) == kgov_rng_next(&b));
	for (int i = 0; i < 10000; i++) {
		s64 v = kgov_rng_range(&a, -3, 5);

		assert_true(v >= -3 && v <= 5);
	}
	/* the full range does not divide by zero */
	(void)kgov_rng_range(&a, INT64_MIN, INT64_MAX);
	kgov_rng_seed(&b, 43);
	assert_true(kgov_rng_next(&a) != kgov_rng_next(&b));
}

static void check_table(const struct il_driver *drv, const struct kgov_frame *f, unsigned int hz)
{
	assert_true(drv->state_count >= f->min_states && drv->state_count <= CPUIDLE_STATE_MAX);
	assert_true(hz == 100 || hz == 250 || hz == 300 || hz == 1000);
	for (int i = 0; i < drv->state_count; i++) {
		const struct il_state *s = &drv->states[i];

		/* il_driver_init() has run: the µs and ns fields agree */
		assert_true(s->target_residency_ns >= 0 && s->exit_latency_ns >= 0);
		assert_true(s->target_residency_ns / 1000 == s->target_residency);
		assert_true(s->exit_latency_ns / 1000 == s->exit_latency);
		if (i > 0)
			assert_false(s->flags & CPUIDLE_FLAG_POLLING);
		if (!f->units_us)
			assert_false(s->disabled);
	}
	if (drv->states[0].flags & CPUIDLE_FLAG_POLLING) {
		assert_true(drv->state_count >= 2); /* never a lone polling state */
		assert_true(drv->states[0].target_residency_ns == 0);
	}
}

static void test_driver_tables(void **state)
{
	struct kgov_frame f = { .min_states = 1, .units_us = true };
	bool one = false, ten = false, poll0 = false, nopoll = false, equal = false, decreasing = false;
	bool lat_above = false, ns_only = false, drv_disabled = false, all_disabled = false;
	struct kgov_rng r;

	kgov_rng_seed(&r, 7);
	for (int t = 0; t < 4000; t++) {
		unsigned long long dis[CPUIDLE_STATE_MAX];
		struct il_driver drv;
		unsigned int hz;
		int n_dis = 0;

		f.min_states = t % 2 ? 2 : 1;
		kgov_gen_driver(&r, &f, &drv, &hz);
		check_table(&drv, &f, hz);
		kgov_gen_disables(&r, &drv, dis);
		one |= drv.state_count == 1;
		ten |= drv.state_count == 10;
		poll0 |= drv.states[0].flags & CPUIDLE_FLAG_POLLING;
		nopoll |= !(drv.states[0].flags & CPUIDLE_FLAG_POLLING);
		for (int i = 0; i < drv.state_count; i++) {
			const struct il_state *s = &drv.states[i];

			if (i > 1) {
				equal |= s->target_residency_ns == drv.states[i - 1].target_residency_ns;
				decreasing |= s->target_residency_ns < drv.states[i - 1].target_residency_ns;
			}
			lat_above |= s->exit_latency_ns > s->target_residency_ns;
			ns_only |= s->target_residency_ns % 1000 != 0;
			drv_disabled |= s->disabled;
			n_dis += dis[i] != 0;
			if (f.min_states == 2)
				assert_true(drv.state_count >= 2);
		}
		all_disabled |= n_dis == drv.state_count;
	}
	assert_true(one && ten && poll0 && nopoll && equal && decreasing);
	assert_true(lat_above && ns_only && drv_disabled && all_disabled);
}

static void test_steps_reach_corners(void **state)
{
	struct kgov_frame f = { .min_states = 2, .generator = KGOV_GEN_VERSION };
	bool zero = false, negative = false, ktime_max = false, at_residency = false;
	bool delta_longer = false, delta_negative = false, qos0 = false, qos_default = false;
	bool stopped = false, running = false, got_tick = false, iowait = false;
	bool rejected = false, res0 = false, poll_timeout = false, huge = false, periodic_repeat = false;
	bool tie_run = false, tick_heavy = false;
	struct kgov_rng r;
	struct il_env env = { 0 };

	il_env_set_hz(&env, 250);
	kgov_rng_seed(&r, 11);
	for (int t = 0; t < 200; t++) {
		struct il_driver drv;
		struct kgov_pattern pat;
		unsigned int hz;
		s64 last_outlier = -1;

		kgov_gen_driver(&r, &f, &drv, &hz);
		kgov_gen_pattern(&r, &f, &pat);
		tie_run |= pat.tie_run;
		for (int k = 0; k < 200; k++) {
			struct kgov_step st;
			int idx = (int)kgov_rng_range(&r, 0, drv.state_count - 1);

			kgov_gen_step(&r, &f, &drv, &env, &pat, 1000, &st);
			zero |= st.sleep_ns == 0;
			negative |= st.sleep_ns < 0;
			ktime_max |= st.sleep_ns == KTIME_MAX;
			for (int i = 0; i < drv.state_count; i++)
				at_residency |= st.sleep_ns == drv.states[i].target_residency_ns &&
						drv.states[i].target_residency_ns > 0;
			delta_longer |= st.delta_next_ns > st.sleep_ns;
			delta_negative |= st.delta_next_ns < 0;
			qos0 |= st.qos.cpu_latency_us == 0;
			qos_default |= st.qos.cpu_latency_us == PM_QOS_CPU_LATENCY_DEFAULT_VALUE;
			stopped |= st.tick_stopped;
			running |= !st.tick_stopped;
			got_tick |= st.got_tick;
			/* tie runs keep their tick-wakeup share within 50..85 % */
			if (pat.tie_run)
				tick_heavy |= pat.got_tick_pct >= 50 && pat.got_tick_pct <= 85;
			iowait |= st.nr_iowait > 0;
			assert_true(st.clock_ns >= 1000);

			kgov_gen_outcome(&r, &drv, &env, idx, &pat, &st);
			rejected |= st.rejected;
			if (st.rejected)
				assert_true(st.residency_ns == 0 && !st.poll_timeout);
			res0 |= !st.rejected && st.residency_ns == 0;
			huge |= st.residency_ns > 1000LL * NSEC_PER_SEC;
			if (st.poll_timeout)
				assert_true(drv.states[idx].flags & CPUIDLE_FLAG_POLLING);
			poll_timeout |= st.poll_timeout;
			assert_true(st.residency_ns >= 0);
			assert_true(st.exit_clock_ns >= st.clock_ns + (u64)st.residency_ns);
			if (pat.periodic && (st.residency_ns == pat.outlier_ns[0])) {
				periodic_repeat |= last_outlier == st.residency_ns;
				last_outlier = st.residency_ns;
			}
		}
	}
	assert_true(zero && negative && ktime_max && at_residency);
	assert_true(delta_longer && delta_negative && qos0 && qos_default);
	assert_true(stopped && running && got_tick && iowait);
	assert_true(rejected && res0 && poll_timeout && huge && periodic_repeat);
	assert_true(tie_run && tick_heavy);
}

static void test_frame_of_presets(void **state)
{
	struct kgov_frame f;

	kgov_frame_of(il_preset_find("menu-7.1"), &f);
	assert_int_equal(f.min_states, 2);
	assert_false(f.units_us);
	kgov_frame_of(il_preset_find("menu-6.1.192"), &f); /* Debian: the 7.0 idle loop */
	assert_int_equal(f.min_states, 2);
	kgov_frame_of(il_preset_find("menu-6.13"), &f);
	assert_int_equal(f.min_states, 1);
	kgov_frame_of(il_preset_find("menu-4.16"), &f);
	assert_true(f.units_us && f.sleep_4_16);
	kgov_frame_of(il_preset_find("menu-4.17"), &f);
	assert_true(f.units_us && !f.sleep_4_16);
}

/* ---- 2. the scanner and the wrapper ------------------------------------------------------ */

static void test_blob_sha1(void **state)
{
	char hex[41];

	kgov_blob_sha1("", 0, hex);
	assert_string_equal(hex, "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
	kgov_blob_sha1("hello\n", 6, hex); /* `echo hello | git hash-object --stdin` */
	assert_string_equal(hex, "ce013625030ba8dba906f756967f9e9ca394464a");
}

static const char toy_source[] =
	"// SPDX-License-Identifier: GPL-2.0-only\n"
	"/* toy - a governor written for idlelab's tests in the kernel's style */\n"
	"#include <linux/kernel.h>\n"
	"#include <linux/cpuidle.h>\n"
	"#include <linux/tick.h>\n"
	"#include <linux/module.h>\n"
	"\n"
	"static unsigned int toy_margin_ns __read_mostly = 1000;\n"
	"module_param(toy_margin_ns, uint, 0644);\n"
	"\n"
	"struct toy_bin {\n"
	"\tunsigned int hits;\n"
	"\ts64 last; /* a comment; with a semicolon */\n"
	"};\n"
	"\n"
	"struct toy_cpu {\n"
	"\tu64 sleep_ns;\n"
	"\tstruct toy_bin bins[CPUIDLE_STATE_MAX];\n"
	"\tstruct {\n"
	"\t\tint selects;\n"
	"\t\tint reflects;\n"
	"\t} count;\n"
	"\tvoid *unused;\n"
	"\tint grid[2][3];\n"
	"};\n"
	"\n"
	"static DEFINE_PER_CPU(struct toy_cpu, toy_cpus);\n"
	"\n"
	"static int toy_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,\n"
	"\t\t      bool *stop_tick)\n"
	"{\n"
	"\tstruct toy_cpu *t = this_cpu_ptr(&toy_cpus);\n"
	"\ts64 latency_req = cpuidle_governor_latency_req(dev->cpu);\n"
	"\tktime_t delta_tick;\n"
	"\ts64 sleep = tick_nohz_get_sleep_length(&delta_tick);\n"
	"\tint i, idx = 0;\n"
	"\n"
	"\tt->sleep_ns = sleep;\n"
	"\tt->count.selects++;\n"
	"\tt->grid[1][2] = drv->state_count;\n"
	"\tfor (i = 1; i < drv->state_count; i++) {\n"
	"\t\tif (dev->states_usage[i].disable)\n"
	"\t\t\tcontinue;\n"
	"\t\tif (drv->states[i].target_residency_ns + toy_margin_ns > sleep)\n"
	"\t\t\tbreak;\n"
	"\t\tif (drv->states[i].exit_latency_ns > latency_req)\n"
	"\t\t\tbreak;\n"
	"\t\tidx = i;\n"
	"\t}\n"
	"\tif (delta_tick < TICK_NSEC / 2 && !tick_nohz_tick_stopped())\n"
	"\t\t*stop_tick = false;\n"
	"\treturn idx;\n"
	"}\n"
	"\n"
	"static void toy_reflect(struct cpuidle_device *dev, int index)\n"
	"{\n"
	"\tstruct toy_cpu *t = this_cpu_ptr(&toy_cpus);\n"
	"\n"
	"\tt->bins[index].hits++;\n"
	"\tt->bins[index].last = dev->last_residency_ns;\n"
	"\tt->count.reflects++;\n"
	"\tdev->last_state_idx = index;\n"
	"}\n"
	"\n"
	"static int toy_enable(struct cpuidle_driver *drv, struct cpuidle_device *dev)\n"
	"{\n"
	"\tmemset(&per_cpu(toy_cpus, dev->cpu), 0, sizeof(struct toy_cpu));\n"
	"\treturn 0;\n"
	"}\n"
	"\n"
	"static struct cpuidle_governor toy_governor = {\n"
	"\t.name =\t\t\"toy\",\n"
	"\t.rating =\t1,\n"
	"\t.enable =\ttoy_enable,\n"
	"\t.select =\ttoy_select,\n"
	"\t.reflect =\ttoy_reflect,\n"
	"};\n"
	"\n"
	"static int __init init_toy(void)\n"
	"{\n"
	"\treturn cpuidle_register_governor(&toy_governor);\n"
	"}\n"
	"\n"
	"postcore_initcall(init_toy);\n";

static void test_scan_source(void **state)
{
	static const char old_style[] =
		"struct x { int a; };\n"
		"static int old_select(struct cpuidle_driver *drv, struct cpuidle_device *dev)\n"
		"{ return 0; }\n"
		"static struct cpuidle_governor old_gov = { .name = \"old\", .select = old_select, };\n";
	struct kgov_scan scan;
	struct il_error err = { 0 };

	assert_int_equal(kgov_scan_source(toy_source, strlen(toy_source), "toy.c", &scan, &err), 0);
	assert_string_equal(scan.family, "toy");
	assert_string_equal(scan.gov_var, "toy_governor");
	assert_string_equal(scan.select_fn, "toy_select");
	assert_string_equal(scan.percpu_var, "toy_cpus");
	assert_string_equal(scan.percpu_tag, "toy_cpu");
	assert_true(scan.stop_tick && scan.dev_last_state_idx && !scan.dev_poll_limit_ns);
	assert_false(scan.units_us);

	assert_int_equal(kgov_scan_source(old_style, strlen(old_style), "old.c", &scan, &err), 0);
	assert_false(scan.stop_tick);
	assert_true(scan.units_us);
	assert_string_equal(scan.percpu_var, "");

	assert_int_equal(kgov_scan_source("int x;\n", 7, "none.c", &scan, &err), -1);
	assert_non_null(strstr(err.msg, "none.c"));
	assert_non_null(strstr(err.msg, "cpuidle_governor"));
}

static void test_wrapper_lists_fields(void **state)
{
	struct kgov_scan scan;
	struct il_error err = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_int_equal(kgov_scan_source(toy_source, strlen(toy_source), "toy.c", &scan, &err), 0);
	assert_int_equal(kgov_write_wrapper(out, toy_source, strlen(toy_source), "/abs/toy.c", &scan,
					    &err), 0);
	fclose(out);
	assert_non_null(strstr(text, "#include \"/abs/toy.c\""));
	assert_non_null(strstr(text, "\"sleep_ns\", d->sleep_ns"));
	assert_non_null(strstr(text, "kshim_name(\"bins[\", i0, \"].hits\""));
	assert_non_null(strstr(text, "d->bins[i0].last"));
	assert_non_null(strstr(text, "\"count.selects\", d->count.selects"));
	assert_non_null(strstr(text, "kshim_name(\"grid[\", i0, \"][\", i1, \"]\")"));
	/* per-state arrays stop at state_count; others are listed whole */
	assert_non_null(strstr(text, "kshim_dim(ARRAY_SIZE(d->bins), 1, drv)"));
	assert_non_null(strstr(text, "kshim_dim(ARRAY_SIZE(d->grid), 0, drv)"));
	assert_null(strstr(text, "unused"));
	assert_non_null(strstr(text, "\"last_state_idx\", dev->last_state_idx"));
	assert_non_null(strstr(text, "_Generic(&toy_select"));
	free(text);
}

/* ---- 3. the lockstep comparison on presets and fake governors ---------------------------- */

static struct il_kgov_check_opts check_opts(unsigned long long steps, u64 seed)
{
	return (struct il_kgov_check_opts){ .seed = seed, .steps = steps, .check_reflect = true };
}

static void test_identical_presets_agree(void **state)
{
	static const char *const names[] = { "menu-7.1", "teo-7.1", "ladder-4.16", "haltpoll-7.0",
					     "menu-6.1.192" };
	struct il_error err = { 0 };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		const struct il_preset *p = il_preset_find(names[i]);
		struct il_kgov_check_opts o = check_opts(20000, i);
		struct il_kgov_check_result res;

		assert_non_null(p);
		assert_int_equal(il_kgov_check(p, p, &o, &res, &err), 0);
		assert_true(res.decisions == 20000);
		assert_true(res.vars_compared > 0 && res.comparisons >= res.decisions);
		assert_false(res.mismatch);
		il_kgov_check_result_free(&res);
	}
}

static void test_different_versions_mismatch(void **state)
{
	const struct il_preset *a = il_preset_find("menu-6.17"), *b = il_preset_find("menu-6.18");
	struct il_kgov_check_opts o = check_opts(1000000, 1);
	struct il_kgov_check_result res;
	struct il_error err = { 0 };

	assert_int_equal(il_kgov_check(a, b, &o, &res, &err), 1);
	assert_true(res.mismatch);
	assert_true(res.decisions < 1000000);
	assert_non_null(res.first.report);
	assert_non_null(strstr(res.first.report, "MISMATCH after"));
	assert_non_null(strstr(res.first.report, "inputs (the last line is this step)"));
	assert_non_null(strstr(res.first.report, "--seed 1"));
	il_kgov_check_result_free(&res);

	/* different families are refused, not compared */
	assert_int_equal(il_kgov_check(a, il_preset_find("teo-7.1"), &o, &res, &err), -1);
}

/* A fake governor: always state 0; one var "x" that counts selects, diverging on request. */
struct fake_data {
	u64 selects;
};

static unsigned long long fake_diverge_at; /* the port's x is off by one from this select on */
static unsigned long long fake_index_at;   /* the port picks state 1 from this select on */
static bool fake_extra_var;

static int fake_select(struct il_driver *drv, struct il_device *dev, bool *stop_tick)
{
	((struct fake_data *)dev->governor_data)->selects++;
	return 0;
}

static int fake_select_port(struct il_driver *drv, struct il_device *dev, bool *stop_tick)
{
	u64 n = ++((struct fake_data *)dev->governor_data)->selects;

	return fake_index_at && n >= fake_index_at ? 1 : 0;
}

static int fake_vars_common(const struct il_device *dev, struct il_var *vars, int max, bool port)
{
	const struct fake_data *d = dev->governor_data;
	u64 x = d->selects;
	int n = 0;

	if (port && fake_diverge_at && x >= fake_diverge_at)
		x++;
	vars[n++] = (struct il_var){ .name = "x", .value = x };
	vars[n++] = (struct il_var){ .name = "diag_only", .value = port, .diag = true };
	if (port && fake_extra_var)
		vars[n++] = (struct il_var){ .name = "y", .value = 0 };
	return n;
}

static int fake_vars_up(const struct il_device *dev, struct il_var *vars, int max)
{
	return fake_vars_common(dev, vars, max, false);
}

static int fake_vars_port(const struct il_device *dev, struct il_var *vars, int max)
{
	return fake_vars_common(dev, vars, max, true);
}

static const struct il_governor fake_up_gov = {
	.name = "fake", .data_size = sizeof(struct fake_data), .select = fake_select,
	.vars = fake_vars_up,
};
static const struct il_governor fake_port_gov = {
	.name = "fake", .data_size = sizeof(struct fake_data), .select = fake_select_port,
	.vars = fake_vars_port,
};
static const struct il_preset fake_up = { .name = "fake-up", .gov = &fake_up_gov,
					  .kver = IL_KV(7, 1, 0), .core = &il_core_7_0,
					  .upstream = "none" };
static const struct il_preset fake_port = { .name = "fake-port", .gov = &fake_port_gov,
					    .kver = IL_KV(7, 1, 0), .core = &il_core_7_0,
					    .upstream = "none" };

static void test_fake_divergence_found_at_its_step(void **state)
{
	struct il_kgov_check_opts o = check_opts(50000, 3);
	struct il_kgov_check_result res;
	struct il_error err = { 0 };

	/* equal x (the diag var differs and must be ignored) */
	fake_diverge_at = 0;
	fake_extra_var = false;
	assert_int_equal(il_kgov_check(&fake_up, &fake_port, &o, &res, &err), 0);
	assert_true(res.decisions == 50000);
	assert_int_equal(res.vars_compared, 1);
	il_kgov_check_result_free(&res);

	/* x diverges from the 2000th select of a run on: run 0, step 1999 */
	fake_diverge_at = 2000;
	assert_int_equal(il_kgov_check(&fake_up, &fake_port, &o, &res, &err), 1);
	assert_int_equal(res.first.run, 0);
	assert_true(res.first.step == 1999);
	assert_string_equal(res.first.phase, "select");
	assert_non_null(strstr(res.first.what, "var x"));
	assert_non_null(strstr(res.first.report, "* x"));
	il_kgov_check_result_free(&res);

	/* a port var with no upstream field is reported at once */
	fake_diverge_at = 0;
	fake_extra_var = true;
	assert_int_equal(il_kgov_check(&fake_up, &fake_port, &o, &res, &err), 1);
	assert_true(res.first.step == 0);
	assert_non_null(strstr(res.first.what, "var y"));
	il_kgov_check_result_free(&res);
	fake_extra_var = false;
}

/* An index difference is reported with the vars after that select, not the step before. */
static void test_index_mismatch_shows_this_steps_vars(void **state)
{
	struct il_kgov_check_opts o = check_opts(50000, 3);
	struct il_kgov_check_result res;
	struct il_error err = { 0 };
	char line[128];

	fake_diverge_at = 0;
	fake_index_at = 2000;
	assert_int_equal(il_kgov_check(&fake_up, &fake_port, &o, &res, &err), 1);
	fake_index_at = 0;
	assert_true(res.first.step == 1999);
	assert_non_null(strstr(res.first.what, "index: upstream 0, port 1"));
	/* x counts selects: 2000 after the 2000th, 1999 in the comparison before it */
	snprintf(line, sizeof(line), "  %-34s %20d %20d\n", "x", 2000, 2000);
	if (!strstr(res.first.report, line))
		fail_msg("no line \"%s\" in\n%s", line, res.first.report);
	il_kgov_check_result_free(&res);
}

/* ---- 4. the pipeline on a toy governor --------------------------------------------------- */

/* The port of toy: the same decisions through the environment interface. */
struct toy_port_data {
	u64 sleep_ns;
	struct {
		unsigned int hits;
		s64 last;
	} bins[CPUIDLE_STATE_MAX];
	int selects, reflects;
	int grid12;             /* toy keeps state_count there */
	unsigned int margin_ns; /* the tunable */
};

static int toy_port_select(struct il_driver *drv, struct il_device *dev, bool *stop_tick)
{
	struct toy_port_data *t = dev->governor_data;
	const struct il_env *env = dev->env;
	struct il_qos q;
	s64 delta_tick, sleep, latency_req;
	s32 req;
	int idx = 0;

	env->ops->qos(env, &q);
	req = q.resume_latency_us < q.cpu_latency_us ? q.resume_latency_us : q.cpu_latency_us;
	if (q.wakeup_latency_us < req)
		req = q.wakeup_latency_us; /* the 7.0 framework includes the wakeup QoS */
	latency_req = (s64)req * 1000;
	sleep = env->ops->sleep_length(env, &delta_tick);
	t->sleep_ns = (u64)sleep;
	t->selects++;
	t->grid12 = drv->state_count;
	for (int i = 1; i < drv->state_count; i++) {
		if (dev->states_usage[i].disable)
			continue;
		if (drv->states[i].target_residency_ns + t->margin_ns > sleep)
			break;
		if (drv->states[i].exit_latency_ns > latency_req)
			break;
		idx = i;
	}
	if (delta_tick < (s64)env->tick_nsec / 2 && !env->ops->tick_stopped(env))
		*stop_tick = false;
	return idx;
}

static void toy_port_reflect(struct il_device *dev, int index)
{
	struct toy_port_data *t = dev->governor_data;

	t->bins[index].hits++;
	t->bins[index].last = (s64)dev->last_residency_ns;
	t->reflects++;
	dev->last_state_idx = index;
}

static int toy_port_vars(const struct il_device *dev, struct il_var *vars, int max)
{
	static const char *const hits[] = { "bins[0].hits", "bins[1].hits", "bins[2].hits",
		"bins[3].hits", "bins[4].hits", "bins[5].hits", "bins[6].hits", "bins[7].hits",
		"bins[8].hits", "bins[9].hits" };
	static const char *const last[] = { "bins[0].last", "bins[1].last", "bins[2].last",
		"bins[3].last", "bins[4].last", "bins[5].last", "bins[6].last", "bins[7].last",
		"bins[8].last", "bins[9].last" };
	const struct toy_port_data *t = dev->governor_data;
	int n = 0;

	vars[n++] = (struct il_var){ "sleep_ns", t->sleep_ns, false, false };
	for (int i = 0; i < 3 && i < t->grid12; i++) {
		vars[n++] = (struct il_var){ hits[i], t->bins[i].hits, false, false };
		vars[n++] = (struct il_var){ last[i], (u64)t->bins[i].last, true, false };
	}
	vars[n++] = (struct il_var){ "count.selects", (u64)(s64)t->selects, true, false };
	vars[n++] = (struct il_var){ "count.reflects", (u64)(s64)t->reflects, true, false };
	vars[n++] = (struct il_var){ "grid[1][2]", (u64)(s64)t->grid12, true, false };
	vars[n++] = (struct il_var){ "last_state_idx", (u64)(s64)dev->last_state_idx, true, false };
	return n < max ? n : max;
}

static const struct il_param toy_port_params[] = {
	{ "toy_margin_ns", IL_PARAM_UINT, 1000, offsetof(struct toy_port_data, margin_ns), "ns" },
	{ 0 },
};

static const struct il_governor toy_port_gov = {
	.name = "toy", .rating = 1, .data_size = sizeof(struct toy_port_data),
	.select = toy_port_select, .reflect = toy_port_reflect, .vars = toy_port_vars,
	.params = toy_port_params,
};
static const struct il_preset toy_port = { .name = "toy-port", .gov = &toy_port_gov,
					   .kver = IL_KV(7, 1, 0), .core = &il_core_7_0,
					   .upstream = "toy.c (tests/unit/test_kgov.c)" };

static char toy_dir[64];

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

/* Build @text as toy.c in a temp dir into OBJ; Return: the loaded preset. */
static const struct il_preset *build_toy(const char *text, const char *obj_name)
{
	char src[128], obj[128];
	struct il_kgov_build_result br;
	struct il_kgov_load_opts lo = { .like = &toy_port };
	struct il_error err = { 0 };
	const struct il_preset *p;
	int ret;

	snprintf(src, sizeof(src), "%s/%s.c", toy_dir, obj_name);
	snprintf(obj, sizeof(obj), "%s/%s.so", toy_dir, obj_name);
	write_text(src, text);
	ret = il_kgov_build(src, obj, NULL, &br, &err);
	if (ret)
		print_error("%s\n%s\n%s\n", br.command, br.log ? br.log : "", err.msg);
	free(br.log);
	assert_int_equal(ret, 0);
	assert_string_equal(br.scan.family, "toy");
	p = il_kgov_load(obj, &lo, &err);
	if (!p)
		print_error("%s\n", err.msg);
	assert_non_null(p);
	return p;
}

static void remove_toy(const char *obj_name)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s.c", toy_dir, obj_name);
	unlink(path);
	snprintf(path, sizeof(path), "%s/%s.so", toy_dir, obj_name);
	unlink(path);
}

static void test_toy_pipeline(void **state)
{
	struct il_kgov_check_opts o = check_opts(100000, 5);
	struct il_kgov_check_result res;
	struct il_kgov_counters cnt;
	struct il_error err = { 0 };
	const struct il_preset *up;
	char *mutated = strdup(toy_source), *cmp, spec[128], twice[256];
	int ret;

	snprintf(toy_dir, sizeof(toy_dir), "/tmp/idlelab-test-kgov-XXXXXX");
	assert_non_null(mkdtemp(toy_dir));

	up = build_toy(toy_source, "toy");
	assert_non_null(strstr(up->name, "file:"));
	assert_true(il_kgov_is_loaded(up));
	assert_ptr_equal(il_kgov_like(up), &toy_port);
	assert_ptr_equal(up->core, &il_core_7_0);
	/* the module_param is offered as a tunable, with the file's default */
	assert_non_null(il_gov_find_param(up->gov, "toy_margin_ns"));
	assert_true(il_gov_find_param(up->gov, "toy_margin_ns")->def == 1000);
	/* -g file:OBJ finds the loaded object */
	snprintf(spec, sizeof(spec), "file:%s/toy.so", toy_dir);
	assert_true(il_preset_find(spec) == up);
	/* lib/gov knows only its own list: "file:" is resolved above it (lib/presets.c) */
	assert_null(il_preset_builtin(spec));
	assert_ptr_equal(il_preset_find("menu"), il_preset_builtin("menu"));
	/* a "file:" preset is no base for another one */
	snprintf(twice, sizeof(twice), "file:%s/toy.so@file:%s/toy.so", toy_dir, toy_dir);
	assert_null(il_preset_find(twice));
	assert_null(il_preset_lookup(twice, &err));
	assert_non_null(strstr(err.msg, "unknown preset 'file:"));
	assert_null(il_preset_lookup("nosuch", &err));
	assert_string_equal(err.msg, "");

	ret = il_kgov_check(up, &toy_port, &o, &res, &err);
	if (ret)
		print_error("%s\n", ret > 0 ? res.first.report : err.msg);
	assert_int_equal(ret, 0);
	assert_true(res.decisions == 100000);
	assert_true(res.vars_compared >= 10);
	il_kgov_check_result_free(&res);
	assert_int_equal(il_kgov_counters(up, &cnt), 0);
	assert_true(cnt.shim_errors == 0 && cnt.warns == 0);

	/* one flipped comparison must be caught */
	cmp = strstr(mutated, "toy_margin_ns > sleep");
	assert_non_null(cmp);
	memcpy(cmp, "toy_margin_ns < sleep", strlen("toy_margin_ns < sleep"));
	up = build_toy(mutated, "toy_mutated");
	assert_int_equal(il_kgov_check(up, &toy_port, &o, &res, &err), 1);
	assert_true(res.decisions < 1000);
	il_kgov_check_result_free(&res);
	free(mutated);
	remove_toy("toy");
	remove_toy("toy_mutated");
	assert_int_equal(rmdir(toy_dir), 0);
}

static void test_build_errors(void **state)
{
	struct il_kgov_build_result br;
	struct il_error err = { 0 };
	char dir[] = "/tmp/idlelab-test-kgov-XXXXXX", src[64], obj[64];

	assert_int_equal(il_kgov_build("/nonexistent/menu.c", "/tmp/x.so", NULL, &br, &err), -1);
	assert_non_null(strstr(err.msg, "/nonexistent/menu.c"));

	assert_non_null(mkdtemp(dir));
	snprintf(src, sizeof(src), "%s/broken.c", dir);
	snprintf(obj, sizeof(obj), "%s/broken.so", dir);
	/* a governor that calls something the shim does not provide: a compile error, shown */
	write_text(src, "#include <linux/cpuidle.h>\n"
			"static int s(struct cpuidle_driver *d, struct cpuidle_device *v, bool *t)\n"
			"{ return no_such_kernel_function(); }\n"
			"static struct cpuidle_governor g = { .name = \"broken\", .select = s };\n");
	assert_int_equal(il_kgov_build(src, obj, NULL, &br, &err), -1);
	assert_non_null(br.log);
	assert_non_null(strstr(br.log, "no_such_kernel_function"));
	assert_non_null(strstr(br.command, "-fno-strict-overflow"));
	free(br.log);
	unlink(src);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rng_deterministic_and_bounded),
		cmocka_unit_test(test_driver_tables),
		cmocka_unit_test(test_steps_reach_corners),
		cmocka_unit_test(test_frame_of_presets),
		cmocka_unit_test(test_blob_sha1),
		cmocka_unit_test(test_scan_source),
		cmocka_unit_test(test_wrapper_lists_fields),
		cmocka_unit_test(test_identical_presets_agree),
		cmocka_unit_test(test_different_versions_mismatch),
		cmocka_unit_test(test_fake_divergence_found_at_its_step),
		cmocka_unit_test(test_index_mismatch_shows_this_steps_vars),
		cmocka_unit_test(test_toy_pipeline),
		cmocka_unit_test(test_build_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
