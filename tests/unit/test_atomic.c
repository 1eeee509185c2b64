// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_atomic.c - whole-or-nothing output files (lib/util/atomic.c): the temporary is made
 * with mkostemp() next to the target, never at a predictable name, never through a symlink;
 * its mode follows the umask; an aborted write leaves the old file and no temporary; a
 * symlink at the target is written through; a FIFO or device is written in place;
 * il_atomic_unlink_all() removes what is open.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/atomic.h"

struct dir {
	char path[64];
};

static int setup_dir(void **state)
{
	struct dir *d = malloc(sizeof(*d));

	if (!d)
		return -1;
	snprintf(d->path, sizeof(d->path), "/tmp/idlelab-atomic.XXXXXX");
	if (!mkdtemp(d->path))
		return -1;
	*state = d;
	return 0;
}

static int teardown_dir(void **state)
{
	struct dir *d = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d->path);
	if (system(cmd))
		return -1;
	free(d);
	return 0;
}

/* The number of entries in @dir besides . and .. */
static int entries(const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(dp);
	while ((e = readdir(dp)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(dp);
	return n;
}

static void slurp(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, cap - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static void test_write_and_mode(void **state)
{
	struct dir *d = *state;
	char path[128], buf[64];
	struct stat st;
	mode_t old = umask(027);

	snprintf(path, sizeof(path), "%s/out.csv", d->path);
	assert_int_equal(il_atomic_write(path, "a,b\n", 4), 0);
	umask(old);
	slurp(path, buf, sizeof(buf));
	assert_string_equal(buf, "a,b\n");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0640);
	assert_int_equal(entries(d->path), 1); /* no temporary left */
}

static void test_temporary_is_unpredictable_and_in_place(void **state)
{
	struct dir *d = *state;
	char path[128], old_name[160];
	struct il_atomic a;

	snprintf(path, sizeof(path), "%s/runs.csv", d->path);
	snprintf(old_name, sizeof(old_name), "%s.tmp", path);
	assert_int_equal(il_atomic_open(&a, path), 0);
	assert_non_null(a.tmp);
	assert_memory_equal(a.tmp, d->path, strlen(d->path));
	assert_non_null(strstr(a.tmp, "/.runs.csv."));
	assert_int_equal(strlen(strstr(a.tmp, "/.runs.csv.")), strlen("/.runs.csv.XXXXXX"));
	assert_null(strstr(a.tmp, "XXXXXX"));
	assert_int_equal(access(old_name, F_OK), -1);
	fputs("x\n", a.f);
	assert_int_equal(il_atomic_commit(&a), 0);
	assert_null(a.tmp);
}

/* A symlink planted where the old code put its FILE.tmp, or at a guess of the new name,
 * is never written through; one at the target itself is written through, as '>' does. */
static void test_planted_symlinks(void **state)
{
	struct dir *d = *state;
	char path[128], victim[128], link_tmp[160], buf[64], why[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/runs.csv", d->path);
	snprintf(victim, sizeof(victim), "%s/victim", d->path);
	snprintf(link_tmp, sizeof(link_tmp), "%s.tmp", path);
	assert_int_equal(il_atomic_write(victim, "precious\n", 9), 0);
	assert_int_equal(symlink(victim, link_tmp), 0);
	assert_int_equal(il_atomic_write(path, "new\n", 4), 0);
	slurp(victim, buf, sizeof(buf));
	assert_string_equal(buf, "precious\n");

	assert_int_equal(unlink(path), 0);
	assert_int_equal(symlink("victim", path), 0);
	assert_int_equal(il_atomic_write(path, "through\n", 8), 0);
	slurp(victim, buf, sizeof(buf));
	assert_string_equal(buf, "through\n");
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));

	/* a directory, or a name ending in '/', is refused with a reason that says so */
	snprintf(path, sizeof(path), "%s/", d->path);
	assert_int_equal(il_atomic_write(path, "x", 1), -1);
	assert_int_equal(errno, EISDIR);
	assert_non_null(strstr(il_atomic_strerror(path, errno, why, sizeof(why)), "file name"));
}

static void test_abort_keeps_old_file(void **state)
{
	struct dir *d = *state;
	char path[128], buf[64];
	struct il_atomic a;

	snprintf(path, sizeof(path), "%s/keep", d->path);
	assert_int_equal(il_atomic_write(path, "old\n", 4), 0);
	assert_int_equal(il_atomic_open(&a, path), 0);
	fputs("half", a.f);
	errno = ENOSPC;
	il_atomic_abort(&a);
	assert_int_equal(errno, ENOSPC);
	slurp(path, buf, sizeof(buf));
	assert_string_equal(buf, "old\n");
	assert_int_equal(entries(d->path), 1);
}

static void test_missing_directory_and_failed_rename(void **state)
{
	struct dir *d = *state;
	char path[128], sub[128];

	snprintf(path, sizeof(path), "%s/nodir/out", d->path);
	assert_int_equal(il_atomic_write(path, "x", 1), -1);
	assert_int_equal(errno, ENOENT);
	/* The target is a non-empty directory: rename fails, the temporary goes. */
	snprintf(sub, sizeof(sub), "%s/isdir", d->path);
	assert_int_equal(mkdir(sub, 0755), 0);
	snprintf(path, sizeof(path), "%s/isdir/f", d->path);
	assert_int_equal(il_atomic_write(path, "x", 1), 0);
	assert_int_equal(il_atomic_write(sub, "x", 1), -1);
	assert_true(errno == EISDIR || errno == ENOTEMPTY || errno == EEXIST);
	assert_int_equal(entries(d->path), 1);
}

static void test_fifo_written_in_place(void **state)
{
	struct dir *d = *state;
	char path[128], buf[8] = "";
	int rd;

	snprintf(path, sizeof(path), "%s/fifo", d->path);
	assert_int_equal(mkfifo(path, 0600), 0);
	rd = open(path, O_RDONLY | O_NONBLOCK);
	assert_true(rd >= 0);
	assert_int_equal(il_atomic_write(path, "hi", 2), 0);
	assert_int_equal(read(rd, buf, sizeof(buf) - 1), 2);
	assert_string_equal(buf, "hi");
	close(rd);
	assert_int_equal(il_atomic_write("/dev/null", "x", 1), 0);
}

static void test_unlink_all(void **state)
{
	struct dir *d = *state;
	char path[128];
	struct il_atomic a, b;

	snprintf(path, sizeof(path), "%s/a", d->path);
	assert_int_equal(il_atomic_open(&a, path), 0);
	snprintf(path, sizeof(path), "%s/b", d->path);
	assert_int_equal(il_atomic_open(&b, path), 0);
	assert_int_equal(entries(d->path), 2);
	il_atomic_unlink_all();
	assert_int_equal(entries(d->path), 0);
	/* The rename then fails: the target never appears. */
	assert_int_equal(il_atomic_commit(&a), -1);
	assert_int_equal(errno, ENOENT);
	il_atomic_abort(&b);
	assert_int_equal(entries(d->path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_write_and_mode, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_temporary_is_unpredictable_and_in_place, setup_dir,
						teardown_dir),
		cmocka_unit_test_setup_teardown(test_planted_symlinks, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_abort_keeps_old_file, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_missing_directory_and_failed_rename, setup_dir,
						teardown_dir),
		cmocka_unit_test_setup_teardown(test_fifo_written_in_place, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_unlink_all, setup_dir, teardown_dir),
	};

	return cmocka_run_group_tests_name("atomic", tests, NULL, NULL);
}
