// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mutation tests of kgov's input generator on our own ports: one-line changes to lib/gov/GOV.c
 * that a default `kgov check` (seed 1, 10^6 decisions, random platforms) must tell from the
 * unmodified port.
 *
 * test_kgov_mutants.c mutates Debian 6.12's governor files, but the newest code paths (teo's
 * 6.19 rework, 7.0 and 7.1, menu-7.1's SAFE_TIMER_RANGE_NS) are in no tree we may use at test
 * time. The ports are bit-exact against those upstream files (kgov check, golden vectors), so
 * a mutant of a port reaches exactly the corner a mutant of the upstream file would: the check
 * here runs the unmodified preset where `kgov check` runs the upstream file.
 *
 * The mutants are listed in tests/unit/port_mutants.list. The Makefile makes each one with
 * sed (tests/unit/port-mutant.sh fails the build when a sed does not change exactly one line),
 * compiles it with the file's preset array renamed to il_presets_GOV_mut_ID and links it here;
 * the generated port_mutants.h lists them. No kernel file is involved, so nothing is skipped.
 *
 * Item 2 of the test: when the check stops on the index or stop_tick, the report shows the
 * vars after that select(), not those of the comparison before it; checked against a solo run
 * of the unmodified preset (il_kgov_run()), which sees the same stream.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "governor.h"
#include "kgov/kgov.h"
#include "util/array.h"

#define STEPS 1000000ULL

/* The preset arrays of the mutants (the renamed il_presets_GOV of each mutated copy). */
#define PORT_MUTANT(id, gov, preset, what) \
	extern const struct il_preset il_presets_##gov##_mut_##id[];
#include "port_mutants.h"
#undef PORT_MUTANT

struct port_mutant {
	const char *id;
	const struct il_preset *presets; /* the mutant's preset array */
	const char *preset;              /* the preset checked: unmodified against mutated */
	const char *what;
};

static const struct port_mutant mutants[] = {
#define PORT_MUTANT(id, gov, preset, what) { #id, il_presets_##gov##_mut_##id, preset, what },
#include "port_mutants.h"
#undef PORT_MUTANT
};

#define NMUTANTS (ARRAY_SIZE(mutants))

/* The mutant whose report item 2 is checked on: it differs first in the index. */
#define REPORT_MUTANT "teo71_keep_tick_gt"

static const struct port_mutant *mutant_named(const char *id)
{
	for (size_t i = 0; i < NMUTANTS; i++)
		if (!strcmp(mutants[i].id, id))
			return &mutants[i];
	fail_msg("no mutant %s in tests/unit/port_mutants.list", id);
	return NULL;
}

/* @name in a preset array ending in { 0 } */
static const struct il_preset *preset_in(const struct il_preset *presets, const char *name)
{
	for (const struct il_preset *p = presets; p->name; p++)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

/* The unmodified preset and the mutant's copy of it. */
static void mutant_pair(const struct port_mutant *m, const struct il_preset **orig,
			const struct il_preset **mut)
{
	*orig = il_preset_find(m->preset);
	*mut = preset_in(m->presets, m->preset);
	if (!*orig || !*mut)
		fail_msg("mutant %s: no preset %s", m->id, m->preset);
	/* the mutant is a separate copy: its own governor ops and version switches */
	assert_ptr_not_equal(*orig, *mut);
	assert_ptr_not_equal((*orig)->gov, (*mut)->gov);
	assert_string_equal((*orig)->upstream, (*mut)->upstream);
}

/* `kgov check` of @a against @b with the defaults. Return: 0 no mismatch, 1 a mismatch. */
static int default_check(const struct il_preset *a, const struct il_preset *b,
			 struct il_kgov_check_result *res)
{
	struct il_kgov_check_opts o = { .seed = 1, .steps = STEPS, .check_reflect = true };
	struct il_error err = { 0 };
	int ret = il_kgov_check(a, b, &o, res, &err);

	if (ret < 0)
		fail_msg("check of %s: %s", b->name, err.msg);
	return ret;
}

/* The control: every preset the mutants are checked on agrees with itself. */
static void test_unmodified_ports_agree(void **state)
{
	for (size_t i = 0; i < NMUTANTS; i++) {
		const struct il_preset *p = il_preset_find(mutants[i].preset);
		struct il_kgov_check_result res;
		bool seen = false;

		for (size_t k = 0; k < i; k++)
			seen |= !strcmp(mutants[k].preset, mutants[i].preset);
		if (seen)
			continue;
		assert_non_null(p);
		if (default_check(p, p, &res))
			fail_msg("%s against itself: %s", p->name, res.first.what);
		assert_true(res.decisions == STEPS);
		il_kgov_check_result_free(&res);
	}
}

static void test_every_mutant_is_caught(void **state)
{
	int survivors = 0;

	assert_true(NMUTANTS > 0);
	for (size_t i = 0; i < NMUTANTS; i++) {
		const struct port_mutant *m = &mutants[i];
		const struct il_preset *orig, *mut;
		struct il_kgov_check_result res;

		mutant_pair(m, &orig, &mut);
		if (default_check(orig, mut, &res)) {
			print_message("%s (%s, %s): caught after %llu decisions, %s: %s\n", m->id,
				      m->preset, m->what, res.decisions, res.first.phase,
				      res.first.what);
		} else {
			print_error("%s (%s, %s): SURVIVED %llu decisions\n", m->id, m->preset,
				    m->what, res.decisions);
			survivors++;
		}
		il_kgov_check_result_free(&res);
	}
	assert_int_equal(survivors, 0);
}

/* ---- item 2: the report of an index or stop_tick difference ------------------------------ */

struct captured {
	unsigned long long decision; /* 0-based: the select to capture */
	struct il_var before[IL_MAX_VARS]; /* after the step before it */
	int nbefore;
	struct il_var after[IL_MAX_VARS];  /* after that select() */
	int nafter;
	int idx;
	bool stop_tick;
	bool got_it;
};

static int capture_select(void *ctx, const struct il_kgov_step_view *v)
{
	struct captured *c = ctx;

	if (v->decision != c->decision)
		return 0;
	memcpy(c->after, v->vars, sizeof(*v->vars) * (size_t)v->nvars);
	c->nafter = v->nvars;
	c->idx = v->idx;
	c->stop_tick = v->stop_tick;
	c->got_it = true;
	return 1; /* enough */
}

static int capture_step_done(void *ctx, const struct il_kgov_step_view *v)
{
	struct captured *c = ctx;

	if (v->decision + 1 == c->decision) {
		memcpy(c->before, v->vars, sizeof(*v->vars) * (size_t)v->nvars);
		c->nbefore = v->nvars;
	}
	return 0;
}

/* The report's line of var @v in the upstream column (the port's value follows). */
static bool report_shows(const char *report, const struct il_var *v)
{
	char value[32], line[128];

	if (v->is_signed)
		snprintf(value, sizeof(value), "%lld", (long long)(s64)v->value);
	else
		snprintf(value, sizeof(value), "%llu", (unsigned long long)v->value);
	snprintf(line, sizeof(line), " %-34s %20s ", v->name, value);
	return strstr(report, line) != NULL;
}

static void test_report_shows_the_differing_step(void **state)
{
	const struct port_mutant *m = mutant_named(REPORT_MUTANT);
	struct il_kgov_observer obs = { capture_select, capture_step_done, NULL };
	struct il_kgov_check_opts o = { .seed = 1, .steps = STEPS, .check_reflect = true,
					.observer = &obs };
	const struct il_preset *orig, *mut;
	struct il_kgov_check_result res, solo;
	struct il_error err = { 0 };
	struct captured *cap = calloc(1, sizeof(*cap));
	char head[64];
	int changed = 0;

	assert_non_null(cap);
	mutant_pair(m, &orig, &mut);
	assert_int_equal(default_check(orig, mut, &res), 1);
	assert_string_equal(res.first.phase, "select");
	if (strncmp(res.first.what, "stop_tick:", 10) && strncmp(res.first.what, "index:", 6))
		fail_msg("%s differs first in %s, not in the index or stop_tick", m->id,
			 res.first.what);

	/* the same stream alone, up to that select (decision #N of the check is 0-based N - 1) */
	cap->decision = res.decisions - 1;
	obs.ctx = cap;
	assert_int_equal(il_kgov_run(orig, &o, &solo, &err), 1);
	il_kgov_check_result_free(&solo);
	assert_true(cap->got_it);
	snprintf(head, sizeof(head), "\n%-36s %20d ", "index", cap->idx);
	assert_non_null(strstr(res.first.report, head));
	snprintf(head, sizeof(head), "\n%-36s %20d ", "stop_tick", cap->stop_tick);
	assert_non_null(strstr(res.first.report, head));

	for (int i = 0; i < cap->nafter; i++) {
		const struct il_var *v = &cap->after[i];

		if (!report_shows(res.first.report, v))
			fail_msg("the report does not show %s as after this select():\n%s", v->name,
				 res.first.report);
		for (int k = 0; k < cap->nbefore; k++)
			if (!v->diag && !strcmp(cap->before[k].name, v->name) &&
			    cap->before[k].value != v->value)
				changed++;
	}
	/* the select changed some fields, so the previous step's values would have shown */
	assert_true(cap->nbefore > 0);
	assert_true(changed > 0);
	il_kgov_check_result_free(&res);
	free(cap);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unmodified_ports_agree),
		cmocka_unit_test(test_every_mutant_is_caught),
		cmocka_unit_test(test_report_shows_the_differing_step),
	};

	alarm(900); /* a mutant that hangs ends the process: a failure, not a hang */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
