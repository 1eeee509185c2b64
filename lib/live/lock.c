// SPDX-License-Identifier: GPL-2.0-only
/*
 * lock.c - one measurement at a time: an exclusive flock on a lock file (ROOT/run/idlelab.lock
 * by default). The kernel drops the lock when the process dies, however it dies, so a stale
 * file never blocks the next run; the pid written into it only makes the refusal readable.
 * The file is opened without following a symlink and must be a regular file with one link.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "live.h"

int il_live_lock(const char *path, struct il_error *err)
{
	char pid[32], holder[32];
	/* Never through a symlink, nor into a file linked elsewhere: as root, the pid written
	 * below would otherwise truncate whatever file someone pointed the name at. */
	int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	struct stat st;
	int n;

	if (fd < 0)
		return il_error_set(err, path, 0, "cannot open the lock file: %s%s",
				    strerror(errno), errno == ELOOP ? " (a symlink: refused)" : "");
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
		close(fd);
		return il_error_set(err, path, 0,
				    "the lock file is not a regular file with one link: "
				    "refused");
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int e = errno;

		close(fd);
		if (e != EWOULDBLOCK)
			return il_error_set(err, path, 0, "cannot lock: %s", strerror(e));
		if (il_live_read_text(path, holder, sizeof(holder)))
			snprintf(holder, sizeof(holder), "?");
		return il_error_set(err, path, 0,
				    "another idlelab measure is running (pid %s holds the lock)",
				    holder);
	}
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	/* The pid is informative only: failing to write it does not unlock anything. */
	if (ftruncate(fd, 0) == 0 && pwrite(fd, pid, (size_t)n, 0) != n)
		errno = 0;
	return fd;
}

void il_live_unlock(int fd)
{
	if (fd >= 0)
		close(fd);
}
