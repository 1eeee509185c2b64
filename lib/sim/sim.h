/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim.h - the discrete-event simulator of CPUs, timers, the tick, interrupts and idle states.
 *
 * DOC: the simulated machine
 *
 * Time is integer nanoseconds from 0. The machine has N CPUs that share one cpuidle driver
 * (the platform's state table) and one governor preset; each CPU has its own struct
 * il_device, environment (lib/env.h) and governor data. What happens on a CPU:
 *
 *  1. "Work" is a run of CPU time queued on a CPU (il_sim_wake()). Queued work runs in
 *     order, back to back; when a piece ends its callback runs and may queue more work,
 *     arm timers, or wake other CPUs. A CPU with queued work is busy.
 *  2. "Timers" are hrtimers armed on a CPU (il_sim_timer_start()). They are what
 *     tick_nohz_get_sleep_length() sees. When one expires its callback runs on that CPU.
 *  3. "Interrupts" (il_sim_irq()) are device interrupts at a time on a CPU. No governor can
 *     see them coming.
 *  4. The scheduler tick runs every TICK_NSEC (HZ from the platform or the run), on a grid
 *     shared by all CPUs, while a CPU is busy or idle with the tick not stopped.
 *  5. When a CPU runs out of work it enters the idle loop of the preset's kernel
 *     (struct il_core_rules): the governor selects a state, the tick is stopped or kept,
 *     and the CPU sleeps. The DOC block of engine.c describes the loop and its versions.
 *  6. Any interrupt (timer, tick, device, IPI) wakes a CPU from a real idle state. The CPU
 *     runs again only after the state's exit latency; the idle period ends then. A polling
 *     state runs interrupt handlers without leaving the state: it ends only when work is
 *     queued on the CPU (need_resched) or at its poll time limit.
 *  7. Waking work on another CPU that is idle in a real state costs an IPI: it arrives
 *     ipi_ns later. A CPU that is polling sees need_resched at once, as with
 *     TIF_POLLING_NRFLAG in the kernel.
 *  8. A piece of work leaves RCU callbacks on its CPU with probability rcu_permille / 1000.
 *     Until the next tick on that CPU, rcu_needs_cpu() is true: the tick cannot be stopped
 *     and tick_nohz_get_sleep_length() returns the time to the next tick.
 *  9. Every CPU but a nohz_full one holds the softlockup watchdog's hrtimer, every
 *     watchdog_ns, which wakes the CPU's stopper thread for a moment (engine.c, h).
 *
 * Events at the same instant run in the order they were scheduled, so a run is a pure
 * function of its configuration and seed.
 */
#ifndef IDLELAB_SIM_H
#define IDLELAB_SIM_H

#include "../cpuidle.h"
#include "../env.h"
#include "../governor.h"
#include "../metrics/metrics.h"
#include "../util/rng.h"

struct il_sim;
struct il_platform;
typedef void (*il_sim_fn)(struct il_sim *sim, unsigned int cpu, void *arg);

#define IL_SIM_CPUS_MAX 1024

/* The default IPI delivery time: a few hundred ns to 1-2 µs on x86 and arm64 servers. */
#define IL_SIM_IPI_NS_DEFAULT 1000

/*
 * The softlockup watchdog's hrtimer period: watchdog_thresh * 2 / 5 seconds
 * (kernel/watchdog.c, set_sample_period()), 4 s at the default watchdog_thresh of 10.
 */
#define IL_SIM_WATCHDOG_NS_DEFAULT (4 * NSEC_PER_SEC)

struct il_sim_config {
	const struct il_driver *drv;    /* state table, after il_driver_init() */
	const struct il_preset *preset; /* governor under test */
	unsigned int ncpus;
	unsigned int hz;
	u64 duration_ns;
	u64 seed;
	u64 ipi_ns;                     /* IPI delivery time to a CPU in a real idle state */
	unsigned int host_threads;      /* an emulator's threads running the CPUs; 0: hardware */
	/* A timer interrupt's delay after the expiry, a uniform draw; max 0: none (engine.c). */
	u64 timer_late_min_ns, timer_late_max_ns;
	/* A timer interrupt handler's run time, a uniform draw; max 0: none (engine.c, f). */
	u64 timer_handler_min_ns, timer_handler_max_ns;
	unsigned int rcu_permille;      /* work that leaves RCU callbacks behind, see engine.c */
	u64 watchdog_ns;                /* softlockup watchdog period on every CPU (h); 0: none */
	struct il_qos qos;              /* the same limits for every CPU */
	struct il_power power;          /* energy model; power.known false: no energy */
	const u64 *pn_us;               /* PowerNightmare thresholds, NULL: defaults */
	const u64 *nohz_full;           /* bitmap of ncpus bits (nohz_full=), NULL: none */
	/* Per-CPU tables and power domains (domain.c); NULL: drv on every CPU, no domains. */
	const struct il_platform *topology;
	/*
	 * More energy models to charge the power domains' physical states with, as the run goes
	 * (nothing else of a run depends on its power numbers): il_sim_domain_adjust_uj().
	 */
	const struct il_power *reprice;
	unsigned int nreprice;
};

/**
 * il_sim_config_defaults - HZ 1000, 1 CPU, 1 s, seed 1, default IPI time, the default
 * softlockup watchdog period and no QoS limit
 */
void il_sim_config_defaults(struct il_sim_config *cfg);

/**
 * il_sim_new - build a machine from @cfg: every CPU idle at time 0 with its tick running,
 * bound to cfg->preset
 * Return: the simulator, or NULL with errno set (EINVAL for a bad configuration, ENOMEM,
 * or the governor's enable() error).
 */
struct il_sim *il_sim_new(const struct il_sim_config *cfg);
void il_sim_free(struct il_sim *sim);

/**
 * il_sim_run - run until cfg->duration_ns
 * Return: 0, or -1 with errno set if the run stopped early (ENOMEM).
 */
int il_sim_run(struct il_sim *sim);

/* ---- what scenarios call --------------------------------------------------------------- */

/*
 * The clock, the CPU count and the CPUs' I/O wait counts, which scenarios read or change on
 * nearly every event, are read and changed inline: struct il_sim begins with struct
 * il_sim_head, so that a pointer to the machine points to it too. Nothing else of the
 * machine is public.
 */
struct il_sim_head {
	u64 now;
	unsigned long *nr_iowait; /* per CPU: tasks blocked on I/O */
	unsigned int ncpus;
};

static inline const struct il_sim_head *il_sim_head(const struct il_sim *sim)
{
	return (const struct il_sim_head *)sim;
}

static inline u64 il_sim_now(const struct il_sim *sim)
{
	return il_sim_head(sim)->now;
}

static inline unsigned int il_sim_ncpus(const struct il_sim *sim)
{
	return il_sim_head(sim)->ncpus;
}

u64 il_sim_tick_ns(const struct il_sim *sim);
u64 il_sim_duration_ns(const struct il_sim *sim);
/** il_sim_rng_init - seed @r as stream @stream of this run */
void il_sim_rng_init(const struct il_sim *sim, struct il_rng *r, u64 stream);

/* A timer: the scenario owns the memory, the simulator links it while it is armed. */
struct il_sim_timer {
	u64 expires;
	il_sim_fn fn;
	void *arg;
	unsigned int cpu;
	int heap_pos; /* -1 while not armed */
};

void il_sim_timer_init(struct il_sim_timer *t, il_sim_fn fn, void *arg);
/**
 * il_sim_timer_start - arm (or re-arm) @t on @cpu to expire at @expires (absolute ns;
 * a time in the past expires at once)
 * Return: 0, or -1 with errno ENOMEM.
 */
int il_sim_timer_start(struct il_sim *sim, struct il_sim_timer *t, unsigned int cpu, u64 expires);
/**
 * il_sim_timer_start_wheel - arm @t on @cpu as a timer_list timer @delay_ns from now: it
 * expires at the tick where the kernel's timer wheel runs it (wheel.c)
 * Return: 0, or -1 with errno ENOMEM.
 */
int il_sim_timer_start_wheel(struct il_sim *sim, struct il_sim_timer *t, unsigned int cpu,
			     u64 delay_ns);
/*
 * The tick (jiffy) at which the wheel runs a timer due at tick @expires when its clock is at
 * tick @clk, and the time in ns at which it runs one armed at @now_ns for @delay_ns on a tick
 * of @tick_ns (the ticks are at the multiples of @tick_ns).
 */
u64 il_wheel_bucket_expiry(u64 expires, u64 clk);
u64 il_wheel_expires_ns(u64 now_ns, u64 delay_ns, u64 tick_ns);
void il_sim_timer_cancel(struct il_sim *sim, struct il_sim_timer *t);
static inline bool il_sim_timer_armed(const struct il_sim_timer *t)
{
	return t->heap_pos >= 0;
}

/*
 * @hint_cpu for il_sim_irq() and il_sim_wake(): the CPU that the callback will wake, if the
 * scenario knows it (-1 otherwise). Only the oracle reads it, to know the true length of an
 * idle period that will end with that wakeup.
 */

/**
 * il_sim_irq - a device interrupt on @cpu at @when (absolute ns, not before now); @fn runs
 * then on @cpu
 * Return: 0, or -1 with errno ENOMEM.
 */
int il_sim_irq(struct il_sim *sim, unsigned int cpu, u64 when, il_sim_fn fn, void *arg,
	       int hint_cpu);

/**
 * il_sim_wake - queue @run_ns of work on @cpu now; @done runs when it finishes (may be NULL)
 *
 * If @cpu is idle it is woken: at once if it polls, otherwise by an IPI that arrives
 * ipi_ns later (0 when the caller runs on @cpu itself, e.g. a timer callback), and then
 * after the exit latency of its state. The time from now until the work starts is recorded
 * as wakeup latency when the CPU was idle.
 * Return: 0, or -1 with errno ENOMEM.
 */
int il_sim_wake(struct il_sim *sim, unsigned int from_cpu, unsigned int cpu, u64 run_ns,
		il_sim_fn done, void *arg, int hint_cpu);

/**
 * il_sim_wake_clocked - il_sim_wake() from @cpu itself of work that runs until the clock
 * says @run_ns have passed (rt-app's "runtime"), not for a count of instructions
 *
 * On a platform with late timer interrupts (timer_late) such work cannot end before a
 * timer interrupt raised on its CPU has come, and a timer handler that runs before its end
 * takes none of its time (engine.c, f and g).
 */
int il_sim_wake_clocked(struct il_sim *sim, unsigned int cpu, u64 run_ns, il_sim_fn done,
			void *arg, int hint_cpu);

/** il_sim_iowait_add - change @cpu's nr_iowait (tasks blocked on I/O) by @delta */
static inline void il_sim_iowait_add(struct il_sim *sim, unsigned int cpu, int delta)
{
	const struct il_sim_head *head = il_sim_head(sim);

	if (cpu < head->ncpus)
		head->nr_iowait[cpu] += (unsigned long)(long)delta;
}
/** il_sim_set_load - set @cpu's runqueue load weight (what 4.x menu reads) */
void il_sim_set_load(struct il_sim *sim, unsigned int cpu, unsigned long weight);
/** il_sim_cpu_idle - whether @cpu is in the idle loop (idle or waking up) */
bool il_sim_cpu_idle(const struct il_sim *sim, unsigned int cpu);

/* ---- results --------------------------------------------------------------------------- */

const struct il_metrics *il_sim_metrics(const struct il_sim *sim);
/**
 * il_sim_domain_adjust_uj - the domain_adjust_uj of @cpu's counters under energy model
 * cfg->reprice[@k]: the very sum a run with that model as cfg->power would have
 */
double il_sim_domain_adjust_uj(const struct il_sim *sim, unsigned int cpu, unsigned int k);
const struct il_device *il_sim_device(const struct il_sim *sim, unsigned int cpu);
/** il_sim_events - how many events the run processed, and how many governor selects it made */
u64 il_sim_events(const struct il_sim *sim);
u64 il_sim_selects(const struct il_sim *sim);

/* What ended an idle period (struct il_sim_period.cause). */
enum il_sim_wake {
	IL_SIM_WAKE_NONE,       /* not woken yet (a period open at the end of the run) */
	IL_SIM_WAKE_TIMER,      /* an hrtimer of the CPU expired */
	IL_SIM_WAKE_TICK,       /* the scheduler tick */
	IL_SIM_WAKE_IRQ,        /* a device interrupt */
	IL_SIM_WAKE_IPI,        /* a reschedule IPI from another CPU */
	IL_SIM_WAKE_RESCHED,    /* work queued on a polling CPU: need_resched, no interrupt */
	IL_SIM_WAKE_POLL_LIMIT, /* a polling state reached its time limit (not a wakeup) */
};

/*
 * Observer hooks for tests and tracing, called in simulated-time order; any may be NULL.
 * The engine tests the pointer once per period (period), per tick stop and per CPU at the
 * end (open), nowhere else:
 *  - period: an idle period ended;
 *  - tick_stop: the CPU's tick went from running to stopped at @t (at an idle entry);
 *  - open: at the end of the run, a CPU still in an idle period: the period so far (end_ns
 *    is the end of the run; cause IL_SIM_WAKE_NONE unless it was woken, no miss verdict).
 */
struct il_sim_period {
	unsigned int cpu;
	int idx;           /* state entered */
	bool governed;     /* select() ran (false on the single-state bypass) */
	bool stop_tick;    /* the governor's stop_tick answer */
	bool tick_stopped; /* the tick state during the period */
	u64 start_ns;
	u64 end_ns;        /* the CPU runs again (after the exit latency) */
	u64 wake_ns;       /* the wakeup event (end_ns - exit latency), or the poll limit */
	enum il_sim_wake cause; /* what woke it (or the poll limit) */
	enum il_miss miss;
};

struct il_sim_observer {
	void (*period)(void *ctx, const struct il_sim_period *p);
	void *ctx;
	void (*tick_stop)(void *ctx, unsigned int cpu, u64 t);
	void (*open)(void *ctx, const struct il_sim_period *p);
};
void il_sim_set_observer(struct il_sim *sim, const struct il_sim_observer *obs);

#endif /* IDLELAB_SIM_H */
