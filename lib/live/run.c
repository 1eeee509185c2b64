// SPDX-License-Identifier: GPL-2.0-only
/*
 * run.c - what one run of a measurement measured: the counter snapshots before and after,
 * their per-state deltas summed over the measured CPUs, the RAPL energy, and the scores the
 * --metric expressions find in the command's output.
 *
 *  1. A run's idles, aboves and belows are the sums of the usage, above and below deltas of
 *     every state of every measured CPU; a counter is shown only when every CPU and state
 *     has it (older kernels lack above/below), so a sum is never silently partial.
 *  2. CPUs may differ in their state count (hybrid parts): the per-state rows go up to the
 *     most states of any CPU, and the extra states still count.
 *  3. Energy is the sum over the package zones; a zone that went back is a wrap, undone
 *     once with its max_energy_range_uj (il_live_energy_delta()); when that range is
 *     unknown the run has no joules rather than a wrong number.
 */
#include <stdio.h>
#include <string.h>

#include "live.h"

int il_live_snapshot(const struct il_live *lv, const unsigned int *cpus, int ncpu,
		     struct il_live_cpu *snap, struct il_error *err)
{
	for (int c = 0; c < ncpu; c++)
		if (il_live_read_cpu(lv, cpus[c], IL_LIVE_READ_COUNTERS, &snap[c], err))
			return -1;
	return 0;
}

/* A state seen for the first time in @run: its name, every counter assumed present. */
static void new_state(struct il_live_run *run, const struct il_live_cpu *cpu, int i)
{
	memcpy(run->names[i], cpu->st[i].name, IL_NAME_LEN);
	run->st[i].have = IL_LF_COUNTERS;
}

void il_live_run_add_cpu(struct il_live_run *run, const struct il_live_cpu *cpu,
			 const struct il_live_delta *d, bool first)
{
	if (first) {
		run->have = IL_LF_COUNTERS;
		run->nstates = cpu->nstates;
		for (int i = 0; i < cpu->nstates; i++)
			new_state(run, cpu, i);
	}
	for (int i = 0; i < cpu->nstates && i < CPUIDLE_STATE_MAX; i++) {
		struct il_live_delta *s = &run->st[i];

		if (i >= run->nstates) {
			/* A CPU with more states than the first: the extra ones still count. */
			new_state(run, cpu, i);
			run->nstates = i + 1;
		}
		s->have &= d[i].have;
		run->have &= d[i].have;
		s->usage += d[i].usage;
		s->time_us += d[i].time_us;
		s->above += d[i].above;
		s->below += d[i].below;
		s->rejected += d[i].rejected;
		run->idles += d[i].usage;
		run->aboves += d[i].above;
		run->belows += d[i].below;
	}
}

bool il_live_never_idle(const struct il_live_cpu *cpu, const struct il_live_delta *d)
{
	u64 usage = 0;

	for (int i = 0; i < cpu->nstates && i < CPUIDLE_STATE_MAX; i++) {
		if (!(d[i].have & IL_LF_USAGE))
			return false;
		usage += d[i].usage;
	}
	return usage == 0;
}

int il_live_run_energy(const struct il_live_rapl *rapl, const u64 *before, const u64 *after,
		       struct il_live_run *run, struct il_error *err)
{
	u64 total = 0, uj;

	run->energy_ok = false;
	if (rapl->status != IL_RAPL_OK)
		return 0;
	for (int z = 0; z < rapl->nzones; z++) {
		if (!il_live_energy_delta(before[z], after[z], rapl->zone[z].max_range_uj, &uj))
			return il_error_set(err, NULL, 0, "energy: %s went from %llu to %llu uJ "
					    "and max_energy_range_uj is unknown; joules not "
					    "measured for %s iter %u", rapl->zone[z].name,
					    (unsigned long long)before[z],
					    (unsigned long long)after[z], run->gov, run->iter);
		total += uj;
	}
	run->energy_ok = true;
	run->joules = (double)total / 1e6;
	return 0;
}

void il_live_run_metrics(struct il_live_run *run, const struct il_live_metric *metrics, int n,
			 const struct il_live_output *out, char (*matches)[IL_LIVE_MATCH_LEN])
{
	for (int i = 0; i < n; i++)
		run->metric_rc[i] = il_live_metric_eval(&metrics[i], out->text, &run->metric[i],
							matches[i], sizeof(matches[i]));
}
