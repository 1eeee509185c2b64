// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_platforms.c - `idlelab platforms [NAME|FILE]`: the built-in platforms, or one
 * platform's state table with the source of every number.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_JANSSON
#include <jansson.h>
#endif

#include "cli.h"
#include "commands.h"
#include "output/output.h"
#include "platform/platform.h"

int platforms_parse_args(int argc, char **argv, struct platforms_args *args, struct cli_error *err)
{
	memset(args, 0, sizeof(*args));
	return cli_parse_listing_args(argc, argv, &args->format, &args->platform, "platform", err);
}

void cmd_platforms_usage(FILE *out)
{
	fprintf(out, "usage: idlelab platforms [-f table|csv|json] [NAME | FILE.plat]\n"
		     "\n"
		     "Without an argument, list the built-in platforms: name, CPUs, CONFIG_HZ, "
		     "driver\n"
		     "and idle states (exit latency / target residency in us). With a built-in "
		     "NAME or\n"
		     "a platform file (any argument with a '/' or ending in .plat), show its "
		     "state\n"
		     "table with flags, power model and the source of every number.\n"
		     "The file format is described in docs/platforms.md.\n"
		     "\n"
		     "  -f, --format FMT   table (default), csv or json\n");
}

/* "POLL 0/0, C1 2/2, ..." (µs) into @buf. */
static const char *states_summary(const struct il_driver *drv, char *buf, size_t cap)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < drv->state_count && used < cap; i++) {
		char lat[32], res[32];

		used += (size_t)snprintf(buf + used, cap - used, "%s%s %s/%s", i ? ", " : "",
					 drv->states[i].name,
					 cli_ns_to_us(drv->states[i].exit_latency_ns, lat,
						      sizeof(lat)),
					 cli_ns_to_us(drv->states[i].target_residency_ns, res,
						      sizeof(res)));
	}
	return buf;
}

static int load_builtin(int i, struct il_platform *plat)
{
	struct il_error err;

	if (il_platform_load(il_platform_builtin_name(i), plat, &err)) {
		/* A built-in that does not parse is a build bug; say which one. */
		fprintf(stderr, "idlelab platforms: %s\n", err.msg);
		return -1;
	}
	return 0;
}

static int list_table(FILE *out, struct il_platform *plat)
{
	char states[1024];

	fprintf(out, "%-12s %5s %5s %-13s %s\n", "NAME", "CPUS", "HZ", "DRIVER",
		"STATES (exit latency/target residency, us)");
	for (int i = 0; i < il_platform_builtin_count(); i++) {
		if (load_builtin(i, plat))
			return -1;
		fprintf(out, "%-12s %5u %5u %-13s %s\n", plat->name, plat->cpus, plat->hz,
			plat->drv.name, states_summary(&plat->drv, states, sizeof(states)));
	}
	return 0;
}

static int list_csv(FILE *out, struct il_platform *plat)
{
	char states[1024];

	fprintf(out, "name,cpus,hz,driver,states,description\n");
	for (int i = 0; i < il_platform_builtin_count(); i++) {
		if (load_builtin(i, plat))
			return -1;
		il_csv_field(out, plat->name);
		fprintf(out, ",%u,%u,", plat->cpus, plat->hz);
		il_csv_field(out, plat->drv.name);
		fputc(',', out);
		il_csv_field(out, states_summary(&plat->drv, states, sizeof(states)));
		fputc(',', out);
		il_csv_field(out, plat->description);
		fputc('\n', out);
	}
	return 0;
}

/* The "uncertain:" lines: each annotated number's class, range and where the range comes from. */
static void uncertain_table(FILE *out, const struct il_platform *plat)
{
	char name[64], range[64];

	if (!plat->nunc) {
		fprintf(out, "\nuncertain parameters: none declared (an ensemble runs the nominal "
			     "model)\n");
		return;
	}
	fprintf(out, "\nuncertain parameters (class, range, why; docs/platforms.md):\n");
	for (int i = 0; i < plat->nunc; i++) {
		const struct il_plat_unc *u = &plat->unc[i];

		fprintf(out, "  %-28s %-9s %-16s %s", il_plat_unc_name(plat, u, name, sizeof(name)),
			il_unc_class_name(u->cls),
			il_unc_range_format(&u->range, il_plat_field_is_time(u->field), range,
					    sizeof(range)),
			u->why);
		if (u->fitted_to[0])
			fprintf(out, " (fitted to %s)", u->fitted_to);
		fputc('\n', out);
	}
}

/* A measured spread (actual_exit_latency, timer_late, timer_handler) in µs: "LO..HI" or "T". */
static const char *spread_us(s64 lo_ns, s64 hi_ns, char *buf, size_t cap)
{
	char lo[32], hi[32];

	cli_ns_to_us(lo_ns, lo, sizeof(lo));
	cli_ns_to_us(hi_ns, hi, sizeof(hi));
	if (lo_ns == hi_ns)
		snprintf(buf, cap, "%s", lo);
	else
		snprintf(buf, cap, "%s..%s", lo, hi);
	return buf;
}

/* The states whose wake costs what was measured, not EXIT_US (actual_exit_latency). */
static void actual_costs(FILE *out, const struct il_platform *plat)
{
	char cost[72];

	for (int i = 0; i < plat->drv.state_count; i++) {
		const struct il_state *s = &plat->drv.states[i];

		if (!s->actual_exit_max_ns)
			continue;
		fprintf(out, "%s: a wake costs %s us%s (measured; the governors read EXIT_US)\n",
			s->name,
			spread_us(s->actual_exit_min_ns, s->actual_exit_max_ns, cost, sizeof(cost)),
			s->actual_exit_min_ns == s->actual_exit_max_ns ?
				"" : ", each drawn in that range");
	}
}

static void state_rows(FILE *out, const struct il_driver *drv)
{
	char flags[128], lat[32], res[32];

	fprintf(out, "\n%3s %-15s %-31s %10s %10s %-20s %10s %12s\n", "IDX", "NAME", "DESC",
		"EXIT_US", "RESID_US", "FLAGS", "POWER_UW", "ENTRY_EXIT_NJ");
	for (int i = 0; i < drv->state_count; i++) {
		const struct il_state *s = &drv->states[i];

		fprintf(out, "%3d %-15s %-31s %10s %10s %-20s %10llu %12llu\n", i, s->name,
			s->desc[0] ? s->desc : "-", cli_ns_to_us(s->exit_latency_ns, lat,
				sizeof(lat)),
			cli_ns_to_us(s->target_residency_ns, res, sizeof(res)),
			il_flag_names(s->flags, flags, sizeof(flags)),
				(unsigned long long)s->power_uw,
			(unsigned long long)s->entry_exit_energy_nj);
	}
}

/* Per-CPU tables: each with its CPUs; then the domains. */
static void topology_table(FILE *out, const struct il_platform *plat)
{
	char cpus[256], lat[32];

	for (int t = 0; t < plat->ntables; t++) {
		fprintf(out, "\ntable %s (CPUs %s):", plat->tables[t].name,
			il_platform_table_cpus(plat, t, cpus, sizeof(cpus)));
		state_rows(out, &plat->tables[t].drv);
	}
	if (plat->ndomains)
		fprintf(out, "\n%-15s %-20s %-4s %-24s %s\n", "DOMAIN", "CPUS", "MODE", "STATES",
			"REJECT_US");
	for (int i = 0; i < plat->ndomains; i++) {
		const struct il_domain *d = &plat->domains[i];

		const char *reject = d->mode == IL_DOMAIN_OSI ?
			cli_ns_to_us(d->reject_latency_ns, lat, sizeof(lat)) : "-";

		fprintf(out, "%-15s %-20s %-4s %-24s %s\n", d->name,
			il_domain_cpus(plat, d, cpus, sizeof(cpus)), il_domain_mode_name(d->mode),
			d->states_text, reject);
	}
}

static void topology_sources(FILE *out, const struct il_platform *plat)
{
	for (int t = 0; t < plat->ntables; t++) {
		const struct il_plat_table *tab = &plat->tables[t];

		fprintf(out, "  table %s: %s\n", tab->name, tab->cpus_source);
		for (int i = 0; i < tab->drv.state_count; i++)
			fprintf(out, "  %s %s: %s\n", tab->name, tab->drv.states[i].name,
				tab->state_source[i]);
	}
	for (int i = 0; i < plat->ndomains; i++)
		fprintf(out, "  domain %s: %s\n", plat->domains[i].name, plat->domains[i].source);
}


static void detail_table(FILE *out, const struct il_platform *plat)
{
	char spread[72];

	fprintf(out, "platform:    %s (%s)\n", plat->name, plat->origin);
	fprintf(out, "description: %s\n", plat->description);
	fprintf(out, "driver:      %s\n", plat->drv.name);
	fprintf(out, "cpus:        %u\n", plat->cpus);
	fprintf(out, "hz:          %u\n", plat->hz);
	if (plat->host_threads)
		fprintf(out, "host threads: %u (an IPI from a running CPU waits for a free one)\n",
			plat->host_threads);
	if (plat->timer_late_max_ns)
		fprintf(out, "timer late:  %s us (after the expiry; governors read the expiry)\n",
			spread_us(plat->timer_late_min_ns, plat->timer_late_max_ns, spread,
				  sizeof(spread)));
	if (plat->timer_handler_max_ns)
		fprintf(out, "timer handler: %s us (on its CPU, and on a host thread)\n",
			spread_us(plat->timer_handler_min_ns, plat->timer_handler_max_ns, spread,
				  sizeof(spread)));
	if (plat->active_power_uw)
		fprintf(out, "active:      %llu uW per busy CPU\n",
			(unsigned long long)plat->active_power_uw);
	if (plat->ntables > 1 || plat->ndomains)
		topology_table(out, plat);
	if (plat->ntables <= 1)
		state_rows(out, &plat->drv);
	if (!plat->power_known)
		fprintf(out, "(the power model is incomplete: some states lack power_uw or "
			     "entry_exit_energy_nj)\n");
	actual_costs(out, plat);
	fprintf(out, "\nsources:\n  cpus: %s\n  hz: %s\n", plat->cpus_source, plat->hz_source);
	if (plat->active_power_uw)
		fprintf(out, "  active_power_uw: %s\n", plat->active_power_source);
	if (plat->host_threads)
		fprintf(out, "  host_threads: %s\n", plat->host_threads_source);
	if (plat->timer_late_max_ns)
		fprintf(out, "  timer_late: %s\n", plat->timer_late_source);
	if (plat->timer_handler_max_ns)
		fprintf(out, "  timer_handler: %s\n", plat->timer_handler_source);
	if (plat->ntables <= 1)
		for (int i = 0; i < plat->drv.state_count; i++)
			fprintf(out, "  %s: %s\n", plat->drv.states[i].name, plat->state_source[i]);
	topology_sources(out, plat);
	uncertain_table(out, plat);
}

static void detail_csv(FILE *out, const struct il_platform *plat)
{
	char flags[128], lat[32], res[32];

	fprintf(out, "platform,index,name,desc,exit_latency_us,target_residency_us,flags,power_uw,"
		     "entry_exit_energy_nj,source\n");
	for (int i = 0; i < plat->drv.state_count; i++) {
		const struct il_state *s = &plat->drv.states[i];

		il_csv_field(out, plat->name);
		fprintf(out, ",%d,", i);
		il_csv_field(out, s->name);
		fputc(',', out);
		il_csv_field(out, s->desc);
		fprintf(out, ",%s,%s,%s,%llu,%llu,", cli_ns_to_us(s->exit_latency_ns, lat,
			sizeof(lat)),
			cli_ns_to_us(s->target_residency_ns, res, sizeof(res)),
			il_flag_names(s->flags, flags, sizeof(flags)),
				(unsigned long long)s->power_uw,
			(unsigned long long)s->entry_exit_energy_nj);
		il_csv_field(out, plat->state_source[i]);
		fputc('\n', out);
	}
}

#ifdef HAVE_JANSSON
static json_t *uncertain_json(const struct il_platform *plat)
{
	json_t *arr = json_array();
	char name[64], range[64];

	for (int i = 0; i < plat->nunc; i++) {
		const struct il_plat_unc *u = &plat->unc[i];
		json_t *o = json_object();

		json_object_set_new(o, "param", json_string(il_plat_unc_name(plat, u, name,
			sizeof(name))));
		json_object_set_new(o, "class", json_string(il_unc_class_name(u->cls)));
		json_object_set_new(o, "range", json_string(il_unc_range_format(
			&u->range, il_plat_field_is_time(u->field), range, sizeof(range))));
		json_object_set_new(o, "why", json_string(u->why));
		if (u->fitted_to[0])
			json_object_set_new(o, "fitted_to", json_string(u->fitted_to));
		json_array_append_new(arr, o);
	}
	return arr;
}

static json_t *states_json(const struct il_driver *drv, const char (*sources)[IL_PLAT_SOURCE_LEN])
{
	json_t *states = json_array();
	char flags[128];

	for (int i = 0; i < drv->state_count; i++) {
		const struct il_state *s = &drv->states[i];
		json_t *js = json_object();

		json_object_set_new(js, "name", json_string(s->name));
		json_object_set_new(js, "desc", json_string(s->desc));
		json_object_set_new(js, "exit_latency_ns", json_integer(s->exit_latency_ns));
		json_object_set_new(js, "target_residency_ns",
				    json_integer(s->target_residency_ns));
		json_object_set_new(js, "flags", json_string(il_flag_names(s->flags, flags,
			sizeof(flags))));
		json_object_set_new(js, "power_uw", json_integer((json_int_t)s->power_uw));
		json_object_set_new(js, "entry_exit_energy_nj",
				    json_integer((json_int_t)s->entry_exit_energy_nj));
		if (sources)
			json_object_set_new(js, "source", json_string(sources[i]));
		json_array_append_new(states, js);
	}
	return states;
}

/* Per-CPU tables and domains: "tables" and "domains" arrays, only when the file has them. */
static void topology_json(json_t *o, const struct il_platform *plat, bool with_sources)
{
	json_t *tables = json_array(), *domains = json_array();
	char cpus[256];

	for (int t = 0; t < plat->ntables; t++) {
		const struct il_plat_table *tab = &plat->tables[t];
		json_t *jt = json_object();

		json_object_set_new(jt, "name", json_string(tab->name));
		json_object_set_new(jt, "cpus", json_string(il_platform_table_cpus(plat, t, cpus,
									       sizeof(cpus))));
		json_object_set_new(jt, "states",
				    states_json(&tab->drv,
						with_sources ? tab->state_source : NULL));
		if (with_sources)
			json_object_set_new(jt, "source", json_string(tab->cpus_source));
		json_array_append_new(tables, jt);
	}
	for (int i = 0; i < plat->ndomains; i++) {
		const struct il_domain *d = &plat->domains[i];
		json_t *jd = json_object();

		json_object_set_new(jd, "name", json_string(d->name));
		json_object_set_new(jd, "cpus",
				    json_string(il_domain_cpus(plat, d, cpus, sizeof(cpus))));
		json_object_set_new(jd, "states", json_string(d->states_text));
		json_object_set_new(jd, "mode", json_string(il_domain_mode_name(d->mode)));
		if (d->mode == IL_DOMAIN_OSI)
			json_object_set_new(jd, "reject_latency_ns",
					    json_integer(d->reject_latency_ns));
		if (with_sources)
			json_object_set_new(jd, "source", json_string(d->source));
		json_array_append_new(domains, jd);
	}
	if (plat->ntables)
		json_object_set_new(o, "tables", tables);
	else
		json_decref(tables);
	if (plat->ndomains)
		json_object_set_new(o, "domains", domains);
	else
		json_decref(domains);
}

static json_t *platform_json(const struct il_platform *plat, bool with_sources)
{
	json_t *o = json_object();

	json_object_set_new(o, "name", json_string(plat->name));
	json_object_set_new(o, "description", json_string(plat->description));
	json_object_set_new(o, "origin", json_string(plat->origin));
	json_object_set_new(o, "driver", json_string(plat->drv.name));
	json_object_set_new(o, "cpus", json_integer(plat->cpus));
	json_object_set_new(o, "hz", json_integer(plat->hz));
	if (plat->host_threads)
		json_object_set_new(o, "host_threads", json_integer(plat->host_threads));
	if (plat->timer_late_max_ns) {
		json_object_set_new(o, "timer_late_min_ns", json_integer(plat->timer_late_min_ns));
		json_object_set_new(o, "timer_late_max_ns", json_integer(plat->timer_late_max_ns));
	}
	if (plat->timer_handler_max_ns) {
		json_object_set_new(o, "timer_handler_min_ns",
				    json_integer(plat->timer_handler_min_ns));
		json_object_set_new(o, "timer_handler_max_ns",
				    json_integer(plat->timer_handler_max_ns));
	}
	json_object_set_new(o, "power_known", json_boolean(plat->power_known));
	if (plat->active_power_uw)
		json_object_set_new(o, "active_power_uw",
				    json_integer((json_int_t)plat->active_power_uw));
	json_object_set_new(o, "states",
			    states_json(&plat->drv, with_sources ? plat->state_source : NULL));
	topology_json(o, plat, with_sources);
	if (with_sources) {
		json_object_set_new(o, "cpus_source", json_string(plat->cpus_source));
		json_object_set_new(o, "hz_source", json_string(plat->hz_source));
		if (plat->active_power_uw)
			json_object_set_new(o, "active_power_source",
					    json_string(plat->active_power_source));
		if (plat->host_threads)
			json_object_set_new(o, "host_threads_source",
					    json_string(plat->host_threads_source));
		if (plat->timer_late_max_ns)
			json_object_set_new(o, "timer_late_source",
					    json_string(plat->timer_late_source));
		if (plat->timer_handler_max_ns)
			json_object_set_new(o, "timer_handler_source",
					    json_string(plat->timer_handler_source));
		json_object_set_new(o, "uncertain", uncertain_json(plat));
	}
	return o;
}

static int dump_json(FILE *out, json_t *root)
{
	int ret = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);

	fputc('\n', out);
	json_decref(root);
	return ret;
}

static int list_json(FILE *out, struct il_platform *plat)
{
	json_t *arr = json_array();

	for (int i = 0; i < il_platform_builtin_count(); i++) {
		if (load_builtin(i, plat)) {
			json_decref(arr);
			return -1;
		}
		json_array_append_new(arr, platform_json(plat, false));
	}
	return dump_json(out, arr);
}

static int detail_json(FILE *out, const struct il_platform *plat)
{
	return dump_json(out, platform_json(plat, true));
}
#endif

#ifndef HAVE_JANSSON
static int no_json(void)
{
	fprintf(stderr, "idlelab platforms: JSON output needs libjansson (install libjansson-dev "
			"and "
			"rebuild)\n");
	return CLI_EXIT_RUNTIME;
}
#endif

static int show_list(enum cli_format format)
{
	struct il_platform *plat = malloc(sizeof(*plat));
	int ret = -1;

	if (!plat) {
		fprintf(stderr, "idlelab platforms: out of memory\n");
		return CLI_EXIT_RUNTIME;
	}
	switch (format) {
	case CLI_FORMAT_CSV:
		ret = list_csv(stdout, plat);
		break;
	case CLI_FORMAT_JSON:
#ifdef HAVE_JANSSON
		ret = list_json(stdout, plat);
		break;
#else
		free(plat);
		return no_json();
#endif
	default:
		ret = list_table(stdout, plat);
	}
	free(plat);
	return ret ? CLI_EXIT_RUNTIME : CLI_EXIT_OK;
}

static int show_one(const char *spec, enum cli_format format)
{
	struct il_platform *plat = malloc(sizeof(*plat));
	struct il_error err;
	int ret = CLI_EXIT_OK;

	if (!plat) {
		fprintf(stderr, "idlelab platforms: out of memory\n");
		return CLI_EXIT_RUNTIME;
	}
	if (il_platform_load(spec, plat, &err)) {
		/* A file's error is FILE:LINE: what, as a compiler says it; a name is a usage
		 * error. */
		bool file = il_platform_is_path(spec);

		if (file)
			fprintf(stderr, "%s\n", err.msg);
		else
			cli_usage_error("platforms", err.msg);
		free(plat);
		return file ? CLI_EXIT_RUNTIME : CLI_EXIT_USAGE;
	}
	switch (format) {
	case CLI_FORMAT_CSV:
		detail_csv(stdout, plat);
		break;
	case CLI_FORMAT_JSON:
#ifdef HAVE_JANSSON
		if (detail_json(stdout, plat))
			ret = CLI_EXIT_RUNTIME;
#else
		ret = no_json();
#endif
		break;
	default:
		detail_table(stdout, plat);
	}
	free(plat);
	return ret;
}

static int platforms_parse(int argc, char **argv, void *state, struct cli_error *err)
{
	return platforms_parse_args(argc, argv, state, err);
}

static int platforms_main(void *state)
{
	struct platforms_args *args = state;

	if (args->platform)
		return show_one(args->platform, args->format);
	return show_list(args->format);
}

int cmd_platforms(int argc, char **argv)
{
	static const struct cli_lifecycle lc = {
		.name = "platforms", .size = sizeof(struct platforms_args),
			.parse = platforms_parse,
		.usage = cmd_platforms_usage, .run = platforms_main,
	};

	return cli_main(&lc, argc, argv);
}
