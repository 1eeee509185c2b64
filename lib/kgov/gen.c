// SPDX-License-Identifier: GPL-2.0-only
/*
 * gen.c - random inputs that reach the corners of the governors.
 *
 * DOC: the generator
 *
 * A differential check is only as good as its inputs. Uniform random numbers almost never
 * hit "sleep length exactly equal to a target residency", a negative delta_next or a state
 * table with two equal residencies, which is where versions differ. So every value is drawn
 * from a mix of "kinds":
 *
 *  1. State tables (kgov_gen_driver): 1..10 states (at least 2 where the idle loop never
 *     calls a governor for fewer, 6.19.9 and 7.0+), with or without a polling state 0 (0/0,
 *     like cpuidle_poll_state_init(); never the only state, as no driver does that),
 *     increasing, equal or decreasing residencies, exit latencies above the residency,
 *     values given in µs or only in ns (not a multiple of 1000), zero and very large
 *     values, and on 4.x the per-driver "disabled" flag. HZ is 100, 250, 300 or 1000.
 *  2. Device disables (kgov_gen_disables): none, a few, state 0, or all of them.
 *  3. Sleep lengths (kgov_gen_step): 0, negative, tiny, typical (log-uniform 1 µs .. 1 s),
 *     exactly at or one ns around a target residency, TICK_NSEC, 2*TICK_NSEC or the 15 µs
 *     threshold, near or at KTIME_MAX; delta_next shorter, equal, longer or negative; the tick
 *     stopped or not (mostly following the previous stop_tick, kgov_check); got_tick; PM QoS
 *     0, small, around an exit latency, or unconstrained; iowait and load for 4.x/6.1 menu.
 *  4. Outcomes (kgov_gen_outcome): rejected entries, residency 0, below, at or one ns around
 *     each target residency and exit latency boundary (2 * exit latency), around the sleep
 *     length, far above every target; polling states that end on their time limit.
 *  5. Workloads (kgov_gen_pattern): half of the runs are periodic, a period with 0..40 %
 *     jitter and up to two outlier values that repeat exactly, above or below the period,
 *     so that get_typical_interval() sees the sample sets it was written for (its
 *     "6 samples left", "two equal maxima" and two-sided outlier branches).
 *  6. Tie runs (generator 2): random mixes rarely put a decaying per-CPU sum exactly on a
 *     threshold (teo-7.1's 3 * total_tick > 2 * total is equal about twice in 5 M random
 *     decisions). In half of the runs the share of tick wakeups (50..85 %) and of early
 *     wakeups among the others (30..90 %) drift by a point per step, timers lie beyond the
 *     tick or inside a shallower bin, and the other wakeups come just after the timer: the
 *     sums sweep through the ratios governors test (1/2, 5/8, 2/3) and equal them about 25
 *     times per 10^6 decisions, where a `>` and a `>=` decide differently.
 *  7. Banded tie runs (generator 3, half of the tie runs): teo counts a long sleep that the
 *     tick woke as a hit, so with 50..85 % tick wakeups its intercept share never reached
 *     5/8 where the timer lies beyond the tick, and a free walk drifts away from a ratio.
 *     Here the early share stays within 2..4 points of 1/2, 5/8 or 2/3, tick wakeups are
 *     0..20 %, the tick is stopped in one step of ten and half of the timers lie beyond it:
 *     teo-6.13's `tick_intercept_sum > total / 2 + total / 8` is then an equality 21..34
 *     times per 10^6 decisions (10..12 before), 3..9 of them where it decides (0..1).
 *  8. Tick-length residencies (generator 4): in a quarter of the random tables one state
 *     (not a polling one) needs exactly TICK_NSEC, or one ns less or more, so that
 *     teo_state_ok(), the 6.19/7.0 stopped-tick search floor and the tick rules compare a
 *     residency equal to the tick (generator 3 caught teo-7.0's floor `<` -> `<=` on 1 seed of
 *     20).
 *
 * All randomness comes from one seeded splitmix64 stream, so a seed reproduces a run.
 */
#include <string.h>

#include "kgov.h"
#include "../core/core.h"

#define US 1000LL
#define MS 1000000LL

void kgov_rng_seed(struct kgov_rng *r, u64 seed)
{
	r->s = seed;
}

u64 kgov_rng_next(struct kgov_rng *r)
{
	u64 z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

s64 kgov_rng_range(struct kgov_rng *r, s64 lo, s64 hi)
{
	u64 span = (u64)hi - (u64)lo + 1;

	if (span == 0) /* the whole 64-bit range */
		return (s64)kgov_rng_next(r);
	return (s64)((u64)lo + kgov_rng_next(r) % span);
}

bool kgov_rng_chance(struct kgov_rng *r, unsigned int num, unsigned int den)
{
	return kgov_rng_next(r) % den < num;
}

/* Log-uniform in [lo, hi] (lo >= 1): as many values per decade. */
static s64 log_uniform(struct kgov_rng *r, s64 lo, s64 hi)
{
	s64 v = lo;
	int decades = 0;

	for (s64 t = lo; t <= hi / 10; t *= 10)
		decades++;
	for (int d = (int)kgov_rng_range(r, 0, decades); d > 0; d--)
		v *= 10;
	v = kgov_rng_range(r, v, v > hi / 10 ? hi : v * 10);
	return v;
}

void kgov_frame_of(const struct il_preset *preset, struct kgov_frame *f)
{
	const struct il_core_rules *core = preset->core;

	memset(f, 0, sizeof(*f));
	f->min_states = core->idle_loop >= IL_LOOP_6_19_9 ? 2 : 1;
	f->units_us = preset->kver < IL_KV(5, 0, 0);
	f->sleep_4_16 = core->idle_loop == IL_LOOP_4_16;
	f->generator = KGOV_GEN_VERSION;
}

/* ---- state tables ------------------------------------------------------------------------ */

enum table_kind {
	TABLE_INCREASING, /* the usual shape: deeper states cost more and need longer */
	TABLE_EQUAL,      /* runs of equal residencies and latencies */
	TABLE_RANDOM,     /* any order: decreasing residencies, latency above residency */
	TABLE_EXTREME,    /* zeros and very large values */
	TABLE_KINDS,
};

/* One state's exit latency or target residency, in ns, for @kind after @prev. */
static s64 gen_time(struct kgov_rng *r, enum table_kind kind, s64 prev, s64 step_max)
{
	switch (kind) {
	case TABLE_INCREASING:
		return prev + log_uniform(r, 1, step_max) * US;
	case TABLE_EQUAL:
		return kgov_rng_chance(r, 1, 2) ? prev : prev + log_uniform(r, 1, step_max) * US;
	case TABLE_RANDOM:
		return log_uniform(r, 1, step_max * 4) * US;
	case TABLE_EXTREME:
	default:
		switch (kgov_rng_range(r, 0, 4)) {
		case 0:
			return 0;
		case 1:
			return kgov_rng_range(r, 1, 999); /* below 1 µs: the µs field reads 0 */
		case 2:
			return (s64)kgov_rng_range(r, 1, 4294) * 1000 * MS; /* up to UINT_MAX µs */
		case 3:
			return prev;
		default:
			return log_uniform(r, 1, 100000) * US + kgov_rng_range(r, 0, 999);
		}
	}
}

/* Store @ns in a state's µs field (as drivers usually give them) or only in the ns field. */
static void set_time(struct kgov_rng *r, s64 ns, unsigned int *us_field, s64 *ns_field)
{
	if (ns % US == 0 && ns / US <= 0xffffffffLL && kgov_rng_chance(r, 3, 4)) {
		*us_field = (unsigned int)(ns / US);
		*ns_field = 0;
	} else {
		*us_field = 0;
		*ns_field = ns;
	}
}

/*
 * Generator 4 (DOC item 8): one non-polling state of a quarter of the tables needs TICK_NSEC
 * of @hz exactly, or one ns less or more. Given in ns, as il_driver_init() then derives µs.
 */
static void gen_tick_residency(struct kgov_rng *r, struct il_driver *drv, unsigned int hz)
{
	s64 tick = (s64)((NSEC_PER_SEC + hz / 2) / hz);
	int first = drv->states[0].flags & CPUIDLE_FLAG_POLLING ? 1 : 0, i;
	struct il_state *s;

	if (drv->state_count <= first || !kgov_rng_chance(r, 1, 4))
		return;
	i = (int)kgov_rng_range(r, first, drv->state_count - 1);
	s = &drv->states[i];
	s->target_residency_ns = tick + (kgov_rng_chance(r, 1, 2) ? 0 : kgov_rng_range(r, -1, 1));
	s->target_residency = 0;
}

void kgov_gen_driver(struct kgov_rng *r, const struct kgov_frame *f, struct il_driver *drv,
		     unsigned int *hz)
{
	static const unsigned int hzs[] = { 100, 250, 300, 1000 };
	enum table_kind kind = (enum table_kind)kgov_rng_range(r, 0, TABLE_KINDS - 1);
	bool poll0;
	s64 lat = 0, res = 0;
	int n;

	memset(drv, 0, sizeof(*drv));
	snprintf(drv->name, sizeof(drv->name), "kgov-random");
	/* mostly 2..6 states like real tables, sometimes 1 or up to CPUIDLE_STATE_MAX */
	n = kgov_rng_chance(r, 3, 4) ? (int)kgov_rng_range(r, 2, 6) :
				       (int)kgov_rng_range(r, 1, CPUIDLE_STATE_MAX);
	if (n < f->min_states)
		n = f->min_states;
	drv->state_count = n;
	/* drivers register a polling state only in front of real ones (poll + halt at least) */
	poll0 = n > 1 && kgov_rng_chance(r, 1, 2);
	for (int i = 0; i < n; i++) {
		struct il_state *s = &drv->states[i];

		snprintf(s->name, sizeof(s->name), "S%d", i);
		if (i == 0 && poll0) {
			snprintf(s->name, sizeof(s->name), "POLL");
			s->flags = CPUIDLE_FLAG_POLLING;
			continue;
		}
		if (i == 0 && kgov_rng_chance(r, 1, 2)) {
			/* the ARM WFI state: 1 µs / 1 µs, not polling */
			s->exit_latency = 1;
			s->target_residency = 1;
			continue;
		}
		lat = gen_time(r, kind, lat, 300);
		res = gen_time(r, kind, res, 2000);
		if (kind == TABLE_INCREASING && res < lat)
			res = lat;
		set_time(r, lat, &s->exit_latency, &s->exit_latency_ns);
		set_time(r, res, &s->target_residency, &s->target_residency_ns);
		if (kgov_rng_chance(r, 1, 8))
			s->flags |= CPUIDLE_FLAG_TIMER_STOP;
		if (f->units_us && kgov_rng_chance(r, 1, 12))
			s->disabled = true;
	}
	*hz = hzs[kgov_rng_range(r, 0, 3)];
	if (f->generator >= 4)
		gen_tick_residency(r, drv, *hz);
	il_driver_init(drv);
}

void kgov_gen_disables(struct kgov_rng *r, const struct il_driver *drv,
		       unsigned long long disable[CPUIDLE_STATE_MAX])
{
	memset(disable, 0, sizeof(disable[0]) * CPUIDLE_STATE_MAX);
	switch (kgov_rng_range(r, 0, 9)) {
	case 0: /* a few states */
	case 1:
		for (int i = 0; i < drv->state_count; i++)
			if (kgov_rng_chance(r, 1, 3))
				disable[i] = CPUIDLE_STATE_DISABLED_BY_USER;
		break;
	case 2: /* only state 0 */
		disable[0] = CPUIDLE_STATE_DISABLED_BY_USER;
		break;
	case 3: /* all but one, rarely all */
		for (int i = 0; i < drv->state_count; i++)
			disable[i] = CPUIDLE_STATE_DISABLED_BY_USER;
		if (kgov_rng_chance(r, 3, 4))
			disable[kgov_rng_range(r, 0, drv->state_count - 1)] = 0;
		break;
	default: /* none: the common case */
		break;
	}
}

/* ---- per-step inputs ---------------------------------------------------------------------- */

/* @a + @b (b >= 0), saturated at KTIME_MAX: the generator itself never overflows. */
static s64 add_sat(s64 a, s64 b)
{
	return a > KTIME_MAX - b ? KTIME_MAX : a + b;
}

/* A time that sits on a boundary some governor tests: a residency, a latency, the tick. */
static s64 boundary_time(struct kgov_rng *r, const struct il_driver *drv, const struct il_env *env)
{
	s64 base, jitter = kgov_rng_range(r, -1, 1);
	int i = (int)kgov_rng_range(r, 0, drv->state_count - 1);

	switch (kgov_rng_range(r, 0, 6)) {
	case 0:
	case 1:
		base = drv->states[i].target_residency_ns;
		break;
	case 2:
		base = drv->states[i].exit_latency_ns;
		break;
	case 3:
		base = (s64)env->tick_nsec;
		break;
	case 4:
		base = 2 * (s64)env->tick_nsec; /* 7.1 SAFE_TIMER_RANGE_NS */
		break;
	case 5:
		base = 15 * US; /* RESIDENCY_THRESHOLD_NS */
		break;
	default:
		base = (s64)env->tick_nsec / 2;
		break;
	}
	return base + jitter;
}

static s64 gen_sleep_length(struct kgov_rng *r, const struct il_driver *drv,
			    const struct il_env *env)
{
	switch (kgov_rng_range(r, 0, 19)) {
	case 0:
		return 0;
	case 1:
		return -kgov_rng_range(r, 1, 2 * MS);
	case 2:
		return kgov_rng_range(r, 1, 2000);
	case 3:
		return KTIME_MAX - kgov_rng_range(r, 0, 1) * kgov_rng_range(r, 0, NSEC_PER_SEC);
	case 4:
		return log_uniform(r, 1, 4000000) * MS; /* up to ~1 hour */
	case 5:
	case 6:
	case 7:
	case 8:
		return boundary_time(r, drv, env);
	default:
		return log_uniform(r, 1, NSEC_PER_SEC / US) * US + kgov_rng_range(r, 0, 999);
	}
}

static s32 gen_qos(struct kgov_rng *r, const struct il_driver *drv, s32 unconstrained)
{
	int i = (int)kgov_rng_range(r, 0, drv->state_count - 1);
	s64 el_us = drv->states[i].exit_latency_ns / US;

	switch (kgov_rng_range(r, 0, 11)) {
	case 0:
		return 0;
	case 1:
		return (s32)kgov_rng_range(r, 1, 20);
	case 2:
	case 3:
		el_us += kgov_rng_range(r, -1, 1);
		return el_us < 0 ? 0 : el_us > S32_MAX ? S32_MAX : (s32)el_us;
	case 4:
		return (s32)kgov_rng_range(r, 1, 100000);
	default:
		return unconstrained;
	}
}

/* A residency of a periodic workload: the period with jitter, or one of the outliers. */
static s64 pattern_residency(struct kgov_rng *r, const struct kgov_pattern *pat)
{
	if (kgov_rng_chance(r, pat->outlier_pct, 100))
		return pat->outlier_ns[kgov_rng_range(r, 0, 1)];
	return pat->base_ns + kgov_rng_range(r, -pat->jitter_ns, pat->jitter_ns);
}

/* Shares near the ratios governors compare their sums with: 1/2, 5/8, 2/3 (and 1 - those). */
static void gen_tie_run(struct kgov_rng *r, struct kgov_pattern *pat)
{
	static const unsigned int tick_pct[] = { 50, 60, 63, 67, 70, 75 };
	static const unsigned int early_pct[] = { 50, 58, 63, 67, 70 };

	pat->tie_run = kgov_rng_chance(r, 1, 2);
	if (!pat->tie_run)
		return;
	pat->got_tick_pct = tick_pct[kgov_rng_range(r, 0, 5)];
	pat->early_pct = early_pct[kgov_rng_range(r, 0, 4)];
	pat->early_lo = 30;
	pat->early_hi = 90;
	if (pat->generator >= 3 && kgov_rng_chance(r, 1, 2)) {
		static const unsigned int ratio_pct[] = { 50, 62, 63, 67 };
		unsigned int band = (unsigned int)kgov_rng_range(r, 2, 4);

		pat->early_pct = ratio_pct[kgov_rng_range(r, 0, 3)];
		pat->early_lo = pat->early_pct - band;
		pat->early_hi = pat->early_pct + band;
		pat->banded = true;
		/*
		 * few tick wakeups: teo counts a tick-woken long sleep as a hit,
		 * not an intercept
		 */
		pat->got_tick_pct = (unsigned int)kgov_rng_range(r, 0, 20);
	}
}

void kgov_gen_pattern(struct kgov_rng *r, const struct kgov_frame *f, struct kgov_pattern *pat)
{
	static const int jitter_pct[] = { 0, 1, 5, 15, 40 };

	memset(pat, 0, sizeof(*pat));
	pat->generator = f->generator;
	if (f->generator >= 2)
		gen_tie_run(r, pat);
	pat->periodic = kgov_rng_chance(r, 1, 2);
	if (!pat->periodic)
		return;
	pat->base_ns = log_uniform(r, 5, 50000) * US + kgov_rng_range(r, 0, 999);
	pat->jitter_ns = pat->base_ns * jitter_pct[kgov_rng_range(r, 0, 4)] / 100;
	for (int i = 0; i < 2; i++) {
		if (kgov_rng_chance(r, 2, 3)) /* above the period: an occasional long idle */
			pat->outlier_ns[i] = pat->base_ns * kgov_rng_range(r, 2, 50);
		else /* below: an interrupt that came early */
			pat->outlier_ns[i] = pat->base_ns / kgov_rng_range(r, 2, 50);
	}
	pat->outlier_pct = (unsigned int)kgov_rng_range(r, 0, 35);
}

/*
 * Tie runs: a share drifts by at most one point per step, so that the sums it feeds sweep
 * slowly through every ratio a governor compares them with, whatever the state table makes
 * of the share (an early wakeup is an intercept only where a shallower bin exists).
 */
static void walk_share(struct kgov_rng *r, unsigned int *pct, unsigned int lo, unsigned int hi)
{
	s64 v = (s64)*pct + kgov_rng_range(r, -1, 1);

	*pct = (unsigned int)(v < lo ? lo : v > hi ? hi : v);
}

/*
 * Tie runs: a timer beyond the tick (where the tick-range intercepts decide on the tick), or
 * one inside the bin of a state that is not the deepest (so a hit and an intercept on the
 * deepest bin differ), or @other.
 */
static s64 tie_sleep_length(struct kgov_rng *r, const struct il_driver *drv, s64 tick, s64 other,
			    bool banded)
{
	int i;
	s64 lo, hi;

	if (banded && kgov_rng_chance(r, 1, 2)) /* generator 3: mostly beyond the tick */
		return tick * kgov_rng_range(r, 1, 8) + kgov_rng_range(r, 0, tick);
	i = drv->state_count > 1 ? (int)kgov_rng_range(r, 0, drv->state_count - 2) : 0;
	lo = drv->states[i].target_residency_ns;
	hi = drv->states[i + 1].target_residency_ns;

	switch (kgov_rng_range(r, 0, drv->state_count > 1 ? 2 : 0)) {
	case 0:
		return tick * kgov_rng_range(r, 1, 8) + kgov_rng_range(r, 0, tick);
	case 1:
		return hi > lo ? kgov_rng_range(r, lo, hi - 1) : other;
	default:
		return other;
	}
}

void kgov_gen_step(struct kgov_rng *r, const struct kgov_frame *f, const struct il_driver *drv,
		   const struct il_env *env, struct kgov_pattern *pat, u64 prev_clock,
		   struct kgov_step *st)
{
	s64 tick = (s64)env->tick_nsec;

	if (pat && pat->tie_run) {
		walk_share(r, &pat->got_tick_pct, pat->banded ? 0 : 50, pat->banded ? 20 : 85);
		walk_share(r, &pat->early_pct, pat->early_lo, pat->early_hi);
	}
	memset(st, 0, sizeof(*st));
	st->toggle_state = -1;
	/* generator 3 tie runs: mostly a running tick, where keep-the-tick rules decide */
	st->tick_stopped = kgov_rng_chance(r, pat && pat->banded ? 1 : 3, 10);
	if (pat && pat->periodic && kgov_rng_chance(r, 1, 2))
		/* the next timer a few periods away, or right after this period */
		st->sleep_ns = pattern_residency(r, pat) * kgov_rng_range(r, 1, 8) +
			       kgov_rng_range(r, 0, 5000);
	else
		st->sleep_ns = gen_sleep_length(r, drv, env);
	if (pat && pat->tie_run)
		st->sleep_ns = tie_sleep_length(r, drv, tick, st->sleep_ns, pat->banded);
	switch (kgov_rng_range(r, 0, 9)) {
	case 0: /* longer than the sleep length */
		st->delta_next_ns = add_sat(st->sleep_ns, kgov_rng_range(r, 1, tick));
		break;
	case 1: /* negative: the event is already due */
		st->delta_next_ns = -kgov_rng_range(r, 0, tick);
		break;
	case 2:
		st->delta_next_ns = boundary_time(r, drv, env);
		break;
	case 3:
	case 4: /* the next timer is the next event */
		st->delta_next_ns = st->sleep_ns;
		break;
	default: /* the tick comes first (while it runs) */
		st->delta_next_ns = kgov_rng_range(r, 0, tick);
		if (st->delta_next_ns > st->sleep_ns && kgov_rng_chance(r, 1, 2))
			st->delta_next_ns = st->sleep_ns;
		break;
	}
	if (pat && pat->tie_run)
		st->got_tick = kgov_rng_chance(r, pat->got_tick_pct, 100);
	else
		st->got_tick = kgov_rng_chance(r, 1, 4);
	il_qos_defaults(&st->qos);
	st->qos.cpu_latency_us = gen_qos(r, drv, PM_QOS_CPU_LATENCY_DEFAULT_VALUE);
	if (kgov_rng_chance(r, 1, 4))
		st->qos.resume_latency_us = gen_qos(r, drv, PM_QOS_RESUME_LATENCY_NO_CONSTRAINT);
	if (kgov_rng_chance(r, 1, 6))
		st->qos.wakeup_latency_us = gen_qos(r, drv, PM_QOS_CPU_LATENCY_DEFAULT_VALUE);
	if (kgov_rng_chance(r, 1, 4))
		st->nr_iowait =
			(unsigned long)kgov_rng_range(r, 1, kgov_rng_chance(r, 1, 8) ? 100000 : 4);
	if (f->units_us && kgov_rng_chance(r, 1, 3))
		st->load = (unsigned long)kgov_rng_range(r, 0, 1 << 22);
	st->clock_ns = prev_clock + (u64)kgov_rng_range(r, 0, 10 * MS);
	if (kgov_rng_chance(r, 1, 200))
		st->toggle_state = (int)kgov_rng_range(r, 0, drv->state_count - 1);
}

/* ---- outcomes ------------------------------------------------------------------------------ */

static s64 gen_residency(struct kgov_rng *r, const struct il_driver *drv, const struct il_env *env,
			 int idx, const struct kgov_step *st)
{
	const struct il_state *s = &drv->states[idx];
	s64 jitter = kgov_rng_range(r, -1, 1), v;

	switch (kgov_rng_range(r, 0, 15)) {
	case 0:
		return 0;
	case 1:
		return kgov_rng_range(r, 1, 3000);
	case 2: /* shorter than the entered state's residency */
		return s->target_residency_ns > 0 ?
			kgov_rng_range(r, 0, s->target_residency_ns - 1) : 0;
	case 3:
	case 4:
		v = boundary_time(r, drv, env);
		return v < 0 ? 0 : v;
	case 5: /* menu: measured > 2 * exit latency decides the correction */
		v = 2 * s->exit_latency_ns + jitter;
		return v < 0 ? 0 : v;
	case 6:
		v = s->exit_latency_ns + jitter;
		return v < 0 ? 0 : v;
	case 7:
	case 8: /* a timer wakeup: close to the sleep length */
		if (st->sleep_ns < 0 || st->sleep_ns > KTIME_MAX / 2)
			return log_uniform(r, 1, 10000) * US;
		v = st->sleep_ns + kgov_rng_range(r, -2000, 20000);
		return v < 0 ? 0 : v;
	case 9: /* far above every target: seconds to hours */
		return log_uniform(r, 1, 10000) * NSEC_PER_SEC;
	case 10: /* beyond 2^31 µs, where µs values stop fitting an int */
		return kgov_rng_range(r, 1, 1 << 20) * (s64)NSEC_PER_SEC * 4;
	default:
		return log_uniform(r, 1, 100 * MS / US) * US + kgov_rng_range(r, 0, 999);
	}
}

/* Tie runs: an early wakeup (an intercept) or one just after the sleep length (a hit). */
static s64 tie_residency(struct kgov_rng *r, const struct il_driver *drv, const struct il_env *env,
			 int idx, const struct kgov_pattern *pat, const struct kgov_step *st)
{
	if (st->sleep_ns <= 0 || st->sleep_ns > KTIME_MAX / 2)
		return gen_residency(r, drv, env, idx, st);
	if (kgov_rng_chance(r, pat->early_pct, 100))
		return kgov_rng_range(r, 0, st->sleep_ns / 2 < (s64)env->tick_nsec ?
					    st->sleep_ns / 2 : (s64)env->tick_nsec);
	return st->sleep_ns + kgov_rng_range(r, 0, 2000);
}

void kgov_gen_outcome(struct kgov_rng *r, const struct il_driver *drv, const struct il_env *env,
		      int idx, const struct kgov_pattern *pat, struct kgov_step *st)
{
	bool polling = drv->states[idx].flags & CPUIDLE_FLAG_POLLING;

	st->rejected = kgov_rng_chance(r, 1, 30);
	st->poll_timeout = polling && !st->rejected && kgov_rng_chance(r, 1, 3);
	if (st->rejected)
		st->residency_ns = 0;
	else if (pat && pat->tie_run && kgov_rng_chance(r, 9, 10))
		st->residency_ns = tie_residency(r, drv, env, idx, pat, st);
	else if (pat && pat->generator >= 2 && kgov_rng_chance(r, 1, 50))
		/* menu: a measured time (residency - exit latency) at MAX_INTERESTING */
		st->residency_ns =
			50 * MS + drv->states[idx].exit_latency_ns + kgov_rng_range(r, -1, 1);
	else if (pat && pat->periodic && kgov_rng_chance(r, 9, 10))
		st->residency_ns = pattern_residency(r, pat);
	else
		st->residency_ns = gen_residency(r, drv, env, idx, st);
	st->exit_clock_ns = st->clock_ns + (u64)st->residency_ns + (u64)kgov_rng_range(r, 0, 5000);
}
