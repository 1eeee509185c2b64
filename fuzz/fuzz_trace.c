// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: a trace reader (lib/trace/) and the statistics (lib/stats/) on arbitrary
 * bytes. Built once per reader with -DREADER="ftrace" (..., or NULL for detection). Whatever
 * the input, every delivered event must be on a CPU within the trace's CPU count, its time
 * must not go back on its CPU, and the statistics must add up.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "trace/trace.h"
#include "fuzz_stream.h"

#ifndef READER
#define READER NULL
#endif

#define TRACK_CPUS 64

static void check_stats(const struct il_stats *s)
{
	for (unsigned int cpu = 0; cpu < il_stats_ncpus(s); cpu++) {
		const struct il_trace_cpu_stats *c = il_stats_cpu(s, cpu);
		u64 entries = 0, total = 0, wakes = 0;

		for (int i = 0; i < c->nstates; i++) {
			u64 hist = 0;

			entries += c->st[i].entries;
			total += c->st[i].total_ns;
			for (int b = 0; b < IL_STATS_HIST_BUCKETS; b++)
				hist += c->st[i].hist[b];
			if (hist != c->st[i].entries ||
			    (c->st[i].entries && c->st[i].min_ns > c->st[i].max_ns))
				abort();
		}
		for (int i = 0; i < c->nwakes; i++)
			wakes += c->wakes[i].count;
		if (entries != c->periods || total != c->idle_ns || wakes != c->periods)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	u64 last[TRACK_CPUS] = { 0 };
	struct il_stats_cfg cfg;
	struct il_trace_event ev;
	struct il_stats *s;
	struct il_trace *t;
	FILE *f;

	f = fuzz_stream(data, size);
	if (!f)
		return 0;
	t = il_trace_open_file(f, "fuzz", READER, NULL);
	if (!t) {
		fclose(f);
		return 0;
	}
	il_stats_default_cfg(&cfg);
	s = il_stats_new(&cfg);
	while (il_trace_next(t, &ev) == 1) {
		int ncpus = il_trace_info(t)->ncpus;

		if ((ncpus > 0 && ev.cpu >= (unsigned int)ncpus) || ev.cpu >= IL_TRACE_MAX_CPUS)
			abort();
		if (ev.cpu < TRACK_CPUS) {
			if (ev.ts_ns < last[ev.cpu])
				abort();
			last[ev.cpu] = ev.ts_ns;
		}
		if (s)
			il_stats_event(s, &ev);
	}
	if (s) {
		il_stats_finish(s);
		check_stats(s);
		il_stats_free(s);
	}
	il_trace_close(t);
	fclose(f);
	return 0;
}
