// SPDX-License-Identifier: GPL-2.0-only
/*
 * parse.c - the small languages of `idlelab measure`: CPU lists, workload scores
 * and the NAME=REGEX metric that pulls a score out of a command's output.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "live.h"
#include "util/array.h"

/* ---- CPU lists ------------------------------------------------------------------------------- */

/* A CPU number at *p; *p moves past it. */
static int cpu_number(const char **p, unsigned int *out)
{
	unsigned long v = 0;

	if (!isdigit((unsigned char)**p))
		return -1;
	for (; isdigit((unsigned char)**p); (*p)++) {
		v = v * 10 + (unsigned long)(**p - '0');
		if (v >= IL_LIVE_CPUS_MAX)
			return -1;
	}
	*out = (unsigned int)v;
	return 0;
}

/* Mark the CPUs of list @s in @seen[IL_LIVE_CPUS_MAX]. */
static int mark_cpulist(const char *s, bool *seen, struct il_error *err)
{
	const char *p = s;

	if (!*s)
		return il_error_input(err, IL_INPUT_CPUS, "empty CPU list");
	for (;;) {
		unsigned int first, last;

		if (cpu_number(&p, &first))
			return il_error_input(err, IL_INPUT_CPUS,
					      "'%s': expected a CPU number below %d at '%s'", s,
					      IL_LIVE_CPUS_MAX, p);
		last = first;
		if (*p == '-') {
			p++;
			if (cpu_number(&p, &last))
				return il_error_input(err, IL_INPUT_CPUS,
						      "'%s': bad range end at '%s'", s, p);
			if (last < first)
				return il_error_input(err, IL_INPUT_CPUS,
						      "'%s': range %u-%u goes backwards", s, first,
						      last);
		}
		for (unsigned int c = first; c <= last; c++)
			seen[c] = true;
		if (!*p)
			return 0;
		if (*p != ',')
			return il_error_input(err, IL_INPUT_CPUS, "'%s': unexpected '%c'", s, *p);
		p++;
	}
}

int il_live_parse_cpulist(const char *s, unsigned int **cpus, struct il_error *err)
{
	bool *seen = calloc(IL_LIVE_CPUS_MAX, sizeof(*seen));
	unsigned int *ids = NULL;
	int n = 0;

	*cpus = NULL;
	if (!seen)
		return il_error_input(err, IL_INPUT_CPUS, "out of memory");
	if (mark_cpulist(s, seen, err))
		goto fail;
	for (unsigned int c = 0; c < IL_LIVE_CPUS_MAX; c++)
		n += seen[c];
	ids = malloc((size_t)n * sizeof(*ids));
	if (!ids) {
		il_error_input(err, IL_INPUT_CPUS, "out of memory");
		goto fail;
	}
	n = 0;
	for (unsigned int c = 0; c < IL_LIVE_CPUS_MAX; c++)
		if (seen[c])
			ids[n++] = c;
	free(seen);
	*cpus = ids;
	return n;
fail:
	free(seen);
	return -1;
}

/* ---- scores ---------------------------------------------------------------------------------- */

int il_live_parse_number(const char *s, double *out)
{
	static const struct {
		char c;
		double mul;
	} suffixes[] = { { 'k', 1e3 }, { 'K', 1e3 }, { 'M', 1e6 }, { 'G', 1e9 }, { 'T', 1e12 } };
	const char *p = s;
	char *end;
	double v;

	/* strtod would also take "inf", "nan" and hex: a score is a plain decimal number. */
	if (*p == '+' || *p == '-')
		p++;
	if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
		return -1;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || !isfinite(v))
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++)
		if (*end == suffixes[i].c) {
			v *= suffixes[i].mul;
			break;
		}
	*out = v;
	return 0;
}

/* ---- metrics --------------------------------------------------------------------------------- */

static bool valid_metric_name(const char *s, size_t len)
{
	if (!len || len >= IL_LIVE_METRIC_NAME_LEN)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-' && s[i] != '.')
			return false;
	return true;
}

int il_live_metric_parse(const char *spec, struct il_live_metric *m, struct il_error *err)
{
	const char *eq = strchr(spec, '=');
	char msg[256];
	int rc;

	memset(m, 0, sizeof(*m));
	if (!eq)
		return il_error_input(err, IL_INPUT_METRIC, "'%s': expected NAME=REGEX", spec);
	if (!valid_metric_name(spec, (size_t)(eq - spec)))
		return il_error_input(err, IL_INPUT_METRIC,
				      "'%.*s': a metric name has 1 to %d letters, digits, '_', "
				      "'-' or '.'",
				      (int)(eq - spec), spec, IL_LIVE_METRIC_NAME_LEN - 1);
	if (!eq[1])
		return il_error_input(err, IL_INPUT_METRIC, "'%s': empty regular expression", spec);
	memcpy(m->name, spec, (size_t)(eq - spec));
	m->name[eq - spec] = '\0';
	rc = regcomp(&m->re, eq + 1, REG_EXTENDED);
	if (rc) {
		regerror(rc, &m->re, msg, sizeof(msg));
		regfree(&m->re);
		return il_error_input(err, IL_INPUT_METRIC, "'%s': %s", eq + 1, msg);
	}
	m->compiled = true;
	return 0;
}

void il_live_metric_free(struct il_live_metric *m)
{
	if (m->compiled)
		regfree(&m->re);
	m->compiled = false;
}

int il_live_metric_eval(const struct il_live_metric *m, const char *text, double *value,
			char *match, size_t match_cap)
{
	regmatch_t pm[2];
	const regmatch_t *use;
	char buf[128];
	size_t len;

	if (match && match_cap)
		match[0] = '\0';
	if (!m->compiled || regexec(&m->re, text, 2, pm, 0))
		return IL_METRIC_NO_MATCH;
	use = m->re.re_nsub >= 1 && pm[1].rm_so >= 0 ? &pm[1] : &pm[0];
	len = (size_t)(use->rm_eo - use->rm_so);
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, text + use->rm_so, len);
	buf[len] = '\0';
	if (match && match_cap)
		snprintf(match, match_cap, "%s", buf);
	if (il_live_parse_number(buf, value))
		return IL_METRIC_NOT_A_NUMBER;
	return IL_METRIC_FOUND;
}
