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
 * head are parsed, which keeps skipping cheap.
 */
#define _GNU_SOURCE
#include <string.h>

#include "trace-local.h"

static inline bool is_digit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

static inline bool is_blank(char c)
{
	return c == ' ' || c == '\t';
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
 * by a blank or the line end. Return: its ':' and the start of SEC in *@ts, or NULL.
 */
static const char *find_timestamp(const char *line, const char *end, const char **ts)
{
	const char *c = line;

	while ((c = memchr(c, ':', (size_t)(end - c))) != NULL) {
		const char *q = c, *s;

		if (c + 1 < end && !is_blank(c[1])) {
			c++;
			continue;
		}
		while (q > line && is_digit(q[-1]))
			q--;
		if (q < c && q - 1 > line && q[-1] == '.') {
			s = q - 1;
			while (s > line && is_digit(s[-1]))
				s--;
			if (s < q - 1 && (s == line || is_blank(s[-1]))) {
				*ts = s;
				return c;
			}
		}
		c++;
	}
	return NULL;
}

/* The token that ends at *@end (after trimming blanks); moves *@end to its start. */
static const char *token_before(const char *line, const char **end)
{
	const char *e = *end, *s;

	while (e > line && is_blank(e[-1]))
		e--;
	s = e;
	while (s > line && !is_blank(s[-1]))
		s--;
	*end = s;
	return e; /* the token is [*end, e) */
}

static bool all_digits(const char *s, const char *e)
{
	if (s >= e)
		return false;
	for (; s < e; s++)
		if (!is_digit(*s))
			return false;
	return true;
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

/* "[003]" */
static bool bracket_cpu(const char *s, const char *e, int *cpu)
{
	if (e - s < 3 || s[0] != '[' || e[-1] != ']' || !all_digits(s + 1, e - 1))
		return false;
	*cpu = parse_int(s + 1, e - 1);
	return *cpu >= 0;
}

static void copy_flags(struct il_text_head *h, const char *s, const char *e)
{
	size_t n = (size_t)(e - s);

	if (n >= sizeof(h->flags))
		n = sizeof(h->flags) - 1;
	memcpy(h->flags, s, n);
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
	const char *s, *e;

	while (end > line && is_blank(end[-1]))
		end--;
	if (end > line && end[-1] == ')') {
		/* record-tgid: "(  123)" or "(-------)"; may hold blanks */
		const char *open = end - 1;

		while (open > line && *open != '(')
			open--;
		end = open;
	}
	e = token_before(line, &end);
	s = end;
	h->pid_token = false;
	if (s < e && is_digit(*s)) {
		const char *slash = memchr(s, '/', (size_t)(e - s));

		if (all_digits(s, slash ? slash : e)) {
			h->pid = parse_int(s, slash ? slash : e);
			h->pid_token = true;
			return 0;
		}
	}
	/* The pid follows the last '-': task names may contain dashes, pids do not. */
	{
		const char *dash = memrchr(s, '-', (size_t)(e - s));

		if (dash && all_digits(dash + 1, e)) {
			h->pid = parse_int(dash + 1, e);
			return 0;
		}
	}
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
	if (s == end || is_blank(*s))
		return;
	e = s;
	while (e < end && !is_blank(*e))
		e++;
	if (e > s + 1 && e[-1] == ':' && e < end) {
		h->prefix = s;
		h->prefix_len = (size_t)(e - s - 1);
	}
}

/* After "SEC.FRAC:": blanks, and in perf output an optional sample period. */
static const char *event_start(const char *p, const char *end)
{
	const char *q;

	while (p < end && is_blank(*p))
		p++;
	q = p;
	while (q < end && is_digit(*q))
		q++;
	if (q > p && q < end && is_blank(*q)) {
		while (q < end && is_blank(*q))
			q++;
		return q;
	}
	return p;
}

/* Stage 1: where the timestamp and the event are (the timestamp's value is read later). */
static int find_ts_event(const char *line, const char *end, struct il_text_head *h,
			 const char **ts, const char **colon, const char **why)
{
	*colon = find_timestamp(line, end, ts);
	if (!*colon) {
		*why = "no timestamp";
		return -1;
	}
	h->event = event_start(*colon + 1, end);
	return 0;
}

/* Stage 2: the timestamp's value. */
static int read_ts(const char *ts, const char *colon, struct il_text_head *h, const char **why)
{
	const char *p = ts;

	h->ts_digits = il_parse_timestamp(&p, colon, &h->ts_ns);
	if (h->ts_digits < 0 || p != colon) {
		*why = "bad timestamp";
		return -1;
	}
	return 0;
}

static int parse_ts_event(const char *line, const char *end, struct il_text_head *h,
			  const char **ts, const char **why)
{
	const char *colon;

	if (find_ts_event(line, end, h, ts, &colon, why) < 0)
		return -1;
	return read_ts(*ts, colon, h, why);
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
	const char *why, *ts, *colon;
	enum il_ev skipped;
	char *line;
	size_t len;
	int r;

	for (;;) {
		r = il_trace_getline(t, &line, &len);
		if (r <= 0)
			return r;
		if (len == 0 || (comment && comment(t, line, len))) {
			t->counts.comments++;
			continue;
		}
		if (find_ts_event(line, line + len, &h, &ts, &colon, &why) < 0) {
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
		if (r < 0 || read_ts(ts, colon, &h, &why) < 0 || parse_before_ts(line, ts, &h, &why) < 0 ||
		    (check && (why = check(t, &h)) != NULL)) {
			il_trace_bad_line(t, why);
			continue;
		}
		fill_head(t, ev, &h);
		if (il_trace_accept(t, ev))
			return 1;
	}
}
