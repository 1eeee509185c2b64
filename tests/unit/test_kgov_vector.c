// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the golden-vector encoding (lib/kgov/vector.c) and of the solo runs it is
 * built on (il_kgov_run()), without any upstream file: a port is recorded as if it were the
 * upstream build, then replayed.
 *
 *  1. a solo run sees the stream the lockstep check sees (same decisions, same count);
 *  2. a port verifies against its own recording; a different version is caught at the exact
 *     decision; a damaged digest, checkpoint, header or body is reported, never passed;
 *  3. a vector from another generator version or family is refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "testenv.h"
#include "kgov/kgov.h"
#include "util/array.h"

#define STEPS 6000ULL /* two runs of 4000 steps: one partial block at the end */

static const struct il_preset *preset(const char *name)
{
	const struct il_preset *p = il_preset_find(name);

	assert_non_null(p);
	return p;
}

static void record(const char *name, u64 seed, const char *platform, struct kgov_buf *out)
{
	struct il_kgov_check_opts opts = { .seed = seed, .steps = STEPS, .platform = platform };
	struct il_kgov_check_result res;
	struct il_error err = { 0 };

	memset(out, 0, sizeof(*out));
	assert_int_equal(il_kgov_record(preset(name), preset(name), &opts, out, &res, &err), 0);
	assert_true(res.decisions == STEPS);
}

static int verify(const struct kgov_buf *b, const char *against, struct il_kgov_verify_result *vr)
{
	struct kgov_vec_header h;
	struct il_error err = { 0 };

	return il_kgov_verify(b->data, b->len, preset(against), &h, vr, &err);
}

static size_t body_of(const struct kgov_buf *b)
{
	struct kgov_vec_header h;
	struct il_error err = { 0 };
	size_t body = 0;

	assert_int_equal(kgov_vec_parse_header(b->data, b->len, &h, &body, &err), 0);
	assert_int_equal(h.generator, KGOV_GEN_VERSION);
	assert_true(h.steps == STEPS);
	assert_int_equal(h.block, KGOV_VEC_BLOCK);
	return body;
}

/* ---- 1. solo runs -------------------------------------------------------------------------- */

struct counter {
	unsigned long long selects, done;
	int last_idx;
};

static int count_select(void *ctx, const struct il_kgov_step_view *v)
{
	struct counter *c = ctx;

	assert_true(v->decision == c->selects);
	c->selects++;
	c->last_idx = v->idx;
	return 0;
}

static int count_done(void *ctx, const struct il_kgov_step_view *v)
{
	struct counter *c = ctx;

	assert_true(v->decision == c->done);
	assert_int_equal(v->idx, c->last_idx);
	c->done++;
	return 0;
}

static void test_solo_run_sees_every_step(void **state)
{
	struct counter c = { 0 };
	struct il_kgov_observer obs = { count_select, count_done, &c };
	struct il_kgov_check_opts opts = { .seed = 5, .steps = STEPS, .observer = &obs };
	struct il_kgov_check_result res;
	struct il_error err = { 0 };

	(void)state;
	assert_int_equal(il_kgov_run(preset("teo-7.1"), &opts, &res, &err), 0);
	assert_true(res.decisions == STEPS && c.selects == STEPS && c.done == STEPS);
	assert_int_equal(res.runs, 2);
}

/* ---- 2. record and verify ------------------------------------------------------------------ */

static void test_own_recording_verifies(void **state)
{
	static const char *const names[] = { "menu-4.16", "menu-7.1", "teo-6.1.192", "ladder-4.17",
					     "haltpoll-7.0" };
	struct il_kgov_verify_result vr;
	struct kgov_buf b;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		record(names[i], 7 + i, NULL, &b);
		body_of(&b);
		assert_int_equal(verify(&b, names[i], &vr), 0);
		assert_true(vr.verified == STEPS);
		assert_null(vr.report);
		kgov_buf_free(&b);
	}
	record("menu-6.18", 3, "skx", &b);
	assert_int_equal(verify(&b, "menu-6.18", &vr), 0);
	kgov_buf_free(&b);
}

static void test_other_version_caught_at_its_decision(void **state)
{
	struct il_kgov_verify_result vr;
	struct kgov_buf b;

	(void)state;
	record("menu-6.17", 1, NULL, &b);
	assert_int_equal(verify(&b, "menu-6.18", &vr), 1);
	assert_true(vr.mismatch);
	assert_true(vr.verified < STEPS);
	assert_non_null(strstr(vr.report, "MISMATCH at decision #"));
	free(vr.report);
	kgov_buf_free(&b);
}

static void test_damaged_digest_and_checkpoint_caught(void **state)
{
	struct il_kgov_verify_result vr;
	struct kgov_buf b;
	size_t body;

	(void)state;
	record("menu-7.1", 11, NULL, &b);
	body = body_of(&b);
	/* the first digest follows the first block's decision bytes */
	b.data[body + KGOV_VEC_BLOCK] ^= 1;
	assert_int_equal(verify(&b, "menu-7.1", &vr), 1);
	assert_non_null(strstr(vr.report, "state digest of block 0"));
	assert_true(vr.verified == KGOV_VEC_BLOCK - 1);
	free(vr.report);
	b.data[body + KGOV_VEC_BLOCK] ^= 1;

	/* the last bytes are the value of the final checkpoint's last var */
	b.data[b.len - 1] ^= 0x40;
	assert_int_equal(verify(&b, "menu-7.1", &vr), 1);
	assert_non_null(strstr(vr.report, "full var dump"));
	free(vr.report);
	b.data[b.len - 1] ^= 0x40;

	/* a decision byte */
	b.data[body + 100] ^= 0x80;
	assert_int_equal(verify(&b, "menu-7.1", &vr), 1);
	assert_true(vr.verified == 100);
	free(vr.report);
	b.data[body + 100] ^= 0x80;
	assert_int_equal(verify(&b, "menu-7.1", &vr), 0);
	kgov_buf_free(&b);
}

static void test_malformed_files_refused(void **state)
{
	struct il_kgov_verify_result vr;
	struct kgov_buf b;
	char *gen;

	(void)state;
	record("ladder-6.13", 2, NULL, &b);
	b.len -= 3; /* truncated */
	assert_int_equal(verify(&b, "ladder-6.13", &vr), -1);
	b.len += 3;
	b.data = realloc(b.data, b.len + 1);
	b.data[b.len++] = 0; /* trailing byte */
	assert_int_equal(verify(&b, "ladder-6.13", &vr), -1);
	b.len--;
	assert_int_equal(verify(&b, "menu-7.1", &vr), -1); /* another family */
	gen = strstr((char *)b.data, "generator ");
	assert_non_null(gen);
	gen[strlen("generator ")]++; /* another generator version */
	assert_int_equal(verify(&b, "ladder-6.13", &vr), -1);
	assert_int_equal(verify(&(struct kgov_buf){ (unsigned char *)"x 1\n", 4, 4 }, "ladder-6.13", &vr),
			 -1);
	kgov_buf_free(&b);
}

/* A vector of the oldest generator still verifies; its stream is not the current one. */
static void test_old_generator_still_verifies(void **state)
{
	struct il_kgov_check_opts opts = { .seed = 3, .steps = STEPS, .generator = KGOV_GEN_OLDEST };
	struct il_kgov_check_result res;
	struct il_kgov_verify_result vr;
	struct kgov_vec_header h;
	struct il_error err = { 0 };
	struct kgov_buf old, cur;
	size_t body = 0;

	(void)state;
	memset(&old, 0, sizeof(old));
	assert_int_equal(il_kgov_record(preset("teo-7.1"), preset("teo-7.1"), &opts, &old, &res, &err), 0);
	assert_int_equal(kgov_vec_parse_header(old.data, old.len, &h, &body, &err), 0);
	assert_int_equal(h.generator, KGOV_GEN_OLDEST);
	assert_int_equal(il_kgov_verify(old.data, old.len, preset("teo-7.1"), &h, &vr, &err), 0);
	assert_true(vr.verified == STEPS);
	record("teo-7.1", 3, NULL, &cur);
	assert_true(KGOV_GEN_OLDEST < KGOV_GEN_VERSION);
	assert_true(cur.len != old.len || memcmp(cur.data + body_of(&cur), old.data + body,
						 cur.len - body) != 0);
	kgov_buf_free(&old);
	kgov_buf_free(&cur);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_solo_run_sees_every_step),
		cmocka_unit_test(test_own_recording_verifies),
		cmocka_unit_test(test_other_version_caught_at_its_decision),
		cmocka_unit_test(test_damaged_digest_and_checkpoint_caught),
		cmocka_unit_test(test_malformed_files_refused),
		cmocka_unit_test(test_old_generator_still_verifies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
