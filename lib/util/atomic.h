/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * atomic.h - write an output file whole or not at all, through an unpredictable temporary.
 *
 * idlelab often runs as root (measure), so an output must never be written through a name a
 * local user can guess and plant a symlink at (the old "FILE.tmp"). The steps:
 *
 *  1. il_atomic_open() makes the temporary with mkostemp() in the target's own directory (so
 *     the rename stays within one file system), named ".NAME.XXXXXX": created with O_EXCL, it
 *     never follows a symlink. Its mode is then set explicitly to 0666 minus the umask, what
 *     fopen(FILE, "w") would have given a new file (mkstemp() itself gives 0600).
 *  2. The caller writes to a->f (or to a->fd, never to both).
 *  3. il_atomic_commit() flushes, fsync()s, closes and renames the temporary over the target,
 *     then fsync()s the directory. On any failure, and in il_atomic_abort(), the temporary is
 *     unlinked and errno kept.
 *
 * A symbolic link at the target is written through, as shell redirection does: the links are
 * followed hop by hop (at most 40) and steps 1-3 happen at the final target, in its own
 * directory; a dangling link creates its target. Since the rename bypasses the kernel's
 * protected_symlinks check, it is applied here: a link in a sticky world-writable directory
 * owned by neither the caller nor the directory's owner is refused (EACCES).
 * A target that is a character device, a FIFO or a socket (-o /dev/null), or an open file named
 * by a link in /proc (/dev/stdout, /dev/fd/N) is written directly, never replaced: an open file
 * of this process is written through a duplicate of its descriptor.
 *
 * While a temporary exists its name sits in a small table, so that a signal handler can call
 * il_atomic_unlink_all() (async-signal-safe: only unlink()) before the process dies.
 * Errors are returned as -1 with errno set; nothing here prints.
 */
#ifndef IDLELAB_UTIL_ATOMIC_H
#define IDLELAB_UTIL_ATOMIC_H

#include <stddef.h>
#include <stdio.h>

struct il_atomic {
	FILE *f;       /* the stream to write */
	int fd;        /* its descriptor, for callers that write(2) */
	char *tmp;     /* the temporary's name; NULL when writing a device in place */
	char *path;    /* the target */
	int slot;      /* index in the table of live temporaries, or -1 */
};

/* Create the temporary for @path. Return 0, or -1 with errno set (nothing left behind). */
int il_atomic_open(struct il_atomic *a, const char *path);

/* Make the written data the content of the target. Return 0, or -1 with errno set (the
 * temporary is removed, the target untouched). @a is released either way. */
int il_atomic_commit(struct il_atomic *a);

/* Drop the temporary; the target is untouched. errno is preserved. */
void il_atomic_abort(struct il_atomic *a);

/* il_atomic_open() + write @len bytes of @data + il_atomic_commit(). */
int il_atomic_write(const char *path, const void *data, size_t len);

/* Whether il_atomic_write(@path) could create its temporary now: made and removed at once.
 * Return: 0, or -1 with errno set (ENOENT: no such directory, EACCES, EROFS, ...). */
int il_atomic_probe(const char *path);

/*
 * il_atomic_strerror - why il_atomic_open() or il_atomic_probe() of @path failed with @err, in
 * words that name the real problem ("ends in '/', a directory: give the output a file name",
 * "cannot create a file in /proc: it takes no new files ...", the protected link) where the
 * bare errno text would mislead. Written into @buf (@cap bytes), which is returned.
 */
const char *il_atomic_strerror(const char *path, int err, char *buf, size_t cap);

/* Unlink every temporary still open. Async-signal-safe, for a handler about to die. */
void il_atomic_unlink_all(void);

#endif /* IDLELAB_UTIL_ATOMIC_H */
