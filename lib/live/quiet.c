// SPDX-License-Identifier: GPL-2.0-only
/*
 * quiet.c - was the machine quiet during a measurement? Read under the root like the rest of
 * lib/live: ROOT/proc/loadavg, and ROOT/proc/PID/stat of every process.
 *
 *  1. il_live_loadavg(): the 1-minute load average, the first field of proc/loadavg.
 *  2. il_live_procs_read(): for each process, its CPU time so far (utime + stime, in clock
 *     ticks: fields 14 and 15 of proc/PID/stat), the CPU it last ran on (field 39) and its
 *     process group (field 5). The command name (field 2) may hold spaces and parentheses,
 *     so the fields are counted from its last ')'.
 *  3. il_live_procs_busy(): the processes found in both snapshots, outside the measured
 *     command's process group and other than idlelab, whose CPU time grew by at least
 *     @min_ticks and which last ran on a measured CPU: busiest first. A process that started
 *     or ended between the snapshots is not seen (its time cannot be told apart); a
 *     multi-threaded one counts the time of all its threads on the CPU its main thread last
 *     ran on.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "live.h"

int il_live_loadavg(const struct il_live *lv, double *load1, struct il_error *err)
{
	char path[IL_LIVE_PATH_MAX], text[128], *end;

	if (il_live_path(lv, path, sizeof(path), "/proc/loadavg"))
		return il_error_set(err, lv->root, 0, "path too long");
	if (il_live_read_text(path, text, sizeof(text)))
		return il_error_set(err, path, 0, "cannot read: %s", strerror(errno));
	errno = 0;
	*load1 = strtod(text, &end);
	if (errno || end == text || *load1 < 0 || (*end && !isspace((unsigned char)*end)))
		return il_error_set(err, path, 0, "not a load average: '%s'", text);
	return 0;
}

/* Parse one proc/PID/stat line into @p. Return 0, or -1 when it does not have that shape. */
static int parse_stat(const char *text, struct il_live_proc *p)
{
	const char *open = strchr(text, '('), *close = strrchr(text, ')'), *s;
	unsigned long long utime = 0, stime = 0, v;
	size_t len;
	int field;

	if (!open || !close || close < open)
		return -1;
	len = (size_t)(close - open - 1);
	if (len >= sizeof(p->comm))
		len = sizeof(p->comm) - 1;
	memcpy(p->comm, open + 1, len);
	p->comm[len] = '\0';
	p->cpu = 0;
	p->pgrp = 0;
	s = close + 1;
	/* Field 3 (state) follows the command name; count from there. */
	for (field = 3; *s; field++) {
		char *end;

		while (*s == ' ')
			s++;
		if (!*s)
			break;
		errno = 0;
		v = strtoull(s, &end, 10);
		if (field == 5)
			p->pgrp = (int)(long long)v;
		else if (field == 14)
			utime = v;
		else if (field == 15)
			stime = v;
		else if (field == 39)
			p->cpu = (unsigned int)v;
		while (*s && *s != ' ')
			s++;
	}
	if (field <= 39)
		return -1;
	p->ticks = utime + stime;
	return 0;
}

static int add_proc(struct il_live_procs *ps, const struct il_live_proc *p)
{
	if (ps->n == ps->cap) {
		int cap = ps->cap ? 2 * ps->cap : 256;
		struct il_live_proc *np = realloc(ps->p, (size_t)cap * sizeof(*np));

		if (!np)
			return -1;
		ps->p = np;
		ps->cap = cap;
	}
	ps->p[ps->n++] = *p;
	return 0;
}

int il_live_procs_read(const struct il_live *lv, struct il_live_procs *ps, struct il_error *err)
{
	char path[IL_LIVE_PATH_MAX], text[1024];
	struct dirent *e;
	DIR *d;

	ps->n = 0;
	if (il_live_path(lv, path, sizeof(path), "/proc"))
		return il_error_set(err, lv->root, 0, "path too long");
	d = opendir(path);
	if (!d)
		return il_error_set(err, path, 0, "cannot list: %s", strerror(errno));
	while ((e = readdir(d))) {
		struct il_live_proc p = { 0 };
		char *end;
		long pid = strtol(e->d_name, &end, 10);

		if (*end || pid <= 0 || !isdigit((unsigned char)e->d_name[0]))
			continue;
		/* A process that ended since the listing is not an error. */
		if (il_live_path(lv, path, sizeof(path), "/proc/%ld/stat", pid) ||
		    il_live_read_text(path, text, sizeof(text)) || parse_stat(text, &p))
			continue;
		p.pid = (int)pid;
		if (add_proc(ps, &p)) {
			closedir(d);
			return il_error_set(err, path, 0, "out of memory");
		}
	}
	closedir(d);
	return 0;
}

void il_live_procs_free(struct il_live_procs *ps)
{
	free(ps->p);
	ps->p = NULL;
	ps->n = ps->cap = 0;
}

static const struct il_live_proc *find_proc(const struct il_live_procs *ps, int pid)
{
	for (int i = 0; i < ps->n; i++)
		if (ps->p[i].pid == pid)
			return &ps->p[i];
	return NULL;
}

static bool on_cpus(const unsigned int *cpus, int ncpu, unsigned int cpu)
{
	for (int i = 0; i < ncpu; i++)
		if (cpus[i] == cpu)
			return true;
	return false;
}

int il_live_procs_busy(const struct il_live_procs *before, const struct il_live_procs *after,
		       const unsigned int *cpus, int ncpu, int skip_pgrp, int self, u64 min_ticks,
		       struct il_live_proc *out, int max)
{
	int n = 0;

	for (int i = 0; i < after->n; i++) {
		const struct il_live_proc *a = &after->p[i], *b = find_proc(before, a->pid);
		struct il_live_proc busy;
		int k;

		if (!b || a->pid == self || (skip_pgrp > 0 && a->pgrp == skip_pgrp) ||
		    a->ticks < b->ticks || a->ticks - b->ticks < min_ticks ||
		    !on_cpus(cpus, ncpu, a->cpu))
			continue;
		busy = *a;
		busy.ticks = a->ticks - b->ticks;
		/* Keep the @max busiest, busiest first. */
		if (n < max)
			k = n++;
		else if (max > 0 && out[max - 1].ticks < busy.ticks)
			k = max - 1;
		else
			continue;
		out[k] = busy;
		for (; k > 0 && out[k - 1].ticks < out[k].ticks; k--) {
			busy = out[k - 1];
			out[k - 1] = out[k];
			out[k] = busy;
		}
	}
	return n;
}
