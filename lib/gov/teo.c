// SPDX-License-Identifier: GPL-2.0-only
/*
 * teo.c - the Timer Events Oriented (TEO) cpuidle governor, every version idlelab models.
 *
 * The teo governor was designed and written by Rafael J. Wysocki (Intel); later versions carry
 * work by Christian Loehle, Kajetan Puchalski and others on linux-pm. This file is our own
 * re-implementation of their algorithm. It follows the upstream drivers/cpuidle/governors/teo.c
 * files below (git blob prefixes of the file; commits where known), keeping the upstream
 * function names, control flow and integer types so that each version difference is a switch
 * in struct teo_cfg and an upstream change maps onto a small diff here:
 *
 *	teo-6.13	v6.13.7 teo.c 173ddcac540a (= v6.12.11 after the comment update)
 *	teo-6.14	v6.14 teo.c 8fe5e1b47ef9 (the Jan-2025 cleanups / frequent wakeups series)
 *	teo-6.17	v6.17 = v6.18.2 teo.c bfa55c1eab5b (comment typos only against 6.14)
 *	teo-6.19	v6.19.9 teo.c 81ac5fd58a1c (the pm-6.19 teo series)
 *	teo-7.0		v7.0 teo.c bec0142377b8
 *	teo-7.1		v7.1.5 teo.c ac43b9b013b3, gov.h cd06a2e7b506 (SAFE_TIMER_RANGE_NS)
 *	teo-6.1.192	Debian linux-source-6.1 teo.c d9262db79cae (= mainline v6.1, pre-6.3 design)
 *	teo-6.12.117	Debian linux-source-6.12 teo.c 520aa466c2e7 (= teo-6.13 + a03b2011808a)
 *	teo-6.18.35	6.18.26 ... 6.18.35 LTS teo.c 8078eca72ca5 (= teo-6.17 without the
 *			teo_state_ok() guard around the post-query
 *			teo_find_shallower_state())
 *
 * DOC: how teo chooses an idle state
 *
 * teo trusts the next timer: if nothing else happens, the CPU sleeps until then. What it learns
 * is how often something else (an interrupt, an IPI) ends the sleep earlier.
 *
 *  1. "Bins". Bin i stands for idle durations from the target residency of state i up to (not
 *     including) that of state i + 1; the deepest bin is open-ended. Each bin keeps two
 *     decaying counters: "hits" (the CPU woke up in the bin where its "sleep length", the time
 *     to the next timer, said it would) and "intercepts" (it woke up in a shallower bin than
 *     the sleep length's). Every update first decays each counter by 1/8 (m -= m >> 3; from
 *     6.19 a counter whose eighth is 0 drops to 0), then adds PULSE (1024) to one of them.
 *
 *  2. Update (run lazily at the next select, like menu). The "measured" idle duration is the
 *     last residency minus half the exit latency of the state that was entered (or half the
 *     residency if that is shorter than the exit latency). idx_timer is the deepest bin whose
 *     state fits the saved sleep length, idx_duration the deepest one that also fits the
 *     measured time. Equal bins are a hit on idx_timer, otherwise an intercept on idx_duration.
 *     Wakeups that are known not to say anything about the workload (the poll-state time
 *     limit, a tick that fired while a far timer was pending) are treated as "slept the full
 *     sleep length". Versions differ in how they spot such wakeups and in extra counters:
 *     6.13's hits-only "tick bin", 6.14's short_idles and tick_intercepts, 6.19's total_tick.
 *
 *  3. Select. The candidate is the deepest enabled state (the deepest one that fits the sleep
 *     length in 6.1). If the intercepts of the bins below it outweigh the hits and intercepts
 *     of its own bin and everything deeper (2 * intercepts_below > total - hits_below), the CPU
 *     usually wakes up early, so walk down to the deepest state whose own and shallower bins
 *     hold more than half of those intercepts. Then clamp to the deepest state whose exit
 *     latency meets the PM QoS limit ("constraint_idx").
 *
 *  4. Timer check. Unless the choice is shallow enough that the timer cannot matter (6.14+:
 *     and short idle periods dominate, or the QoS limit is tiny), read the sleep length and
 *     step down to the deepest enabled state that fits before the timer.
 *
 *  5. Tick. Keep the scheduler tick running when the chosen state is a polling one or the
 *     expected idle time is below a tick, including when intercepts within the tick length
 *     dominate; then cap the state by the time to the next tick (delta_tick).
 *
 * teo-6.1.192 is the older design (update and select of their own below): the sleep length is
 * read first and bounds the candidate, a ring of the last NR_RECENT wakeups adds a second
 * "early wakeup" trigger ("recent" counts per bin), and an intercept-driven choice replaces the
 * expected idle time by the middle of the chosen state's bin.
 *
 * Integer semantics are the kernel's on purpose: TICK_NSEC is a signed long, measured_ns is a
 * u64 up to 6.18 (so comparing it with an s64 target residency is an unsigned comparison) and
 * an s64 from 6.19, sums of counters are unsigned int and may wrap, and `sleep_length_ns -
 * measured_ns` in 7.x is an s64 subtraction that wraps (-fno-strict-overflow, -fwrapv).
 */
#include <string.h>

#include "governors.h"
#include "kcompat.h"

/* Growth of a metric on an event, and its decay per update (by 1/2^DECAY_SHIFT). */
#define PULSE 1024
#define DECAY_SHIFT 3

/* gov.h: candidates shallower than this (ns) make the timer check optional. */
#define RESIDENCY_THRESHOLD_NS (15 * NSEC_PER_USEC)
/* 6.14+: a QoS limit below this (ns) forces shallow states, so the timer need not be read. */
#define LATENCY_THRESHOLD_NS (RESIDENCY_THRESHOLD_NS / 2)
/* 6.1: how many of the latest wakeups the "recent" intercept history covers. */
#define NR_RECENT 9

/* Which counter the keep-tick test compares with the total. */
enum teo_tick_icpt {
	TEO_TICK_ICPT_SUM,     /* 6.13: tick_intercept_sum, all intercepts, summed at select */
	TEO_TICK_ICPT_GE_TICK, /* 6.14-6.18: counted when measured >= TICK_NSEC (inverted test) */
	TEO_TICK_ICPT_LE_TICK, /* 6.19+: counted when measured <= TICK_NSEC */
};

/* The version switches; one instance per preset, see il_presets_teo[] at the end. */
struct teo_cfg {
	/* 6.1: the pre-6.3 design with the "recent" ring (teo_update_6_1/teo_select_6_1). */
	bool recent_ring;
	/* 6.13, 6.12.117, 6.1: reflect measures the time since select with local_clock(). */
	bool time_span;
	/* 6.13: extra hits-only bin past the deepest state when its residency is < TICK_NSEC. */
	bool tick_hits;
	/* 6.14-6.18: reflect flags safety-net wakeups in artificial_wakeup. */
	bool artificial_wakeup;
	/* 6.14-6.18: total decays and grows like a metric instead of being recomputed. */
	bool running_total;
	/* 6.14+: short_idles metric, and the skip-the-timer rule built on it. */
	bool short_idles;
	enum teo_tick_icpt tick_intercepts;
	/*
	 * 6.19+: reflect records got_tick in tick_wakeup, update handles poll_time_limit and
	 * counts total_tick; measured_ns and lat_ns become s64; teo_decay() drops small metrics
	 * to 0; teo_state_ok() is gone.
	 */
	bool rework_6_19;
	/* 7.0+: a tick wakeup without frequent tick-range intercepts is a hit on idx_timer. */
	bool tick_wakeup_hit;
	/* 7.0+: a hit also needs sleep_length_ns - measured_ns < lat_ns / 2. */
	bool hit_near_timer;
	/* <= 6.19: select returns state 0 with the tick kept when state_count < 2. */
	bool single_state_exit;
	/* 6.13: query the sleep length when the intercept search itself ended at state 0. */
	bool query_if_search_gave_0;
	/* 6.13-6.18: the intercept search uses teo_state_ok() and first_suitable_idx. */
	bool search_state_ok;
	/* 6.19, 7.0: with the tick stopped the search stops at the first state >= TICK_NSEC. */
	bool search_min_idx;
	/* 7.0+: the search stops only at or below the bin with the most intercepts. */
	bool intercept_max;
	/* 7.0: shortcuts around the search (same residency as candidate, min_idx >= max). */
	bool intercept_max_shortcuts;
	/* 6.13-6.18 (not 6.12.117): teo_state_ok() filters the post-query shallower state. */
	bool state_ok_after_query;
	/* 7.0+: keep the tick if 3 * tick_intercepts >= 2 * total (else > total/2 + total/8). */
	bool keep_tick_two_thirds;
	/* 7.1: with the tick stopped, query always and apply SAFE_TIMER_RANGE_NS. */
	bool stopped_tick_rule;
};

struct teo_bin {
	unsigned int intercepts;
	unsigned int hits;
	unsigned int recent; /* 6.1 only */
};

/* Values of the last update and select, for `idlelab step` (not upstream fields). */
struct teo_diag {
	/* teo_update() */
	u64 measured_ns; /* bits; s64 from 6.19 */
	int idx_timer;
	int idx_duration;
	/* teo_select(), reset by teo_diag_select_reset() */
	int candidate_idx; /* deepest enabled (6.1: fitting) state before the intercept search */
	int idx0;
	int constraint_idx;
	int intercept_max_idx;
	s64 duration_ns; /* -1 when the select never computed it */
	s64 delta_tick;
	bool timer_queried;
};

/* The union of every version's struct teo_cpu; vars() shows each version its own fields. */
struct teo_cpu {
	s64 time_span_ns;
	s64 sleep_length_ns;
	struct teo_bin state_bins[CPUIDLE_STATE_MAX];
	unsigned int total;
	unsigned int tick_hits;
	unsigned int total_tick;
	unsigned int tick_intercepts;
	unsigned int short_idles;
	bool artificial_wakeup;
	bool tick_wakeup;
	int next_recent_idx;
	int recent_idx[NR_RECENT];
	/* Not upstream: the driver's state count (vars() sees only the device), and diagnostics. */
	int state_count;
	struct teo_diag diag;
};

static const struct teo_cfg *teo_cfg(const struct il_device *dev)
{
	return dev->preset->cfg;
}

/*
 * TICK_NSEC is a signed long in the kernel: comparisons with it are signed unless the other
 * side is a u64.
 */
static s64 teo_tick_nsec(const struct il_device *dev)
{
	return (s64)tick_nsec(dev);
}

static bool teo_disabled(const struct il_device *dev, int i)
{
	return dev->states_usage[i].disable != 0;
}

/* Decay a metric by 1/8; from 6.19 (teo_decay()) a metric below 8 drops to 0 at once. */
static void teo_decay(const struct teo_cfg *cfg, unsigned int *metric)
{
	unsigned int delta = *metric >> DECAY_SHIFT;

	if (delta || !cfg->rework_6_19)
		*metric -= delta;
	else
		*metric = 0;
}

/* ---- update ---------------------------------------------------------------------------- */

/*
 * Whether the last wakeup is to count as "slept the whole sleep length".
 * 6.13, 6.12.117 and 6.1: reflect put the sleep length into time_span_ns for a safety-net wakeup,
 * and a real time span that reached the sleep length (a wakeup by the timer itself or later)
 * is discarded the same way. 6.14-6.18: reflect's artificial_wakeup. 6.19+: only a poll-state
 * time limit, cleared here instead of in reflect.
 */
static bool teo_wakeup_is_artificial(const struct teo_cfg *cfg, struct il_device *dev,
				     const struct teo_cpu *cpu_data)
{
	if (cfg->time_span)
		return cpu_data->time_span_ns >= cpu_data->sleep_length_ns;
	if (cfg->artificial_wakeup)
		return cpu_data->artificial_wakeup;
	if (!dev->poll_time_limit)
		return false;
	dev->poll_time_limit = false;
	return true;
}

/*
 * Residency net of half the exit latency (the exit is rarely worst-case), as u64 up to 6.18;
 * 6.14+ also count short idle periods.
 */
static u64 teo_measured_u64(const struct teo_cfg *cfg, struct teo_cpu *cpu_data, u64 residency_ns,
			    u64 lat_ns)
{
	u64 measured_ns = residency_ns;

	if (measured_ns >= lat_ns) {
		measured_ns -= lat_ns / 2;
		if (cfg->short_idles && measured_ns < (u64)RESIDENCY_THRESHOLD_NS)
			cpu_data->short_idles += PULSE;
	} else {
		measured_ns /= 2;
		if (cfg->short_idles)
			cpu_data->short_idles += PULSE;
	}
	return measured_ns;
}

/* The same in 6.19+ ("Use s64 consistently in teo_update()"). */
static s64 teo_measured_s64(struct teo_cpu *cpu_data, s64 residency_ns, s64 lat_ns)
{
	s64 measured_ns = residency_ns;

	if (measured_ns >= lat_ns) {
		measured_ns -= lat_ns / 2;
		if (measured_ns < RESIDENCY_THRESHOLD_NS)
			cpu_data->short_idles += PULSE;
	} else {
		measured_ns /= 2;
		cpu_data->short_idles += PULSE;
	}
	return measured_ns;
}

/* The measured idle duration as bits: a u64 up to 6.18, an s64 from 6.19. */
static u64 teo_measured_ns(const struct teo_cfg *cfg, struct il_device *dev,
			   struct teo_cpu *cpu_data, s64 lat_ns)
{
	if (teo_wakeup_is_artificial(cfg, dev, cpu_data))
		return cfg->rework_6_19 ? (u64)S64_MAX : U64_MAX;
	if (cfg->rework_6_19)
		return (u64)teo_measured_s64(cpu_data, (s64)dev->last_residency_ns, lat_ns);
	return teo_measured_u64(cfg, cpu_data, dev->last_residency_ns, (u64)lat_ns);
}

/* "target_residency_ns <= measured_ns": unsigned up to 6.18 (u64 measured), signed after. */
static bool teo_fits_measured(const struct teo_cfg *cfg, s64 target_residency_ns, u64 measured_ns)
{
	if (cfg->rework_6_19)
		return target_residency_ns <= (s64)measured_ns;
	return (u64)target_residency_ns <= measured_ns;
}

/*
 * Decay every bin and find the bins of the sleep length (idx_timer) and of the measured time
 * (idx_duration). Return the sum of the decayed metrics; *last_tr_ns gets the deepest state's
 * target residency (6.13 reads it for the tick bin).
 */
static unsigned int teo_decay_and_classify(const struct il_driver *drv, const struct il_device *dev,
					   struct teo_cpu *cpu_data, u64 measured_ns,
					   int *idx_timer, int *idx_duration, s64 *last_tr_ns)
{
	const struct teo_cfg *cfg = teo_cfg(dev);
	unsigned int total = 0;

	for (int i = 0; i < drv->state_count; i++) {
		struct teo_bin *bin = &cpu_data->state_bins[i];
		s64 target_residency_ns = drv->states[i].target_residency_ns;

		teo_decay(cfg, &bin->hits);
		total += bin->hits;
		teo_decay(cfg, &bin->intercepts);
		total += bin->intercepts;

		if (target_residency_ns <= cpu_data->sleep_length_ns) {
			*idx_timer = i;
			if (teo_fits_measured(cfg, target_residency_ns, measured_ns))
				*idx_duration = i;
		}
		*last_tr_ns = target_residency_ns;
	}
	return total;
}

/*
 * 6.19+: a wakeup by the tick. If tick wakeups dominate, count a hit on the deepest bin so the
 * tick gets stopped more often; 7.0+: if intercepts within a tick are rare, the tick most
 * likely fired in place of an expected intercept, so count a hit on the timer's bin.
 * Return: true if the wakeup has been counted.
 */
static bool teo_count_tick_wakeup(const struct teo_cfg *cfg, const struct il_driver *drv,
				  struct teo_cpu *cpu_data, unsigned int total, int idx_timer)
{
	cpu_data->total_tick += PULSE;
	if (3 * cpu_data->total_tick > 2 * cpu_data->total) {
		cpu_data->state_bins[drv->state_count - 1].hits += PULSE;
		return true;
	}
	if (cfg->tick_wakeup_hit && 3 * cpu_data->tick_intercepts < 2 * total) {
		cpu_data->state_bins[idx_timer].hits += PULSE;
		return true;
	}
	return false;
}

/* Hit on the timer's bin, or intercept on the measured time's bin (+ tick_intercepts). */
static void teo_count_hit_or_intercept(const struct teo_cfg *cfg, const struct il_device *dev,
				       struct teo_cpu *cpu_data, u64 measured_ns, s64 lat_ns,
				       int idx_timer, int idx_duration)
{
	s64 tick_ns = teo_tick_nsec(dev);
	bool hit = idx_timer == idx_duration;

	/* 7.0+: the wakeup must also come no earlier than lat/2 before the timer (s64, wraps). */
	if (hit && cfg->hit_near_timer)
		hit = cpu_data->sleep_length_ns - (s64)measured_ns < lat_ns / 2;

	if (hit) {
		cpu_data->state_bins[idx_timer].hits += PULSE;
		return;
	}
	cpu_data->state_bins[idx_duration].intercepts += PULSE;
	if (cfg->tick_intercepts == TEO_TICK_ICPT_GE_TICK && (u64)tick_ns <= measured_ns)
		cpu_data->tick_intercepts += PULSE;
	else if (cfg->tick_intercepts == TEO_TICK_ICPT_LE_TICK && (s64)measured_ns <= tick_ns)
		cpu_data->tick_intercepts += PULSE;
}

/**
 * teo_update - fold the last wakeup into the metrics (6.13 ... 7.1)
 * @drv: the driver
 * @dev: the CPU; dev->last_state_idx is the state that was entered
 */
static void teo_update(struct il_driver *drv, struct il_device *dev)
{
	const struct teo_cfg *cfg = teo_cfg(dev);
	struct teo_cpu *cpu_data = dev->governor_data;
	s64 lat_ns = drv->states[dev->last_state_idx].exit_latency_ns;
	s64 tick_ns = teo_tick_nsec(dev);
	int idx_timer = 0, idx_duration = 0;
	s64 target_residency_ns = 0;
	unsigned int total;
	u64 measured_ns;

	if (cfg->short_idles)
		teo_decay(cfg, &cpu_data->short_idles);

	measured_ns = teo_measured_ns(cfg, dev, cpu_data, lat_ns);
	total = teo_decay_and_classify(drv, dev, cpu_data, measured_ns, &idx_timer, &idx_duration,
				       &target_residency_ns);
	cpu_data->diag.measured_ns = measured_ns;

	if (cfg->tick_hits && target_residency_ns < tick_ns) {
		/* 6.13: the deepest bin ends at the tick; longer timer sleeps go to tick_hits. */
		teo_decay(cfg, &cpu_data->tick_hits);
		total += cpu_data->tick_hits;
		if (tick_ns <= cpu_data->sleep_length_ns) {
			idx_timer = drv->state_count;
			if ((u64)tick_ns <= measured_ns) {
				cpu_data->tick_hits += PULSE;
				goto end;
			}
		}
	}

	/* 6.19+: the total is the fresh sum plus this wakeup, before the tick-wakeup test. */
	if (cfg->rework_6_19)
		cpu_data->total = total + PULSE;
	if (cfg->tick_intercepts != TEO_TICK_ICPT_SUM)
		teo_decay(cfg, &cpu_data->tick_intercepts);
	if (cfg->rework_6_19) {
		teo_decay(cfg, &cpu_data->total_tick);
		if (cpu_data->tick_wakeup &&
		    teo_count_tick_wakeup(cfg, drv, cpu_data, total, idx_timer))
			goto end;
	}

	teo_count_hit_or_intercept(cfg, dev, cpu_data, measured_ns, lat_ns, idx_timer,
				   idx_duration);
end:
	cpu_data->diag.idx_timer = idx_timer;
	cpu_data->diag.idx_duration = idx_duration;
	if (cfg->running_total) {
		cpu_data->total -= cpu_data->total >> DECAY_SHIFT;
		cpu_data->total += PULSE;
	} else if (!cfg->rework_6_19) {
		cpu_data->total = total + PULSE;
	}
}

/* ---- select ---------------------------------------------------------------------------- */

/* 6.13-6.18: whether state @i can serve an idle period that a stopped tick will not end. */
static bool teo_state_ok(int i, const struct il_driver *drv, const struct il_device *dev)
{
	return !tick_nohz_tick_stopped(dev) ||
	       drv->states[i].target_residency_ns >= teo_tick_nsec(dev);
}

/**
 * teo_find_shallower_state - the deepest enabled state below @state_idx fitting @duration_ns
 * @drv: the driver
 * @dev: the CPU
 * @state_idx: the state to start below
 * @duration_ns: idle time to fit (signed comparison)
 *
 * Upstream 6.13-6.18 also take a no_poll flag that every caller passes as false; it is left out.
 * Return: that state, else the shallowest enabled state below @state_idx, else @state_idx.
 */
static int teo_find_shallower_state(const struct il_driver *drv, const struct il_device *dev,
				    int state_idx, s64 duration_ns)
{
	for (int i = state_idx - 1; i >= 0; i--) {
		if (teo_disabled(dev, i))
			continue;
		state_idx = i;
		if (drv->states[i].target_residency_ns <= duration_ns)
			break;
	}
	return state_idx;
}

/* Read the sleep length; teo_update() classifies the next wakeup against it. */
static s64 teo_sleep_length(struct il_device *dev, struct teo_cpu *cpu_data, ktime_t *delta_tick)
{
	s64 duration_ns = tick_nohz_get_sleep_length(dev, delta_tick);

	cpu_data->sleep_length_ns = duration_ns;
	cpu_data->diag.timer_queried = true;
	return duration_ns;
}

/*
 * 6.13-6.18 intercept search: the deepest state below @idx whose bin and the shallower
 * ones hold more than half of @idx_intercept_sum; with the tick stopped, states shorter than a
 * tick are not usable and the first usable deeper one ("first_suitable_idx") stands in.
 */
static int teo_search_state_ok(const struct il_driver *drv, const struct il_device *dev,
			       const struct teo_cpu *cpu_data, int idx,
			       unsigned int idx_intercept_sum)
{
	int first_suitable_idx = idx;
	unsigned int intercept_sum = 0;

	for (int i = idx - 1; i >= 0; i--) {
		intercept_sum += cpu_data->state_bins[i].intercepts;

		if (2 * intercept_sum > idx_intercept_sum) {
			if (teo_state_ok(i, drv, dev) && !teo_disabled(dev, i))
				return i;
			return first_suitable_idx;
		}
		if (teo_disabled(dev, i))
			continue;
		if (teo_state_ok(i, drv, dev)) {
			first_suitable_idx = i;
			continue;
		}
		/* Too shallow; everything further down is shallower still. */
		if (first_suitable_idx == idx)
			break;
	}
	return idx;
}

/*
 * 6.19+ intercept search: walk down from @idx, taking each enabled state, until the bins
 * walked hold more than half of @idx_intercept_sum (7.0+: and the walk has reached the bin
 * with the most intercepts). 6.19 and 7.0 do not go below the first state of at least a tick
 * when the tick is stopped; 7.0 also has two shortcuts.
 */
static int teo_search_min_idx(const struct il_driver *drv, const struct il_device *dev,
			      const struct teo_cpu *cpu_data, int idx, int idx0,
			      unsigned int idx_intercept_sum, int intercept_max_idx)
{
	const struct teo_cfg *cfg = teo_cfg(dev);
	unsigned int intercept_sum = 0;
	int min_idx = idx0;

	if (cfg->search_min_idx && tick_nohz_tick_stopped(dev)) {
		while (min_idx < idx &&
		       drv->states[min_idx].target_residency_ns < teo_tick_nsec(dev))
			min_idx++;
		/* 7.0: a shallower state with the same residency would gain nothing. */
		if (cfg->intercept_max_shortcuts && drv->states[min_idx].target_residency_ns ==
							    drv->states[idx].target_residency_ns)
			return idx;
	}
	/* 7.0: the most intercepted bin is at or below the floor; take the floor. */
	if (cfg->intercept_max_shortcuts && min_idx >= intercept_max_idx &&
	    !teo_disabled(dev, min_idx))
		return min_idx;

	for (int i = idx - 1; i >= min_idx; i--) {
		intercept_sum += cpu_data->state_bins[i].intercepts;
		if (teo_disabled(dev, i))
			continue;
		idx = i;
		if (2 * intercept_sum > idx_intercept_sum &&
		    (!cfg->intercept_max || i <= intercept_max_idx))
			break;
	}
	return idx;
}

/*
 * Whether the timer query can be skipped for the clamped candidate @idx.
 * 6.13: state 0, or a candidate below 15 µs when state 0 polls.
 * 6.14+: state 0 or below 15 µs, and short idle periods dominate or QoS is below 7.5 µs.
 * 7.1: never with the tick stopped.
 */
static bool teo_skip_timer_query(const struct il_driver *drv, const struct il_device *dev,
				 const struct teo_cpu *cpu_data, int idx, s64 latency_req)
{
	const struct teo_cfg *cfg = teo_cfg(dev);
	bool shallow = drv->states[idx].target_residency_ns < RESIDENCY_THRESHOLD_NS;

	if (!cfg->short_idles)
		return !idx || ((drv->states[0].flags & CPUIDLE_FLAG_POLLING) && shallow);
	if (cfg->stopped_tick_rule && tick_nohz_tick_stopped(dev))
		return false;
	return (!idx || shallow) &&
	       (2 * cpu_data->short_idles >= cpu_data->total || latency_req < LATENCY_THRESHOLD_NS);
}

/*
 * 7.1: the tick is stopped and the next timer is far away, so a shallow state could be stuck
 * for long; take the deepest enabled QoS-allowed state that fits the sleep length.
 */
static int teo_far_timer_state(const struct il_driver *drv, const struct il_device *dev,
			       int idx, int constraint_idx, s64 duration_ns)
{
	for (int i = constraint_idx; i > idx; i--) {
		if (teo_disabled(dev, i))
			continue;
		if (drv->states[i].target_residency_ns <= duration_ns)
			return i;
	}
	return idx;
}

/* Whether tick-range intercepts are frequent enough to keep the tick running. */
static bool teo_tick_intercepts_dominate(const struct teo_cfg *cfg, const struct teo_cpu *cpu_data,
					 unsigned int tick_intercept_sum)
{
	unsigned int total = cpu_data->total;

	if (cfg->keep_tick_two_thirds)
		return 3 * cpu_data->tick_intercepts >= 2 * total;
	if (cfg->tick_intercepts == TEO_TICK_ICPT_SUM)
		return tick_intercept_sum > total / 2 + total / 8;
	return cpu_data->tick_intercepts > total / 2 + total / 8;
}

static void teo_diag_select_reset(struct teo_cpu *cpu_data, s64 delta_tick)
{
	struct teo_diag *d = &cpu_data->diag;

	d->candidate_idx = -1;
	d->idx0 = 0;
	d->constraint_idx = 0;
	d->intercept_max_idx = -1;
	d->duration_ns = -1;
	d->delta_tick = delta_tick;
	d->timer_queried = false;
}

static void teo_diag_select_first_pass(struct teo_cpu *cpu_data, int idx, int idx0,
				       int constraint_idx, int intercept_max_idx)
{
	struct teo_diag *d = &cpu_data->diag;

	d->candidate_idx = idx;
	d->idx0 = idx0;
	d->constraint_idx = constraint_idx;
	d->intercept_max_idx = intercept_max_idx;
}

static void teo_diag_select_end(struct teo_cpu *cpu_data, s64 duration_ns, s64 delta_tick)
{
	cpu_data->diag.duration_ns = duration_ns;
	cpu_data->diag.delta_tick = delta_tick;
}

/**
 * teo_select - choose the idle state for the coming idle period (6.13 ... 7.1)
 * @drv: the driver
 * @dev: the CPU
 * @stop_tick: set to false when the scheduler tick should keep running
 *
 * Return: the index of the selected state.
 */
static int teo_select(struct il_driver *drv, struct il_device *dev, bool *stop_tick)
{
	const struct teo_cfg *cfg = teo_cfg(dev);
	struct teo_cpu *cpu_data = dev->governor_data;
	s64 latency_req = cpuidle_governor_latency_req(dev);
	s64 tick_ns = teo_tick_nsec(dev);
	ktime_t delta_tick = tick_ns / 2;
	unsigned int tick_intercept_sum = 0;
	unsigned int idx_intercept_sum = 0;
	unsigned int intercept_sum = 0;
	unsigned int intercept_max = 0;
	unsigned int idx_hit_sum = 0;
	unsigned int hit_sum = 0;
	int intercept_max_idx = -1;
	int constraint_idx = 0;
	int idx0 = 0, idx = -1;
	int prev_intercept_idx;
	/* Upstream leaves duration_ns unset on the early exits; -1 only shows up in vars(). */
	s64 duration_ns = -1;
	int i;

	if (dev->last_state_idx >= 0) {
		teo_update(drv, dev);
		dev->last_state_idx = -1;
	}
	teo_diag_select_reset(cpu_data, delta_tick);

	if (cfg->time_span)
		cpu_data->time_span_ns = (s64)local_clock(dev);
	/*
	 * Unknown until the timer is read. If it is never read, teo_update() counts the wakeup as
	 * an intercept (bin 0 for timer, measured bin for duration).
	 */
	cpu_data->sleep_length_ns = KTIME_MAX;

	if (cfg->single_state_exit && drv->state_count < 2) {
		idx = 0;
		goto out_tick;
	}

	if (!teo_disabled(dev, 0))
		idx = 0;

	/*
	 * Phase 1: the deepest enabled state is the candidate. Sum hits and intercepts of the bins
	 * below each enabled state, note the deepest state the PM QoS limit allows and (7.0+) the
	 * bin below the deepest state with the most intercepts, ties going to the deeper bin.
	 */
	for (i = 1; i < drv->state_count; i++) {
		const struct teo_bin *prev_bin = &cpu_data->state_bins[i - 1];

		hit_sum += prev_bin->hits;
		intercept_sum += prev_bin->intercepts;
		if (prev_bin->intercepts >= intercept_max) {
			intercept_max = prev_bin->intercepts;
			intercept_max_idx = i - 1;
		}

		if (teo_disabled(dev, i))
			continue;
		if (idx < 0)
			idx0 = i; /* the shallowest enabled state */
		idx = i;
		if (drv->states[i].exit_latency_ns <= latency_req)
			constraint_idx = i;
		idx_intercept_sum = intercept_sum;
		idx_hit_sum = hit_sum;
	}
	teo_diag_select_first_pass(cpu_data, idx, idx0, constraint_idx,
				   cfg->intercept_max ? intercept_max_idx : -1);

	if (idx < 0) {
		idx = 0; /* nothing is enabled; state 0 is the fallback */
		goto out_tick;
	}
	if (idx == idx0) {
		/* A single enabled state: no choice, and no QoS clamp either. */
		duration_ns = drv->states[idx].target_residency_ns;
		goto end;
	}

	if (cfg->tick_intercepts == TEO_TICK_ICPT_SUM)
		tick_intercept_sum = intercept_sum +
				     cpu_data->state_bins[drv->state_count - 1].intercepts;

	/*
	 * Phase 2: when the intercepts below the candidate outweigh everything from its bin up
	 * (unsigned arithmetic, as upstream), the CPU tends to wake up early; go shallower.
	 */
	prev_intercept_idx = idx;
	if (2 * idx_intercept_sum > cpu_data->total - idx_hit_sum) {
		if (cfg->search_state_ok)
			idx = teo_search_state_ok(drv, dev, cpu_data, idx, idx_intercept_sum);
		else
			idx = teo_search_min_idx(drv, dev, cpu_data, idx, idx0, idx_intercept_sum,
						 intercept_max_idx);
	}
	if (cfg->query_if_search_gave_0 && !idx && prev_intercept_idx) {
		/* 6.13: read the timer anyway, or the wakeup could not be classified. */
		duration_ns = teo_sleep_length(dev, cpu_data, &delta_tick);
		goto out_tick;
	}

	/* Phase 3: the PM QoS limit. */
	if (idx > constraint_idx)
		idx = constraint_idx;

	/* Phase 4: the timer, unless the candidate is too shallow for it to matter. */
	if (teo_skip_timer_query(drv, dev, cpu_data, idx, latency_req))
		goto out_tick;

	duration_ns = teo_sleep_length(dev, cpu_data, &delta_tick);

	if (cfg->stopped_tick_rule && tick_nohz_tick_stopped(dev) &&
	    duration_ns > 2 * tick_ns /* SAFE_TIMER_RANGE_NS */ &&
	    drv->states[idx].target_residency_ns < tick_ns) {
		idx = teo_far_timer_state(drv, dev, idx, constraint_idx, duration_ns);
		goto out; /* the tick stays stopped */
	}

	/* The sleep length was only needed for the update (6.13 never gets here with 0). */
	if (!idx)
		goto out_tick;

	if (drv->states[idx].target_residency_ns > duration_ns) {
		i = teo_find_shallower_state(drv, dev, idx, duration_ns);
		if (!cfg->state_ok_after_query || teo_state_ok(i, drv, dev))
			idx = i;
	}

	/* Phase 5: intercepts within a tick dominate, so expect a short idle period. */
	if (drv->states[idx].target_residency_ns < tick_ns &&
	    teo_tick_intercepts_dominate(cfg, cpu_data, tick_intercept_sum))
		duration_ns = tick_ns / 2;

end:
	/* Stop the tick for a non-polling state and an idle period of at least a tick. */
	if ((!(drv->states[idx].flags & CPUIDLE_FLAG_POLLING) && duration_ns >= tick_ns) ||
	    tick_nohz_tick_stopped(dev))
		goto out;

	/* The tick keeps running, so the state has to fit before the next tick. */
	if (idx > idx0 && drv->states[idx].target_residency_ns > delta_tick)
		idx = teo_find_shallower_state(drv, dev, idx, delta_tick);

out_tick:
	*stop_tick = false;
out:
	teo_diag_select_end(cpu_data, duration_ns, delta_tick);
	return idx;
}

/* ---- the teo-6.1.192 design ------------------------------------------------------------ */

/* 6.1: whether an idle period of @interval_ns suits a stopped tick (u64 compare). */
static bool teo_time_ok(const struct il_device *dev, u64 interval_ns)
{
	return !tick_nohz_tick_stopped(dev) || interval_ns >= (u64)teo_tick_nsec(dev);
}

/* 6.1: the expected idle time when state @idx is chosen for intercepts. */
static s64 teo_middle_of_bin(int idx, const struct il_driver *drv)
{
	return (drv->states[idx].target_residency_ns +
		drv->states[idx + 1].target_residency_ns) / 2;
}

/**
 * teo_update_6_1 - fold the last wakeup into the metrics and the recent ring (teo-6.1.192)
 * @drv: the driver
 * @dev: the CPU
 */
static void teo_update_6_1(struct il_driver *drv, struct il_device *dev)
{
	const struct teo_cfg *cfg = teo_cfg(dev);
	struct teo_cpu *cpu_data = dev->governor_data;
	s64 lat_ns = drv->states[dev->last_state_idx].exit_latency_ns;
	int i, idx_timer = 0, idx_duration = 0;
	s64 last_tr_ns = 0;
	unsigned int total;
	u64 measured_ns;

	measured_ns = teo_measured_ns(cfg, dev, cpu_data, lat_ns);
	total = teo_decay_and_classify(drv, dev, cpu_data, measured_ns, &idx_timer, &idx_duration,
				       &last_tr_ns);

	/* Retire the oldest ring entry; "recent" is unsigned and wraps if it was 0. */
	i = cpu_data->next_recent_idx++;
	if (cpu_data->next_recent_idx >= NR_RECENT)
		cpu_data->next_recent_idx = 0;
	if (cpu_data->recent_idx[i] >= 0)
		cpu_data->state_bins[cpu_data->recent_idx[i]].recent--;

	if (idx_timer == idx_duration) {
		cpu_data->state_bins[idx_timer].hits += PULSE;
		cpu_data->recent_idx[i] = -1;
	} else {
		cpu_data->state_bins[idx_duration].intercepts += PULSE;
		cpu_data->state_bins[idx_duration].recent++;
		cpu_data->recent_idx[i] = idx_duration;
	}
	cpu_data->total = total + PULSE;

	cpu_data->diag.measured_ns = measured_ns;
	cpu_data->diag.idx_timer = idx_timer;
	cpu_data->diag.idx_duration = idx_duration;
}

/* The sums the 6.1 intercept search compares against, and which triggers fired. */
struct teo_alt_6_1 {
	unsigned int idx_intercept_sum;
	unsigned int idx_recent_sum;
	bool alt_intercepts;
	bool alt_recent;
};

/*
 * 6.1 search: the deepest state whose bin and the shallower ones hold more than half of the
 * intercepts (and/or recent intercepts, whichever triggered) below the candidate @idx. The
 * choice replaces *duration_ns by the middle of its bin. With the tick stopped, states whose
 * bin middle is below a tick are not usable and the first usable deeper one stands in.
 */
static int teo_search_6_1(const struct il_driver *drv, const struct il_device *dev,
			  const struct teo_cpu *cpu_data, int idx, const struct teo_alt_6_1 *alt,
			  s64 *duration_ns)
{
	s64 first_suitable_span_ns = *duration_ns;
	int first_suitable_idx = idx;
	unsigned int intercept_sum = 0;
	unsigned int recent_sum = 0;

	for (int i = idx - 1; i >= 0; i--) {
		const struct teo_bin *bin = &cpu_data->state_bins[i];
		s64 span_ns;

		intercept_sum += bin->intercepts;
		recent_sum += bin->recent;
		span_ns = teo_middle_of_bin(i, drv);

		if ((!alt->alt_recent || 2 * recent_sum > alt->idx_recent_sum) &&
		    (!alt->alt_intercepts || 2 * intercept_sum > alt->idx_intercept_sum)) {
			if (teo_time_ok(dev, (u64)span_ns) && !teo_disabled(dev, i)) {
				*duration_ns = span_ns;
				return i;
			}
			*duration_ns = first_suitable_span_ns;
			return first_suitable_idx;
		}
		if (teo_disabled(dev, i))
			continue;
		if (!teo_time_ok(dev, (u64)span_ns)) {
			/* Too shallow; keep going only if a usable state was already seen. */
			if (first_suitable_idx != idx)
				continue;
			break;
		}
		first_suitable_span_ns = span_ns;
		first_suitable_idx = i;
	}
	return idx;
}

/**
 * teo_select_6_1 - choose the idle state, teo-6.1.192 (mainline v6.1 design)
 * @drv: the driver
 * @dev: the CPU
 * @stop_tick: set to false when the scheduler tick should keep running
 *
 * Return: the index of the selected state.
 */
static int teo_select_6_1(struct il_driver *drv, struct il_device *dev, bool *stop_tick)
{
	struct teo_cpu *cpu_data = dev->governor_data;
	s64 latency_req = cpuidle_governor_latency_req(dev);
	s64 tick_ns = teo_tick_nsec(dev);
	struct teo_alt_6_1 alt = { 0 };
	unsigned int intercept_sum = 0;
	unsigned int recent_sum = 0;
	unsigned int idx_hit_sum = 0;
	unsigned int hit_sum = 0;
	int constraint_idx = 0;
	int idx0 = 0, idx = -1;
	ktime_t delta_tick = 0;
	s64 duration_ns;
	int i;

	if (dev->last_state_idx >= 0) {
		teo_update_6_1(drv, dev);
		dev->last_state_idx = -1;
	}
	teo_diag_select_reset(cpu_data, delta_tick);

	cpu_data->time_span_ns = (s64)local_clock(dev);
	/* The timer is always read, first; it bounds the candidate. */
	duration_ns = teo_sleep_length(dev, cpu_data, &delta_tick);

	if (drv->state_count < 2) {
		idx = 0;
		goto end;
	}
	if (!teo_disabled(dev, 0)) {
		idx = 0;
		if (drv->states[1].target_residency_ns > duration_ns)
			goto end;
	}

	/*
	 * The candidate is the deepest enabled state that fits the sleep length; constraint_idx
	 * only counts states up to it. Sum the metrics of the bins below each such state.
	 */
	for (i = 1; i < drv->state_count; i++) {
		const struct teo_bin *prev_bin = &cpu_data->state_bins[i - 1];

		intercept_sum += prev_bin->intercepts;
		hit_sum += prev_bin->hits;
		recent_sum += prev_bin->recent;

		if (teo_disabled(dev, i))
			continue;
		if (idx < 0) {
			idx = i; /* the shallowest enabled state */
			idx0 = i;
		}
		if (drv->states[i].target_residency_ns > duration_ns)
			break;
		idx = i;
		if (drv->states[i].exit_latency_ns <= latency_req)
			constraint_idx = i;
		alt.idx_intercept_sum = intercept_sum;
		idx_hit_sum = hit_sum;
		alt.idx_recent_sum = recent_sum;
	}
	teo_diag_select_first_pass(cpu_data, idx, idx0, constraint_idx, -1);

	if (idx < 0) {
		idx = 0;
		goto end;
	} else if (idx == idx0) {
		goto end; /* no QoS clamp on this path */
	}

	/* Early wakeups dominate overall, or in more than half of the last NR_RECENT wakeups. */
	alt.alt_intercepts = 2 * alt.idx_intercept_sum > cpu_data->total - idx_hit_sum;
	alt.alt_recent = alt.idx_recent_sum > NR_RECENT / 2;
	if (alt.alt_recent || alt.alt_intercepts)
		idx = teo_search_6_1(drv, dev, cpu_data, idx, &alt, &duration_ns);

	if (idx > constraint_idx)
		idx = constraint_idx;

end:
	/* Keep the tick for a polling state or an idle period shorter than a tick. */
	if (((drv->states[idx].flags & CPUIDLE_FLAG_POLLING) || duration_ns < tick_ns) &&
	    !tick_nohz_tick_stopped(dev)) {
		*stop_tick = false;
		if (idx > idx0 && drv->states[idx].target_residency_ns > delta_tick)
			idx = teo_find_shallower_state(drv, dev, idx, delta_tick);
	}
	teo_diag_select_end(cpu_data, duration_ns, delta_tick);
	return idx;
}

/* ---- governor ops ---------------------------------------------------------------------- */

static int teo_gov_select(struct il_driver *drv, struct il_device *dev, bool *stop_tick)
{
	if (teo_cfg(dev)->recent_ring)
		return teo_select_6_1(drv, dev, stop_tick);
	return teo_select(drv, dev, stop_tick);
}

/**
 * teo_reflect - note the entered state; the metrics are updated at the next select
 * @dev: the CPU
 * @state: the state that was entered
 *
 * Up to 6.18 this also flags "artificial" wakeups: the poll state's time limit, or a tick
 * while a timer further than a tick away was pending. The C `||` evaluates got_tick (which
 * clears the flag) only when the poll time limit did not fire. 6.19+ just record the tick.
 */
static void teo_reflect(struct il_device *dev, int state)
{
	const struct teo_cfg *cfg = teo_cfg(dev);
	struct teo_cpu *cpu_data = dev->governor_data;

	if (cfg->rework_6_19) {
		cpu_data->tick_wakeup = tick_nohz_idle_got_tick(dev);
		dev->last_state_idx = state;
		return;
	}

	dev->last_state_idx = state;
	if (dev->poll_time_limit ||
	    (tick_nohz_idle_got_tick(dev) && cpu_data->sleep_length_ns > teo_tick_nsec(dev))) {
		dev->poll_time_limit = false;
		if (cfg->time_span)
			cpu_data->time_span_ns = cpu_data->sleep_length_ns;
		else
			cpu_data->artificial_wakeup = true;
	} else if (cfg->time_span) {
		/* u64 clock minus the s64 start, stored back as s64 */
		cpu_data->time_span_ns = (s64)(local_clock(dev) - (u64)cpu_data->time_span_ns);
	} else {
		cpu_data->artificial_wakeup = false;
	}
}

static int teo_enable_device(struct il_driver *drv, struct il_device *dev)
{
	struct teo_cpu *cpu_data = dev->governor_data;

	memset(cpu_data, 0, sizeof(*cpu_data));
	cpu_data->state_count = drv->state_count < CPUIDLE_STATE_MAX ? drv->state_count
								      : CPUIDLE_STATE_MAX;
	if (teo_cfg(dev)->recent_ring)
		for (int i = 0; i < NR_RECENT; i++)
			cpu_data->recent_idx[i] = -1;
	return 0;
}

/* ---- vars ------------------------------------------------------------------------------ */

_Static_assert(CPUIDLE_STATE_MAX == 10, "the name tables below list 10 bins");

#define TEO_BIN_NAMES(f)                                                                   \
	{ "state_bins[0]." f, "state_bins[1]." f, "state_bins[2]." f, "state_bins[3]." f,     \
	  "state_bins[4]." f, "state_bins[5]." f, "state_bins[6]." f, "state_bins[7]." f,     \
	  "state_bins[8]." f, "state_bins[9]." f }

static const char *const teo_intercepts_names[] = TEO_BIN_NAMES("intercepts");
static const char *const teo_hits_names[] = TEO_BIN_NAMES("hits");
static const char *const teo_recent_names[] = TEO_BIN_NAMES("recent");
static const char *const teo_recent_idx_names[NR_RECENT] = {
	"recent_idx[0]", "recent_idx[1]", "recent_idx[2]", "recent_idx[3]", "recent_idx[4]",
	"recent_idx[5]", "recent_idx[6]", "recent_idx[7]", "recent_idx[8]",
};

struct teo_var_list {
	struct il_var *vars;
	int n, max;
};

static void teo_put(struct teo_var_list *l, const char *name, u64 value, bool is_signed,
		    bool diag)
{
	if (l->n < l->max)
		l->vars[l->n++] = (struct il_var){ name, value, is_signed, diag };
}

static void teo_put_field(struct teo_var_list *l, const char *name, u64 value)
{
	teo_put(l, name, value, false, false);
}

static void teo_put_sfield(struct teo_var_list *l, const char *name, s64 value)
{
	teo_put(l, name, (u64)value, true, false);
}

static void teo_put_diag(struct teo_var_list *l, const char *name, s64 value)
{
	teo_put(l, name, (u64)value, true, true);
}

/* The fields of the version's struct teo_cpu, in upstream order. */
static void teo_vars_upstream(const struct teo_cfg *cfg, const struct teo_cpu *cpu_data,
			      struct teo_var_list *l)
{
	if (cfg->time_span)
		teo_put_sfield(l, "time_span_ns", cpu_data->time_span_ns);
	teo_put_sfield(l, "sleep_length_ns", cpu_data->sleep_length_ns);
	for (int i = 0; i < cpu_data->state_count; i++) {
		const struct teo_bin *bin = &cpu_data->state_bins[i];

		teo_put_field(l, teo_intercepts_names[i], bin->intercepts);
		teo_put_field(l, teo_hits_names[i], bin->hits);
		if (cfg->recent_ring)
			teo_put_field(l, teo_recent_names[i], bin->recent);
	}
	teo_put_field(l, "total", cpu_data->total);
	if (cfg->tick_hits)
		teo_put_field(l, "tick_hits", cpu_data->tick_hits);
	if (cfg->rework_6_19)
		teo_put_field(l, "total_tick", cpu_data->total_tick);
	if (cfg->tick_intercepts != TEO_TICK_ICPT_SUM)
		teo_put_field(l, "tick_intercepts", cpu_data->tick_intercepts);
	if (cfg->short_idles)
		teo_put_field(l, "short_idles", cpu_data->short_idles);
	if (cfg->artificial_wakeup)
		teo_put_field(l, "artificial_wakeup", cpu_data->artificial_wakeup);
	if (cfg->rework_6_19)
		teo_put_field(l, "tick_wakeup", cpu_data->tick_wakeup);
	if (cfg->recent_ring) {
		teo_put_sfield(l, "next_recent_idx", cpu_data->next_recent_idx);
		for (int k = 0; k < NR_RECENT; k++)
			teo_put_sfield(l, teo_recent_idx_names[k], cpu_data->recent_idx[k]);
	}
}

/* What the last update and select computed (not upstream fields). */
static void teo_vars_diag(const struct teo_cfg *cfg, const struct teo_cpu *cpu_data,
			  struct teo_var_list *l)
{
	const struct teo_diag *d = &cpu_data->diag;

	if (cfg->rework_6_19)
		teo_put_diag(l, "measured_ns", (s64)d->measured_ns);
	else
		teo_put(l, "measured_ns", d->measured_ns, false, true);
	teo_put_diag(l, "idx_timer", d->idx_timer);
	teo_put_diag(l, "idx_duration", d->idx_duration);
	teo_put_diag(l, "candidate_idx", d->candidate_idx);
	teo_put_diag(l, "idx0", d->idx0);
	teo_put_diag(l, "constraint_idx", d->constraint_idx);
	if (cfg->intercept_max)
		teo_put_diag(l, "intercept_max_idx", d->intercept_max_idx);
	teo_put_diag(l, "duration_ns", d->duration_ns);
	teo_put_diag(l, "delta_tick", d->delta_tick);
	teo_put(l, "timer_queried", d->timer_queried, false, true);
}

static int teo_vars(const struct il_device *dev, struct il_var *vars, int max)
{
	const struct teo_cfg *cfg = teo_cfg(dev);
	const struct teo_cpu *cpu_data = dev->governor_data;
	struct teo_var_list l = { vars, 0, max };

	teo_vars_upstream(cfg, cpu_data, &l);
	teo_vars_diag(cfg, cpu_data, &l);
	return l.n;
}

static const struct il_governor teo_governor = {
	.name = "teo",
	.rating = 19,
	.data_size = sizeof(struct teo_cpu),
	.enable = teo_enable_device,
	.select = teo_gov_select,
	.reflect = teo_reflect,
	.vars = teo_vars,
};

/* ---- presets --------------------------------------------------------------------------- */

static const struct teo_cfg teo_cfg_6_13 = {
	.time_span = true,
	.tick_hits = true,
	.tick_intercepts = TEO_TICK_ICPT_SUM,
	.single_state_exit = true,
	.query_if_search_gave_0 = true,
	.search_state_ok = true,
	.state_ok_after_query = true,
};

/* 6.14 = 6.15 ... 6.18 (only comment typos were fixed in between). */
static const struct teo_cfg teo_cfg_6_14 = {
	.artificial_wakeup = true,
	.running_total = true,
	.short_idles = true,
	.tick_intercepts = TEO_TICK_ICPT_GE_TICK,
	.single_state_exit = true,
	.search_state_ok = true,
	.state_ok_after_query = true,
};

static const struct teo_cfg teo_cfg_6_19 = {
	.short_idles = true,
	.tick_intercepts = TEO_TICK_ICPT_LE_TICK,
	.rework_6_19 = true,
	.single_state_exit = true,
	.search_min_idx = true,
};

static const struct teo_cfg teo_cfg_7_0 = {
	.short_idles = true,
	.tick_intercepts = TEO_TICK_ICPT_LE_TICK,
	.rework_6_19 = true,
	.tick_wakeup_hit = true,
	.hit_near_timer = true,
	.search_min_idx = true,
	.intercept_max = true,
	.intercept_max_shortcuts = true,
	.keep_tick_two_thirds = true,
};

static const struct teo_cfg teo_cfg_7_1 = {
	.short_idles = true,
	.tick_intercepts = TEO_TICK_ICPT_LE_TICK,
	.rework_6_19 = true,
	.tick_wakeup_hit = true,
	.hit_near_timer = true,
	.intercept_max = true,
	.keep_tick_two_thirds = true,
	.stopped_tick_rule = true,
};

static const struct teo_cfg teo_cfg_6_1_192 = {
	.recent_ring = true,
	.time_span = true,
	.single_state_exit = true,
};

/* teo-6.13 plus a03b2011808a. */
static const struct teo_cfg teo_cfg_6_12_117 = {
	.time_span = true,
	.tick_hits = true,
	.tick_intercepts = TEO_TICK_ICPT_SUM,
	.single_state_exit = true,
	.query_if_search_gave_0 = true,
	.search_state_ok = true,
};

/* 6.18.26+ LTS: teo-6.17 without teo_state_ok() on the post-query shallower state. */
static const struct teo_cfg teo_cfg_6_18_35 = {
	.artificial_wakeup = true,
	.running_total = true,
	.short_idles = true,
	.tick_intercepts = TEO_TICK_ICPT_GE_TICK,
	.single_state_exit = true,
	.search_state_ok = true,
};

const struct il_preset il_presets_teo[] = {
	{ "teo-6.13", &teo_governor, IL_KV(6, 13, 0), &il_core_6_13, "v6.13",
	  "teo.c 173ddcac540a (= v6.12.11)",
	  "first teo modelled: time_span_ns safety nets, hits-only tick bin, tick_intercept_sum",
	  &teo_cfg_6_13 },
	{ "teo-6.14", &teo_governor, IL_KV(6, 14, 0), &il_core_6_13, "v6.14",
	  "teo.c 8fe5e1b47ef9",
	  "no tick bin/time_span; artificial_wakeup, running total, short_idles skip the timer, "
	  "tick_intercepts (measured >= TICK)",
	  &teo_cfg_6_14 },
	{ "teo-6.17", &teo_governor, IL_KV(6, 17, 0), &il_core_6_13, "v6.17",
	  "teo.c bfa55c1eab5b (= v6.18)", "comment typo fixes only: same code as teo-6.14",
	  &teo_cfg_6_14 },
	{ "teo-6.19", &teo_governor, IL_KV(6, 19, 0), &il_core_6_19, "v6.19",
	  "teo.c 81ac5fd58a1c (v6.19.9)",
	  "teo_decay to 0, tick_wakeup/total_tick, s64 update, tick_intercepts (measured <= TICK), "
	  "min_idx search, no teo_state_ok",
	  &teo_cfg_6_19 },
	{ "teo-7.0", &teo_governor, IL_KV(7, 0, 0), &il_core_7_0, "v7.0", "teo.c bec0142377b8",
	  "no n < 2 exit; intercept_max_idx search limit; hits need sleep - measured < lat/2; "
	  "tick-wakeup hits; keep tick at 3*ti >= 2*total",
	  &teo_cfg_7_0 },
	{ "teo-7.1", &teo_governor, IL_KV(7, 1, 0), &il_core_7_0, "v7.1",
	  "teo.c ac43b9b013b3 (gov.h cd06a2e7b506; = v7.1.3, v7.1.5)",
	  "search down to idx0; stopped tick: always read the timer, SAFE_TIMER_RANGE_NS rule",
	  &teo_cfg_7_1 },
	{ "teo-6.1.192", &teo_governor, IL_KV(6, 1, 192), &il_core_debian_6_1, "Debian 6.1.192",
	  "teo.c d9262db79cae (= v6.1, no stable backports)",
	  "Debian stable: pre-6.3 design, timer read first bounds the candidate, recent ring, "
	  "middle-of-bin duration",
	  &teo_cfg_6_1_192 },
	{ "teo-6.12.117", &teo_governor, IL_KV(6, 12, 117), &il_core_debian_6_12,
	  "Debian 6.12.117", "teo.c 520aa466c2e7 (a03b2011808a)",
	  "Debian stable: teo-6.13 + a03b2011808a (post-query shallower state without "
	  "teo_state_ok())",
	  &teo_cfg_6_12_117 },
	{ "teo-6.18.35", &teo_governor, IL_KV(6, 18, 35), &il_core_6_18_35, "v6.18.35 (LTS)",
	  "teo.c 8078eca72ca5 (6.18.26 ... 6.18.35)",
	  "LTS stable: teo-6.17 without teo_state_ok() after the timer query; 7.0 idle loop",
	  &teo_cfg_6_18_35 },
	{ 0 }
};
