// SPDX-License-Identifier: GPL-2.0-only
/*
 * progress.c - the progress line of long commands on stderr (src/progress.h).
 */
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

/* Redraws per second on a terminal, and lines per second elsewhere. */
#define TTY_INTERVAL 0.1
#define LOG_INTERVAL 1.0
#define WATCH_NS 200000000L

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

bool progress_shown(enum progress_mode mode)
{
	if (mode == PROGRESS_ON)
		return true;
	if (mode == PROGRESS_OFF)
		return false;
	return isatty(STDERR_FILENO);
}

/* "1:05" or "1:02:05". */
static void fmt_duration(char *buf, size_t cap, double s)
{
	unsigned long t = s > 0 ? (unsigned long)(s + 0.5) : 0;

	if (t >= 3600)
		snprintf(buf, cap, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, cap, "%lu:%02lu", t / 60, t % 60);
}

static void fmt_amount(const struct progress *p, unsigned long long done, char *buf, size_t cap)
{
	if (p->kind == PROGRESS_BYTES) {
		if (p->total)
			snprintf(buf, cap, "%.1f/%.1f MB", (double)done / 1e6,
				 (double)p->total / 1e6);
		else
			snprintf(buf, cap, "%.1f MB", (double)done / 1e6);
	} else if (p->total) {
		snprintf(buf, cap, "%llu/%llu %s", done, p->total, p->unit);
	} else {
		snprintf(buf, cap, "%llu %s", done, p->unit);
	}
}

/* Write the line for the current state; the caller holds the lock. */
static void draw(struct progress *p, double t, bool last)
{
	char amount[96], spent[32], rest[32], line[320];
	unsigned long long done = __atomic_load_n(&p->done, __ATOMIC_RELAXED);
	double elapsed = t - p->start;
	int n;

	fmt_amount(p, done, amount, sizeof(amount));
	fmt_duration(spent, sizeof(spent), elapsed);
	n = snprintf(line, sizeof(line), "%s: %s", p->what, amount);
	if (p->total && n < (int)sizeof(line))
		n += snprintf(line + n, sizeof(line) - (size_t)n, ", %llu %%",
			      done * 100 / p->total);
	if (n < (int)sizeof(line))
		n += snprintf(line + n, sizeof(line) - (size_t)n, ", %s", spent);
	if (!last && p->total && done && done < p->total && n < (int)sizeof(line)) {
		fmt_duration(rest, sizeof(rest),
			     elapsed * (double)(p->total - done) / (double)done);
		snprintf(line + n, sizeof(line) - (size_t)n, ", ETA %s", rest);
	}
	if (p->tty && !last)
		fprintf(stderr, "\r%s\033[K", line);
	else if (p->tty)
		fprintf(stderr, "\r%s\033[K\n", line);
	else
		fprintf(stderr, "%s\n", line);
	fflush(stderr);
	p->drawn = p->tty;
	p->last = t;
}

void progress_begin(struct progress *p, enum progress_mode mode, const char *what,
		    enum progress_unit kind, const char *unit, unsigned long long total)
{
	memset(p, 0, sizeof(*p));
	p->shown = progress_shown(mode);
	p->tty = isatty(STDERR_FILENO);
	p->what = what;
	p->kind = kind;
	p->unit = unit ? unit : "";
	p->total = total;
	pthread_mutex_init(&p->lock, NULL);
	p->start = now();
	if (p->shown && p->tty) {
		pthread_mutex_lock(&p->lock);
		draw(p, p->start, false);
		pthread_mutex_unlock(&p->lock);
	}
}

void progress_update(struct progress *p, unsigned long long done)
{
	double t;

	unsigned long long seen;

	if (!p->shown)
		return;
	/* The count is kept even when another thread is drawing (the end shows it). */
	seen = __atomic_load_n(&p->done, __ATOMIC_RELAXED);
	while (done > seen && !__atomic_compare_exchange_n(&p->done, &seen, done, false,
							   __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	/* A busy printer is not waited for: the next update draws. */
	if (pthread_mutex_trylock(&p->lock))
		return;
	t = now();
	if (t - p->last >= (p->tty ? TTY_INTERVAL : LOG_INTERVAL))
		draw(p, t, false);
	pthread_mutex_unlock(&p->lock);
}

void progress_set_total(struct progress *p, unsigned long long total)
{
	pthread_mutex_lock(&p->lock);
	p->total = total;
	pthread_mutex_unlock(&p->lock);
}

void progress_clear(struct progress *p)
{
	if (!p->shown || !p->tty)
		return;
	pthread_mutex_lock(&p->lock);
	if (p->drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		p->drawn = false;
	}
	p->last = 0; /* redraw at the next update */
	pthread_mutex_unlock(&p->lock);
}

static void *watch(void *arg)
{
	struct progress *p = arg;
	struct timespec ts = { 0, WATCH_NS };

	while (!p->stop) {
		progress_update(p, *p->counter);
		nanosleep(&ts, NULL);
	}
	return NULL;
}

void progress_watch(struct progress *p, const volatile unsigned long long *counter)
{
	if (!p->shown || p->watching)
		return;
	p->counter = counter;
	p->stop = false;
	p->watching = !pthread_create(&p->watcher, NULL, watch, p);
}

void progress_end(struct progress *p)
{
	if (p->watching) {
		p->stop = true;
		pthread_join(p->watcher, NULL);
		p->watching = false;
		if (p->counter && *p->counter > p->done)
			p->done = *p->counter;
	}
	if (p->shown) {
		pthread_mutex_lock(&p->lock);
		draw(p, now(), true);
		p->drawn = false;
		pthread_mutex_unlock(&p->lock);
	}
	pthread_mutex_destroy(&p->lock);
}

void progress_lab_cb(void *ctx, size_t done, size_t total)
{
	struct progress *p = ctx;

	/* A verdict with an ensemble learns its later stages' runs as it goes: the total grows. */
	pthread_mutex_lock(&p->lock);
	if (p->total && total > p->total)
		p->total = total;
	pthread_mutex_unlock(&p->lock);
	progress_update(p, done);
}
