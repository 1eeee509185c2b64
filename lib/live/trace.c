// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.c - recording the idle periods of a measured run for `idlelab replay`, through
 * libtracefs, in a private instance so that the machine's own tracing is left alone.
 *
 * Following vm-real.md §7: trace_clock=mono (so hrtimer expiry times and event timestamps
 * share one clock), a buffer sized by the caller, no reader while recording, and the text
 * `trace` file copied out afterwards (the format lib/trace/ftrace.c reads). The instance is
 * registered as a created directory in the caller's il_live_changes, so the same restore
 * path that puts the governor back (normal exit, signal handler) also removes it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "live.h"
#include "util/atomic.h"
#include "util/array.h"

#ifdef HAVE_LIBTRACEFS
#include <tracefs.h>

struct il_live_trace {
	struct tracefs_instance *inst;
	char dir[IL_LIVE_PATH_MAX];
};

/* The events a replay reads; only power:cpu_idle is indispensable. NULL: the whole system. */
static const struct {
	const char *system;
	const char *event;
	bool required;
} trace_events[] = {
	{ "power", "cpu_idle", true },
	{ "power", "cpu_idle_miss", false },
	{ "timer", NULL, false },
	{ "irq", NULL, false },
	{ "irq_vectors", NULL, false },
	{ "ipi", NULL, false },
	{ "sched", "sched_wakeup", false },
};

const char *il_live_trace_missing(void)
{
	return NULL;
}

/* The tracefs mount under the root: the one with an instances/ directory. */
static int find_tracefs(const struct il_live *lv, char *buf, size_t cap, struct il_error *err)
{
	static const char *const places[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char probe[IL_LIVE_PATH_MAX + 16];
	struct stat st;

	for (size_t i = 0; i < ARRAY_SIZE(places); i++) {
		if (il_live_path(lv, buf, cap, "%s", places[i]))
			return il_error_set(err, lv->root, 0, "path too long");
		snprintf(probe, sizeof(probe), "%s/instances", buf);
		if (!stat(probe, &st) && S_ISDIR(st.st_mode))
			return 0;
	}
	il_live_path(lv, buf, cap, "%s", places[0]);
	return il_error_set(err, buf, 0, "no tracefs here (mount it: mount -t tracefs nodev %s)",
			    places[0]);
}

static int enable_events(struct il_live_trace *t, char *missing, size_t cap, struct il_error *err)
{
	size_t used = 0;

	for (size_t i = 0; i < ARRAY_SIZE(trace_events); i++) {
		const char *sys = trace_events[i].system, *ev = trace_events[i].event;

		if (!tracefs_event_enable(t->inst, sys, ev))
			continue;
		if (trace_events[i].required)
			return il_error_set(err, t->dir, 0, "cannot enable %s:%s: %s", sys, ev,
					    strerror(errno));
		if (missing && used < cap)
			used += (size_t)snprintf(missing + used, cap - used, "%s%s:%s",
						 used ? ", " : "", sys, ev ? ev : "*");
	}
	return 0;
}

static int configure(struct il_live_trace *t, unsigned int buffer_kb, struct il_error *err)
{
	if (tracefs_trace_off(t->inst))
		return il_error_set(err, t->dir, 0, "cannot turn tracing off: %s", strerror(errno));
	if (tracefs_instance_file_write(t->inst, "trace_clock", "mono") < 0)
		return il_error_set(err, t->dir, 0, "cannot set trace_clock to mono: %s",
				    strerror(errno));
	if (tracefs_instance_set_buffer_size(t->inst, buffer_kb, -1) < 0)
		return il_error_set(err, t->dir, 0, "cannot set the buffer to %u kB per CPU: %s",
				    buffer_kb, strerror(errno));
	return 0;
}

int il_live_trace_open(const struct il_live *lv, struct il_live_changes *ch, unsigned int buffer_kb,
		       struct il_live_trace **out, char *missing, size_t missing_cap,
		       struct il_error *err)
{
	char tracing[IL_LIVE_PATH_MAX], name[64];
	struct il_live_trace *t;
	char *dir;

	*out = NULL;
	if (missing && missing_cap)
		missing[0] = '\0';
	if (find_tracefs(lv, tracing, sizeof(tracing), err))
		return -1;
	/* The library never prints: libtracefs's own warnings would go to stderr. */
	tracefs_set_loglevel(TEP_LOG_NONE);
	if (tracefs_set_tracing_dir(tracing))
		return il_error_set(err, tracing, 0, "libtracefs does not accept it: %s",
				    strerror(errno));
	t = calloc(1, sizeof(*t));
	if (!t)
		return il_error_set(err, tracing, 0, "out of memory");
	snprintf(name, sizeof(name), "idlelab-%ld", (long)getpid());
	t->inst = tracefs_instance_create(name);
	if (!t->inst) {
		free(t);
		return il_error_set(err, tracing, 0, "cannot create the instance %s: %s%s", name,
				    strerror(errno), errno == EACCES || errno == EPERM ?
				    " (tracing needs root)" : "");
	}
	dir = tracefs_instance_get_dir(t->inst);
	if (!dir || strlen(dir) >= sizeof(t->dir)) {
		il_error_set(err, tracing, 0, "cannot tell the instance's directory");
		free(dir);
		tracefs_instance_destroy(t->inst);
		tracefs_instance_free(t->inst);
		free(t);
		return -1;
	}
	strcpy(t->dir, dir);
	free(dir);
	/* From here on the restore path owns the instance: every failure below leaves it to it. */
	if (il_live_created_dir(ch, t->dir, err)) {
		tracefs_instance_destroy(t->inst);
		tracefs_instance_free(t->inst);
		free(t);
		return -1;
	}
	if (configure(t, buffer_kb, err) || enable_events(t, missing, missing_cap, err)) {
		il_live_trace_free(t);
		return -1;
	}
	*out = t;
	return 0;
}

int il_live_trace_start(struct il_live_trace *t, struct il_error *err)
{
	/* Opening "trace" for writing with O_TRUNC empties the buffer. */
	if (tracefs_instance_file_write(t->inst, "trace", "") < 0)
		return il_error_set(err, t->dir, 0, "cannot clear the buffer: %s", strerror(errno));
	if (tracefs_trace_on(t->inst))
		return il_error_set(err, t->dir, 0, "cannot turn tracing on: %s", strerror(errno));
	return 0;
}

/* "overrun: N" of per_cpu/cpuN/stats, summed. */
static long long overruns(const struct il_live_trace *t)
{
	char path[IL_LIVE_PATH_MAX + 64], line[128];
	long long total = 0, v;
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%s/per_cpu", t->dir);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		FILE *f;

		if (strncmp(de->d_name, "cpu", 3))
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/per_cpu/%s/stats", t->dir,
				     de->d_name) >= sizeof(path))
			continue;
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "overrun: %lld", &v) == 1)
				total += v;
		fclose(f);
	}
	closedir(d);
	return total;
}

long long il_live_trace_stop(struct il_live_trace *t, struct il_error *err)
{
	if (tracefs_trace_off(t->inst))
		return il_error_set(err, t->dir, 0, "cannot turn tracing off: %s", strerror(errno));
	return overruns(t);
}

static int copy_fd(int in, int out)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		for (ssize_t done = 0; done < n;) {
			ssize_t w = write(out, buf + done, (size_t)(n - done));

			if (w < 0) {
				if (errno == EINTR)
					continue;
				return -1;
			}
			done += w;
		}
	}
	return 0;
}

int il_live_trace_save(struct il_live_trace *t, const char *path, struct il_error *err)
{
	struct il_atomic out;
	int in, e;

	in = tracefs_instance_file_open(t->inst, "trace", O_RDONLY);
	if (in < 0)
		return il_error_set(err, t->dir, 0, "cannot read the trace: %s", strerror(errno));
	if (il_atomic_open(&out, path)) {
		e = errno;
		close(in);
		return il_error_set(err, path, 0, "cannot write: %s", strerror(e));
	}
	if (copy_fd(in, out.fd)) {
		e = errno;
		close(in);
		il_atomic_abort(&out);
		return il_error_set(err, path, 0, "cannot write: %s", strerror(e));
	}
	close(in);
	if (il_atomic_commit(&out))
		return il_error_set(err, path, 0, "cannot write: %s", strerror(errno));
	return 0;
}

const char *il_live_trace_dir(const struct il_live_trace *t)
{
	return t->dir;
}

void il_live_trace_free(struct il_live_trace *t)
{
	if (!t)
		return;
	tracefs_instance_free(t->inst);
	free(t);
}

#else /* !HAVE_LIBTRACEFS */

struct il_live_trace {
	char dir[1];
};

static const char no_libtracefs[] =
	"built without libtracefs (install libtracefs-dev and rebuild to record traces)";

const char *il_live_trace_missing(void)
{
	return no_libtracefs;
}

int il_live_trace_open(const struct il_live *lv, struct il_live_changes *ch, unsigned int buffer_kb,
		       struct il_live_trace **out, char *missing, size_t missing_cap,
		       struct il_error *err)
{
	*out = NULL;
	return il_error_input(err, IL_INPUT_TRACE, "%s", no_libtracefs);
}

int il_live_trace_start(struct il_live_trace *t, struct il_error *err)
{
	return il_error_input(err, IL_INPUT_TRACE, "%s", no_libtracefs);
}

long long il_live_trace_stop(struct il_live_trace *t, struct il_error *err)
{
	return il_error_input(err, IL_INPUT_TRACE, "%s", no_libtracefs);
}

int il_live_trace_save(struct il_live_trace *t, const char *path, struct il_error *err)
{
	return il_error_input(err, IL_INPUT_TRACE, "%s", no_libtracefs);
}

const char *il_live_trace_dir(const struct il_live_trace *t)
{
	return "";
}

void il_live_trace_free(struct il_live_trace *t)
{
}

#endif /* HAVE_LIBTRACEFS */
