// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_review.c - `idlelab review`: a governor patch in, a linux-pm reply out.
 *
 *	idlelab review PATCH [--tree DIR] [options]
 *	idlelab review ORIG.c PATCHED.c [--as PRESET] [options]
 *
 * For each governor file the patch touches: both sides built with kgov under one framework
 * (lib/kgov/frame.c), the decision impact (kgov diff on the random stream and on the idle
 * periods of every platform x scenario), the verdict (lib/review/verdict.c), the mechanism
 * of every called cell (lib/review/mechanism.c) and the provenance, each part with the
 * command line that reruns it. Text within 80 columns, or JSON with everything.
 */
#define _GNU_SOURCE /* nftw() */
#include <errno.h>
#include <ftw.h>
#ifdef HAVE_JANSSON
#include <jansson.h>
#endif
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_opts.h"
#include "commands.h"
#include "progress.h"
#include "kgov/kgov.h"
#include "lab/battery.h"
#include "lab/lab.h"
#include "platform/platform.h"
#include "report/report.h"
#include "review/review.h"
#include "trace_cli.h"
#include "util/pool.h"
#include "git_version.h"

#define REVIEW_MAX_PLATFORMS 64
#define REVIEW_MAX_SCENARIOS 128
#define REVIEW_MAX_MECHANISMS 8
#define REVIEW_MAX_TRACES 16 /* --trace */
/* the shipped traces, then the --trace ones */
#define REVIEW_MAX_REPLAYS (IL_REVIEW_MAX_SHIPPED + REVIEW_MAX_TRACES)
#define REVIEW_TEXT_FEATURES 6 /* combinations of features the text shows */
#define REVIEW_DEFAULT_STEPS 100000ULL /* random decisions: kgov diff's default */
/* the lab runs whose idle periods both sides decide on: long enough for thousands of
 * periods per CPU, short enough that the whole grid takes seconds (--time caps it) */
#define REVIEW_IMPACT_TIME_NS 500000000ULL

enum {
	RV_OPT_TREE = 1, RV_OPT_AS, RV_OPT_BATTERY, RV_OPT_STEPS, RV_OPT_FAIL_ON, RV_OPT_KEEP,
	RV_OPT_TRACE, RV_OPT_TRACE_PLAT, RV_OPT_NO_SHIPPED, RV_OPT_REPORT,
};

static const struct cli_opt review_opts[] = {
	CLI_OPTS_HELP,
	{ RV_OPT_TREE, 0, "tree", true },
	{ RV_OPT_AS, 0, "as", true },
	CLI_OPTS_PLAT, CLI_OPTS_SCN,
	{ RV_OPT_BATTERY, 0, "battery", false },
	CLI_OPTS_ITER, CLI_OPTS_TIME, CLI_OPTS_SEED, CLI_OPTS_ENSEMBLE,
	{ RV_OPT_STEPS, 0, "steps", true },
	{ RV_OPT_FAIL_ON, 0, "fail-on", true },
	CLI_OPTS_FORMAT, CLI_OPTS_OUT, CLI_OPTS_JOBS,
	{ RV_OPT_KEEP, 0, "keep", true },
	{ RV_OPT_TRACE, 0, "trace", true },
	{ RV_OPT_TRACE_PLAT, 0, "trace-platform", true },
	{ RV_OPT_NO_SHIPPED, 0, "no-shipped-traces", false },
	{ RV_OPT_REPORT, 0, "report", true },
	CLI_OPTS_PROGRESS,
	{ 0 },
};

struct review_args {
	const char *pos[2];
	int npos;
	const char *tree, *as, *fail_on, *out, *keep;
	const char *report;         /* --report DIR: the HTML page and the JSON it is made of */
	bool json, battery;
	bool no_shipped;            /* --no-shipped-traces: replay only the --trace ones */
	const char *platforms[REVIEW_MAX_PLATFORMS];
	int nplat;
	char plat_buf[4096];
	const char *specs[REVIEW_MAX_SCENARIOS];
	int nspec;
	const char *traces[REVIEW_MAX_TRACES];
	int ntrace;
	const char *trace_platform; /* the state table of traces without one in their header */
	CLI_RUN_OPTS; /* its -f is text or json: bool json */
	uint64_t steps;
	char command[4096];     /* the command line, for the provenance */
};

/* ---- arguments -------------------------------------------------------------------------- */

static int set_platforms(struct review_args *a, const char *value, struct cli_error *err)
{
	if (!strcmp(value, "all"))
		return cli_builtin_platforms(a->platforms, REVIEW_MAX_PLATFORMS, &a->nplat, err);
	return cli_split_list(value, a->plat_buf, sizeof(a->plat_buf), a->platforms,
			      REVIEW_MAX_PLATFORMS, &a->nplat, "platform", err);
}

static int review_option(void *state, int id, const char *value, struct cli_error *err)
{
	struct review_args *a = state;

	switch (id) {
	case RV_OPT_TREE: a->tree = value; return CLI_PARSE_OK;
	case RV_OPT_AS: a->as = value; return CLI_PARSE_OK;
	case CLI_OPT_PLAT: return set_platforms(a, value, err);
	case RV_OPT_BATTERY: a->battery = true; return CLI_PARSE_OK;
	case RV_OPT_STEPS: return cli_opt_count(value, "--steps", 1, 100000000, &a->steps, err);
	case CLI_OPT_OUT: a->out = value; return CLI_PARSE_OK;
	case RV_OPT_KEEP: a->keep = value; return CLI_PARSE_OK;
	case RV_OPT_TRACE_PLAT: a->trace_platform = value; return CLI_PARSE_OK;
	case RV_OPT_NO_SHIPPED: a->no_shipped = true; return CLI_PARSE_OK;
	case RV_OPT_REPORT: a->report = value; return CLI_PARSE_OK;
	case RV_OPT_TRACE:
		if (a->ntrace == REVIEW_MAX_TRACES)
			return cli_error_set(err, "at most %d --trace", REVIEW_MAX_TRACES);
		a->traces[a->ntrace++] = value;
		return CLI_PARSE_OK;
	case CLI_OPT_SCN:
		if (a->nspec == REVIEW_MAX_SCENARIOS)
			return cli_error_set(err, "too many scenarios");
		a->specs[a->nspec++] = value;
		return CLI_PARSE_OK;
	case RV_OPT_FAIL_ON:
		if (strcmp(value, "worse") && strcmp(value, "any"))
			return cli_error_set(err, "--fail-on takes worse or any, not '%s'", value);
		a->fail_on = value;
		return CLI_PARSE_OK;
	case CLI_OPT_FORMAT:
		if (strcmp(value, "text") && strcmp(value, "json"))
			return cli_error_set(err, "unknown format '%s' (text or json)", value);
		a->json = !strcmp(value, "json");
		return CLI_PARSE_OK;
	case CLI_OPT_POSITIONAL:
		if (a->npos == 2)
			return cli_error_set(err,
				"give PATCH, or ORIG.c PATCHED.c: '%s' is one too many",
					     value);
		a->pos[a->npos++] = value;
		return CLI_PARSE_OK;
	}
	return cli_run_option(&a->run, id, value, err);
}

/* Whether @word is one shell word as it is (no quoting needed). */
static bool shell_plain(const char *word)
{
	return word[0] && !word[strcspn(word, " \t\n'\"\\$`*?[]{}()<>|&;!#~")];
}

/* The command line as shell words, for the provenance. */
static void command_line(int argc, char **argv, char *buf, size_t cap)
{
	size_t n = (size_t)snprintf(buf, cap, "idlelab review");

	for (int i = 0; i < argc && n < cap; i++) {
		n += (size_t)snprintf(buf + n, cap - n, shell_plain(argv[i]) ? " %s" : " '%s'",
				      argv[i]);
	}
}

static int review_parse(int argc, char **argv, void *state, struct cli_error *err)
{
	struct review_args *a = state;
	int ret;

	a->iter = IL_VERDICT_DEFAULT_ITER;
	a->ensemble = IL_VERDICT_DEFAULT_ENSEMBLE;
	a->seed = 1;
	a->time_ns = IL_VERDICT_TIME_NS;
	a->steps = REVIEW_DEFAULT_STEPS;
	command_line(argc - 1, argv + 1, a->command, sizeof(a->command));
	ret = cli_parse_options(argc, argv, review_opts, CLI_OPT_HELP, review_option, a, err);
	if (ret != CLI_PARSE_OK)
		return ret;
	if (!a->npos)
		return cli_error_set(err, "no patch given (PATCH, or ORIG.c PATCHED.c)");
	if (a->npos == 2 && a->tree)
		return cli_error_set(err, "--tree is for a PATCH; ORIG.c PATCHED.c need none");
	if (a->iter < 2)
		return cli_error_set(err, "--iter must be at least 2: a verdict needs a spread");
	if (!a->nplat)
		set_platforms(a, "all", err);
	if (!a->nspec)
		a->battery = true;
	return CLI_PARSE_OK;
}

/* ---- one reviewed file ---------------------------------------------------------------- */

struct impact_row {
	const char *platform;
	unsigned long long decisions, differ;
};

struct mechanism_cell {
	const struct il_verdict_cell *cell;
	struct il_review_mechanism m;
};

/* A trace to replay: shipped with idlelab (its platform from where it is installed) or
 * given with --trace (its platform from --trace-platform, else from its header). */
struct review_trace {
	const char *path;
	const char *name;     /* PLATFORM/FILE (shipped), or the path */
	const char *label;    /* what the text calls it: "NAME (shipped)", or the path */
	bool shipped;
	const char *platform; /* NULL: the trace's own header */
};

/* One trace through both sides of one file. */
struct trace_row {
	const char *path;
	const struct review_trace *in;
	char table[IL_PLAT_ORIGIN_LEN + 32]; /* where its state table came from */
	const char *sleep;                   /* "timers" or "wakeups" */
	struct il_review_trace res;
};

struct review_file {
	char path[IL_REVIEW_PATH_LEN];     /* as in the tree */
	char base_src[4096], patched_src[4096];
	char base_so[4200], patched_so[4200];
	char base_blob[41], patched_blob[41];
	struct il_kgov_framework fw;
	const struct il_preset *base, *patched;
	struct il_kgov_diff_result random;
	struct impact_row rows[REVIEW_MAX_PLATFORMS];
	unsigned long long lab_by_features[1u << IL_KGOV_FEAT_COUNT];
	unsigned long long lab_decisions, lab_differ;
	u64 impact_ns;
	struct il_review_verdict rv;
	bool have_verdict;
	struct mechanism_cell mech[REVIEW_MAX_MECHANISMS];
	int nmech, ncalled;
	struct trace_row traces[REVIEW_MAX_REPLAYS];
	double t_build, t_random, t_lab, t_verdict, t_mech, t_trace;
};

struct review {
	struct review_args *a;
	struct il_review_patch patch;
	bool from_patch;
	char tmp[64];
	char tree_version[32];
	int tree_kver;
	struct review_file files[IL_REVIEW_MAX_FILES];
	int nfiles;
	const char *scenarios[REVIEW_MAX_SCENARIOS + 32];
	int nscn;
	struct il_review_shipped shipped[IL_REVIEW_MAX_SHIPPED];
	char shipped_labels[IL_REVIEW_MAX_SHIPPED][IL_REVIEW_SHIPPED_NAME_LEN + 16];
	struct review_trace traces[REVIEW_MAX_REPLAYS];
	int ntraces, nshipped;
	char shipped_dir[4096];     /* where the shipped traces are installed */
	double t_total;
};

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
	va_list ap;

	fputs("idlelab review: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return CLI_EXIT_RUNTIME;
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0;

	*len = 0;
	if (!f)
		return NULL;
	for (;;) {
		char *grown = realloc(buf, cap + 65536 + 1);
		size_t got;

		if (!grown) {
			free(buf);
			fclose(f);
			errno = ENOMEM;
			return NULL;
		}
		buf = grown;
		cap += 65536;
		got = fread(buf + *len, 1, cap - *len, f);
		*len += got;
		if (got < cap - *len + got || feof(f))
			break;
	}
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

/* The tree's version from its top Makefile (0 when it has none: said where it matters). */
static void tree_version(struct review *r, const char *tree)
{
	char path[4096];
	size_t len;
	char *text;

	snprintf(path, sizeof(path), "%s/Makefile", tree);
	text = read_file(path, &len);
	if (text && il_kgov_parse_makefile_version(text, &r->tree_kver, r->tree_version,
						   sizeof(r->tree_version)))
		r->tree_kver = 0;
	free(text);
}

static double now(void)
{
	return cli_wall_seconds();
}

/* Build @src into @out; the compiler's first error and the command on failure. */
static int build_side(const char *src, const char *out, char *blob)
{
	struct il_kgov_build_result res;
	struct il_error err = { 0 };
	int ret = il_kgov_build(src, out, NULL, &res, &err);

	if (ret) {
		if (res.log && *res.log)
			fprintf(stderr, "%s", res.log);
		fprintf(stderr, "idlelab review: %s\n", err.msg);
	} else {
		snprintf(blob, 41, "%s", res.scan.blob);
	}
	free(res.log);
	return ret ? CLI_EXIT_RUNTIME : 0;
}

/* The framework, then both objects loaded under it. */
static int load_sides(struct review *r, struct review_file *f)
{
	struct il_kgov_framework_query q = { .blob = f->base_blob, .base_name = f->base_src,
					     .tree_kver = r->tree_kver };
	struct il_kgov_load_opts lopts = { 0 };
	struct il_error err = { 0 };
	const struct il_preset *probe;

	probe = il_kgov_load(f->base_so, NULL, &err);
	if (!probe)
		return fail("%s: %s", f->base_src, err.msg);
	q.family = probe->gov->name;
	if (r->a->as) {
		q.as = il_preset_find(r->a->as);
		if (!q.as || il_kgov_is_loaded(q.as))
			return cli_usage_error("review",
					       "unknown preset for --as (see idlelab governors)");
	}
	if (cli_framework_choose(&q, &f->fw, &err))
		return fail("%s%s%s", err.msg, cli_remedy(err.need),
			    r->from_patch && !r->tree_kver ?
			    " (the tree has no top Makefile with VERSION and PATCHLEVEL)" : "");
	lopts.like = f->fw.preset;
	f->base = il_kgov_load(f->base_so, &lopts, &err);
	if (f->base)
		f->patched = il_kgov_load(f->patched_so, &lopts, &err);
	if (!f->base || !f->patched)
		return fail("%s", err.msg);
	if (strcmp(f->base->gov->name, f->patched->gov->name))
		return fail("%s: the patched file is the %s governor, the base %s", f->path,
			    f->patched->gov->name, f->base->gov->name);
	return 0;
}

static int build_both(struct review *r, struct review_file *f)
{
	double t0 = now();
	int ret;

	snprintf(f->base_so, sizeof(f->base_so), "%s/base-%d.so", r->tmp, (int)(f - r->files));
	snprintf(f->patched_so, sizeof(f->patched_so), "%s/patched-%d.so", r->tmp,
		 (int)(f - r->files));
	ret = build_side(f->base_src, f->base_so, f->base_blob);
	if (!ret)
		ret = build_side(f->patched_src, f->patched_so, f->patched_blob);
	f->t_build = now() - t0;
	return ret ? ret : load_sides(r, f);
}

static int impact_random(struct review *r, struct review_file *f)
{
	struct il_kgov_check_opts opts = { .seed = r->a->seed, .steps = r->a->steps };
	struct il_error err = { 0 };
	double t0 = now();

	if (il_kgov_diff(f->base, f->patched, &opts, 0, &f->random, &err))
		return fail("%s: %s", f->path, err.msg);
	f->t_random = now() - t0;
	return 0;
}

/* The kgov diffs of impact_lab(), one job per (platform, scenario), each into its own slot. */
struct impact_jobs {
	const struct il_review_verdict *rv;
	const struct il_preset *base, *patched;
	u64 time_ns;
	struct il_kgov_diff_result *res; /* [nplat * nscn] */
	struct il_error *err;            /* [nplat * nscn] */
	bool *failed;                    /* [nplat * nscn] */
};

static void impact_job(void *ctx, size_t i)
{
	struct impact_jobs *j = ctx;
	const struct il_verdict *v = &j->rv->v;
	struct il_lab_spec spec;

	if (v->na[i][0])
		return;
	il_verdict_spec(&j->rv->plan, v, (int)(i / (size_t)v->nscn), (int)(i % (size_t)v->nscn),
			0, 0, &spec);
	spec.duration_ns = j->time_ns;
	j->failed[i] = il_kgov_diff_lab(j->base, j->patched, &spec, 0, &j->res[i], &j->err[i]) != 0;
}

static void impact_progress(void *ctx, size_t done, size_t total)
{
	(void)total;
	progress_update(ctx, (unsigned long long)done);
}

/* Sum the pairs' diffs into the rows, in (platform, scenario) order; the first failure's
 * error. */
static int impact_sum(struct review_file *f, const struct impact_jobs *j)
{
	const struct il_verdict *v = &f->rv.v;

	for (int p = 0; p < v->nplat; p++) {
		struct impact_row *row = &f->rows[p];

		row->platform = v->plat[p];
		for (int s = 0; s < v->nscn; s++) {
			size_t i = (size_t)p * (size_t)v->nscn + (size_t)s;

			if (j->failed[i])
				return fail("%s on %s: %s", v->spec[s], row->platform,
					    j->err[i].msg);
			row->decisions += j->res[i].decisions;
			row->differ += j->res[i].any_differ;
			for (unsigned int k = 0; k < 1u << IL_KGOV_FEAT_COUNT; k++)
				f->lab_by_features[k] += j->res[i].by_features[k];
		}
		f->lab_decisions += row->decisions;
		f->lab_differ += row->differ;
	}
	return 0;
}

/*
 * kgov diff over the idle periods of every runnable (platform, scenario) of the verdict, on
 * the verdict's threads (the sums do not depend on their order).
 */
static int impact_lab(struct review *r, struct review_file *f, struct progress *prog)
{
	size_t n = (size_t)f->rv.v.nplat * (size_t)f->rv.v.nscn;
	struct impact_jobs j = {
		.rv = &f->rv, .base = f->base, .patched = f->patched,
		.res = calloc(n, sizeof(*j.res)), .err = calloc(n, sizeof(*j.err)),
		.failed = calloc(n, sizeof(*j.failed)),
	};
	double t0 = now();
	int ret;

	f->impact_ns = r->a->time_ns < REVIEW_IMPACT_TIME_NS ? r->a->time_ns
							      : REVIEW_IMPACT_TIME_NS;
	j.time_ns = f->impact_ns;
	if (!j.res || !j.err || !j.failed) {
		ret = fail("%s", strerror(ENOMEM));
	} else {
		il_pool_run(n, f->rv.plan.threads, impact_job, &j, impact_progress, prog);
		ret = impact_sum(f, &j);
	}
	for (size_t i = 0; j.res && i < n; i++)
		il_kgov_diff_result_free(&j.res[i]);
	free(j.res);
	free(j.err);
	free(j.failed);
	f->t_lab = now() - t0;
	return ret;
}

static int run_verdict(struct review *r, struct review_file *f)
{
	struct il_review_verdict_opts o = {
		.base = f->base, .patched = f->patched, .platforms = r->a->platforms,
		.nplat = r->a->nplat, .scenarios = r->scenarios, .nscn = r->nscn,
		.iter = r->a->iter, .ensemble = r->a->ensemble, .seed = r->a->seed,
		.duration_ns = r->a->time_ns,
		.threads = r->a->jobs ? r->a->jobs : cli_default_jobs(),
	};
	struct il_error err = { 0 };
	double t0 = now();

	if (il_review_verdict(&o, &f->rv, &err))
		return fail("%s", err.msg);
	f->rv.v.words = &cli_verdict_words;
	f->have_verdict = true;
	f->t_verdict = now() - t0;
	return 0;
}

/* The mechanism of the called cells, one per (platform, scenario), worst first. */
static int mechanisms(struct review_file *f)
{
	const struct il_verdict *v = &f->rv.v;
	struct il_error err = { 0 };
	double t0 = now();

	for (int i = 0; i < v->ncells; i++) {
		const struct il_verdict_cell *c = &v->cells[i];
		bool seen = false;

		if (!il_review_called(c))
			continue;
		f->ncalled++;
		for (int k = 0; k < f->nmech; k++)
			seen |= f->mech[k].cell->p == c->p && f->mech[k].cell->s == c->s;
		if (seen || f->nmech == REVIEW_MAX_MECHANISMS)
			continue;
		f->mech[f->nmech].cell = c;
		if (il_review_mechanism(&f->rv, c->p, c->s, &f->mech[f->nmech].m, &err))
			return fail("%s", err.msg);
		f->nmech++;
	}
	f->t_mech = now() - t0;
	return 0;
}

/* The sleep length from the trace's timer events, or from its wakeups when it has none
 * (`idlelab replay`'s --sleep-length auto). Return: 0, or CLI_EXIT_RUNTIME after saying why. */
static int trace_sleep_source(const char *path, struct il_review_trace_opts *o)
{
	struct il_error err = { 0 };
	int has = il_replay_trace_has_timers(path, NULL, &err);

	if (has < 0)
		return fail("%s", err.msg);
	o->sleep_source = has ? IL_SLEEP_TIMERS : IL_SLEEP_WAKEUPS;
	o->sleep_why = has ? "timer events: the rebuilt hrtimer queue and timer wheel" :
			     "wakeups (the trace has no timer events)";
	return 0;
}

static int replay_one_trace(struct review *r, struct review_file *f, struct trace_row *row)
{
	struct trace_input_args in = { .trace = row->path, .platform = row->in->platform,
				       .max_warnings = TRACE_CLI_MAX_WARNINGS,
				       .progress = PROGRESS_OFF };
	struct il_review_trace_opts o = { .base = f->base, .patched = f->patched };
	struct trace_source src;
	struct il_error err = { 0 };
	int ret = trace_sleep_source(row->path, &o);

	if (ret)
		return ret;
	ret = trace_source_open(&src, "review", &in);
	if (ret)
		return ret;
	if (!src.have_table) {
		trace_source_close(&src);
		return cli_usage_error("review", "--trace: the trace has no state table in its "
				       "header: give one with --trace-platform PLATFORM");
	}
	o.plat = &src.plat;
	snprintf(row->table, sizeof(row->table), "%s", src.table_origin);
	row->sleep = o.sleep_source == IL_SLEEP_TIMERS ? "timers" : "wakeups";
	if (il_review_trace_replay(&o, src.trace, &row->res, &err))
		ret = fail("%s", err.msg);
	trace_source_close(&src);
	return ret;
}

static int replay_traces(struct review *r, struct review_file *f)
{
	double t0 = now();

	for (int i = 0; i < r->ntraces; i++) {
		int ret;

		f->traces[i].path = r->traces[i].path;
		f->traces[i].in = &r->traces[i];
		ret = replay_one_trace(r, f, &f->traces[i]);
		if (ret)
			return ret;
	}
	f->t_trace = now() - t0;
	return 0;
}

static int review_one(struct review *r, struct review_file *f)
{
	struct progress prog;
	int ret = build_both(r, f);

	if (!ret)
		ret = impact_random(r, f);
	if (!ret)
		ret = run_verdict(r, f);
	if (ret)
		return ret;
	progress_begin(&prog, r->a->progress, "idlelab review: decision impact", PROGRESS_COUNT,
		       "cases", (unsigned long long)(f->rv.v.nplat * f->rv.v.nscn));
	ret = impact_lab(r, f, &prog);
	progress_end(&prog);
	if (!ret)
		ret = mechanisms(f);
	return ret ? ret : replay_traces(r, f);
}

/* ---- the files to review ------------------------------------------------------------------ */

static int from_patch(struct review *r)
{
	const char *tree = r->a->tree ? r->a->tree : ".";
	struct il_error err = { 0 };
	char *text, *log = NULL;
	size_t len;
	int ret;

	text = read_file(r->a->pos[0], &len);
	if (!text)
		return fail("%s: %s", r->a->pos[0], strerror(errno));
	ret = il_review_patch_parse(text, len, r->a->pos[0], &r->patch, &err);
	free(text);
	if (ret)
		return fail("%s", err.msg);
	r->from_patch = true;
	tree_version(r, tree);
	for (int i = 0; i < r->patch.nfiles; i++) {
		const struct il_review_file *pf = &r->patch.files[i];

		if (pf->kind == IL_REVIEW_REFUSED)
			continue;
		if (pf->kind == IL_REVIEW_GOVERNOR && (pf->created || pf->deleted))
			return fail("%s: %s by the patch: there is no %s side to compare", pf->path,
				    pf->created ? "created" : "deleted",
				    pf->created ? "base" : "patched");
	}
	if (il_review_patch_apply(&r->patch, tree, r->tmp, &log, &err)) {
		fprintf(stderr, "idlelab review: %s: %s%s\n", r->a->pos[0], err.msg,
			cli_remedy(err.need));
		if (log)
			fputs(log, stderr);
		free(log);
		return CLI_EXIT_RUNTIME;
	}
	free(log);
	for (int i = 0; i < r->patch.nfiles; i++) {
		const struct il_review_file *pf = &r->patch.files[i];
		struct review_file *f = &r->files[r->nfiles];
		char path[IL_REVIEW_PATH_LEN];

		if (pf->kind != IL_REVIEW_GOVERNOR)
			continue;
		/* a copy: gcc cannot tell that r->patch and r->files never overlap (-Wrestrict) */
		snprintf(path, sizeof(path), "%s", pf->path);
		snprintf(f->path, sizeof(f->path), "%s", path);
		snprintf(f->base_src, sizeof(f->base_src), "%s/%s", tree, path);
		snprintf(f->patched_src, sizeof(f->patched_src), "%s/%s", r->tmp, path);
		r->nfiles++;
	}
	if (!r->nfiles)
		return fail("%s: the patch touches no governor file (%s: %s)", r->a->pos[0],
			    r->patch.files[0].path,
			    r->patch.files[0].why[0] ? r->patch.files[0].why :
			    "a header only: give the governor files it changes");
	return 0;
}

static int from_files(struct review *r)
{
	struct review_file *f = &r->files[0];

	for (int i = 0; i < 2; i++)
		if (access(r->a->pos[i], R_OK))
			return fail("%s: %s", r->a->pos[i], strerror(errno));
	snprintf(f->path, sizeof(f->path), "%s", r->a->pos[1]);
	snprintf(f->base_src, sizeof(f->base_src), "%s", r->a->pos[0]);
	snprintf(f->patched_src, sizeof(f->patched_src), "%s", r->a->pos[1]);
	r->nfiles = 1;
	return 0;
}

static void gather_scenarios(struct review *r)
{
	r->nscn = 0;
	for (int i = 0; r->a->battery && i < il_battery_count(); i++)
		r->scenarios[r->nscn++] = il_battery_at(i)->spec;
	for (int i = 0; i < r->a->nspec; i++)
		r->scenarios[r->nscn++] = r->a->specs[i];
}

/* ---- output: text --------------------------------------------------------------------- */

/* Print @text wrapped at 78 columns after @indent spaces (the first line after @lead). */
static void wrap(FILE *out, int indent, const char *text)
{
	int col = 0;

	for (const char *s = text; *s;) {
		size_t w = strcspn(s, " ");

		if (col && col + 1 + (int)w > 78) {
			fputc('\n', out);
			col = 0;
		}
		if (!col)
			col = fprintf(out, "%*s", indent, "");
		else
			col += fprintf(out, " ");
		col += fprintf(out, "%.*s", (int)w, s);
		s += w;
		while (*s == ' ')
			s++;
	}
	if (col)
		fputc('\n', out);
}

/* A command line, "$ " and its words, continued with " \\" within 78 columns. */
static void wrap_cmd(FILE *out, int indent, const char *cmd)
{
	int col = fprintf(out, "%*s$", indent, "");

	for (const char *s = cmd; *s;) {
		size_t w = strcspn(s, " ");

		if (col + 1 + (int)w > 76) {
			fprintf(out, " \\\n");
			col = fprintf(out, "%*s", indent + 4, "");
		} else {
			col += fprintf(out, " ");
		}
		col += fprintf(out, "%.*s", (int)w, s);
		s += w;
		while (*s == ' ')
			s++;
	}
	fputc('\n', out);
}

static void wrapf(FILE *out, int indent, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void wrapf(FILE *out, int indent, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	wrap(out, indent, buf);
}

static double pct(unsigned long long n, unsigned long long d)
{
	return d ? 100.0 * (double)n / (double)d : 0.0;
}

static const char *objs_note(const struct review *r)
{
	return r->a->keep ? "" : " (base.so and patched.so: the objects --keep DIR keeps)";
}

/* "DIR/base.so", or "base-menu.so" when several files are reviewed: the objects the rerun
 * commands name (--keep DIR keeps them there) */
static void obj_name(const struct review *r, const struct review_file *f, bool patched,
		     char *buf, size_t cap)
{
	const char *base = strrchr(f->path, '/') ? strrchr(f->path, '/') + 1 : f->path;
	int n = (int)strcspn(base, ".");

	snprintf(buf, cap, "%s%s%s%s%.*s.so", r->a->keep ? r->a->keep : "", r->a->keep ? "/" : "",
		 patched ? "patched" : "base", r->nfiles > 1 ? "-" : "", r->nfiles > 1 ? n : 0,
		 base);
}

/* "review.json", or "review-menu.json" when several files are reviewed */
static void report_json_name(const struct review *r, const struct review_file *f, char *buf,
			     size_t cap)
{
	const char *base = strrchr(f->path, '/') ? strrchr(f->path, '/') + 1 : f->path;
	int n = (int)strcspn(base, ".");

	snprintf(buf, cap, "review%s%.*s.json", r->nfiles > 1 ? "-" : "", r->nfiles > 1 ? n : 0,
		 base);
}

static void text_impact(FILE *out, const struct review *r, const struct review_file *f)
{
	unsigned int keys[1u << IL_KGOV_FEAT_COUNT];
	unsigned long long diff = f->random.any_differ + f->lab_differ;
	unsigned long long total[1u << IL_KGOV_FEAT_COUNT];
	unsigned int n;
	char b[512], p[512], cmd[2048];

	fprintf(out, "\nDecision impact (kgov diff: both sides on the same inputs)\n");
	fprintf(out, "  random inputs: %llu of %llu decisions differ (%.4f %%)\n",
		f->random.any_differ, f->random.decisions, pct(f->random.any_differ,
							       f->random.decisions));
	fprintf(out, "  idle periods of %d scenario%s (%g s runs), by platform:\n", f->rv.v.nscn,
		f->rv.v.nscn == 1 ? "" : "s", (double)f->impact_ns / 1e9);
	for (int i = 0; i < f->rv.v.nplat; i++)
		fprintf(out, "    %-12s %9llu of %10llu (%7.4f %%)\n", f->rows[i].platform,
			f->rows[i].differ, f->rows[i].decisions,
			pct(f->rows[i].differ, f->rows[i].decisions));
	for (unsigned int k = 0; k < 1u << IL_KGOV_FEAT_COUNT; k++)
		total[k] = f->random.by_features[k] + f->lab_by_features[k];
	n = il_kgov_features_sorted(total, keys);
	if (n)
		fprintf(out, "  where they differ (share of all %llu differing decisions):\n",
			diff);
	for (unsigned int i = 0; i < n && i < REVIEW_TEXT_FEATURES; i++) {
		char what[160];

		kgov_features_text(keys[i], what, sizeof(what));
		fprintf(out, "    %5.1f %%  %s\n", pct(total[keys[i]], diff), what);
	}
	if (n > REVIEW_TEXT_FEATURES) {
		unsigned long long rest = 0;

		for (unsigned int i = REVIEW_TEXT_FEATURES; i < n; i++)
			rest += total[keys[i]];
		fprintf(out, "    %5.1f %%  in %u other combinations (-f json has them all)\n",
			pct(rest, diff), n - REVIEW_TEXT_FEATURES);
	}
	obj_name(r, f, false, b, sizeof(b));
	obj_name(r, f, true, p, sizeof(p));
	fprintf(out, "  rerun%s:\n", objs_note(r));
	snprintf(cmd, sizeof(cmd), "idlelab kgov diff %s %s --as %s --steps %llu --seed %llu", b, p,
		 f->fw.preset->name, (unsigned long long)r->a->steps,
		 (unsigned long long)r->a->seed);
	wrap_cmd(out, 4, cmd);
	snprintf(cmd, sizeof(cmd), "idlelab kgov diff %s %s --as %s --scenario PLATFORM:SCENARIO "
		 "--time %gs --seed %llu", b, p, f->fw.preset->name, (double)f->impact_ns / 1e9,
		 (unsigned long long)r->a->seed);
	wrap_cmd(out, 4, cmd);
}

static void text_mechanism(FILE *out, const struct mechanism_cell *mc)
{
	const struct il_review_mechanism *m = &mc->m;
	const struct il_review_side *b = &m->side[0], *p = &m->side[1];
	u64 ub = 0, up = 0, tb = 0, tp = 0;
	char line[1024];
	size_t n;

	for (int i = 0; i < m->nstates; i++) {
		ub += b->usage[i];
		up += p->usage[i];
		tb += b->time_ns[i];
		tp += p->time_ns[i];
	}
	n = (size_t)snprintf(line, sizeof(line), "entries:");
	for (int i = 0; i < m->nstates; i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %s %.1f->%.1f %%%s",
				      m->state_names[i],
				      pct(b->usage[i], ub), pct(p->usage[i], up),
				      i + 1 < m->nstates ? "," : ";");
	n += (size_t)snprintf(line + n, sizeof(line) - n, " time:");
	for (int i = 0; i < m->nstates; i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %s %.1f->%.1f %%%s",
				      m->state_names[i],
				      pct(b->time_ns[i], tb), pct(p->time_ns[i], tp),
				      i + 1 < m->nstates ? "," : ";");
	snprintf(line + n, sizeof(line) - n, " aboves %.2f->%.2f %%, belows %.2f->%.2f %% of idle "
		 "periods; tick stops %llu->%llu", pct(b->aboves, b->idles),
		 pct(p->aboves, p->idles),
		 pct(b->belows, b->idles), pct(p->belows, p->idles),
		 (unsigned long long)b->tick_stops, (unsigned long long)p->tick_stops);
	wrap(out, 6, line);
}

/* The model the verdict ran: "Ensemble of N model variants", or the nominal one only. */
static const char *ensemble_words(int ensemble, char *buf, size_t size)
{
	if (!ensemble)
		return "The nominal model only (--ensemble 0)";
	snprintf(buf, size, "Ensemble of %d model variants", ensemble);
	return buf;
}

static void text_verdict(FILE *out, const struct review *r, const struct review_file *f)
{
	const struct il_verdict *v = &f->rv.v;
	struct il_verdict_count k;
	char b[512], p[IL_VERDICT_NOTE_LEN], delta[96], name[64];

	il_verdict_counts(v, 1, &k);
	fprintf(out, "\nVerdict (%d platform%s x %d scenario%s, %d seeds, %g s each)\n", v->nplat,
		v->nplat == 1 ? "" : "s", v->nscn, v->nscn == 1 ? "" : "s", v->n,
		(double)r->a->time_ns / 1e9);
	wrapf(out, 2, "%s: %d cells worse, %d better, %d sensitive, %d same, %d n/a.",
	      ensemble_words(r->a->ensemble, b, sizeof(b)), k.worse, k.better, k.sensitive, k.same,
	      k.na);
	for (int i = 0; i < v->ncells; i++) {
		const struct il_verdict_cell *c = &v->cells[i];
		bool sensitive = c->cls == IL_VERDICT_SENSITIVE;

		if (!il_review_called(c) && !sensitive)
			continue;
		il_verdict_cell_delta(c, delta, sizeof(delta));
		wrapf(out, 2, "%s %s %s %s %s p=%.4f%s%s", il_verdict_class_name(c->cls),
		      v->plat[c->p], v->spec[c->s],
		      il_vmetric_name(c->metric, v->scn[c->s], name, sizeof(name)), delta, c->p_adj,
		      sensitive ? ": " : "",
		      sensitive ? il_verdict_cell_note(v, c, p, sizeof(p)) : "");
		if (sensitive)
			continue;
		for (int m = 0; m < f->nmech; m++)
			if (f->mech[m].cell == c)
				text_mechanism(out, &f->mech[m]);
	}
	obj_name(r, f, false, b, sizeof(b));
	obj_name(r, f, true, p, sizeof(p));
	fprintf(out, "  rerun%s:\n", objs_note(r));
	{
		char cmd[4096];
		size_t n = (size_t)snprintf(cmd, sizeof(cmd),
					    "idlelab verdict -g file:%s@%s,file:%s@%s -p ",
					    b, f->fw.preset->name, p, f->fw.preset->name);

		for (int i = 0; i < v->nplat; i++)
			n += (size_t)snprintf(cmd + n, sizeof(cmd) - n, "%s%s", i ? "," : "",
					      v->plat[i]);
		if (r->a->battery)
			n += (size_t)snprintf(cmd + n, sizeof(cmd) - n, " --battery");
		for (int i = 0; i < r->a->nspec; i++)
			n += (size_t)snprintf(cmd + n, sizeof(cmd) - n, " -s %s", r->a->specs[i]);
		n += (size_t)snprintf(cmd + n, sizeof(cmd) - n, " --iter %d --seed %llu --time %gs",
				      v->n, (unsigned long long)r->a->seed,
				      (double)r->a->time_ns / 1e9);
		if (r->a->ensemble != IL_VERDICT_DEFAULT_ENSEMBLE)
			snprintf(cmd + n, sizeof(cmd) - n, " --ensemble %d", r->a->ensemble);
		wrap_cmd(out, 4, cmd);
	}
}

static double change_pct(u64 from, u64 to)
{
	return from ? 100.0 * ((double)to - (double)from) / (double)from : 0.0;
}

static void gap_text(char *buf, size_t cap, const struct il_review_trace *t, int side)
{
	if (t->have_gap[side])
		snprintf(buf, cap, "%+.1f %%", 100.0 * t->gap[side]);
	else
		snprintf(buf, cap, "none (no frontier point at its latency)");
}

static void text_trace(FILE *out, const struct review *r, const struct review_file *f,
		       const struct trace_row *row)
{
	const struct il_review_trace *t = &row->res;
	const struct il_replay_row *b = &t->side[0], *p = &t->side[1];
	char gb[64], gp[64], ob[512], op[512], cmd[8192], path[4096];

	gap_text(gb, sizeof(gb), t, 0);
	gap_text(gp, sizeof(gp), t, 1);
	fprintf(out, "  %s\n", row->in->label);
	wrapf(out, 4, "%llu idle periods, state table: %s; sleep length from %s.",
	      (unsigned long long)t->periods, row->table, row->sleep);
	wrapf(out, 4, "Same state in %.2f %% of the periods (and the same tick request in "
	      "%.2f %%); the recorded state: base %.2f %%, patched %.2f %%.",
	      pct(t->same_state, t->periods), pct(t->same_both, t->periods),
	      pct(b->agree, b->idles), pct(p->agree, p->idles));
	wrapf(out, 4, "Energy %.3f -> %.3f mJ (%+.2f %%); misses %llu -> %llu (aboves %llu -> "
	      "%llu, belows %llu -> %llu); gap to the open-loop bound %s -> %s.",
	      (double)b->energy_nj / 1e6, (double)p->energy_nj / 1e6,
	      change_pct(b->energy_nj, p->energy_nj),
	      (unsigned long long)(b->above + b->below), (unsigned long long)(p->above + p->below),
	      (unsigned long long)b->above, (unsigned long long)p->above,
	      (unsigned long long)b->below, (unsigned long long)p->below, gb, gp);
	obj_name(r, f, false, ob, sizeof(ob));
	obj_name(r, f, true, op, sizeof(op));
	if (row->in->shipped)
		snprintf(path, sizeof(path), "%s/%s", shell_plain(r->shipped_dir) ? "$D" : "\"$D\"",
			 row->in->name);
	else
		snprintf(path, sizeof(path), "%s", row->path);
	snprintf(cmd, sizeof(cmd), "idlelab replay %s%s%s -g file:%s@%s,file:%s@%s", path,
		 row->in->platform ? " -p " : "",
		 row->in->platform ? row->in->platform : "", ob, f->fw.preset->name, op,
		 f->fw.preset->name);
	wrap_cmd(out, 4, cmd);
}

static void text_traces(FILE *out, const struct review *r, const struct review_file *f)
{
	if (!r->ntraces)
		return;
	fprintf(out, "\nReal traces (open loop: both sides over the recorded idle periods)\n");
	if (r->nshipped) {
		char cmd[4200];

		wrapf(out, 2, "The %d traces shipped with idlelab (in D below), each replayed on "
		      "the state table it was recorded on (D/README.md says how; "
		      "--no-shipped-traces leaves them out), then those given with --trace.",
		      r->nshipped);
		/* their directory once, so that each rerun command fits the 80 columns */
		snprintf(cmd, sizeof(cmd), shell_plain(r->shipped_dir) ? "D=%s" : "D='%s'",
			 r->shipped_dir);
		wrap_cmd(out, 4, cmd);
	}
	for (int i = 0; i < r->ntraces; i++)
		text_trace(out, r, f, &f->traces[i]);
	if (!r->a->keep)
		wrap(out, 2, "(The replay commands name base.so and patched.so: the objects --keep "
		     "DIR keeps.)");
}

static void text_file(FILE *out, const struct review *r, const struct review_file *f)
{
	fprintf(out, "\n%s\n", f->path);
	wrapf(out, 2, "Base blob %.12s, patched blob %.12s. Both sides run under the framework "
	      "rules of %s (core %s): %s.", f->base_blob, f->patched_blob, f->fw.preset->name,
	      f->fw.preset->core->name, f->fw.reason);
	wrapf(out, 2, "The patch changes %.4f %% of the decisions on random inputs and %.4f %% on "
	      "the idle periods of the lab runs; the verdict calls %d cell%s.",
	      pct(f->random.any_differ, f->random.decisions), pct(f->lab_differ, f->lab_decisions),
	      f->ncalled, f->ncalled == 1 ? "" : "s");
	text_impact(out, r, f);
	text_verdict(out, r, f);
	text_traces(out, r, f);
	fputc('\n', out);
	wrapf(out, 2, "Time: build %.1f s, random %.1f s, lab periods %.1f s, verdict %.1f s, "
	      "mechanism %.1f s, traces %.1f s (wall).", f->t_build, f->t_random, f->t_lab,
	      f->t_verdict, f->t_mech, f->t_trace);
}

static int format_text(FILE *out, const void *ctx)
{
	const struct review *r = ctx;

	if (r->from_patch)
		wrapf(out, 0, "idlelab review of %s%s%s", r->a->pos[0],
		      r->patch.subject[0] ? ": " : "", r->patch.subject);
	else
		wrapf(out, 0, "idlelab review of %s -> %s", r->a->pos[0], r->a->pos[1]);
	wrap(out, 0, "What was simulated: each governor file below, unmodified and patched, "
	     "compiled with the kernel-API shim and run in idlelab's simulator under one "
	     "framework model (idle loop, QoS, polling, accounting of the kernel named), on the "
	     "state tables of the platforms named (data files with their sources: idlelab "
	     "platforms). What the lab cannot know: power and energy are a model, not a "
	     "measurement; the workloads are models of the reports they name; hardware effects "
	     "(caches, frequency, real exit latencies) are outside it.");
	for (int i = 0; i < r->patch.nfiles && r->from_patch; i++)
		if (r->patch.files[i].kind == IL_REVIEW_REFUSED)
			wrapf(out, 0, "Not reviewed: %s: %s.", r->patch.files[i].path,
			      r->patch.files[i].why);
	for (int i = 0; i < r->nfiles; i++)
		text_file(out, r, &r->files[i]);
	fprintf(out, "\nProvenance\n");
	wrapf(out, 2, "idlelab %s (git %s); command: %s", IDLELAB_VERSION, cli_git_describe(),
	      r->a->command);
	if (r->from_patch)
		wrapf(out, 2, "tree %s, version %s", r->a->tree ? r->a->tree : ".",
		      r->tree_kver ? r->tree_version : "unknown (no top Makefile version)");
	if (r->a->report) {
		char json[600], cmd[4096];

		report_json_name(r, &r->files[0], json, sizeof(json));
		wrapf(out, 2, "Report: %s/index.html, made by:", r->a->report);
		snprintf(cmd, sizeof(cmd), "idlelab report %s/%s%s -o %s", r->a->report, json,
			 r->nfiles > 1 ? " ..." : "", r->a->report);
		wrap_cmd(out, 4, cmd);
	}
	wrapf(out, 2, "seeds %llu..%llu, %llu random decisions, total %.1f s wall",
	      (unsigned long long)r->a->seed,
	      (unsigned long long)r->a->seed + (unsigned)r->a->iter - 1,
	      (unsigned long long)r->a->steps, r->t_total);
	return ferror(out) ? 1 : 0;
}

/* ---- output: JSON ----------------------------------------------------------------------- */

#ifdef HAVE_JANSSON
static json_t *json_features(const unsigned long long *by, unsigned long long decisions)
{
	unsigned int keys[1u << IL_KGOV_FEAT_COUNT];
	unsigned int n = il_kgov_features_sorted(by, keys);
	json_t *a = json_array();

	for (unsigned int i = 0; i < n; i++) {
		json_t *o = json_object(), *fe = json_object();

		for (int k = 0; k < IL_KGOV_FEAT_COUNT; k++)
			json_object_set_new(fe, il_kgov_feature_name(k, true),
					    json_boolean(keys[i] & (1u << k)));
		json_object_set_new(o, "features", fe);
		json_object_set_new(o, "count", json_integer((json_int_t)by[keys[i]]));
		json_object_set_new(o, "pct_of_decisions", json_real(pct(by[keys[i]], decisions)));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *json_impact(const struct review_file *f)
{
	json_t *o = json_object(), *rnd = json_object(), *lab = json_object(), *rows = json_array();

	json_object_set_new(rnd, "decisions", json_integer((json_int_t)f->random.decisions));
	json_object_set_new(rnd, "index_differ", json_integer((json_int_t)f->random.idx_differ));
	json_object_set_new(rnd, "stop_tick_differ",
			    json_integer((json_int_t)f->random.stop_tick_differ));
	json_object_set_new(rnd, "any_differ", json_integer((json_int_t)f->random.any_differ));
	json_object_set_new(rnd, "any_differ_pct",
			    json_real(pct(f->random.any_differ, f->random.decisions)));
	json_object_set_new(rnd, "by_features",
			    json_features(f->random.by_features, f->random.decisions));
	json_object_set_new(o, "random", rnd);
	for (int i = 0; i < f->rv.v.nplat; i++) {
		json_t *row = json_object();

		json_object_set_new(row, "platform", json_string(f->rows[i].platform));
		json_object_set_new(row, "decisions",
				    json_integer((json_int_t)f->rows[i].decisions));
		json_object_set_new(row, "any_differ", json_integer((json_int_t)f->rows[i].differ));
		json_array_append_new(rows, row);
	}
	json_object_set_new(lab, "run_ns", json_integer((json_int_t)f->impact_ns));
	json_object_set_new(lab, "decisions", json_integer((json_int_t)f->lab_decisions));
	json_object_set_new(lab, "any_differ", json_integer((json_int_t)f->lab_differ));
	json_object_set_new(lab, "platforms", rows);
	json_object_set_new(lab, "by_features", json_features(f->lab_by_features,
			    f->lab_decisions));
	json_object_set_new(o, "lab_periods", lab);
	return o;
}

static json_t *json_side(const struct il_review_side *s, const struct il_review_mechanism *m)
{
	json_t *o = json_object(), *st = json_array();

	json_object_set_new(o, "idles", json_integer((json_int_t)s->idles));
	json_object_set_new(o, "aboves", json_integer((json_int_t)s->aboves));
	json_object_set_new(o, "belows", json_integer((json_int_t)s->belows));
	json_object_set_new(o, "tick_stops", json_integer((json_int_t)s->tick_stops));
	for (int i = 0; i < m->nstates; i++) {
		json_t *e = json_object();

		json_object_set_new(e, "name", json_string(m->state_names[i]));
		json_object_set_new(e, "usage", json_integer((json_int_t)s->usage[i]));
		json_object_set_new(e, "time_ns", json_integer((json_int_t)s->time_ns[i]));
		json_array_append_new(st, e);
	}
	json_object_set_new(o, "states", st);
	return o;
}

static json_t *json_cells(const struct review_file *f)
{
	const struct il_verdict *v = &f->rv.v;
	json_t *a = json_array();

	for (int i = 0; i < v->ncells; i++) {
		const struct il_verdict_cell *c = &v->cells[i];
		json_t *o = json_object();
		char name[64];

		json_object_set_new(o, "platform", json_string(v->plat[c->p]));
		json_object_set_new(o, "scenario", json_string(v->spec[c->s]));
		json_object_set_new(o, "metric",
				    json_string(il_vmetric_name(c->metric, v->scn[c->s], name,
								sizeof(name))));
		json_object_set_new(o, "verdict", json_string(il_verdict_class_name(c->cls)));
		json_object_set_new(o, "called", json_boolean(il_review_called(c)));
		if (c->cls != IL_VERDICT_NA) {
			json_object_set_new(o, "base_mean", json_real(c->base_mean));
			json_object_set_new(o, "new_mean", json_real(c->new_mean));
			json_object_set_new(o, "p_adj", c->p_adj == c->p_adj ? json_real(c->p_adj) :
					    json_null());
		} else {
			json_object_set_new(o, "why", json_string(c->why));
		}
		for (int m = 0; m < f->nmech; m++)
			if (f->mech[m].cell->p == c->p && f->mech[m].cell->s == c->s &&
			    il_review_called(c)) {
				json_t *mo = json_object();

				json_object_set_new(mo, "base", json_side(&f->mech[m].m.side[0],
						    &f->mech[m].m));
				json_object_set_new(mo, "patched",
						    json_side(&f->mech[m].m.side[1],
							      &f->mech[m].m));
				json_object_set_new(o, "mechanism", mo);
			}
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *json_trace_side(const struct il_review_trace *t, int i)
{
	const struct il_replay_row *s = &t->side[i];
	json_t *o = json_object();

	json_object_set_new(o, "energy_mj", json_real((double)s->energy_nj / 1e6));
	json_object_set_new(o, "idle_misses", json_integer((json_int_t)(s->above + s->below)));
	json_object_set_new(o, "aboves", json_integer((json_int_t)s->above));
	json_object_set_new(o, "belows", json_integer((json_int_t)s->below));
	json_object_set_new(o, "recorded_agree_pct", json_real(pct(s->agree, s->idles)));
	json_object_set_new(o, "gap_to_bound_pct", t->have_gap[i] ?
			    json_real(100.0 * t->gap[i]) : json_null());
	return o;
}

static json_t *json_traces(const struct review *r, const struct review_file *f)
{
	json_t *a = json_array();

	for (int i = 0; i < r->ntraces; i++) {
		const struct trace_row *row = &f->traces[i];
		const struct il_review_trace *t = &row->res;
		json_t *o = json_object();

		json_object_set_new(o, "path", json_string(row->path));
		json_object_set_new(o, "shipped", json_boolean(row->in->shipped));
		json_object_set_new(o, "name", json_string(row->in->name));
		json_object_set_new(o, "state_table", json_string(row->table));
		json_object_set_new(o, "sleep_length", json_string(row->sleep));
		json_object_set_new(o, "periods", json_integer((json_int_t)t->periods));
		json_object_set_new(o, "same_state", json_integer((json_int_t)t->same_state));
		json_object_set_new(o, "same_state_pct", json_real(pct(t->same_state, t->periods)));
		json_object_set_new(o, "same_state_and_tick_pct",
				    json_real(pct(t->same_both, t->periods)));
		json_object_set_new(o, "energy_change_pct",
				    json_real(change_pct(t->side[0].energy_nj,
							 t->side[1].energy_nj)));
		json_object_set_new(o, "base", json_trace_side(t, 0));
		json_object_set_new(o, "patched", json_trace_side(t, 1));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *json_file(const struct review *r, const struct review_file *f)
{
	json_t *o = json_object(), *fw = json_object(), *vd = json_object(), *t = json_object();
	struct il_verdict_count k;
	char line[1024];

	json_object_set_new(o, "path", json_string(f->path));
	json_object_set_new(o, "base_source", json_string(f->base_src));
	json_object_set_new(o, "base_blob", json_string(f->base_blob));
	json_object_set_new(o, "patched_blob", json_string(f->patched_blob));
	json_object_set_new(fw, "preset", json_string(f->fw.preset->name));
	json_object_set_new(fw, "core", json_string(f->fw.preset->core->name));
	json_object_set_new(fw, "kernel", json_string(f->fw.preset->kernel));
	json_object_set_new(fw, "reason", json_string(f->fw.reason));
	json_object_set_new(o, "framework", fw);
	json_object_set_new(o, "impact", json_impact(f));
	il_verdict_counts(&f->rv.v, 1, &k);
	json_object_set_new(vd, "platforms", json_integer(f->rv.v.nplat));
	json_object_set_new(vd, "scenarios", json_integer(f->rv.v.nscn));
	json_object_set_new(vd, "seeds", json_integer(f->rv.v.n));
	json_object_set_new(vd, "run_ns", json_integer((json_int_t)r->a->time_ns));
	json_object_set_new(vd, "worse", json_integer(k.worse));
	json_object_set_new(vd, "better", json_integer(k.better));
	json_object_set_new(vd, "same", json_integer(k.same));
	json_object_set_new(vd, "na", json_integer(k.na));
	json_object_set_new(vd, "summary", json_string(il_verdict_summary(&f->rv.v, 1, line,
									  sizeof(line))));
	json_object_set_new(vd, "cells", json_cells(f));
	json_object_set_new(o, "verdict", vd);
	json_object_set_new(o, "traces", json_traces(r, f));
	json_object_set_new(t, "build_s", json_real(f->t_build));
	json_object_set_new(t, "random_s", json_real(f->t_random));
	json_object_set_new(t, "lab_periods_s", json_real(f->t_lab));
	json_object_set_new(t, "verdict_s", json_real(f->t_verdict));
	json_object_set_new(t, "mechanism_s", json_real(f->t_mech));
	json_object_set_new(t, "traces_s", json_real(f->t_trace));
	json_object_set_new(o, "time", t);
	return o;
}

static json_t *json_provenance(const struct review *r)
{
	json_t *o = json_object();

	json_object_set_new(o, "idlelab_version", json_string(IDLELAB_VERSION));
	json_object_set_new(o, "git_describe", json_string(cli_git_describe()));
	json_object_set_new(o, "command", json_string(r->a->command));
	json_object_set_new(o, "tree", r->from_patch ? json_string(r->a->tree ? r->a->tree : ".") :
			    json_null());
	json_object_set_new(o, "tree_version", r->tree_kver ? json_string(r->tree_version) :
			    json_null());
	json_object_set_new(o, "seed", json_integer((json_int_t)r->a->seed));
	json_object_set_new(o, "iter", json_integer(r->a->iter));
	json_object_set_new(o, "random_decisions", json_integer((json_int_t)r->a->steps));
	json_object_set_new(o, "ensemble", json_integer(r->a->ensemble));
	json_object_set_new(o, "report", r->a->report ? json_string(r->a->report) : json_null());
	json_object_set_new(o, "wall_s", json_real(r->t_total));
	return o;
}

static int format_json(FILE *out, const void *ctx)
{
	const struct review *r = ctx;
	json_t *root = json_object(), *files = json_array(), *refused = json_array();
	int ret;

	json_object_set_new(root, "patch", json_string(r->a->pos[0]));
	json_object_set_new(root, "subject", json_string(r->patch.subject));
	json_object_set_new(root, "message", json_string(r->patch.message ? r->patch.message : ""));
	for (int i = 0; i < r->patch.nfiles && r->from_patch; i++) {
		const struct il_review_file *pf = &r->patch.files[i];

		if (pf->kind == IL_REVIEW_REFUSED)
			json_array_append_new(refused, json_pack("{s:s,s:s}", "path", pf->path,
								 "why", pf->why));
	}
	json_object_set_new(root, "refused", refused);
	for (int i = 0; i < r->nfiles; i++)
		json_array_append_new(files, json_file(r, &r->files[i]));
	json_object_set_new(root, "files", files);
	json_object_set_new(root, "provenance", json_provenance(r));
	ret = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(root);
	return ret ? 1 : 0;
}
#else
static int format_json(FILE *out, const void *ctx)
{
	fprintf(stderr, "idlelab review: -f json needs libjansson (install libjansson-dev)\n");
	return -1;
}
#endif

/* ---- --report DIR ------------------------------------------------------------------------ */

#define REVIEW_REPORT_PROVENANCE 8

/* The tables of il_review_report_tables() as JSON text (malloc'ed), or NULL. */
static char *file_report_json(const struct review *r, const struct review_file *f,
			      size_t *len)
{
	struct il_review_mech_ref refs[REVIEW_MAX_MECHANISMS];
	const struct il_review_trace *traces[REVIEW_MAX_REPLAYS];
	const char *labels[REVIEW_MAX_REPLAYS];
	const char *prov[REVIEW_REPORT_PROVENANCE][2];
	char names[2][64], version[256], blobs[2][128], fw[512];
	struct il_review_report rep = { .gov_names = { names[0], names[1] },
					.seed = r->a->seed, .duration_ns = r->a->time_ns,
					.provenance = prov, .mech = refs, .nmech = f->nmech,
					.trace_paths = labels, .traces = traces,
					.ntraces = r->ntraces };
	struct il_table t[IL_REVIEW_REPORT_TABLES];
	const struct il_table *ptrs[IL_REVIEW_REPORT_TABLES];
	char *text = NULL;
	FILE *mem;
	int ret;

	snprintf(names[0], sizeof(names[0]), "base %.12s", f->base_blob);
	snprintf(names[1], sizeof(names[1]), "patched %.12s", f->patched_blob);
	snprintf(version, sizeof(version), "%s (git %s)", IDLELAB_VERSION, cli_git_describe());
	snprintf(blobs[0], sizeof(blobs[0]), "%s: %s", names[0], f->base_blob);
	snprintf(blobs[1], sizeof(blobs[1]), "%s: %s", names[1], f->patched_blob);
	snprintf(fw, sizeof(fw), "both: %s (core %s): %s", f->fw.preset->name,
		 f->fw.preset->core->name, f->fw.reason);
	prov[0][0] = "idlelab", prov[0][1] = version;
	prov[1][0] = "framework", prov[1][1] = fw;
	prov[2][0] = "blob", prov[2][1] = blobs[0];
	prov[3][0] = "blob", prov[3][1] = blobs[1];
	prov[4][0] = "command", prov[4][1] = r->a->command;
	rep.nprovenance = 5;
	for (int i = 0; i < f->nmech; i++)
		refs[i] = (struct il_review_mech_ref){ f->mech[i].cell->p, f->mech[i].cell->s,
						       &f->mech[i].m };
	for (int i = 0; i < r->ntraces; i++) {
		traces[i] = &f->traces[i].res;
		labels[i] = r->traces[i].label;
	}
	if (il_review_report_tables(&f->rv, &rep, t))
		return NULL;
	for (int i = 0; i < IL_REVIEW_REPORT_TABLES; i++)
		ptrs[i] = &t[i];
	mem = open_memstream(&text, len);
	ret = !mem || il_output_json.write(mem, ptrs, IL_REVIEW_REPORT_TABLES);
	if (mem && fclose(mem))
		ret = -1;
	for (int i = 0; i < IL_REVIEW_REPORT_TABLES; i++)
		il_table_free(&t[i]);
	if (ret) {
		free(text);
		return NULL;
	}
	return text;
}

static int report_add_files(struct review *r, struct il_page *page, char **json, size_t *len)
{
	struct il_error err = { 0 };
	char name[600];

	for (int i = 0; i < r->nfiles; i++) {
		json[i] = file_report_json(r, &r->files[i], &len[i]);
		if (!json[i])
			return fail("--report: %s", strerror(errno ? errno : ENOMEM));
		/* named as `idlelab report DIR/NAME.json` names it: the same page when rerun */
		report_json_name(r, &r->files[i], name, sizeof(name));
		if (il_page_add(page, name, json[i], &err))
			return fail("--report: %s", err.msg);
	}
	return 0;
}

/* DIR/REVIEW.json (each file's), then DIR/index.html; Return: 0 or CLI_EXIT_RUNTIME. */
static int report_write(const struct review *r, char **json, const size_t *len,
			const char *html, size_t hlen)
{
	char path[4096], name[600];

	if (mkdir(r->a->report, 0777) && errno != EEXIST)
		return fail("--report %s: %s", r->a->report, strerror(errno));
	for (int i = 0; i < r->nfiles; i++) {
		report_json_name(r, &r->files[i], name, sizeof(name));
		snprintf(path, sizeof(path), "%s/%s", r->a->report, name);
		if (cli_write_output(path, json[i], len[i]))
			return fail("--report: writing %s: %s", path, strerror(errno));
	}
	snprintf(path, sizeof(path), "%s/index.html", r->a->report);
	if (cli_write_output(path, html, hlen))
		return fail("--report: writing %s: %s", path, strerror(errno));
	return 0;
}

/* The page of the review: the verdict's heat maps, the mechanism and the traces. */
static int write_report(struct review *r)
{
	struct il_page_opts opts = { 0 }; /* `idlelab report`'s own, so that it reruns as is */
	struct il_page *page;
	char *json[IL_REVIEW_MAX_FILES] = { NULL }, *html = NULL;
	struct il_error err = { 0 };
	size_t len[IL_REVIEW_MAX_FILES], hlen = 0;
	FILE *mem = NULL;
	int ret;

	if (!r->a->report)
		return 0;
	page = il_page_new();
	if (!page)
		return fail("--report: %s", errno == ENOTSUP ? "built without jansson" :
			    strerror(errno));
	ret = report_add_files(r, page, json, len);
	if (!ret && !(mem = open_memstream(&html, &hlen)))
		ret = fail("--report: %s", strerror(errno));
	if (!ret && il_page_write(page, &opts, mem, &err))
		ret = fail("--report: %s", err.msg);
	if (mem && fclose(mem) && !ret)
		ret = fail("--report: %s", strerror(errno));
	if (!ret)
		ret = report_write(r, json, len, html, hlen);
	for (int i = 0; i < r->nfiles; i++)
		free(json[i]);
	free(html);
	il_page_free(page);
	return ret;
}

/* ---- run -------------------------------------------------------------------------------- */

static int keep_objects(const struct review *r)
{
	if (!r->a->keep)
		return 0;
	if (mkdir(r->a->keep, 0755) && errno != EEXIST)
		return fail("--keep %s: %s", r->a->keep, strerror(errno));
	for (int i = 0; i < r->nfiles; i++) {
		const struct review_file *f = &r->files[i];
		char b[512], p[512];

		obj_name(r, f, false, b, sizeof(b));
		obj_name(r, f, true, p, sizeof(p));
		if (rename(f->base_so, b) || rename(f->patched_so, p))
			return fail("--keep %s: %s", r->a->keep, strerror(errno));
	}
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

/* Our own mkdtemp() directory: the governor copy and the objects. */
static void cleanup(struct review *r)
{
	if (r->tmp[0] && nftw(r->tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS))
		fprintf(stderr, "idlelab review: could not remove %s: %s\n", r->tmp,
			strerror(errno));
}

static int exit_status(const struct review *r)
{
	for (int i = 0; r->a->fail_on && i < r->nfiles; i++) {
		struct il_verdict_count k;

		il_verdict_counts(&r->files[i].rv.v, 1, &k);
		if (k.worse || (!strcmp(r->a->fail_on, "any") && k.better))
			return 3;
	}
	return CLI_EXIT_OK;
}

/* Unknown built-in platforms and scenarios are usage errors, found before anything is built. */
static int check_names(const struct review *r)
{
	for (int t = 0; t < r->a->ntrace; t++)
		if (access(r->a->traces[t], R_OK))
			return fail("--trace %s: %s", r->a->traces[t], strerror(errno));
	for (int p = 0; p < r->a->nplat; p++) {
		const char *name = r->a->platforms[p];

		if (!il_platform_is_path(name) && !il_platform_builtin_text(name)) {
			fprintf(stderr,
				"idlelab review: %s: no such built-in platform (see 'idlelab "
				"platforms')\n", name);
			return CLI_EXIT_USAGE;
		}
	}
	for (int s = 0; s < r->nscn; s++) {
		const struct il_scenario *scn;
		struct il_scn_args args;
		struct il_scn_common common;
		struct il_error err = { 0 };

		if (il_scn_parse(r->scenarios[s], &scn, &args, &common, &err)) {
			char msg[2 * IL_ERROR_LEN];

			snprintf(msg, sizeof(msg), "-s %.200s: %s", r->scenarios[s], err.msg);
			return cli_usage_error("review", msg);
		}
	}
	return 0;
}

/* The shipped traces (unless --no-shipped-traces), then the --trace ones. */
static int gather_traces(struct review *r)
{
	struct il_error err = { 0 };

	if (!r->a->no_shipped &&
	    il_review_shipped_traces(r->shipped, IL_REVIEW_MAX_SHIPPED, &r->nshipped,
				     r->shipped_dir, sizeof(r->shipped_dir), &err))
		return fail("%s (--no-shipped-traces replays only the --trace ones)", err.msg);
	for (int i = 0; i < r->nshipped; i++) {
		struct review_trace *t = &r->traces[r->ntraces++];

		/* (not snprintf: both strings are in *r, which -Wrestrict cannot tell apart) */
		size_t n = strlen(r->shipped[i].name);

		memcpy(r->shipped_labels[i], r->shipped[i].name, n);
		memcpy(r->shipped_labels[i] + n, " (shipped)", sizeof(" (shipped)"));
		*t = (struct review_trace){ .path = r->shipped[i].path, .name = r->shipped[i].name,
					    .label = r->shipped_labels[i],
					    .platform = r->shipped[i].platform, .shipped = true };
	}
	for (int i = 0; i < r->a->ntrace; i++)
		r->traces[r->ntraces++] = (struct review_trace){
			.path = r->a->traces[i], .name = r->a->traces[i], .label = r->a->traces[i],
			.platform = r->a->trace_platform };
	return 0;
}

static int review_run(void *state)
{
	struct review *r = calloc(1, sizeof(*r));
	double t0 = now();
	int ret;

	if (!r)
		return fail("out of memory");
	r->a = state;
	if (cli_check_output("review", r->a->out, false) ||
	    cli_check_output("review --report", r->a->report, true) ||
	    cli_check_output("review --keep", r->a->keep, true)) {
		free(r);
		return CLI_EXIT_RUNTIME;
	}
	snprintf(r->tmp, sizeof(r->tmp), "/tmp/idlelab-review-XXXXXX");
	if (!mkdtemp(r->tmp)) {
		ret = fail("%s: %s", r->tmp, strerror(errno));
		r->tmp[0] = '\0';
		goto out;
	}
	gather_scenarios(r);
	ret = check_names(r);
	if (!ret)
		ret = gather_traces(r);
	if (!ret)
		ret = r->a->npos == 2 ? from_files(r) : from_patch(r);
	for (int i = 0; !ret && i < r->nfiles; i++)
		ret = review_one(r, &r->files[i]);
	r->t_total = now() - t0;
	if (!ret)
		ret = keep_objects(r);
	if (!ret)
		ret = write_report(r);
	if (!ret && cli_write_formatted("review", r->a->out, r->a->json ? format_json : format_text,
					r))
		ret = CLI_EXIT_RUNTIME;
	if (!ret)
		ret = exit_status(r);
out:
	for (int i = 0; i < r->nfiles; i++) {
		il_kgov_diff_result_free(&r->files[i].random);
		if (r->files[i].have_verdict)
			il_review_verdict_free(&r->files[i].rv);
	}
	il_review_patch_free(&r->patch);
	cleanup(r);
	free(r);
	return ret;
}

void cmd_review_usage(FILE *out)
{
	fprintf(out,
		"usage: idlelab review PATCH [--tree DIR] [options]\n"
		"       idlelab review ORIG.c PATCHED.c [--as PRESET] [options]\n"
		"\n"
		"From a cpuidle governor patch to what a linux-pm reply needs: PATCH (a unified\n"
		"diff or one git format-patch / mbox message) is applied in a temporary copy of\n"
		"the tree's drivers/cpuidle/governors/; every governor file it touches is built\n"
		"unmodified and patched with kgov and both run under one framework (the preset of\n"
		"the base file's blob, else of the tree's top Makefile version, else --as). For\n"
		"each: the decisions that differ (random inputs, and the idle periods of every\n"
		"platform x scenario) grouped by features of the period; the verdict; for each\n"
		"called cell the shift in state usage, aboves, belows and tick stops; the real\n"
		"traces (those shipped with idlelab, then every --trace) replayed through both\n"
		"sides; provenance. Each part is printed with the command line that reruns it.\n"
		"See docs/review.md.\n"
		"\n"
		"      --tree DIR        the kernel tree PATCH applies to (default: .); its top\n"
		"                        Makefile and the governor files are enough\n"
		"      --as PRESET       the framework when neither the blob nor the tree decides\n"
		"  -p, --platform LIST   platforms of the verdict, or all (default all)\n"
		"  -s, --scenario S      NAME[:k=v,...], repeatable (default: --battery)\n"
		"      --battery         the battery's scenario variants (idlelab battery --list)\n"
		"  -n, --iter N          seeds per side (default %d)\n"
		"      --seed N          the first seed (default 1)\n"
		"      --ensemble N      model variants per seed of the verdict (default %d;\n"
		"                        0: the nominal model only, quicker, and says so)\n"
		"  -t, --time T          simulated time per verdict run (default 2s); the\n"
		"                        decision impact runs last min(T, 500ms)\n"
		"      --steps N         random decisions of the decision impact (default %llu)\n"
		"      --fail-on C       exit 3 when a cell is worse (worse) or called (any)\n"
		"  -f, --format F        text (default, 80 columns) or json (everything)\n"
		"  -o, --output FILE     write to FILE (complete or not at all) instead of stdout\n"
		"      --keep DIR        keep the built objects there (base.so, patched.so) for\n"
		"                        the rerun commands\n"
		"      --trace FILE      replay a recorded trace through both sides (open loop):\n"
		"                        same picks, energy, misses, gap to the bound; repeatable\n"
		"      --trace-platform P  the state table of traces without one in their header\n"
		"      --no-shipped-traces  replay only the --trace ones, not the real traces\n"
		"                        installed with idlelab (replayed by default)\n"
		"      --report DIR      write DIR/index.html (idlelab report of DIR/review.json:\n"
		"                        the verdict's heat maps, the mechanism, the traces)\n"
		"  -j, --jobs N          threads (default: the online CPUs)\n"
		"      --progress        show progress on stderr even when it is not a terminal\n"
		"      --no-progress     never (default: only on a terminal)\n"
		"\n"
		"Exit status: 0, 1 bad input or failure (a patch that does not apply, no governor\n"
		"file, no framework), 2 usage, 3 --fail-on matched.\n",
		IL_VERDICT_DEFAULT_ITER, IL_VERDICT_DEFAULT_ENSEMBLE,
		(unsigned long long)REVIEW_DEFAULT_STEPS);
}

int cmd_review(int argc, char **argv)
{
	static const struct cli_lifecycle lc = {
		.name = "review", .size = sizeof(struct review_args), .parse = review_parse,
		.usage = cmd_review_usage, .run = review_run,
	};

	return cli_main(&lc, argc, argv);
}
