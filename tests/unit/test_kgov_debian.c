// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Debian presets against Debian's own governor files, compiled unmodified with kgov.
 *
 * The files come from the linux-source-6.1 and linux-source-6.12 packages (installed by
 * scripts/install-deps.sh), extracted at test time into a temporary directory; nothing of
 * them is kept. For each tree:
 *
 *  1. every governor file has the blob its preset names (so the presets follow these bytes);
 *  2. menu, teo, ladder and haltpoll each run in lockstep with their preset on random
 *     platforms and on a built-in one, and agree on every decision and internal value;
 *  3. a copy of menu.c with one comparison in get_typical_interval() flipped (made here with
 *     sed) is rejected.
 *
 * A governor that loops forever would hang the test: an alarm ends it after ten minutes.
 *
 * A tree whose tarball is not installed is skipped, with a message saying how to get it.
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
#include "kgov/kgov.h"
#include "kgovtest.h"
#include "util/array.h"

#define STEPS_RANDOM 200000ULL
#define STEPS_PLATFORM 50000ULL

struct gov_file {
	const char *file;     /* under drivers/cpuidle/governors/ */
	const char *preset;
	const char *blob;     /* git hash-object of the Debian file (kernel-governors.md §0) */
	const char *platform; /* a built-in platform this governor runs on */
};

struct tree {
	const char *version;  /* "6.1" */
	struct gov_file files[4];
	char dir[64];         /* the temporary extraction */
};

static struct tree trees[] = {
	{ .version = "6.1", .files = {
		{ "menu.c", "menu-6.1.192", "2aa87ce37a904f245c55e2fd1f693d66c2ba0fa1", "skx" },
		{ "teo.c", "teo-6.1.192", "d9262db79cae53c0b1d277513d014d3e91a0f879", "rk3399" },
		{ "ladder.c", "ladder-6.1.192", "8e9058c4ea63e1217ad33d2f61dd8e768187af0a", "icx" },
		{ "haltpoll.c", "haltpoll-6.1.192", "1dff3a52917de9a6b79d1cd9e301a24659b412f6", "haltpoll-vm" },
	} },
	{ .version = "6.12", .files = {
		{ "menu.c", "menu-6.12.117", "0ce7323450011c3ebd0e46d81029968f87d791f8", "spr" },
		{ "teo.c", "teo-6.12.117", "520aa466c2e75e9a76e301540d3c741a1e7e4b52", "i5-10600k" },
		{ "ladder.c", "ladder-6.12.117", "6617eb494a110c0642b1899163574d2f47223fa4", "rk3588" },
		{ "haltpoll.c", "haltpoll-6.12.117", "663b7f164d202c011a3c8ddf824aeea400af0c50", "haltpoll-vm" },
	} },
};

static void tarball_path(const struct tree *t, char *buf, size_t cap)
{
	snprintf(buf, cap, "/usr/src/linux-source-%s.tar.xz", t->version);
}

static void governors_dir(const struct tree *t, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s/linux-source-%s/drivers/cpuidle/governors", t->dir, t->version);
}

/* Extract the tree's governor files; Return: 0, or -1 (test skipped) if there is no tarball. */
static int extract(struct tree *t)
{
	char tarball[128], cmd[512];

	tarball_path(t, tarball, sizeof(tarball));
	if (access(tarball, R_OK)) {
		print_message("%s is not installed (apt-get install linux-source-%s, or "
			      "scripts/install-deps.sh): skipping the Debian %s presets\n",
			      tarball, t->version, t->version);
		return -1;
	}
	snprintf(t->dir, sizeof(t->dir), "/tmp/idlelab-test-kgov-deb-XXXXXX");
	assert_non_null(mkdtemp(t->dir));
	snprintf(cmd, sizeof(cmd), "tar -xJf %s -C %s --wildcards "
		 "'linux-source-%s/drivers/cpuidle/governors/*'", tarball, t->dir, t->version);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static void cleanup(struct tree *t)
{
	char cmd[256];

	if (!t->dir[0])
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", t->dir);
	assert_int_equal(system(cmd), 0);
	t->dir[0] = '\0';
}

/* Return: il_kgov_check()'s result; prints the report of an unexpected mismatch. */
static int check(const struct il_preset *up, const struct il_preset *port, const char *platform,
		 unsigned long long steps, bool expect_mismatch, unsigned long long *decisions)
{
	struct il_kgov_check_opts o = { .seed = 1, .steps = steps, .platform = platform,
					.check_reflect = true };
	struct il_kgov_check_result res;
	struct il_kgov_counters cnt;
	struct il_error err = { 0 };
	int ret = il_kgov_check(up, port, &o, &res, &err);

	if (ret < 0)
		print_error("%s\n", err.msg);
	assert_true(ret >= 0);
	*decisions = res.decisions;
	if (ret > 0 && !expect_mismatch) {
		fputs(res.first.report, stdout);
		fflush(stdout);
	} else if (ret > 0) {
		print_message("%s\n", res.first.what);
	}
	il_kgov_check_result_free(&res);
	assert_int_equal(il_kgov_counters(up, &cnt), 0);
	assert_true(cnt.shim_errors == 0);
	return ret;
}

static void check_tree(struct tree *t)
{
	char gdir[128], src[192], obj[192];
	unsigned long long decisions;

	if (extract(t)) {
		skip();
		return;
	}
	governors_dir(t, gdir, sizeof(gdir));
	for (int i = 0; i < 4; i++) {
		const struct gov_file *g = &t->files[i];
		const struct il_preset *port = il_preset_find(g->preset), *up;
		struct kgov_scan scan;

		assert_non_null(port);
		snprintf(src, sizeof(src), "%s/%s", gdir, g->file);
		snprintf(obj, sizeof(obj), "%s/%s.so", t->dir, g->preset);
		up = kt_build_and_load(src, obj, port, &scan);
		if (strcmp(scan.blob, g->blob))
			fail_msg("%s is blob %s, but %s follows %s: linux-source-%s changed",
				 src, scan.blob, g->preset, g->blob, t->version);
		assert_int_equal(check(up, port, NULL, STEPS_RANDOM, false, &decisions), 0);
		assert_true(decisions == STEPS_RANDOM);
		print_message("%s vs %s: %llu decisions compared on random platforms\n", g->file,
			      g->preset, decisions);
		assert_int_equal(check(up, port, g->platform, STEPS_PLATFORM, false, &decisions), 0);
		assert_true(decisions == STEPS_PLATFORM);
		print_message("%s vs %s: %llu decisions compared on %s\n", g->file, g->preset,
			      decisions, g->platform);
	}
}

static void test_debian_6_1(void **state)
{
	check_tree(&trees[0]);
}

static void test_debian_6_12(void **state)
{
	check_tree(&trees[1]);
}

/* One comparison in get_typical_interval() flipped: the check must reject the file. */
static void check_mutant(struct tree *t, const char *preset)
{
	char gdir[128], src[192], mutant[192], obj[192], cmd[1024];
	const struct il_preset *port = il_preset_find(preset), *up;
	unsigned long long decisions;
	struct kgov_scan scan;

	if (!t->dir[0] && extract(t)) {
		skip();
		return;
	}
	governors_dir(t, gdir, sizeof(gdir));
	snprintf(src, sizeof(src), "%s/menu.c", gdir);
	snprintf(mutant, sizeof(mutant), "%s/menu_mutant.c", gdir);
	snprintf(obj, sizeof(obj), "%s/menu_mutant.so", t->dir);
	/*
	 * "avg^2 > 36 variance" becomes "<". (Not "variance <= 400": without it an all-zero
	 * sample set makes 6.1's get_typical_interval() loop forever, as thresh = max - 1 wraps.)
	 */
	snprintf(cmd, sizeof(cmd), "sed 's/if ((((u64)avg\\*avg > variance\\*36)/"
		 "if ((((u64)avg*avg < variance*36)/' %s > %s && ! cmp -s %s %s",
		 src, mutant, src, mutant);
	assert_int_equal(system(cmd), 0); /* the sed matched: the copy differs */
	up = kt_build_and_load(mutant, obj, port, &scan);
	assert_int_equal(check(up, port, NULL, STEPS_RANDOM, true, &decisions), 1);
	print_message("mutated menu.c rejected after %llu decisions\n", decisions);
}

static void test_debian_mutant_rejected(void **state)
{
	check_mutant(&trees[1], "menu-6.12.117");
	check_mutant(&trees[0], "menu-6.1.192");
}

static int teardown(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(trees); i++)
		cleanup(&trees[i]);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_debian_6_1),
		cmocka_unit_test(test_debian_6_12),
		cmocka_unit_test(test_debian_mutant_rejected),
	};

	alarm(600); /* the default action ends the process: a failure, not a hang */
	return cmocka_run_group_tests(tests, NULL, teardown);
}
