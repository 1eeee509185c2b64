/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * governor.h - governor families, their version presets, and the registry.
 *
 * DOC: governors and presets
 *
 *  1. A "governor" (struct il_governor) is one governor family as the kernel registers it:
 *     enable / disable / select / reflect, plus the size of its per-CPU data and a hook that
 *     exposes its internal state for `idlelab step` and the kgov differential checks.
 *     There is one file per family in lib/gov/.
 *  2. A "preset" (struct il_preset) is one upstream version of a family: a name users type
 *     (menu-6.18), the kernel framework rules around it (struct il_core_rules), where its
 *     upstream file is, and a family-specific configuration that switches the version
 *     differences inside the one port file.
 *  3. The registry is the explicit list IL_GOVERNORS() in lib/gov/governors.h.
 */
#ifndef IDLELAB_GOVERNOR_H
#define IDLELAB_GOVERNOR_H

#include "cpuidle.h"
#include "env.h"

/* The framework around a governor: idle loop, polling state, QoS and accounting rules. */
enum il_idle_loop {
	IL_LOOP_4_16,   /* tick stopped on idle entry, before select; no stop_tick */
	IL_LOOP_4_17,   /* select, then stop or retain the tick per stop_tick */
	IL_LOOP_6_X,    /* + "|| tick_nohz_tick_stopped()" keeps a stopped tick stopped */
	IL_LOOP_6_19_9, /* single-state devices bypass the governor and retain the tick */
	IL_LOOP_7_0,    /* single-state / no-driver paths use got_tick (f4c31b07b136) */
};

enum il_poll_rule {
	IL_POLL_4_16, /* poll until a wakeup, no time limit */
	IL_POLL_4_17, /* limit TICK_NSEC/16, poll_time_limit not set */
	IL_POLL_5_X,  /* cpuidle_poll_time(): poll_limit_ns or min(TICK/16, first tr >= 10 µs) */
};

enum il_qos_rule {
	IL_QOS_4_X,  /* pm_qos_request(CPU_DMA_LATENCY) and the device resume latency, µs */
	IL_QOS_5_X,  /* cpuidle_governor_latency_req(): min(resume, cpu) * 1000, s64 ns */
	IL_QOS_6_19, /* + min with the CPU system-wakeup QoS limit */
};

enum il_acct_rule {
	IL_ACCT_4_X, /* last_residency in µs (int) */
	IL_ACCT_5_X, /* last_residency_ns, above/below/rejected */
};

struct il_core_rules {
	const char *name; /* "6.13", "7.0", "debian-6.12" ... */
	enum il_idle_loop idle_loop;
	enum il_poll_rule poll;
	enum il_qos_rule qos;
	enum il_acct_rule acct;
};

IL_PUBLIC extern const struct il_core_rules il_core_4_16, il_core_4_17, il_core_6_13,
	il_core_6_19, il_core_6_19_9, il_core_7_0, il_core_debian_6_1, il_core_debian_6_12,
	il_core_6_18_35;

/* One named internal value of a governor, for step output and differential checks. */
struct il_var {
	const char *name; /* static string, e.g. "cf[3]", "predicted_ns" */
	u64 value;        /* the bits of the value */
	bool is_signed;   /* print as s64 */
	bool diag;        /* computed by the port for display (e.g. the last predicted_ns), not a
			   * field of the upstream per-CPU struct; differential checks skip it */
};

#define IL_MAX_VARS 96

/*
 * A governor tunable: what the kernel exposes as a module_param() of the governor file
 * (haltpoll's guest_halt_poll_ns, ...). The value of each device lives in its governor data
 * at @offset, with the C type of @type; il_gov_bind() stores @def there before enable().
 */
enum il_param_type {
	IL_PARAM_UINT, /* unsigned int; set like kstrtouint(value, 0): decimal, 0x hex, 0 octal */
	IL_PARAM_BOOL, /* bool; set like kstrtobool(): y/Y/1/on or n/N/0/off */
};

struct il_param {
	const char *name; /* the module parameter's name, e.g. "guest_halt_poll_ns" */
	enum il_param_type type;
	u64 def;          /* default value (0 or 1 for a bool) */
	size_t offset;    /* offsetof() the value in the governor's per-CPU data */
	const char *help; /* one line, with the unit */
};

struct il_governor {
	const char *name;
	unsigned int rating;
	size_t data_size; /* per-CPU private data, zeroed before enable */
	int (*enable)(struct il_driver *drv, struct il_device *dev);
	void (*disable)(struct il_driver *drv, struct il_device *dev);
	int (*select)(struct il_driver *drv, struct il_device *dev, bool *stop_tick);
	void (*reflect)(struct il_device *dev, int index);
	/*
	 * Write the governor's per-CPU state (and its last select()'s key values, such as
	 * menu's predicted_ns) into @vars; return how many were written (<= @max).
	 */
	int (*vars)(const struct il_device *dev, struct il_var *vars, int max);
	const struct il_param *params; /* tunables, terminated by { 0 }; NULL if none */
};

struct il_preset {
	const char *name;     /* what -g takes: "menu-6.18" */
	const struct il_governor *gov;
	int kver;             /* IL_KV() of the governor file's kernel */
	const struct il_core_rules *core;
	const char *kernel;   /* "v6.18" */
	const char *upstream; /* "menu.c 23239b0c04f9 (db86f55bf81a)" */
	const char *changes;  /* one line: what changed against the previous preset */
	const void *cfg;      /* family-specific switches, see the port file */
};

/* Registry (lib/gov/registry.c; il_preset_find() in lib/presets.c, which adds "file:"). */
IL_PUBLIC int il_preset_count(void);
IL_PUBLIC const struct il_preset *il_preset_at(int i);
/**
 * il_preset_find - look up a preset or an alias ("menu", "teo") by name
 * Return: the preset, or NULL if no preset has that name.
 */
IL_PUBLIC const struct il_preset *il_preset_find(const char *name);
/**
 * il_preset_lookup - il_preset_find(), saying why a "file:" name did not load
 * Return: the preset; or NULL with why in @err (the object's path and dlerror(), or what it
 * lacks), or NULL with @err->msg empty for a name that is simply not a preset.
 */
struct il_error;
const struct il_preset *il_preset_lookup(const char *name, struct il_error *err);
/** il_preset_alias_target - for an alias, the preset it stands for; NULL otherwise */
IL_PUBLIC const char *il_preset_alias_target(const char *name);

/**
 * il_gov_bind - attach @preset to @dev: allocate and zero its data, then call enable()
 * Return: 0, or -1 with errno set (ENOMEM, or the enable() error).
 */
IL_PUBLIC int il_gov_bind(struct il_driver *drv, struct il_device *dev,
			  const struct il_preset *preset);
/** il_gov_unbind - call disable() and free the per-CPU data */
IL_PUBLIC void il_gov_unbind(struct il_driver *drv, struct il_device *dev);

/* Tunables (lib/gov/param.c). */
/**
 * il_gov_find_param - the entry of @gov's parameter table called @name
 * Return: the entry, or NULL if @gov has no such parameter.
 */
IL_PUBLIC const struct il_param *il_gov_find_param(const struct il_governor *gov, const char *name);
/**
 * il_gov_param_defaults - store the default of every tunable in @dev's governor data
 *
 * il_gov_bind() calls it between zeroing the data and enable().
 */
IL_PUBLIC void il_gov_param_defaults(struct il_device *dev);
/**
 * il_gov_set_param - set tunable @name of the governor bound to @dev, parsed from @value
 * Return: 0, or -1 with errno ENOENT (no governor bound or no such parameter), EINVAL (@value
 * is not a valid number or boolean) or ERANGE (@value does not fit the parameter's type).
 * On error the stored value is unchanged.
 */
IL_PUBLIC int il_gov_set_param(struct il_device *dev, const char *name, const char *value);
/**
 * il_gov_get_param - read tunable @name of the governor bound to @dev into *@value
 * Return: 0, or -1 with errno ENOENT (no governor bound or no such parameter).
 */
IL_PUBLIC int il_gov_get_param(const struct il_device *dev, const char *name, u64 *value);

#endif /* IDLELAB_GOVERNOR_H */
