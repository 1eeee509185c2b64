// SPDX-License-Identifier: GPL-2.0-only
/*
 * heatmap.c - the verdict heat maps of `idlelab report`: for each governor judged against
 * the baseline and each metric, a grid of platforms (rows) x scenarios (columns), each
 * cell coloured by the change of the mean in the metric's good (blue) or bad (red)
 * direction, with the change, its interval, the adjusted p-value and the verdict as the
 * cell's tooltip. What the eye meets first must be what the verdict claims, so the strength
 * of a cell's colour follows its verdict's class, and only then the size of the change:
 *
 *   called (better, worse)  strong colour, outlined, bold figure;
 *   not called (same)       a faint tint of the same colour: a large change whose interval
 *                           spans zero (pingpong:cpus=6, -46 % [-161, +70]) stays faint;
 *   sensitive               faint and hatched, dashed outline: the sign depends on the model;
 *   n/a                     grey.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "svg.h"
#include "../verdict/verdict.h"
#include "util/array.h"

#ifdef HAVE_JANSSON

#define HEAT_CELL_W 46.0
#define HEAT_CELL_H 24.0
#define HEAT_LEFT 120.0
#define HEAT_TOP_LABEL 170.0
#define HEAT_CLAMP_PCT 20.0 /* changes beyond this get the full colour */
#define HEAT_MIN_W 860.0    /* the narrowest map: the legend's widest row fits it */
#define HEAT_LEGEND_STEP 40.0
#define HEAT_LEGEND_ROW 26.0

/* The distinct values of column @key over @rows in first-seen order; Return: their number. */
static int distinct(const json_t *rows, const char *key, const char *gov, const char *metric_key,
		    const char **out, int cap)
{
	size_t i;
	json_t *row;
	int n = 0;

	json_array_foreach(rows, i, row) {
		const char *v = il_json_str(row, key);
		int k = 0;

		if (!v ||
		    (gov && strcmp(il_json_str(row, "gov") ? il_json_str(row, "gov") : "", gov)) ||
		    (metric_key &&
		     strcmp(il_json_str(row, "metric_key") ? il_json_str(row, "metric_key") : "",
			    metric_key)))
			continue;
		while (k < n && strcmp(out[k], v))
			k++;
		if (k == n && n < cap)
			out[n++] = v;
	}
	return n;
}

/* -1 when @v is not among @names, or missing (a row without that field gets no cell). */
static int index_of(const char *const *names, int n, const char *v)
{
	for (int i = 0; v && i < n; i++)
		if (!strcmp(names[i], v))
			return i;
	return -1;
}

/* Blend white towards @rgb by @f in [0, 1]. */
static const char *blend(const int rgb[3], double f, char *buf, size_t cap)
{
	int c[3];

	for (int i = 0; i < 3; i++)
		c[i] = (int)lround(247 + (rgb[i] - 247) * f);
	snprintf(buf, cap, "#%02x%02x%02x", c[0], c[1], c[2]);
	return buf;
}

/* How a cell is drawn: by its verdict (heatmap.c's top comment). */
enum heat_class { HEAT_NA, HEAT_CALLED, HEAT_NOT_CALLED, HEAT_SENSITIVE };

static enum heat_class heat_class_of(const char *verdict)
{
	if (!verdict)
		return HEAT_NOT_CALLED;
	if (!strcmp(verdict, "n/a"))
		return HEAT_NA;
	if (!strcmp(verdict, "better") || !strcmp(verdict, "worse"))
		return HEAT_CALLED;
	return !strcmp(verdict, "sensitive") ? HEAT_SENSITIVE : HEAT_NOT_CALLED;
}

/*
 * The colour of a change of @good % in the good direction (negative: bad): a called cell
 * from 45 % to full strength, any other from white to a 25 % tint, by the size of the change.
 */
static const char *heat_color(double good, bool strong, char *buf, size_t cap)
{
	static const int blue[3] = { 0x21, 0x66, 0xac }, red[3] = { 0xb2, 0x18, 0x2b };
	double f = sqrt(fmin(fabs(good) / HEAT_CLAMP_PCT, 1.0));

	if (isnan(good))
		return "#f7f7f7";
	return blend(good >= 0 ? blue : red, strong ? 0.45 + 0.55 * f : 0.25 * f, buf, cap);
}

/*
 * The hatching of a sensitive cell: diagonal lines 6 px apart, cut to the cell (drawn, not an
 * SVG pattern, so that the page needs no id and no url() reference).
 */
static void heat_hatch(FILE *out, double x, double y, double w, double h)
{
	for (double c = -h + 3; c < w; c += 6) {
		double ya = fmax(0, -c), yb = fmin(h, w - c);

		if (yb > ya)
			il_svg_line(out, x + ya + c, y + ya, x + yb + c, y + yb, "#666666", 1.2,
				    NULL);
	}
}

/* The outline of a called (solid) or sensitive (dashed) cell. */
static void heat_outline(FILE *out, double x, double y, double w, double h, bool dashed)
{
	fprintf(out,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		"stroke=\"%s\" stroke-width=\"%s\"%s/>\n", x, y, w, h,
		dashed ? "#444444" : "#111111", dashed ? "1.2" : "2",
		dashed ? " stroke-dasharray=\"3 2\"" : "");
}

/* A swatch of @cls (fill @fill) at (@x, @y), hatched and outlined as a cell of that class. */
static void heat_swatch(FILE *out, double x, double y, double w, double h, const char *fill,
			enum heat_class cls, const char *tip)
{
	il_svg_rect(out, x, y, w, h, fill, tip);
	if (cls == HEAT_SENSITIVE)
		heat_hatch(out, x, y, w, h);
	if (cls == HEAT_CALLED || cls == HEAT_SENSITIVE)
		heat_outline(out, x + 1, y + 1, w - 2, h - 2, cls == HEAT_SENSITIVE);
}

struct heat_grid {
	const char *plat[64], *scn[64];
	int nplat, nscn;
};

static void heat_tip(const json_t *row, char *tip, size_t cap)
{
	const char *verdict = il_json_str(row, "verdict"), *reason = il_json_str(row, "reason");
	double d = il_json_num(row, "delta_pct"), lo = il_json_num(row, "ci_lo_pct");
	double hi = il_json_num(row, "ci_hi_pct"), p = il_json_num(row, "p_adj");
	size_t len = (size_t)snprintf(tip, cap, "%s %s %s: ", il_json_str(row, "platform"),
				      il_json_str(row, "scenario"), il_json_str(row, "metric"));

	if (len >= cap)
		return;
	if (verdict && !strcmp(verdict, "n/a")) {
		snprintf(tip + len, cap - len, "n/a (%s)", reason ? reason : "no value");
		return;
	}
	if (isnan(d))
		len += (size_t)snprintf(tip + len, cap - len, "base mean 0");
	else if (isnan(lo))
		len += (size_t)snprintf(tip + len, cap - len, "%+.1f %%", d);
	else
		len += (size_t)snprintf(tip + len, cap - len, "%+.1f %% [%+.1f, %+.1f]", d, lo, hi);
	if (len < cap && !isnan(p))
		len += (size_t)snprintf(tip + len, cap - len, ", adjusted p %.4f", p);
	if (len < cap)
		snprintf(tip + len, cap - len, ", %s", verdict ? verdict : "?");
}

static void heat_cell(FILE *out, const json_t *row, double x, double y)
{
	enum heat_class cls = heat_class_of(il_json_str(row, "verdict"));
	double d = il_json_num(row, "delta_pct");
	double good = il_json_num(row, "higher_is_better") > 0 ? d : -d;
	char tip[512], col[16], text[32];
	const char *fill = cls == HEAT_NA ? "#d0d0d0" :
			   heat_color(good, cls == HEAT_CALLED, col, sizeof(col));
	const char *ink = cls == HEAT_NA ? "#555555" :
			  cls == HEAT_CALLED ? il_ink_on(fill) : "#333333";

	heat_tip(row, tip, sizeof(tip));
	heat_swatch(out, x + 1, y + 1, HEAT_CELL_W - 2, HEAT_CELL_H - 2, fill, cls, tip);
	if (cls == HEAT_NA)
		snprintf(text, sizeof(text), "n/a");
	else if (isnan(d))
		snprintf(text, sizeof(text), "-");
	else
		snprintf(text, sizeof(text), "%+.*f", fabs(d) < 10 ? 1 : 0, d);
	il_svg_text(out, x + HEAT_CELL_W / 2, y + HEAT_CELL_H / 2 + 4, "middle", 10,
		    cls == HEAT_CALLED ? "bold" : NULL, ink, text);
}

static void heat_labels(FILE *out, const struct heat_grid *g)
{
	char buf[256];

	for (int s = 0; s < g->nscn; s++) {
		double x = HEAT_LEFT + (s + 0.5) * HEAT_CELL_W + 4, y = HEAT_TOP_LABEL - 6;

		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"start\" font-size=\"10\" "
			     "transform=\"rotate(-60 %.1f %.1f)\">", x, y, x, y);
		il_xml_escape(out, il_text_fit(g->scn[s], 190, 10, buf, sizeof(buf)));
		fputs("<title>", out);
		il_xml_escape(out, g->scn[s]);
		fputs("</title></text>\n", out);
	}
	for (int p = 0; p < g->nplat; p++)
		il_svg_text(out, HEAT_LEFT - 6, HEAT_TOP_LABEL + (p + 0.5) * HEAT_CELL_H + 4, "end",
			    11, NULL, "#222222",
			    il_text_fit(g->plat[p], HEAT_LEFT - 10, 11, buf, sizeof(buf)));
}

/* One row of the legend: @label, then the change scale of a called or a not-called cell. */
static void heat_legend_scale(FILE *out, double y, bool strong, const char *label)
{
	static const double steps[] = { -20, -10, -5, -2, 0, 2, 5, 10, 20 };
	char col[16], text[32];
	double x = HEAT_LEFT;

	il_svg_text(out, HEAT_LEFT - 6, y + 14, "end", 10, NULL, "#444444", label);
	for (size_t i = 0; i < ARRAY_SIZE(steps); i++, x += HEAT_LEGEND_STEP) {
		const char *fill = heat_color(steps[i], strong, col, sizeof(col));

		heat_swatch(out, x, y, HEAT_LEGEND_STEP - 2, 20, fill,
			    strong ? HEAT_CALLED : HEAT_NOT_CALLED, NULL);
		snprintf(text, sizeof(text), "%+.0f", steps[i]);
		il_svg_text(out, x + HEAT_LEGEND_STEP / 2 - 1, y + 14, "middle", 10,
			    strong ? "bold" : NULL, strong ? il_ink_on(fill) : "#333333", text);
	}
	il_svg_text(out, x + 6, y + 14, "start", 10, NULL, "#444444",
		    strong ? "Δ % of the mean, bad … good" : "a faint tint: not called");
}

/*
 * The legend, in three rows that fit the narrowest heat map (HEAT_MIN_W): the strong scale
 * of called cells, the faint one of cells not called, then the sensitive and n/a swatches
 * and where the numbers are.
 */
static void heat_legend(FILE *out, double y)
{
	char col[16];
	double x = HEAT_LEFT;

	heat_legend_scale(out, y, true, "called");
	heat_legend_scale(out, y + HEAT_LEGEND_ROW, false, "not called");
	y += 2 * HEAT_LEGEND_ROW;
	heat_swatch(out, x, y, HEAT_LEGEND_STEP - 2, 20, heat_color(-5, false, col, sizeof(col)),
		    HEAT_SENSITIVE, NULL);
	il_svg_text(out, x + HEAT_LEGEND_STEP + 4, y + 14, "start", 10, NULL, "#444444",
		    "sensitive: the sign depends on the model");
	x += 270;
	il_svg_rect(out, x, y, HEAT_LEGEND_STEP - 2, 20, "#d0d0d0", NULL);
	il_svg_text(out, x + HEAT_LEGEND_STEP / 2 - 1, y + 14, "middle", 10, NULL, "#555555",
		    "n/a");
	il_svg_text(out, x + HEAT_LEGEND_STEP + 4, y + 14, "start", 10, NULL, "#444444",
		    "a cell's tooltip: its interval, p and verdict");
}

/* The values of key @key of the key/value table @kv in its order (the verdict's own order). */
static int settings_list(const json_t *kv, const char *key, const char **out, int cap)
{
	size_t i;
	json_t *row;
	int n = 0;

	json_array_foreach(kv, i, row) {
		const char *k = il_json_str(row, "key"), *v = il_json_str(row, "value");

		if (k && v && !strcmp(k, key) && n < cap)
			out[n++] = v;
	}
	return n;
}

/* One heat map: the cells of @gov for metric @key; Return: 0, 1 when it has no cell. */
static int heat_svg(FILE *out, const json_t *root, const char *gov, const char *base,
		    const char *key)
{
	const json_t *rows = json_object_get(root, "verdict_cells"),
		     *kv = json_object_get(root, "verdict");
	struct heat_grid g;
	double w, h;
	char label[256];
	size_t i;
	json_t *row;

	if (!distinct(rows, "platform", gov, key, g.plat, 64))
		return 1;
	g.nplat = settings_list(kv, "platform", g.plat, 64);
	g.nscn = settings_list(kv, "scenario", g.scn, 64);
	if (!g.nplat || !g.nscn)
		return 1;
	fputs("<figure class=\"scroll\">\n", out);
	w = fmax(HEAT_LEFT + g.nscn * HEAT_CELL_W + 20, HEAT_MIN_W);
	h = HEAT_TOP_LABEL + g.nplat * HEAT_CELL_H + 20 + 3 * HEAT_LEGEND_ROW;
	snprintf(label, sizeof(label), "%s vs %s: %s, change of the mean per platform and scenario",
		 gov, base, key);
	il_svg_open(out, w, h, label);
	il_svg_text(out, 8, 18, "start", 14, "bold", "#222222", label);
	heat_labels(out, &g);
	json_array_foreach(rows, i, row) {
		const char *rg = il_json_str(row, "gov"), *rk = il_json_str(row, "metric_key");
		int p, s;

		if (!rg || !rk || strcmp(rg, gov) || strcmp(rk, key))
			continue;
		p = index_of(g.plat, g.nplat, il_json_str(row, "platform"));
		s = index_of(g.scn, g.nscn, il_json_str(row, "scenario"));
		if (p >= 0 && s >= 0)
			heat_cell(out, row, HEAT_LEFT + s * HEAT_CELL_W,
				  HEAT_TOP_LABEL + p * HEAT_CELL_H);
	}
	heat_legend(out, HEAT_TOP_LABEL + g.nplat * HEAT_CELL_H + 12);
	il_svg_close(out);
	fputs("</figure>\n", out);
	return 0;
}

int il_heat_summary(FILE *out, const struct il_rpt_input *in, int nin)
{
	int shown = 0;

	for (int i = 0; i < nin; i++) {
		const json_t *rows = json_object_get(in[i].root, "verdict_summary");
		size_t r;
		json_t *row;

		if (in[i].kind != IL_RPT_VERDICT)
			continue;
		json_array_foreach(rows, r, row) {
			const char *line = il_json_str(row, "line");

			if (!line)
				continue;
			if (!shown++)
				fputs("<section id=\"verdict-lines\" class=\"headline\">\n", out);
			fputs("<p class=\"verdict-line\"><a href=\"#verdict\">", out);
			il_xml_escape(out, in[i].name);
			fputs("</a>: <b>", out);
			il_xml_escape(out, line);
			fputs("</b></p>\n", out);
		}
	}
	if (shown)
		fputs("</section>\n", out);
	return shown;
}

/* The verdict's metrics (lib/verdict: the catalogue's), the score and energy first. */
static const char *heat_key(int k)
{
	if (k < 2)
		return il_vmetric_key(k ? IL_VM_ENERGY : IL_VM_SCORE);
	return il_vmetric_key(k - 1);
}

int il_heat_section(FILE *out, const struct il_rpt_input *in, int nin)
{
	int shown = 0;

	for (int i = 0; i < nin; i++) {
		const json_t *rows = json_object_get(in[i].root, "verdict_cells");
		const char *gov[64];
		int ngov;

		if (in[i].kind != IL_RPT_VERDICT)
			continue;
		ngov = distinct(rows, "gov", NULL, NULL, gov, 64);
		for (int g = 0; g < ngov; g++) {
			const char *base = NULL;
			size_t r;
			json_t *row;

			json_array_foreach(rows, r, row)
				if (!base && il_json_str(row, "gov") &&
				    !strcmp(il_json_str(row, "gov"), gov[g]))
					base = il_json_str(row, "baseline");
			fputs("<h3>", out);
			il_xml_escape(out, in[i].name);
			fputs(": ", out);
			il_xml_escape(out, gov[g]);
			fputs(" vs ", out);
			il_xml_escape(out, base ? base : "?");
			fputs("</h3>\n", out);
			for (int k = 0; k < IL_VM_COUNT; k++) {
				if (k == 1)
					fputs("<details>\n<summary>The other metrics: energy, idle "
					      "misses, aboves, belows, wakeup latency</summary>\n",
					      out);
				if (!heat_svg(out, in[i].root, gov[g], base ? base : "?",
					      heat_key(k)))
					shown++;
			}
			fputs("</details>\n", out);
		}
	}
	return shown;
}

#endif /* HAVE_JANSSON */
