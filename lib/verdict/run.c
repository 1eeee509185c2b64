// SPDX-License-Identifier: GPL-2.0-only
/*
 * run.c - running a verdict's grid on the battery's thread pool (il_lab_run_all()).
 *
 * Runs go out in batches so that only a batch's full lab results (with their per-CPU
 * counters) are held at a time; each run's result is reduced to its struct
 * il_verdict_run in the slot of its own index, so nothing depends on the threads or the
 * batch size.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lab/battery.h"
#include "verdict.h"

#define RUN_BATCH_PER_THREAD 512

u64 il_verdict_seed(const struct il_verdict_plan *pl, const struct il_verdict *v, int g, int it)
{
	return pl->seed + (pl->paired ? 0 : (u64)g * (u64)v->n) + (u64)it;
}

void il_verdict_mark_na(struct il_verdict *v, const struct il_verdict_plan *pl)
{
	for (int p = 0; p < v->nplat; p++) {
		for (int s = 0; s < v->nscn; s++) {
			unsigned int need =
				il_verdict_cpus_needed(v->scn[s], &pl->common[s], &pl->plat[p]);
			char *na = v->na[p * v->nscn + s];

			if (need > pl->plat[p].cpus)
				snprintf(na, IL_VERDICT_REASON_LEN, "needs %u CPUs, %s has %u",
					 need, pl->plat[p].name, pl->plat[p].cpus);
			else
				na[0] = '\0';
		}
	}
}

void il_verdict_spec(const struct il_verdict_plan *pl, const struct il_verdict *v, int p, int s,
		     int g, int it, struct il_lab_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
	spec->plat = &pl->plat[p];
	spec->preset = pl->preset[g];
	spec->scn = v->scn[s];
	spec->args = v->args[s];
	spec->common = pl->common[s];
	spec->duration_ns = pl->duration_ns;
	spec->seed = il_verdict_seed(pl, v, g, it);
}

/* The plan's progress callback, told the whole grid's count rather than one batch's. */
struct batch_progress {
	const struct il_verdict_plan *pl;
	size_t before, total;
};

static void batch_progress_cb(void *ctx, size_t done, size_t total)
{
	const struct batch_progress *bp = ctx;

	(void)total;
	bp->pl->progress(bp->pl->progress_ctx, bp->before + done, bp->total);
}

/* The runs @idx[0..@n) (indices into v->runs) on the pool; @bp counts them for the progress. */
static int run_batch(struct il_verdict *v, const struct il_verdict_plan *pl, const size_t *idx,
		     size_t n, size_t *failed, struct batch_progress *bp)
{
	struct il_lab_spec *specs = calloc(n, sizeof(*specs));
	struct il_lab_result *res = calloc(n, sizeof(*res));
	int *errs = calloc(n, sizeof(*errs));
	int ret = 0;

	if (!specs || !res || !errs) {
		free(specs);
		free(res);
		free(errs);
		errno = ENOMEM;
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		size_t k = idx[i];
		int it = (int)(k % (size_t)v->n), g = (int)(k / (size_t)v->n % (size_t)v->ngov);
		int s = (int)(k / ((size_t)v->n * (size_t)v->ngov) % (size_t)v->nscn);
		int p = (int)(k / ((size_t)v->n * (size_t)v->ngov * (size_t)v->nscn));

		il_verdict_spec(pl, v, p, s, g, it, &specs[i]);
	}
	il_lab_run_all_progress(specs, res, n, pl->threads, errs,
				pl->progress ? batch_progress_cb : NULL, bp);
	bp->before += n;
	for (size_t i = 0; i < n; i++) {
		if (errs[i]) {
			if (!ret) {
				*failed = idx[i];
				ret = errs[i];
			}
			continue;
		}
		il_verdict_run_of(&res[i], pl->duration_ns, &v->runs[idx[i]]);
		il_lab_result_free(&res[i]);
	}
	free(specs);
	free(res);
	free(errs);
	if (ret) {
		errno = ret;
		return -1;
	}
	return 0;
}

int il_verdict_run(struct il_verdict *v, const struct il_verdict_plan *pl, size_t *failed)
{
	size_t total = (size_t)v->nplat * (size_t)v->nscn * (size_t)v->ngov * (size_t)v->n;
	size_t batch = (size_t)(pl->threads ? pl->threads : 1) * RUN_BATCH_PER_THREAD;
	size_t *idx = calloc(batch, sizeof(*idx)), n = 0;
	struct batch_progress bp = { .pl = pl };
	int ret = 0;

	if (!idx) {
		errno = ENOMEM;
		return -1;
	}
	for (size_t k = 0; k < total; k++)
		bp.total += !v->na[k / ((size_t)v->n * (size_t)v->ngov)][0];
	for (size_t k = 0; k < total && !ret; k++) {
		size_t ps = k / ((size_t)v->n * (size_t)v->ngov);

		if (v->na[ps][0])
			continue;
		idx[n++] = k;
		if (n == batch) {
			ret = run_batch(v, pl, idx, n, failed, &bp);
			n = 0;
		}
	}
	if (!ret && n)
		ret = run_batch(v, pl, idx, n, failed, &bp);
	free(idx);
	return ret;
}
