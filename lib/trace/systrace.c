// SPDX-License-Identifier: GPL-2.0-only
/*
 * systrace.c - reader for Android systrace HTML: the trace-viewer page that catapult's
 * systrace (and Perfetto's `traceconv systrace`) writes, with the ftrace text embedded in a
 *
 *	<script class="trace-data" type="application/text">
 *	# tracer: nop
 *	...   TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION
 *	  <idle>-0     (-----) [006] d..2   538.064674: cpu_idle: state=2 cpu_id=6
 *	</script>
 *
 * block (older pages: after `var linuxPerfData = "`). The page is read as a stream like any
 * text trace: lines before the block are skipped, the block's lines go through the ftrace
 * reader's head and comment handling (the TGID column is part of the common text head,
 * lib/trace/text.c), and the rest of the page is read to its end. Other trace-data blocks
 * (JSON: the clock-sync and process metadata systrace adds) are skipped; a second block of
 * ftrace text would be a second trace whose clock idlelab cannot relate to the first, so it
 * is refused.
 *
 * A cut page is an error with the file and line, not a short trace: the file ending inside
 * the ftrace block (no </script>), or after it without </html>.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "trace-local.h"

enum systrace_where { ST_DATA, ST_AFTER, ST_END };

struct systrace {
	enum systrace_where where;
	u64 block_line;        /* the <script> line of the ftrace block */
	u64 second_block_line; /* another ftrace block, refused at the end; 0: none */
};

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && il_is_blank(*p))
		p++;
	return p;
}

static bool html_start(const char *head, size_t len)
{
	const char *p = head, *end = head + len;

	if (len >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3; /* a UTF-8 byte order mark */
	while (p < end && (il_is_blank(*p) || *p == '\n' || *p == '\r'))
		p++;
	return (end - p >= 14 && !strncasecmp(p, "<!DOCTYPE html", 14)) ||
	       (end - p >= 5 && !strncasecmp(p, "<html", 5));
}

static int systrace_probe(const char *head, size_t len)
{
	if (!html_start(head, len))
		return IL_PROBE_NO;
	/* No other reader takes HTML; the page's title or a block in the head makes it sure. */
	if (memmem(head, len, "Android System Trace", 20) || memmem(head, len, "trace-data", 10) ||
	    memmem(head, len, "linuxPerfData", 13))
		return IL_PROBE_CERTAIN;
	return IL_PROBE_LIKELY;
}

static bool line_has(const char *line, size_t len, const char *s)
{
	return memmem(line, len, s, strlen(s)) != NULL;
}

/* The start of a block that holds trace data: <script class="trace-data"> or linuxPerfData. */
static bool block_start(const char *line, size_t len)
{
	return (line_has(line, len, "<script") && line_has(line, len, "trace-data")) ||
	       line_has(line, len, "linuxPerfData");
}

static bool block_end(const char *line, size_t len)
{
	const char *p = skip_blanks(line, line + len);

	return (size_t)(line + len - p) >= 9 && !memcmp(p, "</script>", 9);
}

/* Whether the line after a block start is ftrace text (rather than JSON or base64). */
static bool ftrace_text(const char *line, size_t len)
{
	struct il_text_head h;

	return (len >= 9 && !memcmp(line, "# tracer:", 9)) || il_text_line_parses(line, len, &h);
}

static int cut_page(struct il_trace *t, const char *what)
{
	il_trace_fail(&t->err, "%s:%llu: the systrace page is cut: %s", t->path,
		      (unsigned long long)t->lineno, what);
	errno = EBADMSG;
	return -1;
}

/*
 * Read up to the first block of ftrace text: skip the page's head, script and style, and
 * any trace-data block that is not ftrace text (up to its </script>).
 */
static int find_block(struct il_trace *t, struct systrace *st)
{
	bool in_other = false;
	char *line;
	size_t len;
	int r;

	while ((r = il_trace_getline(t, &line, &len)) > 0) {
		t->counts.comments++;
		if (in_other) {
			in_other = !block_end(line, len);
			continue;
		}
		if (!block_start(line, len))
			continue;
		st->block_line = t->lineno;
		r = il_trace_getline(t, &line, &len);
		if (r <= 0)
			break;
		if (ftrace_text(line, len)) {
			il_trace_ungetline(t);
			st->where = ST_DATA;
			return 0;
		}
		il_trace_ungetline(t);
		in_other = true;
	}
	if (r < 0) {
		il_trace_fail(&t->err, "cannot read %s: %s", t->path, strerror(errno));
		return -1;
	}
	if (in_other)
		return cut_page(t, "the file ends inside a <script> block");
	il_trace_fail(&t->err, "%s: an HTML page without systrace ftrace data (no "
		      "<script class=\"trace-data\"> block holding ftrace text)", t->path);
	errno = EINVAL;
	return -1;
}

static int systrace_open(struct il_trace *t)
{
	struct systrace *st = calloc(1, sizeof(*st));

	if (!st) {
		il_trace_fail(&t->err, "out of memory");
		return -1;
	}
	t->priv = st;
	return find_block(t, st);
}

/* The lines after the ftrace block: counted, looked at for a second block and </html>. */
static void after_block(struct il_trace *t, struct systrace *st, const char *line, size_t len)
{
	char *next;
	size_t n;

	if (line_has(line, len, "</html>")) {
		st->where = ST_END;
	} else if (!st->second_block_line && block_start(line, len)) {
		u64 at = t->lineno;

		if (il_trace_getline(t, &next, &n) > 0) {
			if (ftrace_text(next, n))
				st->second_block_line = at;
			il_trace_ungetline(t);
		}
	}
}

static bool systrace_comment(struct il_trace *t, const char *line, size_t len)
{
	struct systrace *st = t->priv;

	if (st->where != ST_DATA) {
		after_block(t, st, line, len);
		return true;
	}
	if (line[0] == '#' || (line[0] == 'C' && len >= 4 && !memcmp(line, "CPU:", 4)))
		return il_ftrace_comment(t, line, len);
	if (block_end(line, len) || (line[0] == '"' && len <= 2)) {
		st->where = ST_AFTER;
		return true;
	}
	return false;
}

static const char *systrace_check(struct il_trace *t, const struct il_text_head *h)
{
	return h->bracket_cpu ? NULL : "no [CPU] field";
}

static int systrace_next(struct il_trace *t, struct il_trace_event *ev)
{
	struct systrace *st = t->priv;
	int r = il_text_next(t, ev, systrace_comment, systrace_check);

	if (r != 0)
		return r;
	if (st->where == ST_DATA) {
		char what[96];

		snprintf(what, sizeof(what), "the file ends inside the trace data opened on line "
			 "%llu (no </script>)", (unsigned long long)st->block_line);
		return cut_page(t, what);
	}
	if (st->where == ST_AFTER)
		return cut_page(t, "no </html> after the trace data");
	if (st->second_block_line) {
		il_trace_fail(&t->err, "%s:%llu: a second block of ftrace text (the first, read, "
			      "is on line %llu): two traces in one page are not read", t->path,
			      (unsigned long long)st->second_block_line,
			      (unsigned long long)st->block_line);
		errno = EBADMSG;
		return -1;
	}
	return 0;
}

static void systrace_close(struct il_trace *t)
{
	free(t->priv);
	t->priv = NULL;
}

const struct il_trace_reader il_reader_systrace = {
	.name = "systrace",
	.desc = "Android systrace HTML (ftrace text with TGIDs in a trace-data block)",
	.probe = systrace_probe,
	.open = systrace_open,
	.next_event = systrace_next,
	.close = systrace_close,
};
