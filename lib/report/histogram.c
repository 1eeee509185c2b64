// SPDX-License-Identifier: GPL-2.0-only
/*
 * histogram.c - the residency histogram of a trace (`idlelab stats -f json`): idle periods
 * per log2 bin of measured residency, one column per state, CPUs summed. The stats table
 * leaves empty bins out; they are put back between the first and the last bin so that
 * the x axis is continuous. A log y axis when the counts span three decades.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "svg.h"

#ifdef HAVE_JANSSON

#define MAX_BINS 64

struct bin {
	double from, to; /* µs; to NaN: open-ended */
};

static int find_bin(const struct bin *bins, int n, double from)
{
	for (int i = 0; i < n; i++)
		if (bins[i].from == from)
			return i;
	return -1;
}

static int by_from(const void *a, const void *b)
{
	double x = ((const struct bin *)a)->from, y = ((const struct bin *)b)->from;

	return (x > y) - (x < y);
}

/* The bins of the table, sorted, with the empty log2 bins between them put back. */
static int collect_bins(const json_t *hist, struct bin *bins)
{
	struct bin seen[MAX_BINS];
	int n = 0, out = 0;
	size_t i;
	json_t *row;

	json_array_foreach(hist, i, row) {
		double from = il_json_num(row, "from_us");

		if (!isnan(from) && n < MAX_BINS && find_bin(seen, n, from) < 0)
			seen[n++] = (struct bin){ from, il_json_num(row, "to_us") };
	}
	qsort(seen, (size_t)n, sizeof(seen[0]), by_from);
	for (int k = 0; k < n && out < MAX_BINS; k++) {
		bins[out++] = seen[k];
		if (k + 1 == n || isnan(seen[k].to) || seen[k].to <= 0)
			continue;
		/* Empty bins: the log2 bins from this one's end to the next one's start. */
		for (double from = seen[k].to; from < seen[k + 1].from && out < MAX_BINS; from *= 2)
			bins[out++] = (struct bin){ from, 2 * from };
	}
	return out;
}

static int state_names(const json_t *hist, const char **names)
{
	int n = 0;
	size_t i;
	json_t *row;

	json_array_foreach(hist, i, row) {
		const char *name = il_json_str(row, "name");
		bool seen = false;

		for (int k = 0; name && k < n && !seen; k++)
			seen = !strcmp(names[k], name);
		if (name && !seen && n < IL_RPT_MAX_STATES)
			names[n++] = name;
	}
	return n;
}

static char *edge_text(double us)
{
	return isnan(us) ? il_strf("\xe2\x88\x9e") : il_strf("%g", us);
}

int il_chart_histogram(const struct il_rpt_input *in, struct il_cols *c)
{
	const json_t *hist = json_object_get(in->root, "histogram");
	const char *names[IL_RPT_MAX_STATES];
	const char *path = il_json_kv(json_object_get(in->root, "trace"), "path");
	const char *base = path && strrchr(path, '/') ? strrchr(path, '/') + 1 :
			   path ? path : in->name;
	struct bin bins[MAX_BINS];
	int nbin = collect_bins(hist, bins), nst = state_names(hist, names);
	size_t i;
	json_t *row;

	if (!nbin || !nst)
		return 1;
	if (il_cols_init(c, nbin, nst))
		return -1;
	json_array_foreach(hist, i, row) {
		int b = find_bin(bins, nbin, il_json_num(row, "from_us")), s = 0;
		double v = il_json_num(row, "entries");
		double *cell;

		while (s < nst &&
		       strcmp(names[s], il_json_str(row, "name") ? il_json_str(row, "name") : ""))
			s++;
		if (b < 0 || s == nst || isnan(v))
			continue;
		cell = &c->v[(size_t)b * (size_t)nst + (size_t)s];
		*cell = isnan(*cell) ? v : *cell + v;
	}
	for (int b = 0; b < nbin; b++) {
		c->edge[b] = edge_text(bins[b].from);
		c->cat[b] = isnan(bins[b].to) ?
			il_strf("\xe2\x89\xa5 %g \xc2\xb5s", bins[b].from) :
			il_strf("%g\xe2\x80\x93%g \xc2\xb5s", bins[b].from, bins[b].to);
		if (!c->edge[b] || !c->cat[b])
			goto fail;
	}
	c->edge[nbin] = edge_text(bins[nbin - 1].to);
	for (int s = 0; s < nst; s++) {
		c->ser[s] = strdup(names[s]);
		c->ser_color[s] = strdup(il_color_series(s));
		if (!c->ser[s] || !c->ser_color[s])
			goto fail;
	}
	c->ylog = il_want_log(c->v, nbin * nst, 1000);
	c->title = il_strf("Residency histogram: %s", base);
	c->subtitle = il_strf("idle periods by measured residency, log2 bins, all CPUs together");
	c->xlabel = il_strf("residency, \xc2\xb5s (bin edges)");
	c->ylabel = il_strf("idle periods");
	if (c->ylog)
		c->note = il_strf("log scale on y");
	if (!c->edge[nbin] || !c->title || !c->subtitle || !c->xlabel || !c->ylabel ||
	    (c->ylog && !c->note))
		goto fail;
	return 0;
fail:
	il_cols_free(c);
	errno = ENOMEM;
	return -1;
}

#endif /* HAVE_JANSSON */
