/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * platform.h - machine descriptions: the idle-state table of one CPU type and its context.
 *
 * DOC: platforms
 *
 * A "platform" is what a governor needs to know about a machine, and nothing read from the
 * host: the cpuidle driver's state table (struct il_driver, shallow to deep), the number of
 * CPUs, CONFIG_HZ, and for every number a note saying where it comes from. The text format
 * is documented in docs/platforms.md; in short:
 *
 *	platform    i5-10600k
 *	driver      intel_idle
 *	description "Intel Core i5-10600K (Comet Lake-S), ACPI _CST states"
 *	cpus 12
 *	  source: ...
 *	hz 1000
 *	  source: ...
 *	active_power_uw 3833333
 *	  source: ...
 *	state C2_ACPI desc="ACPI FFH MWAIT 0x30" exit_latency=120us target_residency=360us \
 *	      power_uw=150000 entry_exit_energy_nj=460000
 *	  source: ...
 *
 *  1. il_platform_parse() turns such a text into a struct il_platform, runs
 *     il_driver_init() on its state table, and checks that every cpus/hz/active_power_uw/state
 *     line has at least one "source:" note. active_power_uw (the power of a CPU running work)
 *     is optional, like the states' power fields.
 *  2. Built-in platforms are the files in platforms/, embedded into the library at build time
 *     and registered in the explicit list IL_PLATFORMS() (lib/platform/platforms.h).
 *     An "uncertain:" line next to the source: notes gives a number's class (measured,
 *     datasheet, fitted, assumed) and plausible range (lib/platform/uncertain.h).
 *  3. il_platform_load() takes what a user typed after -p: a path (anything with a '/' or
 *     ending in ".plat") is read from disk, anything else names a built-in.
 *
 * Errors come back as "FILE:LINE: message" in a struct il_error; the library never prints.
 */
#ifndef IDLELAB_PLATFORM_H
#define IDLELAB_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>

#include "../cpuidle.h"
#include "../error.h"
#include "uncertain.h"

#define IL_PLAT_NAME_LEN 32
#define IL_PLAT_DESC_LEN 128
#define IL_PLAT_ORIGIN_LEN 256
#define IL_PLAT_SOURCE_LEN 1024
#define IL_PLAT_CPUS_MAX 8192
#define IL_PLAT_UNC_MAX 48 /* "uncertain:" lines per file */

/* Upper bounds that keep later arithmetic (energy = power * time) far from overflow. */
#define IL_PLAT_TIME_MAX_NS (10 * NSEC_PER_SEC) /* exit latency / target residency */
#define IL_PLAT_POWER_MAX_UW 1000000000ULL      /* 1 kW per CPU */
#define IL_PLAT_ENERGY_MAX_NJ 1000000000000ULL  /* 1 kJ per entry + exit */
/*
 * A latency or residency of UINT_MAX us (4294967295us): what sysfs shows for a state no
 * governor will pick (an s2idle-only state). Accepted as that value, above the 10 s bound.
 */
#define IL_PLAT_UINT_MAX_US 4294967295ULL

/* Per-CPU state tables and power domains (docs/platforms.md, lib/platform/topology.c). */
#define IL_PLAT_TABLES_MAX 4
#define IL_PLAT_DOMAINS_MAX 8
#define IL_PLAT_CPU_WORDS (IL_PLAT_CPUS_MAX / 64)

/* One "table NAME cpus=LIST" block: the state table of a group of CPUs. */
struct il_plat_table {
	char name[IL_PLAT_NAME_LEN];
	struct il_driver drv; /* after il_driver_init() */
	int line;             /* of its "table" line */
	char cpus_source[IL_PLAT_SOURCE_LEN];
	char state_source[CPUIDLE_STATE_MAX][IL_PLAT_SOURCE_LEN];
};

/* How the firmware coordinates a domain's states (PSCI 1.0 CPU_SUSPEND modes). */
enum il_domain_mode {
	IL_DOMAIN_PC,  /* platform-coordinated: the firmware demotes to what the domain allows */
	IL_DOMAIN_OSI, /* OS-initiated: only the domain's last running CPU may enter its state */
};

/* One "domain NAME cpus=LIST states=LIST mode=pc|osi" line. */
struct il_domain {
	char name[IL_PLAT_NAME_LEN];
	enum il_domain_mode mode;
	unsigned int states;        /* bit i: state i of every member's table is this domain's */
	unsigned int ncpus;         /* members */
	s64 reject_latency_ns;      /* OSI: what a refused entry costs before the loop retries */
	u64 cpus[IL_PLAT_CPU_WORDS];
	int line;
	char states_text[256];      /* the states= value, resolved when the file is complete */
	char source[IL_PLAT_SOURCE_LEN];
};

struct il_platform {
	char name[IL_PLAT_NAME_LEN];
	char description[IL_PLAT_DESC_LEN];
	char origin[IL_PLAT_ORIGIN_LEN]; /* "builtin:skx" or the path it was read from */
	unsigned int cpus;
	unsigned int hz;                 /* CONFIG_HZ */
	struct il_driver drv;            /* after il_driver_init() */
	bool power_known;                /* every state gave power_uw and entry_exit_energy_nj */
	u64 active_power_uw;             /* a CPU running work, µW; 0: the file gives none */
	/*
	 * The host threads that execute the CPUs (an emulator's vCPUs); 0: every CPU is its own
	 * hardware. An IPI a running CPU raises reaches a halted one only when a thread is free:
	 * engine.c.
	 */
	unsigned int host_threads;
	/*
	 * How late a timer interrupt arrives after its expiry, each expiry a uniform draw from
	 * min..max; max 0: on time. The governors still read the programmed expiry: engine.c.
	 */
	s64 timer_late_min_ns, timer_late_max_ns;
	/*
	 * How long a timer interrupt's handler (with its softirqs) runs on its CPU, each a
	 * uniform draw from min..max; max 0: no time at this model's scale (engine.c).
	 */
	s64 timer_handler_min_ns, timer_handler_max_ns;
	/* Where the numbers come from: the "source:" notes, joined with "; ". */
	char cpus_source[IL_PLAT_SOURCE_LEN];
	char hz_source[IL_PLAT_SOURCE_LEN];
	char active_power_source[IL_PLAT_SOURCE_LEN]; /* "" when active_power_uw is 0 */
	char host_threads_source[IL_PLAT_SOURCE_LEN]; /* "" when host_threads is 0 */
	char timer_late_source[IL_PLAT_SOURCE_LEN];   /* "" when timer_late_max_ns is 0 */
	char timer_handler_source[IL_PLAT_SOURCE_LEN]; /* "" when timer_handler_max_ns is 0 */
	char state_source[CPUIDLE_STATE_MAX][IL_PLAT_SOURCE_LEN];
	/*
	 * Per-CPU tables: 0 for the one-table shorthand (drv is every CPU's table); else drv and
	 * state_source above are tables[0]'s and cpu_table[cpu] is 1 + the index of the CPU's.
	 */
	int ntables;
	struct il_plat_table tables[IL_PLAT_TABLES_MAX];
	unsigned char cpu_table[IL_PLAT_CPUS_MAX];
	int ndomains;
	struct il_domain domains[IL_PLAT_DOMAINS_MAX];
	/* The numbers that carry a class and a range ("uncertain:" lines, uncertain.h). */
	int nunc;
	struct il_plat_unc unc[IL_PLAT_UNC_MAX];
};

/**
 * il_platform_cpu_drv - the state table of @cpu; a CPU beyond the file's takes the table of
 * CPU @cpu % cpus (a lab run on more CPUs than the platform has)
 */
const struct il_driver *il_platform_cpu_drv(const struct il_platform *plat, unsigned int cpu);

/** il_platform_cpu_table - the index of @cpu's table (0 with the one-table shorthand) */
int il_platform_cpu_table(const struct il_platform *plat, unsigned int cpu);

/** il_platform_can_reject - whether an entry can be refused: an OS-initiated domain */
bool il_platform_can_reject(const struct il_platform *plat);

/** il_platform_table_cpus - "0-3,6": the CPUs of table @t, into @buf */
const char *il_platform_table_cpus(const struct il_platform *plat, int t, char *buf, size_t cap);
/** il_domain_cpus - the CPUs of domain @d, likewise */
const char *il_domain_cpus(const struct il_platform *plat, const struct il_domain *d, char *buf,
			   size_t cap);
/** il_domain_mode_name - "pc" or "osi", as the file writes them */
const char *il_domain_mode_name(enum il_domain_mode mode);

/** il_domain_has_cpu - whether @cpu is a member of @d */
static inline bool il_domain_has_cpu(const struct il_domain *d, unsigned int cpu)
{
	return cpu < IL_PLAT_CPUS_MAX && (d->cpus[cpu / 64] >> (cpu % 64) & 1);
}

/**
 * il_platform_parse - parse a platform description
 * @text: the text (need not be NUL-terminated; a NUL byte inside is an error)
 * @len: its length in bytes
 * @file: the name to use in error messages
 * @plat: the result; its origin is set to @file
 * @err: the error, "FILE:LINE: message"
 *
 * Return: 0, or -1 with @err set.
 */
int il_platform_parse(const char *text, size_t len, const char *file, struct il_platform *plat,
		      struct il_error *err);

/**
 * il_platform_load_file - read and parse the platform file at @path
 * Return: 0, or -1 with @err set (also when the file cannot be read).
 */
int il_platform_load_file(const char *path, struct il_platform *plat, struct il_error *err);

/** il_platform_is_path - whether a -p argument names a file rather than a built-in */
bool il_platform_is_path(const char *spec);

/**
 * il_platform_load - load a built-in platform by name, or a platform file by path
 * Return: 0, or -1 with @err set (unknown built-in, unreadable or invalid file).
 */
int il_platform_load(const char *spec, struct il_platform *plat, struct il_error *err);

/* Built-in platforms, in the order of IL_PLATFORMS(). */
int il_platform_builtin_count(void);
const char *il_platform_builtin_name(int i);
/** il_platform_builtin_text - the embedded text of built-in @name, or NULL */
const char *il_platform_builtin_text(const char *name);

/**
 * il_platform_device_init - register @dev against @plat's driver as cpuidle does: zero it,
 * then disable the states flagged CPUIDLE_FLAG_UNUSABLE (by the driver) or CPUIDLE_FLAG_OFF
 * (by the user), as __cpuidle_register_device() does.
 */
void il_platform_device_init(const struct il_platform *plat, struct il_device *dev);
/** il_platform_cpu_device_init - the same for CPU @cpu, from its own table */
void il_platform_cpu_device_init(const struct il_platform *plat, unsigned int cpu,
				 struct il_device *dev);
/** il_platform_table_device_init - the same for table @t (0 with the one-table shorthand) */
void il_platform_table_device_init(const struct il_platform *plat, int t, struct il_device *dev);

/** il_flag_names - "polling,timer-stop" for @flags ("none" for 0), into @buf */
const char *il_flag_names(unsigned int flags, char *buf, size_t cap);

#endif /* IDLELAB_PLATFORM_H */
