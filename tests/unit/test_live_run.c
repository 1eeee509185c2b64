// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_live_run.c - what one run measured (lib/live/run.c) and its tables (lib/live/tables.c):
 * deltas summed over CPUs whose state tables differ, a counter missing on one CPU, a CPU that
 * never went idle, energy across a wrap and with an unknown range, the metrics, and the rows
 * of the runs and states tables (what was not measured shows "-").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "live/live.h"
#include "output/output.h"

/* A CPU with @n states named S0.. and deltas @usage[i], above i, below 2i, all counters present. */
static void cpu_with(struct il_live_cpu *cpu, struct il_live_delta *d, int n, const u64 *usage)
{
	memset(cpu, 0, sizeof(*cpu));
	cpu->nstates = n;
	for (int i = 0; i < n; i++) {
		snprintf(cpu->st[i].name, sizeof(cpu->st[i].name), "S%d", i);
		d[i] = (struct il_live_delta){ .have = IL_LF_COUNTERS, .usage = usage[i],
					       .time_us = 10 * usage[i], .above = (u64)i,
					       .below = 2 * (u64)i };
	}
}

static void test_sums_over_cpus_with_other_state_counts(void **state)
{
	static const u64 a[] = { 5, 7 }, b[] = { 1, 2, 3 };
	struct il_live_delta da[CPUIDLE_STATE_MAX], db[CPUIDLE_STATE_MAX];
	struct il_live_cpu ca, cb;
	struct il_live_run run = { 0 };

	cpu_with(&ca, da, 2, a);
	cpu_with(&cb, db, 3, b);
	il_live_run_add_cpu(&run, &ca, da, true);
	il_live_run_add_cpu(&run, &cb, db, false);
	/* The third state, only on the second CPU, still counts. */
	assert_int_equal(run.nstates, 3);
	assert_string_equal(run.names[2], "S2");
	assert_int_equal(run.idles, 5 + 7 + 1 + 2 + 3);
	assert_int_equal(run.aboves, 1 + 1 + 2);
	assert_int_equal(run.belows, 2 + 2 + 4);
	assert_int_equal(run.st[1].usage, 9);
	assert_int_equal(run.st[1].time_us, 90);
	assert_int_equal(run.have, IL_LF_COUNTERS);
}

static void test_counter_missing_on_one_cpu(void **state)
{
	static const u64 a[] = { 5, 7 };
	struct il_live_delta da[CPUIDLE_STATE_MAX], db[CPUIDLE_STATE_MAX];
	struct il_live_cpu ca, cb;
	struct il_live_run run = { 0 };

	cpu_with(&ca, da, 2, a);
	cpu_with(&cb, db, 2, a);
	db[1].have &= ~(unsigned int)(IL_LF_ABOVE | IL_LF_BELOW); /* an older kernel's state */
	il_live_run_add_cpu(&run, &ca, da, true);
	il_live_run_add_cpu(&run, &cb, db, false);
	assert_false(run.have & IL_LF_ABOVE);
	assert_false(run.st[1].have & IL_LF_BELOW);
	assert_true(run.st[0].have & IL_LF_BELOW);
	assert_true(run.have & IL_LF_USAGE);
}

static void test_never_idle(void **state)
{
	static const u64 zero[] = { 0, 0 }, some[] = { 0, 1 };
	struct il_live_delta d[CPUIDLE_STATE_MAX];
	struct il_live_cpu c;

	cpu_with(&c, d, 2, zero);
	assert_true(il_live_never_idle(&c, d));
	cpu_with(&c, d, 2, some);
	assert_false(il_live_never_idle(&c, d));
	/* Without a usage count nothing can be said. */
	cpu_with(&c, d, 2, zero);
	d[1].have &= ~(unsigned int)IL_LF_USAGE;
	assert_false(il_live_never_idle(&c, d));
}

static void test_energy(void **state)
{
	struct il_live_rapl rapl = { .status = IL_RAPL_OK, .nzones = 2 };
	u64 before[2] = { 1000, 262143000000ULL - 100000 }, after[2] = { 301000, 100000 };
	struct il_live_run run = { .gov = "menu", .iter = 1 };
	struct il_error err;

	strcpy(rapl.zone[0].name, "package-0");
	strcpy(rapl.zone[1].name, "package-1");
	rapl.zone[0].max_range_uj = 262143000000ULL;
	rapl.zone[1].max_range_uj = 262143000000ULL;
	/* 0.3 J, and 0.2 J across the wrap of the second zone */
	assert_int_equal(il_live_run_energy(&rapl, before, after, &run, &err), 0);
	assert_true(run.energy_ok);
	assert_true(run.joules > 0.49999 && run.joules < 0.50001);
	rapl.zone[1].max_range_uj = 0;
	assert_int_equal(il_live_run_energy(&rapl, before, after, &run, &err), -1);
	assert_false(run.energy_ok);
	assert_string_equal(err.msg, "energy: package-1 went from 262142900000 to 100000 uJ and "
			    "max_energy_range_uj is unknown; joules not measured for menu iter 1");
	rapl.status = IL_RAPL_ABSENT;
	assert_int_equal(il_live_run_energy(&rapl, before, after, &run, &err), 0);
	assert_false(run.energy_ok);
}

static void test_metrics(void **state)
{
	static const char *const specs[] = { "iops=IOPS=([0-9.]+[kM]?)", "lat=lat=([a-z0-9]+)",
					     "bw=BW=([0-9]+)" };
	struct il_live_metric m[3];
	struct il_live_output out = { .text = "read: IOPS=12.4k, lat=abc\n", .len = 26 };
	struct il_live_run run = { 0 };
	char match[3][IL_LIVE_MATCH_LEN];
	struct il_error err;

	for (int i = 0; i < 3; i++)
		assert_int_equal(il_live_metric_parse(specs[i], &m[i], &err), 0);
	il_live_run_metrics(&run, m, 3, &out, match);
	assert_int_equal(run.metric_rc[0], IL_METRIC_FOUND);
	assert_true(run.metric[0] == 12400.0);
	assert_int_equal(run.metric_rc[1], IL_METRIC_NOT_A_NUMBER);
	assert_string_equal(match[1], "abc");
	assert_int_equal(run.metric_rc[2], IL_METRIC_NO_MATCH);
	for (int i = 0; i < 3; i++)
		il_live_metric_free(&m[i]);
}

/* ---- the tables ---------------------------------------------------------------------------- */

static char *tsv(const struct il_table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(il_output_tsv.write(f, &t, 1), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_tables(void **state)
{
	static const u64 usage[] = { 3, 120 };
	struct il_live_measure_opts opts = { .nmetric = 1, .trace = "/tmp/t", .iter = 1 };
	struct il_live_delta d[CPUIDLE_STATE_MAX];
	struct il_live_run rows[2] = { { .gov = "menu" }, { .gov = "teo" } };
	struct il_live_session s = { .opts = &opts, .nrows = 2, .rows = rows };
	struct il_table runs = { 0 }, states = { 0 };
	struct il_live_cpu c;
	char *text;

	strcpy(s.metric[0].name, "iops");
	cpu_with(&c, d, 2, usage);
	for (int k = 0; k < 2; k++)
		il_live_run_add_cpu(&rows[k], &c, d, true);
	rows[0].metric[0] = 12400;
	rows[0].metric_rc[0] = IL_METRIC_FOUND;
	rows[0].energy_ok = true;
	rows[0].joules = 1.234;
	rows[0].wall_ns = 1500000000ULL;
	rows[1].metric[0] = 9.5;
	rows[1].metric_rc[0] = IL_METRIC_FOUND;
	rows[1].have &= ~(unsigned int)IL_LF_ABOVE;
	rows[1].st[1].have &= ~(unsigned int)IL_LF_ABOVE;
	assert_int_equal(il_live_runs_table(&s, &runs), 0);
	text = tsv(&runs);
	assert_string_equal(text, "gov\titer\tiops\tjoules\tidles\tidle_misses\tidle_miss_ratio\t"
			    "belows\taboves\trejected\twall_s\ttrace\n"
			    "menu\t0\t12400\t1.23\t123\t3\t0.024\t2\t1\t0\t1.500\t"
			    "/tmp/t-menu-0.trace\n"
			    "teo\t0\t9.50\t-\t123\t-\t-\t2\t-\t0\t0.000\t/tmp/t-teo-0.trace\n");
	free(text);
	assert_int_equal(il_live_states_table(&s, &states), 0);
	text = tsv(&states);
	assert_string_equal(text, "gov\titer\tstate\tname\tusage\ttime_us\tabove\tbelow\trejected\n"
			    "menu\t0\t0\tS0\t3\t30\t0\t0\t0\n"
			    "menu\t0\t1\tS1\t120\t1200\t1\t2\t0\n"
			    "teo\t0\t0\tS0\t3\t30\t0\t0\t0\n"
			    "teo\t0\t1\tS1\t120\t1200\t-\t2\t0\n");
	free(text);
	il_table_free(&runs);
	il_table_free(&states);
}

static char said[512];

static void on_say(void *ctx, enum il_live_say kind, enum il_error_need need, const char *msg)
{
	snprintf(said, sizeof(said), "%s", msg);
}

/* With iterations: the summaries too, and a baseline that was not measured is said. */
static void test_results_with_summaries(void **state)
{
	static const u64 usage[] = { 3, 120 };
	struct il_live_measure_opts opts = { .iter = 2 };
	struct il_live_delta d[CPUIDLE_STATE_MAX];
	struct il_live_run rows[4] = {
		{ .gov = "menu" }, { .gov = "teo" }, { .gov = "menu", .iter = 1 },
		{ .gov = "teo", .iter = 1 },
	};
	struct il_live_session s = {
		.opts = &opts, .nrows = 4, .rows = rows, .ngov = 2, .gov = { "menu", "teo" },
		.hooks = { .say = on_say },
	};
	struct il_live_results r;
	struct il_live_cpu c;
	char *text;

	cpu_with(&c, d, 2, usage);
	for (int k = 0; k < 4; k++) {
		il_live_run_add_cpu(&rows[k], &c, d, true);
		rows[k].wall_ns = 1000000000ULL * (unsigned long long)(k + 1);
	}
	assert_int_equal(il_live_results_build(&s, "teo", &r), 0);
	assert_string_equal(said, "");
	assert_int_equal(r.runs->nrows, 4);
	assert_int_equal(r.states->nrows, 8);
	assert_non_null(r.sum[0]);
	text = tsv(r.sum[0]);
	/* wall_s: menu 1 and 3 s, teo 2 and 4 s: mean 2 against 3 */
	assert_non_null(strstr(text, "menu\twall_s\t2\t2.0"));
	free(text);
	il_live_results_free(&r);
	assert_int_equal(il_live_results_build(&s, "ladder", &r), 0);
	assert_string_equal(said, "baseline 'ladder' was not measured: the summaries have no "
			    "deltas");
	il_live_results_free(&r);
	opts.iter = 1;
	assert_int_equal(il_live_results_build(&s, NULL, &r), 0);
	assert_null(r.sum[0]);
	assert_null(r.sum[1]);
	il_live_results_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sums_over_cpus_with_other_state_counts),
		cmocka_unit_test(test_counter_missing_on_one_cpu),
		cmocka_unit_test(test_never_idle),
		cmocka_unit_test(test_energy),
		cmocka_unit_test(test_metrics),
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_results_with_summaries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
