// SPDX-License-Identifier: GPL-2.0-only
/*
 * casefile.c - a verdict's struct il_verdict_run as exact text and back: the fields of the
 * case files of `idlelab verdict --emit-jobs`, which `idlelab merge` reads. Reals are
 * written with %.17g, so that a merged verdict has the very doubles of a local one.
 * The fields of the catalogue's metrics (lib/metrics) are the summary fields they read.
 * (No dependency on the rest of the library but the catalogue: fuzz/fuzz_verdict_case.c
 * builds it with lib/metrics/metrics.c alone.)
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verdict.h"

/*
 * The metrics of the catalogue (lib/metrics) the verdict judges, by their verdict_rank
 * (1 .. their number: test_verdict.c checks it), found once: every value reads them.
 */
static const struct il_metric_def *judged[IL_VM_MAX];
static int njudged;
static pthread_once_t judged_once = PTHREAD_ONCE_INIT;

static void find_judged(void)
{
	for (int i = 0; i < il_metric_count(); i++) {
		const struct il_metric_def *d = il_metric_at(i);

		if ((d->tables & IL_MT_VERDICT) && d->verdict_rank > 0 &&
		    d->verdict_rank < IL_VM_MAX - 1) {
			judged[d->verdict_rank] = d;
			njudged++;
		}
	}
}

const struct il_metric_def *il_vmetric_def(int m)
{
	pthread_once(&judged_once, find_judged);
	return m > IL_VM_SCORE && m <= njudged ? judged[m] : NULL;
}

int il_vmetric_count(void)
{
	pthread_once(&judged_once, find_judged);
	return njudged + 2; /* the score, the catalogue's, energy */
}

/* The fields around the catalogue's: the score first, these last. */
static const char *const tail_fields[] = {
	"joules", "energy_known", "duration_ns", "busy_ns", "state_ns", "state_usage",
};

const char *il_verdict_run_field(int i)
{
	int nm = il_vmetric_count() - 2;

	if (i == 0)
		return "score";
	if (i <= nm)
		return il_vmetric_def(i)->field;
	return tail_fields[i - nm - 1];
}

/* Field @i as a catalogue metric's index, or 0 for the others. */
static int field_metric(int i)
{
	return i > 0 && i < il_vmetric_count() - 1 ? i : 0;
}

/* "12:0:345": the per-state counters, as many as the run's states ("-" for none). */
static void format_list(const u64 *x, int n, char *buf, size_t cap)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && len < cap; i++)
		len += (size_t)snprintf(buf + len, cap - len, "%s%" PRIu64, i ? ":" : "",
					(uint64_t)x[i]);
	if (!n)
		snprintf(buf, cap, "-");
}

const char *il_verdict_run_format(const struct il_verdict_run *r, int i, char *buf, size_t cap)
{
	int m = field_metric(i), nm = il_vmetric_count() - 2;

	if (i == 0)
		snprintf(buf, cap, "%.17g", r->score);
	else if (m && il_vmetric_def(m)->real)
		snprintf(buf, cap, "%.17g", r->field[m]);
	else if (m)
		snprintf(buf, cap, "%" PRIu64, (uint64_t)r->field[m]);
	else if (i == nm + 1)
		snprintf(buf, cap, "%.17g", r->joules);
	else if (i == nm + 2)
		snprintf(buf, cap, "%d", r->energy_known ? 1 : 0);
	else if (i == nm + 3)
		snprintf(buf, cap, "%" PRIu64, (uint64_t)r->duration_ns);
	else if (i == nm + 4)
		snprintf(buf, cap, "%" PRIu64, (uint64_t)r->busy_ns);
	else
		format_list(i == nm + 5 ? r->state_ns : r->state_usage, r->nstates, buf, cap);
	return buf;
}

static int parse_u64(const char *s, u64 *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

static int parse_real(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return !*s || errno || *end || !isfinite(*v) ? -1 : 0;
}

/* A count kept as a double: exact up to 2^53, which no run's counter reaches. */
static int parse_count(const char *s, double *v)
{
	u64 n;

	if (parse_u64(s, &n) || n > (1ULL << 53))
		return -1;
	*v = (double)n;
	return 0;
}

/* The inverse of format_list(): into @x, the count into *@n (the same for both lists). */
static int parse_list(const char *s, u64 *x, int *n)
{
	int k = 0;

	if (!strcmp(s, "-")) {
		*n = 0;
		return 0;
	}
	for (;;) {
		char *end;

		if (k == CPUIDLE_STATE_MAX || *s < '0' || *s > '9')
			return -1;
		errno = 0;
		x[k++] = strtoull(s, &end, 10);
		if (errno || (*end && *end != ':'))
			return -1;
		if (!*end)
			break;
		s = end + 1;
	}
	if (*n >= 0 && *n != k)
		return -1;
	*n = k;
	return 0;
}

static int parse_field(int i, const char *s, struct il_verdict_run *r)
{
	int m = field_metric(i), nm = il_vmetric_count() - 2;
	u64 flag;

	if (i == 0)
		return parse_real(s, &r->score);
	if (m)
		return il_vmetric_def(m)->real ? parse_real(s, &r->field[m]) :
						 parse_count(s, &r->field[m]);
	if (i == nm + 1)
		return parse_real(s, &r->joules);
	if (i == nm + 2) {
		if (parse_u64(s, &flag) || flag > 1)
			return -1;
		r->energy_known = flag;
		return 0;
	}
	if (i == nm + 3)
		return parse_u64(s, &r->duration_ns);
	if (i == nm + 4)
		return parse_u64(s, &r->busy_ns);
	return parse_list(s, i == nm + 5 ? r->state_ns : r->state_usage, &r->nstates);
}

int il_verdict_run_parse(int n, const char *const *names, const char *const *texts,
			 struct il_verdict_run *r, struct il_error *err)
{
	memset(r, 0, sizeof(*r));
	r->nstates = -1; /* not read yet: the two lists must agree */
	for (int i = 0; i < IL_VERDICT_RUN_FIELDS; i++) {
		int k = 0;

		while (k < n && strcmp(names[k], il_verdict_run_field(i)))
			k++;
		if (k == n)
			return il_error_set(err, NULL, 0, "no '%s' field", il_verdict_run_field(i));
		if (parse_field(i, texts[k], r))
			return il_error_set(err, il_verdict_run_field(i), 0,
					    "'%s' is not a valid value", texts[k]);
	}
	return 0;
}
