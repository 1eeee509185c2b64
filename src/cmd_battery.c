// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_battery.c - `idlelab battery`: the seeds' battery of scenario variants for a list of
 * governors on a list of platforms, one linux-pm table per platform and variant, on
 * several threads; optionally also written as JSON for the report work.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "cli_opts.h"
#include "progress.h"
#include "gov/governors.h"
#include "output/output.h"
#include "platform/platform.h"
#include "lab/battery.h"
#include "lab/tables.h"
#include "summary_cli.h"
#include "util/atomic.h"
#include "verdict/verdict.h"

#define BATTERY_MAX_PLATFORMS 16
#define BATTERY_DEFAULT_GOVERNORS IL_BATTERY_GOVERNORS
#define BATTERY_DEFAULT_PLATFORMS IL_BATTERY_PLATFORMS
#define BATTERY_DEFAULT_TIME_NS IL_BATTERY_TIME_NS

struct battery_args {
	CLI_GOV_PLAT;
	CLI_RUN_OPTS;
	const char *json_path;  /* -o */
	bool list;              /* --list: print the variants, run nothing */
	const char *baseline;   /* --baseline: the summaries' reference; NULL: the first -g */
};

enum { BAT_OPT_LIST = 1, BAT_OPT_BASELINE };

static const struct cli_opt battery_opts[] = {
	CLI_OPTS_HELP, CLI_OPTS_GOV, CLI_OPTS_PLAT, CLI_OPTS_TIME, CLI_OPTS_ENSEMBLE,
	CLI_OPTS_SEED, CLI_OPTS_ITER, CLI_OPTS_JOBS, CLI_OPTS_FORMAT, CLI_OPTS_OUT,
	{ BAT_OPT_LIST, 0, "list", false },
	{ BAT_OPT_BASELINE, 0, "baseline", true },
	CLI_OPTS_PROGRESS,
	{ 0 },
};

void cmd_battery_usage(FILE *out)
{
	fprintf(out, "usage: idlelab battery [-g GOV,...] [-p PLATFORM,...] [--time T] [--seed N]\n"
		     "                       [--iter N] [--ensemble N] [-j N] [-f "
		     "table|tsv|csv|json]\n"
		     "                       [-o FILE.json]\n"
		     "       idlelab battery --list\n"
		     "\n"
		     "Run the seeds' battery - a fixed list of scenario variants (--list) - for "
		     "every\n"
		     "governor on every platform and print one linux-pm table per platform and "
		     "variant\n"
		     "(the columns of 'idlelab compare'). Runs go to -j threads; the output is "
		     "the\n"
		     "same bytes whatever -j is.\n"
		     "\n"
		     "  -g, --governor LIST    presets or aliases (default\n"
		     "                         " BATTERY_DEFAULT_GOVERNORS ")\n"
		     "  -p, --platform LIST    built-in platforms or platform files "
		     "(default " BATTERY_DEFAULT_PLATFORMS ")\n"
		     "  -t, --time T           simulated time per run (default 5s)\n"
		     "                         (units ns, us, ms, s, m, h; a bare number is "
		     "seconds)\n"
		     "      --seed N           seed of the first iteration (default 1)\n"
		     "  -n, --iter N           iterations per governor, seeds N, N+1, ... (default "
		     "1)\n"
		     "      --ensemble N       model variants per seed (a Latin hypercube over "
		     "the\n"
		     "                         uncertain numbers, as verdict's): row iter k is "
		     "seed\n"
		     "                         N + k / E under variant k %% E (default 0: "
		     "nominal)\n"
		     "  -j, --jobs N           threads (default: the online CPUs)\n"
		     "  -f, --format F         table (default), tsv, csv or json on stdout\n"
		     "  -o, --output FILE      also write every table as JSON to FILE\n"
		     "      --baseline GOV     the governor the summaries compare with (default: "
		     "the first -g)\n"
		     "      --list             print the battery's scenario variants and exit\n"
		     "      --progress         show progress on stderr even when it is not a "
		     "terminal\n"
		     "      --no-progress      never show progress (default: only on a terminal)\n"
		     "\n"
		     "With --iter N > 1, each table is followed by its summary: per metric and "
		     "governor\n"
		     "n, mean, sd, min, max and the 95 %% confidence interval of the mean, and "
		     "the\n"
		     "difference from the baseline in %% with its 95 %% interval and p (paired by "
		     "seed).\n"
		     "tsv and csv print ONE table: columns platform, scenario, row (iter or "
		     "summary,\n"
		     "with --iter > 1), then the union of the tables' columns; '-' where a row has "
		     "none.\n");
}

static int battery_option(void *state, int id, const char *value, struct cli_error *err)
{
	struct battery_args *a = state;

	switch (id) {
	case CLI_OPT_GOV:
	case CLI_OPT_PLAT:
		return cli_gov_plat_option(&a->gp, id, value, BATTERY_MAX_PLATFORMS, err);
	case CLI_OPT_OUT:
		a->json_path = value;
		return CLI_PARSE_OK;
	case BAT_OPT_LIST:
		a->list = true;
		return CLI_PARSE_OK;
	case BAT_OPT_BASELINE:
		a->baseline = value;
		return CLI_PARSE_OK;
	}
	return cli_run_option(&a->run, id, value, err);
}

static int battery_parse_args(int argc, char **argv, struct battery_args *a, struct cli_error *err)
{
	int ret;

	memset(a, 0, sizeof(*a));
	a->time_ns = BATTERY_DEFAULT_TIME_NS;
	a->seed = 1;
	a->iter = 1;
	a->format = "table";
	ret = cli_parse_options(argc, argv, battery_opts, CLI_OPT_HELP, battery_option, a, err);
	if (ret != CLI_PARSE_OK)
		return ret;
	if (!a->ngov && (ret = battery_option(a, CLI_OPT_GOV, BATTERY_DEFAULT_GOVERNORS, err)))
		return ret;
	if (!a->nplat && (ret = battery_option(a, CLI_OPT_PLAT, BATTERY_DEFAULT_PLATFORMS, err)))
		return ret;
	if (summary_check_baseline(a->baseline, a->governors, a->ngov, err))
		return CLI_PARSE_ERROR;
	return CLI_PARSE_OK;
}

/* ---- the runs ------------------------------------------------------------------------------ */

struct battery {
	const struct battery_args *a;
	struct il_platform plat[BATTERY_MAX_PLATFORMS];
	const struct il_preset *presets[CLI_MAX_GOVERNORS];
	int nvar;
	const struct il_scenario *scn[64];
	struct il_scn_args args[64];
	struct il_scn_common common[64];
	size_t nruns;
	struct il_platform *vplat; /* --ensemble: [platform][variant][member] */
	bool *nominal;             /* --ensemble: [platform][variant] has no uncertain number */
	struct il_lab_spec *specs;
	struct il_lab_result *res;
	int *errs;
	int ntables;
	struct il_table *tables; /* [0]: the settings, then one per platform and variant */
	struct il_table *sums;   /* --iter > 1: the summary of each of tables[1...]; else NULL */
	const char **lead;       /* per table: its platform and variant, for the long form */
};

static int battery_resolve(struct battery *b)
{
	const struct battery_args *a = b->a;
	struct il_error perr;
	int ret = cli_find_presets(a->governors, a->ngov, b->presets, "battery");

	if (ret != CLI_EXIT_OK)
		return ret;
	b->nvar = il_battery_count();
	for (int v = 0; v < b->nvar; v++) {
		if (il_scn_parse(il_battery_at(v)->spec, &b->scn[v], &b->args[v], &b->common[v],
				 &perr)) {
			fprintf(stderr, "idlelab battery: %s: %s\n", il_battery_at(v)->spec,
				perr.msg);
			return CLI_EXIT_RUNTIME; /* a bug in the battery list */
		}
	}
	return cli_load_platforms(a->platforms, a->nplat, b->plat, "battery");
}

/* Rows per governor and case: --iter seeds, each under --ensemble model variants. */
static int runs_per(const struct battery_args *a)
{
	return a->iter * (a->ensemble ? a->ensemble : 1);
}

/* Run index of (platform, variant, governor, iteration): the order of the tables' rows. */
static size_t run_index(const struct battery *b, int p, int v, int g, int it)
{
	const struct battery_args *a = b->a;

	return (((size_t)p * (size_t)b->nvar + (size_t)v) * (size_t)a->ngov + (size_t)g) *
		       (size_t)runs_per(a) +
	       (size_t)it;
}

/*
 * --ensemble E: row @it of (@p, @v) as il_ens_row_spec() runs it: member @it % E of the
 * hypercube, the same member for every governor, whose platform is vplat[(platform, case,
 * member)]. Return: 0, or -1 after the message.
 */
static int ensemble_spec(struct battery *b, int p, int v, int it, struct il_lab_spec *s)
{
	const struct battery_args *a = b->a;
	const struct il_ens_rows rows = { a->seed, a->iter, a->ensemble };
	size_t k = ((size_t)p * (size_t)b->nvar + (size_t)v) * (size_t)a->ensemble +
		   (size_t)(it % a->ensemble);
	struct il_error err;
	int ret;

	/* every governor's and seed's run of this member writes the same values into vplat[k] */
	ret = il_ens_row_spec(s, &rows, it, &b->vplat[k], &err);
	if (ret < 0) {
		fprintf(stderr, "idlelab battery: %s\n", err.msg);
		return -1;
	}
	b->nominal[(size_t)p * (size_t)b->nvar + (size_t)v] = ret > 0;
	if (ret > 0 && it == 0 && s->preset == b->presets[0])
		fprintf(stderr, "idlelab battery: --ensemble: %s with %s declares no uncertain "
				"parameter: the nominal model runs, on %d seeds\n", b->plat[p].name,
			il_battery_at(v)->spec, runs_per(a));
	return 0;
}

static int battery_specs(struct battery *b)
{
	const struct battery_args *a = b->a;

	b->nruns = (size_t)a->nplat * (size_t)b->nvar * (size_t)a->ngov * (size_t)runs_per(a);
	b->specs = calloc(b->nruns, sizeof(*b->specs));
	b->res = calloc(b->nruns, sizeof(*b->res));
	b->errs = calloc(b->nruns, sizeof(*b->errs));
	if (a->ensemble)
		b->vplat = calloc((size_t)a->nplat * (size_t)b->nvar * (size_t)a->ensemble,
				  sizeof(*b->vplat));
	if (a->ensemble)
		b->nominal = calloc((size_t)a->nplat * (size_t)b->nvar, sizeof(*b->nominal));
	if (!b->specs || !b->res || !b->errs || (a->ensemble && (!b->vplat || !b->nominal)))
		return -1;
	for (int p = 0; p < a->nplat; p++)
		for (int v = 0; v < b->nvar; v++)
			for (int g = 0; g < a->ngov; g++)
				for (int it = 0; it < runs_per(a); it++) {
					struct il_lab_spec *s = &b->specs[run_index(b, p, v, g,
						it)];

					s->plat = &b->plat[p];
					s->preset = b->presets[g];
					s->scn = b->scn[v];
					s->args = b->args[v];
					s->common = b->common[v];
					s->duration_ns = a->time_ns;
					s->seed = a->seed + (uint64_t)it;
					if (a->ensemble && ensemble_spec(b, p, v, it, s))
						return -2;
				}
	return 0;
}

/* The "battery" table: what was run, so the JSON file describes itself. */
static int battery_settings(const struct battery *b, struct il_table *t)
{
	const struct battery_args *a = b->a;
	const char *plat[BATTERY_MAX_PLATFORMS], *scn[64];
	struct il_battery_settings s = {
		.time_ns = a->time_ns, .seed = a->seed, .iter = a->iter, .ensemble = a->ensemble,
		.platforms = plat, .nplat = a->nplat, .governors = a->governors, .ngov = a->ngov,
		.scenarios = scn, .nscn = b->nvar,
	};

	for (int p = 0; p < a->nplat; p++)
		plat[p] = b->plat[p].name;
	for (int v = 0; v < b->nvar; v++)
		scn[v] = il_battery_at(v)->spec;
	return il_battery_settings_table(t, &s);
}

static int battery_tables(struct battery *b)
{
	const struct battery_args *a = b->a;

	b->tables = calloc(1 + (size_t)a->nplat * (size_t)b->nvar, sizeof(*b->tables));
	if (!b->tables || battery_settings(b, &b->tables[0]))
		return -1;
	b->ntables = 1;
	for (int p = 0; p < a->nplat; p++) {
		for (int v = 0; v < b->nvar; v++) {
			struct il_table *t = &b->tables[b->ntables];
			char title[160];

			snprintf(title, sizeof(title), "%s %s", b->plat[p].name,
				 il_battery_at(v)->spec);
			if (il_report_pm_init(t, title, b->scn[v], &b->plat[p].drv))
				return -1;
			b->ntables++;
			for (int g = 0; g < a->ngov; g++)
				for (int it = 0; it < runs_per(a); it++)
					if (il_report_pm_row(t, a->governors[g], it, b->scn[v],
							     &b->res[run_index(b, p, v, g, it)]))
						return -1;
		}
	}
	return 0;
}

static const char *baseline_of(const struct battery_args *a)
{
	return a->baseline ? a->baseline : a->governors[0];
}

/*
 * --iter > 1: the summary of each platform and variant (iteration i of every governor ran
 * one seed: paired); under --ensemble the envelope of the model variants' intervals, but
 * where the pair declares no uncertain number (the nominal model on distinct seeds).
 */
static int battery_summaries(struct battery *b)
{
	static const char *const keys[] = { "device", NULL };
	struct il_summary_spec spec = {
		.keys = keys, .gov = "gov", .iter = "iter", .baseline = baseline_of(b->a),
		.paired = true,
	};

	if (runs_per(b->a) < 2)
		return 0;
	b->sums = calloc((size_t)b->ntables, sizeof(*b->sums));
	if (!b->sums)
		return -1;
	for (int i = 1; i < b->ntables; i++) {
		char title[200];

		snprintf(title, sizeof(title), "%s summary", b->tables[i].title);
		spec.ensemble = b->nominal && !b->nominal[i - 1] ? b->a->ensemble : 0;
		if (il_summary_table(&b->sums[i], title, &b->tables[i], &spec))
			return -1;
	}
	return 0;
}

/* The platform and variant of each table: the leading columns of the csv/tsv long form. */
static int battery_leads(struct battery *b)
{
	const struct battery_args *a = b->a;

	b->lead = calloc(2 * (size_t)b->ntables, sizeof(*b->lead));
	if (!b->lead)
		return -1;
	for (int p = 0, i = 1; p < a->nplat; p++)
		for (int v = 0; v < b->nvar; v++, i++) {
			b->lead[2 * i] = b->plat[p].name;
			b->lead[2 * i + 1] = il_battery_at(v)->spec;
		}
	return 0;
}

/* Every table (the settings only when @settings) and its summary, arranged for @fmt. */
static int write_all(const struct il_output_format *fmt, FILE *out, const struct battery *b,
		     bool settings)
{
	static const char *const lead_names[] = { "platform", "scenario" };
	struct il_result_part *parts = calloc((size_t)b->ntables, sizeof(*parts));
	char note[512];
	int n = 0, ret;

	if (!parts)
		return -1;
	for (int i = settings ? 0 : 1; i < b->ntables; i++) {
		const struct il_table *sum = i && b->sums ? &b->sums[i] : NULL;

		parts[n++] = (struct il_result_part){ &b->tables[i], sum, &b->lead[2 * i] };
	}
	summary_note(note, sizeof(note), baseline_of(b->a), true, (unsigned int)b->a->ensemble);
	ret = summary_write(out, fmt, parts, n, lead_names, 2, note);
	free(parts);
	return ret;
}

static int write_json_file(const struct battery *b, const char *path)
{
	struct il_atomic out;

	if (il_atomic_open(&out, path)) {
		char why[CLI_WHY_LEN];

		fprintf(stderr, "idlelab battery: %s: %s\n", path,
			il_atomic_strerror(path, errno, why, sizeof(why)));
		return CLI_EXIT_RUNTIME;
	}
	if (write_all(&il_output_json, out.f, b, true)) {
		il_atomic_abort(&out);
		fprintf(stderr, "idlelab battery: writing %s: %s\n", path, strerror(errno));
		return CLI_EXIT_RUNTIME;
	}
	if (il_atomic_commit(&out)) {
		fprintf(stderr, "idlelab battery: writing %s: %s\n", path, strerror(errno));
		return CLI_EXIT_RUNTIME;
	}
	return CLI_EXIT_OK;
}

static int report_failure(const struct battery *b)
{
	for (size_t i = 0; i < b->nruns; i++) {
		if (b->errs[i]) {
			const struct il_lab_spec *s = &b->specs[i];

			fprintf(stderr, "idlelab battery: %s on %s, %s: %s\n", s->preset->name,
				s->plat->name,
				s->scn->name, strerror(b->errs[i]));
			break;
		}
	}
	return CLI_EXIT_RUNTIME;
}

static int battery_run(struct battery *b)
{
	const struct battery_args *a = b->a;
	const struct il_output_format *fmt = il_output_find(a->format);
	unsigned int jobs = a->jobs ? a->jobs : cli_default_jobs();
	struct progress prog;
	double t0;
	int ret;

	if (!fmt->available || (a->json_path && !il_output_json.available)) {
		fprintf(stderr, "idlelab battery: format json: %s\n", il_output_json.missing);
		return CLI_EXIT_RUNTIME;
	}
	ret = battery_specs(b);
	if (ret) {
		if (ret == -1)
			fprintf(stderr, "idlelab battery: %s\n", strerror(ENOMEM));
		return CLI_EXIT_RUNTIME;
	}
	t0 = cli_wall_seconds();
	progress_begin(&prog, a->progress, "idlelab battery", PROGRESS_COUNT, "runs", b->nruns);
	ret = il_lab_run_all_progress(b->specs, b->res, b->nruns, jobs, b->errs, progress_lab_cb,
				      &prog);
	progress_end(&prog);
	if (ret)
		return report_failure(b);
	/* On stderr: the wall time is not part of the (deterministic) results. */
	fprintf(stderr, "idlelab battery: %zu runs on %u threads in %.1f s\n", b->nruns, jobs,
		cli_wall_seconds() - t0);
	if (battery_tables(b) || battery_summaries(b) || battery_leads(b)) {
		fprintf(stderr, "idlelab battery: %s\n", strerror(ENOMEM));
		return CLI_EXIT_RUNTIME;
	}
	ret = write_all(fmt, stdout, b, !strcmp(fmt->name, "json"));
	if (ret || fflush(stdout)) {
		fprintf(stderr, "idlelab battery: writing the output: %s\n", strerror(errno));
		return CLI_EXIT_RUNTIME;
	}
	return a->json_path ? write_json_file(b, a->json_path) : CLI_EXIT_OK;
}

static void battery_free(struct battery *b)
{
	for (size_t i = 0; b->res && i < b->nruns; i++)
		il_lab_result_free(&b->res[i]);
	for (int i = 0; i < b->ntables; i++) {
		il_table_free(&b->tables[i]);
		if (b->sums)
			il_table_free(&b->sums[i]);
	}
	free(b->tables);
	free(b->sums);
	free(b->lead);
	free(b->specs);
	free(b->vplat);
	free(b->nominal);
	free(b->res);
	free(b->errs);
}

static void battery_list(void)
{
	for (int v = 0; v < il_battery_count(); v++)
		printf("%-22s %s\n", il_battery_at(v)->spec, il_battery_at(v)->seed);
}

/* What cli_main() allocates: the options and the runs. */
struct battery_cmd {
	struct battery_args a;
	struct battery b;
};

static int battery_parse(int argc, char **argv, void *state, struct cli_error *err)
{
	return battery_parse_args(argc, argv, &((struct battery_cmd *)state)->a, err);
}

static int battery_main(void *state)
{
	struct battery_cmd *c = state;
	int ret;

	if (c->a.list) {
		battery_list();
		return CLI_EXIT_OK;
	}
	c->b.a = &c->a;
	ret = battery_resolve(&c->b);
	if (ret == CLI_EXIT_OK)
		ret = cli_check_output("battery", c->a.json_path, false);
	if (ret == CLI_EXIT_OK)
		ret = battery_run(&c->b);
	return ret;
}

static void battery_release(void *state)
{
	battery_free(&((struct battery_cmd *)state)->b);
}

int cmd_battery(int argc, char **argv)
{
	static const struct cli_lifecycle lc = {
		.name = "battery", .size = sizeof(struct battery_cmd), .parse = battery_parse,
		.usage = cmd_battery_usage, .run = battery_main, .release = battery_release,
	};

	return cli_main(&lc, argc, argv);
}
