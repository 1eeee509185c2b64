// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfetto.c - the timeline's events in memory, the event limit and the window, and the
 * Chrome trace-event JSON writer (the model is in timeline.h).
 *
 * The file is the JSON object form of the Trace Event Format:
 *
 *	{"traceEvents":[ M events (names), then every event sorted by ts ],
 *	 "displayTimeUnit":"ns",
 *	 "otherData":{ what was run, the limit and window, whether the file is truncated }}
 *
 * Track ids: process pid's CPU c is tid pid * TL_TID_STRIDE + c, so that no two processes
 * share a tid (Perfetto's importer keys threads by tid, as Linux does).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "timeline.h"

#define TL_TID_STRIDE 100000u /* more than any CPU number (IL_TRACE_MAX_CPUS 8192) */
#define TL_MAX_TRACKS 65536u  /* CPUs per process: struct tl_event keeps the CPU in a u16 */
#define TL_WEIGHT_POWER 3     /* an X slice with counters: the slice, its CPU's and the total */

enum tl_kind {
	TL_IDLE,        /* X: an idle period */
	TL_OPEN,        /* X: an idle period the end of the run cut short */
	TL_BUSY,        /* X: the CPU ran work */
	TL_WAKE,        /* i: the wakeup that ended a period */
	TL_TICK_STOP,   /* i */
	TL_TICK_RETAIN, /* i */
	TL_MISS,        /* i: above or below */
};

struct tl_event {
	u64 ts;
	u64 dur;
	u64 seq;            /* report order: breaks ties of ts */
	const char *cause;  /* TL_IDLE, TL_WAKE: what ended the period, NULL unknown */
	u16 pid;
	u16 cpu;
	u8 kind;
	s8 state;
	u8 miss;
	bool stop_tick;
	bool tick_retained;
};

struct tl_track {
	u64 last_end;  /* end of the CPU's last period (or busy time) */
	bool known;    /* false: nothing is known of the CPU before its next period */
};

/* A state table: the names and powers the slices and counters show. */
struct tl_table {
	int nstates;
	char state_name[CPUIDLE_STATE_MAX][IL_NAME_LEN];
	u64 state_uw[CPUIDLE_STATE_MAX];
};

struct tl_process {
	char *name;
	struct tl_table tab[IL_PLAT_TABLES_MAX]; /* tab[0]: the process's (every CPU's) */
	int ntab;
	unsigned char *cpu_tab;  /* per-CPU tables: CPU c's index in tab[], NULL: all tab[0] */
	unsigned int ncpu_tab;
	u64 active_uw;
	bool power;
	bool edges;
	struct tl_track *track;
	unsigned int ntracks;
};

struct tl_meta {
	char *key;
	char *value;
};

struct il_timeline {
	struct il_timeline_opts opts;
	u64 origin;
	struct tl_process *proc;
	int nproc;
	struct tl_event *ev;
	size_t nev, cap;
	u64 seq;
	u64 count;       /* weight of the kept events, what the limit counts */
	u64 dropped;     /* events left out after the limit was reached */
	u64 now;         /* the latest time reported */
	bool truncated;
	u64 cutoff;      /* truncated: every track is complete up to here */
	struct tl_meta *meta;
	int nmeta;
	int error;       /* first errno while recording */
};

/* ---- setup ------------------------------------------------------------------------------- */

struct il_timeline *il_timeline_new(const struct il_timeline_opts *opts)
{
	struct il_timeline *tl = calloc(1, sizeof(*tl));

	if (!tl) {
		errno = ENOMEM;
		return NULL;
	}
	tl->opts = *opts;
	return tl;
}

void il_timeline_free(struct il_timeline *tl)
{
	if (!tl)
		return;
	for (int i = 0; i < tl->nproc; i++) {
		free(tl->proc[i].name);
		free(tl->proc[i].track);
		free(tl->proc[i].cpu_tab);
	}
	for (int i = 0; i < tl->nmeta; i++) {
		free(tl->meta[i].key);
		free(tl->meta[i].value);
	}
	free(tl->proc);
	free(tl->meta);
	free(tl->ev);
	free(tl);
}

static void table_from(struct tl_table *t, const struct il_driver *drv)
{
	t->nstates = drv->state_count;
	for (int i = 0; i < drv->state_count; i++) {
		memcpy(t->state_name[i], drv->states[i].name, IL_NAME_LEN);
		t->state_name[i][IL_NAME_LEN - 1] = '\0';
		t->state_uw[i] = drv->states[i].power_uw;
	}
}

/* The table of process @p's CPU @cpu. */
static const struct tl_table *table_of(const struct tl_process *p, unsigned int cpu)
{
	/* (a CPU beyond the platform's takes the table of CPU cpu % cpus, as the lab does) */
	return &p->tab[p->ncpu_tab ? p->cpu_tab[cpu % p->ncpu_tab] : 0];
}

int il_timeline_process(struct il_timeline *tl, const char *name, const struct il_driver *drv,
			const struct il_power *pw, bool edges)
{
	struct tl_process *procs, *p;

	if (drv->state_count < 1 || drv->state_count > CPUIDLE_STATE_MAX ||
	    tl->nproc >= UINT16_MAX - 1) {
		errno = EINVAL;
		return -1;
	}
	procs = realloc(tl->proc, (size_t)(tl->nproc + 1) * sizeof(*procs));
	if (!procs) {
		errno = ENOMEM;
		return -1;
	}
	tl->proc = procs;
	p = &procs[tl->nproc];
	memset(p, 0, sizeof(*p));
	p->name = strdup(name);
	if (!p->name) {
		errno = ENOMEM;
		return -1;
	}
	table_from(&p->tab[0], drv);
	p->ntab = 1;
	p->power = pw && pw->known;
	p->active_uw = pw ? pw->active_uw : 0;
	p->edges = edges;
	return ++tl->nproc;
}

static struct tl_process *process_of(struct il_timeline *tl, int pid)
{
	return pid >= 1 && pid <= tl->nproc ? &tl->proc[pid - 1] : NULL;
}

int il_timeline_process_plat(struct il_timeline *tl, const char *name,
			     const struct il_platform *plat, const struct il_power *pw, bool edges)
{
	int pid = il_timeline_process(tl, name, &plat->drv, pw, edges);
	struct tl_process *p;

	if (pid < 0 || plat->ntables <= 1)
		return pid;
	p = process_of(tl, pid);
	for (int t = 1; t < plat->ntables; t++) {
		if (plat->tables[t].drv.state_count < 1 ||
		    plat->tables[t].drv.state_count > CPUIDLE_STATE_MAX) {
			errno = EINVAL;
			return -1;
		}
		table_from(&p->tab[t], &plat->tables[t].drv);
	}
	p->ntab = plat->ntables;
	p->cpu_tab = malloc(plat->cpus);
	if (!p->cpu_tab) {
		errno = ENOMEM;
		return -1;
	}
	p->ncpu_tab = plat->cpus;
	for (unsigned int c = 0; c < plat->cpus; c++)
		p->cpu_tab[c] = (unsigned char)il_platform_cpu_table(plat, c);
	return pid;
}

/* Grow @p's tracks to @n; new ones start at 0 when the process has edges. */
static int grow_tracks(struct tl_process *p, unsigned int n)
{
	struct tl_track *t;

	if (n <= p->ntracks)
		return 0;
	if (n > TL_MAX_TRACKS) {
		errno = EINVAL;
		return -1;
	}
	t = realloc(p->track, n * sizeof(*t));
	if (!t) {
		errno = ENOMEM;
		return -1;
	}
	for (unsigned int i = p->ntracks; i < n; i++)
		t[i] = (struct tl_track){ .last_end = 0, .known = p->edges };
	p->track = t;
	p->ntracks = n;
	return 0;
}

int il_timeline_cpus(struct il_timeline *tl, int pid, unsigned int ncpus)
{
	struct tl_process *p = process_of(tl, pid);

	if (!p) {
		errno = EINVAL;
		return -1;
	}
	return grow_tracks(p, ncpus);
}

void il_timeline_set_origin(struct il_timeline *tl, u64 origin_ns)
{
	tl->origin = origin_ns;
}

int il_timeline_meta(struct il_timeline *tl, const char *key, const char *value)
{
	struct tl_meta *m = realloc(tl->meta, (size_t)(tl->nmeta + 1) * sizeof(*m));

	if (!m) {
		errno = ENOMEM;
		return -1;
	}
	tl->meta = m;
	m[tl->nmeta].key = strdup(key);
	m[tl->nmeta].value = strdup(value);
	if (!m[tl->nmeta].key || !m[tl->nmeta].value) {
		free(m[tl->nmeta].key);
		free(m[tl->nmeta].value);
		errno = ENOMEM;
		return -1;
	}
	tl->nmeta++;
	return 0;
}

bool il_timeline_truncated(const struct il_timeline *tl, u64 *at_ns)
{
	if (at_ns)
		*at_ns = tl->cutoff;
	return tl->truncated;
}

u64 il_timeline_events(const struct il_timeline *tl)
{
	return tl->count;
}

/* ---- recording ----------------------------------------------------------------------------- */

static void fail(struct il_timeline *tl, int err)
{
	if (!tl->error)
		tl->error = err;
}

static bool is_slice(const struct tl_event *e)
{
	return e->kind == TL_IDLE || e->kind == TL_OPEN || e->kind == TL_BUSY;
}

/* Whether @e overlaps the window [origin + from, origin + to). */
static bool in_window(const struct il_timeline *tl, const struct tl_event *e)
{
	u64 from = tl->origin + tl->opts.from_ns;

	if (tl->opts.to_ns && e->ts >= tl->origin + tl->opts.to_ns)
		return false;
	return e->ts >= from || (e->dur && e->ts + e->dur > from);
}

/*
 * Keep @e, reported at time @at, unless it is outside the window or begins after the point
 * where the limit was reached. Reaching the limit fixes that point at the latest time
 * reported so far: what began before it is still to come only for the periods in flight.
 */
static void record(struct il_timeline *tl, const struct tl_event *e, u64 at)
{
	const struct tl_process *p = &tl->proc[e->pid - 1];

	if (tl->error)
		return;
	if (at > tl->now)
		tl->now = at;
	if (!in_window(tl, e))
		return;
	if (tl->truncated && e->ts > tl->cutoff) {
		tl->dropped++;
		return;
	}
	if (tl->nev == tl->cap) {
		size_t cap = tl->cap ? 2 * tl->cap : 4096;
		struct tl_event *n = realloc(tl->ev, cap * sizeof(*n));

		if (!n) {
			fail(tl, ENOMEM);
			return;
		}
		tl->ev = n;
		tl->cap = cap;
	}
	tl->ev[tl->nev] = *e;
	tl->ev[tl->nev++].seq = tl->seq++;
	tl->count += is_slice(e) && p->power ? TL_WEIGHT_POWER : 1;
	if (!tl->truncated && tl->opts.limit && tl->count >= tl->opts.limit) {
		tl->truncated = true;
		tl->cutoff = tl->now;
	}
}

/* The track of @cpu in process @pid, grown if needed; NULL (and the error kept) if not. */
static struct tl_track *track_of(struct il_timeline *tl, int pid, unsigned int cpu)
{
	struct tl_process *p = process_of(tl, pid);

	if (!p) {
		fail(tl, EINVAL);
		return NULL;
	}
	if (grow_tracks(p, cpu + 1)) {
		fail(tl, errno);
		return NULL;
	}
	return &p->track[cpu];
}

static void busy_until(struct il_timeline *tl, int pid, unsigned int cpu, struct tl_track *t,
		       u64 until)
{
	struct tl_event e = { .kind = TL_BUSY, .pid = (u16)pid, .cpu = (u16)cpu, .state = -1 };

	if (!t->known || until <= t->last_end)
		return;
	e.ts = t->last_end;
	e.dur = until - t->last_end;
	record(tl, &e, until);
	t->last_end = until;
}

void il_timeline_busy_until(struct il_timeline *tl, int pid, unsigned int cpu, u64 t)
{
	struct tl_track *track = track_of(tl, pid, cpu);

	if (track)
		busy_until(tl, pid, cpu, track, t);
}

static void instant(struct il_timeline *tl, int pid, unsigned int cpu, enum tl_kind kind, u64 t,
		    const struct tl_event *about)
{
	struct tl_event e = {
		.kind = (u8)kind, .pid = (u16)pid, .cpu = (u16)cpu, .ts = t, .state = -1
	};

	if (about) {
		e.state = about->state;
		e.miss = about->miss;
		e.cause = about->cause;
	}
	record(tl, &e, t);
}

void il_timeline_tick_stop(struct il_timeline *tl, int pid, unsigned int cpu, u64 t)
{
	if (track_of(tl, pid, cpu))
		instant(tl, pid, cpu, TL_TICK_STOP, t, NULL);
}

void il_timeline_idle(struct il_timeline *tl, int pid, const struct il_tl_idle *p)
{
	struct tl_track *track = track_of(tl, pid, p->cpu);
	struct tl_event e = {
		.kind = p->open ? TL_OPEN : TL_IDLE, .pid = (u16)pid, .cpu = (u16)p->cpu,
		.ts = p->start_ns, .state = (s8)p->state, .miss = (u8)p->miss, .cause = p->cause,
		.stop_tick = p->stop_tick, .tick_retained = p->tick_retained,
	};

	if (!track)
		return;
	if (p->state < 0 || p->state >= table_of(&tl->proc[pid - 1], p->cpu)->nstates ||
	    p->end_ns < p->start_ns) {
		fail(tl, EINVAL);
		return;
	}
	busy_until(tl, pid, p->cpu, track, p->start_ns);
	e.dur = p->end_ns - p->start_ns;
	if (p->tick_retained)
		instant(tl, pid, p->cpu, TL_TICK_RETAIN, p->start_ns, NULL);
	record(tl, &e, p->end_ns);
	if (p->cause)
		instant(tl, pid, p->cpu, TL_WAKE, p->wake_ns, &e);
	if (!p->open && (p->miss == IL_MISS_ABOVE || p->miss == IL_MISS_BELOW))
		instant(tl, pid, p->cpu, TL_MISS, p->end_ns, &e);
	track->last_end = p->end_ns;
	track->known = true;
}

/* ---- writing ------------------------------------------------------------------------------ */

static int cmp_event(const void *a, const void *b)
{
	const struct tl_event *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* A JSON string: quotes, backslashes and control characters escaped, invalid UTF-8 as '?'. */
static void put_str(FILE *out, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	fputc('"', out);
	while (*u) {
		int n = *u < 0x80 ? 1 :
			(*u & 0xe0) == 0xc0 ? 2 :
			(*u & 0xf0) == 0xe0 ? 3 :
			(*u & 0xf8) == 0xf0 ? 4 : 0;
		int k;

		for (k = 1; k < n && (u[k] & 0xc0) == 0x80; k++)
			;
		if (!n || k < n) {
			fputc('?', out);
			u++;
			continue;
		}
		if (*u == '"' || *u == '\\')
			fprintf(out, "\\%c", *u);
		else if (*u < 0x20)
			fprintf(out, "\\u%04x", *u);
		else
			fwrite(u, 1, (size_t)n, out);
		u += n;
	}
	fputc('"', out);
}

/* An integer count of 1e-3 units as a decimal: ns as µs, µW as mW. */
static void put_milli(FILE *out, u64 v)
{
	fprintf(out, "%llu.%03u", (unsigned long long)(v / 1000), (unsigned int)(v % 1000));
}

static unsigned int tid_of(int pid, unsigned int cpu)
{
	return (unsigned int)pid * TL_TID_STRIDE + cpu;
}

struct tl_writer {
	struct il_timeline *tl;
	FILE *out;
	u64 written;
	/* power per process and CPU, for the counters */
	u64 **cpu_uw;
	bool **cpu_known;
	u64 *total_uw;        /* the current total of each process */
	u64 *total_written;   /* the last total written, U64_MAX: none */
	bool *total_pending;
	u64 pending_ts;
};

/* The head of an event: {"ph":..,"cat":..,"name":..,"pid":..,"tid":..,"ts":.. */
static void put_head(struct tl_writer *w, char ph, const char *cat, const char *name, int pid,
		     unsigned int cpu, u64 ts)
{
	FILE *out = w->out;

	fputs(w->written++ ? ",\n" : "\n", out);
	fprintf(out, "{\"ph\":\"%c\",", ph);
	if (cat)
		fprintf(out, "\"cat\":\"%s\",", cat);
	fputs("\"name\":", out);
	put_str(out, name);
	fprintf(out, ",\"pid\":%d,\"tid\":%u,\"ts\":", pid, tid_of(pid, cpu));
	put_milli(out, ts);
}

static void put_metadata(struct tl_writer *w)
{
	char name[32];

	for (int pid = 1; pid <= w->tl->nproc; pid++) {
		const struct tl_process *p = &w->tl->proc[pid - 1];

		put_head(w, 'M', NULL, "process_name", pid, 0, 0);
		fputs(",\"args\":{\"name\":", w->out);
		put_str(w->out, p->name);
		fputs("}}", w->out);
		put_head(w, 'M', NULL, "process_sort_index", pid, 0, 0);
		fprintf(w->out, ",\"args\":{\"sort_index\":%d}}", pid);
		for (unsigned int c = 0; c < p->ntracks; c++) {
			snprintf(name, sizeof(name), "CPU %u", c);
			put_head(w, 'M', NULL, "thread_name", pid, c, 0);
			fputs(",\"args\":{\"name\":", w->out);
			put_str(w->out, name);
			fputs("}}", w->out);
			put_head(w, 'M', NULL, "thread_sort_index", pid, c, 0);
			fprintf(w->out, ",\"args\":{\"sort_index\":%u}}", c);
		}
	}
}

static const char *miss_name(u8 miss)
{
	return miss == IL_MISS_ABOVE ? "above" : miss == IL_MISS_BELOW ? "below" : "none";
}

static void put_slice(struct tl_writer *w, const struct tl_event *e)
{
	const struct tl_process *p = &w->tl->proc[e->pid - 1];
	FILE *out = w->out;

	if (e->kind == TL_BUSY) {
		put_head(w, 'X', "busy", "busy", e->pid, e->cpu, e->ts);
		fputs(",\"dur\":", out);
		put_milli(out, e->dur);
		fputc('}', out);
		return;
	}
	put_head(w, 'X', "idle", table_of(p, e->cpu)->state_name[e->state], e->pid, e->cpu, e->ts);
	fputs(",\"dur\":", out);
	put_milli(out, e->dur);
	fprintf(out, ",\"args\":{\"state\":%d", e->state);
	if (e->kind == TL_OPEN) {
		fputs(",\"open\":true}}", out);
		return;
	}
	fprintf(out, ",\"miss\":\"%s\",\"stop_tick\":%s,\"tick_retained\":%s", miss_name(e->miss),
		e->stop_tick ? "true" : "false", e->tick_retained ? "true" : "false");
	if (e->cause) {
		fputs(",\"wake\":", out);
		put_str(out, e->cause);
	}
	fputs("}}", out);
}

static void put_instant(struct tl_writer *w, const struct tl_event *e)
{
	const struct tl_process *p = &w->tl->proc[e->pid - 1];
	FILE *out = w->out;

	switch (e->kind) {
	case TL_WAKE:
		put_head(w, 'i', "wakeup", strcmp(e->cause, "poll limit") ? "wakeup" : "poll limit",
			 e->pid, e->cpu, e->ts);
		fputs(",\"s\":\"t\",\"args\":{\"cause\":", out);
		put_str(out, e->cause);
		fputs("}}", out);
		break;
	case TL_TICK_STOP:
		put_head(w, 'i', "tick", "tick stop", e->pid, e->cpu, e->ts);
		fputs(",\"s\":\"t\"}", out);
		break;
	case TL_TICK_RETAIN:
		put_head(w, 'i', "tick", "tick retained", e->pid, e->cpu, e->ts);
		fputs(",\"s\":\"t\"}", out);
		break;
	case TL_MISS:
		put_head(w, 'i', "miss", e->miss == IL_MISS_ABOVE ? "miss above" : "miss below",
			 e->pid, e->cpu, e->ts);
		fprintf(out,
			",\"s\":\"t\",\"args\":{\"miss\":\"%s\",\"state\":", miss_name(e->miss));
		put_str(out, table_of(p, e->cpu)->state_name[e->state]);
		fputs("}}", out);
		break;
	default:
		break;
	}
}

static void put_counter(struct tl_writer *w, const char *name, int pid, unsigned int cpu, u64 ts,
			u64 uw)
{
	put_head(w, 'C', "power", name, pid, cpu, ts);
	fputs(",\"args\":{\"mW\":", w->out);
	put_milli(w->out, uw);
	fputs("}}", w->out);
}

/* Totals change with their CPUs; write each once per instant, when it changed. */
static void flush_totals(struct tl_writer *w)
{
	for (int i = 0; i < w->tl->nproc; i++) {
		if (!w->total_pending[i])
			continue;
		w->total_pending[i] = false;
		if (w->total_written[i] == w->total_uw[i])
			continue;
		put_counter(w, "total power", i + 1, 0, w->pending_ts, w->total_uw[i]);
		w->total_written[i] = w->total_uw[i];
	}
}

/* A slice starts: its CPU's power becomes the slice's; write the counter if it changed. */
static void power_at(struct tl_writer *w, const struct tl_event *e)
{
	const struct tl_process *p = &w->tl->proc[e->pid - 1];
	int i = e->pid - 1;
	u64 uw = e->kind == TL_BUSY ? p->active_uw : table_of(p, e->cpu)->state_uw[e->state];
	char name[32];

	if (!p->power)
		return;
	if (w->cpu_known[i][e->cpu] && w->cpu_uw[i][e->cpu] == uw)
		return;
	snprintf(name, sizeof(name), "CPU %u power", e->cpu);
	put_counter(w, name, e->pid, e->cpu, e->ts, uw);
	w->total_uw[i] += uw - (w->cpu_known[i][e->cpu] ? w->cpu_uw[i][e->cpu] : 0);
	w->cpu_uw[i][e->cpu] = uw;
	w->cpu_known[i][e->cpu] = true;
	w->total_pending[i] = true;
}

static void put_events(struct tl_writer *w)
{
	struct il_timeline *tl = w->tl;

	for (size_t k = 0; k < tl->nev; k++) {
		const struct tl_event *e = &tl->ev[k];

		if (e->ts != w->pending_ts)
			flush_totals(w);
		w->pending_ts = e->ts;
		if (is_slice(e)) {
			power_at(w, e);
			put_slice(w, e);
		} else {
			put_instant(w, e);
		}
	}
	flush_totals(w);
	if (tl->truncated && tl->nproc) {
		char name[96];

		snprintf(name, sizeof(name), "timeline truncated: event limit %llu reached",
			 (unsigned long long)tl->opts.limit);
		put_head(w, 'i', "idlelab", name, 1, 0, tl->cutoff);
		fputs(",\"s\":\"g\"}", w->out);
	}
}

static void put_other_data(struct tl_writer *w)
{
	struct il_timeline *tl = w->tl;
	FILE *out = w->out;

	fputs("\"otherData\":{\"tool\":\"idlelab\"", out);
	for (int i = 0; i < tl->nmeta; i++) {
		fputc(',', out);
		put_str(out, tl->meta[i].key);
		fputc(':', out);
		put_str(out, tl->meta[i].value);
	}
	fprintf(out, ",\"events\":%llu,\"limit\":%llu,\"window_from_us\":",
		(unsigned long long)w->written, (unsigned long long)tl->opts.limit);
	put_milli(out, tl->opts.from_ns);
	fputs(",\"window_to_us\":", out);
	if (tl->opts.to_ns)
		put_milli(out, tl->opts.to_ns);
	else
		fputs("null", out);
	fprintf(out, ",\"truncated\":%s", tl->truncated ? "true" : "false");
	if (tl->truncated) {
		fputs(",\"complete_until_us\":", out);
		put_milli(out, tl->cutoff);
		fprintf(out, ",\"dropped_events\":%llu", (unsigned long long)tl->dropped);
	}
	fputs("}", out);
}

static void writer_free(struct tl_writer *w)
{
	for (int i = 0; i < w->tl->nproc; i++) {
		if (w->cpu_uw)
			free(w->cpu_uw[i]);
		if (w->cpu_known)
			free(w->cpu_known[i]);
	}
	free(w->cpu_uw);
	free(w->cpu_known);
	free(w->total_uw);
	free(w->total_written);
	free(w->total_pending);
}

static int writer_init(struct tl_writer *w, struct il_timeline *tl, FILE *out)
{
	size_t n = (size_t)(tl->nproc ? tl->nproc : 1);

	memset(w, 0, sizeof(*w));
	w->tl = tl;
	w->out = out;
	w->cpu_uw = calloc(n, sizeof(*w->cpu_uw));
	w->cpu_known = calloc(n, sizeof(*w->cpu_known));
	w->total_uw = calloc(n, sizeof(*w->total_uw));
	w->total_written = calloc(n, sizeof(*w->total_written));
	w->total_pending = calloc(n, sizeof(*w->total_pending));
	if (!w->cpu_uw || !w->cpu_known || !w->total_uw || !w->total_written || !w->total_pending)
		return -1;
	for (int i = 0; i < tl->nproc; i++) {
		size_t t = tl->proc[i].ntracks ? tl->proc[i].ntracks : 1;

		w->total_written[i] = UINT64_MAX;
		w->cpu_uw[i] = calloc(t, sizeof(**w->cpu_uw));
		w->cpu_known[i] = calloc(t, sizeof(**w->cpu_known));
		if (!w->cpu_uw[i] || !w->cpu_known[i])
			return -1;
	}
	return 0;
}

int il_timeline_write(struct il_timeline *tl, FILE *out)
{
	struct tl_writer w;

	if (tl->error) {
		errno = tl->error;
		return -1;
	}
	if (writer_init(&w, tl, out)) {
		writer_free(&w);
		errno = ENOMEM;
		return -1;
	}
	if (tl->nev)
		qsort(tl->ev, tl->nev, sizeof(*tl->ev), cmp_event);
	fputs("{\"traceEvents\":[", out);
	put_metadata(&w);
	put_events(&w);
	fputs("\n],\n\"displayTimeUnit\":\"ns\",\n", out);
	put_other_data(&w);
	fputs("}\n", out);
	writer_free(&w);
	if (fflush(out) || ferror(out)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}
