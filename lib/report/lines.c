// SPDX-License-Identifier: GPL-2.0-only
/*
 * lines.c - line charts over a numeric x (struct il_lines): the sweep curves.
 *
 * The x axis is log10 when the caller (il_lines_choose_axes) says so, with ticks at 1, 2, 5
 * x 10^k, else linear with nice steps. The y axis starts at 0 when the data are at or near
 * 0 (a share, a count), else it hugs the data so that small differences between
 * governors stay visible. A line breaks where a series has no value; every point is a
 * marker with its exact value as a tooltip.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "svg.h"

#define PLOT_H 300.0
#define AXIS_ROOM 46.0
#define NOTE_ROOM 20.0
#define YLABEL_ROOM 22.0
#define LOG_PAD 1.15

struct lines_layout {
	struct il_ticks xt, yt;
	struct il_scale xs, ys;
	double top, bottom;
};

static bool usable(double v, bool log)
{
	return !isnan(v) && !isinf(v) && (!log || v > 0);
}

static void value_range(const double *v, int n, bool log, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (int i = 0; i < n; i++) {
		if (!usable(v[i], log))
			continue;
		*lo = fmin(*lo, v[i]);
		*hi = fmax(*hi, v[i]);
	}
}

static void axis_ticks(double lo, double hi, bool log, bool zero_based, struct il_ticks *t)
{
	if (log) {
		il_ticks_log(lo / LOG_PAD, hi * LOG_PAD, t);
		return;
	}
	if (zero_based && lo >= 0 && lo < 0.5 * hi)
		lo = 0;
	il_ticks_linear(lo, hi, 6, t);
}

static int lines_layout(const struct il_lines *l, double top, struct lines_layout *L)
{
	double xlo, xhi, ylo, yhi, ylab = 0;
	char buf[64];

	value_range(l->x, l->npt, l->xlog, &xlo, &xhi);
	value_range(l->y, l->nser * l->npt, l->ylog, &ylo, &yhi);
	if (xlo > xhi || ylo > yhi)
		return -1;
	axis_ticks(xlo, xhi, l->xlog, false, &L->xt);
	axis_ticks(ylo, yhi, l->ylog, true, &L->yt);
	for (int i = 0; i < L->yt.n; i++)
		ylab = fmax(ylab, il_text_width(il_tick_label(L->yt.v[i], &L->yt, buf, sizeof(buf)),
						IL_CHART_SMALL_PX));
	L->top = top;
	L->bottom = top + PLOT_H;
	L->xs = (struct il_scale){ L->xt.lo, L->xt.hi, IL_CHART_MARGIN + YLABEL_ROOM + ylab + 8,
				   IL_CHART_WIDTH - IL_CHART_MARGIN - 24, l->xlog };
	L->ys = (struct il_scale){ L->yt.lo, L->yt.hi, L->bottom, L->top, l->ylog };
	return 0;
}

static void draw_axes(FILE *out, const struct il_lines *l, const struct lines_layout *L)
{
	char buf[64];

	for (int i = 0; i < L->yt.n; i++) {
		double y = il_scale_map(&L->ys, L->yt.v[i]);

		il_svg_line(out, L->xs.r0, y, L->xs.r1, y, IL_CHART_GRID, 1, NULL);
		il_svg_text(out, L->xs.r0 - 6, y + 4, "end", IL_CHART_SMALL_PX, NULL, IL_CHART_INK,
			    il_tick_label(L->yt.v[i], &L->yt, buf, sizeof(buf)));
	}
	for (int i = 0; i < L->xt.n; i++) {
		double x = il_scale_map(&L->xs, L->xt.v[i]);

		il_svg_line(out, x, L->top, x, L->bottom, IL_CHART_GRID, 1, NULL);
		il_svg_line(out, x, L->bottom, x, L->bottom + 4, IL_CHART_MUTED, 1, NULL);
		il_svg_text(out, x, L->bottom + 16, "middle", IL_CHART_SMALL_PX, NULL, IL_CHART_INK,
			    il_tick_label(L->xt.v[i], &L->xt, buf, sizeof(buf)));
	}
	il_svg_line(out, L->xs.r0, L->bottom, L->xs.r1, L->bottom, IL_CHART_MUTED, 1, NULL);
	il_svg_line(out, L->xs.r0, L->top, L->xs.r0, L->bottom, IL_CHART_MUTED, 1, NULL);
	if (l->xlabel)
		il_svg_text(out, (L->xs.r0 + L->xs.r1) / 2, L->bottom + 36, "middle",
			    IL_SVG_FONT_SIZE, NULL, IL_CHART_INK, l->xlabel);
	if (l->ylabel)
		il_svg_text_rot(out, IL_CHART_MARGIN + 6, (L->top + L->bottom) / 2,
				IL_SVG_FONT_SIZE, l->ylabel);
}

/* Series @s: polylines through its runs of usable points, then the markers. */
static void draw_series(FILE *out, const struct il_lines *l, const struct lines_layout *L, int s)
{
	const double *ys = &l->y[(size_t)s * (size_t)l->npt];
	double *px = malloc(sizeof(double) * (size_t)(l->npt + 1)),
	       *py = malloc(sizeof(double) * (size_t)(l->npt + 1));
	char tip[512], xv[64], yv[64];
	int run = 0;

	for (int i = 0; px && py && i <= l->npt; i++) {
		if (i < l->npt && usable(ys[i], l->ylog) && usable(l->x[i], l->xlog)) {
			px[run] = il_scale_map(&L->xs, l->x[i]);
			py[run] = il_scale_map(&L->ys, ys[i]);
			run++;
			continue;
		}
		if (run > 1)
			il_svg_polyline(out, px, py, run, l->ser_color[s], 2);
		run = 0;
	}
	free(px);
	free(py);
	for (int i = 0; i < l->npt; i++) {
		if (!usable(ys[i], l->ylog) || !usable(l->x[i], l->xlog))
			continue;
		snprintf(xv, sizeof(xv), "%g", l->x[i]);
		snprintf(tip, sizeof(tip), "%s \xe2\x80\x94 %s=%s: %s", l->ser[s],
			 l->xname ? l->xname : "x", xv,
			 il_fmt_value(ys[i], l->prec, false, l->unit, yv, sizeof(yv)));
		il_svg_circle(out, il_scale_map(&L->xs, l->x[i]), il_scale_map(&L->ys, ys[i]), 3.5,
			      l->ser_color[s], tip);
	}
}

int il_lines_svg(FILE *out, const struct il_lines *l)
{
	struct il_legend lg = { l->nser, l->ser, l->ser_color, IL_SWATCH_LINE };
	struct lines_layout L;
	double h;

	if (lines_layout(l, il_chart_head_height(l->subtitle, &lg), &L))
		return -1;
	h = L.bottom + AXIS_ROOM + (l->note ? NOTE_ROOM : 0) + 6;
	il_svg_open(out, IL_CHART_WIDTH, h, l->title);
	il_chart_head(out, l->title, l->subtitle, &lg);
	draw_axes(out, l, &L);
	for (int s = 0; s < l->nser; s++)
		draw_series(out, l, &L, s);
	il_chart_note(out, L.bottom + AXIS_ROOM + 10, l->note);
	il_svg_close(out);
	return ferror(out) ? -1 : 0;
}
