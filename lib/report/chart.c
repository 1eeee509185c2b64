// SPDX-License-Identifier: GPL-2.0-only
/*
 * chart.c - what the three renderers share: the charts' memory, the title block with its
 * legend, value formatting, labels that shorten themselves.
 */
#define _GNU_SOURCE /* vasprintf */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "svg.h"

#define LEGEND_ROW 18.0
#define LEGEND_SWATCH 12.0
#define LEGEND_LINE_SWATCH 20.0
#define LEGEND_ITEM_GAP 18.0
#define TITLE_BASELINE 22.0
#define SUBTITLE_ROW 18.0
#define HEAD_GAP 12.0

char *il_strf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		errno = ENOMEM;
		return NULL;
	}
	return s;
}

const char *il_fmt_value(double v, int prec, bool sign, const char *unit, char *buf, size_t cap)
{
	if (isnan(v)) {
		snprintf(buf, cap, "n/a");
		return buf;
	}
	if (fabs(v) < 0.5 * pow(10, -prec))
		v = 0; /* no "-0.0" */
	snprintf(buf, cap, sign ? "%+.*f%s" : "%.*f%s", prec, v, unit ? unit : "");
	return buf;
}

static void free_strs(char **v, int n)
{
	for (int i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

static double *nan_array(size_t n)
{
	double *v = malloc((n ? n : 1) * sizeof(*v));

	for (size_t i = 0; v && i < n; i++)
		v[i] = NAN;
	return v;
}

/* ---- bars ---------------------------------------------------------------------------------- */

int il_bars_init(struct il_bars *b, int ncat, int nser, int nseg)
{
	memset(b, 0, sizeof(*b));
	b->ncat = ncat;
	b->nser = nser;
	b->nseg = nseg;
	b->cat = calloc((size_t)ncat + 1, sizeof(char *));
	b->ser = calloc((size_t)nser + 1, sizeof(char *));
	b->seg = calloc((size_t)nseg + 1, sizeof(char *));
	b->ser_color = calloc((size_t)nser + 1, sizeof(char *));
	b->seg_color = calloc((size_t)nseg + 1, sizeof(char *));
	b->v = nan_array((size_t)ncat * (size_t)nser * (size_t)nseg);
	if (!b->cat || !b->ser || !b->seg || !b->ser_color || !b->seg_color || !b->v) {
		il_bars_free(b);
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

void il_bars_free(struct il_bars *b)
{
	free(b->title);
	free(b->subtitle);
	free(b->axis);
	free(b->note);
	free(b->unit);
	free_strs(b->cat, b->ncat);
	free_strs(b->ser, b->nser);
	free_strs(b->seg, b->nseg);
	free_strs(b->ser_color, b->nser);
	free_strs(b->seg_color, b->nseg);
	free(b->v);
	memset(b, 0, sizeof(*b));
}

double *il_bars_at(const struct il_bars *b, int c, int s, int g)
{
	return &b->v[((size_t)c * (size_t)b->nser + (size_t)s) * (size_t)b->nseg + (size_t)g];
}

/* ---- lines --------------------------------------------------------------------------------- */

int il_lines_init(struct il_lines *l, int nser, int npt)
{
	memset(l, 0, sizeof(*l));
	l->nser = nser;
	l->npt = npt;
	l->ser = calloc((size_t)nser + 1, sizeof(char *));
	l->ser_color = calloc((size_t)nser + 1, sizeof(char *));
	l->x = nan_array((size_t)npt);
	l->y = nan_array((size_t)nser * (size_t)npt);
	if (!l->ser || !l->ser_color || !l->x || !l->y) {
		il_lines_free(l);
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

void il_lines_free(struct il_lines *l)
{
	free(l->title);
	free(l->subtitle);
	free(l->xlabel);
	free(l->ylabel);
	free(l->note);
	free(l->xname);
	free(l->unit);
	free_strs(l->ser, l->nser);
	free_strs(l->ser_color, l->nser);
	free(l->x);
	free(l->y);
	memset(l, 0, sizeof(*l));
}

void il_lines_choose_axes(struct il_lines *l)
{
	l->xlog = il_want_log(l->x, l->npt, 20);
	l->ylog = il_want_log(l->y, l->nser * l->npt, 1000);
}

/* ---- columns ------------------------------------------------------------------------------- */

int il_cols_init(struct il_cols *c, int ncat, int nser)
{
	memset(c, 0, sizeof(*c));
	c->ncat = ncat;
	c->nser = nser;
	c->edge = calloc((size_t)ncat + 2, sizeof(char *));
	c->cat = calloc((size_t)ncat + 1, sizeof(char *));
	c->ser = calloc((size_t)nser + 1, sizeof(char *));
	c->ser_color = calloc((size_t)nser + 1, sizeof(char *));
	c->v = nan_array((size_t)ncat * (size_t)nser);
	if (!c->edge || !c->cat || !c->ser || !c->ser_color || !c->v) {
		il_cols_free(c);
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

void il_cols_free(struct il_cols *c)
{
	free(c->title);
	free(c->subtitle);
	free(c->xlabel);
	free(c->ylabel);
	free(c->note);
	free_strs(c->edge, c->ncat + 1);
	free_strs(c->cat, c->ncat);
	free_strs(c->ser, c->nser);
	free_strs(c->ser_color, c->nser);
	free(c->v);
	memset(c, 0, sizeof(*c));
}

/* ---- the title block ------------------------------------------------------------------------ */

static double swatch_width(const struct il_legend *lg)
{
	return lg->swatch == IL_SWATCH_LINE ? LEGEND_LINE_SWATCH : LEGEND_SWATCH;
}

static double item_width(const struct il_legend *lg, int i)
{
	return swatch_width(lg) + 6 + il_text_width(lg->label[i], IL_SVG_FONT_SIZE) +
	       LEGEND_ITEM_GAP;
}

/* Legend items flow left to right and wrap; Return: the number of rows. */
static int legend_rows(const struct il_legend *lg)
{
	double x = IL_CHART_MARGIN, right = IL_CHART_WIDTH - IL_CHART_MARGIN;
	int rows = 1;

	for (int i = 0; i < lg->n; i++) {
		double w = item_width(lg, i);

		if (x + w > right && x > IL_CHART_MARGIN) {
			rows++;
			x = IL_CHART_MARGIN;
		}
		x += w;
	}
	return rows;
}

double il_chart_head_height(const char *subtitle, const struct il_legend *lg)
{
	double h = TITLE_BASELINE;

	if (subtitle)
		h += SUBTITLE_ROW;
	if (lg && lg->n)
		h += 8 + LEGEND_ROW * legend_rows(lg);
	return h + HEAD_GAP;
}

static void draw_legend(FILE *out, const struct il_legend *lg, double y)
{
	double x = IL_CHART_MARGIN, right = IL_CHART_WIDTH - IL_CHART_MARGIN, sw = swatch_width(lg);

	for (int i = 0; i < lg->n; i++) {
		double w = item_width(lg, i);

		if (x + w > right && x > IL_CHART_MARGIN) {
			x = IL_CHART_MARGIN;
			y += LEGEND_ROW;
		}
		if (lg->swatch == IL_SWATCH_LINE) {
			il_svg_line(out, x, y - 4, x + sw, y - 4, lg->color[i], 2.5, NULL);
			il_svg_circle(out, x + sw / 2, y - 4, 3.5, lg->color[i], NULL);
		} else {
			il_svg_rect(out, x, y - 10, sw, sw, lg->color[i], NULL);
		}
		il_svg_text(out, x + sw + 6, y, "start", IL_SVG_FONT_SIZE, NULL, IL_CHART_INK,
			    lg->label[i]);
		x += w;
	}
}

double il_chart_head(FILE *out, const char *title, const char *subtitle, const struct il_legend *lg)
{
	double y = TITLE_BASELINE;

	il_chart_label(out, IL_CHART_MARGIN, y, "start", IL_CHART_WIDTH - 2 * IL_CHART_MARGIN,
		       IL_CHART_TITLE_PX, IL_CHART_INK, title);
	if (subtitle) {
		y += SUBTITLE_ROW;
		il_chart_label(out, IL_CHART_MARGIN, y, "start",
			       IL_CHART_WIDTH - 2 * IL_CHART_MARGIN, IL_SVG_FONT_SIZE,
			       IL_CHART_MUTED, subtitle);
	}
	if (lg && lg->n) {
		y += 8 + LEGEND_ROW;
		draw_legend(out, lg, y);
		y += LEGEND_ROW * (legend_rows(lg) - 1);
	}
	return y + HEAD_GAP;
}

void il_chart_note(FILE *out, double y, const char *note)
{
	if (note)
		il_chart_label(out, IL_CHART_MARGIN, y, "start",
			       IL_CHART_WIDTH - 2 * IL_CHART_MARGIN, IL_CHART_SMALL_PX,
			       IL_CHART_MUTED, note);
}

void il_chart_label(FILE *out, double x, double y, const char *anchor, double width, double font_px,
		    const char *fill, const char *text)
{
	char buf[512];
	bool bold = font_px >= IL_CHART_TITLE_PX;

	il_text_fit(text, width, font_px, buf, sizeof(buf));
	if (!strcmp(buf, text)) {
		il_svg_text(out, x, y, anchor, font_px, bold ? "bold" : NULL, fill, text);
		return;
	}
	fprintf(out,
		"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%.0f\"%s "
		"fill=\"%s\"><title>",
		x, y, anchor, font_px, bold ? " font-weight=\"bold\"" : "", fill);
	il_xml_escape(out, text);
	fputs("</title>", out);
	il_xml_escape(out, buf);
	fputs("</text>\n", out);
}

const char *il_ink_on(const char *hex)
{
	unsigned int r = 0, g = 0, b = 0;

	if (sscanf(hex, "#%02x%02x%02x", &r, &g, &b) != 3)
		return IL_CHART_INK;
	/* Relative luminance, roughly (sRGB weights without the gamma curve). */
	return 0.2126 * r + 0.7152 * g + 0.0722 * b > 140 ? IL_CHART_INK : "#ffffff";
}
