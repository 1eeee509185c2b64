/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * review.h - `idlelab review`: from a governor patch to what a linux-pm reviewer asks of it.
 *
 * DOC: review
 *
 *  1. The patch (lib/review/patch.c): a unified diff or one `git format-patch` / mbox
 *     message, its subject and message kept. Each file it touches is a governor file
 *     (drivers/cpuidle/governors/NAME.c: reviewed), a header next to them (applied, not
 *     reviewed on its own) or a file idlelab cannot judge (refused with the reason). The
 *     governor part is applied with GNU patch in a temporary copy of the tree's
 *     drivers/cpuidle/governors/; nothing of the tree is written.
 *  2. Both sides run under one framework (lib/kgov/frame.c): the base file's blob, else the
 *     tree's top Makefile version, else --as.
 *  3. The verdict (il_review_verdict()) and, for each called cell, the mechanism
 *     (il_review_mechanism(): state usage, aboves, belows, tick stops of both sides).
 *  4. Real traces replayed through both sides (il_review_trace_replay(), lib/replay): the
 *     ones installed with idlelab (il_review_shipped_traces()) and the user's.
 *  5. The review as tables a verdict JSON holds, plus the mechanism and the traces
 *     (il_review_report_tables()): what `idlelab report` turns into the page.
 *  Nothing here prints.
 */
#ifndef IDLELAB_REVIEW_H
#define IDLELAB_REVIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "../error.h"
#include "../replay/replay.h"
#include "../trace/trace.h"
#include "../verdict/verdict.h"

#define IL_REVIEW_MAX_FILES 32
#define IL_REVIEW_PATH_LEN 512

enum il_review_file_kind {
	IL_REVIEW_GOVERNOR,  /* drivers/cpuidle/governors/NAME.c: reviewed */
	IL_REVIEW_SUPPORT,   /* a header of drivers/cpuidle/governors/: applied with them */
	IL_REVIEW_REFUSED,   /* a file idlelab cannot judge: not applied, the reason said */
};

struct il_review_file {
	char path[IL_REVIEW_PATH_LEN];   /* as in the tree: drivers/cpuidle/governors/menu.c */
	enum il_review_file_kind kind;
	char why[200];                   /* IL_REVIEW_REFUSED: the reason */
	bool created, deleted;
	size_t start, end;               /* its section of the patch text */
};

struct il_review_patch {
	char subject[512];     /* "Subject:" of a format-patch / mbox message, "" for a diff */
	char *message;         /* its commit message (malloc'ed), "" if none */
	int strip;             /* the -p of patch(1): 1 for a/ b/ paths, 0 otherwise */
	int nfiles;
	struct il_review_file files[IL_REVIEW_MAX_FILES];
	char *text;            /* the whole patch (malloc'ed) */
	size_t len;
};

/**
 * il_review_patch_parse - split @text (@len bytes, read from @name) into its files
 * Return: 0, or -1 with @err set: no file section, several patches in one mbox (the count),
 * more than IL_REVIEW_MAX_FILES files, a malformed header.
 */
int il_review_patch_parse(const char *text, size_t len, const char *name,
			  struct il_review_patch *p, struct il_error *err);
void il_review_patch_free(struct il_review_patch *p);

/**
 * il_review_patch_apply - apply the governor and support sections of @p to a copy of
 * @tree's drivers/cpuidle/governors/ made in @dir (which exists and is empty)
 * @log: what patch(1) printed and the rejected hunks, on failure (malloc'ed, may be NULL)
 * Return: 0, or -1 with @err set (a file missing from the tree, patch failed: see @log).
 */
int il_review_patch_apply(const struct il_review_patch *p, const char *tree, const char *dir,
			  char **log, struct il_error *err);

/* ---- the verdict of base against patch (verdict.c) ---------------------------------------- */

struct il_review_verdict_opts {
	const struct il_preset *base, *patched;
	const char *const *platforms;   /* names or files */
	int nplat;
	const char *const *scenarios;   /* -s specs */
	int nscn;
	int iter;
	int ensemble;                   /* model variants, as verdict --ensemble (0: nominal) */
	u64 seed, duration_ns;
	unsigned int threads;
};

/* A judged verdict and what it owns. */
struct il_review_verdict {
	struct il_verdict v;
	struct il_verdict_plan plan;
	struct il_platform *plat;
	const struct il_preset *presets[2];
	const char *gov_names[2];
	const char **plat_names;
	struct il_scn_common *common;
	const struct il_scenario **scn;
	struct il_scn_args *args;
};

/**
 * il_review_verdict - run and judge the verdict of @o->patched against @o->base (the
 * defaults of `idlelab verdict`: alpha, min effect, paired seeds, every metric)
 * Return: 0, or -1 with @err set (an unknown platform or scenario, a run that failed).
 */
int il_review_verdict(const struct il_review_verdict_opts *o, struct il_review_verdict *rv,
		      struct il_error *err);
void il_review_verdict_free(struct il_review_verdict *rv);

/** il_review_called - whether cell @c is called: worse or better (any other class is not) */
bool il_review_called(const struct il_verdict_cell *c);

/* ---- the mechanism of a called cell (mechanism.c) ------------------------------------------ */

/* One side of a cell, summed over the verdict's seeds. */
struct il_review_side {
	u64 idles, aboves, belows, tick_stops;
	u64 usage[CPUIDLE_STATE_MAX], time_ns[CPUIDLE_STATE_MAX];
};

struct il_review_mechanism {
	int nstates;
	char state_names[CPUIDLE_STATE_MAX][16];
	struct il_review_side side[2];   /* base, patched */
};

/**
 * il_review_mechanism - the counters of the verdict's nominal runs of cell (@p, @s) of @rv,
 * summed per side. Return: 0, or -1 with @err set (a pair that was not run).
 */
int il_review_mechanism(const struct il_review_verdict *rv, int p, int s,
			struct il_review_mechanism *m, struct il_error *err);

/* ---- a real trace through both sides (trace.c) ------------------------------------------- */

struct il_review_trace_opts {
	const struct il_preset *base, *patched;
	const struct il_platform *plat;  /* the trace's state table */
	enum il_sleep_source sleep_source;
	const char *sleep_why;
};

struct il_review_trace {
	u64 periods;                     /* replayed by both sides */
	u64 periods_total;               /* the recorded row's idle periods */
	u64 same_state;                  /* periods where both sides pick the same state */
	u64 same_both;                   /* ... and ask the same of the tick */
	struct il_replay_row recorded;   /* what the trace recorded */
	struct il_replay_row side[2];    /* base, patched */
	double gap[2];                   /* energy over the open-loop frontier, minus 1 */
	bool have_gap[2];
};

/**
 * il_review_trace_replay - replay trace @t (just opened, not read yet) through @o->base and
 * @o->patched on @o->plat
 * Return: 0, or -1 with @err set (a governor cannot be bound, the trace cannot be read, out
 * of memory, no idle period in the trace).
 */
int il_review_trace_replay(const struct il_review_trace_opts *o, struct il_trace *t,
			   struct il_review_trace *res, struct il_error *err);

/* ---- the real traces installed with idlelab (shipped.c) ----------------------------------- */

#define IL_REVIEW_MAX_SHIPPED 16
#define IL_REVIEW_SHIPPED_NAME_LEN 256

struct il_review_shipped {
	char path[4096];                 /* where it is installed */
	char name[IL_REVIEW_SHIPPED_NAME_LEN]; /* PLATFORM/FILE, what the review calls it */
	char platform[64];               /* the built-in platform it was recorded on */
};

/**
 * il_review_shipped_traces - the traces installed with idlelab, @max at most, into @s:
 * <data>/traces/PLATFORM/FILE (lib/util/datadir.c finds <data>), sorted by platform and file;
 * their directory <data>/traces into @dir (@cap bytes)
 * Return: 0 with *@n set, or -1 with @err set (not installed, a directory that names no
 * built-in platform, something else than a file in it, more than @max, none at all).
 */
int il_review_shipped_traces(struct il_review_shipped *s, int max, int *n, char *dir, size_t cap,
			     struct il_error *err);

/* ---- the review as tables, for the report page (report.c) ---------------------------------- */

struct il_table;

struct il_review_mech_ref {
	int p, s;                        /* the cell's platform and scenario in the verdict */
	const struct il_review_mechanism *m;
};

struct il_review_report {
	const char *gov_names[2];        /* what the page calls base and patched */
	u64 seed, duration_ns;
	const char *(*provenance)[2];    /* extra key/value rows of the settings table */
	int nprovenance;
	const struct il_review_mech_ref *mech;
	int nmech;
	const char *const *trace_paths;
	const struct il_review_trace *const *traces;
	int ntraces;
};

/* settings "verdict", "review mechanism", "review traces", "verdict_cells", "verdict_summary" */
#define IL_REVIEW_REPORT_TABLES 5

/**
 * il_review_report_tables - the tables of @rv and @r into @t[IL_REVIEW_REPORT_TABLES]:
 * the three of `idlelab verdict -f json` (so `idlelab report` reads them as a verdict), the
 * mechanism of every called cell and the traces, in long form (what, base, patched)
 * Return: 0, or -1 (out of memory; @t freed).
 */
int il_review_report_tables(const struct il_review_verdict *rv, const struct il_review_report *r,
			    struct il_table *t);

#endif /* IDLELAB_REVIEW_H */
