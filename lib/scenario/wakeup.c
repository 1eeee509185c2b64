// SPDX-License-Identifier: GPL-2.0-only
/*
 * wakeup.c - a pinned waker and wakee at a fixed interval, by pipe or by timer.
 *
 * DOC: wakeup model
 *
 * Aboorva Devarajan's cpuidle_wakeup test on POWER pseries (anchors.md §5: 50 µs pipe
 * wakeups for 5 s, 96 767 snooze entries, average wakeup latency 4.94 µs) and the seeds'
 * Above %/Below % tables for intervals of 5-500 µs:
 *
 *  - mode=pipe: the waker pinned to CPU 0 busy-waits interval_us (a clock_gettime() loop:
 *    its CPU never idles), writes one byte to a pipe (waker_ns of work) and starts the next
 *    wait at once; the wakee pinned to CPU 1 wakes and reads (wakee_ns). The wakee's CPU
 *    sees only non-timer wakeups, which no governor can see coming, one every interval_us
 *    + waker_ns whatever its own idle states cost. (AboorvaDevarajan/linux-utils
 *    cpuidle/cpuidle_wakeup.c, waker_fn(); an earlier model let the waker sleep on a
 *    periodic timer, whose exit latency then made the wakee's gaps alternate.)
 *  - mode=timer: the wakee on CPU 1 sleeps interval_us with a timer (nanosleep) after each
 *    read; its wakeups are timer events that tick_nohz_get_sleep_length() reports. The
 *    waker does nothing.
 *
 * Both modes start at phase_us into the first tick period, drawn per run from the seed by
 * default: the real test is launched at no particular point of the tick grid. Started on
 * the tick, a run is the same on every seed, and a difference of one idle period between two
 * governors is a call. Some intervals still lock onto the tick whatever the start: pseries
 * timer 400 µs runs 24 cycles per 10 ms tick and has 0.5 % too-shallow periods, where the
 * seeds have 1.2-1.5 % like the neighbouring intervals (the model has no jitter to unlock it).
 *
 * With background=1 the CPUs have the housekeeping of background.h besides; off by
 * default, so that the test alone is what a governor sees. The scoreboard's model of the
 * seeds' test LPAR turns it on, quiet: no work chains or companion timers, at 15 % of the
 * default rate, fitted to teo-6.14's few misses on the 150-500 us pipe rows
 * (tests/fidelity/transcribe.py, docs/lab.md "The pseries LPAR's background").
 *
 * The test reads only the wakee CPU's sysfs counters; here the waker's CPU has no idle
 * periods in pipe mode and one long one in timer mode, besides one at each expiry of its
 * softlockup watchdog (every 4 s, engine.c) and, with background=1, its background's, so
 * the run's totals are the wakee's but for those few (the scoreboard reads CPU 1's alone).
 * The watchdog is also what keeps a CPU that idles with no timer of the test's
 * (the waker's in timer mode, the wakee's before the first write) from reading a sleep
 * length near KTIME_MAX, which no real CPU does.
 *
 * Score: wakeup_us, the mean time from the write (pipe) or the timer expiry (timer) until
 * the wakee runs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "background.h"
#include "scenario.h"

static const char *const modes[] = { "pipe", "timer", NULL };

enum { P_MODE, P_INTERVAL, P_WAKER, P_WAKEE, P_PHASE, P_BG, P_BG_SHAPE };

static const struct il_scn_param wakeup_params[] = {
	[P_MODE] = { "mode", IL_SCN_ENUM, 0, 0, 0, modes, "",
		     "pipe: non-timer wakeups; timer: nanosleep wakeups" },
	[P_INTERVAL] = { "interval_us", IL_SCN_INT, 50, 1, 100000000, NULL, "us",
			 "the waker's busy wait (pipe) or the wakee's sleep (timer)" },
	[P_WAKER] = { "waker_ns", IL_SCN_INT, 1700, 0, 100000000, NULL, "",
		      "the pipe write after each busy wait: 1.7 us makes the 96 767 wakeups in 5 s "
		      "at 50 us of anchors.md section 5" },
	[P_WAKEE] = { "wakee_ns", IL_SCN_INT, 5000, 1, 100000000, NULL, "",
		      "wakee's work per wakeup: the read's return, the loop's clock_gettime() "
		      "calls, the next read (assumption: about the 4.94 us mean wakeup latency of "
		      "that run)" },
	[P_PHASE] = IL_SCN_PHASE_PARAM("the test's start, this far into the first tick period (-1: "
				       "drawn per run, uniformly over one tick period)"),
	[P_BG] = { "background", IL_SCN_INT, 0, 0, 1, NULL, "",
		   "housekeeping timers and interrupts" },
	IL_BG_PARAMS(P_BG_SHAPE),
	{ 0 }
};

struct wakeup_ctx {
	bool pipe;
	unsigned int wakee;
	u64 interval_ns;
	u64 waker_ns;
	u64 wakee_ns;
	/*
	 * The write times (timer expiries) of the wakeups not served yet, oldest first: a ring of
	 * sent_cap (a power of two) indexed by the wakeup's number. A wakee that falls behind
	 * (intervals shorter than its work) serves each write in turn, as it reads the pipe's
	 * bytes, so each latency is measured from its own write.
	 */
	u64 *sent;
	u64 sent_cap;
	u64 nsent;
	u64 latency_sum_ns;
	u64 wakeups;          /* served: the ring's oldest is wakeup number @wakeups */
	bool nomem;           /* a write time could not be kept: the score is not known */
	struct il_sim_timer timer;
	struct il_bg *bg;
};

static int sent_grow(struct wakeup_ctx *w)
{
	u64 cap = w->sent_cap ? 2 * w->sent_cap : 16;
	u64 *ring = malloc(cap * sizeof(*ring));

	if (!ring)
		return -1;
	for (u64 k = w->wakeups; k < w->nsent; k++)
		ring[k & (cap - 1)] = w->sent[k & (w->sent_cap - 1)];
	free(w->sent);
	w->sent = ring;
	w->sent_cap = cap;
	return 0;
}

/* A wakeup is sent now; false when its time cannot be kept (then it is not sent). */
static bool sent_push(struct il_sim *sim, struct wakeup_ctx *w)
{
	if (w->nsent - w->wakeups == w->sent_cap && sent_grow(w)) {
		w->nomem = true;
		return false;
	}
	w->sent[w->nsent++ & (w->sent_cap - 1)] = il_sim_now(sim);
	return true;
}

static void wakee_done(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct wakeup_ctx *w = arg;
	u64 start = il_sim_now(sim) - w->wakee_ns;

	w->latency_sum_ns += start - w->sent[w->wakeups++ & (w->sent_cap - 1)];
	if (!w->pipe)
		il_sim_timer_start(sim, &w->timer, cpu, il_sim_now(sim) + w->interval_ns);
}

/* The waker's busy wait of interval_us and its pipe write, back to back on its CPU. */
static int waker_spin(struct il_sim *sim, unsigned int cpu, struct wakeup_ctx *w, u64 extra_ns);

static void waker_done(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct wakeup_ctx *w = arg;

	if (sent_push(sim, w))
		il_sim_wake(sim, cpu, w->wakee, w->wakee_ns, wakee_done, w, -1);
	waker_spin(sim, cpu, w, 0);
}

/* ... @extra_ns longer for the first, which ends at the start's phase plus one interval */
static int waker_spin(struct il_sim *sim, unsigned int cpu, struct wakeup_ctx *w, u64 extra_ns)
{
	return il_sim_wake(sim, cpu, cpu, extra_ns + w->interval_ns + w->waker_ns, waker_done, w,
			   (int)w->wakee);
}

/* mode=timer: the wakee's nanosleep() expired. */
static void wakeup_timer(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct wakeup_ctx *w = arg;

	if (sent_push(sim, w))
		il_sim_wake(sim, cpu, cpu, w->wakee_ns, wakee_done, w, -1);
}

static int wakeup_setup(struct il_sim *sim, void *ctx, const struct il_scn_args *args)
{
	struct wakeup_ctx *w = ctx;
	u64 start_ns;

	w->pipe = args->v[P_MODE] == 0;
	w->wakee = il_sim_ncpus(sim) > 1 ? 1 : 0;
	w->interval_ns = (u64)args->v[P_INTERVAL] * NSEC_PER_USEC;
	w->waker_ns = (u64)args->v[P_WAKER];
	w->wakee_ns = (u64)args->v[P_WAKEE];
	il_sim_timer_init(&w->timer, wakeup_timer, w);
	if (sent_grow(w))
		return -1;
	if (il_bg_start_default(sim, args->v[P_BG], &args->v[P_BG_SHAPE], 2, &w->bg))
		return -1;
	start_ns = il_scn_start_ns(sim, args->v[P_PHASE], 4);
	if (w->pipe)
		return waker_spin(sim, 0, w, start_ns);
	return il_sim_timer_start(sim, &w->timer, w->wakee, start_ns + w->interval_ns);
}

static void wakeup_cleanup(void *ctx)
{
	struct wakeup_ctx *w = ctx;

	il_bg_free(w->bg);
	free(w->sent);
}

static double wakeup_score(const struct il_sim *sim, const void *ctx)
{
	const struct wakeup_ctx *w = ctx;

	if (w->nomem)
		return NAN;
	return w->wakeups ? (double)w->latency_sum_ns / 1e3 / (double)w->wakeups : 0.0;
}

static void wakeup_label(const struct il_scn_args *args, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s-%lldus", modes[args->v[P_MODE]], (long long)args->v[P_INTERVAL]);
}

const struct il_scenario il_scn_wakeup = {
	.name = "wakeup",
	.summary = "pinned waker/wakee at a fixed interval, pipe (non-timer) or timer wakeups",
	.score = "wakeup_us",
	.score_help = "mean µs from the write or timer expiry until the wakee runs",
	.score_prec = 3,
	.higher_is_better = false,
	.default_cpus = 2,
	.sources = "Aboorva Devarajan's cpuidle_wakeup test (anchors.md §5)",
	.params = wakeup_params,
	.ctx_size = sizeof(struct wakeup_ctx),
	.setup = wakeup_setup,
	.cleanup = wakeup_cleanup,
	.score_fn = wakeup_score,
	.label = wakeup_label,
};
