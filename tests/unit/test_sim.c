// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tests of the simulator engine (lib/sim/):
 *
 *  1. hand-checked micro-scenarios: one periodic timer with the tick stopped and retained,
 *     one IPI into a deep state, the poll time limit of each rule set, the 4.16 loop, the
 *     single-state bypass of 6.19.9 and 7.0; the energy of the one-IPI run on rk3588, whose
 *     platform file gives the active power (no polling state to borrow it from);
 *  2. the sleep length the environment reports (tick running / stopped, 4.16 form);
 *  3. invariants on random workloads with real governor presets: per CPU, state time plus
 *     busy time is the wall time; each idle period is accounted once; time never goes
 *     backwards and a CPU's periods do not overlap.
 *
 * The micro-scenarios use "fixed", a governor of this file that selects the state and
 * stop_tick the test asks for and records what it read from the environment.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/core.h"
#include "lab/lab.h"
#include "scenario/scenarios.h"
#include "sim/sim.h"
#include "util/array.h"

#define US 1000ULL
#define MS 1000000ULL

/* ---- the "fixed" governor ---------------------------------------------------------------- */

static struct {
	int idx;
	bool stop_tick;
	int selects;
	int reflects;
	int poll_limits_seen; /* reflects that saw poll_time_limit set */
	s64 last_sleep;
	s64 first_sleep, first_delta_next; /* the first select's */
	s64 delta_nexts[8];                /* the first selects' delta_next */
	s64 last_delta_next;
	bool last_tick_stopped;
} fixed;

static int fixed_select(struct il_driver *drv, struct il_device *dev, bool *stop_tick)
{
	const struct il_env *env = dev->env;

	fixed.selects++;
	fixed.last_tick_stopped = env->ops->tick_stopped(env);
	if (dev->preset->core->idle_loop == IL_LOOP_4_16) {
		fixed.last_sleep = env->ops->sleep_length(env, NULL);
	} else {
		fixed.last_sleep = env->ops->sleep_length(env, &fixed.last_delta_next);
		*stop_tick = fixed.stop_tick;
	}
	if (fixed.selects <= 8)
		fixed.delta_nexts[fixed.selects - 1] = fixed.last_delta_next;
	if (fixed.selects == 1) {
		fixed.first_sleep = fixed.last_sleep;
		fixed.first_delta_next = fixed.last_delta_next;
	}
	return fixed.idx;
}

static void fixed_reflect(struct il_device *dev, int index)
{
	fixed.reflects++;
	fixed.poll_limits_seen += dev->poll_time_limit;
}

static const struct il_governor fixed_gov = {
	.name = "fixed", .data_size = 8, .select = fixed_select, .reflect = fixed_reflect,
};

#define FIXED_PRESET(var, rules) \
	static const struct il_preset var = { .name = #var, .gov = &fixed_gov, .core = &rules }

FIXED_PRESET(fixed_4_16, il_core_4_16);
FIXED_PRESET(fixed_6_13, il_core_6_13);
FIXED_PRESET(fixed_6_19_9, il_core_6_19_9);
FIXED_PRESET(fixed_7_0, il_core_7_0);

/* S0 1/1 µs, S1 100/500 µs (or POLL 0/0 first when @poll). */
static void two_states(struct il_driver *drv, bool poll)
{
	memset(drv, 0, sizeof(*drv));
	drv->state_count = 2;
	strcpy(drv->states[0].name, poll ? "POLL" : "S0");
	drv->states[0].exit_latency = poll ? 0 : 1;
	drv->states[0].target_residency = poll ? 0 : 1;
	if (poll)
		drv->states[0].flags = CPUIDLE_FLAG_POLLING;
	strcpy(drv->states[1].name, "S1");
	drv->states[1].exit_latency = 100;
	drv->states[1].target_residency = 500;
	il_driver_init(drv);
}

/* two_states() without polling, S1 costing a measured 7 µs to leave (actual_exit_latency). */
static void two_states_7us_wake(struct il_driver *drv)
{
	two_states(drv, false);
	drv->states[1].actual_exit_min_ns = drv->states[1].actual_exit_max_ns = 7 * US;
}

static struct il_sim *new_sim(const struct il_driver *drv, const struct il_preset *p, unsigned int ncpus,
			      unsigned int hz, u64 duration)
{
	struct il_sim_config cfg;
	struct il_sim *sim;

	il_sim_config_defaults(&cfg);
	cfg.drv = drv;
	cfg.preset = p;
	cfg.ncpus = ncpus;
	cfg.hz = hz;
	cfg.duration_ns = duration;
	sim = il_sim_new(&cfg);
	assert_non_null(sim);
	return sim;
}

/* Period recorder: every idle period, in the order the simulator ends them. */
#define MAX_PERIODS 64
static struct {
	int n;
	struct il_sim_period p[MAX_PERIODS];
} rec;

static void record_period(void *ctx, const struct il_sim_period *p)
{
	if (rec.n < MAX_PERIODS)
		rec.p[rec.n] = *p;
	rec.n++;
}

static void observe(struct il_sim *sim)
{
	struct il_sim_observer obs = { .period = record_period };

	memset(&rec, 0, sizeof(rec));
	il_sim_set_observer(sim, &obs);
}

static void reset_fixed(int idx, bool stop_tick)
{
	memset(&fixed, 0, sizeof(fixed));
	fixed.idx = idx;
	fixed.stop_tick = stop_tick;
}

/* ---- a periodic timer ------------------------------------------------------------------- */

struct periodic {
	struct il_sim_timer t;
	u64 period;
	int fired;
};

static void periodic_fire(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct periodic *p = arg;

	p->fired++;
	il_sim_timer_start(sim, &p->t, cpu, p->t.expires + p->period);
}

static void start_periodic(struct il_sim *sim, struct periodic *p, u64 period)
{
	memset(p, 0, sizeof(*p));
	p->period = period;
	il_sim_timer_init(&p->t, periodic_fire, p);
	assert_int_equal(il_sim_timer_start(sim, &p->t, 0, period), 0);
}

static u64 state_time(const struct il_metrics *m, unsigned int cpu)
{
	u64 sum = m->cpu[cpu].busy_ns;

	for (int i = 0; i < m->nstates; i++)
		sum += m->cpu[cpu].st[i].time_ns;
	return sum;
}

/*
 * HZ 100, a 25 ms timer, the deepest state and stop_tick: the tick stops at the first
 * select and the CPU wakes only for the timer, 100 µs late each time.
 */
static void test_periodic_timer_tick_stopped(void **state)
{
	struct il_driver drv;
	struct periodic p;
	struct il_sim *sim;
	const struct il_metrics *m;

	two_states(&drv, false);
	reset_fixed(1, true);
	sim = new_sim(&drv, &fixed_6_13, 1, 100, 100 * MS);
	start_periodic(sim, &p, 25 * MS);
	observe(sim);
	assert_int_equal(il_sim_run(sim), 0);
	m = il_sim_metrics(sim);

	assert_int_equal(p.fired, 3);
	assert_int_equal(rec.n, 3);
	assert_int_equal(rec.p[0].start_ns, 0);
	assert_int_equal(rec.p[0].wake_ns, 25 * MS);
	assert_int_equal(rec.p[0].end_ns, 25 * MS + 100 * US);
	assert_int_equal(rec.p[1].start_ns, 25 * MS + 100 * US);
	assert_int_equal(rec.p[1].end_ns, 50 * MS + 100 * US);
	assert_true(rec.p[2].tick_stopped);
	assert_int_equal(m->cpu[0].st[1].usage, 3);
	assert_int_equal(m->cpu[0].st[1].time_ns, 100 * MS);
	assert_int_equal(m->cpu[0].st[1].open_ns, 100 * MS - 75 * MS - 100 * US);
	assert_int_equal(m->cpu[0].tick_stops, 1);
	assert_int_equal(m->cpu[0].ticks_retained, 0);
	assert_int_equal(il_sim_device(sim, 0)->last_residency_ns, 25 * MS); /* 50.1 to 75.1 ms */
	assert_int_equal(fixed.selects, 4);
	assert_int_equal(fixed.reflects, 3);
	/* At 75.1 ms the tick is stopped: both values are the time to the 100 ms timer. */
	assert_int_equal(fixed.last_sleep, 24900 * US);
	assert_int_equal(fixed.last_delta_next, 24900 * US);
	il_sim_free(sim);
}

/*
 * The timer wheel (wheel.c): a bucket's expiry is the next multiple of its level's width
 * strictly after the expiry; the levels start at 63, 504 and 4032 ticks from the clock.
 */
static void test_wheel_buckets(void **state)
{
	assert_int_equal(il_wheel_bucket_expiry(1005, 1000), 1006);  /* level 0: one tick */
	assert_int_equal(il_wheel_bucket_expiry(1062, 1000), 1063);  /* the last of level 0 */
	assert_int_equal(il_wheel_bucket_expiry(1063, 1000), 1064);  /* level 1: 8 ticks */
	assert_int_equal(il_wheel_bucket_expiry(1100, 1000), 1104);
	assert_int_equal(il_wheel_bucket_expiry(1104, 1000), 1112);  /* strictly after */
	assert_int_equal(il_wheel_bucket_expiry(1000, 0), 1024);     /* level 2: 64 ticks */
	assert_int_equal(il_wheel_bucket_expiry(4032, 0), 4096);     /* level 3: 512 ticks */
	assert_int_equal(il_wheel_bucket_expiry(990, 1000), 1000);   /* already due */
	/* Beyond the last level the distance is cut to WHEEL_TIMEOUT_MAX. */
	assert_int_equal(il_wheel_bucket_expiry(1ULL << 40, 0),
			 il_wheel_bucket_expiry((63ULL << 24) - (1ULL << 24), 0));
}

/*
 * In ns: the delay rounds up to whole ticks from the current one. HZ 250 at 10.5 ms (tick 2):
 * 20 ms is 5 ticks, due at tick 7, run at tick 8. HZ 1000: timers armed at 0 for 100 and
 * 103 ms share the 8-tick bucket that ends at 104 ms, so they end one idle period.
 */
static void test_wheel_expires_ns(void **state)
{
	assert_int_equal(il_wheel_expires_ns(10500 * US, 20 * MS, 4 * MS), 32 * MS);
	assert_int_equal(il_wheel_expires_ns(8 * MS, 8 * MS, 4 * MS), 20 * MS);
	assert_int_equal(il_wheel_expires_ns(8 * MS, 8 * MS + 1, 4 * MS), 24 * MS);
	assert_int_equal(il_wheel_expires_ns(0, 100 * MS, MS), 104 * MS);
	assert_int_equal(il_wheel_expires_ns(0, 103 * MS, MS), 104 * MS);
	assert_int_equal(il_wheel_expires_ns(0, 105 * MS, MS), 112 * MS);
}

/* A wheel timer through the engine: it expires at the tick the wheel runs it, not before. */
static void test_wheel_timer_in_sim(void **state)
{
	struct il_driver drv;
	struct il_sim_timer a, b;
	struct il_sim *sim;

	two_states(&drv, false);
	reset_fixed(1, true);
	sim = new_sim(&drv, &fixed_6_13, 1, 1000, 200 * MS);
	il_sim_timer_init(&a, NULL, NULL);
	il_sim_timer_init(&b, NULL, NULL);
	assert_int_equal(il_sim_timer_start_wheel(sim, &a, 0, 100 * MS), 0);
	assert_int_equal(il_sim_timer_start_wheel(sim, &b, 0, 103 * MS), 0);
	assert_int_equal(a.expires, 104 * MS);
	assert_int_equal(b.expires, 104 * MS);
	observe(sim);
	assert_int_equal(il_sim_run(sim), 0);
	/* Both expire in one wakeup at 104 ms; nothing else wakes the CPU. */
	assert_int_equal(rec.n, 1);
	assert_int_equal(rec.p[0].wake_ns, 104 * MS);
	il_sim_free(sim);
}

/* Same, stop_tick false: the retained tick wakes the CPU every 10 ms as well. */
static void test_periodic_timer_tick_retained(void **state)
{
	static const u64 ends_us[] = { 10100, 20100, 25100, 30100, 40100, 50100, 60100, 70100, 75100, 80100, 90100 };
	struct il_driver drv;
	struct periodic p;
	struct il_sim *sim;
	const struct il_metrics *m;

	two_states(&drv, false);
	reset_fixed(1, false);
	sim = new_sim(&drv, &fixed_6_13, 1, 100, 100 * MS);
	start_periodic(sim, &p, 25 * MS);
	observe(sim);
	assert_int_equal(il_sim_run(sim), 0);
	m = il_sim_metrics(sim);

	assert_int_equal(rec.n, 11);
	for (int i = 0; i < 11; i++) {
		assert_int_equal(rec.p[i].end_ns, ends_us[i] * US);
		assert_int_equal(rec.p[i].start_ns, i ? ends_us[i - 1] * US : 0);
		assert_false(rec.p[i].tick_stopped);
	}
	assert_int_equal(m->cpu[0].st[1].usage, 11);
	assert_int_equal(state_time(m, 0), 100 * MS);
	assert_int_equal(m->cpu[0].tick_stops, 0);
	assert_int_equal(m->cpu[0].ticks_retained, 12);
	/* At 90.1 ms: the next tick is 9.9 ms away, the next timer (100 ms) as well. */
	assert_int_equal(fixed.last_delta_next, 9900 * US);
	assert_int_equal(fixed.last_sleep, 9900 * US);
	il_sim_free(sim);
}

/* ---- one IPI ---------------------------------------------------------------------------- */

static void ipi_sender_done(struct il_sim *sim, unsigned int cpu, void *arg)
{
	il_sim_wake(sim, cpu, 1, 10 * US, NULL, NULL, -1);
}

/*
 * CPU 0 works 50 µs, then wakes CPU 1, which sits in S1 (exit 100 µs). The IPI takes 1 µs:
 * CPU 1 runs at 151 µs, its first period is 151 µs in S1, an "above" (tr 500 µs).
 */
static void test_one_ipi(void **state)
{
	struct il_driver drv;
	struct il_sim *sim;
	const struct il_metrics *m;
	struct il_summary s;

	two_states(&drv, false);
	reset_fixed(1, true);
	sim = new_sim(&drv, &fixed_6_13, 2, 1000, 1 * MS);
	observe(sim);
	assert_int_equal(il_sim_wake(sim, 0, 0, 50 * US, ipi_sender_done, NULL, 1), 0);
	assert_int_equal(il_sim_run(sim), 0);
	m = il_sim_metrics(sim);

	assert_int_equal(rec.p[0].cpu, 1);
	assert_int_equal(rec.p[0].wake_ns, 51 * US);
	assert_int_equal(rec.p[0].end_ns, 151 * US);
	assert_int_equal(rec.p[0].miss, IL_MISS_ABOVE);
	assert_int_equal(m->cpu[1].st[1].above, 1);
	assert_int_equal(m->cpu[1].busy_ns, 10 * US);
	assert_int_equal(m->cpu[0].busy_ns, 50 * US);
	assert_int_equal(m->wake_latency.count, 1);
	assert_int_equal(m->wake_latency.max, 101 * US);
	il_metrics_summarize(m, NULL, &s);
	assert_int_equal(s.wake_max_ns, 101 * US);
	assert_int_equal(state_time(m, 0), 1 * MS);
	assert_int_equal(state_time(m, 1), 1 * MS);
	il_sim_free(sim);
}

/*
 * The package wake (core_exit_latency): S1 declares 100 µs, its core part is 30 µs.
 *  a) the one-IPI run: CPU 0 falls asleep at 50 µs, the IPI reaches CPU 1 at 51 µs; the
 *     package cannot be down 1 µs after its last CPU slept (it needs 100 - 30 = 70 µs), so
 *     CPU 1 pays 30 µs and runs at 81 µs;
 *  b) both CPUs asleep from the start, a timer on CPU 0 at 400 µs: the package had 400 µs
 *     to follow them, so the wake pays the declared 100 µs.
 */
static void test_package_wake(void **state)
{
	struct il_driver drv;
	struct il_sim *sim;
	struct periodic p;

	two_states(&drv, false);
	drv.states[1].core_exit_latency_ns = 30 * US;
	reset_fixed(1, true);
	sim = new_sim(&drv, &fixed_6_13, 2, 1000, 1 * MS);
	observe(sim);
	assert_int_equal(il_sim_wake(sim, 0, 0, 50 * US, ipi_sender_done, NULL, 1), 0);
	assert_int_equal(il_sim_run(sim), 0);
	assert_int_equal(rec.p[0].cpu, 1);
	assert_int_equal(rec.p[0].wake_ns, 51 * US);
	assert_int_equal(rec.p[0].end_ns, 81 * US);
	il_sim_free(sim);

	reset_fixed(1, true);
	sim = new_sim(&drv, &fixed_6_13, 2, 100, 1 * MS);
	observe(sim);
	start_periodic(sim, &p, 400 * US);
	assert_int_equal(il_sim_run(sim), 0);
	assert_true(rec.n >= 1);
	assert_int_equal(rec.p[0].cpu, 0);
	assert_int_equal(rec.p[0].wake_ns, 400 * US);
	assert_int_equal(rec.p[0].end_ns, 500 * US);
	il_sim_free(sim);
}

/*
 * The actual wake cost (actual_exit_latency): S1 declares 100 µs but costs 7 µs to leave;
 * the one-IPI run's CPU 1 is woken at 51 µs and runs at 58 µs, not 151 µs. With a range
 * 5..9 µs every wake's cost is drawn inside it, and the same seed draws the same.
 */
static void test_actual_exit(void **state)
{
	struct il_driver drv;
	struct il_sim *sim;
	u64 end[2];

	two_states_7us_wake(&drv);
	reset_fixed(1, true);
	sim = new_sim(&drv, &fixed_6_13, 2, 1000, 1 * MS);
	observe(sim);
	assert_int_equal(il_sim_wake(sim, 0, 0, 50 * US, ipi_sender_done, NULL, 1), 0);
	assert_int_equal(il_sim_run(sim), 0);
	assert_int_equal(rec.p[0].cpu, 1);
	assert_int_equal(rec.p[0].wake_ns, 51 * US);
	assert_int_equal(rec.p[0].end_ns, 58 * US);
	il_sim_free(sim);

	drv.states[1].actual_exit_min_ns = 5 * US;
	drv.states[1].actual_exit_max_ns = 9 * US;
	for (int i = 0; i < 2; i++) {
		reset_fixed(1, true);
		sim = new_sim(&drv, &fixed_6_13, 2, 1000, 1 * MS);
		observe(sim);
		assert_int_equal(il_sim_wake(sim, 0, 0, 50 * US, ipi_sender_done, NULL, 1), 0);
		assert_int_equal(il_sim_run(sim), 0);
		end[i] = rec.p[0].end_ns;
		assert_in_range(end[i], 56 * US, 60 * US);
		il_sim_free(sim);
	}
	assert_int_equal(end[0], end[1]);
}

static void ipi_sender_works_on(struct il_sim *sim, unsigned int cpu, void *arg)
{
	il_sim_wake(sim, cpu, 1, 10 * US, NULL, NULL, -1);
	il_sim_wake(sim, cpu, cpu, 30 * US, NULL, NULL, -1);
}

/* A 6.13 "fixed" run at 1000 Hz on @drv, observed (rec): the cases below change one knob. */
static void fixed_config(struct il_sim_config *cfg, const struct il_driver *drv,
			 unsigned int ncpus, u64 duration)
{
	il_sim_config_defaults(cfg);
	cfg->drv = drv;
	cfg->preset = &fixed_6_13;
	cfg->ncpus = ncpus;
	cfg->hz = 1000;
	cfg->duration_ns = duration;
}

static struct il_sim *observed_sim(const struct il_sim_config *cfg)
{
	struct il_sim *sim = il_sim_new(cfg);

	assert_non_null(sim);
	observe(sim);
	return sim;
}

static struct il_sim *host_threads_sim(const struct il_driver *drv, unsigned int threads)
{
	struct il_sim_config cfg;

	fixed_config(&cfg, drv, 2, 1 * MS);
	cfg.host_threads = threads;
	return observed_sim(&cfg);
}

/*
 * Host threads (a platform's host_threads: QEMU TCG runs both vCPUs on one): CPU 0 works
 * 50 µs, wakes CPU 1 (S1 costs 7 µs to leave) and works 30 µs more. On hardware CPU 1 is
 * woken by the IPI at 51 µs and runs at 58 µs; on one host thread the IPI waits until CPU 0
 * idles at 80 µs, and CPU 1 runs at 87 µs. With two threads nothing waits.
 */
static void test_host_threads(void **state)
{
	static const struct { unsigned int threads; u64 wake_us, end_us; } cases[] = {
		{ 0, 51, 58 }, { 1, 80, 87 }, { 2, 51, 58 },
	};
	struct il_driver drv;

	two_states_7us_wake(&drv);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct il_sim *sim;

		reset_fixed(1, true);
		sim = host_threads_sim(&drv, cases[i].threads);
		assert_int_equal(il_sim_wake(sim, 0, 0, 50 * US, ipi_sender_works_on, NULL, 1), 0);
		assert_int_equal(il_sim_run(sim), 0);
		assert_int_equal(rec.p[0].cpu, 1); /* CPU 0's idle from 80 µs stays open */
		assert_int_equal(rec.p[0].wake_ns, cases[i].wake_us * US);
		assert_int_equal(rec.p[0].end_ns, cases[i].end_us * US);
		assert_int_equal(rec.p[0].cause, IL_SIM_WAKE_IPI);
		il_sim_free(sim);
	}
}

static void timer_work_fire(struct il_sim *sim, unsigned int cpu, void *arg)
{
	il_sim_wake(sim, cpu, cpu, 10 * US, NULL, NULL, -1);
}

/*
 * A timer takes the host thread (the emulator's own thread kicks the running vCPU): CPU 0
 * works 100 µs from 0; a timer wakes CPU 1 at 20 µs (7 µs to leave S1) for 10 µs of work.
 * On one host thread CPU 0 stops at 20 µs and goes on when CPU 1 idles at 37 µs, with its
 * 80 µs left: busy until 117 µs. On hardware it is busy until 100 µs.
 */
static void test_host_thread_preempted(void **state)
{
	struct il_driver drv;
	struct il_sim_timer t;

	two_states_7us_wake(&drv);
	for (unsigned int threads = 0; threads <= 1; threads++) {
		struct il_sim *sim;
		const struct il_metrics *m;

		reset_fixed(1, true);
		sim = host_threads_sim(&drv, threads);
		il_sim_timer_init(&t, timer_work_fire, NULL);
		assert_int_equal(il_sim_timer_start(sim, &t, 1, 20 * US), 0);
		assert_int_equal(il_sim_wake(sim, 0, 0, 100 * US, NULL, NULL, -1), 0);
		assert_int_equal(il_sim_run(sim), 0);
		m = il_sim_metrics(sim);
		assert_int_equal(rec.p[0].cpu, 1);
		assert_int_equal(rec.p[0].wake_ns, 20 * US);
		assert_int_equal(rec.p[0].end_ns, 27 * US);
		assert_int_equal(m->cpu[1].busy_ns, 10 * US);
		assert_int_equal(m->cpu[0].busy_ns, threads ? 117 * US : 100 * US);
		il_sim_free(sim);
	}
}

/*
 * A polling CPU's loop reads the clock only on a free host thread: CPU 1 works 800 µs from 0
 * while CPU 0 polls. On hardware CPU 0's poll ends at its time limit, before 800 µs; on one
 * host thread the limit waits for CPU 1 to idle, at 800 µs.
 */
static void test_host_thread_poll_limit(void **state)
{
	struct il_driver drv;
	u64 on_hardware = 0;

	two_states(&drv, true);
	for (unsigned int threads = 0; threads <= 1; threads++) {
		struct il_sim *sim;

		reset_fixed(0, false);
		sim = host_threads_sim(&drv, threads);
		assert_int_equal(il_sim_wake(sim, 1, 1, 800 * US, NULL, NULL, -1), 0);
		assert_int_equal(il_sim_run(sim), 0);
		assert_int_equal(rec.p[0].cpu, 0);
		assert_int_equal(rec.p[0].cause, IL_SIM_WAKE_POLL_LIMIT);
		if (!threads) {
			on_hardware = rec.p[0].end_ns;
			assert_true(on_hardware < 800 * US);
		} else {
			assert_int_equal(rec.p[0].end_ns, 800 * US);
		}
		il_sim_free(sim);
	}
}

static struct il_sim *timer_handler_sim(const struct il_driver *drv, unsigned int threads,
					u64 handler_ns)
{
	struct il_sim_config cfg;

	fixed_config(&cfg, drv, 2, 1 * MS);
	cfg.host_threads = threads;
	cfg.timer_handler_min_ns = cfg.timer_handler_max_ns = handler_ns;
	return observed_sim(&cfg);
}

/*
 * A timer handler's run time (a platform's timer_handler, 40 µs here), as
 * test_host_thread_preempted() runs it: CPU 1, woken by its timer at 20 µs, leaves S1 at
 * 67 µs (7 µs exit, then the handler) and works 10 µs; CPU 0 works 100 µs from 0 and, on
 * one host thread, waits from 20 to 77 µs: busy until 157 µs. On hardware (no host threads)
 * it is busy until 100 µs. A timer of the busy CPU 0 itself, at 20 µs, makes its work end
 * 40 µs later either way.
 */
static void test_timer_handler(void **state)
{
	static const struct { unsigned int threads, timer_cpu; u64 end1_us, busy0_us; } cases[] = {
		{ 0, 1, 67, 100 }, { 1, 1, 67, 157 }, { 0, 0, 0, 140 }, { 1, 0, 0, 140 },
	};
	struct il_driver drv;
	struct il_sim_timer t;

	two_states_7us_wake(&drv);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct il_sim *sim;
		const struct il_metrics *m;

		reset_fixed(1, true);
		sim = timer_handler_sim(&drv, cases[i].threads, 40 * US);
		il_sim_timer_init(&t, cases[i].timer_cpu ? timer_work_fire : NULL, NULL);
		assert_int_equal(il_sim_timer_start(sim, &t, cases[i].timer_cpu, 20 * US), 0);
		assert_int_equal(il_sim_wake(sim, 0, 0, 100 * US, NULL, NULL, -1), 0);
		assert_int_equal(il_sim_run(sim), 0);
		m = il_sim_metrics(sim);
		if (cases[i].timer_cpu) {
			assert_int_equal(rec.p[0].cpu, 1);
			assert_int_equal(rec.p[0].wake_ns, 20 * US);
			assert_int_equal(rec.p[0].end_ns, cases[i].end1_us * US);
			assert_int_equal(m->cpu[1].busy_ns, 10 * US);
		}
		assert_int_equal(m->cpu[0].busy_ns, cases[i].busy0_us * US);
		il_sim_free(sim);
	}
}

/*
 * A polling CPU runs its timer's handler in place, on a host thread: CPU 1 works 800 µs from
 * 0 while CPU 0 polls; CPU 0's timer (nothing to run) expires at 100 µs, and its 40 µs
 * handler takes the one host thread: CPU 1 works until 840 µs, and CPU 0's poll limit, held
 * until then (test_host_thread_poll_limit()), ends its poll at 840 µs.
 */
static void test_timer_handler_polling(void **state)
{
	struct il_driver drv;
	struct il_sim_timer t;
	struct il_sim *sim;

	two_states(&drv, true);
	reset_fixed(0, false);
	sim = timer_handler_sim(&drv, 1, 40 * US);
	il_sim_timer_init(&t, NULL, NULL);
	assert_int_equal(il_sim_timer_start(sim, &t, 0, 100 * US), 0);
	assert_int_equal(il_sim_wake(sim, 1, 1, 800 * US, NULL, NULL, -1), 0);
	assert_int_equal(il_sim_run(sim), 0);
	assert_int_equal(rec.p[0].cpu, 0);
	assert_int_equal(rec.p[0].cause, IL_SIM_WAKE_POLL_LIMIT);
	assert_int_equal(rec.p[0].end_ns, 840 * US);
	assert_int_equal(il_sim_metrics(sim)->cpu[1].busy_ns, 840 * US);
	il_sim_free(sim);
}

/*
 * A timer handler during work that ends by the clock (rt-app's runtime) takes none of its
 * time unless it runs past the end: CPU 0 runs 100 µs of such work from 0, its timer's 40 µs
 * handler starts at 20 µs (the work still ends at 100 µs) or at 80 µs (it ends at 120 µs).
 */
static void test_clocked_work_handler(void **state)
{
	static const struct { u64 timer_us, busy_us; } cases[] = { { 20, 100 }, { 80, 120 } };
	struct il_driver drv;
	struct il_sim_timer t;

	two_states_7us_wake(&drv);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct il_sim *sim;

		reset_fixed(1, true);
		sim = timer_handler_sim(&drv, 0, 40 * US);
		il_sim_timer_init(&t, NULL, NULL);
		assert_int_equal(il_sim_timer_start(sim, &t, 0, cases[i].timer_us * US), 0);
		assert_int_equal(il_sim_wake_clocked(sim, 0, 100 * US, NULL, NULL, -1), 0);
		assert_int_equal(il_sim_run(sim), 0);
		assert_int_equal(il_sim_metrics(sim)->cpu[0].busy_ns, cases[i].busy_us * US);
		il_sim_free(sim);
	}
}

static void busy_work_fire(struct il_sim *sim, unsigned int cpu, void *arg)
{
	il_sim_wake(sim, cpu, cpu, 543 * US, NULL, NULL, -1);
}

static struct il_sim *timer_late_sim(const struct il_driver *drv, u64 late_ns, u64 duration)
{
	struct il_sim_config cfg;

	fixed_config(&cfg, drv, 1, duration);
	cfg.timer_late_min_ns = cfg.timer_late_max_ns = late_ns;
	return observed_sim(&cfg);
}

/*
 * Late timer interrupts (a platform's timer_late): CPU 0 works 50 µs from 0; its timer
 * expires at 20 µs, and its interrupt comes 100 µs later. The CPU goes idle at 50 µs with
 * the timer overdue: the sleep length is -30 µs, the programmed expiry seen from now. At
 * 120 µs the timer wakes it (7 µs to leave S1). On time (late 0) the timer runs while the CPU
 * works, and the CPU, idle at 60 µs, sees no timer.
 */
static void test_timer_late(void **state)
{
	struct il_driver drv;
	struct il_sim_timer t;

	two_states_7us_wake(&drv);
	for (u64 late = 0; late <= 100 * US; late += 100 * US) {
		struct il_sim *sim;

		reset_fixed(1, true);
		sim = timer_late_sim(&drv, late, 1 * MS);
		il_sim_timer_init(&t, timer_work_fire, NULL);
		assert_int_equal(il_sim_timer_start(sim, &t, 0, 20 * US), 0);
		assert_int_equal(il_sim_wake(sim, 0, 0, 50 * US, NULL, NULL, -1), 0);
		assert_int_equal(il_sim_run(sim), 0);
		if (!late) {
			assert_true(fixed.first_sleep > (s64)MS); /* no timer: KTIME_MAX from 0 */
			assert_int_equal(rec.n, 0); /* idle from 60 µs to the end */
		} else {
			assert_int_equal(fixed.first_sleep, -30 * (s64)US);
			assert_int_equal(fixed.first_delta_next, -30 * (s64)US);
			assert_int_equal(rec.p[0].wake_ns, 120 * US);
			assert_int_equal(rec.p[0].end_ns, 127 * US);
			assert_int_equal(rec.p[0].cause, IL_SIM_WAKE_TIMER);
		}
		il_sim_free(sim);
	}
}

/*
 * Work that ends by the clock waits for a late timer interrupt: test_timer_late()'s run with
 * its 50 µs of work queued by il_sim_wake_clocked(). The work ends at 120 µs, when the
 * interrupt has come (its callback queues 10 µs more): the CPU idles at 130 µs and sees no
 * timer, not one 30 µs overdue.
 */
/*
 * Work that ends by the clock, suspended on one host thread (test_host_thread_preempted()'s
 * run with CPU 0's 100 µs queued by il_sim_wake_clocked()): CPU 0 waits from 20 to 37 µs
 * and its work still ends at 100 µs.
 */
static void test_clocked_work_suspended(void **state)
{
	struct il_driver drv;
	struct il_sim_timer t;
	struct il_sim *sim;

	two_states_7us_wake(&drv);
	reset_fixed(1, true);
	sim = host_threads_sim(&drv, 1);
	il_sim_timer_init(&t, timer_work_fire, NULL);
	assert_int_equal(il_sim_timer_start(sim, &t, 1, 20 * US), 0);
	assert_int_equal(il_sim_wake_clocked(sim, 0, 100 * US, NULL, NULL, -1), 0);
	assert_int_equal(il_sim_run(sim), 0);
	assert_int_equal(rec.p[0].end_ns, 27 * US);
	assert_int_equal(il_sim_metrics(sim)->cpu[0].busy_ns, 100 * US);
	il_sim_free(sim);
}

static void test_clocked_work_late_timer(void **state)
{
	struct il_driver drv;
	struct il_sim_timer t;
	struct il_sim *sim;

	two_states_7us_wake(&drv);
	reset_fixed(1, true);
	sim = timer_late_sim(&drv, 100 * US, 1 * MS);
	il_sim_timer_init(&t, timer_work_fire, NULL);
	assert_int_equal(il_sim_timer_start(sim, &t, 0, 20 * US), 0);
	assert_int_equal(il_sim_wake_clocked(sim, 0, 50 * US, NULL, NULL, -1), 0);
	assert_int_equal(il_sim_run(sim), 0);
	assert_true(fixed.first_sleep > (s64)MS); /* no timer: KTIME_MAX */
	assert_int_equal(il_sim_metrics(sim)->cpu[0].busy_ns, 130 * US);
	il_sim_free(sim);
}

/*
 * A late tick (1000 Hz, retained, its interrupt 100 µs late) wakes the idle CPU at 1.1 and
 * 2.1 ms: the next tick is a period after the programmed one, not after the late interrupt.
 */
static void test_tick_late(void **state)
{
	struct il_driver drv;
	struct il_sim *sim;

	two_states_7us_wake(&drv);
	reset_fixed(1, false);
	sim = timer_late_sim(&drv, 100 * US, 3 * MS);
	assert_int_equal(il_sim_run(sim), 0);
	assert_true(rec.n >= 2);
	assert_int_equal(rec.p[0].wake_ns, 1100 * US);
	assert_int_equal(rec.p[0].cause, IL_SIM_WAKE_TICK);
	assert_int_equal(rec.p[1].wake_ns, 2100 * US);
	assert_int_equal(fixed.first_delta_next, 1 * MS); /* at 0: the tick at 1 ms */
	il_sim_free(sim);
}

/*
 * A busy CPU's tick runs with late timer interrupts: CPU 0, idle from 0 with its tick
 * stopped, is woken by its timer (400 µs, arriving 100 µs late; 7 µs to leave S1) for 543 µs
 * of work, 507 to 1050 µs. Its tick, restarted when it left the idle loop, is raised at 1 ms
 * while it works and would arrive at 1.1 ms: the CPU, idle at 1050 µs, sees it 50 µs overdue
 * (without a busy tick it would see the one at 2 ms).
 */
static void test_tick_late_busy(void **state)
{
	struct il_driver drv;
	struct il_sim_timer t;
	struct il_sim *sim;

	two_states_7us_wake(&drv);
	reset_fixed(1, true);
	sim = timer_late_sim(&drv, 100 * US, 2 * MS);
	il_sim_timer_init(&t, busy_work_fire, NULL);
	assert_int_equal(il_sim_timer_start(sim, &t, 0, 400 * US), 0);
	assert_int_equal(il_sim_run(sim), 0);
	assert_int_equal(rec.p[0].wake_ns, 500 * US);
	assert_int_equal(rec.p[0].cause, IL_SIM_WAKE_TIMER);
	assert_true(fixed.selects >= 2);
	assert_int_equal(fixed.delta_nexts[1], -50 * (s64)US);
	il_sim_free(sim);
}

/*
 * The one-IPI run on rk3588's own table (WFI 1/1, cpu-sleep 220/1000 µs, 20 mW, 80 µJ per
 * entry + exit; active_power_uw 500 mW), "fixed" picking cpu-sleep, 1 ms:
 *   CPU 0: busy 0-50 µs, then cpu-sleep until the end (an open period: not entered in the
 *          counts, so no transition energy);
 *   CPU 1: cpu-sleep 0-271 µs (IPI at 51 µs + 220 µs exit latency), busy 271-281 µs, then
 *          cpu-sleep until the end: one ended period.
 * Energy = busy 60 µs * 500 mW + cpu-sleep (950 + 990) µs * 20 mW + 1 entry * 80 µJ
 *        = 30 + 38.8 + 80 = 148.8 µJ, i.e. 0.1488 W over 1 ms. --active-mw 800 adds
 * 60 µs * 300 mW = 18 µJ.
 */
static void test_one_ipi_energy_rk3588(void **state)
{
	struct il_platform *plat = malloc(sizeof(*plat));
	struct il_error err;
	struct il_power pw;
	struct il_sim *sim;
	const struct il_metrics *m;
	struct il_summary s;

	assert_non_null(plat);
	assert_int_equal(il_platform_load("rk3588", plat, &err), 0);
	assert_false(plat->drv.states[0].flags & CPUIDLE_FLAG_POLLING);
	il_lab_power(plat, 0, &pw);
	assert_true(pw.known);
	assert_int_equal(pw.active_uw, plat->active_power_uw);

	reset_fixed(1, true);
	sim = new_sim(&plat->drv, &fixed_6_13, 2, 250, 1 * MS);
	assert_int_equal(il_sim_wake(sim, 0, 0, 50 * US, ipi_sender_done, NULL, 1), 0);
	assert_int_equal(il_sim_run(sim), 0);
	m = il_sim_metrics(sim);
	assert_int_equal(m->cpu[0].busy_ns + m->cpu[1].busy_ns, 60 * US);
	assert_int_equal(m->cpu[0].st[1].time_ns + m->cpu[1].st[1].time_ns, 1940 * US);
	assert_int_equal(m->cpu[0].st[1].usage + m->cpu[1].st[1].usage, 1);

	il_metrics_summarize(m, &pw, &s);
	assert_true(s.energy_known);
	assert_float_equal(s.joules, 148.8e-6, 1e-12);
	assert_float_equal(s.watts, 0.1488, 1e-9);

	/* --active-mw still overrides the platform's number. */
	il_lab_power(plat, 800000, &pw);
	il_metrics_summarize(m, &pw, &s);
	assert_float_equal(s.joules, 166.8e-6, 1e-12);

	/* A file without active_power_uw and without a polling state: energy unknown. */
	plat->active_power_uw = 0;
	il_lab_power(plat, 0, &pw);
	il_metrics_summarize(m, &pw, &s);
	assert_false(s.energy_known);
	il_sim_free(sim);
	free(plat);
}

/* A polling CPU sees the wakeup at once: no IPI, no exit latency. */
static void test_ipi_to_polling_cpu(void **state)
{
	struct il_driver drv;
	struct il_sim *sim;
	const struct il_metrics *m;

	two_states(&drv, true);
	reset_fixed(0, false);
	sim = new_sim(&drv, &fixed_6_13, 2, 1000, 40 * US);
	observe(sim);
	il_sim_wake(sim, 0, 0, 5 * US, ipi_sender_done, NULL, 1);
	assert_int_equal(il_sim_run(sim), 0);
	m = il_sim_metrics(sim);
	assert_int_equal(rec.p[0].cpu, 1);
	assert_int_equal(rec.p[0].end_ns, 5 * US);
	assert_int_equal(m->wake_latency.max, 0);
	assert_int_equal(m->cpu[1].busy_ns, 10 * US);
	il_sim_free(sim);
}

/* ---- polling limits --------------------------------------------------------------------- */

/*
 * 5.x rule, HZ 1000: the limit is min(TICK_NSEC/16, S1's 500 µs) = 62.5 µs; every period
 * ends at the limit with poll_time_limit set. 4.16: a poll never ends without work.
 */
static void test_poll_limit(void **state)
{
	struct il_driver drv;
	struct il_sim *sim;

	two_states(&drv, true);
	reset_fixed(0, false);
	sim = new_sim(&drv, &fixed_6_13, 1, 1000, 200 * US);
	observe(sim);
	assert_int_equal(il_sim_run(sim), 0);
	assert_int_equal(rec.n, 3);
	assert_int_equal(rec.p[0].end_ns, 62500);
	assert_int_equal(rec.p[2].end_ns, 187500);
	assert_int_equal(fixed.poll_limits_seen, 3);
	assert_int_equal(il_sim_metrics(sim)->cpu[0].poll_limits, 3);
	/* Entering the polling state again cleared the flag, as poll_idle() does. */
	assert_false(il_sim_device(sim, 0)->poll_time_limit);
	il_sim_free(sim);

	reset_fixed(0, false);
	sim = new_sim(&drv, &fixed_4_16, 1, 1000, 50 * MS);
	observe(sim);
	assert_int_equal(il_sim_run(sim), 0);
	assert_int_equal(rec.n, 0); /* the tick was stopped first: 50 ms of polling */
	assert_int_equal(il_sim_metrics(sim)->cpu[0].st[0].open_ns, 50 * MS);
	il_sim_free(sim);
}

/*
 * A poll limit sends the loop round with no interrupt, so tick_nohz_get_sleep_length() still
 * counts from ts->idle_entrytime, the loop's start: HZ 300, the limit min(TICK_NSEC/16, 500
 * µs) = 208333 ns, the tick retained. The first 8 selects (0 to 1.46 ms) all see the tick
 * 3333333 ns from the start, not from themselves. The tick comes in the 17th poll (from
 * 3333328 ns), runs in the poll loop and its exit restarts the idle time: the 18th select,
 * at that poll's limit, sees the next tick 3333333 ns from the tick's time.
 */
static void test_poll_limit_keeps_idle_entry(void **state)
{
	struct il_driver drv;
	struct il_sim *sim;

	two_states(&drv, true);
	reset_fixed(0, false);
	sim = new_sim(&drv, &fixed_6_13, 1, 300, 3600 * US);
	assert_int_equal(il_sim_run(sim), 0);
	for (int i = 0; i < 8; i++)
		assert_int_equal(fixed.delta_nexts[i], 3333333);
	assert_int_equal(fixed.selects, 18);
	assert_int_equal(fixed.last_delta_next, 6666666 - 3333333);
	il_sim_free(sim);
}

/* ---- the 4.16 loop and the sleep length -------------------------------------------------- */

/* 4.16: the tick is stopped before select, which sees the time to the next timer. */
static void test_4_16_stops_tick_first(void **state)
{
	struct il_driver drv;
	struct periodic p;
	struct il_sim *sim;

	two_states(&drv, false);
	reset_fixed(0, true);
	sim = new_sim(&drv, &fixed_4_16, 1, 1000, 10 * MS);
	start_periodic(sim, &p, 7 * MS);
	assert_int_equal(il_sim_run(sim), 0);
	assert_true(fixed.last_tick_stopped);
	assert_int_equal(fixed.last_sleep, 14 * MS - (7 * MS + 1 * US)); /* from 7.001 ms to 14 ms */
	il_sim_free(sim);
}

/* A timer within one tick keeps the tick: the sleep length is then the time to the event. */
static void test_sleep_length_timer_within_tick(void **state)
{
	struct il_driver drv;
	struct periodic p;
	struct il_sim *sim;

	two_states(&drv, false);
	reset_fixed(1, true);
	sim = new_sim(&drv, &fixed_6_13, 1, 250, 2 * MS);
	start_periodic(sim, &p, 3 * MS);
	assert_int_equal(il_sim_run(sim), 0);
	/* One select at 0: the tick (4 ms) runs and cannot stop, the timer (3 ms) comes first. */
	assert_int_equal(fixed.selects, 1);
	assert_false(fixed.last_tick_stopped);
	assert_int_equal(fixed.last_sleep, 3 * MS);
	assert_int_equal(fixed.last_delta_next, 3 * MS);
	assert_int_equal(il_sim_metrics(sim)->cpu[0].tick_stops, 0);
	il_sim_free(sim);
}

/* ---- single-state bypass ----------------------------------------------------------------- */

static void one_state(struct il_driver *drv)
{
	memset(drv, 0, sizeof(*drv));
	drv->state_count = 1;
	strcpy(drv->states[0].name, "WFI");
	drv->states[0].exit_latency = 1;
	drv->states[0].target_residency = 1;
	il_driver_init(drv);
}

/*
 * One state, no work, HZ 1000, 10 ms: 6.19.9 never selects and keeps the tick (10 tick
 * wakeups); 7.0 keeps it on the first iteration, then sees got_tick and stops it. 6.13
 * still calls the governor.
 */
static void test_single_state_bypass(void **state)
{
	struct il_driver drv;
	struct il_sim *sim;

	one_state(&drv);
	reset_fixed(0, true);
	sim = new_sim(&drv, &fixed_6_19_9, 1, 1000, 10 * MS);
	assert_int_equal(il_sim_run(sim), 0);
	assert_int_equal(fixed.selects, 0);
	assert_int_equal(il_sim_selects(sim), 0);
	assert_int_equal(il_sim_metrics(sim)->cpu[0].st[0].usage, 9);
	assert_int_equal(il_sim_metrics(sim)->cpu[0].tick_stops, 0);
	il_sim_free(sim);

	reset_fixed(0, true);
	sim = new_sim(&drv, &fixed_7_0, 1, 1000, 10 * MS);
	assert_int_equal(il_sim_run(sim), 0);
	assert_int_equal(fixed.selects, 0);
	assert_int_equal(il_sim_metrics(sim)->cpu[0].st[0].usage, 1);
	assert_int_equal(il_sim_metrics(sim)->cpu[0].tick_stops, 1);
	il_sim_free(sim);

	reset_fixed(0, true);
	sim = new_sim(&drv, &fixed_6_13, 1, 1000, 10 * MS);
	assert_int_equal(il_sim_run(sim), 0);
	assert_int_equal(fixed.selects, 1);
	il_sim_free(sim);
}

/* ---- invariants on random workloads with real governors ----------------------------------- */

struct inv {
	u64 last_end;
	u64 cpu_end[64];
	bool ordered;
	bool contiguous;
	u64 periods;
};

static void inv_period(void *ctx, const struct il_sim_period *p)
{
	struct inv *v = ctx;

	if (p->end_ns < v->last_end || p->end_ns < p->start_ns || p->wake_ns > p->end_ns)
		v->ordered = false;
	/* A CPU's next period starts at or after the end of its previous one. */
	if (p->start_ns < v->cpu_end[p->cpu])
		v->contiguous = false;
	v->cpu_end[p->cpu] = p->end_ns;
	v->last_end = p->end_ns;
	v->periods++;
}

static void check_invariants(const char *platform, const char *gov, const char *scn_spec, u64 seed)
{
	struct il_platform plat;
	struct il_error err;
	struct il_lab_spec spec = { 0 };
	struct il_lab_result res;
	struct inv v = { .ordered = true, .contiguous = true };
	struct il_sim_observer obs = { .period = inv_period, .ctx = &v };
	u64 usage = 0;

	assert_int_equal(il_platform_load(platform, &plat, &err), 0);
	spec.plat = &plat;
	spec.preset = il_preset_find(gov);
	if (!spec.preset)
		skip(); /* the port is not there yet */
	assert_int_equal(il_scn_parse(scn_spec, &spec.scn, &spec.args, &spec.common, &err), 0);
	spec.duration_ns = 300 * MS;
	spec.seed = seed;
	spec.observer = &obs;
	assert_int_equal(il_lab_run(&spec, &res), 0);
	assert_true(v.ordered);
	assert_true(v.contiguous);
	for (unsigned int c = 0; c < res.ncpus; c++) {
		assert_int_equal(state_time(&res.m, c), res.m.duration_ns);
		for (int i = 0; i < res.nstates; i++)
			usage += res.m.cpu[c].st[i].usage;
	}
	/* Each idle period reached the metrics exactly once. */
	assert_int_equal(usage, v.periods);
	assert_int_equal(res.sum.idles, v.periods);
	assert_true(v.periods > 0);
	il_lab_result_free(&res);
}

/*
 * The background on the wheel (background.h item 7): with wheel_pct=100, no irq_hz, no
 * companions and no chains, every idle period that a timer ends is woken at a tick
 * boundary (i5-10600k: HZ 1000), but for the softlockup watchdog's hrtimer, at most once per
 * CPU in 2 s; with wheel_pct=0 most are not.
 */
struct on_tick {
	u64 tick_ns;
	u64 timer_wakes, off_tick;
};

static void on_tick_period(void *ctx, const struct il_sim_period *p)
{
	struct on_tick *v = ctx;

	if (p->cause != IL_SIM_WAKE_TIMER)
		return;
	v->timer_wakes++;
	v->off_tick += p->wake_ns % v->tick_ns != 0;
}

static struct on_tick run_on_tick(const char *scn_spec)
{
	struct il_platform plat;
	struct il_error err;
	struct il_lab_spec spec = { 0 };
	struct il_lab_result res;
	struct on_tick v = { .tick_ns = MS };
	struct il_sim_observer obs = { .period = on_tick_period, .ctx = &v };

	assert_int_equal(il_platform_load("i5-10600k", &plat, &err), 0);
	spec.plat = &plat;
	spec.preset = il_preset_find("menu-6.13");
	assert_non_null(spec.preset);
	assert_int_equal(il_scn_parse(scn_spec, &spec.scn, &spec.args, &spec.common, &err), 0);
	spec.duration_ns = 2000 * MS;
	spec.seed = 1;
	spec.observer = &obs;
	assert_int_equal(il_lab_run(&spec, &res), 0);
	il_lab_result_free(&res);
	return v;
}

static void test_background_on_the_wheel(void **state)
{
	struct on_tick wheel = run_on_tick("idle:wheel_pct=100,irq_hz=0,pair_pct=0,burst_pct=0");
	struct on_tick hr = run_on_tick("idle:wheel_pct=0,irq_hz=0,pair_pct=0,burst_pct=0");

	assert_true(wheel.timer_wakes > 100);
	assert_true(wheel.off_tick <= 12);
	assert_true(hr.off_tick > hr.timer_wakes * 9 / 10);
	/* The wheel batches a CPU's timers: fewer wakeups for the same timers. */
	assert_true(wheel.timer_wakes < hr.timer_wakes);
}

/*
 * The softlockup watchdog (engine.c, h): on a machine with nothing else to do, every CPU but
 * the nohz_full one wakes only for its watchdog timer, on its own 4 s grid, CPU 1's 4 ms
 * after CPU 0's, and runs the stopper for 3 µs each time; with watchdog_ns 0 no CPU wakes.
 */
static int watchdog_run(u64 watchdog_ns, u64 *busy)
{
	struct il_driver drv;
	struct il_sim_config cfg;
	struct il_sim *sim;
	u64 nohz_full[IL_SIM_CPUS_MAX / 64] = { 1u << 2 };

	two_states(&drv, false);
	reset_fixed(1, true);
	fixed_config(&cfg, &drv, 3, 13 * NSEC_PER_SEC);
	cfg.nohz_full = nohz_full;
	cfg.watchdog_ns = watchdog_ns;
	sim = observed_sim(&cfg);
	assert_int_equal(il_sim_run(sim), 0);
	for (unsigned int cpu = 0; cpu < 3; cpu++)
		busy[cpu] = il_sim_metrics(sim)->cpu[cpu].busy_ns;
	il_sim_free(sim);
	return rec.n;
}

static void test_watchdog_every_cpu(void **state)
{
	u64 busy[3], last[2] = { 0, 0 }, first[2] = { 0, 0 };
	int n = watchdog_run(IL_SIM_WATCHDOG_NS_DEFAULT, busy), per_cpu[3] = { 0, 0, 0 };

	assert_true(n >= 6 && n <= 8); /* 3 or 4 expiries per CPU in 13 s */
	for (int i = 0; i < n; i++) {
		const struct il_sim_period *p = &rec.p[i];

		assert_true(p->cpu < 2);
		assert_int_equal(p->cause, IL_SIM_WAKE_TIMER);
		if (per_cpu[p->cpu]++)
			assert_int_equal(p->wake_ns - last[p->cpu], 4 * NSEC_PER_SEC);
		else
			first[p->cpu] = p->wake_ns;
		last[p->cpu] = p->wake_ns;
	}
	assert_int_equal((first[1] + 4 * NSEC_PER_SEC - first[0]) % (4 * NSEC_PER_SEC), 4 * MS);
	assert_int_equal(busy[0], (u64)per_cpu[0] * 3 * US);
	assert_int_equal(busy[1], (u64)per_cpu[1] * 3 * US);
	assert_int_equal(busy[2], 0);
	assert_int_equal(watchdog_run(0, busy), 0);
}

static void test_invariants(void **state)
{
	static const char *const scns[] = {
		"fio:device=nvme,migrate_pct=20", "fio:device=mmcblk", "fio:device=sda,hops=2", "pingpong:cpus=6",
		"wakeup:mode=timer", "jbb", "netrr", "video",
		"consume:freq=211,load=40", "idle", "idle-busy",
	};
	static const char *const govs[] = { "menu-4.16", "menu-6.13", "menu", "teo", "ladder", "oracle" };

	for (size_t s = 0; s < ARRAY_SIZE(scns); s++)
		for (size_t g = 0; g < ARRAY_SIZE(govs); g++)
			check_invariants(s % 2 ? "rk3588" : "i5-10600k", govs[g], scns[s], 7 + s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_periodic_timer_tick_stopped),
		cmocka_unit_test(test_wheel_buckets),
		cmocka_unit_test(test_wheel_expires_ns),
		cmocka_unit_test(test_wheel_timer_in_sim),
		cmocka_unit_test(test_periodic_timer_tick_retained),
		cmocka_unit_test(test_one_ipi),
		cmocka_unit_test(test_package_wake),
		cmocka_unit_test(test_actual_exit),
		cmocka_unit_test(test_host_threads),
		cmocka_unit_test(test_host_thread_preempted),
		cmocka_unit_test(test_host_thread_poll_limit),
		cmocka_unit_test(test_timer_late),
		cmocka_unit_test(test_tick_late),
		cmocka_unit_test(test_timer_handler),
		cmocka_unit_test(test_timer_handler_polling),
		cmocka_unit_test(test_clocked_work_handler),
		cmocka_unit_test(test_clocked_work_late_timer),
		cmocka_unit_test(test_clocked_work_suspended),
		cmocka_unit_test(test_tick_late_busy),
		cmocka_unit_test(test_one_ipi_energy_rk3588),
		cmocka_unit_test(test_ipi_to_polling_cpu),
		cmocka_unit_test(test_poll_limit),
		cmocka_unit_test(test_poll_limit_keeps_idle_entry),
		cmocka_unit_test(test_4_16_stops_tick_first),
		cmocka_unit_test(test_sleep_length_timer_within_tick),
		cmocka_unit_test(test_single_state_bypass),
		cmocka_unit_test(test_background_on_the_wheel),
		cmocka_unit_test(test_watchdog_every_cpu),
		cmocka_unit_test(test_invariants),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
