/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * parse.h - the one way every command reads a number from the command line.
 *
 *  1. Counts: decimal digits only. No sign, no blank, no base prefix ("010" is ten, not
 *     eight; "0x10" is refused), no overflow (a value beyond 2^64 - 1 is refused, not
 *     wrapped), and a range the caller states ([1, 1000] for iterations...).
 *  2. Times: DIGITS[.DIGITS][UNIT] with UNIT one of ns, us, ms, s, m (minutes), h; a bare
 *     number is seconds. A fraction is allowed down to the nanosecond ("1.5s", "0.25ms"),
 *     never beyond it ("1.5ns" is refused, not rounded). The caller states the range: 0 is
 *     refused where it makes no sense (a simulated time), and an upper bound catches absurd
 *     durations (a typo of "10000h").
 *  3. CONFIG_HZ: one of 100, 250, 300, 1000, as platform files are checked.
 *
 * Each returns 0, or -1 with errno EINVAL (not of that shape) or ERANGE (outside the range),
 * so the CLI can say which. Nothing here prints.
 */
#ifndef IDLELAB_UTIL_PARSE_H
#define IDLELAB_UTIL_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IL_PARSE_NS_PER_S 1000000000ULL
#define IL_PARSE_HOUR_NS (3600ULL * IL_PARSE_NS_PER_S)

/* A count in [@min, @max] from the whole of @s. */
int il_parse_count(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* The same from the @len bytes at @s (a part of a longer text such as "1..8:1"). */
int il_parse_count_n(const char *s, size_t len, uint64_t min, uint64_t max, uint64_t *out);

/* A time in [@min_ns, @max_ns] ns from the whole of @s. */
int il_parse_time(const char *s, uint64_t min_ns, uint64_t max_ns, uint64_t *ns);

/* Whether @hz is a CONFIG_HZ choice of kernel/Kconfig.hz: 100, 250, 300 or 1000. */
static inline bool il_config_hz_valid(uint64_t hz)
{
	return hz == 100 || hz == 250 || hz == 300 || hz == 1000;
}

/* CONFIG_HZ: 100, 250, 300 or 1000. */
int il_parse_tick_hz(const char *s, unsigned int *hz);

#endif /* IDLELAB_UTIL_PARSE_H */
