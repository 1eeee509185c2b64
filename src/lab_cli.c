// SPDX-License-Identifier: GPL-2.0-only
/*
 * lab_cli.c - `idlelab run` and `idlelab compare`: options, the lab runs, the tables.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_opts.h"
#include "lab_cli.h"
#include "gov/governors.h"
#include "output/output.h"
#include "platform/platform.h"
#include "replay/bound.h"
#include "lab/tables.h"
#include "lab/lab.h"
#include "summary_cli.h"
#include "util/atomic.h"
#include "verdict/verdict.h"

enum {
	LAB_OPT_PN = 1, LAB_OPT_ACTIVE, LAB_OPT_LABEL, LAB_OPT_PERFETTO, LAB_OPT_PERFETTO_LIMIT,
	LAB_OPT_PERFETTO_WINDOW, LAB_OPT_BASELINE, LAB_OPT_BOUND,
};

static const struct cli_opt lab_opts[] = {
	CLI_OPTS_HELP, CLI_OPTS_GOV, CLI_OPTS_PLAT, CLI_OPTS_SCN, CLI_OPTS_TIME, CLI_OPTS_SEED,
	CLI_OPTS_ITER, CLI_OPTS_FORMAT,
	{ LAB_OPT_PN, 0, "pn-us", true },
	{ LAB_OPT_ACTIVE, 0, "active-mw", true },
	CLI_OPTS_OUT,
	{ LAB_OPT_LABEL, 0, "label", true },
	PERFETTO_CLI_OPTS(LAB_OPT_PERFETTO, LAB_OPT_PERFETTO_LIMIT, LAB_OPT_PERFETTO_WINDOW),
	{ LAB_OPT_BASELINE, 0, "baseline", true },
	{ LAB_OPT_BOUND, 0, "bound", false },
	CLI_OPTS_ENSEMBLE,
	{ 0 },
};

static int parse_pn(struct lab_args *args, const char *s, struct cli_error *err)
{
	char buf[128], *save = NULL;
	int n = 0;

	if (strlen(s) >= sizeof(buf))
		return cli_error_set(err, "--pn-us: too long");
	strcpy(buf, s);
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == IL_PN_LEVELS || cli_parse_count(tok, 1000000000ULL, &args->pn_us[n]))
			return cli_error_set(err, "--pn-us takes up to %d thresholds in us, e.g. "
						  "100,1000,2000,4000",
					     IL_PN_LEVELS);
		n++;
	}
	if (!n)
		return cli_error_set(err, "--pn-us: no threshold given");
	for (int i = n; i < IL_PN_LEVELS; i++)
		args->pn_us[i] = args->pn_us[n - 1];
	args->pn_set = true;
	return CLI_PARSE_OK;
}

static int lab_option(void *state, int id, const char *value, struct cli_error *err)
{
	struct lab_args *args = state;
	uint64_t v;

	switch (id) {
	case CLI_OPT_GOV:
		return cli_append_list(value, args->gov_buf, sizeof(args->gov_buf),
				       &args->gov_buf_used,
				       args->governors, LAB_MAX_GOVERNORS, &args->ngov, "governor",
				       	err);
	case CLI_OPT_PLAT:
		args->platform = value;
		return CLI_PARSE_OK;
	case CLI_OPT_SCN:
		if (args->nscn == LAB_MAX_SCENARIOS)
			return cli_error_set(err, "more than %d scenarios", LAB_MAX_SCENARIOS);
		args->scenarios[args->nscn++] = value;
		return CLI_PARSE_OK;
	case CLI_OPT_ITER:
		if (!args->compare)
			return cli_error_set(err, "--iter is an option of compare");
		break;
	case LAB_OPT_PN:
		return parse_pn(args, value, err);
	case LAB_OPT_ACTIVE:
		if (cli_parse_count(value, 1000000, &v) || !v)
			return cli_error_set(err, "--active-mw: '%s' is not a power in mW in [1, "
						  "1000000]", value);
		args->active_uw = v * 1000;
		return CLI_PARSE_OK;
	case CLI_OPT_OUT:
		args->output = value;
		return CLI_PARSE_OK;
	case LAB_OPT_LABEL:
		if (args->compare)
			return cli_error_set(err, "--label is an option of run");
		if (args->nlabel == LAB_MAX_LABELS)
			return cli_error_set(err, "more than %d labels", LAB_MAX_LABELS);
		if (!strchr(value, '=') || *value == '=')
			return cli_error_set(err, "--label: '%s' is not NAME=VALUE", value);
		args->labels[args->nlabel++] = value;
		return CLI_PARSE_OK;
	case LAB_OPT_BASELINE:
		if (!args->compare)
			return cli_error_set(err, "--baseline is an option of compare");
		args->baseline = value;
		return CLI_PARSE_OK;
	case LAB_OPT_BOUND:
		args->bound = true;
		return CLI_PARSE_OK;
	case CLI_OPT_ENSEMBLE:
		if (!args->compare)
			return cli_error_set(err, "--ensemble is an option of compare");
		break;
	case LAB_OPT_PERFETTO:
	case LAB_OPT_PERFETTO_LIMIT:
	case LAB_OPT_PERFETTO_WINDOW:
		if (args->compare)
			return cli_error_set(err, "--perfetto is an option of run");
		return perfetto_option(&args->perfetto, (enum perfetto_opt)(id - LAB_OPT_PERFETTO),
				       value, err);
	}
	return cli_run_option(&args->run, id, value, err);
}

static int lab_check(const struct lab_args *args, struct cli_error *err)
{
	if (!args->ngov)
		return cli_error_set(err, "no governor given (-g)");
	if (!args->compare && args->ngov > 1)
		return cli_error_set(err, "run takes one governor; use compare for several");
	if (!args->platform)
		return cli_error_set(err, "no platform given (-p; see 'idlelab platforms')");
	if (!args->nscn)
		return cli_error_set(err, "no scenario given (-s; see 'idlelab scenarios')");
	if (!args->compare && args->nscn > 1)
		return cli_error_set(err, "run takes one scenario; use compare for several");
	if (summary_check_baseline(args->baseline, args->governors, args->ngov, err))
		return CLI_PARSE_ERROR;
	if (args->bound && args->perfetto.path)
		return cli_error_set(err, "--bound and --perfetto cannot be combined");
	return perfetto_check(&args->perfetto, err);
}

int lab_parse_args(int argc, char **argv, bool compare, struct lab_args *args,
		   struct cli_error *err)
{
	int ret;

	memset(args, 0, sizeof(*args));
	args->compare = compare;
	args->time_ns = LAB_DEFAULT_TIME_NS;
	args->seed = 1;
	args->iter = 1;
	args->format = "table";
	perfetto_args_init(&args->perfetto);
	ret = cli_parse_options(argc, argv, lab_opts, CLI_OPT_HELP, lab_option, args, err);
	return ret == CLI_PARSE_OK ? lab_check(args, err) : ret;
}

/* ---- running ---------------------------------------------------------------------------- */

struct lab_job {
	struct il_platform plat;
	const struct il_preset *presets[LAB_MAX_GOVERNORS];
	const struct il_scenario *scn[LAB_MAX_SCENARIOS];
	struct il_scn_args scn_args[LAB_MAX_SCENARIOS];
	struct il_scn_common common[LAB_MAX_SCENARIOS];
	const struct il_output_format *fmt;
};

static int lab_resolve(const struct lab_args *args, struct lab_job *job, const char *cmd)
{
	struct il_error perr;
	int ret = cli_find_presets(args->governors, args->ngov, job->presets, cmd);

	if (ret != CLI_EXIT_OK)
		return ret;
	for (int i = 0; i < args->nscn; i++)
		if (il_scn_parse(args->scenarios[i], &job->scn[i], &job->scn_args[i],
				 &job->common[i],
				 &perr)) {
			if (cli_scn_file_error(job->scn[i], &job->scn_args[i], &perr)) {
				fprintf(stderr, "idlelab %s: %s\n", cmd, perr.msg);
				return CLI_EXIT_RUNTIME;
			}
			return cli_usage_error(cmd, perr.msg);
		}
	job->fmt = il_output_find(args->format);
	if (!job->fmt->available) {
		fprintf(stderr, "idlelab %s: format %s: %s\n", cmd, job->fmt->name,
			job->fmt->missing);
		return CLI_EXIT_RUNTIME;
	}
	ret = cli_load_platform(args->platform, &job->plat, cmd);
	for (int i = 0; i < args->nscn && ret == CLI_EXIT_OK; i++)
		ret = cli_check_cpus(job->scn[i], &job->common[i], &job->plat, cmd);
	return ret;
}

static void lab_spec(const struct lab_args *args, const struct lab_job *job, int gov, int scn,
		     int iter,
		     struct il_lab_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
	spec->plat = &job->plat;
	spec->preset = job->presets[gov];
	spec->scn = job->scn[scn];
	spec->args = job->scn_args[scn];
	spec->common = job->common[scn];
	spec->duration_ns = args->time_ns;
	spec->seed = args->seed + (uint64_t)iter;
	spec->active_uw = args->active_uw;
	spec->pn_us = args->pn_set ? args->pn_us : NULL;
}

/*
 * --bound: every finished idle period of the run, to the frontier and to the governor's row.
 * With per-CPU tables each CPU's periods go to its own table's frontier (the states it can
 * enter), and the run's frontier is their sum, point by point (il_bound_merge()).
 */
struct lab_bound {
	struct il_bound b;                             /* table 0's CPUs */
	struct il_bound table_b[IL_PLAT_TABLES_MAX];   /* per-CPU tables: table t's CPUs */
	struct il_bound total;                         /* lab_bound_total(): their sum */
	struct il_bound_gov g;
	const struct il_platform *plat;
	struct il_sim_observer obs;
};

static void lab_bound_period(void *ctx, const struct il_sim_period *p)
{
	struct lab_bound *lb = ctx;
	int t = il_platform_cpu_table(lb->plat, p->cpu);
	u64 ns = p->end_ns - p->start_ns;

	il_bound_add(t ? &lb->table_b[t] : &lb->b, ns);
	il_bound_gov_add(&lb->g, il_platform_cpu_drv(lb->plat, p->cpu), p->idx, ns);
}

/* The states the run's governor may pick: enabled on the platform, within the QoS limit. */
static void lab_bound_attach(struct lab_bound *lb, const struct lab_job *job,
			     struct il_lab_spec *spec)
{
	struct il_device dev;
	s64 qos_ns = spec->common.qos_us < 0 ? -1 : spec->common.qos_us * NSEC_PER_USEC;

	memset(lb, 0, sizeof(*lb));
	lb->plat = &job->plat;
	il_platform_device_init(&job->plat, &dev);
	il_bound_init(&lb->b, &job->plat.drv, &dev, qos_ns);
	for (int t = 1; t < job->plat.ntables; t++) { /* per-CPU tables */
		il_platform_table_device_init(&job->plat, t, &dev);
		il_bound_init(&lb->table_b[t], &job->plat.tables[t].drv, &dev, qos_ns);
	}
	lb->obs.period = lab_bound_period;
	lb->obs.ctx = lb;
	spec->observer = &lb->obs;
}

/* After the run: the run's frontier, every table's summed (into a copy: callable twice). */
static const struct il_bound *lab_bound_total(struct lab_bound *lb)
{
	lb->total = lb->b;
	for (int t = 1; t < lb->plat->ntables; t++)
		il_bound_merge(&lb->total, &lb->table_b[t]);
	return &lb->total;
}

static int run_failed(const char *cmd, const struct il_lab_spec *spec)
{
	fprintf(stderr, "idlelab %s: %s on %s, %s: %s\n", cmd, spec->preset->name, spec->plat->name,
		spec->scn->name, strerror(errno));
	return CLI_EXIT_RUNTIME;
}

/* -o FILE: through a temporary (lib/util/atomic.h), so FILE is either complete or absent. */
static int write_tables_file(const struct lab_job *job, const struct il_table *const *ptrs, int n,
			     const char *path, const char *cmd)
{
	struct il_atomic out;

	if (il_atomic_open(&out, path)) {
		char why[CLI_WHY_LEN];

		fprintf(stderr, "idlelab %s: %s: %s\n", cmd, path,
			il_atomic_strerror(path, errno, why, sizeof(why)));
		return CLI_EXIT_RUNTIME;
	}
	if (job->fmt->write(out.f, ptrs, n)) {
		il_atomic_abort(&out);
		fprintf(stderr, "idlelab %s: writing %s: %s\n", cmd, path, strerror(errno));
		return CLI_EXIT_RUNTIME;
	}
	if (il_atomic_commit(&out)) {
		fprintf(stderr, "idlelab %s: writing %s: %s\n", cmd, path, strerror(errno));
		return CLI_EXIT_RUNTIME;
	}
	return CLI_EXIT_OK;
}

static int write_table_ptrs(const struct lab_args *args, const struct lab_job *job,
			    const struct il_table *const *ptrs, int n, const char *cmd)
{
	if (args->output)
		return write_tables_file(job, ptrs, n, args->output, cmd);
	if (job->fmt->write(stdout, ptrs, n) || fflush(stdout)) {
		fprintf(stderr, "idlelab %s: writing the output: %s\n", cmd, strerror(errno));
		return CLI_EXIT_RUNTIME;
	}
	return CLI_EXIT_OK;
}

static int write_tables(const struct lab_args *args, const struct lab_job *job,
			struct il_table *tables, int n,
			const char *cmd)
{
	const struct il_table *ptrs[4 + LAB_MAX_SCENARIOS];

	for (int i = 0; i < n; i++)
		ptrs[i] = &tables[i];
	return write_table_ptrs(args, job, ptrs, n, cmd);
}

/* --label K=V: the labels as leading text columns of the one-row table @t. */
static int add_labels(const struct lab_args *args, struct il_table *t)
{
	char keys[LAB_MAX_LABELS][128];
	const char *lead[LAB_MAX_LABELS], *vals[LAB_MAX_LABELS];

	for (int i = 0; i < args->nlabel; i++) {
		const char *eq = strchr(args->labels[i], '=');

		snprintf(keys[i], sizeof(keys[i]), "%.*s", (int)(eq - args->labels[i]),
			 args->labels[i]);
		lead[i] = keys[i];
		vals[i] = eq + 1;
	}
	return il_table_prepend_cols(t, lead, vals, args->nlabel);
}

/* run: the linux-pm row, and for table and json also the run, state and CPU details. */
static int lab_run_one(const struct lab_args *args, const struct lab_job *job)
{
	struct il_table t[6] = { 0 };
	struct il_lab_spec spec;
	struct il_lab_result res;
	struct perfetto_sim pf;
	struct lab_bound *lb = NULL;
	bool details = strcmp(job->fmt->name, "tsv") && strcmp(job->fmt->name, "csv");
	int n = 0, ret;

	lab_spec(args, job, 0, 0, 0, &spec);
	if (args->bound) {
		lb = malloc(sizeof(*lb));
		if (!lb)
			return CLI_EXIT_RUNTIME;
		lab_bound_attach(lb, job, &spec);
	}
	if (args->perfetto.path && perfetto_sim_begin(&pf, &args->perfetto, &spec, "run")) {
		free(lb);
		return CLI_EXIT_RUNTIME;
	}
	if (il_lab_run(&spec, &res)) {
		free(lb);
		ret = run_failed("run", &spec);
		if (args->perfetto.path)
			perfetto_sim_free(&pf);
		return ret;
	}
	if (args->perfetto.path && perfetto_sim_end(&pf, &args->perfetto, &spec, &res, "run")) {
		il_lab_result_free(&res);
		return CLI_EXIT_RUNTIME;
	}
	ret = il_report_pm_init(&t[n], "summary", spec.scn, &res.drv) ||
	      il_report_pm_row(&t[n], args->governors[0], 0, spec.scn, &res) || add_labels(args,
	      	&t[n]);
	n++;
	if (!ret && details) {
		ret = il_report_run_info(&t[n++], &spec, &res) || il_report_states(&t[n++], &res) ||
		      il_report_cpus(&t[n++], &res);
	}
	if (!ret && lb) {
		const struct il_bound *b = lab_bound_total(lb);

		ret = il_bound_table(&t[n++], b) || il_bound_gap_table_init(&t[n],
			spec.scn->name) ||
		      il_bound_gap_row(&t[n], args->governors[0], 0, b, &lb->g);
		n++;
	}
	free(lb);
	ret = ret ? (fprintf(stderr, "idlelab run: %s\n", strerror(ENOMEM)), CLI_EXIT_RUNTIME)
		  : write_tables(args, job, t, n, "run");
	for (int i = 0; i < n; i++)
		il_table_free(&t[i]);
	il_lab_result_free(&res);
	return ret;
}

/* The index of the table for scenario @i: scenarios with the same name share one. */
static int table_of(const struct lab_job *job, int i, const int *first)
{
	for (int k = 0; k < i; k++)
		if (job->scn[k] == job->scn[i])
			return first[k];
	return -1;
}

/* Runs per governor and scenario: --iter seeds, each under --ensemble model variants. */
static int compare_runs(const struct lab_args *args)
{
	return args->iter * (args->ensemble ? args->ensemble : 1);
}

/*
 * --ensemble E: run @spec as row @it of the ensemble (il_ens_row_spec()); Return: 0, or -1
 * after the message. A pair without uncertain numbers runs the nominal model, said once per
 * scenario: *@nominal, false before the scenario's first run, tells.
 */
static int ensemble_spec(const struct lab_args *args, int it, struct il_lab_spec *spec,
			 struct il_platform *plat_buf, bool *nominal)
{
	const struct il_ens_rows rows = { args->seed, args->iter, args->ensemble };
	struct il_error err;
	int ret;

	if (!args->ensemble)
		return 0;
	ret = il_ens_row_spec(spec, &rows, it, plat_buf, &err);
	if (ret < 0) {
		fprintf(stderr, "idlelab compare: %s\n", err.msg);
		return -1;
	}
	if (ret > 0 && !*nominal)
		fprintf(stderr, "idlelab compare: --ensemble: %s with %s declares no uncertain "
				"parameter: the nominal model runs, on %d seeds\n",
			spec->plat->name, spec->scn->name, compare_runs(args));
	*nominal = ret > 0;
	return 0;
}

/* The runs of scenario @s into table @ti; *@nominal: its pair has no uncertain number. */
static int compare_fill(const struct lab_args *args, const struct lab_job *job, struct il_table *t,
			int ti, int s, struct il_table *gap, struct lab_bound *lb, bool *nominal)
{
	int runs = compare_runs(args);
	struct il_platform *plat_buf = args->ensemble ? malloc(sizeof(*plat_buf)) : NULL;

	if (args->ensemble && !plat_buf)
		return CLI_EXIT_RUNTIME;
	for (int g = 0; g < args->ngov; g++) {
		for (int it = 0; it < runs; it++) {
			struct il_lab_spec spec;
			struct il_lab_result res;
			int ret;

			lab_spec(args, job, g, s, it, &spec);
			if (ensemble_spec(args, it, &spec, plat_buf, nominal)) {
				free(plat_buf);
				return CLI_EXIT_RUNTIME;
			}
			if (lb)
				lab_bound_attach(lb, job, &spec);
			if (il_lab_run(&spec, &res)) {
				free(plat_buf);
				return run_failed("compare", &spec);
			}
			ret = il_report_pm_row(&t[ti], args->governors[g], it, spec.scn, &res);
			if (!ret && lb)
				ret = il_bound_gap_row(gap, args->governors[g], it,
						       lab_bound_total(lb), &lb->g);
			il_lab_result_free(&res);
			if (ret) {
				free(plat_buf);
				return CLI_EXIT_RUNTIME;
			}
		}
	}
	free(plat_buf);
	return CLI_EXIT_OK;
}

/* The governor the summaries compare with: --baseline, else the first -g. */
static const char *spec_baseline(const struct lab_args *args)
{
	return args->baseline ? args->baseline : args->governors[0];
}

/*
 * --iter N > 1: the summary of each table. Scenarios that share a table are summarized
 * row range by row range (@row0[s], @nrows[s]), each run of one -s on its own; a scenario
 * whose pair has no uncertain number (@nominal[s]) ran the nominal model on distinct seeds,
 * summarized as without an ensemble.
 */
static int compare_summaries(const struct lab_args *args, const struct il_table *t, int n,
			     const int *first, const int *row0, const int *nrows,
			     const bool *nominal, struct il_table *sum)
{
	static const char *const keys[] = { "device", NULL };
	struct il_summary_spec spec = {
		.keys = keys, .gov = "gov", .iter = "iter", .baseline = spec_baseline(args),
		.paired = true, .ensemble = args->ensemble,
	};

	for (int i = 0; i < n; i++) {
		char title[IL_NAME_LEN + 64];

		snprintf(title, sizeof(title), "%s summary", t[i].title);
		if (il_summary_init(&sum[i], title, &t[i], &spec))
			return -1;
		for (int s = 0; s < args->nscn; s++) {
			if (first[s] != i)
				continue;
			spec.ensemble = nominal[s] ? 0 : args->ensemble;
			if (il_summary_add(&sum[i], &t[i], row0[s], nrows[s], &spec))
				return -1;
		}
	}
	return 0;
}

/*
 * The per-iteration tables and their summaries, arranged for the format, to the output;
 * with --bound the gap tables (@gap, one per table) follow them. @ensemble: the model
 * variants the summaries' note names (0: none ran).
 */
static int compare_write(const struct lab_args *args, const struct lab_job *job,
			 const struct il_table *t, const struct il_table *sum,
			 const struct il_table *gap, int n, int ensemble)
{
	static const char *const lead[] = { "scenario" };
	struct il_result_part parts[2 * LAB_MAX_SCENARIOS];
	const char *titles[2 * LAB_MAX_SCENARIOS];
	struct il_result_out o;
	char note[512];
	int np = 0, ret;

	for (int i = 0; i < n; i++, np++) {
		titles[np] = t[i].title;
		parts[np] = (struct il_result_part){ &t[i], sum ? &sum[i] : NULL, &titles[np] };
	}
	for (int i = 0; gap && i < n; i++, np++) {
		titles[np] = gap[i].title;
		parts[np] = (struct il_result_part){ &gap[i], NULL, &titles[np] };
	}
	summary_note(note, sizeof(note), spec_baseline(args), true, (unsigned int)ensemble);
	if (il_result_tables(&o, job->fmt->name, parts, np, lead, 1, note)) {
		fprintf(stderr, "idlelab compare: %s\n", strerror(errno));
		return CLI_EXIT_RUNTIME;
	}
	ret = write_table_ptrs(args, job, o.tables, o.n, "compare");
	il_result_out_free(&o);
	return ret;
}

/* --ensemble, or 0 when every scenario's pair ran the nominal model (@nominal). */
static int ensemble_ran(const struct lab_args *args, const bool *nominal)
{
	for (int s = 0; s < args->nscn; s++)
		if (!nominal[s])
			return args->ensemble;
	return 0;
}

static int lab_compare(const struct lab_args *args, const struct lab_job *job)
{
	struct il_table *t = calloc(LAB_MAX_SCENARIOS, sizeof(*t));
	struct il_table *sum = compare_runs(args) > 1 ? calloc(LAB_MAX_SCENARIOS,
							       sizeof(*sum)) : NULL;
	struct il_table *gap = calloc(LAB_MAX_SCENARIOS, sizeof(*gap)); /* --bound: per table */
	struct lab_bound *lb = args->bound ? malloc(sizeof(*lb)) : NULL;
	int first[LAB_MAX_SCENARIOS], row0[LAB_MAX_SCENARIOS], nrows[LAB_MAX_SCENARIOS];
	bool nominal[LAB_MAX_SCENARIOS] = { false };
	int n = 0, ret = CLI_EXIT_OK;

	if (!t || !gap || (compare_runs(args) > 1 && !sum) || (args->bound && !lb)) {
		free(t);
		free(sum);
		free(gap);
		free(lb);
		return CLI_EXIT_RUNTIME;
	}
	for (int s = 0; s < args->nscn && ret == CLI_EXIT_OK; s++) {
		int ti = table_of(job, s, first);

		if (ti < 0) {
			ti = n++;
			if (il_report_pm_init(&t[ti], job->scn[s]->name, job->scn[s],
					      &job->plat.drv)) {
				ret = CLI_EXIT_RUNTIME;
				break;
			}
		}
		first[s] = ti;
		if (lb && !gap[ti].ncols && il_bound_gap_table_init(&gap[ti], job->scn[s]->name)) {
			ret = CLI_EXIT_RUNTIME;
			break;
		}
		row0[s] = t[ti].nrows;
		ret = compare_fill(args, job, t, ti, s, &gap[ti], lb, &nominal[s]);
		nrows[s] = t[ti].nrows - row0[s];
	}
	if (ret == CLI_EXIT_OK && sum &&
	    compare_summaries(args, t, n, first, row0, nrows, nominal, sum)) {
		fprintf(stderr, "idlelab compare: %s\n", strerror(errno));
		ret = CLI_EXIT_RUNTIME;
	}
	if (ret == CLI_EXIT_OK)
		ret = compare_write(args, job, t, sum, lb ? gap : NULL, n,
				    ensemble_ran(args, nominal));
	for (int i = 0; i < n; i++) {
		il_table_free(&t[i]);
		if (sum)
			il_table_free(&sum[i]);
	}
	for (int i = 0; i < LAB_MAX_SCENARIOS; i++)
		il_table_free(&gap[i]);
	free(t);
	free(sum);
	free(gap);
	free(lb);
	return ret;
}

/* What cli_main() allocates for run and compare: the options and what they name. */
struct lab_cmd {
	struct lab_args args;
	struct lab_job job;
};

static int lab_parse_run(int argc, char **argv, void *state, struct cli_error *err)
{
	return lab_parse_args(argc, argv, false, &((struct lab_cmd *)state)->args, err);
}

static int lab_parse_compare(int argc, char **argv, void *state, struct cli_error *err)
{
	return lab_parse_args(argc, argv, true, &((struct lab_cmd *)state)->args, err);
}

static int lab_run(void *state)
{
	struct lab_cmd *c = state;
	const char *cmd = c->args.compare ? "compare" : "run";
	int ret = lab_resolve(&c->args, &c->job, cmd);

	/* The outputs are checked before the first run. */
	if (ret == CLI_EXIT_OK)
		ret = cli_check_output(cmd, c->args.output, false);
	if (ret == CLI_EXIT_OK)
		ret = cli_check_output(cmd, c->args.perfetto.path, false);
	if (ret == CLI_EXIT_OK)
		ret = c->args.compare ? lab_compare(&c->args, &c->job) : lab_run_one(&c->args,
			&c->job);
	return ret;
}

int lab_main(int argc, char **argv, bool compare, void (*usage)(FILE *out))
{
	const struct cli_lifecycle lc = {
		.name = compare ? "compare" : "run",
		.size = sizeof(struct lab_cmd),
		.parse = compare ? lab_parse_compare : lab_parse_run,
		.usage = usage,
		.run = lab_run,
	};

	return cli_main(&lc, argc, argv);
}
