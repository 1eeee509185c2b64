/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpuidle.h - idlelab's kernel-shaped model of the cpuidle subsystem.
 *
 * DOC: the model
 *
 * The structures here follow include/linux/cpuidle.h closely so that the governor ports
 * under lib/gov/ read like their upstream files:
 *
 *  1. A "state" (struct il_state) is one idle state of a driver: name, exit latency and
 *     target residency (kept in both the 4.x microsecond fields and the 5.x+ nanosecond
 *     fields, as the kernel does after __cpuidle_driver_init()), flags, and the power-model
 *     numbers the simulator uses.
 *  2. A "driver" (struct il_driver) is the ordered state table, shallow to deep.
 *  3. A "device" (struct il_device) is one CPU: per-state usage counters, last residency,
 *     last state index, the poll window, and two pointers that the kernel does not have:
 *     the environment (lib/env.h) through which a governor reads the rest of the kernel,
 *     and the governor's private per-CPU data.
 *
 * All times are integer nanoseconds unless the field name says _us. The integer types
 * are the kernel's (s64/u64/unsigned int), because the ports depend on their semantics.
 */
#ifndef IDLELAB_CPUIDLE_H
#define IDLELAB_CPUIDLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * What libidlelab.so exports (include/idlelab/: these kernel-shaped headers and idlelab.h);
 * the library is built with -fvisibility=hidden, everything else stays inside.
 */
#ifndef IL_PUBLIC
#define IL_PUBLIC __attribute__((__visibility__("default")))
#endif

typedef int8_t s8;
typedef uint8_t u8;
typedef int16_t s16;
typedef uint16_t u16;
typedef int32_t s32;
typedef uint32_t u32;
typedef int64_t s64;
typedef uint64_t u64;
typedef s64 ktime_t;

#define NSEC_PER_USEC 1000LL
#define NSEC_PER_MSEC 1000000LL
#define NSEC_PER_SEC 1000000000LL
#define KTIME_MAX INT64_MAX

/* Kernel version of a preset, comparable with < and >=. */
#define IL_KV(a, b, c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))

#define IL_NAME_LEN 16
#define IL_DESC_LEN 32
#define CPUIDLE_STATE_MAX 10

/* State flags, same bits as include/linux/cpuidle.h. */
#define CPUIDLE_FLAG_NONE 0x00
#define CPUIDLE_FLAG_POLLING 0x01
#define CPUIDLE_FLAG_COUPLED 0x02
#define CPUIDLE_FLAG_TIMER_STOP 0x04
#define CPUIDLE_FLAG_UNUSABLE 0x08
#define CPUIDLE_FLAG_OFF 0x10
#define CPUIDLE_FLAG_TLB_FLUSHED 0x20
#define CPUIDLE_FLAG_RCU_IDLE 0x40

/* Bits of il_state_usage.disable, as CPUIDLE_STATE_DISABLED_BY_* in the kernel. */
#define CPUIDLE_STATE_DISABLED_BY_USER 0x1
#define CPUIDLE_STATE_DISABLED_BY_DRIVER 0x2

struct il_state {
	char name[IL_NAME_LEN];
	char desc[IL_DESC_LEN];
	unsigned int flags;
	/* 5.x+ governors read the ns fields; 4.x governors read the µs ones. */
	s64 exit_latency_ns;
	s64 target_residency_ns;
	unsigned int exit_latency;     /* µs */
	unsigned int target_residency; /* µs */
	bool disabled;                 /* 4.x: disabled for all CPUs (drv->states[i].disabled) */
	/* Power model (simulator only; governors never read these). */
	u64 power_uw;           /* average power while resident, microwatts */
	u64 entry_exit_energy_nj; /* energy of one entry + exit, nanojoules */
	/*
	 * Wake model (simulator only): the exit latency a CPU pays while another CPU of the
	 * package is running, so that the package cannot have followed it into a package
	 * C-state (0: exit_latency_ns). Declared exit latencies are the package worst case.
	 */
	s64 core_exit_latency_ns;
	/*
	 * What a wake from this state really costs where it differs from what the governors
	 * read (exit_latency): each wake draws a cost uniformly from [min, max] (equal: a
	 * fixed cost). It replaces exit_latency and core_exit_latency as the wakeup delay;
	 * 0: none, the declared latencies are charged.
	 */
	s64 actual_exit_min_ns, actual_exit_max_ns;
};

struct il_driver {
	char name[IL_NAME_LEN];
	int state_count;
	struct il_state states[CPUIDLE_STATE_MAX];
};

struct il_state_usage {
	unsigned long long disable;
	unsigned long long usage;
	u64 time_ns;
	unsigned long long above;    /* entered state too deep (5.x+ accounting) */
	unsigned long long below;    /* entered state too shallow */
	unsigned long long rejected; /* entry failed (enter() returned < 0) */
};

struct il_env;
struct il_preset;

struct il_device {
	unsigned int cpu;
	bool poll_time_limit;   /* set by the polling state when its time limit ended it */
	int last_state_idx;
	u64 last_residency_ns;  /* 5.x+; 0 after a rejected entry */
	int last_residency;     /* 4.x: µs, clamped to INT_MAX */
	u64 poll_limit_ns;      /* haltpoll's window and the cache of cpuidle_poll_time() */
	struct il_state_usage states_usage[CPUIDLE_STATE_MAX];

	/* Not in the kernel struct: what a governor reaches through per_cpu()/kernel calls. */
	const struct il_env *env;       /* see lib/env.h */
	const struct il_preset *preset; /* the governor preset bound to this device */
	void *governor_data;            /* the preset's per-CPU data, zeroed at bind time */
};

/**
 * il_driver_init - fill the derived fields of a state table like __cpuidle_driver_init()
 * @drv: driver whose states carry either µs or ns latency/residency values
 *
 * A non-zero µs field sets the ns field (µs * 1000); a zero µs field takes the ns field
 * (negative values clamped to 0) and derives µs from it.
 */
IL_PUBLIC void il_driver_init(struct il_driver *drv);

/**
 * il_state_enabled - whether @i is usable on @dev, as every governor tests it
 */
static inline bool il_state_enabled(const struct il_driver *drv, const struct il_device *dev, int i)
{
	return !drv->states[i].disabled && !dev->states_usage[i].disable;
}

#endif /* IDLELAB_CPUIDLE_H */
