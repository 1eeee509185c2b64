// SPDX-License-Identifier: GPL-2.0-only
/*
 * dat.c - reader for binary trace.dat files (trace-cmd record / extract), through
 * libtracecmd and libtraceevent.
 *
 * A file with instances holds what `trace-cmd extract -B NAME` took from them plus whatever
 * the top-level buffer had at the time (extract drains it too): then only the instances are
 * read, since the top-level data is another recording. Without instances the top-level
 * buffer is the trace.
 *
 * An optional feature: the Makefile defines HAVE_LIBTRACECMD when pkg-config finds
 * libtracecmd. Without it the reader still recognises the file by its magic and says
 * which package to install, rather than calling it "not a trace".
 *
 * The file may hold the top-level buffer and any number of instances (trace-cmd extract
 * -B NAME); every CPU of every buffer is a time-ordered stream, merged here by keeping
 * one pending record per stream (memory grows with buffers x CPUs, not with the trace).
 * Each record is printed by libtraceevent as "name: fields" and decoded by the same code
 * as the text formats, so every format yields identical events. Timestamps are the
 * record's integer ns.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace-local.h"

/* The first bytes of every trace.dat: "\027\010\104tracing". */
static const char dat_magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

static int dat_probe(const char *head, size_t len)
{
	return len >= sizeof(dat_magic) && !memcmp(head, dat_magic, sizeof(dat_magic)) ?
		       IL_PROBE_CERTAIN : IL_PROBE_NO;
}

#ifdef HAVE_LIBTRACECMD
#include <trace-cmd.h>
#include <event-parse.h>

/* The number of instance buffers read besides the top-level one. */
#define DAT_MAX_BUFFERS 16

struct dat_stream {
	struct tracecmd_input *in;
	struct tep_handle *tep;
	int ncpus;
	struct tep_record **pending; /* per CPU, NULL when drained */
};

struct dat_state {
	struct tracecmd_input *top;
	struct dat_stream streams[DAT_MAX_BUFFERS + 1];
	int nstreams;
	struct trace_seq seq;
	char *text;
	size_t text_cap;
	u64 records;
};

static int stream_init(struct dat_stream *s, struct tracecmd_input *in)
{
	s->in = in;
	s->tep = tracecmd_get_tep(in);
	s->ncpus = tep_get_cpus(s->tep);
	s->pending = calloc((size_t)(s->ncpus > 0 ? s->ncpus : 1), sizeof(*s->pending));
	if (!s->pending)
		return -1;
	for (int cpu = 0; cpu < s->ncpus; cpu++)
		s->pending[cpu] = tracecmd_read_data(in, cpu);
	return 0;
}

static void stream_fini(struct dat_stream *s, bool close_in)
{
	for (int cpu = 0; cpu < s->ncpus && s->pending; cpu++)
		if (s->pending[cpu])
			tracecmd_free_record(s->pending[cpu]);
	free(s->pending);
	if (close_in && s->in)
		tracecmd_close(s->in);
}

static int dat_open(struct il_trace *t)
{
	struct dat_state *st = calloc(1, sizeof(*st));
	struct tracecmd_input *top;
	int n;

	if (!st)
		return -1;
	t->priv = st;
	/* libtracecmd reads the file by its name: it cannot see through our decompression. */
	if (t->codec) {
		il_trace_fail(&t->err, "%s: a %s-compressed trace.dat: decompress it first "
			      "(libtracecmd reads the file itself)", t->path,
			      il_trace_compression(t));
		return -1;
	}
	top = tracecmd_open(t->path, 0);
	if (!top) {
		il_trace_fail(&t->err, "%s: libtracecmd cannot read this trace.dat", t->path);
		return -1;
	}
	st->top = top;
	n = tracecmd_buffer_instances(top);
	if (n <= 0 && stream_init(&st->streams[st->nstreams++], top) < 0)
		return -1;
	for (int i = 0; i < n && st->nstreams <= DAT_MAX_BUFFERS; i++) {
		struct tracecmd_input *in = tracecmd_buffer_instance_handle(top, i);

		if (in && stream_init(&st->streams[st->nstreams++], in) < 0)
			return -1;
		if (in && !t->info.instance[0])
			snprintf(t->info.instance, sizeof(t->info.instance), "%s",
				 tracecmd_buffer_instance_name(top, i));
	}
	if (!st->nstreams) {
		il_trace_fail(&t->err, "%s: no readable buffer in this trace.dat", t->path);
		return -1;
	}
	t->info.ncpus = st->streams[0].ncpus;
	t->info.ns_timestamps = true;
	trace_seq_init(&st->seq);
	return 0;
}

/* The earliest pending record over all streams and CPUs. */
static struct tep_record *pop_earliest(struct dat_state *st, struct dat_stream **from)
{
	struct dat_stream *best_s = NULL;
	int best_cpu = -1;
	struct tep_record *r;

	for (int i = 0; i < st->nstreams; i++) {
		struct dat_stream *s = &st->streams[i];

		for (int cpu = 0; cpu < s->ncpus; cpu++) {
			r = s->pending[cpu];
			if (r && (!best_s || r->ts < best_s->pending[best_cpu]->ts)) {
				best_s = s;
				best_cpu = cpu;
			}
		}
	}
	if (!best_s)
		return NULL;
	r = best_s->pending[best_cpu];
	best_s->pending[best_cpu] = tracecmd_read_data(best_s->in, best_cpu);
	*from = best_s;
	return r;
}

/* "name: fields" of @r, NUL-terminated in st->seq. */
static const char *record_text(struct dat_state *st, struct dat_stream *s,
			       struct tep_record *r, size_t *len)
{
	trace_seq_reset(&st->seq);
	tep_print_event(s->tep, &st->seq, r, "%s: %s", TEP_PRINT_NAME, TEP_PRINT_INFO);
	trace_seq_terminate(&st->seq);
	*len = st->seq.len;
	return st->seq.buffer;
}

static int dat_next(struct il_trace *t, struct il_trace_event *ev)
{
	struct dat_state *st = t->priv;
	struct dat_stream *s;
	struct tep_record *r;

	while ((r = pop_earliest(st, &s)) != NULL) {
		const char *why, *text;
		enum il_ev skipped;
		size_t len;
		int ret;

		t->lineno = ++st->records;
		t->counts.lines++;
		text = record_text(st, s, r, &len);
		skipped = IL_EV_OTHER;
		ret = il_trace_decode_masked(text, text + len, t->mask, ev, &why, &skipped);
		if (ret <= 0) {
			if (ret == 0)
				t->counts.events[skipped]++;
			else
				il_trace_bad_line(t, why);
			tracecmd_free_record(r);
			continue;
		}
		ev->cpu = (unsigned int)r->cpu;
		ev->pid = tep_data_pid(s->tep, r);
		ev->ts_ns = r->ts;
		ev->line = t->lineno;
		ev->flags[0] = '\0';
		tracecmd_free_record(r);
		if (il_trace_accept(t, ev))
			return 1;
	}
	return 0;
}

static void dat_close(struct il_trace *t)
{
	struct dat_state *st = t->priv;

	if (!st)
		return;
	/* Instance handles first: they borrow the top-level handle's file. */
	for (int i = st->nstreams - 1; i >= 0; i--)
		stream_fini(&st->streams[i], st->streams[i].in != st->top);
	if (st->top)
		tracecmd_close(st->top);
	trace_seq_destroy(&st->seq);
	free(st);
}

#ifdef __SANITIZE_ADDRESS__
/*
 * libtraceevent 1.7 and libtracecmd 1.3 (Debian 12) leak a few bytes while parsing event
 * formats, which LeakSanitizer would blame on every test that reads a trace.dat. One of them
 * is a sscanf("%ms") buffer whose stack stops in libc; idlelab never uses %m.
 */
const char *__lsan_default_suppressions(void);
/* Visible even in the -fvisibility=hidden library build: the runtime looks it up by name. */
__attribute__((visibility("default"))) const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\nleak:libtracecmd.so\nleak:isoc99_vsscanf\n";
}
#endif

const struct il_trace_reader il_reader_dat = {
	.name = "dat",
	.desc = "binary trace.dat (trace-cmd record/extract), via libtracecmd",
	.probe = dat_probe,
	.open = dat_open,
	.next_event = dat_next,
	.bad_timer_flags = true,
	.close = dat_close,
};

#else /* !HAVE_LIBTRACECMD */

static int dat_unavailable_open(struct il_trace *t)
{
	errno = ENOTSUP;
	return -1;
}

static int dat_unavailable_next(struct il_trace *t, struct il_trace_event *ev)
{
	return 0;
}

const struct il_trace_reader il_reader_dat = {
	.name = "dat",
	.desc = "binary trace.dat (trace-cmd record/extract), via libtracecmd",
	.probe = dat_probe,
	.open = dat_unavailable_open,
	.next_event = dat_unavailable_next,
	.unavailable = "not built in: install libtracecmd-dev and libtraceevent-dev (Debian) "
		       "and rebuild, or convert with `trace-cmd report -t -l -i FILE`",
};

#endif /* HAVE_LIBTRACECMD */
