/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lab.h - one lab run: il_lab_run() is platform + preset + scenario + seed -> metrics, score.
 */
#ifndef IDLELAB_LAB_H
#define IDLELAB_LAB_H

#include "../scenario/scenario.h"

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
};

struct il_lab_result {
	char label[IL_SCN_LABEL_LEN];
	double score;
	struct il_summary sum;
	unsigned int ncpus;
	unsigned int hz;
	int nstates;
	struct il_driver drv;
	bool can_reject;         /* the platform has an OS-initiated domain: tables show rejected */
	struct il_metrics m;     /* owned: il_lab_result_free() */
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
 * il_lab_ipi_ns - how long a remote wakeup takes to reach a CPU in a real idle state on
 * @plat: 0 for intel_idle (MWAIT monitors the idle task's flags, so setting need_resched
 * wakes the CPU without an IPI), else IL_SIM_IPI_NS_DEFAULT
 */
u64 il_lab_ipi_ns(const struct il_platform *plat);

/** il_lab_power - the energy model of @plat (active power @active_uw, 0: see il_lab_spec) */
void il_lab_power(const struct il_platform *plat, u64 active_uw, struct il_power *pw);

#endif /* IDLELAB_LAB_H */
