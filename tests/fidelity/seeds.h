/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * seeds.h - tests/fidelity/seeds.tsv, the seeds' measurements, read and checked against the
 * library: every platform, governor preset and scenario spec must exist, every metric must
 * be one the scoreboard (fidelity.c) knows how to compute from a lab run.
 *
 * One line per number the seeds report, tab-separated, with a header line naming the
 * columns and '#' comment lines:
 *
 *   group       the row group: the seeds' comparisons are every pair of governors in a group
 *   source      seeds/FILE:LINE of the number
 *   platform    the built-in platform that models the seeds' machine
 *   scenario    the scenario spec (what `-s` takes) that models the test
 *   gov         the preset that models the seeds' kernel, "-" when none does
 *   seeds_label the seeds' own name for it (menu-m, 6.17-rc3, Teo No Patch ...)
 *   iter        the seeds' iteration, "-" for a single (averaged) figure
 *   metric      what the number is (FID_METRICS below; counts are per seed_s seconds)
 *   value       the number
 *   seed_s      the seeds' run length in seconds for counts, "-" when not a count or unknown
 *   lab_s       the simulated seconds of each lab run
 *   magnitude   "yes" when the size is comparable, else "no: WHY" (directions still are)
 */
#ifndef IDLELAB_FIDELITY_SEEDS_H
#define IDLELAB_FIDELITY_SEEDS_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>

#define FID_NAME 64
#define FID_SPEC 192
#define FID_NOTE 256

struct fid_row {
	unsigned int line;          /* line in seeds.tsv */
	char group[FID_NAME];
	char source[FID_NAME];
	char platform[FID_NAME];
	char scenario[FID_SPEC];
	char gov[FID_NAME];         /* "-": no preset */
	char label[FID_NAME];
	int iter;                   /* -1: a single figure */
	char metric[FID_NAME];      /* as written, e.g. "irq_fall_pct@jbb:timer_pct=100" */
	char base[FID_SPEC];        /* the part after '@', "" if none */
	int kind;                   /* enum fid_metric */
	int state;                  /* the N of *_stateN metrics, else -1 */
	double value;
	double seed_s;              /* 0: "-" */
	double lab_s;
	bool magnitude;
	char why[FID_NOTE];         /* after "no: " */
};

enum fid_metric {
	FID_SCORE,          /* the scenario's score */
	FID_IDLES,          /* idle periods (per second when seed_s is given) */
	FID_IDLE_MISSES,    /* above + below */
	FID_COL_BELOWS,     /* the seeds' belows column: the kernel's above counter */
	FID_COL_ABOVES,     /* the seeds' aboves column: the kernel's below counter */
	FID_JOULES,         /* energy; per second (watts) when seed_s is given */
	FID_WATTS,
	FID_ABOVE_PCT,      /* 100 * above / usage, of CPU 1 (cpuidle_wakeup's wakee) */
	FID_BELOW_PCT,
	FID_POLL_PCT,       /* state 0's share of the idle time */
	FID_USAGE_STATE,    /* usage of state N */
	FID_PN_COUNT_STATE, /* PowerNightmares of state N */
	FID_PN_S_STATE,     /* PowerNightmare seconds of state N */
	FID_THROUGHPUT_REL, /* throughput relative to the group's row whose value is 1 */
	FID_IRQ_FALL_PCT,   /* fall of the interrupt (wakeup) rate against the run of @base */
	FID_TIMER_FALL_PCT, /* a model input (timer_pct), shown, not computed */
	FID_JOPS_FALL_PCT,  /* fall of 1/response time against the run of @base */
	FID_SWEEP_AVG_PCT,  /* a sweep's statistics against the seeds' reference governor: */
	FID_SWEEP_MAX_PCT,  /*   shown, not computed (the seeds do not give the sweep's */
	FID_SWEEP_MIN_PCT,  /*   points, only the result indices they cover) */
	FID_NMETRICS
};

struct fid_table {
	struct fid_row *rows;
	size_t n;
};

/** fid_metric_name - the name of metric @kind (without the state number) */
const char *fid_metric_name(int kind);

/**
 * fid_load - read and check @path
 * @err: "FILE:LINE: what is wrong" on failure
 * Return: 0, or -1 (nothing allocated is left in @t).
 */
int fid_load(const char *path, struct fid_table *t, char *err, size_t cap);
/** fid_load_stream - the same from an open stream @f, named @path in messages (not closed) */
int fid_load_stream(FILE *f, const char *path, struct fid_table *t, char *err, size_t cap);
void fid_free(struct fid_table *t);

#endif /* IDLELAB_FIDELITY_SEEDS_H */
