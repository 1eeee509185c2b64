/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kcompat.h - the kernel calls the governor ports make, forwarded to the environment.
 *
 * The ports in lib/gov/ call these under their kernel names so that a port reads like its
 * upstream file. The one visible difference: the kernel finds the current CPU implicitly,
 * a port passes @dev (for TICK_NSEC too, because HZ is a parameter here, not a constant).
 *
 * Only the ports in lib/gov/ include this header.
 */
#ifndef IDLELAB_KCOMPAT_H
#define IDLELAB_KCOMPAT_H

#include <limits.h>

#include "cpuidle.h"
#include "env.h"
#include "governor.h"

#define U64_MAX UINT64_MAX
#define S64_MAX INT64_MAX
#define UINT_MAX_ UINT_MAX

#define min_t(type, a, b) ((type)(a) < (type)(b) ? (type)(a) : (type)(b))
#define max_t(type, a, b) ((type)(a) > (type)(b) ? (type)(a) : (type)(b))

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

/* ktime_divns() on 64-bit: plain signed division, truncating toward zero. */
static inline s64 ktime_to_us(ktime_t kt)
{
	return kt / NSEC_PER_USEC;
}

/* DIV_ROUND_CLOSEST_ULL(x, d) for the unsigned case used by 4.x menu. */
static inline u64 div_round_closest_ull(u64 x, u32 d)
{
	return (x + d / 2) / d;
}

static inline u64 tick_nsec(const struct il_device *dev)
{
	return dev->env->tick_nsec;
}

static inline u64 tick_usec(const struct il_device *dev)
{
	return dev->env->tick_usec;
}

static inline ktime_t tick_nohz_get_sleep_length(const struct il_device *dev, ktime_t *delta_next)
{
	return dev->env->ops->sleep_length(dev->env, delta_next);
}

/* The 4.16 form: one value, taken after the idle loop stopped the tick if it could. */
static inline ktime_t tick_nohz_get_sleep_length_4_16(const struct il_device *dev)
{
	return dev->env->ops->sleep_length(dev->env, NULL);
}

/*
 * Whether the environment keeps a struct il_env_state at its ctx (lib/env.h): then the three
 * inputs below are read there, without a call.
 */
static inline bool env_state_at_ctx(const struct il_env *env)
{
	return env->ops->state_at_ctx;
}

static inline bool tick_nohz_tick_stopped(const struct il_device *dev)
{
	const struct il_env *env = dev->env;

	if (env_state_at_ctx(env))
		return ((const struct il_env_state *)env->ctx)->tick_stopped;
	return env->ops->tick_stopped(env);
}

static inline bool tick_nohz_idle_got_tick(const struct il_device *dev)
{
	const struct il_env *env = dev->env;

	if (!env_state_at_ctx(env))
		return env->ops->got_tick(env);
	return il_env_state_take_got_tick(env->ctx);
}

static inline u64 local_clock(const struct il_device *dev)
{
	return dev->env->ops->local_clock(dev->env);
}

static inline unsigned long nr_iowait_cpu(const struct il_device *dev)
{
	return dev->env->ops->nr_iowait(dev->env);
}

/* 4.x get_iowait_load(): nr_iowait and this_rq()->load.weight. */
static inline void get_iowait_load(const struct il_device *dev, unsigned long *nr_waiters,
				   unsigned long *load)
{
	*nr_waiters = dev->env->ops->nr_iowait(dev->env);
	*load = dev->env->ops->load_weight(dev->env);
}

/* The raw QoS limits: in the environment's struct il_env_state, or copied into @buf. */
static inline const struct il_qos *env_qos(const struct il_device *dev, struct il_qos *buf)
{
	const struct il_env *env = dev->env;

	if (env_state_at_ctx(env))
		return &((const struct il_env_state *)env->ctx)->qos;
	env->ops->qos(env, buf);
	return buf;
}

/*
 * 4.16/4.17 menu and ladder: pm_qos_request(PM_QOS_CPU_DMA_LATENCY), lowered to the
 * device resume latency when that one is set and smaller. int µs.
 */
static inline int pm_qos_latency_req_4_x(const struct il_device *dev)
{
	struct il_qos buf;
	const struct il_qos *q = env_qos(dev, &buf);
	int latency_req, resume_latency;

	latency_req = q->cpu_latency_us;
	resume_latency = q->resume_latency_us;
	if (resume_latency < latency_req && resume_latency != PM_QOS_RESUME_LATENCY_NO_CONSTRAINT)
		latency_req = resume_latency;
	return latency_req;
}

/*
 * cpuidle_governor_latency_req(): the smaller of the device resume latency and the global
 * CPU latency limit (6.19+: and the CPU wakeup latency limit), as s64 ns.
 */
static inline s64 cpuidle_governor_latency_req(const struct il_device *dev)
{
	struct il_qos buf;
	const struct il_qos *q = env_qos(dev, &buf);
	s32 device_req, global_req;

	device_req = q->resume_latency_us;
	global_req = q->cpu_latency_us;
	if (dev->preset->core->qos >= IL_QOS_6_19 && q->wakeup_latency_us < global_req)
		global_req = q->wakeup_latency_us;
	if (device_req > global_req)
		device_req = global_req;
	return (s64)device_req * NSEC_PER_USEC;
}

#endif /* IDLELAB_KCOMPAT_H */
