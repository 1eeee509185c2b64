// SPDX-License-Identifier: GPL-2.0-only
/*
 * svg.c - the SVG writer of `idlelab report`: escaping, elements, scales, ticks, colours.
 * See svg.h for the rules.
 */
#include <math.h>
#include <string.h>

#include "svg.h"
#include "util/array.h"

/* Average advance of a glyph, in em, rounded up from DejaVu Sans' (the widest common font). */
#define TEXT_EM_PER_CHAR 0.6
#define ELLIPSIS "\xe2\x80\xa6"
#define REPLACEMENT_CHAR "\xef\xbf\xbd"

void il_xml_escape(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		default:
			/* XML 1.0 allows no C0 control but tab, LF and CR, not even as &#N;. */
			if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
				fputs(REPLACEMENT_CHAR, out);
			else
				fputc(c, out);
		}
	}
}

/* A UTF-8 continuation byte: not the start of a code point. */
static bool is_continuation(char c)
{
	return ((unsigned char)c & 0xc0) == 0x80;
}

double il_text_width(const char *s, double font_px)
{
	size_t n = 0;

	for (; s && *s; s++)
		n += !is_continuation(*s);
	return (double)n * TEXT_EM_PER_CHAR * font_px;
}

const char *il_text_fit(const char *s, double width, double font_px, char *buf, size_t cap)
{
	double per = TEXT_EM_PER_CHAR * font_px, used = per; /* room for the ellipsis */
	size_t cut = 0;

	if (!cap)
		return buf;
	if (il_text_width(s, font_px) <= width) {
		snprintf(buf, cap, "%s", s);
		return buf;
	}
	for (size_t i = 0; s[i]; i++) {
		if (is_continuation(s[i]))
			continue;
		if (used + per > width)
			break;
		used += per;
		/* Cut after this whole code point. */
		cut = i + 1;
		while (s[cut] && is_continuation(s[cut]))
			cut++;
	}
	snprintf(buf, cap, "%.*s" ELLIPSIS, (int)cut, s);
	return buf;
}

double il_scale_map(const struct il_scale *s, double v)
{
	double a = s->d0, b = s->d1, t;

	if (v < fmin(a, b))
		v = fmin(a, b);
	if (v > fmax(a, b))
		v = fmax(a, b);
	if (s->log) {
		a = log10(a);
		b = log10(b);
		v = log10(v);
	}
	t = b != a ? (v - a) / (b - a) : 0.5;
	return s->r0 + t * (s->r1 - s->r0);
}

void il_ticks_linear(double lo, double hi, int target, struct il_ticks *t)
{
	double raw, mag, norm, step, first, last;

	if (target < 2)
		target = 2;
	if (target > IL_TICKS_MAX / 3)
		target = IL_TICKS_MAX / 3;
	if (!(hi > lo)) { /* empty or inverted range: make one around the value */
		double pad = lo != 0 ? fabs(lo) * 0.1 : 0.5;

		if (lo == 0 && hi <= 0) {
			lo = 0;
			hi = 1;
		} else {
			lo -= pad;
			hi = lo + 2 * pad;
		}
	}
	raw = (hi - lo) / target;
	mag = pow(10, floor(log10(raw)));
	norm = raw / mag;
	step = (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * mag;
	first = floor(lo / step + 1e-9);
	last = ceil(hi / step - 1e-9);
	t->n = 0;
	t->step = step;
	for (double k = first; k <= last && t->n < IL_TICKS_MAX; k++) {
		double v = k * step;

		t->v[t->n++] = fabs(v) < step * 1e-9 ? 0 : v; /* no -0 */
	}
	t->lo = first * step;
	t->hi = t->v[t->n - 1];
}

static void add_tick(struct il_ticks *t, double v)
{
	if (t->n < IL_TICKS_MAX)
		t->v[t->n++] = v;
}

void il_ticks_log(double lo, double hi, struct il_ticks *t)
{
	static const double mults[] = { 1, 2, 5 };
	int dlo = (int)floor(log10(lo)), dhi = (int)ceil(log10(hi));
	int decades = dhi - dlo, every = decades > 10 ? (decades + 9) / 10 : 1;
	int nmult = decades <= 3 ? 3 : 1;

	t->n = 0;
	t->step = 0;
	t->lo = lo;
	t->hi = hi;
	for (int d = dlo; d <= dhi; d += every) {
		for (int m = 0; m < nmult; m++) {
			double v = mults[m] * pow(10, d);

			if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9))
				add_tick(t, v);
		}
	}
	if (t->n < 2) { /* less than a decade without a 1-2-5 value inside: mark the ends */
		double mid = t->n ? t->v[0] : NAN;

		t->n = 0;
		add_tick(t, lo);
		if (!isnan(mid))
			add_tick(t, mid);
		add_tick(t, hi);
	}
}

/* Decimals that show a step of @step exactly (steps are 1, 2 or 5 x 10^k). */
static int step_decimals(double step)
{
	int d = step > 0 && step < 1 ? (int)ceil(-log10(step) - 1e-9) : 0;

	return d > 9 ? 9 : d;
}

const char *il_tick_label(double v, const struct il_ticks *t, char *buf, size_t cap)
{
	double big = fmax(fabs(t->lo), fabs(t->hi));
	double div = big >= 1e7 ? 1e6 : big >= 1e4 ? 1e3 : 1;
	const char *suffix = div == 1e6 ? "M" : div == 1e3 ? "k" : "";

	if (t->step > 0) {
		snprintf(buf, cap, "%.*f%s", step_decimals(t->step / div), v / div,
			 v != 0 ? suffix : "");
		return buf;
	}
	if (fabs(v) >= 1e6)
		snprintf(buf, cap, "%gM", v / 1e6);
	else if (fabs(v) >= 1e4)
		snprintf(buf, cap, "%gk", v / 1e3);
	else
		snprintf(buf, cap, "%g", v);
	return buf;
}

bool il_want_log(const double *v, int n, double ratio)
{
	double lo = INFINITY, hi = 0;
	int seen = 0;

	for (int i = 0; i < n; i++) {
		if (isnan(v[i]))
			continue;
		if (!(v[i] > 0) || isinf(v[i]))
			return false;
		lo = fmin(lo, v[i]);
		hi = fmax(hi, v[i]);
		seen++;
	}
	return seen >= 2 && hi >= lo * ratio;
}

/* ---- elements --------------------------------------------------------------------------- */

void il_svg_open(FILE *out, double w, double h, const char *label)
{
	fprintf(out,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" role=\"img\" font-family=\"%s\" font-size=\"%.0f\" "
		"aria-label=\"",
		w, h, w, h, IL_SVG_FONT, IL_SVG_FONT_SIZE);
	il_xml_escape(out, label);
	fputs("\">\n<title>", out);
	il_xml_escape(out, label);
	fputs("</title>\n", out);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n", w,
		h);
}

void il_svg_close(FILE *out)
{
	fputs("</svg>\n", out);
}

void il_svg_text(FILE *out, double x, double y, const char *anchor, double font_px,
		 const char *weight, const char *fill, const char *text)
{
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\"", x, y);
	if (anchor && strcmp(anchor, "start"))
		fprintf(out, " text-anchor=\"%s\"", anchor);
	if (font_px != IL_SVG_FONT_SIZE)
		fprintf(out, " font-size=\"%.0f\"", font_px);
	if (weight)
		fprintf(out, " font-weight=\"%s\"", weight);
	if (fill)
		fprintf(out, " fill=\"%s\"", fill);
	fputc('>', out);
	il_xml_escape(out, text);
	fputs("</text>\n", out);
}

void il_svg_text_rot(FILE *out, double x, double y, double font_px, const char *text)
{
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"%.0f\" "
		     "transform=\"rotate(-90 %.1f %.1f)\">",
		x, y, font_px, x, y);
	il_xml_escape(out, text);
	fputs("</text>\n", out);
}

static void tooltip(FILE *out, const char *tip)
{
	fputs("<title>", out);
	il_xml_escape(out, tip);
	fputs("</title>", out);
}

void il_svg_rect(FILE *out, double x, double y, double w, double h, const char *fill,
		 const char *tip)
{
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"", x, y,
		fmax(w, 0), fmax(h, 0), fill);
	if (!tip) {
		fputs("/>\n", out);
		return;
	}
	fputc('>', out);
	tooltip(out, tip);
	fputs("</rect>\n", out);
}

void il_svg_line(FILE *out, double x1, double y1, double x2, double y2, const char *stroke,
		 double width, const char *dash)
{
	fprintf(out,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		"stroke-width=\"%g\"",
		x1, y1, x2, y2, stroke, width);
	if (dash)
		fprintf(out, " stroke-dasharray=\"%s\"", dash);
	fputs("/>\n", out);
}

void il_svg_polyline(FILE *out, const double *x, const double *y, int n, const char *stroke,
		     double width)
{
	fputs("<polyline fill=\"none\" points=\"", out);
	for (int i = 0; i < n; i++)
		fprintf(out, "%s%.1f,%.1f", i ? " " : "", x[i], y[i]);
	fprintf(out, "\" stroke=\"%s\" stroke-width=\"%g\" stroke-linejoin=\"round\"/>\n", stroke,
		width);
}

void il_svg_circle(FILE *out, double cx, double cy, double r, const char *fill, const char *tip)
{
	fprintf(out,
		"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%g\" fill=\"%s\" stroke=\"#ffffff\" "
		"stroke-width=\"1\"",
		cx, cy, r, fill);
	if (!tip) {
		fputs("/>\n", out);
		return;
	}
	fputc('>', out);
	tooltip(out, tip);
	fputs("</circle>\n", out);
}

/* ---- colours ---------------------------------------------------------------------------- */

const char *il_color_series(int i)
{
	/* Ten hues that stay apart for the common kinds of colour blindness (Tableau 10). */
	static const char *const palette[] = {
		"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
		"#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
	};

	return palette[(unsigned int)i % (ARRAY_SIZE(palette))];
}

const char *il_color_state(int i, int n, bool polling, char *buf, size_t cap)
{
	/* From #c6dbef (shallow) to #08306b (deep). */
	static const int light[3] = { 0xc6, 0xdb, 0xef }, dark[3] = { 0x08, 0x30, 0x6b };
	double t;

	if (polling) {
		snprintf(buf, cap, "#e0c48a");
		return buf;
	}
	t = n > 1 ? (double)i / (double)(n - 1) : 0.6;
	snprintf(buf, cap, "#%02x%02x%02x", (int)lround(light[0] + t * (dark[0] - light[0])),
		 (int)lround(light[1] + t * (dark[1] - light[1])),
		 (int)lround(light[2] + t * (dark[2] - light[2])));
	return buf;
}
