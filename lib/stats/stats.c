// SPDX-License-Identifier: GPL-2.0-only
/*
 * stats.c - accumulate per-CPU, per-state idle statistics from a stream of trace events.
 * The model and the rules are described in stats.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "../core/core.h"
#include "../util/grow.h"
#include "util/array.h"

struct il_stats {
	struct il_stats_cfg cfg;
	struct il_trace_cpu_stats *cpus;
	unsigned int ncpus; /* 1 + highest CPU seen */
	unsigned int cap;
	/* Scratch device for il_cpuidle_account(): all states enabled. */
	struct il_device dev;
};

static const unsigned int default_nightmare_us[] = { 100, 1000, 2000, 4000 };

void il_stats_default_cfg(struct il_stats_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	for (size_t i = 0; i < ARRAY_SIZE(default_nightmare_us); i++)
		cfg->nightmare_us[i] = default_nightmare_us[i];
}

struct il_stats *il_stats_new(const struct il_stats_cfg *cfg)
{
	struct il_stats *s = calloc(1, sizeof(*s));

	if (!s) {
		errno = ENOMEM;
		return NULL;
	}
	s->cfg = *cfg;
	return s;
}

void il_stats_free(struct il_stats *s)
{
	if (!s)
		return;
	free(s->cpus);
	free(s);
}

static struct il_trace_cpu_stats *cpu_stats(struct il_stats *s, unsigned int cpu)
{
	void *arr = s->cpus;

	if (il_grow_zeroed(&arr, &s->cap, cpu, sizeof(*s->cpus), 4))
		return NULL;
	s->cpus = arr;
	if (cpu >= s->ncpus)
		s->ncpus = cpu + 1;
	return &s->cpus[cpu];
}

static bool state_is_polling(const struct il_stats *s, u32 state)
{
	const struct il_driver *drv = s->cfg.drv;

	return drv && state < (u32)drv->state_count &&
	       (drv->states[state].flags & CPUIDLE_FLAG_POLLING);
}

static int hist_bucket(u64 ns)
{
	u64 us = ns / NSEC_PER_USEC;
	int b;

	if (!us)
		return 0;
	b = 64 - __builtin_clzll(us); /* 1 + floor(log2(us)) */
	return b < IL_STATS_HIST_BUCKETS ? b : IL_STATS_HIST_BUCKETS - 1;
}

u64 il_stats_hist_lower_us(int b)
{
	return b <= 0 ? 0 : 1ULL << (b - 1);
}

/* Copy a NUL-terminated label, cut to fit; once per interrupt in an idle period, so no printf. */
static void copy_label(char *dst, const char *src)
{
	size_t n = 0;

	while (src[n] && n < IL_TRACE_LABEL_LEN - 1) {
		dst[n] = src[n];
		n++;
	}
	dst[n] = '\0';
}

static void set_key(struct il_wake_source *w, enum il_wake_kind kind, int id, const char *label)
{
	w->kind = kind;
	w->id = id;
	copy_label(w->label, label ? label : "");
}

static struct il_wake_source *wake_slot(struct il_trace_cpu_stats *c,
					const struct il_wake_source *k)
{
	for (int i = 0; i < c->nwakes; i++) {
		struct il_wake_source *w = &c->wakes[i];

		if (w->kind == k->kind && w->id == k->id && !strcmp(w->label, k->label))
			return w;
	}
	if (c->nwakes < IL_STATS_MAX_WAKES - 1) {
		struct il_wake_source *w = &c->wakes[c->nwakes++];

		set_key(w, k->kind, k->id, k->label);
		return w;
	}
	/* The last slot collects everything that did not fit. */
	if (c->nwakes == IL_STATS_MAX_WAKES - 1)
		set_key(&c->wakes[c->nwakes++], IL_WAKE_OTHER, 0, "");
	return &c->wakes[IL_STATS_MAX_WAKES - 1];
}

static bool is_nightmare(const struct il_stats *s, u32 state, u64 residency_ns)
{
	unsigned int thr = s->cfg.nightmare_us[state];

	/* None in the deepest state (there is no deeper one to have missed), so none at all
	 * without a state table: which state is the deepest is unknown then. */
	if (!thr || !s->cfg.drv || (int)state == s->cfg.drv->state_count - 1)
		return false;
	return residency_ns > (u64)thr * NSEC_PER_USEC;
}

const struct il_driver *il_stats_cpu_table(const struct il_stats *s, unsigned int cpu)
{
	if (!s->cfg.cpu_drv)
		return s->cfg.drv;
	return cpu < s->cfg.ncpu_drv ? s->cfg.cpu_drv[cpu] : NULL;
}

/* The table above/below are measured against: the CPU's own with per-CPU tables. */
static const struct il_driver *cpu_drv(const struct il_stats *s,
				       const struct il_trace_cpu_stats *c)
{
	return il_stats_cpu_table(s, (unsigned int)(c - s->cpus));
}

static void account_period(struct il_stats *s, struct il_trace_cpu_stats *c, u32 state, u64 ns)
{
	struct il_trace_state_stats *st = &c->st[state];
	const struct il_driver *drv;
	struct il_wake_source none, *w;
	enum il_miss miss = IL_MISS_NONE;

	if (!st->entries || ns < st->min_ns)
		st->min_ns = ns;
	if (ns > st->max_ns)
		st->max_ns = ns;
	st->entries++;
	st->total_ns += ns;
	st->hist[hist_bucket(ns)]++;
	c->periods++;
	c->idle_ns += ns;

	drv = cpu_drv(s, c);
	if (drv) {
		miss = il_cpuidle_account(drv, &s->dev, (int)state, (s64)ns);
		st->above += miss == IL_MISS_ABOVE;
		st->below += miss == IL_MISS_BELOW;
	}
	if (is_nightmare(s, state, ns)) {
		st->nightmares++;
		st->nightmare_ns += ns;
	}
	if (!c->have_wake)
		set_key(&none, IL_WAKE_NONE, 0, "");
	w = wake_slot(c, c->have_wake ? &c->wake : &none);
	w->count++;
	w->above += miss == IL_MISS_ABOVE;
	w->below += miss == IL_MISS_BELOW;
}

static void idle_enter(struct il_stats *s, struct il_trace_cpu_stats *c,
		       const struct il_trace_event *ev)
{
	if (ev->state >= IL_STATS_MAX_STATES ||
	    (s->cfg.drv && ev->state >= (u32)s->cfg.drv->state_count)) {
		c->bad_state++;
		c->in_idle = false;
		return;
	}
	if (c->in_idle)
		c->enters_while_idle++;
	c->in_idle = true;
	c->cur_state = ev->state;
	c->enter_ts = ev->ts_ns;
	c->enter_line = ev->line;
	c->have_wake = false;
	c->have_last_irq = false;
	c->timer_pending = false;
	c->miss_expected = false;
	if ((int)ev->state + 1 > c->nstates)
		c->nstates = (int)ev->state + 1;
}

static void idle_exit(struct il_stats *s, struct il_trace_cpu_stats *c,
		      const struct il_trace_event *ev)
{
	if (!c->in_idle) {
		c->exits_without_enter++;
		c->miss_expected = false;
		return;
	}
	account_period(s, c, c->cur_state, ev->ts_ns - c->enter_ts);
	c->in_idle = false;
	c->last_period_state = c->cur_state;
	c->miss_expected = true;
}

static void idle_miss(struct il_trace_cpu_stats *c, const struct il_trace_event *ev)
{
	struct il_trace_state_stats *st;

	if (ev->state >= IL_STATS_MAX_STATES) {
		c->bad_state++;
		return;
	}
	st = &c->st[ev->state];
	st->miss_below += ev->below;
	st->miss_above += !ev->below;
	if ((int)ev->state + 1 > c->nstates)
		c->nstates = (int)ev->state + 1;
	if (!c->miss_expected || c->last_period_state != ev->state)
		c->misses_without_period++;
	c->miss_expected = false;
}

/* The tick's hrtimer, by its handler's name in the kernels we know. */
static bool is_tick_function(const char *fn)
{
	return !strcmp(fn, "tick_nohz_handler") || !strcmp(fn, "tick_sched_timer") ||
	       !strcmp(fn, "tick_nohz_highres_handler");
}

static bool is_ipi_vector(const char *name)
{
	return !strcmp(name, "call_function_single") || !strcmp(name, "call_function") ||
	       !strcmp(name, "reschedule");
}

/* An interrupt began on an idle CPU: it may be what ends the period. */
static void interrupt(struct il_stats *s, struct il_trace_cpu_stats *c, enum il_wake_kind kind,
		      int id, const char *label)
{
	bool polling = state_is_polling(s, c->cur_state);
	struct il_wake_source *dst = polling ? &c->last_irq : &c->wake;

	if (!polling && c->have_wake)
		return;
	set_key(dst, kind, id, label);
	if (polling)
		c->have_last_irq = true;
	else
		c->have_wake = true;
	c->timer_pending = kind == IL_WAKE_LOCAL_TIMER;
}

static void timer_expired(struct il_stats *s, struct il_trace_cpu_stats *c,
			  const struct il_trace_event *ev)
{
	struct il_wake_source *w = state_is_polling(s, c->cur_state) ? &c->last_irq : &c->wake;

	if (!c->timer_pending)
		return;
	c->timer_pending = false;
	if (is_tick_function(ev->label))
		set_key(w, IL_WAKE_TICK, 0, "");
	else
		set_key(w, IL_WAKE_TIMER, 0, ev->label);
}

/* A task was woken for @target while it polls: that is what ends a polling state. */
static void wakeup(struct il_stats *s, const struct il_trace_event *ev)
{
	struct il_trace_cpu_stats *t;

	if (ev->target_cpu < 0 || (unsigned int)ev->target_cpu >= s->ncpus)
		return;
	t = &s->cpus[ev->target_cpu];
	if (!t->in_idle || t->have_wake || !state_is_polling(s, t->cur_state))
		return;
	if (ev->cpu != (unsigned int)ev->target_cpu)
		set_key(&t->wake, IL_WAKE_REMOTE, 0, "");
	else if (t->have_last_irq)
		t->wake = t->last_irq;
	else
		set_key(&t->wake, IL_WAKE_NONE, 0, "");
	t->have_wake = true;
}

static void tick_stop(struct il_trace_cpu_stats *c, const struct il_trace_event *ev)
{
	if (ev->success) {
		c->tick_stops++;
		return;
	}
	c->tick_stop_failures++;
	for (int i = 0; i < c->ntick_deps; i++)
		if (!strcmp(c->tick_deps[i].label, ev->label)) {
			c->tick_deps[i].count++;
			return;
		}
	if (c->ntick_deps < IL_STATS_MAX_TICK_DEPS) {
		struct il_tick_dep *d = &c->tick_deps[c->ntick_deps++];

		copy_label(d->label, ev->label);
		d->count = 1;
	}
}

static void idle_event(struct il_stats *s, struct il_trace_cpu_stats *c,
		       const struct il_trace_event *ev)
{
	if (ev->state == IL_PWR_EVENT_EXIT)
		idle_exit(s, c, ev);
	else
		idle_enter(s, c, ev);
}

void il_stats_event(struct il_stats *s, const struct il_trace_event *ev)
{
	struct il_trace_cpu_stats *c = cpu_stats(s, ev->cpu);

	if (!c)
		return;
	if (!c->events)
		c->first_ts = ev->ts_ns;
	c->events++;
	c->last_ts = ev->ts_ns;

	switch (ev->type) {
	case IL_EV_CPU_IDLE:
		idle_event(s, c, ev);
		break;
	case IL_EV_CPU_IDLE_MISS:
		idle_miss(c, ev);
		break;
	case IL_EV_TICK_STOP:
		tick_stop(c, ev);
		break;
	case IL_EV_SCHED_WAKEUP:
		wakeup(s, ev);
		break;
	default:
		break;
	}
	if (!c->in_idle)
		return;
	switch (ev->type) {
	case IL_EV_IRQ:
		interrupt(s, c, IL_WAKE_IRQ, ev->irq, ev->label);
		break;
	case IL_EV_IRQ_VECTOR:
		if (il_trace_vector_is_local_timer(ev->label))
			interrupt(s, c, IL_WAKE_LOCAL_TIMER, 0, "");
		else
			interrupt(s, c, is_ipi_vector(ev->label) ? IL_WAKE_IPI : IL_WAKE_VECTOR,
				  ev->vector, ev->label);
		break;
	case IL_EV_IPI_ENTRY:
		interrupt(s, c, IL_WAKE_IPI, 0, ev->label);
		break;
	case IL_EV_HRTIMER_EXPIRE:
		timer_expired(s, c, ev);
		break;
	default:
		break;
	}
}

void il_stats_finish(struct il_stats *s)
{
	for (unsigned int cpu = 0; cpu < s->ncpus; cpu++) {
		struct il_trace_cpu_stats *c = &s->cpus[cpu];

		if (!c->in_idle)
			continue;
		c->open_at_end = true;
		c->open_state = c->cur_state;
		c->open_since_ns = c->enter_ts;
		c->open_line = c->enter_line;
		c->in_idle = false;
	}
}

unsigned int il_stats_ncpus(const struct il_stats *s)
{
	return s->ncpus;
}

const struct il_trace_cpu_stats *il_stats_cpu(const struct il_stats *s, unsigned int cpu)
{
	return cpu < s->ncpus ? &s->cpus[cpu] : NULL;
}

void il_stats_span(const struct il_stats *s, u64 *first_ns, u64 *last_ns)
{
	*first_ns = UINT64_MAX;
	*last_ns = 0;
	for (unsigned int cpu = 0; cpu < s->ncpus; cpu++) {
		const struct il_trace_cpu_stats *c = &s->cpus[cpu];

		if (!c->events)
			continue;
		if (c->first_ts < *first_ns)
			*first_ns = c->first_ts;
		if (c->last_ts > *last_ns)
			*last_ns = c->last_ts;
	}
	if (*first_ns == UINT64_MAX)
		*first_ns = 0;
}

static const char *const wake_kind_names[] = {
	[IL_WAKE_TICK] = "tick",
	[IL_WAKE_TIMER] = "timer",
	[IL_WAKE_LOCAL_TIMER] = "local_timer",
	[IL_WAKE_IRQ] = "irq",
	[IL_WAKE_IPI] = "ipi",
	[IL_WAKE_VECTOR] = "vector",
	[IL_WAKE_REMOTE] = "remote_wakeup",
	[IL_WAKE_NONE] = "none",
	[IL_WAKE_OTHER] = "other",
};

const char *il_wake_kind_name(enum il_wake_kind kind)
{
	if ((unsigned int)kind >= ARRAY_SIZE(wake_kind_names))
		return "?";
	return wake_kind_names[kind];
}

const char *il_wake_source_name(const struct il_wake_source *w, char *buf, size_t len)
{
	const char *kind = il_wake_kind_name(w->kind);

	if (w->kind == IL_WAKE_IRQ)
		snprintf(buf, len, "%s %d %s", kind, w->id, w->label);
	else if (w->label[0])
		snprintf(buf, len, "%s %s", kind, w->label);
	else
		snprintf(buf, len, "%s", kind);
	return buf;
}
