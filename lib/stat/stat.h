/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stat.h - summary statistics over iterations, differences against a baseline, and the
 * multiple-comparison test behind `idlelab verdict`.
 *
 * DOC: statistics
 *
 * A lab run is deterministic for one seed and varies across seeds, so every figure that
 * several seeds (or several live iterations) produce is reported as a distribution:
 *
 *  1. il_stat_summarize(): n, mean, sample standard deviation, min, max and the confidence
 *     interval of the mean from Student's t (quantiles from R's standalone mathematics
 *     library, libRmath).
 *  2. il_stat_diff(): the difference of a governor's mean against the baseline's, with its
 *     confidence interval and a two-sided t-test p-value: paired by seed when both sides ran
 *     the same seeds (IL_STAT_PAIRED), Welch's unequal-variance test otherwise. The relative
 *     form divides by the baseline's mean, taken as exact (the interval does not widen for
 *     the baseline's own uncertainty; with n >= 5 and a spread of a few % the difference is
 *     small, and the verdict does not rest on it).
 *  3. il_stat_maxt(): p-values for a whole family of cells (platform x scenario x metric),
 *     adjusted for the number of cells by the Westfall-Young step-down max-T permutation
 *     procedure. It is Holm's step-down procedure with the joint permutation distribution of
 *     the test statistics in place of Bonferroni's inequality, so it controls the family-
 *     wise error rate strongly, needs no normality (the lab's ping-pong is bi-stable and its
 *     latencies heavy-tailed) and keeps the correlation between the metrics of one run.
 *     The statistic is Welch's |t|; the permutations relabel which runs belong to which
 *     governor, the same relabelling in every cell. With n runs a side there are
 *     C(2n, n) relabellings (252 for n = 5), so the smallest attainable p-value is 2/252:
 *     plain Holm on exact per-cell permutation p-values could never call a cell at n = 5
 *     once the family has more than six cells; the joint max-T can.
 *     When both sides ran the same seeds the relabelling treats paired runs as exchangeable;
 *     positively correlated pairs make the test conservative, never liberal.
 *     With @paired set the statistic is the paired t of the n differences b[i] - a[i] and the
 *     relabellings swap a and b within pairs: the 2^n sign flips of the differences, the same
 *     flips in every cell. It removes what a seed's two runs share (common random numbers:
 *     the same background on both sides), but its smallest p-value is 2/2^n: it needs n >= 6
 *     to call anything at 0.05, and about 10 for a family.
 *  4. il_stat_holm(): Holm's adjustment of a list of p-values, for callers that have
 *     independent per-cell p-values.
 *
 * No function prints; every one returns 0 or -1 with errno set.
 */
#ifndef IDLELAB_STAT_H
#define IDLELAB_STAT_H

#include <stdbool.h>

#include "../cpuidle.h"

/* The confidence level used wherever a caller does not choose one. */
#define IL_STAT_LEVEL 0.95

struct il_stat_summary {
	int n;
	double mean;
	double sd;     /* sample standard deviation (n - 1); 0 when n < 2 */
	double min, max;
	double ci_lo, ci_hi; /* confidence interval of the mean; NAN when n < 2 */
};

/**
 * il_stat_summarize - the summary of the @n values @x
 * @level: confidence level of the interval, in (0, 1)
 * Return: 0, or -1 with errno EINVAL (n < 1, level out of range)
 */
int il_stat_summarize(const double *x, int n, double level, struct il_stat_summary *s);

/** il_stat_ci_rel - half the width of @s's interval in % of its mean; NAN when undefined */
double il_stat_ci_rel(const struct il_stat_summary *s);

enum il_stat_design {
	IL_STAT_WELCH,  /* independent samples, unequal variances */
	IL_STAT_PAIRED, /* a[i] and b[i] share a seed */
};

struct il_stat_diff {
	enum il_stat_design design;
	double diff;         /* mean(b) - mean(a) */
	double ci_lo, ci_hi; /* interval of diff; NAN when a side has fewer than 2 values */
	double rel, rel_lo, rel_hi; /* the same in % of mean(a); NAN when mean(a) is 0 */
	double df;           /* degrees of freedom of the t distribution used */
	double t;            /* the t statistic; +-INFINITY for a constant non-zero difference */
	double p;            /* two-sided p-value; 1 for identical samples */
};

/**
 * il_stat_diff - how far @b's mean is from the baseline @a's
 * @design: IL_STAT_PAIRED needs @na == @nb
 * Return: 0, or -1 with errno EINVAL
 */
int il_stat_diff(const double *a, int na, const double *b, int nb, enum il_stat_design design,
		 double level, struct il_stat_diff *d);

/* One cell of a family: the baseline's @na values and the other governor's @nb values. */
struct il_stat_cell {
	const double *a;
	const double *b;
};

struct il_stat_perm {
	int na, nb;       /* runs per side, the same in every cell */
	u64 max_perm;     /* enumerate every relabelling when there are at most this many */
	u64 draws;        /* else: this many random relabellings besides the observed one */
	u64 seed;         /* of the random relabellings */
	u64 used;         /* out: relabellings counted, the observed one included */
	bool exact;       /* out: every relabelling was enumerated */
	bool paired;      /* a[i] and b[i] share a seed (na == nb): paired t, sign flips */
};

/**
 * il_stat_maxt - Westfall-Young step-down max-T adjusted p-values of @m cells
 * @t_obs: out, per cell: the observed Welch t of b against a (sign: b above a is positive)
 * @p_adj: out, per cell: the adjusted two-sided p-value
 * Return: 0, or -1 with errno EINVAL / ENOMEM
 */
int il_stat_maxt(const struct il_stat_cell *cells, int m, struct il_stat_perm *perm, double *t_obs,
		 double *p_adj);

/** il_stat_holm - Holm's step-down adjustment of the @m p-values @p into @adj */
int il_stat_holm(const double *p, int m, double *adj);

/** il_stat_t_quantile - the @prob quantile of Student's t with @df degrees of freedom */
double il_stat_t_quantile(double prob, double df);

/** il_stat_t_sf2 - the two-sided tail probability P(|T| >= |t|) for @df degrees of freedom */
double il_stat_t_sf2(double t, double df);

#endif /* IDLELAB_STAT_H */
