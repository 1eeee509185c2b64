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

void il_verdict_vspec(const struct il_verdict_plan *pl, const struct il_verdict *v, int p, int s,
		      int var, int g, int it, struct il_lab_spec *spec,
		      struct il_platform *plat_buf)
{
	const struct il_ens_space *sp = v->space ? &v->space[p * v->nscn + s] : NULL;
	double vals[IL_ENS_MAX_PARAMS];

	il_verdict_spec(pl, v, p, s, g, it, spec);
	if (!var || !sp)
		return;
	*plat_buf = pl->plat[p];
	il_ens_values(sp, v->ensemble, v->ens_seed, var, vals);
	il_ens_apply(sp, vals, plat_buf, &spec->args);
	spec->plat = plat_buf;
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

struct il_verdict_pos il_verdict_pos_of(const struct il_verdict *v, size_t k)
{
	struct il_verdict_pos pos;

	pos.it = (int)(k % (size_t)v->n);
	k /= (size_t)v->n;
	pos.g = (int)(k % (size_t)v->ngov);
	k /= (size_t)v->ngov;
	pos.var = (int)(k % (size_t)v->nvar_max);
	k /= (size_t)v->nvar_max;
	pos.s = (int)(k % (size_t)v->nscn);
	pos.p = (int)(k / (size_t)v->nscn);
	return pos;
}

bool il_verdict_case_na(const struct il_verdict *v, size_t k)
{
	struct il_verdict_pos pos = il_verdict_pos_of(v, k);

	return v->na[pos.p * v->nscn + pos.s][0] != '\0' ||
	       pos.var >= il_verdict_nvar(v, pos.p, pos.s) ||
	       il_verdict_derived(v, pos.p, pos.s, pos.var);
}

size_t il_verdict_cases(const struct il_verdict *v)
{
	return (size_t)v->nplat * (size_t)v->nscn * (size_t)v->nvar_max * (size_t)v->ngov *
	       (size_t)v->n;
}

/* The plan's progress callback, told the whole verdict's count rather than one batch's: the
 * total grows by each stage's runs when the stage starts (the screen decides how many). */
struct batch_progress {
	const struct il_verdict_plan *pl;
	size_t before, total;
	size_t scale_num, scale_den; /* a batch's runs per simulation made (see run_batch()) */
};

static void batch_progress_cb(void *ctx, size_t done, size_t total)
{
	const struct batch_progress *bp = ctx;

	(void)total;
	bp->pl->progress(bp->pl->progress_ctx,
			 bp->before + done * bp->scale_num / (bp->scale_den ? bp->scale_den : 1),
			 bp->total);
}

/*
 * One batch's plan. Runs of one (platform, scenario, governor, seed) whose variants change
 * power numbers only (il_verdict_power_only(), on a platform where they are not derived)
 * simulate the same events: the first of them in the batch leads, and the lab run prices
 * the others' platforms too (il_lab_spec.reprice), the very sums their own runs would give.
 * lead[i]: the run that simulates case i (i itself for a leader); slot[i]: its place in
 * its leader's reprice list; sim[i]: a leader's index among the runs made.
 */
struct batch_plan {
	size_t *lead, *slot, *sim, nsim;
	const struct il_platform **reprice; /* the followers' platforms, by leader */
	struct il_lab_spec *run;            /* [nsim] */
};

static void batch_plan_free(struct batch_plan *bp)
{
	free(bp->lead);
	free(bp->slot);
	free(bp->sim);
	free(bp->reprice);
	free(bp->run);
}

/* Find each power-only case's leader: the first case of its seed in the batch. */
static int plan_leaders(const struct il_verdict *v, const size_t *idx, size_t n,
			struct batch_plan *bp)
{
	size_t seeds = (size_t)v->ngov * (size_t)v->n, pair = SIZE_MAX;
	size_t *first = malloc(seeds * sizeof(*first));

	if (!first)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct il_verdict_pos pos = il_verdict_pos_of(v, idx[i]);
		size_t key = (size_t)pos.g * (size_t)v->n + (size_t)pos.it, l;

		bp->lead[i] = i;
		if (!il_verdict_power_only(v, pos.p, pos.s, pos.var))
			continue;
		if (pair != (size_t)pos.p * (size_t)v->nscn + (size_t)pos.s) {
			pair = (size_t)pos.p * (size_t)v->nscn + (size_t)pos.s;
			for (size_t j = 0; j < seeds; j++)
				first[j] = SIZE_MAX;
		}
		l = first[key];
		if (l != SIZE_MAX && bp->slot[l] < IL_LAB_REPRICE_MAX) {
			bp->lead[i] = l;
			bp->slot[i] = bp->slot[l]++; /* a leader's slot counts its followers */
		} else {
			first[key] = i;
		}
	}
	free(first);
	return 0;
}

/* The runs to make: each leader's spec with its followers' platforms to price. */
static int plan_batch(const struct il_verdict *v, const size_t *idx, size_t n,
		      const struct il_lab_spec *specs, struct batch_plan *bp)
{
	size_t off = 0;

	bp->lead = calloc(n, sizeof(*bp->lead));
	bp->slot = calloc(n, sizeof(*bp->slot));
	bp->sim = calloc(n, sizeof(*bp->sim));
	bp->reprice = calloc(n, sizeof(*bp->reprice));
	bp->run = calloc(n, sizeof(*bp->run));
	if (!bp->lead || !bp->slot || !bp->sim || !bp->reprice || !bp->run ||
	    plan_leaders(v, idx, n, bp))
		return -1;
	bp->nsim = 0;
	for (size_t i = 0; i < n; i++) {
		if (bp->lead[i] != i)
			continue;
		bp->sim[i] = bp->nsim;
		bp->run[bp->nsim] = specs[i];
		bp->run[bp->nsim].reprice = bp->reprice + off;
		bp->run[bp->nsim].nreprice = (unsigned int)bp->slot[i];
		off += bp->slot[i];
		bp->nsim++;
	}
	for (size_t i = 0; i < n; i++) {
		const struct il_lab_spec *l = &bp->run[bp->sim[bp->lead[i]]];
		size_t at = (size_t)(l->reprice - bp->reprice) + bp->slot[i];

		if (bp->lead[i] != i)
			bp->reprice[at] = specs[i].plat;
	}
	return 0;
}

/* Case @i's part of the batch's results: its leader's run, priced on its own platform. */
static void batch_result(const struct il_verdict_plan *pl, const struct batch_plan *bp,
			 const struct il_lab_result *res, size_t i, struct il_verdict_run *out)
{
	struct il_lab_result r = res[bp->sim[bp->lead[i]]];

	if (bp->lead[i] != i)
		r.sum = r.repriced[bp->slot[i]];
	il_verdict_run_of(&r, pl->duration_ns, out);
}

/* The runs @idx[0..@n) (indices into v->runs) on the pool; @bp counts them for the progress. */
static int run_batch(struct il_verdict *v, const struct il_verdict_plan *pl, const size_t *idx,
		     size_t n, size_t *failed, struct batch_progress *bp)
{
	struct il_lab_spec *specs = calloc(n, sizeof(*specs));
	struct il_lab_result *res = calloc(n, sizeof(*res));
	int *errs = calloc(n, sizeof(*errs));
	/* One platform copy per variant met in the batch: consecutive runs share one. */
	struct il_platform *plats = calloc(n, sizeof(*plats));
	struct batch_plan plan = { 0 };
	int ret = 0, nplats = 0;
	size_t last = SIZE_MAX;

	if (!specs || !res || !errs || !plats) {
		ret = ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct il_verdict_pos pos = il_verdict_pos_of(v, idx[i]);
		size_t variant = idx[i] / ((size_t)v->n * (size_t)v->ngov);

		if (pos.var && variant != last)
			nplats++;
		last = variant;
		il_verdict_vspec(pl, v, pos.p, pos.s, pos.var, pos.g, pos.it, &specs[i],
				 &plats[nplats ? nplats - 1 : 0]);
	}
	if (plan_batch(v, idx, n, specs, &plan)) {
		ret = ENOMEM;
		goto out;
	}
	bp->scale_num = n;
	bp->scale_den = plan.nsim;
	il_lab_run_all_progress(plan.run, res, plan.nsim, pl->threads, errs,
				pl->progress ? batch_progress_cb : NULL, bp);
	bp->before += n;
	v->runs_done += n;
	v->sims_done += plan.nsim;
	for (size_t i = 0; i < n; i++) {
		int err = errs[plan.sim[plan.lead[i]]];

		if (err) {
			if (!ret) {
				*failed = idx[i];
				ret = err;
			}
			continue;
		}
		batch_result(pl, &plan, res, i, &v->runs[idx[i]]);
	}
	for (size_t r = 0; r < plan.nsim; r++)
		if (!errs[r])
			il_lab_result_free(&res[r]);
out:
	batch_plan_free(&plan);
	free(specs);
	free(res);
	free(errs);
	free(plats);
	if (ret) {
		errno = ret;
		return -1;
	}
	return 0;
}

/* Whether case @k belongs to the stage being run: @stage 0 the nominal runs; 1 the
 * hypercube of the pairs in @need; 2 their range ends. */
static bool in_stage(const struct il_verdict *v, size_t k, int stage, const bool *need)
{
	struct il_verdict_pos pos = il_verdict_pos_of(v, k);

	if (il_verdict_case_na(v, k))
		return false;
	if (stage == 0)
		return pos.var == 0;
	if (!need[pos.p * v->nscn + pos.s] || pos.var == 0)
		return false;
	return stage == 1 ? pos.var <= v->ensemble : pos.var > v->ensemble;
}

static int run_stage(struct il_verdict *v, const struct il_verdict_plan *pl, int stage,
		     const bool *need, size_t *failed, struct batch_progress *bp)
{
	size_t total = il_verdict_cases(v);
	size_t batch = (size_t)(pl->threads ? pl->threads : 1) * RUN_BATCH_PER_THREAD;
	size_t *idx = calloc(batch, sizeof(*idx)), n = 0;
	int ret = 0;

	if (!idx) {
		errno = ENOMEM;
		return -1;
	}
	for (size_t k = 0; k < total; k++)
		bp->total += in_stage(v, k, stage, need);
	for (size_t k = 0; k < total && !ret; k++) {
		if (!in_stage(v, k, stage, need))
			continue;
		idx[n++] = k;
		if (n == batch) {
			ret = run_batch(v, pl, idx, n, failed, bp);
			n = 0;
		}
	}
	if (!ret && n)
		ret = run_batch(v, pl, idx, n, failed, bp);
	free(idx);
	return ret;
}

int il_verdict_run(struct il_verdict *v, const struct il_verdict_plan *pl,
		   const struct il_verdict_opts *o, size_t *failed)
{
	struct batch_progress bp = { .pl = pl };
	bool *need;
	int ret;

	if (run_stage(v, pl, 0, NULL, failed, &bp))
		return -1;
	if (!v->space || v->n < 2)
		return 0;
	need = calloc((size_t)v->nplat * (size_t)v->nscn, sizeof(*need));
	if (!need) {
		errno = ENOMEM;
		return -1;
	}
	ret = il_verdict_needs(v, o, 1, need) || run_stage(v, pl, 1, need, failed, &bp) ||
	      il_verdict_needs(v, o, 2, need) || run_stage(v, pl, 2, need, failed, &bp) ? -1 : 0;
	free(need);
	return ret;
}
