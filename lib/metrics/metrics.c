// SPDX-License-Identifier: GPL-2.0-only
/*
 * metrics.c - per-CPU, per-state counters of a simulated run, the latency histogram, the
 * energy model and the linux-pm summary (see metrics.h for the definitions).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"

static const u64 pn_default_us[IL_PN_LEVELS] = IL_PN_DEFAULT_US;

int il_metrics_init(struct il_metrics *m, unsigned int ncpus, int nstates, const u64 *pn_us)
{
	const u64 *thr = pn_us ? pn_us : pn_default_us;

	memset(m, 0, sizeof(*m));
	m->cpu = calloc(ncpus ? ncpus : 1, sizeof(*m->cpu));
	if (!m->cpu) {
		errno = ENOMEM;
		return -1;
	}
	if (il_hist_init(&m->wake_latency)) {
		free(m->cpu);
		m->cpu = NULL;
		return -1;
	}
	m->ncpus = ncpus;
	m->nstates = nstates;
	for (int i = 0; i < CPUIDLE_STATE_MAX; i++)
		m->pn_threshold_ns[i] =
			thr[i < IL_PN_LEVELS ? i : IL_PN_LEVELS - 1] * NSEC_PER_USEC;
	return 0;
}

void il_metrics_free(struct il_metrics *m)
{
	free(m->cpu);
	m->cpu = NULL;
	il_hist_free(&m->wake_latency);
}

void il_metrics_add_nightmare(struct il_metrics *m, unsigned int cpu, int idx, u64 diff_ns)
{
	m->cpu[cpu].st[idx].nightmares++;
	m->cpu[cpu].st[idx].nightmare_ns += diff_ns;
}

void il_metrics_add_usage(struct il_metrics *m, unsigned int cpu,
			  const struct il_state_usage *usage)
{
	for (int i = 0; i < m->nstates; i++) {
		struct il_state_stats *s = &m->cpu[cpu].st[i];

		s->usage += usage[i].usage;
		s->time_ns += usage[i].time_ns;
		s->above += usage[i].above;
		s->below += usage[i].below;
		s->rejected += usage[i].rejected;
	}
}

void il_metrics_open_idle(struct il_metrics *m, unsigned int cpu, int idx, u64 ns)
{
	struct il_state_stats *s = &m->cpu[cpu].st[idx];

	s->time_ns += ns;
	s->open_ns += ns;
}

/* Log-linear buckets: see il_hist_index() in metrics.h. */

int il_hist_init(struct il_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->bucket = calloc(IL_HIST_BUCKETS, sizeof(*h->bucket));
	if (!h->bucket) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

void il_hist_free(struct il_hist *h)
{
	free(h->bucket);
	h->bucket = NULL;
}

double il_hist_mean(const struct il_hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

u64 il_hist_percentile(const struct il_hist *h, unsigned int permille)
{
	u64 rank, seen = 0;

	if (!h->count || !h->bucket)
		return 0;
	/* The rank-th smallest value, rank = ceil(count * permille / 1000), at least 1. */
	rank = (h->count * permille + 999) / 1000;
	if (!rank)
		rank = 1;
	for (unsigned int i = 0; i < IL_HIST_BUCKETS; i++) {
		seen += h->bucket[i].count;
		if (seen >= rank)
			return h->bucket[i].min;
	}
	return h->max;
}

double il_cpu_energy_j(const struct il_metrics *m, const struct il_power *pw, unsigned int cpu)
{
	const struct il_cpu_stats *c = &m->cpu[cpu];
	double uj = (double)pw->active_uw * (double)c->busy_ns / 1e9; /* µW * s = µJ */
	const u64 *state_uw = pw->state_uw, *entry_exit_nj = pw->entry_exit_nj;

	if (pw->cpu_table && pw->cpu_table_len) { /* per-CPU tables */
		unsigned char t = pw->cpu_table[cpu % pw->cpu_table_len];

		state_uw = pw->table_uw[t - 1];
		entry_exit_nj = pw->table_nj[t - 1];
	}
	for (int i = 0; i < m->nstates; i++) {
		uj += (double)state_uw[i] * (double)c->st[i].time_ns / 1e9;
		uj += (double)entry_exit_nj[i] * (double)c->st[i].usage / 1e3;
	}
	uj += c->domain_adjust_uj;
	return uj / 1e6;
}

static void add_cpu(struct il_summary *out, const struct il_cpu_stats *c, int nstates)
{
	out->busy_ns += c->busy_ns;
	out->tick_stops += c->tick_stops;
	out->ticks_retained += c->ticks_retained;
	for (int i = 0; i < nstates; i++) {
		const struct il_state_stats *s = &c->st[i];

		out->usage[i] += s->usage;
		out->time_ns[i] += s->time_ns;
		out->above[i] += s->above;
		out->below[i] += s->below;
		out->state_nightmares[i] += s->nightmares;
		out->state_nightmare_ns[i] += s->nightmare_ns;
		out->rejected[i] += s->rejected;
	}
}

void il_metrics_summarize(const struct il_metrics *m, const struct il_power *pw,
			  struct il_summary *out)
{
	u64 nightmare_ns = 0;

	memset(out, 0, sizeof(*out));
	for (unsigned int c = 0; c < m->ncpus; c++) {
		add_cpu(out, &m->cpu[c], m->nstates);
		if (pw && pw->known)
			out->joules += il_cpu_energy_j(m, pw, c);
	}
	for (int i = 0; i < m->nstates; i++) {
		out->idles += out->usage[i];
		out->aboves += out->above[i];
		out->belows += out->below[i];
		out->nightmares += out->state_nightmares[i];
		nightmare_ns += out->state_nightmare_ns[i];
		out->rejecteds += out->rejected[i];
	}
	out->idle_misses = out->aboves + out->belows;
	out->idle_miss_ratio = out->idles ? (double)out->idle_misses / (double)out->idles : 0.0;
	out->nightmare_s = (double)nightmare_ns / 1e9;
	out->energy_known = pw && pw->known;
	out->watts = m->duration_ns ? out->joules / ((double)m->duration_ns / 1e9) : 0.0;
	out->wake_count = m->wake_latency.count;
	out->wake_p50_ns = il_hist_percentile(&m->wake_latency, 500);
	out->wake_p90_ns = il_hist_percentile(&m->wake_latency, 900);
	out->wake_p99_ns = il_hist_percentile(&m->wake_latency, 990);
	out->wake_p999_ns = il_hist_percentile(&m->wake_latency, 999);
	out->wake_mean_ns = il_hist_mean(&m->wake_latency);
	out->wake_max_ns = m->wake_latency.max;
}
