/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * progress.h - a progress line on stderr for long work (battery, sweep, replay, kgov check,
 * measure, verdict): done/total, the percentage, the time so far and an estimate of the rest.
 *
 * DOC: progress
 *
 *  1. The line is shown when stderr is a terminal, and never otherwise, unless the command
 *     was given --progress (shown anyway) or --no-progress (never shown). Standard output,
 *     and every file a command writes, is the same bytes with or without it.
 *  2. On a terminal the line is redrawn in place ("\r", at most ten times a second) and
 *     left, complete, at the end; elsewhere (--progress into a log) one line is written per
 *     second and a last one at the end.
 *  3. progress_update() may be called from any thread; a lib runner reports through a
 *     callback (il_lab_run_all_progress() takes progress_lab_cb()), since the library never
 *     prints. progress_watch() polls a counter from a thread of its own, for work that only
 *     publishes a counter (kgov check's decision count).
 *  4. The clock used for the rate and the estimate is CLOCK_MONOTONIC; it affects only
 *     what stderr shows, never a result.
 */
#ifndef IDLELAB_PROGRESS_H
#define IDLELAB_PROGRESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli.h"

enum progress_mode {
	PROGRESS_AUTO = 0, /* when stderr is a terminal */
	PROGRESS_ON,       /* --progress */
	PROGRESS_OFF,      /* --no-progress */
};

/* The two options every long command takes: CLI_OPTS_PROGRESS (cli_opts.h). */
enum progress_unit {
	PROGRESS_COUNT, /* shown as "37/120 runs" */
	PROGRESS_BYTES, /* shown as "12.3/31.6 MB" */
};

struct progress {
	bool shown;            /* the line is drawn at all */
	bool tty;              /* redraw in place */
	const char *what;      /* "idlelab battery" */
	const char *unit;      /* "runs", "decisions" (PROGRESS_COUNT) */
	enum progress_unit kind;
	unsigned long long total; /* 0: unknown (only done and the rate are shown) */
	unsigned long long done;
	double start, last;    /* CLOCK_MONOTONIC seconds */
	bool drawn;            /* something is on the terminal line */
	pthread_mutex_t lock;
	/* progress_watch() */
	pthread_t watcher;
	bool watching;
	volatile bool stop;
	const volatile unsigned long long *counter;
};

/** progress_shown - whether @mode shows a line here (stderr a terminal, or forced) */
bool progress_shown(enum progress_mode mode);

/**
 * progress_begin - start showing the progress of @what (the line's first words)
 * @unit: what is counted ("runs", "decisions"; ignored for PROGRESS_BYTES)
 * @total: how many there will be, 0 when not known
 */
void progress_begin(struct progress *p, enum progress_mode mode, const char *what,
		    enum progress_unit kind, const char *unit, unsigned long long total);
/** progress_update - @done of the total are finished (thread-safe, cheap when not shown) */
void progress_update(struct progress *p, unsigned long long done);
/** progress_set_total - the total became known or changed */
void progress_set_total(struct progress *p, unsigned long long total);
/**
 * progress_clear - erase the line on a terminal before writing something else to stderr;
 * the next progress_update() draws it again
 */
void progress_clear(struct progress *p);
/** progress_end - stop a watcher and write the last line (done/total, the time taken) */
void progress_end(struct progress *p);

/**
 * progress_watch - update @p from *@counter five times a second, from a thread, until
 * progress_end(); for work that publishes a counter but takes no callback
 */
void progress_watch(struct progress *p, const volatile unsigned long long *counter);

/** progress_lab_cb - the callback of il_lab_run_all_progress(): @ctx is the struct progress */
void progress_lab_cb(void *ctx, size_t done, size_t total);

#endif /* IDLELAB_PROGRESS_H */
