// SPDX-License-Identifier: GPL-2.0-only
/*
 * frontier.c - governors against the open-loop bound in `idlelab report`: for every "bound"
 * table (replay -f json, run/compare --bound), the frontier of energy against added exit
 * latency as a line through its λ points, and each governor of the "gap to bound" table
 * that follows it as a point labelled with its gap ("+2.0 % energy at equal added
 * latency"). No governor can sit below the frontier on these idle periods.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "model.h"
#include "plot.h"

#ifdef HAVE_JANSSON

#define FR_PLOT_H 400.0
#define FR_MAX_PTS 64
#define FR_MAX_GOVS 64
#define FR_LABEL_GAP 14.0

static bool is_bound_table(const char *key, const json_t *t)
{
	return !strncmp(key, "bound", 5) && json_is_array(t) && json_array_size(t) &&
	       !isnan(il_json_num(json_array_get(t, 0), "energy_mj")) &&
	       !isnan(il_json_num(json_array_get(t, 0), "added_latency_us"));
}

static bool is_gap_table(const char *key, const json_t *t)
{
	return !strncmp(key, "gap to bound", 12) && json_is_array(t) && json_array_size(t) &&
	       il_json_str(json_array_get(t, 0), "governor");
}

bool il_bound_has(const struct il_rpt_input *in)
{
	const char *key;
	json_t *t;

	json_object_foreach(in->root, key, t)
		if (is_bound_table(key, t))
			return true;
	return false;
}

struct frontier {
	int n, ngov;
	double x[FR_MAX_PTS], y[FR_MAX_PTS]; /* added latency µs, energy mJ, by latency */
	const json_t *lambda[FR_MAX_PTS];
	const json_t *gov[FR_MAX_GOVS];      /* rows of the gap table(s) */
};

static void frontier_points(struct frontier *f, const json_t *t)
{
	size_t i;
	json_t *row;

	json_array_foreach(t, i, row) {
		double x = il_json_num(row, "added_latency_us"), y = il_json_num(row, "energy_mj");
		int k;

		if (isnan(x) || isnan(y) || f->n == FR_MAX_PTS)
			continue;
		for (k = f->n; k > 0 && f->x[k - 1] > x; k--) {
			f->x[k] = f->x[k - 1];
			f->y[k] = f->y[k - 1];
			f->lambda[k] = f->lambda[k - 1];
		}
		f->x[k] = x;
		f->y[k] = y;
		f->lambda[k] = json_object_get(row, "lambda_nj_per_us");
		f->n++;
	}
}

static void ranges(const struct frontier *f, double *xhi, double *ylo, double *yhi)
{
	*xhi = 0;
	*ylo = INFINITY;
	*yhi = 0;
	for (int i = 0; i < f->n; i++) {
		*xhi = fmax(*xhi, f->x[i]);
		*ylo = fmin(*ylo, f->y[i]);
		*yhi = fmax(*yhi, f->y[i]);
	}
	for (int g = 0; g < f->ngov; g++) {
		double x = il_json_num(f->gov[g], "added_latency_us"),
		       y = il_json_num(f->gov[g], "energy_mj");

		if (!isnan(x) && !isnan(y)) {
			*xhi = fmax(*xhi, x);
			*ylo = fmin(*ylo, y);
			*yhi = fmax(*yhi, y);
		}
	}
}

static void draw_frontier(FILE *out, const struct il_plot *p, const struct frontier *f)
{
	double px[FR_MAX_PTS], py[FR_MAX_PTS];
	char tip[256], lambda[64];

	for (int i = 0; i < f->n; i++) {
		px[i] = il_plot_x(p, f->x[i]);
		py[i] = il_plot_y(p, f->y[i]);
	}
	il_svg_polyline(out, px, py, f->n, "#222222", 2);
	for (int i = 0; i < f->n; i++) {
		if (json_is_number(f->lambda[i]))
			snprintf(lambda, sizeof(lambda), "%.10g nJ/µs",
				 json_number_value(f->lambda[i]));
		else
			snprintf(lambda, sizeof(lambda), "%s", json_is_string(f->lambda[i]) ?
				 json_string_value(f->lambda[i]) : "?");
		snprintf(tip, sizeof(tip), "bound, λ = %s: %.3f mJ at %.1f µs added latency",
			 lambda, f->y[i], f->x[i]);
		il_svg_circle(out, px[i], py[i], 3, "#222222", tip);
	}
}

/* The gap text of a row: its verdict without "gap to bound: ". */
static const char *gap_text(const json_t *row)
{
	const char *v = il_json_str(row, "verdict");

	if (!v)
		return "?";
	return !strncmp(v, "gap to bound: ", 14) ? v + 14 : v;
}

static int by_y(const void *a, const void *b)
{
	const double *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

static void draw_govs(FILE *out, const struct il_plot *p, const struct frontier *f,
		      const struct il_model *m)
{
	double lab[FR_MAX_GOVS][2]; /* label y, governor index */
	int n = 0;

	for (int g = 0; g < f->ngov; g++) {
		double x = il_json_num(f->gov[g], "added_latency_us"),
		       y = il_json_num(f->gov[g], "energy_mj");
		const char *name = il_json_str(f->gov[g], "governor");
		char tip[512];

		if (isnan(x) || isnan(y) || !name)
			continue;
		snprintf(tip, sizeof(tip), "%s: %.3f mJ at %.1f µs added latency; %s", name, y, x,
			 il_json_str(f->gov[g], "verdict") ? il_json_str(f->gov[g], "verdict") :
							     "");
		il_svg_circle(out, il_plot_x(p, x), il_plot_y(p, y), 5.5,
			      il_model_gov(m, name) >= 0 ? il_model_gov_color(m, name) :
							   il_color_series(g),
			      tip);
		lab[n][0] = il_plot_y(p, y);
		lab[n][1] = g;
		n++;
	}
	/*
	 * The labels in a column at the top right, which a frontier (energy falling as the
	 * added latency grows) leaves empty, in the order of the points so that the leader
	 * lines do not cross.
	 */
	qsort(lab, (size_t)n, sizeof(lab[0]), by_y);
	for (int i = 0; i < n; i++) {
		const json_t *row = f->gov[(int)lab[i][1]];
		double x = il_plot_x(p, il_json_num(row, "added_latency_us"));
		double y = il_plot_y(p, il_json_num(row, "energy_mj"));
		double ly = p->top + 14 + i * FR_LABEL_GAP, lx = p->xs.r1 - 6;
		char text[256];

		snprintf(text, sizeof(text), "%s: %s", il_json_str(row, "governor"), gap_text(row));
		il_svg_line(out, x, y, lx - il_text_width(text, IL_CHART_SMALL_PX) - 4, ly - 4,
			    IL_CHART_MUTED, 0.8, "2 2");
		il_svg_text(out, lx, ly, "end", IL_CHART_SMALL_PX, NULL, IL_CHART_INK, text);
	}
}

static int frontier_svg(FILE *out, const struct il_rpt_input *in, const char *key,
			const struct frontier *f, const struct il_model *m)
{
	const char *sub = "the frontier: per idle period the state minimising energy + λ × exit "
			  "latency, one point per λ; below it no governor can be";
	struct il_plot p;
	double xhi, ylo, yhi, h;
	bool ylog;
	char title[512];

	if (f->n < 1)
		return 1;
	ranges(f, &xhi, &ylo, &yhi);
	ylog = ylo > 0 && yhi >= 10 * ylo;
	snprintf(title, sizeof(title), "Open-loop bound: %s", in->name);
	il_plot_layout(&p, 0, xhi > 0 ? xhi * 1.05 : 1, false, ylog ? ylo / 1.5 : 0, yhi * 1.05,
		       ylog, il_chart_head_height(sub, NULL), FR_PLOT_H);
	h = p.bottom + IL_PLOT_AXIS_ROOM + 24;
	fputs("<figure>\n", out);
	il_svg_open(out, IL_CHART_WIDTH, h, title);
	il_chart_head(out, title, sub, NULL);
	il_plot_axes(out, &p, "added exit latency (µs, summed over the idle periods)",
		     ylog ? "energy (mJ, log scale)" : "energy (mJ)");
	draw_frontier(out, &p, f);
	draw_govs(out, &p, f, m);
	il_chart_note(out, p.bottom + IL_PLOT_AXIS_ROOM + 12, key);
	il_svg_close(out);
	fputs("</figure>\n", out);
	return 0;
}

int il_bound_section(FILE *out, const struct il_rpt_input *in, int nin, const struct il_model *m)
{
	int shown = 0;

	for (int i = 0; i < nin; i++) {
		struct frontier f;
		const char *key, *bkey = NULL;
		json_t *t;

		memset(&f, 0, sizeof(f));
		json_object_foreach(in[i].root, key, t) {
			size_t r;
			json_t *row;

			if (is_bound_table(key, t)) {
				if (bkey)
					shown += frontier_svg(out, &in[i], bkey, &f, m) == 0;
				memset(&f, 0, sizeof(f));
				frontier_points(&f, t);
				bkey = key;
			} else if (bkey && is_gap_table(key, t)) {
				json_array_foreach(t, r, row)
					if (f.ngov < FR_MAX_GOVS)
						f.gov[f.ngov++] = row;
			}
		}
		if (bkey)
			shown += frontier_svg(out, &in[i], bkey, &f, m) == 0;
	}
	return shown;
}

#endif /* HAVE_JANSSON */
