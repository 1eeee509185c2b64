// SPDX-License-Identifier: GPL-2.0-only
/*
 * verdict.c - the verdict of a patched governor against its base, through the verdict's own
 * grid (lib/verdict): one call, so that the review follows whatever the verdict becomes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../platform/platform.h"
#include "review.h"

bool il_review_called(const struct il_verdict_cell *c)
{
	/* a class this file does not know (a newer verdict's) is not a call */
	return c->cls == IL_VERDICT_WORSE || c->cls == IL_VERDICT_BETTER;
}

static int alloc_grid(struct il_review_verdict *rv, int nplat, int nscn)
{
	rv->plat = calloc((size_t)nplat, sizeof(*rv->plat));
	rv->plat_names = calloc((size_t)nplat, sizeof(*rv->plat_names));
	rv->common = calloc((size_t)nscn, sizeof(*rv->common));
	rv->scn = calloc((size_t)nscn, sizeof(*rv->scn));
	rv->args = calloc((size_t)nscn, sizeof(*rv->args));
	return rv->plat && rv->plat_names && rv->common && rv->scn && rv->args ? 0 : -1;
}

static int resolve(const struct il_review_verdict_opts *o, struct il_review_verdict *rv,
		   struct il_error *err)
{
	for (int p = 0; p < o->nplat; p++) {
		if (il_platform_load(o->platforms[p], &rv->plat[p], err))
			return -1;
		rv->plat_names[p] = rv->plat[p].name;
	}
	for (int s = 0; s < o->nscn; s++)
		if (il_scn_parse(o->scenarios[s], &rv->scn[s], &rv->args[s], &rv->common[s], err))
			return -1;
	return 0;
}

int il_review_verdict(const struct il_review_verdict_opts *o, struct il_review_verdict *rv,
		      struct il_error *err)
{
	struct il_verdict_opts vo = {
		.alpha = IL_VERDICT_DEFAULT_ALPHA, .min_effect_pct = IL_VERDICT_DEFAULT_MIN_EFFECT,
		.paired = true, .metrics = IL_VM_ALL, .perm_seed = o->seed,
	};
	struct il_verdict *v = &rv->v;
	size_t failed = 0;

	memset(rv, 0, sizeof(*rv));
	if (alloc_grid(rv, o->nplat, o->nscn))
		return il_error_set(err, "review", 0, "out of memory");
	if (resolve(o, rv, err))
		return -1;
	if (il_verdict_init(v, o->nplat, o->nscn, 2, 0, o->iter))
		return il_error_set(err, "review", 0, "verdict: %s", strerror(errno));
	rv->presets[0] = o->base;
	rv->presets[1] = o->patched;
	rv->gov_names[0] = o->base->name;
	rv->gov_names[1] = o->patched->name;
	v->gov = rv->gov_names;
	v->plat = rv->plat_names;
	v->spec = o->scenarios;
	v->scn = rv->scn;
	v->args = rv->args;
	v->common = rv->common;
	rv->plan = (struct il_verdict_plan){
		.plat = rv->plat, .preset = rv->presets, .common = rv->common,
		.duration_ns = o->duration_ns, .seed = o->seed, .paired = true,
		.threads = o->threads ? o->threads : 1,
	};
	il_verdict_mark_na(v, &rv->plan);
	if (il_verdict_ensemble_init(v, rv->plat, o->ensemble, o->seed, err))
		return errno == ENOMEM ? il_error_set(err, "review", 0, "out of memory") : -1;
	if (il_verdict_run(v, &rv->plan, &vo, &failed))
		return il_error_set(err, "review", 0, "verdict run %zu failed: %s", failed,
				    strerror(errno));
	if (il_verdict_judge(v, &vo))
		return il_error_set(err, "review", 0, "verdict: %s", strerror(errno));
	return 0;
}

void il_review_verdict_free(struct il_review_verdict *rv)
{
	il_verdict_free(&rv->v);
	free(rv->plat);
	free(rv->plat_names);
	free(rv->common);
	free(rv->scn);
	free(rv->args);
	memset(rv, 0, sizeof(*rv));
}
