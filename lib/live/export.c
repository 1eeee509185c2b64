// SPDX-License-Identifier: GPL-2.0-only
/*
 * export.c - this machine as a platform file (docs/platforms.md), so that the lab and replay
 * can run governors on the state table the kernel really registered.
 *
 * What sysfs tells and what it does not:
 *  - name, desc, latency and residency (µs) of every state: exported as they are;
 *  - the polling flag: the cpuidle core's poll state is state0 named "POLL";
 *  - CPUIDLE_FLAG_OFF: default_status "disabled";
 *  - other flags (timer-stop, tlb-flushed, ...) and power, per state or active: not
 *    visible, so not exported (no power_uw, entry_exit_energy_nj or active_power_uw lines;
 *    the platform then has no power model, which the format allows);
 *  - CONFIG_HZ is not in sysfs: it comes from the kernel config, or the caller;
 *  - CPUs with different tables (an Arm SoC's clusters, a driver registering per-CPU
 *    states): every distinct table, each with the CPUs that have it (per_cpu_tables()),
 *    unless --cpu picks one CPU's table for all. A hybrid x86 part stays one table: intel_idle
 *    gives every CPU the boot CPU's.
 * The text is parsed back with il_platform_parse() before it is handed out, so a file
 * written from it always loads with -p.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

#include "live.h"
#include "../platform/platform.h"
#include "../util/parse.h"

/* ---- CONFIG_HZ ------------------------------------------------------------------------------- */

/* The value of "CONFIG_HZ=N" on one line, or 0. */
static unsigned long config_hz_line(const char *line)
{
	static const char key[] = "CONFIG_HZ=";
	char *end;
	unsigned long v;

	if (strncmp(line, key, sizeof(key) - 1))
		return 0;
	v = strtoul(line + sizeof(key) - 1, &end, 10);
	return (*end == '\n' || *end == '\0') ? v : 0;
}

static int hz_from_text_config(const char *path, unsigned long *hz)
{
	char line[512];
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	*hz = 0;
	while (!*hz && fgets(line, sizeof(line), f))
		*hz = config_hz_line(line);
	fclose(f);
	return *hz ? 0 : -1;
}

#ifdef HAVE_ZLIB
static int hz_from_gz_config(const char *path, unsigned long *hz)
{
	char line[512];
	gzFile f = gzopen(path, "rb");

	if (!f)
		return -1;
	*hz = 0;
	while (!*hz && gzgets(f, line, sizeof(line)))
		*hz = config_hz_line(line);
	gzclose(f);
	return *hz ? 0 : -1;
}
#endif

int il_live_detect_hz(const struct il_live *lv, unsigned int *hz, char *source, size_t cap,
		      struct il_error *err)
{
	char rel[IL_LIVE_VALUE_MAX], path[IL_LIVE_PATH_MAX], tried[2 * IL_LIVE_PATH_MAX + 64];
	unsigned long v = 0;

	tried[0] = '\0';
	if (lv->dump) {
		int line;

		if (il_live_dump_hz(lv->dump, hz, &line)) {
			il_error_set(err, il_live_dump_name(lv->dump), 0,
				     "no CONFIG_HZ=N line in the dump");
			return il_error_need(err, IL_NEED_HZ);
		}
		snprintf(source, cap, "CONFIG_HZ=%u on line %d of %s", *hz, line,
			 il_live_dump_name(lv->dump));
		return 0;
	}
	if (!il_live_path(lv, path, sizeof(path), "/proc/sys/kernel/osrelease") &&
	    !il_live_read_text(path, rel, sizeof(rel)) &&
	    !il_live_path(lv, path, sizeof(path), "/boot/config-%s", rel)) {
		if (!hz_from_text_config(path, &v) && il_config_hz_valid(v))
			goto found;
		snprintf(tried, sizeof(tried), "%s", path);
	}
#ifdef HAVE_ZLIB
	if (!il_live_path(lv, path, sizeof(path), "/proc/config.gz")) {
		if (!hz_from_gz_config(path, &v) && il_config_hz_valid(v))
			goto found;
		size_t used = strlen(tried);

		snprintf(tried + used, sizeof(tried) - used, "%s%s", used ? ", " : "", path);
	}
#else
	{
		size_t used = strlen(tried);

		snprintf(tried + used, sizeof(tried) - used,
			 "%s/proc/config.gz not read (built without zlib)", used ? ", " : "");
	}
#endif
	il_error_set(err, "CONFIG_HZ", 0, "not found (looked in %s)",
		     tried[0] ? tried : "nothing readable");
	return il_error_need(err, IL_NEED_HZ);
found:
	*hz = (unsigned int)v;
	snprintf(source, cap, "CONFIG_HZ=%lu in %s", v, path);
	return 0;
}

/* ---- text building --------------------------------------------------------------------------- */

struct sbuf {
	char *s;
	size_t len, cap;
	bool failed;
};

static void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->failed)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->failed = true;
			return;
		}
		if ((size_t)n < b->cap - b->len) {
			b->len += (size_t)n;
			return;
		}
		size_t cap = b->cap * 2 + (size_t)n;
		char *bigger = realloc(b->s, cap);

		if (!bigger) {
			b->failed = true;
			return;
		}
		b->s = bigger;
		b->cap = cap;
	}
}

/* @s as one token of the platform format: bare when it can be, else quoted and escaped. */
static void sb_token(struct sbuf *b, const char *s)
{
	if (*s && !strpbrk(s, " \t\"\\#=")) {
		sb_printf(b, "%s", s);
		return;
	}
	sb_printf(b, "\"");
	for (; *s; s++)
		sb_printf(b, "%s%c", (*s == '"' || *s == '\\') ? "\\" : "", *s);
	sb_printf(b, "\"");
}

/* A note runs to the end of its line: control characters (a newline in a path) become '?'. */
static void sb_note(struct sbuf *b, const char *s)
{
	for (; *s; s++)
		sb_printf(b, "%c", (unsigned char)*s < 0x20 ? '?' : *s);
}

/* Copy @src into @dst, cut to fit: for descriptive text only. */
static void copy_cut(char *dst, size_t cap, const char *src)
{
	size_t n = strlen(src);

	if (n >= cap)
		n = cap - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* ---- the machine ----------------------------------------------------------------------------- */

static bool state_off(const struct il_live_state *s)
{
	return (s->have & IL_LF_DEFAULT_STATUS) && !strcmp(s->default_status, "disabled");
}

/* Whether two CPUs' tables agree in what a governor reads: names, latencies, residencies. */
static bool same_table(const struct il_live_cpu *a, const struct il_live_cpu *b)
{
	if (a->nstates != b->nstates)
		return false;
	for (int i = 0; i < a->nstates; i++)
		if (strcmp(a->st[i].name, b->st[i].name) ||
		    a->st[i].latency_us != b->st[i].latency_us ||
		    a->st[i].residency_us != b->st[i].residency_us)
			return false;
	return true;
}

/* Whether two CPUs' tables export the same state lines (descriptions and "off" too). */
static bool same_export(const struct il_live_cpu *a, const struct il_live_cpu *b)
{
	if (!same_table(a, b))
		return false;
	for (int i = 0; i < a->nstates; i++)
		if (strcmp(a->st[i].desc, b->st[i].desc) ||
		    state_off(&a->st[i]) != state_off(&b->st[i]))
			return false;
	return true;
}

/* Read every CPU; pick the exported one; note CPUs whose table differs. */
static int pick_cpu(const struct il_live *lv, const struct il_live_export *opt,
		    const unsigned int *cpus, int ncpus, struct il_live_cpu *chosen, char *warning,
		    size_t warning_cap, struct il_error *err)
{
	struct il_live_cpu *c = malloc(sizeof(*c));
	int found = 0, differ = -1;

	if (!c)
		return il_error_set(err, "export", 0, "out of memory");
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < ncpus; i++) {
			if (il_live_read_cpu(lv, cpus[i], IL_LIVE_READ_ALL, c, err)) {
				free(c);
				return -1;
			}
			if (!c->has_cpuidle)
				continue;
			if (pass == 0 && !found &&
			    (opt->cpu < 0 || (unsigned int)opt->cpu == cpus[i])) {
				*chosen = *c;
				found = 1;
			} else if (pass == 1 && differ < 0 && !same_table(chosen, c)) {
				differ = (int)cpus[i];
			}
		}
		if (!found)
			break;
	}
	free(c);
	if (!found) {
		if (opt->cpu >= 0)
			return il_error_set(err, "export", 0, "cpu%d has no cpuidle directory",
					    opt->cpu);
		return il_error_set(err, "export", 0, "no CPU has a cpuidle directory");
	}
	if (!chosen->nstates)
		return il_error_set(err, "export", 0, "cpu%u has no idle states", chosen->cpu);
	for (int i = 0; i < chosen->nstates; i++)
		if ((chosen->st[i].have & (IL_LF_LATENCY | IL_LF_RESIDENCY)) !=
		    (IL_LF_LATENCY | IL_LF_RESIDENCY))
			return il_error_set(err, "export", 0,
					    "cpu%u state%d lacks latency or residency", chosen->cpu,
					    i);
	if (warning && differ >= 0)
		snprintf(warning, warning_cap,
			 "cpu%d's idle states differ from cpu%u's (hybrid CPU?); exported cpu%u's",
			 differ, chosen->cpu, chosen->cpu);
	return 0;
}

static void cpu_model(const struct il_live *lv, const char *driver, char *out, size_t cap)
{
	char path[IL_LIVE_PATH_MAX], line[512];
	FILE *f;

	char fallback[IL_LIVE_VALUE_MAX + 64];

	snprintf(fallback, sizeof(fallback), "a machine with the %s cpuidle driver", driver);
	copy_cut(out, cap, fallback);
	if (il_live_path(lv, path, sizeof(path), "/proc/cpuinfo"))
		return;
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !colon)
			continue;
		colon++;
		while (*colon == ' ' || *colon == '\t')
			colon++;
		colon[strcspn(colon, "\n")] = '\0';
		if (*colon)
			copy_cut(out, cap, colon);
		break;
	}
	fclose(f);
}

static void default_name(const char *driver, char *out, size_t cap)
{
	size_t n = (size_t)snprintf(out, cap, "live-%s", driver);

	for (size_t i = 0; i < n && i < cap; i++)
		if (!((out[i] >= 'a' && out[i] <= 'z') || (out[i] >= 'A' && out[i] <= 'Z') ||
		      (out[i] >= '0' && out[i] <= '9') || out[i] == '-' || out[i] == '_' ||
		      out[i] == '.'))
			out[i] = '_';
}

static void write_header(struct sbuf *b, const struct il_live *lv, const char *name,
			 const struct il_live_cpuidle *ci, const char *model, const char *date,
			 const struct il_live_cpu *cpu, int ntables)
{
	char full[IL_PLAT_DESC_LEN + 2 * IL_LIVE_VALUE_MAX + 64], desc[IL_PLAT_DESC_LEN];

	/* The model comes first: when the description must be cut, it says the most. */
	snprintf(full, sizeof(full), "%s, %s driver, exported by idlelab states on %s", model,
		 ci->driver, date);
	copy_cut(desc, sizeof(desc), full);
	sb_printf(b,
		  "# Exported by `idlelab states --export` from the cpuidle sysfs of %s on %s.\n",
		  il_live_root_name(lv), date);
	if (ntables > 1)
		sb_printf(b, "# The CPUs have %d distinct state tables, each below with its CPUs. "
			     "sysfs shows\n# no power numbers and no flags other than the core's "
			     "poll state and\n# default_status, so neither is in this file.\n\n",
			  ntables);
	else
		sb_printf(b, "# The state table is cpu%u's. sysfs shows no power numbers and no "
			     "flags other\n# than the core's poll state and default_status, so "
			     "neither is in this file.\n\n",
			  cpu->cpu);
	sb_printf(b, "platform    ");
	sb_token(b, name);
	sb_printf(b, "\ndriver      ");
	sb_token(b, ci->driver);
	sb_printf(b, "\ndescription ");
	sb_token(b, desc);
	sb_printf(b, "\n\n");
}

static void write_state(struct sbuf *b, const char *cpudir, int i, const struct il_live_state *s)
{
	bool polling = i == 0 && !strcmp(s->name, "POLL");
	bool off = state_off(s);

	sb_printf(b, "state ");
	sb_token(b, s->name);
	if ((s->have & IL_LF_DESC) && s->desc[0]) {
		sb_printf(b, " desc=");
		sb_token(b, s->desc);
	}
	sb_printf(b, " exit_latency=%lluus target_residency=%lluus",
		  (unsigned long long)s->latency_us, (unsigned long long)s->residency_us);
	if (polling || off)
		sb_printf(b, " flags=%s%s%s", polling ? "polling" : "", polling && off ? "," : "",
			  off ? "off" : "");
	sb_printf(b, "\n  source: ");
	sb_note(b, cpudir);
	sb_printf(b, "/state%d: latency %llu, residency %llu", i, (unsigned long long)s->latency_us,
		  (unsigned long long)s->residency_us);
	if (polling)
		sb_printf(b, "; polling: state0 named POLL is the cpuidle core's poll state");
	if (off)
		sb_printf(b, "; off: default_status disabled");
	if ((s->have & IL_LF_DISABLE) && s->disable)
		sb_printf(b, "; note: disabled by the user when exported (disable = 1)");
	sb_printf(b, "\n");
}

/* ---- per-CPU tables ------------------------------------------------------------------------- */

/* The distinct tables of the machine: one CPU of each, and each CPU's (1 + index, 0: none). */
struct export_tables {
	int n;
	struct il_live_cpu first[IL_PLAT_TABLES_MAX];
	unsigned char *of_cpu; /* by position in the CPU list */
};

static int table_of(struct export_tables *et, const struct il_live_cpu *c, struct il_error *err)
{
	for (int t = 0; t < et->n; t++)
		if (same_export(&et->first[t], c))
			return t;
	if (et->n == IL_PLAT_TABLES_MAX) {
		il_error_set(err, "export", 0,
			     "more than %d distinct state tables (cpu%u's is one more)",
			     IL_PLAT_TABLES_MAX, c->cpu);
		return il_error_need(err, IL_NEED_ONE_CPU);
	}
	et->first[et->n] = *c;
	return et->n++;
}

/* Read every CPU and group them by table. Return: 0, or -1 with @err set. */
static int collect_tables(const struct il_live *lv, const unsigned int *cpus, int ncpus,
			  struct export_tables *et, struct il_error *err)
{
	struct il_live_cpu *c = malloc(sizeof(*c));
	int ret = 0;

	et->of_cpu = calloc((size_t)ncpus, 1);
	if (!c || !et->of_cpu) {
		free(c);
		return il_error_set(err, "export", 0, "out of memory");
	}
	for (int i = 0; i < ncpus && !ret; i++) {
		int t;

		if (il_live_read_cpu(lv, cpus[i], IL_LIVE_READ_ALL, c, err)) {
			ret = -1;
		} else if (c->has_cpuidle && c->nstates) {
			t = table_of(et, c, err);
			if (t < 0)
				ret = -1;
			else
				et->of_cpu[i] = (unsigned char)(t + 1);
		}
	}
	free(c);
	return ret;
}

/* Every CPU of the list has a table and the list is cpu0..cpuN-1, as table lines need. */
static int check_tables_cover(const struct export_tables *et, const unsigned int *cpus,
			      int ncpus, struct il_error *err)
{
	for (int i = 0; i < ncpus; i++) {
		if (cpus[i] != (unsigned int)i) {
			il_error_set(err, "export", 0,
				     "cpu%d is missing from the CPU list: per-CPU tables need "
				     "cpu0 to cpu%d", i, ncpus - 1);
			return il_error_need(err, IL_NEED_ONE_CPU);
		}
		if (!et->of_cpu[i]) {
			il_error_set(err, "export", 0,
				     "cpu%u has no idle states while other CPUs' tables differ",
				     cpus[i]);
			return il_error_need(err, IL_NEED_ONE_CPU);
		}
	}
	return 0;
}

/* "0-3,6" for the CPUs on table @t. */
static void sb_cpu_list(struct sbuf *b, const struct export_tables *et, const unsigned int *cpus,
			int ncpus, int t)
{
	bool first = true;

	for (int i = 0; i < ncpus; i++) {
		int j = i;

		if (et->of_cpu[i] != t + 1)
			continue;
		while (j + 1 < ncpus && et->of_cpu[j + 1] == t + 1)
			j++;
		sb_printf(b, "%s%u", first ? "" : ",", cpus[i]);
		if (j > i)
			sb_printf(b, "-%u", cpus[j]);
		first = false;
		i = j;
	}
}

static void write_tables(struct sbuf *b, const struct export_tables *et, const char *cpuroot,
			 const unsigned int *cpus, int ncpus)
{
	char cpudir[IL_LIVE_PATH_MAX + 32];

	for (int t = 0; t < et->n; t++) {
		const struct il_live_cpu *c = &et->first[t];

		sb_printf(b, "table cpu%u cpus=", c->cpu);
		sb_cpu_list(b, et, cpus, ncpus, t);
		sb_printf(b, "\n  source: ");
		sb_note(b, cpuroot);
		sb_printf(b, ": the CPUs whose cpuidle states read alike (cpu");
		sb_cpu_list(b, et, cpus, ncpus, t);
		sb_printf(b, ")\n");
		snprintf(cpudir, sizeof(cpudir), "%s/cpu%u/cpuidle", cpuroot, c->cpu);
		for (int i = 0; i < c->nstates; i++)
			write_state(b, cpudir, i, &c->st[i]);
		sb_printf(b, "\n");
	}
}

static int check_parses(const char *text, size_t len, struct il_error *err)
{
	struct il_platform *plat = malloc(sizeof(*plat));
	struct il_error perr;
	int ret = 0;

	if (!plat)
		return il_error_set(err, "export", 0, "out of memory");
	if (il_platform_parse(text, len, "exported platform", plat, &perr))
		ret = il_error_set(err, "export", 0, "the exported text does not parse (%s)",
				   perr.msg);
	free(plat);
	return ret;
}

char *il_live_export_platform(const struct il_live *lv, const struct il_live_export *opt,
			      size_t *len, char *warning, size_t warning_cap, struct il_error *err)
{
	char hz_source[2 * IL_LIVE_PATH_MAX], name[IL_PLAT_NAME_LEN + 8], model[IL_PLAT_DESC_LEN];
	char cpudir[IL_LIVE_PATH_MAX + 32], cpuroot[IL_LIVE_PATH_MAX], date[32];
	struct il_live_cpuidle ci;
	struct il_live_cpu *cpu = NULL;
	struct sbuf b = { 0 };
	struct export_tables et = { 0 };
	unsigned int *cpus = NULL, hz = opt->hz;
	int ncpus;
	time_t now = time(NULL);

	if (warning && warning_cap)
		warning[0] = '\0';
	if (il_live_read_cpuidle(lv, &ci, err))
		return NULL;
	if (!il_live_has_driver(&ci)) {
		il_error_set(err, "export", 0,
			     "no cpuidle driver is registered (current_driver: %s)", ci.driver);
		return NULL;
	}
	if (hz) {
		snprintf(hz_source, sizeof(hz_source), "%s",
			 opt->hz_given ? opt->hz_given : "given by the caller");
	} else if (il_live_detect_hz(lv, &hz, hz_source, sizeof(hz_source), err)) {
		return NULL;
	}
	ncpus = il_live_list_cpus(lv, &cpus, err);
	if (ncpus < 0)
		return NULL;
	cpu = malloc(sizeof(*cpu));
	b.cap = 4096;
	b.s = malloc(b.cap);
	if (!cpu || !b.s) {
		il_error_set(err, "export", 0, "out of memory");
		goto fail;
	}
	if (opt->cpu < 0 && collect_tables(lv, cpus, ncpus, &et, err))
		goto fail;
	if (et.n > 1 && check_tables_cover(&et, cpus, ncpus, err))
		goto fail;
	/* one table: the first CPU's (or --cpu's), as always */
	if (pick_cpu(lv, opt, cpus, ncpus, cpu, et.n > 1 ? NULL : warning, warning_cap, err))
		goto fail;
	if (opt->name)
		snprintf(name, sizeof(name), "%s", opt->name);
	else
		default_name(ci.driver, name, sizeof(name));
	cpu_model(lv, ci.driver, model, sizeof(model));
	strftime(date, sizeof(date), "%Y-%m-%d", gmtime(&now));
	il_live_path(lv, cpuroot, sizeof(cpuroot), "/sys/devices/system/cpu");
	snprintf(cpudir, sizeof(cpudir), "%s/cpu%u/cpuidle", cpuroot, cpu->cpu);

	write_header(&b, lv, name, &ci, model, date, cpu, et.n);
	sb_printf(&b, "cpus %d\n  source: ", ncpus);
	sb_note(&b, cpuroot);
	sb_printf(&b, ": %d cpuN directories\nhz %u\n  source: ", ncpus, hz);
	sb_note(&b, hz_source);
	sb_printf(&b, "\n\n");
	if (et.n > 1)
		write_tables(&b, &et, cpuroot, cpus, ncpus);
	else
		for (int i = 0; i < cpu->nstates; i++)
			write_state(&b, cpudir, i, &cpu->st[i]);
	if (b.failed) {
		il_error_set(err, "export", 0, "out of memory");
		goto fail;
	}
	if (check_parses(b.s, b.len, err))
		goto fail;
	free(et.of_cpu);
	free(cpus);
	free(cpu);
	*len = b.len;
	return b.s;
fail:
	free(et.of_cpu);
	free(cpus);
	free(cpu);
	free(b.s);
	return NULL;
}
