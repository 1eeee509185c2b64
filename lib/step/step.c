// SPDX-License-Identifier: GPL-2.0-only
/*
 * step.c - the step driver: one CPU, one governor, one scripted idle entry at a time.
 *
 * See the DOC block in step.h for the order of events. The environment below answers the
 * governor's kernel calls from the current script line; it counts the sleep-length queries
 * so that the record can say whether (and how often) the governor asked.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "step.h"

/* local_clock() at the first select: one second after "boot", like the unit-test env. */
#define IL_STEP_CLOCK_START_NS NSEC_PER_SEC

struct il_step_cpu {
	struct il_env env;
	struct il_driver drv;
	struct il_device dev;
	const struct il_preset *preset;
	struct il_step_input cur; /* the current line, defaults filled in */
	u64 now_ns;               /* local_clock() */
	bool got_tick;            /* ts->got_idle_tick: set by a tick in idle, cleared on read */
	bool loop_got_tick;       /* 7.0+: what do_idle() read after the previous entry */
	int sleep_queries;
};

static s64 step_sleep_length(const struct il_env *env, s64 *delta_next)
{
	struct il_step_cpu *cpu = env->ctx;

	cpu->sleep_queries++;
	/*
	 * The 4.16 form (no delta_next) runs after the idle loop stopped the tick, so the
	 * programmed event is the next timer itself.
	 */
	if (delta_next)
		*delta_next = cpu->cur.delta_ns;
	return cpu->cur.sleep_ns;
}

static bool step_tick_stopped(const struct il_env *env)
{
	return ((struct il_step_cpu *)env->ctx)->cur.stopped;
}

static bool step_got_tick(const struct il_env *env)
{
	struct il_step_cpu *cpu = env->ctx;
	bool got = cpu->got_tick;

	cpu->got_tick = false;
	return got;
}

static void step_qos(const struct il_env *env, struct il_qos *out)
{
	struct il_step_cpu *cpu = env->ctx;

	il_qos_defaults(out);
	if (cpu->cur.has_qos)
		out->cpu_latency_us = cpu->cur.qos_us;
}

static unsigned long step_nr_iowait(const struct il_env *env)
{
	return ((struct il_step_cpu *)env->ctx)->cur.iowait;
}

static unsigned long step_load(const struct il_env *env)
{
	return ((struct il_step_cpu *)env->ctx)->cur.load;
}

static u64 step_clock(const struct il_env *env)
{
	return ((struct il_step_cpu *)env->ctx)->now_ns;
}

static s64 step_oracle(const struct il_env *env)
{
	return ((struct il_step_cpu *)env->ctx)->cur.oracle_ns;
}

static const struct il_env_ops step_env_ops = {
	.sleep_length = step_sleep_length,
	.tick_stopped = step_tick_stopped,
	.got_tick = step_got_tick,
	.qos = step_qos,
	.nr_iowait = step_nr_iowait,
	.load_weight = step_load,
	.local_clock = step_clock,
	.oracle_idle_ns = step_oracle,
};

struct il_step_cpu *il_step_cpu_alloc(const struct il_platform *plat, unsigned int hz,
				      const struct il_preset *preset, struct il_error *err)
{
	struct il_step_cpu *cpu = calloc(1, sizeof(*cpu));

	if (!cpu) {
		il_error_set(err, preset->name, 0, "out of memory");
		return NULL;
	}
	cpu->preset = preset;
	cpu->drv = plat->drv;
	cpu->env.ops = &step_env_ops;
	cpu->env.ctx = cpu;
	if (il_env_set_hz(&cpu->env, hz ? hz : plat->hz)) {
		il_error_set(err, preset->name, 0, "invalid HZ %u", hz ? hz : plat->hz);
		free(cpu);
		return NULL;
	}
	cpu->now_ns = IL_STEP_CLOCK_START_NS;
	il_platform_device_init(plat, &cpu->dev);
	cpu->dev.env = &cpu->env;
	if (il_gov_bind(&cpu->drv, &cpu->dev, preset)) {
		il_error_set(err, preset->name, 0, "the governor's enable() failed: %s",
			     strerror(errno));
		free(cpu);
		return NULL;
	}
	return cpu;
}

void il_step_cpu_free(struct il_step_cpu *cpu)
{
	if (!cpu)
		return;
	il_gov_unbind(&cpu->drv, &cpu->dev);
	free(cpu);
}

int il_step_cpu_set_param(struct il_step_cpu *cpu, const char *name, const char *value,
			  struct il_error *err)
{
	if (!il_gov_find_param(cpu->preset->gov, name))
		return 1;
	if (il_gov_set_param(&cpu->dev, name, value))
		return il_error_set(err, cpu->preset->name, 0, "invalid value '%s' for %s: %s",
				    value, name, strerror(errno));
	return 0;
}

const struct il_driver *il_step_cpu_driver(const struct il_step_cpu *cpu)
{
	return &cpu->drv;
}

u64 il_step_cpu_tick_nsec(const struct il_step_cpu *cpu)
{
	return cpu->env.tick_nsec;
}

void il_step_resolve_inputs(u64 tick_nsec, const struct il_step_input *in,
			    struct il_step_input *out)
{
	s64 tick = (s64)tick_nsec;

	*out = *in;
	if (!out->has_delta)
		out->delta_ns = out->stopped || out->sleep_ns < tick ? out->sleep_ns : tick;
	if (!out->has_span)
		out->span_ns = out->rejected ? 0 : out->res_ns;
	if (!out->has_oracle)
		out->oracle_ns = out->rejected ? 0 : out->res_ns;
}

/* The 6.19.9 and 7.0+ idle loops never call the governor for a single-state device. */
static bool governor_bypassed(const struct il_step_cpu *cpu)
{
	return cpu->drv.state_count < 2 && cpu->preset->core->idle_loop >= IL_LOOP_6_19_9;
}

static void select_bypassed(struct il_step_cpu *cpu, struct il_step_record *rec)
{
	rec->bypassed = true;
	rec->index = 0;
	/*
	 * 6.19.9 retains the tick unconditionally. 7.0 passes do_idle()'s got-tick reading as
	 * stop_tick, so the tick stops after a tick wakeup (or stays stopped).
	 */
	if (cpu->preset->core->idle_loop >= IL_LOOP_7_0) {
		rec->stop_tick = cpu->loop_got_tick;
		rec->tick_action =
			rec->stop_tick || cpu->cur.stopped ? IL_TICK_STOP : IL_TICK_RETAIN;
	} else {
		rec->stop_tick = false;
		rec->tick_action = IL_TICK_RETAIN;
	}
}

static enum il_tick_action tick_action(const struct il_step_cpu *cpu, bool stop_tick)
{
	switch (cpu->preset->core->idle_loop) {
	case IL_LOOP_4_16:
		return IL_TICK_ON_ENTRY;
	case IL_LOOP_4_17:
		return stop_tick ? IL_TICK_STOP : IL_TICK_RETAIN;
	default:
		return stop_tick || cpu->cur.stopped ? IL_TICK_STOP : IL_TICK_RETAIN;
	}
}

/* poll_idle() of the 5.x+ kernels: the flag says whether the time limit ended the poll. */
static void set_poll_time_limit(struct il_step_cpu *cpu, int index)
{
	if (!(cpu->drv.states[index].flags & CPUIDLE_FLAG_POLLING) || cpu->cur.rejected ||
	    cpu->preset->core->poll != IL_POLL_5_X)
		return;
	cpu->dev.poll_time_limit = (u64)cpu->cur.res_ns >
				   il_cpuidle_poll_time(&cpu->drv, &cpu->dev);
}

static void collect_vars(const struct il_step_cpu *cpu, struct il_step_record *rec)
{
	rec->nvars = 0;
	if (cpu->preset->gov->vars)
		rec->nvars = cpu->preset->gov->vars(&cpu->dev, rec->vars, IL_MAX_VARS);
	if (rec->nvars < 0)
		rec->nvars = 0;
	if (rec->nvars > IL_MAX_VARS)
		rec->nvars = IL_MAX_VARS;
}

int il_step_cpu_run(struct il_step_cpu *cpu, const struct il_step_input *in, const char *file,
		    struct il_step_record *rec, struct il_error *err)
{
	memset(rec, 0, sizeof(*rec));
	il_step_resolve_inputs(cpu->env.tick_nsec, in, &cpu->cur);
	rec->in = cpu->cur;
	rec->now_ns = cpu->now_ns;
	cpu->sleep_queries = 0;

	if (governor_bypassed(cpu)) {
		select_bypassed(cpu, rec);
	} else {
		rec->stop_tick = true;
		rec->index = cpu->preset->gov->select(&cpu->drv, &cpu->dev, &rec->stop_tick);
		if (rec->index < 0 || rec->index >= cpu->drv.state_count)
			return il_error_set(err, file, in->line,
					    "%s selected state %d, but %s has %d states",
					    cpu->preset->name, rec->index, cpu->drv.name,
					    cpu->drv.state_count);
		rec->tick_action = tick_action(cpu, rec->stop_tick);
	}
	rec->sleep_queries = cpu->sleep_queries;

	set_poll_time_limit(cpu, rec->index);
	rec->miss = il_cpuidle_account(&cpu->drv, &cpu->dev, rec->index,
				       cpu->cur.rejected ? -1 : cpu->cur.res_ns);
	cpu->now_ns += (u64)cpu->cur.span_ns;
	if (cpu->cur.tick)
		cpu->got_tick = true;
	if (!rec->bypassed && !cpu->cur.rejected)
		il_cpuidle_reflect(&cpu->dev, rec->index);
	if (cpu->preset->core->idle_loop >= IL_LOOP_7_0)
		cpu->loop_got_tick = step_got_tick(&cpu->env);

	rec->poll_time_limit = cpu->dev.poll_time_limit;
	collect_vars(cpu, rec);
	return 0;
}

const char *il_miss_name(enum il_miss miss)
{
	switch (miss) {
	case IL_MISS_ABOVE:
		return "above";
	case IL_MISS_BELOW:
		return "below";
	case IL_MISS_REJECTED:
		return "rejected";
	case IL_MISS_NONE:
	default:
		return "none";
	}
}

const char *il_tick_action_name(enum il_tick_action action)
{
	switch (action) {
	case IL_TICK_STOP:
		return "stop";
	case IL_TICK_RETAIN:
		return "retain";
	case IL_TICK_ON_ENTRY:
	default:
		return "entry";
	}
}
