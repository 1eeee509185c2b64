// SPDX-License-Identifier: GPL-2.0-only
/*
 * robust_call.c - the scoreboard's robust call of one comparison and how it scores (see
 * robust_call.h). The rule is the verdict's (lib/verdict/robust.c), not a copy of it.
 */
#include <errno.h>
#include <string.h>

#include "robust_call.h"
#include "verdict/verdict.h"

int fid_robust_call(const double *a, const double *b, int nvar, int n, int nominal_call,
		    double min_effect_pct, enum fid_robust *kind, int *dir)
{
	/* The nominal call passed the family-wise test: the ensemble only re-judges its sign. */
	struct il_robust_in in = { .nvar = nvar, .n = n, .base = a, .new_ = b, .paired = false,
				   .higher_better = true, .min_effect_pct = min_effect_pct,
				   .alpha = IL_VERDICT_DEFAULT_ALPHA, .p_adj = 0 };
	struct il_robust_out out;

	*kind = FID_ROBUST_NONE;
	if (!nominal_call)
		return 0;
	if (il_verdict_classify_cell(&in, &out))
		return -2;
	if (dir)
		memcpy(dir, out.dir, (size_t)nvar * sizeof(*dir));
	switch (out.cls) {
	case IL_VERDICT_BETTER:
	case IL_VERDICT_WORSE:
		/* variant 0 is the nominal model: its direction is the nominal call's */
		if ((out.cls == IL_VERDICT_BETTER ? 1 : -1) != nominal_call) {
			errno = EINVAL;
			return -2;
		}
		*kind = FID_ROBUST_CALL;
		return nominal_call;
	case IL_VERDICT_SENSITIVE:
		*kind = FID_ROBUST_SENSITIVE;
		return 0;
	default:
		errno = EINVAL;
		return -2;
	}
}

enum fid_outcome fid_outcome_of(int seeds, int call, enum fid_robust kind)
{
	bool sensitive = kind == FID_ROBUST_SENSITIVE;

	switch (seeds) {
	case FID_SEEDS_HIGHER:
	case FID_SEEDS_LOWER:
		if (call)
			return call == seeds ? FID_OUT_RIGHT : FID_OUT_REVERSED;
		return sensitive ? FID_OUT_SENSITIVE : FID_OUT_MISSED;
	case FID_SEEDS_SAME:
		if (call)
			return FID_OUT_FALSE_CALL;
		return sensitive ? FID_OUT_SAME_SENSITIVE : FID_OUT_SAME_NONE;
	default:
		return FID_OUT_UNTESTED;
	}
}
