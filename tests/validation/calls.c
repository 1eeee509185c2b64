// SPDX-License-Identifier: GPL-2.0-only
/*
 * calls.c - the verdict's call on samples from outside the lab (docs/validation.md, "A
 * validation that can fail"): the real runs of a governor pair in the guest, or the lab's
 * own seeds, judged by the same statistics as `idlelab verdict` (lib/verdict/verdict.c):
 *
 *   Welch's t per cell, the Westfall-Young step-down max-T permutation test over the whole
 *   family (lib/stat il_stat_maxt(): every relabelling when there are at most
 *   IL_VERDICT_MAX_PERM, else IL_VERDICT_DRAWS random ones), and a cell is a difference
 *   when its adjusted p-value is at most --alpha (0.05) AND its mean moved by more than
 *   --min-effect % (1) of side a's; both sides identically 0: same, untested.
 *
 * Usage: calls [--alpha A] [--min-effect PCT] [--seed N] FILE|-
 *
 * Input: lines "CELL<TAB>a|b<TAB>VALUE" ('#' comments), one per run and side; every cell
 * has the same numbers of a and b values (the permutations relabel runs). Output (TSV):
 *
 *   cell n_a mean_a cv_a n_b mean_b cv_b diff_pct p_adj call
 *
 * cv: the sample standard deviation in % of the mean (the spread of the runs); diff_pct:
 * mean_b against mean_a ("inf" from a zero mean); call: higher, lower (b against a) or same.
 * Exit status 1 on bad input (the file and line named), 2 on usage.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stat/stat.h"
#include "verdict/verdict.h"

#define MAX_CELLS 4096
#define MAX_RUNS 64
#define CELL_LEN 160

struct cell {
	char name[CELL_LEN];
	double v[2][MAX_RUNS];
	int n[2];
};

struct input {
	struct cell *cells;
	int ncells;
};

static int find_cell(struct input *in, const char *name)
{
	for (int i = 0; i < in->ncells; i++)
		if (!strcmp(in->cells[i].name, name))
			return i;
	if (in->ncells == MAX_CELLS)
		return -1;
	snprintf(in->cells[in->ncells].name, CELL_LEN, "%s", name);
	return in->ncells++;
}

static int bad(const char *path, int line, const char *why)
{
	fprintf(stderr, "calls: %s:%d: %s\n", path, line, why);
	return -1;
}

/* One "CELL\ta|b\tVALUE" line into @in. */
static int parse_line(struct input *in, char *s, const char *path, int line)
{
	char *side = strchr(s, '\t'), *val, *end;
	int c, k;
	double v;

	if (!side || !(val = strchr(side + 1, '\t')))
		return bad(path, line, "want CELL<TAB>a|b<TAB>VALUE");
	*side++ = 0;
	*val++ = 0;
	if (strlen(s) >= CELL_LEN || !s[0])
		return bad(path, line, "a cell name has 1 to 159 characters");
	if (strcmp(side, "a") && strcmp(side, "b"))
		return bad(path, line, "the side is a or b");
	errno = 0;
	v = strtod(val, &end);
	if (errno || end == val || *end || !isfinite(v))
		return bad(path, line, "the value is not a finite number");
	c = find_cell(in, s);
	if (c < 0)
		return bad(path, line, "more than 4096 cells");
	k = side[0] == 'b';
	if (in->cells[c].n[k] == MAX_RUNS)
		return bad(path, line, "more than 64 runs of a side");
	in->cells[c].v[k][in->cells[c].n[k]++] = v;
	return 0;
}

static int read_input(FILE *f, const char *path, struct input *in)
{
	char buf[512];
	int line = 0;

	while (fgets(buf, sizeof(buf), f)) {
		size_t len = strlen(buf);

		line++;
		if (len && buf[len - 1] == '\n')
			buf[--len] = 0;
		if (!len || buf[0] == '#')
			continue;
		if (parse_line(in, buf, path, line))
			return -1;
	}
	if (ferror(f))
		return bad(path, line, "read error");
	if (!in->ncells)
		return bad(path, line, "no cells");
	for (int i = 0; i < in->ncells; i++) {
		const struct cell *c = &in->cells[i];

		if (c->n[0] != in->cells[0].n[0] || c->n[1] != in->cells[0].n[1] || c->n[0] < 2 ||
		    c->n[1] < 2) {
			fprintf(stderr, "calls: %s: cell %s has %d a and %d b runs; every cell "
					"needs the same numbers, at least 2 a side\n",
				path, c->name, c->n[0], c->n[1]);
			return -1;
		}
	}
	return 0;
}

static double mean_of(const double *v, int n)
{
	double m = 0;

	for (int i = 0; i < n; i++)
		m += v[i];
	return m / n;
}

static bool all_zero(const double *v, int n)
{
	for (int i = 0; i < n; i++)
		if (v[i] != 0)
			return false;
	return true;
}

static double cv_pct(const double *v, int n)
{
	struct il_stat_summary s;

	if (il_stat_summarize(v, n, IL_STAT_LEVEL, &s) || s.mean == 0)
		return NAN;
	return 100.0 * s.sd / fabs(s.mean);
}

/* The verdict's rule (verdict.c beyond_effect()): from a zero mean any change counts. */
static const char *call_of(const struct il_stat_diff *d, double p_adj, double alpha, double min_pct)
{
	bool beyond = isnan(d->rel) ? d->diff != 0.0 : fabs(d->rel) > min_pct;

	if (!(p_adj <= alpha) || !beyond)
		return "same";
	return d->diff > 0 ? "higher" : "lower";
}

static int judge(const struct input *in, double alpha, double min_pct, u64 seed)
{
	struct il_stat_cell *sc = calloc((size_t)in->ncells, sizeof(*sc));
	double *t = calloc((size_t)in->ncells, sizeof(*t));
	double *p = calloc((size_t)in->ncells, sizeof(*p));
	int *idx = calloc((size_t)in->ncells, sizeof(*idx)), m = 0, ret = -1;
	const int na = in->cells[0].n[0], nb = in->cells[0].n[1];
	struct il_stat_perm perm = { .na = na, .nb = nb, .max_perm = IL_VERDICT_MAX_PERM,
				     .draws = IL_VERDICT_DRAWS, .seed = seed };

	if (!sc || !t || !p || !idx)
		goto out;
	for (int i = 0; i < in->ncells; i++) {
		if (all_zero(in->cells[i].v[0], na) && all_zero(in->cells[i].v[1], nb))
			continue;
		sc[m].a = in->cells[i].v[0];
		sc[m].b = in->cells[i].v[1];
		idx[m++] = i;
	}
	if (m && il_stat_maxt(sc, m, &perm, t, p))
		goto out;
	printf("# %d cells, %d tested; %d a and %d b runs each; %llu relabellings (%s); alpha %g, "
	       "min effect %g %%\n", in->ncells, m, na, nb, (unsigned long long)perm.used,
	       perm.exact ? "all" : "random", alpha, min_pct);
	printf("cell\tn_a\tmean_a\tcv_a\tn_b\tmean_b\tcv_b\tdiff_pct\tp_adj\tcall\n");
	for (int i = 0, k = 0; i < in->ncells; i++) {
		const struct cell *c = &in->cells[i];
		struct il_stat_diff d;
		bool tested = k < m && idx[k] == i;
		double padj = tested ? p[k++] : 1.0;

		if (il_stat_diff(c->v[0], na, c->v[1], nb, IL_STAT_WELCH, IL_STAT_LEVEL, &d))
			goto out;
		printf("%s\t%d\t%.6g\t%.3g\t%d\t%.6g\t%.3g\t", c->name, na, mean_of(c->v[0], na),
		       cv_pct(c->v[0], na), nb, mean_of(c->v[1], nb), cv_pct(c->v[1], nb));
		if (isnan(d.rel))
			printf("%s\t", d.diff == 0 ? "0" : "inf");
		else
			printf("%.3g\t", d.rel);
		printf("%.4g\t%s\n", padj, tested ? call_of(&d, padj, alpha, min_pct) : "same");
	}
	ret = 0;
out:
	free(sc);
	free(t);
	free(p);
	free(idx);
	return ret;
}

static void usage(void)
{
	fprintf(stderr, "usage: calls [--alpha A] [--min-effect PCT] [--seed N] FILE|-\n");
	exit(2);
}

int main(int argc, char **argv)
{
	double alpha = IL_VERDICT_DEFAULT_ALPHA, min_pct = IL_VERDICT_DEFAULT_MIN_EFFECT;
	const char *path = NULL;
	struct input in = { 0 };
	u64 seed = 1;
	FILE *f;
	int r;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--alpha") && i + 1 < argc)
			alpha = atof(argv[++i]);
		else if (!strcmp(argv[i], "--min-effect") && i + 1 < argc)
			min_pct = atof(argv[++i]);
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 10);
		else if (path || (argv[i][0] == '-' && argv[i][1]))
			usage();
		else
			path = argv[i];
	}
	if (!path || !(alpha > 0 && alpha < 1) || !(min_pct >= 0))
		usage();
	in.cells = calloc(MAX_CELLS, sizeof(*in.cells));
	if (!in.cells)
		return 1;
	f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!f) {
		fprintf(stderr, "calls: %s: %s\n", path, strerror(errno));
		return 1;
	}
	r = read_input(f, strcmp(path, "-") ? path : "stdin", &in);
	if (f != stdin)
		fclose(f);
	if (!r && judge(&in, alpha, min_pct, seed))
		r = -1;
	free(in.cells);
	return r ? 1 : 0;
}
