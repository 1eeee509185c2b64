// SPDX-License-Identifier: GPL-2.0-only
/*
 * wheel.c - timer_list timers: when the kernel's timer wheel runs a timer armed for a delay.
 *
 * DOC: the timer wheel
 *
 * Most timers of an idle system are timer_list timers (delayed work, the networking and
 * block layers' housekeeping), not hrtimers: in the 6.18 guest's idle trace 89 of the 98
 * timer-ended idle periods end in the tick's hrtimer, which runs the wheel while the tick is
 * stopped. The wheel (kernel/time/timer.c since 4.8, calc_wheel_index() and calc_index())
 * does not run such a timer at its expiry but in the timer softirq of a later tick:
 *
 *  1. The expiry is in jiffies: the delay is rounded up to whole ticks (msecs_to_jiffies()
 *     and usecs_to_jiffies() round up) and added to the current jiffy.
 *  2. The distance from the wheel's clock picks a level: level 0 holds distances below 63
 *     ticks, level n from 63 << 3(n - 1) (LVL_START(n)); level n's buckets are 8^n ticks
 *     wide (LVL_GRAN). Distances beyond the last level are cut to its reach.
 *  3. The bucket's expiry is the first multiple of the level's width strictly after the
 *     expiry (the wheel never runs a timer early, so it runs it up to one width late).
 *  4. The timer runs at that tick. Timers of one CPU whose buckets expire at the same tick
 *     run in one wakeup: the wheel batches them, which hrtimers at their exact times do not.
 *
 * The wheel's clock is taken as the current jiffy: the kernel's base->clk is at most one
 * tick ahead of it, which changes a level only for distances at a level's edge.
 */
#include "sim-local.h"

#define WHEEL_LVL_CLK_SHIFT 3
#define WHEEL_LVL_SIZE 64
#define WHEEL_LVL_DEPTH 9 /* HZ > 100; 8 levels at HZ 100 reach as far as needed here too */

/* LVL_START(n): the shortest distance, in ticks, that level @lvl (>= 1) holds. */
static u64 wheel_lvl_start(unsigned int lvl)
{
	return (u64)(WHEEL_LVL_SIZE - 1) << ((lvl - 1) * WHEEL_LVL_CLK_SHIFT);
}

u64 il_wheel_bucket_expiry(u64 expires, u64 clk)
{
	u64 delta = expires - clk;
	unsigned int lvl = 0, shift;

	if (expires < clk)
		return clk; /* already due: the current bucket */
	while (lvl + 1 < WHEEL_LVL_DEPTH && delta >= wheel_lvl_start(lvl + 1))
		lvl++;
	shift = lvl * WHEEL_LVL_CLK_SHIFT;
	if (delta >= wheel_lvl_start(WHEEL_LVL_DEPTH)) /* WHEEL_TIMEOUT_CUTOFF: to _MAX */
		expires = clk + wheel_lvl_start(WHEEL_LVL_DEPTH) - (1ULL << shift);
	return ((expires >> shift) + 1) << shift;
}

u64 il_wheel_expires_ns(u64 now_ns, u64 delay_ns, u64 tick_ns)
{
	u64 clk = now_ns / tick_ns;
	u64 ticks = delay_ns / tick_ns + (delay_ns % tick_ns != 0);

	return il_wheel_bucket_expiry(clk + ticks, clk) * tick_ns;
}

int il_sim_timer_start_wheel(struct il_sim *sim, struct il_sim_timer *t, unsigned int cpu,
			     u64 delay_ns)
{
	return il_sim_timer_start(sim, t, cpu,
				  il_wheel_expires_ns(sim->head.now, delay_ns, sim->tick_ns));
}
