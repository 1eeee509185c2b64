// SPDX-License-Identifier: GPL-2.0-only
/*
 * lab.c - one lab run: a platform, a governor preset and a scenario on the simulator.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"

/*
 * The energy model of a platform: each state's power and entry + exit energy, and the power
 * of a CPU running work. That active power is, in order: the caller's (--active-mw), the
 * platform file's active_power_uw, or, for a file without one, the power of its polling
 * state (a polling CPU spins like a busy one). Without any of them energy is unknown.
 */
static u64 active_power_uw(const struct il_platform *plat, u64 override_uw)
{
	const struct il_driver *drv = &plat->drv;

	if (override_uw)
		return override_uw;
	if (plat->active_power_uw)
		return plat->active_power_uw;
	if (drv->state_count && (drv->states[0].flags & CPUIDLE_FLAG_POLLING))
		return drv->states[0].power_uw;
	return 0;
}

void il_lab_power(const struct il_platform *plat, u64 active_uw, struct il_power *pw)
{
	const struct il_driver *drv = &plat->drv;

	memset(pw, 0, sizeof(*pw));
	for (int i = 0; i < drv->state_count; i++) {
		pw->state_uw[i] = drv->states[i].power_uw;
		pw->entry_exit_nj[i] = drv->states[i].entry_exit_energy_nj;
	}
	_Static_assert(IL_POWER_TABLES_MAX == IL_PLAT_TABLES_MAX, "one power table per table");
	if (plat->ntables > 1) {
		for (int t = 0; t < plat->ntables; t++) {
			const struct il_driver *tab = &plat->tables[t].drv;

			for (int i = 0; i < tab->state_count; i++) {
				pw->table_uw[t][i] = tab->states[i].power_uw;
				pw->table_nj[t][i] = tab->states[i].entry_exit_energy_nj;
			}
		}
		pw->cpu_table = plat->cpu_table;
		pw->cpu_table_len = plat->cpus;
	}
	pw->active_uw = active_power_uw(plat, active_uw);
	pw->known = plat->power_known && pw->active_uw;
}

u64 il_lab_ipi_ns(const struct il_platform *plat)
{
	return strcmp(plat->drv.name, "intel_idle") ? IL_SIM_IPI_NS_DEFAULT : 0;
}

/* The machine of a run: cpus=N, else the scenario's default, else the platform's. */
static unsigned int lab_ncpus(const struct il_scenario *scn, const struct il_scn_common *c,
			      const struct il_platform *plat)
{
	return c->cpus ? c->cpus : scn->default_cpus ? scn->default_cpus : plat->cpus;
}

static void lab_config(const struct il_lab_spec *spec, struct il_sim_config *cfg)
{
	const struct il_scn_common *c = &spec->common;

	il_sim_config_defaults(cfg);
	cfg->drv = &spec->plat->drv;
	cfg->preset = spec->preset;
	cfg->ncpus = lab_ncpus(spec->scn, c, spec->plat);
	cfg->hz = c->hz ? c->hz : spec->plat->hz;
	cfg->duration_ns = spec->duration_ns;
	cfg->seed = spec->seed;
	if (c->qos_us >= 0)
		cfg->qos.cpu_latency_us = (s32)c->qos_us;
	cfg->ipi_ns = c->ipi_ns >= 0 ? (u64)c->ipi_ns : il_lab_ipi_ns(spec->plat);
	cfg->host_threads = spec->plat->host_threads;
	cfg->timer_late_min_ns = (u64)spec->plat->timer_late_min_ns;
	cfg->timer_late_max_ns = (u64)spec->plat->timer_late_max_ns;
	cfg->timer_handler_min_ns = (u64)spec->plat->timer_handler_min_ns;
	cfg->timer_handler_max_ns = (u64)spec->plat->timer_handler_max_ns;
	cfg->rcu_permille =
		10 * (unsigned int)(c->rcu_pct >= 0 ? c->rcu_pct : spec->scn->default_rcu_pct);
	il_lab_power(spec->plat, spec->active_uw, &cfg->power);
	cfg->pn_us = spec->pn_us;
	cfg->nohz_full = c->has_nohz_full ? c->nohz_full : NULL;
	cfg->topology = spec->plat;
}

/*
 * The result keeps its own copy of the per-CPU counters; the simulator is freed. Of the
 * latency histogram it keeps count, sum and max (the percentiles are in the summary).
 */
static int copy_metrics(struct il_metrics *dst, const struct il_metrics *src)
{
	*dst = *src;
	dst->wake_latency.bucket = NULL;
	dst->cpu = malloc(src->ncpus * sizeof(*dst->cpu));
	if (!dst->cpu) {
		errno = ENOMEM;
		return -1;
	}
	memcpy(dst->cpu, src->cpu, src->ncpus * sizeof(*dst->cpu));
	return 0;
}

static void lab_label(const struct il_lab_spec *spec, struct il_lab_result *res)
{
	if (spec->scn->label)
		spec->scn->label(&spec->args, res->label, sizeof(res->label));
	else
		snprintf(res->label, sizeof(res->label), "%s", spec->scn->name);
}

/*
 * The summaries under the energy models of spec->reprice: the counters of the run (with
 * its latency histogram, which res->m lacks), their power domains' part charged under each
 * model as the run went.
 */
static int reprice(const struct il_sim *sim, const struct il_sim_config *cfg,
		   struct il_lab_result *res)
{
	struct il_metrics m = *il_sim_metrics(sim);

	if (!cfg->nreprice)
		return 0;
	res->repriced = calloc(cfg->nreprice, sizeof(*res->repriced));
	m.cpu = malloc(m.ncpus * sizeof(*m.cpu));
	if (!res->repriced || !m.cpu) {
		free(m.cpu);
		errno = ENOMEM;
		return -1;
	}
	memcpy(m.cpu, il_sim_metrics(sim)->cpu, m.ncpus * sizeof(*m.cpu));
	for (unsigned int k = 0; k < cfg->nreprice; k++) {
		for (unsigned int c = 0; c < m.ncpus; c++)
			m.cpu[c].domain_adjust_uj = il_sim_domain_adjust_uj(sim, c, k);
		il_metrics_summarize(&m, &cfg->reprice[k], &res->repriced[k]);
	}
	free(m.cpu);
	return 0;
}

static int lab_simulate(const struct il_lab_spec *spec, struct il_sim *sim, void *ctx,
			struct il_lab_result *res, const struct il_sim_config *cfg)
{
	if (spec->observer)
		il_sim_set_observer(sim, spec->observer);
	if (spec->scn->setup(sim, ctx, &spec->args) || il_sim_run(sim))
		return -1;
	res->score = spec->scn->score_fn(sim, ctx);
	il_metrics_summarize(il_sim_metrics(sim), &cfg->power, &res->sum);
	res->events = il_sim_events(sim);
	res->selects = il_sim_selects(sim);
	if (copy_metrics(&res->m, il_sim_metrics(sim)))
		return -1;
	if (reprice(sim, cfg, res)) {
		il_lab_result_free(res);
		return -1;
	}
	return 0;
}

int il_lab_check_cpus(const struct il_scenario *scn, const struct il_scn_common *c,
		      const struct il_platform *plat, struct il_error *err)
{
	unsigned int n = lab_ncpus(scn, c, plat);

	if (n >= c->min_cpus)
		return 0;
	return il_error_set(err, c->min_cpus_where[0] ? c->min_cpus_where : scn->name, 0,
			    "CPU %u is beyond the %u CPUs (0-%u) of platform %s: give cpus=%u to "
			    "simulate a larger machine", c->min_cpus - 1, n, n - 1, plat->name,
			    c->min_cpus);
}

int il_lab_run(const struct il_lab_spec *spec, struct il_lab_result *res)
{
	struct il_power reprice_pw[IL_LAB_REPRICE_MAX];
	struct il_sim_config cfg;
	struct il_sim *sim;
	void *ctx;
	int ret, err;

	memset(res, 0, sizeof(*res));
	/* (a workload naming CPUs the machine lacks: il_lab_check_cpus() says which) */
	if (!spec->plat || !spec->preset || !spec->scn || !spec->duration_ns ||
	    il_lab_check_cpus(spec->scn, &spec->common, spec->plat, NULL) ||
	    spec->nreprice > IL_LAB_REPRICE_MAX) {
		errno = EINVAL;
		return -1;
	}
	lab_config(spec, &cfg);
	for (unsigned int k = 0; k < spec->nreprice; k++)
		il_lab_power(spec->reprice[k], spec->active_uw, &reprice_pw[k]);
	cfg.reprice = reprice_pw;
	cfg.nreprice = spec->nreprice;
	ctx = calloc(1, spec->scn->ctx_size ? spec->scn->ctx_size : 1);
	if (!ctx) {
		errno = ENOMEM;
		return -1;
	}
	sim = il_sim_new(&cfg);
	if (!sim) {
		err = errno;
		free(ctx);
		errno = err;
		return -1;
	}
	res->ncpus = cfg.ncpus;
	res->hz = cfg.hz;
	res->drv = spec->plat->drv;
	res->nstates = res->drv.state_count;
	lab_label(spec, res);
	ret = lab_simulate(spec, sim, ctx, res, &cfg);
	err = errno;
	il_sim_free(sim);
	if (spec->scn->cleanup)
		spec->scn->cleanup(ctx);
	free(ctx);
	errno = err;
	return ret;
}

void il_lab_result_free(struct il_lab_result *res)
{
	free(res->repriced);
	res->repriced = NULL;
	il_metrics_free(&res->m);
}
