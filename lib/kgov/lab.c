// SPDX-License-Identifier: GPL-2.0-only
/*
 * lab.c - the idle periods of one lab run as a script for il_kgov_diff_replay().
 *
 * DOC: kgov diff --scenario
 *
 *  1. The run is simulated once, driven by OLD (il_lab_run()). OLD is wrapped: a copy of its
 *     preset whose governor's select() first notes, for the CPU it runs on, what the kernel
 *     shows a governor at that moment (the sleep length and delta_next, the tick state, the
 *     PM QoS limits, iowait and load, local_clock()), then calls OLD's select(). The
 *     environment's answers have no side effect, so the wrapped run is the unwrapped one.
 *  2. The simulator's period observer completes the note when that CPU's period ends: the
 *     measured residency (end - start, as cpuidle_enter_state() measures it), whether the tick
 *     woke the CPU (got_tick), whether a polling state hit its limit, whether the entry was
 *     rejected. Periods without select() (the single-state bypass) are left out.
 *  3. il_kgov_diff_replay() runs OLD and NEW on every CPU's periods, open loop: both see the
 *     recorded inputs and outcomes whatever they pick, as `idlelab replay` does with a trace.
 *     So the count says how often NEW would have decided otherwise on OLD's idle periods;
 *     what NEW's choices would have changed next (closed loop) is what `compare` measures.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kgov.h"
#include "../lab/lab.h"

struct lab_capture {
	const struct il_governor *inner;
	unsigned int ncpus;
	struct kgov_step **steps;       /* [cpu], growable */
	unsigned long long *n, *cap;
	struct kgov_step *pending;      /* [cpu]: select() seen, period not ended yet */
	bool *has_pending;
	int error;
};

/* the run being recorded (il_kgov_diff_lab() only), per thread: a review diffs the lab's
 * (platform, scenario) pairs on several (the kshim's current device is per thread too) */
static _Thread_local struct lab_capture *capture;

static int capture_select(struct il_driver *drv, struct il_device *dev, bool *stop_tick)
{
	struct lab_capture *cap = capture;
	const struct il_env *env = dev->env;

	if (dev->cpu < cap->ncpus) {
		struct kgov_step *st = &cap->pending[dev->cpu];

		memset(st, 0, sizeof(*st));
		st->toggle_state = -1;
		st->sleep_ns = env->ops->sleep_length(env, &st->delta_next_ns);
		st->tick_stopped = env->ops->tick_stopped(env);
		env->ops->qos(env, &st->qos);
		st->nr_iowait = env->ops->nr_iowait ? env->ops->nr_iowait(env) : 0;
		st->load = env->ops->load_weight ? env->ops->load_weight(env) : 0;
		st->clock_ns = env->ops->local_clock(env);
		cap->has_pending[dev->cpu] = true;
	}
	return cap->inner->select(drv, dev, stop_tick);
}

static int capture_push(struct lab_capture *cap, unsigned int cpu, const struct kgov_step *st)
{
	if (cap->n[cpu] == cap->cap[cpu]) {
		unsigned long long ncap = cap->cap[cpu] ? 2 * cap->cap[cpu] : 1024;
		struct kgov_step *ns = realloc(cap->steps[cpu], ncap * sizeof(*ns));

		if (!ns)
			return -1;
		cap->steps[cpu] = ns;
		cap->cap[cpu] = ncap;
	}
	cap->steps[cpu][cap->n[cpu]++] = *st;
	return 0;
}

static void capture_period(void *ctx, const struct il_sim_period *p)
{
	struct lab_capture *cap = ctx;
	struct kgov_step *st;

	if (p->cpu >= cap->ncpus || !p->governed || !cap->has_pending[p->cpu])
		return;
	cap->has_pending[p->cpu] = false;
	st = &cap->pending[p->cpu];
	st->rejected = p->miss == IL_MISS_REJECTED;
	st->residency_ns = st->rejected ? 0 : (s64)(p->end_ns - p->start_ns);
	st->got_tick = p->cause == IL_SIM_WAKE_TICK;
	st->poll_timeout = p->cause == IL_SIM_WAKE_POLL_LIMIT;
	st->exit_clock_ns = p->end_ns;
	if (!cap->error && capture_push(cap, p->cpu, st))
		cap->error = ENOMEM;
}

static void capture_free(struct lab_capture *cap)
{
	for (unsigned int i = 0; cap->steps && i < cap->ncpus; i++)
		free(cap->steps[i]);
	free(cap->steps);
	free(cap->n);
	free(cap->cap);
	free(cap->pending);
	free(cap->has_pending);
}

static int capture_alloc(struct lab_capture *cap, unsigned int ncpus)
{
	cap->ncpus = ncpus;
	cap->steps = calloc(ncpus, sizeof(*cap->steps));
	cap->n = calloc(ncpus, sizeof(*cap->n));
	cap->cap = calloc(ncpus, sizeof(*cap->cap));
	cap->pending = calloc(ncpus, sizeof(*cap->pending));
	cap->has_pending = calloc(ncpus, sizeof(*cap->has_pending));
	return cap->steps && cap->n && cap->cap && cap->pending && cap->has_pending ? 0 : -1;
}

int il_kgov_diff_lab(const struct il_preset *old, const struct il_preset *new,
		     const struct il_lab_spec *spec, unsigned int show,
		     struct il_kgov_diff_result *res, struct il_error *err)
{
	struct lab_capture cap = { .inner = old->gov };
	struct il_governor wrapped = *old->gov;
	struct il_preset preset = *old;
	struct il_sim_observer obs = { .period = capture_period, .ctx = &cap };
	struct il_lab_spec s = *spec;
	struct il_lab_result lr;
	struct il_kgov_diff_script script;
	int ret;

	memset(res, 0, sizeof(*res));
	if (capture)
		return il_error_set(err, "kgov diff", 0, "a lab capture is already running");
	/* the simulator never has more CPUs than the platform, or the scenario's count */
	if (capture_alloc(&cap, spec->plat->cpus > 256 ? spec->plat->cpus : 256)) {
		capture_free(&cap);
		return il_error_set(err, "kgov diff", 0, "out of memory");
	}
	wrapped.select = capture_select;
	preset.gov = &wrapped;
	s.preset = &preset;
	s.observer = &obs;
	capture = &cap;
	ret = il_lab_run(&s, &lr);
	capture = NULL;
	if (ret) {
		ret = il_error_set(err, spec->plat->name, 0, "the lab run of %s failed: %s",
				   spec->scn->name, strerror(errno));
		goto out;
	}
	if (cap.error) {
		ret = il_error_set(err, "kgov diff", 0, "out of memory");
		goto out_lab;
	}
	script = (struct il_kgov_diff_script){ .drv = &lr.drv, .hz = lr.hz,
					       .ncpus = lr.ncpus < cap.ncpus ? lr.ncpus : cap.ncpus,
					       .steps = (const struct kgov_step *const *)cap.steps,
					       .nsteps = cap.n };
	ret = il_kgov_diff_replay(old, new, &script, show, res, err);
out_lab:
	il_lab_result_free(&lr);
out:
	capture_free(&cap);
	return ret;
}
