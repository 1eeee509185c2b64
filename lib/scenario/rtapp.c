// SPDX-License-Identifier: GPL-2.0-only
/*
 * rtapp.c - an rt-app workload file simulated: `-s rtapp:FILE.json[,k=v...]`.
 *
 * DOC: rt-app threads on the simulated machine
 *
 * lib/rtapp/ reads the file; here its threads run on the simulator (lib/sim/sim.h):
 *
 *  1. Threads. Each task has `instance` threads, numbered in file order. A thread runs its
 *     events in file order, phase after phase, with rt-app's loop counts; a thread with a
 *     "delay" starts on a timer that long after rt-app's start. Every thread's timer base
 *     ("t_first" in rt-app) is that start plus its delay, as in rt-app where all threads
 *     share one start. The start is phase_us into the first tick period: a real rt-app is
 *     launched at no particular point of the tick grid, and for periodic files the phase
 *     decides how the tick cuts each idle period (timer-200hz on a 250 Hz tick: pieces of
 *     1, 2 and 3 ms on the grid, of 0.2, 1.2, 2.2 and 3.2 ms at 188 us off it, which puts
 *     some of them under a 800 us target residency). By default (-1) it is drawn per run,
 *     from the seed, uniformly over one tick period, so the lab's spread over seeds holds
 *     the phase's as the real runs' does.
 *  2. Placement. A thread that becomes runnable (start, wakeup, a phase whose "cpus" exclude
 *     its CPU) goes to, in order: its previous CPU if no other rt-app thread is runnable
 *     there; the first such idle CPU after it, counting up and wrapping; its previous CPU
 *     if allowed; the allowed CPU with the fewest runnable threads (lowest number on ties).
 *     Only CPUs in the thread's affinity (the phase's "cpus", else the task's) are allowed.
 *     A thread's first "previous CPU" is its number modulo the CPU count.
 *  3. "run" and "runtime" are work on the thread's CPU. "run" is calibrated: with an integer
 *     "calibration" C in the file and ns_per_loop=N, run X µs takes X * N / C µs (a file
 *     calibrated on another machine); otherwise X µs. "runtime" X takes X µs rounded up to
 *     rt-app's 32 µs chunks (at least one chunk, also for 0), and ends by the clock
 *     (il_sim_wake_clocked(): it waits for a late timer interrupt). Work is queued in
 *     pieces of at most slice_us, so that threads sharing a CPU take turns (the simulator
 *     runs a CPU's queue in order).
 *  4. "sleep" arms a timer on the thread's CPU; "timer" waits, on the same kind of timer, for
 *     the next period of its reference: the first use sets the reference to the thread's
 *     t_first, every use adds the period; if that time has already passed there is no sleep,
 *     and a "relative" timer moves its reference to now. A "unique..." timer is per thread,
 *     any other name is shared by all its users, as in rt-app.
 *  5. barrier, resume, signal, broad, sync, unlock and sem_post wake other threads: a
 *     non-timer wakeup, with an IPI when the woken thread's CPU is another one and sleeps in a
 *     real idle state. A barrier counts its users from the file (every event naming it, times
 *     its task's instances) and the last to arrive wakes the others. resume wakes every
 *     thread suspended on the name, and is lost if none is (a condition variable). A mutex
 *     goes to its first waiter when unlocked; "wait" releases its mutex and takes it again
 *     when woken. yield puts the thread behind the work queued on its CPU.
 *  6. Every wakeup costs switch_ns of work on the woken thread's CPU before its next event
 *     (switching to the thread; the same 900 ns default as pingpong's overhead per stop).
 *     Every block (a sleep or a wait) costs block_ns of work on the thread's CPU after it, the
 *     way into schedule() and the idle task: 0 by default, where switch_ns stands for the
 *     whole switch. It matters where a wakeup's IPI waits for the waker's CPU to idle (a
 *     platform's host_threads, lib/sim/engine.c): a waker that blocks at once then still
 *     runs block_ns before its CPU idles.
 *  7. A phase iteration in which nothing took time (only resumes, say) is charged
 *     LOOP_GUARD_NS, so that a loop of such events advances simulated time, as rt-app's own
 *     per-loop bookkeeping does on a real CPU.
 *  8. With "duration" > 0 in the file, threads end at their first event after it: rt-app
 *     stops the use case then, and the rest of the run is idle.
 *
 * Score: wu_lat_us, the mean time from the event that made a thread runnable (its timer
 * expiring, the waker's event) to the thread running its next event, switch_ns included:
 * the IPI, the exit latency of the CPU's idle state and any wait behind other work. For a
 * ring of N threads passing a token with no work, one trip around it takes N * wu_lat_us.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "background.h"
#include "../rtapp/rtapp.h"
#include "scenario.h"

/* Time charged to a phase iteration that took none (7. above): rt-app's clock reads and log. */
#define LOOP_GUARD_NS 1000
/* rt-app's "runtime" spins in loadwait(32) chunks (src/rt-app.c, 1.0 and upstream). */
#define RUNTIME_CHUNK_US 32
/* How many events ahead the oracle's hint looks for the thread a piece of work will wake. */
#define PREDICT_STEPS 32

enum { P_SWITCH, P_BLOCK, P_NS_PER_LOOP, P_SLICE, P_PHASE, P_BG, P_BG_SHAPE };

static const struct il_scn_param rtapp_params[] = {
	[P_SWITCH] = { "switch_ns", IL_SCN_INT, 900, 1, 100000000, NULL, "",
		       "work on the woken CPU before a woken thread runs (as pingpong's "
		       "overhead_ns)" },
	[P_BLOCK] = { "block_ns", IL_SCN_INT, 0, 0, 100000000, NULL, "",
		      "work on a thread's CPU after the thread blocks, before the CPU can idle "
		      "(0: switch_ns is the whole switch)" },
	[P_NS_PER_LOOP] = { "ns_per_loop", IL_SCN_INT, 0, 0, 1000000, NULL, "",
			    "this CPU's ns per rt-app loop, against the file's integer calibration "
			    "(0: run X µs takes X µs)" },
	[P_SLICE] = { "slice_us", IL_SCN_INT, 3000, 1, 1000000, NULL, "us",
		      "longest piece of a run before threads sharing the CPU take turns" },
	[P_PHASE] = IL_SCN_PHASE_PARAM("rt-app's start, this far into the first tick period (-1: "
				       "drawn per run, uniformly over one tick period)"),
	[P_BG] = { "background", IL_SCN_INT, 1, 0, 1, NULL, "",
		   "housekeeping timers and interrupts" },
	IL_BG_PARAMS(P_BG_SHAPE),
	{ 0 }
};

struct rt_thread;

/* Threads blocked on a resource, first come first served. */
struct rt_queue {
	struct rt_thread *head, *tail;
};

/* A timer reference: its next expiry. */
struct rt_timer_ref {
	u64 next;
	bool started;
};

struct rt_res_state {
	struct rt_queue q;       /* waiters */
	s64 count; /* barrier: arrivals still awaited before the last; semaphore: value */
	struct rt_thread *owner; /* mutex */
	struct rt_timer_ref timer; /* a shared timer */
};

/* Where a thread is in its events. */
struct rt_cursor {
	int phase, ev;           /* ev: the next event to run */
	s64 phase_loop, thread_loop;
};

enum rt_state { T_RUNNABLE, T_BLOCKED, T_DONE };

struct rt_thread {
	struct rtapp_ctx *rc;
	const struct il_rtapp_task *task;
	int task_idx;
	unsigned int id;
	enum rt_state state;
	struct rt_cursor at;
	unsigned int cpu;        /* where it runs, or ran last */
	struct il_sim_timer timer; /* start delay, sleep, timer events */
	u64 t_first;             /* the base of its timers */
	u64 run_left_ns;         /* of the run event in progress */
	bool run_clocked;        /* that event is a runtime: it ends by the clock */
	u64 wake_at;             /* when it was made runnable */
	bool count_wake;         /* that wakeup counts in the score (not the start) */
	bool iter_used_time;     /* the current phase iteration queued work or blocked */
	int reacquire;           /* after a wait: the mutex to take again, -1: none */
	struct rt_thread *wq_next;
	struct rt_timer_ref *unique; /* its "unique..." timers, by rc->unique_slot[res] */
};

struct rtapp_ctx {
	struct il_rtapp *rt;
	struct il_sim *sim;
	unsigned int ncpus;
	struct rt_thread *threads;
	unsigned int nthreads;
	struct rt_res_state *res;
	int *unique_slot;          /* per resource: its index among unique timers, or -1 */
	int nunique;
	struct rt_timer_ref *unique_refs; /* nthreads * nunique */
	unsigned int *nr_running;  /* per CPU: rt-app threads runnable there */
	/* per task and phase (phase_base[task] + phase): CPUs allowed, NULL: all */
	const bool **aff;
	int *phase_base;
	bool *aff_bits;
	u64 switch_ns, block_ns, slice_ns, stop_ns;
	u64 start_ns;            /* rt-app's start: every thread's t_first before its delay */
	u64 run_mult, run_div;     /* "run" scaling (3. above) */
	u64 wakes, lat_sum_ns;
	struct il_bg *bg;
};

static void thread_step(struct rt_thread *t);

/* ---- queues ----------------------------------------------------------------------------- */

static void enqueue(struct rt_queue *q, struct rt_thread *t)
{
	t->wq_next = NULL;
	if (q->tail)
		q->tail->wq_next = t;
	else
		q->head = t;
	q->tail = t;
}

static struct rt_thread *dequeue(struct rt_queue *q)
{
	struct rt_thread *t = q->head;

	if (t) {
		q->head = t->wq_next;
		if (!q->head)
			q->tail = NULL;
		t->wq_next = NULL;
	}
	return t;
}

/* ---- where a thread is in its events ------------------------------------------------------ */

static const struct il_rtapp_phase *cur_phase(const struct rt_thread *t, const struct rt_cursor *at)
{
	return &t->task->phases[at->phase];
}

/* Past the last event of an iteration: the next iteration or phase; false when the thread ends. */
static bool cursor_wrap(const struct il_rtapp_task *task, struct rt_cursor *at)
{
	const struct il_rtapp_phase *ph = &task->phases[at->phase];

	at->ev = 0;
	if (ph->loop < 0 || ++at->phase_loop < ph->loop)
		return true;
	at->phase_loop = 0;
	if (++at->phase < task->nphases)
		return true;
	at->phase = 0;
	return task->loop < 0 || ++at->thread_loop < task->loop;
}

/* ---- placement (2. above) ----------------------------------------------------------------- */

static const bool *thread_affinity(const struct rt_thread *t)
{
	return t->rc->aff[t->rc->phase_base[t->task_idx] + t->at.phase];
}

static bool allowed(const bool *aff, unsigned int cpu)
{
	return !aff || aff[cpu];
}

static unsigned int least_loaded(const struct rtapp_ctx *rc, const bool *aff)
{
	unsigned int best = 0;
	bool found = false;

	for (unsigned int c = 0; c < rc->ncpus; c++) {
		if (allowed(aff, c) && (!found || rc->nr_running[c] < rc->nr_running[best])) {
			best = c;
			found = true;
		}
	}
	return best;
}

static unsigned int select_cpu(const struct rt_thread *t, unsigned int prev)
{
	const struct rtapp_ctx *rc = t->rc;
	const bool *aff = thread_affinity(t);

	if (allowed(aff, prev) && !rc->nr_running[prev])
		return prev;
	for (unsigned int k = 1; k < rc->ncpus; k++) {
		unsigned int c = (prev + k) % rc->ncpus;

		if (allowed(aff, c) && !rc->nr_running[c])
			return c;
	}
	return allowed(aff, prev) ? prev : least_loaded(rc, aff);
}

/* ---- the oracle's hint: the CPU a piece of work will wake when it ends ------------------- */

enum effect { PASSES, WAKES, STOPS };

static enum effect cond_effect(const struct rt_res_state *st, const struct rt_thread **w)
{
	*w = st->q.head;
	return *w ? WAKES : PASSES;
}

/* What running @ev now would do: pass on, wake *@w, or stop the thread. */
static enum effect event_effect(const struct rt_thread *t, const struct il_rtapp_event *ev,
				const struct rt_thread **w)
{
	const struct rt_res_state *st = ev->res >= 0 ? &t->rc->res[ev->res] : NULL;

	switch (ev->type) {
	case IL_RTAPP_RUN:
	case IL_RTAPP_SLEEP:
		return ev->usec ? STOPS : PASSES;
	case IL_RTAPP_RUNTIME:
		return STOPS;
	case IL_RTAPP_BARRIER:
		return st->count > 0 ? STOPS : cond_effect(st, w);
	case IL_RTAPP_RESUME:
	case IL_RTAPP_BROAD:
	case IL_RTAPP_SIGNAL:
	case IL_RTAPP_UNLOCK:
	case IL_RTAPP_SEM_POST:
		return cond_effect(st, w);
	case IL_RTAPP_SYNC:
		return cond_effect(st, w) == WAKES ? WAKES : STOPS;
	case IL_RTAPP_LOCK:
		return st->owner ? STOPS : PASSES;
	case IL_RTAPP_SEM_WAIT:
		return st->count > 0 ? PASSES : STOPS;
	default:
		return STOPS; /* timer, suspend, wait, yield */
	}
}

/* The CPU of the first thread @t will wake once its current piece of work ends, or -1. */
static int predict_wake_cpu(const struct rt_thread *t)
{
	struct rt_cursor at = t->at;

	for (int step = 0; step < PREDICT_STEPS; step++) {
		const struct il_rtapp_phase *ph = cur_phase(t, &at);
		const struct rt_thread *w = NULL;

		if (at.ev == ph->nevents) {
			if (!cursor_wrap(t->task, &at))
				return -1;
			continue;
		}
		switch (event_effect(t, &ph->events[at.ev++], &w)) {
		case PASSES:
			continue;
		case WAKES:
			return (int)w->cpu;
		case STOPS:
			return -1;
		}
	}
	return -1;
}

/* ---- running, blocking, waking --------------------------------------------------------------- */

static void thread_resumed(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct rt_thread *t = arg;
	struct rtapp_ctx *rc = t->rc;

	if (t->count_wake) {
		rc->wakes++;
		rc->lat_sum_ns += il_sim_now(sim) - t->wake_at;
		t->count_wake = false;
	}
	thread_step(t);
}

static void piece_done(struct il_sim *sim, unsigned int cpu, void *arg)
{
	thread_step(arg);
}

/* Queue @ns of work for @t on its CPU, @clocked if it ends by the clock; @done runs then. */
static void queue_piece(struct rt_thread *t, u64 ns, il_sim_fn done, int hint, bool clocked)
{
	t->iter_used_time = true;
	if (clocked)
		il_sim_wake_clocked(t->rc->sim, t->cpu, ns, done, t, hint);
	else
		il_sim_wake(t->rc->sim, t->cpu, t->cpu, ns, done, t, hint);
}

static void queue_slice(struct rt_thread *t);

static void slice_done(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct rt_thread *t = arg;

	if (t->run_left_ns)
		queue_slice(t);
	else
		thread_step(t);
}

static void queue_slice(struct rt_thread *t)
{
	u64 n = t->run_left_ns < t->rc->slice_ns ? t->run_left_ns : t->rc->slice_ns;

	t->run_left_ns -= n;
	queue_piece(t, n, slice_done, t->run_left_ns ? -1 : predict_wake_cpu(t), t->run_clocked);
}

/* Busy for @ns; Return: whether the thread stopped running its events for now. */
static bool run_for(struct rt_thread *t, u64 ns, bool clocked)
{
	if (!ns)
		return false;
	t->run_left_ns = ns;
	t->run_clocked = clocked;
	queue_slice(t);
	return true;
}

static void block(struct rt_thread *t)
{
	struct rtapp_ctx *rc = t->rc;

	t->state = T_BLOCKED;
	t->count_wake = true;
	t->iter_used_time = true;
	rc->nr_running[t->cpu]--;
	if (rc->block_ns) /* 6. of the DOC: no thread's work, nothing to run when it ends */
		il_sim_wake(rc->sim, t->cpu, t->cpu, rc->block_ns, NULL, NULL, -1);
}

static void block_on(struct rt_thread *t, struct rt_queue *q)
{
	block(t);
	enqueue(q, t);
}

/* Make blocked @t runnable, woken from @from_cpu. */
static void wake_thread(struct rt_thread *t, unsigned int from_cpu)
{
	struct rtapp_ctx *rc = t->rc;

	if (t->state != T_BLOCKED)
		return;
	t->cpu = select_cpu(t, t->cpu);
	t->state = T_RUNNABLE;
	t->wake_at = il_sim_now(rc->sim);
	rc->nr_running[t->cpu]++;
	il_sim_wake(rc->sim, from_cpu, t->cpu, rc->switch_ns, thread_resumed, t,
		    predict_wake_cpu(t));
}

static void timer_fired(struct il_sim *sim, unsigned int cpu, void *arg)
{
	wake_thread(arg, cpu);
}

static bool sleep_until(struct rt_thread *t, u64 when)
{
	block(t);
	il_sim_timer_start(t->rc->sim, &t->timer, t->cpu, when);
	return true;
}

static void thread_exit(struct rt_thread *t)
{
	if (t->state == T_RUNNABLE)
		t->rc->nr_running[t->cpu]--;
	t->state = T_DONE;
}

/* ---- events ------------------------------------------------------------------------------ */

static struct rt_timer_ref *timer_ref(struct rt_thread *t, int res)
{
	int slot = t->rc->unique_slot[res];

	return slot >= 0 ? &t->unique[slot] : &t->rc->res[res].timer;
}

static bool timer_event(struct rt_thread *t, const struct il_rtapp_event *ev)
{
	struct rt_timer_ref *ref = timer_ref(t, ev->res);
	u64 now = il_sim_now(t->rc->sim);

	if (!ref->started) {
		ref->started = true;
		ref->next = t->t_first;
	}
	ref->next += (u64)ev->usec * NSEC_PER_USEC;
	if (now < ref->next)
		return sleep_until(t, ref->next);
	if (!t->rc->rt->res[ev->res].absolute)
		ref->next = now;
	return false;
}

/* A thread woken from a condition: it runs once it holds the mutex it waited with. */
static void cond_wakeup(struct rt_thread *w, unsigned int from_cpu)
{
	struct rt_res_state *m;

	if (w->reacquire < 0) {
		wake_thread(w, from_cpu);
		return;
	}
	m = &w->rc->res[w->reacquire];
	w->reacquire = -1;
	if (m->owner) {
		enqueue(&m->q, w); /* the unlock hands the mutex over and wakes it */
		return;
	}
	m->owner = w;
	wake_thread(w, from_cpu);
}

static void wake_first(struct rt_thread *t, int res)
{
	struct rt_thread *w = dequeue(&t->rc->res[res].q);

	if (w)
		cond_wakeup(w, t->cpu);
}

static void wake_all(struct rt_thread *t, int res)
{
	struct rt_thread *w;

	while ((w = dequeue(&t->rc->res[res].q)))
		cond_wakeup(w, t->cpu);
}

/* rt-app's barrier: the last user to arrive wakes the others and goes on. */
static bool barrier_event(struct rt_thread *t, int res)
{
	struct rt_res_state *st = &t->rc->res[res];
	struct rt_thread *w;

	if (st->count > 0) {
		st->count--;
		block_on(t, &st->q);
		return true;
	}
	while ((w = dequeue(&st->q))) {
		st->count++;
		wake_thread(w, t->cpu);
	}
	return false;
}

static void mutex_release(struct rt_thread *t, int res)
{
	struct rt_res_state *st = &t->rc->res[res];

	if (!st->owner)
		return;
	st->owner = dequeue(&st->q);
	if (st->owner)
		wake_thread(st->owner, t->cpu);
}

static bool mutex_lock(struct rt_thread *t, int res)
{
	struct rt_res_state *st = &t->rc->res[res];

	if (!st->owner) {
		st->owner = t;
		return false;
	}
	block_on(t, &st->q); /* also when @t holds it: a default pthread mutex deadlocks */
	return true;
}

static bool cond_wait(struct rt_thread *t, int cond, int mutex)
{
	bool holds = t->rc->res[mutex].owner == t;

	block_on(t, &t->rc->res[cond].q);
	t->reacquire = holds ? mutex : -1;
	if (holds)
		mutex_release(t, mutex);
	return true;
}

static void sem_post(struct rt_thread *t, int res)
{
	struct rt_res_state *st = &t->rc->res[res];
	struct rt_thread *w = dequeue(&st->q);

	if (w)
		wake_thread(w, t->cpu);
	else
		st->count++;
}

static bool sem_wait(struct rt_thread *t, int res)
{
	struct rt_res_state *st = &t->rc->res[res];

	if (st->count > 0) {
		st->count--;
		return false;
	}
	block_on(t, &st->q);
	return true;
}

/*
 * How long a run or runtime event keeps the CPU busy. rt-app's runtime spins in chunks of
 * RUNTIME_CHUNK_US until the time has passed, checking the clock after each chunk: at least
 * one chunk, and a whole number of them.
 */
static u64 run_ns(const struct rtapp_ctx *rc, const struct il_rtapp_event *ev)
{
	u64 us = (u64)ev->usec;

	if (ev->type == IL_RTAPP_RUN)
		return us * NSEC_PER_USEC * rc->run_mult / rc->run_div;
	us = us ? (us + RUNTIME_CHUNK_US - 1) / RUNTIME_CHUNK_US * RUNTIME_CHUNK_US :
		  RUNTIME_CHUNK_US;
	return us * NSEC_PER_USEC;
}

/* Run @ev; Return: whether the thread stopped (work queued or blocked). */
static bool run_event(struct rt_thread *t, const struct il_rtapp_event *ev)
{
	u64 now = il_sim_now(t->rc->sim);

	switch (ev->type) {
	case IL_RTAPP_RUN:
	case IL_RTAPP_RUNTIME:
		return run_for(t, run_ns(t->rc, ev), ev->type == IL_RTAPP_RUNTIME);
	case IL_RTAPP_SLEEP:
		return ev->usec && sleep_until(t, now + (u64)ev->usec * NSEC_PER_USEC);
	case IL_RTAPP_TIMER:
		return timer_event(t, ev);
	case IL_RTAPP_BARRIER:
		return barrier_event(t, ev->res);
	case IL_RTAPP_SUSPEND:
		t->reacquire = -1;
		block_on(t, &t->rc->res[ev->res].q);
		return true;
	case IL_RTAPP_RESUME:
	case IL_RTAPP_BROAD:
		wake_all(t, ev->res);
		return false;
	case IL_RTAPP_SIGNAL:
		wake_first(t, ev->res);
		return false;
	case IL_RTAPP_SYNC:
		wake_first(t, ev->res);
		return cond_wait(t, ev->res, ev->mutex);
	case IL_RTAPP_WAIT:
		return cond_wait(t, ev->res, ev->mutex);
	case IL_RTAPP_LOCK:
		return mutex_lock(t, ev->res);
	case IL_RTAPP_UNLOCK:
		mutex_release(t, ev->res);
		return false;
	case IL_RTAPP_YIELD:
		queue_piece(t, 1, piece_done, -1, false);
		return true;
	case IL_RTAPP_SEM_POST:
		sem_post(t, ev->res);
		return false;
	case IL_RTAPP_SEM_WAIT:
		return sem_wait(t, ev->res);
	}
	return false;
}

/*
 * At the start of a phase iteration rt-app sets the phase's affinity: move if it excludes
 * the CPU.
 */
static bool migrate_if_needed(struct rt_thread *t)
{
	struct rtapp_ctx *rc = t->rc;
	unsigned int from = t->cpu;

	if (allowed(thread_affinity(t), from))
		return false;
	t->cpu = select_cpu(t, from);
	rc->nr_running[from]--;
	rc->nr_running[t->cpu]++;
	t->iter_used_time = true;
	il_sim_wake(rc->sim, from, t->cpu, rc->switch_ns, thread_resumed, t, predict_wake_cpu(t));
	return true;
}

/* Run @t's events from where it is until it queues work, blocks or ends. */
static void thread_step(struct rt_thread *t)
{
	struct rtapp_ctx *rc = t->rc;

	for (;;) {
		const struct il_rtapp_phase *ph = cur_phase(t, &t->at);

		if (il_sim_now(rc->sim) >= rc->stop_ns) {
			thread_exit(t);
			return;
		}
		if (t->at.ev == 0 && migrate_if_needed(t))
			return;
		if (t->at.ev < ph->nevents) {
			if (run_event(t, &ph->events[t->at.ev++]))
				return;
			continue;
		}
		if (!t->iter_used_time) {
			queue_piece(t, LOOP_GUARD_NS, piece_done, -1, false);
			return;
		}
		if (!cursor_wrap(t->task, &t->at)) {
			thread_exit(t);
			return;
		}
		t->iter_used_time = false;
	}
}

/* ---- setup ------------------------------------------------------------------------------- */

/* The CPUs each task's phases may run on (NULL entries: all). */
static int build_affinity(struct rtapp_ctx *rc)
{
	const struct il_rtapp *rt = rc->rt;
	int nphases = 0, k = 0;

	rc->phase_base = calloc((size_t)rt->ntasks, sizeof(*rc->phase_base));
	for (int t = 0; t < rt->ntasks; t++)
		nphases += rt->tasks[t].nphases;
	rc->aff = calloc((size_t)nphases, sizeof(*rc->aff));
	rc->aff_bits = calloc((size_t)nphases * rc->ncpus, sizeof(*rc->aff_bits));
	if (!rc->phase_base || !rc->aff || !rc->aff_bits)
		return -1;
	for (int t = 0; t < rt->ntasks; t++) {
		rc->phase_base[t] = k;
		for (int p = 0; p < rt->tasks[t].nphases; p++, k++) {
			const struct il_rtapp_cpus *c = rt->tasks[t].phases[p].cpus.n ?
				&rt->tasks[t].phases[p].cpus : &rt->tasks[t].cpus;
			bool *bits = rc->aff_bits + (size_t)k * rc->ncpus;

			for (int i = 0; i < c->n; i++)
				bits[c->cpu[i]] = true;
			rc->aff[k] = c->n ? bits : NULL;
		}
	}
	return 0;
}

/* Resource state: barriers await every user but the last; unique timers get a slot. */
static int build_resources(struct rtapp_ctx *rc)
{
	const struct il_rtapp *rt = rc->rt;

	rc->res = calloc((size_t)rt->nres + 1, sizeof(*rc->res));
	rc->unique_slot = calloc((size_t)rt->nres + 1, sizeof(*rc->unique_slot));
	if (!rc->res || !rc->unique_slot)
		return -1;
	for (int i = 0; i < rt->nres; i++) {
		if (rt->res[i].type == IL_RTAPP_RES_BARRIER)
			rc->res[i].count = rt->res[i].users - 1;
		rc->unique_slot[i] = rt->res[i].type == IL_RTAPP_RES_TIMER && rt->res[i].task >= 0 ?
					     rc->nunique++ : -1;
	}
	rc->unique_refs =
		calloc((size_t)rc->nthreads * (size_t)rc->nunique + 1, sizeof(*rc->unique_refs));
	return rc->unique_refs ? 0 : -1;
}

/* Thread @t starts at rt-app's start plus its delay: now, or blocked on a timer until then. */
static int start_thread(struct rtapp_ctx *rc, struct rt_thread *t)
{
	t->cpu = select_cpu(t, t->id % rc->ncpus);
	t->reacquire = -1;
	il_sim_timer_init(&t->timer, timer_fired, t);
	if (!t->task->loop) {
		t->state = T_DONE; /* rt-app runs a task with "loop": 0 zero times */
		return 0;
	}
	t->t_first = rc->start_ns + (u64)(t->task->delay_us > 0 ? t->task->delay_us : 0) *
					     NSEC_PER_USEC;
	if (t->t_first > 0) {
		t->state = T_BLOCKED;
		return il_sim_timer_start(rc->sim, &t->timer, t->cpu, t->t_first);
	}
	t->state = T_RUNNABLE;
	rc->nr_running[t->cpu]++;
	return il_sim_wake(rc->sim, t->cpu, t->cpu, rc->switch_ns, thread_resumed, t, -1);
}

static int start_threads(struct rtapp_ctx *rc)
{
	const struct il_rtapp *rt = rc->rt;
	unsigned int n = 0;

	for (int k = 0; k < rt->ntasks; k++) {
		for (s64 i = 0; i < rt->tasks[k].instances; i++, n++) {
			struct rt_thread *t = &rc->threads[n];

			t->rc = rc;
			t->task = &rt->tasks[k];
			t->task_idx = k;
			t->id = n;
			t->unique = rc->unique_refs + (size_t)n * (size_t)rc->nunique;
			if (start_thread(rc, t))
				return -1;
		}
	}
	return 0;
}

/* The run's settings from its parameters; needs rc->sim (the start's draw) and rc->rt. */
static void rtapp_params_set(struct rtapp_ctx *rc, const struct il_scn_args *args)
{
	rc->start_ns = il_scn_start_ns(rc->sim, args->v[P_PHASE], 4); /* 1. of the DOC */
	rc->switch_ns = (u64)args->v[P_SWITCH];
	rc->block_ns = (u64)args->v[P_BLOCK];
	rc->slice_ns = (u64)args->v[P_SLICE] * NSEC_PER_USEC;
	rc->run_mult = rc->run_div = 1;
	if (args->v[P_NS_PER_LOOP] && rc->rt->calib_ns_per_loop) {
		rc->run_mult = (u64)args->v[P_NS_PER_LOOP];
		rc->run_div = (u64)rc->rt->calib_ns_per_loop;
	}
	rc->stop_ns = rc->rt->duration_s > 0 ?
			      rc->start_ns + (u64)rc->rt->duration_s * NSEC_PER_SEC : UINT64_MAX;
}

static int rtapp_setup(struct il_sim *sim, void *ctx, const struct il_scn_args *args)
{
	struct rtapp_ctx *rc = ctx;
	struct il_error err;

	if (il_rtapp_load_file(args->operand, &rc->rt, &err)) {
		errno = EINVAL; /* il_scn_parse() has read the file already and shown the message */
		return -1;
	}
	rc->sim = sim;
	rc->ncpus = il_sim_ncpus(sim);
	if (rc->rt->max_cpu >= (int)rc->ncpus) {
		errno = EINVAL; /* the file changed since rtapp_check() grew the machine */
		return -1;
	}
	rtapp_params_set(rc, args);
	rc->nthreads = (unsigned int)rc->rt->nthreads;
	rc->threads = calloc(rc->nthreads, sizeof(*rc->threads));
	rc->nr_running = calloc(rc->ncpus, sizeof(*rc->nr_running));
	if (!rc->threads || !rc->nr_running || build_affinity(rc) || build_resources(rc)) {
		errno = ENOMEM;
		return -1;
	}
	if (il_bg_start_default(sim, args->v[P_BG], &args->v[P_BG_SHAPE], 2, &rc->bg))
		return -1;
	return start_threads(rc);
}

static void rtapp_cleanup(void *ctx)
{
	struct rtapp_ctx *rc = ctx;

	il_bg_free(rc->bg);
	free(rc->threads);
	free(rc->nr_running);
	free(rc->phase_base);
	free(rc->aff);
	free(rc->aff_bits);
	free(rc->res);
	free(rc->unique_slot);
	free(rc->unique_refs);
	il_rtapp_free(rc->rt);
}

static double rtapp_score(const struct il_sim *sim, const void *ctx)
{
	const struct rtapp_ctx *rc = ctx;

	return rc->wakes ? (double)rc->lat_sum_ns / 1e3 / (double)rc->wakes : 0.0;
}

/*
 * Parse time: read the file (its errors carry their position). The machine is the
 * platform's, as a real one would be: a "cpus" list naming a CPU beyond it is refused
 * (il_lab_check_cpus()) unless cpus=N sets a larger machine (the 12-CPU ring on the 2-CPU VM
 * platform: cpus=12), and cpus=N must leave those CPUs in.
 */
static int rtapp_check(const struct il_scn_args *args, struct il_scn_common *common,
		       struct il_error *err)
{
	struct il_rtapp *rt;
	int ret = 0;

	if (il_rtapp_load_file(args->operand, &rt, err))
		return -1;
	if (common->cpus && rt->max_cpu >= (int)common->cpus)
		ret = il_error_set(err, rt->max_cpu_where, 0,
				   "CPU %d is not one of the cpus=%u simulated", rt->max_cpu,
				   common->cpus);
	common->min_cpus = (unsigned int)(rt->max_cpu + 1);
	snprintf(common->min_cpus_where, sizeof(common->min_cpus_where), "%s", rt->max_cpu_where);
	il_rtapp_free(rt);
	return ret;
}

/* The file's name without its directory and ".json": "pingpong-2". */
static void rtapp_label(const struct il_scn_args *args, char *buf, size_t cap)
{
	const char *base = strrchr(args->operand, '/');
	size_t len;

	base = base ? base + 1 : args->operand;
	len = strlen(base);
	if (len > 5 && !strcmp(base + len - 5, ".json"))
		len -= 5;
	snprintf(buf, cap, "%.*s", (int)len, base);
}

const struct il_scenario il_scn_rtapp = {
	.name = "rtapp",
	.summary = "an rt-app JSON workload file: rtapp:FILE.json[,k=v...]",
	.score = "wu_lat_us",
	.score_help = "mean µs from a thread's wakeup event to it running again",
	.score_prec = 3,
	.higher_is_better = false,
	.default_cpus = 0,
	.sources = "rt-app's JSON grammar (doc/tutorial.txt, Debian rt-app 1.0 and upstream); "
		   "docs/rtapp.md",
	.params = rtapp_params,
	.ctx_size = sizeof(struct rtapp_ctx),
	.setup = rtapp_setup,
	.cleanup = rtapp_cleanup,
	.score_fn = rtapp_score,
	.label = rtapp_label,
	.operand = "FILE.json",
	.check = rtapp_check,
};
