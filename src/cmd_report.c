// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_report.c - `idlelab report RESULT... -o DIR`: DIR/index.html, one offline page of
 * tables and SVG charts from the JSON idlelab writes (lib/report/, docs/report.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "cli_opts.h"
#include "report/report.h"

#define REPORT_MAX_METRICS 16
#define REPORT_PATH_LEN 4096

enum {
	RP_OPT_BASELINE = 1,
	RP_OPT_TITLE,
	RP_OPT_X,
	RP_OPT_METRIC,
};

static const struct cli_opt report_opts[] = {
	CLI_OPTS_HELP, CLI_OPTS_OUT,
	{ RP_OPT_BASELINE, 'b', "baseline", true },
	{ RP_OPT_TITLE, 0, "title", true },
	{ RP_OPT_X, 'x', "x", true },
	{ RP_OPT_METRIC, 'm', "metric", true },
	{ 0 },
};

void cmd_report_usage(FILE *out)
{
	fprintf(out, "usage: idlelab report RESULT... -o DIR [--baseline GOV] [--title TEXT]\n"
		     "                      [--x PARAM] [--metric M[,M...]]\n"
		     "\n"
		     "Write DIR/index.html: one page that works offline (no script, no external "
		     "file)\n"
		     "with the results' tables and SVG charts: scores relative to a baseline "
		     "governor,\n"
		     "sweep curves, idle misses (below/above), state residency, energy and power, "
		     "and\n"
		     "residency histograms. RESULT is the JSON of 'run -f json', 'compare -f "
		     "json',\n"
		     "'battery -o', 'sweep -o DIR' or 'merge -o DIR' (DIR/sweep.json, or DIR "
		     "itself),\n"
		     "'replay -f json' or 'stats -f json'; the kind is told from the content.\n"
		     "\n"
		     "  -o, --output DIR       the output directory (made if missing)\n"
		     "  -b, --baseline GOV     the governor the others are compared with (default: "
		     "the\n"
		     "                         first governor of the first run, compare, battery "
		     "or sweep)\n"
		     "      --title TEXT       the page's title (default \"idlelab report\")\n"
		     "  -x, --x PARAM          the swept parameter on the x axis of sweep curves\n"
		     "                         (default: the first numeric one; the other one "
		     "splits charts)\n"
		     "  -m, --metric LIST      the y of sweep curves: above_pct, below_pct, "
		     "miss_pct, score\n"
		     "                         or a numeric column (default "
		     "above_pct,below_pct)\n");
}

struct report_args {
	CLI_FILES; /* first: cli_release_files() frees it */
	const char *out;
	struct il_page_opts opts;
	const char *metrics[REPORT_MAX_METRICS + 1];
	char metric_buf[1024];
};

/* The name an input has in the page: its file name, with the directory for DIR/sweep.json. */
static void display_name(const char *path, char *buf, size_t cap)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;

	if (!strcmp(base, "sweep.json") && slash && slash != path) {
		const char *dir = slash - 1;

		while (dir > path && dir[-1] != '/')
			dir--;
		snprintf(buf, cap, "%s", dir);
		return;
	}
	snprintf(buf, cap, "%s", base);
}

/* Read @arg (a file, or a sweep directory's sweep.json) into the page. */
static int add_input(struct il_page *page, const char *arg)
{
	char path[REPORT_PATH_LEN], name[REPORT_PATH_LEN];
	struct il_error err = { 0 };
	struct stat st;
	size_t len;
	char *text;
	int ret;

	if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode))
		snprintf(path, sizeof(path), "%s/sweep.json", arg);
	else
		snprintf(path, sizeof(path), "%s", arg);
	text = cli_read_input(path, &len);
	if (!text) {
		fprintf(stderr, "idlelab report: %s: %s\n", path, strerror(errno));
		return CLI_EXIT_RUNTIME;
	}
	display_name(path, name, sizeof(name));
	ret = il_page_add(page, name, text, &err);
	free(text);
	if (ret) {
		fprintf(stderr, "idlelab report: %s: %s\n", path, err.msg);
		return CLI_EXIT_RUNTIME;
	}
	return CLI_EXIT_OK;
}

/* DIR/index.html, complete or not at all; a DIR made here is removed again on failure. */
static int write_page(const char *dir, const char *html, size_t len)
{
	char path[REPORT_PATH_LEN];
	bool made = false;

	if (mkdir(dir, 0777) == 0)
		made = true;
	else if (errno != EEXIST)
		goto fail;
	if (snprintf(path, sizeof(path), "%s/index.html", dir) >= (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		goto fail;
	}
	if (cli_write_output(path, html, len))
		goto fail;
	fprintf(stderr, "idlelab report: wrote %s (%zu bytes)\n", path, len);
	return CLI_EXIT_OK;
fail:
	fprintf(stderr, "idlelab report: writing %s: %s\n", dir, strerror(errno));
	if (made)
		rmdir(dir);
	return CLI_EXIT_RUNTIME;
}

static int render(struct il_page *page, const struct report_args *a)
{
	struct il_error err = { 0 };
	char *html = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&html, &len);
	int ret;

	if (!mem) {
		fprintf(stderr, "idlelab report: %s\n", strerror(errno));
		return CLI_EXIT_RUNTIME;
	}
	ret = il_page_write(page, &a->opts, mem, &err);
	if (ret) {
		int e = errno;

		fclose(mem);
		free(html);
		if (e == EINVAL)
			return cli_usage_error("report", err.msg);
		fprintf(stderr, "idlelab report: %s\n", err.msg);
		return CLI_EXIT_RUNTIME;
	}
	if (fclose(mem)) {
		fprintf(stderr, "idlelab report: %s\n", strerror(errno));
		free(html);
		return CLI_EXIT_RUNTIME;
	}
	ret = write_page(a->out, html, len);
	free(html);
	return ret;
}

static int set_option(void *state, int id, const char *value, struct cli_error *err)
{
	struct report_args *a = state;
	int n;

	switch (id) {
	case CLI_OPT_OUT:
		a->out = value;
		break;
	case RP_OPT_BASELINE:
		a->opts.baseline = value;
		break;
	case RP_OPT_TITLE:
		a->opts.title = value;
		break;
	case RP_OPT_X:
		a->opts.sweep_x = value;
		break;
	case RP_OPT_METRIC:
		if (a->opts.metrics)
			return cli_error_set(err, "-m given twice: give every metric in one list");
		if (cli_split_list(value, a->metric_buf, sizeof(a->metric_buf), a->metrics,
				   REPORT_MAX_METRICS, &n,
				   "metric", err) != CLI_PARSE_OK)
			return CLI_PARSE_ERROR;
		a->metrics[n] = NULL;
		a->opts.metrics = a->metrics;
		break;
	}
	return CLI_PARSE_OK;
}

/* All options first, so that a usage error says so before any file is read. */
static int report_parse(int argc, char **argv, void *state, struct cli_error *err)
{
	struct report_args *a = state;
	int ret;

	ret = cli_parse_files(argc, argv, report_opts, set_option, a, "no result given (the JSON "
			      "of run, compare, battery, sweep, replay or stats)", err);
	if (ret != CLI_PARSE_OK)
		return ret;
	if (!a->out)
		return cli_error_set(err, "no output directory given (-o DIR)");
	return CLI_PARSE_OK;
}

/* -m and -x shape the sweep curves: without a sweep result they would do nothing. */
static int check_sweep_options(const struct il_page *page, const struct report_args *a)
{
	const char *opt = a->opts.metrics ? "--metric" : a->opts.sweep_x ? "--x" : NULL;
	char msg[128];

	if (!opt)
		return CLI_EXIT_OK;
	for (int i = 0; i < a->ninputs; i++)
		if (!strcmp(il_page_kind(page, i), "sweep"))
			return CLI_EXIT_OK;
	snprintf(msg, sizeof(msg), "%s: no sweep result given (it shapes the sweep curves)", opt);
	return cli_usage_error("report", msg);
}

static int report_main(void *state)
{
	const struct report_args *a = state;
	struct il_page *page;
	int ret = CLI_EXIT_OK;

	if (cli_check_output("report", a->out, true))
		return CLI_EXIT_RUNTIME;
	page = il_page_new();
	if (!page) {
		fprintf(stderr, "idlelab report: %s\n", errno == ENOTSUP ? "built without jansson "
			"(install "
									   "libjansson-dev)"
									 : strerror(errno));
		return CLI_EXIT_RUNTIME;
	}
	for (int i = 0; i < a->ninputs && ret == CLI_EXIT_OK; i++)
		ret = add_input(page, a->inputs[i]);
	if (ret == CLI_EXIT_OK)
		ret = check_sweep_options(page, a);
	if (ret == CLI_EXIT_OK)
		ret = render(page, a);
	il_page_free(page);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	static const struct cli_lifecycle lc = {
		.name = "report", .size = sizeof(struct report_args), .parse = report_parse,
		.usage = cmd_report_usage, .run = report_main, .release = cli_release_files,
	};

	return cli_main(&lc, argc, argv);
}
