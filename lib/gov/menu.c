// SPDX-License-Identifier: GPL-2.0-only
/*
 * menu.c - port of the Linux "menu" cpuidle governor, every version from 4.16 to 7.1.
 *
 * The menu governor was written by Adam Belay and Arjan van de Ven (Intel); most of its
 * later shape, including the tick handling (4.17), the ns conversion and the 2025 rework
 * of the recent-intervals predictor, is Rafael J. Wysocki's work. Christian Loehle removed
 * the iowait influence (38f83090f515), Aboorva Devarajan added the residency threshold to
 * the polling override (07d815701274). This file is our own re-implementation of their
 * algorithm (GPL-2.0-only, like the original), written to be bit-exact.
 *
 * DOC: the menu governor
 *
 * menu predicts how long the CPU will stay idle and picks the deepest state whose target
 * residency fits the prediction and whose exit latency fits the latency limit.
 *
 *  1. "Update" (lazy): reflect() only records the entered state; the next select() first
 *     turns the last idle period into a "measured" duration (the residency minus the exit
 *     latency; 45 ms if the tick woke a CPU that expected a long sleep; the timer value if
 *     a polling state hit its time limit), caps it at the timer value of that select, and
 *     folds measured/next_timer into the "correction factor" of the bucket used then
 *     (a running average, 8192 = 1.0, decay 1/8), and pushes measured µs into the ring of
 *     the eight "recent intervals".
 *  2. "Typical interval" (get_typical_interval): if the recent intervals are consistent
 *     (standard deviation <= 20 µs, or average > 6 standard deviations with at least six
 *     samples), their average is a prediction. Otherwise outliers are dropped and the test
 *     is retried until at most six samples are left; then there is no prediction
 *     (UINT_MAX). Six variants, see enum menu_typical.
 *  3. "Timer prediction": the time till the next timer (tick_nohz_get_sleep_length()),
 *     scaled by the correction factor of its magnitude bucket. Since 6.6 the timer is read
 *     only when the typical interval is longer than RESIDENCY_THRESHOLD_NS (or, from 7.0,
 *     when the tick is already stopped). The prediction is the smaller of 2 and 3.
 *  4. State 0 short cut: with a zero latency limit, or when state 1 cannot fit the timer
 *     or the latency limit, state 0 is returned at once (the tick is kept only for a
 *     polling state 0).
 *  5. With the tick stopped a short prediction is distrusted and replaced by the timer
 *     (7.1: unless the timer is within SAFE_TIMER_RANGE_NS anyway). Up to 6.16 a running
 *     tick instead lowers the latency limit to the prediction (4.x, 6.1: divided by the
 *     iowait/load "performance multiplier").
 *  6. State loop: walk the enabled states shallow to deep, keep the last one that fits.
 *     A real state is preferred to a polling state 0 when the timer allows it (the
 *     "polling override", whose conditions changed in 6.17, 6.18 and 6.19; 4.x instead
 *     skipped polling up front, "first_idx"). A state that does not fit may still be
 *     taken when the tick is stopped and the timer is close to its residency.
 *  7. Tick: if the chosen state polls or the prediction is shorter than a tick (and the
 *     tick still runs), the tick is kept, and the state is made shallow enough to fit
 *     before the next tick.
 *
 * Versions (presets below) and the upstream files they follow, by git blob of
 * drivers/cpuidle/governors/menu.c (see the shared kernel-governors.md §2):
 *   menu-4.16 aa390404e85f, menu-4.17 1bfe03ceb236, menu-6.13 28363bfa3e4c (= 6.12 = 6.14),
 *   menu-1 .. menu-5 = v6.14 + d2cd195b57cf, 13982929fb08, 60256e458e1c, 8de7606f0fe2,
 *   85975daeaa4d, menu-6.15 39aa0aea61c6, menu-6.16 52d5d26fc7c6, menu-6.17 b2e3d0b0a116,
 *   menu-6.18 23239b0c04f9, menu-6.19 64d6f7a1c776, menu-7.0 899ff16ff1fe,
 *   menu-7.1 544a5d593007 (gov.h cd06a2e7b506), Debian menu-6.1.192 2aa87ce37a90 and
 *   menu-6.12.117 0ce732345001, LTS menu-6.18.35 ca863ba03d45 (= v6.19.9's file).
 *
 * 4.16/4.17 work in µs with their own per-CPU fields and a differently shaped select(),
 * so they have their own menu_select_4_x()/menu_update_4_x(); every later version goes
 * through menu_select()/menu_update() with the switches of struct menu_cfg.
 */
#include <limits.h>

#include "governors.h"
#include "kcompat.h"

#define BUCKETS_NO_IOWAIT 6 /* 6.12+: magnitude buckets only (38f83090f515) */
#define BUCKETS_IOWAIT 12   /* 4.x, 6.1: a second set of 6 while tasks wait for I/O */
#define BUCKETS_MAX BUCKETS_IOWAIT
#define INTERVAL_SHIFT 3
#define INTERVALS (1UL << INTERVAL_SHIFT) /* recent intervals kept, a power of 2 */
#define RESOLUTION 1024                   /* fixed-point unit of a correction ratio */
#define DECAY 8                           /* running average keeps 7/8 of the old factor */
/* Idle periods longer than this (µs) count as a perfect timer prediction. */
#define MAX_INTERESTING_US 50000
#define MAX_INTERESTING (MAX_INTERESTING_US * NSEC_PER_USEC)
/* gov.h: a typical interval up to this does not justify reading the timer. */
#define RESIDENCY_THRESHOLD_NS (15 * NSEC_PER_USEC)
/* gov.h (7.1): a timer this close is a safety net enough for a stopped tick. */
#define SAFE_TIMER_RANGE_NS(dev) (2 * tick_nsec(dev))
/* 4.x get_loadavg(): the runqueue load in FSHIFT fixed point. */
#define FSHIFT 11
#define FIXED_1 (1UL << FSHIFT)
/* Inline in every version's menu_select() (MENU_SELECT_OF()), where its switches are constants. */
#define menu_inline inline __attribute__((always_inline))

/**
 * enum menu_typical - the get_typical_interval() variants (kernel-governors.md §2.3)
 * @MENU_TI_A:  4.16/4.17: two passes, every sample kept at first, no empty-set exit.
 * @MENU_TI_B:  6.12-6.14 (menu-1, Debian 6.12): two passes, samples above INT_MAX dropped,
 *              "no prediction" when every kept sample is 0.
 * @MENU_TI_B1: 5.17-6.5 (Debian 6.1): B, but the exit is "smallest kept sample >= the
 *              timer prediction", so an all-zero set predicts 0.
 * @MENU_TI_C2: 13982929fb08: average and variance in one pass (floor(E[v^2]) - floor(avg)^2).
 * @MENU_TI_C3: 60256e458e1c: C2 keeping everything below UINT_MAX at first.
 * @MENU_TI_D:  8de7606f0fe2 and later: C3 dropping the outliers on the farther end.
 */
enum menu_typical { MENU_TI_A, MENU_TI_B, MENU_TI_B1, MENU_TI_C2, MENU_TI_C3, MENU_TI_D };

/**
 * enum menu_poll_override - when the loop prefers the state @s to a polling states[idx]
 * @MENU_POLL_LATENCY:   up to 6.16 and 6.1: s exit latency <= latency_req (which a running
 *                       tick lowered to the prediction) and s residency <= next timer.
 * @MENU_POLL_TIMER:     779b1a1cb13a (6.17): s residency <= next timer only.
 * @MENU_POLL_PREDICTED: db86f55bf81a (6.18): and s exit latency <= the prediction.
 * @MENU_POLL_THRESHOLD: 07d815701274 (6.19+, 6.12.117): and s residency < 15 µs.
 */
enum menu_poll_override {
	MENU_POLL_LATENCY,
	MENU_POLL_TIMER,
	MENU_POLL_PREDICTED,
	MENU_POLL_THRESHOLD,
};

/**
 * enum menu_stopped_rule - where a stopped tick overrides a short prediction
 * @MENU_STOPPED_AFTER_SHORTCUT: up to 6.19: after the state-0 short cut, with the timer
 *                               value of this select (KTIME_MAX when it was not read).
 * @MENU_STOPPED_IN_TIMER_PATH:  80606f4eb8d7 (7.0, 6.19.9, 6.12.117): a stopped tick
 *                               forces the timer read, the override happens right there.
 */
enum menu_stopped_rule { MENU_STOPPED_AFTER_SHORTCUT, MENU_STOPPED_IN_TIMER_PATH };

/**
 * struct menu_cfg - the switches of one menu version
 * @units_us: 4.16/4.17: µs fields and menu_select_4_x()/menu_update_4_x().
 * @tick_aware: 4.17+: select() decides on the tick (*stop_tick), reflect() reads the
 *              got-tick flag and update() has the tick-wakeup rule. 4.16 has none of it.
 * @iowait_buckets: 12 buckets split on nr_iowait and the iowait divisor of latency_req
 *                  (4.x with the load term; 6.1 without). Off from 6.12.
 * @timer_first: 5.x-6.5 select (Debian 6.1): the timer is always read, first, and the
 *               prediction is formed after the state-0 short cut.
 * @typical: get_typical_interval() variant.
 * @typical_return_max: 85975daeaa4d (6.15-6.17, menu-5): with 4-6 samples left and no
 *                      typical value, predict the largest of them instead of nothing.
 * @uint_max_push: fa3fa55de0d6 (6.17+, 6.1.157+): a select with no update pending after
 *                 an entry that yielded no residency pushes UINT_MAX into the intervals.
 * @latency_first: 779b1a1cb13a (6.17+, 6.12.117): the exit latency is checked before the
 *                 residency, and a running tick no longer lowers latency_req.
 * @poll_override: rule of the polling override in the state loop.
 * @stopped_rule: where a stopped tick overrides a short prediction.
 * @safe_timer_range: 7.1: ... only when the timer is beyond SAFE_TIMER_RANGE_NS.
 * @state_count_test: the state-0 short cut also fires for state_count <= 1 (gone in 7.0).
 */
struct menu_cfg {
	bool units_us;
	bool tick_aware;
	bool iowait_buckets;
	bool timer_first;
	enum menu_typical typical;
	bool typical_return_max;
	bool uint_max_push;
	bool latency_first;
	enum menu_poll_override poll_override;
	enum menu_stopped_rule stopped_rule;
	bool safe_timer_range;
	bool state_count_test;
};

/* What the last select() computed, for display; not part of the kernel struct. */
struct menu_diag {
	s64 predicted_ns;    /* prediction entering the state loop, -1 if never formed */
	s64 typical_us;      /* get_typical_interval() result, -1 if not called */
	s64 latency_req;     /* latency limit of the state loop (ns, 4.x: µs) */
	bool timer_queried;  /* tick_nohz_get_sleep_length() was read */
};

/* Results of get_typical_interval() kept per multiset of small samples: 8 slots. */
#define MEMO_SLOT_BITS 3
#define MEMO_SLOTS (1u << MEMO_SLOT_BITS)
/* Samples below this are counted in menu_typical_memo.counts, 4 bits each. */
#define MEMO_SMALL_US 16

/*
 * Past get_typical_interval() results. One depends on the multiset of the recent intervals
 * and, for B1, on the timer prediction alone. A sample that replaces an equal one changes
 * neither (the ping-pong ring pushes the same µs value more than half the time): the last
 * result holds until one does. And while every sample is below MEMO_SMALL_US, the multiset
 * is exactly the count of each value (at most INTERVALS = 8 of them: 4 bits each): results
 * are kept per such counts, which the ping-pong ring's few µs values come back to. Not part
 * of the kernel struct, and not shown by vars().
 */
struct menu_typical_memo {
	bool valid;
	unsigned int predicted_us; /* the argument the last result was computed for */
	unsigned int typical_us;
	u64 counts;                /* how many samples have each value below MEMO_SMALL_US */
	unsigned int big;          /* samples of MEMO_SMALL_US or more */
	unsigned int known_valid;  /* a bit per slot of known[] */
	struct {
		u64 counts;
		unsigned int predicted_us, typical_us;
	} known[MEMO_SLOTS];
};

/*
 * Per-CPU data. The kernel's struct menu_device of every version is a subset of this one:
 * 4.x has last_state_idx, next_timer_us and predicted_us (µs), 5.x+ has next_timer_ns and
 * keeps the last index in dev->last_state_idx. vars() shows each preset its own fields.
 */
struct menu_device {
	int last_state_idx;          /* 4.x */
	int needs_update;
	int tick_wakeup;             /* 4.17+ */
	unsigned int next_timer_us;  /* 4.x */
	unsigned int predicted_us;   /* 4.x */
	u64 next_timer_ns;           /* 5.x+ */
	unsigned int bucket;
	unsigned int correction_factor[BUCKETS_MAX];
	unsigned int intervals[INTERVALS];
	int interval_ptr;
	struct menu_diag diag;
	struct menu_typical_memo typical_memo;
};

static const struct menu_cfg *menu_cfg_of(const struct il_device *dev)
{
	return dev->preset->cfg;
}

static int menu_buckets(const struct menu_cfg *cfg)
{
	return cfg->iowait_buckets ? BUCKETS_IOWAIT : BUCKETS_NO_IOWAIT;
}

/*
 * Magnitude bucket of a timer value: < 10 µs, < 100 µs, < 1 ms, < 10 ms, < 100 ms, more;
 * plus BUCKETS_IOWAIT/2 while tasks wait for I/O (only ever non-zero for the iowait
 * versions). 4.x passes its µs value times 1000, which compares identically.
 */
static int which_bucket(u64 duration_ns, unsigned long nr_iowaiters)
{
	int bucket = 0;

	if (nr_iowaiters)
		bucket = BUCKETS_IOWAIT / 2;

	if (duration_ns < 10ULL * NSEC_PER_USEC)
		return bucket;
	if (duration_ns < 100ULL * NSEC_PER_USEC)
		return bucket + 1;
	if (duration_ns < 1000ULL * NSEC_PER_USEC)
		return bucket + 2;
	if (duration_ns < 10000ULL * NSEC_PER_USEC)
		return bucket + 3;
	if (duration_ns < 100000ULL * NSEC_PER_USEC)
		return bucket + 4;
	return bucket + 5;
}

/* 4.x LOAD_INT/LOAD_FRAC: the load as tenths (1.0 = 10). Unsigned long, returned as int. */
static int get_loadavg(unsigned long load)
{
	unsigned long load_int = load >> FSHIFT;
	unsigned long load_frac = (((load & (FIXED_1 - 1)) * 100) >> FSHIFT);

	return (int)(load_int * 10 + load_frac / 10);
}

/*
 * 4.x: how much shorter than the prediction the exit latency must be: 1 + 2 * load (in
 * tenths) + 10 per iowaiter. int arithmetic that wraps like the kernel's; the result is
 * odd, so never 0.
 */
static int performance_multiplier_4_x(unsigned long nr_iowaiters, unsigned long load)
{
	unsigned int mult = 1;

	mult += 2 * (unsigned int)get_loadavg(load);
	mult = (unsigned int)(mult + 10 * nr_iowaiters);
	return (int)mult;
}

/* 6.1: 1 + 10 per iowaiter (the load term went away in 4.19). */
static int performance_multiplier(unsigned int nr_iowaiters)
{
	return (int)(1 + 10 * nr_iowaiters);
}

/* Push one µs sample into the ring of recent intervals (menu_update_intervals(), 6.17). */
static menu_inline void menu_update_intervals(struct menu_device *data, unsigned int interval_us)
{
	struct menu_typical_memo *memo = &data->typical_memo;
	unsigned int old = data->intervals[data->interval_ptr];

	if (old != interval_us) {
		memo->valid = false;
		if (old < MEMO_SMALL_US)
			memo->counts -= 1ULL << (4 * old);
		else
			memo->big--;
		if (interval_us < MEMO_SMALL_US)
			memo->counts += 1ULL << (4 * interval_us);
		else
			memo->big++;
	}
	data->intervals[data->interval_ptr++] = interval_us;
	if (data->interval_ptr >= (int)INTERVALS)
		data->interval_ptr = 0;
}

/*
 * The window of samples the first pass keeps, as an exclusive upper bound. Upstream A, B,
 * B1 and C2 keep "value <= thresh" (thresh UINT_MAX for A, INT_MAX for the others), C3 and
 * D keep "value < UINT_MAX".
 */
static s64 first_max_thresh(enum menu_typical v)
{
	switch (v) {
	case MENU_TI_A:
		return (s64)UINT_MAX + 1;
	case MENU_TI_B:
	case MENU_TI_B1:
	case MENU_TI_C2:
		return (s64)INT_MAX + 1;
	default:
		return UINT_MAX;
	}
}

static bool in_window(s64 value, s64 min_thresh, s64 max_thresh)
{
	return value > min_thresh && value < max_thresh;
}

/*
 * The two-pass variance of A, B and B1: the sum of (v - avg)^2 over the window, with avg
 * already truncated. Each square is an s64 product that wraps for samples far above
 * INT_MAX; summing the u64 bits gives the same value.
 */
static u64 two_pass_sum_sq(const struct menu_device *data, s64 min_thresh, s64 max_thresh,
			   u64 avg)
{
	u64 variance = 0;

	for (int i = 0; i < (int)INTERVALS; i++) {
		s64 value = data->intervals[i];
		u64 diff;

		if (!in_window(value, min_thresh, max_thresh))
			continue;
		diff = (u64)(value - (s64)avg);
		variance += diff * diff;
	}
	return variance;
}

static bool two_pass(enum menu_typical v)
{
	return v == MENU_TI_A || v == MENU_TI_B || v == MENU_TI_B1;
}

/*
 * get_typical_interval - the recent-intervals predictor, µs, UINT_MAX for "none"
 * @predicted_us: the timer prediction; only B1 reads it (its early exit).
 *
 * One body for all variants. Kept samples are those strictly between min_thresh and
 * max_thresh. After a failed test A, B, B1 and C2 (upstream "thresh = max - 1" with a
 * "<= thresh" test) and C3 ("thresh = max" with "< thresh") all come down to dropping
 * every sample equal to the current max; D drops the min instead when it is the farther
 * one from the average (ties drop the max).
 */
static unsigned int get_typical_interval(const struct menu_cfg *cfg, const struct menu_device *data,
					unsigned int predicted_us)
{
	enum menu_typical v = cfg->typical;
	s64 value, min_thresh = -1, max_thresh = first_max_thresh(v);
	unsigned int max, min, divisor;
	u64 sum, sum_sq, avg, variance, avg_sq;

again:
	max = 0;
	min = UINT_MAX;
	sum = 0;
	sum_sq = 0;
	divisor = 0;
	for (int i = 0; i < (int)INTERVALS; i++) {
		value = data->intervals[i];
		if (!in_window(value, min_thresh, max_thresh))
			continue;
		divisor++;
		sum += (u64)value;
		/* u64 square (C2) or s64 square (D): the same bits, wrapping in the sum. */
		sum_sq += (u64)value * (u64)value;
		if (value > max)
			max = (unsigned int)value;
		if (value < min)
			min = (unsigned int)value;
	}

	/*
	 * Empty or all-zero window: B and later give up; B1 gives up only when even the
	 * smallest sample is no shorter than the timer prediction (the caller takes the
	 * minimum anyway); A has no exit (and never sees an empty window).
	 */
	if (v == MENU_TI_B1) {
		if (min >= predicted_us)
			return UINT_MAX;
	} else if (v != MENU_TI_A && !max) {
		return UINT_MAX;
	}

	if (divisor == INTERVALS) {
		avg = sum >> INTERVAL_SHIFT;
		sum_sq >>= INTERVAL_SHIFT;
	} else {
		avg = sum / divisor;
		sum_sq /= divisor;
	}

	avg_sq = avg * avg;
	if (two_pass(v)) {
		/* avg is an unsigned int there; the mean of 32-bit samples always fits. */
		variance = two_pass_sum_sq(data, min_thresh, max_thresh, avg);
		if (divisor == INTERVALS)
			variance >>= INTERVAL_SHIFT;
		else
			variance /= divisor;
	} else {
		variance = sum_sq - avg_sq; /* wraps if the sum of squares did */
	}

	/*
	 * Typical: stddev <= 20 µs, or avg > 6 stddev with at least 3/4 of the samples. The
	 * U64_MAX/36 guard keeps variance * 36 from wrapping.
	 */
	if (variance <= U64_MAX / 36) {
		if ((avg_sq > variance * 36 && divisor * 4 >= INTERVALS * 3) || variance <= 400)
			return (unsigned int)avg;
	}

	/* No more than 3/4 of the samples left: stop dropping outliers. */
	if (divisor * 4 <= INTERVALS * 3) {
		if (cfg->typical_return_max && divisor >= INTERVALS / 2)
			return max;
		return UINT_MAX;
	}

	if (v == MENU_TI_D && avg - min > max - avg)
		min_thresh = min;
	else
		max_thresh = max;
	goto again;
}

/* get_typical_interval() of the samples counted in memo->counts: kept per counts. */
static unsigned int typical_interval_known(const struct menu_cfg *cfg, struct menu_device *data,
					   unsigned int predicted_us)
{
	struct menu_typical_memo *memo = &data->typical_memo;
	u64 hash = memo->counts * 0x9e3779b97f4a7c15ULL; /* Fibonacci hashing into the slots */
	unsigned int k = (unsigned int)(hash >> (64 - MEMO_SLOT_BITS));

	if (!(memo->known_valid >> k & 1) || memo->known[k].counts != memo->counts ||
	    memo->known[k].predicted_us != predicted_us) {
		memo->known[k].counts = memo->counts;
		memo->known[k].predicted_us = predicted_us;
		memo->known[k].typical_us = get_typical_interval(cfg, data, predicted_us);
		memo->known_valid |= 1u << k;
	}
	return memo->known[k].typical_us;
}

/* The last result does not hold: look it up among the known ones, or compute it. */
static __attribute__((noinline)) unsigned int
typical_interval_refresh(const struct menu_cfg *cfg, struct menu_device *data,
			 unsigned int predicted_us)
{
	struct menu_typical_memo *memo = &data->typical_memo;

	memo->typical_us = memo->big ? get_typical_interval(cfg, data, predicted_us) :
		typical_interval_known(cfg, data, predicted_us);
	memo->predicted_us = predicted_us;
	memo->valid = true;
	return memo->typical_us;
}

/*
 * get_typical_interval(), or a result of the same multiset kept (struct menu_typical_memo).
 * The last result's test is inline: it holds at most selects, and then saves no register.
 */
static inline unsigned int typical_interval_memo(const struct menu_cfg *cfg,
						 struct menu_device *data,
						 unsigned int predicted_us)
{
	const struct menu_typical_memo *memo = &data->typical_memo;

	if (memo->valid && memo->predicted_us == predicted_us)
		return memo->typical_us;
	return typical_interval_refresh(cfg, data, predicted_us);
}

static void menu_diag_start(struct menu_device *data, s64 latency_req)
{
	data->diag.predicted_ns = -1;
	data->diag.typical_us = -1;
	data->diag.latency_req = latency_req;
	data->diag.timer_queried = false;
}

/* ---- 4.16 / 4.17: µs units ------------------------------------------------------------ */

/*
 * menu_update_4_x - fold the last idle period into the µs statistics (4.16, 4.17)
 *
 * All unsigned int: a negative last_residency cannot occur, and 2 * exit_latency wraps
 * like the kernel's.
 */
static void menu_update_4_x(struct il_driver *drv, struct il_device *dev)
{
	const struct menu_cfg *cfg = menu_cfg_of(dev);
	struct menu_device *data = dev->governor_data;
	int last_idx = data->last_state_idx;
	const struct il_state *target = &drv->states[last_idx];
	unsigned int measured_us;
	unsigned int new_factor;

	if (cfg->tick_aware && data->tick_wakeup && data->next_timer_us > tick_usec(dev)) {
		/* The tick woke a CPU whose timer was far: it could have slept long. */
		measured_us = 9 * MAX_INTERESTING_US / 10;
	} else {
		measured_us = (unsigned int)dev->last_residency;
		if (measured_us > 2 * target->exit_latency)
			measured_us -= target->exit_latency;
		else
			measured_us /= 2;
	}

	if (measured_us > data->next_timer_us)
		measured_us = data->next_timer_us;

	new_factor = data->correction_factor[data->bucket];
	new_factor -= new_factor / DECAY;
	if (data->next_timer_us > 0 && measured_us < MAX_INTERESTING_US)
		new_factor += RESOLUTION * measured_us / data->next_timer_us;
	else
		new_factor += RESOLUTION; /* slept long: count the timer as exact */
	/* (upstream's "never 0" fix-up only matters for DECAY == 1) */
	data->correction_factor[data->bucket] = new_factor;

	menu_update_intervals(data, measured_us);
}

/*
 * menu_select_4_x - select() of 4.16 and 4.17
 *
 * latency_req is an int compared with unsigned µs values, so those comparisons are
 * unsigned, as in the kernel. 4.16 never writes *stop_tick (its select has no such
 * argument; the idle loop stopped the tick before calling it).
 */
static int menu_select_4_x(struct il_driver *drv, struct il_device *dev, bool *stop_tick)
{
	const struct menu_cfg *cfg = menu_cfg_of(dev);
	struct menu_device *data = dev->governor_data;
	int latency_req = pm_qos_latency_req_4_x(dev);
	unsigned int interactivity_req, expected_interval, typical_us;
	unsigned long nr_iowaiters, cpu_load;
	ktime_t delta_next = 0;
	int i, first_idx, idx;

	menu_diag_start(data, latency_req);
	if (data->needs_update) {
		menu_update_4_x(drv, dev);
		data->needs_update = 0;
	}

	if (latency_req == 0) {
		if (cfg->tick_aware)
			*stop_tick = false;
		return 0;
	}

	if (cfg->tick_aware)
		data->next_timer_us =
			(unsigned int)ktime_to_us(tick_nohz_get_sleep_length(dev, &delta_next));
	else
		data->next_timer_us =
			(unsigned int)ktime_to_us(tick_nohz_get_sleep_length_4_16(dev));
	data->diag.timer_queried = true;

	get_iowait_load(dev, &nr_iowaiters, &cpu_load);
	data->bucket = which_bucket((u64)data->next_timer_us * NSEC_PER_USEC, nr_iowaiters);

	/* next_timer_us scaled by the correction factor, rounded to the nearest µs. */
	data->predicted_us = (unsigned int)div_round_closest_ull(
		(u64)data->next_timer_us * data->correction_factor[data->bucket],
		RESOLUTION * DECAY);

	typical_us = typical_interval_memo(cfg, data, UINT_MAX);
	data->diag.typical_us = typical_us;
	expected_interval = typical_us < data->next_timer_us ? typical_us : data->next_timer_us;

	/*
	 * Skip a polling state 0 unless the timer is due within max(20 µs, S1 residency) or
	 * S1 is too slow or disabled.
	 */
	first_idx = 0;
	if (drv->states[0].flags & CPUIDLE_FLAG_POLLING) {
		const struct il_state *s = &drv->states[1];
		unsigned int polling_threshold = max_t(unsigned int, 20, s->target_residency);

		if (data->next_timer_us > polling_threshold &&
		    (unsigned int)latency_req > s->exit_latency && !s->disabled &&
		    !dev->states_usage[1].disable)
			first_idx = 1;
	}

	if (expected_interval < data->predicted_us)
		data->predicted_us = expected_interval;

	if (cfg->tick_aware && tick_nohz_tick_stopped(dev)) {
		/* Stopped tick: a short prediction is not trusted, use up to a tick of timer. */
		if (data->predicted_us < tick_usec(dev))
			data->predicted_us =
				min_t(unsigned int, tick_usec(dev), ktime_to_us(delta_next));
	} else {
		interactivity_req = data->predicted_us /
			(unsigned int)performance_multiplier_4_x(nr_iowaiters, cpu_load);
		if ((unsigned int)latency_req > interactivity_req)
			latency_req = (int)interactivity_req;
	}
	data->diag.latency_req = latency_req;
	data->diag.predicted_ns = (s64)data->predicted_us * NSEC_PER_USEC;

	expected_interval = data->predicted_us;
	idx = -1;
	for (i = first_idx; i < drv->state_count; i++) {
		const struct il_state *s = &drv->states[i];

		if (!il_state_enabled(drv, dev, i))
			continue;
		if (idx == -1)
			idx = i;
		if (s->target_residency > data->predicted_us)
			break;
		if (s->exit_latency > (unsigned int)latency_req) {
			/* 4.17: a latency stop keeps the tick if that state is shallow. */
			expected_interval = drv->states[idx].target_residency;
			break;
		}
		idx = i;
	}
	if (idx == -1)
		idx = 0;

	if (cfg->tick_aware && ((drv->states[idx].flags & CPUIDLE_FLAG_POLLING) ||
				expected_interval < tick_usec(dev))) {
		unsigned int delta_next_us = (unsigned int)ktime_to_us(delta_next);

		*stop_tick = false;
		if (!tick_nohz_tick_stopped(dev) && idx > 0 &&
		    drv->states[idx].target_residency > delta_next_us) {
			/* The tick stays: pick a state that fits before it. */
			for (i = idx - 1; i >= 0; i--) {
				if (!il_state_enabled(drv, dev, i))
					continue;
				idx = i;
				if (drv->states[i].target_residency <= delta_next_us)
					break;
			}
		}
	}

	data->last_state_idx = idx;
	return idx;
}

/* ---- 5.x and later: ns units ---------------------------------------------------------- */

/*
 * menu_update - fold the last idle period into the statistics (6.1 .. 7.1)
 *
 * measured_ns is u64 and the exit latency s64, so "measured_ns > 2 * exit latency" is an
 * unsigned comparison. ktime_to_us() of the result is truncated to 32 bits: KTIME_MAX (a
 * poll timeout after a select that did not read the timer) becomes 2783138807.
 */
static menu_inline void menu_update(struct il_driver *drv, struct il_device *dev)
{
	struct menu_device *data = dev->governor_data;
	int last_idx = dev->last_state_idx;
	const struct il_state *target = &drv->states[last_idx];
	u64 measured_ns;
	unsigned int new_factor;

	if (data->tick_wakeup && data->next_timer_ns > tick_nsec(dev)) {
		/* The tick woke a CPU whose timer was far: it could have slept long. */
		measured_ns = 9 * MAX_INTERESTING / 10;
	} else if ((drv->states[last_idx].flags & CPUIDLE_FLAG_POLLING) && dev->poll_time_limit) {
		/* Polling ran out of time: a better prediction would have reached the timer. */
		measured_ns = data->next_timer_ns;
	} else {
		measured_ns = dev->last_residency_ns;
		if (measured_ns > (u64)(2 * target->exit_latency_ns))
			measured_ns -= (u64)target->exit_latency_ns;
		else
			measured_ns /= 2;
	}

	if (measured_ns > data->next_timer_ns)
		measured_ns = data->next_timer_ns;

	new_factor = data->correction_factor[data->bucket];
	new_factor -= new_factor / DECAY;
	if (data->next_timer_ns > 0 && measured_ns < (u64)MAX_INTERESTING)
		new_factor +=
			(unsigned int)div64_u64(RESOLUTION * measured_ns, data->next_timer_ns);
	else
		new_factor += RESOLUTION; /* slept long: count the timer as exact */
	data->correction_factor[data->bucket] = new_factor;

	menu_update_intervals(data, (unsigned int)ktime_to_us((ktime_t)measured_ns));
}

/* Read the timer; a negative sleep length counts as 0 for both values. */
static void menu_read_timer(struct il_device *dev, struct menu_device *data, ktime_t *delta_tick)
{
	ktime_t delta = tick_nohz_get_sleep_length(dev, delta_tick);

	if (delta < 0) {
		delta = 0;
		*delta_tick = 0;
	}
	data->next_timer_ns = (u64)delta;
	data->diag.timer_queried = true;
}

/*
 * The timer prediction in µs: next_timer_ns times the correction factor (a wrapping u64
 * product), rounded to the nearest µs, truncated to 32 bits.
 */
static unsigned int menu_timer_us(const struct menu_device *data)
{
	return (unsigned int)div_u64((RESOLUTION * DECAY * NSEC_PER_USEC) / 2 +
				     data->next_timer_ns * data->correction_factor[data->bucket],
				     RESOLUTION * DECAY * NSEC_PER_USEC);
}

/*
 * Steps 2-3 of 6.6+: typical interval first; the timer only when that is longer than
 * RESIDENCY_THRESHOLD_NS (or, 80606f4eb8d7, the tick is stopped). Otherwise assume a far
 * timer and a tick half a period away.
 */
static menu_inline u64 menu_predict(const struct menu_cfg *cfg, struct il_device *dev,
				       struct menu_device *data, ktime_t *delta_tick)
{
	bool stopped_here = cfg->stopped_rule == MENU_STOPPED_IN_TIMER_PATH;
	unsigned int typical_us = typical_interval_memo(cfg, data, UINT_MAX);
	u64 predicted_ns = typical_us * NSEC_PER_USEC;

	data->diag.typical_us = typical_us;
	if (predicted_ns > RESIDENCY_THRESHOLD_NS ||
	    (stopped_here && tick_nohz_tick_stopped(dev))) {
		u64 timer_ns;

		menu_read_timer(dev, data, delta_tick);
		data->bucket = which_bucket(data->next_timer_ns, 0);
		timer_ns = (u64)menu_timer_us(data) * NSEC_PER_USEC;
		if (timer_ns < predicted_ns)
			predicted_ns = timer_ns;

		if (stopped_here && tick_nohz_tick_stopped(dev) && predicted_ns < tick_nsec(dev) &&
		    (!cfg->safe_timer_range || data->next_timer_ns > SAFE_TIMER_RANGE_NS(dev)))
			predicted_ns = data->next_timer_ns;
	} else {
		data->next_timer_ns = KTIME_MAX;
		*delta_tick = (ktime_t)(tick_nsec(dev) / 2);
		/* which_bucket(KTIME_MAX) up to 6.15, BUCKETS - 1 since d4a7882f93bf: both 5. */
		data->bucket = BUCKETS_NO_IOWAIT - 1;
	}
	return predicted_ns;
}

/*
 * 5.x-6.5 (Debian 6.1): the timer prediction, then the typical interval below it.
 * Called after the state-0 short cut.
 */
static u64 menu_predict_timer_first(const struct menu_cfg *cfg, struct menu_device *data)
{
	unsigned int predicted_us = menu_timer_us(data);
	unsigned int typical_us = typical_interval_memo(cfg, data, predicted_us);

	data->diag.typical_us = typical_us;
	return (u64)(typical_us < predicted_us ? typical_us : predicted_us) * NSEC_PER_USEC;
}

/*
 * Step 4: state 0 no matter what (zero latency limit, or state 1 does not fit the timer
 * or the latency limit while state 0 is enabled). next_timer_ns is u64 against an s64
 * residency: unsigned comparison.
 */
static bool menu_state0_only(const struct menu_cfg *cfg, const struct il_driver *drv,
			     const struct il_device *dev, const struct menu_device *data,
			     s64 latency_req)
{
	if ((cfg->state_count_test && drv->state_count <= 1) || latency_req == 0)
		return true;
	return (data->next_timer_ns < (u64)drv->states[1].target_residency_ns ||
		latency_req < drv->states[1].exit_latency_ns) &&
	       !dev->states_usage[0].disable;
}

/* The polling override of step 6 for the state @s deeper than a polling states[idx]. */
static bool menu_poll_override(const struct menu_cfg *cfg, const struct il_driver *drv, int idx,
			       const struct il_state *s, s64 latency_req, u64 predicted_ns,
			       u64 next_timer_ns)
{
	if (!(drv->states[idx].flags & CPUIDLE_FLAG_POLLING))
		return false;
	if ((u64)s->target_residency_ns > next_timer_ns)
		return false;
	switch (cfg->poll_override) {
	case MENU_POLL_LATENCY:
		return s->exit_latency_ns <= latency_req;
	case MENU_POLL_TIMER:
		return true;
	case MENU_POLL_PREDICTED:
		return (u64)s->exit_latency_ns <= predicted_ns;
	case MENU_POLL_THRESHOLD:
	default:
		return s->target_residency_ns < RESIDENCY_THRESHOLD_NS &&
		       (u64)s->exit_latency_ns <= predicted_ns;
	}
}

/*
 * menu_select - select() of 6.1 (Debian) and 6.12 .. 7.1
 *
 * Always inline, with a constant @cfg: each version has its own copy (MENU_SELECT_OF()),
 * in which the tests of switches the version does not have are gone.
 *
 * predicted_ns and next_timer_ns are u64, latency_req and the state fields s64: mixed
 * comparisons are unsigned, as in the kernel. The state loop has the 6.18 shape
 * (17224c1d2574 only rearranged it); before 779b1a1cb13a the exit latency was checked
 * after the residency block, which is the !latency_first branch below.
 */
static menu_inline int
menu_select(const struct menu_cfg *cfg, struct il_driver *drv, struct il_device *dev,
	    bool *stop_tick)
{
	struct menu_device *data = dev->governor_data;
	s64 latency_req = cpuidle_governor_latency_req(dev);
	unsigned int nr_iowaiters = 0;
	u64 predicted_ns = 0;
	ktime_t delta_tick = 0;
	int i, idx;

	menu_diag_start(data, latency_req);
	if (data->needs_update) {
		menu_update(drv, dev);
		data->needs_update = 0;
	} else if (cfg->uint_max_push && !dev->last_residency_ns) {
		/* The last entry was rejected (or this is the first select): mark a gap. */
		menu_update_intervals(data, UINT_MAX);
	}

	if (cfg->timer_first) {
		menu_read_timer(dev, data, &delta_tick);
		nr_iowaiters = (unsigned int)nr_iowait_cpu(dev);
		data->bucket = which_bucket(data->next_timer_ns, nr_iowaiters);
	} else {
		predicted_ns = menu_predict(cfg, dev, data, &delta_tick);
		data->diag.predicted_ns = (s64)predicted_ns;
	}

	if (menu_state0_only(cfg, drv, dev, data, latency_req)) {
		*stop_tick = !(drv->states[0].flags & CPUIDLE_FLAG_POLLING);
		return 0;
	}

	if (cfg->timer_first)
		predicted_ns = menu_predict_timer_first(cfg, data);

	if (cfg->stopped_rule == MENU_STOPPED_AFTER_SHORTCUT) {
		if (tick_nohz_tick_stopped(dev)) {
			/* Stuck in a shallow state for long is costly: trust the timer. */
			if (predicted_ns < tick_nsec(dev))
				predicted_ns = data->next_timer_ns;
		} else if (!cfg->latency_first) {
			/* A short expected idle also limits the exit latency. */
			u64 interactivity_req = predicted_ns;

			if (cfg->iowait_buckets)
				interactivity_req = div64_u64(
					predicted_ns, (u64)performance_multiplier(nr_iowaiters));
			if ((u64)latency_req > interactivity_req)
				latency_req = (s64)interactivity_req;
		}
	}
	data->diag.predicted_ns = (s64)predicted_ns;
	data->diag.latency_req = latency_req;

	idx = -1;
	for (i = 0; i < drv->state_count; i++) {
		const struct il_state *s = &drv->states[i];

		if (dev->states_usage[i].disable)
			continue;
		if (idx == -1)
			idx = i; /* first enabled state */

		if (cfg->latency_first && s->exit_latency_ns > latency_req)
			break;

		if ((u64)s->target_residency_ns <= predicted_ns) {
			if (!cfg->latency_first && s->exit_latency_ns > latency_req)
				break;
			idx = i;
			continue;
		}

		/* Prefer a real state to polling when the timer allows it. */
		if (menu_poll_override(cfg, drv, idx, s, latency_req, predicted_ns,
				       data->next_timer_ns)) {
			predicted_ns = (u64)s->target_residency_ns;
			idx = i;
			break;
		}

		if (predicted_ns < tick_nsec(dev))
			break;

		if (!tick_nohz_tick_stopped(dev)) {
			/* Keep the tick and look again at the next one. */
			predicted_ns = (u64)drv->states[idx].target_residency_ns;
			break;
		}

		/* Stopped tick: do not sit in a shallow state if this one fits the tick delta. */
		if (drv->states[idx].target_residency_ns < (s64)tick_nsec(dev) &&
		    s->target_residency_ns <= delta_tick)
			idx = i;
		return idx;
	}

	if (idx == -1)
		idx = 0; /* nothing enabled */

	if (((drv->states[idx].flags & CPUIDLE_FLAG_POLLING) || predicted_ns < tick_nsec(dev)) &&
	    !tick_nohz_tick_stopped(dev)) {
		*stop_tick = false;

		if (idx > 0 && drv->states[idx].target_residency_ns > delta_tick) {
			/* The tick stays: pick a state that fits before it. */
			for (i = idx - 1; i >= 0; i--) {
				if (dev->states_usage[i].disable)
					continue;
				idx = i;
				if (drv->states[i].target_residency_ns <= delta_tick)
					break;
			}
		}
	}

	return idx;
}

/* ---- governor ops ---------------------------------------------------------------------- */

static int menu_enable_device(struct il_driver *drv, struct il_device *dev)
{
	const struct menu_cfg *cfg = menu_cfg_of(dev);
	struct menu_device *data = dev->governor_data;

	*data = (struct menu_device){ 0 };
	data->typical_memo.counts = INTERVALS; /* eight samples of 0 */
	for (int i = 0; i < menu_buckets(cfg); i++)
		data->correction_factor[i] = RESOLUTION * DECAY; /* ratio 1.0 */
	menu_diag_start(data, 0);
	return 0;
}

/*
 * Only records the entered state; the statistics are updated by the next select. Inline with
 * a constant @cfg, like menu_select(): each version has its own copy (MENU_REFLECT_OF()).
 */
static menu_inline void menu_reflect(const struct menu_cfg *cfg, struct il_device *dev,
				     int index)
{
	struct menu_device *data = dev->governor_data;

	if (cfg->units_us)
		data->last_state_idx = index;
	else
		dev->last_state_idx = index;
	data->needs_update = 1;
	if (cfg->tick_aware)
		data->tick_wakeup = tick_nohz_idle_got_tick(dev);
}

static const char *const cf_names[BUCKETS_MAX] = {
	"correction_factor[0]", "correction_factor[1]", "correction_factor[2]",
	"correction_factor[3]", "correction_factor[4]", "correction_factor[5]",
	"correction_factor[6]", "correction_factor[7]", "correction_factor[8]",
	"correction_factor[9]", "correction_factor[10]", "correction_factor[11]",
};

static const char *const interval_names[INTERVALS] = {
	"intervals[0]", "intervals[1]", "intervals[2]", "intervals[3]",
	"intervals[4]", "intervals[5]", "intervals[6]", "intervals[7]",
};

static int put_var(struct il_var *vars, int n, int max, const char *name, u64 value,
		   bool is_signed, bool diag)
{
	if (n < max)
		vars[n] = (struct il_var){ name, value, is_signed, diag };
	return n + 1;
}

static int menu_vars(const struct il_device *dev, struct il_var *vars, int max)
{
	const struct menu_cfg *cfg = menu_cfg_of(dev);
	const struct menu_device *data = dev->governor_data;
	int n = 0;

	if (cfg->units_us)
		n = put_var(vars, n, max, "last_state_idx", (u64)(s64)data->last_state_idx, true,
			    false);
	n = put_var(vars, n, max, "needs_update", (u64)(s64)data->needs_update, true, false);
	if (cfg->tick_aware)
		n = put_var(vars, n, max, "tick_wakeup", (u64)(s64)data->tick_wakeup, true, false);
	if (cfg->units_us) {
		n = put_var(vars, n, max, "next_timer_us", data->next_timer_us, false, false);
		n = put_var(vars, n, max, "predicted_us", data->predicted_us, false, false);
	} else {
		n = put_var(vars, n, max, "next_timer_ns", data->next_timer_ns, false, false);
	}
	n = put_var(vars, n, max, "bucket", data->bucket, false, false);
	for (int i = 0; i < menu_buckets(cfg); i++)
		n = put_var(vars, n, max, cf_names[i], data->correction_factor[i], false, false);
	for (int i = 0; i < (int)INTERVALS; i++)
		n = put_var(vars, n, max, interval_names[i], data->intervals[i], false, false);
	n = put_var(vars, n, max, "interval_ptr", (u64)(s64)data->interval_ptr, true, false);

	n = put_var(vars, n, max, "predicted_ns", (u64)data->diag.predicted_ns, true, true);
	n = put_var(vars, n, max, "typical_us", (u64)data->diag.typical_us, true, true);
	n = put_var(vars, n, max, "latency_req", (u64)data->diag.latency_req, true, true);
	n = put_var(vars, n, max, "timer_queried", data->diag.timer_queried, false, true);
	return n < max ? n : max;
}

/* What every version's struct il_governor has; select() and reflect() are its own. */
#define MENU_GOVERNOR_COMMON                                                           \
	.name = "menu", .rating = 20, .data_size = sizeof(struct menu_device),          \
	.enable = menu_enable_device, .vars = menu_vars

/* ---- versions ---------------------------------------------------------------------------- */

static const struct menu_cfg cfg_4_16 = {
	.units_us = true, .iowait_buckets = true, .typical = MENU_TI_A,
};

static const struct menu_cfg cfg_4_17 = {
	.units_us = true, .tick_aware = true, .iowait_buckets = true, .typical = MENU_TI_A,
};

/* 6.12 .. 6.16 share everything but get_typical_interval(). */
#define MENU_6_13_BASE                                                                \
	.tick_aware = true, .poll_override = MENU_POLL_LATENCY,                        \
	.stopped_rule = MENU_STOPPED_AFTER_SHORTCUT, .state_count_test = true

static const struct menu_cfg cfg_6_13 = { MENU_6_13_BASE, .typical = MENU_TI_B };
static const struct menu_cfg cfg_p2 = { MENU_6_13_BASE, .typical = MENU_TI_C2 };
static const struct menu_cfg cfg_p3 = { MENU_6_13_BASE, .typical = MENU_TI_C3 };
static const struct menu_cfg cfg_p4 = { MENU_6_13_BASE, .typical = MENU_TI_D };
static const struct menu_cfg cfg_p5 = {
	MENU_6_13_BASE, .typical = MENU_TI_D, .typical_return_max = true,
};

static const struct menu_cfg cfg_6_17 = {
	.tick_aware = true, .typical = MENU_TI_D, .typical_return_max = true,
	.uint_max_push = true, .latency_first = true, .poll_override = MENU_POLL_TIMER,
	.stopped_rule = MENU_STOPPED_AFTER_SHORTCUT, .state_count_test = true,
};

static const struct menu_cfg cfg_6_18 = {
	.tick_aware = true, .typical = MENU_TI_D, .uint_max_push = true, .latency_first = true,
	.poll_override = MENU_POLL_PREDICTED, .stopped_rule = MENU_STOPPED_AFTER_SHORTCUT,
	.state_count_test = true,
};

static const struct menu_cfg cfg_6_19 = {
	.tick_aware = true, .typical = MENU_TI_D, .uint_max_push = true, .latency_first = true,
	.poll_override = MENU_POLL_THRESHOLD, .stopped_rule = MENU_STOPPED_AFTER_SHORTCUT,
	.state_count_test = true,
};

static const struct menu_cfg cfg_7_0 = {
	.tick_aware = true, .typical = MENU_TI_D, .uint_max_push = true, .latency_first = true,
	.poll_override = MENU_POLL_THRESHOLD, .stopped_rule = MENU_STOPPED_IN_TIMER_PATH,
};

static const struct menu_cfg cfg_7_1 = {
	.tick_aware = true, .typical = MENU_TI_D, .uint_max_push = true, .latency_first = true,
	.poll_override = MENU_POLL_THRESHOLD, .stopped_rule = MENU_STOPPED_IN_TIMER_PATH,
	.safe_timer_range = true,
};

static const struct menu_cfg cfg_deb_6_1 = {
	.tick_aware = true, .iowait_buckets = true, .timer_first = true, .typical = MENU_TI_B1,
	.uint_max_push = true, .poll_override = MENU_POLL_LATENCY,
	.stopped_rule = MENU_STOPPED_AFTER_SHORTCUT, .state_count_test = true,
};

static const struct menu_cfg cfg_deb_6_12 = {
	.tick_aware = true, .typical = MENU_TI_B, .uint_max_push = true, .latency_first = true,
	.poll_override = MENU_POLL_THRESHOLD, .stopped_rule = MENU_STOPPED_IN_TIMER_PATH,
	.state_count_test = true,
};

/* v6.19.9's file (6.19 + the 80606f4eb8d7 backport), which 6.18.26 ... 6.18.35 carry too. */
static const struct menu_cfg cfg_6_19_9 = {
	.tick_aware = true, .typical = MENU_TI_D, .uint_max_push = true, .latency_first = true,
	.poll_override = MENU_POLL_THRESHOLD, .stopped_rule = MENU_STOPPED_IN_TIMER_PATH,
	.state_count_test = true,
};

/*
 * Each version's governor: its own menu_select() and menu_reflect(), compiled with its switches
 * as constants, so the tests of the rules the version does not have are gone, and the
 * simulator reaches them with one indirect call. 4.16 and 4.17 share menu_select_4_x().
 */
#define MENU_SELECT_OF(v)                                                               \
	static int menu_select_##v(struct il_driver *drv, struct il_device *dev,         \
				   bool *stop_tick)                                      \
	{                                                                               \
		return menu_select(&cfg_##v, drv, dev, stop_tick);                      \
	}
#define MENU_REFLECT_OF(v)                                                              \
	static void menu_reflect_##v(struct il_device *dev, int index)                  \
	{                                                                               \
		menu_reflect(&cfg_##v, dev, index);                                     \
	}
#define MENU_GOVERNOR_OF(v, select_fn)                                                  \
	MENU_REFLECT_OF(v)                                                              \
	static const struct il_governor menu_governor_##v = {                           \
		MENU_GOVERNOR_COMMON, .select = select_fn, .reflect = menu_reflect_##v, \
	};
#define MENU_VERSION(v) MENU_SELECT_OF(v) MENU_GOVERNOR_OF(v, menu_select_##v)

MENU_GOVERNOR_OF(4_16, menu_select_4_x)
MENU_GOVERNOR_OF(4_17, menu_select_4_x)
MENU_VERSION(6_13)
MENU_VERSION(p2)
MENU_VERSION(p3)
MENU_VERSION(p4)
MENU_VERSION(p5)
MENU_VERSION(6_17)
MENU_VERSION(6_18)
MENU_VERSION(6_19)
MENU_VERSION(7_0)
MENU_VERSION(7_1)
MENU_VERSION(deb_6_1)
MENU_VERSION(deb_6_12)
MENU_VERSION(6_19_9)

/* A preset row: the version's governor and its switches, named once. */
#define MENU_PRESET(name, v, ...) { name, &menu_governor_##v, __VA_ARGS__, &cfg_##v }

const struct il_preset il_presets_menu[] = {
	MENU_PRESET("menu-4.16", 4_16, IL_KV(4, 16, 0), &il_core_4_16, "v4.16",
	  "menu.c aa390404e85f (v4.16.13)",
	  "baseline: µs units, 12 iowait buckets, load multiplier, tick stopped before select"),
	MENU_PRESET("menu-4.17", 4_17, IL_KV(4, 17, 0), &il_core_4_17, "v4.17",
	  "menu.c 1bfe03ceb236",
	  "select decides on the tick (stop_tick, tick-wakeup update rule, 5ef499cd571c)"),
	MENU_PRESET("menu-6.13", 6_13, IL_KV(6, 13, 0), &il_core_6_13, "v6.13",
	  "menu.c 28363bfa3e4c (= v6.12, v6.14)",
	  "ns units, 6 buckets, no multiplier, timer read only above 15 us, in-loop polling "
	  "override"),
	MENU_PRESET("menu-1", 6_13, IL_KV(6, 14, 0), &il_core_6_13, "v6.14+1",
	  "menu.c b19406502b56 (d2cd195b57cf)",
	  "get_typical_interval: unused min dropped (no functional change)"),
	MENU_PRESET("menu-2", p2, IL_KV(6, 14, 0), &il_core_6_13, "v6.14+2",
	  "menu.c ec472af38de6 (13982929fb08)",
	  "get_typical_interval: one-pass average and variance (rounding differs)"),
	MENU_PRESET("menu-3", p3, IL_KV(6, 14, 0), &il_core_6_13, "v6.14+3",
	  "menu.c 680ff20e5528 (60256e458e1c)",
	  "get_typical_interval: keep samples below UINT_MAX at first, drop >= max on retry"),
	MENU_PRESET("menu-4", p4, IL_KV(6, 14, 0), &il_core_6_13, "v6.14+4",
	  "menu.c 48ebbde750e5 (8de7606f0fe2)",
	  "get_typical_interval: drop outliers on the farther end (low or high)"),
	MENU_PRESET("menu-5", p5, IL_KV(6, 14, 0), &il_core_6_13, "v6.14+5",
	  "menu.c 30ffb1f69056 (85975daeaa4d)",
	  "get_typical_interval: predict the max of the 4-6 samples left instead of nothing"),
	MENU_PRESET("menu-6.15", p5, IL_KV(6, 15, 0), &il_core_6_13, "v6.15",
	  "menu.c 39aa0aea61c6 (5c3504109996)", "= menu-5 (comment update only)"),
	MENU_PRESET("menu-6.16", p5, IL_KV(6, 16, 0), &il_core_6_13, "v6.16",
	  "menu.c 52d5d26fc7c6 (d4a7882f93bf)",
	  "bucket = BUCKETS - 1 when the timer is not read (same value)"),
	MENU_PRESET("menu-6.17", 6_17, IL_KV(6, 17, 0), &il_core_6_13, "v6.17",
	  "menu.c b2e3d0b0a116 (fa3fa55de0d6, 779b1a1cb13a)",
	  "UINT_MAX interval after a rejected entry; exit latency checked first, no clamp by "
	  "prediction"),
	MENU_PRESET("menu-6.18", 6_18, IL_KV(6, 18, 0), &il_core_6_13, "v6.18",
	  "menu.c 23239b0c04f9 (revert 85975daeaa4d, 17224c1d2574, db86f55bf81a)",
	  "no max prediction; polling override also needs exit latency <= prediction"),
	MENU_PRESET("menu-6.19", 6_19, IL_KV(6, 19, 0), &il_core_6_19, "v6.19",
	  "menu.c 64d6f7a1c776 (07d815701274)",
	  "polling override only for states with residency below 15 us"),
	MENU_PRESET("menu-7.0", 7_0, IL_KV(7, 0, 0), &il_core_7_0, "v7.0",
	  "menu.c 899ff16ff1fe (80606f4eb8d7)",
	  "timer read when the tick is stopped; no state_count <= 1 test"),
	MENU_PRESET("menu-7.1", 7_1, IL_KV(7, 1, 0), &il_core_7_0, "v7.1",
	  "menu.c 544a5d593007 (gov.h cd06a2e7b506)",
	  "stopped-tick override only for timers beyond SAFE_TIMER_RANGE_NS (2 ticks)"),
	MENU_PRESET("menu-6.1.192", deb_6_1, IL_KV(6, 1, 192), &il_core_debian_6_1,
	  "Debian 6.1.192",
	  "menu.c 2aa87ce37a90 (v6.1 c4922684f305 + fa3fa55de0d6)",
	  "Debian stable: 6.1 select (iowait, timer first, B1 typical) + UINT_MAX interval"),
	MENU_PRESET("menu-6.12.117", deb_6_12, IL_KV(6, 12, 117), &il_core_debian_6_12,
	  "Debian 6.12.117", "menu.c 0ce732345001 (v6.12 + 8 stable backports)",
	  "Debian stable: 6.19.9 select/update with the 6.13 get_typical_interval"),
	MENU_PRESET("menu-6.18.35", 6_19_9, IL_KV(6, 18, 35), &il_core_6_18_35,
	  "v6.18.35 (LTS)",
	  "menu.c ca863ba03d45 (= v6.19.9; 6.18.26 ... 6.18.35)",
	  "LTS stable: menu-6.19 + 80606f4eb8d7 (timer read with the tick stopped), 7.0 idle loop"),
	{ 0 },
};
