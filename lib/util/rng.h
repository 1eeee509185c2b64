/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rng.h - pseudo-random numbers, one xoshiro256** generator per stream: the simulator's
 * and lib/stat's permutations (so it lives in lib/util, below both).
 *
 * DOC: random streams
 *
 * Every source of randomness in a simulation (each scenario, each device, the background
 * noise of each CPU) owns a generator of its own, seeded from (run seed, stream number)
 * through splitmix64. A change in how often one stream is drawn from therefore never shifts
 * the numbers another stream sees, and the same seed gives the same run, bit for bit.
 *
 * Distributions that need logarithms use IEEE double arithmetic and round to integer ns at
 * once; no floating-point value ever feeds back into simulated time without that rounding.
 */
#ifndef IDLELAB_UTIL_RNG_H
#define IDLELAB_UTIL_RNG_H

#include "../cpuidle.h"

struct il_rng {
	u64 s[4];
	double spare;     /* the second normal variate of the last Box-Muller pair */
	bool have_spare;
};

/** il_rng_init - seed @r for stream @stream of the run seeded with @seed */
void il_rng_init(struct il_rng *r, u64 seed, u64 stream);

static inline u64 il_rng_rotl(u64 x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* The draws that scenarios make per event are inline: a call costs as much as the draw. */

/** il_rng_next - the next 64 random bits (xoshiro256**) */
static inline u64 il_rng_next(struct il_rng *r)
{
	u64 *s = r->s;
	u64 result = il_rng_rotl(s[1] * 5, 7) * 9;
	u64 t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = il_rng_rotl(s[3], 45);
	return result;
}

/** il_rng_below - a uniform integer in [0, @n), 0 when @n is 0 (Lemire's multiply-shift) */
static inline u64 il_rng_below(struct il_rng *r, u64 n)
{
	if (!n)
		return 0;
	return (u64)(((unsigned __int128)il_rng_next(r) * n) >> 64);
}

/** il_rng_range - a uniform integer in [@lo, @hi]; @lo when @hi <= @lo */
s64 il_rng_range(struct il_rng *r, s64 lo, s64 hi);

/** il_rng_unit - a uniform double in [0, 1) with 53 random bits */
double il_rng_unit(struct il_rng *r);

/** il_rng_exp_ns - an exponentially distributed duration with mean @mean_ns, rounded */
u64 il_rng_exp_ns(struct il_rng *r, u64 mean_ns);

/**
 * il_rng_lognormal_ns - a log-normal duration with median @median_ns and log-space standard
 * deviation @sigma_milli / 1000; @sigma_milli 0 gives @median_ns exactly
 */
u64 il_rng_lognormal_ns(struct il_rng *r, u64 median_ns, unsigned int sigma_milli);

/*
 * A log-normal distribution of durations as a table of IL_LOGN_STEPS equally likely values
 * (the quantiles at (i + 0.5) / IL_LOGN_STEPS, times the median, rounded to ns): one table
 * lookup per draw instead of a log, an exp, a sincos and the rounding. The tails stop at
 * about 3.7 sigma.
 */
#define IL_LOGN_STEPS 4096

struct il_lognormal {
	u64 ns[IL_LOGN_STEPS];
};

/** il_lognormal_init - the table for log-space sigma @sigma_milli / 1000 and median @median_ns */
void il_lognormal_init(struct il_lognormal *t, unsigned int sigma_milli, u64 median_ns);

/** il_lognormal_draw - a duration from table @t: the top 12 bits of one draw pick the step */
static inline u64 il_lognormal_draw(struct il_rng *r, const struct il_lognormal *t)
{
	_Static_assert(IL_LOGN_STEPS == 1 << 12, "il_lognormal_draw() takes the top 12 bits");
	return t->ns[il_rng_next(r) >> (64 - 12)];
}

/** il_rng_chance - true with probability @permille / 1000 */
static inline bool il_rng_chance(struct il_rng *r, unsigned int permille)
{
	return il_rng_below(r, 1000) < permille;
}

#endif /* IDLELAB_UTIL_RNG_H */
