// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlestat.c - reader for the trace files idlestat (0.x) writes with --trace -f FILE.
 *
 * idlestat stores a header before the ftrace lines it copied from the kernel:
 *
 *	idlestat version = 0.8
 *	cpus=4
 *	clusterA:              topology: clusters, cores (only with SMT), CPUs
 *		core0
 *			cpu0
 *	cpuid 0:               then, per online CPU, 16 states as name / target residency
 *		POLL              (µs) line pairs; unused slots are "(null)" and 0
 *		0
 *	...
 *
 * The state names and residencies of CPU 0 are kept in il_trace_info so that the trace
 * itself says which states it was recorded with (the analysing host never does). The
 * ftrace lines after the header go through the common text parser.
 */
#include <stdlib.h>
#include <string.h>

#include "trace-local.h"

#define IDLESTAT_MAGIC "idlestat version"
/* idlestat writes this many state slots per CPU, used or not. */
#define IDLESTAT_MAXCSTATE 16

static bool starts_with(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(s, prefix, n);
}

static int idlestat_probe(const char *head, size_t len)
{
	return starts_with(head, len, IDLESTAT_MAGIC) ? IL_PROBE_CERTAIN : IL_PROBE_NO;
}

/* Lines of the topology block: "clusterA:", "\tcore0", "\t\tcpu0". */
static bool topology_line(const char *line, size_t len)
{
	while (len && (*line == '\t' || *line == ' ')) {
		line++;
		len--;
	}
	return starts_with(line, len, "cluster") || starts_with(line, len, "core") ||
	       starts_with(line, len, "cpu") || len == 0 || *line == '#';
}

static void keep_state(struct il_trace *t, int slot, const char *name, unsigned int res)
{
	size_t n = strlen(name);

	if (slot >= CPUIDLE_STATE_MAX || !strcmp(name, "(null)"))
		return;
	if (n >= IL_NAME_LEN)
		n = IL_NAME_LEN - 1;
	memcpy(t->info.state_name[slot], name, n);
	t->info.state_name[slot][n] = '\0';
	t->info.state_residency_us[slot] = res;
	if (slot + 1 > t->info.header_states)
		t->info.header_states = slot + 1;
}

static const char *skip_blanks(const char *s)
{
	while (*s == '\t' || *s == ' ')
		s++;
	return s;
}

/* One "cpuid N:" block: 16 name/residency pairs. Return: 0, or -1 if malformed. */
static int read_cstates(struct il_trace *t, int cpu)
{
	char name[IL_NAME_LEN * 4];
	char *line;
	size_t len;

	for (int slot = 0; slot < IDLESTAT_MAXCSTATE; slot++) {
		unsigned long res;
		char *end;

		if (il_trace_getline(t, &line, &len) <= 0)
			return -1;
		snprintf(name, sizeof(name), "%s", skip_blanks(line));
		if (il_trace_getline(t, &line, &len) <= 0)
			return -1;
		t->counts.comments += 2;
		res = strtoul(skip_blanks(line), &end, 10);
		if (end == skip_blanks(line))
			return -1;
		if (cpu == 0)
			keep_state(t, slot, name, (unsigned int)res);
	}
	return 0;
}

static int idlestat_open(struct il_trace *t)
{
	char *line;
	size_t len;

	while (il_trace_getline(t, &line, &len) > 0) {
		t->counts.comments++;
		if (starts_with(line, len, IDLESTAT_MAGIC))
			continue;
		if (starts_with(line, len, "cpus=")) {
			t->info.ncpus = atoi(line + 5);
			continue;
		}
		if (starts_with(line, len, "cpuid ")) {
			if (read_cstates(t, atoi(line + 6)) < 0) {
				il_trace_fail(&t->err, "%s:%llu: truncated idlestat C-state header",
					      t->path, (unsigned long long)t->lineno);
				return -1;
			}
			continue;
		}
		if (topology_line(line, len))
			continue;
		/* The first ftrace line: hand it to next_event. */
		t->counts.comments--;
		il_trace_ungetline(t);
		break;
	}
	return 0;
}

static bool idlestat_comment(struct il_trace *t, const char *line, size_t len)
{
	return line[0] == '#';
}

static const char *idlestat_check(struct il_trace *t, const struct il_text_head *h)
{
	return h->bracket_cpu ? NULL : "no [CPU] field";
}

static int idlestat_next(struct il_trace *t, struct il_trace_event *ev)
{
	return il_text_next(t, ev, idlestat_comment, idlestat_check);
}

const struct il_trace_reader il_reader_idlestat = {
	.name = "idlestat",
	.desc = "idlestat trace file (header with topology and C-states, then ftrace lines)",
	.probe = idlestat_probe,
	.open = idlestat_open,
	.next_event = idlestat_next,
};
