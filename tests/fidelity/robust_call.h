/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * robust_call.h - the scoreboard's robust call of one comparison and its outcome against the
 * seeds' class (tests/fidelity/fidelity.c; tested by tests/unit/test_fidelity.c).
 *
 * The lab's nominal call of a comparison is the verdict's max-T call under the nominal model.
 * Its robust call is the verdict's rule over the model variants the comparison ran under
 * (lib/verdict/robust.c, il_verdict_classify_cell()): `better`/`worse` only when the nominal
 * call holds AND every variant moves it beyond the minimum effect the same way; a cell whose
 * direction depends on the variant is `sensitive`, which is not a call.
 */
#ifndef IDLELAB_FIDELITY_ROBUST_CALL_H
#define IDLELAB_FIDELITY_ROBUST_CALL_H

#include <stdbool.h>

/* The seeds' class of b against a: +1 higher, -1 lower, 0 no difference, 2 untested. */
#define FID_SEEDS_HIGHER 1
#define FID_SEEDS_LOWER (-1)
#define FID_SEEDS_SAME 0
#define FID_SEEDS_UNTESTED 2

/* What the lab's robust call of a comparison is. */
enum fid_robust {
	FID_ROBUST_NONE,       /* no nominal call */
	FID_ROBUST_CALL,       /* better/worse in every variant */
	FID_ROBUST_SENSITIVE,  /* called nominally, its direction depends on the variant */
};

/* How the robust call scores against the seeds' class. */
enum fid_outcome {
	FID_OUT_RIGHT,          /* the seeds differ: a robust call with their sign */
	FID_OUT_REVERSED,       /* the seeds differ: a robust call against their sign */
	FID_OUT_SENSITIVE,      /* the seeds differ: the nominal call was sensitive */
	FID_OUT_MISSED,         /* the seeds differ: no nominal call */
	FID_OUT_FALSE_CALL,     /* the seeds show none: a robust call */
	FID_OUT_SAME_SENSITIVE, /* the seeds show none: the nominal call was sensitive */
	FID_OUT_SAME_NONE,      /* the seeds show none: no call */
	FID_OUT_UNTESTED,       /* the seeds cannot tell */
};

/*
 * fid_robust_call - the robust call of a comparison (b against a) from its lab values:
 * @a and @b hold @nvar variants of @n seeds each (variant 0 the nominal model, variant v's
 * seed i at [v * n + i]); @nominal_call: the nominal max-T call (+1, -1, 0; with p_adj at
 * most alpha and beyond min_effect_pct), the only calls the ensemble re-judges.
 * @dir, when not NULL and the comparison is called, receives each variant's direction (+1,
 * -1, 0: within @min_effect_pct), @nvar of them.
 * Return: the robust call, +1 or -1, or 0 (none: *@kind says whether sensitive); -2 when
 * the values cannot be classified (errno EINVAL: a bad count)
 */
int fid_robust_call(const double *a, const double *b, int nvar, int n, int nominal_call,
		    double min_effect_pct, enum fid_robust *kind, int *dir);

/* fid_outcome_of - how a comparison of seeds' class @seeds scores with robust call @call of
 * kind @kind */
enum fid_outcome fid_outcome_of(int seeds, int call, enum fid_robust kind);

#endif /* IDLELAB_FIDELITY_ROBUST_CALL_H */
