/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lab.h - one lab run: il_lab_run() is platform + preset + scenario + seed -> metrics, score.
 */
#ifndef IDLELAB_LAB_H
#define IDLELAB_LAB_H

#include "../scenario/scenario.h"

#define IL_LAB_REPRICE_MAX 64 /* il_lab_spec.nreprice */

struct il_lab_spec {
	const struct il_platform *plat;
	const struct il_preset *preset;
	const struct il_scenario *scn;
	struct il_scn_args args;
	struct il_scn_common common;
	u64 duration_ns;
	u64 seed;
	u64 active_uw;          /* 0: the platform's active_power_uw (see il_lab_power) */
	const u64 *pn_us;       /* PowerNightmare thresholds, NULL: defaults */
	const struct il_sim_observer *observer; /* optional */
	/*
	 * Platforms that differ from plat in power numbers only (which change no event of a
	 * run): the run is priced under each of them too, into il_lab_result.repriced[].
	 */
	const struct il_platform *const *reprice;
	unsigned int nreprice;
};

struct il_lab_result {
	char label[IL_SCN_LABEL_LEN];
	double score;
	struct il_summary sum;
	unsigned int ncpus;
	unsigned int hz;
	int nstates;
	struct il_driver drv;
	struct il_metrics m;     /* owned: il_lab_result_free() */
	/* [spec->nreprice]: sum as a run on spec->reprice[k] would have it; owned */
	struct il_summary *repriced;
	u64 events;
	u64 selects;
};

/**
 * il_lab_run - simulate @spec and fill @res
 * Return: 0, or -1 with errno set (EINVAL for an inconsistent spec, ENOMEM, or the
 * governor's enable() error).
 */
int il_lab_run(const struct il_lab_spec *spec, struct il_lab_result *res);
void il_lab_result_free(struct il_lab_result *res);

/**
 * il_lab_check_cpus - whether the machine of a run of @scn on @plat (cpus=N, else the
 * scenario's default, else the platform's) has every CPU the workload names: an rt-app file
 * naming CPU 99 on an 8-CPU platform is refused, not simulated on 100 CPUs.
 * Return: 0, or -1 with @err (may be NULL) naming the file, the thread and the CPU.
 */
int il_lab_check_cpus(const struct il_scenario *scn, const struct il_scn_common *c,
		      const struct il_platform *plat, struct il_error *err);

/**
 * il_lab_ipi_ns - how long a remote wakeup takes to reach a CPU in a real idle state on
 * @plat: 0 for intel_idle (MWAIT monitors the idle task's flags, so setting need_resched
 * wakes the CPU without an IPI), else IL_SIM_IPI_NS_DEFAULT
 */
u64 il_lab_ipi_ns(const struct il_platform *plat);

/** il_lab_power - the energy model of @plat (active power @active_uw, 0: see il_lab_spec) */
void il_lab_power(const struct il_platform *plat, u64 active_uw, struct il_power *pw);

#endif /* IDLELAB_LAB_H */
