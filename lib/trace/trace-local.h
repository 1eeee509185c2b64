/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace-local.h - what the trace readers share; not part of the library's interface.
 */
#ifndef IDLELAB_TRACE_LOCAL_H
#define IDLELAB_TRACE_LOCAL_H

#include <stdarg.h>
#include <string.h>
#include <sys/types.h>

#include "trace.h"

/* How many bytes of the file the probes see. */
#define IL_TRACE_PROBE_LEN 4096
/* Longest line kept whole; longer ones are reported as bad and skipped to their end. */
#define IL_TRACE_MAX_LINE (64 * 1024)

/* Probe scores: how sure a reader is that the file is in its format. */
#define IL_PROBE_NO 0
#define IL_PROBE_MAYBE 10    /* the lines parse, nothing format-specific seen */
#define IL_PROBE_LIKELY 50   /* a format-specific line shape */
#define IL_PROBE_CERTAIN 100 /* a magic header */

struct il_trace_reader {
	const char *name;
	const char *desc;
	/* Score the first bytes of the file (NUL-terminated copy of at most PROBE_LEN). */
	int (*probe)(const char *head, size_t len);
	/* Read the header; 0, or -1 with the reason stored by il_trace_fail(). */
	int (*open)(struct il_trace *t);
	/* 1: event, 0: end, -1: read error. */
	int (*next_event)(struct il_trace *t, struct il_trace_event *ev);
	void (*close)(struct il_trace *t);
	/* Non-NULL when the reader is compiled out: why, and how to get it. */
	const char *unavailable;
	/* The text comes from libtraceevent, whose timer_start flags= are wrong (D|P|I for
	 * every timer, seen in trace-cmd report of shared/traces/vm-haltpoll): not kept. */
	bool bad_timer_flags;
};

/* Compressed traces (lib/trace/codec.c), told by their magic bytes. */
enum il_compression { IL_CODEC_NONE, IL_CODEC_GZIP, IL_CODEC_XZ, IL_CODEC_ZSTD };
/* The longest magic il_codec_detect() looks at. */
#define IL_CODEC_MAGIC_LEN 6
struct il_codec;
enum il_compression il_codec_detect(const unsigned char *head, size_t len);
const char *il_codec_name(enum il_compression kind);
/* Why @kind cannot be read (the library was not built in), or NULL. */
const char *il_codec_unavailable(enum il_compression kind);
/*
 * A decoder reading @f, whose first @len bytes (the magic) were already read into @head;
 * @name (kept, not copied) is what messages call the file.
 */
/* @err: where a failure to start, and later corrupt data, is explained */
struct il_codec *il_codec_open(enum il_compression kind, FILE *f, const char *name,
			       const unsigned char *head, size_t len, struct il_error *err);
/* Up to @cap decompressed bytes. Return: the count, 0 at the end, -1 (errno; EBADMSG: corrupt). */
ssize_t il_codec_read(struct il_codec *c, char *dst, size_t cap);
/* Compressed bytes read from the file so far. */
u64 il_codec_raw_read(const struct il_codec *c);
void il_codec_close(struct il_codec *c);

struct il_trace {
	char *path;
	FILE *f;
	bool close_f;
	struct il_codec *codec; /* NULL: the file is read as it is */
	struct il_error err;    /* why opening or reading failed (il_trace_error()) */
	enum il_compression codec_kind;
	u64 raw_read;           /* bytes read from an uncompressed file */
	u64 raw_size;           /* the file's size, 0 when unknown (a pipe) */
	/* Line buffer: bytes [pos, len) of buf are not yet consumed. */
	char *buf;
	size_t cap, pos, len;
	bool eof;
	u64 lineno;
	size_t last_start; /* where the last line returned began, for il_trace_ungetline() */
	bool last_nl;      /* whether it ended with a newline */

	const struct il_trace_reader *reader;
	void *priv; /* the reader's state */
	struct il_trace_info info;
	struct il_trace_counts counts;

	/* Last timestamp seen per CPU, for the ordering check. Grows with the CPU count. */
	u64 *last_ts;
	unsigned int last_ts_n;

	il_trace_diag_fn diag;
	void *diag_ctx;
	u32 mask; /* event types to deliver */

	struct il_head_cache *heads; /* text readers: results of recent line heads, text.c */
};

struct il_head_cache;
void il_head_cache_free(struct il_head_cache *c);

/*
 * Byte-parallel scanning for the hot loops of the text readers: eight bytes of a line are
 * compared with a character at once. il_bytes_eq() sets the high bit of every byte of @x that
 * equals @c, exactly (no carry crosses bytes), so the lowest or highest set bit is the first
 * or last match. Lines are loaded in little-endian order; elsewhere the scalar loops run.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define IL_SCAN_WORDS 1
#else
#define IL_SCAN_WORDS 0
#endif

#define IL_BYTES_01 0x0101010101010101ULL
#define IL_BYTES_7F 0x7f7f7f7f7f7f7f7fULL
#define IL_BYTES_80 0x8080808080808080ULL

static inline u64 il_bytes_eq(u64 x, unsigned char c)
{
	u64 v = x ^ (IL_BYTES_01 * c);

	return ~(((v & IL_BYTES_7F) + IL_BYTES_7F) | v) & IL_BYTES_80;
}

static inline u64 il_load8(const char *p)
{
	u64 x;

	memcpy(&x, p, sizeof(x));
	return x;
}

static inline bool il_is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The first blank in [@p, @end), or @end. */
static inline const char *il_find_blank(const char *p, const char *end)
{
	if (IL_SCAN_WORDS) {
		for (; end - p >= 8; p += 8) {
			u64 x = il_load8(p), m = il_bytes_eq(x, ' ') | il_bytes_eq(x, '\t');

			if (m)
				return p + (__builtin_ctzll(m) >> 3);
		}
	}
	while (p < end && !il_is_blank(*p))
		p++;
	return p;
}

/* The first blank or '=' in [@p, @end), or @end: the end of a "key=value" token's key. */
static inline const char *il_find_blank_eq(const char *p, const char *end)
{
	if (IL_SCAN_WORDS) {
		for (; end - p >= 8; p += 8) {
			u64 x = il_load8(p);
			u64 m = il_bytes_eq(x, ' ') | il_bytes_eq(x, '\t') | il_bytes_eq(x, '=');

			if (m)
				return p + (__builtin_ctzll(m) >> 3);
		}
	}
	while (p < end && !il_is_blank(*p) && *p != '=')
		p++;
	return p;
}

/* The start of the run of non-blanks that ends at @e: just after the last blank in [@line, @e). */
static inline const char *il_token_start(const char *line, const char *e)
{
	if (IL_SCAN_WORDS) {
		for (; e - line >= 8; e -= 8) {
			u64 x = il_load8(e - 8), m = il_bytes_eq(x, ' ') | il_bytes_eq(x, '\t');

			if (m)
				return e - 8 + ((63 - __builtin_clzll(m)) >> 3) + 1;
		}
	}
	while (e > line && !il_is_blank(e[-1]))
		e--;
	return e;
}

/* The high bit of every byte of @x that is an ASCII digit (no carry crosses bytes). */
static inline u64 il_bytes_digit(u64 x)
{
	u64 low = x & IL_BYTES_7F;
	u64 from_0 = low + IL_BYTES_01 * (0x80 - '0'); /* high bit: low >= '0' */
	u64 past_9 = low + IL_BYTES_01 * (0x80 - '9' - 1); /* high bit: low > '9' */

	return from_0 & ~past_9 & ~x & IL_BYTES_80;
}

/* The start of the run of digits that ends at @e (@e itself if there is none). */
static inline const char *il_digits_start(const char *line, const char *e)
{
	if (IL_SCAN_WORDS) {
		for (; e - line >= 8; e -= 8) {
			u64 m = ~il_bytes_digit(il_load8(e - 8)) & IL_BYTES_80;

			if (m)
				return e - 8 + ((63 - __builtin_clzll(m)) >> 3) + 1;
		}
	}
	while (e > line && (unsigned char)(e[-1] - '0') < 10)
		e--;
	return e;
}

/* How many of the (up to 8) bytes of @x, from the first, are digits. */
static inline int il_leading_digits(u64 x)
{
	u64 other = ~il_bytes_digit(x) & IL_BYTES_80;

	return other ? __builtin_ctzll(other) >> 3 : 8;
}

/*
 * The value of the first @n (1..8) bytes of @x, all digits, the first the most significant:
 * they are moved to the top (the bytes below read as 0), then adjacent digits, pairs and
 * quadruples are combined by three multiplications.
 */
static inline u64 il_digits_value(u64 x, int n)
{
	x = (x << (8 * (8 - n))) & 0x0f0f0f0f0f0f0f0fULL;
	x = (x * (1 + (10 << 8))) >> 8;
	x = ((x & 0x00ff00ff00ff00ffULL) * (1 + (100ULL << 16))) >> 16;
	return ((x & 0x0000ffff0000ffffULL) * (1 + (10000ULL << 32))) >> 32;
}

/* The value of the @n digits at @p (no more than 19), all known to be digits, @end past them. */
static inline u64 il_digits_at(const char *p, int n, const char *end)
{
	u64 v = 0;

	while (n > 0) {
		int k = n < 8 ? n : 8;

		if (IL_SCAN_WORDS && end - p >= 8) {
			static const u64 scale[9] = { 1, 10, 100, 1000, 10000, 100000, 1000000,
						      10000000, 100000000 };

			v = v * scale[k] + il_digits_value(il_load8(p), k);
		} else {
			for (int i = 0; i < k; i++)
				v = v * 10 + (u64)(p[i] - '0');
		}
		p += k;
		n -= k;
	}
	return v;
}

/* Just after the last non-blank in [@line, @e), or @line. */
static inline const char *il_skip_blanks_back(const char *line, const char *e)
{
	if (IL_SCAN_WORDS) {
		for (; e - line >= 8; e -= 8) {
			u64 x = il_load8(e - 8);
			u64 m = ~(il_bytes_eq(x, ' ') | il_bytes_eq(x, '\t')) & IL_BYTES_80;

			if (m)
				return e - 8 + ((63 - __builtin_clzll(m)) >> 3) + 1;
		}
	}
	while (e > line && il_is_blank(e[-1]))
		e--;
	return e;
}

/*
 * il_trace_getline - the next line, NUL-terminated without its newline
 * Return: 1 with the line in @line and @len, 0 at end of file, -1 on a read error.
 */
int il_trace_getline(struct il_trace *t, char **line, size_t *len);
/* il_trace_getline() for a line that is whole in the buffer: the text readers' hot path. */
static inline int il_trace_getline_fast(struct il_trace *t, char **line, size_t *len)
{
	char *start = t->buf + t->pos;
	char *nl = memchr(start, '\n', t->len - t->pos);

	if (!nl)
		return il_trace_getline(t, line, len);
	*nl = '\0';
	t->last_start = t->pos;
	t->last_nl = true;
	*len = (size_t)(nl - start);
	t->pos += *len + 1;
	t->lineno++;
	t->counts.lines++;
	*line = start;
	return 1;
}

/* Put the line just read back, so the next il_trace_getline() returns it again. */
void il_trace_ungetline(struct il_trace *t);
/*
 * Explain in @err why opening or reading failed: the whole sentence, which names the file
 * itself where it applies (@err may be NULL: nothing is written).
 */
void il_trace_fail(struct il_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Report a problem on @line (0: none) through the diagnostic hook. */
void il_trace_diag(struct il_trace *t, u64 line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Count and report a line that could not be parsed. */
void il_trace_bad_line(struct il_trace *t, const char *why);

/*
 * il_trace_accept - final checks on a decoded event: CPU within the trace's CPU count and
 * timestamps not going back on that CPU. Counts the event.
 * Return: true if the event is to be delivered.
 */
bool il_trace_accept(struct il_trace *t, struct il_trace_event *ev);

/* The head of a text line: everything before the event name. */
struct il_text_head {
	const char *prefix;     /* instance name, NULL if none */
	size_t prefix_len;
	int pid;
	int cpu;
	u64 ts_ns;
	int ts_digits;          /* digits of the fraction: 6 (µs) or 9 (ns) */
	bool bracket_cpu;       /* "[003]" rather than trace-cmd's latency "3d..1." */
	bool pid_token;         /* perf: the pid is a separate token, not "comm-pid" */
	char flags[8];
	const char *event;      /* the event name starts here */
};

/*
 * il_text_parse_head - split a text trace line into its head and event
 * Return: 0, or -1 with *@why set if the line does not have the shape
 * "[prefix: ]TASK-PID [CPU] [FLAGS] SEC.FRAC: EVENT".
 */
int il_text_parse_head(const char *line, size_t len, struct il_text_head *h, const char **why);

/*
 * il_text_next - the common loop of the text readers: read lines, skip comments via
 * @comment (return true if the line is a header/comment line the reader consumed),
 * parse heads with il_text_parse_head(), let @check veto a head (return a reason or NULL),
 * decode the event and run il_trace_accept().
 */
int il_text_next(struct il_trace *t, struct il_trace_event *ev,
		 bool (*comment)(struct il_trace *t, const char *line, size_t len),
		 const char *(*check)(struct il_trace *t, const struct il_text_head *h));

/*
 * il_trace_decode - decode "name: fields" (perf: "subsys:name: fields") at @s into @ev
 * Return: 1 for an event of interest, 0 for another event, -1 if the fields of a known
 * event are malformed (*@why set).
 */
int il_trace_decode(const char *s, const char *end, struct il_trace_event *ev, const char **why);
/*
 * il_trace_decode_masked - il_trace_decode() for the types in @mask only; a known event of
 * another type returns 0 with its type in *@skipped (if not NULL), else *@skipped is not
 * touched.
 */
int il_trace_decode_masked(const char *s, const char *end, u32 mask, struct il_trace_event *ev,
			   const char **why, enum il_ev *skipped);

/* Parse "SEC.FRAC" at *@p into ns; advance *@p. Return: digits of the fraction, or -1. */
int il_parse_timestamp(const char **p, const char *end, u64 *ns);

/* The probe score of one text line shape, shared by the text probes. */
bool il_text_line_parses(const char *line, size_t len, struct il_text_head *h);

/*
 * il_ftrace_comment - the ftrace reader's comment lines: "#" header lines (their "#P:N"
 * gives the CPU count) and trace_pipe's "CPU:N [LOST M EVENTS]" markers (a diagnostic)
 * Return: true when the line was one of them.
 */
bool il_ftrace_comment(struct il_trace *t, const char *line, size_t len);

/* Reader descriptors (one per file) and the explicit list, lib/trace/readers.h. */
#define IL_DECLARE_READER(name) extern const struct il_trace_reader il_reader_##name;

#endif /* IDLELAB_TRACE_LOCAL_H */
