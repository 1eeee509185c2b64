// SPDX-License-Identifier: GPL-2.0-only
/*
 * replay.c - drive governors open loop over a trace's idle periods (model in replay.h).
 *
 * Each governor gets its own struct il_device per CPU, bound like the kernel binds a
 * governor to a cpuidle device, and an environment whose answers are the inputs rebuilt
 * for the current period (lib/replay/inputs.c). Per period and governor:
 *
 *	select(now = enter)  ->  idx, stop_tick
 *	poll_time_limit      =  idx polls && residency > cpuidle_poll_time()   (5.x+ rule)
 *	il_cpuidle_account(idx, residency)  ->  above / below
 *	got_tick             =  the tick fired inside the period
 *	reflect(idx)         (not for a single-state device the idle loop bypasses)
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "inputs.h"
#include "wakeup.h"
#include "../util/grow.h"

struct gov_cpu {
	struct il_device dev;
	struct il_env env;
	const struct il_replay_inputs *cur;
	bool got_tick; /* tick_nohz_idle_got_tick(): set by a tick wakeup, cleared when read */
	u64 clock;     /* local_clock() */
};

struct replay_cpu {
	struct gov_cpu *gov; /* one per governor, allocated at the CPU's first idle entry */
	struct il_driver *drv; /* its state table (per-CPU tables: its own), set with gov */
	struct il_bound *bound; /* the open-loop bound over its table's states */
	struct il_device *trace_dev; /* accounts its recorded states, by its table's flags */
	u64 periods;
};

struct il_replay {
	struct il_replay_cfg cfg;
	struct il_driver drv;
	unsigned int hz;
	u64 tick_nsec;
	struct replay_inputs in;
	struct il_replay_notes notes;
	struct il_replay_row rows[IL_REPLAY_MAX_GOVS];
	struct il_replay_row trace_row;
	struct il_bound bound;      /* every replayed period, every usable state (bound.h) */
	/* Per-CPU tables: table t's copy (tables[0] unused: drv) and bound, and their sum */
	struct il_driver tables[IL_PLAT_TABLES_MAX];
	struct il_bound table_bound[IL_PLAT_TABLES_MAX];
	struct il_bound bound_sum;
	/* accounts the recorded states of table t's CPUs: each table's own disabled states */
	struct il_device trace_dev[IL_PLAT_TABLES_MAX];
	struct replay_cpu *cpus;
	unsigned int ncpus;      /* allocated */
	unsigned int cpus_seen;  /* 1 + the highest CPU with an event */
	il_replay_period_fn hook;
	void *hook_ctx;
};

/* ---- the environment the governors see -------------------------------------------------- */

static s64 env_sleep_length(const struct il_env *env, s64 *delta_next)
{
	const struct gov_cpu *g = env->ctx;

	if (delta_next)
		*delta_next = g->cur->delta_next_ns;
	return g->cur->sleep_ns;
}

static bool env_tick_stopped(const struct il_env *env)
{
	const struct gov_cpu *g = env->ctx;

	return g->cur->tick_stopped;
}

static bool env_got_tick(const struct il_env *env)
{
	struct gov_cpu *g = env->ctx;
	bool got = g->got_tick;

	g->got_tick = false;
	return got;
}

static void env_qos(const struct il_env *env, struct il_qos *out)
{
	il_qos_defaults(out); /* PM QoS requests are not traced */
}

static unsigned long env_zero(const struct il_env *env)
{
	return 0; /* nr_iowait and the runqueue load are not traced */
}

static u64 env_local_clock(const struct il_env *env)
{
	const struct gov_cpu *g = env->ctx;

	return g->clock;
}

static s64 env_oracle(const struct il_env *env)
{
	const struct gov_cpu *g = env->ctx;

	return g->cur->residency_ns;
}

static const struct il_env_ops replay_env_ops = {
	.sleep_length = env_sleep_length,
	.tick_stopped = env_tick_stopped,
	.got_tick = env_got_tick,
	.qos = env_qos,
	.nr_iowait = env_zero,
	.load_weight = env_zero,
	.local_clock = env_local_clock,
	.oracle_idle_ns = env_oracle,
};

/* ---- setup ----------------------------------------------------------------------------- */

static int check_params(struct il_replay *r, struct il_error *err);

struct il_replay *il_replay_new(const struct il_replay_cfg *cfg, struct il_error *err)
{
	struct il_replay *r;

	if (!cfg->plat || cfg->ngov < 0 || cfg->ngov > IL_REPLAY_MAX_GOVS) {
		il_error_set(err, "replay", 0, "a platform and at most %d governors are needed",
			     IL_REPLAY_MAX_GOVS);
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		il_error_set(err, "replay", 0, "out of memory");
		return NULL;
	}
	r->cfg = *cfg;
	r->drv = cfg->plat->drv;
	r->hz = cfg->hz ? cfg->hz : cfg->plat->hz;
	if (!r->hz)
		r->hz = 250;
	r->tick_nsec = ((u64)NSEC_PER_SEC + r->hz / 2) / r->hz;
	il_platform_device_init(cfg->plat, &r->trace_dev[0]);
	il_bound_init(&r->bound, &r->drv, &r->trace_dev[0], -1); /* PM QoS is not traced */
	for (int t = 1; t < cfg->plat->ntables; t++) {
		r->tables[t] = cfg->plat->tables[t].drv;
		il_platform_table_device_init(cfg->plat, t, &r->trace_dev[t]);
		il_bound_init(&r->table_bound[t], &r->tables[t], &r->trace_dev[t], -1);
	}
	inputs_init(&r->in, r->tick_nsec, &r->notes);
	if (check_params(r, err) < 0) {
		free(r);
		return NULL;
	}
	return r;
}

void il_replay_set_period_hook(struct il_replay *r, il_replay_period_fn fn, void *ctx)
{
	r->hook = fn;
	r->hook_ctx = ctx;
}

static void unbind_cpu(struct il_replay *r, struct replay_cpu *rc)
{
	if (!rc->gov)
		return;
	for (int i = 0; i < r->cfg.ngov; i++)
		if (rc->gov[i].dev.preset)
			il_gov_unbind(rc->drv, &rc->gov[i].dev);
	free(rc->gov);
	rc->gov = NULL;
}

void il_replay_free(struct il_replay *r)
{
	if (!r)
		return;
	for (unsigned int c = 0; c < r->ncpus; c++)
		unbind_cpu(r, &r->cpus[c]);
	free(r->cpus);
	inputs_free(&r->in);
	free(r);
}

static struct replay_cpu *replay_cpu(struct il_replay *r, unsigned int cpu)
{
	void *arr = r->cpus;

	if (il_grow_zeroed(&arr, &r->ncpus, cpu, sizeof(*r->cpus), 2))
		return NULL;
	r->cpus = arr;
	return &r->cpus[cpu];
}

/* Split "NAME=VALUE" into @name (of @len bytes) and the value. Return: value, NULL if no '='. */
static const char *split_param(const char *param, char *name, size_t len)
{
	const char *eq = strchr(param, '=');

	if (!eq || (size_t)(eq - param) >= len)
		return NULL;
	memcpy(name, param, (size_t)(eq - param));
	name[eq - param] = '\0';
	return eq + 1;
}

/* Set the configured tunables that @g's governor has. Return: 0, or -1 (bad value). */
static int apply_params(const struct il_replay_cfg *cfg, struct gov_cpu *g)
{
	char name[64];

	for (int i = 0; i < cfg->nparams; i++) {
		const char *value = split_param(cfg->params[i], name, sizeof(name));

		if (value && il_gov_find_param(g->dev.preset->gov, name) &&
		    il_gov_set_param(&g->dev, name, value) < 0)
			return -1;
	}
	return 0;
}

static void setup_device(struct il_replay *r, struct gov_cpu *g, unsigned int cpu)
{
	il_platform_cpu_device_init(r->cfg.plat, cpu, &g->dev);
	g->dev.cpu = cpu;
	g->env.ops = &replay_env_ops;
	g->env.ctx = g;
	g->env.cpu = cpu;
	il_env_set_hz(&g->env, r->hz);
	g->dev.env = &g->env;
}

/* Bind every governor once on a scratch device to check the tunables. */
static int check_params(struct il_replay *r, struct il_error *err)
{
	char name[64];

	for (int i = 0; i < r->cfg.nparams; i++) {
		bool known = false;

		if (!split_param(r->cfg.params[i], name, sizeof(name)))
			return il_error_set(err, "replay", 0, "parameter '%s' is not NAME=VALUE",
					    r->cfg.params[i]);
		for (int j = 0; j < r->cfg.ngov; j++)
			known |= il_gov_find_param(r->cfg.presets[j]->gov, name) != NULL;
		if (!known)
			return il_error_set(err, "replay", 0,
					    "no governor given has a parameter '%s'", name);
	}
	for (int j = 0; j < r->cfg.ngov; j++) {
		struct gov_cpu g = { 0 };
		int bad;

		setup_device(r, &g, 0);
		if (il_gov_bind(&r->drv, &g.dev, r->cfg.presets[j]) < 0)
			return il_error_set(err, "replay", 0, "%s cannot be bound to %s",
					    r->cfg.presets[j]->name, r->drv.name);
		bad = apply_params(&r->cfg, &g);
		il_gov_unbind(&r->drv, &g.dev);
		if (bad)
			return il_error_set(err, "replay", 0, "%s refuses a parameter value: %s",
					    r->cfg.presets[j]->name, strerror(errno));
	}
	return 0;
}

/* @cpu's table and bound: table 0's unless the platform gives it one of its own. */
static void cpu_table(struct il_replay *r, struct replay_cpu *rc, unsigned int cpu)
{
	int t = il_platform_cpu_table(r->cfg.plat, cpu);

	rc->drv = t ? &r->tables[t] : &r->drv;
	rc->bound = t ? &r->table_bound[t] : &r->bound;
	rc->trace_dev = &r->trace_dev[t];
}

/* A fresh cpuidle device per governor for @cpu, bound to it. Return: 0 or -1. */
static int bind_cpu(struct il_replay *r, struct replay_cpu *rc, unsigned int cpu)
{
	cpu_table(r, rc, cpu);
	rc->gov = calloc((size_t)(r->cfg.ngov ? r->cfg.ngov : 1), sizeof(*rc->gov));
	if (!rc->gov)
		return -1;
	for (int i = 0; i < r->cfg.ngov; i++) {
		struct gov_cpu *g = &rc->gov[i];

		setup_device(r, g, cpu);
		if (il_gov_bind(rc->drv, &g->dev, r->cfg.presets[i]) < 0 ||
		    apply_params(&r->cfg, g)) {
			g->dev.preset = NULL;
			unbind_cpu(r, rc);
			return -1;
		}
	}
	return 0;
}

/* ---- one period ------------------------------------------------------------------------ */

static bool state_polls(const struct il_driver *drv, int idx)
{
	return drv->states[idx].flags & CPUIDLE_FLAG_POLLING;
}

/* The part of a state's energy model one period of @ns costs, nJ. */
static u64 period_energy_nj(const struct il_driver *drv, int idx, u64 ns)
{
	const struct il_state *s = &drv->states[idx];

	/* µW x ns = 1e-15 J; / 1e6 gives nJ. Split to stay far from u64 overflow. */
	return s->power_uw * (ns / NSEC_PER_MSEC) + s->power_uw * (ns % NSEC_PER_MSEC) / 1000000 +
	       s->entry_exit_energy_nj;
}

static void count_pick(const struct il_driver *drv, struct il_replay_row *row,
		       const struct il_replay_inputs *in, int idx, bool stop, enum il_miss miss)
{
	u64 ns = (u64)in->residency_ns;

	row->idles++;
	row->above += miss == IL_MISS_ABOVE;
	row->below += miss == IL_MISS_BELOW;
	row->usage[idx]++;
	row->time_ns[idx] += ns;
	row->energy_nj += period_energy_nj(drv, idx, ns);
	il_bound_gov_add(&row->bound, drv, idx, ns);
	row->agree += idx == in->recorded_state;
	row->confusion[in->recorded_state][idx]++;
	if (!in->tick_stopped) {
		row->tick_decisions++;
		row->stop_tick += stop;
		row->tick_agree += stop == in->recorded_stop;
		row->tick_confusion[in->recorded_stop][stop]++;
	}
}

/* One governor's pass over the period. Return: the state it picked; *@stop its stop_tick. */
static int run_governor(struct il_driver *drv, struct gov_cpu *g,
			const struct il_replay_inputs *in, bool *stop, enum il_miss *miss)
{
	const struct il_preset *p = g->dev.preset;
	bool bypass = drv->state_count <= 1 && p->core->idle_loop >= IL_LOOP_6_19_9;
	int idx = 0;

	g->cur = in;
	g->clock = in->enter_ts;
	*stop = true;
	if (!bypass) {
		idx = p->gov->select(drv, &g->dev, stop);
		if (idx < 0 || idx >= drv->state_count)
			idx = 0; /* a port bug; the ports' unit tests are where it gets caught */
	} else {
		*stop = false;
	}
	if (state_polls(drv, idx) && p->core->poll == IL_POLL_5_X)
		g->dev.poll_time_limit = (u64)in->residency_ns >
					 il_cpuidle_poll_time(drv, &g->dev);
	*miss = il_cpuidle_account(drv, &g->dev, idx, in->residency_ns);
	g->clock = in->exit_ts;
	if (in->got_tick)
		g->got_tick = true;
	if (!bypass)
		il_cpuidle_reflect(&g->dev, idx);
	/* 7.0+: do_idle() reads (and so clears) the flag after every pass. */
	if (p->core->idle_loop >= IL_LOOP_7_0)
		g->got_tick = false;
	return idx;
}

static void replay_period(struct il_replay *r, struct replay_cpu *rc,
			  const struct il_replay_inputs *in)
{
	int picks[IL_REPLAY_MAX_GOVS];
	bool stops[IL_REPLAY_MAX_GOVS];
	enum il_miss miss;

	for (int i = 0; i < r->cfg.ngov; i++) {
		picks[i] = run_governor(rc->drv, &rc->gov[i], in, &stops[i], &miss);
		count_pick(rc->drv, &r->rows[i], in, picks[i], stops[i], miss);
	}
	miss = il_cpuidle_account(rc->drv, rc->trace_dev, in->recorded_state, in->residency_ns);
	count_pick(rc->drv, &r->trace_row, in, in->recorded_state, in->recorded_stop, miss);
	il_bound_add(rc->bound, (u64)in->residency_ns);
	rc->periods++;
	r->notes.periods++;
	if (r->hook)
		r->hook(r->hook_ctx, in, picks, stops);
}

/* ---- events ---------------------------------------------------------------------------- */

static bool cpu_selected(const struct il_replay *r, unsigned int cpu)
{
	return r->cfg.cpu < 0 || (unsigned int)r->cfg.cpu == cpu;
}

/* Return: 0, or -1 with errno ENOMEM (the wakeup model may replay an earlier period). */
static int idle_enter(struct il_replay *r, struct replay_cpu_inputs *c,
		      const struct il_trace_event *ev)
{
	if (ev->state >= (u32)r->drv.state_count || ev->state >= CPUIDLE_STATE_MAX) {
		r->notes.bad_state++;
		c->in_idle = false;
		return 0;
	}
	if (c->in_idle)
		r->notes.enters_while_idle++;
	if (r->cfg.sleep_source == IL_SLEEP_WAKEUPS) {
		if (wake_enter(r, &r->in, c, ev))
			return -1;
	} else {
		inputs_enter(&r->in, c, ev);
	}
	c->in_idle = true;
	c->got_tick = false;
	c->enter_ts = ev->ts_ns;
	c->enter_state = ev->state;
	return 0;
}

static int idle_exit(struct il_replay *r, struct replay_cpu_inputs *c,
		     const struct il_trace_event *ev)
{
	c->stopped_since_exit = false;
	c->have_pre_stop = false;
	if (!c->in_idle) {
		r->notes.exits_without_enter++;
		return 0;
	}
	c->in_idle = false;
	c->cur.exit_ts = ev->ts_ns;
	c->cur.residency_ns = (s64)(ev->ts_ns - c->enter_ts);
	c->cur.got_tick = c->got_tick;
	if (r->cfg.sleep_source == IL_SLEEP_WAKEUPS)
		return wake_exit(r, &r->in, c);
	return il_replay_run_period(r, &c->cur);
}

int il_replay_run_period(struct il_replay *r, const struct il_replay_inputs *in)
{
	struct replay_cpu *rc = replay_cpu(r, in->cpu);

	if (!rc || (!rc->gov && bind_cpu(r, rc, in->cpu) < 0)) {
		errno = ENOMEM;
		return -1;
	}
	if (in->recorded_state < 0 || in->recorded_state >= r->drv.state_count)
		return 0;
	if (r->cfg.plat->ntables > 1 && in->cpu >= r->cfg.plat->cpus) {
		r->notes.no_table++; /* reported: cmd_replay's notes */
		return 0;
	}
	replay_period(r, rc, in);
	return 0;
}

static void idle_miss(struct il_replay *r, const struct il_trace_event *ev)
{
	r->trace_row.miss_below += ev->below;
	r->trace_row.miss_above += !ev->below;
}

/*
 * The inputs of @ev's CPU into *@c. Return: 1, 0 when the CPU is not replayed (--cpu), -1
 * with errno ENOMEM.
 */
static int selected_cpu(struct il_replay *r, const struct il_trace_event *ev,
			struct replay_cpu_inputs **c)
{
	if (!cpu_selected(r, ev->cpu))
		return 0;
	*c = inputs_cpu(&r->in, ev->cpu);
	if (!*c) {
		errno = ENOMEM;
		return -1;
	}
	return 1;
}

/*
 * The wakeup model's events: interrupts and the idle task leaving. Timer events are not
 * looked at (replaying a trace that has them this way measures the model's error).
 */
static int wakeup_event(struct il_replay *r, const struct il_trace_event *ev)
{
	struct replay_cpu_inputs *c;
	int got;

	if (ev->type != IL_EV_IRQ && ev->type != IL_EV_IRQ_VECTOR &&
	    ev->type != IL_EV_IPI_ENTRY && ev->type != IL_EV_SCHED_SWITCH)
		return 0;
	got = selected_cpu(r, ev, &c);
	if (got <= 0)
		return got;
	if (ev->type == IL_EV_SCHED_SWITCH)
		return wake_switch(r, &r->in, c, ev);
	return wake_interrupt(r, &r->in, c, ev);
}

int il_replay_event(struct il_replay *r, const struct il_trace_event *ev)
{
	struct replay_cpu_inputs *c;
	int got;

	if (ev->cpu >= r->cpus_seen)
		r->cpus_seen = ev->cpu + 1;
	switch (ev->type) {
	case IL_EV_CPU_IDLE:
		got = selected_cpu(r, ev, &c);
		if (got <= 0)
			return got;
		if (ev->state == IL_PWR_EVENT_EXIT ? idle_exit(r, c, ev) : idle_enter(r, c, ev))
			return -1;
		break;
	case IL_EV_CPU_IDLE_MISS:
		if (cpu_selected(r, ev->cpu))
			idle_miss(r, ev);
		break;
	default:
		if (r->cfg.sleep_source == IL_SLEEP_WAKEUPS)
			return wakeup_event(r, ev);
		inputs_event(&r->in, ev);
		break;
	}
	if (r->in.oom) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

int il_replay_finish(struct il_replay *r)
{
	for (unsigned int c = 0; c < r->in.ncpus; c++)
		if (r->in.cpu[c].in_idle) {
			r->notes.open_at_end++;
			r->in.cpu[c].in_idle = false;
		}
	if (r->cfg.sleep_source == IL_SLEEP_WAKEUPS)
		return wake_finish(r, &r->in);
	return 0;
}

int il_replay_trace_has_timers(const char *path, const char *format, struct il_error *err)
{
	struct il_trace_event ev;
	struct il_trace *t = il_trace_open(path, format, err);
	int r;

	if (!t)
		return -1;
	il_trace_set_events(t, IL_REPLAY_TIMER_EVENTS);
	r = il_trace_next(t, &ev);
	if (r < 0)
		il_error_set(err, path, 0, "%s", il_trace_error(t));
	il_trace_close(t);
	return r;
}

/*
 * With per-CPU tables, the bound of each table's CPUs, added point by point: the per-period
 * choices are independent, so the sums at one price are the whole trace's minimum at it.
 */
const struct il_bound *il_replay_bound(struct il_replay *r)
{
	if (r->cfg.plat->ntables <= 1)
		return &r->bound;
	r->bound_sum = r->bound;
	for (int t = 1; t < r->cfg.plat->ntables; t++)
		il_bound_merge(&r->bound_sum, &r->table_bound[t]);
	return &r->bound_sum;
}

const struct il_replay_row *il_replay_gov_row(const struct il_replay *r, int i)
{
	return i >= 0 && i < r->cfg.ngov ? &r->rows[i] : NULL;
}

const struct il_replay_row *il_replay_trace_row(const struct il_replay *r)
{
	return &r->trace_row;
}

const struct il_replay_notes *il_replay_notes(const struct il_replay *r)
{
	return &r->notes;
}

unsigned int il_replay_ncpus(const struct il_replay *r)
{
	return r->cpus_seen;
}

u64 il_replay_cpu_periods(const struct il_replay *r, unsigned int cpu)
{
	return cpu < r->ncpus ? r->cpus[cpu].periods : 0;
}
