// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_live_trace.c - `measure --trace` recording (lib/live/trace.c). On a fixture root
 * there is no tracefs, which must be said. On the real tracefs (root only; skipped with the
 * reason otherwise) a private instance is created, configured, recorded into, saved, and
 * removed by il_live_restore() without touching the top-level buffer or other instances.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "live/live.h"

#define TRACEFS "/sys/kernel/tracing"

static void test_no_tracefs_under_fixture_root(void **state)
{
	struct il_live_changes ch;
	struct il_live_trace *t;
	struct il_live lv;
	struct il_error err;

	assert_int_equal(il_live_init(&lv, "tests/fixtures/sysfs/haltpoll-vm", &err), 0);
	assert_int_equal(il_live_changes_init(&ch, 1, &err), 0);
	assert_int_equal(il_live_trace_open(&lv, &ch, 1024, &t, NULL, 0, &err), -1);
	assert_null(t);
	if (il_live_trace_missing())
		assert_non_null(strstr(err.msg, "libtracefs"));
	else
		assert_non_null(strstr(err.msg, "no tracefs here (mount it"));
	/* Nothing was created, so nothing is to be removed. */
	assert_int_equal(ch.n, 0);
	il_live_changes_free(&ch);
}

static int read_file(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, cap - 1, f);
	buf[n] = '\0';
	fclose(f);
	return 0;
}

/* Why the real-tracefs test cannot run here, or NULL. */
static const char *real_tracefs_unavailable(void)
{
	struct stat st;

	if (il_live_trace_missing())
		return il_live_trace_missing();
	if (geteuid() != 0)
		return "not root (creating a tracing instance needs root)";
	if (stat(TRACEFS "/instances", &st) || !S_ISDIR(st.st_mode))
		return "no tracefs mounted at " TRACEFS;
	return NULL;
}

static void test_real_instance_lifecycle(void **state)
{
	const char *why = real_tracefs_unavailable();
	char path[PATH_MAX], buf[4096], top_on[16], top_on_after[16], out[] = "/tmp/idlelab-trace-XXXXXX";
	struct timespec nap = { 0, 2000000 };
	struct il_live_changes ch;
	struct il_live_trace *t;
	struct il_live lv;
	struct il_error err;
	struct stat st;
	int fd;

	if (why) {
		print_message("skipped: %s\n", why);
		skip();
	}
	assert_int_equal(read_file(TRACEFS "/tracing_on", top_on, sizeof(top_on)), 0);
	assert_int_equal(il_live_init(&lv, "/", &err), 0);
	assert_int_equal(il_live_changes_init(&ch, 1, &err), 0);
	if (il_live_trace_open(&lv, &ch, 1024, &t, buf, sizeof(buf), &err))
		fail_msg("%s", err.msg);
	assert_int_equal(ch.n, 1);
	assert_true(ch.c[0].remove_dir);
	snprintf(path, sizeof(path), TRACEFS "/instances/idlelab-%ld", (long)getpid());
	assert_string_equal(il_live_trace_dir(t), path);
	assert_int_equal(stat(path, &st), 0);

	/* Configured as vm-real.md §7 says: mono clock, cpu_idle on, tracing off until started. */
	snprintf(path, sizeof(path), "%s/trace_clock", il_live_trace_dir(t));
	assert_int_equal(read_file(path, buf, sizeof(buf)), 0);
	assert_non_null(strstr(buf, "[mono]"));
	snprintf(path, sizeof(path), "%s/events/power/cpu_idle/enable", il_live_trace_dir(t));
	assert_int_equal(read_file(path, buf, sizeof(buf)), 0);
	assert_int_equal(buf[0], '1');
	snprintf(path, sizeof(path), "%s/tracing_on", il_live_trace_dir(t));
	assert_int_equal(read_file(path, buf, sizeof(buf)), 0);
	assert_int_equal(buf[0], '0');

	/* Record a few timer sleeps: hrtimer events must show up. */
	assert_int_equal(il_live_trace_start(t, &err), 0);
	assert_int_equal(read_file(path, buf, sizeof(buf)), 0);
	assert_int_equal(buf[0], '1');
	for (int i = 0; i < 10; i++)
		nanosleep(&nap, NULL);
	assert_true(il_live_trace_stop(t, &err) >= 0);
	assert_int_equal(read_file(path, buf, sizeof(buf)), 0);
	assert_int_equal(buf[0], '0');
	fd = mkstemp(out);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(il_live_trace_save(t, out, &err), 0);
	assert_int_equal(read_file(out, buf, sizeof(buf)), 0);
	assert_non_null(strstr(buf, "# tracer: nop"));
	assert_non_null(strstr(buf, "hrtimer_"));
	unlink(out);
	il_live_trace_free(t);

	/* The restore path removes the instance; the top-level buffer was never touched. */
	assert_int_equal(il_live_restore(&ch), 0);
	assert_int_equal(stat(ch.c[0].path, &st), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(il_live_restore(&ch), 0); /* already gone: fine */
	assert_int_equal(read_file(TRACEFS "/tracing_on", top_on_after, sizeof(top_on_after)), 0);
	assert_string_equal(top_on_after, top_on);
	il_live_changes_free(&ch);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_tracefs_under_fixture_root),
		cmocka_unit_test(test_real_instance_lifecycle),
	};

	return cmocka_run_group_tests_name("live-trace", tests, NULL, NULL);
}
