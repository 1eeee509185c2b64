// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_merge.c - `idlelab merge`: the per-case outputs of `idlelab sweep --emit-jobs` (each
 * the CSV of one `idlelab run ... --label ...`) into DIR/sweep.csv and DIR/sweep.json,
 * the same bytes a local sweep of the same cases writes (see sweep_table.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_opts.h"
#include "commands.h"
#include "sweep_table.h"
#include "util/parse.h"
#include "verdict_cli.h"

#define MERGE_MAX_FIELDS 256
#define MERGE_MAX_FILE (1 << 20)

#define MERGE_SHOW_MISSING 8 /* missing case numbers named */

enum { MG_OPT_PARTIAL = 1 };

static const struct cli_opt merge_opts[] = {
	CLI_OPTS_HELP, CLI_OPTS_OUT,
	{ MG_OPT_PARTIAL, 0, "partial", false },
	{ 0 },
};

/* The sweep a case file says it belongs to (labels sweep_id, sweep_cases; none before they
 * existed). */
struct merge_meta {
	const char *path;
	bool has_id;
	char id[32];
	long long cases;
};

struct merge_args {
	CLI_FILES; /* first: cli_release_files() frees it */
	const char *out;     /* -o: the sweep's DIR, or the verdict's FILE */
	bool partial;        /* --partial */
};

void cmd_merge_usage(FILE *out)
{
	fprintf(out, "usage: idlelab merge FILE... -o DIR\n"
		     "\n"
		     "Combine the per-case outputs of the command lines of 'idlelab sweep "
		     "--emit-jobs'\n"
		     "(DIR/case-N.csv, each written by 'idlelab run ... --label ... -f csv -o "
		     "FILE')\n"
		     "into DIR/sweep.csv and DIR/sweep.json, rows in case order: the same bytes as "
		     "a\n"
		     "local 'idlelab sweep' of the same cases (and DIR/summary.{csv,json} when the "
		     "cases\n"
		     "have several iterations). The files must be every case of one sweep (their\n"
		     "sweep_id and sweep_cases labels say which): a missing case (a job that "
		     "failed)\n"
		     "or a file of another sweep is an error.\n"
		     "\n"
		     "  -o, --output DIR       the output directory (made if missing)\n"
		     "      --partial          merge a subset of the cases on purpose\n"
		     "\n"
		     "       idlelab merge DIR/case-*.csv [-o FILE]\n"
		     "\n"
		     "Turn the case files of 'idlelab verdict --emit-jobs' into the verdict: the "
		     "same\n"
		     "bytes as the local 'idlelab verdict' of the same options, on stdout or to "
		     "FILE\n"
		     "(complete or not at all); the exit status is the verdict's (3 under "
		     "--fail-on).\n");
}

/*
 * Split the CSV line at @s (RFC 4180 quoting, no line breaks inside fields) in place into
 * @fields; Return: the number of fields, or -1. *@next is the start of the next line.
 */
static int csv_split(char *s, char **fields, int max, char **next)
{
	int n = 0;

	for (;;) {
		char *w = s;

		if (n == max)
			return -1;
		fields[n++] = w;
		if (*s == '"') {
			for (s++;; s++) {
				if (!*s || *s == '\n')
					return -1;
				if (*s == '"' && s[1] != '"')
					break;
				if (*s == '"')
					s++;
				*w++ = *s;
			}
			s++;
		} else {
			while (*s && *s != ',' && *s != '\n')
				*w++ = *s++;
		}
		if (*s == ',') {
			*w = '\0';
			s++;
			continue;
		}
		if (*s && *s != '\n')
			return -1;
		*next = *s ? s + 1 : s;
		*w = '\0';
		return n;
	}
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = malloc(MERGE_MAX_FILE + 1);
	n = buf ? fread(buf, 1, MERGE_MAX_FILE + 1, f) : 0;
	if (!buf || ferror(f) || n > MERGE_MAX_FILE) {
		free(buf);
		fclose(f);
		errno = buf ? EFBIG : ENOMEM;
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/* Take the columns sweep_id and sweep_cases out of @names/@texts into @meta. Return the new
 * count, or -1 when they are malformed. */
static int take_meta(int n, char **names, char **texts, struct merge_meta *meta)
{
	int k = 0;

	for (int i = 0; i < n; i++) {
		uint64_t cases;

		if (!strcmp(names[i], "sweep_id")) {
			if (!*texts[i] || strlen(texts[i]) >= sizeof(meta->id))
				return -1;
			snprintf(meta->id, sizeof(meta->id), "%s", texts[i]);
			meta->has_id = true;
			continue;
		}
		if (!strcmp(names[i], "sweep_cases")) {
			if (il_parse_count(texts[i], 1, INT64_MAX, &cases))
				return -1;
			meta->cases = (long long)cases;
			continue;
		}
		names[k] = names[i];
		texts[k++] = texts[i];
	}
	return meta->has_id && !meta->cases ? -1 : k;
}

/* One case file: a header line starting with "case", then one row. */
static int merge_file(const char *path, struct il_sweep_rec *rec, struct merge_meta *meta)
{
	char *names[MERGE_MAX_FIELDS], *texts[MERGE_MAX_FIELDS];
	char *buf = read_all(path), *row, *end;
	int n, m, ret;

	if (!buf) {
		fprintf(stderr, "idlelab merge: %s: %s\n", path, strerror(errno));
		return -1;
	}
	n = csv_split(buf, names, MERGE_MAX_FIELDS, &row);
	m = n > 0 && *row ? csv_split(row, texts, MERGE_MAX_FIELDS, &end) : -1;
	if (n < 1 || m != n || *end) {
		fprintf(stderr, "idlelab merge: %s: not the CSV of one 'idlelab run' row\n", path);
		free(buf);
		return -1;
	}
	meta->path = path;
	n = take_meta(n, names, texts, meta);
	if (n < 0) {
		fprintf(stderr, "idlelab merge: %s: bad sweep_id or sweep_cases label\n", path);
		free(buf);
		return -1;
	}
	ret = il_sweep_rec_set(rec, n, (const char *const *)names, (const char *const *)texts);
	if (ret)
		fprintf(stderr, "idlelab merge: %s: %s\n", path,
			errno == EINVAL ? "no 'case' label: not a case of 'idlelab sweep "
					  "--emit-jobs'"
					: strerror(errno));
	free(buf);
	return ret;
}

/* Say which of the @ncases case numbers none of @recs has; Return: how many are missing. */
static long long report_missing(const struct il_sweep_rec *recs, size_t n, long long ncases)
{
	char *seen = calloc((size_t)ncases, 1);
	long long missing = 0;

	if (!seen)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (recs[i].case_no >= 0 && recs[i].case_no < ncases)
			seen[recs[i].case_no] = 1;
	for (long long c = 0; c < ncases; c++) {
		if (seen[c])
			continue;
		if (missing < MERGE_SHOW_MISSING)
			fprintf(stderr, "%s%lld", missing ? ", " : " (missing: case ", c);
		missing++;
	}
	if (missing > MERGE_SHOW_MISSING)
		fprintf(stderr, ", ... %lld in all", missing);
	free(seen);
	return missing;
}

static bool has_duplicate(const struct il_sweep_rec *recs, size_t n, long long ncases)
{
	char *seen = calloc((size_t)ncases, 1);
	bool dup = false;

	for (size_t i = 0; seen && i < n && !dup; i++) {
		dup = seen[recs[i].case_no];
		seen[recs[i].case_no] = 1;
	}
	free(seen);
	return dup;
}

/*
 * Every file of one sweep, every case of it: the same sweep_id and sweep_cases everywhere,
 * each case number below sweep_cases (twice is sweep_write_dir()'s error), none missing
 * unless --partial. Files without the labels (emitted before they existed) are merged with
 * a warning that completeness cannot be checked. Return: CLI_EXIT_OK or an exit code.
 */
static int check_set(const struct il_sweep_rec *recs, const struct merge_meta *meta, size_t n,
		     bool partial)
{
	const struct merge_meta *first = &meta[0];
	long long missing;

	for (size_t i = 0; i < n; i++) {
		if (meta[i].has_id != first->has_id) {
			fprintf(stderr, "idlelab merge: %s has a sweep_id label and %s has none: "
				"files of different sweeps\n",
				first->has_id ? first->path : meta[i].path,
				first->has_id ? meta[i].path : first->path);
			return CLI_EXIT_RUNTIME;
		}
		if (first->has_id &&
		    (strcmp(meta[i].id, first->id) || meta[i].cases != first->cases)) {
			fprintf(stderr, "idlelab merge: %s is from sweep %s (%lld cases), %s from "
				"sweep %s (%lld cases): files of different sweeps\n", first->path,
				first->id, first->cases, meta[i].path, meta[i].id, meta[i].cases);
			return CLI_EXIT_RUNTIME;
		}
		if (first->has_id && recs[i].case_no >= first->cases) {
			fprintf(stderr, "idlelab merge: %s: case %lld of a sweep of %lld cases\n",
				meta[i].path, recs[i].case_no, first->cases);
			return CLI_EXIT_RUNTIME;
		}
	}
	if (!first->has_id) {
		fprintf(stderr, "idlelab merge: warning: the case files carry no sweep_id (emitted "
			"by an older idlelab): whether every case is there is not checked\n");
		return CLI_EXIT_OK;
	}
	if (partial || (long long)n >= first->cases || has_duplicate(recs, n, first->cases))
		return CLI_EXIT_OK; /* a case given twice: sweep_write_dir() says so */
	fprintf(stderr, "idlelab merge: %zu of the %lld cases of sweep %s", n, first->cases,
		first->id);
	missing = report_missing(recs, n, first->cases);
	fprintf(stderr, "%s: a job failed or its file is not given; rerun its line of the jobs "
		"file (--partial merges a subset on purpose)\n", missing > 0 ? ")" : "");
	return CLI_EXIT_RUNTIME;
}

/* ---- verdict case files ------------------------------------------------------------------- */

/* Whether the case file @path is one of `idlelab verdict --emit-jobs`. */
static bool is_verdict_case(const char *path)
{
	char head[sizeof(VERDICT_CASE_FIRST_COL) + 1];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return false;
	n = fread(head, 1, sizeof(head) - 1, f);
	fclose(f);
	head[n] = '\0';
	return !strncmp(head, VERDICT_CASE_FIRST_COL ",", sizeof(head) - 1);
}

/* One verdict case file: a header line, then one row, handed to the verdict. */
static int merge_verdict_file(struct verdict_merge *m, const char *path)
{
	char *names[MERGE_MAX_FIELDS], *texts[MERGE_MAX_FIELDS];
	char *buf = read_all(path), *row, *end;
	int n, k, ret;

	if (!buf) {
		fprintf(stderr, "idlelab merge: %s: %s\n", path, strerror(errno));
		return CLI_EXIT_RUNTIME;
	}
	n = csv_split(buf, names, MERGE_MAX_FIELDS, &row);
	k = n > 0 && *row ? csv_split(row, texts, MERGE_MAX_FIELDS, &end) : -1;
	if (n < 1 || k != n || *end) {
		fprintf(stderr, "idlelab merge: %s: not the CSV of one 'idlelab verdict --case' "
				"run\n", path);
		free(buf);
		return CLI_EXIT_RUNTIME;
	}
	ret = verdict_merge_add(m, path, n, (const char *const *)names, (const char *const *)texts);
	free(buf);
	return ret;
}

/* The case files of `idlelab verdict --emit-jobs` into the verdict, to stdout or -o FILE. */
static int merge_verdict(const struct merge_args *a)
{
	struct verdict_merge *m;
	int ret = CLI_EXIT_OK;

	if (a->partial)
		return cli_usage_error("merge", "--partial merges sweep cases; a verdict needs "
				       "every case");
	m = verdict_merge_new();
	if (!m) {
		cli_warn("merge", "%s", strerror(ENOMEM));
		return CLI_EXIT_RUNTIME;
	}
	for (int i = 0; i < a->ninputs && ret == CLI_EXIT_OK; i++)
		ret = merge_verdict_file(m, a->inputs[i]);
	if (ret == CLI_EXIT_OK)
		ret = verdict_merge_finish(m, a->out);
	verdict_merge_free(m);
	return ret;
}

/* The case files of `idlelab sweep --emit-jobs` into DIR/sweep.{csv,json}. */
static int merge_sweep(const struct merge_args *a)
{
	struct il_sweep_rec *recs = calloc((size_t)a->ninputs, sizeof(*recs));
	struct merge_meta *meta = calloc((size_t)a->ninputs, sizeof(*meta));
	size_t n = 0;
	int ret = CLI_EXIT_OK;

	if (!a->out) {
		ret = cli_usage_error("merge", "no output directory given (-o DIR)");
	} else if (!recs || !meta) {
		cli_warn("merge", "%s", strerror(ENOMEM));
		ret = CLI_EXIT_RUNTIME;
	}
	for (int i = 0; i < a->ninputs && ret == CLI_EXIT_OK; i++) {
		if (merge_file(a->inputs[i], &recs[n], &meta[n]))
			ret = CLI_EXIT_RUNTIME;
		else
			n++;
	}
	if (ret == CLI_EXIT_OK)
		ret = check_set(recs, meta, n, a->partial);
	if (ret == CLI_EXIT_OK)
		ret = sweep_write_dir(a->out, recs, n, 0, "merge");
	for (size_t i = 0; i < n; i++)
		il_sweep_rec_free(&recs[i]);
	free(recs);
	free(meta);
	return ret;
}

static int merge_option(void *state, int id, const char *value, struct cli_error *err)
{
	struct merge_args *a = state;

	switch (id) {
	case CLI_OPT_OUT:
		a->out = value;
		break;
	case MG_OPT_PARTIAL:
		a->partial = true;
		break;
	}
	return CLI_PARSE_OK;
}

/* All options first: a usage error is said before any file is read. */
static int merge_parse(int argc, char **argv, void *state, struct cli_error *err)
{
	return cli_parse_files(argc, argv, merge_opts, merge_option, state, "no case file given",
			       err);
}

/* The kind of the first file says which merge: a verdict's case files, or a sweep's. */
static int merge_main(void *state)
{
	const struct merge_args *a = state;

	return is_verdict_case(a->inputs[0]) ? merge_verdict(a) : merge_sweep(a);
}

int cmd_merge(int argc, char **argv)
{
	static const struct cli_lifecycle lc = {
		.name = "merge", .size = sizeof(struct merge_args), .parse = merge_parse,
		.usage = cmd_merge_usage, .run = merge_main, .release = cli_release_files,
	};

	return cli_main(&lc, argc, argv);
}
