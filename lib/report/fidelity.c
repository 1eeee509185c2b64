// SPDX-License-Identifier: GPL-2.0-only
/*
 * fidelity.c - the lab against the seeds in `idlelab report`, from the JSON of the fidelity
 * scoreboard (tests/fidelity/fidelity --json, docs/report.md):
 *
 *  1. A scatter on log axes of the lab's mean (y) against the seeds' value (x) for every
 *     number whose size is compared, with the y = x line, the ±25 % band around it, the
 *     lab's 95 % interval as an error bar, and one colour per row family (platform and
 *     scenario: rk3588 fio, pseries wakeup ...).
 *  2. Per finding (a comparison on which the seeds make a claim), a bar of the share of lab
 *     seeds on which the seeds' direction holds, blue when the lab's mean goes the seeds'
 *     way and red when it does not, labelled with both directions.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chart.h"
#include "model.h"
#include "plot.h"

#ifdef HAVE_JANSSON

#define FID_MAX_FAMILIES 32
#define FID_PLOT_H 460.0
#define FID_BAND 0.25
#define FID_BAR_ROW 17.0
#define FID_BAR_LEFT 430.0
#define FID_BAR_W 300.0
#define FID_OPEN_FINDINGS 60 /* more findings start folded */

/* Column @key of @row as text, "?" when it is not a string (the input is not trusted). */
static const char *txt(const json_t *row, const char *key)
{
	const char *s = il_json_str(row, key);

	return s ? s : "?";
}

struct families {
	int n;
	char *name[FID_MAX_FAMILIES]; /* into the JSON */
	char *color[FID_MAX_FAMILIES];
};

static int family_index(struct families *f, const char *name)
{
	int i;

	if (!name)
		name = "?";
	for (i = 0; i < f->n; i++)
		if (!strcmp(f->name[i], name))
			return i;
	if (f->n == FID_MAX_FAMILIES)
		return f->n - 1;
	f->name[f->n] = (char *)name;
	f->color[f->n] = (char *)il_color_series(f->n);
	return f->n++;
}

/* A number drawn on the scatter: compared in size, both values on a log axis. */
static bool drawn(const json_t *row)
{
	const char *sized = il_json_str(row, "sized");

	return sized && !strcmp(sized, "yes") && il_json_num(row, "seeds") > 0 &&
	       il_json_num(row, "lab_mean") > 0;
}

static void value_range(const json_t *rows, double *lo, double *hi)
{
	size_t i;
	json_t *row;

	*lo = INFINITY;
	*hi = 0;
	json_array_foreach(rows, i, row) {
		double s = il_json_num(row, "seeds"), m = il_json_num(row, "lab_mean");
		double ci = il_json_num(row, "lab_ci95");

		if (!drawn(row))
			continue;
		*lo = fmin(*lo, fmin(s, m));
		*hi = fmax(*hi, fmax(s, fmax(m, isnan(ci) ? m : m + ci)));
	}
	*lo /= 1.5;
	*hi *= 1.5;
}

/* The ±25 % band and the y = x line, clipped to the square log domain [lo, hi]. */
static void band(FILE *out, const struct il_plot *p, double lo, double hi)
{
	const double up = 1 + FID_BAND, down = 1 - FID_BAND;
	const double pt[6][2] = {
		{ lo, lo * up }, { hi / up, hi }, { hi, hi },
		{ hi, hi * down }, { lo / down, lo }, { lo, lo },
	};

	fputs("<polygon points=\"", out);
	for (int i = 0; i < 6; i++)
		fprintf(out, "%s%.1f,%.1f", i ? " " : "", il_plot_x(p, pt[i][0]),
			il_plot_y(p, pt[i][1]));
	fputs("\" fill=\"#dcebdc\" stroke=\"none\"><title>within ±25 % of the "
	      "seeds</title></polygon>\n",
	      out);
	il_svg_line(out, il_plot_x(p, lo), il_plot_y(p, lo), il_plot_x(p, hi), il_plot_y(p, hi),
		    "#4a7a4a", 1.5, "6 4");
}

static void point(FILE *out, const struct il_plot *p, const json_t *row, const char *color)
{
	double s = il_json_num(row, "seeds"), m = il_json_num(row, "lab_mean"),
	       ci = il_json_num(row, "lab_ci95");
	double x = il_plot_x(p, s), y = il_plot_y(p, m);
	char tip[512];

	if (!isnan(ci) && ci > 0) {
		/* An interval that reaches 0 or below runs off the log axis: dotted, no cap. */
		bool open = m - ci <= p->ys.d0;
		double y0 = il_plot_y(p, open ? p->ys.d0 : m - ci), y1 = il_plot_y(p, m + ci);

		il_svg_line(out, x, y, x, y1, color, 1.2, NULL);
		il_svg_line(out, x, y0, x, y, color, 1.2, open ? "2 3" : NULL);
		if (!open)
			il_svg_line(out, x - 3, y0, x + 3, y0, color, 1.2, NULL);
		il_svg_line(out, x - 3, y1, x + 3, y1, color, 1.2, NULL);
	}
	snprintf(tip, sizeof(tip), "%s %s %s: seeds %.4g, lab %.4g ± %.3g (×%.3f)",
		 txt(row, "group"), txt(row, "seeds_label"), txt(row, "metric"), s, m,
		 isnan(ci) ? 0 : ci, m / s);
	il_svg_circle(out, x, y, 3.5, color, tip);
}

static int scatter(FILE *out, const struct il_rpt_input *in)
{
	const json_t *rows = json_object_get(in->root, "fidelity numbers");
	struct families fam = { 0 };
	struct il_legend lg;
	struct il_plot p;
	double lo, hi, top, h;
	int n = 0, within = 0, left = 0;
	char title[256], note[256];
	size_t i;
	json_t *row;

	json_array_foreach(rows, i, row) {
		if (!drawn(row)) {
			left++;
			continue;
		}
		family_index(&fam, il_json_str(row, "family"));
		n++;
		within += fabs(il_json_num(row, "lab_mean") / il_json_num(row, "seeds") - 1) <=
			  FID_BAND;
	}
	if (!n)
		return 1;
	value_range(rows, &lo, &hi);
	lg = (struct il_legend){ fam.n, fam.name, fam.color, IL_SWATCH_BOX };
	snprintf(title, sizeof(title), "Lab against seeds: %s", in->name);
	top = il_chart_head_height("lab mean ± 95 % CI over the lab seeds; shaded: within ±25 %",
				   &lg);
	il_plot_layout(&p, lo, hi, true, lo, hi, true, top, FID_PLOT_H);
	/* One domain on both axes, so that y = x is the diagonal. */
	p.xs.d0 = p.ys.d0 = fmin(p.xt.lo, p.yt.lo);
	p.xs.d1 = p.ys.d1 = fmax(p.xt.hi, p.yt.hi);
	h = p.bottom + IL_PLOT_AXIS_ROOM + 24;
	fputs("<figure>\n", out);
	il_svg_open(out, IL_CHART_WIDTH, h, title);
	il_chart_head(out, title, "lab mean ± 95 % CI over the lab seeds; shaded: within ±25 %",
		      &lg);
	band(out, &p, p.xs.d0, p.xs.d1);
	il_plot_axes(out, &p, "the seeds' value (log scale)", "the lab's mean (log scale)");
	json_array_foreach(rows, i, row)
		if (drawn(row))
			point(out, &p, row,
			      fam.color[family_index(&fam, il_json_str(row, "family"))]);
	snprintf(note, sizeof(note),
		 "%d numbers, %d within ±25 %%; not drawn: %d (size not compared, no lab value, or "
		 "not > 0); dotted: the interval reaches 0",
		 n, within, left);
	il_chart_note(out, p.bottom + IL_PLOT_AXIS_ROOM + 12, note);
	il_svg_close(out);
	fputs("</figure>\n", out);
	return 0;
}

static bool is_claim(const json_t *row)
{
	const char *s = il_json_str(row, "seeds");

	return s && strcmp(s, "=") && !isnan(il_json_num(row, "holds"));
}

static void finding_bar(FILE *out, const json_t *row, double y)
{
	const char *sd = il_json_str(row, "seeds"), *ld = il_json_str(row, "lab");
	double holds = il_json_num(row, "holds"), nseeds = il_json_num(row, "lab_seeds");
	bool right = ld && !strcmp(sd, ld);
	const char *fill = right ? "#2166ac" : "#b2182b";
	char label[512], tip[768], value[128];
	double w = nseeds > 0 ? FID_BAR_W * holds / nseeds : 0;

	snprintf(label, sizeof(label), "%s %s: %s vs %s", txt(row, "group"), txt(row, "metric"),
		 txt(row, "a"), txt(row, "b"));
	snprintf(tip, sizeof(tip), "%s: seeds a %s b, lab a %s b, holds on %.0f/%.0f lab seeds",
		 label, sd, ld ? ld : "?", holds, nseeds);
	il_chart_label(out, FID_BAR_LEFT - 8, y + 12, "end", FID_BAR_LEFT - 16, IL_CHART_SMALL_PX,
		       IL_CHART_INK, label);
	il_svg_rect(out, FID_BAR_LEFT, y + 2, FID_BAR_W, FID_BAR_ROW - 4, "#eeeeee", NULL);
	il_svg_rect(out, FID_BAR_LEFT, y + 2, fmax(w, 1), FID_BAR_ROW - 4, fill, tip);
	snprintf(value, sizeof(value), "seeds a%sb, lab a%sb: %.0f/%.0f", sd, ld ? ld : "?", holds,
		 nseeds);
	il_svg_text(out, FID_BAR_LEFT + FID_BAR_W + 8, y + 12, "start", IL_CHART_SMALL_PX, NULL,
		    right ? IL_CHART_INK : "#b2182b", value);
}

static int findings(FILE *out, const struct il_rpt_input *in)
{
	static char *const labels[] = { "the lab goes the seeds' way", "the lab goes the other "
								       "way" };
	static char *const colors[] = { "#2166ac", "#b2182b" };
	const json_t *rows = json_object_get(in->root, "fidelity comparisons");
	struct il_legend lg = { 2, labels, colors, IL_SWATCH_BOX };
	const char *sub = "a finding: the seeds' direction of b against a ('<': b higher); the "
			  "bar: the share of lab seeds on which it holds";
	int n = 0, none = 0, right = 0;
	double top, y, h;
	char title[256], note[128];
	size_t i;
	json_t *row;

	json_array_foreach(rows, i, row) {
		const char *sd = il_json_str(row, "seeds"), *ld = il_json_str(row, "lab");

		n += is_claim(row);
		none += !is_claim(row);
		right += is_claim(row) && ld && !strcmp(sd, ld);
	}
	if (!n)
		return 1;
	/* A full scoreboard has hundreds of findings: folded, with the count outside. */
	fprintf(out,
		"<details%s>\n<summary>%d findings, the lab goes the seeds' way in %d</summary>\n",
		n <= FID_OPEN_FINDINGS ? " open=\"open\"" : "", n, right);
	snprintf(title, sizeof(title), "Seeds' findings in the lab: %s", in->name);
	top = il_chart_head_height(sub, &lg) + 4;
	h = top + n * FID_BAR_ROW + 36;
	fputs("<figure>\n", out);
	il_svg_open(out, IL_CHART_WIDTH, h, title);
	il_chart_head(out, title, sub, &lg);
	y = top;
	json_array_foreach(rows, i, row) {
		if (!is_claim(row))
			continue;
		finding_bar(out, row, y);
		y += FID_BAR_ROW;
	}
	snprintf(note, sizeof(note),
		 "%d findings; %d comparisons with no claim beyond the seeds' noise are not drawn",
		 n, none);
	il_chart_note(out, y + 20, note);
	il_svg_close(out);
	fputs("</figure>\n</details>\n", out);
	return 0;
}

int il_fidelity_section(FILE *out, const struct il_rpt_input *in, int nin)
{
	int shown = 0;

	for (int i = 0; i < nin; i++) {
		if (in[i].kind != IL_RPT_FIDELITY)
			continue;
		shown += scatter(out, &in[i]) == 0;
		shown += findings(out, &in[i]) == 0;
	}
	return shown;
}

#endif /* HAVE_JANSSON */
