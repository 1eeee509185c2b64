// SPDX-License-Identifier: GPL-2.0-only
/*
 * metrics.c - per-CPU, per-state counters of a simulated run, the latency histogram, the
 * energy model and the linux-pm summary (see metrics.h for the definitions).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "util/array.h"

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
	out->wakeups += c->wakeups;
	out->poll_limits += c->poll_limits;
	for (int i = 0; i < nstates; i++) {
		const struct il_state_stats *s = &c->st[i];

		out->usage[i] += s->usage;
		out->time_ns[i] += s->time_ns;
		out->above[i] += s->above;
		out->below[i] += s->below;
		out->state_rejected[i] += s->rejected;
		out->state_nightmares[i] += s->nightmares;
		out->state_nightmare_ns[i] += s->nightmare_ns;
	}
}

/* The totals over the states and the shares of @ncpus CPUs' simulated time. */
void il_summary_totals(struct il_summary *out, int nstates)
{
	for (int i = 0; i < nstates; i++) {
		out->idles += out->usage[i];
		out->aboves += out->above[i];
		out->belows += out->below[i];
		out->rejected += out->state_rejected[i];
	}
	out->idle_misses = out->aboves + out->belows;
	out->idle_miss_ratio = out->idles ? (double)out->idle_misses / (double)out->idles : 0.0;
}

static void add_states(struct il_summary *out, const struct il_metrics *m, unsigned int ncpus)
{
	double total_ns = (double)m->duration_ns * ncpus;
	u64 nightmare_ns = 0;

	il_summary_totals(out, m->nstates);
	for (int i = 0; i < m->nstates; i++) {
		out->nightmares += out->state_nightmares[i];
		nightmare_ns += out->state_nightmare_ns[i];
		out->time_pct[i] = total_ns > 0 ? 100.0 * (double)out->time_ns[i] / total_ns : 0.0;
	}
	out->busy_pct = total_ns > 0 ? 100.0 * (double)out->busy_ns / total_ns : 0.0;
	out->nightmare_s = (double)nightmare_ns / 1e9;
}

void il_metrics_summarize_cpu(const struct il_metrics *m, unsigned int cpu,
			      struct il_summary *out)
{
	memset(out, 0, sizeof(*out));
	add_cpu(out, &m->cpu[cpu], m->nstates);
	add_states(out, m, 1);
}

void il_metrics_summarize(const struct il_metrics *m, const struct il_power *pw,
			  struct il_summary *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned int c = 0; c < m->ncpus; c++) {
		add_cpu(out, &m->cpu[c], m->nstates);
		if (pw && pw->known)
			out->joules += il_cpu_energy_j(m, pw, c);
	}
	add_states(out, m, m->ncpus);
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

/* ---- the catalogue (metrics.h) ------------------------------------------------------------ */

#define FIELD(f) #f, offsetof(struct il_summary, f)
#define U64(f) FIELD(f), false
#define REAL(f) FIELD(f), true
#define LOWER IL_BETTER_LOWER
#define NONE IL_BETTER_NONE
#define COUNT IL_PREC_COUNT
#define PM IL_MT_PM
#define RUNS (IL_MT_PM | IL_MT_LIVE)
#define STATES IL_MT_STATES
#define CPUS IL_MT_CPUS
#define JUDGED(rank) .verdict_rank = (rank)
#define MADE_OF(c) .counters = (c)
#define ENERGY .energy = true
#define PLAIN .counters = 0

/*
 * In table order: a table's columns are its lines in this order. The per-CPU table has its
 * own lines (aboves before belows, unlike the linux-pm row of the seeds); the verdict's
 * order is verdict_rank (JUDGED).
 */
static const struct il_metric_def catalogue[] = {
	/* name, unit, decimals, of a mean, better, field, div, tables, then what applies */
	{ "idles", "", COUNT, 1, NONE, U64(idles), 1, RUNS, MADE_OF(IL_MC_USAGE) },
	{ "idle_misses", "", COUNT, 1, LOWER, U64(idle_misses), 1, RUNS | IL_MT_VERDICT,
	  MADE_OF(IL_MC_ABOVE | IL_MC_BELOW), JUDGED(1) },
	{ "idle_miss_ratio", "ratio", 3, 5, LOWER, REAL(idle_miss_ratio), 1, RUNS | IL_MT_VERDICT,
	  MADE_OF(IL_MC_USAGE | IL_MC_ABOVE | IL_MC_BELOW), JUDGED(2) },
	{ "belows", "", COUNT, 1, LOWER, U64(belows), 1, RUNS | IL_MT_VERDICT,
	  MADE_OF(IL_MC_BELOW), JUDGED(4) },
	{ "aboves", "", COUNT, 1, LOWER, U64(aboves), 1, RUNS | IL_MT_VERDICT,
	  MADE_OF(IL_MC_ABOVE), JUDGED(3) },
	{ "rejected", "", COUNT, 1, LOWER, U64(rejected), 1, RUNS | IL_MT_VERDICT,
	  MADE_OF(IL_MC_REJECTED), JUDGED(6) },
	{ "joules", "J", 2, 4, LOWER, REAL(joules), 1, PM, ENERGY },
	{ "watts", "W", 3, 4, LOWER, REAL(watts), 1, PM, ENERGY },
	{ "nightmares", "", COUNT, 1, LOWER, U64(nightmares), 1, PM, PLAIN },
	{ "nightmare_s", "s", 3, 3, LOWER, REAL(nightmare_s), 1, PM, PLAIN },
	{ "wakeup_p99_us", "us", 3, 3, LOWER, U64(wake_p99_ns), 1e3, PM | IL_MT_VERDICT,
	  JUDGED(5) },
	{ "wakeup_p50_us", "us", 3, 3, LOWER, U64(wake_p50_ns), 1e3, PM, PLAIN },
	{ "wakeup_mean_us", "us", 3, 3, LOWER, REAL(wake_mean_ns), 1e3, PM, PLAIN },
	{ "wakeup_max_us", "us", 3, 3, LOWER, U64(wake_max_ns), 1e3, PM, PLAIN },
	/* per state: the fields are arrays by state */
	{ "usage", "", COUNT, 1, NONE, U64(usage), 1, STATES, PLAIN },
	{ "time_s", "s", 6, 6, NONE, U64(time_ns), 1e9, STATES, PLAIN },
	{ "time_pct", "%", 2, 2, NONE, REAL(time_pct), 1, STATES, PLAIN },
	{ "above", "", COUNT, 1, LOWER, U64(above), 1, STATES, PLAIN },
	{ "below", "", COUNT, 1, LOWER, U64(below), 1, STATES, PLAIN },
	{ "rejected", "", COUNT, 1, LOWER, U64(state_rejected), 1, STATES, PLAIN },
	{ "nightmares", "", COUNT, 1, LOWER, U64(state_nightmares), 1, STATES, PLAIN },
	{ "nightmare_s", "s", 6, 6, LOWER, U64(state_nightmare_ns), 1e9, STATES, PLAIN },
	/* per CPU, from each CPU's own summary */
	{ "idles", "", COUNT, 1, NONE, U64(idles), 1, CPUS, PLAIN },
	{ "aboves", "", COUNT, 1, LOWER, U64(aboves), 1, CPUS, PLAIN },
	{ "belows", "", COUNT, 1, LOWER, U64(belows), 1, CPUS, PLAIN },
	{ "rejected", "", COUNT, 1, LOWER, U64(rejected), 1, CPUS, PLAIN },
	{ "busy_pct", "%", 2, 2, NONE, REAL(busy_pct), 1, CPUS, PLAIN },
	{ "wakeups", "", COUNT, 1, NONE, U64(wakeups), 1, CPUS, PLAIN },
	{ "poll_limits", "", COUNT, 1, NONE, U64(poll_limits), 1, CPUS, PLAIN },
	{ "tick_stops", "", COUNT, 1, NONE, U64(tick_stops), 1, CPUS, PLAIN },
	{ "ticks_retained", "", COUNT, 1, NONE, U64(ticks_retained), 1, CPUS, PLAIN },
};

int il_metric_count(void)
{
	return (int)ARRAY_SIZE(catalogue);
}

const struct il_metric_def *il_metric_at(int i)
{
	return i >= 0 && i < il_metric_count() ? &catalogue[i] : NULL;
}

const struct il_metric_def *il_metric_find(const char *name, unsigned int tables)
{
	for (int i = 0; i < il_metric_count(); i++)
		if ((catalogue[i].tables & tables) && !strcmp(catalogue[i].name, name))
			return &catalogue[i];
	return NULL;
}

const struct il_metric_def *il_metric_of(size_t offset, unsigned int tables)
{
	for (int i = 0; i < il_metric_count(); i++)
		if ((catalogue[i].tables & tables) && catalogue[i].offset == offset)
			return &catalogue[i];
	return NULL;
}

u64 il_metric_count_value(const struct il_metric_def *d, const struct il_summary *s, int state)
{
	const u64 *f = (const u64 *)(const void *)((const char *)s + d->offset);

	return d->tables & IL_MT_STATES ? f[state] : *f;
}

double il_metric_field(const struct il_metric_def *d, const struct il_summary *s, int state)
{
	const char *base = (const char *)s + d->offset;
	size_t at = d->tables & IL_MT_STATES ? (size_t)state : 0;

	if (d->real)
		return ((const double *)(const void *)base)[at];
	return (double)((const u64 *)(const void *)base)[at];
}

double il_metric_value(const struct il_metric_def *d, const struct il_summary *s, int state)
{
	return il_metric_field(d, s, state) / d->div;
}
