// SPDX-License-Identifier: GPL-2.0-only
/*
 * sleepers.c - threads that work, then sleep on a timer (see sleepers.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "background.h"
#include "sleepers.h"

struct sleeper {
	struct il_sleepers *s;
	struct il_sim_timer timer;
	u64 work_ns;    /* of the piece in flight */
};

struct il_sleepers {
	struct il_sleepers_params p;
	struct il_rng rng;
	struct sleeper *t;
	u64 loops;
	u64 cost_sum_ns;
};

static void sleeper_done(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct sleeper *t = arg;
	struct il_sleepers *s = t->s;
	u64 now = il_sim_now(sim);

	/* The work started at now - work_ns; the timer had expired at timer.expires. */
	s->cost_sum_ns += now - t->work_ns - t->timer.expires;
	s->loops++;
	il_sim_timer_start(sim, &t->timer, cpu, now + s->p.sleep_ns);
}

static void sleeper_wake(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct sleeper *t = arg;
	struct il_sleepers *s = t->s;

	t->work_ns = il_rng_lognormal_ns(&s->rng, s->p.work_ns, s->p.work_sigma);
	if (!t->work_ns)
		t->work_ns = 1;
	il_sim_wake(sim, cpu, cpu, t->work_ns, sleeper_done, t, -1);
}

struct il_sleepers *il_sleepers_start(struct il_sim *sim, const struct il_sleepers_params *p,
				      u64 stream)
{
	struct il_sleepers *s = calloc(1, sizeof(*s));
	unsigned int ncpus = il_sim_ncpus(sim);

	if (!s || !(s->t = calloc(p->threads ? p->threads : 1, sizeof(*s->t)))) {
		free(s);
		errno = ENOMEM;
		return NULL;
	}
	s->p = *p;
	il_sim_rng_init(sim, &s->rng, stream);
	for (unsigned int i = 0; i < p->threads; i++) {
		struct sleeper *t = &s->t[i];

		t->s = s;
		il_sim_timer_init(&t->timer, sleeper_wake, t);
		/* Spread the first wakeups over one loop so threads do not start in lockstep. */
		if (il_sim_timer_start(sim, &t->timer, i % ncpus,
				       1 + il_rng_below(&s->rng, p->sleep_ns + p->work_ns + 1))) {
			il_sleepers_free(s);
			return NULL;
		}
	}
	return s;
}

void il_sleepers_free(struct il_sleepers *s)
{
	if (!s)
		return;
	free(s->t);
	free(s);
}

u64 il_sleepers_loops(const struct il_sleepers *s)
{
	return s->loops;
}

double il_sleepers_cost_ns(const struct il_sleepers *s)
{
	return s->loops ? (double)s->cost_sum_ns / (double)s->loops : 0.0;
}

int il_sleepers_scn_setup(struct il_sim *sim, void *ctx, const struct il_sleepers_params *p,
			  bool background, const s64 bg_shape[IL_BG_NPARAMS])
{
	struct il_sleepers_scn *c = ctx;

	c->s = il_sleepers_start(sim, p, 1);
	if (!c->s)
		return -1;
	return il_bg_start_default(sim, background, bg_shape, 2, &c->bg);
}

void il_sleepers_scn_cleanup(void *ctx)
{
	struct il_sleepers_scn *c = ctx;

	il_sleepers_free(c->s);
	il_bg_free(c->bg);
}

double il_sleepers_scn_loops_per_s(const struct il_sim *sim, const void *ctx)
{
	const struct il_sleepers_scn *c = ctx;

	return (double)il_sleepers_loops(c->s) * 1e9 / (double)il_sim_duration_ns(sim);
}
