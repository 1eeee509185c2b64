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
#include "commands.h"
#include "sweep_table.h"
#include "verdict_cli.h"

#define MERGE_MAX_FIELDS 256
#define MERGE_MAX_FILE (1 << 20)

enum { MG_OPT_HELP = 1, MG_OPT_OUT };

static const struct cli_opt merge_opts[] = {
	{ MG_OPT_HELP, 'h', "help", false },
	{ MG_OPT_OUT, 'o', "output", true },
	{ 0 },
};

void cmd_merge_usage(FILE *out)
{
	fprintf(out, "usage: idlelab merge FILE... -o DIR\n"
		     "\n"
		     "Combine the per-case outputs of the command lines of 'idlelab sweep --emit-jobs'\n"
		     "(DIR/case-N.csv, each written by 'idlelab run ... --label ... -f csv -o FILE')\n"
		     "into DIR/sweep.csv and DIR/sweep.json, rows in case order: the same bytes as a\n"
		     "local 'idlelab sweep' of the same cases.\n"
		     "\n"
		     "  -o, --output DIR       the output directory (made if missing)\n"
		     "\n"
		     "       idlelab merge DIR/case-*.csv [-o FILE]\n"
		     "\n"
		     "Turn the case files of 'idlelab verdict --emit-jobs' into the verdict: the same\n"
		     "bytes as the local 'idlelab verdict' of the same options, on stdout or to FILE\n"
		     "(complete or not at all); the exit status is the verdict's (3 under --fail-on).\n");
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

/* One case file: a header line starting with "case", then one row. */
static int merge_file(const char *path, struct sweep_rec *rec)
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
	ret = sweep_rec_set(rec, n, (const char *const *)names, (const char *const *)texts);
	if (ret)
		fprintf(stderr, "idlelab merge: %s: %s\n", path,
			errno == EINVAL ? "no 'case' label: not a case of 'idlelab sweep --emit-jobs'"
					: strerror(errno));
	free(buf);
	return ret;
}

/* ---- verdict case files ------------------------------------------------------------------- */

/* Whether the first case file given is one of `idlelab verdict --emit-jobs`. */
static bool first_is_verdict_case(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f;
		char head[sizeof(VERDICT_CASE_FIRST_COL) + 1];
		size_t n;

		if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) {
			i++;
			continue;
		}
		if (argv[i][0] == '-')
			continue;
		f = fopen(argv[i], "r");
		if (!f)
			return false;
		n = fread(head, 1, sizeof(head) - 1, f);
		fclose(f);
		head[n] = '\0';
		return !strncmp(head, VERDICT_CASE_FIRST_COL ",", sizeof(head) - 1);
	}
	return false;
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
		fprintf(stderr, "idlelab merge: %s: not the CSV of one 'idlelab verdict --case' run\n", path);
		free(buf);
		return CLI_EXIT_RUNTIME;
	}
	ret = verdict_merge_add(m, path, n, (const char *const *)names, (const char *const *)texts);
	free(buf);
	return ret;
}

static int merge_verdict(int argc, char **argv)
{
	struct verdict_merge *m = verdict_merge_new();
	const char *out = NULL, *value;
	struct cli_error err;
	struct cli_scan s;
	int id, ret = CLI_EXIT_OK;

	if (!m) {
		fprintf(stderr, "idlelab merge: %s\n", strerror(ENOMEM));
		return CLI_EXIT_RUNTIME;
	}
	cli_scan_init(&s, argc, argv);
	while (ret == CLI_EXIT_OK && (id = cli_next_opt(&s, merge_opts, &value, &err)) != CLI_OPT_END) {
		if (id == CLI_PARSE_ERROR)
			ret = cli_usage_error("merge", err.msg);
		else if (id == MG_OPT_HELP)
			cmd_merge_usage(stdout);
		else if (id == MG_OPT_OUT)
			out = value;
		else if (id == CLI_OPT_POSITIONAL)
			ret = merge_verdict_file(m, value);
	}
	if (ret == CLI_EXIT_OK)
		ret = verdict_merge_finish(m, out);
	verdict_merge_free(m);
	return ret;
}

int cmd_merge(int argc, char **argv)
{
	struct sweep_rec *recs = calloc((size_t)argc, sizeof(*recs));
	const char *dir = NULL, *value;
	struct cli_error err;
	struct cli_scan s;
	size_t n = 0;
	int id, ret = CLI_EXIT_OK;

	if (!recs) {
		fprintf(stderr, "idlelab merge: %s\n", strerror(ENOMEM));
		return CLI_EXIT_RUNTIME;
	}
	if (first_is_verdict_case(argc, argv)) {
		free(recs);
		return merge_verdict(argc, argv);
	}
	cli_scan_init(&s, argc, argv);
	while (ret == CLI_EXIT_OK && (id = cli_next_opt(&s, merge_opts, &value, &err)) != CLI_OPT_END) {
		if (id == CLI_PARSE_ERROR) {
			ret = cli_usage_error("merge", err.msg);
		} else if (id == MG_OPT_HELP) {
			cmd_merge_usage(stdout);
			goto out;
		} else if (id == MG_OPT_OUT) {
			dir = value;
		} else if (id == CLI_OPT_POSITIONAL && merge_file(value, &recs[n++])) {
			n--;
			ret = CLI_EXIT_RUNTIME;
		}
	}
	if (ret == CLI_EXIT_OK && (!n || !dir))
		ret = cli_usage_error("merge", !n ? "no case file given" : "no output directory given (-o DIR)");
	if (ret == CLI_EXIT_OK)
		ret = sweep_write_dir(dir, recs, n, "merge");
out:
	for (size_t i = 0; i < n; i++)
		sweep_rec_free(&recs[i]);
	free(recs);
	return ret;
}
