// SPDX-License-Identifier: GPL-2.0-only
/*
 * ftrace.c - reader for the tracefs text files `trace` and `trace_pipe`.
 *
 * `trace` starts with "# tracer: NAME" and a comment header whose
 * "# entries-in-buffer/entries-written: A/B   #P:N" line gives the CPU count; `trace_pipe`
 * has no header at all, so its probe looks at the first line's shape instead. Lines are
 * "TASK-PID [CPU] FLAGS SEC.USEC: EVENT: FIELDS" with a 4- or 5-character flags column, or
 * none when the irq-info option is off (lib/trace/text.c parses them). trace_pipe may
 * interleave "CPU:N [LOST M EVENTS]" markers, reported as diagnostics.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "trace-local.h"

static bool starts_with(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(s, prefix, n);
}

/* First line of @head that is neither empty nor a comment, NUL-terminated into @out. */
static size_t first_data_line(const char *head, size_t len, char *out, size_t outsz)
{
	const char *p = head, *end = head + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		if (!nl && p != head)
			break; /* a cut-off last line says nothing */
		if (n && *p != '#') {
			if (n >= outsz)
				n = outsz - 1;
			memcpy(out, p, n);
			out[n] = '\0';
			return n;
		}
		p += n + 1;
	}
	return 0;
}

static int ftrace_probe(const char *head, size_t len)
{
	struct il_text_head h;
	char line[1024];
	size_t n;

	if (starts_with(head, len, "# tracer:"))
		return IL_PROBE_CERTAIN;
	n = first_data_line(head, len, line, sizeof(line));
	if (n && il_text_line_parses(line, n, &h) && h.bracket_cpu && !h.pid_token &&
	    !h.prefix)
		return IL_PROBE_LIKELY;
	return IL_PROBE_NO;
}

/* "#P:N" anywhere in a header comment line. */
static void parse_ncpus(struct il_trace *t, const char *line, size_t len)
{
	const char *p = memmem(line, len, "#P:", 3);

	if (p && t->info.ncpus == 0)
		t->info.ncpus = atoi(p + 3);
}

bool il_ftrace_comment(struct il_trace *t, const char *line, size_t len)
{
	if (line[0] == '#') {
		parse_ncpus(t, line, len);
		return true;
	}
	if (starts_with(line, len, "CPU:") && memmem(line, len, "LOST", 4)) {
		il_trace_diag(t, t->lineno, "the ring buffer lost events here: %s", line);
		return true;
	}
	return false;
}

static const char *ftrace_check(struct il_trace *t, const struct il_text_head *h)
{
	return h->bracket_cpu ? NULL : "no [CPU] field";
}

static int ftrace_open(struct il_trace *t)
{
	return 0;
}

static int ftrace_next(struct il_trace *t, struct il_trace_event *ev)
{
	return il_text_next(t, ev, il_ftrace_comment, ftrace_check);
}

const struct il_trace_reader il_reader_ftrace = {
	.name = "ftrace",
	.desc = "tracefs text: trace, trace_pipe (µs timestamps)",
	.probe = ftrace_probe,
	.open = ftrace_open,
	.next_event = ftrace_next,
};
