// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tests of lib/verdict: the work-unit table covers every scenario, energy per unit of work,
 * the exact case-file form of a run, and the classification of synthetic grids (better,
 * worse, same below the minimum effect or the noise, zero metrics, n/a, one seed), the
 * order of the cells and the summary line.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gov/governors.h"
#include "platform/platform.h"
#include "scenario/background.h"
#include "verdict/verdict.h"

#define assert_near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static void test_work_table_covers_every_scenario(void **state)
{
	for (int i = 0; i < il_scenario_count(); i++) {
		const struct il_scenario *scn = il_scenario_at(i);
		const struct il_verdict_work *w = il_verdict_work_find(scn->name);

		assert_non_null(w);
		assert_non_null(w->why);
		/* A rate score is per second and must be higher-is-better; a time score lower. */
		if (w->kind == IL_WORK_RATE)
			assert_true(scn->higher_is_better);
		if (w->kind == IL_WORK_TIME)
			assert_false(scn->higher_is_better);
	}
	for (int i = 0; i < il_verdict_work_count(); i++)
		assert_non_null(il_scenario_find(il_verdict_work_at(i)->scenario));
}

static void parse(const char *spec, const struct il_scenario **scn, struct il_scn_args *args,
		  struct il_scn_common *common)
{
	struct il_error err;

	assert_int_equal(il_scn_parse(spec, scn, args, common, &err), 0);
}

static void test_energy_per_unit_of_work(void **state)
{
	const struct il_scenario *scn;
	struct il_scn_args args;
	struct il_scn_common common;
	struct il_verdict_run r = { .energy_known = true, .duration_ns = 2000000000ULL };
	const char *why = NULL;
	char buf[64];
	double v;

	/* fio: 1000 iops for 2 s = 2000 requests; 0.5 J -> 250 µJ per request. */
	parse("fio:device=nvme", &scn, &args, &common);
	r.score = 1000;
	r.joules = 0.5;
	assert_string_equal(il_vmetric_name(IL_VM_ENERGY, scn, buf, sizeof(buf)), "uj_per_request");
	assert_int_equal(il_vmetric_value(IL_VM_ENERGY, scn, &args, &r, &v, &why), 0);
	assert_near(v, 250.0, 1e-9);
	/* pingpong: 5 µs per loop for 2 s = 400000 loops; 2 J -> 5 µJ per loop. */
	parse("pingpong:cpus=2", &scn, &args, &common);
	r.score = 5;
	r.joules = 2;
	assert_int_equal(il_vmetric_value(IL_VM_ENERGY, scn, &args, &r, &v, &why), 0);
	assert_near(v, 5.0, 1e-9);
	/* netrr: rtt_us is per pair; 4 pairs at 20 µs for 2 s = 400000 transactions. */
	parse("netrr:pairs=4", &scn, &args, &common);
	r.score = 20;
	r.joules = 4;
	assert_string_equal(il_vmetric_name(IL_VM_ENERGY, scn, buf, sizeof(buf)), "uj_per_transaction");
	assert_int_equal(il_vmetric_value(IL_VM_ENERGY, scn, &args, &r, &v, &why), 0);
	assert_near(v, 10.0, 1e-9);
	/* idle: its score counts wakeups, not work: Joules alone. */
	parse("idle", &scn, &args, &common);
	assert_string_equal(il_vmetric_name(IL_VM_ENERGY, scn, buf, sizeof(buf)), "joules");
	assert_int_equal(il_vmetric_value(IL_VM_ENERGY, scn, &args, &r, &v, &why), 0);
	assert_near(v, 4.0, 0);
	/* No power numbers, or no work: n/a with a reason, never a zero. */
	parse("fio:device=nvme", &scn, &args, &common);
	r.energy_known = false;
	assert_int_equal(il_vmetric_value(IL_VM_ENERGY, scn, &args, &r, &v, &why), -1);
	assert_non_null(strstr(why, "no power numbers"));
	r.energy_known = true;
	r.score = 0;
	assert_int_equal(il_vmetric_value(IL_VM_ENERGY, scn, &args, &r, &v, &why), -1);
	assert_non_null(strstr(why, "no work"));
}

/* The summary fields of @idles periods with @aboves and @belows, as a lab run keeps them. */
static void set_counts(struct il_verdict_run *r, u64 idles, u64 aboves, u64 belows)
{
	r->field[il_vmetric_find("idle_misses")] = (double)(aboves + belows);
	r->field[il_vmetric_find("idle_miss_ratio")] = (double)(aboves + belows) / (double)idles;
	r->field[il_vmetric_find("aboves")] = (double)aboves;
	r->field[il_vmetric_find("belows")] = (double)belows;
}

static void test_metrics_and_directions(void **state)
{
	const struct il_scenario *fio = il_scenario_find("fio"), *pp = il_scenario_find("pingpong");
	struct il_verdict_run r = { 0 };
	struct il_scn_args args = { 0 };
	int misses = il_vmetric_find("idle_misses"), ratio = il_vmetric_find("idle_miss_ratio");
	int p99 = il_vmetric_find("wakeup_p99_us");
	const char *why;
	double v;

	/* the fields they read: 40 misses of 200 idles, a p99 of 1500 ns */
	r.field[misses] = 40;
	r.field[ratio] = 0.2;
	r.field[p99] = 1500;

	assert_int_equal(il_vmetric_find("score"), IL_VM_SCORE);
	assert_int_equal(il_vmetric_find("energy"), IL_VM_ENERGY);
	assert_int_equal(il_vmetric_find("iops"), -1);
	/* the catalogue's verdict metrics, in the verdict's order, between score and energy */
	assert_int_equal(misses, 1);
	assert_int_equal(ratio, 2);
	assert_int_equal(il_vmetric_find("aboves"), 3);
	assert_int_equal(il_vmetric_find("belows"), 4);
	assert_int_equal(p99, 5);
	/* every catalogue line the verdict judges has its own rank, 1 .. their number */
	for (int m = IL_VM_SCORE + 1; m < IL_VM_ENERGY; m++)
		assert_non_null(il_vmetric_def(m));
	assert_null(il_vmetric_def(IL_VM_ENERGY));
	assert_string_equal(il_vmetric_key(IL_VM_ENERGY), "energy");
	assert_true(il_vmetric_higher_better(IL_VM_SCORE, fio));
	assert_false(il_vmetric_higher_better(IL_VM_SCORE, pp));
	assert_false(il_vmetric_higher_better(misses, fio));
	assert_false(il_vmetric_higher_better(IL_VM_ENERGY, fio));
	assert_int_equal(il_vmetric_value(misses, fio, &args, &r, &v, &why), 0);
	assert_near(v, 40, 0);
	assert_int_equal(il_vmetric_value(ratio, fio, &args, &r, &v, &why), 0);
	assert_near(v, 0.2, 1e-15);
	assert_int_equal(il_vmetric_value(p99, fio, &args, &r, &v, &why), 0);
	assert_near(v, 1.5, 1e-15);
}

static void test_run_text_is_exact(void **state)
{
	struct il_verdict_run r = { .score = 1.0 / 3.0, .joules = 0.17963275688000002,
				    .energy_known = true, .duration_ns = 500000000 }, back;
	const char *names[IL_VERDICT_RUN_FIELDS_MAX], *texts[IL_VERDICT_RUN_FIELDS_MAX];
	char bufs[IL_VERDICT_RUN_FIELDS_MAX][64];
	struct il_error err;
	int misses = il_vmetric_find("idle_misses"), ratio = il_vmetric_find("idle_miss_ratio");
	int p99 = il_vmetric_find("wakeup_p99_us");

	r.field[misses] = 9007199254740992.0; /* 2^53: the largest count kept exactly */
	r.field[ratio] = 1.0 / 7.0;
	r.field[p99] = 219136;

	for (int i = 0; i < IL_VERDICT_RUN_FIELDS; i++) {
		/* in reverse order: the parser finds fields by name */
		names[IL_VERDICT_RUN_FIELDS - 1 - i] = il_verdict_run_field(i);
		texts[IL_VERDICT_RUN_FIELDS - 1 - i] = il_verdict_run_format(&r, i, bufs[i], sizeof(bufs[i]));
	}
	assert_int_equal(il_verdict_run_parse(IL_VERDICT_RUN_FIELDS, names, texts, &back, &err), 0);
	assert_memory_equal(&r.score, &back.score, sizeof(double));
	assert_memory_equal(&r.joules, &back.joules, sizeof(double));
	assert_memory_equal(r.field, back.field, sizeof(r.field));
	assert_string_equal(bufs[misses], "9007199254740992");
	assert_string_equal(il_verdict_run_field(p99), "wake_p99_ns");
	assert_true(back.energy_known && back.duration_ns == 500000000);
	texts[0] = "12x";
	assert_int_equal(il_verdict_run_parse(IL_VERDICT_RUN_FIELDS, names, texts, &back, &err), -1);
	assert_non_null(strstr(err.msg, "not a valid value"));
	assert_int_equal(il_verdict_run_parse(IL_VERDICT_RUN_FIELDS - 1, names + 1, texts + 1, &back,
					      &err), -1);
	/* no file named: the caller knows it */
	assert_true(!strncmp(err.msg, "no '", 4));
}

/* A grid of one platform, @nscn fio scenarios, baseline + one governor, @n seeds. */
struct grid {
	struct il_verdict v;
	const char *gov[2], *plat[1], *spec[2];
	const struct il_scenario *scn[2];
	struct il_scn_args args[2];
};

static void grid_init(struct grid *g, int n)
{
	struct il_scn_common common;

	g->gov[0] = "base";
	g->gov[1] = "new";
	g->plat[0] = "rk3588";
	g->spec[0] = "fio:device=nvme";
	g->spec[1] = "pingpong:cpus=2";
	parse(g->spec[0], &g->scn[0], &g->args[0], &common);
	parse(g->spec[1], &g->scn[1], &g->args[1], &common);
	assert_int_equal(il_verdict_init(&g->v, 1, 2, 2, 0, n), 0);
	g->v.gov = g->gov;
	g->v.plat = g->plat;
	g->v.spec = g->spec;
	g->v.scn = g->scn;
	g->v.args = g->args;
	for (int s = 0; s < 2; s++) {
		for (int gv = 0; gv < 2; gv++) {
			for (int it = 0; it < n; it++) {
				struct il_verdict_run *r = &g->v.runs[il_verdict_index(&g->v, 0, s, gv, it)];

				r->score = 1000 + it * 10; /* the same on both sides unless a test moves it */
				/* belows zero on both sides */
				set_counts(r, 5000, 100 + (u64)it, 0);
				r->field[il_vmetric_find("wakeup_p99_us")] = 2000;
				r->joules = 1.0 + it * 0.01;
				r->energy_known = true;
				r->duration_ns = 1000000000ULL;
			}
		}
	}
}

static const struct il_verdict_cell *find_cell(const struct il_verdict *v, int s, enum il_vmetric m)
{
	for (int i = 0; i < v->ncells; i++)
		if (v->cells[i].s == s && v->cells[i].metric == m)
			return &v->cells[i];
	fail();
	return NULL;
}

static const struct il_verdict_opts opts = {
	.alpha = 0.05, .min_effect_pct = 1.0, .paired = true, .metrics = IL_VM_ALL, .perm_seed = 1,
};

static void test_judge_better_worse_same(void **state)
{
	struct grid g;
	const struct il_verdict_cell *c;
	char line[1024];

	grid_init(&g, 5);
	for (int it = 0; it < 5; it++) {
		struct il_verdict_run *b = &g.v.runs[il_verdict_index(&g.v, 0, 0, 0, it)];
		struct il_verdict_run *n = &g.v.runs[il_verdict_index(&g.v, 0, 0, 1, it)];

		/* fio iops +10 % (better, and so are µJ per request); pingpong us_per_loop +10 %
		 * (worse, lower is better; so are µJ per loop) */
		n->score *= 1.10;
		g.v.runs[il_verdict_index(&g.v, 0, 1, 1, it)].score *= 1.10;
		/* fio aboves +0.5 %, consistently: significant, but below the minimum effect */
		set_counts(b, 5000, 10000 + 7 * (u64)it, 0);
		set_counts(n, 5000, 10000 + 7 * (u64)it + 50, 0);
	}
	assert_int_equal(il_verdict_judge(&g.v, &opts), 0);
	assert_true(g.v.judged);
	assert_int_equal(g.v.ncells, 2 * IL_VM_COUNT);
	assert_true(g.v.perm.exact);
	assert_int_equal(g.v.perm.used, 252);
	c = find_cell(&g.v, 0, IL_VM_SCORE);
	assert_int_equal(c->cls, IL_VERDICT_BETTER);
	assert_near(c->d.rel, 10.0, 1e-9);
	assert_near(c->p_adj, 2.0 / 252, 1e-12);
	assert_int_equal(find_cell(&g.v, 0, IL_VM_ENERGY)->cls, IL_VERDICT_BETTER);
	assert_int_equal(find_cell(&g.v, 1, IL_VM_SCORE)->cls, IL_VERDICT_WORSE);
	assert_int_equal(find_cell(&g.v, 1, IL_VM_ENERGY)->cls, IL_VERDICT_WORSE);
	/* +0.5 % aboves: below --min-effect, same although the shift is far beyond the noise */
	c = find_cell(&g.v, 0, il_vmetric_find("aboves"));
	assert_true(c->p_adj <= 0.05);
	assert_int_equal(c->cls, IL_VERDICT_SAME);
	/* identical runs: same with p 1; zero on both sides: same */
	c = find_cell(&g.v, 0, il_vmetric_find("wakeup_p99_us"));
	assert_int_equal(c->cls, IL_VERDICT_SAME);
	assert_near(c->d.diff, 0, 0);
	assert_near(c->p_adj, 1.0, 0);
	c = find_cell(&g.v, 0, il_vmetric_find("belows"));
	assert_int_equal(c->cls, IL_VERDICT_SAME);
	assert_near(c->p_adj, 1.0, 0);
	/* worst first: the worse cells lead, the better ones close */
	assert_int_equal(g.v.cells[0].cls, IL_VERDICT_WORSE);
	assert_int_equal(g.v.cells[g.v.ncells - 1].cls, IL_VERDICT_BETTER);
	/* the library names no option: the front end's words for the setting, when it gives them */
	il_verdict_summary(&g.v, 1, line, sizeof(line));
	assert_non_null(strstr(line, "5 seeds, nominal model only: worse in 2 cells "));
	g.v.words = &(const struct il_verdict_words){ .nominal = "--ensemble 0" };
	il_verdict_summary(&g.v, 1, line, sizeof(line));
	assert_non_null(strstr(line, "new vs base on 1 platform × 2 scenarios, 5 seeds, nominal model only "
				     "(--ensemble 0): worse in 2 cells "
				     "(rk3588 pingpong:cpus=2 "));
	/* the best better cell first */
	assert_non_null(strstr(line, "better in 2 (rk3588 fio:device=nvme iops +10.0 % ["));
	assert_non_null(strstr(line, "sensitive in 0, same in 12")); /* rejected: identically 0 */
	il_verdict_free(&g.v);
}

/* Noise as large as the shift: no call, whatever the size of the mean's move. */
static void test_noise_is_not_a_verdict(void **state)
{
	static const double noise[5] = { -300, 250, -100, 400, -250 };
	struct grid g;

	grid_init(&g, 5);
	for (int it = 0; it < 5; it++) {
		g.v.runs[il_verdict_index(&g.v, 0, 0, 0, it)].score += noise[it];
		g.v.runs[il_verdict_index(&g.v, 0, 0, 1, it)].score += noise[4 - it] + 30;
	}
	assert_int_equal(il_verdict_judge(&g.v, &(struct il_verdict_opts){ .alpha = 0.05, .min_effect_pct = 1,
									   .paired = false, .metrics = IL_VM_ALL }),
			 0);
	assert_int_equal(find_cell(&g.v, 0, IL_VM_SCORE)->cls, IL_VERDICT_SAME);
	assert_true(find_cell(&g.v, 0, IL_VM_SCORE)->p_adj > 0.05);
	il_verdict_free(&g.v);
}

static void test_na_and_one_seed(void **state)
{
	struct grid g;
	struct il_verdict_count k;
	char line[1024];

	grid_init(&g, 5);
	snprintf(g.v.na[1], IL_VERDICT_REASON_LEN, "needs 12 CPUs, rk3588 has 8");
	for (int it = 0; it < 5; it++)
		g.v.runs[il_verdict_index(&g.v, 0, 0, 1, it)].energy_known = false;
	assert_int_equal(il_verdict_judge(&g.v, &opts), 0);
	assert_int_equal(find_cell(&g.v, 1, IL_VM_SCORE)->cls, IL_VERDICT_NA);
	assert_string_equal(find_cell(&g.v, 1, IL_VM_SCORE)->why, "needs 12 CPUs, rk3588 has 8");
	assert_int_equal(find_cell(&g.v, 0, IL_VM_ENERGY)->cls, IL_VERDICT_NA);
	assert_non_null(strstr(find_cell(&g.v, 0, IL_VM_ENERGY)->why, "no power numbers"));
	il_verdict_counts(&g.v, 1, &k);
	assert_int_equal(k.na, IL_VM_COUNT + 1);
	assert_int_equal(g.v.cells[g.v.ncells - 1].cls, IL_VERDICT_NA);
	il_verdict_free(&g.v);

	grid_init(&g, 1);
	g.v.runs[il_verdict_index(&g.v, 0, 0, 1, 0)].score *= 2;
	assert_int_equal(il_verdict_judge(&g.v, &opts), 0);
	assert_false(g.v.judged);
	assert_int_equal(find_cell(&g.v, 0, IL_VM_SCORE)->cls, IL_VERDICT_UNJUDGED);
	assert_near(find_cell(&g.v, 0, IL_VM_SCORE)->new_mean, 2000, 0);
	il_verdict_summary(&g.v, 1, line, sizeof(line));
	assert_non_null(strstr(line, "means only, no verdict"));
	assert_non_null(strstr(line, "to judge a difference against)"));
	g.v.words = &(const struct il_verdict_words){ .more_iter = "--iter 5" };
	il_verdict_summary(&g.v, 1, line, sizeof(line));
	assert_non_null(strstr(line, "to judge a difference against; use --iter 5)"));
	il_verdict_free(&g.v);
}

/* From a zero mean: no percentage, still a change every seed repeats; sorted after the rest. */
static void test_change_from_zero(void **state)
{
	const struct il_verdict_cell *c;
	struct grid g;
	char buf[96];

	grid_init(&g, 5);
	for (int it = 0; it < 5; it++) {
		set_counts(&g.v.runs[il_verdict_index(&g.v, 0, 1, 1, it)], 5000, 100 + (u64)it, 3);
		g.v.runs[il_verdict_index(&g.v, 0, 1, 1, it)].score *= 1.5;
	}
	assert_int_equal(il_verdict_judge(&g.v, &opts), 0);
	c = find_cell(&g.v, 1, il_vmetric_find("belows"));
	assert_int_equal(c->cls, IL_VERDICT_WORSE);
	assert_true(isnan(c->d.rel) && isinf(c->t));
	assert_near(c->p_adj, 2.0 / 252, 1e-12);
	assert_string_equal(il_verdict_cell_delta(c, buf, sizeof(buf)), "+3 from 0");
	/* the +50 % cells lead the worse ones, the change from zero closes them */
	assert_int_equal(g.v.cells[0].metric, IL_VM_SCORE);
	for (int i = 0; i < g.v.ncells; i++)
		if (g.v.cells[i].cls == IL_VERDICT_WORSE)
			c = &g.v.cells[i];
	assert_int_equal(c->metric, il_vmetric_find("belows"));
	il_verdict_free(&g.v);
}

/* The robust rule: a call must hold in every variant; opposite moves make a cell sensitive. */
static void test_robust_class(void **state)
{
	const int all_good[] = { 1, 1, 1 }, one_flat[] = { 1, 0, 1 }, flip[] = { 0, 1, -1 },
		  all_bad[] = { -1, -1 }, flat_nominal[] = { 0, -1, -1 };

	(void)state;
	assert_int_equal(il_verdict_robust_class(all_good, 3, true), IL_VERDICT_BETTER);
	assert_int_equal(il_verdict_robust_class(all_good, 3, false), IL_VERDICT_SAME);
	assert_int_equal(il_verdict_robust_class(one_flat, 3, true), IL_VERDICT_SENSITIVE);
	assert_int_equal(il_verdict_robust_class(one_flat, 3, false), IL_VERDICT_SAME);
	assert_int_equal(il_verdict_robust_class(flip, 3, false), IL_VERDICT_SENSITIVE);
	assert_int_equal(il_verdict_robust_class(all_bad, 2, true), IL_VERDICT_WORSE);
	assert_int_equal(il_verdict_robust_class(flat_nominal, 3, true), IL_VERDICT_SAME);
}

/* One cell from per-seed, per-variant values: the envelope spans every variant's interval. */
static void test_classify_cell(void **state)
{
	/* 2 variants x 5 seeds; the new side 10 % up under variant 0, 5 % down under variant 1 */
	const double base[] = { 100, 101, 99, 100, 100, 100, 101, 99, 100, 100 };
	const double up[] = { 110, 111, 109, 110, 110, 95, 96, 94, 95, 95 };
	const double same_way[] = { 110, 111, 109, 110, 110, 105, 106, 104, 105, 105 };
	struct il_robust_in in = {
		.nvar = 2, .n = 5, .base = base, .new_ = up, .paired = true, .higher_better = true,
		.min_effect_pct = 1.0, .alpha = 0.05, .p_adj = 0.01,
	};
	struct il_robust_out out;

	(void)state;
	assert_int_equal(il_verdict_classify_cell(&in, &out), 0);
	assert_int_equal(out.cls, IL_VERDICT_SENSITIVE);
	assert_int_equal(out.dir[0], 1);
	assert_int_equal(out.dir[1], -1);
	assert_near(out.model_lo, -5.0, 1e-9);
	assert_near(out.model_hi, 10.0, 1e-9);
	assert_true(out.lo <= -5.0 && out.hi >= 10.0);
	in.new_ = same_way;
	assert_int_equal(il_verdict_classify_cell(&in, &out), 0);
	assert_int_equal(out.cls, IL_VERDICT_BETTER);
	in.p_adj = 0.2; /* the family-wise test fails: no call however robust */
	assert_int_equal(il_verdict_classify_cell(&in, &out), 0);
	assert_int_equal(out.cls, IL_VERDICT_SAME);
	in.nvar = 0;
	assert_int_equal(il_verdict_classify_cell(&in, &out), -1);
}

/* The parameters whose range ends alone turn a cell; a list too long for its buffer is counted. */
static void test_flips(void **state)
{
	static struct il_ens_space sp;
	/* nominal +1: a's low end keeps it, b's high end takes it within, c's low end reverses it */
	const int ends[] = { 1, 1, 1, 0, -1, 1 };
	const int none[] = { 1, 1, 1, 1, 1, 1 };
	char buf[64], tiny[sizeof(" and 9999 more") + 14];

	(void)state;
	sp.k = 3;
	snprintf(sp.p[0].name, sizeof(sp.p[0].name), "fio.lat_us");
	snprintf(sp.p[1].name, sizeof(sp.p[1].name), "rk3588:hz");
	snprintf(sp.p[2].name, sizeof(sp.p[2].name), "fio.bg_rate_pct");
	il_verdict_flips(buf, sizeof(buf), &sp, ends, 1);
	assert_string_equal(buf, "rk3588:hz, fio.bg_rate_pct");
	il_verdict_flips(buf, sizeof(buf), &sp, none, 1);
	assert_string_equal(buf, "");
	/* room for one name: the second is counted, never cut */
	il_verdict_flips(tiny, sizeof(tiny), &sp, ends, 1);
	assert_string_equal(tiny, "rk3588:hz and 1 more");
}

/* rk3588 into @plat, and the ensemble's numbers for scenario @spec on it into @sp. */
static void space_of(const char *spec, struct il_platform *plat, struct il_ens_space *sp)
{
	const struct il_scenario *scn;
	struct il_scn_args args;
	struct il_scn_common common;
	struct il_error err;

	assert_int_equal(il_platform_load("rk3588", plat, &err), 0);
	assert_int_equal(il_scn_parse(spec, &scn, &args, &common, &err), 0);
	assert_int_equal(il_ens_space_of(plat, scn, &args, NULL, sp, &err), 0);
}

/*
 * The hypercube: every member inside the ranges, each number's members in distinct strata,
 * the same values on every call; the one-at-a-time variants at the ends.
 */
static void test_ensemble_variants(void **state)
{
	struct il_platform *plat = malloc(sizeof(*plat));
	struct il_ens_space *sp = malloc(sizeof(*sp));
	double vals[IL_ENS_MAX_PARAMS], again[IL_ENS_MAX_PARAMS];
	const int n = 5;

	(void)state;
	/* without the background its rate and shape are not in play (the parameters' off_with) */
	space_of("pingpong:cpus=2,background=0", plat, sp);
	assert_int_equal(sp->k, plat->nunc + 2); /* overhead_ns, overhead_sigma */
	space_of("pingpong:cpus=2", plat, sp);
	/* overhead_ns, overhead_sigma and the background's IL_BG_NRANGED ranged numbers */
	assert_int_equal(sp->k, plat->nunc + 2 + IL_BG_NRANGED);
	assert_true(sp->power_assumed);
	assert_int_equal(il_ens_nvar(sp, n), 1 + n + 2 * sp->k);
	assert_int_equal(il_ens_nvar(sp, 0), 1);
	for (int j = 0; j < sp->k; j++) {
		const struct il_ens_param *e = &sp->p[j];
		bool stratum[5] = { false };
		int per_value[IL_UNC_SET_MAX] = { 0 };

		for (int m = 1; m <= n; m++) {
			double u;
			int k;

			il_ens_values(sp, n, 1, m, vals);
			il_ens_values(sp, n, 1, m, again);
			assert_true(vals[j] == again[j]);
			assert_true(vals[j] >= e->lo && vals[j] <= e->hi);
			if (e->range.kind == IL_UNC_SET) {
				for (k = 0; k < e->range.nset && e->range.set[k] != vals[j]; k++)
					;
				assert_true(k < e->range.nset);
				per_value[k]++;
				continue;
			}
			u = e->range.kind == IL_UNC_RATIO ? log(vals[j] / e->lo) / log(e->hi / e->lo)
							  : (vals[j] - e->lo) / (e->hi - e->lo);
			k = (int)(u * n);
			assert_true(k >= 0 && k < n && !stratum[k]);
			stratum[k] = true;
		}
		/* a set's values take equal shares of the strata: each at least n / nset */
		for (int k = 0; e->range.kind == IL_UNC_SET && k < e->range.nset; k++)
			assert_true(per_value[k] >= n / e->range.nset);
		il_ens_values(sp, n, 1, n + 1 + 2 * j, vals);
		assert_true(vals[j] == sp->p[j].lo);
		il_ens_values(sp, n, 1, n + 2 + 2 * j, vals);
		assert_true(vals[j] == sp->p[j].hi);
		assert_true(vals[(j + 1) % sp->k] == sp->p[(j + 1) % sp->k].nominal);
	}
	free(plat);
	free(sp);
}

/* Whether @sp varies the number the ensemble calls @name. */
static bool space_has(const struct il_ens_space *sp, const char *name)
{
	for (int i = 0; i < sp->k; i++)
		if (!strcmp(sp->p[i].name, name))
			return true;
	return false;
}

/*
 * fio's bg_hz replaces the default background with a timer-only one: the background's rate
 * still scales it, its shape (bursts, interrupts, companions) is not in play (replaced_by).
 */
static void test_ensemble_replaced_mechanism(void **state)
{
	struct il_platform *plat = malloc(sizeof(*plat));
	struct il_ens_space *sp = malloc(sizeof(*sp));
	const char *shape[] = { "fio.bg_burst_pct", "fio.bg_irq_hz", "fio.bg_pair_pct" };

	(void)state;
	space_of("fio:device=nvme", plat, sp);
	assert_true(space_has(sp, "fio.bg_rate_pct"));
	for (size_t i = 0; i < sizeof(shape) / sizeof(shape[0]); i++)
		assert_true(space_has(sp, shape[i]));
	space_of("fio:device=nvme,bg_hz=100", plat, sp);
	assert_true(space_has(sp, "fio.bg_rate_pct"));
	for (size_t i = 0; i < sizeof(shape) / sizeof(shape[0]); i++)
		assert_false(space_has(sp, shape[i]));
	free(plat);
	free(sp);
}

/* A power-only variant's energy computed from the nominal run is that of a run under it. */
static void test_derived_energy(void **state)
{
	struct il_platform *plat = malloc(sizeof(*plat)), *var = malloc(sizeof(*var));
	struct il_lab_spec spec = { 0 };
	struct il_lab_result res;
	struct il_verdict_run nominal, rerun, derived;
	struct il_error err;

	(void)state;
	assert_int_equal(il_platform_load("rk3588", plat, &err), 0);
	assert_int_equal(il_scn_parse("fio:device=sda", &spec.scn, &spec.args, &spec.common, &err), 0);
	spec.plat = plat;
	spec.preset = il_preset_find("menu-5");
	spec.duration_ns = 200000000ULL;
	spec.seed = 3;
	assert_int_equal(il_lab_run(&spec, &res), 0);
	il_verdict_run_of(&res, spec.duration_ns, &nominal);
	il_lab_result_free(&res);
	*var = *plat;
	for (int i = 0; i < var->nunc; i++)
		if (il_plat_field_is_power(var->unc[i].field))
			il_platform_param_set(var, &var->unc[i],
					      il_unc_range_hi(&var->unc[i].range,
							      il_platform_param(var, &var->unc[i])));
	spec.plat = var;
	assert_int_equal(il_lab_run(&spec, &res), 0);
	il_verdict_run_of(&res, spec.duration_ns, &rerun);
	il_lab_result_free(&res);
	assert_true(rerun.score == nominal.score && rerun.busy_ns == nominal.busy_ns &&
		    !memcmp(rerun.state_usage, nominal.state_usage, sizeof(rerun.state_usage)));
	assert_true(rerun.joules > nominal.joules * 1.5);
	il_verdict_joules(&nominal, var, &derived);
	assert_near(derived.joules, rerun.joules, rerun.joules * 1e-12);
	free(plat);
	free(var);
}

/* Row @it of @rows on the nominal @spec: its seed into *@seed, its model's hz; Return: 0/1. */
static int row_of(const struct il_lab_spec *spec, const struct il_ens_rows *rows, int it,
		  u64 *seed, u32 *hz)
{
	struct il_lab_spec v = *spec;
	struct il_platform buf;
	struct il_error err;
	int ret = il_ens_row_spec(&v, rows, it, &buf, &err);

	*seed = v.seed;
	*hz = v.plat->hz;
	return ret;
}

/*
 * compare, battery and sweep rows: no two rows run one simulation (the same seed and the same
 * numbers but power), which the summaries would count as two runs, while members that differ
 * share their seeds (common random numbers). rk3588's wakeup without a background has hz
 * (250 or 1000) and power numbers uncertain, pseries's only power numbers.
 */
static void test_row_seeds(void **state)
{
	const struct il_ens_rows rows = { 1, 3, 4 };
	struct il_platform *plat = malloc(sizeof(*plat));
	struct il_lab_spec spec = { 0 };
	struct il_error err;
	u64 seed[12];
	u32 hz[12];
	bool shared = false;

	(void)state;
	assert_int_equal(il_platform_load("rk3588", plat, &err), 0);
	assert_int_equal(il_scn_parse("wakeup", &spec.scn, &spec.args, &spec.common, &err), 0);
	spec.plat = plat;
	for (int it = 0; it < 12; it++)
		assert_int_equal(row_of(&spec, &rows, it, &seed[it], &hz[it]), 0);
	for (int a = 0; a < 12; a++)
		for (int b = a + 1; b < 12; b++) {
			assert_false(seed[a] == seed[b] && hz[a] == hz[b]);
			shared = shared || seed[a] == seed[b];
		}
	assert_true(shared); /* both hz values are in play: common seeds where they differ */
	assert_int_equal(row_of(&spec, &(struct il_ens_rows){ 1, 3, 0 }, 5, &seed[0], &hz[0]), 0);
	assert_int_equal(seed[0], 6); /* no ensemble: seed N + iter */
	assert_int_equal(il_platform_load("pseries", plat, &err), 0);
	for (int it = 0; it < 12; it++) {
		assert_int_equal(row_of(&spec, &rows, it, &seed[it], &hz[it]), 0);
		for (int b = 0; b < it; b++)
			assert_true(seed[b] != seed[it]);
		assert_true(seed[it] >= 1 && seed[it] <= 12);
	}
	free(plat);
}

static void test_cpus_needed(void **state)
{
	struct il_platform plat;
	struct il_error err;
	const struct il_scenario *scn;
	struct il_scn_args args;
	struct il_scn_common common;

	assert_int_equal(il_platform_load("rk3399", &plat, &err), 0);
	parse("pingpong:cpus=12", &scn, &args, &common);
	assert_int_equal(il_verdict_cpus_needed(scn, &common, &plat), 12);
	parse("pingpong", &scn, &args, &common);
	assert_int_equal(il_verdict_cpus_needed(scn, &common, &plat), 2);
	parse("idle", &scn, &args, &common);
	assert_int_equal(il_verdict_cpus_needed(scn, &common, &plat), plat.cpus);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_work_table_covers_every_scenario),
		cmocka_unit_test(test_energy_per_unit_of_work),
		cmocka_unit_test(test_metrics_and_directions),
		cmocka_unit_test(test_run_text_is_exact),
		cmocka_unit_test(test_judge_better_worse_same),
		cmocka_unit_test(test_noise_is_not_a_verdict),
		cmocka_unit_test(test_na_and_one_seed),
		cmocka_unit_test(test_change_from_zero),
		cmocka_unit_test(test_cpus_needed),
		cmocka_unit_test(test_robust_class),
		cmocka_unit_test(test_classify_cell),
		cmocka_unit_test(test_flips),
		cmocka_unit_test(test_ensemble_variants),
		cmocka_unit_test(test_ensemble_replaced_mechanism),
		cmocka_unit_test(test_derived_energy),
		cmocka_unit_test(test_row_seeds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
