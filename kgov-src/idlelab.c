// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlelab.c - a timer-events governor with a recent-intervals guard, designed in idlelab
 *
 * Copyright (C) 2026 the idlelab authors
 *
 * DOC: idlelab-1
 *
 * The governor keeps, per CPU and per idle state, two decaying metrics of what the last
 * wakeups looked like ("hits": the wakeup came from the timer the idle loop knew about,
 * "intercepts": something else came first), plus the eight most recent measured idle
 * durations and what the last periods' ends were (tick, poll limit). It was designed in
 * idlelab against menu-7.1 and teo-7.1 on the seeds' battery (idlelab's docs/governor.md
 * has the tables; the figures below are 2 s runs, means over the battery's odd seeds 1-9
 * unless a seed is named):
 *
 *  1. Update (at the next select, from the previous period). The measured duration is the
 *     residency minus half the exit latency (half of it, if shorter than the exit latency),
 *     as the time spent waking is not idle time. A polling period cut by the poll limit
 *     counts as "long". Every metric decays by 1/8 and the matching one grows by PULSE:
 *     a hit in the bin of the deepest state the sleep length allowed when the measured
 *     duration ended within half an exit latency of that timer, an intercept in the bin of
 *     the deepest state the measured duration allowed otherwise. Why: these bins follow
 *     the wakeup pattern per state table instead of one predicted time, which is what gives
 *     teo-7.1 the fewest misses of the kernel's governors on the battery (rk3399 jbb: 102
 *     misses against menu-7.1's 10122; rk3588 fio nvme: 214 against 441).
 *  2. Tick wakeups are booked apart (total_tick). When most recent wakeups were the tick,
 *     the deepest bin gets the hit: the CPU would have slept longer with the tick stopped
 *     (the 2018 PowerNightmares thread). A tick wakeup when intercepts in the tick range are
 *     rare is a hit of the timer bin (the SPECjbb case with few timer interrupts, where
 *     menu's typical-interval statistics have too few samples).
 *  3. Short idles (shorter than 15 µs after the exit-latency correction) are counted; when
 *     they are at least half of the recent wakeups, or the QoS limit is under 7.5 µs, a
 *     polling or very shallow choice is returned without querying the timers (Doug
 *     Smythies' fast pipe ping-pong, where POLL is the right state). The lab's haltpoll-vm
 *     pingpong:cpus=2 no longer shows the gain it once did (1.80 µs per loop against
 *     menu-7.1's 5.69): there idlelab takes the halt (685308 of 685317 entries, seed 1) and
 *     runs at 5.84 µs per loop, as menu-7.1 nearly does (5.83).
 *  4. Select. The candidate is the deepest enabled state. If the intercepts of the
 *     shallower bins outweigh the hits and intercepts of the candidate and deeper bins, walk
 *     down to the state where the intercepts below it are a majority again, not past the
 *     state with the most intercepts. The QoS limit (cpuidle_governor_latency_req()) then
 *     caps the result; a limit below every exit latency leaves the first enabled state, as
 *     menu does.
 *  5. Poll once (module parameter poll_once). If the last period was a polling state cut by
 *     its time limit, do not poll again: take the shallowest enabled non-polling state, if
 *     it is the state the poll limit comes from (cpuidle_poll_time() takes the first with a
 *     target residency of 10 µs or more) and at least half of the recent such halts
 *     (decaying counts halt_good/halt_total) lasted its target residency. A cheaper halt
 *     (a 1-2 µs C1 under a C6-derived limit) would only be too shallow: on icx threads it
 *     gave 37 % more misses than teo. Why: the CPU has already been idle for a whole
 *     poll limit, and polling again burns the polling power for another one; teo re-polls,
 *     so on pseries (snooze, CEDE 12/120 µs) threads teo-7.1 spends 50.6 J with 538033 idle
 *     periods and 95112 PowerNightmares, where this step gives 34.4 J, 222807 periods and
 *     37461 (menu-7.1: 31.9 J), for 0.4 % fewer loops than teo (seed 1). Without the halt_good test
 *     the same step cost 1.7 % of pseries fio nvme's iops and 1.9 % of jbb's response time
 *     (there the wakeup follows the poll limit closely): the test turns it off there.
 *     Halt by the median (module parameter poll_median). If the choice is still a polling
 *     state, go up through the halting states, up to the one the poll limit comes from, while
 *     at least half of the last eight measured durations reached the state's target
 *     residency, if the first halting state costs at most 2 µs to leave. Why: step 4 stops
 *     at the bin with the most intercepts, and POLL is often that bin while most periods
 *     outlast C1/C1E, so the CPU polls until the wakeup or the poll limit. On adl (POLL,
 *     C1E 2/4 µs) threads this takes the energy per loop from teo-7.1's 91.2 to 72.4 µJ
 *     (-20.6 %; menu-7.1 72.1), zen2-acpi -18.0 %, skx -5.6 %, the i5-10600K -5.0 %; skx
 *     ebizzy -3.8 %, with 97 % fewer misses on skx threads (160421 to 4368 per run; seeds
 *     1-5). The median and not the mean: with the mean one long period among the eight
 *     lost POLL in Doug's 2-CPU ping-pong (+111 to +222 % µs per loop). Ticks, poll limits
 *     and the empty history do not count as long here: counted, they made the first periods
 *     halt, and the ping-pong then stayed in C1 at 3.8 µs per loop instead of 1.8 (figures of
 *     the lab's ping-pong when this was designed; see step 3). Stopping
 *     at the first halting state gave icx and spr ebizzy, threads and adrestia 5 to 15
 *     times teo's misses (C1 where C1E fits): hence the walk up.
 *  6. Query the sleep length. If the tick is already stopped and the sleep is longer than
 *     two ticks while the choice is shallower than a tick, return the deepest QoS-allowed
 *     state that fits before the timer, with the tick stopped. Why: a shallow state with the
 *     tick stopped is the PowerNightmare (a CPU parked for seconds in C1). Otherwise go
 *     shallower if the candidate's target residency exceeds the sleep length.
 *     The module parameter tick_promote (default N) also treats two periods in a row that
 *     the retained tick ended after half a tick or more as "tick stopped". It is off because
 *     a tick is weak evidence at HZ=1000: in its first form (one such period) it cost the
 *     i5-10600K 6.5 % of fio nvme's iops, 20 % of mmcblk's and 30 % of jbb's response time
 *     (C3's 1 ms exit latency after a 1 ms tick), for about 2 % of rk3588 fio mtdblock's
 *     power (seeds 1-2).
 *  7. The recent-intervals guard (module parameters recent_guard and recent_samples). If
 *     each of the last recent_samples measured durations (tick wakeups and poll-limit ends
 *     count as "long") was shorter than the candidate's target residency, take the deepest
 *     enabled state whose target residency fits the longest of them. Why: the bins are
 *     majorities, so a stream of wakeups that all land just below a deep state's residency
 *     can keep a minority of hits alive in that bin: pseries pipe wakeups at 30-120 µs
 *     against CEDE's 120 µs (menu's CEDE aboves in the seeds) and fio's completions against
 *     rk3588/rk3399 cpu-sleep (the too-deep misses). A unanimous recent history is stronger
 *     evidence than a majority; on the battery it rarely fires beyond what step 4 does.
 *  8. Tick. If the choice is not a polling state and the expected duration reaches a tick,
 *     or the tick is already stopped, the tick is stopped (the idle loop's rule). Otherwise
 *     the tick is kept, and a state whose target residency exceeds the time to the next tick
 *     is replaced by a shallower one that fits it. When tick-range intercepts are frequent
 *     the expected duration of a state shallower than a tick is taken as half a tick, so
 *     the tick is kept (it will wake the CPU anyway).
 *
 * Cost: every step is one pass over the states (or over the eight recent values); integer
 * arithmetic only; no allocation; the per-CPU data is 160 bytes for CPUIDLE_STATE_MAX = 10.
 *
 * Module parameters (read at every select, so a change applies at the next idle period):
 *  poll_once       bool, default Y: step 5's poll once on or off.
 *  poll_median     bool, default Y: step 5's halt by the median on or off.
 *  tick_promote    bool, default N: the tick-wakeup half of step 6 on or off.
 *  recent_guard    bool, default Y: step 7 on or off.
 *  recent_samples  uint, default 8: how many recent durations step 7 requires; a value
 *                  of 0 is used as 1 and a value above 8 as 8 (clamped where it is read).
 *  Values that are no bool / unsigned int are refused by the module parameter parser, as
 *  for every module parameter (-EINVAL), and the old value stays.
 */
#include <linux/cpuidle.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/string.h>
#include <linux/tick.h>

/* Metrics grow by PULSE per event and lose 1/2^DECAY_SHIFT of their value per update. */
#define PULSE		1024
#define DECAY_SHIFT	3

/* Idle periods shorter than this (after the exit-latency correction) are "short". */
#define SHORT_IDLE_NS		(15 * NSEC_PER_USEC)
/* Below this QoS limit, shallow choices skip the timer query. */
#define LOW_LATENCY_NS		(15 * NSEC_PER_USEC / 2)

/* cpuidle_poll_time() takes the poll limit from the first state this deep (CPUIDLE_POLL_MIN). */
#define POLL_LIMIT_MIN_NS	(10 * NSEC_PER_USEC)

/* Step 5's median halt: the first halt state may cost at most this to leave. */
#define MEDIAN_HALT_LATENCY_NS	(2 * NSEC_PER_USEC)

/* How many recent measured durations are kept for the guard. */
#define IDLELAB_RECENT	8

static bool recent_guard = true;
module_param(recent_guard, bool, 0644);
MODULE_PARM_DESC(recent_guard, "go shallower when every recent idle period was shorter");

static bool poll_once = true;
module_param(poll_once, bool, 0644);
MODULE_PARM_DESC(poll_once, "after a polling period cut by the poll limit, halt instead");

static bool poll_median = true;
module_param(poll_median, bool, 0644);
MODULE_PARM_DESC(poll_median, "halt instead of polling when most recent idle periods were longer");

static bool tick_promote;
module_param(tick_promote, bool, 0644);
MODULE_PARM_DESC(tick_promote, "after two long idle periods ended by the tick, go deep");

static unsigned int recent_samples = IDLELAB_RECENT;
module_param(recent_samples, uint, 0644);
MODULE_PARM_DESC(recent_samples, "recent idle periods the guard looks at (1..8)");

/**
 * struct idlelab_bin - the metrics of one idle state
 * @hits: wakeups by the timer the sleep length predicted, in this state's range
 * @intercepts: earlier wakeups whose measured duration fell in this state's range
 */
struct idlelab_bin {
	unsigned int hits;
	unsigned int intercepts;
};

/**
 * struct idlelab_cpu - the governor's per-CPU data
 * @sleep_length_ns: the sleep length of the last select (KTIME_MAX if not queried)
 * @state_bins: the metrics per idle state
 * @total: the sum of all bins at the last update, plus PULSE
 * @total_tick: decaying count of tick wakeups
 * @tick_intercepts: decaying count of intercepts not longer than a tick
 * @short_idles: decaying count of short idle periods
 * @recent_ns: the last measured durations, U32_MAX for "long" or unknown
 * @recent_next: where the next duration goes in @recent_ns
 * @halt_good: decaying count of step 5's halts that lasted the halt state's target residency
 * @halt_total: decaying count of step 5's halts
 * @tick_streak: how many idle periods in a row (up to 2) the tick ended after half a tick
 * @tick_wakeup: the last idle period was ended by the tick
 * @poll_limited: the last idle period was a polling state cut by its time limit
 * @halted_after_poll: step 5 chose the last idle period's state
 */
struct idlelab_cpu {
	s64 sleep_length_ns;
	struct idlelab_bin state_bins[CPUIDLE_STATE_MAX];
	unsigned int total;
	unsigned int total_tick;
	unsigned int tick_intercepts;
	unsigned int short_idles;
	unsigned int recent_ns[IDLELAB_RECENT];
	unsigned int recent_next;
	unsigned int halt_good;
	unsigned int halt_total;
	unsigned int tick_streak;
	bool tick_wakeup;
	bool poll_limited;
	bool halted_after_poll;
};

static DEFINE_PER_CPU(struct idlelab_cpu, idlelab_cpus);

static void idlelab_decay(unsigned int *metric)
{
	*metric -= *metric >> DECAY_SHIFT;
	/* a metric that can no longer decay is noise: drop it */
	if (*metric < (1 << DECAY_SHIFT))
		*metric = 0;
}

static void idlelab_record_recent(struct idlelab_cpu *cpu_data, s64 measured_ns)
{
	unsigned int v = U32_MAX;

	if (measured_ns >= 0 && measured_ns < U32_MAX)
		v = (unsigned int)measured_ns;
	cpu_data->recent_ns[cpu_data->recent_next] = v;
	cpu_data->recent_next = (cpu_data->recent_next + 1) % IDLELAB_RECENT;
}

/* Step 1's measured duration; also counts short idles (step 3). */
static s64 idlelab_measured(struct cpuidle_device *dev, struct idlelab_cpu *cpu_data, s64 lat_ns)
{
	s64 measured_ns;

	cpu_data->poll_limited = dev->poll_time_limit;
	if (dev->poll_time_limit) {
		dev->poll_time_limit = false;
		return S64_MAX;
	}
	measured_ns = dev->last_residency_ns;
	if (measured_ns >= lat_ns) {
		measured_ns -= lat_ns / 2;
		if (measured_ns < SHORT_IDLE_NS)
			cpu_data->short_idles += PULSE;
	} else {
		measured_ns /= 2;
		cpu_data->short_idles += PULSE;
	}
	return measured_ns;
}

/* Steps 1 and 2: book the previous idle period into the metrics. */
static void idlelab_update(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct idlelab_cpu *cpu_data = this_cpu_ptr(&idlelab_cpus);
	s64 lat_ns = drv->states[dev->last_state_idx].exit_latency_ns;
	int i, idx_timer = 0, idx_duration = 0;
	unsigned int total = 0;
	s64 measured_ns;

	idlelab_decay(&cpu_data->short_idles);
	measured_ns = idlelab_measured(dev, cpu_data, lat_ns);
	idlelab_record_recent(cpu_data, cpu_data->tick_wakeup ? S64_MAX : measured_ns);
	if (cpu_data->halted_after_poll) {
		idlelab_decay(&cpu_data->halt_good);
		idlelab_decay(&cpu_data->halt_total);
		cpu_data->halt_total += PULSE;
		if (measured_ns >= drv->states[dev->last_state_idx].target_residency_ns)
			cpu_data->halt_good += PULSE;
		cpu_data->halted_after_poll = false;
	}
	if (cpu_data->tick_wakeup && measured_ns >= TICK_NSEC / 2) {
		if (cpu_data->tick_streak < 2)
			cpu_data->tick_streak++;
	} else {
		cpu_data->tick_streak = 0;
	}

	for (i = 0; i < drv->state_count; i++) {
		struct idlelab_bin *bin = &cpu_data->state_bins[i];
		s64 target_residency_ns = drv->states[i].target_residency_ns;

		idlelab_decay(&bin->hits);
		total += bin->hits;
		idlelab_decay(&bin->intercepts);
		total += bin->intercepts;

		if (target_residency_ns <= cpu_data->sleep_length_ns) {
			idx_timer = i;
			if (target_residency_ns <= measured_ns)
				idx_duration = i;
		}
	}
	cpu_data->total = total + PULSE;

	idlelab_decay(&cpu_data->tick_intercepts);
	idlelab_decay(&cpu_data->total_tick);

	if (cpu_data->tick_wakeup) {
		cpu_data->total_tick += PULSE;
		if (3 * cpu_data->total_tick > 2 * cpu_data->total) {
			cpu_data->state_bins[drv->state_count - 1].hits += PULSE;
			return;
		}
		if (3 * cpu_data->tick_intercepts < 2 * total) {
			cpu_data->state_bins[idx_timer].hits += PULSE;
			return;
		}
	}

	if (idx_timer == idx_duration && cpu_data->sleep_length_ns - measured_ns < lat_ns / 2) {
		cpu_data->state_bins[idx_timer].hits += PULSE;
	} else {
		cpu_data->state_bins[idx_duration].intercepts += PULSE;
		if (measured_ns <= TICK_NSEC)
			cpu_data->tick_intercepts += PULSE;
	}
}

/* The deepest enabled state shallower than @idx that fits @duration_ns, else the shallowest. */
static int idlelab_find_shallower_state(struct cpuidle_driver *drv, struct cpuidle_device *dev,
					int idx, s64 duration_ns)
{
	int i;

	for (i = idx - 1; i >= 0; i--) {
		if (dev->states_usage[i].disable)
			continue;
		idx = i;
		if (drv->states[i].target_residency_ns <= duration_ns)
			break;
	}
	return idx;
}

/* Step 5: how many of the recent durations were measured and reached @duration_ns. */
static unsigned int idlelab_recent_reached(const struct idlelab_cpu *cpu_data, s64 duration_ns)
{
	unsigned int i, n = 0;

	for (i = 0; i < IDLELAB_RECENT; i++) {
		/* U32_MAX is "long or unknown" (a tick, a poll limit, no history yet) */
		if (cpu_data->recent_ns[i] < U32_MAX && cpu_data->recent_ns[i] >= duration_ns)
			n++;
	}
	return n;
}

/*
 * Step 5: from the polling choice @idx, the halting (enabled, non-polling) states up to
 * @limit_idx, shallowest first. Poll once (@by_median false) takes the first if the poll limit
 * comes from it (cpuidle_poll_time(): the first with a target residency of POLL_LIMIT_MIN_NS
 * or more): only that state has paid off by now, a cheaper halt below it would only be a
 * too-shallow choice. Halt by the median (@by_median true) takes the first if it costs at most
 * MEDIAN_HALT_LATENCY_NS to leave (a slower one would cost a fast ping-pong most of its round
 * trip), then goes up through them, up to the one the poll limit comes from, as long as at
 * least half of the recent measured durations reached the state's target residency.
 */
static int idlelab_halt(const struct idlelab_cpu *cpu_data, struct cpuidle_driver *drv,
			struct cpuidle_device *dev, int idx, int limit_idx, bool by_median)
{
	bool first = true;
	int i;

	for (i = idx + 1; i <= limit_idx; i++) {
		struct cpuidle_state *s = &drv->states[i];

		if (dev->states_usage[i].disable || (s->flags & CPUIDLE_FLAG_POLLING))
			continue;
		if (first && (by_median ? s->exit_latency_ns > MEDIAN_HALT_LATENCY_NS :
					  s->target_residency_ns < POLL_LIMIT_MIN_NS))
			break;
		first = false;
		if (by_median &&
		    2 * idlelab_recent_reached(cpu_data, s->target_residency_ns) < IDLELAB_RECENT)
			break;
		idx = i;
		if (!by_median || s->target_residency_ns >= POLL_LIMIT_MIN_NS)
			break;
	}
	return idx;
}

/* Step 7: the longest of the last @n durations, U32_MAX when one of them was long. */
static s64 idlelab_recent_max(const struct idlelab_cpu *cpu_data, unsigned int n)
{
	unsigned int i, max = 0;

	for (i = 0; i < n; i++) {
		unsigned int k = (cpu_data->recent_next + IDLELAB_RECENT - 1 - i) % IDLELAB_RECENT;

		if (cpu_data->recent_ns[k] > max)
			max = cpu_data->recent_ns[k];
	}
	return max;
}

/**
 * idlelab_select - pick the idle state for the coming idle period
 * @drv: the cpuidle driver
 * @dev: the CPU
 * @stop_tick: cleared when the tick should keep running
 */
static int idlelab_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			  bool *stop_tick)
{
	struct idlelab_cpu *cpu_data = this_cpu_ptr(&idlelab_cpus);
	s64 latency_req = cpuidle_governor_latency_req(dev->cpu);
	ktime_t delta_tick = TICK_NSEC / 2;
	unsigned int idx_intercept_sum = 0, intercept_sum = 0;
	unsigned int idx_hit_sum = 0, hit_sum = 0;
	unsigned int intercept_max = 0, samples;
	int constraint_idx = 0, idx0 = 0, idx = -1, intercept_max_idx = -1;
	s64 duration_ns;
	int i;

	if (dev->last_state_idx >= 0) {
		idlelab_update(drv, dev);
		dev->last_state_idx = -1;
	}

	cpu_data->sleep_length_ns = KTIME_MAX;

	/* Step 4: the deepest enabled state and the bin sums below it. */
	if (!dev->states_usage[0].disable)
		idx = 0;

	for (i = 1; i < drv->state_count; i++) {
		struct idlelab_bin *prev_bin = &cpu_data->state_bins[i - 1];

		hit_sum += prev_bin->hits;
		intercept_sum += prev_bin->intercepts;
		if (prev_bin->intercepts >= intercept_max) {
			intercept_max = prev_bin->intercepts;
			intercept_max_idx = i - 1;
		}

		if (dev->states_usage[i].disable)
			continue;

		/* the first enabled state is the fallback of the QoS limit too (as menu's) */
		if (idx < 0) {
			idx0 = i;
			constraint_idx = i;
		}
		idx = i;
		if (drv->states[i].exit_latency_ns <= latency_req)
			constraint_idx = i;
		idx_intercept_sum = intercept_sum;
		idx_hit_sum = hit_sum;
	}

	/* Every state disabled: state 0, and the tick keeps running. */
	if (idx < 0) {
		idx = 0;
		goto out_tick;
	}

	/* Only one enabled state: nothing to choose. */
	if (idx == idx0) {
		duration_ns = drv->states[idx].target_residency_ns;
		goto end;
	}

	/* Intercepts below the candidate are the majority: walk down. */
	if (2 * idx_intercept_sum > cpu_data->total - idx_hit_sum) {
		intercept_sum = 0;
		for (i = idx - 1; i >= idx0; i--) {
			intercept_sum += cpu_data->state_bins[i].intercepts;
			if (dev->states_usage[i].disable)
				continue;
			idx = i;
			if (2 * intercept_sum > idx_intercept_sum && i <= intercept_max_idx)
				break;
		}
	}

	if (idx > constraint_idx)
		idx = constraint_idx;

	/* Step 5: the CPU has polled for a whole poll limit already: do not poll again. */
	if (poll_once && cpu_data->poll_limited &&
	    (drv->states[idx].flags & CPUIDLE_FLAG_POLLING) &&
	    2 * cpu_data->halt_good >= cpu_data->halt_total) {
		i = idlelab_halt(cpu_data, drv, dev, idx, constraint_idx, false);
		cpu_data->halted_after_poll = i != idx;
		idx = i;
	}

	/* Step 5: most recent periods outlasted a halt state: do not poll for them. */
	if (poll_median && (drv->states[idx].flags & CPUIDLE_FLAG_POLLING) &&
	    !cpu_data->halted_after_poll)
		idx = idlelab_halt(cpu_data, drv, dev, idx, constraint_idx, true);

	/* Step 3: a shallow choice among frequent short idles needs no timer query. */
	if (!tick_nohz_tick_stopped() &&
	    (idx == 0 || drv->states[idx].target_residency_ns < SHORT_IDLE_NS) &&
	    (2 * cpu_data->short_idles >= cpu_data->total || latency_req < LOW_LATENCY_NS))
		goto out_tick;

	/* Step 6: the timers. */
	duration_ns = tick_nohz_get_sleep_length(&delta_tick);
	cpu_data->sleep_length_ns = duration_ns;

	/*
	 * Step 6: the tick ended the last two periods, each after half a tick or more: the
	 * intercepts were wrong about this stretch; with a long sleep, go as deep as the
	 * tick-stopped case.
	 */
	if ((tick_nohz_tick_stopped() || (tick_promote && cpu_data->tick_streak >= 2)) &&
	    duration_ns > 2 * TICK_NSEC && drv->states[idx].target_residency_ns < TICK_NSEC) {
		for (i = constraint_idx; i > idx; i--) {
			if (dev->states_usage[i].disable)
				continue;
			if (drv->states[i].target_residency_ns <= duration_ns) {
				idx = i;
				break;
			}
		}
		return idx;
	}

	if (!idx)
		goto out_tick;

	if (drv->states[idx].target_residency_ns > duration_ns)
		idx = idlelab_find_shallower_state(drv, dev, idx, duration_ns);

	/* Step 7: the recent-intervals guard. */
	samples = clamp_t(unsigned int, recent_samples, 1, IDLELAB_RECENT);
	if (recent_guard && idx > idx0) {
		s64 recent_max = idlelab_recent_max(cpu_data, samples);

		if (drv->states[idx].target_residency_ns > recent_max)
			idx = idlelab_find_shallower_state(drv, dev, idx, recent_max);
	}

	/* Step 8: frequent tick-range intercepts: the tick is worth keeping. */
	if (drv->states[idx].target_residency_ns < TICK_NSEC &&
	    3 * cpu_data->tick_intercepts >= 2 * cpu_data->total)
		duration_ns = TICK_NSEC / 2;

end:
	if ((!(drv->states[idx].flags & CPUIDLE_FLAG_POLLING) && duration_ns >= TICK_NSEC) ||
	    tick_nohz_tick_stopped())
		return idx;

	if (idx > idx0 && drv->states[idx].target_residency_ns > delta_tick)
		idx = idlelab_find_shallower_state(drv, dev, idx, delta_tick);

out_tick:
	*stop_tick = false;
	return idx;
}

/**
 * idlelab_reflect - note how the idle period that just ended was ended
 * @dev: the CPU
 * @state: the state it was spent in
 */
static void idlelab_reflect(struct cpuidle_device *dev, int state)
{
	struct idlelab_cpu *cpu_data = this_cpu_ptr(&idlelab_cpus);

	cpu_data->tick_wakeup = tick_nohz_idle_got_tick();
	dev->last_state_idx = state;
}

/**
 * idlelab_enable_device - reset the per-CPU data of @dev
 * @drv: the cpuidle driver
 * @dev: the CPU
 */
static int idlelab_enable_device(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct idlelab_cpu *cpu_data = per_cpu_ptr(&idlelab_cpus, dev->cpu);
	int i;

	memset(cpu_data, 0, sizeof(*cpu_data));
	/* an empty history is "long": the guard waits until it has seen enough periods */
	for (i = 0; i < IDLELAB_RECENT; i++)
		cpu_data->recent_ns[i] = U32_MAX;
	return 0;
}

static struct cpuidle_governor idlelab_governor = {
	.name =		"idlelab",
	.rating =	15,
	.enable =	idlelab_enable_device,
	.select =	idlelab_select,
	.reflect =	idlelab_reflect,
};

static int __init idlelab_governor_init(void)
{
	return cpuidle_register_governor(&idlelab_governor);
}

postcore_initcall(idlelab_governor_init);
