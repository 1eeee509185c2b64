/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sleepers.h - many threads that each work a little, then sleep a little on a timer:
 * the engine of the threads, ebizzy and adrestia scenarios.
 *
 * DOC: sleeper threads
 *
 * Thread i lives on CPU i % ncpus (the scheduler spreads them; the model pins them). Each
 * loop: run `work` ns (log-normal with sigma work_sigma/1000 around it), then sleep
 * `sleep` ns on a timer armed when the work ends (nanosleep: relative), then wake. The
 * wakeup cost of a loop is the time from the timer's expiry to the start of the work.
 */
#ifndef IDLELAB_SCN_SLEEPERS_H
#define IDLELAB_SCN_SLEEPERS_H

#include <stdbool.h>

#include "../sim/sim.h"
#include "background.h"

struct il_bg;

struct il_sleepers_params {
	unsigned int threads;
	u64 work_ns;
	unsigned int work_sigma; /* 1/1000 */
	u64 sleep_ns;
};

struct il_sleepers;

/** il_sleepers_start - start the threads on @sim; Return: the state, or NULL (errno) */
struct il_sleepers *il_sleepers_start(struct il_sim *sim, const struct il_sleepers_params *p,
				      u64 stream);
void il_sleepers_free(struct il_sleepers *s);
/** il_sleepers_loops - loops completed by all threads */
u64 il_sleepers_loops(const struct il_sleepers *s);
/** il_sleepers_cost_ns - the mean wakeup cost, ns */
double il_sleepers_cost_ns(const struct il_sleepers *s);

/* The context of a scenario that is sleeper threads plus, optionally, the background. */
struct il_sleepers_scn {
	struct il_sleepers *s;
	struct il_bg *bg;
};

/**
 * il_sleepers_scn_setup - a scenario's setup: start the threads of @p on stream 1 and,
 * when @background, the default background activity with the rate and shape @bg_shape
 * (il_bg_start_default()), on stream 2, into @ctx (a struct il_sleepers_scn)
 * Return: 0, or -1 with errno set.
 */
int il_sleepers_scn_setup(struct il_sim *sim, void *ctx, const struct il_sleepers_params *p,
			  bool background, const s64 bg_shape[IL_BG_NPARAMS]);
/** il_sleepers_scn_cleanup - a scenario's cleanup: free what il_sleepers_scn_setup() started */
void il_sleepers_scn_cleanup(void *ctx);
/** il_sleepers_scn_loops_per_s - a scenario's score: loops per simulated second, all threads */
double il_sleepers_scn_loops_per_s(const struct il_sim *sim, const void *ctx);

#endif /* IDLELAB_SCN_SLEEPERS_H */
