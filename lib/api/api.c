// SPDX-License-Identifier: GPL-2.0-only
/*
 * api.c - the public API of libidlelab (include/idlelab/idlelab.h) over the lab's modules.
 *
 * The public header keeps the platform and the run opaque, so these are thin owners of the
 * library's own structures: il_platform_open() is il_platform_load() into a heap copy,
 * il_lab_simulate() is il_scn_parse() and il_lab_run() as `idlelab run` calls them, and the
 * getters read the run's struct il_summary. Errors go into the caller's buffer.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/idlelab.h"
#include "../platform/platform.h"
#include "../lab/lab.h"

struct il_run {
	struct il_lab_result res;
	const struct il_scenario *scn;
};

static void api_error(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void api_error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

struct il_platform *il_platform_open(const char *spec, char *err, size_t errlen)
{
	struct il_platform *plat = malloc(sizeof(*plat));
	struct il_error perr;

	if (!plat) {
		api_error(err, errlen, "%s: out of memory", spec);
		return NULL;
	}
	if (il_platform_load(spec, plat, &perr)) {
		api_error(err, errlen, "%s", perr.msg);
		free(plat);
		return NULL;
	}
	return plat;
}

void il_platform_close(struct il_platform *plat)
{
	free(plat);
}

const char *il_platform_name(const struct il_platform *plat)
{
	return plat->name;
}

unsigned int il_platform_cpus(const struct il_platform *plat)
{
	return plat->cpus;
}

const struct il_driver *il_platform_driver(const struct il_platform *plat)
{
	return &plat->drv;
}

int il_preset_make(struct il_preset *out, const char *name, const struct il_governor *gov,
		   const char *like, char *err, size_t errlen)
{
	const struct il_preset *base = il_preset_find(like);

	if (!base) {
		api_error(err, errlen, "unknown preset '%s'", like);
		return -1;
	}
	if (!gov || !gov->select) {
		api_error(err, errlen, "%s: a governor needs a select()", name);
		return -1;
	}
	memset(out, 0, sizeof(*out));
	out->name = name;
	out->gov = gov;
	out->kver = base->kver;
	out->core = base->core;
	out->kernel = base->kernel;
	out->upstream = "";
	out->changes = "";
	return 0;
}

struct il_run *il_lab_simulate(const struct il_platform *plat, const struct il_preset *preset,
			       const char *scenario, u64 duration_ns, u64 seed, char *err,
			       size_t errlen)
{
	struct il_lab_spec spec = { .plat = plat, .preset = preset, .duration_ns = duration_ns,
				    .seed = seed };
	struct il_error perr;
	struct il_run *run;

	if (!duration_ns) {
		api_error(err, errlen, "the simulated time must be above 0");
		return NULL;
	}
	if (il_scn_parse(scenario, &spec.scn, &spec.args, &spec.common, &perr)) {
		api_error(err, errlen, "%s", perr.msg);
		return NULL;
	}
	run = calloc(1, sizeof(*run));
	if (!run) {
		api_error(err, errlen, "%s: out of memory", scenario);
		return NULL;
	}
	if (il_lab_run(&spec, &run->res)) {
		api_error(err, errlen, "%s on %s, %s: %s", preset->name, plat->name, spec.scn->name,
			  strerror(errno));
		free(run);
		return NULL;
	}
	run->scn = spec.scn;
	return run;
}

void il_run_free(struct il_run *run)
{
	if (!run)
		return;
	il_lab_result_free(&run->res);
	free(run);
}

u64 il_run_idles(const struct il_run *run)
{
	return run->res.sum.idles;
}

u64 il_run_aboves(const struct il_run *run)
{
	return run->res.sum.aboves;
}

u64 il_run_belows(const struct il_run *run)
{
	return run->res.sum.belows;
}

u64 il_run_idle_misses(const struct il_run *run)
{
	return run->res.sum.idle_misses;
}

double il_run_idle_miss_ratio(const struct il_run *run)
{
	return run->res.sum.idle_miss_ratio;
}

int il_run_nstates(const struct il_run *run)
{
	return run->res.nstates;
}

static bool state_in_range(const struct il_run *run, int i)
{
	return i >= 0 && i < run->res.nstates;
}

u64 il_run_state_usage(const struct il_run *run, int i)
{
	return state_in_range(run, i) ? run->res.sum.usage[i] : 0;
}

u64 il_run_state_time_ns(const struct il_run *run, int i)
{
	return state_in_range(run, i) ? run->res.sum.time_ns[i] : 0;
}

u64 il_run_wake_p99_ns(const struct il_run *run)
{
	return run->res.sum.wake_p99_ns;
}

int il_run_energy_j(const struct il_run *run, double *joules)
{
	if (!run->res.sum.energy_known)
		return -1;
	*joules = run->res.sum.joules;
	return 0;
}

double il_run_score(const struct il_run *run)
{
	return run->res.score;
}

const char *il_run_score_name(const struct il_run *run, bool *higher_is_better)
{
	if (higher_is_better)
		*higher_is_better = run->scn->higher_is_better;
	return run->scn->score;
}
