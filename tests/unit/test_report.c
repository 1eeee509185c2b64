// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tests of lib/report: the SVG writer (escaping, text fitting, scales, linear and log
 * ticks and their labels, the log/linear choice, well-formed charts with hostile names),
 * telling the kind of a result from its JSON, and the data the charts are built from
 * (relative changes, miss ratios, state shares, sweep curves, histogram bins).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/chart.h"
#include "report/model.h"
#include "report/report.h"
#include "report/svg.h"
#include "util/array.h"

/* What @fn writes to a FILE, as a malloc'ed string. */
#define CAPTURE(buf, len, fn)                              \
	do {                                               \
		FILE *mem_ = open_memstream(&(buf), &(len)); \
		assert_non_null(mem_);                     \
		fn;                                        \
		fclose(mem_);                              \
	} while (0)

static void test_escape(void **state)
{
	char *buf = NULL;
	size_t len = 0;

	CAPTURE(buf, len, il_xml_escape(mem_, "a<b>&\"c\"'d\te\x01" "f"));
	assert_string_equal(buf, "a&lt;b&gt;&amp;&quot;c&quot;&#39;d\te\xef\xbf\xbd" "f");
	free(buf);
	buf = NULL;
	CAPTURE(buf, len, il_xml_escape(mem_, "\xc2\xb5s C1E"));
	assert_string_equal(buf, "\xc2\xb5s C1E"); /* UTF-8 passes through */
	free(buf);
}

static void test_text_fit(void **state)
{
	char buf[64];

	assert_true(fabs(il_text_width("abcdefghij", 10) - 60) < 1e-9);
	/* Code points, not bytes: "µs" is two. */
	assert_true(fabs(il_text_width("\xc2\xb5s", 10) - 12) < 1e-9);
	assert_string_equal(il_text_fit("short", 100, 10, buf, sizeof(buf)), "short");
	/* 5 characters of room: 4 of the text and the ellipsis. */
	assert_string_equal(il_text_fit("abcdefghij", 30, 10, buf, sizeof(buf)), "abcd\xe2\x80\xa6");
	/* Never cut inside a code point. */
	assert_string_equal(il_text_fit("\xc2\xb5\xc2\xb5\xc2\xb5\xc2\xb5", 18, 10, buf, sizeof(buf)),
			    "\xc2\xb5\xc2\xb5\xe2\x80\xa6");
}

static void assert_ticks(const struct il_ticks *t, const double *want, int n)
{
	assert_int_equal(t->n, n);
	for (int i = 0; i < n; i++)
		assert_true(fabs(t->v[i] - want[i]) <= 1e-9 * fmax(1, fabs(want[i])));
}

static void test_ticks_linear(void **state)
{
	static const double pct[] = { 0, 20, 40, 60, 80, 100 };
	static const double neg[] = { -5, 0, 5, 10, 15 };
	static const double small[] = { 0.001, 0.002, 0.003, 0.004, 0.005 };
	struct il_ticks t;
	char buf[32];

	il_ticks_linear(0, 97, 5, &t);
	assert_ticks(&t, pct, 6);
	assert_true(t.lo == 0 && t.hi == 100 && t.step == 20);
	assert_string_equal(il_tick_label(40, &t, buf, sizeof(buf)), "40");
	il_ticks_linear(-3.2, 12, 6, &t);
	assert_ticks(&t, neg, 5);
	assert_true(t.v[1] == 0 && !signbit(t.v[1])); /* a real 0, not -0 */
	assert_string_equal(il_tick_label(t.v[1], &t, buf, sizeof(buf)), "0");
	il_ticks_linear(0.0012, 0.0047, 6, &t);
	assert_ticks(&t, small, 5);
	assert_string_equal(il_tick_label(0.003, &t, buf, sizeof(buf)), "0.003");
	/* Nothing to span: [0, 1]. */
	il_ticks_linear(0, 0, 5, &t);
	assert_true(t.lo == 0 && t.hi == 1 && t.n >= 2);
	/* Large values in thousands. */
	il_ticks_linear(0, 40000, 4, &t);
	assert_string_equal(il_tick_label(20000, &t, buf, sizeof(buf)), "20k");
	assert_string_equal(il_tick_label(0, &t, buf, sizeof(buf)), "0");
}

static void test_ticks_log(void **state)
{
	static const double wakeup[] = { 5, 10, 20, 50, 100, 200, 500 };
	static const double decades[] = { 1, 10, 100, 1e3, 1e4, 1e5, 1e6 };
	struct il_ticks t;
	char buf[32];

	/* The seeds' 5..500 µs with the padding lines.c adds: 1, 2, 5 per decade. */
	il_ticks_log(5 / 1.15, 500 * 1.15, &t);
	assert_ticks(&t, wakeup, 7);
	assert_true(t.step == 0);
	assert_string_equal(il_tick_label(200, &t, buf, sizeof(buf)), "200");
	/* Six decades: powers of ten only. */
	il_ticks_log(1, 1e6, &t);
	assert_ticks(&t, decades, 7);
	assert_string_equal(il_tick_label(1e6, &t, buf, sizeof(buf)), "1M");
	assert_string_equal(il_tick_label(1e4, &t, buf, sizeof(buf)), "10k");
	assert_string_equal(il_tick_label(1e3, &t, buf, sizeof(buf)), "1000");
	/* Within one 1-2-5 step: the ends are marked. */
	il_ticks_log(3, 4, &t);
	assert_int_equal(t.n, 2);
	assert_true(t.v[0] == 3 && t.v[1] == 4);
}

static void test_scale_and_log_choice(void **state)
{
	struct il_scale lin = { 0, 100, 0, 200, false }, lg = { 1, 100, 0, 100, true };
	static const double sweep[] = { 5, 10, 30, 100, 500 };
	static const double with_zero[] = { 0, 5, 500 };
	static const double narrow[] = { 100, 120, 150 };
	const double with_nan[] = { NAN, 2, 2000 };

	assert_true(fabs(il_scale_map(&lin, 50) - 100) < 1e-9);
	assert_true(fabs(il_scale_map(&lin, 150) - 200) < 1e-9); /* clamped */
	assert_true(fabs(il_scale_map(&lg, 10) - 50) < 1e-9);
	assert_true(il_want_log(sweep, 5, 20));
	assert_false(il_want_log(with_zero, 3, 20)); /* 0 has no place on a log axis */
	assert_false(il_want_log(narrow, 3, 20));
	assert_true(il_want_log(with_nan, 3, 1000));
}

/* A bar chart whose every name needs escaping is well-formed: no raw markup in it. */
static void test_bars_svg_escapes(void **state)
{
	struct il_bars b;
	char *buf = NULL;
	size_t len = 0;
	int ret = -1;

	assert_int_equal(il_bars_init(&b, 1, 2, 1), 0);
	b.title = strdup("A <b>&amp; \"title\"");
	b.cat[0] = strdup("cat<1>\nscore & more");
	b.ser[0] = strdup("menu<x>");
	b.ser[1] = strdup("teo'&");
	b.ser_color[0] = strdup("#4e79a7");
	b.ser_color[1] = strdup("#f28e2b");
	b.unit = strdup("%");
	*il_bars_at(&b, 0, 0, 0) = 12.5;
	*il_bars_at(&b, 0, 1, 0) = -3;
	b.value_labels = true;
	b.sign = true;
	b.prec = 1;
	CAPTURE(buf, len, ret = il_bars_svg(mem_, &b));
	assert_int_equal(ret, 0);
	assert_non_null(strstr(buf, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
	assert_non_null(strstr(buf, "A &lt;b&gt;&amp;amp; &quot;title&quot;"));
	assert_non_null(strstr(buf, "cat&lt;1&gt;"));
	assert_non_null(strstr(buf, "score &amp; more"));
	assert_non_null(strstr(buf, "menu&lt;x&gt;"));
	assert_non_null(strstr(buf, "teo&#39;&amp;"));
	assert_non_null(strstr(buf, "+12.5%"));
	assert_non_null(strstr(buf, "-3.0%"));
	assert_null(strstr(buf, "<b>"));
	assert_null(strstr(buf, "<x>"));
	assert_string_equal(buf + len - 7, "</svg>\n");
	free(buf);
	/* Nothing to draw: no chart. */
	*il_bars_at(&b, 0, 0, 0) = NAN;
	*il_bars_at(&b, 0, 1, 0) = NAN;
	buf = NULL;
	CAPTURE(buf, len, ret = il_bars_svg(mem_, &b));
	assert_int_equal(ret, -1);
	assert_int_equal(len, 0);
	free(buf);
	il_bars_free(&b);
}

/* A clipped chart cuts one far outlier at the axis end and still prints its exact value. */
static void test_bars_clip_outlier(void **state)
{
	static const double v[] = { -20, 5, 12, 30, 27000 };
	const int n = (int)ARRAY_SIZE(v);
	struct il_bars b;
	char *buf = NULL;
	size_t len = 0;
	int ret = -1;

	assert_int_equal(il_bars_init(&b, n, 1, 1), 0);
	for (int c = 0; c < n; c++) {
		char name[16];

		snprintf(name, sizeof(name), "case %d", c);
		b.cat[c] = strdup(name);
		*il_bars_at(&b, c, 0, 0) = v[c];
	}
	b.title = strdup("relative");
	b.ser[0] = strdup("oracle");
	b.ser_color[0] = strdup("#4e79a7");
	b.unit = strdup("%");
	b.value_labels = true;
	b.sign = true;
	b.prec = 1;
	CAPTURE(buf, len, ret = il_bars_svg(mem_, &b));
	assert_int_equal(ret, 0);
	assert_null(strstr(buf, "\xc2\xbb")); /* not clipped: no cut marker */
	assert_non_null(strstr(buf, ">30k<"));     /* the axis reaches the outlier */
	free(buf);
	buf = NULL;
	b.clip = true;
	CAPTURE(buf, len, ret = il_bars_svg(mem_, &b));
	assert_int_equal(ret, 0);
	assert_non_null(strstr(buf, "\xc2\xbb +27000.0%")); /* cut, value exact */
	assert_null(strstr(buf, ">30k<"));                    /* no tick out there */
	assert_non_null(strstr(buf, "+30.0%"));
	free(buf);
	il_bars_free(&b);
}

static void test_score_better(void **state)
{
	assert_int_equal(il_score_better("iops"), 1);
	assert_int_equal(il_score_better("pids_per_s"), 1);
	assert_int_equal(il_score_better("wakeup_us"), -1);
	assert_int_equal(il_score_better("us_per_loop"), -1);
	assert_int_equal(il_score_better("late_pct"), -1);
	assert_int_equal(il_score_better("agreement"), 0);
	assert_true(isnan(il_rel_change(1, 0)));
	assert_true(fabs(il_rel_change(12, 10) - 20) < 1e-9);
	assert_true(fabs(il_rel_change(-12, -10) + 20) < 1e-9);
}

#ifdef HAVE_JANSSON

/* A compare result: two scenarios' devices in one table, menu twice (two iterations). */
static const char compare_json[] =
	"{\"wakeup\": ["
	"{\"device\": \"pipe-50us\", \"gov\": \"menu\", \"iter\": 0, \"wakeup_us\": 10.0, \"idles\": 1000,"
	" \"idle_misses\": 30, \"idle_miss_ratio\": 0.03, \"belows\": 10, \"aboves\": 20, \"joules\": 1.0,"
	" \"watts\": 2.0, \"usage_POLL\": 100, \"usage_C1\": 900},"
	"{\"device\": \"pipe-50us\", \"gov\": \"menu\", \"iter\": 1, \"wakeup_us\": 14.0, \"idles\": 3000,"
	" \"idle_misses\": 10, \"idle_miss_ratio\": 0.003, \"belows\": 10, \"aboves\": 0, \"joules\": 3.0,"
	" \"watts\": 2.0, \"usage_POLL\": 300, \"usage_C1\": 2700},"
	"{\"device\": \"pipe-50us\", \"gov\": \"teo\", \"iter\": 0, \"wakeup_us\": 9.0, \"idles\": 2000,"
	" \"idle_misses\": 0, \"idle_miss_ratio\": 0.0, \"belows\": 0, \"aboves\": 0, \"joules\": null,"
	" \"watts\": null, \"usage_POLL\": 0, \"usage_C1\": 2000},"
	"{\"device\": \"timer-50us\", \"gov\": \"teo\", \"iter\": 0, \"wakeup_us\": 0.0, \"idles\": 10,"
	" \"idle_misses\": 1, \"idle_miss_ratio\": 0.1, \"belows\": 1, \"aboves\": 0, \"joules\": 1.0,"
	" \"watts\": 1.0, \"usage_POLL\": 5, \"usage_C1\": 5},"
	"{\"device\": \"timer-50us\", \"gov\": \"menu\", \"iter\": 0, \"wakeup_us\": 0.0, \"idles\": 10,"
	" \"idle_misses\": 0, \"idle_miss_ratio\": 0.0, \"belows\": 0, \"aboves\": 0, \"joules\": 1.0,"
	" \"watts\": 1.0, \"usage_POLL\": 5, \"usage_C1\": 5}"
	"]}";

static const char run_json[] =
	"{\"summary\": [{\"device\": \"nvme0n1\", \"gov\": \"teo\", \"iter\": 0, \"iops\": 100.0, \"idles\": 10,"
	" \"idle_misses\": 0, \"idle_miss_ratio\": 0.0, \"belows\": 0, \"aboves\": 0, \"joules\": 1.0,"
	" \"watts\": 1.0, \"usage_WFI\": 6, \"usage_deep\": 4}],"
	" \"run\": [{\"key\": \"platform\", \"value\": \"rk3588\"}, {\"key\": \"scenario\", \"value\": \"fio\"},"
	" {\"key\": \"params\", \"value\": \"device=nvme\"}],"
	" \"states\": [{\"state\": \"WFI\", \"usage\": 6, \"time_s\": 0.25},"
	" {\"state\": \"deep\", \"usage\": 4, \"time_s\": 0.75}]}";

static const char sweep_json[] =
	"{\"sweep\": ["
	"{\"case\": 0, \"governor\": \"menu\", \"platform\": \"p\", \"mode\": \"pipe\", \"interval_us\": 100,"
	" \"iter\": 0, \"seed\": 1, \"device\": \"d\", \"wakeup_us\": 1.0, \"idles\": 100, \"idle_misses\": 50,"
	" \"idle_miss_ratio\": 0.5, \"belows\": 10, \"aboves\": 40, \"joules\": 1.0, \"watts\": 1.0},"
	"{\"case\": 1, \"governor\": \"menu\", \"platform\": \"p\", \"mode\": \"pipe\", \"interval_us\": 100,"
	" \"iter\": 1, \"seed\": 2, \"device\": \"d\", \"wakeup_us\": 3.0, \"idles\": 300, \"idle_misses\": 0,"
	" \"idle_miss_ratio\": 0.0, \"belows\": 0, \"aboves\": 0, \"joules\": 1.0, \"watts\": 1.0},"
	"{\"case\": 2, \"governor\": \"teo\", \"platform\": \"p\", \"mode\": \"pipe\", \"interval_us\": 5,"
	" \"iter\": 0, \"seed\": 1, \"device\": \"d\", \"wakeup_us\": 2.0, \"idles\": 100, \"idle_misses\": 1,"
	" \"idle_miss_ratio\": 0.01, \"belows\": 0, \"aboves\": 1, \"joules\": 1.0, \"watts\": 1.0},"
	"{\"case\": 3, \"governor\": \"menu\", \"platform\": \"p\", \"mode\": \"timer\", \"interval_us\": 500,"
	" \"iter\": 0, \"seed\": 1, \"device\": \"d\", \"wakeup_us\": 2.0, \"idles\": 100, \"idle_misses\": 2,"
	" \"idle_miss_ratio\": 0.02, \"belows\": 2, \"aboves\": 0, \"joules\": 1.0, \"watts\": 1.0}"
	"]}";

static const char stats_json[] =
	"{\"trace\": [{\"key\": \"path\", \"value\": \"/x/vm.trace\"}],"
	" \"states\": [{\"cpu\": 0, \"state\": 0, \"name\": \"POLL\", \"entries\": 2, \"total_us\": 10.0,"
	" \"above\": 0, \"below\": 1}, {\"cpu\": 0, \"state\": 1, \"name\": \"C1\", \"entries\": 8,"
	" \"total_us\": 990.0, \"above\": 2, \"below\": 0}],"
	" \"histogram\": [{\"cpu\": 0, \"state\": 1, \"name\": \"C1\", \"from_us\": 4, \"to_us\": 8, \"entries\": 5},"
	" {\"cpu\": 0, \"state\": 1, \"name\": \"C1\", \"from_us\": 64, \"to_us\": 128, \"entries\": 3},"
	" {\"cpu\": 0, \"state\": 0, \"name\": \"POLL\", \"from_us\": 8, \"to_us\": 16, \"entries\": 2}]}";

static void load(struct il_rpt_input *in, const char *name, const char *text)
{
	struct il_error err = { 0 };

	assert_int_equal(il_rpt_input_parse(in, name, text, &err), 0);
}

static void test_detect(void **state)
{
	static const struct { const char *json; enum il_rpt_kind kind; } ok[] = {
		{ compare_json, IL_RPT_COMPARE },
		{ run_json, IL_RPT_RUN },
		{ sweep_json, IL_RPT_SWEEP },
		{ stats_json, IL_RPT_STATS },
		{ "{\"battery\": [{\"key\": \"seed\", \"value\": \"1\"}], \"x y\": [{\"device\": \"d\", \"gov\": \"g\","
		  " \"iter\": 0, \"s\": 1, \"idles\": 1, \"idle_misses\": 0, \"belows\": 0, \"aboves\": 0}]}",
		  IL_RPT_BATTERY },
		{ "{\"trace\": [{\"key\": \"path\", \"value\": \"t\"}], \"governors\": [{\"governor\": \"menu\","
		  " \"idles\": 1, \"agree_pct\": 50.0}]}",
		  IL_RPT_REPLAY },
	};
	static const char *const bad[] = {
		"[1, 2]", "{}", "{\"summary\": [{\"device\": \"d\"}]}", "{\"x\": 1}",
		"{\"wakeup\": [{\"device\": \"d\", \"gov\": 3, \"iter\": 0, \"idles\": 1, \"idle_misses\": 0,"
		" \"belows\": 0, \"aboves\": 0}]}",
	};
	struct il_rpt_input in;
	struct il_error err = { 0 };

	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		load(&in, "x.json", ok[i].json);
		assert_int_equal(in.kind, ok[i].kind);
		il_rpt_input_free(&in);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_int_equal(il_rpt_input_parse(&in, "x.json", bad[i], &err), -1);
		assert_int_equal(errno, EINVAL);
		assert_non_null(strstr(err.msg, "not"));
	}
	assert_int_equal(il_rpt_input_parse(&in, "x.json", "{\"a\": [", &err), -1);
	assert_non_null(strstr(err.msg, "not JSON: line 1"));
}

static void test_model_groups(void **state)
{
	struct il_rpt_input in[2];
	struct il_model m;
	struct il_gov_mean mean;
	struct il_error err = { 0 };

	load(&in[0], "cmp.json", compare_json);
	load(&in[1], "run.json", run_json);
	assert_int_equal(il_model_build(&m, in, 2, &err), 0);
	assert_int_equal(m.ngroups, 3);
	assert_string_equal(m.groups[0].title, "wakeup \xc2\xb7 pipe-50us");
	assert_string_equal(m.groups[1].title, "wakeup \xc2\xb7 timer-50us");
	assert_string_equal(m.groups[2].title, "rk3588 fio \xc2\xb7 nvme0n1");
	assert_string_equal(m.groups[0].score, "wakeup_us");
	assert_string_equal(m.groups[2].score, "iops");
	assert_int_equal(m.groups[0].nstates, 2);
	assert_string_equal(m.groups[0].states[1], "C1");
	/* Governors in the order they first appear. */
	assert_int_equal(m.ngov, 2);
	assert_string_equal(m.gov[0], "menu");
	assert_string_equal(m.gov[1], "teo");
	/* menu's two iterations averaged; teo's unknown energy stays unknown. */
	assert_int_equal(il_group_mean(&m.groups[0], "menu", &mean), 2);
	assert_true(fabs(mean.score - 12) < 1e-9 && fabs(mean.joules - 2) < 1e-9);
	assert_int_equal(il_group_mean(&m.groups[0], "teo", &mean), 1);
	assert_true(isnan(mean.joules));
	/* A run's idle time per state comes from its states table. */
	assert_true(fabs(m.groups[2].rows[0].idle_s[1] - 0.75) < 1e-9);
	il_model_free(&m);
	il_rpt_input_free(&in[0]);
	il_rpt_input_free(&in[1]);
}

static void test_relative(void **state)
{
	struct il_rpt_input in;
	struct il_model m;
	struct il_bars b;
	struct il_rel_summary r;
	struct il_error err = { 0 };

	load(&in, "cmp.json", compare_json);
	assert_int_equal(il_model_build(&m, &in, 1, &err), 0);
	assert_string_equal(il_pick_baseline(&m, NULL, &err), "menu");
	assert_string_equal(il_pick_baseline(&m, "teo", &err), "teo");
	assert_null(il_pick_baseline(&m, "ladder", &err));
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(err.msg, "no governor 'ladder'"));
	assert_non_null(strstr(err.msg, "menu teo"));

	/* teo 9 against menu's mean 12: -25 %; the timer device has a score of 0: n/a. */
	assert_int_equal(il_chart_relative(&m, "menu", &b), 0);
	assert_int_equal(b.ncat, 1);
	assert_int_equal(b.nser, 1);
	assert_string_equal(b.ser[0], "teo");
	assert_string_equal(b.cat[0], "wakeup \xc2\xb7 pipe-50us\nwakeup_us \xe2\x86\x93");
	assert_true(fabs(*il_bars_at(&b, 0, 0, 0) + 25) < 1e-9);
	il_bars_free(&b);
	assert_int_equal(il_rel_summary(&m, "menu", &r), 0);
	assert_int_equal(r.nscore, 1);
	assert_string_equal(r.score[0], "wakeup_us");
	assert_int_equal(r.n[0], 1);
	assert_true(fabs(r.avg[0] + 25) < 1e-9 && fabs(r.max[0] + 25) < 1e-9 && fabs(r.min[0] + 25) < 1e-9);
	il_rel_summary_free(&r);
	il_model_free(&m);
	il_rpt_input_free(&in);
}

static void test_miss_energy_residency(void **state)
{
	struct il_rpt_input in[2];
	struct il_model m;
	struct il_bars b, *charts;
	int n;
	struct il_error err = { 0 };

	load(&in[0], "cmp.json", compare_json);
	load(&in[1], "stats.json", stats_json);
	assert_int_equal(il_model_build(&m, in, 2, &err), 0);

	/* menu: (10 + 10) belows and 20 aboves over 4000 idles; the trace's CPU: 1 + 2 of 10. */
	assert_int_equal(il_chart_miss(&m, &b), 0);
	assert_int_equal(b.ncat, 3);
	assert_int_equal(b.nseg, 2);
	assert_string_equal(b.ser[0], "menu");
	assert_true(fabs(*il_bars_at(&b, 0, 0, 0) - 0.5) < 1e-9);
	assert_true(fabs(*il_bars_at(&b, 0, 0, 1) - 0.5) < 1e-9);
	assert_string_equal(b.cat[2], "trace vm.trace");
	assert_string_equal(b.ser[2], "cpu 0");
	assert_true(fabs(*il_bars_at(&b, 2, 2, 0) - 10) < 1e-9);
	assert_true(fabs(*il_bars_at(&b, 2, 2, 1) - 20) < 1e-9);
	il_bars_free(&b);

	/* Energy: the trace has none; teo's unknown joules leave no bar. */
	assert_int_equal(il_chart_energy(&m, false, &b), 0);
	assert_int_equal(b.ncat, 2);
	assert_true(fabs(*il_bars_at(&b, 0, 0, 0) - 2) < 1e-9);
	assert_true(isnan(*il_bars_at(&b, 0, 1, 0)));
	il_bars_free(&b);

	/* Entries per state: POLL 400 of menu's 4000; one chart per state table. */
	assert_int_equal(il_chart_residency(&m, false, &charts, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(charts[0].ncat, 3);
	assert_true(fabs(*il_bars_at(&charts[0], 0, 0, 0) - 10) < 1e-9);
	assert_true(fabs(*il_bars_at(&charts[0], 0, 0, 1) - 90) < 1e-9);
	assert_true(charts[0].axis_max == 100);
	il_charts_free_bars(charts, n);
	/* Idle time per state: only the trace has it here (1 % and 99 %). */
	assert_int_equal(il_chart_residency(&m, true, &charts, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(charts[0].ncat, 1);
	assert_true(fabs(*il_bars_at(&charts[0], 0, 0, 0) - 1) < 1e-9);
	assert_true(fabs(*il_bars_at(&charts[0], 0, 0, 1) - 99) < 1e-9);
	il_charts_free_bars(charts, n);

	il_model_free(&m);
	il_rpt_input_free(&in[0]);
	il_rpt_input_free(&in[1]);
}

static void test_sweep_curves(void **state)
{
	static const char *const score[] = { "score", NULL };
	static const char *const bad_metric[] = { "nope", NULL };
	struct il_sweep_opts o = { NULL, NULL };
	struct il_rpt_input in;
	struct il_model m;
	struct il_lines *l;
	const char *params[2];
	int n;
	struct il_error err = { 0 };

	load(&in, "sw/sweep.json", sweep_json);
	assert_int_equal(il_model_build(&m, &in, 1, &err), 0);
	assert_int_equal(il_sweep_params(json_object_get(in.root, "sweep"), params, 2), 2);
	assert_string_equal(params[0], "mode");
	assert_string_equal(params[1], "interval_us");

	/* x: interval_us (mode is not numeric); per mode: above, below. */
	assert_int_equal(il_chart_sweep(&m, &in, &o, &l, &n, &err), 0);
	assert_int_equal(n, 4);
	assert_string_equal(l[0].title, "Above % against interval_us, mode=pipe");
	assert_string_equal(l[1].title, "Below % against interval_us, mode=pipe");
	assert_string_equal(l[2].title, "Above % against interval_us, mode=timer");
	assert_int_equal(l[0].npt, 2);
	assert_true(l[0].x[0] == 5 && l[0].x[1] == 100); /* ascending */
	assert_int_equal(l[0].nser, 2);
	assert_string_equal(l[0].ser[0], "menu");
	/* menu at 100 µs: 40 aboves over 100 + 300 idles. */
	assert_true(fabs(l[0].y[1] - 10) < 1e-9);
	assert_true(isnan(l[0].y[0]));            /* menu has no 5 µs point */
	assert_true(fabs(l[0].y[2] - 1) < 1e-9);  /* teo at 5 µs */
	assert_true(l[0].xlog);                   /* 5..100 spans 20 times: log */
	il_charts_free_lines(l, n);

	/* The score, averaged over the iterations: (1 + 3) / 2. */
	o.metric = score;
	assert_int_equal(il_chart_sweep(&m, &in, &o, &l, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(l[0].ylabel, "wakeup_us (\xc2\xb5s)");
	assert_true(fabs(l[0].y[1] - 2) < 1e-9);
	il_charts_free_lines(l, n);

	o.metric = bad_metric;
	assert_int_equal(il_chart_sweep(&m, &in, &o, &l, &n, &err), -1);
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(err.msg, "no metric 'nope'"));
	o.metric = NULL;
	o.x = "mode";
	assert_int_equal(il_chart_sweep(&m, &in, &o, &l, &n, &err), -1);
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(err.msg, "not numeric"));
	o.x = "work_us";
	assert_int_equal(il_chart_sweep(&m, &in, &o, &l, &n, &err), -1);
	assert_non_null(strstr(err.msg, "no swept parameter 'work_us'"));

	il_model_free(&m);
	il_rpt_input_free(&in);
}

static void test_histogram_bins(void **state)
{
	struct il_rpt_input in;
	struct il_cols c;

	load(&in, "stats.json", stats_json);
	/* Bins 4, 8, 64 with the empty 16 and 32 put back: 4 8 16 32 64 128 as edges. */
	assert_int_equal(il_chart_histogram(&in, &c), 0);
	assert_int_equal(c.ncat, 5);
	assert_string_equal(c.edge[0], "4");
	assert_string_equal(c.edge[2], "16");
	assert_string_equal(c.edge[5], "128");
	assert_int_equal(c.nser, 2);
	assert_string_equal(c.ser[0], "C1");
	assert_true(c.v[0 * 2 + 0] == 5);
	assert_true(c.v[1 * 2 + 1] == 2);
	assert_true(isnan(c.v[2 * 2 + 0]));
	assert_true(c.v[4 * 2 + 0] == 3);
	assert_string_equal(c.title, "Residency histogram: vm.trace");
	il_cols_free(&c);
	il_rpt_input_free(&in);
}

/* The whole page: offline, well-formed enough to end, numbers as the input has them. */
static void test_page(void **state)
{
	struct il_page *p = il_page_new();
	struct il_page_opts o = { "A & B", "teo", NULL, NULL };
	struct il_error err = { 0 };
	char *buf = NULL, *at;
	size_t len = 0;
	int ret = -1;

	assert_non_null(p);
	assert_int_equal(il_page_add(p, "cmp.json", compare_json, &err), 0);
	assert_int_equal(il_page_add(p, "bad.json", "{\"x\": 1}", &err), -1);
	assert_string_equal(il_page_kind(p, 0), "compare");
	CAPTURE(buf, len, ret = il_page_write(p, &o, mem_, &err));
	assert_int_equal(ret, 0);
	assert_non_null(strstr(buf, "<title>A &amp; B</title>"));
	assert_non_null(strstr(buf, "Relative to teo"));
	assert_non_null(strstr(buf, "data-col=\"wakeup_us\">14</td>"));
	assert_non_null(strstr(buf, "data-col=\"joules\">-</td>"));
	assert_string_equal(buf + len - 8, "</html>\n");
	/* No script, nothing loaded: http only in the two namespaces. */
	assert_null(strstr(buf, "<script"));
	assert_null(strstr(buf, "src="));
	for (at = strstr(buf, "http"); at; at = strstr(at + 1, "http"))
		assert_true(!strncmp(at, "http://www.w3.org/2000/svg\"", 27) ||
			    !strncmp(at, "http://www.w3.org/1999/xhtml\"", 29));
	free(buf);

	o.baseline = "ladder";
	buf = NULL;
	CAPTURE(buf, len, ret = il_page_write(p, &o, mem_, &err));
	assert_int_equal(ret, -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(len, 0); /* nothing written before the error */
	free(buf);
	il_page_free(p);
}
#endif /* HAVE_JANSSON */

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_text_fit),
		cmocka_unit_test(test_ticks_linear),
		cmocka_unit_test(test_ticks_log),
		cmocka_unit_test(test_scale_and_log_choice),
		cmocka_unit_test(test_bars_svg_escapes),
		cmocka_unit_test(test_bars_clip_outlier),
		cmocka_unit_test(test_score_better),
#ifdef HAVE_JANSSON
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_model_groups),
		cmocka_unit_test(test_relative),
		cmocka_unit_test(test_miss_energy_residency),
		cmocka_unit_test(test_sweep_curves),
		cmocka_unit_test(test_histogram_bins),
		cmocka_unit_test(test_page),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
