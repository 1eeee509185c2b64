// SPDX-License-Identifier: GPL-2.0-only
/*
 * robust.c - a cell's class across model variants (see verdict.h "robust calls"). Kept
 * apart from the grid so that tests/fidelity can classify cells of its own with the same
 * rule.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "verdict.h"
#include "util/array.h"

int il_verdict_direction(const double *base, const double *new_, int n, bool paired,
			 bool higher_better, double min_effect_pct, int *dir,
			 struct il_stat_diff *d)
{
	bool beyond;
	int sign;

	if (il_stat_diff(base, n, new_, n, paired ? IL_STAT_PAIRED : IL_STAT_WELCH, IL_STAT_LEVEL,
			 d))
		return -1;
	/* From a zero mean there is no percentage: any change is beyond any minimum. */
	beyond = isnan(d->rel) ? d->diff != 0.0 : fabs(d->rel) > min_effect_pct;
	sign = d->diff > 0 ? 1 : d->diff < 0 ? -1 : 0;
	*dir = beyond ? (higher_better ? sign : -sign) : 0;
	return 0;
}

enum il_verdict_class il_verdict_robust_class(const int *dir, int nvar, bool passes)
{
	bool good = false, bad = false, all_as_nominal = true;

	for (int v = 0; v < nvar; v++) {
		good |= dir[v] > 0;
		bad |= dir[v] < 0;
		all_as_nominal &= dir[v] == dir[0];
	}
	if (good && bad)
		return IL_VERDICT_SENSITIVE;
	if (!passes || !dir[0])
		return IL_VERDICT_SAME;
	if (!all_as_nominal)
		return IL_VERDICT_SENSITIVE;
	return dir[0] > 0 ? IL_VERDICT_BETTER : IL_VERDICT_WORSE;
}

/* The lower/upper end of @d's interval in %, its point where it has no interval. */
static double rel_end(const struct il_stat_diff *d, bool upper)
{
	double e = upper ? d->rel_hi : d->rel_lo;

	return isnan(e) ? d->rel : e;
}

int il_verdict_classify_cell(const struct il_robust_in *in, struct il_robust_out *out)
{
	if (in->nvar < 1 || in->n < 1 ||
	    in->nvar > (int)(ARRAY_SIZE(out->dir))) {
		errno = EINVAL;
		return -1;
	}
	for (int v = 0; v < in->nvar; v++) {
		struct il_stat_diff d;

		if (il_verdict_direction(in->base + (size_t)v * in->n, in->new_ + (size_t)v * in->n,
					 in->n, in->paired, in->higher_better, in->min_effect_pct,
					 &out->dir[v], &d))
			return -1;
		if (!v) {
			out->nominal = d;
			out->model_lo = out->model_hi = d.rel;
			out->lo = rel_end(&d, false);
			out->hi = rel_end(&d, true);
			continue;
		}
		out->model_lo = fmin(out->model_lo, d.rel);
		out->model_hi = fmax(out->model_hi, d.rel);
		out->lo = fmin(out->lo, rel_end(&d, false));
		out->hi = fmax(out->hi, rel_end(&d, true));
	}
	out->cls = il_verdict_robust_class(out->dir, in->nvar, in->p_adj <= in->alpha);
	return 0;
}

void il_verdict_flips(char *buf, size_t cap, const struct il_ens_space *sp, const int *ends,
		      int nominal)
{
	const size_t reserve = sizeof(" and 9999 more");
	size_t len = 0;
	int more = 0;

	if (!cap)
		return;
	buf[0] = '\0';
	for (int j = 0; j < sp->k; j++) {
		const char *name = sp->p[j].name;

		if (ends[2 * j] == nominal && ends[2 * j + 1] == nominal)
			continue;
		if (more || len + strlen(name) + 2 + reserve >= cap) {
			more++;
			continue;
		}
		len += (size_t)snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", name);
	}
	if (more)
		snprintf(buf + len, cap - len, " and %d more", more);
}
