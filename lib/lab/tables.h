/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tables.h - lab results as output tables (see tables.c for the columns).
 */
#ifndef IDLELAB_LAB_TABLES_H
#define IDLELAB_LAB_TABLES_H

#include "../output/output.h"
#include "lab.h"

/** il_report_pm_init - an empty linux-pm table for @scn on @drv; Return: 0 or -1 (ENOMEM) */
int il_report_pm_init(struct il_table *t, const char *title, const struct il_scenario *scn,
		      const struct il_driver *drv);
/** il_report_pm_row - append the row of one run; Return: 0 or -1 (ENOMEM) */
int il_report_pm_row(struct il_table *t, const char *gov, int iter, const struct il_scenario *scn,
		     const struct il_lab_result *res);
/** il_report_states - per-state totals of one run */
int il_report_states(struct il_table *t, const struct il_lab_result *res);
/** il_report_cpus - per-CPU totals of one run */
int il_report_cpus(struct il_table *t, const struct il_lab_result *res);
/** il_report_run_info - what was run: platform, governor, parameters, seed, counts */
int il_report_run_info(struct il_table *t, const struct il_lab_spec *spec,
		       const struct il_lab_result *res);

#endif /* IDLELAB_LAB_TABLES_H */
