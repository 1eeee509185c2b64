// SPDX-License-Identifier: GPL-2.0-only
/*
 * text.c - the line shape every text format shares, and the common read loop.
 *
 * DOC: text lines
 *
 * ftrace, trace-cmd report, perf script and idlestat lines all look like
 *
 *	[INSTANCE: ]TASK-PID [(TGID)] [CPU] [FLAGS] SEC.FRAC: [SUBSYS:]EVENT: FIELDS
 *	        ^ head ...................................^ timestamp  ^ event
 *
 * with variations: perf prints "TASK PID [CPU]", trace-cmd's latency format fuses the
 * CPU and the flags ("0d..1."), the flags column has 4 or 5 characters or is absent, and
 * task names may contain spaces, dashes or brackets. So the parser anchors on the one
 * token that cannot be mistaken: the first "SEC.FRAC:" preceded by a blank. The event
 * follows it; the CPU, the flags and the pid are read backwards from it, token by token.
 * A line whose event is of no interest is counted and dropped before its timestamp and
 * head are parsed, which keeps skipping cheap; the heads of the lines that are parsed
 * repeat, so their results are cached (see "head cache" below).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "trace-local.h"

static inline bool is_digit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

/* 10^(9 - digits): the scale of a fraction with that many digits. */
static const u64 frac_scale[10] = {
	1000000000ULL, 100000000ULL, 10000000ULL, 1000000ULL, 100000ULL,
	10000ULL, 1000ULL, 100ULL, 10ULL, 1ULL,
};

/* More seconds digits than this would overflow u64 nanoseconds. */
#define MAX_SEC_DIGITS 10

int il_parse_timestamp(const char **pp, const char *end, u64 *ns)
{
	const char *p = *pp;
	u64 sec = 0, frac = 0;
	int sec_digits = 0, digits = 0;

	while (p < end && is_digit(*p)) {
		if (++sec_digits > MAX_SEC_DIGITS)
			return -1;
		sec = sec * 10 + (u64)(*p++ - '0');
	}
	if (!sec_digits || p >= end || *p != '.')
		return -1;
	p++;
	while (p < end && is_digit(*p)) {
		/* Digits past nanoseconds are read and dropped. */
		if (digits < 9)
			frac = frac * 10 + (u64)(*p - '0');
		digits++;
		p++;
	}
	if (!digits)
		return -1;
	*ns = sec * (u64)NSEC_PER_SEC + frac * frac_scale[digits < 9 ? digits : 9];
	*pp = p;
	return digits;
}

/*
 * The first "SEC.FRAC:" that starts after a blank (or at the line start) and is followed
 * by a blank or the line end. Return: its ':', with the start of SEC in *@ts and the '.' in
 * *@dot, or NULL.
 */
static inline const char *find_timestamp(const char *line, const char *end, const char **ts,
					 const char **dot)
{
	const char *c = line;

	while ((c = memchr(c, ':', (size_t)(end - c))) != NULL) {
		const char *q, *s;

		if (c + 1 < end && !il_is_blank(c[1])) {
			c++;
			continue;
		}
		q = il_digits_start(line, c);
		if (q < c && q - 1 > line && q[-1] == '.') {
			s = il_digits_start(line, q - 1);
			if (s < q - 1 && (s == line || il_is_blank(s[-1]))) {
				*ts = s;
				*dot = q - 1;
				return c;
			}
		}
		c++;
	}
	return NULL;
}

/* The token that ends at *@end (after trimming blanks); moves *@end to its start. */
static inline const char *token_before(const char *line, const char **end)
{
	const char *e = *end, *s;

	while (e > line && il_is_blank(e[-1]))
		e--;
	s = e;
	while (s > line && !il_is_blank(s[-1]))
		s--;
	*end = s;
	return e; /* the token is [*end, e) */
}

/* token_before() for a token that may be long, after blanks that may be many. */
static inline const char *long_token_before(const char *line, const char **end)
{
	const char *e = il_skip_blanks_back(line, *end);

	*end = il_token_start(line, e);
	return e;
}

static int parse_int(const char *s, const char *e)
{
	int v = 0;

	for (; s < e && is_digit(*s); s++) {
		if (v > 100000000)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return v;
}

/*
 * Whether [@s, @e) is a non-empty run of digits; then *@v is its value as parse_int()
 * reads it (-1 when too large).
 */
static inline bool digits_value(const char *s, const char *e, int *v)
{
	int x = 0;

	if (s >= e)
		return false;
	for (; s < e; s++) {
		if (!is_digit(*s))
			return false;
		if (x > 100000000)
			x = -1;
		else if (x >= 0)
			x = x * 10 + (*s - '0');
	}
	*v = x;
	return true;
}

/* "[003]" */
static inline bool bracket_cpu(const char *s, const char *e, int *cpu)
{
	int v;

	if (e - s < 3 || s[0] != '[' || e[-1] != ']' || !digits_value(s + 1, e - 1, &v))
		return false;
	*cpu = v;
	return v >= 0;
}

static void copy_flags(struct il_text_head *h, const char *s, const char *e)
{
	size_t n = 0;

	/* At most 7 characters: a loop is cheaper than a call to memcpy. */
	for (; s < e && n < sizeof(h->flags) - 1; s++)
		h->flags[n++] = *s;
	h->flags[n] = '\0';
}

/* CPU (and flags) tokens just before the timestamp; moves *@end before them. */
static int parse_cpu_flags(const char *line, const char **end, struct il_text_head *h,
			   const char **why)
{
	const char *s, *e = token_before(line, end);

	s = *end;
	h->flags[0] = '\0';
	h->bracket_cpu = true;
	if (bracket_cpu(s, e, &h->cpu))
		return 0;
	if (s < e && is_digit(*s)) {
		/* trace-cmd latency format: CPU digits fused with the flags, "12d..1." */
		const char *f = s;

		while (f < e && is_digit(*f))
			f++;
		h->cpu = parse_int(s, f);
		copy_flags(h, f, e);
		h->bracket_cpu = false;
		if (h->cpu < 0 || f == e || e - f > 7) {
			*why = "no CPU field";
			return -1;
		}
		return 0;
	}
	if (e - s > 7 || s == e) {
		*why = "no CPU field";
		return -1;
	}
	copy_flags(h, s, e);
	e = token_before(line, end);
	if (!bracket_cpu(*end, e, &h->cpu)) {
		*why = "no [CPU] field";
		return -1;
	}
	return 0;
}

/* "TASK-PID [(TGID)]" or perf's "TASK PID[/TID]" ending at @end. */
static int parse_pid(const char *line, const char *end, struct il_text_head *h,
		     const char **why)
{
	const char *s, *e, *dash;

	end = il_skip_blanks_back(line, end);
	if (end > line && end[-1] == ')') {
		/* record-tgid: "(  123)" or "(-------)"; may hold blanks */
		const char *open = end - 1;

		while (open > line && *open != '(')
			open--;
		end = open;
	}
	e = long_token_before(line, &end);
	s = end;
	h->pid_token = false;
	if (s < e && is_digit(*s)) {
		const char *slash = memchr(s, '/', (size_t)(e - s));

		if (digits_value(s, slash ? slash : e, &h->pid)) {
			h->pid_token = true;
			return 0;
		}
	}
	/* The pid follows the last '-': task names may contain dashes, pids do not. */
	for (dash = e; dash > s && dash[-1] != '-'; dash--)
		;
	if (dash > s && digits_value(dash, e, &h->pid))
		return 0;
	*why = "no TASK-PID field";
	return -1;
}

/* An instance prefix: the first token of the line, if it ends with ':'. */
static void parse_prefix(const char *line, const char *end, struct il_text_head *h)
{
	const char *s = line, *e;

	h->prefix = NULL;
	h->prefix_len = 0;
	/* Instance names start the line; ftrace pads its task column with blanks. */
	if (s == end || il_is_blank(*s))
		return;
	e = s;
	while (e < end && !il_is_blank(*e))
		e++;
	if (e > s + 1 && e[-1] == ':' && e < end) {
		h->prefix = s;
		h->prefix_len = (size_t)(e - s - 1);
	}
}

/* After "SEC.FRAC:": blanks, and in perf output an optional sample period. */
static inline const char *event_start(const char *p, const char *end)
{
	const char *q;

	while (p < end && il_is_blank(*p))
		p++;
	q = p;
	while (q < end && is_digit(*q))
		q++;
	if (q > p && q < end && il_is_blank(*q)) {
		while (q < end && il_is_blank(*q))
			q++;
		return q;
	}
	return p;
}

/* Where the timestamp and the event of a line are (the timestamp's value is read later). */
struct ts_pos {
	const char *ts;    /* first digit of SEC */
	const char *dot;
	const char *colon; /* just after the last digit of FRAC */
	const char *end;   /* of the line */
};

/* Stage 1: where the timestamp and the event are. */
static inline int find_ts_event(const char *line, const char *end, struct il_text_head *h,
				struct ts_pos *pos, const char **why)
{
	pos->colon = find_timestamp(line, end, &pos->ts, &pos->dot);
	pos->end = end;
	if (!pos->colon) {
		*why = "no timestamp";
		return -1;
	}
	h->event = event_start(pos->colon + 1, end);
	return 0;
}

/*
 * Stage 2: the timestamp's value. find_timestamp() saw only digits in [ts, dot) and
 * (dot, colon), at least one on each side; this is il_parse_timestamp() on them.
 */
static int read_ts(const struct ts_pos *pos, struct il_text_head *h, const char **why)
{
	int sec_digits = (int)(pos->dot - pos->ts), digits = (int)(pos->colon - pos->dot - 1);
	u64 sec, frac;

	if (sec_digits > MAX_SEC_DIGITS) {
		*why = "bad timestamp";
		return -1;
	}
	sec = il_digits_at(pos->ts, sec_digits, pos->end);
	/* Digits past nanoseconds are dropped. */
	frac = il_digits_at(pos->dot + 1, digits < 9 ? digits : 9, pos->end);
	h->ts_ns = sec * (u64)NSEC_PER_SEC + frac * frac_scale[digits < 9 ? digits : 9];
	h->ts_digits = digits;
	return 0;
}

static int parse_ts_event(const char *line, const char *end, struct il_text_head *h,
			  const char **ts, const char **why)
{
	struct ts_pos pos;

	if (find_ts_event(line, end, h, &pos, why) < 0)
		return -1;
	*ts = pos.ts;
	return read_ts(&pos, h, why);
}

/* Stage 3: everything before the timestamp. */
static int parse_before_ts(const char *line, const char *ts, struct il_text_head *h,
			   const char **why)
{
	const char *end = ts;

	if (parse_cpu_flags(line, &end, h, why) < 0)
		return -1;
	if (parse_pid(line, end, h, why) < 0)
		return -1;
	parse_prefix(line, end, h);
	return 0;
}

int il_text_parse_head(const char *line, size_t len, struct il_text_head *h, const char **why)
{
	const char *ts;

	if (parse_ts_event(line, line + len, h, &ts, why) < 0)
		return -1;
	return parse_before_ts(line, ts, h, why);
}

bool il_text_line_parses(const char *line, size_t len, struct il_text_head *h)
{
	const char *why;

	return il_text_parse_head(line, len, h, &why) == 0;
}

/*
 * DOC: head cache
 *
 * The head of a line (everything before its timestamp) repeats: a trace has few tasks per
 * CPU and few combinations of flags, and ftrace pads the columns, so the same bytes come
 * back line after line. What parse_before_ts() finds depends on those bytes only, so the
 * results for recent heads are kept in a small two-way set-associative table, indexed by a
 * hash of the 24 bytes before the timestamp and the head's length; a head equal byte for
 * byte to one in its set takes the stored result. Only heads that parsed are stored; a
 * new one replaces the least recently used of its set.
 */
#define HEAD_CACHE_BITS 6
#define HEAD_CACHE_SETS (1U << HEAD_CACHE_BITS)
#define HEAD_CACHE_WAYS 2
#define HEAD_CACHE_MIN 24  /* the bytes the hash reads */
#define HEAD_CACHE_MAX 120 /* longer heads are parsed every time */

struct il_head_slot {
	unsigned int len; /* 0: empty */
	char bytes[HEAD_CACHE_MAX];
	/* What parse_before_ts() found, the prefix as an offset from the line start. */
	int pid, cpu;
	bool bracket_cpu, pid_token, has_prefix;
	char flags[8];
	size_t prefix_off, prefix_len;
};

struct il_head_set {
	struct il_head_slot way[HEAD_CACHE_WAYS];
	unsigned int victim; /* the way used least recently */
};

struct il_head_cache {
	struct il_head_set set[HEAD_CACHE_SETS];
};

void il_head_cache_free(struct il_head_cache *c)
{
	free(c);
}

static unsigned int head_hash(const char *line, const char *ts)
{
	const u64 k1 = 0x9e3779b97f4a7c15ULL, k2 = 0xc2b2ae3d27d4eb4fULL;
	u64 x = il_load8(ts - 8) ^ il_load8(ts - 16) * k1 ^ il_load8(ts - 24) * k2 ^
		(u64)(ts - line);

	return (unsigned int)((x * k1) >> (64 - HEAD_CACHE_BITS));
}

static void head_from_slot(const struct il_head_slot *c, const char *line, struct il_text_head *h)
{
	h->pid = c->pid;
	h->cpu = c->cpu;
	h->bracket_cpu = c->bracket_cpu;
	h->pid_token = c->pid_token;
	memcpy(h->flags, c->flags, sizeof(h->flags));
	h->prefix = c->has_prefix ? line + c->prefix_off : NULL;
	h->prefix_len = c->prefix_len;
}

static void head_to_slot(struct il_head_slot *c, const char *line, size_t len,
			 const struct il_text_head *h)
{
	c->len = (unsigned int)len;
	memcpy(c->bytes, line, len);
	c->pid = h->pid;
	c->cpu = h->cpu;
	c->bracket_cpu = h->bracket_cpu;
	c->pid_token = h->pid_token;
	memcpy(c->flags, h->flags, sizeof(c->flags));
	c->has_prefix = h->prefix != NULL;
	c->prefix_off = h->prefix ? (size_t)(h->prefix - line) : 0;
	c->prefix_len = h->prefix_len;
}

/* parse_before_ts() through the head cache of @t (none if it cannot be allocated). */
static int parse_head_cached(struct il_trace *t, const char *line, const char *ts,
			     struct il_text_head *h, const char **why)
{
	size_t len = (size_t)(ts - line);
	struct il_head_set *set = NULL;

	if (len >= HEAD_CACHE_MIN && len <= HEAD_CACHE_MAX) {
		if (!t->heads)
			t->heads = calloc(1, sizeof(*t->heads));
		if (t->heads) {
			set = &t->heads->set[head_hash(line, ts)];
			for (unsigned int w = 0; w < HEAD_CACHE_WAYS; w++) {
				const struct il_head_slot *slot = &set->way[w];

				if (slot->len == len && !memcmp(slot->bytes, line, len)) {
					head_from_slot(slot, line, h);
					set->victim = (w + 1) % HEAD_CACHE_WAYS;
					return 0;
				}
			}
		}
	}
	if (parse_before_ts(line, ts, h, why) < 0)
		return -1;
	if (set) {
		head_to_slot(&set->way[set->victim], line, len, h);
		set->victim = (set->victim + 1) % HEAD_CACHE_WAYS;
	}
	return 0;
}

static void fill_head(struct il_trace *t, struct il_trace_event *ev,
		      const struct il_text_head *h)
{
	ev->cpu = (unsigned int)h->cpu;
	ev->pid = h->pid;
	ev->ts_ns = h->ts_ns;
	ev->line = t->lineno;
	memcpy(ev->flags, h->flags, sizeof(ev->flags));
	if (h->ts_digits >= 9)
		t->info.ns_timestamps = true;
}

int il_text_next(struct il_trace *t, struct il_trace_event *ev,
		 bool (*comment)(struct il_trace *t, const char *line, size_t len),
		 const char *(*check)(struct il_trace *t, const struct il_text_head *h))
{
	struct il_text_head h;
	struct ts_pos pos;
	const char *why;
	enum il_ev skipped;
	char *line;
	size_t len;
	int r;

	for (;;) {
		r = il_trace_getline_fast(t, &line, &len);
		if (r <= 0)
			return r;
		if (len == 0 || (comment && comment(t, line, len))) {
			t->counts.comments++;
			continue;
		}
		if (find_ts_event(line, line + len, &h, &pos, &why) < 0) {
			il_trace_bad_line(t, why);
			continue;
		}
		/* The event first: most lines are skipped on their name alone. */
		skipped = IL_EV_OTHER;
		r = il_trace_decode_masked(h.event, line + len, t->mask, ev, &why, &skipped);
		if (r == 0) {
			t->counts.events[skipped]++;
			continue;
		}
		if (r < 0 || read_ts(&pos, &h, &why) < 0 ||
		    parse_head_cached(t, line, pos.ts, &h, &why) < 0 ||
		    (check && (why = check(t, &h)) != NULL)) {
			il_trace_bad_line(t, why);
			continue;
		}
		fill_head(t, ev, &h);
		if (il_trace_accept(t, ev))
			return 1;
	}
}
