// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_opts.c - option values and name look-ups shared by the commands (cli_opts.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_opts.h"
#include "gov/governors.h"
#include "kgov/kgov.h"
#include "lab/lab.h"
#include "output/output.h"
#include "platform/platform.h"
#include "scenario/scenario.h"
#include "util/parse.h"
#include "verdict/verdict.h"

/* Counts and times go through lib/util/parse.h, the parsers every command shares. */
int cli_parse_count_to(const char *s, const char *end_at, uint64_t max, uint64_t *out)
{
	return il_parse_count_n(s, (size_t)(end_at - s), 0, max, out);
}

int cli_parse_count(const char *s, uint64_t max, uint64_t *out)
{
	return il_parse_count(s, 0, max, out);
}

int cli_parse_time(const char *s, uint64_t *ns)
{
	return il_parse_time(s, 1, CLI_MAX_TIME_NS, ns);
}

int cli_split_list(const char *list, char *buf, size_t cap, const char **names, int max, int *n,
		   const char *what, struct cli_error *err)
{
	size_t used = 0;

	*n = 0;
	return cli_append_list(list, buf, cap, &used, names, max, n, what, err);
}

int cli_append_list(const char *list, char *buf, size_t cap, size_t *used, const char **names,
		    int max, int *n, const char *what, struct cli_error *err)
{
	size_t len = strlen(list) + 1;
	char *copy = buf + *used;

	if (*used + len > cap)
		return cli_error_set(err, "%s list too long", what);
	if (strspn(list, ",") == len - 1)
		return cli_error_set(err, "empty %s list", what);
	memcpy(copy, list, len);
	*used += len;
	for (char *name = copy, *comma;; name = comma + 1) {
		comma = strchr(name, ',');
		if (comma)
			*comma = '\0';
		if (!*name)
			return cli_error_set(err, "empty %s name in '%s'", what, list);
		if (*n == max)
			return cli_error_set(err, "more than %d %ss", max, what);
		names[(*n)++] = name;
		if (!comma)
			return CLI_PARSE_OK;
	}
}

int cli_builtin_platforms(const char **names, int max, int *n, struct cli_error *err)
{
	int count = il_platform_builtin_count();

	if (count > max)
		return cli_error_set(err, "more than %d platforms", max);
	for (*n = 0; *n < count; (*n)++)
		names[*n] = il_platform_builtin_name(*n);
	return CLI_PARSE_OK;
}

int cli_gov_plat_option(struct cli_gov_plat *gp, int id, const char *value, int max_plat,
			struct cli_error *err)
{
	if (id == CLI_OPT_GOV)
		return cli_append_list(value, gp->gov_buf, sizeof(gp->gov_buf), &gp->gov_used,
				       gp->governors, CLI_MAX_GOVERNORS, &gp->ngov, "governor",
				       err);
	return cli_append_list(value, gp->plat_buf, sizeof(gp->plat_buf), &gp->plat_used,
			       gp->platforms, max_plat, &gp->nplat, "platform", err);
}

int cli_opt_time(const char *value, uint64_t *ns, struct cli_error *err)
{
	if (cli_parse_time(value, ns))
		return cli_error_set(err, "--time: '%s' is not a duration in (0, 24h] "
				     "(30s, 1.5s, 500ms, 2m, 1h)", value);
	return CLI_PARSE_OK;
}

int cli_opt_seed(const char *value, uint64_t max, uint64_t *seed, struct cli_error *err)
{
	if (!cli_parse_count(value, max, seed))
		return CLI_PARSE_OK;
	/* Digits alone: the number is too large, not malformed; say which it is. */
	if (*value && strspn(value, "0123456789") == strlen(value))
		return cli_error_set(err, "--seed: %s is larger than the largest seed, %llu", value,
				     (unsigned long long)max);
	return cli_error_set(err, "--seed: '%s' is not a non-negative integer", value);
}

int cli_opt_count(const char *value, const char *name, uint64_t min, uint64_t max, uint64_t *out,
		  struct cli_error *err)
{
	if (il_parse_count(value, min, max, out))
		return cli_error_set(err, "%s: '%s' is not in [%llu, %llu]", name, value,
				     (unsigned long long)min, (unsigned long long)max);
	return CLI_PARSE_OK;
}

int cli_opt_ensemble(const char *value, int *ensemble, struct cli_error *err)
{
	uint64_t n;

	if (cli_parse_count(value, IL_ENS_MAX_MEMBERS, &n) || n == 1)
		return cli_error_set(err, "--ensemble: '%s' is not 0 (off) or a number of model "
				     "variants from 2 to %d", value, IL_ENS_MAX_MEMBERS);
	*ensemble = (int)n;
	return CLI_PARSE_OK;
}

int cli_opt_iter(const char *value, int *iter, struct cli_error *err)
{
	uint64_t v;

	if (cli_opt_count(value, "--iter", 1, CLI_MAX_ITER, &v, err))
		return CLI_PARSE_ERROR;
	*iter = (int)v;
	return CLI_PARSE_OK;
}

int cli_opt_jobs(const char *value, unsigned int *jobs, struct cli_error *err)
{
	uint64_t v;

	if (cli_opt_count(value, "--jobs", 1, CLI_MAX_JOBS, &v, err))
		return CLI_PARSE_ERROR;
	*jobs = (unsigned int)v;
	return CLI_PARSE_OK;
}

int cli_opt_format(const char *value, const char **format, struct cli_error *err)
{
	if (!il_output_find(value))
		return cli_error_set(err, "unknown format '%s' (table, tsv, csv or json)", value);
	*format = value;
	return CLI_PARSE_OK;
}

int cli_opt_progress(int id, enum progress_mode *mode)
{
	*mode = id == CLI_OPT_PROGRESS ? PROGRESS_ON : PROGRESS_OFF;
	return CLI_PARSE_OK;
}

int cli_run_option(struct cli_run_opts *o, int id, const char *value, struct cli_error *err)
{
	switch (id) {
	case CLI_OPT_TIME:
		return cli_opt_time(value, &o->time_ns, err);
	case CLI_OPT_SEED:
		return cli_opt_seed(value, UINT64_MAX, &o->seed, err);
	case CLI_OPT_ITER:
		return cli_opt_iter(value, &o->iter, err);
	case CLI_OPT_JOBS:
		return cli_opt_jobs(value, &o->jobs, err);
	case CLI_OPT_FORMAT:
		return cli_opt_format(value, &o->format, err);
	case CLI_OPT_ENSEMBLE:
		return cli_opt_ensemble(value, &o->ensemble, err);
	case CLI_OPT_PROGRESS:
	case CLI_OPT_NO_PROGRESS:
		return cli_opt_progress(id, &o->progress);
	}
	return cli_error_set(err, "unexpected argument '%s'", value);
}

/* The library names no flag: each remedy is one command's option, worded here once. */
const char *cli_remedy(enum il_error_need need)
{
	switch (need) {
	case IL_NEED_HZ: return "; give it with --hz";
	case IL_NEED_ONE_CPU: return "; export one CPU's table with --cpu";
	case IL_NEED_ALLOW_MISSING: return "; --allow-missing skips it";
	case IL_NEED_USER: return "; give --user USER (--user root to run the command as root)";
	case IL_NEED_TREE: return " (give --tree the top of a kernel tree)";
	case IL_NEED_PRESET:
		return ": give --as PRESET (idlelab governors) for its framework rules";
	case IL_NEED_ROOT_USER: return "; --user root to run it as root";
	case IL_NEED_TRACE_BUFFER: return " (raise --trace-buffer-kb)";
	case IL_NEED_NOTHING: break;
	}
	return "";
}

/* cli_parse_files()'s scan: the operands go to the files, the options to the command. */
struct files_scan {
	int (*option)(void *state, int id, const char *value, struct cli_error *err);
	void *state;
};

static int files_option(void *ctx, int id, const char *value, struct cli_error *err)
{
	struct files_scan *scan = ctx;
	struct cli_files *files = scan->state;

	if (id != CLI_OPT_POSITIONAL)
		return scan->option(scan->state, id, value, err);
	files->inputs[files->ninputs++] = value;
	return CLI_PARSE_OK;
}

int cli_parse_files(int argc, char **argv, const struct cli_opt *opts,
		    int (*option)(void *state, int id, const char *value, struct cli_error *err),
		    void *state, const char *none, struct cli_error *err)
{
	struct files_scan scan = { .option = option, .state = state };
	struct cli_files *files = state;
	int ret;

	files->inputs = calloc((size_t)argc + 1, sizeof(*files->inputs));
	if (!files->inputs)
		return cli_error_set(err, "%s", strerror(errno));
	ret = cli_parse_options(argc, argv, opts, CLI_OPT_HELP, files_option, &scan, err);
	if (ret == CLI_PARSE_OK && !files->ninputs)
		return cli_error_set(err, "%s", none);
	return ret;
}

void cli_release_files(void *state)
{
	free(((struct cli_files *)state)->inputs);
}

int cli_framework_choose(const struct il_kgov_framework_query *q, struct il_kgov_framework *fw,
			 struct il_error *err)
{
	char why[sizeof(fw->reason)];

	if (il_kgov_framework_choose(q, fw, err))
		return -1;
	if (fw->why == IL_KGOV_FW_AS) {
		snprintf(why, sizeof(why), "%s", fw->reason);
		if (snprintf(fw->reason, sizeof(fw->reason), "given with --as (%s)", why) >=
		    (int)sizeof(fw->reason))
			fw->reason[sizeof(fw->reason) - 2] = ')'; /* cut, still closed */
	}
	return 0;
}

const struct il_verdict_words cli_verdict_words = {
	.nominal = "--ensemble 0",
	.more_iter = "--iter 5",
};

unsigned int cli_default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > CLI_MAX_JOBS ? CLI_MAX_JOBS : (unsigned int)n;
}

double cli_wall_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

bool cli_scn_file_error(const struct il_scenario *scn, const struct il_scn_args *args,
			const struct il_error *err)
{
	size_t len = scn && scn->operand ? strlen(args->operand) : 0;

	return len && !strncmp(err->msg, args->operand, len) && err->msg[len] == ':';
}

int cli_find_presets(const char *const *names, int n, const struct il_preset **presets,
		     const char *cmd)
{
	struct il_error err;

	for (int i = 0; i < n; i++) {
		presets[i] = il_preset_lookup(names[i], &err);
		if (!presets[i] && err.msg[0]) {
			fprintf(stderr, "idlelab %s: %s\n", cmd, err.msg);
			return CLI_EXIT_RUNTIME;
		}
		if (!presets[i]) {
			char msg[4 * CLI_ERROR_LEN]; /* room for a name as long as a -g list */

			snprintf(msg, sizeof(msg), "unknown governor '%s' (see 'idlelab "
						   "governors')", names[i]);
			return cli_usage_error(cmd, msg);
		}
	}
	return CLI_EXIT_OK;
}

int cli_unique_platforms(const struct il_platform *plat, const char *const *specs, int n,
			 const char *cmd)
{
	for (int i = 1; i < n; i++) {
		for (int j = 0; j < i; j++) {
			char msg[4 * CLI_ERROR_LEN];

			if (strcmp(plat[i].name, plat[j].name))
				continue;
			if (!strcmp(specs[i], specs[j]))
				snprintf(msg, sizeof(msg), "-p: '%s' given twice", specs[i]);
			else
				snprintf(msg, sizeof(msg), "-p: '%s' and '%s' are both platform "
							   "'%s': its rows "
					 "could not be told apart in any output; give the copy a "
					 "name of its "
					 "own (its 'platform' line)", specs[j], specs[i],
					 plat[i].name);
			return cli_usage_error(cmd, msg);
		}
	}
	return CLI_EXIT_OK;
}

int cli_check_cpus(const struct il_scenario *scn, const struct il_scn_common *c,
		   const struct il_platform *plat, const char *cmd)
{
	struct il_error err;

	if (!il_lab_check_cpus(scn, c, plat, &err))
		return CLI_EXIT_OK;
	fprintf(stderr, "idlelab %s: %s\n", cmd, err.msg);
	return CLI_EXIT_RUNTIME;
}

int cli_load_platform(const char *name, struct il_platform *plat, const char *cmd)
{
	struct il_error perr;

	if (il_platform_load(name, plat, &perr)) {
		/* a file's error is bad input; an unknown built-in name is a usage error */
		if (!il_platform_is_path(name))
			return cli_usage_error(cmd, perr.msg);
		fprintf(stderr, "idlelab %s: %s\n", cmd, perr.msg);
		return CLI_EXIT_RUNTIME;
	}
	return CLI_EXIT_OK;
}

int cli_load_platforms(const char *const *specs, int n, struct il_platform *plat,
		       const char *cmd)
{
	int ret = CLI_EXIT_OK;

	for (int p = 0; p < n && ret == CLI_EXIT_OK; p++)
		ret = cli_load_platform(specs[p], &plat[p], cmd);
	return ret == CLI_EXIT_OK ? cli_unique_platforms(plat, specs, n, cmd) : ret;
}
