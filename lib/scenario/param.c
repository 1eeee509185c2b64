// SPDX-License-Identifier: GPL-2.0-only
/*
 * param.c - "NAME:k=v,k=v" scenario specs: typed values, units, ranges, common parameters.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "../util/parse.h"

#define SPEC_LEN 512

int il_scn_nparams(const struct il_scenario *scn)
{
	int n = 0;

	while (scn->params && scn->params[n].name)
		n++;
	return n;
}

int il_scn_param_index(const struct il_scenario *scn, const char *name)
{
	for (int i = 0; i < il_scn_nparams(scn); i++)
		if (!strcmp(scn->params[i].name, name))
			return i;
	return -1;
}

void il_scn_defaults(const struct il_scenario *scn, struct il_scn_args *args)
{
	memset(args, 0, sizeof(*args));
	for (int i = 0; i < il_scn_nparams(scn); i++)
		args->v[i] = scn->params[i].def;
}

/* Multiplier of a unit suffix relative to the parameter's unit, 0 if it does not apply. */
static s64 unit_scale(const char *unit, const char *suffix)
{
	if (!*suffix || !strcmp(suffix, unit))
		return 1;
	if (!strcmp(unit, "us") && !strcmp(suffix, "ms"))
		return 1000;
	if (!strcmp(unit, "us") && !strcmp(suffix, "s"))
		return 1000000;
	if (!strcmp(unit, "ms") && !strcmp(suffix, "s"))
		return 1000;
	if (!strcmp(unit, "pct") && !strcmp(suffix, "%"))
		return 1;
	return 0;
}

static int parse_int(const char *text, const char *unit, s64 *out)
{
	char *end;
	long long v;
	s64 scale;

	errno = 0;
	v = strtoll(text, &end, 10);
	if (errno || end == text)
		return -1;
	scale = unit_scale(unit ? unit : "", end);
	if (!scale || (v && (v > INT64_MAX / scale || v < INT64_MIN / scale)))
		return -1;
	*out = (s64)v * scale;
	return 0;
}

static int parse_enum(const struct il_scn_param *p, const char *text, s64 *out)
{
	for (int i = 0; p->choices[i]; i++) {
		if (!strcmp(p->choices[i], text)) {
			*out = i;
			return 0;
		}
	}
	return -1;
}

static int set_param(const struct il_scenario *scn, struct il_scn_args *args, const char *key,
		     const char *val, struct il_error *err)
{
	int i = il_scn_param_index(scn, key);
	const struct il_scn_param *p;
	s64 v;

	if (i < 0)
		return il_error_set(err, scn->name, 0, "unknown parameter '%s'", key);
	p = &scn->params[i];
	if (p->type == IL_SCN_ENUM) {
		if (parse_enum(p, val, &v))
			return il_error_set(err, scn->name, 0, "%s: '%s' is not one of its choices",
					    key, val);
	} else {
		if (parse_int(val, p->unit, &v))
			return il_error_set(err, scn->name, 0, "%s: '%s' is not an integer in %s",
					    key, val,
					    p->unit && *p->unit ? p->unit : "plain units");
		if (v < p->min || v > p->max)
			return il_error_set(err, scn->name, 0,
					    "%s=%" PRId64 " is outside [%" PRId64 ", %" PRId64 "]",
					    key, v, p->min, p->max);
	}
	args->v[i] = v;
	args->set[i] = true;
	return 0;
}

/*
 * One item of a nohz_full= CPU list, as the kernel's cpulist: "N" or "A-B". The kernel's
 * separator is the comma, which also separates k=v pairs here: parse_pairs() hands the items
 * after "nohz_full=" that have no '=' to this function as well.
 */
static int add_nohz_full(struct il_scn_common *common, const char *item, struct il_error *err)
{
	char *end;
	long a, b;

	a = strtol(item, &end, 10);
	b = a;
	if (end != item && *end == '-') {
		const char *second = end + 1;

		b = strtol(second, &end, 10);
		if (end == second)
			end = (char *)item; /* force the error below */
	}
	if (end == item || *end || a < 0 || b < a || b >= IL_SIM_CPUS_MAX)
		return il_error_set(err, "nohz_full", 0,
				    "'%s' is not a CPU or a range A-B of CPUs below %d", item,
				    IL_SIM_CPUS_MAX);
	for (long cpu = a; cpu <= b; cpu++)
		common->nohz_full[cpu / 64] |= 1ULL << (cpu % 64);
	common->has_nohz_full = true;
	return 0;
}

static int set_common(struct il_scn_common *common, const char *key, const char *val, bool *handled,
		      struct il_error *err)
{
	s64 v;

	*handled = true;
	if (!strcmp(key, "cpus")) {
		if (parse_int(val, "", &v) || v < 1 || v > IL_SIM_CPUS_MAX)
			return il_error_set(err, "cpus", 0, "'%s' is not a CPU count in [1, %d]",
					    val, IL_SIM_CPUS_MAX);
		common->cpus = (unsigned int)v;
	} else if (!strcmp(key, "tick_hz")) {
		/* The values CONFIG_HZ can take, as platform files are checked. */
		if (parse_int(val, "hz", &v) || v < 0 || !il_config_hz_valid((uint64_t)v))
			return il_error_set(err, "tick_hz", 0, "'%s' is not a CONFIG_HZ value "
					    "(100, 250, 300 or 1000)", val);
		common->hz = (unsigned int)v;
	} else if (!strcmp(key, "qos_us")) {
		if (parse_int(val, "us", &v) || v < 0 || v > S32_MAX)
			return il_error_set(err, "qos_us", 0, "'%s' is not a latency limit in µs",
					    val);
		common->qos_us = v;
	} else if (!strcmp(key, "ipi_ns")) {
		if (parse_int(val, "", &v) || v < 0 || v > 1000000000)
			return il_error_set(err, "ipi_ns", 0,
					    "'%s' is not an IPI delivery time in ns", val);
		common->ipi_ns = v;
	} else if (!strcmp(key, "rcu_pct")) {
		if (parse_int(val, "pct", &v) || v < 0 || v > 100)
			return il_error_set(err, "rcu_pct", 0, "'%s' is not a percentage", val);
		common->rcu_pct = v;
	} else if (!strcmp(key, "nohz_full")) {
		return add_nohz_full(common, val, err);
	} else {
		*handled = false;
	}
	return 0;
}

#define PARAM_MAX_PAIRS 64

static int parse_pairs(const struct il_scenario *scn, char *list, struct il_scn_args *args,
		       struct il_scn_common *common, struct il_error *err)
{
	bool in_nohz_list = false;
	const char *seen[PARAM_MAX_PAIRS];
	int nseen = 0;

	for (char *save = NULL, *kv = strtok_r(list, ",", &save); kv;
	     kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '=');
		bool handled;

		if (!eq && in_nohz_list) {
			if (add_nohz_full(common, kv, err))
				return -1;
			continue; /* the next item of nohz_full=A,B-C */
		}
		if (!eq || eq == kv)
			return il_error_set(err, scn->name, 0, "'%s' is not key=value", kv);
		*eq = '\0';
		in_nohz_list = !strcmp(kv, "nohz_full");
		/* A key given twice: which one was meant? Refused, as in rt-app files. */
		for (int i = 0; i < nseen; i++)
			if (!strcmp(seen[i], kv))
				return il_error_set(err, scn->name, 0, "'%s' given twice", kv);
		if (nseen == PARAM_MAX_PAIRS)
			return il_error_set(err, scn->name, 0, "more than %d parameters",
					    PARAM_MAX_PAIRS);
		seen[nseen++] = kv;
		if (set_common(common, kv, eq + 1, &handled, err))
			return -1;
		if (!handled && set_param(scn, args, kv, eq + 1, err))
			return -1;
	}
	return 0;
}

/*
 * The operand of a scenario that takes one: from the colon at *@rest to the first comma.
 * *@rest becomes the separator before the k=v pairs (NULL if there are none).
 */
static int take_operand(const struct il_scenario *scn, char **rest, struct il_scn_args *args,
			struct il_error *err)
{
	char *start = *rest ? *rest + 1 : NULL;
	char *comma = start ? strchr(start, ',') : NULL;

	if (!start || start == comma || !*start)
		return il_error_set(err, scn->name, 0, "no %s given: -s %s:%s[,k=v...]",
				    scn->operand, scn->name, scn->operand);
	if (comma)
		*comma = '\0';
	snprintf(args->operand, sizeof(args->operand), "%s", start);
	*rest = comma;
	return 0;
}

int il_scn_parse(const char *spec, const struct il_scenario **scn, struct il_scn_args *args,
		 struct il_scn_common *common, struct il_error *err)
{
	char buf[SPEC_LEN];
	char *colon;

	if (strlen(spec) >= sizeof(buf))
		return il_error_set(err, "scenario", 0, "specification too long");
	strcpy(buf, spec);
	colon = strchr(buf, ':');
	if (colon)
		*colon = '\0';
	*scn = il_scenario_find(buf);
	if (!*scn)
		return il_error_set(err, "scenario", 0,
				    "unknown scenario '%s' (see 'idlelab scenarios')", buf);
	il_scn_defaults(*scn, args);
	common->cpus = 0;
	common->hz = 0;
	common->qos_us = -1;
	common->ipi_ns = -1;
	common->rcu_pct = -1;
	common->min_cpus = 0;
	common->min_cpus_where[0] = '\0';
	memset(common->nohz_full, 0, sizeof(common->nohz_full));
	common->has_nohz_full = false;
	if ((*scn)->operand && take_operand(*scn, &colon, args, err))
		return -1;
	if (colon && parse_pairs(*scn, colon + 1, args, common, err))
		return -1;
	return (*scn)->check ? (*scn)->check(args, common, err) : 0;
}

void il_scn_format_args(const struct il_scenario *scn, const struct il_scn_args *args, char *buf,
			size_t cap)
{
	size_t len = 0;

	buf[0] = '\0';
	if (args->operand[0])
		len = (size_t)snprintf(buf, cap, "%s", args->operand);
	for (int i = 0; i < il_scn_nparams(scn) && len < cap; i++) {
		const struct il_scn_param *p = &scn->params[i];
		const char *sep = i || len ? "," : "";
		int n;

		if (p->type == IL_SCN_ENUM)
			n = snprintf(buf + len, cap - len, "%s%s=%s", sep, p->name,
				     p->choices[args->v[i]]);
		else
			n = snprintf(buf + len, cap - len, "%s%s=%" PRId64, sep, p->name,
				     args->v[i]);
		if (n < 0)
			break;
		len += (size_t)n;
	}
}

/* @p's uncertainty field @field, when set, names a parameter of @scn (@name). */
static int check_names_param(const struct il_scenario *scn, const struct il_scn_param *p,
			     const char *field, const char *name, struct il_error *err)
{
	if (name && il_scn_param_index(scn, name) < 0)
		return il_error_set(err, scn->name, 0, "%s: %s names no parameter '%s'", p->name,
				    field, name);
	return 0;
}

int il_scn_param_range(const struct il_scenario *scn, const struct il_scn_param *p,
		       struct il_unc_range *r, struct il_error *err)
{
	const struct il_scn_unc *u = p->unc;
	const char *why;

	r->kind = IL_UNC_NO_RANGE;
	if (check_names_param(scn, p, "off_with", p->off_with, err) ||
	    check_names_param(scn, p, "replaced_by", p->replaced_by, err))
		return -1;
	if (!u)
		return 0;
	if ((u->cls == IL_UNC_FITTED) != !!u->fitted_to)
		return il_error_set(err, scn->name, 0, "%s: fitted_to goes with class fitted",
				    p->name);
	if (!u->range)
		return u->cls == IL_UNC_FITTED || u->cls == IL_UNC_ASSUMED ?
			il_error_set(err, scn->name, 0, "%s: a %s value needs a range", p->name,
				     il_unc_class_name(u->cls)) : 0;
	if (!u->why || !*u->why)
		return il_error_set(err, scn->name, 0, "%s: a range needs why", p->name);
	if (il_unc_range_parse(u->range, false, r, &why))
		return il_error_set(err, scn->name, 0, "%s: invalid range '%s': %s", p->name,
				    u->range, why);
	if (!il_unc_range_holds(r, (double)p->def) && p->def > 0)
		return il_error_set(err, scn->name, 0, "%s: range %s excludes its default %" PRId64,
				    p->name, u->range, p->def);
	return 0;
}

u64 il_scn_start_ns(const struct il_sim *sim, s64 phase_us, u64 stream)
{
	struct il_rng rng;

	if (phase_us >= 0)
		return (u64)phase_us * NSEC_PER_USEC;
	il_sim_rng_init(sim, &rng, stream);
	return il_rng_below(&rng, il_sim_tick_ns(sim));
}
