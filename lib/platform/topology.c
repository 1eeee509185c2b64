// SPDX-License-Identifier: GPL-2.0-only
/*
 * topology.c - the per-CPU state tables and the power domains of a platform file
 * (format: docs/platforms.md, "Per-CPU tables" and "Power domains").
 *
 * The parser in platform.c collects the state lines of the table being read into plat->drv,
 * as it does for the one-table shorthand. A "table" line first saves the table read so far
 * (il_plat_table_line()); when the file is complete, il_plat_topology_finish() saves the last
 * one, puts tables[0] back into plat->drv (what single-table code reads), and checks what
 * only the whole file can tell: every CPU has exactly one table, the tables agree on their
 * states' names, and each domain names CPUs the platform has and states of its members'
 * tables, nested in or apart from every other domain.
 */
#include <stdio.h>
#include <string.h>

#include "lex.h"
#include "platform.h"

/* "0-3,6,8-9" into @bits (CPUs below IL_PLAT_CPUS_MAX). Return: the count, or -1. */
static int parse_cpu_list(const char *text, u64 *bits, const char **why)
{
	char buf[IL_LEX_WORD_MAX], *save = NULL;
	int count = 0;

	memset(bits, 0, IL_PLAT_CPU_WORDS * sizeof(*bits));
	snprintf(buf, sizeof(buf), "%s", text);
	*why = "a CPU list is N, N-M or a comma-separated list of them";
	for (char *part = strtok_r(buf, ",", &save); part; part = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(part, '-');
		u64 lo, hi;

		if (dash)
			*dash = '\0';
		if (il_parse_u64(part, IL_PLAT_CPUS_MAX - 1, &lo) ||
		    il_parse_u64(dash ? dash + 1 : part, IL_PLAT_CPUS_MAX - 1, &hi))
			return -1;
		if (hi < lo) {
			*why = "a range N-M needs N <= M";
			return -1;
		}
		for (u64 c = lo; c <= hi; c++) {
			if (bits[c / 64] >> (c % 64) & 1) {
				*why = "a CPU is listed twice";
				return -1;
			}
			bits[c / 64] |= 1ULL << (c % 64);
			count++;
		}
	}
	return count ? count : -1;
}

static bool bit_set(const u64 *bits, unsigned int i)
{
	return bits[i / 64] >> (i % 64) & 1;
}

/* The value of field @key among @t[2..n), or NULL. */
static const char *field(const struct il_token *t, int n, const char *key)
{
	for (int i = 2; i < n; i++)
		if (t[i].has_value && !strcmp(t[i].key, key))
			return t[i].value;
	return NULL;
}

/* Every field of @t[2..n) is one of @keys (NULL-terminated), each at most once. */
static int check_fields(const struct il_token *t, int n, const char *const *keys,
			const char *file, int line, struct il_error *err)
{
	for (int i = 2; i < n; i++) {
		bool known = false;

		for (const char *const *k = keys; *k; k++)
			known |= t[i].has_value && !strcmp(t[i].key, *k);
		if (!known)
			return il_error_set(err, file, line, "unknown %s field '%s'", t[0].key,
					    t[i].key);
		for (int j = 2; j < i; j++)
			if (!strcmp(t[j].key, t[i].key))
				return il_error_set(err, file, line, "duplicate %s field '%s'",
						    t[0].key, t[i].key);
	}
	return 0;
}

bool il_plat_name_chars(const char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '-' || *s == '_' || *s == '.'))
			return false;
	return true;
}

/* A table or domain name: 1 to 31 of the platform name's characters. */
static bool valid_name(const char *s)
{
	return *s && strlen(s) < IL_PLAT_NAME_LEN && il_plat_name_chars(s);
}

/* Save the states read so far (plat->drv) into the table being read, and clear them. */
static void save_current_table(struct il_platform *plat)
{
	struct il_plat_table *tab = &plat->tables[plat->ntables - 1];

	tab->drv = plat->drv;
	memcpy(tab->state_source, plat->state_source, sizeof(tab->state_source));
	plat->drv.state_count = 0;
	memset(plat->drv.states, 0, sizeof(plat->drv.states));
	memset(plat->state_source, 0, sizeof(plat->state_source));
}

char *il_plat_table_line(struct il_platform *plat, const struct il_token *t, int n,
			 const char *file, int line, struct il_error *err)
{
	static const char *const keys[] = { "cpus", NULL };
	struct il_plat_table *tab;
	u64 bits[IL_PLAT_CPU_WORDS];
	const char *list, *why;

	if (n < 2 || t[1].has_value || !valid_name(t[1].key)) {
		il_error_set(err, file, line,
			     "a table line is: table NAME cpus=LIST (NAME: letters, digits, '-', "
			     "'_', '.'; 1 to %d characters)",
			     IL_PLAT_NAME_LEN - 1);
		return NULL;
	}
	if (plat->ntables == 0 && plat->drv.state_count) {
		il_error_set(err, file, line,
			     "state lines before the first table line (with tables, every state "
			     "belongs to one)");
		return NULL;
	}
	if (check_fields(t, n, keys, file, line, err))
		return NULL;
	list = field(t, n, "cpus");
	if (!list) {
		il_error_set(err, file, line, "table '%s' needs cpus=LIST", t[1].key);
		return NULL;
	}
	if (plat->ntables == IL_PLAT_TABLES_MAX) {
		il_error_set(err, file, line, "more than %d tables", IL_PLAT_TABLES_MAX);
		return NULL;
	}
	for (int i = 0; i < plat->ntables; i++)
		if (!strcmp(plat->tables[i].name, t[1].key)) {
			il_error_set(err, file, line,
				     "duplicate table name '%s' (first on line %d)", t[1].key,
				     plat->tables[i].line);
			return NULL;
		}
	if (parse_cpu_list(list, bits, &why) < 0) {
		il_error_set(err, file, line, "invalid cpus '%s': %s", list, why);
		return NULL;
	}
	for (unsigned int c = 0; c < IL_PLAT_CPUS_MAX; c++) {
		if (!bit_set(bits, c))
			continue;
		if (plat->cpu_table[c]) {
			const struct il_plat_table *other = &plat->tables[plat->cpu_table[c] - 1];

			il_error_set(err, file, line, "CPU %u is in table '%s' already (line %d)",
				     c, other->name, other->line);
			return NULL;
		}
		plat->cpu_table[c] = (unsigned char)(plat->ntables + 1);
	}
	if (plat->ntables)
		save_current_table(plat);
	tab = &plat->tables[plat->ntables++];
	memcpy(tab->name, t[1].key, strlen(t[1].key) + 1); /* valid_name(): it fits */
	tab->line = line;
	return tab->cpus_source;
}

static const char *mode_name(enum il_domain_mode m)
{
	return m == IL_DOMAIN_OSI ? "osi" : "pc";
}

static int parse_mode(const char *text, enum il_domain_mode *mode)
{
	for (int m = IL_DOMAIN_PC; m <= IL_DOMAIN_OSI; m++)
		if (!strcmp(text, mode_name((enum il_domain_mode)m))) {
			*mode = (enum il_domain_mode)m;
			return 0;
		}
	return -1;
}

/* mode=, and reject_latency= exactly with mode=osi. */
static int domain_mode(struct il_domain *d, const struct il_token *t, int n, const char *file,
		       int line, struct il_error *err)
{
	const char *mode = field(t, n, "mode"), *rej = field(t, n, "reject_latency"), *why;

	if (!mode || parse_mode(mode, &d->mode))
		return il_error_set(err, file, line,
				    "domain '%s' needs mode=pc (platform-coordinated) or mode=osi "
				    "(OS-initiated)",
				    d->name);
	if ((d->mode == IL_DOMAIN_OSI) != (rej != NULL))
		return il_error_set(err, file, line,
				    "reject_latency= is what a refused OS-initiated entry costs: "
				    "required with mode=osi, not allowed with mode=pc");
	if (rej && (il_parse_time_ns(rej, IL_UNIT_REQUIRED, false, IL_PLAT_TIME_MAX_NS,
				     &d->reject_latency_ns, &why) ||
		    d->reject_latency_ns == 0))
		return il_error_set(err, file, line, "invalid reject_latency '%s': %s", rej,
				    d->reject_latency_ns ? why : "a refused entry takes time");
	return 0;
}

char *il_plat_domain_line(struct il_platform *plat, const struct il_token *t, int n,
			  const char *file, int line, struct il_error *err)
{
	static const char *const keys[] = { "cpus", "states", "mode", "reject_latency", NULL };
	struct il_domain *d;
	const char *list, *states, *why;
	int count;

	if (n < 2 || t[1].has_value || !valid_name(t[1].key)) {
		il_error_set(err, file, line,
			     "a domain line is: domain NAME cpus=LIST states=LIST mode=pc|osi");
		return NULL;
	}
	if (check_fields(t, n, keys, file, line, err))
		return NULL;
	if (plat->ndomains == IL_PLAT_DOMAINS_MAX) {
		il_error_set(err, file, line, "more than %d domains", IL_PLAT_DOMAINS_MAX);
		return NULL;
	}
	for (int i = 0; i < plat->ndomains; i++)
		if (!strcmp(plat->domains[i].name, t[1].key)) {
			il_error_set(err, file, line,
				     "duplicate domain name '%s' (first on line %d)", t[1].key,
				     plat->domains[i].line);
			return NULL;
		}
	d = &plat->domains[plat->ndomains];
	memset(d, 0, sizeof(*d));
	memcpy(d->name, t[1].key, strlen(t[1].key) + 1); /* valid_name(): it fits */
	d->line = line;
	list = field(t, n, "cpus");
	states = field(t, n, "states");
	if (!list || !states || !states[0]) {
		il_error_set(err, file, line, "domain '%s' needs cpus=LIST and states=LIST",
			     d->name);
		return NULL;
	}
	count = parse_cpu_list(list, d->cpus, &why);
	if (count < 0) {
		il_error_set(err, file, line, "invalid cpus '%s': %s", list, why);
		return NULL;
	}
	if (count < 2) {
		il_error_set(err, file, line, "domain '%s' has one CPU: a domain is shared",
			     d->name);
		return NULL;
	}
	d->ncpus = (unsigned int)count;
	if (domain_mode(d, t, n, file, line, err))
		return NULL;
	snprintf(d->states_text, sizeof(d->states_text), "%s", states);
	plat->ndomains++;
	return d->source;
}

/* ---- the checks of the complete file --------------------------------------------------- */

static int state_index(const struct il_driver *drv, const char *name)
{
	for (int i = 0; i < drv->state_count; i++)
		if (!strcmp(drv->states[i].name, name))
			return i;
	return -1;
}

/*
 * Every table has states, as many as the first: the lab's and replay's per-state rows are by
 * index (labelled with the first table's names). The names may differ, as psci_idle's do
 * when each cluster has its own DT nodes (cpu-sleep-0-0 and cpu-sleep-1-0 on sc7180).
 */
static int check_tables_agree(const struct il_platform *plat, const char *file,
			      struct il_error *err)
{
	const struct il_driver *first = &plat->tables[0].drv;

	for (int t = 0; t < plat->ntables; t++) {
		const struct il_plat_table *tab = &plat->tables[t];

		if (!tab->drv.state_count)
			return il_error_set(err, file, tab->line, "table '%s' has no state lines",
					    tab->name);
		if (tab->drv.state_count != first->state_count)
			return il_error_set(err, file, tab->line,
					    "table '%s' has %d states, table '%s' %d: per-CPU "
					    "tables have as many states, row by row",
					    tab->name, tab->drv.state_count, plat->tables[0].name,
					    first->state_count);
	}
	return 0;
}

static int check_table_cpus(const struct il_platform *plat, const char *file, int cpus_line,
			    struct il_error *err)
{
	for (unsigned int c = plat->cpus; c < IL_PLAT_CPUS_MAX; c++)
		if (plat->cpu_table[c]) {
			const struct il_plat_table *tab = &plat->tables[plat->cpu_table[c] - 1];

			return il_error_set(err, file, tab->line,
					    "table '%s' names CPU %u; the platform has %u CPUs",
					    tab->name, c, plat->cpus);
		}
	for (unsigned int c = 0; c < plat->cpus; c++)
		if (!plat->cpu_table[c])
			return il_error_set(err, file, cpus_line,
					    "CPU %u has no table (every CPU needs exactly one)", c);
	return 0;
}

/* The rows of @drv that @d's states= names (each name is looked up in every table). */
static unsigned int member_rows(const struct il_domain *d, const struct il_driver *drv)
{
	char buf[sizeof(d->states_text)], *save = NULL;
	unsigned int rows = 0;

	snprintf(buf, sizeof(buf), "%s", d->states_text);
	for (char *name = strtok_r(buf, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		int idx = state_index(drv, name);

		if (idx >= 0)
			rows |= 1u << idx;
	}
	return rows;
}

/* A states= name that no member's table has, or NULL. */
static const char *unknown_state(const struct il_platform *plat, const struct il_domain *d,
				 char *buf, size_t cap)
{
	char *save = NULL;

	snprintf(buf, cap, "%s", d->states_text);
	for (char *name = strtok_r(buf, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		bool found = false;

		for (unsigned int c = 0; c < plat->cpus && !found; c++)
			found = il_domain_has_cpu(d, c) &&
				state_index(il_platform_cpu_drv(plat, c), name) >= 0;
		if (!found)
			return name;
	}
	return NULL;
}

/*
 * Resolve the states= names of @d: each names a state of some member's table (per-cluster
 * tables name theirs differently: mt8195's cpu-off-l and cpu-off-b), and every member finds
 * its domain states at the same rows, which are then the domain's.
 */
static int resolve_domain_states(struct il_platform *plat, struct il_domain *d,
				 const char *file, struct il_error *err)
{
	char buf[sizeof(d->states_text)];
	const char *bad = unknown_state(plat, d, buf, sizeof(buf));
	int first = -1;

	if (bad)
		return il_error_set(err, file, d->line,
				    "domain '%s': state '%s' is not in the table of any of its "
				    "CPUs",
				    d->name, bad);
	for (unsigned int c = 0; c < plat->cpus; c++) {
		unsigned int rows;

		if (!il_domain_has_cpu(d, c))
			continue;
		rows = member_rows(d, il_platform_cpu_drv(plat, c));
		if (!rows)
			return il_error_set(err, file, d->line,
					    "domain '%s': none of its states (%s) is in the table "
					    "of CPU %u",
					    d->name, d->states_text, c);
		if (first >= 0 && rows != d->states)
			return il_error_set(err, file, d->line,
					    "domain '%s': its states are other rows in CPU %u's "
					    "table than in CPU %d's",
					    d->name, c, first);
		if (rows & 1)
			return il_error_set(err, file, d->line,
					    "domain '%s': a domain state is deeper than some CPU "
					    "state, not the shallowest",
					    d->name);
		d->states = rows;
		if (first < 0)
			first = (int)c;
	}
	return 0;
}

/* 0: disjoint; 1: @a within @b; 2: @b within @a (or equal); -1: overlapping. */
static int cpu_sets_relation(const struct il_domain *a, const struct il_domain *b)
{
	bool a_out = false, b_out = false, meet = false;

	for (int w = 0; w < IL_PLAT_CPU_WORDS; w++) {
		a_out |= (a->cpus[w] & ~b->cpus[w]) != 0;
		b_out |= (b->cpus[w] & ~a->cpus[w]) != 0;
		meet |= (a->cpus[w] & b->cpus[w]) != 0;
	}
	if (!meet)
		return 0;
	if (a_out && b_out)
		return -1;
	return a_out ? 2 : 1;
}

static int check_domain_pair(const struct il_domain *a, const struct il_domain *b,
			     const char *file, struct il_error *err)
{
	int rel = cpu_sets_relation(a, b);

	if (rel < 0)
		return il_error_set(err, file, b->line,
				    "domain '%s' overlaps domain '%s' (line %d): domains nest or "
				    "are apart",
				    b->name, a->name, a->line);
	if (rel && (a->states & b->states))
		return il_error_set(err, file, b->line,
				    "domain '%s' and domain '%s' (line %d) share a state: a state "
				    "belongs to one domain",
				    b->name, a->name, a->line);
	return 0;
}

static int check_domains(struct il_platform *plat, const char *file, struct il_error *err)
{
	for (int i = 0; i < plat->ndomains; i++) {
		struct il_domain *d = &plat->domains[i];

		for (unsigned int c = plat->cpus; c < IL_PLAT_CPUS_MAX; c++)
			if (il_domain_has_cpu(d, c))
				return il_error_set(err, file, d->line,
						    "domain '%s' names CPU %u; the platform has %u "
						    "CPUs",
						    d->name, c, plat->cpus);
		if (resolve_domain_states(plat, d, file, err))
			return -1;
		for (int j = 0; j < i; j++)
			if (check_domain_pair(&plat->domains[j], d, file, err))
				return -1;
	}
	return 0;
}

/* The domain model replaces the package wake and a measured wake cost: a file gives one. */
static int check_no_core_exit(const struct il_platform *plat, const char *file,
			      struct il_error *err)
{
	for (int t = 0; t < (plat->ntables ? plat->ntables : 1); t++) {
		const struct il_driver *drv = plat->ntables ? &plat->tables[t].drv : &plat->drv;

		for (int s = 0; s < drv->state_count; s++) {
			const struct il_state *st = &drv->states[s];

			if (st->core_exit_latency_ns || st->actual_exit_max_ns)
				return il_error_set(err, file, plat->domains[0].line,
						    "domains and %s (state '%s') exclude each "
						    "other: the domains say what a wake costs",
						    st->core_exit_latency_ns ?
						    "core_exit_latency" : "actual_exit_latency",
						    st->name);
		}
	}
	return 0;
}

int il_plat_topology_finish(struct il_platform *plat, const char *file, int cpus_line,
			    struct il_error *err)
{
	if (plat->ntables) {
		save_current_table(plat);
		if (check_tables_agree(plat, file, err) ||
		    check_table_cpus(plat, file, cpus_line, err))
			return -1;
		/* il_platform_parse() runs il_driver_init() on drv, not idempotent: not here */
		for (int t = 0; t < plat->ntables; t++)
			memcpy(plat->tables[t].drv.name, plat->drv.name, sizeof(plat->drv.name));
		plat->drv = plat->tables[0].drv;
		for (int t = 0; t < plat->ntables; t++)
			il_driver_init(&plat->tables[t].drv);
		memcpy(plat->state_source, plat->tables[0].state_source,
		       sizeof(plat->state_source));
	}
	if (!plat->ndomains)
		return 0;
	return check_no_core_exit(plat, file, err) || check_domains(plat, file, err);
}

bool il_plat_is_uint_max_us(const char *text)
{
	return !strcmp(text, "4294967295us");
}

/*
 * A CPU beyond the file's (a lab run on more CPUs than the platform has, as the battery's
 * pingpong:cpus=12 on an 8-CPU SoC) takes the table of the file's CPU it repeats,
 * cpu % cpus: the machine is copies of the one described. It is in no domain.
 */
int il_platform_cpu_table(const struct il_platform *plat, unsigned int cpu)
{
	if (plat->ntables <= 1 || !plat->cpus)
		return 0;
	return plat->cpu_table[cpu % plat->cpus] - 1;
}

const struct il_driver *il_platform_cpu_drv(const struct il_platform *plat, unsigned int cpu)
{
	if (plat->ntables <= 1)
		return &plat->drv;
	return &plat->tables[il_platform_cpu_table(plat, cpu)].drv;
}

bool il_platform_can_reject(const struct il_platform *plat)
{
	for (int i = 0; i < plat->ndomains; i++)
		if (plat->domains[i].mode == IL_DOMAIN_OSI)
			return true;
	return false;
}

/* Append "N" or "N-M" for the run [lo, hi] to @buf. */
static void put_run(char *buf, size_t cap, size_t *used, unsigned int lo, unsigned int hi)
{
	int n;

	if (*used >= cap)
		return;
	n = lo == hi ? snprintf(buf + *used, cap - *used, "%s%u", *used ? "," : "", lo) :
		       snprintf(buf + *used, cap - *used, "%s%u-%u", *used ? "," : "", lo, hi);
	*used += n > 0 ? (size_t)n : 0;
}

static const char *cpu_list(const struct il_platform *plat, int table, const struct il_domain *d,
			    char *buf, size_t cap)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned int c = 0; c < plat->cpus; c++) {
		unsigned int hi = c;

		if (d ? !il_domain_has_cpu(d, c) : plat->cpu_table[c] != table + 1)
			continue;
		while (hi + 1 < plat->cpus &&
		       (d ? il_domain_has_cpu(d, hi + 1) : plat->cpu_table[hi + 1] == table + 1))
			hi++;
		put_run(buf, cap, &used, c, hi);
		c = hi;
	}
	return buf;
}

const char *il_platform_table_cpus(const struct il_platform *plat, int t, char *buf, size_t cap)
{
	return cpu_list(plat, t, NULL, buf, cap);
}

const char *il_domain_cpus(const struct il_platform *plat, const struct il_domain *d, char *buf,
			   size_t cap)
{
	return cpu_list(plat, 0, d, buf, cap);
}

const char *il_domain_mode_name(enum il_domain_mode mode)
{
	return mode_name(mode);
}
