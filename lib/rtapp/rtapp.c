// SPDX-License-Identifier: GPL-2.0-only
/*
 * rtapp.c - the memory of a parsed rt-app workload, reading its file, event names.
 *
 * A workload is many small pieces (tasks, phases, events, names). They come from chunks that
 * are freed together, so that the reader can stop at any error without unwinding.
 */
#include <errno.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtapp-local.h"
#include "util/array.h"

#define CHUNK_MIN (64 * 1024)

struct chunk {
	struct chunk *next;
	size_t used, cap;
	alignas(max_align_t) unsigned char data[];
};

struct il_rtapp_mem {
	struct chunk *chunks;
	struct il_rtapp_res *res; /* grows as events name resources */
	int res_cap;
};

struct il_rtapp *rt_mem_new(void)
{
	struct il_rtapp *rt = calloc(1, sizeof(*rt));

	if (!rt)
		return NULL;
	rt->mem = calloc(1, sizeof(*rt->mem));
	if (!rt->mem) {
		free(rt);
		return NULL;
	}
	rt->max_cpu = -1;
	return rt;
}

void *rt_alloc(struct il_rtapp *rt, size_t size)
{
	struct il_rtapp_mem *m = rt->mem;
	struct chunk *c = m->chunks;
	size_t need = (size + alignof(max_align_t) - 1) & ~(alignof(max_align_t) - 1);
	void *p;

	if (!c || c->cap - c->used < need) {
		size_t cap = need > CHUNK_MIN ? need : CHUNK_MIN;

		c = calloc(1, sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->cap = cap;
		c->next = m->chunks;
		m->chunks = c;
	}
	p = c->data + c->used;
	c->used += need;
	return p;
}

char *rt_strdup(struct il_rtapp *rt, const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = rt_alloc(rt, n);

	if (d)
		memcpy(d, s, n);
	return d;
}

int rt_res_add(struct il_rtapp *rt, const struct il_rtapp_res *res)
{
	struct il_rtapp_mem *m = rt->mem;

	if (rt->nres == m->res_cap) {
		int cap = m->res_cap ? 2 * m->res_cap : 16;
		struct il_rtapp_res *n = realloc(m->res, (size_t)cap * sizeof(*n));

		if (!n)
			return -1;
		m->res = n;
		m->res_cap = cap;
	}
	m->res[rt->nres] = *res;
	rt->res = m->res;
	return rt->nres++;
}

struct il_rtapp_res *rt_res_at(struct il_rtapp *rt, int i)
{
	return &rt->mem->res[i];
}

void il_rtapp_free(struct il_rtapp *rt)
{
	struct chunk *c, *next;

	if (!rt)
		return;
	for (c = rt->mem->chunks; c; c = next) {
		next = c->next;
		free(c);
	}
	free(rt->mem->res);
	free(rt->mem);
	free(rt);
}

int il_rtapp_load_file(const char *path, struct il_rtapp **out, struct il_error *err)
{
	FILE *f = fopen(path, "rb");
	size_t len;
	char *buf;
	int ret;

	*out = NULL;
	if (!f)
		return il_error_set(err, path, 0, "cannot open: %s", strerror(errno));
	buf = malloc(IL_RTAPP_FILE_MAX + 1);
	if (!buf) {
		fclose(f);
		return il_error_set(err, path, 0, "out of memory");
	}
	errno = 0;
	len = fread(buf, 1, IL_RTAPP_FILE_MAX + 1, f);
	if (ferror(f))
		ret = il_error_set(err, path, 0, "cannot read: %s", strerror(errno ? errno : EIO));
	else if (len > IL_RTAPP_FILE_MAX)
		ret = il_error_set(err, path, 0, "larger than %d bytes", IL_RTAPP_FILE_MAX);
	else
		ret = il_rtapp_parse(buf, len, path, out, err);
	fclose(f);
	free(buf);
	return ret;
}

const char *il_rtapp_ev_name(enum il_rtapp_ev type)
{
	static const char *const names[] = {
		[IL_RTAPP_RUN] = "run", [IL_RTAPP_RUNTIME] = "runtime",
		[IL_RTAPP_SLEEP] = "sleep", [IL_RTAPP_TIMER] = "timer",
		[IL_RTAPP_BARRIER] = "barrier", [IL_RTAPP_SUSPEND] = "suspend",
		[IL_RTAPP_RESUME] = "resume", [IL_RTAPP_SIGNAL] = "signal",
		[IL_RTAPP_BROAD] = "broad", [IL_RTAPP_WAIT] = "wait",
		[IL_RTAPP_SYNC] = "sync", [IL_RTAPP_LOCK] = "lock",
		[IL_RTAPP_UNLOCK] = "unlock", [IL_RTAPP_YIELD] = "yield",
		[IL_RTAPP_SEM_POST] = "sem_post", [IL_RTAPP_SEM_WAIT] = "sem_wait",
	};

	return (unsigned int)type < ARRAY_SIZE(names) ? names[type] : "?";
}
