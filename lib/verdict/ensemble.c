// SPDX-License-Identifier: GPL-2.0-only
/*
 * ensemble.c - the model variants of an ensemble (see verdict.h "ensemble"): which numbers
 * of a platform and a scenario are uncertain, a Latin hypercube over their ranges, the
 * one-at-a-time ends, and a variant applied to a copy of the platform and the arguments.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/rng.h"
#include "verdict.h"

/* FNV-1a of @s, to give each (platform, scenario) its own reproducible hypercube. */
static u64 hash_text(u64 h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

/* The platform's numbers; its hz is not uncertain when the run sets tick_hz= itself. */
static int add_plat_params(const struct il_platform *plat, const struct il_scn_common *common,
			   struct il_ens_space *sp)
{
	char name[64];

	for (int i = 0; i < plat->nunc; i++) {
		const struct il_plat_unc *u = &plat->unc[i];
		struct il_ens_param *e;
		double nominal = il_platform_param(plat, u);

		if (u->range.kind == IL_UNC_NO_RANGE ||
		    (u->range.kind == IL_UNC_RATIO && nominal <= 0) ||
		    (u->field == IL_PF_HZ && common && common->hz))
			continue;
		if (sp->k == IL_ENS_MAX_PARAMS)
			return -1;
		e = &sp->p[sp->k++];
		memset(e, 0, sizeof(*e));
		e->plat_unc = i;
		e->scn_param = -1;
		snprintf(e->name, sizeof(e->name), "%s:%s", plat->name,
			 il_plat_unc_name(plat, u, name, sizeof(name)));
		e->cls = u->cls;
		e->range = u->range;
		e->nominal = nominal;
		e->lo = il_unc_range_lo(&u->range, nominal);
		e->hi = il_unc_range_hi(&u->range, nominal);
		e->power = il_plat_field_is_power(u->field);
	}
	return 0;
}

/* The value in @args of the parameter @name of @scn's table; @unset when @name is NULL. */
static s64 scn_param_value(const struct il_scenario *scn, const struct il_scn_args *args,
			   const char *name, s64 unset)
{
	int i = name ? il_scn_param_index(scn, name) : -1;

	return i >= 0 ? args->v[i] : unset;
}

/*
 * Whether @p's mechanism is out of play in @args: switched off by its off_with parameter
 * being 0, or replaced by its replaced_by parameter being something else.
 */
static bool scn_param_off(const struct il_scenario *scn, const struct il_scn_param *p,
			  const struct il_scn_args *args)
{
	if (!p->unc)
		return false;
	return scn_param_value(scn, args, p->off_with, 1) == 0 ||
	       scn_param_value(scn, args, p->replaced_by, 0) != 0;
}

static int add_scn_params(const struct il_scenario *scn, const struct il_scn_args *args,
			  struct il_ens_space *sp, struct il_error *err)
{
	for (int i = 0; i < il_scn_nparams(scn); i++) {
		const struct il_scn_param *p = &scn->params[i];
		struct il_unc_range r;
		struct il_ens_param *e;
		double nominal = (double)args->v[i];

		if (il_scn_param_range(scn, p, &r, err))
			return -1;
		if (r.kind == IL_UNC_NO_RANGE || (r.kind == IL_UNC_RATIO && nominal <= 0) ||
		    scn_param_off(scn, p, args))
			continue;
		if (sp->k == IL_ENS_MAX_PARAMS)
			return il_error_set(err, scn->name, 0, "more than %d uncertain parameters",
					    IL_ENS_MAX_PARAMS);
		e = &sp->p[sp->k++];
		memset(e, 0, sizeof(*e));
		e->plat_unc = -1;
		e->scn_param = i;
		snprintf(e->name, sizeof(e->name), "%s.%s", scn->name, p->name);
		e->cls = p->unc->cls;
		e->range = r;
		e->nominal = nominal;
		e->lo = fmax(il_unc_range_lo(&r, nominal), (double)p->min);
		e->hi = fmin(il_unc_range_hi(&r, nominal), (double)p->max);
	}
	return 0;
}

int il_ens_space_of(const struct il_platform *plat, const struct il_scenario *scn,
		    const struct il_scn_args *args, const struct il_scn_common *common,
		    struct il_ens_space *sp, struct il_error *err)
{
	memset(sp, 0, sizeof(*sp));
	if (add_plat_params(plat, common, sp))
		return il_error_set(err, plat->name, 0, "more than %d uncertain parameters",
				    IL_ENS_MAX_PARAMS);
	if (add_scn_params(scn, args, sp, err))
		return -1;
	sp->power_assumed = false;
	for (int i = 0; i < plat->nunc; i++)
		if (il_plat_field_is_power(plat->unc[i].field) &&
		    plat->unc[i].cls == IL_UNC_ASSUMED)
			sp->power_assumed = true;
	sp->hash = hash_text(hash_text(0xcbf29ce484222325ULL, plat->name), scn->name);
	return 0;
}

int il_ens_nvar(const struct il_ens_space *sp, int ensemble)
{
	return ensemble > 0 && sp->k ? 1 + ensemble + 2 * sp->k : 1;
}

enum il_ens_kind il_ens_kind_of(const struct il_ens_space *sp, int ensemble, int var, int *param)
{
	*param = -1;
	if (var == 0)
		return IL_ENS_NOMINAL;
	if (var <= ensemble)
		return IL_ENS_LHS;
	*param = (var - ensemble - 1) / 2;
	(void)sp;
	return (var - ensemble - 1) % 2 ? IL_ENS_OAT_HI : IL_ENS_OAT_LO;
}

/*
 * The Latin hypercube: parameter j's N strata are visited in a random order (a shuffle
 * seeded by the (platform, scenario), the verdict's seed and j), at a random point of each.
 */
static double lhs_unit(const struct il_ens_space *sp, int ensemble, u64 seed, int j, int member)
{
	struct il_rng rng;
	int stratum = member, perm[IL_ENS_MAX_MEMBERS];

	il_rng_init(&rng, seed ^ sp->hash, 0x5eed0000ULL + (u64)j);
	for (int i = 0; i < ensemble; i++)
		perm[i] = i;
	for (int i = ensemble - 1; i > 0; i--) {
		int r = (int)il_rng_below(&rng, (u64)i + 1), t = perm[i];

		perm[i] = perm[r];
		perm[r] = t;
	}
	for (int i = 0; i <= member; i++) {
		double u = il_rng_unit(&rng);

		if (i == member)
			return (perm[stratum] + u) / ensemble;
	}
	return 0.5;
}

void il_ens_values(const struct il_ens_space *sp, int ensemble, u64 seed, int var, double *vals)
{
	int param;
	enum il_ens_kind kind = il_ens_kind_of(sp, ensemble, var, &param);

	for (int j = 0; j < sp->k; j++) {
		const struct il_ens_param *e = &sp->p[j];

		switch (kind) {
		case IL_ENS_LHS:
			vals[j] = il_unc_range_at(&e->range, e->nominal,
						  lhs_unit(sp, ensemble, seed, j, var - 1));
			vals[j] = fmin(fmax(vals[j], e->lo), e->hi);
			break;
		case IL_ENS_OAT_LO:
		case IL_ENS_OAT_HI:
			vals[j] = j != param ? e->nominal : kind == IL_ENS_OAT_LO ? e->lo : e->hi;
			break;
		default:
			vals[j] = e->nominal;
		}
	}
}

void il_ens_apply(const struct il_ens_space *sp, const double *vals, struct il_platform *plat,
		  struct il_scn_args *args)
{
	for (int j = 0; j < sp->k; j++) {
		const struct il_ens_param *e = &sp->p[j];

		if (e->plat_unc >= 0)
			il_platform_param_set(plat, &plat->unc[e->plat_unc], vals[j]);
		else
			args->v[e->scn_param] = (s64)llround(vals[j]);
	}
}

/* The uncertain numbers of @spec's platform and scenario, allocated; NULL with @err set. */
static struct il_ens_space *space_of_spec(const struct il_lab_spec *spec, struct il_error *err)
{
	struct il_ens_space *sp = malloc(sizeof(*sp));

	if (!sp) {
		il_error_set(err, "ensemble", 0, "%s", strerror(ENOMEM));
		return NULL;
	}
	if (il_ens_space_of(spec->plat, spec->scn, &spec->args, &spec->common, sp, err)) {
		free(sp);
		return NULL;
	}
	return sp;
}

int il_ens_declares(const struct il_lab_spec *spec, struct il_error *err)
{
	struct il_ens_space *sp = space_of_spec(spec, err);
	int ret = sp ? sp->k > 0 : -1;

	free(sp);
	return ret;
}

/* Whether member @a of @sp's hypercube simulates like values @vb: the same numbers but power. */
static bool same_simulation(const struct il_ens_space *sp, int ensemble, u64 seed, int a,
			    const double *vb)
{
	double va[IL_ENS_MAX_PARAMS];

	il_ens_values(sp, ensemble, seed, 1 + a, va);
	for (int j = 0; j < sp->k; j++)
		if (!sp->p[j].power && va[j] != vb[j])
			return false;
	return true;
}

int il_ens_row_spec(struct il_lab_spec *spec, const struct il_ens_rows *rows, int it,
		    struct il_platform *plat_buf, struct il_error *err)
{
	int e = rows->ensemble, member, again = 0, nominal;
	double vals[IL_ENS_MAX_PARAMS];
	struct il_ens_space *sp;

	spec->seed = rows->seed + (u64)it;
	if (e <= 0)
		return 0;
	sp = space_of_spec(spec, err);
	if (!sp)
		return -1;
	member = it % e;
	nominal = !sp->k;
	if (!nominal)
		il_ens_values(sp, e, rows->seed, 1 + member, vals);
	for (int m = 0; m < member; m++)
		again += nominal || same_simulation(sp, e, rows->seed, m, vals);
	spec->seed = rows->seed + (u64)(it / e) + (u64)rows->iter * (u64)again;
	if (!nominal) {
		*plat_buf = *spec->plat;
		il_ens_apply(sp, vals, plat_buf, &spec->args);
		spec->plat = plat_buf;
	}
	free(sp);
	return nominal;
}
