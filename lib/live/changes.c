// SPDX-License-Identifier: GPL-2.0-only
/*
 * changes.c - every setting a live measurement changes, saved before the change and put
 * back afterwards (rtla's osnoise_set_cpus()/osnoise_restore_cpus() pattern), and the
 * governor switch built on it.
 *
 * The restore path must work from a signal handler: the table of changes is allocated
 * before the first write, an entry is filled completely before the count that publishes
 * it is raised, and il_live_restore() uses only open(), write() and close().
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "live.h"

#define CPUIDLE_DIR "/sys/devices/system/cpu/cpuidle"

int il_live_changes_init(struct il_live_changes *ch, int cap, struct il_error *err)
{
	ch->n = 0;
	ch->cap = 0;
	ch->c = calloc((size_t)(cap > 0 ? cap : 1), sizeof(*ch->c));
	if (!ch->c)
		return il_error_set(err, "idlelab", 0, "out of memory for %d saved settings", cap);
	ch->cap = cap;
	return 0;
}

void il_live_changes_free(struct il_live_changes *ch)
{
	free(ch->c);
	ch->c = NULL;
	ch->cap = 0;
	ch->n = 0;
}

static bool saved(const struct il_live_changes *ch, const char *path)
{
	for (int i = 0; i < ch->n; i++)
		if (!strcmp(ch->c[i].path, path))
			return true;
	return false;
}

static const char *root_hint(int e)
{
	return e == EACCES || e == EPERM || e == EROFS ?
		" (changing cpuidle settings needs root)" : "";
}

/* Save @path's current text as a new entry, published only once it is complete. */
static int save_original(struct il_live_changes *ch, const char *path, struct il_error *err)
{
	struct il_live_change *c;

	if (saved(ch, path))
		return 0;
	if (ch->n >= ch->cap)
		return il_error_set(err, path, 0, "too many changed settings (%d)", ch->cap);
	c = &ch->c[ch->n];
	if (strlen(path) >= sizeof(c->path))
		return il_error_set(err, path, 0, "path too long");
	if (il_live_read_text(path, c->orig, sizeof(c->orig) - 1))
		return il_error_set(err, path, 0, "cannot read the value to restore later: %s",
				    strerror(errno));
	strcpy(c->path, path);
	c->remove_dir = false;
	c->orig_len = strlen(c->orig);
	c->orig[c->orig_len++] = '\n';
	/* The entry is complete before a signal handler can see it. */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	ch->n = ch->n + 1;
	return 0;
}

/* Write @len bytes in one write(), as sysfs expects; O_TRUNC so a plain file (fixture) is
 * replaced rather than overwritten in place. Async-signal-safe. Return 0 or an errno. */
static int write_file(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	int e = 0;
	ssize_t n;

	if (fd < 0)
		return errno;
	do
		n = write(fd, buf, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		e = errno;
	else if ((size_t)n != len)
		e = EIO;
	if (close(fd) && !e)
		e = errno;
	return e;
}

int il_live_write(struct il_live_changes *ch, const char *path, const char *value,
		  struct il_error *err)
{
	char buf[IL_LIVE_VALUE_MAX + 1];
	size_t len = strlen(value);
	int e;

	if (len + 1 >= sizeof(buf))
		return il_error_set(err, path, 0, "value too long");
	if (access(path, F_OK))
		return il_error_set(err, path, 0, "cannot write: %s", strerror(errno));
	if (save_original(ch, path, err))
		return -1;
	memcpy(buf, value, len);
	buf[len++] = '\n';
	e = write_file(path, buf, len);
	if (e)
		return il_error_set(err, path, 0, "cannot write '%s': %s%s", value, strerror(e),
				    root_hint(e));
	return 0;
}

int il_live_created_dir(struct il_live_changes *ch, const char *path, struct il_error *err)
{
	struct il_live_change *c;

	if (ch->n >= ch->cap)
		return il_error_set(err, path, 0, "too many changed settings (%d)", ch->cap);
	c = &ch->c[ch->n];
	if (strlen(path) >= sizeof(c->path))
		return il_error_set(err, path, 0, "path too long");
	strcpy(c->path, path);
	c->orig_len = 0;
	c->remove_dir = true;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	ch->n = ch->n + 1;
	return 0;
}

/* Remove a directory we created; already gone is fine. Async-signal-safe. */
static int remove_dir(const char *path)
{
	return rmdir(path) && errno != ENOENT ? errno : 0;
}

int il_live_restore(struct il_live_changes *ch)
{
	int failed = 0;

	for (int i = ch->n - 1; i >= 0; i--) {
		struct il_live_change *c = &ch->c[i];
		int saved = errno;

		if (c->remove_dir)
			c->restore_failed = remove_dir(c->path) != 0;
		else
			c->restore_failed = write_file(c->path, c->orig, c->orig_len) != 0;
		failed += c->restore_failed;
		errno = saved;
	}
	return failed;
}

const char *il_live_restore_failed(const struct il_live_changes *ch, int i)
{
	for (int k = ch->n - 1; k >= 0; k--)
		if (ch->c[k].restore_failed && i-- == 0)
			return ch->c[k].path;
	return NULL;
}

int il_live_check_writable(const char *path, struct il_error *err)
{
	if (access(path, F_OK))
		return il_error_set(err, path, 0, "%s", strerror(errno));
	if (access(path, W_OK))
		return il_error_set(err, path, 0, "not writable: %s%s", strerror(errno),
				    root_hint(errno));
	return 0;
}

/* "teo: governor not available (available_governors: ladder menu haltpoll)" */
static int unavailable(const struct il_live_cpuidle *ci, const char *name, struct il_error *err)
{
	char list[IL_LIVE_GOV_MAX * (IL_LIVE_GOV_NAME_LEN + 1) + 1] = "";
	size_t used = 0;

	for (int i = 0; i < ci->ngov; i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used, " %s", ci->available[i]);
	il_error_set(err, name, 0, "governor not available (available_governors:%s)",
		     ci->ngov ? list : " none");
	return IL_SWITCH_UNAVAILABLE;
}

int il_live_switch_governor(const struct il_live *lv, struct il_live_changes *ch,
			    const struct il_live_cpuidle *ci, const char *name,
			    struct il_error *err)
{
	char path[IL_LIVE_PATH_MAX], now[IL_LIVE_VALUE_MAX];

	if (il_live_path(lv, path, sizeof(path), CPUIDLE_DIR "/current_governor"))
		return il_error_set(err, lv->root, 0, "path too long");
	if (!ci->can_switch)
		return il_error_set(err, path, 0,
				    "missing: this kernel cannot switch governors at run time "
				    "(5.8+, or boot with cpuidle_sysfs_switch)");
	if (!il_live_governor_available(ci, name))
		return unavailable(ci, name, err);
	if (il_live_write(ch, path, name, err))
		return -1;
	if (il_live_read_text(path, now, sizeof(now)))
		return il_error_set(err, path, 0, "cannot read back: %s", strerror(errno));
	if (strcmp(now, name))
		return il_error_set(err, path, 0,
				    "the kernel kept governor '%s' after writing '%s'", now, name);
	return IL_SWITCH_OK;
}
