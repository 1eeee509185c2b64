// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim_bench.c - simulator throughput, printed as "name value" lines (`make bench`).
 *
 * For menu and teo on the 8-CPU rk3588 fio nvme scenario:
 *
 *  1. sim_<gov>_idle_periods_per_s: simulated idle periods per second of CPU time, for a
 *     whole lab run (engine, scenario, governor, accounting, metrics);
 *  2. sim_<gov>_cost_ratio: that run's CPU time divided by the CPU time of calling only
 *     select, the core accounting and reflect on the same decision stream. The stream is
 *     recorded in a second run with the same seed (the simulator is deterministic, so it
 *     makes the same decisions), with a recording environment and governor wrapper, and
 *     replayed on fresh devices whose environment returns the recorded answers in order;
 *     each replayed select must pick the recorded state.
 *
 * The machine is shared and noisy: rounds of one lab run and three replays, back to back,
 * see bench_governor(). The bench reaches into the simulator's private header to wrap the environment: it is a
 * measuring harness, not a user of the library.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/core.h"
#include "platform/platform.h"
#include "lab/lab.h"
#include "sim/sim-local.h"

#define SIM_TIME_NS (20ULL * NSEC_PER_SEC)

enum rec_tag {
	REC_SELECT, REC_PERIOD, REC_REFLECT,
	REC_SLEEP, REC_SLEEP_DELTA, REC_TICK_STOPPED, REC_GOT_TICK, REC_QOS, REC_IOWAIT, REC_LOAD,
	REC_CLOCK, REC_ORACLE,
};

struct rec_entry {
	u8 tag;
	bool flag;     /* PERIOD: poll_time_limit; SLEEP_DELTA: delta_next was asked for */
	int idx;
	s64 a, b;
	struct il_qos qos;
};

struct rec_cpu {
	struct rec_entry *e;
	size_t n, cap, pos;
	struct il_device dev;
	struct il_env env;
};

static struct {
	struct rec_cpu *cpu;
	unsigned int ncpus;
	const struct il_preset *real;
	struct il_governor wrap_gov;
	struct il_preset wrap;
	struct il_sim *sim;
} rec;

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct rec_entry *rec_push(unsigned int cpu, enum rec_tag tag)
{
	struct rec_cpu *c = &rec.cpu[cpu];

	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 4096;
		c->e = realloc(c->e, c->cap * sizeof(*c->e));
		if (!c->e) {
			fprintf(stderr, "sim_bench: out of memory\n");
			exit(1);
		}
	}
	memset(&c->e[c->n], 0, sizeof(c->e[0]));
	c->e[c->n].tag = (u8)tag;
	return &c->e[c->n++];
}

/* ---- recording: the simulator's answers, wrapped ---------------------------------------- */

static s64 rec_sleep_length(const struct il_env *env, s64 *delta_next)
{
	s64 v = il_sim_env_ops.sleep_length(env, delta_next);
	struct rec_entry *e = rec_push(env->cpu, REC_SLEEP);

	e->a = v;
	e->flag = delta_next != NULL;
	if (delta_next)
		e->b = *delta_next;
	return v;
}

#define REC_WRAP(name, type, tag)                                       \
	static type rec_##name(const struct il_env *env)                \
	{                                                               \
		type v = il_sim_env_ops.name(env);                      \
		rec_push(env->cpu, tag)->a = (s64)v;                    \
		return v;                                               \
	}

REC_WRAP(tick_stopped, bool, REC_TICK_STOPPED)
REC_WRAP(got_tick, bool, REC_GOT_TICK)
REC_WRAP(nr_iowait, unsigned long, REC_IOWAIT)
REC_WRAP(load_weight, unsigned long, REC_LOAD)
REC_WRAP(local_clock, u64, REC_CLOCK)
REC_WRAP(oracle_idle_ns, s64, REC_ORACLE)

static void rec_qos(const struct il_env *env, struct il_qos *out)
{
	il_sim_env_ops.qos(env, out);
	rec_push(env->cpu, REC_QOS)->qos = *out;
}

static const struct il_env_ops rec_ops = {
	.sleep_length = rec_sleep_length, .tick_stopped = rec_tick_stopped, .got_tick = rec_got_tick,
	.qos = rec_qos, .nr_iowait = rec_nr_iowait, .load_weight = rec_load_weight,
	.local_clock = rec_local_clock, .oracle_idle_ns = rec_oracle_idle_ns,
};

static int wrap_select(struct il_driver *drv, struct il_device *dev, bool *stop_tick)
{
	size_t at = rec.cpu[dev->cpu].n;
	int idx;

	rec_push(dev->cpu, REC_SELECT);
	idx = rec.real->gov->select(drv, dev, stop_tick);
	rec.cpu[dev->cpu].e[at].idx = idx;
	return idx;
}

static void wrap_reflect(struct il_device *dev, int index)
{
	rec_push(dev->cpu, REC_REFLECT)->idx = index;
	rec.real->gov->reflect(dev, index);
}

static void rec_period(void *ctx, const struct il_sim_period *p)
{
	struct rec_entry *e = rec_push(p->cpu, REC_PERIOD);

	e->idx = p->idx;
	e->a = (s64)(p->end_ns - p->start_ns);
	e->flag = il_sim_device(rec.sim, p->cpu)->poll_time_limit;
}

/* ---- replay: the recorded answers, in order ---------------------------------------------- */

static struct rec_entry *replay_next(const struct il_env *env, enum rec_tag tag)
{
	struct rec_cpu *c = &rec.cpu[env->cpu];
	struct rec_entry *e = &c->e[c->pos++];

	if (e->tag != tag) {
		fprintf(stderr, "sim_bench: replay diverged on CPU %u at %zu\n", env->cpu, c->pos - 1);
		exit(1);
	}
	return e;
}

static s64 rp_sleep_length(const struct il_env *env, s64 *delta_next)
{
	struct rec_entry *e = replay_next(env, REC_SLEEP);

	if (delta_next)
		*delta_next = e->b;
	return e->a;
}

#define RP_WRAP(name, type, tag)                             \
	static type rp_##name(const struct il_env *env)      \
	{                                                    \
		return (type)replay_next(env, tag)->a;       \
	}

RP_WRAP(tick_stopped, bool, REC_TICK_STOPPED)
RP_WRAP(got_tick, bool, REC_GOT_TICK)
RP_WRAP(nr_iowait, unsigned long, REC_IOWAIT)
RP_WRAP(load_weight, unsigned long, REC_LOAD)
RP_WRAP(local_clock, u64, REC_CLOCK)
RP_WRAP(oracle_idle_ns, s64, REC_ORACLE)

static void rp_qos(const struct il_env *env, struct il_qos *out)
{
	*out = replay_next(env, REC_QOS)->qos;
}

static const struct il_env_ops replay_ops = {
	.sleep_length = rp_sleep_length, .tick_stopped = rp_tick_stopped, .got_tick = rp_got_tick,
	.qos = rp_qos, .nr_iowait = rp_nr_iowait, .load_weight = rp_load_weight,
	.local_clock = rp_local_clock, .oracle_idle_ns = rp_oracle_idle_ns,
};

/*
 * Walk one CPU's stream: select, account, reflect, exactly as the simulator called them.
 * Not inlined, so that a profiler can count it apart (valgrind --toggle-collect=replay_cpu).
 */
static __attribute__((noinline)) void replay_cpu(struct il_driver *drv, struct rec_cpu *c)
{
	while (c->pos < c->n) {
		struct rec_entry *e = &c->e[c->pos++];
		bool stop_tick = true;

		switch (e->tag) {
		case REC_SELECT:
			if (rec.real->gov->select(drv, &c->dev, &stop_tick) != e->idx) {
				fprintf(stderr, "sim_bench: replayed select differs on CPU %u\n", c->dev.cpu);
				exit(1);
			}
			break;
		case REC_PERIOD:
			c->dev.poll_time_limit = e->flag;
			il_cpuidle_account(drv, &c->dev, e->idx, e->a);
			break;
		case REC_REFLECT:
			il_cpuidle_reflect(&c->dev, e->idx);
			break;
		default:
			break; /* an answer asked for outside select and reflect (none today) */
		}
	}
}

/* ---- the runs ------------------------------------------------------------------------------ */

static void lab_spec(struct il_lab_spec *spec, const struct il_platform *plat, const struct il_preset *p)
{
	struct il_error err;

	memset(spec, 0, sizeof(*spec));
	spec->plat = plat;
	spec->preset = p;
	if (il_scn_parse("fio:device=nvme,cpus=8", &spec->scn, &spec->args, &spec->common, &err)) {
		fprintf(stderr, "sim_bench: %s\n", err.msg);
		exit(1);
	}
	spec->duration_ns = SIM_TIME_NS;
	spec->seed = 1;
}

/* The recording run: the lab run with wrapped environment and governor. */
static void record_run(const struct il_platform *plat, const struct il_preset *p)
{
	struct il_lab_spec spec;
	struct il_sim_config cfg;
	struct il_sim_observer obs = { .period = rec_period };
	void *ctx;

	lab_spec(&spec, plat, p);
	rec.real = p;
	rec.wrap_gov = *p->gov;
	rec.wrap_gov.select = wrap_select;
	rec.wrap_gov.reflect = p->gov->reflect ? wrap_reflect : NULL;
	rec.wrap = *p;
	rec.wrap.gov = &rec.wrap_gov;
	il_sim_config_defaults(&cfg);
	cfg.drv = &plat->drv;
	cfg.preset = &rec.wrap;
	cfg.ncpus = 8;
	cfg.hz = plat->hz;
	cfg.duration_ns = SIM_TIME_NS;
	cfg.seed = 1;
	cfg.ipi_ns = il_lab_ipi_ns(plat);
	rec.sim = il_sim_new(&cfg);
	ctx = calloc(1, spec.scn->ctx_size);
	rec.ncpus = 8;
	rec.cpu = calloc(8, sizeof(*rec.cpu));
	if (!rec.sim || !ctx || !rec.cpu) {
		fprintf(stderr, "sim_bench: cannot set up the recording run\n");
		exit(1);
	}
	for (unsigned int i = 0; i < 8; i++)
		rec.sim->cpu[i].env.ops = &rec_ops;
	il_sim_set_observer(rec.sim, &obs);
	if (spec.scn->setup(rec.sim, ctx, &spec.args) || il_sim_run(rec.sim)) {
		fprintf(stderr, "sim_bench: the recording run failed\n");
		exit(1);
	}
	il_sim_free(rec.sim);
	spec.scn->cleanup(ctx);
	free(ctx);
}

/* One timed replay of every CPU's stream on freshly bound devices. */
static double replay_once(const struct il_platform *plat, const struct il_preset *p)
{
	struct il_driver drv = plat->drv;
	double t0;

	for (unsigned int i = 0; i < rec.ncpus; i++) {
		struct rec_cpu *c = &rec.cpu[i];

		memset(&c->dev, 0, sizeof(c->dev));
		c->pos = 0;
		c->env.ops = &replay_ops;
		c->env.cpu = i;
		il_env_set_hz(&c->env, plat->hz);
		c->dev.cpu = i;
		c->dev.env = &c->env;
		if (il_gov_bind(&drv, &c->dev, p)) {
			fprintf(stderr, "sim_bench: cannot bind %s\n", p->name);
			exit(1);
		}
	}
	t0 = cpu_seconds();
	for (unsigned int i = 0; i < rec.ncpus; i++)
		replay_cpu(&drv, &rec.cpu[i]);
	t0 = cpu_seconds() - t0;
	for (unsigned int i = 0; i < rec.ncpus; i++)
		il_gov_unbind(&drv, &rec.cpu[i].dev);
	return t0;
}

static void free_recording(void)
{
	for (unsigned int i = 0; i < rec.ncpus; i++)
		free(rec.cpu[i].e);
	free(rec.cpu);
	rec.cpu = NULL;
}

/*
 * Rounds of one timed lab run and REPLAYS replays (the replay takes about a third of the
 * time), back to back, so that both sides of a round see the same load on the shared
 * machine over about the same span of time: a round's replay time is the mean of its
 * replays. The idle periods per second come from the fastest lab run; the cost ratio is the
 * median of the rounds' ratios, with the fastest lab run over the fastest round of replays
 * beside it.
 */
#ifndef ROUNDS
#define ROUNDS 7           /* -DROUNDS=1 -DREPLAYS=1: one of each, for callgrind */
#endif
#ifndef REPLAYS
#define REPLAYS 3
#endif

static double lab_once(const struct il_lab_spec *spec, struct il_lab_result *res)
{
	double t = cpu_seconds();

	if (il_lab_run(spec, res)) {
		fprintf(stderr, "sim_bench: the lab run failed\n");
		exit(1);
	}
	return cpu_seconds() - t;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void bench_governor(const struct il_platform *plat, const char *name)
{
	const struct il_preset *p = il_preset_find(name);
	struct il_lab_spec spec;
	struct il_lab_result res;
	double ratio[ROUNDS], t_sim = 0, t_replay = 0;

	if (!p) {
		printf("sim_%s_missing 1\n", name);
		return;
	}
	lab_spec(&spec, plat, p);
	record_run(plat, p);
	for (int i = 0; i < ROUNDS; i++) {
		double t_lab, t_rep = 0;

		if (i)
			il_lab_result_free(&res);
		t_lab = lab_once(&spec, &res);
		for (int k = 0; k < REPLAYS; k++)
			t_rep += replay_once(plat, p) / REPLAYS;
		ratio[i] = t_lab / t_rep;
		t_sim = !i || t_lab < t_sim ? t_lab : t_sim;
		t_replay = !i || t_rep < t_replay ? t_rep : t_replay;
	}
	free_recording();
	qsort(ratio, ROUNDS, sizeof(ratio[0]), cmp_double);
	printf("sim_%s_idle_periods %llu\n", name, (unsigned long long)res.sum.idles);
	printf("sim_%s_events %llu\n", name, (unsigned long long)res.events);
	printf("sim_%s_cpu_s %.4f\n", name, t_sim);
	printf("sim_%s_idle_periods_per_s %.0f\n", name, (double)res.sum.idles / t_sim);
	printf("sim_%s_select_reflect_cpu_s %.4f\n", name, t_replay);
	printf("sim_%s_cost_ratio %.2f\n", name, ratio[ROUNDS / 2]);
	printf("sim_%s_cost_ratio_fastest %.2f\n", name, t_sim / t_replay);
	il_lab_result_free(&res);
}

/* Arguments: the presets to measure (default menu and teo). */
int main(int argc, char **argv)
{
	static const char *const dflt[] = { "menu", "teo" };
	struct il_platform plat;
	struct il_error err;

	if (il_platform_load("rk3588", &plat, &err)) {
		fprintf(stderr, "sim_bench: %s\n", err.msg);
		return 1;
	}
	printf("sim_scenario fio:device=nvme,cpus=8@rk3588\n");
	printf("sim_simulated_s %.0f\n", (double)SIM_TIME_NS / 1e9);
	for (int i = 1; i < argc; i++)
		bench_governor(&plat, argv[i]);
	for (int i = 0; argc < 2 && i < 2; i++)
		bench_governor(&plat, dflt[i]);
	return 0;
}
