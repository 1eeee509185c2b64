/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * metrics.h - what a simulated run measured, and the linux-pm summary computed from it.
 *
 * DOC: metrics
 *
 * The simulator reports every finished idle period here once, with the state it was spent
 * in, its measured length (as cpuidle_enter_state() measures it: from entry until the CPU
 * runs again, so the exit latency is inside) and the kernel's miss verdict. From that:
 *
 *  1. "idles", "aboves", "belows", "idle_misses" = aboves + belows and "idle_miss_ratio" =
 *     idle_misses / idles, with the kernel's definitions (drivers/cpuidle/cpuidle.c), summed
 *     over CPUs and states, per CPU and per state; "rejected", the entries a state refused
 *     (the kernel's per-state counter: a period that never started, in no other count).
 *  2. usage and time per state, and busy time per CPU. Per CPU, the time of every state plus
 *     the busy time is the simulated wall time: a period still open when the run ends counts
 *     its time (as "open" time of its state) but not a usage.
 *  3. "PowerNightmares" (Doug Smythies' counter of Thomas Ilsche's term): a period in a state
 *     that has a deeper state, longer than that state's threshold (default 100, 1000, 2000,
 *     4000 µs for states 0, 1, 2 and 3 and up). Count and time.
 *  4. Tick stops (the tick went from running to stopped on idle entry) and retained ticks
 *     (the governor asked to keep the tick running, stop_tick == false).
 *  5. The wakeup latency paid by work: from the moment work was made runnable on an idle CPU
 *     until it started running (exit latency, IPI delivery). Mean and max are exact (an
 *     exact sum and maximum); p50/p99 come from an HDR-style log-linear histogram: values
 *     below 2048 ns have a bucket each (exact to 1 ns), above, every power of two is split
 *     into 1024 equal steps, and each bucket keeps its smallest value: a percentile is that
 *     smallest value of the bucket that holds the order statistic, exact when the bucket
 *     holds one distinct value (an exit latency, say) and at most 1/1024 (0.098 %) below
 *     the exact order statistic otherwise.
 *  6. Energy, a model value: per CPU, each state's power times its time, the active power
 *     times the busy time, and the entry + exit energy per entered period.
 */
#ifndef IDLELAB_METRICS_H
#define IDLELAB_METRICS_H

#include <stddef.h>

#include "../cpuidle.h"
#include "../core/core.h"

#define IL_PN_LEVELS 4

/* Doug Smythies' PowerNightmare thresholds per state index, µs (the last one repeats). */
#define IL_PN_DEFAULT_US { 100, 1000, 2000, 4000 }

#define IL_HIST_SUB_BITS 10
#define IL_HIST_SUB (1 << IL_HIST_SUB_BITS)
#define IL_HIST_MAX_BITS 44 /* values up to 2^44 ns (about 4.9 hours) have their own bucket */
#define IL_HIST_BUCKETS (2 * IL_HIST_SUB + (IL_HIST_MAX_BITS - IL_HIST_SUB_BITS - 1) * IL_HIST_SUB)

/*
 * The buckets (IL_HIST_BUCKETS counts, each beside its smallest value: one cache line per
 * add, 560 KiB in all) are allocated by il_hist_init(); a copy that keeps only count, sum
 * and max has bucket NULL.
 */
struct il_hist_bucket {
	u64 count;
	u64 min;           /* the smallest value seen in the bucket (valid where count > 0) */
};

struct il_hist {
	u64 count;
	u64 max;
	u64 sum;
	struct il_hist_bucket *bucket;
};

struct il_state_stats {
	u64 usage;
	u64 time_ns;       /* includes open_ns */
	u64 open_ns;       /* time of a period the end of the run cut short */
	u64 above;
	u64 below;
	u64 rejected;      /* entries the state refused (the kernel's "rejected" counter) */
	u64 nightmares;
	u64 nightmare_ns;
};

struct il_cpu_stats {
	u64 busy_ns;
	u64 tick_stops;
	u64 ticks_retained;
	u64 wakeups; /* idle periods ended by an interrupt or by work (not by the poll limit) */
	u64 poll_limits;   /* polling periods ended by the poll time limit */
	struct il_state_stats st[CPUIDLE_STATE_MAX];
	/*
	 * Power domains: the energy of the physical states (a demoted or a domain state) minus
	 * that of the accounted ones over the same time, µJ (lib/sim/domain.c)
	 */
	double domain_adjust_uj;
};

#define IL_POWER_TABLES_MAX 4 /* IL_PLAT_TABLES_MAX */

struct il_power {
	u64 active_uw;             /* one CPU running work */
	u64 state_uw[CPUIDLE_STATE_MAX];
	u64 entry_exit_nj[CPUIDLE_STATE_MAX];
	bool known;                /* false: the platform gave no power numbers */
	/*
	 * Per-CPU tables: the power numbers of table t in table_uw[t]/table_nj[t], and CPU c on
	 * table cpu_table[c] (NULL: every CPU on state_uw/entry_exit_nj, table 0's).
	 */
	u64 table_uw[IL_POWER_TABLES_MAX][CPUIDLE_STATE_MAX];
	u64 table_nj[IL_POWER_TABLES_MAX][CPUIDLE_STATE_MAX];
	const unsigned char *cpu_table; /* 1 + the table index, as struct il_platform has it */
	unsigned int cpu_table_len;     /* CPU c >= len: the table of CPU c % len */
};

struct il_metrics {
	unsigned int ncpus;
	int nstates;
	u64 duration_ns;
	u64 pn_threshold_ns[CPUIDLE_STATE_MAX];
	struct il_cpu_stats *cpu;
	struct il_hist wake_latency;
};

/*
 * Totals over all CPUs, as the linux-pm table shows them (or over one CPU:
 * il_metrics_summarize_cpu()). The catalogue below says which field each column reads.
 */
struct il_summary {
	u64 idles;
	u64 aboves;
	u64 belows;
	u64 idle_misses;
	double idle_miss_ratio;
	u64 rejected;
	u64 nightmares;
	double nightmare_s;
	u64 tick_stops;
	u64 ticks_retained;
	u64 wakeups;
	u64 poll_limits;
	u64 busy_ns;
	double busy_pct;            /* of the CPUs' simulated time */
	double joules;              /* model value */
	double watts;               /* joules / simulated seconds */
	bool energy_known;
	u64 wake_p50_ns;
	u64 wake_p90_ns;
	u64 wake_p99_ns;
	u64 wake_p999_ns;
	double wake_mean_ns;
	u64 wake_max_ns;
	u64 wake_count;
	u64 usage[CPUIDLE_STATE_MAX];
	u64 time_ns[CPUIDLE_STATE_MAX];
	double time_pct[CPUIDLE_STATE_MAX];  /* of the CPUs' simulated time */
	u64 above[CPUIDLE_STATE_MAX];
	u64 below[CPUIDLE_STATE_MAX];
	u64 state_rejected[CPUIDLE_STATE_MAX];
	u64 state_nightmares[CPUIDLE_STATE_MAX];
	u64 state_nightmare_ns[CPUIDLE_STATE_MAX];
};

/**
 * il_metrics_init - allocate per-CPU counters for @ncpus CPUs and @nstates states
 * @pn_us: PowerNightmare thresholds in µs for states 0..IL_PN_LEVELS-1 (deeper states use
 *         the last one), or NULL for the defaults
 * Return: 0, or -1 with errno ENOMEM.
 */
int il_metrics_init(struct il_metrics *m, unsigned int ncpus, int nstates, const u64 *pn_us);
void il_metrics_free(struct il_metrics *m);

/** il_metrics_open_idle - record the part of a period that the end of the run cut off */
void il_metrics_open_idle(struct il_metrics *m, unsigned int cpu, int idx, u64 ns);

/*
 * A caller that accounts every period through il_cpuidle_account() (the simulator) has the
 * usage, time, above and below counts in its device already: per period it records only
 * the PowerNightmare part, and adds the device's counts once at the end.
 */

/** il_metrics_add_nightmare - count a period of @diff_ns in state @idx on @cpu as a nightmare */
void il_metrics_add_nightmare(struct il_metrics *m, unsigned int cpu, int idx, u64 diff_ns);

/**
 * il_metrics_nightmare - the PowerNightmare test of one finished period: the test inline,
 * the rare count out of line
 */
static inline void il_metrics_nightmare(struct il_metrics *m, unsigned int cpu, int idx,
					u64 diff_ns)
{
	/* The deepest state has nothing deeper to have been better, so it is never a nightmare. */
	if (idx < m->nstates - 1 && diff_ns > m->pn_threshold_ns[idx])
		il_metrics_add_nightmare(m, cpu, idx, diff_ns);
}

/** il_metrics_add_usage - add a device's per-state usage, time, above and below counts */
void il_metrics_add_usage(struct il_metrics *m, unsigned int cpu,
			  const struct il_state_usage *usage);

/*
 * Log-linear buckets: values below 2 * IL_HIST_SUB are exact; above, each power of two is
 * split into IL_HIST_SUB equal steps.
 */
static inline unsigned int il_hist_index(u64 v)
{
	unsigned int msb, shift;

	if (v < 2 * IL_HIST_SUB)
		return (unsigned int)v;
	msb = 63 - (unsigned int)__builtin_clzll(v);
	if (msb >= IL_HIST_MAX_BITS)
		return IL_HIST_BUCKETS - 1;
	shift = msb - IL_HIST_SUB_BITS;
	return 2 * IL_HIST_SUB + (msb - IL_HIST_SUB_BITS - 1) * IL_HIST_SUB +
	       (unsigned int)((v >> shift) - IL_HIST_SUB);
}

/** il_hist_init - allocate the buckets of an empty histogram; 0, or -1 with errno ENOMEM */
int il_hist_init(struct il_hist *h);
void il_hist_free(struct il_hist *h);

/** il_hist_add - add one value (ns); inline, the simulator adds one per wakeup */
static inline void il_hist_add(struct il_hist *h, u64 ns)
{
	struct il_hist_bucket *b = &h->bucket[il_hist_index(ns)];

	if (!b->count++ || ns < b->min)
		b->min = ns;
	h->count++;
	h->sum += ns;
	if (ns > h->max)
		h->max = ns;
}
/**
 * il_hist_percentile - the smallest value of the bucket that holds the rank-th smallest
 * value, rank = ceil(count * @permille / 1000) (at least 1); 0 if empty. Exact below
 * 2048 ns and where the bucket holds one distinct value, else at most 1/1024 of the value
 * below the exact order statistic.
 */
u64 il_hist_percentile(const struct il_hist *h, unsigned int permille);

/** il_hist_mean - the exact mean of the values, 0 if empty */
double il_hist_mean(const struct il_hist *h);

/** il_metrics_summarize - totals, ratios, percentiles and the energy model of a run */
void il_metrics_summarize(const struct il_metrics *m, const struct il_power *pw,
			  struct il_summary *out);

/**
 * il_summary_totals - the totals of @out's per-state kernel counters over @nstates states
 * (idles, aboves, belows ...) and the misses and ratio made of them; a caller that has only
 * those counters (measure, from sysfs) fills them and gets every column they make
 */
void il_summary_totals(struct il_summary *out, int nstates);

/** il_metrics_summarize_cpu - the totals of CPU @cpu alone (no energy, no latencies) */
void il_metrics_summarize_cpu(const struct il_metrics *m, unsigned int cpu,
			      struct il_summary *out);

/** il_cpu_energy_j - the model energy of one CPU, Joules */
double il_cpu_energy_j(const struct il_metrics *m, const struct il_power *pw, unsigned int cpu);

/*
 * DOC: the catalogue of result metrics
 *
 * Every result column that a struct il_summary field fills is one line of the catalogue
 * (metrics.c): its name, unit, decimals, which direction is better, the summary field it
 * reads (a value is that field / div) and the tables it is a column of, in catalogue order.
 * The lab's tables (lib/lab/tables.c), measure's (lib/live/tables.c), the verdict's
 * metrics (lib/verdict/metrics.c, casefile.c) and the report's readers (lib/report:
 * IL_RPT_PM_COL, il_metric_of()) take their columns from it, so that a new column is one
 * catalogue line plus the code that computes its field (this file and metrics.c).
 */
enum il_better {
	IL_BETTER_NONE,
	IL_BETTER_LOWER,
	IL_BETTER_HIGHER,
};

/* The tables a metric is a column of (struct il_metric_def.tables). */
#define IL_MT_PM      (1u << 0) /* the linux-pm row: run, compare, battery, sweep */
#define IL_MT_STATES  (1u << 1) /* the lab's per-state table: the field is an array by state */
#define IL_MT_CPUS    (1u << 2) /* the lab's per-CPU table, from each CPU's own summary */
#define IL_MT_VERDICT (1u << 3) /* judged by verdict (-m NAME) and kept in its case files */
#define IL_MT_LIVE    (1u << 4) /* measure's runs table, from the kernel's counters */

/* The kernel counters a metric is made of (measure leaves it empty when one is missing). */
#define IL_MC_USAGE    (1u << 0)
#define IL_MC_ABOVE    (1u << 1)
#define IL_MC_BELOW    (1u << 2)
#define IL_MC_REJECTED (1u << 3)

#define IL_PREC_COUNT (-1) /* a whole count, not a real */

struct il_metric_def {
	const char *name;          /* the column: "idle_misses", "wakeup_p99_us" */
	const char *unit;          /* "" for a count, else "ratio", "J", "W", "s", "us", "%" */
	int prec;                  /* decimals in a table, IL_PREC_COUNT for a count */
	int mean_prec;             /* decimals of a mean over runs (the verdict's) */
	enum il_better better;
	const char *field;         /* the struct il_summary field it reads */
	size_t offset;             /* offsetof(struct il_summary, field) */
	bool real;                 /* the field is a double (else a u64) */
	double div;                /* the value is the field / div */
	unsigned int tables;       /* IL_MT_* */
	unsigned int counters;     /* IL_MC_*: what it is made of */
	bool energy;               /* a model energy value: empty without power numbers */
	int verdict_rank;          /* its place among the verdict's metrics (1 = first) */
};

/** il_metric_count - the number of catalogue lines */
int il_metric_count(void);
/** il_metric_at - catalogue line @i, or NULL */
const struct il_metric_def *il_metric_at(int i);
/** il_metric_find - the line called @name in table(s) @tables, or NULL */
const struct il_metric_def *il_metric_find(const char *name, unsigned int tables);
/** il_metric_of - the line of table(s) @tables that reads the summary field at @offset, or NULL */
const struct il_metric_def *il_metric_of(size_t offset, unsigned int tables);
/* The line of table(s) @tables that reads struct il_summary's @field (a reader's lookup). */
#define IL_METRIC_OF(field, tables) il_metric_of(offsetof(struct il_summary, field), tables)
/** il_metric_field - the summary field @d reads, in @s (a count as a double) */
double il_metric_field(const struct il_metric_def *d, const struct il_summary *s, int state);
/** il_metric_value - @d's value in @s; @state: the state of an IL_MT_STATES line */
double il_metric_value(const struct il_metric_def *d, const struct il_summary *s, int state);
/** il_metric_count_value - @d's value in @s as a whole count (for IL_PREC_COUNT lines) */
u64 il_metric_count_value(const struct il_metric_def *d, const struct il_summary *s, int state);

#endif /* IDLELAB_METRICS_H */
