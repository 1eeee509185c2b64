// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlelab.c - the port of idlelab's own governor, kgov-src/idlelab.c (preset idlelab-1).
 *
 * DOC: idlelab port
 *
 * kgov-src/idlelab.c is the governor as a kernel file (drivers/cpuidle/governors/idlelab.c
 * in a kernel tree); its DOC comment gives the algorithm in numbered steps and why each step
 * exists. This file is the same code against idlelab's kernel-shaped model, line for line,
 * so that `idlelab kgov check kgov-src/idlelab.c --against idlelab-1` compares every field:
 *
 *  1. The kernel calls take the device (lib/kcompat.h): tick_nohz_get_sleep_length(dev, ..),
 *     tick_nohz_tick_stopped(dev), tick_nohz_idle_got_tick(dev),
 *     cpuidle_governor_latency_req(dev); TICK_NSEC is the environment's, as a signed value
 *     like the kernel's long constant.
 *  2. The per-CPU struct is the kernel file's, field for field, followed by what the kernel
 *     keeps elsewhere: the module parameters (global in the kernel, per device here, set
 *     with il_gov_set_param()) and the state count vars() lists the bins up to.
 *  3. The one signed subtraction that can overflow (sleep length minus the measured duration)
 *     wraps explicitly, as the kernel's -fno-strict-overflow makes it wrap.
 *
 * Versions: idlelab-1 is the first (docs/governor.md). A new version of the kernel file
 * gets a new preset with its blob; the golden vector tests/vectors/idlelab-1.kv.xz holds
 * what the file decided.
 */
#include <string.h>

#include "governors.h"
#include "kcompat.h"

#ifndef U32_MAX
#define U32_MAX ((u32)~0U)
#endif

/* The kernel's TICK_NSEC is a long: compared with s64 values it stays signed. */
#define TICK_NSEC_(dev) ((s64)tick_nsec(dev))

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
	/* Not in the kernel's struct: the module parameters (global there, per device here,
	 * as il_gov_set_param() sets them) and what vars() needs. */
	bool poll_once;
	bool poll_median;
	bool tick_promote;
	bool recent_guard;
	unsigned int recent_samples;
	int state_count;
};

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
static s64 idlelab_measured(struct il_device *dev, struct idlelab_cpu *cpu_data, s64 lat_ns)
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
static void idlelab_update(struct il_driver *drv, struct il_device *dev)
{
	struct idlelab_cpu *cpu_data = dev->governor_data;
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
	if (cpu_data->tick_wakeup && measured_ns >= TICK_NSEC_(dev) / 2) {
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

	if (idx_timer == idx_duration &&
	    (s64)((u64)cpu_data->sleep_length_ns - (u64)measured_ns) < lat_ns / 2) {
		cpu_data->state_bins[idx_timer].hits += PULSE;
	} else {
		cpu_data->state_bins[idx_duration].intercepts += PULSE;
		if (measured_ns <= TICK_NSEC_(dev))
			cpu_data->tick_intercepts += PULSE;
	}
}

/* The deepest enabled state shallower than @idx that fits @duration_ns, else the shallowest. */
static int idlelab_find_shallower_state(struct il_driver *drv, struct il_device *dev,
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
static int idlelab_halt(const struct idlelab_cpu *cpu_data, struct il_driver *drv,
			struct il_device *dev, int idx, int limit_idx, bool by_median)
{
	bool first = true;
	int i;

	for (i = idx + 1; i <= limit_idx; i++) {
		struct il_state *s = &drv->states[i];

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

/* recent_samples as step 7 reads it: clamped to 1 .. IDLELAB_RECENT (the kernel's clamp_t). */
static unsigned int clamp_samples(unsigned int v)
{
	return v < 1 ? 1 : v > IDLELAB_RECENT ? IDLELAB_RECENT : v;
}

/**
 * idlelab_select - pick the idle state for the coming idle period
 * @drv: the cpuidle driver
 * @dev: the CPU
 * @stop_tick: cleared when the tick should keep running
 */
static int idlelab_select(struct il_driver *drv, struct il_device *dev,
			  bool *stop_tick)
{
	struct idlelab_cpu *cpu_data = dev->governor_data;
	s64 latency_req = cpuidle_governor_latency_req(dev);
	ktime_t delta_tick = TICK_NSEC_(dev) / 2;
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
	if (cpu_data->poll_once && cpu_data->poll_limited &&
	    (drv->states[idx].flags & CPUIDLE_FLAG_POLLING) &&
	    2 * cpu_data->halt_good >= cpu_data->halt_total) {
		i = idlelab_halt(cpu_data, drv, dev, idx, constraint_idx, false);
		cpu_data->halted_after_poll = i != idx;
		idx = i;
	}

	/* Step 5: most recent periods outlasted a halt state: do not poll for them. */
	if (cpu_data->poll_median && (drv->states[idx].flags & CPUIDLE_FLAG_POLLING) &&
	    !cpu_data->halted_after_poll)
		idx = idlelab_halt(cpu_data, drv, dev, idx, constraint_idx, true);

	/* Step 3: a shallow choice among frequent short idles needs no timer query. */
	if (!tick_nohz_tick_stopped(dev) &&
	    (idx == 0 || drv->states[idx].target_residency_ns < SHORT_IDLE_NS) &&
	    (2 * cpu_data->short_idles >= cpu_data->total || latency_req < LOW_LATENCY_NS))
		goto out_tick;

	/* Step 6: the timers. */
	duration_ns = tick_nohz_get_sleep_length(dev, &delta_tick);
	cpu_data->sleep_length_ns = duration_ns;

	/*
	 * Step 6: the tick ended the last two periods, each after half a tick or more: the
	 * intercepts were wrong about this stretch; with a long sleep, go as deep as the
	 * tick-stopped case.
	 */
	if ((tick_nohz_tick_stopped(dev) ||
	     (cpu_data->tick_promote && cpu_data->tick_streak >= 2)) &&
	    duration_ns > 2 * TICK_NSEC_(dev) &&
	    drv->states[idx].target_residency_ns < TICK_NSEC_(dev)) {
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
	samples = clamp_samples(cpu_data->recent_samples);
	if (cpu_data->recent_guard && idx > idx0) {
		s64 recent_max = idlelab_recent_max(cpu_data, samples);

		if (drv->states[idx].target_residency_ns > recent_max)
			idx = idlelab_find_shallower_state(drv, dev, idx, recent_max);
	}

	/* Step 8: frequent tick-range intercepts: the tick is worth keeping. */
	if (drv->states[idx].target_residency_ns < TICK_NSEC_(dev) &&
	    3 * cpu_data->tick_intercepts >= 2 * cpu_data->total)
		duration_ns = TICK_NSEC_(dev) / 2;

end:
	if ((!(drv->states[idx].flags & CPUIDLE_FLAG_POLLING) && duration_ns >= TICK_NSEC_(dev)) ||
	    tick_nohz_tick_stopped(dev))
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
static void idlelab_reflect(struct il_device *dev, int state)
{
	struct idlelab_cpu *cpu_data = dev->governor_data;

	cpu_data->tick_wakeup = tick_nohz_idle_got_tick(dev);
	dev->last_state_idx = state;
}

/**
 * idlelab_enable_device - reset the per-CPU data of @dev
 * @drv: the cpuidle driver
 * @dev: the CPU
 */
static int idlelab_enable_device(struct il_driver *drv, struct il_device *dev)
{
	struct idlelab_cpu *cpu_data = dev->governor_data;
	int i;

	bool guard = cpu_data->recent_guard, poll_once = cpu_data->poll_once;
	bool tick_promote = cpu_data->tick_promote, poll_median = cpu_data->poll_median;
	unsigned int samples = cpu_data->recent_samples;

	memset(cpu_data, 0, sizeof(*cpu_data));
	cpu_data->poll_once = poll_once;
	cpu_data->poll_median = poll_median;
	cpu_data->tick_promote = tick_promote;
	cpu_data->recent_guard = guard;
	cpu_data->recent_samples = samples;
	cpu_data->state_count = drv->state_count;
	/* an empty history is "long": the guard waits until it has seen enough periods */
	for (i = 0; i < IDLELAB_RECENT; i++)
		cpu_data->recent_ns[i] = U32_MAX;
	return 0;
}

/* ---- vars and parameters --------------------------------------------------------------- */

_Static_assert(CPUIDLE_STATE_MAX == 10, "the name tables below list 10 bins");
_Static_assert(IDLELAB_RECENT == 8, "the name table below lists 8 recent values");

#define IDLELAB_BIN_NAMES(f)                                                               \
	{ "state_bins[0]." f, "state_bins[1]." f, "state_bins[2]." f, "state_bins[3]." f,     \
	  "state_bins[4]." f, "state_bins[5]." f, "state_bins[6]." f, "state_bins[7]." f,     \
	  "state_bins[8]." f, "state_bins[9]." f }

static const char *const idlelab_hits_names[] = IDLELAB_BIN_NAMES("hits");
static const char *const idlelab_intercepts_names[] = IDLELAB_BIN_NAMES("intercepts");
static const char *const idlelab_recent_names[IDLELAB_RECENT] = {
	"recent_ns[0]", "recent_ns[1]", "recent_ns[2]", "recent_ns[3]",
	"recent_ns[4]", "recent_ns[5]", "recent_ns[6]", "recent_ns[7]",
};

static void idlelab_put(struct il_var *vars, int *n, int max, const char *name, u64 v,
			bool is_signed)
{
	if (*n < max)
		vars[(*n)++] = (struct il_var){ .name = name, .value = v, .is_signed = is_signed };
}

/* The fields of struct idlelab_cpu in the kernel file's order, and the device's last_state_idx. */
static int idlelab_vars(const struct il_device *dev, struct il_var *vars, int max)
{
	const struct idlelab_cpu *cpu_data = dev->governor_data;
	int n = 0;

	idlelab_put(vars, &n, max, "sleep_length_ns", (u64)cpu_data->sleep_length_ns, true);
	for (int i = 0; i < cpu_data->state_count; i++) {
		idlelab_put(vars, &n, max, idlelab_hits_names[i], cpu_data->state_bins[i].hits,
			    false);
		idlelab_put(vars, &n, max, idlelab_intercepts_names[i],
			    cpu_data->state_bins[i].intercepts, false);
	}
	idlelab_put(vars, &n, max, "total", cpu_data->total, false);
	idlelab_put(vars, &n, max, "total_tick", cpu_data->total_tick, false);
	idlelab_put(vars, &n, max, "tick_intercepts", cpu_data->tick_intercepts, false);
	idlelab_put(vars, &n, max, "short_idles", cpu_data->short_idles, false);
	for (int k = 0; k < IDLELAB_RECENT; k++)
		idlelab_put(vars, &n, max, idlelab_recent_names[k], cpu_data->recent_ns[k], false);
	idlelab_put(vars, &n, max, "recent_next", cpu_data->recent_next, false);
	idlelab_put(vars, &n, max, "halt_good", cpu_data->halt_good, false);
	idlelab_put(vars, &n, max, "halt_total", cpu_data->halt_total, false);
	idlelab_put(vars, &n, max, "tick_streak", cpu_data->tick_streak, false);
	idlelab_put(vars, &n, max, "tick_wakeup", cpu_data->tick_wakeup, false);
	idlelab_put(vars, &n, max, "poll_limited", cpu_data->poll_limited, false);
	idlelab_put(vars, &n, max, "halted_after_poll", cpu_data->halted_after_poll, false);
	idlelab_put(vars, &n, max, "last_state_idx", (u64)(s64)dev->last_state_idx, true);
	return n;
}

/* The kernel file's module_param()s, with its defaults (unsigned int and bool, as there). */
static const struct il_param idlelab_param_table[] = {
	{ "poll_once", IL_PARAM_BOOL, 1, offsetof(struct idlelab_cpu, poll_once),
	  "step 5: after a polling period cut by the poll limit, halt instead (bool)" },
	{ "poll_median", IL_PARAM_BOOL, 1, offsetof(struct idlelab_cpu, poll_median),
	  "step 5: halt instead of polling when most recent periods were longer (bool)" },
	{ "tick_promote", IL_PARAM_BOOL, 0, offsetof(struct idlelab_cpu, tick_promote),
	  "step 6: after two tick-ended periods of half a tick or more, go deep (bool)" },
	{ "recent_guard", IL_PARAM_BOOL, 1, offsetof(struct idlelab_cpu, recent_guard),
	  "step 7: go shallower when every recent idle period was shorter (bool)" },
	{ "recent_samples", IL_PARAM_UINT, IDLELAB_RECENT,
	  offsetof(struct idlelab_cpu, recent_samples),
	  "recent idle periods step 7 requires; read clamped to 1..8" },
	{ 0 }
};

static const struct il_governor idlelab_governor = {
	.name = "idlelab",
	.rating = 15,
	.data_size = sizeof(struct idlelab_cpu),
	.enable = idlelab_enable_device,
	.select = idlelab_select,
	.reflect = idlelab_reflect,
	.vars = idlelab_vars,
	.params = idlelab_param_table,
};

const struct il_preset il_presets_idlelab[] = {
	{
		.name = "idlelab-1",
		.gov = &idlelab_governor,
		.kver = IL_KV(7, 1, 0),
		.core = &il_core_7_0,
		.kernel = "none (idlelab's own, for v7.1)",
		.upstream =
			"kgov-src/idlelab.c 4367700e4c49 (idlelab's own kernel file, not upstream)",
		.changes = "timer-event bins with a recent-intervals guard (docs/governor.md)",
		.cfg = NULL,
	},
	{ 0 }
};
