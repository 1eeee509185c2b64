// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tests of lib/api: the public API of include/idlelab/idlelab.h gives what the modules under it
 * give (the same run as il_lab_run()), its errors land in the caller's buffer, and a governor
 * of one's own runs through il_preset_make().
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "idlelab/idlelab.h"
#include "platform/platform.h"
#include "lab/lab.h"

static void test_platform_open(void **state)
{
	char err[IL_ERRLEN] = "";
	struct il_platform *plat = il_platform_open("rk3588", err, sizeof(err));
	struct il_platform ref;
	struct il_error perr;

	assert_non_null(plat);
	assert_int_equal(il_platform_load("rk3588", &ref, &perr), 0);
	assert_string_equal(il_platform_name(plat), "rk3588");
	assert_int_equal(il_platform_cpus(plat), ref.cpus);
	assert_int_equal(il_platform_driver(plat)->state_count, ref.drv.state_count);
	assert_string_equal(il_platform_driver(plat)->states[1].name, ref.drv.states[1].name);
	il_platform_close(plat);
	il_platform_close(NULL);
}

static void test_platform_errors(void **state)
{
	char err[IL_ERRLEN] = "";

	assert_null(il_platform_open("no-such-machine", err, sizeof(err)));
	assert_non_null(strstr(err, "no-such-machine"));
	assert_null(il_platform_open("/nonexistent/x.plat", err, sizeof(err)));
	assert_non_null(strstr(err, "/nonexistent/x.plat"));
	/* a short buffer is cut, never overrun; no buffer at all is allowed */
	assert_null(il_platform_open("no-such-machine", err, 4));
	assert_int_equal(strlen(err), 3);
	assert_null(il_platform_open("no-such-machine", NULL, 0));
}

/* il_lab_simulate() is il_lab_run() of the same spec: every number the getters give agrees. */
static void test_simulate_is_lab_run(void **state)
{
	const struct il_preset *preset = il_preset_find("menu-6.12.117");
	char err[IL_ERRLEN] = "";
	struct il_platform *plat = il_platform_open("skx", err, sizeof(err));
	struct il_lab_spec spec = { .plat = (const struct il_platform *)plat, .preset = preset,
				    .duration_ns = 200 * NSEC_PER_MSEC, .seed = 3 };
	struct il_error perr;
	struct il_lab_result ref;
	struct il_run *run;
	bool higher;
	double j;

	assert_non_null(plat);
	run = il_lab_simulate(plat, preset, "fio:jobs=2", spec.duration_ns, spec.seed, err, sizeof(err));
	assert_non_null(run);
	assert_int_equal(il_scn_parse("fio:jobs=2", &spec.scn, &spec.args, &spec.common, &perr), 0);
	assert_int_equal(il_lab_run(&spec, &ref), 0);
	assert_true(ref.sum.idles > 0);
	assert_int_equal(il_run_idles(run), ref.sum.idles);
	assert_int_equal(il_run_aboves(run), ref.sum.aboves);
	assert_int_equal(il_run_belows(run), ref.sum.belows);
	assert_int_equal(il_run_idle_misses(run), ref.sum.aboves + ref.sum.belows);
	assert_true(il_run_idle_miss_ratio(run) == ref.sum.idle_miss_ratio);
	assert_int_equal(il_run_nstates(run), ref.nstates);
	for (int i = 0; i < ref.nstates; i++) {
		assert_int_equal(il_run_state_usage(run, i), ref.sum.usage[i]);
		assert_int_equal(il_run_state_time_ns(run, i), ref.sum.time_ns[i]);
	}
	assert_int_equal(il_run_state_usage(run, -1), 0);
	assert_int_equal(il_run_state_usage(run, ref.nstates), 0);
	assert_int_equal(il_run_wake_p99_ns(run), ref.sum.wake_p99_ns);
	assert_true(il_run_score(run) == ref.score);
	assert_string_equal(il_run_score_name(run, &higher), "iops");
	assert_true(higher);
	assert_int_equal(il_run_energy_j(run, &j), 0);
	assert_true(j == ref.sum.joules);
	il_lab_result_free(&ref);
	il_run_free(run);
	il_run_free(NULL);
	il_platform_close(plat);
}

static void test_simulate_errors(void **state)
{
	const struct il_preset *preset = il_preset_find("teo");
	char err[IL_ERRLEN] = "";
	struct il_platform *plat = il_platform_open("skx", err, sizeof(err));

	assert_null(il_lab_simulate(plat, preset, "fio:nope=1", NSEC_PER_SEC, 1, err, sizeof(err)));
	assert_non_null(strstr(err, "nope"));
	assert_null(il_lab_simulate(plat, preset, "no-such-scenario", NSEC_PER_SEC, 1, err, sizeof(err)));
	assert_non_null(strstr(err, "no-such-scenario"));
	err[0] = '\0';
	assert_null(il_lab_simulate(plat, preset, "idle", 0, 1, err, sizeof(err)));
	assert_true(err[0] != '\0');
	il_platform_close(plat);
}

/* ---- a governor of one's own: always the deepest enabled state ---------------------------- */

struct deepest_data {
	u64 selects;
};

static u64 deepest_selects, deepest_reflects, deepest_enables, deepest_disables;

static int deepest_enable(struct il_driver *drv, struct il_device *dev)
{
	struct deepest_data *d = dev->governor_data;

	assert_int_equal(d->selects, 0); /* zeroed at bind time */
	deepest_enables++;
	return 0;
}

static void deepest_disable(struct il_driver *drv, struct il_device *dev)
{
	deepest_disables++;
}

static int deepest_select(struct il_driver *drv, struct il_device *dev, bool *stop_tick)
{
	struct deepest_data *d = dev->governor_data;
	int idx = 0;

	for (int i = 0; i < drv->state_count; i++)
		if (il_state_enabled(drv, dev, i))
			idx = i;
	d->selects++;
	deepest_selects++;
	*stop_tick = true;
	return idx;
}

static void deepest_reflect(struct il_device *dev, int index)
{
	deepest_reflects++;
}

static const struct il_governor deepest_gov = {
	.name = "deepest",
	.rating = 1,
	.data_size = sizeof(struct deepest_data),
	.enable = deepest_enable,
	.disable = deepest_disable,
	.select = deepest_select,
	.reflect = deepest_reflect,
};

static void test_own_governor(void **state)
{
	char err[IL_ERRLEN] = "";
	struct il_platform *plat = il_platform_open("rk3588", err, sizeof(err));
	int deepest = il_platform_driver(plat)->state_count - 1;
	struct il_preset preset;
	struct il_run *run;

	assert_int_equal(il_preset_make(&preset, "deepest", &deepest_gov, "menu", err, sizeof(err)), 0);
	assert_string_equal(preset.name, "deepest");
	assert_ptr_equal(preset.core, il_preset_find("menu")->core);
	run = il_lab_simulate(plat, &preset, "idle-busy", 100 * NSEC_PER_MSEC, 1, err, sizeof(err));
	assert_non_null(run);
	assert_true(il_run_idles(run) > 0);
	assert_int_equal(il_run_state_usage(run, deepest), il_run_idles(run));
	assert_true(deepest_selects >= il_run_idles(run));
	assert_true(deepest_reflects > 0);
	assert_int_equal(deepest_enables, il_platform_cpus(plat));
	assert_int_equal(deepest_disables, deepest_enables);
	il_run_free(run);
	il_platform_close(plat);
}

static void test_preset_make_errors(void **state)
{
	static const struct il_governor no_select = { .name = "broken" };
	char err[IL_ERRLEN] = "";
	struct il_preset preset;

	assert_int_equal(il_preset_make(&preset, "x", &deepest_gov, "nope-1.0", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "nope-1.0"));
	assert_int_equal(il_preset_make(&preset, "x", &no_select, "teo", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "select"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_platform_open),
		cmocka_unit_test(test_platform_errors),
		cmocka_unit_test(test_simulate_is_lab_run),
		cmocka_unit_test(test_simulate_errors),
		cmocka_unit_test(test_own_governor),
		cmocka_unit_test(test_preset_make_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
