// SPDX-License-Identifier: GPL-2.0-only
/*
 * uncertain.c - parameter classes and ranges (see uncertain.h), and the "uncertain:" lines
 * of platform files.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lex.h"
#include "platform.h"
#include "uncertain.h"
#include "../util/parse.h"
#include "util/array.h"

/* A ratio factor outside [1/1000, 1000] is no longer a plausible range but a guess. */
#define RATIO_MIN 0.001
#define RATIO_MAX 1000.0

_Static_assert(IL_UNC_SET_MAX == 4, "parse_set()'s message says 4");

static const char *const class_names[IL_UNC_CLASSES] = {
	[IL_UNC_MEASURED] = "measured", [IL_UNC_DATASHEET] = "datasheet",
	[IL_UNC_FITTED] = "fitted", [IL_UNC_ASSUMED] = "assumed",
};

static const char *const field_names[IL_PF_COUNT] = {
	[IL_PF_ACTIVE_POWER] = "active_power_uw", [IL_PF_EXIT] = "exit_latency",
	[IL_PF_RESIDENCY] = "target_residency", [IL_PF_POWER] = "power_uw",
	[IL_PF_ENERGY] = "entry_exit_energy_nj", [IL_PF_CORE_EXIT] = "core_exit_latency",
	[IL_PF_HZ] = "hz",
};

/* The index of @name among the @n @names, or -1. */
static int find_name(const char *const *names, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(name, names[i]))
			return i;
	return -1;
}

const char *il_unc_class_name(enum il_unc_class c)
{
	return c < IL_UNC_CLASSES ? class_names[c] : "?";
}

int il_unc_class_find(const char *name)
{
	return find_name(class_names, IL_UNC_CLASSES, name);
}

const char *il_plat_field_name(enum il_plat_field f)
{
	return f < IL_PF_COUNT ? field_names[f] : "?";
}

int il_plat_field_find(const char *name)
{
	return find_name(field_names, IL_PF_COUNT, name);
}

bool il_plat_field_is_time(enum il_plat_field f)
{
	return f == IL_PF_EXIT || f == IL_PF_RESIDENCY || f == IL_PF_CORE_EXIT;
}

bool il_plat_field_is_power(enum il_plat_field f)
{
	return f == IL_PF_ACTIVE_POWER || f == IL_PF_POWER || f == IL_PF_ENERGY;
}

/* "0.5x", "2x": a plain positive decimal factor. */
static int parse_factor(const char *s, size_t len, double *out)
{
	char buf[32], *end;

	if (len < 2 || len >= sizeof(buf) || s[len - 1] != 'x')
		return -1;
	memcpy(buf, s, len - 1);
	buf[len - 1] = '\0';
	if (strspn(buf, "0123456789.") != len - 1 || buf[0] == '.')
		return -1;
	errno = 0;
	*out = strtod(buf, &end);
	return errno || *end || !(*out >= RATIO_MIN && *out <= RATIO_MAX) ? -1 : 0;
}

/* One bound of an absolute range; a bare time takes @unit (the other bound's suffix). */
static int parse_bound(const char *s, size_t len, bool time, const char *unit, double *out)
{
	char buf[64];
	s64 ns;
	u64 v;
	const char *why;

	if (!len || len + (unit ? strlen(unit) : 0) >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (!time) {
		if (il_parse_u64(buf, UINT64_MAX, &v))
			return -1;
		*out = (double)v;
		return 0;
	}
	if (unit && strspn(buf, "0123456789") == len)
		strcat(buf, unit);
	if (il_parse_time_ns(buf, IL_UNIT_REQUIRED, false, INT64_MAX, &ns, &why))
		return -1;
	*out = (double)ns;
	return 0;
}

/* The unit suffix of a time text ("ns", "us", "ms"), or NULL. */
static const char *time_unit(const char *s, size_t len)
{
	static const char *const units[] = { "ns", "us", "ms" };

	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (len > 2 && !memcmp(s + len - 2, units[i], 2))
			return units[i];
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* "250,1000": the values a choice can take, plain integers, each once; sorted into @r. */
static int parse_set(const char *s, bool time, struct il_unc_range *r, const char **why)
{
	*why = time ? "a set is of counts, not times" :
		      "a set is 2 to 4 plain integers, each once, e.g. 250,1000";
	r->kind = IL_UNC_SET;
	r->nset = 0;
	if (time)
		return -1;
	for (const char *p = s;; p++) {
		size_t len = strcspn(p, ",");

		if (r->nset == IL_UNC_SET_MAX || parse_bound(p, len, false, NULL, &r->set[r->nset]))
			return -1;
		r->nset++;
		p += len;
		if (!*p)
			break;
	}
	if (r->nset < 2)
		return -1;
	qsort(r->set, (size_t)r->nset, sizeof(r->set[0]), cmp_double);
	for (int i = 1; i < r->nset; i++)
		if (r->set[i] == r->set[i - 1])
			return -1;
	r->lo = r->set[0];
	r->hi = r->set[r->nset - 1];
	return 0;
}

int il_unc_range_parse(const char *s, bool time, struct il_unc_range *r, const char **why)
{
	const char *dots = strstr(s, "..");
	size_t llen, hlen;

	*why = "not LO..HI";
	if (!dots && strchr(s, ','))
		return parse_set(s, time, r, why);
	if (!dots)
		return -1;
	llen = (size_t)(dots - s);
	hlen = strlen(dots + 2);
	if (llen && s[llen - 1] == 'x') {
		r->kind = IL_UNC_RATIO;
		*why = "a ratio range is two plain factors, e.g. 0.5x..2x";
		if (parse_factor(s, llen, &r->lo) || parse_factor(dots + 2, hlen, &r->hi))
			return -1;
	} else {
		r->kind = IL_UNC_ABS;
		*why = time ? "a time range is LO..HI with a unit ns, us or ms, e.g. 600..1200ns"
			    : "a count range is LO..HI in plain integers, e.g. 50000..200000";
		if (parse_bound(dots + 2, hlen, time, NULL, &r->hi) ||
		    parse_bound(s, llen, time, time_unit(dots + 2, hlen), &r->lo))
			return -1;
	}
	*why = "LO is above HI";
	return r->lo > r->hi ? -1 : 0;
}

bool il_unc_range_holds(const struct il_unc_range *r, double nominal)
{
	switch (r->kind) {
	case IL_UNC_RATIO:
		return r->lo <= 1.0 && r->hi >= 1.0;
	case IL_UNC_ABS:
		return r->lo <= nominal && nominal <= r->hi;
	case IL_UNC_SET:
		for (int i = 0; i < r->nset; i++)
			if (r->set[i] == nominal)
				return true;
		return false;
	default:
		return true;
	}
}

double il_unc_range_lo(const struct il_unc_range *r, double nominal)
{
	return r->kind == IL_UNC_RATIO ? nominal * r->lo :
	       r->kind == IL_UNC_NO_RANGE ? nominal : r->lo;
}

double il_unc_range_hi(const struct il_unc_range *r, double nominal)
{
	return r->kind == IL_UNC_RATIO ? nominal * r->hi :
	       r->kind == IL_UNC_NO_RANGE ? nominal : r->hi;
}

double il_unc_range_at(const struct il_unc_range *r, double nominal, double u)
{
	switch (r->kind) {
	case IL_UNC_RATIO:
		return nominal * exp(log(r->lo) + u * (log(r->hi) - log(r->lo)));
	case IL_UNC_ABS:
		return r->lo + u * (r->hi - r->lo);
	case IL_UNC_SET: {
		int i = (int)(u * r->nset);

		return r->set[i < 0 ? 0 : i >= r->nset ? r->nset - 1 : i];
	}
	default:
		return nominal;
	}
}

static void format_set(const struct il_unc_range *r, char *buf, size_t cap)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < r->nset && len < cap; i++)
		len += (size_t)snprintf(buf + len, cap - len, "%s%.0f", i ? "," : "", r->set[i]);
}

const char *il_unc_range_format(const struct il_unc_range *r, bool time, char *buf, size_t cap)
{
	if (r->kind == IL_UNC_RATIO)
		snprintf(buf, cap, "%gx..%gx", r->lo, r->hi);
	else if (r->kind == IL_UNC_ABS)
		snprintf(buf, cap, "%.0f..%.0f%s", r->lo, r->hi, time ? "ns" : "");
	else if (r->kind == IL_UNC_SET)
		format_set(r, buf, cap);
	else
		snprintf(buf, cap, "-");
	return buf;
}

/* ---- platform files ------------------------------------------------------------------------ */

/* The keys of an "uncertain:" line after the field's name. */
struct unc_keys {
	const char *cls, *range, *why, *fitted_to;
};

static int unc_keys(const struct il_token *toks, int n, struct unc_keys *k, const char *file,
		    int line, struct il_error *err)
{
	memset(k, 0, sizeof(*k));
	for (int i = 1; i < n; i++) {
		const char **slot = !strcmp(toks[i].key, "class")     ? &k->cls :
				    !strcmp(toks[i].key, "range")     ? &k->range :
				    !strcmp(toks[i].key, "why")       ? &k->why :
				    !strcmp(toks[i].key, "fitted_to") ? &k->fitted_to : NULL;

		if (!slot || !toks[i].has_value)
			return il_error_set(err, file, line, "'uncertain:' takes class=, range=, "
					    "why= and fitted_to=, not '%s'", toks[i].key);
		if (*slot)
			return il_error_set(err, file, line, "'%s=' given twice", toks[i].key);
		if (!toks[i].value[0])
			return il_error_set(err, file, line, "empty '%s='", toks[i].key);
		*slot = toks[i].value;
	}
	if (!k->cls)
		return il_error_set(err, file, line, "'uncertain:' needs class= (measured, "
				    "datasheet, fitted or assumed)");
	return 0;
}

/* A kernel is built with one CONFIG_HZ of kernel/Kconfig.hz: hz varies over a set of them. */
static bool hz_range_ok(const struct il_unc_range *r)
{
	if (r->kind == IL_UNC_NO_RANGE)
		return true;
	if (r->kind != IL_UNC_SET)
		return false;
	for (int i = 0; i < r->nset; i++)
		if (!il_config_hz_valid((uint64_t)r->set[i]))
			return false;
	return true;
}

/* The class and range of @k into @u, checked against the field's nominal @nominal. */
static int unc_fill(struct il_plat_unc *u, const struct unc_keys *k, double nominal,
		    const char *name, const char *file, int line, struct il_error *err)
{
	int cls = il_unc_class_find(k->cls);
	const char *why;

	if (cls < 0)
		return il_error_set(err, file, line, "unknown class '%s' (measured, datasheet, "
				    "fitted or assumed)", k->cls);
	u->cls = (enum il_unc_class)cls;
	if ((cls == IL_UNC_FITTED) != !!k->fitted_to)
		return il_error_set(err, file, line, cls == IL_UNC_FITTED ?
				    "a fitted %s needs fitted_to= (what it was fitted to)" :
				    "fitted_to= on %s, which is not fitted", name);
	if (!k->range && (cls == IL_UNC_FITTED || cls == IL_UNC_ASSUMED))
		return il_error_set(err, file, line, "%s is %s: it needs range= (how far it may "
				    "be off)", name, k->cls);
	if (k->range && !k->why)
		return il_error_set(err, file, line, "range of %s without why= (where the range "
				    "comes from)", name);
	u->range.kind = IL_UNC_NO_RANGE;
	if (k->range && il_unc_range_parse(k->range, il_plat_field_is_time(u->field), &u->range,
					   &why))
		return il_error_set(err, file, line, "invalid range '%s' of %s: %s", k->range, name,
				    why);
	if (!il_unc_range_holds(&u->range, nominal))
		return il_error_set(err, file, line,
				    "range %s of %s excludes its nominal value %.0f", k->range,
				    name, nominal);
	if (u->field == IL_PF_HZ && !hz_range_ok(&u->range))
		return il_error_set(err, file, line, "range %s of hz is not a set of CONFIG_HZ "
				    "values (100, 250, 300, 1000), e.g. 250,1000", k->range);
	snprintf(u->why, sizeof(u->why), "%s", k->why ? k->why : "");
	snprintf(u->fitted_to, sizeof(u->fitted_to), "%s", k->fitted_to ? k->fitted_to : "");
	return 0;
}

int il_plat_unc_line(struct il_platform *plat, const struct il_plat_unc_target *t,
		     const struct il_token *toks, int n, const char *file, int line,
		     struct il_error *err)
{
	struct il_plat_unc *u;
	struct unc_keys k;
	int f;

	if (n < 1 || toks[0].has_value)
		return il_error_set(err, file, line,
				    "'uncertain:' starts with the field it is about "
				    "(hz, active_power_uw, or a state's exit_latency, "
				    "target_residency, power_uw, entry_exit_energy_nj, "
				    "core_exit_latency)");
	f = il_plat_field_find(toks[0].key);
	if (f < 0 || !(t->fields_set & (1u << f)))
		return il_error_set(err, file, line, "%s sets no '%s' to be uncertain about",
				    t->item, toks[0].key);
	if (unc_keys(toks, n, &k, file, line, err))
		return -1;
	for (int i = 0; i < plat->nunc; i++)
		if (plat->unc[i].state == t->state && plat->unc[i].table == t->table &&
		    plat->unc[i].field == (enum il_plat_field)f)
			return il_error_set(err, file, line,
					    "%s of %s is annotated twice (first on line %d)",
					    toks[0].key, t->item, plat->unc[i].line);
	if (plat->nunc == IL_PLAT_UNC_MAX)
		return il_error_set(err, file, line, "more than %d uncertain parameters",
				    IL_PLAT_UNC_MAX);
	u = &plat->unc[plat->nunc];
	memset(u, 0, sizeof(*u));
	u->field = (enum il_plat_field)f;
	u->state = t->state;
	u->table = t->table;
	u->line = line;
	if (unc_fill(u, &k, t->nominal[f], toks[0].key, file, line, err))
		return -1;
	plat->nunc++;
	return 0;
}

/*
 * The state @u is about, in the table it was written under: each table holds its own copy
 * of its states (plat->tables[t].drv, what the lab's CPUs read); plat->drv is tables[0]'s.
 */
static struct il_state *unc_state(struct il_platform *plat, const struct il_plat_unc *u)
{
	if (u->state < 0)
		return NULL;
	if (u->table >= 0)
		return &plat->tables[u->table].drv.states[u->state];
	return &plat->drv.states[u->state];
}

const char *il_plat_unc_name(const struct il_platform *plat, const struct il_plat_unc *u, char *buf,
			     size_t cap)
{
	const struct il_state *s = unc_state((struct il_platform *)plat, u);

	if (!s)
		snprintf(buf, cap, "%s", il_plat_field_name(u->field));
	else if (plat->ntables > 1) /* a state's name may repeat across tables (WFI) */
		snprintf(buf, cap, "%s.%s.%s", plat->tables[u->table].name, s->name,
			 il_plat_field_name(u->field));
	else
		snprintf(buf, cap, "%s.%s", s->name, il_plat_field_name(u->field));
	return buf;
}

double il_platform_param(const struct il_platform *plat, const struct il_plat_unc *u)
{
	const struct il_state *s = unc_state((struct il_platform *)plat, u);

	switch (u->field) {
	case IL_PF_ACTIVE_POWER:
		return (double)plat->active_power_uw;
	case IL_PF_EXIT:
		return (double)s->exit_latency_ns;
	case IL_PF_RESIDENCY:
		return (double)s->target_residency_ns;
	case IL_PF_POWER:
		return (double)s->power_uw;
	case IL_PF_ENERGY:
		return (double)s->entry_exit_energy_nj;
	case IL_PF_CORE_EXIT:
		return (double)s->core_exit_latency_ns;
	case IL_PF_HZ:
		return (double)plat->hz;
	default:
		return 0.0;
	}
}

/* Set field @u->field of state @s (NULL: the platform's active power) to @x. */
static void param_store(struct il_platform *plat, const struct il_plat_unc *u,
			struct il_state *s, u64 x)
{
	switch (u->field) {
	case IL_PF_ACTIVE_POWER:
		plat->active_power_uw = x ? x : 1; /* 0 would read as "no active power" */
		break;
	case IL_PF_EXIT:
		s->exit_latency_ns = (s64)x;
		s->exit_latency = (unsigned int)(x / NSEC_PER_USEC);
		break;
	case IL_PF_RESIDENCY:
		s->target_residency_ns = (s64)x;
		s->target_residency = (unsigned int)(x / NSEC_PER_USEC);
		break;
	case IL_PF_POWER:
		s->power_uw = x;
		break;
	case IL_PF_ENERGY:
		s->entry_exit_energy_nj = x;
		break;
	case IL_PF_CORE_EXIT:
		s->core_exit_latency_ns = (s64)x;
		break;
	case IL_PF_HZ:
		plat->hz = (unsigned int)x; /* a value of the checked set (hz_range_ok()) */
		break;
	default:
		break;
	}
}

void il_platform_param_set(struct il_platform *plat, const struct il_plat_unc *u, double v)
{
	u64 x = v <= 0 ? 0 : (u64)llround(v);

	param_store(plat, u, unc_state(plat, u), x);
	/* plat->drv is a copy of tables[0]: single-table code (and the one-table case) reads it */
	if (u->table == 0)
		param_store(plat, u, &plat->drv.states[u->state], x);
}
