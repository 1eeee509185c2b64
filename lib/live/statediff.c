// SPDX-License-Identifier: GPL-2.0-only
/*
 * statediff.c - `states --diff BEFORE AFTER`: the cpuidle counters of two snapshots of one
 * machine (two sysfs dumps, two trees, or one of each) as the table linux-pm threads
 * quote: per CPU and state, then per state over all CPUs, the deltas of usage, time (µs),
 * above, below and rejected, the miss ratio (above + below) / usage and each state's share
 * of the idle time (time / the time of every state of that CPU, or of all CPUs).
 *
 * Counters only grow while the machine runs; one that went back means a reboot (or the
 * CPU's re-registration) between the snapshots, which no delta can describe: an error that
 * names the file and line of the later value (a dump) or the file (a tree).
 */
#include <stdlib.h>
#include <string.h>

#include "live.h"
#include "output/output.h"
#include "util/array.h"

static const char *const per_cpu_cols[] = {
	"cpu", "state", "name", "usage", "time_us", "above", "below", "rejected", "miss_ratio",
	"time_share",
};

static const char *const total_cols[] = {
	"state", "name", "cpus", "usage", "time_us", "above", "below", "rejected", "miss_ratio",
	"time_share",
};

/* The counters, in the order of the columns from "usage" on. */
static const struct {
	const char *file;
	unsigned int bit;
	size_t off;       /* into struct il_live_state */
	size_t delta_off; /* into struct il_live_delta */
} counters[] = {
	{ "usage", IL_LF_USAGE, offsetof(struct il_live_state, usage),
	  offsetof(struct il_live_delta, usage) },
	{ "time", IL_LF_TIME, offsetof(struct il_live_state, time_us),
	  offsetof(struct il_live_delta, time_us) },
	{ "above", IL_LF_ABOVE, offsetof(struct il_live_state, above),
	  offsetof(struct il_live_delta, above) },
	{ "below", IL_LF_BELOW, offsetof(struct il_live_state, below),
	  offsetof(struct il_live_delta, below) },
	{ "rejected", IL_LF_REJECTED, offsetof(struct il_live_state, rejected),
	  offsetof(struct il_live_delta, rejected) },
};

#define NCOUNTERS ((int)ARRAY_SIZE(counters))

static u64 counter(const void *base, size_t off)
{
	return *(const u64 *)((const char *)base + off);
}

/* What an error calls the snapshot @lv: the dump's or the root's name. */
static const char *source_name(const struct il_live *lv)
{
	return lv->dump ? il_live_dump_name(lv->dump) : il_live_root_name(lv);
}

/* A counter that went back: the later snapshot's file and line (a dump) or path (a tree). */
static int went_back(const struct il_live *after, unsigned int cpu, int state, int i,
		     u64 from, u64 to, struct il_error *err)
{
	char path[IL_LIVE_PATH_MAX];
	int line = 0;
	const char *file = path;

	if (after->dump) {
		file = il_live_dump_name(after->dump);
		line = il_live_dump_line(after->dump, cpu, state, counters[i].bit);
	} else if (il_live_path(after, path, sizeof(path),
				"/sys/devices/system/cpu/cpu%u/cpuidle/state%d/%s", cpu, state,
				counters[i].file)) {
		file = source_name(after);
	}
	return il_error_set(err, file, line,
			    "cpu%u/cpuidle/state%d/%s went back from %llu to %llu: a reboot "
			    "between the snapshots? (no delta describes that)",
			    cpu, state, counters[i].file, (unsigned long long)from,
			    (unsigned long long)to);
}

static int check_grew(const struct il_live *after, const struct il_live_cpu *a,
		      const struct il_live_cpu *b, struct il_error *err)
{
	for (int k = 0; k < a->nstates && k < b->nstates; k++)
		for (int i = 0; i < NCOUNTERS; i++) {
			u64 x = counter(&a->st[k], counters[i].off);
			u64 y = counter(&b->st[k], counters[i].off);

			if ((a->st[k].have & b->st[k].have & counters[i].bit) && y < x)
				return went_back(after, b->cpu, k, i, x, y, err);
		}
	return 0;
}

/* Per-state sums over the CPUs, for the total table. */
struct diff_total {
	char name[IL_NAME_LEN];
	int state;
	int seq;          /* first seen: the order within a state index */
	int cpus;
	unsigned int have;
	u64 v[NCOUNTERS];
};

struct diff_acc {
	struct diff_total *t;
	int n, cap;
	u64 all_time;
};

static struct diff_total *total_for(struct diff_acc *acc, int state, const char *name)
{
	for (int i = 0; i < acc->n; i++)
		if (acc->t[i].state == state && !strcmp(acc->t[i].name, name))
			return &acc->t[i];
	if (acc->n == acc->cap) {
		int cap = acc->cap ? acc->cap * 2 : 16;
		struct diff_total *bigger = realloc(acc->t, (size_t)cap * sizeof(*bigger));

		if (!bigger)
			return NULL;
		acc->t = bigger;
		acc->cap = cap;
	}
	memset(&acc->t[acc->n], 0, sizeof(acc->t[acc->n]));
	acc->t[acc->n].state = state;
	acc->t[acc->n].seq = acc->n;
	acc->t[acc->n].have = ~0U;
	snprintf(acc->t[acc->n].name, sizeof(acc->t[acc->n].name), "%s", name);
	return &acc->t[acc->n++];
}

/* The counters of one row, then miss ratio and time share (empty when undefined). */
static void fill_counts(struct il_table *t, int r, int col, unsigned int have, const u64 *v,
			u64 time_all)
{
	for (int i = 0; i < NCOUNTERS; i++)
		il_table_set_count(t, r, col + i, have & counters[i].bit, v[i]);
	if ((have & (IL_LF_USAGE | IL_LF_ABOVE | IL_LF_BELOW)) ==
	    (IL_LF_USAGE | IL_LF_ABOVE | IL_LF_BELOW) && v[0])
		il_table_set_real(t, r, col + NCOUNTERS, (double)(v[2] + v[3]) / (double)v[0], 4);
	if ((have & IL_LF_TIME) && time_all)
		il_table_set_real(t, r, col + NCOUNTERS + 1, (double)v[1] / (double)time_all, 4);
}

static int cpu_rows(struct il_table *t, struct diff_acc *acc, const struct il_live_cpu *b,
		    const struct il_live_delta *d)
{
	u64 time_all = 0;

	for (int k = 0; k < b->nstates; k++)
		time_all += (d[k].have & IL_LF_TIME) ? d[k].time_us : 0;
	acc->all_time += time_all;
	for (int k = 0; k < b->nstates; k++) {
		struct diff_total *tot = total_for(acc, k, b->st[k].name);
		int r = il_table_add_row(t);
		u64 v[NCOUNTERS];

		if (!tot || r < 0 || il_table_set_str(t, r, 2, b->st[k].name))
			return -1;
		for (int i = 0; i < NCOUNTERS; i++) {
			v[i] = counter(&d[k], counters[i].delta_off);
			tot->v[i] += v[i];
		}
		tot->have &= d[k].have;
		tot->cpus++;
		il_table_set_int(t, r, 0, b->cpu);
		il_table_set_int(t, r, 1, k);
		fill_counts(t, r, 3, d[k].have, v, time_all);
	}
	return 0;
}

/* By state index, then in the order the tables were met (cluster by cluster). */
static int by_state(const void *a, const void *b)
{
	const struct diff_total *x = a, *y = b;

	if (x->state != y->state)
		return x->state < y->state ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static int total_rows(struct il_table *t, struct diff_acc *acc)
{
	struct diff_total all = { .have = ~0U };
	int r;

	if (acc->n)
		qsort(acc->t, (size_t)acc->n, sizeof(*acc->t), by_state);
	for (int i = 0; i < acc->n; i++) {
		const struct diff_total *tot = &acc->t[i];

		r = il_table_add_row(t);
		if (r < 0 || il_table_set_str(t, r, 1, tot->name))
			return -1;
		il_table_set_int(t, r, 0, tot->state);
		il_table_set_int(t, r, 2, tot->cpus);
		fill_counts(t, r, 3, tot->have, tot->v, acc->all_time);
		for (int k = 0; k < NCOUNTERS; k++)
			all.v[k] += tot->v[k];
		all.have &= tot->have;
	}
	r = il_table_add_row(t);
	if (r < 0 || il_table_set_str(t, r, 1, "(all states)"))
		return -1;
	fill_counts(t, r, 3, acc->n ? all.have : 0, all.v, acc->all_time);
	return 0;
}

static int same_cpus(const struct il_live *before, const struct il_live *after,
		     const unsigned int *a, int na, const unsigned int *b, int nb,
		     struct il_error *err)
{
	for (int i = 0; i < na || i < nb; i++)
		if (i >= na || i >= nb || a[i] != b[i]) {
			bool in_after = i < nb && (i >= na || b[i] < a[i]);

			return il_error_set(err, source_name(in_after ? after : before), 0,
					    "has cpu%u, %s has not: snapshots of two machines?",
					    in_after ? b[i] : a[i],
					    source_name(in_after ? before : after));
		}
	return 0;
}

static int diff_cpu(const struct il_live *before, const struct il_live *after, unsigned int cpu,
		    struct il_live_cpu *a, struct il_live_cpu *b, struct il_table *t,
		    struct diff_acc *acc, struct il_error *err)
{
	struct il_live_delta d[CPUIDLE_STATE_MAX];
	struct il_error why;

	if (il_live_read_cpu(before, cpu, IL_LIVE_READ_COUNTERS, a, err) ||
	    il_live_read_cpu(after, cpu, IL_LIVE_READ_COUNTERS, b, err))
		return -1;
	if (!a->has_cpuidle && !b->has_cpuidle) {
		int r = il_table_add_row(t);

		if (r < 0)
			return -1;
		il_table_set_int(t, r, 0, cpu);
		return il_table_set_str(t, r, 2, "(no cpuidle directory)");
	}
	if (check_grew(after, a, b, err))
		return -1;
	if (il_live_diff(a, b, d, &why))
		return il_error_set(err, source_name(after), 0, "%s (against %s)", why.msg,
				    source_name(before));
	if (cpu_rows(t, acc, b, d))
		return il_error_set(err, source_name(after), 0, "out of memory");
	return 0;
}

int il_live_states_diff(const struct il_live *before, const struct il_live *after,
			struct il_table *per_cpu, struct il_table *total, struct il_error *err)
{
	struct il_live_cpu *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	unsigned int *ca = NULL, *cb = NULL;
	struct diff_acc acc = { 0 };
	int na = -1, nb = -1, ret = -1;

	if (!a || !b) {
		il_error_set(err, source_name(after), 0, "out of memory");
		goto out;
	}
	na = il_live_list_cpus(before, &ca, err);
	if (na < 0)
		goto out;
	nb = il_live_list_cpus(after, &cb, err);
	if (nb < 0 || same_cpus(before, after, ca, na, cb, nb, err))
		goto out;
	if (il_table_init(per_cpu, "states diff", (int)ARRAY_SIZE(per_cpu_cols), per_cpu_cols) ||
	    il_table_init(total, "states diff total", (int)ARRAY_SIZE(total_cols), total_cols)) {
		il_error_set(err, source_name(after), 0, "out of memory");
		goto out;
	}
	for (int i = 0; i < na; i++)
		if (diff_cpu(before, after, ca[i], a, b, per_cpu, &acc, err))
			goto out;
	if (total_rows(total, &acc)) {
		il_error_set(err, source_name(after), 0, "out of memory");
		goto out;
	}
	ret = 0;
out:
	free(acc.t);
	free(ca);
	free(cb);
	free(a);
	free(b);
	return ret;
}
