// SPDX-License-Identifier: GPL-2.0-only
/*
 * seeds.c - read tests/fidelity/seeds.tsv (the layout is in seeds.h) and check every row
 * against the library: its platform loads, its preset exists, its scenario spec (and the
 * base spec of a relative metric) parses, its metric is known.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "governor.h"
#include "platform/platform.h"
#include "scenario/scenario.h"
#include "seeds.h"
#include "util/array.h"

static const char *const metric_names[FID_NMETRICS] = {
	[FID_SCORE] = "score", [FID_IDLES] = "idles", [FID_IDLE_MISSES] = "idle_misses",
	[FID_COL_BELOWS] = "col_belows", [FID_COL_ABOVES] = "col_aboves",
	[FID_JOULES] = "joules", [FID_WATTS] = "watts", [FID_ABOVE_PCT] = "above_pct",
	[FID_BELOW_PCT] = "below_pct", [FID_POLL_PCT] = "poll_pct",
	[FID_USAGE_STATE] = "usage_state", [FID_PN_COUNT_STATE] = "pn_count_state",
	[FID_PN_S_STATE] = "pn_s_state", [FID_THROUGHPUT_REL] = "throughput_rel",
	[FID_IRQ_FALL_PCT] = "irq_fall_pct", [FID_TIMER_FALL_PCT] = "timer_fall_pct",
	[FID_JOPS_FALL_PCT] = "jops_fall_pct", [FID_SWEEP_AVG_PCT] = "sweep_avg_pct",
	[FID_SWEEP_MAX_PCT] = "sweep_max_pct", [FID_SWEEP_MIN_PCT] = "sweep_min_pct",
};

static const char *const columns[] = {
	"group", "source", "platform", "scenario", "gov", "seeds_label", "iter", "metric",
	"value", "seed_s", "lab_s", "magnitude",
};
#define NCOLS (ARRAY_SIZE(columns))

const char *fid_metric_name(int kind)
{
	return kind >= 0 && kind < FID_NMETRICS ? metric_names[kind] : "?";
}

static int fail(char *err, size_t cap, const char *path, unsigned int line, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, cap, "%s:%u: ", path, line);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < cap)
		vsnprintf(err + n, cap - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Split @s at tabs into @cell[0..max); the number of cells, or max + 1 when there are more. */
static size_t split_tabs(char *s, char **cell, size_t max)
{
	size_t n = 0;

	for (char *p = s;; p++) {
		if (n == max)
			return max + 1;
		cell[n++] = p;
		p = strchr(p, '\t');
		if (!p)
			return n;
		*p = '\0';
	}
}

static int copy(char *dst, size_t cap, const char *src)
{
	size_t len = strlen(src);

	if (!len || len >= cap)
		return -1;
	memcpy(dst, src, len + 1);
	return 0;
}

static int parse_number(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return *s && !*end && !errno ? 0 : -1;
}

static int parse_metric(struct fid_row *r)
{
	char name[FID_NAME];
	char *at;

	snprintf(name, sizeof(name), "%s", r->metric);
	at = strchr(name, '@');
	r->base[0] = '\0';
	if (at) {
		*at = '\0';
		if (copy(r->base, sizeof(r->base), at + 1))
			return -1;
	}
	r->state = -1;
	for (int k = 0; k < FID_NMETRICS; k++) {
		size_t len = strlen(metric_names[k]);

		if (strncmp(name, metric_names[k], len))
			continue;
		if (k == FID_USAGE_STATE || k == FID_PN_COUNT_STATE || k == FID_PN_S_STATE) {
			char *end;
			long st = strtol(name + len, &end, 10);

			if (name[len] < '0' || name[len] > '9' || *end || st >= CPUIDLE_STATE_MAX)
				continue;
			r->state = (int)st;
		} else if (name[len]) {
			continue;
		}
		r->kind = k;
		/* A fall against a base run needs that run; nothing else takes one. */
		return (k == FID_IRQ_FALL_PCT || k == FID_JOPS_FALL_PCT) == !!r->base[0] ? 0 : -1;
	}
	return -1;
}

static int check_spec(const char *spec, char *msg, size_t cap)
{
	const struct il_scenario *scn;
	struct il_scn_args args;
	struct il_scn_common common;
	struct il_error e;

	if (il_scn_parse(spec, &scn, &args, &common, &e)) {
		snprintf(msg, cap, "scenario '%.120s': %.160s", spec, e.msg);
		return -1;
	}
	return 0;
}

static int parse_row(char **c, struct fid_row *r, const char *path, char *err, size_t cap)
{
	struct il_platform plat;
	struct il_error e;
	char msg[FID_NOTE + 64];
	unsigned int line = r->line;

	if (copy(r->group, sizeof(r->group), c[0]) || copy(r->source, sizeof(r->source), c[1]) ||
	    copy(r->platform, sizeof(r->platform), c[2]) || copy(r->scenario, sizeof(r->scenario), c[3]) ||
	    copy(r->gov, sizeof(r->gov), c[4]) || copy(r->label, sizeof(r->label), c[5]) ||
	    copy(r->metric, sizeof(r->metric), c[7]))
		return fail(err, cap, path, line, "an empty or too long cell");
	if (strncmp(r->source, "seeds/", 6) || !strchr(r->source, ':'))
		return fail(err, cap, path, line, "source '%s' is not seeds/FILE:LINE", r->source);
	if (il_platform_is_path(r->platform) || il_platform_load(r->platform, &plat, &e))
		return fail(err, cap, path, line, "platform '%s' is not a built-in one", r->platform);
	if (strcmp(r->gov, "-") && !il_preset_find(r->gov))
		return fail(err, cap, path, line, "no governor preset '%s'", r->gov);
	if (check_spec(r->scenario, msg, sizeof(msg)))
		return fail(err, cap, path, line, "%s", msg);
	if (!strcmp(c[6], "-")) {
		r->iter = -1;
	} else {
		double it;

		/* the range first: converting a double beyond int is undefined (fuzzing) */
		if (parse_number(c[6], &it) || !(it >= 0 && it <= INT_MAX) || it != (int)it)
			return fail(err, cap, path, line, "iter '%s' is not '-' or a count", c[6]);
		r->iter = (int)it;
	}
	if (parse_metric(r))
		return fail(err, cap, path, line, "unknown metric '%s'", r->metric);
	if (r->base[0] && check_spec(r->base, msg, sizeof(msg)))
		return fail(err, cap, path, line, "base %s", msg);
	if (parse_number(c[8], &r->value))
		return fail(err, cap, path, line, "value '%s' is not a number", c[8]);
	r->seed_s = 0;
	if (strcmp(c[9], "-") && (parse_number(c[9], &r->seed_s) || r->seed_s <= 0))
		return fail(err, cap, path, line, "seed_s '%s' is not '-' or a positive number", c[9]);
	if (parse_number(c[10], &r->lab_s) || r->lab_s <= 0 || r->lab_s > 3600)
		return fail(err, cap, path, line, "lab_s '%s' is not a number of seconds in (0, 3600]", c[10]);
	r->magnitude = !strcmp(c[11], "yes");
	r->why[0] = '\0';
	if (!r->magnitude && (strncmp(c[11], "no: ", 4) || copy(r->why, sizeof(r->why), c[11] + 4)))
		return fail(err, cap, path, line, "magnitude '%s' is not 'yes' or 'no: WHY'", c[11]);
	if (r->magnitude && (r->kind == FID_SWEEP_AVG_PCT || r->kind == FID_SWEEP_MAX_PCT ||
			     r->kind == FID_SWEEP_MIN_PCT))
		return fail(err, cap, path, line,
			    "%s is shown, not computed: its magnitude must be 'no: WHY'", r->metric);
	return 0;
}

static int check_header(char *s, const char *path, unsigned int line, char *err, size_t cap)
{
	char *c[NCOLS + 1];

	if (split_tabs(s, c, NCOLS) != NCOLS)
		return fail(err, cap, path, line, "the header has not the %zu columns", NCOLS);
	for (size_t i = 0; i < NCOLS; i++)
		if (strcmp(c[i], columns[i]))
			return fail(err, cap, path, line, "header column %zu is '%s', not '%s'", i + 1,
				    c[i], columns[i]);
	return 0;
}

static int add_row(struct fid_table *t, size_t *cap_rows)
{
	if (t->n == *cap_rows) {
		size_t nc = *cap_rows ? 2 * *cap_rows : 256;
		struct fid_row *nr = realloc(t->rows, nc * sizeof(*nr));

		if (!nr)
			return -1;
		t->rows = nr;
		*cap_rows = nc;
	}
	memset(&t->rows[t->n], 0, sizeof(t->rows[0]));
	return 0;
}

int fid_load(const char *path, struct fid_table *t, char *err, size_t cap)
{
	FILE *f = fopen(path, "r");
	int ret;

	t->rows = NULL;
	t->n = 0;
	if (!f) {
		snprintf(err, cap, "%s: %s", path, strerror(errno));
		return -1;
	}
	ret = fid_load_stream(f, path, t, err, cap);
	fclose(f);
	return ret;
}

int fid_load_stream(FILE *f, const char *path, struct fid_table *t, char *err, size_t cap)
{
	char buf[2048];
	unsigned int line = 0;
	size_t cap_rows = 0;
	bool header = false;
	int ret = 0;

	t->rows = NULL;
	t->n = 0;
	while (!ret && fgets(buf, sizeof(buf), f)) {
		size_t len = strlen(buf);
		char *c[NCOLS + 1];

		line++;
		if (len && buf[len - 1] == '\n')
			buf[--len] = '\0';
		else if (!feof(f))
			ret = fail(err, cap, path, line, "line too long");
		if (ret || !len || buf[0] == '#')
			continue;
		if (!header) {
			ret = check_header(buf, path, line, err, cap);
			header = true;
			continue;
		}
		if (split_tabs(buf, c, NCOLS) != NCOLS) {
			ret = fail(err, cap, path, line, "not %zu tab-separated cells", NCOLS);
			break;
		}
		if (add_row(t, &cap_rows)) {
			ret = fail(err, cap, path, line, "out of memory");
			break;
		}
		t->rows[t->n].line = line;
		ret = parse_row(c, &t->rows[t->n], path, err, cap);
		if (!ret)
			t->n++;
	}
	if (!ret && ferror(f))
		ret = fail(err, cap, path, line, "read error");
	if (!ret && !t->n)
		ret = fail(err, cap, path, line, "no rows");
	if (ret)
		fid_free(t);
	return ret;
}

void fid_free(struct fid_table *t)
{
	free(t->rows);
	t->rows = NULL;
	t->n = 0;
}
