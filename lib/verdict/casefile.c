// SPDX-License-Identifier: GPL-2.0-only
/*
 * casefile.c - a verdict's struct il_verdict_run as exact text and back: the fields of the
 * case files of `idlelab verdict --emit-jobs`, which `idlelab merge` reads. Reals are
 * written with %.17g, so that a merged verdict has the very doubles of a local one.
 * (No dependency on the rest of the library: fuzz/fuzz_verdict_case.c builds it alone.)
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verdict.h"

static const char *const run_fields[IL_VERDICT_RUN_FIELDS] = {
	"score", "idles", "aboves", "belows",
	"wake_p99_ns", "joules", "energy_known", "duration_ns",
	"busy_ns", "state_ns", "state_usage",
};

const char *const *il_verdict_run_fields(void)
{
	return run_fields;
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
	switch (i) {
	case 0:
		snprintf(buf, cap, "%.17g", r->score);
		break;
	case 1:
		snprintf(buf, cap, "%" PRIu64, (uint64_t)r->idles);
		break;
	case 2:
		snprintf(buf, cap, "%" PRIu64, (uint64_t)r->aboves);
		break;
	case 3:
		snprintf(buf, cap, "%" PRIu64, (uint64_t)r->belows);
		break;
	case 4:
		snprintf(buf, cap, "%" PRIu64, (uint64_t)r->wake_p99_ns);
		break;
	case 5:
		snprintf(buf, cap, "%.17g", r->joules);
		break;
	case 6:
		snprintf(buf, cap, "%d", r->energy_known ? 1 : 0);
		break;
	case 7:
		snprintf(buf, cap, "%" PRIu64, (uint64_t)r->duration_ns);
		break;
	case 8:
		snprintf(buf, cap, "%" PRIu64, (uint64_t)r->busy_ns);
		break;
	default:
		format_list(i == 9 ? r->state_ns : r->state_usage, r->nstates, buf, cap);
		break;
	}
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
	u64 flag;

	switch (i) {
	case 0:
		return parse_real(s, &r->score);
	case 1:
		return parse_u64(s, &r->idles);
	case 2:
		return parse_u64(s, &r->aboves);
	case 3:
		return parse_u64(s, &r->belows);
	case 4:
		return parse_u64(s, &r->wake_p99_ns);
	case 5:
		return parse_real(s, &r->joules);
	case 6:
		if (parse_u64(s, &flag) || flag > 1)
			return -1;
		r->energy_known = flag;
		return 0;
	case 7:
		return parse_u64(s, &r->duration_ns);
	case 8:
		return parse_u64(s, &r->busy_ns);
	default:
		return parse_list(s, i == 9 ? r->state_ns : r->state_usage, &r->nstates);
	}
}

int il_verdict_run_parse(int n, const char *const *names, const char *const *texts,
			 struct il_verdict_run *r, char *why, size_t cap)
{
	memset(r, 0, sizeof(*r));
	r->nstates = -1; /* not read yet: the two lists must agree */
	for (int i = 0; i < IL_VERDICT_RUN_FIELDS; i++) {
		int k = 0;

		while (k < n && strcmp(names[k], run_fields[i]))
			k++;
		if (k == n) {
			snprintf(why, cap, "no '%s' field", run_fields[i]);
			return -1;
		}
		if (parse_field(i, texts[k], r)) {
			snprintf(why, cap, "%s: '%s' is not a valid value", run_fields[i],
				 texts[k]);
			return -1;
		}
	}
	return 0;
}
