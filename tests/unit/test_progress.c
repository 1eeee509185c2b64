// SPDX-License-Identifier: GPL-2.0-only
/*
 * The progress line (src/progress.c): nothing when not shown, the lines of a forced display
 * into a log (done/total, the percentage, the time so far, an ETA, the last line at the end),
 * the byte display, updates from several threads, a counter watched from a thread, and the
 * lab runner's callback (il_lab_run_all_progress() reports every run once, in order).
 * Linked with the CLI objects (see the test_progress rule in the Makefile).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../src/progress.h"
#include "governor.h"
#include "platform/platform.h"
#include "lab/battery.h"
#include "lab/lab.h"

/* Run @fn with stderr going to a temporary file; return what it wrote (malloc'ed). */
static char *capture_stderr(void (*fn)(void *), void *ctx)
{
	FILE *tmp = tmpfile();
	int saved = dup(STDERR_FILENO);
	char *text;
	long n;

	assert_non_null(tmp);
	fflush(stderr);
	dup2(fileno(tmp), STDERR_FILENO);
	fn(ctx);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	n = ftell(tmp);
	text = calloc(1, (size_t)n + 1);
	rewind(tmp);
	assert_int_equal(fread(text, 1, (size_t)n, tmp), (size_t)n);
	fclose(tmp);
	return text;
}

static void count_to_ten(void *ctx)
{
	struct progress p;
	enum progress_mode mode = *(enum progress_mode *)ctx;

	progress_begin(&p, mode, "idlelab test", PROGRESS_COUNT, "runs", 10);
	for (unsigned long long i = 1; i <= 10; i++)
		progress_update(&p, i);
	progress_end(&p);
}

static void test_off_and_forced(void **state)
{
	enum progress_mode mode = PROGRESS_OFF;
	char *text = capture_stderr(count_to_ten, &mode);

	assert_string_equal(text, "");
	free(text);
	/* stderr is a file here: AUTO shows nothing either. */
	mode = PROGRESS_AUTO;
	text = capture_stderr(count_to_ten, &mode);
	assert_string_equal(text, "");
	free(text);
	assert_false(progress_shown(PROGRESS_OFF));
	assert_true(progress_shown(PROGRESS_ON));

	/* Forced into a log: the first update at once, then at most one a second, and the end. */
	mode = PROGRESS_ON;
	text = capture_stderr(count_to_ten, &mode);
	assert_non_null(strstr(text, "idlelab test: 1/10 runs, 10 %, 0:00, ETA 0:00\n"));
	assert_non_null(strstr(text, "idlelab test: 10/10 runs, 100 %, 0:00\n"));
	assert_null(strchr(text, '\r'));
	assert_null(strchr(text, '\033'));
	/* Ten quick updates: the first and the last line only. */
	{
		int lines = 0;

		for (const char *c = text; *c; c++)
			lines += *c == '\n';
		assert_int_equal(lines, 2);
	}
	free(text);
}

static void bytes_unknown_total(void *ctx)
{
	struct progress p;

	progress_begin(&p, PROGRESS_ON, "idlelab replay", PROGRESS_BYTES, NULL, 0);
	progress_update(&p, 2500000);
	progress_end(&p);
	progress_begin(&p, PROGRESS_ON, "idlelab stats", PROGRESS_BYTES, NULL, 10000000);
	progress_update(&p, 2500000);
	progress_end(&p);
}

static void test_bytes(void **state)
{
	char *text = capture_stderr(bytes_unknown_total, NULL);

	assert_non_null(strstr(text, "idlelab replay: 2.5 MB, 0:00\n"));
	assert_non_null(strstr(text, "idlelab stats: 2.5/10.0 MB, 25 %, 0:00, ETA 0:00\n"));
	free(text);
}

/* The lab runner reports every run once, 1..n, whatever the threads. */
struct seen {
	size_t calls, last, total;
	bool in_order;
};

static void note_run(void *ctx, size_t done, size_t total)
{
	struct seen *s = ctx;

	s->in_order = s->in_order && done == s->last + 1;
	s->last = done;
	s->total = total;
	s->calls++;
}

static void test_lab_callback(void **state)
{
	static struct il_platform plat;
	struct il_lab_spec specs[12];
	struct il_lab_result res[12];
	struct il_error err;
	struct seen s = { .in_order = true };

	assert_int_equal(il_platform_load("rk3588", &plat, &err), 0);
	memset(specs, 0, sizeof(specs));
	for (int i = 0; i < 12; i++) {
		specs[i].plat = &plat;
		specs[i].preset = il_preset_find(i % 2 ? "menu" : "teo");
		assert_int_equal(il_scn_parse("idle", &specs[i].scn, &specs[i].args, &specs[i].common,
					      &err), 0);
		specs[i].duration_ns = 2000000;
		specs[i].seed = (u64)i + 1;
	}
	assert_int_equal(il_lab_run_all_progress(specs, res, 12, 3, NULL, note_run, &s), 0);
	assert_int_equal(s.calls, 12);
	assert_true(s.in_order);
	assert_int_equal(s.last, 12);
	assert_int_equal(s.total, 12);
	for (int i = 0; i < 12; i++)
		il_lab_result_free(&res[i]);
	/* No runs: no call. */
	s.calls = 0;
	assert_int_equal(il_lab_run_all_progress(specs, res, 0, 4, NULL, note_run, &s), 0);
	assert_int_equal(s.calls, 0);
}

static volatile unsigned long long counter;

static void watch_a_counter(void *ctx)
{
	struct timespec ts = { 0, 50000000 };
	struct progress p;

	counter = 0;
	progress_begin(&p, PROGRESS_ON, "idlelab kgov check", PROGRESS_COUNT, "decisions", 1000);
	progress_watch(&p, &counter);
	counter = 400;
	nanosleep(&ts, NULL);
	counter = 1000;
	progress_end(&p);
}

static void test_watch(void **state)
{
	char *text = capture_stderr(watch_a_counter, NULL);

	/* progress_end() takes the counter's last value, whatever the watcher saw. */
	assert_non_null(strstr(text, "idlelab kgov check: 1000/1000 decisions, 100 %"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_off_and_forced),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_lab_callback),
		cmocka_unit_test(test_watch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
