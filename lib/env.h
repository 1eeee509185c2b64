/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * env.h - the environment interface: everything a governor reads from the rest of the kernel.
 *
 * DOC: environment
 *
 * A governor port never reaches into the simulator, the step driver or a trace replayer.
 * It calls the kernel functions it calls upstream (tick_nohz_get_sleep_length(), PM QoS,
 * tick_nohz_tick_stopped(), ...) through lib/kcompat.h, and kcompat.h forwards them here.
 * Each user of a governor (idlelab step, the simulator, replay, kgov) implements these ops:
 *
 *  1. sleep_length: tick_nohz_get_sleep_length(). Returns the time until the next timer as
 *     if the tick were stopped, and stores in *delta_next the time until the next programmed
 *     event (the tick while it runs). @delta_next is NULL for the 4.16 form, which returns
 *     the time to the programmed event after the idle loop has already stopped the tick.
 *     Both values may be negative.
 *  2. tick_stopped: tick_nohz_tick_stopped().
 *  3. got_tick: tick_nohz_idle_got_tick(); returns and CLEARS the flag, so the first caller
 *     after a tick wakeup sees true and every later one false.
 *  4. qos: the raw PM QoS inputs in µs; lib/kcompat.h turns them into each era's
 *     latency_req (pm_qos_request() in 4.x, cpuidle_governor_latency_req() later).
 *  5. nr_iowait / load_weight: what 4.x menu (and 6.1 menu) read from the runqueue.
 *  6. local_clock: the CPU clock in ns (teo-6.13 and older measure a time span with it).
 *  7. oracle_idle_ns: the true length of the coming idle period. Only the oracle governor
 *     may call it; no kernel governor can know it.
 *
 * An implementer that keeps tick_stopped, got_tick and the QoS limits in memory anyway (the
 * simulator) may let lib/kcompat.h read them there, without a call: it sets state_at_ctx and
 * points ctx at a struct il_env_state it keeps current. It still implements ops 2-4, for the
 * callers outside kcompat.h (kgov, kshim). The ops structs are static, so the flag is false
 * unless an implementer opts in; struct il_env itself is not always zeroed, hence the flag's
 * place in the ops.
 */
#ifndef IDLELAB_ENV_H
#define IDLELAB_ENV_H

#include "cpuidle.h"

/* Defaults of the kernel's PM QoS classes, µs. */
#define PM_QOS_CPU_LATENCY_DEFAULT_VALUE (2000 * USEC_PER_SEC)
#define PM_QOS_RESUME_LATENCY_NO_CONSTRAINT S32_MAX
#define USEC_PER_SEC 1000000L
#ifndef S32_MAX
#define S32_MAX INT32_MAX
#endif

struct il_qos {
	s32 cpu_latency_us;    /* global CPU latency QoS (/dev/cpu_dma_latency), default 2e9 */
	s32 resume_latency_us; /* per-CPU device resume latency, S32_MAX = no constraint */
	s32 wakeup_latency_us; /* 6.19+: CPU system-wakeup QoS, default 2e9 */
};

struct il_env;

/* What ops 2-4 answer, for an implementer that opts into the direct reads (state_at_ctx). */
struct il_env_state {
	struct il_qos qos;
	bool tick_stopped;
	bool got_tick;      /* cleared by the read, as by ops->got_tick */
};

/* Read got_tick and clear it: ops->got_tick's rule, for an implementer keeping the state. */
static inline bool il_env_state_take_got_tick(struct il_env_state *st)
{
	bool got = st->got_tick;

	st->got_tick = false;
	return got;
}

struct il_env_ops {
	s64 (*sleep_length)(const struct il_env *env, s64 *delta_next);
	bool (*tick_stopped)(const struct il_env *env);
	bool (*got_tick)(const struct il_env *env);
	void (*qos)(const struct il_env *env, struct il_qos *out);
	unsigned long (*nr_iowait)(const struct il_env *env);
	unsigned long (*load_weight)(const struct il_env *env);
	u64 (*local_clock)(const struct il_env *env);
	s64 (*oracle_idle_ns)(const struct il_env *env);
	bool state_at_ctx;  /* ctx points to a struct il_env_state (see above) */
};

struct il_env {
	const struct il_env_ops *ops;
	void *ctx;          /* the implementer's state */
	unsigned int cpu;
	unsigned int hz;    /* CONFIG_HZ: 100, 250, 300 or 1000 */
	u64 tick_nsec;      /* TICK_NSEC = (NSEC_PER_SEC + HZ/2) / HZ */
	u64 tick_usec;      /* TICK_USEC (4.17) = (USEC_PER_SEC + HZ/2) / HZ */
};

/**
 * il_env_set_hz - set @env's HZ and the tick lengths derived from it
 * Return: 0, or -1 if @hz is not a positive value.
 */
IL_PUBLIC int il_env_set_hz(struct il_env *env, unsigned int hz);

static inline void il_qos_defaults(struct il_qos *q)
{
	q->cpu_latency_us = PM_QOS_CPU_LATENCY_DEFAULT_VALUE;
	q->resume_latency_us = PM_QOS_RESUME_LATENCY_NO_CONSTRAINT;
	q->wakeup_latency_us = PM_QOS_CPU_LATENCY_DEFAULT_VALUE;
}

#endif /* IDLELAB_ENV_H */
