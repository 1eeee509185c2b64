/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim-local.h - the simulator's private structures, shared by engine.c, env.c and events.c.
 */
#ifndef IDLELAB_SIM_LOCAL_H
#define IDLELAB_SIM_LOCAL_H

#include "sim.h"

/*
 * Event types. The first three are a CPU's "self" event (at most one pending), EV_TICK and
 * EV_TIMER its tick and timer-head events: these live in per-CPU slots (struct sim_slot),
 * ordered across CPUs by a tournament tree. Only device interrupts and IPIs, which several
 * of can be pending for one CPU, go through the shared heap (struct sim_evq).
 */
enum sim_ev_type {
	EV_WORK_DONE,  /* the running piece of work ends */
	EV_EXIT_DONE,  /* the exit latency has elapsed: the idle period ends */
	EV_POLL_LIMIT, /* a polling state reached its time limit */
	EV_TICK,       /* the scheduler tick */
	EV_TIMER,      /* the earliest armed timer of the CPU may have expired */
	EV_IRQ,        /* a device interrupt */
	EV_IPI,        /* a reschedule IPI arrives */
};

/* A shared-heap event: a device interrupt or an IPI. */
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

int sim_evq_push(struct sim_evq *q, const struct sim_ev *ev);
void sim_evq_pop(struct sim_evq *q, struct sim_ev *out);
void sim_evq_free(struct sim_evq *q);

struct sim_work {
	u64 run_ns;
	u64 queued_ns;
	il_sim_fn done;
	void *arg;
	int hint_cpu;
	bool woke_idle; /* queued while the CPU was in the idle loop: its start is a wakeup */
};

/* A per-CPU event: when, and its place in the global scheduling order. t KTIME_MAX: none. */
struct sim_slot {
	u64 t;
	u64 seq;
};

enum { SLOT_SELF, SLOT_TICK, SLOT_TIMER, SLOT_COUNT };

/* A node of the tournament tree: the earliest event below it, and its CPU. */
struct sim_node {
	u64 t;
	u64 seq;
	unsigned int cpu;
};

enum sim_cpu_mode {
	CPU_START,  /* before the run: work may be queued, nothing runs */
	CPU_BUSY,   /* running work */
	CPU_IDLE,   /* in an idle state */
	CPU_WAKING, /* woken, paying the exit latency */
};

struct sim_cpu {
	struct il_sim *sim;  /* the machine (the environment's ctx is the CPU) */
	enum sim_cpu_mode mode;
	struct il_device dev;
	struct il_env env;
	struct il_qos qos;
	unsigned long nr_iowait;
	unsigned long load;

	/* Run queue: a ring of pending work; cur is the piece that runs in CPU_BUSY. */
	struct sim_work *rq;
	unsigned int rq_cap, rq_head, rq_len;
	struct sim_work cur;
	u64 work_start;
	u64 work_end;

	/* Idle loop. */
	int idx;             /* state of the current idle period */
	bool polling;
	bool governed;       /* the governor selected idx (not the single-state bypass) */
	bool stop_tick;      /* the governor's answer for this period */
	u64 idle_start;
	u64 wake_ns;
	bool loop_got_tick;  /* 7.0 do_idle(): got_tick read after the previous iteration */

	/* Tick (tick-sched). */
	bool tick_stopped;
	bool got_idle_tick;  /* ts->got_idle_tick: a tick ran while in the idle loop */
	bool rcu_pending;    /* rcu_needs_cpu(): callbacks wait for a grace period */
	bool tick_armed;     /* the tick slot holds the next tick */
	u64 tick_at;

	/* Timers: a binary min-heap on expires. */
	struct il_sim_timer **th;
	unsigned int th_len, th_cap;
	u64 timer_ev_at;     /* time of the pending EV_TIMER, KTIME_MAX if none */

	/* Pending per-CPU events, and the earliest of them (the CPU's key in the tree). */
	struct sim_slot slot[SLOT_COUNT];
	u8 self_type;        /* EV_WORK_DONE, EV_EXIT_DONE or EV_POLL_LIMIT */
	u8 next_slot;        /* the earliest slot */
	bool dirty;          /* a slot changed since the tree was last brought up to date */
};

struct il_sim {
	struct il_sim_config cfg;
	struct il_driver drv;
	u64 now;
	u64 tick_ns;
	struct sim_evq q;    /* device interrupts and IPIs */
	u64 next_seq;        /* scheduling order of every event, per-CPU or shared */
	struct sim_node *tree; /* tournament tree over CPUs: tree[1] holds the earliest per-CPU event */
	unsigned int leaves; /* a power of two >= ncpus; leaf i is tree[leaves + i] */
	unsigned int *dirty; /* CPUs whose slots changed, replayed into the tree before the next pick */
	unsigned int ndirty;
	struct sim_cpu *cpu;
	struct il_metrics m;
	struct il_sim_observer obs;
	struct il_rng rng;   /* the engine's own stream (RCU callbacks) */
	u64 events;
	u64 selects;
	int error;           /* errno of the first failure inside a callback path */
};

extern const struct il_env_ops il_sim_env_ops;

/* engine.c helpers that env.c uses */
u64 sim_next_timer(const struct sim_cpu *c);
bool sim_tick_must_run(const struct il_sim *sim, const struct sim_cpu *c);
u64 sim_next_tick_after(const struct il_sim *sim, u64 t);

#endif /* IDLELAB_SIM_LOCAL_H */
