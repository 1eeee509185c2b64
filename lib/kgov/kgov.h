/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kgov.h - run an unmodified upstream cpuidle governor file in the lab, and check a port
 * against it decision by decision.
 *
 * DOC: kgov
 *
 *  1. "Build": il_kgov_build() reads an upstream drivers/cpuidle/governors/<gov>.c, writes a
 *     small wrapper that #includes it and lists its per-CPU struct under the upstream field
 *     names (the same names the ports' vars() use), and compiles the wrapper with the kernel-API
 *     shim (kshim/) into a shared object. The file itself is never edited or copied.
 *  2. "Load": il_kgov_load() dlopen()s the object, runs the file's initcall (which registers
 *     the governor) and returns a struct il_preset that runs wherever a built-in preset runs.
 *     The framework rules around the loaded governor (idle loop, QoS, polling, accounting) are
 *     those of a built-in preset it is said to behave like; by default, the built-in preset
 *     whose upstream blob is the file's, else a guess from the file's era.
 *  3. "Check": il_kgov_check() drives the loaded governor and a port with one stream of random,
 *     corner-reaching inputs (lib/kgov/gen.c), in lockstep, and compares after every select()
 *     and every reflect() the index, stop_tick, every non-diagnostic var, and the device fields
 *     the governors write. It stops at the first difference and describes it.
 */
#ifndef IDLELAB_KGOV_H
#define IDLELAB_KGOV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../cpuidle.h"
#include "../env.h"
#include "../governor.h"
#include "../error.h"

/* ---- source scan and wrapper generation (lib/kgov/scan.c) -------------------------------- */

#define KGOV_IDENT_LEN 64

/* What kgov needs to know about an upstream governor file. */
struct kgov_scan {
	char family[KGOV_IDENT_LEN];      /* .name of its struct cpuidle_governor: "menu" */
	char gov_var[KGOV_IDENT_LEN];     /* that struct's variable: "menu_governor" */
	char select_fn[KGOV_IDENT_LEN];   /* its .select function: "menu_select" */
	char percpu_var[KGOV_IDENT_LEN];  /* its DEFINE_PER_CPU variable, "" if none */
	char percpu_tag[KGOV_IDENT_LEN];  /* the struct tag of that variable: "menu_device" */
	bool dev_last_state_idx;          /* writes dev->last_state_idx (5.x+ and haltpoll) */
	bool dev_poll_limit_ns;           /* drives dev->poll_limit_ns (haltpoll) */
	bool stop_tick;                   /* select() takes bool *stop_tick (4.17+) */
	bool units_us;                    /* reads the 4.x µs fields (no exit_latency_ns) */
	char blob[41];                    /* git blob SHA-1 of the file ("git hash-object") */
};

/**
 * kgov_scan_source - find the governor, its select(), its per-CPU variable in @text
 * Return: 0, or -1 with @err set (no struct cpuidle_governor with .name and .select).
 */
int kgov_scan_source(const char *text, size_t len, const char *file, struct kgov_scan *scan,
		     struct il_error *err);

/**
 * kgov_write_wrapper - write the wrapper translation unit for @src to @out
 * @text: the file's text (the per-CPU struct is parsed from it)
 * @src: the absolute path the wrapper #includes
 *
 * Return: 0, or -1 with @err set.
 */
int kgov_write_wrapper(FILE *out, const char *text, size_t len, const char *src,
		       const struct kgov_scan *scan, struct il_error *err);

/** kgov_blob_sha1 - git's blob id of @len bytes: SHA-1 of "blob LEN\0" + data, 40 hex digits */
void kgov_blob_sha1(const void *data, size_t len, char hex[41]);

/* ---- build (lib/kgov/build.c) ---------------------------------------------------------- */

struct il_kgov_build_opts {
	const char *cc;       /* compiler; NULL: $CC, else "cc" */
	const char *shim_dir; /* the kshim/ directory; NULL: $IDLELAB_KSHIM_DIR, else the tree's */
	const char *extra_cflags; /* appended, split at spaces (e.g. "-DDEBUG"); may be NULL */
};

struct il_kgov_build_result {
	char command[8192];   /* the compiler command, shell-quoted, as run */
	char *log;            /* what the compiler printed (malloc'ed, may be NULL); free() it */
	struct kgov_scan scan;
};

/**
 * il_kgov_build - compile upstream governor file @src into the shared object @out
 * Return: 0, or -1 with @err set; @res->log holds the compiler's output either way.
 */
int il_kgov_build(const char *src, const char *out, const struct il_kgov_build_opts *opts,
		  struct il_kgov_build_result *res, struct il_error *err);

/** il_kgov_shim_dir - the kshim/ directory il_kgov_build() uses when none is given */
const char *il_kgov_shim_dir(void);

/* ---- load (lib/kgov/load.c) ------------------------------------------------------------ */

struct il_kgov_load_opts {
	/* The built-in preset whose framework rules and kernel version the file has; NULL: the
	 * preset with the same upstream blob, else a guess from the file's era. */
	const struct il_preset *like;
};

/**
 * il_kgov_load - load a kgov object and return it as a preset named "file:@path"
 *
 * Loading the same path again with the same @opts returns the same preset. Presets and
 * objects stay loaded until the process exits, like the built-in presets.
 * Return: the preset, or NULL with @err set.
 */
const struct il_preset *il_kgov_load(const char *path, const struct il_kgov_load_opts *opts,
				     struct il_error *err);

/**
 * il_kgov_preset_find - the preset for "PATH.so" or "PATH.so@PRESET" (what -g file: takes),
 * loading the object on first use. Return: the preset, or NULL with errno set and why in
 * @err ("PATH: cannot load: <dlerror()>", "PATH: not a kgov object ...", ...).
 */
const struct il_preset *il_kgov_preset_find(const char *spec, struct il_error *err);

/** il_kgov_is_loaded - whether @p is a preset made by il_kgov_load() */
bool il_kgov_is_loaded(const struct il_preset *p);

/* Counters of a loaded object: what the kernel would have printed, and shim errors. */
struct il_kgov_counters {
	unsigned long warns, printks, shim_errors;
};
int il_kgov_counters(const struct il_preset *p, struct il_kgov_counters *c);

/** il_kgov_source - the path of the upstream file a loaded preset was built from, or NULL */
const char *il_kgov_source(const struct il_preset *p);

/** il_kgov_blob - the git blob id of the file a loaded preset was built from, or NULL */
const char *il_kgov_blob(const struct il_preset *p);

/** il_kgov_like - the built-in preset a loaded preset follows, or NULL */
const struct il_preset *il_kgov_like(const struct il_preset *p);

/** il_kgov_find_by_blob - the built-in preset whose upstream file has blob @hex, or NULL */
const struct il_preset *il_kgov_find_by_blob(const char *hex, const char *family);

/* ---- the framework a patch is judged under (lib/kgov/frame.c) ------------------------------ */

enum il_kgov_fw_why {
	IL_KGOV_FW_BLOB = 1,  /* the preset whose upstream file is the base file */
	IL_KGOV_FW_TREE,      /* the preset of the tree's version */
	IL_KGOV_FW_AS,        /* the preset the user gave (--as) */
	IL_KGOV_FW_FALLBACK,  /* the caller's fallback (a preset as base, the era's guess) */
};

struct il_kgov_framework_query {
	const char *family;        /* the base file's governor: "menu" */
	const char *blob;          /* the base file's git blob (40 hex), NULL if none */
	const char *base_name;     /* for messages */
	int tree_kver;             /* IL_KV() of the tree's top Makefile, 0 if none */
	const struct il_preset *as; /* the user's choice, NULL if none */
	const struct il_preset *fallback; /* used last; NULL: no choice is an error */
	const char *fallback_reason;
};

struct il_kgov_framework {
	const struct il_preset *preset; /* whose rules both sides run under */
	enum il_kgov_fw_why why;
	char reason[256];               /* why that preset, one clause (IL_KGOV_FW_AS: the base
					 * file's blob; the caller says it gave the preset) */
};

/**
 * il_kgov_framework_choose - the one preset whose framework rules both sides of a patch run
 * under: the base file's blob, else the tree's version, else --as, else @q->fallback
 * Return: 0, or -1 with @err set (nothing decides: the message asks for --as).
 */
int il_kgov_framework_choose(const struct il_kgov_framework_query *q,
			     struct il_kgov_framework *fw, struct il_error *err);

/**
 * il_kgov_parse_makefile_version - VERSION, PATCHLEVEL and SUBLEVEL of a kernel's top Makefile
 * @version: "6.12.117"
 * Return: 0, or -1 when VERSION or PATCHLEVEL is missing or not a number.
 */
int il_kgov_parse_makefile_version(const char *text, int *kver, char *version, size_t cap);

/* ---- random inputs (lib/kgov/gen.c) ---------------------------------------------------- */

/*
 * The version of the input stream: what gen.c draws and how check.c's runs consume it
 * (RUN_LENGTH, the tick rule, the parameter draws). Golden vectors store only decisions and
 * regenerate the inputs from (this version, seed), so any change that alters the stream for
 * some seed must bump it. Every older version stays reproducible (struct kgov_frame's
 * generator), so the vectors recorded with it keep verifying:
 *   1: the stream of the first vectors;
 *   2: + "tie runs" (gen.c, DOC item 6): half of the runs drift the shares of tick wakeups
 *      and early wakeups through the ratios governors test, so the decaying per-CPU sums
 *      reach their ties (teo's 3 * total_tick vs 2 * total); menu's MAX_INTERESTING bound;
 *   3: + "banded" tie runs (half of the tie runs): the early share walks within 2..4 points
 *      of 1/2, 5/8 or 2/3, few tick wakeups, the tick mostly running and half of the timers
 *      beyond the tick, so teo-6.13's intercept sums sit on their 5/8 and 1/2 ties;
 *   4: + in a quarter of the random tables one state needs exactly TICK_NSEC (or one ns
 *      less or more), where teo's residency-against-tick tests decide on an equality.
 */
#define KGOV_GEN_VERSION 4
#define KGOV_GEN_OLDEST 1

struct kgov_rng {
	u64 s;
};

void kgov_rng_seed(struct kgov_rng *r, u64 seed);
u64 kgov_rng_next(struct kgov_rng *r);
/** kgov_rng_range - uniform in [lo, hi] (lo <= hi) */
s64 kgov_rng_range(struct kgov_rng *r, s64 lo, s64 hi);
/** kgov_rng_chance - true with probability @num / @den */
bool kgov_rng_chance(struct kgov_rng *r, unsigned int num, unsigned int den);

/* The rules of the framework a generated stream must respect. */
struct kgov_frame {
	int min_states;      /* 2 for the 6.19.9 and 7.0+ idle loops, else 1 */
	bool units_us;       /* 4.x: also vary drv->states[].disabled, nr_iowait and load */
	bool sleep_4_16;     /* 4.16: one sleep length, the tick already stopped if it could be */
	int generator;       /* the stream's version, KGOV_GEN_OLDEST .. KGOV_GEN_VERSION */
};

/** kgov_frame_of - the input rules for @preset's framework (generator: KGOV_GEN_VERSION) */
void kgov_frame_of(const struct il_preset *preset, struct kgov_frame *f);

/** kgov_gen_driver - a random state table (1..10 states, see gen.c) and its HZ */
void kgov_gen_driver(struct kgov_rng *r, const struct kgov_frame *f, struct il_driver *drv,
		     unsigned int *hz);

/** kgov_gen_disables - random per-device disable bits for @drv (state 0 mostly enabled) */
void kgov_gen_disables(struct kgov_rng *r, const struct il_driver *drv,
		       unsigned long long disable[CPUIDLE_STATE_MAX]);

/*
 * The workload of a run: random residencies, or a periodic one (what get_typical_interval()
 * looks for): a base period with some jitter, and outliers that repeat exactly, above or
 * below the period.
 */
struct kgov_pattern {
	bool periodic;
	s64 base_ns;          /* the period */
	s64 jitter_ns;        /* +- around it */
	s64 outlier_ns[2];    /* outlier values, each repeating exactly */
	unsigned int outlier_pct;
	/*
	 * Generator 2, a "tie run": the tick woke the CPU in got_tick_pct % of the periods, and
	 * the others end early (well before the sleep length) in early_pct % of them and just
	 * after it otherwise, so hit, intercept and tick-wakeup shares settle near a threshold.
	 */
	bool tie_run;
	unsigned int got_tick_pct, early_pct;
	/*
	 * Generator 3, a "banded" tie run: the early share walks within early_lo..early_hi
	 * around one of the ratios (1/2, 5/8, 2/3), so the sums cross it again and again instead
	 * of drifting away; few tick wakeups, the tick mostly running, timers often beyond it.
	 */
	unsigned int early_lo, early_hi;
	bool banded;
	int generator;        /* the frame's, for kgov_gen_outcome() */
};

/** kgov_gen_pattern - choose a run's workload (what it draws depends on @f->generator) */
void kgov_gen_pattern(struct kgov_rng *r, const struct kgov_frame *f, struct kgov_pattern *pat);

/* What the kernel shows a governor during one idle period. */
struct kgov_step {
	s64 sleep_ns;        /* tick_nohz_get_sleep_length() */
	s64 delta_next_ns;   /* its *delta_next */
	bool tick_stopped;
	bool got_tick;       /* pending when reflect/select reads it */
	struct il_qos qos;
	unsigned long nr_iowait, load;
	u64 clock_ns;        /* local_clock() at select */
	/* the outcome of entering the chosen state */
	bool rejected;       /* the entry failed: no reflect, last_residency_ns = 0 */
	s64 residency_ns;    /* measured idle time */
	bool poll_timeout;   /* a polling state ended on its time limit */
	u64 exit_clock_ns;   /* local_clock() at reflect */
	int toggle_state;    /* >= 0: flip usage[toggle_state].disable before this step */
};

/**
 * kgov_gen_step - random inputs for one idle period on @drv
 * @prev_clock: local_clock() after the previous step
 *
 * The residency is drawn after the index is known (kgov_gen_outcome()); this fills the
 * inputs only.
 */
void kgov_gen_step(struct kgov_rng *r, const struct kgov_frame *f, const struct il_driver *drv,
		   const struct il_env *env, struct kgov_pattern *pat, u64 prev_clock,
		   struct kgov_step *st);

/**
 * kgov_gen_outcome - draw the result of entering state @idx (residency, rejection, poll
 * timeout) under workload @pat (NULL: random)
 */
void kgov_gen_outcome(struct kgov_rng *r, const struct il_driver *drv, const struct il_env *env,
		      int idx, const struct kgov_pattern *pat, struct kgov_step *st);

/* ---- lockstep check (lib/kgov/check.c) ------------------------------------------------- */

/* Where a check is, readable from a signal handler (a watchdog for a governor that hangs). */
struct il_kgov_progress {
	volatile unsigned long long decisions; /* select() pairs started */
	volatile const char *in;               /* "upstream select", "port reflect", ... or NULL */
};

/* What one governor did in one step of a solo run (il_kgov_run()), shown to an observer. */
struct il_kgov_step_view {
	unsigned int run;
	unsigned long long step;          /* 0-based within the run */
	unsigned long long decision;      /* 0-based over the whole run */
	int idx;                          /* select()'s result */
	bool stop_tick;
	bool run_ended;                   /* idx is outside the state table: the run ends here */
	const struct il_device *dev;
	const struct il_var *vars;        /* the governor's vars() now (after select or reflect) */
	int nvars;
	/* the names to digest, in order: a reference preset's non-diag vars (opts.names_from),
	 * or NULL for the governor's own non-diag vars */
	const struct il_var *names;
	int nnames;
	int sleep_queries;                /* tick_nohz_get_sleep_length() calls in this step */
	bool got_tick_pending;
};

/* Called by il_kgov_run(); a non-zero return stops the run and is returned by it. */
struct il_kgov_observer {
	int (*after_select)(void *ctx, const struct il_kgov_step_view *v);
	/* after reflect (or after select when the entry was rejected or the run ended) */
	int (*step_done)(void *ctx, const struct il_kgov_step_view *v);
	void *ctx;
};

struct il_kgov_check_opts {
	u64 seed;
	unsigned long long steps;        /* decisions to compare, in runs of a few thousand steps,
					  * each with a fresh platform, devices and workload */
	const char *platform; /* -p: a built-in platform or a file; NULL: random tables */
	int generator;                   /* input stream version; 0: KGOV_GEN_VERSION */
	bool check_reflect;              /* also compare after every reflect() (default on) */
	struct il_kgov_progress *progress; /* may be NULL */
	/* il_kgov_run() only: */
	const struct il_kgov_observer *observer;
	const struct il_preset *names_from; /* digest these non-diag var names (NULL: own) */
};

/* The first difference found. */
struct il_kgov_mismatch {
	unsigned int run;
	unsigned long long step;         /* 0-based step within the run */
	const char *phase;               /* "select" or "reflect" */
	char what[256];                  /* "index 2 != 1", "var intervals[3] 5 != 7", ... */
	char *report;                    /* full description (malloc'ed); free() it */
};

struct il_kgov_check_result {
	unsigned long long decisions;    /* select() calls compared */
	unsigned long long comparisons;  /* vars compared, in total */
	unsigned int runs;
	int vars_compared;               /* distinct var names compared */
	char not_compared[512];          /* upstream vars the port does not show */
	bool mismatch;
	struct il_kgov_mismatch first;
	/* runs ended because both sides returned an index outside the state table */
	unsigned int invalid_index_runs;
	char invalid_index[160];         /* the first such case */
};

/**
 * il_kgov_check - run @upstream (a loaded file) and @port in lockstep on random inputs
 * Return: 0 if no difference was found, 1 on a mismatch (@res->first describes it), -1 on
 * error (@err set: unknown platform, bind failure, a platform the framework cannot run).
 */
int il_kgov_check(const struct il_preset *upstream, const struct il_preset *port,
		  const struct il_kgov_check_opts *opts, struct il_kgov_check_result *res,
		  struct il_error *err);

/**
 * il_kgov_run - run one governor alone on the input stream il_kgov_check() would give it
 *
 * The stream depends only on the seed, the steps, the platform option, the framework rules
 * and the parameter table of @gov (of the preset it is loaded like, for a kgov file) and on
 * @gov's own decisions, so two governors that decide alike see the same stream: this is what
 * golden vectors (lib/kgov/vector.c) record and replay. @opts->observer sees every step.
 * Return: 0, the observer's non-zero return, or -1 on error (@err set).
 */
int il_kgov_run(const struct il_preset *gov, const struct il_kgov_check_opts *opts,
		struct il_kgov_check_result *res, struct il_error *err);

/** il_kgov_check_result_free - free what il_kgov_check() allocated in @res */
void il_kgov_check_result_free(struct il_kgov_check_result *res);

/* ---- decision-level impact (lib/kgov/check.c, il_kgov_diff()) ---------------------------- */

/* One select() where the two governors decided differently. */
struct il_kgov_diff_case {
	unsigned int run;
	unsigned long long step;          /* 0-based within the run */
	unsigned long long decision;      /* 0-based over the whole diff */
	struct il_driver drv;             /* the run's state table */
	unsigned int hz;
	unsigned long long disable[CPUIDLE_STATE_MAX];
	struct kgov_step in[2];           /* each side's inputs and outcome (its own tick state) */
	int idx[2];
	bool stop_tick[2];
	struct il_var vars[2][IL_MAX_VARS]; /* each side's vars() right after this select() */
	int nvars[2];
};

/*
 * Where decisions differ: the differing decisions counted by a few input features of the
 * period (as OLD saw it), one bucket per combination (bit i set: feature i holds).
 */
enum il_kgov_feature {
	IL_KGOV_FEAT_TICK_STOPPED,  /* the tick was stopped at select() */
	IL_KGOV_FEAT_SHORT_SLEEP,   /* the sleep length was below TICK_NSEC */
	IL_KGOV_FEAT_QOS_LIMITED,   /* the latency limit below the deepest state's exit latency */
	IL_KGOV_FEAT_POLLING,       /* either side chose a polling state */
	IL_KGOV_FEAT_COUNT,
};

/**
 * il_kgov_feature_name - "tick stopped" / "tick running", "sleep < TICK_NSEC" / "sleep >=
 * TICK_NSEC", "QoS-limited" / "no QoS limit", "polling state" / "no polling state"
 */
const char *il_kgov_feature_name(enum il_kgov_feature f, bool holds);

/**
 * il_kgov_features_sorted - the non-empty buckets of @by_features, largest first (ties: lower
 * key first) into @keys; Return: how many
 */
unsigned int il_kgov_features_sorted(const unsigned long long *by_features, unsigned int *keys);

/** kgov_features_text - "tick stopped, sleep < TICK_NSEC, no QoS limit, no polling state" */
void kgov_features_text(unsigned int key, char *buf, size_t cap);

struct il_kgov_diff_result {
	/* differing decisions per combination of features (bit f: feature f holds) */
	unsigned long long by_features[1u << IL_KGOV_FEAT_COUNT];
	unsigned long long decisions;      /* select() pairs */
	unsigned long long idx_differ;     /* ... whose index differs */
	unsigned long long stop_tick_differ; /* ... whose stop_tick differs */
	unsigned long long any_differ;     /* ... where either differs */
	bool compared_stop_tick;           /* false when a side has no stop_tick (4.16) */
	unsigned int runs;
	unsigned int ended_runs;           /* runs ended early: a side chose no valid state */
	struct il_kgov_diff_case *cases;   /* the first differing decisions (malloc'ed) */
	unsigned int ncases;
};

/**
 * il_kgov_diff - run @old and @new on one input stream, each with its own state, and count
 * the select() decisions where they differ
 * @show: how many differing decisions to keep in @res->cases
 *
 * Both see the same inputs and, after select(), the same outcome (residency, rejection; a
 * poll time limit only where the chosen state polls); each keeps its own tick state, which
 * follows its own stop_tick as in il_kgov_check(). Nothing stops at a difference. The
 * stream follows @old's choices, so il_kgov_diff(a, a) sees il_kgov_run(a)'s stream, and the
 * framework rules are @old's. @opts->observer and names_from are not used.
 * Return: 0, or -1 with @err set.
 */
int il_kgov_diff(const struct il_preset *old, const struct il_preset *new,
		 const struct il_kgov_check_opts *opts, unsigned int show,
		 struct il_kgov_diff_result *res, struct il_error *err);

/* Recorded idle periods, one sequence per CPU, for il_kgov_diff_replay(). */
struct il_kgov_diff_script {
	const struct il_driver *drv;
	unsigned int hz;
	unsigned int ncpus;
	const struct kgov_step *const *steps; /* [cpu][i]: inputs and outcome of period i */
	const unsigned long long *nsteps;     /* [cpu] */
};

/**
 * il_kgov_diff_replay - il_kgov_diff() over recorded periods instead of random ones
 *
 * Open loop, like `idlelab replay`: every CPU is a run with fresh devices; both governors get
 * each period's inputs, its recorded tick state and its recorded outcome, whatever they pick.
 * Return: 0, or -1 with @err set.
 */
int il_kgov_diff_replay(const struct il_preset *old, const struct il_preset *new,
			const struct il_kgov_diff_script *script, unsigned int show,
			struct il_kgov_diff_result *res, struct il_error *err);

struct il_lab_spec;

/**
 * il_kgov_diff_lab - il_kgov_diff_replay() over the idle periods of one lab run
 * @spec: the run (platform, scenario, duration, seed); its preset is @old, which drives it
 *
 * The run is simulated once with @old; a wrapper around @old's select() notes what the
 * kernel showed it (sleep length, delta_next, tick state, QoS, clock) and the simulator's
 * period observer the outcome (residency, tick wakeup, poll limit, rejection). Periods the
 * idle loop ran without the governor (single-state bypass) are not decisions and are left
 * out. Not reentrant on one thread (the wrapper finds its recorder through a per-thread
 * static); several threads may each run one.
 * Return: 0, or -1 with @err set.
 */
int il_kgov_diff_lab(const struct il_preset *old, const struct il_preset *new,
		     const struct il_lab_spec *spec, unsigned int show,
		     struct il_kgov_diff_result *res, struct il_error *err);

/** il_kgov_diff_result_free - free what il_kgov_diff() allocated in @res */
void il_kgov_diff_result_free(struct il_kgov_diff_result *res);

/* ---- golden decision vectors (lib/kgov/vector.c) ----------------------------------------- */

#define KGOV_VEC_FORMAT 1
#define KGOV_VEC_BLOCK 1024      /* decisions per var digest */
#define KGOV_VEC_CHECKPOINTS 4   /* full var dumps per file (plus one at the end) */

/* The text header of a vector file. */
struct kgov_vec_header {
	int format;                  /* KGOV_VEC_FORMAT */
	int generator;               /* KGOV_GEN_VERSION of the recording */
	unsigned long long seed, steps;
	char platform[128];          /* "random", or the -p argument */
	char blob[41];               /* git blob of the upstream file recorded */
	char preset[64];             /* the preset whose framework rules it ran under */
	char family[16];
	unsigned int block;          /* decisions per digest */
	unsigned int checkpoint_every; /* blocks between full var dumps */
};

/* A growable byte buffer. */
struct kgov_buf {
	unsigned char *data;
	size_t len, cap;
};

void kgov_buf_free(struct kgov_buf *b);

/**
 * il_kgov_record - run @upstream (a loaded file) alone and encode its decisions as a vector
 * @as: the built-in preset whose framework rules it runs under and whose non-diag var names
 *      are digested (the port the vector will be verified against)
 * @opts: seed, steps, platform (observer and names_from are set here)
 *
 * Return: 0 with @out filled, or -1 with @err set.
 */
int il_kgov_record(const struct il_preset *upstream, const struct il_preset *as,
		   const struct il_kgov_check_opts *opts, struct kgov_buf *out,
		   struct il_kgov_check_result *res, struct il_error *err);

/** kgov_vec_parse_header - parse @data's header; *@body: offset of the binary body */
int kgov_vec_parse_header(const unsigned char *data, size_t len, struct kgov_vec_header *h,
			  size_t *body, struct il_error *err);

struct il_kgov_verify_result {
	unsigned long long verified;  /* decisions that matched the vector */
	bool mismatch;
	char *report;                 /* the first difference (malloc'ed); free() it */
};

/**
 * il_kgov_verify - replay the vector in @data against @port
 * Return: 0 all decisions and digests match, 1 a difference (@vr->report), -1 error (@err:
 * malformed file, other generator version or family).
 */
int il_kgov_verify(const unsigned char *data, size_t len, const struct il_preset *port,
		   struct kgov_vec_header *h, struct il_kgov_verify_result *vr,
		   struct il_error *err);

#endif /* IDLELAB_KGOV_H */
