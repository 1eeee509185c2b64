// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.c - opening a trace, detecting its format, the streaming line buffer and the checks
 * every event passes (CPU range, per-CPU time order) before it is delivered.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "readers.h"
#include "util/array.h"

static const struct il_trace_reader *const readers[] = {
#define IL_READER_ENTRY(name) &il_reader_##name,
	IL_TRACE_READERS(IL_READER_ENTRY)
#undef IL_READER_ENTRY
};

#define N_READERS (int)ARRAY_SIZE(readers)

/* Initial line buffer: a read chunk plus the longest line we keep whole. */
#define BUF_INITIAL (256 * 1024)

static const char *const ev_names[IL_EV__COUNT] = {
	[IL_EV_OTHER] = "other",
	[IL_EV_CPU_IDLE] = "cpu_idle",
	[IL_EV_CPU_IDLE_MISS] = "cpu_idle_miss",
	[IL_EV_HRTIMER_SETUP] = "hrtimer_setup",
	[IL_EV_HRTIMER_START] = "hrtimer_start",
	[IL_EV_HRTIMER_CANCEL] = "hrtimer_cancel",
	[IL_EV_HRTIMER_EXPIRE] = "hrtimer_expire_entry",
	[IL_EV_TIMER_START] = "timer_start",
	[IL_EV_TIMER_CANCEL] = "timer_cancel",
	[IL_EV_TIMER_EXPIRE] = "timer_expire_entry",
	[IL_EV_TICK_STOP] = "tick_stop",
	[IL_EV_IRQ] = "irq_handler_entry",
	[IL_EV_IRQ_VECTOR] = "irq_vectors_entry",
	[IL_EV_IRQ_EXIT] = "irq_exit",
	[IL_EV_IPI_SEND] = "ipi_send",
	[IL_EV_IPI_ENTRY] = "ipi_entry",
	[IL_EV_SCHED_WAKEUP] = "sched_wakeup",
	[IL_EV_SCHED_SWITCH] = "sched_switch",
};

const char *il_ev_name(enum il_ev type)
{
	if ((unsigned int)type >= IL_EV__COUNT)
		return "?";
	return ev_names[type];
}

int il_trace_reader_count(void)
{
	return N_READERS;
}

int il_trace_reader_at(int i, const char **name, const char **desc, const char **unavailable)
{
	if (i < 0 || i >= N_READERS)
		return -1;
	*name = readers[i]->name;
	*desc = readers[i]->desc;
	*unavailable = readers[i]->unavailable;
	return 0;
}

const char *il_trace_error(const struct il_trace *t)
{
	return t->err.msg;
}

/* Read more of the file behind the unconsumed bytes. Return: bytes read, -1 on error. */
static ssize_t fill(struct il_trace *t)
{
	size_t n;

	if (t->eof)
		return 0;
	if (t->pos > 0) {
		memmove(t->buf, t->buf + t->pos, t->len - t->pos);
		t->len -= t->pos;
		t->pos = 0;
	}
	if (t->codec) {
		ssize_t r = il_codec_read(t->codec, t->buf + t->len, t->cap - 1 - t->len);

		if (r < 0)
			return -1;
		n = (size_t)r;
	} else {
		n = fread(t->buf + t->len, 1, t->cap - 1 - t->len, t->f);
		t->raw_read += n;
		if (n == 0 && ferror(t->f))
			return -1;
	}
	t->len += n;
	if (n == 0)
		t->eof = true;
	return (ssize_t)n;
}

/* Drop the rest of an over-long line, up to and including its newline. */
static int skip_long_line(struct il_trace *t)
{
	for (;;) {
		char *nl = memchr(t->buf + t->pos, '\n', t->len - t->pos);

		if (nl) {
			t->pos = (size_t)(nl - t->buf) + 1;
			return 1;
		}
		t->pos = t->len;
		if (fill(t) < 0)
			return -1;
		if (t->eof && t->pos == t->len)
			return 0;
	}
}

int il_trace_getline(struct il_trace *t, char **line, size_t *len)
{
	for (;;) {
		char *start = t->buf + t->pos;
		size_t avail = t->len - t->pos;
		char *nl = memchr(start, '\n', avail);

		if (nl || (t->eof && avail > 0)) {
			size_t n = nl ? (size_t)(nl - start) : avail;

			start[n] = '\0'; /* the buffer keeps one spare byte for this */
			t->last_start = t->pos;
			t->last_nl = nl != NULL;
			t->pos += nl ? n + 1 : n;
			t->lineno++;
			t->counts.lines++;
			*line = start;
			*len = n;
			return 1;
		}
		if (t->eof)
			return 0;
		if (avail >= IL_TRACE_MAX_LINE) {
			t->lineno++;
			t->counts.lines++;
			il_trace_bad_line(t, "line longer than 64 KiB");
			if (skip_long_line(t) < 0)
				return -1;
			continue;
		}
		if (fill(t) < 0)
			return -1;
	}
}

void il_trace_ungetline(struct il_trace *t)
{
	if (t->last_nl)
		t->buf[t->pos - 1] = '\n';
	t->pos = t->last_start;
	t->lineno--;
	t->counts.lines--;
}

void il_trace_diag(struct il_trace *t, u64 line, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (!t->diag)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	t->diag(t->diag_ctx, t->path, line, msg);
}

void il_trace_bad_line(struct il_trace *t, const char *why)
{
	t->counts.bad_lines++;
	il_trace_diag(t, t->lineno, "unparsable line: %s", why);
}

static bool grow_last_ts(struct il_trace *t, unsigned int cpu)
{
	unsigned int n = t->last_ts_n ? t->last_ts_n : 8;
	u64 *p;

	while (n <= cpu)
		n *= 2;
	p = realloc(t->last_ts, n * sizeof(*p));
	if (!p)
		return false;
	memset(p + t->last_ts_n, 0, (n - t->last_ts_n) * sizeof(*p));
	t->last_ts = p;
	t->last_ts_n = n;
	return true;
}

bool il_trace_vector_is_local_timer(const char *label)
{
	return !strcmp(label, IL_TRACE_X86_TIMER) || !strcmp(label, IL_TRACE_PPC_TIMER);
}

bool il_trace_accept(struct il_trace *t, struct il_trace_event *ev)
{
	unsigned int limit = t->info.ncpus > 0 ? (unsigned int)t->info.ncpus : IL_TRACE_MAX_CPUS;

	if (ev->cpu >= limit) {
		t->counts.bad_cpu++;
		il_trace_diag(t, ev->line, "CPU %u outside the trace's %u CPUs; event dropped",
			      ev->cpu, limit);
		return false;
	}
	if (ev->cpu >= t->last_ts_n && !grow_last_ts(t, ev->cpu))
		return false;
	/* last_ts holds ts + 1 so that 0 means "nothing seen yet". */
	if (ev->ts_ns + 1 < t->last_ts[ev->cpu]) {
		t->counts.out_of_order++;
		il_trace_diag(t, ev->line,
			      "timestamp %llu ns goes back %llu ns on CPU %u; event dropped",
			      (unsigned long long)ev->ts_ns,
			      (unsigned long long)(t->last_ts[ev->cpu] - 1 - ev->ts_ns), ev->cpu);
		return false;
	}
	t->last_ts[ev->cpu] = ev->ts_ns + 1;
	t->counts.events[ev->type]++;
	if (ev->type == IL_EV_TIMER_START && t->reader->bad_timer_flags)
		ev->deferrable = -1;
	return true;
}

static const struct il_trace_reader *find_reader(const char *name)
{
	for (int i = 0; i < N_READERS; i++)
		if (!strcmp(readers[i]->name, name))
			return readers[i];
	return NULL;
}

static const struct il_trace_reader *detect(struct il_trace *t)
{
	char head[IL_TRACE_PROBE_LEN + 1];
	size_t n = t->len < IL_TRACE_PROBE_LEN ? t->len : IL_TRACE_PROBE_LEN;
	const struct il_trace_reader *best = NULL;
	int best_score = IL_PROBE_NO;

	memcpy(head, t->buf, n);
	head[n] = '\0';
	for (int i = 0; i < N_READERS; i++) {
		int score = readers[i]->probe(head, n);

		if (score > best_score) {
			best = readers[i];
			best_score = score;
		}
	}
	return best;
}

static struct il_trace *trace_alloc(const char *path)
{
	struct il_trace *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->path = strdup(path);
	t->mask = IL_EV_ALL;
	t->cap = BUF_INITIAL;
	t->buf = malloc(t->cap);
	if (!t->path || !t->buf) {
		free(t->path);
		free(t->buf);
		free(t);
		return NULL;
	}
	return t;
}

static void trace_free(struct il_trace *t)
{
	il_codec_close(t->codec);
	if (t->close_f && t->f)
		fclose(t->f);
	il_head_cache_free(t->heads);
	free(t->last_ts);
	free(t->buf);
	free(t->path);
	free(t);
}

static int open_file(struct il_trace *t, const char *path)
{
	if (!strcmp(path, "-")) {
		t->f = stdin;
		return 0;
	}
	t->f = fopen(path, "rb");
	if (!t->f) {
		il_trace_fail(&t->err, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	t->close_f = true;
	return 0;
}

static const struct il_trace_reader *choose_reader(struct il_trace *t, const char *format)
{
	const struct il_trace_reader *r;

	if (format) {
		r = find_reader(format);
		if (!r)
			il_trace_fail(&t->err, "unknown trace format '%s'", format);
		return r;
	}
	r = detect(t);
	if (!r)
		il_trace_fail(&t->err, "%s: not a trace in any known format (ftrace text, "
			      "trace-cmd report, perf script, idlestat, trace.dat, "
			      "systrace HTML)", t->path);
	return r;
}

/*
 * Read the first bytes and, when they are a compression's magic, decompress from there on;
 * otherwise they are the start of the line buffer. Return: 0, or -1 with errno set.
 */
static int sniff_compression(struct il_trace *t)
{
	unsigned char head[IL_CODEC_MAGIC_LEN];
	size_t n = fread(head, 1, sizeof(head), t->f);
	enum il_compression kind;
	struct stat st;

	if (n < sizeof(head) && ferror(t->f)) {
		il_trace_fail(&t->err, "cannot read %s: %s", t->path, strerror(errno));
		return -1;
	}
	if (!fstat(fileno(t->f), &st) && S_ISREG(st.st_mode))
		t->raw_size = (u64)st.st_size;
	kind = il_codec_detect(head, n);
	if (kind == IL_CODEC_NONE) {
		memcpy(t->buf, head, n);
		t->len = n;
		t->raw_read = n;
		return 0;
	}
	if (il_codec_unavailable(kind)) {
		il_trace_fail(&t->err, "%s: %s-compressed: %s", t->path, il_codec_name(kind),
			      il_codec_unavailable(kind));
		errno = ENOTSUP;
		return -1;
	}
	t->codec = il_codec_open(kind, t->f, t->path, head, n, &t->err);
	t->codec_kind = kind;
	return t->codec ? 0 : -1;
}

/*
 * Detect (or take) the reader and read the header of @t, whose file is open; on failure @t
 * is closed and @e holds why.
 */
static struct il_trace *start_reading(struct il_trace *t, const char *format,
				      struct il_error *e)
{
	const struct il_trace_reader *r;
	int err = EINVAL;

	if (sniff_compression(t) < 0) {
		err = errno;
		goto fail;
	}
	if (fill(t) < 0) {
		err = errno;
		if (err != EBADMSG)
			il_trace_fail(&t->err, "cannot read %s: %s", t->path, strerror(err));
		goto fail;
	}
	r = choose_reader(t, format);
	if (!r)
		goto fail;
	if (r->unavailable) {
		il_trace_fail(&t->err, "%s: %s format: %s", t->path, r->name, r->unavailable);
		err = ENOTSUP;
		goto fail;
	}
	t->reader = r;
	if (r->open(t) < 0)
		goto fail;
	return t;
fail:
	if (e)
		*e = t->err;
	il_trace_close(t);
	errno = err;
	return NULL;
}

struct il_trace *il_trace_open(const char *path, const char *format, struct il_error *e)
{
	struct il_trace *t = trace_alloc(path);
	int err;

	if (!t) {
		il_trace_fail(e, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	if (open_file(t, path) < 0) {
		err = errno;
		if (e)
			*e = t->err;
		trace_free(t);
		errno = err;
		return NULL;
	}
	return start_reading(t, format, e);
}

struct il_trace *il_trace_open_file(FILE *f, const char *name, const char *format,
				    struct il_error *e)
{
	struct il_trace *t = trace_alloc(name);

	if (!t) {
		il_trace_fail(e, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	t->f = f;
	return start_reading(t, format, e);
}

void il_trace_fail(struct il_error *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	err->line = 0;
}

void il_trace_set_events(struct il_trace *t, u32 mask)
{
	t->mask = mask;
}

void il_trace_set_diag(struct il_trace *t, il_trace_diag_fn fn, void *ctx)
{
	t->diag = fn;
	t->diag_ctx = ctx;
}

int il_trace_next(struct il_trace *t, struct il_trace_event *ev)
{
	return t->reader->next_event(t, ev);
}

void il_trace_close(struct il_trace *t)
{
	if (!t)
		return;
	if (t->reader && t->reader->close)
		t->reader->close(t);
	trace_free(t);
}

const char *il_trace_reader_name(const struct il_trace *t)
{
	return t->reader->name;
}

const struct il_trace_info *il_trace_info(const struct il_trace *t)
{
	return &t->info;
}

const struct il_trace_counts *il_trace_counts(const struct il_trace *t)
{
	return &t->counts;
}

void il_trace_progress(const struct il_trace *t, u64 *done, u64 *total)
{
	*done = t->codec ? il_codec_raw_read(t->codec) : t->raw_read;
	*total = t->raw_size;
}

const char *il_trace_compression(const struct il_trace *t)
{
	return il_codec_name(t->codec_kind);
}

const char *il_trace_path(const struct il_trace *t)
{
	return t->path;
}
