// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tests of tests/fidelity/seeds.c: the seeds' measurements in tests/fidelity/seeds.tsv
 * parse, every row names a built-in platform, a preset (or "-"), a scenario spec that
 * parses and a metric the scoreboard computes; bad lines are refused with file and line.
 * (The scoreboard's goals are `make fidelity`'s, not a test's.) Run from the top of the tree.
 * And tests/fidelity/robust_call.c: the robust call of a comparison over model variants and
 * how it scores against the seeds' class.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../fidelity/robust_call.h"
#include "../fidelity/seeds.h"
#include "util/array.h"

#define SEEDS "tests/fidelity/seeds.tsv"

static const char header[] = "group\tsource\tplatform\tscenario\tgov\tseeds_label\titer\tmetric\t"
			     "value\tseed_s\tlab_s\tmagnitude\n";

static void test_seeds_tsv_parses(void **state)
{
	struct fid_table t;
	char err[512] = "";
	size_t fio = 0, pseries = 0, pingpong = 0, nightmares = 0, sweeps = 0;

	assert_int_equal(fid_load(SEEDS, &t, err, sizeof(err)), 0);
	for (size_t i = 0; i < t.n; i++) {
		const struct fid_row *r = &t.rows[i];

		fio += !strncmp(r->scenario, "fio:", 4);
		pseries += !strcmp(r->platform, "pseries");
		pingpong += !strcmp(r->group, "i5-10600k/pingpong-6.17");
		nightmares += r->kind == FID_PN_COUNT_STATE;
		sweeps += r->kind == FID_SWEEP_AVG_PCT || r->kind == FID_SWEEP_MAX_PCT ||
			  r->kind == FID_SWEEP_MIN_PCT;
	}
	/* rk3588 (195 table rows) and rk3399 (171), 5 numbers each */
	assert_int_equal(fio, 5 * (195 + 171));
	/* Aboorva: 2 modes x 2 tables x 3 governors x 11 intervals */
	assert_int_equal(pseries, 132);
	assert_int_equal(pingpong, 4);
	assert_int_equal(nightmares, 20);
	/* Doug's sweeps: (4 + 4 + 5 + 5) governors x average, max, min */
	assert_int_equal(sweeps, 3 * (4 + 4 + 5 + 5));
	fid_free(&t);
}

/* Write @body after the header to a temporary file and load it; the error in @err. */
static int load_text(const char *body, char *err, size_t cap)
{
	char path[] = "/tmp/test_fidelity_XXXXXX";
	int fd = mkstemp(path);
	struct fid_table t;
	FILE *f;
	int ret;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(header, f);
	fputs(body, f);
	fclose(f);
	ret = fid_load(path, &t, err, cap);
	if (!ret)
		fid_free(&t);
	unlink(path);
	return ret;
}

static void test_bad_rows(void **state)
{
	static const struct {
		const char *body, *msg;
	} bad[] = {
		{ "g\tseeds/000:1\tnope\tidle\tmenu\tm\t-\tscore\t1\t-\t1\tyes\n", "platform 'nope'" },
		{ "g\tseeds/000:1\trk3588\tidle\tmenu-9.9\tm\t-\tscore\t1\t-\t1\tyes\n", "no governor preset" },
		{ "g\tseeds/000:1\trk3588\tfio:device=floppy\tmenu\tm\t-\tscore\t1\t-\t1\tyes\n", "scenario 'fio:device=floppy'" },
		{ "g\tseeds/000:1\trk3588\tidle\tmenu\tm\t-\tspeed\t1\t-\t1\tyes\n", "unknown metric" },
		{ "g\tseeds/000:1\trk3588\tidle\tmenu\tm\t-\tirq_fall_pct\t1\t-\t1\tyes\n", "unknown metric" },
		{ "g\tseeds/000:1\trk3588\tidle\tmenu\tm\t-\tusage_state99\t1\t-\t1\tyes\n", "unknown metric" },
		{ "g\tseeds/000:1\trk3588\tidle\tmenu\tm\t-\tscore\tx1\t-\t1\tyes\n", "value 'x1'" },
		{ "g\tseeds/000:1\trk3588\tidle\tmenu\tm\t-\tscore\t1\t-\t0\tyes\n", "lab_s '0'" },
		{ "g\tseeds/000:1\trk3588\tidle\tmenu\tm\t-\tscore\t1\t-\t1\tmaybe\n", "magnitude 'maybe'" },
		{ "g\t000:1\trk3588\tidle\tmenu\tm\t-\tscore\t1\t-\t1\tyes\n", "source '000:1'" },
		{ "g\tseeds/000:1\trk3588\tidle\tmenu\n", "not 12 tab-separated cells" },
		{ "g\tseeds/000:1004\ti5-10600k\tpingpong\tmenu-6.13\tm\t-\tsweep_avg_pct\t-2.06\t-\t1\tyes\n",
		  "sweep_avg_pct is shown, not computed" },
	};
	char err[512];

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		assert_int_equal(load_text(bad[i].body, err, sizeof(err)), -1);
		assert_non_null(strstr(err, ":2: "));
		if (!strstr(err, bad[i].msg))
			fail_msg("row %zu: '%s' lacks '%s'", i, err, bad[i].msg);
	}
	assert_int_equal(load_text("", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no rows"));
}

static void test_good_row(void **state)
{
	char err[512] = "";

	assert_int_equal(load_text("# a comment\ng\tseeds/000:16\ti5-10600k\tjbb:timer_pct=20\tmenu-6.13\t"
				   "x\t-\tirq_fall_pct@jbb:timer_pct=100\t55\t-\t2\tyes\n"
				   "g\tseeds/003:1\tskx\tidle\t-\tV3\t3\tpn_s_state2\t1.5\t3600\t30\t"
				   "no: no preset\n", err, sizeof(err)), 0);
}

/* 3 variants x 5 seeds: a at 100 in each, b at @b[v] (+- 0.1 over the seeds). */
static void values(double *a, double *b, const double *bv, int nvar)
{
	static const double noise[5] = { -0.1, 0.05, 0, 0.1, -0.05 };

	for (int v = 0; v < nvar; v++)
		for (int i = 0; i < 5; i++) {
			a[v * 5 + i] = 100 + noise[i];
			b[v * 5 + i] = bv[v] + noise[(i + 2) % 5];
		}
}

static void test_robust_call(void **state)
{
	static const double same_way[3] = { 110, 105, 120 }, flips[3] = { 110, 90, 112 },
			    within[3] = { 110, 100.5, 115 }, down[3] = { 90, 95, 80 };
	double a[15], b[15];
	enum fid_robust kind;
	int dir[3];

	(void)state;
	values(a, b, same_way, 3);
	assert_int_equal(fid_robust_call(a, b, 3, 5, 1, 1.0, &kind, NULL), 1);
	assert_int_equal(kind, FID_ROBUST_CALL);
	/* no nominal call: the ensemble has nothing to re-judge */
	assert_int_equal(fid_robust_call(a, b, 3, 5, 0, 1.0, &kind, NULL), 0);
	assert_int_equal(kind, FID_ROBUST_NONE);
	/* a variant that reverses it, or one that keeps it within the minimum effect */
	values(a, b, flips, 3);
	assert_int_equal(fid_robust_call(a, b, 3, 5, 1, 1.0, &kind, dir), 0);
	assert_int_equal(kind, FID_ROBUST_SENSITIVE);
	/* each variant's direction, for the parameters that turn it */
	assert_int_equal(dir[0], 1);
	assert_int_equal(dir[1], -1);
	assert_int_equal(dir[2], 1);
	values(a, b, within, 3);
	assert_int_equal(fid_robust_call(a, b, 3, 5, 1, 1.0, &kind, NULL), 0);
	assert_int_equal(kind, FID_ROBUST_SENSITIVE);
	/* ... at any minimum effect the other variants pass (5 %: +10 and +15 are beyond it) */
	assert_int_equal(fid_robust_call(a, b, 3, 5, 1, 5.0, &kind, NULL), 0);
	assert_int_equal(kind, FID_ROBUST_SENSITIVE);
	values(a, b, down, 3);
	assert_int_equal(fid_robust_call(a, b, 3, 5, -1, 1.0, &kind, NULL), -1);
	assert_int_equal(kind, FID_ROBUST_CALL);
	/* the nominal model alone: the nominal call */
	assert_int_equal(fid_robust_call(a, b, 1, 5, -1, 1.0, &kind, NULL), -1);
	/* a nominal call against variant 0's own direction, a bad count: refused */
	assert_int_equal(fid_robust_call(a, b, 3, 5, 1, 1.0, &kind, NULL), -2);
	assert_int_equal(fid_robust_call(a, b, 0, 5, 1, 1.0, &kind, NULL), -2);
}

static void test_outcome(void **state)
{
	(void)state;
	assert_int_equal(fid_outcome_of(FID_SEEDS_HIGHER, 1, FID_ROBUST_CALL), FID_OUT_RIGHT);
	assert_int_equal(fid_outcome_of(FID_SEEDS_LOWER, -1, FID_ROBUST_CALL), FID_OUT_RIGHT);
	assert_int_equal(fid_outcome_of(FID_SEEDS_HIGHER, -1, FID_ROBUST_CALL), FID_OUT_REVERSED);
	/* a sensitive cell is not a call: neither right nor reversed, nor a false call */
	assert_int_equal(fid_outcome_of(FID_SEEDS_LOWER, 0, FID_ROBUST_SENSITIVE),
			 FID_OUT_SENSITIVE);
	assert_int_equal(fid_outcome_of(FID_SEEDS_LOWER, 0, FID_ROBUST_NONE), FID_OUT_MISSED);
	assert_int_equal(fid_outcome_of(FID_SEEDS_SAME, 1, FID_ROBUST_CALL), FID_OUT_FALSE_CALL);
	assert_int_equal(fid_outcome_of(FID_SEEDS_SAME, 0, FID_ROBUST_SENSITIVE),
			 FID_OUT_SAME_SENSITIVE);
	assert_int_equal(fid_outcome_of(FID_SEEDS_SAME, 0, FID_ROBUST_NONE), FID_OUT_SAME_NONE);
	assert_int_equal(fid_outcome_of(FID_SEEDS_UNTESTED, 1, FID_ROBUST_CALL), FID_OUT_UNTESTED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seeds_tsv_parses),
		cmocka_unit_test(test_bad_rows),
		cmocka_unit_test(test_good_row),
		cmocka_unit_test(test_robust_call),
		cmocka_unit_test(test_outcome),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
