// SPDX-License-Identifier: GPL-2.0-only
/*
 * metrics.c - the metrics a verdict judges, their directions, and the work each scenario's
 * score counts, for energy per unit of work.
 *
 * DOC: energy per unit of work
 *
 * A governor that slows a closed-loop workload also makes it do less work in the same
 * simulated time, and so spends less energy: Joules alone would call it "better". Where the
 * score measures work, the energy metric is µJ per work item instead:
 *   rate scores (iops, records_per_s ...): items = score x simulated seconds;
 *   time scores (us_per_loop, rtt_us): items = simulated µs / score (x pairs for netrr,
 *   whose rtt_us is per client/server pair).
 * Scenarios whose work is fixed by the workload (open loop: timers, frame or request
 * arrivals) or whose score is a latency or a count of wakeups keep Joules per run: the
 * work is the same for every governor, so Joules compare like for like.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verdict.h"
#include "util/array.h"

static const struct il_verdict_work work[] = {
	{ "fio", IL_WORK_RATE, "request", NULL,
	  "iops: completed requests per second (closed loop, iodepth 1)" },
	{ "pingpong", IL_WORK_TIME, "loop", NULL,
	  "us_per_loop: simulated µs per trip around the ring" },
	{ "threads", IL_WORK_RATE, "loop", NULL,
	  "loops_per_s: work/sleep loops per second, all threads" },
	{ "ebizzy", IL_WORK_RATE, "record", NULL, "records_per_s: record searches per second" },
	{ "pidpersec", IL_WORK_RATE, "task", NULL,
	  "pids_per_s: serialized tasks completed per second" },
	{ "netrr", IL_WORK_TIME, "transaction", "pairs",
	  "rtt_us: µs per request/response of one pair" },
	{ "wakeup", IL_WORK_NONE, NULL, NULL,
	  "wakeup_us is a latency; the wakeups come at a fixed rate" },
	{ "consume", IL_WORK_NONE, NULL, NULL,
	  "late_us is a latency; the work is periodic, fixed" },
	{ "idle", IL_WORK_NONE, NULL, NULL,
	  "wakeups_per_s counts wakeups, not work; no work is done" },
	{ "idle-busy", IL_WORK_NONE, NULL, NULL,
	  "wakeups_per_s counts wakeups; the busy CPU's work is fixed" },
	{ "adrestia", IL_WORK_NONE, NULL, NULL,
	  "wakeup_ns is a latency; the wakeups are periodic" },
	{ "jbb", IL_WORK_NONE, NULL, NULL, "resp_us is a latency; requests arrive open loop" },
	{ "video", IL_WORK_NONE, NULL, NULL,
	  "late_pct counts late frames; 60 frames a second either way" },
	{ "rtapp", IL_WORK_NONE, NULL, NULL,
	  "wu_lat_us is a latency; the rt-app file fixes the work" },
};

int il_verdict_work_count(void)
{
	return (int)ARRAY_SIZE(work);
}

const struct il_verdict_work *il_verdict_work_at(int i)
{
	return i >= 0 && i < il_verdict_work_count() ? &work[i] : NULL;
}

const struct il_verdict_work *il_verdict_work_find(const char *name)
{
	for (int i = 0; i < il_verdict_work_count(); i++)
		if (!strcmp(work[i].scenario, name))
			return &work[i];
	return NULL;
}

int il_vmetric_find(const char *name)
{
	for (int m = 0; m < IL_VM_COUNT; m++)
		if (!strcmp(il_vmetric_key(m), name))
			return m;
	return -1;
}

const char *il_vmetric_key(enum il_vmetric m)
{
	if (m == IL_VM_SCORE)
		return "score";
	return (int)m == IL_VM_ENERGY ? "energy" : il_vmetric_def(m)->name;
}

const char *il_vmetric_name(enum il_vmetric m, const struct il_scenario *scn, char *buf, size_t cap)
{
	const struct il_verdict_work *w;

	if (m == IL_VM_SCORE)
		return scn->score;
	if ((int)m != IL_VM_ENERGY)
		return il_vmetric_def(m)->name;
	w = il_verdict_work_find(scn->name);
	if (!w || w->kind == IL_WORK_NONE)
		return "joules";
	snprintf(buf, cap, "uj_per_%s", w->unit);
	return buf;
}

bool il_vmetric_higher_better(enum il_vmetric m, const struct il_scenario *scn)
{
	if (m == IL_VM_SCORE)
		return scn->higher_is_better;
	return (int)m != IL_VM_ENERGY && il_vmetric_def(m)->better == IL_BETTER_HIGHER;
}

int il_vmetric_prec(enum il_vmetric m, const struct il_scenario *scn)
{
	if (m == IL_VM_SCORE)
		return scn->score_prec + 1;
	return (int)m == IL_VM_ENERGY ? 4 : il_vmetric_def(m)->mean_prec;
}

/* The work items of run @r, or 0 when its score says none were done. */
static double work_items(const struct il_verdict_work *w, const struct il_scenario *scn,
			 const struct il_scn_args *args, const struct il_verdict_run *r)
{
	double secs = (double)r->duration_ns / 1e9, per = 1.0;
	int pi = w->per_param ? il_scn_param_index(scn, w->per_param) : -1;

	if (pi >= 0)
		per = (double)args->v[pi];
	if (!(r->score > 0.0))
		return 0.0;
	if (w->kind == IL_WORK_RATE)
		return r->score * secs;
	return secs * 1e6 / r->score * per;
}

static int energy_value(const struct il_scenario *scn, const struct il_scn_args *args,
			const struct il_verdict_run *r, double *v, const char **why)
{
	const struct il_verdict_work *w = il_verdict_work_find(scn->name);
	double items;

	if (!r->energy_known) {
		*why = "energy unknown: the platform has no power numbers";
		return -1;
	}
	if (!w) {
		*why = "no work-unit entry for this scenario (lib/verdict/metrics.c)";
		return -1;
	}
	if (w->kind == IL_WORK_NONE) {
		*v = r->joules;
		return 0;
	}
	items = work_items(w, scn, args, r);
	if (!(items > 0.0)) {
		*why = "no work done: energy per unit of work undefined";
		return -1;
	}
	*v = r->joules * 1e6 / items;
	return 0;
}

int il_vmetric_value(enum il_vmetric m, const struct il_scenario *scn,
		     const struct il_scn_args *args, const struct il_verdict_run *r, double *v,
		     const char **why)
{
	if (m == IL_VM_SCORE) {
		*v = r->score;
		return 0;
	}
	if ((int)m == IL_VM_ENERGY)
		return energy_value(scn, args, r, v, why);
	if ((int)m < 0 || (int)m > IL_VM_ENERGY) {
		*why = "unknown metric";
		return -1;
	}
	*v = r->field[m] / il_vmetric_def(m)->div;
	return 0;
}

unsigned int il_verdict_cpus_needed(const struct il_scenario *scn,
				    const struct il_scn_common *common,
				    const struct il_platform *plat)
{
	unsigned int n = common->cpus ? common->cpus :
			 scn->default_cpus ? scn->default_cpus : plat->cpus;

	return n < common->min_cpus ? common->min_cpus : n;
}

/* ---- one run, exactly ------------------------------------------------------------------------ */

void il_verdict_run_of(const struct il_lab_result *res, u64 duration_ns, struct il_verdict_run *r)
{
	memset(r, 0, sizeof(*r));
	r->score = res->score;
	for (int m = IL_VM_SCORE + 1; m < IL_VM_ENERGY; m++)
		r->field[m] = il_metric_field(il_vmetric_def(m), &res->sum, 0);
	r->joules = res->sum.energy_known ? res->sum.joules : 0.0;
	r->energy_known = res->sum.energy_known;
	r->duration_ns = duration_ns;
	r->busy_ns = res->sum.busy_ns;
	r->idles = res->sum.idles;
	r->aboves = res->sum.aboves;
	r->belows = res->sum.belows;
	r->tick_stops = res->sum.tick_stops;
	r->nstates = res->nstates;
	for (int i = 0; i < res->nstates && i < CPUIDLE_STATE_MAX; i++) {
		r->state_ns[i] = res->sum.time_ns[i];
		r->state_usage[i] = res->sum.usage[i];
	}
}

void il_verdict_joules(const struct il_verdict_run *r, const struct il_platform *plat,
		       struct il_verdict_run *out)
{
	struct il_power pw;
	double uj;

	il_lab_power(plat, 0, &pw);
	*out = *r;
	/* il_cpu_energy_j() over the CPUs' sums: µW * s = µJ, nJ / 1000 = µJ */
	uj = (double)pw.active_uw * (double)r->busy_ns / 1e9;
	for (int i = 0; i < r->nstates; i++) {
		uj += (double)pw.state_uw[i] * (double)r->state_ns[i] / 1e9;
		uj += (double)pw.entry_exit_nj[i] * (double)r->state_usage[i] / 1e3;
	}
	out->energy_known = r->energy_known && pw.known;
	out->joules = out->energy_known ? uj / 1e6 : 0.0;
}
