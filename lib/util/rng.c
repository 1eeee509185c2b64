// SPDX-License-Identifier: GPL-2.0-only
/*
 * rng.c - splitmix64 seeding and the xoshiro256** generator (Blackman and Vigna's public
 * domain algorithms, written here from their published description), plus the few
 * distributions the scenarios draw from.
 */
#include <math.h>

#include "rng.h"

static u64 splitmix64(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void il_rng_init(struct il_rng *r, u64 seed, u64 stream)
{
	/* Mix the stream number in with an odd multiplier so streams 0, 1, 2 ... differ widely. */
	u64 state = seed ^ (stream * 0xd1b54a32d192ed03ULL + 0x8bb84b93962eacc9ULL);

	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&state);
	r->have_spare = false;
	r->spare = 0.0;
}

s64 il_rng_range(struct il_rng *r, s64 lo, s64 hi)
{
	if (hi <= lo)
		return lo;
	return lo + (s64)il_rng_below(r, (u64)(hi - lo) + 1);
}

double il_rng_unit(struct il_rng *r)
{
	return (double)(il_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

u64 il_rng_exp_ns(struct il_rng *r, u64 mean_ns)
{
	/* 1 - unit is in (0, 1], so the logarithm is finite. */
	double x = -log(1.0 - il_rng_unit(r)) * (double)mean_ns;

	return x >= 9.0e18 ? (u64)9.0e18 : (u64)llround(x);
}

/* A standard normal variate (Box-Muller: each pair of uniforms gives two). */
static double std_normal(struct il_rng *r)
{
	double u1, u2, radius;

	if (r->have_spare) {
		r->have_spare = false;
		return r->spare;
	}
	u1 = 1.0 - il_rng_unit(r);
	u2 = il_rng_unit(r);
	radius = sqrt(-2.0 * log(u1));
	r->spare = radius * sin(6.283185307179586 * u2);
	r->have_spare = true;
	return radius * cos(6.283185307179586 * u2);
}

u64 il_rng_lognormal_ns(struct il_rng *r, u64 median_ns, unsigned int sigma_milli)
{
	double x;

	if (!sigma_milli)
		return median_ns;
	x = (double)median_ns * exp(std_normal(r) * (double)sigma_milli / 1000.0);
	return x >= 9.0e18 ? (u64)9.0e18 : (u64)llround(x);
}

/*
 * The standard normal quantile function, by Acklam's rational approximation (relative
 * error below 1.2e-9): a central piece for 0.02425 <= p <= 0.97575 and a tail piece.
 */
static double normal_quantile(double p)
{
	static const double a[] = { -3.969683028665376e+01, 2.209460984245205e+02,
				    -2.759285104469687e+02, 1.383577518672690e+02,
				    -3.066479806614716e+01, 2.506628277459239e+00 };
	static const double b[] = { -5.447609879822406e+01, 1.615858368580409e+02,
				    -1.556989798598866e+02, 6.680131188771972e+01,
				    -1.328068155288572e+01 };
	static const double c[] = { -7.784894002430293e-03, -3.223964580411365e-01,
				    -2.400758277161838e+00, -2.549732539343734e+00,
				    4.374664141464968e+00,  2.938163982698783e+00 };
	static const double d[] = { 7.784695709041462e-03, 3.224671290700398e-01,
				    2.445134137142996e+00, 3.754408661907416e+00 };
	double q, r;

	if (p < 0.02425) {
		q = sqrt(-2 * log(p));
		return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
		       ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
	}
	if (p > 1 - 0.02425)
		return -normal_quantile(1 - p);
	q = p - 0.5;
	r = q * q;
	return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
	       (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

/*
 * The duration of step @i: the median times the quantile's factor, rounded to ns as
 * il_rng_lognormal_ns() does (the factor as a double, then one multiplication).
 */
static u64 lognormal_step_ns(int i, unsigned int sigma_milli, u64 median_ns)
{
	double factor = exp(normal_quantile((i + 0.5) / IL_LOGN_STEPS) * sigma_milli / 1000.0);
	double x = (double)median_ns * factor;

	return x >= 9.0e18 ? (u64)9.0e18 : (u64)(x + 0.5);
}

void il_lognormal_init(struct il_lognormal *t, unsigned int sigma_milli, u64 median_ns)
{
	for (int i = 0; i < IL_LOGN_STEPS; i++)
		t->ns[i] = lognormal_step_ns(i, sigma_milli, median_ns);
}
