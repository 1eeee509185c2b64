/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim-local.h - the simulator's private structures, shared by engine.c, env.c and events.c.
 */
#ifndef IDLELAB_SIM_LOCAL_H
#define IDLELAB_SIM_LOCAL_H

#include "sim.h"

#define KTIME_MAX_U ((u64)KTIME_MAX)

/*
 * For the few functions on the path of every event (the idle loop, interrupt entry), which
 * GCC at -O2 keeps out of line: saving and restoring registers there costs about as much as
 * their bodies.
 */
#define sim_hot inline __attribute__((always_inline))

/*
 * An event's place in the scheduling order, (time, sequence number), as one 128-bit integer:
 * one compare instead of two, and without branches.
 */
typedef unsigned __int128 sim_key;

static inline sim_key sim_key_of(u64 t, u64 seq)
{
	return (sim_key)t << 64 | seq;
}

static inline u64 sim_key_time(sim_key key)
{
	return (u64)(key >> 64);
}

/*
 * Event types. The first four (and EV_IPI at times) are a CPU's "self" event (at most one
 * pending), EV_TICK and EV_TIMER its tick and timer-head events. Device interrupts and IPIs,
 * several of which can be pending for one CPU, wait in the CPU's interrupt heap (struct
 * sim_evq), but for the usual IPI: see EV_IPI. Each CPU shows its earliest event of each kind
 * in a slot (struct sim_slot); a tournament tree orders the CPUs by their earliest slot.
 */
enum sim_ev_type {
	EV_WORK_DONE,  /* the running piece of work ends */
	EV_EXIT_DONE,  /* the exit latency has elapsed: the idle period ends */
	EV_POLL_LIMIT, /* a polling state reached its time limit */
	EV_RETRY,      /* a refused entry has returned: the idle loop goes round again */
	EV_TICK,       /* the scheduler tick */
	EV_TIMER,      /* the earliest armed timer of the CPU may have expired */
	EV_IRQ,        /* a device interrupt */
	/*
	 * A reschedule IPI arrives. The one that wakes a CPU from a real idle state, whose self
	 * slot is empty, waits there: in a ping-pong every stop sends one, often to a CPU with a
	 * device interrupt pending already, which would go to the heap and come back, and the
	 * cached earliest of the other slots would be found again. If something else wakes the
	 * CPU first, the IPI moves to the interrupt heap with its key; events run in key order
	 * whichever slot or heap holds them.
	 */
	EV_IPI,
};

/* A device interrupt or an IPI, in its CPU's interrupt heap. */
struct sim_ev {
	u64 t;
	u64 seq;       /* scheduling order: breaks ties between events at the same instant */
	il_sim_fn fn;
	void *arg;
	u16 cpu;
	u8 type;
	s16 hint_cpu;
};

struct sim_evq {
	struct sim_ev *ev;
	size_t len, cap;
};

int sim_evq_push_slow(struct sim_evq *q, const struct sim_ev *ev);
void sim_evq_pop_slow(struct sim_evq *q, struct sim_ev *out);
void sim_evq_free(struct sim_evq *q);

/* A heap of one element is the usual case behind a CPU's earliest interrupt: no call. */
static inline int sim_evq_push(struct sim_evq *q, const struct sim_ev *ev)
{
	if (q->len || !q->cap)
		return sim_evq_push_slow(q, ev);
	q->ev[0] = *ev;
	q->len = 1;
	return 0;
}

static inline void sim_evq_pop(struct sim_evq *q, struct sim_ev *out)
{
	if (q->len != 1) {
		sim_evq_pop_slow(q, out);
		return;
	}
	*out = q->ev[0];
	q->len = 0;
}

struct sim_work {
	u64 run_ns;
	u64 queued_ns;
	il_sim_fn done;
	void *arg;
	int hint_cpu;
	bool woke_idle; /* queued while the CPU was in the idle loop: its start is a wakeup */
	bool clocked;   /* ends by the clock (il_sim_wake_clocked()) */
};

/* A per-CPU event: when, and its place in the global scheduling order. t KTIME_MAX: none. */
struct sim_slot {
	u64 t;
	u64 seq;
};

enum { SLOT_SELF, SLOT_TICK, SLOT_TIMER, SLOT_IRQ, SLOT_COUNT };

/* An empty slot is (KTIME_MAX, SLOT_NONE_SEQ); no event ever gets that sequence number. */
#define SLOT_NONE_SEQ UINT64_MAX

/*
 * A sequence number names the CPU of its event in its low SIM_SEQ_CPU_BITS bits: the count of
 * events scheduled before it, shifted, or the CPU. The count alone orders them, so (t, seq)
 * orders the events exactly as (t, count) would, and a node of the tournament tree is one key,
 * one 16-byte value read and written with no CPU field beside it. The count stays below 2^54
 * (10^16 events).
 */
#define SIM_SEQ_CPU_BITS 10

/* The CPU of the event of @key, which is not "none". */
static inline unsigned int sim_key_cpu(sim_key key)
{
	return (unsigned int)key & ((1u << SIM_SEQ_CPU_BITS) - 1);
}

/* A CPU's part in the host threads of an emulator (cfg.host_threads; engine.c). */
enum sim_thread {
	THR_NONE,      /* idle: it needs no thread */
	THR_ON,        /* running (busy, waking or in a retry) on a thread */
	THR_HELD,      /* idle, woken by an IPI or need_resched that waits for a thread */
	THR_SUSPENDED, /* running, but its thread was taken: its self event waits */
};

enum sim_cpu_mode {
	CPU_START,  /* before the run: work may be queued, nothing runs */
	CPU_BUSY,   /* running work */
	CPU_IDLE,   /* in an idle state */
	CPU_WAKING, /* woken, paying the exit latency */
	CPU_RETRY,  /* in the idle loop after a refused entry, in no state (domain.c) */
};

/* A CPU's part in the power domains (domain.c); NULL on a platform without domains. */
struct sim_cpu_dom {
	s8 dom_of_state[CPUIDLE_STATE_MAX]; /* the domain of each state of its table, or -1 */
	u8 ndoms;
	u8 doms[8];                         /* the domains it is a member of */
	s8 phys;                            /* the state it is physically in, -1: not followed */
	bool req;                           /* asleep, having asked for a domain state */
	bool deep;                          /* counted in its simple domain's ndeep */
	s8 simple_level; /* of one domain, a simple one (struct sim_domain): its level; else -1 */
	u64 phys_since;
};

struct sim_cpu {
	struct il_sim *sim;  /* the machine (the environment's ctx is this CPU's env_state) */
	struct il_cpu_stats *stats; /* its counters, &sim->m.cpu[cpu] */
	enum sim_cpu_mode mode;
	struct il_device dev;
	struct il_driver *drv;      /* its state table: &sim->drv, or its own (per-CPU tables) */
	const u64 *exit_ns;         /* its table's exit latencies, core_exit_ns likewise */
	const u64 *core_exit_ns;
	u32 polling_states;         /* bit i: state i of its table polls */
	struct sim_cpu_dom *dom;
	struct il_env env;
	struct il_env_state env_state; /* env's ctx: the QoS limits, tick_stopped, got_tick */
	unsigned long load;

	/*
	 * Run queue: a ring of pending work. cur is what the end of the piece that runs in
	 * CPU_BUSY needs (its callback), and the CPU it will wake (for the oracle).
	 */
	struct sim_work *rq;
	unsigned int rq_cap, rq_head, rq_len;
	struct {
		il_sim_fn done;
		void *arg;
		int hint_cpu;
		bool clocked;
	} cur;
	u64 work_start;
	u64 work_end;

	/* Idle loop. */
	int idx;             /* state of the current idle period */
	bool polling;
	bool governed;       /* the governor selected idx (not the single-state bypass) */
	bool stop_tick;      /* the governor's answer for this period */
	u64 idle_start;
	u64 wake_ns;
	u8 wake_cause;       /* enum il_sim_wake: what ended the period (observers read it) */
	bool loop_got_tick;  /* 7.0 do_idle(): got_tick read after the previous iteration */
	/*
	 * ts->idle_entrytime, the "now" of the sleep length (env.c): set where do_idle() starts
	 * (tick_nohz_idle_enter()) and at the exit of every interrupt taken in the loop
	 * (tick_nohz_irq_exit()), not when a poll limit sends the loop round again without one
	 * (a refused entry's retry sets it: engine.c's idle_retry()).
	 */
	u64 idle_entry_ns;
	u8 thread;           /* enum sim_thread: host threads (cfg.host_threads, engine.c) */

	/* Tick (tick-sched). */
	/* env_state.tick_stopped; env_state.got_tick is ts->got_idle_tick: a tick ran in idle */
	bool rcu_pending;    /* rcu_needs_cpu(): callbacks wait for a grace period */
	bool nohz_full;      /* nohz_full= CPU: the tick stays stopped while it runs one task */
	bool tick_armed;     /* the tick slot holds the next tick */
	u64 tick_at;         /* the programmed tick (a late one's event comes after it) */

	/*
	 * Timers: a binary min-heap on expires; next_timer caches th[0]->expires (KTIME_MAX:
	 * none).
	 */
	struct il_sim_timer **th;
	unsigned int th_len, th_cap;
	u64 next_timer;
	u64 timer_ev_at;     /* the expiry the pending EV_TIMER is for, KTIME_MAX if none */

	/*
	 * Device interrupts and IPIs for this CPU: the earliest in irq_next (its key in
	 * slot[SLOT_IRQ], none when there is none), the later ones in the heap. Most CPUs have
	 * at most one pending, which never touches the heap.
	 */
	struct sim_ev irq_next;
	struct sim_evq irq;

	/* Pending per-CPU events, and the earliest of them (the CPU's key in the tree). */
	struct sim_slot slot[SLOT_COUNT];
	/*
	 * The earliest of the tick, timer and interrupt slots, which change less often than
	 * self.
	 */
	struct sim_slot other;
	u8 other_slot;
	bool other_stale;    /* one of them changed since other was found */
	u8 self_type;        /* EV_WORK_DONE, EV_EXIT_DONE, EV_POLL_LIMIT, EV_RETRY or EV_IPI */
	u8 next_slot;        /* the earliest slot */
	bool dirty;          /* a slot changed since the tree was last brought up to date */

	/* Host threads, rarely used: kept off the hot lines above. */
	u8 susp_type;        /* THR_SUSPENDED: its self event; THR_HELD: the wake's cause */
	u64 susp_left;       /* THR_SUSPENDED: the time its self event had left */
	/* Late timer interrupts, rarely used: the tick's and the timer head's expiry passed. */
	u8 late_raised;      /* LATE_TICK, LATE_TIMER: delivery pending (cfg.timer_late_max_ns) */
};

/* sim_cpu.late_raised: the expiry has passed and the interrupt is on its way. */
enum { LATE_TICK = 1, LATE_TIMER = 2 };

struct il_sim {
	struct il_sim_head head; /* first: the clock, nr_iowait and ncpus, see sim.h */
	struct il_sim_config cfg;
	double *reprice_uj; /* [cpu * cfg.nreprice + k]: domain_adjust_uj under cfg.reprice[k] */
	struct il_driver drv;
	u64 tick_ns;
	u64 tick_base;       /* the last tick boundary at or before now, see sim_tick_base() */
	/* The preset's framework rules and ops, the same on every CPU, read once per run. */
	enum il_idle_loop loop;
	enum il_poll_rule poll;
	bool bypass;         /* single-state driver on a loop that skips the governor */
	u32 polling_states;  /* bit i: state i is a polling state */
	u64 exit_ns[CPUIDLE_STATE_MAX]; /* exit latency of each state, as a wakeup delay */
	u64 core_exit_ns[CPUIDLE_STATE_MAX]; /* the same while another CPU keeps the package up */
	u64 actual_lo[CPUIDLE_STATE_MAX], actual_hi[CPUIDLE_STATE_MAX]; /* 0: exit_ns applies */
	struct il_rng exit_rng; /* the actual wake costs' draws (own stream: nothing else moves) */
	bool package_wake;    /* a non-polling state has core_exit_ns != exit_ns: count nasleep */
	unsigned int nasleep; /* CPUs in a non-polling idle state (not yet woken); package_wake */
	u64 all_asleep_ns;    /* when the last of them fell asleep (nasleep reached ncpus) */
	unsigned int threads_free; /* host threads running no CPU (cfg.host_threads) */
	struct il_rng late_rng; /* late timer interrupts' draws (own stream: nothing else moves) */
	struct il_rng handler_rng; /* timer handlers' run times (own stream, likewise) */
	int (*select)(struct il_driver *drv, struct il_device *dev, bool *stop_tick);
	void (*reflect)(struct il_device *dev, int index);
	u64 next_seq;        /* scheduling order, in steps of 1 << SIM_SEQ_CPU_BITS */
	sim_key *tree;       /* tournament tree over CPUs: tree[1] holds the earliest event */
	unsigned int leaves; /* a power of two >= ncpus; leaf i is tree[leaves + i] */
	unsigned int
		*dirty; /* CPUs whose slots changed, replayed into the tree before the next pick */
	unsigned int ndirty;
	struct sim_cpu *cpu;
	struct il_metrics m;
	struct il_sim_observer obs;
	struct sim_table *tables;       /* per-CPU tables beyond the first (domain.c) */
	struct sim_domain *domains;     /* NULL: no domains */
	int ndomains;
	u64 dom_stamp;                  /* bumped when a domain CPU changes: the mins are stale */
	unsigned int dom_nskew;         /* CPUs whose physical state is not their request */
	struct il_rng rng;   /* the engine's own stream (RCU callbacks) */
	struct il_sim_timer *watchdog; /* per CPU: the softlockup watchdog's hrtimer (h) */
	u64 events;
	u64 selects;
	int error;           /* errno of the first failure inside a callback path */
};

extern const struct il_env_ops il_sim_env_ops;

/* A state table of its own, for the CPUs of one "table" of the platform. */
struct sim_table {
	struct il_driver drv;
	u64 exit_ns[CPUIDLE_STATE_MAX];
	u64 core_exit_ns[CPUIDLE_STATE_MAX];
	u32 polling_states;
};

/* One power domain in the run: its CPUs that exist, its states, its mode. */
struct sim_domain {
	const struct il_domain *d;
	unsigned int *cpus;
	unsigned int ncpus;
	int down_idx; /* OS-initiated: the state the last CPU entered it in, -1: up */
	u64 reject_ns; /* OS-initiated: the round trip of a refused entry */
	/* The two shallowest requests of its CPUs (-1: not asleep), valid at min_stamp */
	int min1, min2;
	unsigned int min_cpu; /* whose request min1 is */
	unsigned int nreq;    /* CPUs asleep having asked for a domain state (req) */
	/*
	 * A simple domain: platform-coordinated, one domain state (level), its CPUs in no other
	 * domain. ndeep counts its CPUs asleep at least level deep; all of them: it is down.
	 */
	bool simple;
	int level;
	unsigned int ndeep;
	u64 min_stamp;
};

/* ---- domain.c: per-CPU tables and power domains ------------------------------------- */

/** sim_topology_init - the CPUs' tables, and the domains of cfg->topology. Return 0 or -1. */
int sim_topology_init(struct il_sim *sim);
void sim_topology_free(struct il_sim *sim);
/** sim_domain_refuses - whether the firmware refuses @cpu's entry into @idx (OSI) */
bool sim_domain_refuses(struct il_sim *sim, unsigned int cpu, int idx);
/** sim_domain_wake_exit - the exit latency @cpu pays when woken now, domains considered */
u64 sim_domain_wake_exit(struct il_sim *sim, unsigned int cpu);
/**
 * sim_domain_changed - @cpu of a domain fell asleep or was woken: follow the physical state
 * of its domains' sleeping CPUs, for their energy
 */
void sim_domain_changed(struct il_sim *sim, unsigned int cpu);
/** sim_domain_close - the end of the run: charge every open physical-state segment */
void sim_domain_close(struct il_sim *sim);

/*
 * The usual call of sim_domain_changed(), inline: a CPU of one simple domain, awake or asleep
 * in a state below the domain's, that had not asked for the domain state, was not counted
 * deep and is not followed, stays so: only the domains' stamp moves (see domain.c).
 */
static inline void sim_domain_changed_fast(struct il_sim *sim, struct sim_cpu *c)
{
	const struct sim_cpu_dom *d = c->dom;

	if (d->simple_level >= 0 && !d->req && !d->deep && d->phys < 0 &&
	    (c->mode != CPU_IDLE || c->polling || c->idx < d->simple_level)) {
		sim->dom_stamp++;
		return;
	}
	sim_domain_changed(sim, c->dev.cpu);
}

/* ---- helpers of engine.c and env.c ---------------------------------------------------- */

static inline u64 sim_next_timer(const struct sim_cpu *c)
{
	return c->next_timer;
}

/*
 * The tick grid at now: the last boundary at or before now. Time only moves forward, so the
 * division runs once per tick period instead of on every idle entry (a time before the
 * cached base would wrap the difference and recompute it too).
 */
static inline u64 sim_tick_base(struct il_sim *sim)
{
	if (sim->head.now - sim->tick_base >= sim->tick_ns)
		sim->tick_base = sim->head.now - sim->head.now % sim->tick_ns;
	return sim->tick_base;
}

/* The first tick boundary after now. */
static inline u64 sim_next_tick(struct il_sim *sim)
{
	return sim_tick_base(sim) + sim->tick_ns;
}

/*
 * Whether a running tick has to keep running: RCU callbacks are pending, or the next timer
 * is due within one tick of the last tick (tick_nohz_next_event() returns 0). @base is
 * sim_tick_base().
 */
static inline bool sim_tick_must_run_at(const struct il_sim *sim, const struct sim_cpu *c, u64 base)
{
	u64 next_timer = sim_next_timer(c);

	if (c->rcu_pending)
		return true;
	return next_timer != KTIME_MAX_U && (s64)(next_timer - base) <= (s64)sim->tick_ns;
}

static inline bool sim_tick_must_run(struct il_sim *sim, const struct sim_cpu *c)
{
	return sim_tick_must_run_at(sim, c, sim_tick_base(sim));
}

#endif /* IDLELAB_SIM_LOCAL_H */
