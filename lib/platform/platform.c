// SPDX-License-Identifier: GPL-2.0-only
/*
 * platform.c - the platform-file parser (format: docs/platforms.md).
 *
 * The parser walks the lines once. Header lines (platform, driver, description, cpus, hz) may
 * come in any order, each at most once; "state" lines append to the state table in the order
 * given, shallow to deep. A "source:" line attaches a note to the cpus, hz or state line right
 * above it (through other source: lines); every cpus, hz and state line needs at least one,
 * because every number in a platform must say where it comes from.
 */
#include <stdio.h>
#include <string.h>

#include "lex.h"
#include "platform.h"
#include "topology.h"
#include "../util/parse.h"
#include "util/array.h"

static const char source_prefix[] = "source:";
static const char uncertain_prefix[] = "uncertain:";

static const struct {
	const char *name;
	unsigned int flag;
} flag_names[] = {
	{ "polling", CPUIDLE_FLAG_POLLING },
	{ "coupled", CPUIDLE_FLAG_COUPLED },
	{ "timer-stop", CPUIDLE_FLAG_TIMER_STOP },
	{ "unusable", CPUIDLE_FLAG_UNUSABLE },
	{ "off", CPUIDLE_FLAG_OFF },
	{ "tlb-flushed", CPUIDLE_FLAG_TLB_FLUSHED },
	{ "rcu-idle", CPUIDLE_FLAG_RCU_IDLE },
};

struct plat_parser {
	struct il_lexer lx;
	struct il_platform *plat;
	struct il_error *err;
	/* Line of each header line seen so far (0: not seen). */
	int platform_line, driver_line, description_line, cpus_line, hz_line, active_power_line;
	int host_threads_line, timer_late_line, timer_handler_line;
	/* The note buffer a following "source:" line appends to, and what it belongs to. */
	char *source;
	char source_item[IL_NAME_LEN + 8];
	int source_item_line;
	/* the previous keyword line was cpus, hz, active_power_uw or state */
	bool last_was_numeric;
	bool power_missing;
	/* what an "uncertain:" line under the last numeric line may annotate */
	struct il_plat_unc_target unc_target;
};

/* An error on the current line. */
#define perr(p, ...) il_error_set((p)->err, (p)->lx.file, (p)->lx.line, __VA_ARGS__)

/* The pending cpus/hz/state line must have collected a source note. */
static int check_source(struct plat_parser *p)
{
	if (p->source && !p->source[0])
		return il_error_set(p->err, p->lx.file, p->source_item_line,
				    "%s has no 'source:' note (every number needs one)",
				    p->source_item);
	return 0;
}

static void expect_source(struct plat_parser *p, char *buf, const char *item)
{
	p->source = buf;
	snprintf(p->source_item, sizeof(p->source_item), "%s", item);
	p->source_item_line = p->lx.line;
	p->last_was_numeric = true;
	memset(&p->unc_target, 0, sizeof(p->unc_target));
	p->unc_target.item = p->source_item;
	p->unc_target.state = -1;
	p->unc_target.table = -1;
}

/* The last numeric line set field @f to @nominal: an "uncertain:" line may annotate it. */
static void unc_field_set(struct plat_parser *p, enum il_plat_field f, double nominal)
{
	p->unc_target.fields_set |= 1u << f;
	p->unc_target.nominal[f] = nominal;
}

static int parse_uncertain(struct plat_parser *p, const char *text, size_t len)
{
	struct il_token toks[IL_LEX_TOKENS_MAX];
	int n;

	if (!p->last_was_numeric)
		return perr(p, "'uncertain:' must follow a cpus, hz, active_power_uw or state "
			    "line");
	n = il_lex_tokens(&p->lx, text, len, toks, IL_LEX_TOKENS_MAX, p->err);
	if (n < 0)
		return -1;
	return il_plat_unc_line(p->plat, &p->unc_target, toks, n, p->lx.file, p->lx.line, p->err);
}

static int parse_source(struct plat_parser *p, const char *text, size_t len)
{
	size_t used, need;

	while (len && (*text == ' ' || *text == '\t'))
		text++, len--;
	while (len && (text[len - 1] == ' ' || text[len - 1] == '\t'))
		len--;
	if (!p->last_was_numeric)
		return perr(p, "'source:' must follow a cpus, hz, active_power_uw, host_threads, "
			    "timer_late, timer_handler, state, table or domain line");
	if (!len)
		return perr(p, "empty 'source:' note");
	used = strlen(p->source);
	need = used + (used ? 2 : 0) + len;
	if (need >= IL_PLAT_SOURCE_LEN)
		return perr(p, "source notes of %s longer than %d characters", p->source_item,
			    IL_PLAT_SOURCE_LEN - 1);
	if (used)
		memcpy(p->source + used, "; ", 2), used += 2;
	memcpy(p->source + used, text, len);
	p->source[used + len] = '\0';
	return 0;
}

static int once(struct plat_parser *p, int *seen_line, const char *key)
{
	if (*seen_line)
		return perr(p, "duplicate '%s' line (first on line %d)", key, *seen_line);
	*seen_line = p->lx.line;
	return 0;
}

/* "KEY VALUE": exactly one bare argument. */
static int one_argument(struct plat_parser *p, const struct il_token *t, int n)
{
	if (n != 2)
		return perr(p, "'%s' takes exactly one value", t[0].key);
	if (t[1].has_value)
		return perr(p, "'%s' takes a plain value, not '%s=...'", t[0].key, t[1].key);
	return 0;
}

static int copy_text(struct plat_parser *p, char *dst, size_t cap, const char *src,
		     const char *what)
{
	if (strlen(src) >= cap)
		return perr(p, "%s longer than %zu characters", what, cap - 1);
	strcpy(dst, src);
	return 0;
}

static bool valid_platform_name(const char *s)
{
	size_t len = strlen(s);

	if (!len || (len > 5 && !strcmp(s + len - 5, ".plat")))
		return false;
	return il_plat_name_chars(s);
}

static int parse_platform_line(struct plat_parser *p, const struct il_token *t, int n)
{
	if (once(p, &p->platform_line, "platform") || one_argument(p, t, n))
		return -1;
	if (!valid_platform_name(t[1].key))
		return perr(p,
			    "invalid platform name '%s' (letters, digits, '-', '_', '.'; not "
			    "ending in .plat)",
			    t[1].key);
	return copy_text(p, p->plat->name, sizeof(p->plat->name), t[1].key, "platform name");
}

static int parse_driver_line(struct plat_parser *p, const struct il_token *t, int n)
{
	if (once(p, &p->driver_line, "driver") || one_argument(p, t, n))
		return -1;
	if (!t[1].key[0])
		return perr(p, "empty driver name");
	return copy_text(p, p->plat->drv.name, sizeof(p->plat->drv.name), t[1].key, "driver name");
}

static int parse_description_line(struct plat_parser *p, const struct il_token *t, int n)
{
	if (once(p, &p->description_line, "description") || one_argument(p, t, n))
		return -1;
	if (!t[1].key[0])
		return perr(p, "empty description");
	return copy_text(p, p->plat->description, sizeof(p->plat->description), t[1].key,
			 "description");
}

static int parse_cpus_line(struct plat_parser *p, const struct il_token *t, int n)
{
	u64 v;

	if (once(p, &p->cpus_line, "cpus") || one_argument(p, t, n))
		return -1;
	if (il_parse_u64(t[1].key, IL_PLAT_CPUS_MAX, &v) || v == 0)
		return perr(p, "invalid cpus '%s' (a number from 1 to %d)", t[1].key,
			    IL_PLAT_CPUS_MAX);
	p->plat->cpus = (unsigned int)v;
	expect_source(p, p->plat->cpus_source, "cpus");
	return 0;
}

static int parse_hz_line(struct plat_parser *p, const struct il_token *t, int n)
{
	u64 v;

	if (once(p, &p->hz_line, "hz") || one_argument(p, t, n))
		return -1;
	/* The CONFIG_HZ choices of kernel/Kconfig.hz. */
	if (il_parse_u64(t[1].key, 1000, &v) || !il_config_hz_valid(v))
		return perr(p, "invalid hz '%s' (CONFIG_HZ: 100, 250, 300 or 1000)", t[1].key);
	p->plat->hz = (unsigned int)v;
	expect_source(p, p->plat->hz_source, "hz");
	unc_field_set(p, IL_PF_HZ, (double)v);
	return 0;
}

/*
 * The power of one CPU running work. Optional (a file exported from sysfs knows none), but
 * when given it must be a real power: 0 would read as "no active power" to the energy model.
 */
static int parse_active_power_line(struct plat_parser *p, const struct il_token *t, int n)
{
	u64 v;

	if (once(p, &p->active_power_line, "active_power_uw") || one_argument(p, t, n))
		return -1;
	if (il_parse_u64(t[1].key, IL_PLAT_POWER_MAX_UW, &v) || v == 0)
		return perr(p, "invalid active_power_uw '%s' (a number from 1 to %llu)", t[1].key,
			    (unsigned long long)IL_PLAT_POWER_MAX_UW);
	p->plat->active_power_uw = v;
	expect_source(p, p->plat->active_power_source, "active_power_uw");
	unc_field_set(p, IL_PF_ACTIVE_POWER, (double)v);
	return 0;
}

/*
 * The host threads an emulator runs the CPUs on (QEMU TCG with thread=single: 1). Optional:
 * real hardware has none. Checked against cpus in check_complete() (either line may come
 * first).
 */
static int parse_host_threads_line(struct plat_parser *p, const struct il_token *t, int n)
{
	u64 v;

	if (once(p, &p->host_threads_line, "host_threads") || one_argument(p, t, n))
		return -1;
	if (il_parse_u64(t[1].key, IL_PLAT_CPUS_MAX, &v) || v == 0)
		return perr(p, "invalid host_threads '%s' (a number from 1 to the cpus)", t[1].key);
	p->plat->host_threads = (unsigned int)v;
	expect_source(p, p->plat->host_threads_source, "host_threads");
	return 0;
}

static int parse_flags(struct plat_parser *p, const char *value, unsigned int *flags)
{
	char buf[IL_LEX_WORD_MAX];
	char *save = NULL;

	snprintf(buf, sizeof(buf), "%s", value);
	*flags = 0;
	if (!strcmp(buf, "none"))
		return 0;
	for (char *name = strtok_r(buf, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(flag_names); i++)
			if (!strcmp(name, flag_names[i].name))
				break;
		if (i == ARRAY_SIZE(flag_names))
			return perr(p,
				    "unknown state flag '%s' (polling, coupled, timer-stop, "
				    "unusable, off, tlb-flushed, rcu-idle or none)",
				    name);
		*flags |= flag_names[i].flag;
	}
	if (!*flags)
		return perr(p, "empty flags value '%s'", value);
	return 0;
}

static int parse_state_time(struct plat_parser *p, const struct il_token *t, s64 *out)
{
	const char *why;

	if (il_plat_is_uint_max_us(t->value)) {
		*out = (s64)IL_PLAT_UINT_MAX_US * NSEC_PER_USEC; /* a state kept but never picked */
		return 0;
	}
	if (il_parse_time_ns(t->value, IL_UNIT_REQUIRED, false, IL_PLAT_TIME_MAX_NS, out, &why))
		return perr(p, "invalid %s '%s': %s", t->key, t->value, why);
	return 0;
}

static int parse_state_u64(struct plat_parser *p, const struct il_token *t, u64 max, u64 *out)
{
	if (il_parse_u64(t->value, max, out))
		return perr(p, "invalid %s '%s' (a number from 0 to %llu)", t->key, t->value,
			    (unsigned long long)max);
	return 0;
}

enum state_field {
	F_DESC, F_EXIT, F_RESIDENCY, F_FLAGS, F_POWER, F_ENERGY, F_CORE_EXIT, F_ACTUAL_EXIT, F_COUNT
};

static const char *const state_fields[F_COUNT] = {
	[F_DESC] = "desc",
	[F_EXIT] = "exit_latency",
	[F_RESIDENCY] = "target_residency",
	[F_FLAGS] = "flags",
	[F_POWER] = "power_uw",
	[F_ENERGY] = "entry_exit_energy_nj",
	[F_CORE_EXIT] = "core_exit_latency",
	[F_ACTUAL_EXIT] = "actual_exit_latency",
};

/*
 * A time T or a range LO..HI, each with its unit, into *lo and *hi (T: both); HI > 0. What
 * the measured spreads take: actual_exit_latency, timer_late, timer_handler.
 */
static int parse_time_spread(struct plat_parser *p, const char *what, const char *text, s64 *lo,
			     s64 *hi)
{
	const char *dots = strstr(text, ".."), *why;
	char first[64];

	if (!dots) {
		if (il_parse_time_ns(text, IL_UNIT_REQUIRED, false, IL_PLAT_TIME_MAX_NS, lo, &why))
			return perr(p, "invalid %s '%s': %s", what, text, why);
		*hi = *lo;
	} else {
		if ((size_t)(dots - text) >= sizeof(first))
			return perr(p, "invalid %s '%s'", what, text);
		snprintf(first, sizeof(first), "%.*s", (int)(dots - text), text);
		if (il_parse_time_ns(first, IL_UNIT_REQUIRED, false, IL_PLAT_TIME_MAX_NS, lo,
				     &why) ||
		    il_parse_time_ns(dots + 2, IL_UNIT_REQUIRED, false, IL_PLAT_TIME_MAX_NS, hi,
				     &why))
			return perr(p, "invalid %s '%s' (T or LO..HI): %s", what, text, why);
	}
	if (*hi <= 0 || *lo > *hi)
		return perr(p, "invalid %s '%s': a range LO..HI needs 0 <= LO <= HI and HI > 0",
			    what, text);
	return 0;
}

/*
 * actual_exit_latency=T or =LO..HI: the wake cost measured on the machine, a fixed one or
 * the range each wake draws from (docs/platforms.md).
 */
static int parse_actual_exit(struct plat_parser *p, const struct il_token *t, struct il_state *s)
{
	return parse_time_spread(p, "actual_exit_latency", t->value, &s->actual_exit_min_ns,
				 &s->actual_exit_max_ns);
}

/* A line KEY T|LO..HI, once, with its source: an emulator's measured spread. */
static int parse_spread_line(struct plat_parser *p, const struct il_token *t, int n,
			     const char *key, int *line, s64 *lo, s64 *hi, char *source)
{
	if (once(p, line, key) || one_argument(p, t, n))
		return -1;
	if (parse_time_spread(p, key, t[1].key, lo, hi))
		return -1;
	expect_source(p, source, key);
	return 0;
}

/*
 * How late a timer interrupt reaches its CPU after the timer's expiry, T or LO..HI (each
 * expiry draws from the range): an emulator's, measured in its traces. Optional: on hardware
 * the local timer fires on time at this model's scale (engine.c).
 */
static int parse_timer_late_line(struct plat_parser *p, const struct il_token *t, int n)
{
	return parse_spread_line(p, t, n, "timer_late", &p->timer_late_line,
				 &p->plat->timer_late_min_ns, &p->plat->timer_late_max_ns,
				 p->plat->timer_late_source);
}

/*
 * How long a timer interrupt's handler runs, T or LO..HI (each interrupt draws from the
 * range): an emulator's, measured in its traces. Optional: on hardware a handler's few
 * microseconds are below this model's scale (engine.c).
 */
static int parse_timer_handler_line(struct plat_parser *p, const struct il_token *t, int n)
{
	return parse_spread_line(p, t, n, "timer_handler", &p->timer_handler_line,
				 &p->plat->timer_handler_min_ns, &p->plat->timer_handler_max_ns,
				 p->plat->timer_handler_source);
}

static int state_field(struct plat_parser *p, struct il_state *s, const struct il_token *t,
		       enum state_field f)
{
	switch (f) {
	case F_DESC:
		return copy_text(p, s->desc, sizeof(s->desc), t->value, "desc");
	case F_EXIT:
		return parse_state_time(p, t, &s->exit_latency_ns);
	case F_RESIDENCY:
		return parse_state_time(p, t, &s->target_residency_ns);
	case F_FLAGS:
		return parse_flags(p, t->value, &s->flags);
	case F_POWER:
		return parse_state_u64(p, t, IL_PLAT_POWER_MAX_UW, &s->power_uw);
	case F_ENERGY:
		return parse_state_u64(p, t, IL_PLAT_ENERGY_MAX_NJ, &s->entry_exit_energy_nj);
	case F_CORE_EXIT:
		return parse_state_time(p, t, &s->core_exit_latency_ns);
	case F_ACTUAL_EXIT:
		return parse_actual_exit(p, t, s);
	default:
		return -1;
	}
}

static int parse_state_fields(struct plat_parser *p, struct il_state *s, const struct il_token *t,
			      int n, bool seen[F_COUNT])
{
	for (int i = 2; i < n; i++) {
		int f;

		if (!t[i].has_value)
			return perr(p, "state field '%s' needs a value (field=value)", t[i].key);
		for (f = 0; f < F_COUNT; f++)
			if (!strcmp(t[i].key, state_fields[f]))
				break;
		if (f == F_COUNT)
			return perr(p,
				    "unknown state field '%s' (desc, exit_latency, "
				    "target_residency, flags, power_uw, entry_exit_energy_nj, "
				    "core_exit_latency, actual_exit_latency)",
				    t[i].key);
		if (seen[f])
			return perr(p, "duplicate state field '%s'", t[i].key);
		seen[f] = true;
		if (state_field(p, s, &t[i], (enum state_field)f))
			return -1;
	}
	return 0;
}

/* The fields state line @s gave, for its "uncertain:" lines. */
static void unc_state_fields(struct plat_parser *p, const struct il_state *s,
			     const bool seen[F_COUNT])
{
	static const enum il_plat_field of[F_COUNT] = {
		[F_DESC] = IL_PF_COUNT, [F_FLAGS] = IL_PF_COUNT,
		[F_EXIT] = IL_PF_EXIT, [F_RESIDENCY] = IL_PF_RESIDENCY, [F_POWER] = IL_PF_POWER,
		[F_ENERGY] = IL_PF_ENERGY, [F_CORE_EXIT] = IL_PF_CORE_EXIT,
	};
	const double nominal[IL_PF_COUNT] = {
		[IL_PF_EXIT] = (double)s->exit_latency_ns,
		[IL_PF_RESIDENCY] = (double)s->target_residency_ns,
		[IL_PF_POWER] = (double)s->power_uw,
		[IL_PF_ENERGY] = (double)s->entry_exit_energy_nj,
		[IL_PF_CORE_EXIT] = (double)s->core_exit_latency_ns,
	};

	p->unc_target.state = p->plat->drv.state_count;
	p->unc_target.table = p->plat->ntables - 1; /* -1: the one-table shorthand */
	for (int f = 0; f < F_COUNT; f++)
		if (seen[f] && of[f] != IL_PF_COUNT)
			unc_field_set(p, of[f], nominal[of[f]]);
}

static int check_state_name(struct plat_parser *p, const struct il_token *t, int n)
{
	const struct il_driver *drv = &p->plat->drv;

	if (n < 2 || t[1].has_value)
		return perr(p,
			    "a state line starts with the state's name: state NAME field=value...");
	if (!t[1].key[0] || strlen(t[1].key) >= IL_NAME_LEN)
		return perr(p, "state name '%s' must have 1 to %d characters", t[1].key,
			    IL_NAME_LEN - 1);
	for (int i = 0; i < drv->state_count; i++)
		if (!strcmp(drv->states[i].name, t[1].key))
			return perr(p, "duplicate state name '%s'", t[1].key);
	if (drv->state_count >= CPUIDLE_STATE_MAX)
		return perr(p, "more than %d states (CPUIDLE_STATE_MAX)", CPUIDLE_STATE_MAX);
	return 0;
}

static int parse_state_line(struct plat_parser *p, const struct il_token *t, int n)
{
	struct il_driver *drv = &p->plat->drv;
	bool seen[F_COUNT] = { false };
	struct il_state *s;
	char item[IL_NAME_LEN + 8];

	if (check_state_name(p, t, n))
		return -1;
	s = &drv->states[drv->state_count];
	memset(s, 0, sizeof(*s));
	strcpy(s->name, t[1].key);
	if (parse_state_fields(p, s, t, n, seen))
		return -1;
	if (!seen[F_EXIT] || !seen[F_RESIDENCY])
		return perr(p, "state '%s' needs exit_latency= and target_residency=", s->name);
	if (seen[F_CORE_EXIT] && (s->core_exit_latency_ns > s->exit_latency_ns ||
				  (s->flags & CPUIDLE_FLAG_POLLING)))
		return perr(p,
			    "state '%s': core_exit_latency must not exceed exit_latency (it is the "
			    "part of the exit without the package) and a polling state has none",
			    s->name);
	if (seen[F_ACTUAL_EXIT] && (seen[F_CORE_EXIT] || (s->flags & CPUIDLE_FLAG_POLLING)))
		return perr(p,
			    "state '%s': actual_exit_latency replaces core_exit_latency (not both) "
			    "and a polling state has no exit to charge",
			    s->name);
	if ((s->flags & CPUIDLE_FLAG_POLLING) && drv->state_count > 0)
		return perr(p, "only the first state may be polling ('%s' is not first)", s->name);
	if (!seen[F_POWER] || !seen[F_ENERGY])
		p->power_missing = true;
	snprintf(item, sizeof(item), "state %s", s->name);
	expect_source(p, p->plat->state_source[drv->state_count], item);
	unc_state_fields(p, s, seen);
	drv->state_count++;
	return 0;
}

/* "table NAME cpus=LIST" and "domain NAME ...": topology.c; both take source: notes. */
static int parse_table_line(struct plat_parser *p, const struct il_token *t, int n)
{
	char *source = il_plat_table_line(p->plat, t, n, p->lx.file, p->lx.line, p->err);

	if (!source)
		return -1;
	expect_source(p, source, "table");
	return 0;
}

static int parse_domain_line(struct plat_parser *p, const struct il_token *t, int n)
{
	char *source = il_plat_domain_line(p->plat, t, n, p->lx.file, p->lx.line, p->err);

	if (!source)
		return -1;
	expect_source(p, source, "domain");
	return 0;
}

/* The line keywords, for the errors that list them. */
#define LINE_KEYWORDS                                                                         \
	"platform, driver, description, cpus, hz, active_power_uw, host_threads, timer_late, " \
	"timer_handler, state, table, domain or source:"

static int parse_keyword_line(struct plat_parser *p, const struct il_token *t, int n)
{
	static const struct {
		const char *key;
		int (*parse)(struct plat_parser *p, const struct il_token *t, int n);
	} keywords[] = {
		{ "platform", parse_platform_line },
		{ "driver", parse_driver_line },
		{ "description", parse_description_line },
		{ "cpus", parse_cpus_line },
		{ "hz", parse_hz_line },
		{ "active_power_uw", parse_active_power_line },
		{ "host_threads", parse_host_threads_line },
		{ "timer_late", parse_timer_late_line },
		{ "timer_handler", parse_timer_handler_line },
		{ "state", parse_state_line },
		{ "table", parse_table_line },
		{ "domain", parse_domain_line },
	};

	if (check_source(p))
		return -1;
	p->source = NULL;
	p->last_was_numeric = false;
	if (t[0].has_value)
		return perr(p, "unknown key '%s=' (a line starts with " LINE_KEYWORDS ")",
			    t[0].key);
	for (size_t i = 0; i < ARRAY_SIZE(keywords); i++)
		if (!strcmp(t[0].key, keywords[i].key))
			return keywords[i].parse(p, t, n);
	return perr(p, "unknown key '%s' (a line starts with " LINE_KEYWORDS ")", t[0].key);
}

static int parse_line(struct plat_parser *p, const char *line, size_t len)
{
	struct il_token toks[IL_LEX_TOKENS_MAX];
	size_t skip = 0;
	int n;

	while (skip < len && (line[skip] == ' ' || line[skip] == '\t'))
		skip++;
	if (len - skip >= sizeof(source_prefix) - 1 &&
	    !memcmp(line + skip, source_prefix, sizeof(source_prefix) - 1))
		return parse_source(p, line + skip + sizeof(source_prefix) - 1,
				    len - skip - (sizeof(source_prefix) - 1));
	if (len - skip >= sizeof(uncertain_prefix) - 1 &&
	    !memcmp(line + skip, uncertain_prefix, sizeof(uncertain_prefix) - 1))
		return parse_uncertain(p, line + skip + sizeof(uncertain_prefix) - 1,
				       len - skip - (sizeof(uncertain_prefix) - 1));
	n = il_lex_tokens(&p->lx, line, len, toks, IL_LEX_TOKENS_MAX, p->err);
	if (n <= 0)
		return n;
	return parse_keyword_line(p, toks, n);
}

static int check_complete(struct plat_parser *p)
{
	static const char *const names[] = { "platform", "driver", "description", "cpus", "hz" };
	const int lines[] = { p->platform_line, p->driver_line, p->description_line, p->cpus_line,
			      p->hz_line };

	if (check_source(p))
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!lines[i])
			return il_error_set(p->err, p->lx.file, 0, "missing '%s' line", names[i]);
	if (p->plat->drv.state_count == 0 && !p->plat->ntables)
		return il_error_set(p->err, p->lx.file, 0, "no 'state' lines");
	if (p->plat->host_threads > p->plat->cpus)
		return il_error_set(p->err, p->lx.file, p->host_threads_line,
				    "host_threads %u is more than the %u cpus",
				    p->plat->host_threads, p->plat->cpus);
	return il_plat_topology_finish(p->plat, p->lx.file, p->cpus_line, p->err);
}

int il_platform_parse(const char *text, size_t len, const char *file, struct il_platform *plat,
		      struct il_error *err)
{
	struct plat_parser p = { .plat = plat, .err = err };
	const char *line;
	size_t line_len;
	int ret;

	memset(plat, 0, sizeof(*plat));
	snprintf(plat->origin, sizeof(plat->origin), "%s", file);
	il_lex_init(&p.lx, text, len, file);
	while ((ret = il_lex_next_line(&p.lx, &line, &line_len, err)) > 0)
		if (parse_line(&p, line, line_len))
			return -1;
	if (ret < 0 || check_complete(&p))
		return -1;
	plat->power_known = !p.power_missing;
	il_driver_init(&plat->drv);
	return 0;
}

const char *il_flag_names(unsigned int flags, char *buf, size_t cap)
{
	size_t used = 0;

	if (!cap)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(flag_names); i++) {
		if (!(flags & flag_names[i].flag))
			continue;
		used += (size_t)snprintf(buf + used, used < cap ? cap - used : 0, "%s%s",
					 used ? "," : "", flag_names[i].name);
		if (used >= cap)
			break;
	}
	if (!buf[0])
		snprintf(buf, cap, "none");
	return buf;
}
