// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_stats.c - `idlelab stats TRACE`: per-CPU, per-state statistics of a recorded trace
 * (lib/stats/stats.h), as a table, CSV or JSON.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "stats/tables.h"
#include "trace_cli.h"

void cmd_stats_usage(FILE *out)
{
	fprintf(out,
		"usage: idlelab stats TRACE [-p PLATFORM] [-f FORMAT] [-o FILE]\n"
		"                     [-F READER] [--nightmare US,US,...] [--no-hist]\n"
		"\n"
		"Per CPU and per idle state of a recorded trace: entries, residency "
		"min/avg/max/total\n"
		"and a log2 histogram, above/below recomputed from the state table by the "
		"kernel's\n"
		"rules, the cpu_idle_miss events as recorded, PowerNightmares, what ended each "
		"idle\n"
		"period (IRQ, IPI, timer or tick) and tick stops. A CPU without idle events is\n"
		"reported as such. Bad lines are reported with their line number and counted.\n"
		"\n"
		"TRACE is tracefs text (trace, trace_pipe, with or without a TGID column),\n"
		"trace-cmd report text, perf script text, an idlestat trace file, an Android "
		"systrace\n"
		"HTML page or a binary trace.dat (when built with libtracecmd); the format is\n"
		"detected, and so is xz, gzip or zstd compression. '-' reads standard input.\n"
		"\n"
		"  -p, --platform P      the state table: a built-in platform or a platform file\n"
		"                        (default: the trace's idlestat header, else none)\n"
		"  -F, --input-format R  force a reader:");
	for (int i = 0;; i++) {
		const char *name, *desc, *unavailable;

		if (il_trace_reader_at(i, &name, &desc, &unavailable))
			break;
		fprintf(out, " %s%s", name, unavailable ? " (not built in)" : "");
	}
	fprintf(out,
		"\n"
		"  -f, --format FMT      table (default), tsv, csv or json\n"
		"  -o, --output FILE     write there instead of standard output\n"
		"      --nightmare LIST  PowerNightmare thresholds per state in µs (default\n"
		"                        100,1000,2000,4000; 0 = none)\n"
		"      --no-hist         leave the histograms out of the table\n"
		"      --max-warnings N  print at most N bad-line diagnostics (default %d)\n"
		"      --progress        show how much of the trace is read, on stderr, even when\n"
		"                        it is not a terminal\n"
		"      --no-progress     never show progress (default: only on a terminal)\n",
		TRACE_CLI_MAX_WARNINGS);
}

/* The trace's own table, then lib/stats' (tables.h). */
enum { T_TRACE, T_COUNT = 1 + IL_STATS_TABLES };

static int render(const struct stats_args *args, const struct trace_source *src,
		  const struct il_stats *s)
{
	const struct il_driver *drv = trace_source_drv(src);
	struct il_table tables[T_COUNT];
	const struct il_table *list[T_COUNT];
	int n = 0, ret = CLI_EXIT_RUNTIME;

	memset(tables, 0, sizeof(tables));
	if (trace_summary_table(&tables[T_TRACE], src) ||
	    il_stats_tables(s, drv, args->nightmare_us, &tables[T_TRACE + 1])) {
		fprintf(stderr, "idlelab stats: out of memory\n");
		goto out;
	}
	for (int i = 0; i < T_COUNT; i++)
		if (i != T_TRACE + 1 + IL_STATS_T_HIST || !args->no_hist)
			list[n++] = &tables[i];
	ret = trace_write_tables("stats", &args->in, list, n);
out:
	for (int i = 0; i < T_COUNT; i++)
		il_table_free(&tables[i]);
	return ret;
}

/* ---- the command ----------------------------------------------------------------------- */

static int collect(struct trace_source *src, struct il_stats *s, const struct stats_args *args)
{
	struct il_trace_event ev;
	struct progress prog;
	u64 n = 0;
	int r;

	trace_progress_begin(&prog, src, "idlelab stats", &args->in);
	while ((r = il_trace_next(src->trace, &ev)) > 0) {
		il_stats_event(s, &ev);
		if (++n % TRACE_PROGRESS_EVENTS == 0)
			trace_progress_update(&prog, src);
	}
	trace_progress_end(&prog, src);
	il_stats_finish(s);
	if (r < 0) {
		trace_read_error("stats", src->trace);
		return -1;
	}
	return 0;
}

static int stats_parse(int argc, char **argv, void *state, struct cli_error *err)
{
	return stats_parse_args(argc, argv, state, err);
}

/* A platform with per-CPU tables: each CPU's table for its above/below. Return: 0 or -1. */
static int stats_cpu_tables(const struct trace_source *src, struct il_stats_cfg *cfg)
{
	const struct il_driver **t;

	if (!src->have_table || src->plat.ntables <= 1)
		return 0;
	t = calloc(src->plat.cpus, sizeof(*t));
	if (!t)
		return -1;
	for (unsigned int c = 0; c < src->plat.cpus; c++)
		t[c] = il_platform_cpu_drv(&src->plat, c);
	cfg->cpu_drv = t;
	cfg->ncpu_drv = src->plat.cpus;
	return 0;
}

static int stats_main(void *state)
{
	struct stats_args *args = state;
	struct trace_source src;
	struct il_stats_cfg cfg;
	struct il_stats *s;
	int ret;

	ret = trace_source_open(&src, "stats", &args->in);
	if (ret != CLI_EXIT_OK)
		return ret;
	il_trace_set_events(src.trace, IL_STATS_EVENTS);
	il_stats_default_cfg(&cfg);
	cfg.drv = trace_source_drv(&src);
	memcpy(cfg.nightmare_us, args->nightmare_us, sizeof(cfg.nightmare_us));
	s = stats_cpu_tables(&src, &cfg) ? NULL : il_stats_new(&cfg);
	ret = CLI_EXIT_RUNTIME;
	if (s && collect(&src, s, args) == 0) {
		trace_check_cpus(&src, &args->in, il_stats_ncpus(s));
		ret = render(args, &src, s);
	}
	il_stats_free(s);
	free((void *)cfg.cpu_drv);
	trace_source_close(&src);
	return ret;
}

int cmd_stats(int argc, char **argv)
{
	static const struct cli_lifecycle lc = {
		.name = "stats", .size = sizeof(struct stats_args), .parse = stats_parse,
		.usage = cmd_stats_usage, .run = stats_main,
	};

	return cli_main(&lc, argc, argv);
}
