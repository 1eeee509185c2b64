// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mutation tests of kgov's input generator: one-line changes to real governor files that a
 * default `kgov check` (seed 1, 10^6 decisions, random platforms) must tell from the port.
 *
 * A check proves a port only as far as its inputs reach the states where a `>` and a `>=`
 * decide differently. Each mutant here is a Debian 6.12 governor file (linux-source-6.12,
 * extracted at test time into a temporary directory, nothing of it kept) with one change made
 * by sed: ties of teo's per-CPU sums, off-by-ones at menu's comparisons and bucket bounds,
 * changed constants, a `<` turned into `<=` in a state loop. Every mutant must be caught, and
 * the unmodified files must pass, so the test fails when the generator loses a corner.
 *
 * Equivalent mutants are left out on purpose (menu's `measured_ns > 2 * exit_latency` -> `>=`
 * gives the same value either way). The teo-6.13 ties `tick_intercept_sum > total / 2 +
 * total / 8` and `2 * intercept_sum > idx_intercept_sum` -> `>=` were caught on only 13 and
 * 19 of 20 seeds by generator 2; generator 3's banded tie runs catch them on 20 and 19 of 20
 * (docs/kgov.md, "The inputs"). teo-7.1's `3 * total_tick > 2 * total` -> `>=` and the other
 * code paths newer than Debian's trees (teo 6.14+, menu-7.1) are mutated in our bit-exact
 * ports instead: tests/unit/test_port_mutants.c, which needs no kernel file.
 *
 * Without the tarball the test is skipped with a message saying how to get it.
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

/*
 * ASan builds: the built objects keep per-CPU state in _Thread_local variables (kshim.c), and
 * after fifteen dlopen()/dlclose() cycles LeakSanitizer's exit-time scan walks a stale
 * dynamic-TLS entry of an unloaded object and crashes its tracer ("Tracer caught signal 11",
 * GCC 12's LSan). Not scanning TLS for pointers avoids it; the test leaves nothing in TLS.
 * Then the dynamic thread vector that glibc grows for those objects is reachable only from
 * TLS, so it is not blamed either.
 */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
	return "use_tls=0";
}

const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:_dl_resize_dtv\n";
}

#define STEPS 1000000ULL
#define TARBALL "/usr/src/linux-source-6.12.tar.xz"

struct mutant {
	const char *file;   /* under drivers/cpuidle/governors/ */
	const char *preset; /* the port of the unmodified file */
	const char *what;
	const char *sed;    /* one s/// command; it must change the file */
};

static const struct mutant mutants[] = {
	{ "teo.c", "teo-6.12.117", "tie of per-CPU sums: 2 * idx_intercept_sum >= total - idx_hit_sum",
	  "s/if (2 \\* idx_intercept_sum > cpu_data->total - idx_hit_sum)/"
	  "if (2 * idx_intercept_sum >= cpu_data->total - idx_hit_sum)/" },
	{ "teo.c", "teo-6.12.117", "tie of per-CPU sums: tick_intercept_sum >= total / 2 + total / 8",
	  "s/tick_intercept_sum > cpu_data->total \\/ 2 + cpu_data->total \\/ 8)/"
	  "tick_intercept_sum >= cpu_data->total \\/ 2 + cpu_data->total \\/ 8)/" },
	{ "teo.c", "teo-6.12.117", "tie of intercept sums: 2 * intercept_sum >= idx_intercept_sum",
	  "s/if (2 \\* intercept_sum > idx_intercept_sum) {/"
	  "if (2 * intercept_sum >= idx_intercept_sum) {/" },
	{ "teo.c", "teo-6.12.117", "bin bound: target_residency_ns < measured_ns",
	  "s/if (target_residency_ns <= measured_ns)/if (target_residency_ns < measured_ns)/" },
	{ "teo.c", "teo-6.12.117", "state loop runs to i <= state_count",
	  "s/for (i = 1; i < drv->state_count; i++) {/for (i = 1; i <= drv->state_count; i++) {/" },
	{ "teo.c", "teo-6.12.117", "safety net: time_span_ns > sleep_length_ns",
	  "s/if (cpu_data->time_span_ns >= cpu_data->sleep_length_ns)/"
	  "if (cpu_data->time_span_ns > cpu_data->sleep_length_ns)/" },
	{ "menu.c", "menu-6.12.117", "off by one: target_residency_ns < predicted_ns",
	  "s/if (s->target_residency_ns <= predicted_ns) {/if (s->target_residency_ns < predicted_ns) {/" },
	{ "menu.c", "menu-6.12.117", "state loop runs to i <= state_count",
	  "s/for (i = 0; i < drv->state_count; i++) {/for (i = 0; i <= drv->state_count; i++) {/" },
	{ "menu.c", "menu-6.12.117", "constant: DECAY 7",
	  "s/#define DECAY 8/#define DECAY 7/" },
	{ "menu.c", "menu-6.12.117", "constant: MAX_INTERESTING 49999 us",
	  "s/#define MAX_INTERESTING (50000 \\* NSEC_PER_USEC)/#define MAX_INTERESTING (49999 * NSEC_PER_USEC)/" },
	{ "menu.c", "menu-6.12.117", "bound: measured_ns <= MAX_INTERESTING",
	  "s/measured_ns < MAX_INTERESTING)/measured_ns <= MAX_INTERESTING)/" },
	{ "menu.c", "menu-6.12.117", "bucket bound: duration_ns <= 10 us",
	  "s/if (duration_ns < 10ULL \\* NSEC_PER_USEC)/if (duration_ns <= 10ULL * NSEC_PER_USEC)/" },
	{ "menu.c", "menu-6.12.117", "tick: predicted_ns <= TICK_NSEC",
	  "s/if (predicted_ns < TICK_NSEC)$/if (predicted_ns <= TICK_NSEC)/" },
	{ "menu.c", "menu-6.12.117", "typical interval: divisor * 4 > INTERVALS * 3",
	  "s/(divisor \\* 4 >= INTERVALS \\* 3)/(divisor * 4 > INTERVALS * 3)/" },
	{ "menu.c", "menu-6.12.117", "tick fit: target_residency_ns < delta_tick",
	  "s/s->target_residency_ns <= delta_tick)/s->target_residency_ns < delta_tick)/" },
};

#define NMUTANTS (ARRAY_SIZE(mutants))

static char dir[64];

static void governors_dir(char *buf, size_t cap)
{
	snprintf(buf, cap, "%s/linux-source-6.12/drivers/cpuidle/governors", dir);
}

static int setup(void **state)
{
	char cmd[512];

	if (access(TARBALL, R_OK))
		return 0;
	snprintf(dir, sizeof(dir), "/tmp/idlelab-test-kgov-mut-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(cmd, sizeof(cmd), "tar -xJf %s -C %s --wildcards "
		 "'linux-source-6.12/drivers/cpuidle/governors/*'", TARBALL, dir);
	return system(cmd) ? -1 : 0;
}

static int teardown(void **state)
{
	char cmd[128];

	if (!dir[0])
		return 0;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) ? -1 : 0;
}

static bool have_tree(void)
{
	if (dir[0])
		return true;
	print_message("%s is not installed (apt-get install linux-source-6.12, or "
		      "scripts/install-deps.sh): skipping the mutants\n", TARBALL);
	return false;
}

/* The default check of @src against @port; Return: 0 no mismatch, 1 mismatch. */
static int default_check(const char *src, const char *obj, const struct il_preset *port,
			 unsigned long long *decisions)
{
	struct il_kgov_check_opts o = { .seed = 1, .steps = STEPS, .check_reflect = true };
	const struct il_preset *up = kt_build_and_load(src, obj, port, NULL);
	struct il_kgov_check_result res;
	struct il_error err = { 0 };
	int ret = il_kgov_check(up, port, &o, &res, &err);

	if (ret < 0)
		print_error("%s\n", err.msg);
	assert_true(ret >= 0);
	*decisions = res.decisions;
	il_kgov_check_result_free(&res);
	return ret;
}

/* The unmodified files pass the same check, so a caught mutant is caught for its change. */
static void test_unmodified_files_pass(void **state)
{
	static const char *const files[][2] = { { "teo.c", "teo-6.12.117" },
						{ "menu.c", "menu-6.12.117" } };
	char gdir[128], src[192], obj[192];
	unsigned long long decisions;

	if (!have_tree()) {
		skip();
		return;
	}
	governors_dir(gdir, sizeof(gdir));
	for (size_t i = 0; i < 2; i++) {
		snprintf(src, sizeof(src), "%s/%s", gdir, files[i][0]);
		snprintf(obj, sizeof(obj), "%s/orig-%zu.so", dir, i);
		assert_int_equal(default_check(src, obj, il_preset_find(files[i][1]), &decisions), 0);
		assert_true(decisions == STEPS);
	}
}

static void test_every_mutant_is_caught(void **state)
{
	char gdir[128], src[192], mutant[192], obj[192], cmd[1024];
	int survivors = 0;

	if (!have_tree()) {
		skip();
		return;
	}
	governors_dir(gdir, sizeof(gdir));
	for (size_t i = 0; i < NMUTANTS; i++) {
		const struct mutant *m = &mutants[i];
		const struct il_preset *port = il_preset_find(m->preset);
		unsigned long long decisions;

		assert_non_null(port);
		snprintf(src, sizeof(src), "%s/%s", gdir, m->file);
		/* the mutant keeps its directory, for the #include "gov.h" next to it */
		snprintf(mutant, sizeof(mutant), "%s/mutant-%zu-%s", gdir, i, m->file);
		snprintf(obj, sizeof(obj), "%s/mutant-%zu.so", dir, i);
		snprintf(cmd, sizeof(cmd), "sed '%s' %s > %s && ! cmp -s %s %s", m->sed, src, mutant,
			 src, mutant);
		if (system(cmd))
			fail_msg("mutant %zu (%s): the sed did not change %s", i, m->what, src);
		if (default_check(mutant, obj, port, &decisions)) {
			print_message("%s %s: caught after %llu decisions\n", m->file, m->what, decisions);
		} else {
			print_error("%s %s: SURVIVED %llu decisions\n", m->file, m->what, decisions);
			survivors++;
		}
	}
	assert_int_equal(survivors, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unmodified_files_pass),
		cmocka_unit_test(test_every_mutant_is_caught),
	};

	alarm(900); /* a mutant that hangs ends the process: a failure, not a hang */
	return cmocka_run_group_tests(tests, setup, teardown);
}
