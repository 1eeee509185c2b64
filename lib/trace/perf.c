// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf.c - reader for `perf script` text with the default fields.
 *
 * Lines are "TASK PID [CPU] SEC.FRAC: SUBSYS:EVENT: FIELDS" (the pid is its own token,
 * "PID/TID" with --tid; --ns prints 9 fraction digits). --header adds '#' lines. perf
 * records with its own clock (sched_clock by default), which is not CLOCK_MONOTONIC: the
 * hrtimer expiry values are then in another time base than the timestamps, which replay
 * notes (docs/trace.md).
 */
#define _GNU_SOURCE
#include <string.h>

#include "trace-local.h"

static int perf_probe(const char *head, size_t len)
{
	const char *p = head, *end = head + len;
	struct il_text_head h;
	char line[1024];

	if (len >= 14 && !memcmp(head, "# ========", 10) && memmem(head, len, "# captured on", 13))
		return IL_PROBE_CERTAIN;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		if (!nl)
			break;
		if (n && *p != '#' && n < sizeof(line)) {
			const char *colon;

			memcpy(line, p, n);
			line[n] = '\0';
			if (!il_text_line_parses(line, n, &h) || !h.pid_token)
				return IL_PROBE_NO;
			/* "power:cpu_idle:": the subsystem prefix is perf's mark. */
			colon = strchr(h.event, ':');
			return colon && colon[1] != ' ' ? IL_PROBE_LIKELY + 10 : IL_PROBE_MAYBE;
		}
		p += n + 1;
	}
	return IL_PROBE_NO;
}

static bool perf_comment(struct il_trace *t, const char *line, size_t len)
{
	return line[0] == '#';
}

static int perf_open(struct il_trace *t)
{
	return 0;
}

static int perf_next(struct il_trace *t, struct il_trace_event *ev)
{
	return il_text_next(t, ev, perf_comment, NULL);
}

const struct il_trace_reader il_reader_perf = {
	.name = "perf",
	.desc = "perf script text (default fields, --ns)",
	.probe = perf_probe,
	.open = perf_open,
	.next_event = perf_next,
	.bad_timer_flags = true,
};
