// SPDX-License-Identifier: GPL-2.0-only
/*
 * parse.c - counts, times and CONFIG_HZ from the command line (see parse.h).
 */
#include <errno.h>
#include <string.h>

#include "util/parse.h"
#include "util/array.h"

static int fail(int e)
{
	errno = e;
	return -1;
}

/* Digits at @s (at least one) into *@v, stopping at @end or the first non-digit (in *@stop).
 * Return: 0, or -1 with EINVAL (no digit) or ERANGE (beyond 2^64 - 1). */
static int digits(const char *s, const char *end, uint64_t *v, const char **stop)
{
	uint64_t n = 0;
	const char *p = s;

	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (n > (UINT64_MAX - d) / 10)
			return fail(ERANGE);
		n = n * 10 + d;
	}
	if (p == s)
		return fail(EINVAL);
	*v = n;
	*stop = p;
	return 0;
}

int il_parse_count_n(const char *s, size_t len, uint64_t min, uint64_t max, uint64_t *out)
{
	const char *stop;
	uint64_t v;

	if (digits(s, s + len, &v, &stop))
		return -1;
	if (stop != s + len)
		return fail(EINVAL);
	if (v < min || v > max)
		return fail(ERANGE);
	*out = v;
	return 0;
}

int il_parse_count(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	return il_parse_count_n(s, strlen(s), min, max, out);
}

/* @ns_per_unit of each unit; "" (a bare number) is seconds. */
static int unit_ns(const char *u, uint64_t *mult)
{
	static const struct {
		const char *name;
		uint64_t ns;
	} units[] = {
		{ "", IL_PARSE_NS_PER_S }, { "s", IL_PARSE_NS_PER_S }, { "ms", 1000000ULL },
		{ "us", 1000ULL }, { "ns", 1ULL }, { "m", 60ULL * IL_PARSE_NS_PER_S },
		{ "h", IL_PARSE_HOUR_NS },
	};

	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcmp(u, units[i].name)) {
			*mult = units[i].ns;
			return 0;
		}
	return fail(EINVAL);
}

int il_parse_time(const char *s, uint64_t min_ns, uint64_t max_ns, uint64_t *ns)
{
	const char *end = s + strlen(s), *p;
	uint64_t whole, frac = 0, frac_scale = 1, mult, v;

	if (digits(s, end, &whole, &p))
		return errno == ERANGE ? -1 : fail(EINVAL);
	if (*p == '.') {
		const char *q = ++p;

		/* The fraction, kept exact: at most 18 digits (ns of an hour need 13). */
		for (; *q >= '0' && *q <= '9'; q++) {
			if (q - p >= 18)
				return fail(EINVAL);
			frac = frac * 10 + (uint64_t)(*q - '0');
			frac_scale *= 10;
		}
		if (q == p)
			return fail(EINVAL);
		p = q;
	}
	if (unit_ns(p, &mult))
		return -1;
	if (whole > UINT64_MAX / mult)
		return fail(ERANGE);
	v = whole * mult;
	/* frac / frac_scale units must be a whole number of ns (128-bit: no overflow here). */
	if (frac) {
		unsigned __int128 f = (unsigned __int128)frac * mult;

		if (f % frac_scale)
			return fail(EINVAL);
		f /= frac_scale;
		if (f > UINT64_MAX - v)
			return fail(ERANGE);
		v += (uint64_t)f;
	}
	if (v < min_ns || v > max_ns)
		return fail(ERANGE);
	*ns = v;
	return 0;
}

int il_parse_tick_hz(const char *s, unsigned int *hz)
{
	uint64_t v;

	if (il_parse_count(s, 0, UINT64_MAX, &v))
		return -1;
	if (!il_config_hz_valid(v))
		return fail(ERANGE);
	*hz = (unsigned int)v;
	return 0;
}
