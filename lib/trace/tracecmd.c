// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracecmd.c - reader for `trace-cmd report` text, with or without -t (ns) and -l.
 *
 * The report opens with "version = N" (older trace-cmd) or "cpus=N", may list
 * "CPU N is empty", and prefixes every line with the instance name when the data came
 * from an instance ("cpuidle_exp: "). With -l the CPU column is fused with the latency
 * flags ("0d..1."); without it, it is "[000]". Plugins reformat a few events
 * (sched_switch, sched_wakeup, hrtimer_*); lib/trace/decode.c reads both shapes.
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

static int tracecmd_probe(const char *head, size_t len)
{
	const char *nl;
	char line[1024];
	struct il_text_head h;
	size_t n;

	if (starts_with(head, len, "version = "))
		return IL_PROBE_CERTAIN;
	if (starts_with(head, len, "cpus=")) {
		nl = memchr(head, '\n', len);
		if (!nl)
			return IL_PROBE_LIKELY;
		/* idlestat files have cpus= on their second line, never on the first. */
		return IL_PROBE_CERTAIN - 10;
	}
	/* Without the header: the latency format's fused CPU column is specific enough. */
	nl = memchr(head, '\n', len);
	n = (size_t)((nl ? nl : head + len) - head);
	if (n >= sizeof(line))
		return IL_PROBE_NO;
	memcpy(line, head, n);
	line[n] = '\0';
	if (il_text_line_parses(line, n, &h) && (!h.bracket_cpu || h.prefix))
		return IL_PROBE_LIKELY;
	return IL_PROBE_NO;
}

static bool tracecmd_comment(struct il_trace *t, const char *line, size_t len)
{
	if (starts_with(line, len, "cpus=")) {
		t->info.ncpus = atoi(line + 5);
		return true;
	}
	return line[0] == '#' || starts_with(line, len, "version = ") ||
	       (starts_with(line, len, "CPU ") && memmem(line, len, "is empty", 8));
}

static const char *tracecmd_check(struct il_trace *t, const struct il_text_head *h)
{
	if (h->prefix && !t->info.instance[0]) {
		size_t n = h->prefix_len < sizeof(t->info.instance) - 1 ?
				   h->prefix_len : sizeof(t->info.instance) - 1;

		memcpy(t->info.instance, h->prefix, n);
		t->info.instance[n] = '\0';
	}
	return NULL;
}

static int tracecmd_open(struct il_trace *t)
{
	return 0;
}

static int tracecmd_next(struct il_trace *t, struct il_trace_event *ev)
{
	return il_text_next(t, ev, tracecmd_comment, tracecmd_check);
}

const struct il_trace_reader il_reader_tracecmd = {
	.name = "trace-cmd",
	.desc = "trace-cmd report text (-t ns, -l latency format, instance prefixes)",
	.probe = tracecmd_probe,
	.open = tracecmd_open,
	.next_event = tracecmd_next,
	.bad_timer_flags = true,
};
