// SPDX-License-Identifier: GPL-2.0-only
/*
 * atomic.c - whole-or-nothing output files through an mkostemp() temporary (see atomic.h).
 */
#define _GNU_SOURCE /* mkostemp() */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
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

/*
 * ---- where an output really goes --------------------------------------------------------
 * Shell redirection opens FILE with open(2), which follows symbolic links: `> link` writes the
 * link's target. The temporary and the rename must then happen at the target, in its own
 * directory, so idlelab follows the links itself, hop by hop. Because it renames instead of
 * opening through the link, the kernel's protected_symlinks check (fs/namei.c,
 * may_follow_link()) never runs, so it is applied here: a link in a sticky world-writable
 * directory (/tmp) is followed only when it belongs to the caller or to the directory's owner.
 * A link inside /proc (/dev/stdout -> /proc/self/fd/1) names an open file rather than a path,
 * so it is written directly, as are character devices and FIFOs.
 */
#define IL_ATOMIC_MAX_LINKS 40 /* the kernel's MAXSYMLINKS */

struct target {
	char *path;   /* the resolved target: canonical directory + last component */
	size_t dirlen; /* its directory's length in path (1 for "/") */
	bool direct;  /* written where it is: a device, a FIFO, an open file named in /proc */
	bool exists;
};

static int why_set(char *why, size_t cap, int err, const char *fmt, const char *a, const char *b)
{
	if (why && cap)
		snprintf(why, cap, fmt, a, b);
	errno = err;
	return -1;
}

/* "DIR" + "/" + "NAME" ("/NAME" when DIR is "/"). */
static char *join(const char *dir, const char *name)
{
	size_t dl = strlen(dir), nl = strlen(name);
	char *p = malloc(dl + nl + 2);

	if (!p)
		return NULL;
	memcpy(p, dir, dl);
	if (!dl || dir[dl - 1] != '/')
		p[dl++] = '/';
	memcpy(p + dl, name, nl + 1);
	return p;
}

/* The kernel's protected_symlinks rule: @link (in directory @dir) may not be followed. */
static bool protected_link(const struct stat *dir, const struct stat *link)
{
	uid_t me = geteuid();

	return (dir->st_mode & S_ISVTX) && (dir->st_mode & S_IWOTH) && link->st_uid != me &&
	       link->st_uid != dir->st_uid;
}

/* @path split into its directory's canonical name (realpath) and the last component. */
static char *canonical(const char *path, const char **name, char *why, size_t cap)
{
	const char *slash = strrchr(path, '/');
	struct stat st;
	char *dir, *real;

	*name = slash ? slash + 1 : path;
	if (!**name || !strcmp(*name, ".") || !strcmp(*name, "..")) {
		why_set(why, cap, EISDIR, "%s%s", path[strlen(path) - 1] == '/' ?
			"ends in '/', a directory: give the output a file name" :
			"is a directory: give the output a file name", "");
		return NULL;
	}
	dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	if (!dir)
		return NULL;
	real = realpath(dir, NULL);
	if (real && (stat(real, &st) || !S_ISDIR(st.st_mode))) { /* a file where a directory is */
		free(real);
		real = NULL;
		errno = ENOTDIR;
	}
	if (!real) {
		int e = errno;

		why_set(why, cap, e, e == ENOENT ? "no directory %s%s" :
			e == ENOTDIR ? "%s is not a directory%s" : "%s: %s", dir,
			e == ENOENT || e == ENOTDIR ? "" : strerror(e));
		free(dir);
		return NULL;
	}
	free(dir);
	return real;
}

/* One hop: @t->path is the symlink @link_st in @dir; @t->path becomes what it points to. */
static int follow(struct target *t, const char *dir, const struct stat *link_st, char *why,
		  size_t cap)
{
	struct stat dst;
	char buf[4096];
	ssize_t n;

	if (!stat(dir, &dst) && protected_link(&dst, link_st)) {
		char owner[96];

		snprintf(owner, sizeof(owner), "%u", (unsigned)link_st->st_uid);
		return why_set(why, cap, EACCES,
			       "a symbolic link owned by uid %s in %s, a sticky world-writable "
			       "directory, belonging neither to you nor to the directory's owner: "
			       "refused, as the kernel's protected_symlinks does", owner, dir);
	}
	n = readlink(t->path, buf, sizeof(buf) - 1);
	if (n < 0)
		return why_set(why, cap, errno, "%s: %s", t->path, strerror(errno));
	buf[n] = '\0';
	free(t->path);
	t->path = buf[0] == '/' ? strdup(buf) : join(dir, buf);
	return t->path ? 0 : -1;
}

/*
 * Resolve @path as open(2) would for writing. Return 0 with @t filled, or -1 with errno set
 * and, when @why is given, the reason in words.
 */
static int resolve(const char *path, struct target *t, char *why, size_t cap)
{
	memset(t, 0, sizeof(*t));
	t->path = strdup(path);
	for (int hops = 0; t->path; hops++) {
		const char *name;
		char *dir = canonical(t->path, &name, why, cap), *full;
		struct stat st;
		int r = -1;

		if (!dir)
			break;
		full = join(dir, name);
		free(t->path);
		t->path = full;
		t->dirlen = strlen(dir);
		if (!full) {
			errno = ENOMEM;
		} else if (lstat(full, &st)) {
			r = errno == ENOENT ? 0 :
			    why_set(why, cap, errno, "%s: %s", full, strerror(errno));
		} else if (S_ISDIR(st.st_mode)) {
			why_set(why, cap, EISDIR, "%s is a directory: give the output a file %s",
				full, "name");
		} else if (!S_ISLNK(st.st_mode) || !strncmp(dir, "/proc/", 6)) {
			t->exists = true;
			t->direct = !S_ISREG(st.st_mode);
			r = 0;
		} else if (hops == IL_ATOMIC_MAX_LINKS) {
			why_set(why, cap, ELOOP, "%s: more than 40 symbolic links in a row%s", path,
				"");
		} else {
			r = follow(t, dir, &st, why, cap) ? -1 : 1;
		}
		free(dir);
		if (r <= 0) {
			if (!r)
				return 0;
			break;
		}
	}
	free(t->path);
	t->path = NULL;
	return -1;
}

/*
 * Open a direct target. An open file of this process named in /proc (/dev/stdout,
 * /dev/fd/N) is duplicated, so the output goes where that descriptor writes (at its offset,
 * a pipe or a socket alike); anything else is opened for writing.
 */
static int open_direct(const char *path)
{
	int pid, fd, end = 0;

	if (sscanf(path, "/proc/%d/fd/%d%n", &pid, &fd, &end) == 2 && !path[end] &&
	    pid == (int)getpid())
		return fcntl(fd, F_DUPFD_CLOEXEC, 3);
	return open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
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
	struct target t;
	int saved;

	memset(a, 0, sizeof(*a));
	a->fd = -1;
	a->slot = -1;
	if (resolve(path, &t, NULL, 0))
		return -1;
	a->path = t.path;
	if (t.direct) {
		a->fd = open_direct(t.path);
		if (a->fd < 0)
			goto fail;
	} else {
		a->tmp = temp_template(t.path);
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
	struct target t;
	int r;

	if (resolve(path, &t, NULL, 0))
		return -1;
	/* A direct target is not opened: a FIFO's reader would see the probe's end of file. */
	r = t.direct ? access(t.path, W_OK) : 0;
	free(t.path);
	if (r || (!t.direct && il_atomic_open(&a, path)))
		return -1;
	if (!t.direct)
		il_atomic_abort(&a);
	return 0;
}

const char *il_atomic_strerror(const char *path, int err, char *buf, size_t cap)
{
	struct target t;

	if (resolve(path, &t, buf, cap))
		return buf;
	/* It resolves: the failure came from creating the temporary in its directory. */
	t.path[t.dirlen] = '\0';
	if (err == ENOENT || err == EPERM)
		snprintf(buf, cap, "cannot create a file in %s: it takes no new files (a virtual "
			 "file system such as /proc or /sys)", t.path);
	else if (err == EROFS || err == EACCES)
		snprintf(buf, cap, "cannot create a file in %s: %s", t.path, strerror(err));
	else
		snprintf(buf, cap, "%s", strerror(err));
	free(t.path);
	return buf;
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
