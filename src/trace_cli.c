// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace_cli.c - argument parsing and trace opening shared by `idlelab stats` and `replay`.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli_opts.h"
#include "trace_cli.h"
#include "trace/table.h"
#include "util/parse.h"
#include "util/array.h"

enum {
	TOPT_INPUT_FORMAT = 1,
	TOPT_MAX_WARNINGS,
	TOPT_NIGHTMARE,
	TOPT_NO_HIST,
	TOPT_RECORDED,
	TOPT_HZ,
	TOPT_CPU,
	TOPT_PERIODS,
	TOPT_PARAM,
	TOPT_SLEEP_LENGTH,
	TOPT_PERFETTO,
	TOPT_PERFETTO_LIMIT,
	TOPT_PERFETTO_WINDOW,
};

#define TRACE_INPUT_OPTS                                        \
	CLI_OPTS_HELP, CLI_OPTS_PLAT,                           \
	{ TOPT_INPUT_FORMAT, 'F', "input-format", true },       \
	CLI_OPTS_FORMAT, CLI_OPTS_OUT,                          \
	{ TOPT_MAX_WARNINGS, 0, "max-warnings", true },         \
	CLI_OPTS_PROGRESS

static const struct cli_opt stats_opts[] = {
	TRACE_INPUT_OPTS,
	{ TOPT_NIGHTMARE, 0, "nightmare", true },
	{ TOPT_NO_HIST, 0, "no-hist", false },
	{ 0 },
};

static const struct cli_opt replay_opts[] = {
	TRACE_INPUT_OPTS,
	CLI_OPTS_GOV,
	{ TOPT_RECORDED, 'r', "recorded", true },
	{ TOPT_HZ, 0, "hz", true },
	{ TOPT_CPU, 0, "cpu", true },
	{ TOPT_PERIODS, 0, "periods", false },
	{ TOPT_PARAM, 0, "param", true },
	{ TOPT_SLEEP_LENGTH, 0, "sleep-length", true },
	PERFETTO_CLI_OPTS(TOPT_PERFETTO, TOPT_PERFETTO_LIMIT, TOPT_PERFETTO_WINDOW),
	{ 0 },
};

/* Base 10, no sign, overflow refused: lib/util/parse.h, as every command. */
static int parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	uint64_t v;

	if (il_parse_count(s, 0, max, &v))
		return -1;
	*out = (unsigned long)v;
	return 0;
}

static bool reader_exists(const char *name)
{
	const char *n, *d, *u;

	for (int i = 0; il_trace_reader_at(i, &n, &d, &u) == 0; i++)
		if (!strcmp(n, name))
			return true;
	return false;
}

/* input_opt() took the option. */
#define INPUT_HANDLED 2

/*
 * One option every trace command takes. Return: INPUT_HANDLED, 0 if not one of them,
 * CLI_PARSE_HELP, or CLI_PARSE_ERROR.
 */
static int input_opt(int id, const char *value, struct trace_input_args *in, struct cli_error *err)
{
	unsigned long n;

	switch (id) {
	case CLI_OPT_HELP:
		return CLI_PARSE_HELP;
	case CLI_OPT_PLAT:
		in->platform = value;
		return INPUT_HANDLED;
	case TOPT_INPUT_FORMAT:
		if (!reader_exists(value))
			return cli_error_set(err, "unknown input format '%s' (see 'idlelab help "
						  "stats')",
					     value);
		in->reader = value;
		return INPUT_HANDLED;
	case CLI_OPT_FORMAT:
		if (cli_opt_format(value, &in->format, err))
			return CLI_PARSE_ERROR;
		return INPUT_HANDLED;
	case CLI_OPT_OUT:
		in->output = value;
		return INPUT_HANDLED;
	case TOPT_MAX_WARNINGS:
		if (parse_uint(value, 1000000000, &n))
			return cli_error_set(err, "--max-warnings takes a count, not '%s'", value);
		in->max_warnings = (int)n;
		return INPUT_HANDLED;
	case CLI_OPT_PROGRESS:
	case CLI_OPT_NO_PROGRESS:
		cli_opt_progress(id, &in->progress);
		return INPUT_HANDLED;
	case CLI_OPT_POSITIONAL:
		if (in->trace)
			return cli_error_set(err, "unexpected argument '%s' (one trace at a time)",
					     value);
		in->trace = value;
		return INPUT_HANDLED;
	}
	return 0;
}

static void input_defaults(struct trace_input_args *in)
{
	memset(in, 0, sizeof(*in));
	in->max_warnings = TRACE_CLI_MAX_WARNINGS;
	in->format = "table";
}

/* "100,1000,2000,4000": thresholds for states 0, 1, ... */
static int parse_nightmare(const char *list, unsigned int *thr, struct cli_error *err)
{
	char buf[256], *tok, *save;
	int i = 0;

	if (strlen(list) >= sizeof(buf))
		return cli_error_set(err, "--nightmare list too long");
	strcpy(buf, list);
	memset(thr, 0, IL_STATS_MAX_STATES * sizeof(*thr));
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned long us;

		if (i >= IL_STATS_MAX_STATES)
			return cli_error_set(err, "--nightmare: at most %d thresholds",
					     IL_STATS_MAX_STATES);
		if (parse_uint(tok, 4000000000UL, &us))
			return cli_error_set(err, "--nightmare: '%s' is not a number of µs", tok);
		thr[i++] = (unsigned int)us;
	}
	if (!i)
		return cli_error_set(err, "--nightmare needs a list such as 100,1000,2000,4000");
	return CLI_PARSE_OK;
}

int stats_parse_args(int argc, char **argv, struct stats_args *args, struct cli_error *err)
{
	struct il_stats_cfg cfg;
	struct cli_scan s;
	const char *value;
	int id, r;

	memset(args, 0, sizeof(*args));
	input_defaults(&args->in);
	il_stats_default_cfg(&cfg);
	memcpy(args->nightmare_us, cfg.nightmare_us, sizeof(args->nightmare_us));
	cli_scan_init(&s, argc, argv);
	while ((id = cli_next_opt(&s, stats_opts, &value, err)) != CLI_OPT_END) {
		if (id == CLI_PARSE_ERROR)
			return CLI_PARSE_ERROR;
		r = input_opt(id, value, &args->in, err);
		if (r == CLI_PARSE_HELP || r == CLI_PARSE_ERROR)
			return r;
		if (r == INPUT_HANDLED)
			continue;
		if (id == TOPT_NIGHTMARE && parse_nightmare(value, args->nightmare_us, err))
			return CLI_PARSE_ERROR;
		if (id == TOPT_NO_HIST)
			args->no_hist = true;
	}
	if (!args->in.trace)
		return cli_error_set(err, "no trace given");
	return CLI_PARSE_OK;
}

static int replay_opt(int id, const char *value, struct replay_args *args, struct cli_error *err)
{
	unsigned long n;

	switch (id) {
	case CLI_OPT_GOV:
		return cli_append_list(value, args->gov_buf, sizeof(args->gov_buf),
				       &args->gov_buf_used, args->governors, REPLAY_MAX_GOVERNORS,
				       &args->ngov, "governor", err);
	case TOPT_RECORDED:
		args->recorded = value;
		return CLI_PARSE_OK;
	case TOPT_HZ:
		if (il_parse_tick_hz(value, &args->hz))
			return cli_error_set(err, "--hz '%s' is not a CONFIG_HZ value "
					     "(100, 250, 300 or 1000)", value);
		return CLI_PARSE_OK;
	case TOPT_CPU:
		if (parse_uint(value, IL_TRACE_MAX_CPUS - 1, &n))
			return cli_error_set(err, "--cpu takes a CPU number, not '%s'", value);
		args->cpu = (int)n;
		return CLI_PARSE_OK;
	case TOPT_PERIODS:
		args->periods = true;
		return CLI_PARSE_OK;
	case TOPT_PARAM:
		if (!strchr(value, '='))
			return cli_error_set(err, "--param takes NAME=VALUE, not '%s'", value);
		if (args->nparams >= (int)(ARRAY_SIZE(args->params)))
			return cli_error_set(err, "too many --param");
		args->params[args->nparams++] = value;
		return CLI_PARSE_OK;
	case TOPT_SLEEP_LENGTH:
		if (!strcmp(value, "auto"))
			args->sleep_length = SLEEP_AUTO;
		else if (!strcmp(value, "timers"))
			args->sleep_length = SLEEP_TIMERS;
		else if (!strcmp(value, "wakeups"))
			args->sleep_length = SLEEP_WAKEUPS;
		else
			return cli_error_set(err, "--sleep-length takes auto, timers or wakeups, "
					     "not '%s'", value);
		return CLI_PARSE_OK;
	case TOPT_PERFETTO:
	case TOPT_PERFETTO_LIMIT:
	case TOPT_PERFETTO_WINDOW:
		return perfetto_option(&args->perfetto, (enum perfetto_opt)(id - TOPT_PERFETTO),
				       value, err);
	}
	return CLI_PARSE_OK;
}

int replay_parse_args(int argc, char **argv, struct replay_args *args, struct cli_error *err)
{
	struct cli_scan s;
	const char *value;
	int id, r;

	memset(args, 0, sizeof(*args));
	input_defaults(&args->in);
	args->cpu = -1;
	perfetto_args_init(&args->perfetto);
	cli_scan_init(&s, argc, argv);
	while ((id = cli_next_opt(&s, replay_opts, &value, err)) != CLI_OPT_END) {
		if (id == CLI_PARSE_ERROR)
			return CLI_PARSE_ERROR;
		r = input_opt(id, value, &args->in, err);
		if (r == CLI_PARSE_HELP || r == CLI_PARSE_ERROR)
			return r;
		if (r != INPUT_HANDLED && replay_opt(id, value, args, err) == CLI_PARSE_ERROR)
			return CLI_PARSE_ERROR;
	}
	if (!args->in.trace)
		return cli_error_set(err, "no trace given");
	if (!args->ngov && !args->recorded)
		return cli_error_set(err, "no governor given (-g GOV,...)");
	return perfetto_check(&args->perfetto, err);
}

/* ---- opening a trace ------------------------------------------------------------------- */

static void print_diag(void *ctx, const char *path, u64 line, const char *msg)
{
	struct trace_source *src = ctx;

	if (src->warnings++ >= (u64)src->max_warnings)
		return;
	if (src->progress)
		progress_clear(src->progress);
	if (line)
		fprintf(stderr, "idlelab %s: %s:%llu: %s\n", src->cmd, path,
			(unsigned long long)line, msg);
	else
		fprintf(stderr, "idlelab %s: %s: %s\n", src->cmd, path, msg);
}

/* The states named in an idlestat header, with their target residencies. */
static void table_from_header(struct trace_source *src, const struct il_trace_info *info)
{
	struct il_driver *drv = &src->plat.drv;

	memset(&src->plat, 0, sizeof(src->plat));
	snprintf(src->plat.name, sizeof(src->plat.name), "trace-header");
	drv->state_count = info->header_states;
	for (int i = 0; i < info->header_states; i++) {
		struct il_state *st = &drv->states[i];

		memcpy(st->name, info->state_name[i], sizeof(st->name));
		st->target_residency = info->state_residency_us[i];
		/* The header has no exit latency; cpuidle_poll_state_init() names POLL. */
		if (!strcmp(st->name, "POLL"))
			st->flags |= CPUIDLE_FLAG_POLLING;
	}
	il_driver_init(drv);
	src->have_table = true;
	snprintf(src->table_origin, sizeof(src->table_origin),
		 "the trace's idlestat header (exit latencies unknown, taken as 0)");
}

static int load_platform(struct trace_source *src, const char *spec)
{
	int ret = cli_load_platform(spec, &src->plat, src->cmd);

	if (ret != CLI_EXIT_OK)
		return ret;
	src->have_table = true;
	snprintf(src->table_origin, sizeof(src->table_origin), "platform %s (%s)", src->plat.name,
		 src->plat.origin);
	return CLI_EXIT_OK;
}

int trace_source_open(struct trace_source *src, const char *cmd, const struct trace_input_args *in)
{
	struct il_error err = { 0 };
	int ret;

	memset(src, 0, sizeof(*src));
	src->cmd = cmd;
	src->max_warnings = in->max_warnings;
	/* The output is checked before the trace is read (a large trace takes minutes). */
	if ((ret = cli_check_output(cmd, in->output, false)) != CLI_EXIT_OK)
		return ret;
	if (in->platform && (ret = load_platform(src, in->platform)) != CLI_EXIT_OK)
		return ret;
	src->trace = il_trace_open(in->trace, in->reader, &err);
	if (!src->trace) {
		fprintf(stderr, "idlelab %s: %s\n", cmd, err.msg);
		return CLI_EXIT_RUNTIME;
	}
	il_trace_set_diag(src->trace, print_diag, src);
	if (!src->have_table && il_trace_info(src->trace)->header_states > 0)
		table_from_header(src, il_trace_info(src->trace));
	return CLI_EXIT_OK;
}

void trace_progress_begin(struct progress *p, struct trace_source *src, const char *what,
			  const struct trace_input_args *in)
{
	u64 done, total;

	il_trace_progress(src->trace, &done, &total);
	progress_begin(p, in->progress, what, PROGRESS_BYTES, NULL, total);
	src->progress = p;
}

void trace_progress_end(struct progress *p, struct trace_source *src)
{
	trace_progress_update(p, src);
	progress_end(p);
	src->progress = NULL;
}

void trace_progress_update(struct progress *p, const struct trace_source *src)
{
	u64 done, total;

	il_trace_progress(src->trace, &done, &total);
	progress_update(p, done);
}

void trace_read_error(const char *cmd, const struct il_trace *t)
{
	if (errno == EBADMSG)
		fprintf(stderr, "idlelab %s: %s\n", cmd, il_trace_error(t));
	else
		fprintf(stderr, "idlelab %s: %s: read error: %s\n", cmd, il_trace_path(t),
			strerror(errno));
}

/* After reading: say how many diagnostics were not shown. */
static void report_hidden_warnings(const struct trace_source *src)
{
	if (src->warnings > (u64)src->max_warnings)
		fprintf(stderr, "idlelab %s: %llu more diagnostics not shown (--max-warnings)\n",
			src->cmd, (unsigned long long)(src->warnings - (u64)src->max_warnings));
}

void trace_source_close(struct trace_source *src)
{
	if (!src->trace)
		return;
	report_hidden_warnings(src);
	il_trace_close(src->trace);
	src->trace = NULL;
}

void trace_check_cpus(const struct trace_source *src, const struct trace_input_args *in,
		      unsigned int seen)
{
	int stated = il_trace_info(src->trace)->ncpus;
	unsigned int traced = stated > 0 ? (unsigned int)stated : seen;

	/* Without a stated count, the CPUs seen are a lower bound: only more is a mismatch. */
	if (!in->platform || !src->plat.cpus || !traced || traced == src->plat.cpus ||
	    (stated <= 0 && traced < src->plat.cpus))
		return;
	fprintf(stderr, "idlelab %s: warning: platform %s has %u CPUs but the trace %s %u: "
		"its state table may be another machine's (idlelab states --export on the traced "
		"one)\n",
		src->cmd, src->plat.name, src->plat.cpus, stated > 0 ? "says" : "has events on",
		traced);
}

const struct il_driver *trace_source_drv(const struct trace_source *src)
{
	return src->have_table ? &src->plat.drv : NULL;
}

int trace_kv_str(struct il_table *t, const char *key, const char *value)
{
	return il_table_kv_str(t, key, value);
}

int trace_kv_int(struct il_table *t, const char *key, s64 value)
{
	return il_table_kv_int(t, key, value);
}

int trace_summary_table(struct il_table *t, const struct trace_source *src)
{
	return il_trace_table(t, src->trace, src->have_table ? src->table_origin :
			      "none (no -p, no header): no above/below, "
			      "no PowerNightmares");
}

int trace_write_tables(const char *cmd, const struct trace_input_args *in,
		       const struct il_table *const *tables, int ntables)
{
	const struct il_output_format *fmt = il_output_find(in->format);
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int ret = CLI_EXIT_RUNTIME;

	if (!fmt->available) {
		fprintf(stderr, "idlelab %s: format %s: %s\n", cmd, fmt->name, fmt->missing);
		return CLI_EXIT_RUNTIME;
	}
	mem = open_memstream(&buf, &len);
	if (!mem)
		return CLI_EXIT_RUNTIME;
	if (fmt->write(mem, tables, ntables) < 0) {
		fclose(mem);
		fprintf(stderr, "idlelab %s: cannot render the output\n", cmd);
		goto out;
	}
	fclose(mem);
	if (cli_write_output(in->output, buf, len) < 0) {
		char why[CLI_WHY_LEN];

		fprintf(stderr, "idlelab %s: cannot write %s: %s\n", cmd,
			in->output ? in->output : "output",
			cli_output_strerror(in->output, errno, why, sizeof(why)));
		goto out;
	}
	ret = CLI_EXIT_OK;
out:
	free(buf);
	return ret;
}
