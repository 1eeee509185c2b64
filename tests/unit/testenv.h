/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * testenv.h - a scripted environment and device for unit tests of governors.
 *
 * A test sets the fields of struct testenv (sleep length, delta_next, tick state, QoS, ...)
 * before each select, and calls te_idle() to run one whole idle period the way the
 * cpuidle core does: select, account the measured residency, reflect.
 */
#ifndef IDLELAB_TESTENV_H
#define IDLELAB_TESTENV_H

#include "cpuidle.h"
#include "env.h"
#include "governor.h"
#include "core/core.h"

struct testenv {
	struct il_env env;
	struct il_driver drv;
	struct il_device dev;
	/* Inputs the governor reads; set them before te_select()/te_idle(). */
	s64 sleep_ns;      /* tick_nohz_get_sleep_length() return value */
	s64 delta_next_ns; /* *delta_next */
	bool tick_stopped;
	bool got_tick;     /* consumed (cleared) by the first reader */
	struct il_qos qos;
	unsigned long nr_iowait, load;
	u64 now_ns;        /* local_clock() */
	s64 oracle_ns;
	/* What the governor did. */
	int sleep_queries; /* how many times sleep_length was called */
	int got_tick_reads;
};

/*
 * te_init - set up @te with @n states given as {exit_latency_ns, target_residency_ns} pairs;
 * state 0 is polling when @poll0. HZ 1000. Binds @preset_name (asserts it exists).
 */
void te_init(struct testenv *te, const char *preset_name, bool poll0, int n, const s64 states[][2]);
/* Unbind and free. */
void te_fini(struct testenv *te);
/* One select() with the current inputs; returns the index and stores stop_tick. */
int te_select(struct testenv *te, bool *stop_tick);
/*
 * One whole idle period: select, then account @residency_ns (negative = rejected entry),
 * advance the clock by it, and reflect if the entry was not rejected. Returns the index.
 */
int te_idle(struct testenv *te, s64 residency_ns, bool *stop_tick);
/* Value of the governor variable @name (asserts it exists). */
u64 te_var(struct testenv *te, const char *name);

#endif
