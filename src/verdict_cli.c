// SPDX-License-Identifier: GPL-2.0-only
/*
 * verdict_cli.c - what `idlelab verdict` does (src/cmd_verdict.c holds its help text):
 * every (platform, scenario) for a baseline and one or more other governors on N seeds, each
 * (platform, scenario, metric) cell called better, worse or same (lib/verdict/); or the same
 * grid as one command line per run (--emit-jobs), whose case files `idlelab merge` turns into
 * the same bytes.
 *
 * Case k is run k of the grid in il_verdict_index() order (platform, scenario, governor,
 * seed, the last varying fastest). A case's command is this command's own options
 * (verdict_canon(), without -j, -o and --emit-jobs) plus --case k, so it is self-contained,
 * and its file carries those options, so merge needs nothing else.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli_opts.h"
#include "git_version.h"
#include "progress.h"
#include "verdict_cli.h"
#include "gov/governors.h"
#include "kgov/kgov.h"
#include "output/output.h"
#include "platform/platform.h"
#include "lab/battery.h"
#include "util/atomic.h"
#include "verdict/verdict.h"

#define VERDICT_MAX_PLATFORMS 32
#define VERDICT_MAX_SCENARIOS CLI_MAX_SCENARIOS
#define VERDICT_DEFAULT_ITER IL_VERDICT_DEFAULT_ITER
#define VERDICT_DEFAULT_TIME_NS IL_VERDICT_TIME_NS
#define VERDICT_EXIT_FAIL 3
#define VERDICT_CANON_LEN 8192

struct verdict_args {
	CLI_GOV_PLAT;
	bool all_platforms;
	int nspec;
	const char *specs[VERDICT_MAX_SCENARIOS]; /* -s, in order */
	bool battery;
	CLI_RUN_OPTS;
	const char *alpha_s, *min_effect_s;
	double alpha, min_effect;
	const char *fail_on; /* NULL, "worse" or "any" */
	bool unpaired;
	const char *baseline;
	const char *metric_s;
	const char *output;
	const char *emit;
	bool has_case;
	uint64_t case_index;
	const char *ensemble_s;
};

enum {
	VD_OPT_BATTERY = 1, VD_OPT_ALPHA, VD_OPT_MIN_EFFECT, VD_OPT_FAIL_ON, VD_OPT_UNPAIRED,
	VD_OPT_BASELINE, VD_OPT_METRIC, VD_OPT_EMIT, VD_OPT_CASE,
};

static const struct cli_opt verdict_opts[] = {
	CLI_OPTS_HELP, CLI_OPTS_GOV, CLI_OPTS_PLAT, CLI_OPTS_SCN,
	{ VD_OPT_BATTERY, 0, "battery", false },
	CLI_OPTS_ITER, CLI_OPTS_SEED, CLI_OPTS_TIME,
	{ VD_OPT_ALPHA, 0, "alpha", true },
	{ VD_OPT_MIN_EFFECT, 0, "min-effect", true },
	{ VD_OPT_FAIL_ON, 0, "fail-on", true },
	{ VD_OPT_UNPAIRED, 0, "unpaired", false },
	{ VD_OPT_BASELINE, 0, "baseline", true },
	{ VD_OPT_METRIC, 'm', "metric", true },
	CLI_OPTS_JOBS, CLI_OPTS_FORMAT, CLI_OPTS_OUT,
	{ VD_OPT_EMIT, 0, "emit-jobs", true },
	{ VD_OPT_CASE, 0, "case", true },
	CLI_OPTS_ENSEMBLE, CLI_OPTS_PROGRESS,
	{ 0 },
};

/* ---- options -------------------------------------------------------------------------------- */

static int parse_prob(const char *s, double lo, double hi, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return !*s || *end || errno || !(*v > lo && *v <= hi) ? -1 : 0;
}

static int set_platforms(struct verdict_args *a, const char *value, struct cli_error *err)
{
	a->all_platforms = !strcmp(value, "all");
	if (a->all_platforms)
		return cli_builtin_platforms(a->platforms, VERDICT_MAX_PLATFORMS, &a->nplat, err);
	return cli_gov_plat_option(&a->gp, CLI_OPT_PLAT, value, VERDICT_MAX_PLATFORMS, err);
}

static int verdict_option_run(struct verdict_args *a, int id, const char *value,
			      struct cli_error *err)
{
	switch (id) {
	case CLI_OPT_ENSEMBLE:
		a->ensemble_s = value;
		break;
	case VD_OPT_CASE:
		if (cli_parse_count(value, UINT64_MAX / 2, &a->case_index))
			return cli_error_set(err, "--case: '%s' is not a case number", value);
		a->has_case = true;
		return CLI_PARSE_OK;
	}
	return cli_run_option(&a->run, id, value, err);
}

static int verdict_option(void *state, int id, const char *value, struct cli_error *err)
{
	struct verdict_args *a = state;

	switch (id) {
	case CLI_OPT_GOV:
		if (a->ngov)
			return cli_error_set(err, "-g given twice: give every governor in one "
						  "list");
		return cli_gov_plat_option(&a->gp, id, value, VERDICT_MAX_PLATFORMS, err);
	case CLI_OPT_PLAT:
		if (a->nplat)
			return cli_error_set(err, "-p given twice: give every platform in one "
						  "list");
		return set_platforms(a, value, err);
	case CLI_OPT_SCN:
		if (a->nspec == VERDICT_MAX_SCENARIOS)
			return cli_error_set(err, "more than %d scenarios", VERDICT_MAX_SCENARIOS);
		a->specs[a->nspec++] = value;
		return CLI_PARSE_OK;
	case VD_OPT_BATTERY:
		a->battery = true;
		return CLI_PARSE_OK;
	case VD_OPT_ALPHA:
		if (parse_prob(value, 0.0, 1.0, &a->alpha) || a->alpha >= 1.0)
			return cli_error_set(err, "--alpha: '%s' is not a probability in (0, 1)",
					     value);
		a->alpha_s = value;
		return CLI_PARSE_OK;
	case VD_OPT_MIN_EFFECT:
		if (parse_prob(value, -1.0, 1e6, &a->min_effect) || a->min_effect < 0)
			return cli_error_set(err, "--min-effect: '%s' is not a percentage >= 0",
					     value);
		a->min_effect_s = value;
		return CLI_PARSE_OK;
	case VD_OPT_FAIL_ON:
		if (strcmp(value, "worse") && strcmp(value, "any"))
			return cli_error_set(err, "--fail-on: '%s' is not worse or any", value);
		a->fail_on = value;
		return CLI_PARSE_OK;
	case VD_OPT_UNPAIRED:
		a->unpaired = true;
		return CLI_PARSE_OK;
	case VD_OPT_BASELINE:
		a->baseline = value;
		return CLI_PARSE_OK;
	case VD_OPT_METRIC:
		if (a->metric_s)
			return cli_error_set(err, "-m given twice: give every metric in one list");
		a->metric_s = value;
		return CLI_PARSE_OK;
	case CLI_OPT_OUT:
		a->output = value;
		return CLI_PARSE_OK;
	case VD_OPT_EMIT:
		a->emit = value;
		return CLI_PARSE_OK;
	}
	return verdict_option_run(a, id, value, err);
}

static int verdict_check(const struct verdict_args *a, struct cli_error *err)
{
	if (a->ngov < 2)
		return cli_error_set(err, "-g needs a baseline and at least one other governor "
					  "(BASE,NEW)");
	if (!a->nspec && !a->battery)
		return cli_error_set(err, "no scenario given (-s SCENARIO or --battery)");
	if (a->emit && a->has_case)
		return cli_error_set(err, "--emit-jobs and --case exclude each other");
	if (a->has_case && !a->output)
		return cli_error_set(err, "--case needs -o FILE for the case file");
	if (a->emit && a->output)
		return cli_error_set(err, "--emit-jobs writes no verdict: give -o to merge "
					  "instead");
	return CLI_PARSE_OK;
}

static int verdict_parse_args(int argc, char **argv, struct verdict_args *a, struct cli_error *err)
{
	int ret;

	memset(a, 0, sizeof(*a));
	a->iter = VERDICT_DEFAULT_ITER;
	a->seed = 1;
	a->time_ns = VERDICT_DEFAULT_TIME_NS;
	a->alpha = IL_VERDICT_DEFAULT_ALPHA;
	a->min_effect = IL_VERDICT_DEFAULT_MIN_EFFECT;
	a->format = "table";
	a->ensemble = IL_VERDICT_DEFAULT_ENSEMBLE;
	ret = cli_parse_options(argc, argv, verdict_opts, CLI_OPT_HELP, verdict_option, a, err);
	if (ret != CLI_PARSE_OK)
		return ret;
	if (!a->nplat && set_platforms(a, "all", err))
		return CLI_PARSE_ERROR;
	return verdict_check(a, err);
}

/* ---- the grid -------------------------------------------------------------------------------- */

struct verdict_ctx {
	struct verdict_args a;
	char *argv_buf;                 /* the words a merge parsed its options from */
	char **argv;
	struct il_platform plat[VERDICT_MAX_PLATFORMS];
	const char *plat_names[VERDICT_MAX_PLATFORMS];
	const struct il_preset *presets[CLI_MAX_GOVERNORS];
	int base;
	int nscn;
	const char *specs[VERDICT_MAX_SCENARIOS];
	const struct il_scenario *scn[VERDICT_MAX_SCENARIOS];
	struct il_scn_args args[VERDICT_MAX_SCENARIOS];
	struct il_scn_common common[VERDICT_MAX_SCENARIOS];
	unsigned int metrics;
	struct il_verdict v;
	struct il_verdict_plan plan;
	char canon[VERDICT_CANON_LEN];  /* the options as shell words (case files, --emit-jobs) */
	bool *have;                     /* merge: which cases have come in */
};

static int fail(const char *fmt, const char *a, const char *b)
{
	fputs("idlelab verdict: ", stderr);
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	return CLI_EXIT_RUNTIME;
}

/* A bad value on the command line (an unknown name): a usage error, exit 2, as in every command. */
static int usage(const char *fmt, const char *a, const char *b)
{
	char msg[4 * CLI_ERROR_LEN];

	snprintf(msg, sizeof(msg), fmt, a, b);
	return cli_usage_error("verdict", msg);
}

/* A `file:OBJ.so[@PRESET]` governor, loaded here so that a failure shows why. */
static int load_file_preset(const char *name, const struct il_preset **out)
{
	struct il_kgov_load_opts opts = { 0 };
	char path[4096];
	const char *spec = name + 5, *at = strrchr(spec, '@');
	struct il_error err;

	snprintf(path, sizeof(path), "%.*s", at ? (int)(at - spec) : (int)strlen(spec), spec);
	if (at) {
		opts.like = il_preset_find(at + 1);
		if (!opts.like || il_kgov_is_loaded(opts.like))
			return fail("governor '%s': unknown preset '%s' after '@' (see 'idlelab "
				    "governors')", name,
				    at + 1); /* part of the file: spec, 1 as in run */
	}
	*out = il_kgov_load(path, &opts, &err);
	if (!*out)
		return fail("governor '%s': %s", name, err.msg);
	return CLI_EXIT_OK;
}

static int resolve_governors(struct verdict_ctx *c)
{
	const struct verdict_args *a = &c->a;

	for (int g = 0; g < a->ngov; g++) {
		const char *name = a->governors[g];

		int ret;

		if (!strncmp(name, "file:", 5)) {
			ret = load_file_preset(name, &c->presets[g]);
			if (ret)
				return ret;
			continue;
		}
		c->presets[g] = il_preset_find(name);
		if (!c->presets[g])
			return usage("unknown governor '%s'%s", name, " (see 'idlelab governors')");
	}
	c->base = 0;
	if (a->baseline) {
		c->base = -1;
		for (int g = 0; g < a->ngov && c->base < 0; g++)
			if (!strcmp(a->governors[g], a->baseline))
				c->base = g;
		if (c->base < 0) {
			char msg[CLI_ERROR_LEN];

			snprintf(msg, sizeof(msg), "--baseline '%.200s' is not one of the -g "
						   "governors", a->baseline);
			return cli_usage_error("verdict", msg);
		}
	}
	return CLI_EXIT_OK;
}

/* The names -m takes, comma-separated: the verdict's metrics (lib/metrics' catalogue). */
static const char *metric_names(char *buf, size_t cap)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int m = 0; m < IL_VM_COUNT && used < cap; m++)
		used += (size_t)snprintf(buf + used, cap - used, "%s%s", m ? ", " : "",
					 il_vmetric_key(m));
	return buf;
}

static int resolve_metrics(struct verdict_ctx *c)
{
	char buf[256], names[256], *save = NULL;

	if (!c->a.metric_s) {
		c->metrics = IL_VM_ALL;
		return CLI_EXIT_OK;
	}
	snprintf(buf, sizeof(buf), "%s", c->a.metric_s);
	c->metrics = 0;
	for (char *s = strtok_r(buf, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		int m = il_vmetric_find(s);

		if (m < 0)
			return usage("unknown metric '%s' (%s)", s,
				     metric_names(names, sizeof(names)));
		c->metrics |= 1u << m;
	}
	if (!c->metrics)
		return usage("-m '%s': no metric%s", c->a.metric_s, "");
	return CLI_EXIT_OK;
}

static int resolve_scenarios(struct verdict_ctx *c)
{
	const struct verdict_args *a = &c->a;
	struct il_error perr;

	c->nscn = 0;
	for (int i = 0; a->battery && i < il_battery_count(); i++)
		c->specs[c->nscn++] = il_battery_at(i)->spec;
	for (int i = 0; i < a->nspec; i++) {
		if (c->nscn == VERDICT_MAX_SCENARIOS)
			return cli_usage_error("verdict", "too many scenarios");
		c->specs[c->nscn++] = a->specs[i];
	}
	for (int s = 0; s < c->nscn; s++) {
		if (il_scn_parse(c->specs[s], &c->scn[s], &c->args[s], &c->common[s], &perr)) {
			char msg[2 * CLI_ERROR_LEN];

			snprintf(msg, sizeof(msg), "-s %.200s: %s", c->specs[s], perr.msg);
			if (cli_scn_file_error(c->scn[s], &c->args[s], &perr))
				return fail("%s%s", msg, ""); /* the file -s names is bad input */
			return cli_usage_error("verdict", msg);
		}
	}
	return CLI_EXIT_OK;
}

static int resolve_platforms(struct verdict_ctx *c)
{
	struct il_error perr;

	for (int p = 0; p < c->a.nplat; p++) {
		if (il_platform_load(c->a.platforms[p], &c->plat[p], &perr)) {
			if (il_platform_is_path(c->a.platforms[p]))
				return fail("platform '%s': %s", c->a.platforms[p], perr.msg);
			return usage("platform '%s': %s", c->a.platforms[p], perr.msg);
		}
		c->plat_names[p] = c->plat[p].name;
	}
	return cli_unique_platforms(c->plat, c->a.platforms, c->a.nplat, "verdict");
}

/* Append @s to @dst (of @cap bytes, *@len used) as one shell word: as is when plain, else
 * quoted. */
static void shell_word(char *dst, size_t cap, size_t *len, const char *s)
{
	static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				    "0123456789_./:=,@+%-";

	if (*len && *len < cap)
		dst[(*len)++] = ' ';
	if (*s && strspn(s, plain) == strlen(s)) {
		*len += (size_t)snprintf(dst + *len, *len < cap ? cap - *len : 0, "%s", s);
		return;
	}
	*len += (size_t)snprintf(dst + *len, *len < cap ? cap - *len : 0, "'");
	for (; *s; s++) {
		if (*s == '\'')
			*len += (size_t)snprintf(dst + *len, *len < cap ? cap - *len : 0, "'\\''");
		else
			*len += (size_t)snprintf(dst + *len, *len < cap ? cap - *len : 0, "%c", *s);
	}
	*len += (size_t)snprintf(dst + *len, *len < cap ? cap - *len : 0, "'");
}

static void canon_word(struct verdict_ctx *c, size_t *len, const char *s)
{
	shell_word(c->canon, sizeof(c->canon), len, s);
}

static void canon_list(struct verdict_ctx *c, size_t *len, const char *opt,
		       const char *const *items, int n)
{
	char buf[4096];
	size_t l = 0;

	for (int i = 0; i < n; i++)
		l += (size_t)snprintf(buf + l, l < sizeof(buf) ? sizeof(buf) - l : 0, "%s%s",
				      i ? "," : "", items[i]);
	canon_word(c, len, opt);
	canon_word(c, len, buf);
}

/* The options that make the verdict what it is, as shell words (no -j, -o, --emit-jobs). */
static int verdict_canon(struct verdict_ctx *c)
{
	const struct verdict_args *a = &c->a;
	size_t len = 0;
	char buf[64];

	canon_list(c, &len, "-g", a->governors, a->ngov);
	if (a->baseline) {
		canon_word(c, &len, "--baseline");
		canon_word(c, &len, a->baseline);
	}
	if (a->all_platforms) {
		canon_word(c, &len, "-p");
		canon_word(c, &len, "all");
	} else {
		canon_list(c, &len, "-p", a->platforms, a->nplat);
	}
	if (a->battery)
		canon_word(c, &len, "--battery");
	for (int s = 0; s < a->nspec; s++) {
		canon_word(c, &len, "-s");
		canon_word(c, &len, a->specs[s]);
	}
	snprintf(buf, sizeof(buf), "%d", a->iter);
	canon_word(c, &len, "--iter");
	canon_word(c, &len, buf);
	snprintf(buf, sizeof(buf), "%" PRIu64, a->seed);
	canon_word(c, &len, "--seed");
	canon_word(c, &len, buf);
	snprintf(buf, sizeof(buf), "%" PRIu64 "ns", a->time_ns);
	canon_word(c, &len, "--time");
	canon_word(c, &len, buf);
	if (a->alpha_s) {
		canon_word(c, &len, "--alpha");
		canon_word(c, &len, a->alpha_s);
	}
	if (a->min_effect_s) {
		canon_word(c, &len, "--min-effect");
		canon_word(c, &len, a->min_effect_s);
	}
	if (a->fail_on) {
		canon_word(c, &len, "--fail-on");
		canon_word(c, &len, a->fail_on);
	}
	if (a->unpaired)
		canon_word(c, &len, "--unpaired");
	if (a->ensemble_s) {
		snprintf(buf, sizeof(buf), "%d", a->ensemble);
		canon_word(c, &len, "--ensemble");
		canon_word(c, &len, buf);
	}
	if (a->metric_s) {
		canon_word(c, &len, "-m");
		canon_word(c, &len, a->metric_s);
	}
	canon_word(c, &len, "-f");
	canon_word(c, &len, a->format);
	if (len >= sizeof(c->canon))
		return cli_usage_error("verdict", "the options are too long for a case file");
	return CLI_EXIT_OK;
}

static int verdict_resolve(struct verdict_ctx *c)
{
	const struct verdict_args *a = &c->a;
	struct il_error perr;
	int ret;

	if ((ret = resolve_governors(c)) || (ret = resolve_metrics(c)) ||
	    (ret = resolve_scenarios(c)) ||
	    (ret = resolve_platforms(c)) || (ret = verdict_canon(c)))
		return ret;
	if (!il_output_find(a->format)->available)
		return fail("format %s: %s", a->format, il_output_find(a->format)->missing);
	if (il_verdict_init(&c->v, a->nplat, c->nscn, a->ngov, c->base, a->iter))
		return fail("%s%s", strerror(errno), "");
	c->v.words = &cli_verdict_words;
	c->v.gov = a->governors;
	c->v.plat = c->plat_names;
	c->v.spec = c->specs;
	c->v.scn = c->scn;
	c->v.args = c->args;
	c->v.common = c->common;
	c->plan = (struct il_verdict_plan){
		.plat = c->plat, .preset = c->presets, .common = c->common,
			.duration_ns = a->time_ns,
		.seed = a->seed, .paired = !a->unpaired, .threads = a->jobs,
	};
	il_verdict_mark_na(&c->v, &c->plan);
	if (il_verdict_ensemble_init(&c->v, c->plat, a->ensemble, a->seed, &perr))
		return errno == ENOMEM ? fail("%s%s", strerror(errno), "") :
					 fail("%s%s", perr.msg, "");
	return CLI_EXIT_OK;
}

static size_t total_cases(const struct verdict_ctx *c)
{
	return il_verdict_cases(&c->v);
}

static struct il_verdict_pos case_at(const struct verdict_ctx *c, size_t k)
{
	return il_verdict_pos_of(&c->v, k);
}

static bool case_is_na(const struct verdict_ctx *c, size_t k)
{
	return il_verdict_case_na(&c->v, k);
}

/* ---- output ---------------------------------------------------------------------------------- */

/* The verdict's settings as lib/verdict/table.c reports them. */
static void settings_of(const struct verdict_ctx *c, struct il_verdict_settings *st)
{
	*st = (struct il_verdict_settings){
		.first_seed = c->a.seed, .unpaired = c->a.unpaired, .time_ns = c->a.time_ns,
		.alpha = c->a.alpha, .min_effect_pct = c->a.min_effect,
	};
}

/*
 * What a reply must cite (issue 24): which idlelab ran, and for every governor the framework
 * rules it ran under and, for a file: governor, the git blob of the kernel file it was built
 * from. Rows appended to the settings table.
 */
static int provenance_rows(const struct verdict_ctx *c, struct il_table *t)
{
	char buf[512];
	int ret;

	snprintf(buf, sizeof(buf), "%s (git %s)", IDLELAB_VERSION, cli_git_describe());
	ret = il_table_kv_str(t, "idlelab", buf);
	for (int g = 0; g < c->v.ngov && !ret; g++) {
		const struct il_preset *p = c->presets[g];
		const struct il_preset *like = il_kgov_like(p);

		snprintf(buf, sizeof(buf), "%s: %s (core %s, %s)", c->v.gov[g],
			 like ? like->name : "its own", p->core ? p->core->name : "-",
			 p->kernel ? p->kernel : "-");
		ret = il_table_kv_str(t, "framework", buf);
		if (!ret && il_kgov_blob(p)) {
			snprintf(buf, sizeof(buf), "%s: %s", c->v.gov[g], il_kgov_blob(p));
			ret = il_table_kv_str(t, "blob", buf);
		}
	}
	return ret;
}

/* Count table @t[*@n] (built with result @built) in, so that it is freed whatever happened. */
static int add_table(const struct il_table **ptrs, struct il_table *t, int *n, int built)
{
	ptrs[*n] = &t[*n];
	(*n)++;
	return built;
}

static int write_verdict(const struct verdict_ctx *c, FILE *f)
{
	const struct il_output_format *fmt = il_output_find(c->a.format);
	bool text = !strcmp(fmt->name, "table"), json = !strcmp(fmt->name, "json");
	struct il_table t[3] = { 0 };
	const struct il_table *ptrs[3];
	struct il_verdict_settings st;
	char line[2048];
	int n = 0, ret = -1;

	/* json: the settings, the cells and the summary; the other formats: the cells alone */
	settings_of(c, &st);
	if (json && add_table(ptrs, t, &n, il_verdict_settings_table(&c->v, &st, &t[n]) ||
						 provenance_rows(c, &t[n])))
		goto out;
	if (add_table(ptrs, t, &n, il_verdict_table(&c->v, text, &t[n])))
		goto out;
	if (json && add_table(ptrs, t, &n, il_verdict_summary_table(&c->v, &t[n])))
		goto out;
	ret = fmt->write(f, ptrs, n);
	/* table: a blank line, then the summary lines under the table */
	if (text && !ret)
		fputc('\n', f);
	for (int g = 0; text && !ret && g < c->v.ngov; g++)
		if (g != c->v.base)
			fprintf(f, "%s\n", il_verdict_summary(&c->v, g, line, sizeof(line)));
out:
	for (int i = 0; i < n; i++)
		il_table_free(&t[i]);
	return ret || ferror(f) ? -1 : 0;
}

/* Write @path whole or not at all (lib/util/atomic.h: through a link to its target). */
static int write_file(const char *path, int (*write)(const struct verdict_ctx *, FILE *),
		      const struct verdict_ctx *c)
{
	char why[CLI_WHY_LEN];
	struct il_atomic out;

	if (il_atomic_open(&out, path))
		return fail("%s: %s", path, il_atomic_strerror(path, errno, why, sizeof(why)));
	if (write(c, out.f)) {
		il_atomic_abort(&out);
		return fail("writing %s: %s", path, strerror(errno));
	}
	if (il_atomic_commit(&out))
		return fail("writing %s: %s", path, strerror(errno));
	return CLI_EXIT_OK;
}

static void summary_to_stderr(const struct verdict_ctx *c)
{
	char line[2048];

	for (int g = 0; g < c->v.ngov; g++)
		if (g != c->v.base)
			fprintf(stderr, "idlelab verdict: %s\n", il_verdict_summary(&c->v, g, line,
				sizeof(line)));
}

static struct il_verdict_opts judge_opts(const struct verdict_ctx *c)
{
	return (struct il_verdict_opts){
		.alpha = c->a.alpha, .min_effect_pct = c->a.min_effect, .paired = !c->a.unpaired,
		.metrics = c->metrics, .perm_seed = c->a.seed,
	};
}

/* What the ensemble could not vary: said on stderr, the cells of those pairs are nominal. */
static void ensemble_notes(const struct verdict_ctx *c)
{
	const struct il_verdict *v = &c->v;

	if (!c->a.ensemble) {
		fprintf(stderr, "idlelab verdict: --ensemble 0: the nominal model only; no cell is "
				"checked against the ranges of the model's numbers\n");
		return;
	}
	for (int p = 0; p < v->nplat; p++)
		for (int s = 0; s < v->nscn; s++)
			if (!v->na[p * v->nscn + s][0] && il_verdict_nvar(v, p, s) == 1)
				fprintf(stderr, "idlelab verdict: --ensemble: %s with %s declares "
						"no "
						"uncertain parameter: its cells run the nominal "
						"model\n",
					v->plat[p], v->spec[s]);
}

/* Judge the filled grid, write it, and tell the exit status. */
static int verdict_finish(struct verdict_ctx *c, const char *out)
{
	struct il_verdict_opts o = judge_opts(c);
	bool text = !strcmp(c->a.format, "table");
	int ret;

	if (il_verdict_judge(&c->v, &o))
		return fail("%s%s", strerror(errno), "");
	ensemble_notes(c);
	if (!c->v.judged)
		fprintf(stderr, "idlelab verdict: --iter %d: one run per governor has no spread to "
				"measure a "
				"difference against; the means are printed, no verdict is "
				"claimed\n", c->v.n);
	else if (c->v.perm.used && 2.0 / (double)c->v.perm.used > c->a.alpha)
		fprintf(stderr, "idlelab verdict: --iter %d: %" PRIu64 " relabellings, so no "
			"p-value can be below "
				"%.3f > --alpha %g: no cell can be called better or worse (use "
				"--iter 5)\n",
			c->v.n, (uint64_t)c->v.perm.used, 2.0 / (double)c->v.perm.used, c->a.alpha);
	if (out) {
		ret = write_file(out, write_verdict, c);
	} else {
		ret = write_verdict(c, stdout) || fflush(stdout) ? fail("writing the output: %s%s",
			strerror(errno), "")
								 : CLI_EXIT_OK;
	}
	if (ret)
		return ret;
	if (!text)
		summary_to_stderr(c);
	for (int g = 0; c->a.fail_on && g < c->v.ngov; g++) {
		struct il_verdict_count k;

		if (g == c->v.base)
			continue;
		il_verdict_counts(&c->v, g, &k);
		if (k.worse || (!strcmp(c->a.fail_on, "any") && k.better))
			return VERDICT_EXIT_FAIL;
	}
	return CLI_EXIT_OK;
}

static int run_failed(const struct verdict_ctx *c, size_t k)
{
	struct il_verdict_pos pos = case_at(c, k);
	char what[512];

	snprintf(what, sizeof(what), "%s on %s, %s, seed %" PRIu64, c->v.gov[pos.g],
		 c->v.plat[pos.p],
		 c->v.spec[pos.s], il_verdict_seed(&c->plan, &c->v, pos.g, pos.it));
	return fail("%s: %s", what, strerror(errno));
}

static int verdict_local(struct verdict_ctx *c)
{
	struct il_verdict_opts o = judge_opts(c);
	size_t failed = 0, runs;
	double t0 = cli_wall_seconds();

	if (!c->plan.threads)
		c->plan.threads = cli_default_jobs();
	struct progress prog;
	int ret;

	runs = 0;
	for (size_t k = 0; k < total_cases(c); k++) {
		struct il_verdict_pos pos = case_at(c, k);

		runs += pos.var == 0 && !case_is_na(c, k);
	}
	progress_begin(&prog, c->a.progress, "idlelab verdict", PROGRESS_COUNT, "runs", runs);
	c->plan.progress = progress_lab_cb;
	c->plan.progress_ctx = &prog;
	ret = il_verdict_run(&c->v, &c->plan, &o, &failed);
	progress_end(&prog);
	c->plan.progress = NULL;
	if (ret)
		return run_failed(c, failed);
	runs = c->v.runs_done;
	/* On stderr: the wall time is not part of the (deterministic) results. */
	fprintf(stderr, "idlelab verdict: %zu runs on %u threads in %.1f s\n", runs,
		c->plan.threads,
		cli_wall_seconds() - t0);
	return verdict_finish(c, c->a.output);
}

/* ---- cases: --emit-jobs, --case, merge ------------------------------------------------------- */

static const char *const case_cols[] = { VERDICT_CASE_FIRST_COL, "case", "governor", "platform",
					"scenario",
					 "seed", "variant" };
#define CASE_LABELS 7

static int write_case_file(const struct verdict_ctx *c, FILE *f)
{
	size_t k = c->a.case_index;
	struct il_verdict_pos pos = case_at(c, k);
	const struct il_verdict_run *r = &c->v.runs[k];
	char buf[64];

	for (int i = 0; i < CASE_LABELS; i++) {
		fputs(i ? "," : "", f);
		il_csv_field(f, case_cols[i]);
	}
	for (int i = 0; i < IL_VERDICT_RUN_FIELDS; i++)
		fprintf(f, ",%s", il_verdict_run_field(i));
	fputc('\n', f);
	il_csv_field(f, c->canon);
	fprintf(f, ",%zu,", k);
	il_csv_field(f, c->v.gov[pos.g]);
	fputc(',', f);
	il_csv_field(f, c->v.plat[pos.p]);
	fputc(',', f);
	il_csv_field(f, c->v.spec[pos.s]);
	fprintf(f, ",%" PRIu64 ",%d", il_verdict_seed(&c->plan, &c->v, pos.g, pos.it), pos.var);
	for (int i = 0; i < IL_VERDICT_RUN_FIELDS; i++)
		fprintf(f, ",%s", il_verdict_run_format(r, i, buf, sizeof(buf)));
	fputc('\n', f);
	return ferror(f) ? -1 : 0;
}

static int verdict_case(struct verdict_ctx *c)
{
	size_t k = c->a.case_index;
	struct il_verdict_pos pos;
	struct il_lab_spec spec;
	struct il_lab_result res;
	struct il_platform *plat_buf;
	int ret;

	if (k >= total_cases(c) || case_is_na(c, k)) {
		char msg[128];

		snprintf(msg, sizeof(msg), "--case %zu: not a case of this verdict (%zu cases%s)",
			 k, total_cases(c),
			 k < total_cases(c) ? "; this one is n/a" : "");
		return cli_usage_error("verdict", msg);
	}
	plat_buf = malloc(sizeof(*plat_buf));
	if (!plat_buf)
		return fail("%s%s", strerror(ENOMEM), "");
	pos = case_at(c, k);
	il_verdict_vspec(&c->plan, &c->v, pos.p, pos.s, pos.var, pos.g, pos.it, &spec, plat_buf);
	if (il_lab_run(&spec, &res)) {
		free(plat_buf);
		return run_failed(c, k);
	}
	free(plat_buf);
	il_verdict_run_of(&res, spec.duration_ns, &c->v.runs[k]);
	il_lab_result_free(&res);
	ret = write_file(c->a.output, write_case_file, c);
	return ret;
}

static void dir_of(const char *path, char *buf, size_t cap)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(buf, cap, ".");
	else if (slash == path)
		snprintf(buf, cap, "/");
	else
		snprintf(buf, cap, "%.*s", (int)(slash - path), path);
}

static int write_jobs(const struct verdict_ctx *c, FILE *f)
{
	char dir[4096], out[4200], word[8400];

	dir_of(c->a.emit, dir, sizeof(dir));
	for (size_t k = 0; k < total_cases(c); k++) {
		size_t len = 0;

		if (case_is_na(c, k))
			continue;
		snprintf(out, sizeof(out), "%s/case-%06zu.csv", dir, k);
		shell_word(word, sizeof(word), &len, out);
		fprintf(f, "${IDLELAB:-idlelab} verdict %s --case %zu -o %s\n", c->canon, k, word);
	}
	return ferror(f) ? -1 : 0;
}

static int verdict_emit(struct verdict_ctx *c)
{
	char dir[4096];
	size_t n = 0;
	int ret;

	/* The case files go next to FILE: make its directory, as sweep makes its -o DIR. */
	dir_of(c->a.emit, dir, sizeof(dir));
	if (mkdir(dir, 0777) && errno != EEXIST)
		return fail("%s: %s", dir, strerror(errno));
	ret = write_file(c->a.emit, write_jobs, c);

	for (size_t k = 0; k < total_cases(c); k++)
		n += !case_is_na(c, k);
	if (!ret)
		fprintf(stderr, "idlelab verdict: %zu command lines in %s\n", n, c->a.emit);
	return ret;
}

static void ctx_free(struct verdict_ctx *c)
{
	il_verdict_free(&c->v);
	free(c->argv_buf);
	free(c->argv);
	free(c->have);
}

static int verdict_parse(int argc, char **argv, void *state, struct cli_error *err)
{
	return verdict_parse_args(argc, argv, &((struct verdict_ctx *)state)->a, err);
}

static int verdict_run(void *state)
{
	struct verdict_ctx *c = state;
	int ret = verdict_resolve(c);

	/* The output is checked before the first run (a verdict can take minutes). */
	if (ret == CLI_EXIT_OK && !c->a.emit)
		ret = cli_check_output("verdict", c->a.output, false);
	if (ret == CLI_EXIT_OK)
		ret = c->a.emit ? verdict_emit(c) : c->a.has_case ? verdict_case(c)
							  : verdict_local(c);
	return ret;
}

static void verdict_release(void *state)
{
	ctx_free(state);
}

int verdict_main(int argc, char **argv, void (*usage)(FILE *out))
{
	const struct cli_lifecycle lc = {
		.name = "verdict",
		.size = sizeof(struct verdict_ctx),
		.parse = verdict_parse,
		.usage = usage,
		.run = verdict_run,
		.release = verdict_release,
	};

	return cli_main(&lc, argc, argv);
}

/* ---- merge ----------------------------------------------------------------------------------- */

struct verdict_merge {
	struct verdict_ctx *c;
	size_t got;
};

struct verdict_merge *verdict_merge_new(void)
{
	return calloc(1, sizeof(struct verdict_merge));
}

void verdict_merge_free(struct verdict_merge *m)
{
	if (!m)
		return;
	if (m->c) {
		ctx_free(m->c);
		free(m->c);
	}
	free(m);
}

/* Split the shell words of a case file's options (as canon_word() writes them) into argv. */
static int split_words(struct verdict_ctx *c, const char *s, int *argc)
{
	size_t len = strlen(s);
	char *w;
	int n = 1;

	c->argv_buf = malloc(len + 1);
	c->argv = calloc(len / 2 + 3, sizeof(*c->argv));
	if (!c->argv_buf || !c->argv)
		return -1;
	w = c->argv_buf;
	c->argv[0] = "verdict";
	while (*s) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		c->argv[n++] = w;
		while (*s && *s != ' ') {
			if (*s == '\\' && s[1]) {
				*w++ = s[1];
				s += 2;
			} else if (*s == '\'') {
				for (s++; *s && *s != '\''; s++)
					*w++ = *s;
				if (*s != '\'')
					return -1;
				s++;
			} else {
				*w++ = *s++;
			}
		}
		*w++ = '\0';
	}
	*argc = n;
	return 0;
}

static int merge_setup(struct verdict_merge *m, const char *path, const char *canon)
{
	struct cli_error err;
	int argc, ret;

	m->c = calloc(1, sizeof(*m->c));
	if (!m->c || split_words(m->c, canon, &argc))
		return fail("%s: %s", path, strerror(ENOMEM));
	snprintf(err.msg, sizeof(err.msg), "--emit-jobs, --case or -o among them");
	if (verdict_parse_args(argc, m->c->argv, &m->c->a, &err) != CLI_PARSE_OK || m->c->a.emit ||
	    m->c->a.has_case || m->c->a.output)
		return fail("%s: not the options of a verdict: %s", path, err.msg);
	ret = verdict_resolve(m->c);
	if (ret) /* a case file that names what this binary does not know is bad input */
		return ret == CLI_EXIT_USAGE ? CLI_EXIT_RUNTIME : ret;
	m->c->have = calloc(total_cases(m->c), sizeof(*m->c->have));
	return m->c->have ? CLI_EXIT_OK : fail("%s: %s", path, strerror(ENOMEM));
}

/* The case's coordinates must be those of its index in this verdict. */
static int merge_check_case(const struct verdict_ctx *c, const char *path, size_t k,
			    const char *const *texts)
{
	struct il_verdict_pos pos = case_at(c, k);
	char seed[32], var[32];

	snprintf(seed, sizeof(seed), "%" PRIu64, il_verdict_seed(&c->plan, &c->v, pos.g, pos.it));
	snprintf(var, sizeof(var), "%d", pos.var);
	if (strcmp(texts[2], c->v.gov[pos.g]) || strcmp(texts[3], c->v.plat[pos.p]) ||
	    strcmp(texts[4], c->v.spec[pos.s]) || strcmp(texts[5], seed) || strcmp(texts[6], var))
		return fail("%s: %s", path, "its governor, platform, scenario, seed or model "
					    "variant is not "
			    "that of its case number");
	return CLI_EXIT_OK;
}

int verdict_merge_add(struct verdict_merge *m, const char *path, int n, const char *const *names,
		      const char *const *texts)
{
	struct il_error err;
	uint64_t k;
	int ret;

	if (n < CASE_LABELS + IL_VERDICT_RUN_FIELDS)
		return fail("%s: %s", path, "not a case file of 'idlelab verdict --emit-jobs'");
	for (int i = 0; i < CASE_LABELS; i++)
		if (strcmp(names[i], case_cols[i]))
			return fail("%s: %s", path, "not a case file of 'idlelab verdict "
						    "--emit-jobs'");
	if (!m->c && (ret = merge_setup(m, path, texts[0])))
		return ret;
	if (strcmp(texts[0], m->c->canon))
		return fail("%s: %s", path, "a case of another verdict (its options differ from "
					    "the first file's)");
	if (cli_parse_count(texts[1], UINT64_MAX, &k) || k >= total_cases(m->c) || case_is_na(m->c,
		k))
		return fail("%s: case '%s' is not a case of this verdict", path, texts[1]);
	if (m->c->have[k])
		return fail("%s: case %s given twice", path, texts[1]);
	if ((ret = merge_check_case(m->c, path, k, texts)))
		return ret;
	if (il_verdict_run_parse(n - CASE_LABELS, names + CASE_LABELS, texts + CASE_LABELS,
				 &m->c->v.runs[k], &err))
		return fail("%s: %s", path, err.msg);
	m->c->have[k] = true;
	m->got++;
	return CLI_EXIT_OK;
}

int verdict_merge_finish(struct verdict_merge *m, const char *out)
{
	struct verdict_ctx *c = m->c;

	if (!c)
		return cli_usage_error("merge", "no case file given");
	for (size_t k = 0; k < total_cases(c); k++) {
		if (!c->have[k] && !case_is_na(c, k)) {
			struct il_verdict_pos pos = case_at(c, k);
			char what[512];

			snprintf(what, sizeof(what), "case %zu (%s on %s, %s, seed "
						     "%" PRIu64 "%s%.0d)", k,
				 c->v.gov[pos.g], c->v.plat[pos.p], c->v.spec[pos.s],
				 il_verdict_seed(&c->plan, &c->v, pos.g, pos.it), pos.var ? ", "
				 	"model variant " : "",
				 pos.var);
			return fail("%s is missing%s", what, ": run its command line of "
							     "--emit-jobs");
		}
	}
	return verdict_finish(c, out);
}
