// SPDX-License-Identifier: GPL-2.0-only
/*
 * heatmap.c - the verdict heat maps of `idlelab report`: for each governor judged against
 * the baseline and each metric, a grid of platforms (rows) x scenarios (columns), each
 * cell coloured by the change of the mean in the metric's good (blue) or bad (red)
 * direction, outlined when the verdict called it better or worse, grey when n/a, with
 * the change, its interval, the adjusted p-value and the verdict as the cell's tooltip.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "svg.h"
#include "../verdict/verdict.h"

#ifdef HAVE_JANSSON

#define HEAT_CELL_W 46.0
#define HEAT_CELL_H 24.0
#define HEAT_LEFT 120.0
#define HEAT_TOP_LABEL 170.0
#define HEAT_CLAMP_PCT 20.0 /* changes beyond this get the full colour */

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

/* The colour of a change of @good % in the good direction (negative: bad). */
static const char *heat_color(double good, char *buf, size_t cap)
{
	static const int blue[3] = { 0x21, 0x66, 0xac }, red[3] = { 0xb2, 0x18, 0x2b };
	double f = fmin(fabs(good) / HEAT_CLAMP_PCT, 1.0);

	if (isnan(good))
		return "#f7f7f7";
	return blend(good >= 0 ? blue : red, sqrt(f), buf, cap);
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
	const char *verdict = il_json_str(row, "verdict");
	bool na = verdict && !strcmp(verdict, "n/a");
	bool called = verdict && (!strcmp(verdict, "better") || !strcmp(verdict, "worse"));
	double d = il_json_num(row, "delta_pct");
	double good = il_json_num(row, "higher_is_better") > 0 ? d : -d;
	char tip[512], col[16], text[32];
	const char *fill = na ? "#d0d0d0" : heat_color(good, col, sizeof(col));

	heat_tip(row, tip, sizeof(tip));
	il_svg_rect(out, x + 1, y + 1, HEAT_CELL_W - 2, HEAT_CELL_H - 2, fill, tip);
	if (called)
		fprintf(out,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
			"stroke=\"#111111\" stroke-width=\"2\"/>\n",
			x + 2, y + 2, HEAT_CELL_W - 4, HEAT_CELL_H - 4);
	if (na)
		snprintf(text, sizeof(text), "n/a");
	else if (isnan(d))
		snprintf(text, sizeof(text), "-");
	else
		snprintf(text, sizeof(text), "%+.*f", fabs(d) < 10 ? 1 : 0, d);
	il_svg_text(out, x + HEAT_CELL_W / 2, y + HEAT_CELL_H / 2 + 4, "middle", 10,
		    called ? "bold" : NULL, na ? "#555555" : il_ink_on(fill), text);
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

static void heat_legend(FILE *out, double y)
{
	static const double steps[] = { -20, -10, -5, -2, 0, 2, 5, 10, 20 };
	char col[16], text[32];
	double x = HEAT_LEFT;

	il_svg_text(out, HEAT_LEFT - 6, y + 15, "end", 10, NULL, "#444444", "Δ % (bad … good)");
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++, x += 40) {
		il_svg_rect(out, x, y, 38, 20, heat_color(steps[i], col, sizeof(col)), NULL);
		snprintf(text, sizeof(text), "%+.0f", steps[i]);
		il_svg_text(out, x + 19, y + 14, "middle", 10, NULL, il_ink_on(col), text);
	}
	il_svg_text(out, x + 6, y + 14, "start", 10, NULL, "#444444",
		    "outlined: called better/worse; grey: n/a; the tooltip has the interval and p");
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
	w = fmax(HEAT_LEFT + g.nscn * HEAT_CELL_W + 20, 860);
	h = HEAT_TOP_LABEL + g.nplat * HEAT_CELL_H + 40;
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
