// SPDX-License-Identifier: GPL-2.0-only
/*
 * atomic.c - whole-or-nothing output files through an mkostemp() temporary (see atomic.h).
 */
#define _GNU_SOURCE /* mkostemp() */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/atomic.h"

#define IL_ATOMIC_SLOTS 32

/* The temporaries that exist now, for il_atomic_unlink_all() in a signal handler. */
static char *live_tmp[IL_ATOMIC_SLOTS];

static int claim_slot(char *name)
{
	for (int i = 0; i < IL_ATOMIC_SLOTS; i++) {
		char *none = NULL;

		if (__atomic_compare_exchange_n(&live_tmp[i], &none, name, false, __ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
			return i;
	}
	return -1; /* full: still written safely, only not removed by a signal handler */
}

static void release_slot(int slot)
{
	if (slot >= 0)
		__atomic_store_n(&live_tmp[slot], NULL, __ATOMIC_SEQ_CST);
}

void il_atomic_unlink_all(void)
{
	for (int i = 0; i < IL_ATOMIC_SLOTS; i++) {
		char *name = __atomic_load_n(&live_tmp[i], __ATOMIC_SEQ_CST);

		if (name)
			unlink(name);
	}
}

/* "DIR/.NAME.XXXXXX" for "DIR/NAME", ".NAME.XXXXXX" for "NAME". */
static char *temp_template(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	size_t len = strlen(path) + sizeof("/..XXXXXX");
	char *t = malloc(len);

	if (!t)
		return NULL;
	memcpy(t, path, dirlen);
	t[dirlen] = '.';
	strcpy(t + dirlen + 1, path + dirlen);
	strcat(t, ".XXXXXX");
	return t;
}

/*
 * The mode fopen(path, "w") gives a new file. umask() can only be read by setting it: the
 * window in which it is 0 is two system calls, and idlelab creates no file from another thread
 * meanwhile.
 */
static mode_t creation_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

/* An existing character device or FIFO (not reached through a symlink) is written in place. */
static int open_in_place(struct il_atomic *a, const char *path)
{
	struct stat st;

	if (lstat(path, &st) || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)))
		return 1;
	a->fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	return a->fd < 0 ? -1 : 0;
}

static void release(struct il_atomic *a)
{
	release_slot(a->slot);
	free(a->tmp);
	free(a->path);
	a->tmp = a->path = NULL;
	a->f = NULL;
	a->fd = -1;
	a->slot = -1;
}

int il_atomic_open(struct il_atomic *a, const char *path)
{
	int saved, r;

	memset(a, 0, sizeof(*a));
	a->fd = -1;
	a->slot = -1;
	a->path = strdup(path);
	if (!a->path)
		return -1;
	r = open_in_place(a, path);
	if (r < 0)
		goto fail;
	if (r > 0) {
		a->tmp = temp_template(path);
		if (!a->tmp)
			goto fail;
		a->fd = mkostemp(a->tmp, O_CLOEXEC);
		if (a->fd < 0)
			goto fail;
		a->slot = claim_slot(a->tmp);
		if (fchmod(a->fd, creation_mode()))
			goto fail;
	}
	a->f = fdopen(a->fd, "w");
	if (!a->f)
		goto fail;
	return 0;
fail:
	saved = errno;
	if (a->fd >= 0) {
		close(a->fd);
		if (a->tmp)
			unlink(a->tmp);
	}
	release(a);
	errno = saved;
	return -1;
}

void il_atomic_abort(struct il_atomic *a)
{
	int saved = errno;

	if (a->f)
		fclose(a->f);
	else if (a->fd >= 0)
		close(a->fd);
	if (a->tmp)
		unlink(a->tmp);
	release(a);
	errno = saved;
}

/* fsync() the directory holding @path, so the rename survives a crash. Best effort. */
static void sync_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	int fd;

	if (!dir)
		return;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

int il_atomic_commit(struct il_atomic *a)
{
	int saved;
	bool failed;

	if (!a->f) {
		errno = EBADF;
		il_atomic_abort(a);
		return -1;
	}
	failed = fflush(a->f) || ferror(a->f);
	/* A device written in place has nothing to sync or rename. */
	if (!failed && a->tmp && fsync(a->fd))
		failed = true;
	saved = errno;
	if (fclose(a->f) && !failed) {
		failed = true;
		saved = errno;
	}
	a->f = NULL;
	a->fd = -1;
	if (!failed && a->tmp && rename(a->tmp, a->path)) {
		failed = true;
		saved = errno;
	}
	if (failed) {
		if (a->tmp)
			unlink(a->tmp);
		release(a);
		errno = saved ? saved : EIO;
		return -1;
	}
	if (a->tmp)
		sync_dir(a->path);
	release(a);
	return 0;
}

int il_atomic_probe(const char *path)
{
	struct il_atomic a;

	if (il_atomic_open(&a, path))
		return -1;
	il_atomic_abort(&a);
	return 0;
}

int il_atomic_write(const char *path, const void *data, size_t len)
{
	struct il_atomic a;

	if (il_atomic_open(&a, path))
		return -1;
	if (len && fwrite(data, 1, len, a.f) != len) {
		il_atomic_abort(&a);
		return -1;
	}
	return il_atomic_commit(&a);
}
