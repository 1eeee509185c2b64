// SPDX-License-Identifier: GPL-2.0-only
/*
 * ladder.c - port of the "ladder" cpuidle governor (drivers/cpuidle/governors/ladder.c).
 *
 * DOC: ladder
 *
 * Ladder climbs the state table one rung at a time, judging each rung only by how long the
 * CPU actually stayed idle the last time. It never looks at timers or the tick (it leaves
 * *stop_tick alone, so the idle loop always stops the tick when it can):
 *
 *  1. "first_idx" is 1 when state 0 is a polling state and 0 otherwise; ladder starts on it.
 *     Every state from first_idx on gets a "promotion time" (its exit latency; not for the
 *     deepest state) and a "demotion time" (its exit latency; not for first_idx), a promotion
 *     count of 4 and a demotion count of 1. States below first_idx are left all zero.
 *  2. On each select, a latency limit of 0 sends ladder to state 0 at once.
 *  3. Otherwise the last idle period net of the last state's exit latency ("last_residency")
 *     is compared with the thresholds of the last state. If the next deeper state is enabled
 *     and meets the latency limit, and last_residency exceeded the promotion time, the
 *     promotion counter grows (and the demotion counter resets); on reaching 4, ladder moves
 *     one state deeper.
 *  4. If the last state is now disabled or too slow for the latency limit, ladder drops to
 *     the deepest shallower state that meets the limit, searching down to first_idx + 1; if
 *     none does, it lands on first_idx without testing that one's latency.
 *  5. If last_residency fell short of the demotion time, the demotion counter grows (and the
 *     promotion counter resets); on reaching 1, ladder moves one state shallower.
 *  6. Moving resets both counters of the state it leaves. reflect() records the state really
 *     entered, but only when it is deeper than state 0.
 *
 * Integer semantics kept on purpose (kernel-governors.md §4): last_residency is signed but is
 * compared with unsigned thresholds (int against u32 in 4.x, s64 against u64 later), so an
 * idle period shorter than the exit latency counts as a huge one: it can promote and never
 * demotes. As the demotion time is the exit latency too, only periods between one and two
 * exit latencies of the current state demote. The zeroed data of states below first_idx
 * means that after a zero-latency selection of state 0, the next select promotes at once
 * (count 1 >= threshold 0, any residency > 0).
 *
 * Versions (one `struct ladder_cfg` switch):
 *  - v4.16.13 (blob 1ad8745fd6d6) and v4.17 (b24883f85c99, which only adds the unused
 *    stop_tick argument of the "stop the tick later" series): microsecond fields, the int
 *    last_residency of cpuidle_get_last_residency(), u32 thresholds, states[].disabled tested
 *    next to the per-CPU disable bit, the PM QoS request read directly, and ladder's own copy
 *    of last_state_idx in its per-CPU data.
 *  - v5.x+ (blob 6617eb494a11 in v6.10 … v7.1 and Debian 6.12.117; 8e9058c4ea63 in Debian
 *    6.1.192 differs by one kernel-doc line): nanosecond fields, last_residency_ns,
 *    cpuidle_governor_latency_req(), and dev->last_state_idx.
 *
 * The upstream governor is by Andy Grover, Paul Diefenbaugh, Dominik Brodowski, Venkatesh
 * Pallipadi, Shaohua Li and Adam Belay. This port is our own code, GPL-2.0-only.
 */
#include "governors.h"
#include "kcompat.h"
#include "util/array.h"

/* Long (short) idle periods needed in a row before moving one state deeper (shallower). */
#define PROMOTION_COUNT 4
#define DEMOTION_COUNT 1

struct ladder_cfg {
	/*
	 * 4.16/4.17: µs thresholds (u32) and last_residency (int), drv->states[].disabled,
	 * pm_qos_request() for the latency limit, and last_state_idx kept in ladder_device.
	 */
	bool usec;
};

struct ladder_device_state {
	struct {
		u32 promotion_count;
		u32 demotion_count;
		u64 promotion_time_ns; /* 5.x+ */
		u64 demotion_time_ns;  /* 5.x+ */
		u32 promotion_time;    /* 4.x, µs */
		u32 demotion_time;     /* 4.x, µs */
	} threshold;
	struct {
		int promotion_count;
		int demotion_count;
	} stats;
};

struct ladder_device {
	struct ladder_device_state states[CPUIDLE_STATE_MAX];
	int last_state_idx; /* 4.x only; 5.x+ keeps it in dev->last_state_idx */
	int nr_states;      /* not upstream: the driver's state_count at enable, for vars() */
};

static bool ladder_usec(const struct il_device *dev)
{
	return ((const struct ladder_cfg *)dev->preset->cfg)->usec;
}

/* Where the last selected index lives: ladder's own copy in 4.x, the device's later. */
static int *ladder_last_idx(struct il_device *dev)
{
	struct ladder_device *ldev = dev->governor_data;

	return ladder_usec(dev) ? &ldev->last_state_idx : &dev->last_state_idx;
}

static int ladder_first_idx(const struct il_driver *drv)
{
	return drv->states[0].flags & CPUIDLE_FLAG_POLLING ? 1 : 0;
}

/**
 * ladder_do_selection - leave @old_idx for @new_idx: clear the counters of the old state
 */
static void ladder_do_selection(struct il_device *dev, struct ladder_device *ldev, int old_idx,
				int new_idx)
{
	ldev->states[old_idx].stats.promotion_count = 0;
	ldev->states[old_idx].stats.demotion_count = 0;
	*ladder_last_idx(dev) = new_idx;
}

/* 4.x: the int µs PM QoS request; later the s64 ns limit. Either fits an s64. */
static s64 ladder_latency_req(const struct il_device *dev)
{
	if (ladder_usec(dev))
		return pm_qos_latency_req_4_x(dev);
	return cpuidle_governor_latency_req(dev);
}

/* 4.x compares an unsigned int exit latency with the int request: an unsigned comparison. */
static bool ladder_latency_ok(const struct il_device *dev, const struct il_state *s,
			      s64 latency_req)
{
	if (ladder_usec(dev))
		return s->exit_latency <= (unsigned int)(int)latency_req;
	return s->exit_latency_ns <= latency_req;
}

static bool ladder_state_disabled(const struct il_driver *drv, const struct il_device *dev, int i)
{
	if (ladder_usec(dev) && drv->states[i].disabled)
		return true;
	return dev->states_usage[i].disable != 0;
}

/*
 * The last idle period minus the exit latency of the state it was spent in. The subtraction is
 * unsigned in both eras (int - unsigned int, u64 - s64) and the result is stored as signed, so
 * a period shorter than the exit latency gives a negative value.
 */
static s64 ladder_last_residency(const struct il_driver *drv, const struct il_device *dev,
				 int last_idx)
{
	if (ladder_usec(dev))
		return (int)((unsigned int)dev->last_residency -
			     drv->states[last_idx].exit_latency);
	return (s64)(dev->last_residency_ns - (u64)drv->states[last_idx].exit_latency_ns);
}

/* last_residency > promotion time, compared unsigned as upstream (int/u32, s64/u64). */
static bool ladder_past_promotion_time(const struct il_device *dev,
				       const struct ladder_device_state *st, s64 last_residency)
{
	if (ladder_usec(dev))
		return (u32)last_residency > st->threshold.promotion_time;
	return (u64)last_residency > st->threshold.promotion_time_ns;
}

/* last_residency < demotion time, compared unsigned: a negative residency never demotes. */
static bool ladder_short_of_demotion_time(const struct il_device *dev,
					  const struct ladder_device_state *st, s64 last_residency)
{
	if (ladder_usec(dev))
		return (u32)last_residency < st->threshold.demotion_time;
	return (u64)last_residency < st->threshold.demotion_time_ns;
}

/**
 * ladder_select_state - pick the state for the coming idle period
 * @drv: the driver
 * @dev: the CPU
 * @dummy: the stop_tick hint (4.17+); ladder never writes it
 */
static int ladder_select_state(struct il_driver *drv, struct il_device *dev, bool *dummy)
{
	struct ladder_device *ldev = dev->governor_data;
	struct ladder_device_state *last_state;
	int last_idx = *ladder_last_idx(dev);
	int first_idx = ladder_first_idx(drv);
	s64 latency_req = ladder_latency_req(dev);
	s64 last_residency;

	/* No exit latency at all is tolerated: only state 0 will do. */
	if (latency_req == 0) {
		ladder_do_selection(dev, ldev, last_idx, 0);
		return 0;
	}

	last_state = &ldev->states[last_idx];
	last_residency = ladder_last_residency(drv, dev, last_idx);

	/* One more long period on this rung; enough of them in a row climb one rung. */
	if (last_idx < drv->state_count - 1 &&
	    !ladder_state_disabled(drv, dev, last_idx + 1) &&
	    ladder_past_promotion_time(dev, last_state, last_residency) &&
	    ladder_latency_ok(dev, &drv->states[last_idx + 1], latency_req)) {
		last_state->stats.promotion_count++;
		last_state->stats.demotion_count = 0;
		if ((u32)last_state->stats.promotion_count >=
		    last_state->threshold.promotion_count) {
			ladder_do_selection(dev, ldev, last_idx, last_idx + 1);
			return last_idx + 1;
		}
	}

	/* The current rung became unusable: drop to one the latency limit allows. */
	if (last_idx > first_idx &&
	    (ladder_state_disabled(drv, dev, last_idx) ||
	     !ladder_latency_ok(dev, &drv->states[last_idx], latency_req))) {
		int i;

		for (i = last_idx - 1; i > first_idx; i--) {
			if (ladder_latency_ok(dev, &drv->states[i], latency_req))
				break;
		}
		ladder_do_selection(dev, ldev, last_idx, i);
		return i;
	}

	/* A short period on this rung; enough of them (one) step down a rung. */
	if (last_idx > first_idx &&
	    ladder_short_of_demotion_time(dev, last_state, last_residency)) {
		last_state->stats.demotion_count++;
		last_state->stats.promotion_count = 0;
		if ((u32)last_state->stats.demotion_count >= last_state->threshold.demotion_count) {
			ladder_do_selection(dev, ldev, last_idx, last_idx - 1);
			return last_idx - 1;
		}
	}

	return last_idx;
}

/**
 * ladder_enable_device - start on first_idx and set the thresholds of first_idx and deeper
 */
static int ladder_enable_device(struct il_driver *drv, struct il_device *dev)
{
	struct ladder_device *ldev = dev->governor_data;
	int first_idx = ladder_first_idx(drv);

	*ladder_last_idx(dev) = first_idx;
	ldev->nr_states = drv->state_count;

	for (int i = first_idx; i < drv->state_count; i++) {
		const struct il_state *state = &drv->states[i];
		struct ladder_device_state *lstate = &ldev->states[i];

		lstate->stats.promotion_count = 0;
		lstate->stats.demotion_count = 0;

		lstate->threshold.promotion_count = PROMOTION_COUNT;
		lstate->threshold.demotion_count = DEMOTION_COUNT;

		if (i < drv->state_count - 1) {
			lstate->threshold.promotion_time = state->exit_latency;
			lstate->threshold.promotion_time_ns = (u64)state->exit_latency_ns;
		}
		if (i > first_idx) {
			lstate->threshold.demotion_time = state->exit_latency;
			lstate->threshold.demotion_time_ns = (u64)state->exit_latency_ns;
		}
	}
	return 0;
}

/**
 * ladder_reflect - remember the state really entered, unless it is state 0
 */
static void ladder_reflect(struct il_device *dev, int index)
{
	if (index > 0)
		*ladder_last_idx(dev) = index;
}

/* Field names of ladder_device_state, per state index, for vars(). */
#define LADDER_STATE_VARS(i)                                   \
	{                                                      \
		"states[" #i "].threshold.promotion_count",    \
		"states[" #i "].threshold.demotion_count",     \
		"states[" #i "].threshold.promotion_time",     \
		"states[" #i "].threshold.demotion_time",      \
		"states[" #i "].threshold.promotion_time_ns",  \
		"states[" #i "].threshold.demotion_time_ns",   \
		"states[" #i "].stats.promotion_count",        \
		"states[" #i "].stats.demotion_count",         \
	}

enum {
	LV_T_PROMO_COUNT,
	LV_T_DEMO_COUNT,
	LV_T_PROMO_TIME,
	LV_T_DEMO_TIME,
	LV_T_PROMO_TIME_NS,
	LV_T_DEMO_TIME_NS,
	LV_S_PROMO_COUNT,
	LV_S_DEMO_COUNT,
	LV_NR,
};

static const char *const ladder_var_names[][LV_NR] = {
	LADDER_STATE_VARS(0), LADDER_STATE_VARS(1), LADDER_STATE_VARS(2), LADDER_STATE_VARS(3),
	LADDER_STATE_VARS(4), LADDER_STATE_VARS(5), LADDER_STATE_VARS(6), LADDER_STATE_VARS(7),
	LADDER_STATE_VARS(8), LADDER_STATE_VARS(9),
};

_Static_assert(ARRAY_SIZE(ladder_var_names) == CPUIDLE_STATE_MAX,
	       "one set of ladder variable names per possible state");

static int ladder_put_var(struct il_var *vars, int n, int max, const char *name, u64 value,
			  bool is_signed)
{
	if (n >= max)
		return n;
	vars[n] = (struct il_var){ .name = name, .value = value, .is_signed = is_signed };
	return n + 1;
}

static int ladder_vars(const struct il_device *dev, struct il_var *vars, int max)
{
	const struct ladder_device *ldev = dev->governor_data;
	bool usec = ladder_usec(dev);
	int last_idx = usec ? ldev->last_state_idx : dev->last_state_idx;
	int n = 0;

	n = ladder_put_var(vars, n, max, "last_state_idx", (u64)(s64)last_idx, true);
	for (int i = 0; i < CPUIDLE_STATE_MAX && n < max; i++) {
		const struct ladder_device_state *st = &ldev->states[i];
		const char *const *name = ladder_var_names[i];

		if (i >= ldev->nr_states)
			break;
		n = ladder_put_var(vars, n, max, name[LV_T_PROMO_COUNT],
				   st->threshold.promotion_count, false);
		n = ladder_put_var(vars, n, max, name[LV_T_DEMO_COUNT],
				   st->threshold.demotion_count, false);
		if (usec) {
			n = ladder_put_var(vars, n, max, name[LV_T_PROMO_TIME],
					   st->threshold.promotion_time, false);
			n = ladder_put_var(vars, n, max, name[LV_T_DEMO_TIME],
					   st->threshold.demotion_time, false);
		} else {
			n = ladder_put_var(vars, n, max, name[LV_T_PROMO_TIME_NS],
					   st->threshold.promotion_time_ns, false);
			n = ladder_put_var(vars, n, max, name[LV_T_DEMO_TIME_NS],
					   st->threshold.demotion_time_ns, false);
		}
		n = ladder_put_var(vars, n, max, name[LV_S_PROMO_COUNT],
				   (u64)(s64)st->stats.promotion_count, true);
		n = ladder_put_var(vars, n, max, name[LV_S_DEMO_COUNT],
				   (u64)(s64)st->stats.demotion_count, true);
	}
	return n;
}

static const struct il_governor ladder_governor = {
	.name = "ladder",
	.rating = 10, /* the kernel raises it to 25 when nohz is off */
	.data_size = sizeof(struct ladder_device),
	.enable = ladder_enable_device,
	.select = ladder_select_state,
	.reflect = ladder_reflect,
	.vars = ladder_vars,
};

static const struct ladder_cfg ladder_cfg_4_x = { .usec = true };
static const struct ladder_cfg ladder_cfg_ns = { .usec = false };

const struct il_preset il_presets_ladder[] = {
	{
		.name = "ladder-4.16",
		.gov = &ladder_governor,
		.kver = IL_KV(4, 16, 13),
		.core = &il_core_4_16,
		.kernel = "v4.16.13",
		.upstream = "ladder.c 1ad8745fd6d6",
		.changes = "first ladder: µs thresholds, pm_qos_request(), per-CPU last_state_idx",
		.cfg = &ladder_cfg_4_x,
	},
	{
		.name = "ladder-4.17",
		.gov = &ladder_governor,
		.kver = IL_KV(4, 17, 0),
		.core = &il_core_4_17,
		.kernel = "v4.17",
		.upstream = "ladder.c b24883f85c99 (\"stop the tick later\" series)",
		.changes = "select() takes the stop_tick hint and ignores it; 4.17 idle loop",
		.cfg = &ladder_cfg_4_x,
	},
	{
		.name = "ladder-6.13",
		.gov = &ladder_governor,
		.kver = IL_KV(6, 13, 0),
		.core = &il_core_6_13,
		.kernel = "v6.13",
		.upstream = "ladder.c 6617eb494a11 (same blob v6.10 ... v7.1)",
		.changes = "ns thresholds (u64), s64 last_residency_ns, latency_req(), "
			   "dev->last_state_idx",
		.cfg = &ladder_cfg_ns,
	},
	{
		.name = "ladder-7.1",
		.gov = &ladder_governor,
		.kver = IL_KV(7, 1, 0),
		.core = &il_core_7_0,
		.kernel = "v7.1",
		.upstream = "ladder.c 6617eb494a11 (unchanged since v6.10)",
		.changes = "same file; only the framework moves on (7.0 idle loop, wakeup QoS)",
		.cfg = &ladder_cfg_ns,
	},
	{
		.name = "ladder-6.1.192",
		.gov = &ladder_governor,
		.kver = IL_KV(6, 1, 192),
		.core = &il_core_debian_6_1,
		.kernel = "Debian 6.1.192-3",
		.upstream = "ladder.c 8e9058c4ea63 (Debian linux-source-6.1)",
		.changes = "one kernel-doc line less than 6617eb494a11, same code; 6.13 QoS body",
		.cfg = &ladder_cfg_ns,
	},
	{
		.name = "ladder-6.12.117",
		.gov = &ladder_governor,
		.kver = IL_KV(6, 12, 117),
		.core = &il_core_debian_6_12,
		.kernel = "Debian 6.12.117-1~deb12u1",
		.upstream = "ladder.c 6617eb494a11 (Debian linux-source-6.12)",
		.changes = "the mainline 6.10+ file, on Debian 6.12's framework (7.0 idle loop)",
		.cfg = &ladder_cfg_ns,
	},
	{
		.name = "ladder-6.18.35",
		.gov = &ladder_governor,
		.kver = IL_KV(6, 18, 35),
		.core = &il_core_6_18_35,
		.kernel = "v6.18.35 (LTS)",
		.upstream = "ladder.c 6617eb494a11 (6.18.26 ... 6.18.35)",
		.changes =
			"the mainline 6.10+ file, on 6.18.35's framework (7.0 idle loop, 6.13 QoS)",
		.cfg = &ladder_cfg_ns,
	},
	{ 0 }
};
