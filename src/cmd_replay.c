// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_replay.c - `idlelab replay TRACE -g GOV,...`: run governors open loop over the idle
 * periods of a recorded trace (lib/replay/replay.h) and print the linux-pm table, the
 * decision agreement with the recorded governor and its confusion table.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_opts.h"
#include "commands.h"
#include "gov/governors.h"
#include "replay/replay.h"
#include "replay/tables.h"
#include "trace_cli.h"
#include "util/atomic.h"

void cmd_replay_usage(FILE *out)
{
	fprintf(out,
		"usage: idlelab replay TRACE -g GOV[,GOV...] [-r GOV] [-p PLATFORM] [-f FORMAT]\n"
		"                      [-o FILE] [-F READER] [--hz N] [--cpu N] [--param N=V]\n"
		"                      [--periods] [--sleep-length auto|timers|wakeups]\n"
		"                      [--perfetto FILE [--perfetto-limit N] [--perfetto-window "
		"A..B]]\n"
		"\n"
		"Rebuild, per CPU, the inputs of every idle period of a recorded trace (measured\n"
		"residency; sleep length and delta_next from the hrtimer queue and the timer "
		"wheel,\n"
		"or without timer events from what ended each period;\n"
		"tick state; the recorded state and cpu_idle_miss) and run every governor open "
		"loop\n"
		"over them. Prints the linux-pm table per governor next to the recorded "
		"governor's\n"
		"own row, and how often each governor picked the recorded state (agreement), with "
		"a\n"
		"confusion table for the recording governor's port. Then the open-loop bound of\n"
		"the periods (per period the state minimising energy + lambda x exit latency, for "
		"a\n"
		"range of lambda: the energy / added latency frontier) and each row's gap to it "
		"at\n"
		"equal added latency. Assumptions: docs/trace.md.\n"
		"TRACE is read as 'idlelab stats' reads it (any format it detects, xz, gzip or "
		"zstd\n"
		"compressed, '-' for standard input).\n"
		"\n"
		"  -g, --governor LIST   presets or aliases to replay (see 'idlelab governors')\n"
		"  -r, --recorded GOV    the port of the governor that recorded the trace (e.g.\n"
		"                        menu-6.18): replayed too, and its confusion table "
		"printed\n"
		"  -p, --platform P      the trace's state table: built-in platform or file "
		"(default:\n"
		"                        the trace's idlestat header)\n"
		"      --hz N            CONFIG_HZ of the traced kernel (default: the platform's)\n"
		"      --cpu N           replay only CPU N\n"
		"      --param NAME=VAL  a governor tunable as the traced kernel had it, set on "
		"every\n"
		"                        governor that has it (e.g. guest_halt_poll_ns=0)\n"
		"      --periods         one CSV line per idle period (inputs and every pick)\n"
		"      --sleep-length S  where the sleep length comes from: timers (the trace's\n"
		"                        hrtimer and timer events), wakeups (what ended each "
		"period:\n"
		"                        for traces without timer events) or auto (default: "
		"timers\n"
		"                        when the trace has timer events; standard input: timers)\n"
		"  -f, --format FMT      table (default), tsv, csv or json\n"
		"  -o, --output FILE     write there instead of standard output\n"
		"  -F, --input-format R  force a trace reader (see 'idlelab help stats')\n"
		"      --max-warnings N  print at most N bad-line diagnostics (default %d)\n"
		"      --perfetto FILE   a timeline (Chrome trace-event JSON for "
		"ui.perfetto.dev):\n"
		"                        the trace's states and each governor's picks as "
		"processes,\n"
		"                        one above the other (docs/perfetto.md)\n"
		"      --perfetto-limit N  keep at most N events (default 200000; 0: all)\n"
		"      --perfetto-window A..B  only what overlaps [A, B) counted from the first\n"
		"                        replayed period (e.g. 0..50ms; A.. to the end)\n"
		"      --progress        show how much of the trace is read, on stderr, even when\n"
		"                        it is not a terminal\n"
		"      --no-progress     never show progress (default: only on a terminal)\n",
		TRACE_CLI_MAX_WARNINGS);
}

struct replay_run {
	struct replay_args args;
	struct trace_source src;
	struct il_replay_cfg cfg;
	struct il_replay *r;
	int recorded; /* index of the recording governor's port in cfg.presets, -1 if none */
	FILE *periods_out;
	struct il_atomic periods_file; /* --periods -o FILE: written whole or not at all */
	/* --perfetto: the trace's states as one process, each governor's picks as another */
	struct il_timeline *tl;
	struct il_tl_replay tl_replay;
	int tl_pids[IL_REPLAY_MAX_GOVS];
};

/* ---- tables ---------------------------------------------------------------------------- */

/* The trace's own table, then lib/replay's (tables.h). */
enum { T_TRACE, T_COUNT = 1 + IL_REPLAY_TABLES };

static int render(struct replay_run *run)
{
	struct il_table tables[T_COUNT];
	const struct il_table *list[T_COUNT];
	int focus = run->recorded >= 0 ? run->recorded : 0, ret = CLI_EXIT_RUNTIME, n = 0;

	memset(tables, 0, sizeof(tables));
	if (trace_summary_table(&tables[T_TRACE], &run->src) ||
	    il_replay_tables(run->r, &run->cfg, focus, &tables[T_TRACE + 1])) {
		fprintf(stderr, "idlelab replay: out of memory\n");
		goto out;
	}
	for (int i = 0; i < T_COUNT; i++)
		if (tables[i].ncols)
			list[n++] = &tables[i];
	ret = trace_write_tables("replay", &run->args.in, list, n);
out:
	for (int i = 0; i < T_COUNT; i++)
		il_table_free(&tables[i]);
	return ret;
}

/* ---- --periods ------------------------------------------------------------------------- */

static void period_line(void *ctx, const struct il_replay_inputs *in, const int *picks,
			const bool *stops)
{
	struct replay_run *run = ctx;

	fprintf(run->periods_out, "%u,%llu,%llu,%lld,%lld,%lld,%d,%d,%d,%d", in->cpu,
		(unsigned long long)in->enter_line, (unsigned long long)in->enter_ts,
		(long long)in->residency_ns, (long long)in->sleep_ns, (long long)in->delta_next_ns,
		in->tick_stopped, in->got_tick, in->recorded_state, in->recorded_stop);
	for (int i = 0; i < run->cfg.ngov; i++)
		fprintf(run->periods_out, ",%d,%d", picks[i], stops[i]);
	fputc('\n', run->periods_out);
}

/* The replay's one period hook: --periods and --perfetto both listen. */
static void period_hook(void *ctx, const struct il_replay_inputs *in, const int *picks,
			const bool *stops)
{
	struct replay_run *run = ctx;

	if (run->periods_out)
		period_line(run, in, picks, stops);
	if (run->tl)
		il_tl_replay_period(&run->tl_replay, in, picks, stops);
}

static void periods_header(struct replay_run *run)
{
	fprintf(run->periods_out, "cpu,line,enter_ns,residency_ns,sleep_ns,delta_next_ns,"
				  "tick_stopped,got_tick,recorded_state,recorded_stop");
	for (int i = 0; i < run->cfg.ngov; i++)
		fprintf(run->periods_out, ",%s,%s_stop", run->cfg.presets[i]->name,
			run->cfg.presets[i]->name);
	fputc('\n', run->periods_out);
}

/* ---- the command ----------------------------------------------------------------------- */

/* The index of preset @name in run->cfg; Return: it, or -CLI_EXIT_* after saying why. */
static int add_preset(struct replay_run *run, const char *name)
{
	const struct il_preset *p;
	int ret = cli_find_presets(&name, 1, &p, "replay");

	if (ret != CLI_EXIT_OK)
		return -ret;
	for (int i = 0; i < run->cfg.ngov; i++)
		if (run->cfg.presets[i] == p)
			return i;
	if (run->cfg.ngov >= IL_REPLAY_MAX_GOVS) {
		fprintf(stderr, "idlelab replay: at most %d governors\n", IL_REPLAY_MAX_GOVS);
		return -CLI_EXIT_USAGE;
	}
	run->cfg.presets[run->cfg.ngov] = p;
	return run->cfg.ngov++;
}

/* --sleep-length: auto looks for a timer event in the trace first (not on standard input). */
static int choose_sleep_source(struct replay_run *run)
{
	struct il_error err;
	int has = 1;

	run->cfg.sleep_source = IL_SLEEP_TIMERS;
	run->cfg.sleep_why = "timer events: the rebuilt hrtimer queue and timer wheel";
	if (run->args.sleep_length == SLEEP_TIMERS)
		return 0;
	if (run->args.sleep_length == SLEEP_WAKEUPS) {
		run->cfg.sleep_source = IL_SLEEP_WAKEUPS;
		run->cfg.sleep_why = "wakeups (--sleep-length wakeups; timer events not used): "
				     "what "
				 "ended each period, see the sleep length table";
		return 0;
	}
	if (!strcmp(run->args.in.trace, "-"))
		return 0; /* not looked for in a pipe: warn_no_timers() after the replay */
	has = il_replay_trace_has_timers(run->args.in.trace, run->args.in.reader, &err);
	if (has < 0) {
		fprintf(stderr, "idlelab replay: %s\n", err.msg);
		return -1;
	}
	if (!has) {
		run->cfg.sleep_source = IL_SLEEP_WAKEUPS;
		run->cfg.sleep_why = "wakeups (the trace has no timer events): what ended each "
				     "period, "
				 "see the sleep length table";
	}
	return 0;
}

/* Standard input in auto mode was replayed with timer events it may not have had. */
static void warn_no_timers(const struct replay_run *run)
{
	const struct il_trace_counts *n = il_trace_counts(run->src.trace);
	u64 timers = 0;

	if (run->args.sleep_length != SLEEP_AUTO || run->cfg.sleep_source != IL_SLEEP_TIMERS)
		return;
	for (int type = 0; type < IL_EV__COUNT; type++)
		if (IL_REPLAY_TIMER_EVENTS & IL_EV_BIT(type))
			timers += n->events[type];
	if (!timers)
		fprintf(stderr, "idlelab replay: warning: the trace on standard input has no timer "
			"events: its sleep lengths are unknown; replay it with --sleep-length "
			"wakeups\n");
}

static int setup(struct replay_run *run)
{
	struct il_error err;

	int k;

	for (int i = 0; i < run->args.ngov; i++)
		if ((k = add_preset(run, run->args.governors[i])) < 0)
			return -k;
	run->recorded = -1;
	if (run->args.recorded && (run->recorded = add_preset(run, run->args.recorded)) < 0)
		return -run->recorded;
	if (!run->src.have_table) {
		fprintf(stderr, "idlelab replay: %s has no state table: give one with -p "
				"PLATFORM\n",
			run->args.in.trace);
		return CLI_EXIT_USAGE;
	}
	run->cfg.plat = &run->src.plat;
	run->cfg.hz = run->args.hz;
	run->cfg.cpu = run->args.cpu;
	run->cfg.nparams = run->args.nparams;
	memcpy(run->cfg.params, run->args.params,
	       sizeof(run->cfg.params[0]) * (size_t)run->args.nparams);
	run->r = il_replay_new(&run->cfg, &err);
	if (!run->r) {
		fprintf(stderr, "idlelab replay: %s\n", err.msg);
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

static int replay_all(struct replay_run *run)
{
	struct il_trace_event ev;
	struct progress prog;
	u64 n = 0;
	int r;

	/* --periods streams lines to stdout while reading: not under a line redrawn beside them */
	if (run->periods_out == stdout && isatty(STDOUT_FILENO) &&
	    run->args.in.progress == PROGRESS_AUTO)
		run->args.in.progress = PROGRESS_OFF;
	trace_progress_begin(&prog, &run->src, "idlelab replay", &run->args.in);
	while ((r = il_trace_next(run->src.trace, &ev)) > 0) {
		if (il_replay_event(run->r, &ev)) {
			trace_progress_end(&prog, &run->src);
			fprintf(stderr, "idlelab replay: %s: %s at line %llu; stopped (the results "
				"would leave periods out)\n", il_trace_path(run->src.trace),
				strerror(errno), (unsigned long long)ev.line);
			return -1;
		}
		if (++n % TRACE_PROGRESS_EVENTS == 0)
			trace_progress_update(&prog, &run->src);
	}
	trace_progress_end(&prog, &run->src);
	if (il_replay_finish(run->r)) {
		fprintf(stderr, "idlelab replay: %s: %s at the end; stopped\n",
			il_trace_path(run->src.trace), strerror(errno));
		return -1;
	}
	if (r < 0) {
		trace_read_error("replay", run->src.trace);
		return -1;
	}
	warn_no_timers(run);
	return 0;
}

/* ---- --perfetto -------------------------------------------------------------------------- */

static int timeline_meta(struct replay_run *run)
{
	char num[32];
	int err = 0;

	err |= il_timeline_meta(run->tl, "command", "replay");
	err |= il_timeline_meta(run->tl, "trace", run->args.in.trace);
	err |= il_timeline_meta(run->tl, "state_table", run->src.table_origin);
	snprintf(num, sizeof(num), "%u",
		 run->args.hz ? run->args.hz : run->src.plat.hz ? run->src.plat.hz : 250);
	err |= il_timeline_meta(run->tl, "hz", num);
	err |= il_timeline_meta(run->tl, "model", "open loop: every governor over the recorded "
						  "residencies");
	err |= il_timeline_meta(run->tl, "origin", "the window counts from the first replayed "
						   "period");
	return err;
}

/* Process 1: the recorded states; then one process per governor, in -g order. */
static int timeline_setup(struct replay_run *run)
{
	const struct il_platform *plat = &run->src.plat;
	struct il_power pw;
	char name[512];
	int pid;

	run->tl = perfetto_open(&run->args.perfetto, "replay");
	if (!run->tl)
		return -1;
	il_lab_power(&run->src.plat, 0, &pw);
	snprintf(name, sizeof(name), "recorded: %s", run->args.in.trace);
	pid = il_timeline_process_plat(run->tl, name, plat, &pw, false);
	for (int i = 0; i < run->cfg.ngov && pid > 0; i++) {
		snprintf(name, sizeof(name), "%s (replayed)", run->cfg.presets[i]->name);
		run->tl_pids[i] = il_timeline_process_plat(run->tl, name, plat, &pw, false);
		if (run->tl_pids[i] < 0)
			pid = -1;
	}
	if (pid < 0 || timeline_meta(run)) {
		fprintf(stderr, "idlelab replay: timeline: %s\n", strerror(errno));
		return -1;
	}
	il_tl_replay_init(&run->tl_replay, run->tl, &run->src.plat, run->cfg.ngov, 1, run->tl_pids);
	return 0;
}

/* Recorded and recomputed misses further apart than this share of the periods (and this many
 * periods): the state table is not the traced machine's. */
#define REPLAY_MISS_MARGIN 0.05
#define REPLAY_MISS_MARGIN_MIN 10

/* What the replay shows that the numbers alone would hide. Return: 0, or -2 (usage). */
static int check_replayed(struct replay_run *run)
{
	const struct il_replay_row *t = il_replay_trace_row(run->r);
	int stated = il_trace_info(run->src.trace)->ncpus;
	unsigned int ncpus = stated > 0 ? (unsigned int)stated : il_replay_ncpus(run->r);
	u64 rec = t->miss_above + t->miss_below, recomp = t->above + t->below;
	u64 diff = rec > recomp ? rec - recomp : recomp - rec;

	if (run->args.cpu >= 0 && (unsigned int)run->args.cpu >= ncpus) {
		fprintf(stderr, "idlelab replay: --cpu %d: the trace has CPU%s 0..%u%s\n",
			run->args.cpu, ncpus == 1 ? "" : "s", ncpus ? ncpus - 1 : 0,
			stated > 0 ? "" : " (with events)");
		return -2;
	}
	trace_check_cpus(&run->src, &run->args.in, il_replay_ncpus(run->r));
	if (!t->idles && run->args.cpu < 0) {
		const struct il_trace_counts *n = il_trace_counts(run->src.trace);

		/* Empty tables and "no frontier point" would read as an answer: there is none. */
		fprintf(stderr, "idlelab replay: %s: no idle period to replay (%llu cpu_idle "
			"events): record power:cpu_idle (docs/trace.md)\n",
			il_trace_path(run->src.trace),
			(unsigned long long)n->events[IL_EV_CPU_IDLE]);
		return -1;
	}
	if (t->idles && diff >= REPLAY_MISS_MARGIN_MIN &&
	    (double)diff > REPLAY_MISS_MARGIN * (double)t->idles)
		fprintf(stderr, "idlelab replay: warning: recorded misses (cpu_idle_miss: %llu) "
			"and misses recomputed from the state table (%llu) differ by %.1f%% of "
			"%llu "
			"periods (more than %.0f%%): the state table does not match the trace: use "
			"the exported platform (idlelab states --export on the traced machine)%s\n",
			(unsigned long long)rec, (unsigned long long)recomp,
			100.0 * (double)diff / (double)t->idles, (unsigned long long)t->idles,
			100.0 * REPLAY_MISS_MARGIN,
			rec ? "" : ", or the trace lacks power:cpu_idle_miss");
	return 0;
}

/* --periods streams while reading; the summary is rendered at the end. */
static int run_and_write(struct replay_run *run)
{
	int ret;

	if (run->args.perfetto.path && timeline_setup(run))
		return -1;
	if (run->args.periods) {
		run->periods_out = stdout;
		if (run->args.in.output && il_atomic_open(&run->periods_file, run->args.in.output))
			run->periods_out = NULL;
		else if (run->args.in.output)
			run->periods_out = run->periods_file.f;
		if (!run->periods_out) {
			char why[CLI_WHY_LEN];

			fprintf(stderr, "idlelab replay: cannot write %s: %s\n",
				run->args.in.output,
				il_atomic_strerror(run->args.in.output, errno, why, sizeof(why)));
			return -1;
		}
		periods_header(run);
	}
	if (run->periods_out || run->tl)
		il_replay_set_period_hook(run->r, period_hook, run);
	ret = replay_all(run);
	if (!ret)
		ret = check_replayed(run);
	if (run->periods_out && run->periods_out != stdout) {
		if (ret)
			il_atomic_abort(&run->periods_file);
		else if (il_atomic_commit(&run->periods_file)) {
			fprintf(stderr, "idlelab replay: writing %s: %s\n", run->args.in.output,
				strerror(errno));
			ret = -1;
		}
	}
	if (!ret && run->tl) {
		ret = perfetto_save(run->tl, &run->args.perfetto, "replay") == CLI_EXIT_OK ? 0 : -1;
		if (!ret)
			perfetto_note_truncation(run->tl, &run->args.perfetto, "replay");
	}
	if (!ret && !run->args.periods)
		ret = render(run) == CLI_EXIT_OK ? 0 : -1;
	return ret;
}

static int replay_parse(int argc, char **argv, void *state, struct cli_error *err)
{
	return replay_parse_args(argc, argv, &((struct replay_run *)state)->args, err);
}

static int replay_main(void *state)
{
	struct replay_run *run = state;
	int ret = cli_check_output("replay", run->args.perfetto.path, false);

	if (ret == CLI_EXIT_OK)
		ret = trace_source_open(&run->src, "replay", &run->args.in);
	if (ret != CLI_EXIT_OK)
		return ret;
	if (choose_sleep_source(run)) {
		trace_source_close(&run->src);
		return CLI_EXIT_RUNTIME;
	}
	il_trace_set_events(run->src.trace, run->cfg.sleep_source == IL_SLEEP_WAKEUPS ?
						    IL_REPLAY_WAKEUP_EVENTS : IL_REPLAY_EVENTS);
	ret = setup(run);
	if (ret == CLI_EXIT_OK)
		ret = run_and_write(run);
	if (ret < 0)
		ret = ret == -2 ? CLI_EXIT_USAGE : CLI_EXIT_RUNTIME;
	il_replay_free(run->r);
	il_timeline_free(run->tl);
	trace_source_close(&run->src);
	return ret;
}

int cmd_replay(int argc, char **argv)
{
	static const struct cli_lifecycle lc = {
		.name = "replay", .size = sizeof(struct replay_run), .parse = replay_parse,
		.usage = cmd_replay_usage, .run = replay_main,
	};

	return cli_main(&lc, argc, argv);
}
