// SPDX-License-Identifier: GPL-2.0-only
/*
 * check.c - run a kernel governor file and a port in lockstep and compare every decision.
 *
 * DOC: the lockstep check
 *
 * Two lab devices, "upstream" (the file compiled by kgov) and "port" (a built-in preset),
 * get the same driver, the same environment inputs and the same outcomes. One step is one
 * idle period, run the way the cpuidle core and the idle loop of the preset's framework run
 * it:
 *
 *  1. Inputs: kgov_gen_step() draws the sleep length, delta_next, tick state, got_tick,
 *     QoS, iowait/load and clock. The tick state follows the previous decision most of the
 *     time (the idle loop stops the tick when select() said so, 6.x also keeps a stopped tick
 *     stopped), and is random otherwise.
 *  2. select() on both; compare the index, stop_tick (4.17+), every var the port shows that is
 *     not diagnostic (by name, against the upstream field of that name), the device fields the
 *     governors write (last_state_idx from 5.x, poll_limit_ns, poll_time_limit), how many times
 *     each asked for the sleep length, and whether each consumed the got_tick flag.
 *  3. The outcome: kgov_gen_outcome() draws a residency (or a rejected entry); a polling
 *     state runs cpuidle_poll_time() (which caches the window in poll_limit_ns) and may end on
 *     its limit (poll_time_limit); il_cpuidle_account() sets last_residency(_ns) as
 *     cpuidle_enter_state() does; reflect() runs unless the entry was rejected.
 *  4. Compare again after reflect().
 *
 * The first difference stops the check and is described with the step number, the state
 * table, the inputs of this step and of the steps before it, and both sides' index,
 * stop_tick and vars, so that it can be turned into a unit test of the port.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kgov.h"
#include "../core/core.h"
#include "../platform/platform.h"

#define RUN_LENGTH 4000ULL /* steps per run; each run has a fresh platform and devices */
#define HISTORY 8          /* steps shown before a mismatch */
#define RUN_ENDED 2        /* a run cannot go on (both sides chose no valid state) */

/* ---- the environment both devices see ---------------------------------------------------- */

struct side_env {
	struct il_env env;
	const struct kgov_step *st;
	bool got_tick;        /* pending flag; the first reader clears it */
	int sleep_queries;
	int got_tick_reads;
};

static s64 env_sleep_length(const struct il_env *env, s64 *delta_next)
{
	struct side_env *se = env->ctx;

	se->sleep_queries++;
	if (delta_next)
		*delta_next = se->st->delta_next_ns;
	return se->st->sleep_ns;
}

static bool env_tick_stopped(const struct il_env *env)
{
	return ((struct side_env *)env->ctx)->st->tick_stopped;
}

static bool env_got_tick(const struct il_env *env)
{
	struct side_env *se = env->ctx;
	bool ret = se->got_tick;

	se->got_tick = false;
	se->got_tick_reads++;
	return ret;
}

static void env_qos(const struct il_env *env, struct il_qos *out)
{
	*out = ((struct side_env *)env->ctx)->st->qos;
}

static unsigned long env_nr_iowait(const struct il_env *env)
{
	return ((struct side_env *)env->ctx)->st->nr_iowait;
}

static unsigned long env_load(const struct il_env *env)
{
	return ((struct side_env *)env->ctx)->st->load;
}

/* Before reflect the clock has moved to the wakeup. */
static u64 env_clock(const struct il_env *env)
{
	const struct side_env *se = env->ctx;

	return se->st->exit_clock_ns ? se->st->exit_clock_ns : se->st->clock_ns;
}

static s64 env_oracle(const struct il_env *env)
{
	return ((struct side_env *)env->ctx)->st->residency_ns;
}

static const struct il_env_ops side_env_ops = {
	.sleep_length = env_sleep_length,
	.tick_stopped = env_tick_stopped,
	.got_tick = env_got_tick,
	.qos = env_qos,
	.nr_iowait = env_nr_iowait,
	.load_weight = env_load,
	.local_clock = env_clock,
	.oracle_idle_ns = env_oracle,
};

/* ---- one side ------------------------------------------------------------------------------ */

struct side {
	const char *label;
	const struct il_preset *preset;
	struct il_device dev;
	struct side_env se;
	struct il_var vars[IL_MAX_VARS];
	int nvars;
	int idx;
	bool stop_tick;
};

/* ---- the check ------------------------------------------------------------------------------ */

struct checker {
	const struct il_kgov_check_opts *opts;
	struct il_kgov_check_result *res;
	struct il_error *err;
	struct kgov_rng rng;
	struct kgov_frame frame;
	struct kgov_pattern pattern;   /* the run's workload */
	struct il_platform plat;       /* -p, loaded once */
	bool have_plat;
	struct il_driver drv;
	unsigned int hz;
	struct side up, port;
	bool compare_last_state_idx;
	bool compare_stop_tick;
	unsigned int run;
	unsigned long long step;
	struct kgov_step hist[HISTORY];  /* ring of the last steps' inputs and outcomes */
	unsigned long long hist_n;
	/* names compared and not compared, for the summary */
	const char *compared[IL_MAX_VARS];
	int ncompared;
	/* il_kgov_run(): one governor (in "up"), its parameter table, the names to digest */
	bool solo;
	const struct il_preset *params_preset;
	struct il_var names[IL_MAX_VARS];
	int nnames;
	/* il_kgov_diff(): "up" is OLD, "port" is NEW */
	bool diff;
	struct il_kgov_diff_result *dres;
	unsigned int diff_show;
	unsigned long long diff_disable[CPUIDLE_STATE_MAX];
};

static void side_setup(struct checker *c, struct side *s, const unsigned long long *disable)
{
	memset(&s->dev, 0, sizeof(s->dev));
	s->se.env.ops = &side_env_ops;
	s->se.env.ctx = &s->se;
	il_env_set_hz(&s->se.env, c->hz);
	s->dev.cpu = (unsigned int)(c->run % 4);
	s->dev.env = &s->se.env;
	for (int i = 0; i < CPUIDLE_STATE_MAX; i++)
		s->dev.states_usage[i].disable = disable[i];
}

static void side_begin_step(struct side *s, const struct kgov_step *st)
{
	s->se.st = st;
	s->se.got_tick = st->got_tick;
	s->se.sleep_queries = 0;
	s->se.got_tick_reads = 0;
}

/* ---- reporting ------------------------------------------------------------------------------ */

struct strbuf {
	char *buf;
	size_t len, cap;
};

static void sb_printf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(sb->buf ? sb->buf + sb->len : NULL, sb->buf ? sb->cap - sb->len : 0,
			      fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if (sb->buf && sb->len + (size_t)n < sb->cap) {
			sb->len += (size_t)n;
			return;
		}
		size_t cap = sb->cap ? sb->cap * 2 : 4096;

		while (cap < sb->len + (size_t)n + 1)
			cap *= 2;
		char *nb = realloc(sb->buf, cap);

		if (!nb)
			return;
		sb->buf = nb;
		sb->cap = cap;
	}
}

static void describe_step(struct strbuf *sb, const struct kgov_step *st, bool with_outcome)
{
	sb_printf(sb, "sleep_length=%lld delta_next=%lld tick_stopped=%d got_tick=%d qos(cpu=%d "
		  "resume=%d wakeup=%d us) nr_iowait=%lu load=%lu clock=%llu",
		  (long long)st->sleep_ns, (long long)st->delta_next_ns, st->tick_stopped,
		  st->got_tick, st->qos.cpu_latency_us, st->qos.resume_latency_us,
		  st->qos.wakeup_latency_us, st->nr_iowait, st->load,
		  (unsigned long long)st->clock_ns);
	if (st->toggle_state >= 0)
		sb_printf(sb, " toggled_disable[%d]", st->toggle_state);
	if (with_outcome)
		sb_printf(sb, " -> %s residency=%lld%s", st->rejected ? "REJECTED" : "entered",
			  (long long)st->residency_ns, st->poll_timeout ? " poll_time_limit" : "");
}

static void describe_driver(struct strbuf *sb, const struct checker *c)
{
	sb_printf(sb, "platform: %s, HZ=%u (TICK_NSEC=%llu), %d states, cpu %u\n",
		  c->have_plat ? c->plat.name : "random", c->hz,
		  (unsigned long long)c->up.se.env.tick_nsec, c->drv.state_count, c->up.dev.cpu);
	for (int i = 0; i < c->drv.state_count; i++) {
		const struct il_state *s = &c->drv.states[i];

		sb_printf(sb, "  state %d %-6s flags=0x%x exit_latency=%lldns (%uus) "
			  "target_residency=%lldns (%uus)%s disable=%llu/%llu\n",
			  i, s->name, s->flags, (long long)s->exit_latency_ns, s->exit_latency,
			  (long long)s->target_residency_ns, s->target_residency,
			  s->disabled ? " drv-disabled" : "", c->up.dev.states_usage[i].disable,
			  c->port.dev.states_usage[i].disable);
	}
}

static const struct il_var *find_var(const struct side *s, const char *name)
{
	for (int i = 0; i < s->nvars; i++)
		if (!strcmp(s->vars[i].name, name))
			return &s->vars[i];
	return NULL;
}

static void describe_value(struct strbuf *sb, const struct il_var *v)
{
	if (!v)
		sb_printf(sb, "%20s", "-");
	else if (v->is_signed)
		sb_printf(sb, "%20lld", (long long)(s64)v->value);
	else
		sb_printf(sb, "%20llu", (unsigned long long)v->value);
}

static void describe_sides(struct strbuf *sb, const struct checker *c)
{
	const struct side *u = &c->up, *p = &c->port;

	sb_printf(sb, "%-36s %20s %20s\n", "", "upstream", "port");
	sb_printf(sb, "%-36s %20d %20d\n", "index", u->idx, p->idx);
	sb_printf(sb, "%-36s %20d %20d\n", "stop_tick", u->stop_tick, p->stop_tick);
	sb_printf(sb, "%-36s %20d %20d\n", "dev->last_state_idx", u->dev.last_state_idx,
		  p->dev.last_state_idx);
	sb_printf(sb, "%-36s %20llu %20llu\n", "dev->poll_limit_ns",
		  (unsigned long long)u->dev.poll_limit_ns,
		  (unsigned long long)p->dev.poll_limit_ns);
	sb_printf(sb, "%-36s %20d %20d\n", "dev->poll_time_limit", u->dev.poll_time_limit,
		  p->dev.poll_time_limit);
	sb_printf(sb, "%-36s %20d %20d\n", "sleep length queries", u->se.sleep_queries,
		  p->se.sleep_queries);
	sb_printf(sb, "%-36s %20d %20d\n", "got_tick still pending", u->se.got_tick,
		  p->se.got_tick);
	for (int i = 0; i < u->nvars; i++) {
		const struct il_var *pv = find_var(p, u->vars[i].name);
		bool differs = pv && !pv->diag && pv->value != u->vars[i].value;

		sb_printf(sb, "%c %-34s ", differs ? '*' : ' ', u->vars[i].name);
		describe_value(sb, &u->vars[i]);
		sb_printf(sb, " ");
		describe_value(sb, pv);
		sb_printf(sb, "\n");
	}
	for (int i = 0; i < p->nvars; i++) {
		if (find_var(u, p->vars[i].name))
			continue;
		sb_printf(sb, "%c %-34s %20s ", p->vars[i].diag ? ' ' : '?', p->vars[i].name, "-");
		describe_value(sb, &p->vars[i]);
		sb_printf(sb, "%s\n", p->vars[i].diag ? "  (diag)" : "  (no upstream field)");
	}
}

static int report_mismatch(struct checker *c, const char *phase, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Read @s's vars as they are now. */
static void read_vars(struct side *s)
{
	s->nvars = s->preset->gov->vars ? s->preset->gov->vars(&s->dev, s->vars, IL_MAX_VARS) : 0;
}

static int report_mismatch(struct checker *c, const char *phase, const char *fmt, ...)
{
	struct il_kgov_mismatch *m = &c->res->first;
	struct strbuf sb = { 0 };
	unsigned long long first;
	va_list ap;

	c->res->mismatch = true;
	m->run = c->run;
	m->step = c->step;
	m->phase = phase;
	va_start(ap, fmt);
	vsnprintf(m->what, sizeof(m->what), fmt, ap);
	va_end(ap);
	/* an index or stop_tick difference is found before the vars of this step are read */
	read_vars(&c->up);
	read_vars(&c->port);

	sb_printf(&sb, "MISMATCH after %s, run %u step %llu (decision #%llu of this check): %s\n",
		  phase, c->run, c->step, c->res->decisions, m->what);
	sb_printf(&sb, "upstream: %s [%s]\nport:     %s [%s]\n", c->up.preset->name,
		  c->up.preset->upstream, c->port.preset->name, c->port.preset->upstream);
	sb_printf(&sb, "framework: %s (idle loop %d)\n", c->port.preset->core->name,
		  (int)c->port.preset->core->idle_loop);
	if (c->pattern.periodic)
		sb_printf(&sb, "workload: periodic %lld ns +- %lld, outliers %lld/%lld ns (%u%%)\n",
			  (long long)c->pattern.base_ns, (long long)c->pattern.jitter_ns,
			  (long long)c->pattern.outlier_ns[0], (long long)c->pattern.outlier_ns[1],
			  c->pattern.outlier_pct);
	describe_driver(&sb, c);
	first = c->hist_n > HISTORY ? c->hist_n - HISTORY : 0;
	sb_printf(&sb, "inputs (the last line is this step):\n");
	for (unsigned long long k = first; k < c->hist_n; k++) {
		sb_printf(&sb, "  step %llu: ", c->step - (c->hist_n - 1 - k));
		describe_step(&sb, &c->hist[k % HISTORY],
			      k + 1 < c->hist_n || !strcmp(phase, "reflect"));
		sb_printf(&sb, "\n");
	}
	describe_sides(&sb, c);
	sb_printf(&sb,
		  "reproduce: idlelab kgov check %s --against %s --seed %llu --steps %llu%s%s\n",
		  il_kgov_source(c->up.preset) ? il_kgov_source(c->up.preset) : c->up.preset->name,
		  c->port.preset->name, (unsigned long long)c->opts->seed, c->res->decisions,
		  c->opts->platform ? " -p " : " --random-platforms",
		  c->opts->platform ? c->opts->platform : "");
	m->report = sb.buf;
	return 1;
}

/* ---- comparisons ----------------------------------------------------------------------------- */

static void remember_compared(struct checker *c, const char *name)
{
	for (int i = 0; i < c->ncompared; i++)
		if (c->compared[i] == name || !strcmp(c->compared[i], name))
			return;
	if (c->ncompared < IL_MAX_VARS)
		c->compared[c->ncompared++] = name;
}

static int compare_vars(struct checker *c, const char *phase)
{
	struct side *u = &c->up, *p = &c->port;

	read_vars(u);
	read_vars(p);
	for (int i = 0; i < p->nvars; i++) {
		const struct il_var *pv = &p->vars[i], *uv;

		if (pv->diag)
			continue;
		/* the lists come in the same order almost always: try the same position first */
		uv = i < u->nvars && !strcmp(u->vars[i].name, pv->name) ?
			&u->vars[i] : find_var(u, pv->name);
		if (!uv)
			return report_mismatch(c, phase,
					       "the port shows var %s, which is not a field of the "
					       "upstream per-CPU struct",
					       pv->name);
		c->res->comparisons++;
		if (c->ncompared < IL_MAX_VARS)
			remember_compared(c, uv->name);
		if (uv->value != pv->value)
			return report_mismatch(c, phase, "var %s: upstream %lld, port %lld",
					       pv->name, (long long)uv->value,
					       (long long)pv->value);
	}
	return 0;
}

static int compare_devices(struct checker *c, const char *phase)
{
	const struct side *u = &c->up, *p = &c->port;

	if (c->compare_last_state_idx && u->dev.last_state_idx != p->dev.last_state_idx)
		return report_mismatch(c, phase, "dev->last_state_idx: upstream %d, port %d",
				       u->dev.last_state_idx, p->dev.last_state_idx);
	if (u->dev.poll_limit_ns != p->dev.poll_limit_ns)
		return report_mismatch(c, phase, "dev->poll_limit_ns: upstream %llu, port %llu",
				       (unsigned long long)u->dev.poll_limit_ns,
				       (unsigned long long)p->dev.poll_limit_ns);
	if (u->dev.poll_time_limit != p->dev.poll_time_limit)
		return report_mismatch(c, phase, "dev->poll_time_limit: upstream %d, port %d",
				       u->dev.poll_time_limit, p->dev.poll_time_limit);
	if (u->se.sleep_queries != p->se.sleep_queries)
		return report_mismatch(c, phase,
				       "tick_nohz_get_sleep_length() calls: upstream %d, port %d",
				       u->se.sleep_queries, p->se.sleep_queries);
	if (u->se.got_tick != p->se.got_tick)
		return report_mismatch(c, phase, "got_tick flag %s by upstream but %s by port",
				       u->se.got_tick ? "left pending" : "consumed",
				       p->se.got_tick ? "left pending" : "consumed");
	return 0;
}

static int compare_select(struct checker *c)
{
	if (c->up.idx != c->port.idx)
		return report_mismatch(c, "select", "index: upstream %d, port %d", c->up.idx,
				       c->port.idx);
	if (c->compare_stop_tick && c->up.stop_tick != c->port.stop_tick)
		return report_mismatch(c, "select", "stop_tick: upstream %d, port %d",
				       c->up.stop_tick, c->port.stop_tick);
	if (c->up.idx < 0 || c->up.idx >= c->drv.state_count) {
		/* both agree on an index outside the table: a finding about the kernel file */
		if (!c->res->invalid_index_runs++)
			snprintf(c->res->invalid_index, sizeof(c->res->invalid_index),
				 "run %u step %llu: both returned index %d with %d states", c->run,
				 c->step, c->up.idx, c->drv.state_count);
		return RUN_ENDED;
	}
	return compare_devices(c, "select") ?: compare_vars(c, "select");
}

/* ---- one run --------------------------------------------------------------------------------- */

static int bind_side(struct checker *c, struct side *s)
{
	if (il_gov_bind(&c->drv, &s->dev, s->preset))
		return il_error_set(c->err, s->preset->name, 0, "cannot bind: %s", strerror(errno));
	return 0;
}

/* The same random tunables on both sides, where both have the parameter. */
static void randomize_params(struct checker *c)
{
	const struct il_param *params = c->solo ? c->params_preset->gov->params
					      : c->up.preset->gov->params;
	char value[32];

	if (!params || !kgov_rng_chance(&c->rng, 1, 2))
		return;
	for (const struct il_param *p = params; p->name; p++) {
		u64 v;

		if (!c->solo && !il_gov_find_param(c->port.preset->gov, p->name))
			continue;
		if (kgov_rng_chance(&c->rng, 1, 2))
			continue;
		if (p->type == IL_PARAM_BOOL)
			v = kgov_rng_next(&c->rng) & 1;
		else if (kgov_rng_chance(&c->rng, 1, 4))
			v = (u64)kgov_rng_range(&c->rng, 0, 4);
		else
			v = (u64)kgov_rng_range(&c->rng, 0, 1000000);
		snprintf(value, sizeof(value), "%llu", (unsigned long long)v);
		il_gov_set_param(&c->up.dev, p->name, value);
		if (!c->solo)
			il_gov_set_param(&c->port.dev, p->name, value);
	}
}

/* Solo runs with opts->names_from: that preset's non-diag var names on this run's table. */
static int learn_names(struct checker *c, const unsigned long long *disable)
{
	const struct il_preset *ref = c->opts->names_from;
	struct il_var vars[IL_MAX_VARS];
	int n;

	c->nnames = 0;
	if (!ref)
		return 0;
	c->port.preset = ref;
	side_setup(c, &c->port, disable);
	if (bind_side(c, &c->port))
		return -1;
	n = ref->gov->vars ? ref->gov->vars(&c->port.dev, vars, IL_MAX_VARS) : 0;
	for (int i = 0; i < n; i++)
		if (!vars[i].diag)
			c->names[c->nnames++] = vars[i];
	il_gov_unbind(&c->drv, &c->port.dev);
	return 0;
}

static int setup_run(struct checker *c)
{
	unsigned long long disable[CPUIDLE_STATE_MAX];

	if (c->have_plat) {
		struct il_device tmp;

		c->drv = c->plat.drv;
		c->hz = c->plat.hz;
		il_platform_device_init(&c->plat, &tmp);
		for (int i = 0; i < CPUIDLE_STATE_MAX; i++)
			disable[i] = tmp.states_usage[i].disable;
		if (kgov_rng_chance(&c->rng, 1, 4)) {
			unsigned long long extra[CPUIDLE_STATE_MAX];

			kgov_gen_disables(&c->rng, &c->drv, extra);
			for (int i = 0; i < CPUIDLE_STATE_MAX; i++)
				disable[i] |= extra[i];
		}
		if (c->drv.state_count < c->frame.min_states)
			return il_error_set(c->err, c->plat.name, 0,
					    "%d state(s): the %s idle loop never calls a governor "
					    "with fewer than %d",
					    c->drv.state_count, c->port.preset->core->name,
					    c->frame.min_states);
	} else {
		kgov_gen_driver(&c->rng, &c->frame, &c->drv, &c->hz);
		kgov_gen_disables(&c->rng, &c->drv, disable);
	}
	kgov_gen_pattern(&c->rng, &c->frame, &c->pattern);
	side_setup(c, &c->up, disable);
	if (c->solo) {
		if (learn_names(c, disable) || bind_side(c, &c->up))
			return -1;
		randomize_params(c);
		return 0;
	}
	side_setup(c, &c->port, disable);
	memcpy(c->diff_disable, disable, sizeof(c->diff_disable));
	if (bind_side(c, &c->up))
		return -1;
	if (bind_side(c, &c->port)) {
		il_gov_unbind(&c->drv, &c->up.dev);
		return -1;
	}
	randomize_params(c);
	return 0;
}

static void teardown_run(struct checker *c)
{
	il_gov_unbind(&c->drv, &c->up.dev);
	if (!c->solo)
		il_gov_unbind(&c->drv, &c->port.dev);
}

static void apply_toggle(struct checker *c, int state)
{
	if (state < 0)
		return;
	c->up.dev.states_usage[state].disable ^= CPUIDLE_STATE_DISABLED_BY_USER;
	c->port.dev.states_usage[state].disable ^= CPUIDLE_STATE_DISABLED_BY_USER;
}

static void note_progress(struct checker *c, const char *in)
{
	if (c->opts->progress)
		c->opts->progress->in = in;
}

/*
 * The polling loop ran out its window: the residency is the window plus an overshoot of up
 * to 3 us, drawn from the stream; the reference side's window decides.
 */
static void poll_timeout_outcome(struct checker *c, struct kgov_step *st)
{
	u64 limit = il_cpuidle_poll_time(&c->drv, &c->up.dev);

	st->residency_ns = (s64)(limit > (u64)KTIME_MAX / 2 ? 0 : limit) +
			   kgov_rng_range(&c->rng, 0, 3000);
	st->exit_clock_ns = st->clock_ns + (u64)st->residency_ns;
}

static void do_select(struct checker *c, struct side *s)
{
	note_progress(c, s == &c->up ? "upstream select()" : "port select()");
	s->stop_tick = true;
	s->idx = s->preset->gov->select(&c->drv, &s->dev, &s->stop_tick);
	note_progress(c, NULL);
}

/* select() on the upstream side, and on the port's unless the run is solo. */
static void select_sides(struct checker *c)
{
	do_select(c, &c->up);
	if (!c->solo)
		do_select(c, &c->port);
}

/*
 * The select() of a diff (il_kgov_diff(), its replay): both sides, the decision counted and
 * how it differed. Return: whether the index or stop_tick differed.
 */
static bool select_and_count(struct checker *c)
{
	struct il_kgov_diff_result *r = c->dres;
	bool idx_differs, tick_differs;

	select_sides(c);
	r->decisions++;
	idx_differs = c->up.idx != c->port.idx;
	tick_differs = r->compared_stop_tick && c->up.stop_tick != c->port.stop_tick;
	r->idx_differ += idx_differs;
	r->stop_tick_differ += tick_differs;
	r->any_differ += idx_differs || tick_differs;
	return idx_differs || tick_differs;
}

/* Enter the state both chose: the polling window, the accounting, reflect. */
static void do_enter(struct checker *c, struct side *s, struct kgov_step *st)
{
	const struct il_state *state = &c->drv.states[s->idx];
	bool poll_5_x = s->preset->core->poll == IL_POLL_5_X;

	if (!st->rejected && (state->flags & CPUIDLE_FLAG_POLLING) && poll_5_x) {
		/* poll_idle(): read the window (cached in poll_limit_ns), clear, maybe time out */
		il_cpuidle_poll_time(&c->drv, &s->dev);
		s->dev.poll_time_limit = st->poll_timeout;
	}
	il_cpuidle_account(&c->drv, &s->dev, s->idx, st->rejected ? -1 : st->residency_ns);
	note_progress(c, s == &c->up ? "upstream reflect()" : "port reflect()");
	if (!st->rejected)
		il_cpuidle_reflect(&s->dev, s->idx);
	note_progress(c, NULL);
}

/* Solo runs: show the step to the observer (@done: the step is over). */
static int observe(struct checker *c, bool done, bool run_ended)
{
	const struct il_kgov_observer *obs = c->opts->observer;
	struct side *s = &c->up;
	struct il_kgov_step_view v = {
		.run = c->run, .step = c->step, .decision = c->res->decisions - 1,
		.idx = s->idx, .stop_tick = s->stop_tick, .run_ended = run_ended, .dev = &s->dev,
		.vars = s->vars, .names = c->opts->names_from ? c->names : NULL,
		.nnames = c->nnames, .sleep_queries = s->se.sleep_queries,
		.got_tick_pending = s->se.got_tick,
	};
	int (*fn)(void *, const struct il_kgov_step_view *);

	if (!obs)
		return 0;
	fn = done ? obs->step_done : obs->after_select;
	if (!fn)
		return 0;
	s->nvars = s->preset->gov->vars ? s->preset->gov->vars(&s->dev, s->vars, IL_MAX_VARS) : 0;
	v.nvars = s->nvars;
	return fn(obs->ctx, &v);
}

/* Solo runs: select() only on "up"; an index outside the table ends the run. */
static int solo_select(struct checker *c)
{
	bool ended = c->up.idx < 0 || c->up.idx >= c->drv.state_count;
	int ret;

	if (ended && !c->res->invalid_index_runs++)
		snprintf(c->res->invalid_index, sizeof(c->res->invalid_index),
			 "run %u step %llu: index %d with %d states", c->run, c->step, c->up.idx,
			 c->drv.state_count);
	ret = observe(c, false, ended);
	if (!ret && ended)
		ret = observe(c, true, true);
	return ret ? ret : ended ? RUN_ENDED : 0;
}

static int run_steps(struct checker *c, unsigned long long steps, u64 *clock)
{
	bool next_stopped = false;

	for (c->step = 0; c->step < steps; c->step++) {
		struct kgov_step *st = &c->hist[c->hist_n % HISTORY];
		int ret;

		kgov_gen_step(&c->rng, &c->frame, &c->drv, &c->up.se.env, &c->pattern, *clock, st);
		/* the tick as the previous decision left it, most of the time */
		if (c->step > 0 && !c->frame.sleep_4_16 && kgov_rng_chance(&c->rng, 7, 10))
			st->tick_stopped = next_stopped;
		c->hist_n++;
		apply_toggle(c, st->toggle_state);
		side_begin_step(&c->up, st);
		side_begin_step(&c->port, st);

		if (c->opts->progress)
			c->opts->progress->decisions = c->res->decisions + 1;
		select_sides(c);
		c->res->decisions++;
		ret = c->solo ? solo_select(c) : compare_select(c);
		if (ret)
			return ret;

		kgov_gen_outcome(&c->rng, &c->drv, &c->up.se.env, c->up.idx, &c->pattern, st);
		/* the port side caches its window in do_enter() */
		if (st->poll_timeout)
			poll_timeout_outcome(c, st);
		do_enter(c, &c->up, st);
		if (c->solo) {
			ret = observe(c, true, false);
			if (ret)
				return ret;
		} else {
			do_enter(c, &c->port, st);
		}
		if (!c->solo && c->opts->check_reflect && !st->rejected) {
			ret = compare_devices(c, "reflect") ?: compare_vars(c, "reflect");
			if (ret)
				return ret;
		}
		*clock = st->exit_clock_ns;
		/* the idle loop: 4.17 stops the tick per stop_tick, 6.x also keeps it stopped */
		next_stopped = c->up.stop_tick ||
			       ((c->solo ? c->up.preset : c->port.preset)->core->idle_loop >=
					IL_LOOP_6_X &&
				st->tick_stopped);
	}
	return 0;
}

/* ---- il_kgov_diff(): two governors, one stream, no stop -------------------------------------- */

static struct checker *checker_new(const struct il_preset *upstream, const struct il_preset *port,
				   const struct il_kgov_check_opts *opts,
				   struct il_kgov_check_result *res, struct il_error *err);

static bool valid_index(const struct checker *c, int idx)
{
	return idx >= 0 && idx < c->drv.state_count;
}

const char *il_kgov_feature_name(enum il_kgov_feature f, bool holds)
{
	static const char *const names[IL_KGOV_FEAT_COUNT][2] = {
		[IL_KGOV_FEAT_TICK_STOPPED] = { "tick running", "tick stopped" },
		[IL_KGOV_FEAT_SHORT_SLEEP] = { "sleep >= TICK_NSEC", "sleep < TICK_NSEC" },
		[IL_KGOV_FEAT_QOS_LIMITED] = { "no QoS limit", "QoS-limited" },
		[IL_KGOV_FEAT_POLLING] = { "no polling state", "polling state" },
	};

	return (unsigned int)f < IL_KGOV_FEAT_COUNT ? names[f][holds] : "?";
}

void kgov_features_text(unsigned int key, char *buf, size_t cap)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int f = 0; f < IL_KGOV_FEAT_COUNT && n < cap; f++)
		n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? ", " : "",
				      il_kgov_feature_name(f, key & (1u << f)));
}

unsigned int il_kgov_features_sorted(const unsigned long long *by_features, unsigned int *keys)
{
	unsigned int n = 0;

	for (unsigned int key = 0; key < 1u << IL_KGOV_FEAT_COUNT; key++) {
		unsigned int i = n++;

		if (!by_features[key]) {
			n--;
			continue;
		}
		/* insertion: stable, so equal counts keep the order of their keys */
		for (; i > 0 && by_features[keys[i - 1]] < by_features[key]; i--)
			keys[i] = keys[i - 1];
		keys[i] = key;
	}
	return n;
}

/* The latency limit the governor saw, in ns, as cpuidle_governor_latency_req() forms it. */
static s64 latency_limit_ns(const struct checker *c, const struct kgov_step *st)
{
	s32 lim = st->qos.cpu_latency_us;

	if (st->qos.resume_latency_us < lim)
		lim = st->qos.resume_latency_us;
	if (c->up.preset->core->qos >= IL_QOS_6_19 && st->qos.wakeup_latency_us < lim)
		lim = st->qos.wakeup_latency_us;
	return (s64)lim * 1000;
}

/* Count a differing decision in the bucket of its features. */
static void count_features(struct checker *c, const struct kgov_step *st)
{
	const struct il_driver *drv = &c->drv;
	u64 tick_ns = (1000000000ULL + c->hz / 2) / c->hz;
	unsigned int key = 0;
	bool polling = false;

	for (int s = 0; s < 2; s++) {
		int idx = s ? c->port.idx : c->up.idx;

		if (valid_index(c, idx) && (drv->states[idx].flags & CPUIDLE_FLAG_POLLING))
			polling = true;
	}
	key |= (unsigned int)st->tick_stopped << IL_KGOV_FEAT_TICK_STOPPED;
	key |= (unsigned int)(st->sleep_ns < (s64)tick_ns) << IL_KGOV_FEAT_SHORT_SLEEP;
	key |= (unsigned int)(drv->state_count > 0 && latency_limit_ns(c, st) <
			      drv->states[drv->state_count - 1].exit_latency_ns)
	       << IL_KGOV_FEAT_QOS_LIMITED;
	key |= (unsigned int)polling << IL_KGOV_FEAT_POLLING;
	c->dres->by_features[key]++;
}

/* Keep a differing decision (the vars right after select(); the outcome is added later). */
static struct il_kgov_diff_case *keep_case(struct checker *c, const struct kgov_step *in_new)
{
	struct il_kgov_diff_result *r = c->dres;
	struct il_kgov_diff_case *k;
	struct side *sides[2] = { &c->up, &c->port };

	if (r->ncases >= c->diff_show)
		return NULL;
	k = &r->cases[r->ncases++];
	k->run = c->run;
	k->step = c->step;
	k->decision = r->decisions - 1;
	k->drv = c->drv;
	k->hz = c->hz;
	memcpy(k->disable, c->diff_disable, sizeof(k->disable));
	k->in[0] = c->hist[(c->hist_n - 1) % HISTORY];
	k->in[1] = *in_new;
	for (int s = 0; s < 2; s++) {
		read_vars(sides[s]);
		k->idx[s] = sides[s]->idx;
		k->stop_tick[s] = sides[s]->stop_tick;
		k->nvars[s] = sides[s]->nvars;
		memcpy(k->vars[s], sides[s]->vars, sizeof(k->vars[s]));
	}
	return k;
}

/* The outcome drawn for OLD's choice, as NEW's state sees it. */
static void share_outcome(const struct checker *c, const struct kgov_step *st,
			  struct kgov_step *other, int other_idx)
{
	other->rejected = st->rejected;
	other->residency_ns = st->residency_ns;
	other->exit_clock_ns = st->exit_clock_ns;
	other->poll_timeout = st->poll_timeout &&
			      (c->drv.states[other_idx].flags & CPUIDLE_FLAG_POLLING);
}

static int diff_steps(struct checker *c, unsigned long long steps, u64 *clock)
{
	struct il_kgov_diff_result *r = c->dres;
	bool stopped_old = false, stopped_new = false;
	int loop = c->up.preset->core->idle_loop;

	for (c->step = 0; c->step < steps; c->step++) {
		struct kgov_step *st = &c->hist[c->hist_n % HISTORY], st_new;
		struct il_kgov_diff_case *k = NULL;
		bool differs;

		kgov_gen_step(&c->rng, &c->frame, &c->drv, &c->up.se.env, &c->pattern, *clock, st);
		st_new = *st;
		/* each side's tick as its own previous decision left it, most of the time */
		if (c->step > 0 && !c->frame.sleep_4_16 && kgov_rng_chance(&c->rng, 7, 10)) {
			st->tick_stopped = stopped_old;
			st_new.tick_stopped = stopped_new;
		}
		c->hist_n++;
		apply_toggle(c, st->toggle_state);
		side_begin_step(&c->up, st);
		side_begin_step(&c->port, &st_new);
		if (c->opts->progress)
			c->opts->progress->decisions = r->decisions + 1;
		differs = select_and_count(c);
		if (differs) {
			k = keep_case(c, &st_new);
			count_features(c, st);
		}
		if (!valid_index(c, c->up.idx) || !valid_index(c, c->port.idx)) {
			r->ended_runs++;
			return RUN_ENDED;
		}

		kgov_gen_outcome(&c->rng, &c->drv, &c->up.se.env, c->up.idx, &c->pattern, st);
		if (st->poll_timeout)
			poll_timeout_outcome(c, st);
		share_outcome(c, st, &st_new, c->port.idx);
		if (k) {
			k->in[0] = *st;
			k->in[1] = st_new;
		}
		do_enter(c, &c->up, st);
		do_enter(c, &c->port, &st_new);
		*clock = st->exit_clock_ns;
		stopped_old = c->up.stop_tick || (loop >= IL_LOOP_6_X && st->tick_stopped);
		stopped_new = c->port.stop_tick || (loop >= IL_LOOP_6_X && st_new.tick_stopped);
	}
	return 0;
}

/* One CPU of a recorded script: both sides on the recorded inputs, tick and outcomes. */
static void replay_cpu(struct checker *c, const struct kgov_step *steps, unsigned long long n)
{
	struct il_kgov_diff_result *r = c->dres;

	for (c->step = 0; c->step < n; c->step++) {
		struct kgov_step *st = &c->hist[c->hist_n % HISTORY], st_new;
		bool differs;

		*st = steps[c->step];
		st->toggle_state = -1;
		st_new = *st;
		c->hist_n++;
		side_begin_step(&c->up, st);
		side_begin_step(&c->port, &st_new);
		differs = select_and_count(c);
		if (differs)
			count_features(c, st);
		if (!valid_index(c, c->up.idx) || !valid_index(c, c->port.idx)) {
			r->ended_runs++;
			return;
		}
		share_outcome(c, st, st, c->up.idx);
		share_outcome(c, st, &st_new, c->port.idx);
		if (differs) {
			struct il_kgov_diff_case *k = keep_case(c, &st_new);

			if (k)
				k->in[0] = *st;
		}
		do_enter(c, &c->up, st);
		do_enter(c, &c->port, &st_new);
	}
}

int il_kgov_diff_replay(const struct il_preset *old, const struct il_preset *new,
			const struct il_kgov_diff_script *script, unsigned int show,
			struct il_kgov_diff_result *res, struct il_error *err)
{
	struct il_kgov_check_opts opts = { 0 };
	struct il_kgov_check_result cres;
	unsigned long long none[CPUIDLE_STATE_MAX] = { 0 };
	struct checker *c;
	int ret = 0;

	memset(res, 0, sizeof(*res));
	if (show) {
		res->cases = calloc(show, sizeof(*res->cases));
		if (!res->cases)
			return il_error_set(err, "kgov diff", 0, "out of memory");
	}
	c = checker_new(old, new, &opts, &cres, err);
	if (!c) {
		il_kgov_diff_result_free(res);
		return -1;
	}
	c->diff = true;
	c->dres = res;
	c->diff_show = show;
	res->compared_stop_tick = old->core->idle_loop != IL_LOOP_4_16 &&
				  new->core->idle_loop != IL_LOOP_4_16;
	c->drv = *script->drv;
	c->hz = script->hz;
	for (unsigned int cpu = 0; cpu < script->ncpus && !ret; cpu++) {
		c->run = cpu;
		side_setup(c, &c->up, none);
		side_setup(c, &c->port, none);
		c->up.dev.cpu = c->port.dev.cpu = cpu;
		if (bind_side(c, &c->up)) {
			ret = -1;
			break;
		}
		if (bind_side(c, &c->port)) {
			il_gov_unbind(&c->drv, &c->up.dev);
			ret = -1;
			break;
		}
		c->hist_n = 0;
		replay_cpu(c, script->steps[cpu], script->nsteps[cpu]);
		teardown_run(c);
		res->runs++;
	}
	free(c);
	il_kgov_check_result_free(&cres);
	return ret;
}

/* The runs of a check or a solo run; fills c->res. */
static int run_all(struct checker *c)
{
	const struct il_kgov_check_opts *opts = c->opts;
	struct il_kgov_check_result *res = c->res;
	unsigned long long done = 0;
	u64 clock = 0;
	int ret = 0;

	if (opts->platform) {
		if (il_platform_load(opts->platform, &c->plat, c->err))
			return -1;
		c->have_plat = true;
	}
	while (done < opts->steps) {
		unsigned long long n =
			opts->steps - done < RUN_LENGTH ? opts->steps - done : RUN_LENGTH;

		if (setup_run(c)) {
			ret = -1;
			break;
		}
		c->hist_n = 0;
		clock = (u64)kgov_rng_range(&c->rng, 0, 1LL << 50);
		ret = c->diff ? diff_steps(c, n, &clock) : run_steps(c, n, &clock);
		teardown_run(c);
		res->runs++;
		if (ret == RUN_ENDED) {
			n = c->step + 1;
			ret = 0;
		}
		if (ret)
			break;
		done += n;
		c->run++;
	}
	res->vars_compared = c->ncompared;
	/*
	 * Upstream fields the port did not show (from the last comparison); the device fields
	 * are compared directly (compare_devices()) whether or not the port lists them.
	 */
	for (int i = 0; i < c->up.nvars; i++) {
		const char *name = c->up.vars[i].name;

		if (find_var(&c->port, name) || !strcmp(name, "poll_limit_ns") ||
		    (c->compare_last_state_idx && !strcmp(name, "last_state_idx")))
			continue;
		size_t used = strlen(res->not_compared);

		snprintf(res->not_compared + used, sizeof(res->not_compared) - used, "%s%s",
			 used ? " " : "", name);
	}
	return ret;
}

/*
 * A checker of @upstream against @port (or, alone, of @upstream with @port's var names), on
 * the input stream of @opts->seed, under @port's framework rules. Return: NULL after setting
 * @err if out of memory.
 */
static struct checker *checker_new(const struct il_preset *upstream, const struct il_preset *port,
				   const struct il_kgov_check_opts *opts,
				   struct il_kgov_check_result *res, struct il_error *err)
{
	struct checker *c = calloc(1, sizeof(*c));

	memset(res, 0, sizeof(*res));
	if (!c) {
		il_error_set(err, "kgov", 0, "out of memory");
		return NULL;
	}
	c->opts = opts;
	c->res = res;
	c->err = err;
	c->up.preset = upstream;
	c->port.preset = port;
	kgov_rng_seed(&c->rng, opts->seed);
	kgov_frame_of(port, &c->frame);
	if (opts->generator)
		c->frame.generator = opts->generator;
	c->compare_last_state_idx = port->kver >= IL_KV(5, 0, 0);
	return c;
}

int il_kgov_check(const struct il_preset *upstream, const struct il_preset *port,
		  const struct il_kgov_check_opts *opts, struct il_kgov_check_result *res,
		  struct il_error *err)
{
	struct checker *c = checker_new(upstream, port, opts, res, err);
	int ret = 0;

	if (!c)
		return -1;
	c->compare_stop_tick = port->core->idle_loop != IL_LOOP_4_16;
	if (upstream->gov->name && port->gov->name &&
	    strcmp(upstream->gov->name, port->gov->name)) {
		ret = il_error_set(err, upstream->name, 0, "is the %s governor, %s is %s",
				   upstream->gov->name, port->name, port->gov->name);
		goto out;
	}
	ret = run_all(c);
out:
	free(c);
	return ret;
}

int il_kgov_run(const struct il_preset *gov, const struct il_kgov_check_opts *opts,
		struct il_kgov_check_result *res, struct il_error *err)
{
	struct checker *c =
		checker_new(gov, opts->names_from ? opts->names_from : gov, opts, res, err);
	int ret;

	if (!c)
		return -1;
	c->solo = true;
	c->params_preset = il_kgov_like(gov) ? il_kgov_like(gov) : gov;
	/* Alone, the framework rules and the fields compared are those of the recorded file. */
	kgov_frame_of(gov, &c->frame);
	if (opts->generator)
		c->frame.generator = opts->generator;
	c->compare_last_state_idx = gov->kver >= IL_KV(5, 0, 0);
	ret = run_all(c);
	free(c);
	return ret;
}

int il_kgov_diff(const struct il_preset *old, const struct il_preset *new,
		 const struct il_kgov_check_opts *opts, unsigned int show,
		 struct il_kgov_diff_result *res, struct il_error *err)
{
	struct il_kgov_check_result cres;
	struct checker *c;
	int ret;

	memset(res, 0, sizeof(*res));
	if (show) {
		res->cases = calloc(show, sizeof(*res->cases));
		if (!res->cases)
			return il_error_set(err, "kgov diff", 0, "out of memory");
	}
	c = checker_new(old, new, opts, &cres, err);
	if (!c) {
		il_kgov_diff_result_free(res);
		return -1;
	}
	/* OLD's framework rules, whatever NEW's are */
	kgov_frame_of(old, &c->frame);
	if (opts->generator)
		c->frame.generator = opts->generator;
	c->diff = true;
	c->dres = res;
	c->diff_show = show;
	res->compared_stop_tick = old->core->idle_loop != IL_LOOP_4_16 &&
				  new->core->idle_loop != IL_LOOP_4_16;
	ret = run_all(c);
	res->runs = cres.runs;
	free(c);
	il_kgov_check_result_free(&cres);
	return ret < 0 ? -1 : 0;
}

void il_kgov_diff_result_free(struct il_kgov_diff_result *res)
{
	free(res->cases);
	res->cases = NULL;
	res->ncases = 0;
}

void il_kgov_check_result_free(struct il_kgov_check_result *res)
{
	free(res->first.report);
	res->first.report = NULL;
}
