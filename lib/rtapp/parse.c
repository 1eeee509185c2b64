// SPDX-License-Identifier: GPL-2.0-only
/*
 * parse.c - rt-app's JSON grammar through jansson (see the DOC block of rtapp.h).
 *
 * The grammar follows rt-app's own reader, src/rt-app_parse_config.c of rt-app 1.0 (Debian's
 * package) and of the upstream tree up to commit 55cb0c0 (2025), by Vincent Guittot, Juri
 * Lelli and the rt-app contributors: which keys exist, their defaults, that events are known
 * by prefix, how barriers count their users and which timers are per thread. The code is
 * our own; where upstream versions differ the comments say which one is followed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtapp-local.h"
#include "util/array.h"

#ifdef HAVE_JANSSON
#include <jansson.h>

#define RD_DEPTH 8 /* tasks.T.phases.P.EVENT.key is 6 steps; cpus[i] adds one */
#define INT_MAX_RTAPP 2147483647LL /* rt-app reads every number as a C int */
#define GLOBAL_IGNORED                                                                 \
	"global settings of logs, traces, page locking, priority inheritance and I/O " \
	"buffers: ignored (they do not shape idle periods)"
#define SCHED_IGNORED "policy, priority, dl-*, util_*, taskgroup, nodes_membind: ignored " \
	"(the lab schedules every thread alike)"

/* The reader's state: where it is in the file, for messages. */
struct rd {
	const char *file;
	const char *text; /* after rt_text_clean() */
	size_t len;
	struct il_rtapp *rt;
	struct il_error *err;
	struct rt_seg path[RD_DEPTH];
	int depth;
	int task;         /* the task being read */
	s64 instances;    /* its instance count */
};

/* ---- path and messages -------------------------------------------------------------------- */

static void rd_push(struct rd *rd, const char *key, size_t index)
{
	if (rd->depth < RD_DEPTH)
		rd->path[rd->depth] = (struct rt_seg){ key, index };
	rd->depth++;
}

static void rd_pop(struct rd *rd)
{
	rd->depth--;
}

/* "tasks.thread0.cpus[1]" */
static void path_text(const struct rd *rd, char *buf, size_t cap)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int d = 0; d < rd->depth && d < RD_DEPTH && n < cap; d++) {
		const struct rt_seg *s = &rd->path[d];
		int w = s->key ? snprintf(buf + n, cap - n, "%s%s", d ? "." : "", s->key)
			       : snprintf(buf + n, cap - n, "[%zu]", s->index);

		if (w < 0)
			break;
		n += (size_t)w;
	}
}

/* "FILE:LINE:COL" of the current path's key. */
static int where(const struct rd *rd, char *buf, size_t cap)
{
	int n = rd->depth < RD_DEPTH ? rd->depth : RD_DEPTH;
	size_t off = rt_text_locate(rd->text, rd->len, rd->path, n);
	int line, col;

	rt_text_line_col(rd->text, rd->len, off, &line, &col);
	snprintf(buf, cap, "%s:%d:%d", rd->file, line, col);
	return line;
}

/* Fill the error with the current path's position and "path: message"; Return: -1. */
static int __attribute__((format(printf, 2, 3))) rd_fail(struct rd *rd, const char *fmt, ...)
{
	char loc[300], path[200], msg[300];
	va_list ap;
	int line;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	line = where(rd, loc, sizeof(loc));
	path_text(rd, path, sizeof(path));
	il_error_set(rd->err, loc, 0, "%s%s%s", path, *path ? ": " : "", msg);
	if (rd->err)
		rd->err->line = line;
	return -1;
}

static int rd_nomem(struct rd *rd)
{
	return rd_fail(rd, "out of memory");
}

/* Record that a setting is accepted and ignored, once per kind. */
static int rd_note(struct rd *rd, const char *note)
{
	struct il_rtapp *rt = rd->rt;

	for (int i = 0; i < rt->nnotes; i++)
		if (!strcmp(rt->notes[i], note))
			return 0;
	if (rt->nnotes == IL_RTAPP_NOTES_MAX)
		return 0;
	rt->notes[rt->nnotes] = rt_strdup(rt, note);
	if (!rt->notes[rt->nnotes])
		return rd_nomem(rd);
	rt->nnotes++;
	return 0;
}

/* ---- typed values (errors at the current path) ------------------------------------------- */

static int want_int(struct rd *rd, json_t *v, s64 min, s64 max, s64 *out)
{
	if (!json_is_integer(v))
		return rd_fail(rd, "expected an integer");
	*out = json_integer_value(v);
	if (*out < min || *out > max)
		return rd_fail(rd, "%lld is outside [%lld, %lld]", (long long)*out, (long long)min,
			       (long long)max);
	return 0;
}

static int want_str(struct rd *rd, json_t *v, const char **out)
{
	if (!json_is_string(v))
		return rd_fail(rd, "expected a string");
	*out = rt_strdup(rd->rt, json_string_value(v));
	return *out ? 0 : rd_nomem(rd);
}

static int want_bool(struct rd *rd, json_t *v)
{
	return json_is_boolean(v) ? 0 : rd_fail(rd, "expected true or false");
}

static int want_policy(struct rd *rd, json_t *v)
{
	static const char *const policies[] = {
		"SCHED_OTHER", "SCHED_BATCH", "SCHED_IDLE", "SCHED_RR", "SCHED_FIFO",
		"SCHED_DEADLINE",
	};

	if (!json_is_string(v))
		return rd_fail(rd, "expected a policy name such as \"SCHED_OTHER\"");
	for (size_t i = 0; i < ARRAY_SIZE(policies); i++)
		if (!strcmp(json_string_value(v), policies[i]))
			return 0;
	return rd_fail(rd, "unknown policy \"%s\" (SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, SCHED_RR, "
		       "SCHED_FIFO or SCHED_DEADLINE)", json_string_value(v));
}

/* The member number of @key in @obj, for a key read with json_object_get(). */
static size_t member_index(json_t *obj, const char *key)
{
	size_t i = 0;

	for (void *it = json_object_iter(obj); it; it = json_object_iter_next(obj, it), i++)
		if (!strcmp(json_object_iter_key(it), key))
			break;
	return i;
}

/* ---- resources ------------------------------------------------------------------------------ */

/* The resource of @type named @name (of @task for a per-thread timer), created on first use. */
static int resource(struct rd *rd, enum il_rtapp_res_type type, const char *name, int task)
{
	struct il_rtapp *rt = rd->rt;
	struct il_rtapp_res res = { .type = type, .task = task };
	int i;

	for (i = 0; i < rt->nres; i++)
		if (rt->res[i].type == type && rt->res[i].task == task &&
		    !strcmp(rt->res[i].name, name))
			return i;
	res.name = rt_strdup(rt, name);
	if (!res.name || (i = rt_res_add(rt, &res)) < 0)
		return rd_nomem(rd);
	return i;
}

/* ---- events ------------------------------------------------------------------------------- */

/*
 * rt-app's event prefixes, in the order its parser tests them: the first that @key starts
 * with decides. Unsupported events have type -1 and a reason.
 */
static const struct {
	const char *prefix;
	int type;
	const char *unsupported;
} event_kinds[] = {
	{ "sleep", IL_RTAPP_SLEEP, NULL },
	{ "runtime", IL_RTAPP_RUNTIME, NULL },
	{ "run", IL_RTAPP_RUN, NULL },
	{ "memrun", -1, "memory loads have no duration the lab can model" },
	{ "mem", -1, "memory loads have no duration the lab can model" },
	{ "iorun", -1, "I/O loads have no duration the lab can model" },
	{ "lock", IL_RTAPP_LOCK, NULL },
	{ "unlock", IL_RTAPP_UNLOCK, NULL },
	{ "signal", IL_RTAPP_SIGNAL, NULL },
	{ "broad", IL_RTAPP_BROAD, NULL },
	{ "wait", IL_RTAPP_WAIT, NULL },
	{ "sync", IL_RTAPP_SYNC, NULL },
	{ "barrier", IL_RTAPP_BARRIER, NULL },
	{ "timer", IL_RTAPP_TIMER, NULL },
	{ "resume", IL_RTAPP_RESUME, NULL },
	{ "suspend", IL_RTAPP_SUSPEND, NULL },
	{ "yield", IL_RTAPP_YIELD, NULL },
	{ "fork", -1, "threads created at run time are not modelled" },
	{ "sem_post", IL_RTAPP_SEM_POST, NULL },
	{ "sem_wait", IL_RTAPP_SEM_WAIT, NULL },
};

#define N_EVENT_KINDS (ARRAY_SIZE(event_kinds))

/* The entry of event_kinds that @key belongs to, or -1 if it is not an event. */
static int event_kind(const char *key)
{
	for (size_t i = 0; i < N_EVENT_KINDS; i++)
		if (!strncmp(key, event_kinds[i].prefix, strlen(event_kinds[i].prefix)))
			return (int)i;
	return -1;
}

/* A {"key": value, ...} event parameter object: @keys lists the ones allowed. */
static int check_keys(struct rd *rd, json_t *obj, const char *const *keys)
{
	const char *key;
	json_t *v;
	size_t i = 0;

	json_object_foreach(obj, key, v) {
		bool known = false;

		for (int k = 0; keys[k]; k++)
			known = known || !strcmp(key, keys[k]);
		if (!known) {
			rd_push(rd, key, i);
			rd_fail(rd, "unknown key");
			rd_pop(rd);
			return -1;
		}
		i++;
	}
	return 0;
}

/* The string member @key of @obj, or @dflt when it is absent. */
static int obj_str(struct rd *rd, json_t *obj, const char *key, const char *dflt, const char **out)
{
	json_t *v = json_object_get(obj, key);
	int ret;

	if (!v) {
		*out = dflt;
		return 0;
	}
	rd_push(rd, key, member_index(obj, key));
	ret = want_str(rd, v, out);
	rd_pop(rd);
	return ret;
}

/* "timer": { "ref": NAME, "period": µs, "mode": "relative" | "absolute" } */
static int parse_timer(struct rd *rd, json_t *v, struct il_rtapp_event *ev)
{
	static const char *const keys[] = { "ref", "period", "mode", NULL };
	const char *ref, *mode;
	json_t *period;
	int r;

	if (!json_is_object(v))
		return rd_fail(rd, "expected an object { \"ref\": NAME, \"period\": USEC, "
				   "\"mode\": ... }");
	if (check_keys(rd, v, keys) || obj_str(rd, v, "ref", "unknown", &ref) ||
	    obj_str(rd, v, "mode", "relative", &mode))
		return -1;
	period = json_object_get(v, "period");
	if (period) {
		rd_push(rd, "period", member_index(v, "period"));
		r = want_int(rd, period, 0, INT_MAX_RTAPP, &ev->usec);
		rd_pop(rd);
		if (r)
			return -1;
	}
	if (strcmp(mode, "relative") && strcmp(mode, "absolute")) {
		rd_push(rd, "mode", member_index(v, "mode"));
		rd_fail(rd, "\"%s\" is neither \"relative\" nor \"absolute\"", mode);
		rd_pop(rd);
		return -1;
	}
	/* A "unique..." timer is one per thread; any other name is shared by every user. */
	r = resource(rd, IL_RTAPP_RES_TIMER, ref, strncmp(ref, "unique", 6) ? -1 : rd->task);
	if (r < 0)
		return -1;
	if (!strcmp(mode, "absolute"))
		rt_res_at(rd->rt, r)->absolute = true;
	ev->res = r;
	return 0;
}

/* "wait" / "sync": { "ref": CONDITION, "mutex": MUTEX } */
static int parse_wait(struct rd *rd, json_t *v, struct il_rtapp_event *ev)
{
	static const char *const keys[] = { "ref", "mutex", NULL };
	const char *ref, *mutex;

	if (!json_is_object(v))
		return rd_fail(rd, "expected an object { \"ref\": NAME, \"mutex\": NAME }");
	if (check_keys(rd, v, keys) || obj_str(rd, v, "ref", "unknown", &ref) ||
	    obj_str(rd, v, "mutex", "unknown", &mutex))
		return -1;
	ev->res = resource(rd, IL_RTAPP_RES_COND, ref, -1);
	ev->mutex = resource(rd, IL_RTAPP_RES_MUTEX, mutex, -1);
	return ev->res < 0 || ev->mutex < 0 ? -1 : 0;
}

/* An event whose value names one resource of @type. */
static int parse_named(struct rd *rd, json_t *v, enum il_rtapp_res_type type,
		       struct il_rtapp_event *ev)
{
	const char *name;

	if (!json_is_string(v))
		return rd_fail(rd, "expected a string (the name of the %s)",
			       type == IL_RTAPP_RES_MUTEX ? "mutex" :
			       type == IL_RTAPP_RES_BARRIER ? "barrier" :
			       type == IL_RTAPP_RES_SEM ? "semaphore" : "thread or condition");
	name = json_string_value(v);
	/*
	 * rt-app's workgen fills an empty suspend with the task's name; upstream rt-app uses it
	 * always.
	 */
	if (ev->type == IL_RTAPP_SUSPEND && !*name)
		name = rd->rt->tasks[rd->task].name;
	ev->res = resource(rd, type, name, -1);
	if (ev->res < 0)
		return -1;
	if (type == IL_RTAPP_RES_BARRIER)
		rt_res_at(rd->rt, ev->res)->users += rd->instances;
	return 0;
}

static int parse_event(struct rd *rd, const char *key, json_t *v, struct il_rtapp_event *ev)
{
	int kind = event_kind(key);

	ev->key = rt_strdup(rd->rt, key);
	if (!ev->key)
		return rd_nomem(rd);
	ev->res = ev->mutex = -1;
	if (event_kinds[kind].type < 0)
		return rd_fail(rd, "\"%s\" events are not supported: %s", event_kinds[kind].prefix,
			       event_kinds[kind].unsupported);
	ev->type = (enum il_rtapp_ev)event_kinds[kind].type;
	switch (ev->type) {
	case IL_RTAPP_RUN:
	case IL_RTAPP_RUNTIME:
	case IL_RTAPP_SLEEP:
		return want_int(rd, v, 0, INT_MAX_RTAPP, &ev->usec);
	case IL_RTAPP_TIMER:
		return parse_timer(rd, v, ev);
	case IL_RTAPP_WAIT:
	case IL_RTAPP_SYNC:
		return parse_wait(rd, v, ev);
	case IL_RTAPP_BARRIER:
		return parse_named(rd, v, IL_RTAPP_RES_BARRIER, ev);
	case IL_RTAPP_LOCK:
	case IL_RTAPP_UNLOCK:
		return parse_named(rd, v, IL_RTAPP_RES_MUTEX, ev);
	case IL_RTAPP_SEM_POST:
	case IL_RTAPP_SEM_WAIT:
		return parse_named(rd, v, IL_RTAPP_RES_SEM, ev);
	case IL_RTAPP_SUSPEND:
	case IL_RTAPP_RESUME:
	case IL_RTAPP_SIGNAL:
	case IL_RTAPP_BROAD:
		return parse_named(rd, v, IL_RTAPP_RES_COND, ev);
	case IL_RTAPP_YIELD:
		return 0; /* the value is not used */
	}
	return rd_fail(rd, "unknown event");
}

/* The events of @obj, in file order, into @ph. */
static int parse_events(struct rd *rd, json_t *obj, struct il_rtapp_phase *ph)
{
	struct il_rtapp_event *events;
	const char *key;
	json_t *v;
	size_t i = 0;
	int n = 0;

	json_object_foreach(obj, key, v)
		n += event_kind(key) >= 0;
	if (!n)
		return rd_fail(rd, "no events (rt-app needs at least one: run, sleep, timer, "
				   "barrier ...)");
	events = rt_alloc(rd->rt, (size_t)n * sizeof(*events));
	if (!events)
		return rd_nomem(rd);
	n = 0;
	json_object_foreach(obj, key, v) {
		if (event_kind(key) >= 0) {
			int ret;

			rd_push(rd, key, i);
			ret = parse_event(rd, key, v, &events[n++]);
			rd_pop(rd);
			if (ret)
				return -1;
		}
		i++;
	}
	ph->events = events;
	ph->nevents = n;
	return 0;
}

/* ---- keys of tasks and phases ------------------------------------------------------------- */

/* "cpus": [N, ...], remembering the highest CPU and where it is. */
static int parse_cpus(struct rd *rd, json_t *v, struct il_rtapp_cpus *cpus)
{
	size_t n = json_is_array(v) ? json_array_size(v) : 0;
	int *cpu;

	if (!n)
		return rd_fail(rd, "expected a non-empty array of CPU numbers");
	cpu = rt_alloc(rd->rt, n * sizeof(*cpu));
	if (!cpu)
		return rd_nomem(rd);
	for (size_t i = 0; i < n; i++) {
		s64 c;
		int ret;

		rd_push(rd, NULL, i);
		ret = want_int(rd, json_array_get(v, i), 0, IL_RTAPP_CPU_MAX, &c);
		if (!ret && c > rd->rt->max_cpu) {
			char loc[100], path[200];

			rd->rt->max_cpu = (int)c;
			where(rd, loc, sizeof(loc));
			path_text(rd, path, sizeof(path));
			snprintf(rd->rt->max_cpu_where, sizeof(rd->rt->max_cpu_where), "%s: %s",
				 loc, path);
		}
		rd_pop(rd);
		if (ret)
			return -1;
		cpu[i] = (int)c;
	}
	cpus->cpu = cpu;
	cpus->n = (int)n;
	return 0;
}

/*
 * The scheduling keys a task or phase may carry: they choose a class and priority on a
 * real system; in the lab every thread is scheduled alike, so they are checked and noted.
 * Return: 1 if @key is one of them, 0 if not, -1 on a bad value.
 */
static int parse_sched_key(struct rd *rd, const char *key, json_t *v)
{
	s64 x;
	const char *s;

	if (!strcmp(key, "policy"))
		return want_policy(rd, v) ? -1 : 1;
	if (!strcmp(key, "priority"))
		return want_int(rd, v, -INT_MAX_RTAPP, INT_MAX_RTAPP, &x) ? -1 : 1;
	if (!strcmp(key, "dl-runtime") || !strcmp(key, "dl-period") || !strcmp(key, "dl-deadline"))
		return want_int(rd, v, 0, INT_MAX_RTAPP, &x) ? -1 : 1;
	if (!strcmp(key, "util_min") || !strcmp(key, "util_max"))
		return want_int(rd, v, -1, 1024, &x) ? -1 : 1;
	if (!strcmp(key, "taskgroup")) {
		if (want_str(rd, v, &s))
			return -1;
		return *s && *s != '/' ? rd_fail(rd, "a taskgroup starts with '/'") : 1;
	}
	if (!strcmp(key, "nodes_membind"))
		return json_is_array(v) ? 1 : rd_fail(rd, "expected an array of NUMA nodes");
	return 0;
}

/* A loop count: -1 (forever) or from @min. */
static int want_loop(struct rd *rd, json_t *v, s64 min, s64 *loop)
{
	if (want_int(rd, v, -1, INT_MAX_RTAPP, loop))
		return -1;
	if (*loop == 0 && min > 0)
		return rd_fail(rd, "a phase loop of 0 repeats the phase forever in rt-app; write "
				   "-1 for that");
	return 0;
}

/* The non-event keys of a phase object. */
static int phase_key(struct rd *rd, const char *key, json_t *v, struct il_rtapp_phase *ph)
{
	int r;

	if (!strcmp(key, "loop"))
		return want_loop(rd, v, 1, &ph->loop);
	if (!strcmp(key, "cpus"))
		return parse_cpus(rd, v, &ph->cpus);
	r = parse_sched_key(rd, key, v);
	if (r > 0)
		return rd_note(rd, SCHED_IGNORED);
	return r < 0 ? -1 : rd_fail(rd, "unknown key (not an rt-app event or phase setting)");
}

static int parse_phase(struct rd *rd, const char *name, json_t *obj, struct il_rtapp_phase *ph)
{
	const char *key;
	json_t *v;
	size_t i = 0;

	if (!json_is_object(obj))
		return rd_fail(rd, "expected a phase object");
	ph->name = rt_strdup(rd->rt, name);
	ph->loop = 1;
	if (!ph->name)
		return rd_nomem(rd);
	json_object_foreach(obj, key, v) {
		int ret = 0;

		if (event_kind(key) < 0) {
			rd_push(rd, key, i);
			ret = phase_key(rd, key, v, ph);
			rd_pop(rd);
		}
		if (ret)
			return -1;
		i++;
	}
	return parse_events(rd, obj, ph);
}

static int parse_phases(struct rd *rd, json_t *obj, struct il_rtapp_task *task)
{
	struct il_rtapp_phase *phases;
	const char *key;
	json_t *v;
	size_t i = 0;

	if (!json_is_object(obj) || !json_object_size(obj))
		return rd_fail(rd, "expected an object of one or more phases");
	phases = rt_alloc(rd->rt, json_object_size(obj) * sizeof(*phases));
	if (!phases)
		return rd_nomem(rd);
	json_object_foreach(obj, key, v) {
		int ret;

		rd_push(rd, key, i);
		ret = parse_phase(rd, key, v, &phases[i]);
		rd_pop(rd);
		if (ret)
			return -1;
		i++;
	}
	task->phases = phases;
	task->nphases = (int)i;
	return 0;
}

/* The non-event keys of a task object. @phased: it has a "phases" object. */
static int task_key(struct rd *rd, const char *key, json_t *v, bool phased,
		    struct il_rtapp_task *task)
{
	s64 x;
	int r;

	if (!strcmp(key, "instance") || !strcmp(key, "phases"))
		return 0; /* read before */
	if (!strcmp(key, "loop"))
		return want_loop(rd, v, phased ? 0 : 1, &task->loop);
	if (!strcmp(key, "cpus"))
		return parse_cpus(rd, v, &task->cpus);
	if (!strcmp(key, "delay"))
		return want_int(rd, v, -INT_MAX_RTAPP, INT_MAX_RTAPP, &task->delay_us);
	/* rt-app 1.0's legacy deadline keys, beside dl-period and dl-deadline */
	if (!strcmp(key, "period") || !strcmp(key, "deadline"))
		r = want_int(rd, v, 0, INT_MAX_RTAPP, &x) ? -1 : 1;
	else
		r = parse_sched_key(rd, key, v);
	if (r > 0)
		return rd_note(rd, SCHED_IGNORED);
	return r < 0 ? -1 : rd_fail(rd, "unknown key (not an rt-app event or task setting)");
}

static int task_instances(struct rd *rd, json_t *obj, s64 *instances)
{
	json_t *v = json_object_get(obj, "instance");
	int ret;

	*instances = 1;
	if (!v)
		return 0;
	rd_push(rd, "instance", member_index(obj, "instance"));
	ret = want_int(rd, v, 0, IL_RTAPP_THREADS_MAX, instances);
	if (!ret && rd->rt->nthreads + *instances > IL_RTAPP_THREADS_MAX)
		ret = rd_fail(rd, "more than %d threads in all", IL_RTAPP_THREADS_MAX);
	rd_pop(rd);
	return ret;
}

/* The keys of a task, in file order. Events beside "phases" are an error: rt-app skips them. */
static int task_keys(struct rd *rd, json_t *obj, bool phased, struct il_rtapp_task *task)
{
	const char *key;
	json_t *v;
	size_t i = 0;

	json_object_foreach(obj, key, v) {
		int ret;

		rd_push(rd, key, i);
		if (event_kind(key) < 0)
			ret = task_key(rd, key, v, phased, task);
		else
			ret = phased ? rd_fail(rd, "an event beside \"phases\" is ignored by "
						   "rt-app; move it into a phase") : 0;
		rd_pop(rd);
		if (ret)
			return -1;
		i++;
	}
	return 0;
}

/*
 * A task without "phases" is one phase made of its own events. Its "loop" counts that
 * phase and the task then ends (upstream rt-app; rt-app 1.0 repeated it forever); without
 * "loop" it repeats forever.
 */
static int task_as_phase(struct rd *rd, json_t *obj, struct il_rtapp_task *task)
{
	struct il_rtapp_phase *ph = rt_alloc(rd->rt, sizeof(*ph));

	if (!ph)
		return rd_nomem(rd);
	ph->name = task->name;
	ph->loop = task->loop;
	task->loop = json_object_get(obj, "loop") ? 1 : -1;
	task->phases = ph;
	task->nphases = 1;
	return parse_events(rd, obj, ph);
}

static int parse_task(struct rd *rd, const char *name, json_t *obj, struct il_rtapp_task *task)
{
	json_t *phases;

	if (!json_is_object(obj))
		return rd_fail(rd, "expected a task object");
	task->name = rt_strdup(rd->rt, name);
	if (!task->name)
		return rd_nomem(rd);
	if (task_instances(rd, obj, &task->instances))
		return -1;
	rd->instances = task->instances;
	rd->rt->nthreads += task->instances;
	phases = json_object_get(obj, "phases");
	task->loop = phases ? -1 : 1;
	if (task_keys(rd, obj, phases != NULL, task))
		return -1;
	if (!phases)
		return task_as_phase(rd, obj, task);
	rd_push(rd, "phases", member_index(obj, "phases"));
	if (parse_phases(rd, phases, task))
		return -1;
	rd_pop(rd);
	return 0;
}

static int parse_tasks(struct rd *rd, json_t *obj)
{
	struct il_rtapp_task *tasks;
	const char *key;
	json_t *v;
	size_t i = 0;

	if (!json_is_object(obj) || !json_object_size(obj))
		return rd_fail(rd, "expected an object of one or more tasks");
	tasks = rt_alloc(rd->rt, json_object_size(obj) * sizeof(*tasks));
	if (!tasks)
		return rd_nomem(rd);
	rd->rt->tasks = tasks;
	json_object_foreach(obj, key, v) {
		int ret;

		rd->task = (int)i;
		rd->rt->ntasks = (int)i + 1;
		rd_push(rd, key, i);
		ret = parse_task(rd, key, v, &tasks[i]);
		rd_pop(rd);
		if (ret)
			return -1;
		i++;
	}
	if (!rd->rt->nthreads)
		return rd_fail(rd, "no threads: every task has \"instance\": 0");
	return 0;
}

/* ---- global ------------------------------------------------------------------------------ */

/* "calibration": ns per loop (an integer) or "CPU<n>" (calibrate on that CPU at start). */
static int parse_calibration(struct rd *rd, json_t *v)
{
	const char *s;
	char *end;

	if (json_is_integer(v))
		return want_int(rd, v, 1, INT_MAX_RTAPP, &rd->rt->calib_ns_per_loop);
	if (!json_is_string(v))
		return rd_fail(rd, "expected ns per loop (an integer) or \"CPU<n>\"");
	s = json_string_value(v);
	if (strncmp(s, "CPU", 3) || s[3] < '0' || s[3] > '9')
		return rd_fail(rd, "\"%s\" is not \"CPU<n>\"", s);
	rd->rt->calib_cpu = strtoll(s + 3, &end, 10);
	return 0;
}

static int global_key(struct rd *rd, const char *key, json_t *v)
{
	static const char *const bools[] = { "pi_enabled", "lock_pages", "gnuplot",
					     "cumulative_slack", NULL };
	static const char *const strings[] = { "logdir", "log_basename", "io_device", NULL };
	const char *s;
	s64 x;

	if (!strcmp(key, "duration"))
		return want_int(rd, v, -INT_MAX_RTAPP, INT_MAX_RTAPP, &rd->rt->duration_s);
	if (!strcmp(key, "calibration"))
		return parse_calibration(rd, v);
	if (!strcmp(key, "default_policy"))
		return want_policy(rd, v) || rd_note(rd, "global.default_policy: ignored (the lab "
							 "schedules every thread alike)");
	for (int i = 0; bools[i]; i++)
		if (!strcmp(key, bools[i]))
			return want_bool(rd, v) || rd_note(rd, GLOBAL_IGNORED);
	for (int i = 0; strings[i]; i++)
		if (!strcmp(key, strings[i]))
			return want_str(rd, v, &s) || rd_note(rd, GLOBAL_IGNORED);
	/* "frag": an rt-app 0.x setting some upstream examples still carry; 1.0 does not read it */
	if (!strcmp(key, "log_size") || !strcmp(key, "ftrace") || !strcmp(key, "mem_buffer_size") ||
	    !strcmp(key, "frag")) {
		if (!json_is_string(v) && !json_is_integer(v) && !json_is_boolean(v))
			return rd_fail(rd, "expected a string, an integer or a boolean");
		if (!strcmp(key, "mem_buffer_size") && want_int(rd, v, 0, INT_MAX_RTAPP, &x))
			return -1;
		return rd_note(rd, GLOBAL_IGNORED);
	}
	return rd_fail(rd, "unknown key (not an rt-app global setting)");
}

static int parse_global(struct rd *rd, json_t *obj)
{
	const char *key;
	json_t *v;
	size_t i = 0;

	if (!json_is_object(obj))
		return rd_fail(rd, "expected an object");
	json_object_foreach(obj, key, v) {
		int ret;

		rd_push(rd, key, i++);
		ret = global_key(rd, key, v);
		rd_pop(rd);
		if (ret)
			return -1;
	}
	return 0;
}

/* ---- the file ------------------------------------------------------------------------------ */

/* Whether a member of the root is one of global, tasks, resources. */
static int check_root_keys(struct rd *rd, json_t *root)
{
	const char *key;
	json_t *v;
	size_t i = 0;

	json_object_foreach(root, key, v) {
		int ret = 0;

		rd_push(rd, key, i++);
		if (!strcmp(key, "resources"))
			ret = json_is_object(v) ?
				rd_note(rd, "resources: ignored (rt-app creates each resource "
					"when an event names it)") :
				rd_fail(rd, "expected an object");
		else if (strcmp(key, "global") && strcmp(key, "tasks"))
			ret = rd_fail(rd, "unknown key (rt-app files have \"global\", \"tasks\" "
					  "and \"resources\")");
		rd_pop(rd);
		if (ret)
			return -1;
	}
	return 0;
}

/* Whether every thread runs every phase with an affinity. */
static bool all_pinned(const struct il_rtapp *rt)
{
	for (int t = 0; t < rt->ntasks; t++)
		for (int p = 0; p < rt->tasks[t].nphases && rt->tasks[t].instances; p++)
			if (!rt->tasks[t].phases[p].cpus.n && !rt->tasks[t].cpus.n)
				return false;
	return true;
}

static int parse_root(struct rd *rd, json_t *root)
{
	json_t *global = json_object_get(root, "global"), *tasks = json_object_get(root, "tasks");
	int ret;

	if (!json_is_object(root))
		return rd_fail(rd, "the file must hold one JSON object");
	if (check_root_keys(rd, root))
		return -1;
	if (global) {
		rd_push(rd, "global", member_index(root, "global"));
		ret = parse_global(rd, global);
		rd_pop(rd);
		if (ret)
			return -1;
	}
	if (!tasks)
		return rd_fail(rd, "no \"tasks\" object (rt-app needs one)");
	rd_push(rd, "tasks", member_index(root, "tasks"));
	ret = parse_tasks(rd, tasks);
	rd_pop(rd);
	rd->rt->all_pinned = all_pinned(rd->rt);
	return ret;
}

/* jansson's syntax error at its position; a duplicate key gets rt-app's way out. */
static int syntax_error(const char *name, const json_error_t *je, struct il_error *err)
{
	char loc[300];

	snprintf(loc, sizeof(loc), "%s:%d:%d", name, je->line, je->column);
	if (json_error_code(je) == json_error_duplicate_key)
		il_error_set(err, loc, 0,
			     "%s: rt-app would keep only the last one; number repeated events "
			     "(\"run0\", \"run1\"), or let rt-app's workgen do it: workgen -d -o "
			     "unique.json FILE",
			     je->text);
	else
		il_error_set(err, loc, 0, "%s", je->text);
	if (err)
		err->line = je->line;
	return -1;
}

static int parse_text(char *text, size_t len, const char *name, struct il_rtapp *rt,
		      struct il_error *err)
{
	struct rd rd = { .file = name, .text = text, .len = len, .rt = rt, .err = err };
	json_error_t je;
	json_t *root;
	size_t bad;
	int ret;

	if (rt_text_clean(text, len, &bad)) {
		int line, col;
		char loc[300];

		rt_text_line_col(text, len, bad, &line, &col);
		snprintf(loc, sizeof(loc), "%s:%d:%d", name, line, col);
		il_error_set(err, loc, 0, "comment not closed");
		if (err)
			err->line = line;
		return -1;
	}
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &je);
	if (!root)
		return syntax_error(name, &je, err);
	ret = parse_root(&rd, root);
	json_decref(root);
	return ret;
}

int il_rtapp_parse(const char *text, size_t len, const char *name, struct il_rtapp **out,
		   struct il_error *err)
{
	struct il_rtapp *rt = rt_mem_new();
	char *copy = malloc(len + 1);
	int ret;

	*out = NULL;
	if (!rt || !copy) {
		free(copy);
		il_rtapp_free(rt);
		return il_error_set(err, name, 0, "out of memory");
	}
	memcpy(copy, text, len);
	copy[len] = '\0';
	ret = parse_text(copy, len, name, rt, err);
	free(copy);
	if (ret) {
		il_rtapp_free(rt);
		return -1;
	}
	*out = rt;
	return 0;
}

#else /* !HAVE_JANSSON */

int il_rtapp_parse(const char *text, size_t len, const char *name, struct il_rtapp **out,
		   struct il_error *err)
{
	*out = NULL;
	return il_error_set(err, name, 0,
			    "rt-app files need jansson: install libjansson-dev and rebuild");
}

#endif /* HAVE_JANSSON */
