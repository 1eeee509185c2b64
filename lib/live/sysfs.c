// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysfs.c - reading the cpuidle sysfs tree under a root directory: driver, governors, the
 * per-CPU state directories and their counters (the files drivers/cpuidle/sysfs.c creates).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "live.h"
#include "util/array.h"

#define CPU_DIR "/sys/devices/system/cpu"

int il_live_init(struct il_live *lv, const char *root, struct il_error *err)
{
	struct stat st;
	size_t len;

	if (!root || !*root)
		root = "/";
	len = strlen(root);
	while (len > 1 && root[len - 1] == '/')
		len--;
	if (len >= sizeof(lv->root))
		return il_error_set(err, root, 0, "root directory name too long");
	if (stat(root, &st) || !S_ISDIR(st.st_mode))
		return il_error_set(err, root, 0, "not a directory (a system root must be one)");
	/* "/" becomes "", so that paths read "/sys/..." rather than "//sys/...". */
	if (len == 1 && root[0] == '/')
		len = 0;
	memcpy(lv->root, root, len);
	lv->root[len] = '\0';
	lv->dump = NULL;
	return 0;
}

const char *il_live_root_name(const struct il_live *lv)
{
	return lv->root[0] ? lv->root : "/";
}

int il_live_path(const struct il_live *lv, char *buf, size_t cap, const char *fmt, ...)
{
	size_t used = strlen(lv->root);
	va_list ap;
	int n;

	if (used >= cap) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, lv->root, used);
	va_start(ap, fmt);
	n = vsnprintf(buf + used, cap - used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= cap - used) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

int il_live_read_text(const char *path, char *buf, size_t cap)
{
	size_t len = 0;
	ssize_t got;
	char extra;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	/* sysfs answers in one read of at most a page; a fixture file may need several. */
	while (len < cap && (got = read(fd, buf + len, cap - len)) != 0) {
		if (got < 0) {
			int saved = errno;

			if (saved == EINTR)
				continue;
			close(fd);
			errno = saved;
			return -1;
		}
		len += (size_t)got;
	}
	got = len == cap ? read(fd, &extra, 1) : 0;
	close(fd);
	if (memchr(buf, '\0', len)) {
		errno = EINVAL;
		return -1;
	}
	/* The trailing newline need not fit; the text and its NUL must. */
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' ' || buf[len - 1] == '\t'))
		len--;
	if (got > 0 || len >= cap) {
		errno = EOVERFLOW;
		return -1;
	}
	buf[len] = '\0';
	if (!len) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

static int parse_u64_text(const char *s, u64 *out)
{
	u64 v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (v > (UINT64_MAX - (u64)(*s - '0')) / 10)
			return -1;
		v = v * 10 + (u64)(*s - '0');
	}
	*out = v;
	return 0;
}

int il_live_read_u64(const char *path, u64 *out)
{
	char buf[64];

	if (il_live_read_text(path, buf, sizeof(buf)))
		return -1;
	if (parse_u64_text(buf, out)) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* ---- driver and governors ------------------------------------------------------------------- */

void il_live_split_governors(const char *list, struct il_live_cpuidle *ci)
{
	const char *p = list;

	ci->ngov = 0;
	while (*p && ci->ngov < IL_LIVE_GOV_MAX) {
		size_t len;

		while (*p == ' ' || *p == '\t')
			p++;
		len = strcspn(p, " \t");
		if (!len)
			break;
		if (len < IL_LIVE_GOV_NAME_LEN) {
			memcpy(ci->available[ci->ngov], p, len);
			ci->available[ci->ngov][len] = '\0';
			ci->ngov++;
		}
		p += len;
	}
}

int il_live_read_cpuidle(const struct il_live *lv, struct il_live_cpuidle *ci, struct il_error *err)
{
	char path[IL_LIVE_PATH_MAX], list[IL_LIVE_VALUE_MAX];

	if (lv->dump)
		return il_live_dump_read_cpuidle(lv->dump, ci, err);
	memset(ci, 0, sizeof(*ci));
	if (il_live_path(lv, path, sizeof(path), CPU_DIR "/cpuidle/current_driver") ||
	    il_live_read_text(path, ci->driver, sizeof(ci->driver)))
		return il_error_set(err, path, 0, "cannot read the cpuidle driver: %s%s",
				    strerror(errno),
				    errno == ENOENT ?
					" (no cpuidle in this kernel, or the root given is "
					"not a system root)" : "");
	if (il_live_path(lv, path, sizeof(path), CPU_DIR "/cpuidle/current_governor"))
		return il_error_set(err, lv->root, 0, "path too long");
	if (!il_live_read_text(path, ci->governor, sizeof(ci->governor))) {
		ci->can_switch = true;
	} else {
		if (errno != ENOENT)
			return il_error_set(err, path, 0, "cannot read: %s", strerror(errno));
		if (il_live_path(lv, path, sizeof(path), CPU_DIR "/cpuidle/current_governor_ro") ||
		    il_live_read_text(path, ci->governor, sizeof(ci->governor)))
			return il_error_set(err, path, 0, "cannot read the cpuidle governor: %s",
					    strerror(errno));
	}
	if (il_live_path(lv, path, sizeof(path), CPU_DIR "/cpuidle/available_governors"))
		return il_error_set(err, lv->root, 0, "path too long");
	if (!il_live_read_text(path, list, sizeof(list)))
		il_live_split_governors(list, ci);
	else if (errno != ENOENT)
		return il_error_set(err, path, 0, "cannot read: %s", strerror(errno));
	return 0;
}

bool il_live_governor_available(const struct il_live_cpuidle *ci, const char *name)
{
	for (int i = 0; i < ci->ngov; i++)
		if (!strcmp(ci->available[i], name))
			return true;
	return false;
}

bool il_live_has_driver(const struct il_live_cpuidle *ci)
{
	return ci->driver[0] && strcmp(ci->driver, "none") != 0;
}

/* ---- CPUs ------------------------------------------------------------------------------------ */

/* "cpu17" -> 17; anything else (cpufreq, cpuidle, cpu1x) -> -1. */
static long cpu_dir_number(const char *name)
{
	u64 v;

	if (strncmp(name, "cpu", 3) || parse_u64_text(name + 3, &v) || v >= IL_LIVE_CPUS_MAX)
		return -1;
	return (long)v;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return (x > y) - (x < y);
}

int il_live_list_cpus(const struct il_live *lv, unsigned int **cpus, struct il_error *err)
{
	char path[IL_LIVE_PATH_MAX];
	unsigned int *ids = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d;

	*cpus = NULL;
	if (lv->dump)
		return il_live_dump_list_cpus(lv->dump, cpus, err);
	if (il_live_path(lv, path, sizeof(path), CPU_DIR))
		return il_error_set(err, lv->root, 0, "path too long");
	d = opendir(path);
	if (!d)
		return il_error_set(err, path, 0, "cannot list CPUs: %s", strerror(errno));
	while ((de = readdir(d))) {
		long cpu = cpu_dir_number(de->d_name);

		if (cpu < 0)
			continue;
		if (n == cap) {
			unsigned int *bigger = realloc(ids, (cap ? cap * 2 : 64) * sizeof(*ids));

			if (!bigger) {
				free(ids);
				closedir(d);
				return il_error_set(err, path, 0, "out of memory");
			}
			ids = bigger;
			cap = cap ? cap * 2 : 64;
		}
		ids[n++] = (unsigned int)cpu;
	}
	closedir(d);
	if (!n) {
		free(ids);
		return il_error_set(err, path, 0, "no cpuN directories");
	}
	qsort(ids, n, sizeof(*ids), cmp_uint);
	*cpus = ids;
	return (int)n;
}

/* ---- states ---------------------------------------------------------------------------------- */

/*
 * One file of a state directory, into @buf: absent is fine (older kernel), unreadable is not.
 * Return: 1 read, 0 absent, -1 with @err set.
 */
static int state_file(const char *dir, const char *file, char *buf, size_t cap,
		      struct il_error *err)
{
	char path[IL_LIVE_PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, file) >= sizeof(path))
		return il_error_set(err, dir, 0, "path too long");
	if (il_live_read_text(path, buf, cap)) {
		if (errno == ENOENT)
			return 0;
		/* An empty desc is legal (some drivers leave it blank). */
		if (errno == EINVAL && !strcmp(file, "desc")) {
			buf[0] = '\0';
			return 1;
		}
		return il_error_set(err, path, 0, "cannot read: %s", strerror(errno));
	}
	return 1;
}

static int state_text(const char *dir, const char *file, char *dst, size_t cap, unsigned int bit,
		      struct il_live_state *s, struct il_error *err)
{
	char buf[IL_LIVE_VALUE_MAX];
	int got = state_file(dir, file, buf, sizeof(buf), err);

	if (got <= 0)
		return got;
	if (strlen(buf) >= cap)
		return il_error_set(err, dir, 0, "%s '%s' longer than %zu characters", file, buf,
				    cap - 1);
	strcpy(dst, buf);
	s->have |= bit;
	return 0;
}

static int state_u64(const char *dir, const char *file, u64 *dst, unsigned int bit,
		     struct il_live_state *s, struct il_error *err)
{
	char buf[IL_LIVE_VALUE_MAX];
	int got = state_file(dir, file, buf, sizeof(buf), err);

	if (got <= 0)
		return got;
	if (parse_u64_text(buf, dst))
		return il_error_set(err, dir, 0, "%s is '%s', not a number", file, buf);
	s->have |= bit;
	return 0;
}

static int read_state(const char *dir, enum il_live_read_what what, struct il_live_state *s,
		      struct il_error *err)
{
	static const struct {
		const char *file;
		size_t off;
		unsigned int bit;
	} counters[] = {
		{ "usage", offsetof(struct il_live_state, usage), IL_LF_USAGE },
		{ "time", offsetof(struct il_live_state, time_us), IL_LF_TIME },
		{ "above", offsetof(struct il_live_state, above), IL_LF_ABOVE },
		{ "below", offsetof(struct il_live_state, below), IL_LF_BELOW },
		{ "rejected", offsetof(struct il_live_state, rejected), IL_LF_REJECTED },
	}, settings[] = {
		{ "latency", offsetof(struct il_live_state, latency_us), IL_LF_LATENCY },
		{ "residency", offsetof(struct il_live_state, residency_us), IL_LF_RESIDENCY },
		{ "power", offsetof(struct il_live_state, power), IL_LF_POWER },
		{ "disable", offsetof(struct il_live_state, disable), IL_LF_DISABLE },
	};

	memset(s, 0, sizeof(*s));
	if (state_text(dir, "name", s->name, sizeof(s->name), IL_LF_NAME, s, err))
		return -1;
	if (!(s->have & IL_LF_NAME))
		return il_error_set(err, dir, 0, "state directory without a name file");
	for (size_t i = 0; i < ARRAY_SIZE(counters); i++)
		if (state_u64(dir, counters[i].file, (u64 *)((char *)s + counters[i].off),
			      counters[i].bit, s, err))
			return -1;
	if (what == IL_LIVE_READ_COUNTERS)
		return 0;
	if (state_text(dir, "desc", s->desc, sizeof(s->desc), IL_LF_DESC, s, err) ||
	    state_text(dir, "default_status", s->default_status, sizeof(s->default_status),
		       IL_LF_DEFAULT_STATUS, s, err))
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(settings); i++)
		if (state_u64(dir, settings[i].file, (u64 *)((char *)s + settings[i].off),
			      settings[i].bit, s, err))
			return -1;
	return 0;
}

/* The number of stateK directories: state0, state1, ... without a gap, as the kernel makes them. */
static int count_states(const char *dir, struct il_error *err)
{
	char path[IL_LIVE_PATH_MAX];
	struct stat st;
	int n;

	for (n = 0;; n++) {
		if ((size_t)snprintf(path, sizeof(path), "%s/state%d", dir, n) >= sizeof(path))
			return il_error_set(err, dir, 0, "path too long");
		if (stat(path, &st) || !S_ISDIR(st.st_mode))
			break;
		if (n == CPUIDLE_STATE_MAX)
			return il_error_set(err, dir, 0, "more than %d states (CPUIDLE_STATE_MAX)",
					    CPUIDLE_STATE_MAX);
	}
	return n;
}

/*
 * Whether cpuN/online says 0. The file is absent for a CPU that cannot be taken offline
 * (often cpu0) and on kernels without CPU hotplug: online. Offline CPUs keep their cpuidle
 * directory (the device stays registered), so that directory alone does not tell.
 */
static int read_offline(const struct il_live *lv, unsigned int cpu, bool *offline,
			struct il_error *err)
{
	char path[IL_LIVE_PATH_MAX];
	u64 v;

	*offline = false;
	if (il_live_path(lv, path, sizeof(path), CPU_DIR "/cpu%u/online", cpu))
		return il_error_set(err, lv->root, 0, "path too long");
	if (!il_live_read_u64(path, &v)) {
		*offline = v == 0;
		return 0;
	}
	if (errno == ENOENT)
		return 0;
	return il_error_set(err, path, 0, "cannot read: %s", strerror(errno));
}

int il_live_read_cpu(const struct il_live *lv, unsigned int cpu, enum il_live_read_what what,
		     struct il_live_cpu *out, struct il_error *err)
{
	char dir[IL_LIVE_PATH_MAX], sdir[IL_LIVE_PATH_MAX];
	struct stat st;
	int n;

	if (lv->dump)
		return il_live_dump_read_cpu(lv->dump, cpu, what, out);
	memset(out, 0, sizeof(*out));
	out->cpu = cpu;
	if (read_offline(lv, cpu, &out->offline, err))
		return -1;
	if (il_live_path(lv, dir, sizeof(dir), CPU_DIR "/cpu%u/cpuidle", cpu))
		return il_error_set(err, lv->root, 0, "path too long");
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return 0;
	out->has_cpuidle = true;
	n = count_states(dir, err);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		if ((size_t)snprintf(sdir, sizeof(sdir), "%s/state%d", dir, i) >= sizeof(sdir))
			return il_error_set(err, dir, 0, "path too long");
		if (read_state(sdir, what, &out->st[i], err))
			return -1;
	}
	out->nstates = n;
	return 0;
}

/* ---- deltas ---------------------------------------------------------------------------------- */

static int counter_delta(u64 before, u64 after, u64 *out, unsigned int cpu, int state,
			 const char *file, struct il_error *err)
{
	char where[64];

	if (after < before) {
		snprintf(where, sizeof(where), "cpu%u/cpuidle/state%d/%s", cpu, state, file);
		return il_error_set(err, where, 0,
				    "went back from %llu to %llu "
				    "(was the CPU unplugged and re-registered?)",
				    (unsigned long long)before, (unsigned long long)after);
	}
	*out = after - before;
	return 0;
}

int il_live_diff(const struct il_live_cpu *before, const struct il_live_cpu *after,
		 struct il_live_delta *out, struct il_error *err)
{
	char where[32];

	snprintf(where, sizeof(where), "cpu%u", after->cpu);
	if (before->cpu != after->cpu)
		return il_error_set(err, where, 0, "snapshots of different CPUs (cpu%u)",
				    before->cpu);
	if (before->has_cpuidle != after->has_cpuidle || before->nstates != after->nstates)
		return il_error_set(err, where, 0,
				    "the cpuidle states changed during the run "
				    "(%d states before, %d after)",
				    before->nstates, after->nstates);
	for (int i = 0; i < after->nstates; i++) {
		const struct il_live_state *a = &before->st[i], *b = &after->st[i];
		struct il_live_delta *d = &out[i];

		if (strcmp(a->name, b->name))
			return il_error_set(err, where, 0, "state%d changed name from '%s' to '%s'",
					    i, a->name, b->name);
		memset(d, 0, sizeof(*d));
		d->have = a->have & b->have & IL_LF_COUNTERS;
		if (((d->have & IL_LF_USAGE) &&
		     counter_delta(a->usage, b->usage, &d->usage, after->cpu, i, "usage", err)) ||
		    ((d->have & IL_LF_TIME) && counter_delta(a->time_us, b->time_us, &d->time_us,
							     after->cpu, i, "time", err)) ||
		    ((d->have & IL_LF_ABOVE) &&
		     counter_delta(a->above, b->above, &d->above, after->cpu, i, "above", err)) ||
		    ((d->have & IL_LF_BELOW) &&
		     counter_delta(a->below, b->below, &d->below, after->cpu, i, "below", err)) ||
		    ((d->have & IL_LF_REJECTED) &&
		     counter_delta(a->rejected, b->rejected, &d->rejected, after->cpu, i,
				   "rejected", err)))
			return -1;
	}
	return 0;
}

int il_live_find_state(const struct il_live_cpu *cpu, const char *spec)
{
	u64 idx;

	if (!parse_u64_text(spec, &idx))
		return idx < (u64)cpu->nstates ? (int)idx : -1;
	for (int i = 0; i < cpu->nstates; i++)
		if (!strcmp(cpu->st[i].name, spec))
			return i;
	return -1;
}
