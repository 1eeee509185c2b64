// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_sweep.c - `idlelab sweep`: one scenario with one or two of its parameters over lists
 * or ranges, for several governors and platforms; one linux-pm row per case in
 * DIR/sweep.csv and DIR/sweep.json, the cases run on -j threads, or written out as one
 * `idlelab run` command line each (--emit-jobs) for GNU parallel or a job array, whose
 * outputs `idlelab merge` turns into the same two files.
 *
 * Case i is (platform, value of the first parameter, value of the second, governor,
 * iteration), the last varying fastest; iteration k runs with seed N+k as in compare (with
 * --ensemble E, seed N + k / E under model variant k % E, as compare and battery, or a seed
 * of its own for a variant that simulates like an earlier one: il_ens_row_spec()). A
 * case's row is built from text exactly as merge builds it from `run -f csv` (see
 * sweep_table.h), so both give the same bytes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
#include "sweep_table.h"
#include "util/atomic.h"
#include "verdict/verdict.h"

#define SWEEP_MAX_PARAMS 2
#define SWEEP_MAX_VALUES 10000
#define SWEEP_MAX_CASES 1000000
#define SWEEP_MAX_PLATFORMS 16
#define SWEEP_DEFAULT_TIME_NS (5ULL * 1000000000ULL)
#define SWEEP_SPEC_LEN 512
#define SWEEP_MAX_LABELS (5 + SWEEP_MAX_PARAMS)

struct sweep_param {
	char name[64];
	int nval;
	char **vals; /* owned */
};

struct sweep_args {
	CLI_GOV_PLAT;
	const char *scenario;
	int nparam;
	struct sweep_param params[SWEEP_MAX_PARAMS];
	CLI_RUN_OPTS;
	const char *dir;   /* -o */
	const char *emit;  /* --emit-jobs */
};

enum { SW_OPT_PARAM = 1, SW_OPT_EMIT };

static const struct cli_opt sweep_opts[] = {
	CLI_OPTS_HELP, CLI_OPTS_GOV, CLI_OPTS_PLAT, CLI_OPTS_SCN,
	{ SW_OPT_PARAM, 0, "param", true },
	CLI_OPTS_TIME, CLI_OPTS_SEED, CLI_OPTS_ITER, CLI_OPTS_ENSEMBLE, CLI_OPTS_JOBS,
	CLI_OPTS_OUT,
	{ SW_OPT_EMIT, 0, "emit-jobs", true },
	CLI_OPTS_PROGRESS,
	{ 0 },
};

void cmd_sweep_usage(FILE *out)
{
	fprintf(out, "usage: idlelab sweep -g GOV,... -p PLATFORM,... -s SCENARIO[:k=v,...]\n"
		     "                     --param NAME=LIST|A..B:STEP [--param ...] [-j N] "
		     "[--time T]\n"
		     "                     [--seed N] [--iter N] [--ensemble N] [--emit-jobs FILE] "
		     "-o DIR\n"
		     "\n"
		     "Run SCENARIO with one or two of its parameters over a list "
		     "(interval_us=5,10,30)\n"
		     "or an integer range (work_us=0..400:10, both ends included) for every "
		     "governor\n"
		     "on every platform, and write one linux-pm row per case to DIR/sweep.csv and\n"
		     "DIR/sweep.json (columns: case governor platform PARAM... iter seed, then "
		     "those\n"
		     "of 'idlelab compare'). The files are the same bytes whatever -j is.\n"
		     "With --emit-jobs FILE, run nothing: write one 'idlelab run' command line per "
		     "case\n"
		     "to FILE (its output goes to DIR/case-N.csv) for GNU parallel or a job array, "
		     "then\n"
		     "'idlelab merge DIR/case-*.csv -o DIR' writes the same files a local sweep "
		     "does.\n"
		     "With --iter N > 1, DIR/summary.csv and DIR/summary.json hold the statistics "
		     "of the\n"
		     "iterations per platform, parameter values, metric and governor: n, mean, sd, "
		     "min,\n"
		     "max, the 95 %% confidence interval of the mean, and the difference from the "
		     "first\n"
		     "governor with its 95 %% interval and p (paired by seed); see docs/lab.md.\n"
		     "With --ensemble E, each seed runs under E model variants (a Latin hypercube "
		     "over\n"
		     "the ranges of the platform's and scenario's uncertain numbers, the "
		     "verdict's):\n"
		     "iter k is seed N + k / E under variant k %% E, the same for every governor "
		     "and\n"
		     "case of a platform; the summary's intervals are the envelope of the "
		     "variants' own,\n"
		     "p the largest of theirs (a variant that simulates like an earlier one runs "
		     "seeds of\n"
		     "its own).\n"
		     "\n"
		     "  -g, --governor LIST    presets or aliases, comma-separated\n"
		     "  -p, --platform LIST    built-in platforms or platform files, "
		     "comma-separated\n"
		     "  -s, --scenario S       NAME[:k=v,...], the fixed part of every case\n"
		     "      --param NAME=VALS  a parameter of S and its values; at most two\n"
		     "  -t, --time T           simulated time per case (default 5s)\n"
		     "                         (units ns, us, ms, s, m, h; a bare number is "
		     "seconds)\n"
		     "      --seed N           seed of the first iteration (default 1)\n"
		     "  -n, --iter N           iterations per case, seeds N, N+1, ... (default 1)\n"
		     "      --ensemble N       model variants per seed (default 0: the nominal "
		     "model);\n"
		     "                         not with --emit-jobs\n"
		     "  -j, --jobs N           threads (default: the online CPUs)\n"
		     "  -o, --output DIR       the output directory (made if missing)\n"
		     "      --emit-jobs FILE   write the per-case command lines instead of "
		     "running\n"
		     "      --progress         show progress on stderr even when it is not a "
		     "terminal\n"
		     "      --no-progress      never show progress (default: only on a "
		     "terminal)\n");
}


static int add_value(struct sweep_param *p, const char *s, size_t len)
{
	char **vals;

	if (p->nval == SWEEP_MAX_VALUES)
		return -1;
	vals = realloc(p->vals, (size_t)(p->nval + 1) * sizeof(*vals));
	if (!vals)
		return -1;
	p->vals = vals;
	p->vals[p->nval] = strndup(s, len);
	return p->vals[p->nval] ? (p->nval++, 0) : -1;
}

/* A..B:STEP, integers, A <= B, STEP > 0, both ends included when on the grid. */
static int parse_range(struct sweep_param *p, const char *spec, struct cli_error *err)
{
	const char *dots = strstr(spec, ".."), *colon = strchr(spec, ':');
	uint64_t a, b, step;
	char buf[32];

	if (!colon || colon < dots || cli_parse_count_to(spec, dots, UINT64_MAX, &a) ||
	    cli_parse_count_to(dots + 2, colon, UINT64_MAX, &b))
		return cli_error_set(err, "--param %s: '%s' is not a range A..B:STEP of integers "
					  "(0..400:10)",
				     p->name, spec);
	if (cli_parse_count_to(colon + 1, colon + 1 + strlen(colon + 1), UINT64_MAX, &step) ||
	    !step)
		return cli_error_set(err, "--param %s: the step of '%s' must be a positive integer",
				     p->name, spec);
	if (a > b)
		return cli_error_set(err, "--param %s: the range '%s' is empty (A > B)", p->name,
				     spec);
	if ((b - a) / step >= SWEEP_MAX_VALUES)
		return cli_error_set(err, "--param %s: '%s' has more than %d values", p->name, spec,
				     SWEEP_MAX_VALUES);
	for (uint64_t v = a;; v += step) {
		snprintf(buf, sizeof(buf), "%" PRIu64, v);
		if (add_value(p, buf, strlen(buf)))
			return cli_error_set(err, "--param %s: %s", p->name, strerror(ENOMEM));
		if (b - v < step)
			break;
	}
	return CLI_PARSE_OK;
}

static int parse_list(struct sweep_param *p, const char *spec, struct cli_error *err)
{
	for (const char *s = spec;;) {
		size_t len = strcspn(s, ",");

		if (!len)
			return cli_error_set(err, "--param %s: empty value in '%s'", p->name, spec);
		if (memchr(s, ':', len) || memchr(s, '=', len))
			return cli_error_set(err, "--param %s: '%.*s' is not a value", p->name,
					     (int)len, s);
		if (add_value(p, s, len))
			return cli_error_set(err, "--param %s: more than %d values", p->name,
					     SWEEP_MAX_VALUES);
		if (!s[len])
			return CLI_PARSE_OK;
		s += len + 1;
	}
}

static int parse_param(struct sweep_args *a, const char *value, struct cli_error *err)
{
	const char *eq = strchr(value, '=');
	struct sweep_param *p;
	size_t len = eq ? (size_t)(eq - value) : 0;

	if (!len || len >= sizeof(p->name) || !eq[1] ||
	    strspn(value, "abcdefghijklmnopqrstuvwxyz0123456789_") != len)
		return cli_error_set(err, "--param: '%s' is not NAME=LIST or NAME=A..B:STEP",
				     value);
	if (a->nparam == SWEEP_MAX_PARAMS)
		return cli_error_set(err, "at most %d --param", SWEEP_MAX_PARAMS);
	for (int i = 0; i < a->nparam; i++)
		if (strlen(a->params[i].name) == len && !strncmp(a->params[i].name, value, len))
			return cli_error_set(err, "--param %.*s given twice", (int)len, value);
	p = &a->params[a->nparam++];
	memcpy(p->name, value, len);
	p->name[len] = '\0';
	return strstr(eq + 1, "..") ? parse_range(p, eq + 1, err) : parse_list(p, eq + 1, err);
}

static int sweep_option(void *state, int id, const char *value, struct cli_error *err)
{
	struct sweep_args *a = state;

	switch (id) {
	case CLI_OPT_GOV:
	case CLI_OPT_PLAT:
		return cli_gov_plat_option(&a->gp, id, value, SWEEP_MAX_PLATFORMS, err);
	case CLI_OPT_SCN:
		a->scenario = value;
		return CLI_PARSE_OK;
	case SW_OPT_PARAM:
		return parse_param(a, value, err);
	case CLI_OPT_OUT:
		a->dir = value;
		return CLI_PARSE_OK;
	case SW_OPT_EMIT:
		a->emit = value;
		return CLI_PARSE_OK;
	}
	return cli_run_option(&a->run, id, value, err);
}

static int sweep_check(const struct sweep_args *a, struct cli_error *err)
{
	if (!a->ngov)
		return cli_error_set(err, "no governor given (-g)");
	if (!a->nplat)
		return cli_error_set(err, "no platform given (-p; see 'idlelab platforms')");
	if (!a->scenario)
		return cli_error_set(err, "no scenario given (-s; see 'idlelab scenarios')");
	if (!a->nparam)
		return cli_error_set(err, "no parameter to sweep (--param NAME=LIST or "
					  "NAME=A..B:STEP)");
	if (!a->dir)
		return cli_error_set(err, "no output directory given (-o DIR)");
	/* a job is an `idlelab run`, which takes no model variant: its platform numbers could
	 * not be given on its command line */
	if (a->ensemble && a->emit)
		return cli_error_set(err, "--ensemble runs model variants that 'idlelab run' "
				     "cannot be told: give it to a local sweep, not with "
				     "--emit-jobs");
	return CLI_PARSE_OK;
}

static int sweep_parse_args(int argc, char **argv, struct sweep_args *a, struct cli_error *err)
{
	int ret;

	a->time_ns = SWEEP_DEFAULT_TIME_NS;
	a->seed = 1;
	a->iter = 1;
	ret = cli_parse_options(argc, argv, sweep_opts, CLI_OPT_HELP, sweep_option, a, err);
	return ret == CLI_PARSE_OK ? sweep_check(a, err) : ret;
}

/* ---- the cases ---------------------------------------------------------------------------- */

struct sweep_combo {
	char spec[SWEEP_SPEC_LEN]; /* what -s of the case's `idlelab run` takes */
	int val[SWEEP_MAX_PARAMS];
	const struct il_scenario *scn;
	struct il_scn_args args;
	struct il_scn_common common;
};

struct sweep {
	const struct sweep_args *a;
	struct il_platform plat[SWEEP_MAX_PLATFORMS];
	const struct il_preset *presets[CLI_MAX_GOVERNORS];
	int ncombo;
	struct sweep_combo *combo;
	size_t ncases;
};

/* Rows per platform, parameter values and governor: --iter seeds, each under --ensemble
 * model variants. */
static int runs_per(const struct sweep_args *a)
{
	return a->iter * (a->ensemble ? a->ensemble : 1);
}

/* The case's coordinates; case i = ((p * ncombo + c) * ngov + g) * runs_per + it. */
struct sweep_case {
	int p, c, g, it;
};

static struct sweep_case case_at(const struct sweep *w, size_t i)
{
	const struct sweep_args *a = w->a;
	struct sweep_case k;

	k.it = (int)(i % (size_t)runs_per(a));
	i /= (size_t)runs_per(a);
	k.g = (int)(i % (size_t)a->ngov);
	i /= (size_t)a->ngov;
	k.c = (int)(i % (size_t)w->ncombo);
	k.p = (int)(i / (size_t)w->ncombo);
	return k;
}

static int usage_error(const char *fmt, const char *arg, const char *detail)
{
	char msg[4 * CLI_ERROR_LEN];

	snprintf(msg, sizeof(msg), fmt, arg, detail);
	return cli_usage_error("sweep", msg);
}

/* Whether the k=v pairs of scenario @spec ("fio:jobs=2,cpus=4") set @key. */
static bool spec_sets(const char *spec, const char *key)
{
	size_t klen = strlen(key);

	for (const char *s = strchr(spec, ':'); s; s = strchr(s, ',')) {
		s++;
		if (!strncmp(s, key, klen) && s[klen] == '=')
			return true;
	}
	return false;
}

static int sweep_combos(struct sweep *w)
{
	const struct sweep_args *a = w->a;
	int n2 = a->nparam > 1 ? a->params[1].nval : 1;
	struct il_error perr;

	for (int i = 0; i < a->nparam; i++)
		if (spec_sets(a->scenario, a->params[i].name))
			return usage_error("--param %s: already set in -s %s; give it in one place",
					   a->params[i].name, a->scenario);
	w->ncombo = a->params[0].nval * n2;
	w->combo = calloc((size_t)w->ncombo, sizeof(*w->combo));
	if (!w->combo) {
		fprintf(stderr, "idlelab sweep: %s\n", strerror(ENOMEM));
		return CLI_EXIT_RUNTIME;
	}
	for (int c = 0; c < w->ncombo; c++) {
		struct sweep_combo *k = &w->combo[c];
		size_t len;

		k->val[0] = c / n2;
		k->val[1] = c % n2;
		len = (size_t)snprintf(k->spec, sizeof(k->spec), "%s", a->scenario);
		for (int i = 0; i < a->nparam && len < sizeof(k->spec); i++)
			len += (size_t)snprintf(k->spec + len, sizeof(k->spec) - len, "%s%s=%s",
						i || strchr(a->scenario, ':') ? "," : ":",
							a->params[i].name,
						a->params[i].vals[k->val[i]]);
		if (len >= sizeof(k->spec))
			return usage_error("scenario '%s%s' too long", a->scenario, "");
		if (il_scn_parse(k->spec, &k->scn, &k->args, &k->common, &perr)) {
			if (cli_scn_file_error(k->scn, &k->args, &perr)) {
				fprintf(stderr, "idlelab sweep: %s\n", perr.msg);
				return CLI_EXIT_RUNTIME;
			}
			return usage_error("-s %s: %s", k->spec, perr.msg);
		}
	}
	return CLI_EXIT_OK;
}

static int sweep_resolve(struct sweep *w)
{
	const struct sweep_args *a = w->a;
	int ret = cli_find_presets(a->governors, a->ngov, w->presets, "sweep");

	if (ret != CLI_EXIT_OK)
		return ret;
	ret = sweep_combos(w);
	if (ret != CLI_EXIT_OK)
		return ret;
	w->ncases = (size_t)a->nplat * (size_t)w->ncombo * (size_t)a->ngov * (size_t)runs_per(a);
	if (w->ncases > SWEEP_MAX_CASES) {
		char n[32];

		snprintf(n, sizeof(n), "%zu", w->ncases);
		return usage_error("%s cases: more than %s", n, "1000000");
	}
	ret = cli_load_platforms(a->platforms, a->nplat, w->plat, "sweep");
	for (int p = 0; p < a->nplat && ret == CLI_EXIT_OK; p++)
		for (int c = 0; c < w->ncombo && ret == CLI_EXIT_OK; c++)
			ret = cli_check_cpus(w->combo[c].scn, &w->combo[c].common, &w->plat[p],
					     "sweep");
	return ret;
}

/* The run of case @k under the nominal model, but for its seed. */
static void case_nominal_spec(const struct sweep *w, struct sweep_case k, struct il_lab_spec *spec)
{
	const struct sweep_combo *c = &w->combo[k.c];

	memset(spec, 0, sizeof(*spec));
	spec->plat = &w->plat[k.p];
	spec->preset = w->presets[k.g];
	spec->scn = c->scn;
	spec->args = c->args;
	spec->common = c->common;
	spec->duration_ns = w->a->time_ns;
}

/* The leading columns of case @i, which ran @seed: what identifies it. Texts go to @buf. */
static int case_labels(const struct sweep *w, size_t i, u64 seed, const char **names,
		       const char **texts, char bufs[3][32])
{
	const struct sweep_args *a = w->a;
	struct sweep_case k = case_at(w, i);
	int n = 0;

	snprintf(bufs[0], sizeof(bufs[0]), "%zu", i);
	snprintf(bufs[1], sizeof(bufs[1]), "%d", k.it);
	snprintf(bufs[2], sizeof(bufs[2]), "%" PRIu64, seed);
	names[n] = "case", texts[n++] = bufs[0];
	names[n] = "governor", texts[n++] = a->governors[k.g];
	names[n] = "platform", texts[n++] = a->platforms[k.p];
	for (int j = 0; j < a->nparam; j++)
		names[n] = a->params[j].name, texts[n++] = a->params[j].vals[w->combo[k.c].val[j]];
	names[n] = "iter", texts[n++] = bufs[1];
	names[n] = "seed", texts[n++] = bufs[2];
	return n;
}

/*
 * The run of case @i. With --ensemble E, under member it % E of the hypercube
 * (lib/verdict/ensemble.c, seeded as a verdict's), whose platform goes to @plat_buf, on
 * the seed il_ens_row_spec() gives its row; a platform and scenario without uncertain
 * numbers run the nominal model and say so once.
 * Return: 0, or -1 after the message.
 */
static int case_spec(const struct sweep *w, size_t i, struct il_lab_spec *spec,
		     struct il_platform *plat_buf)
{
	const struct sweep_args *a = w->a;
	const struct il_ens_rows rows = { a->seed, a->iter, a->ensemble };
	struct sweep_case k = case_at(w, i);
	struct il_error err;
	int ret;

	case_nominal_spec(w, k, spec);
	ret = il_ens_row_spec(spec, &rows, k.it, plat_buf, &err);
	if (ret < 0) {
		fprintf(stderr, "idlelab sweep: %s\n", err.msg);
		return -1;
	}
	if (ret > 0 && k.g == 0 && k.it == 0)
		fprintf(stderr, "idlelab sweep: --ensemble: %s with %s declares no uncertain "
				"parameter: the nominal model runs, on %d seeds\n",
			w->plat[k.p].name, w->combo[k.c].spec, runs_per(a));
	return 0;
}

/* The row of case @i (run as @spec): its labels, then the linux-pm row as `run -f csv` has it. */
static int case_record(const struct sweep *w, size_t i, const struct il_lab_spec *spec,
		       const struct il_lab_result *res, struct il_sweep_rec *rec)
{
	struct sweep_case k = case_at(w, i);
	const struct il_scenario *scn = w->combo[k.c].scn;
	const char *names[SWEEP_MAX_LABELS + 64];
	const char **texts = NULL;
	char bufs[3][32], (*cellbuf)[64] = NULL;
	struct il_table t;
	int n, ret = -1;

	if (il_report_pm_init(&t, "summary", scn, &res->drv))
		return -1;
	if (il_report_pm_row(&t, w->a->governors[k.g], 0, scn, res))
		goto out;
	texts = calloc((size_t)(SWEEP_MAX_LABELS + t.ncols), sizeof(*texts));
	cellbuf = calloc((size_t)t.ncols, sizeof(*cellbuf));
	if (t.ncols > 64 || !texts || !cellbuf)
		goto out;
	n = case_labels(w, i, spec->seed, names, texts, bufs);
	for (int c = 0; c < t.ncols; c++, n++) {
		names[n] = t.cols[c];
		texts[n] = il_cell_text(&t.cells[c], cellbuf[c], sizeof(cellbuf[c]));
	}
	ret = il_sweep_rec_set(rec, n, names, texts);
out:
	free(texts);
	free(cellbuf);
	il_table_free(&t);
	return ret;
}

/*
 * The summary's ensemble: --ensemble, or 0 when no platform and parameter values of the
 * sweep declare an uncertain number (the nominal model ran on distinct seeds: one interval
 * over all of them). case_spec() has checked every pair without an error.
 */
static int summary_ensemble(const struct sweep *w)
{
	struct il_lab_spec spec;
	struct il_error err;

	for (int p = 0; w->a->ensemble && p < w->a->nplat; p++)
		for (int c = 0; c < w->ncombo; c++) {
			case_nominal_spec(w, (struct sweep_case){ p, c, 0, 0 }, &spec);
			if (il_ens_declares(&spec, &err) != 0)
				return w->a->ensemble;
		}
	return 0;
}

/*
 * Run cases [@start, @start + @n) on @jobs threads and turn them into rows. Batches keep the
 * memory of the results bounded and give the progress line something to count; the rows
 * do not depend on how the cases are batched.
 */
static int run_batch(const struct sweep *w, size_t start, size_t n, unsigned int jobs,
		     struct il_sweep_rec *recs)
{
	struct il_lab_spec *specs = calloc(n, sizeof(*specs));
	struct il_lab_result *res = calloc(n, sizeof(*res));
	int *errs = calloc(n, sizeof(*errs));
	/* --ensemble: each run's variant of its platform */
	struct il_platform *vplat = w->a->ensemble ? calloc(n, sizeof(*vplat)) : NULL;
	int ret = CLI_EXIT_OK;

	if (!specs || !res || !errs || (w->a->ensemble && !vplat)) {
		fprintf(stderr, "idlelab sweep: %s\n", strerror(ENOMEM));
		ret = CLI_EXIT_RUNTIME;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		if (case_spec(w, start + i, &specs[i], vplat ? &vplat[i] : NULL)) {
			ret = CLI_EXIT_RUNTIME;
			goto out;
		}
	}
	il_lab_run_all(specs, res, n, jobs, errs);
	for (size_t i = 0; i < n && ret == CLI_EXIT_OK; i++) {
		if (errs[i]) {
			fprintf(stderr, "idlelab sweep: case %zu (%s on %s, %s): %s\n", start + i,
				specs[i].preset->name, specs[i].plat->name, w->combo[case_at(w,
					start + i).c].spec,
				strerror(errs[i]));
			ret = CLI_EXIT_RUNTIME;
		} else if (case_record(w, start + i, &specs[i], &res[i], &recs[start + i])) {
			fprintf(stderr, "idlelab sweep: %s\n", strerror(ENOMEM));
			ret = CLI_EXIT_RUNTIME;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (!errs[i])
			il_lab_result_free(&res[i]);
out:
	free(specs);
	free(res);
	free(errs);
	free(vplat);
	return ret;
}

static int sweep_run(const struct sweep *w)
{
	unsigned int jobs = w->a->jobs ? w->a->jobs : cli_default_jobs();
	size_t batch = (size_t)jobs * 4, done = 0;
	struct progress prog;
	struct il_sweep_rec *recs;
	double t0 = cli_wall_seconds();
	int ret = CLI_EXIT_OK;

	if (!il_output_json.available) {
		fprintf(stderr, "idlelab sweep: sweep.json: %s\n", il_output_json.missing);
		return CLI_EXIT_RUNTIME;
	}
	recs = calloc(w->ncases, sizeof(*recs));
	if (!recs) {
		fprintf(stderr, "idlelab sweep: %s\n", strerror(ENOMEM));
		return CLI_EXIT_RUNTIME;
	}
	progress_begin(&prog, w->a->progress, "idlelab sweep", PROGRESS_COUNT, "cases", w->ncases);
	while (done < w->ncases && ret == CLI_EXIT_OK) {
		size_t n = w->ncases - done < batch ? w->ncases - done : batch;

		ret = run_batch(w, done, n, jobs, recs);
		done += n;
		progress_update(&prog, done);
	}
	progress_end(&prog);
	if (ret == CLI_EXIT_OK) {
		/* On stderr: the wall time is not part of the (deterministic) results. */
		fprintf(stderr, "idlelab sweep: %zu cases on %u threads in %.1f s\n", w->ncases,
			jobs,
			cli_wall_seconds() - t0);
		ret = sweep_write_dir(w->a->dir, recs, w->ncases, summary_ensemble(w), "sweep");
	}
	for (size_t i = 0; i < w->ncases; i++)
		il_sweep_rec_free(&recs[i]);
	free(recs);
	return ret;
}

/* ---- --emit-jobs ---------------------------------------------------------------------------- */

/* @s as one shell word: as is when it is plain, else in single quotes. */
static void shell_word(FILE *f, const char *s)
{
	if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			    "0123456789_./:=,@+%-") == strlen(s)) {
		fprintf(f, " %s", s);
		return;
	}
	fputs(" '", f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

static void shell_label(FILE *f, const char *name, const char *text)
{
	char buf[SWEEP_SPEC_LEN];

	snprintf(buf, sizeof(buf), "%s=%s", name, text);
	fputs(" --label", f);
	shell_word(f, buf);
}

/*
 * One case: `idlelab run` with the case's options and labels, its row to DIR/case-N.csv.
 * With @id, the labels sweep_id=ID and sweep_cases=N follow case=I, so that merge can tell
 * a complete set of case files of one sweep from a partial or mixed one.
 */
static void emit_case(FILE *f, const struct sweep *w, size_t i, const char *id)
{
	const struct sweep_args *a = w->a;
	struct sweep_case k = case_at(w, i);
	const char *names[SWEEP_MAX_LABELS], *texts[SWEEP_MAX_LABELS];
	char bufs[3][32], buf[4096];
	/* a job runs its seed as `idlelab run` does: N + iter (no ensemble with --emit-jobs) */
	int n = case_labels(w, i, a->seed + (u64)k.it, names, texts, bufs);

	fputs("${IDLELAB:-idlelab} run -g", f);
	shell_word(f, a->governors[k.g]);
	fputs(" -p", f);
	shell_word(f, a->platforms[k.p]);
	fputs(" -s", f);
	shell_word(f, w->combo[k.c].spec);
	fprintf(f, " --time %" PRIu64 "ns --seed %s", a->time_ns, bufs[2]);
	for (int j = 0; j < n; j++) {
		shell_label(f, names[j], texts[j]);
		if (j == 0 && id) {
			char count[32];

			snprintf(count, sizeof(count), "%zu", w->ncases);
			shell_label(f, "sweep_id", id);
			shell_label(f, "sweep_cases", count);
		}
	}
	snprintf(buf, sizeof(buf), "%s/case-%06zu.csv", a->dir, i);
	fputs(" -f csv -o", f);
	shell_word(f, buf);
	fputc('\n', f);
}

/* The sweep's id: FNV-1a (64 bits) of its command lines without the id, so the same sweep
 * always gets the same id and two different sweeps (almost surely) not. */
static int sweep_id(const struct sweep *w, char *id, size_t cap)
{
	u64 h = 0xcbf29ce484222325ULL;
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem)
		return -1;
	for (size_t i = 0; i < w->ncases; i++)
		emit_case(mem, w, i, NULL);
	if (fclose(mem)) {
		free(text);
		return -1;
	}
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)text[i]) * 0x100000001b3ULL;
	free(text);
	snprintf(id, cap, "%016llx", (unsigned long long)h);
	return 0;
}

static int sweep_emit(const struct sweep *w)
{
	const char *path = w->a->emit;
	struct il_atomic out;
	char id[32];

	if (sweep_id(w, id, sizeof(id))) {
		fprintf(stderr, "idlelab sweep: %s\n", strerror(ENOMEM));
		return CLI_EXIT_RUNTIME;
	}
	if (mkdir(w->a->dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "idlelab sweep: %s: %s\n", w->a->dir, strerror(errno));
		return CLI_EXIT_RUNTIME;
	}
	if (il_atomic_open(&out, path)) {
		char why[CLI_WHY_LEN];

		fprintf(stderr, "idlelab sweep: %s: %s\n", path,
			il_atomic_strerror(path, errno, why, sizeof(why)));
		return CLI_EXIT_RUNTIME;
	}
	for (size_t i = 0; i < w->ncases; i++)
		emit_case(out.f, w, i, id);
	if (il_atomic_commit(&out)) {
		fprintf(stderr, "idlelab sweep: writing %s: %s\n", path, strerror(errno));
		return CLI_EXIT_RUNTIME;
	}
	fprintf(stderr, "idlelab sweep: %zu command lines in %s\n", w->ncases, path);
	return CLI_EXIT_OK;
}

static void sweep_args_free(struct sweep_args *a)
{
	for (int i = 0; i < SWEEP_MAX_PARAMS; i++) {
		for (int v = 0; v < a->params[i].nval; v++)
			free(a->params[i].vals[v]);
		free(a->params[i].vals);
	}
}

/* What cli_main() allocates: the options and the cases. */
struct sweep_cmd {
	struct sweep_args a;
	struct sweep w;
};

static int sweep_parse(int argc, char **argv, void *state, struct cli_error *err)
{
	return sweep_parse_args(argc, argv, &((struct sweep_cmd *)state)->a, err);
}

static int sweep_main(void *state)
{
	struct sweep_cmd *c = state;
	const struct sweep_args *a = &c->a;
	int ret;

	c->w.a = a;
	ret = sweep_resolve(&c->w);
	if (ret == CLI_EXIT_OK)
		ret = a->emit ? cli_check_output("sweep", a->emit, false)
			      : cli_check_output("sweep", a->dir, true);
	if (ret == CLI_EXIT_OK)
		ret = a->emit ? sweep_emit(&c->w) : sweep_run(&c->w);
	return ret;
}

static void sweep_release(void *state)
{
	struct sweep_cmd *c = state;

	free(c->w.combo);
	sweep_args_free(&c->a);
}

int cmd_sweep(int argc, char **argv)
{
	static const struct cli_lifecycle lc = {
		.name = "sweep", .size = sizeof(struct sweep_cmd), .parse = sweep_parse,
		.usage = cmd_sweep_usage, .run = sweep_main, .release = sweep_release,
	};

	return cli_main(&lc, argc, argv);
}
