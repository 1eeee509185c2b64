// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot.c - the x/y plot frame of plot.h.
 */
#include <math.h>

#include "chart.h"
#include "plot.h"

#define YLABEL_ROOM 22.0 /* the rotated y axis title */

static void ticks(double lo, double hi, bool log, struct il_ticks *t)
{
	if (log)
		il_ticks_log(lo, hi, t);
	else
		il_ticks_linear(lo, hi, 6, t);
}

void il_plot_layout(struct il_plot *p, double xlo, double xhi, bool xlog, double ylo, double yhi,
		    bool ylog, double top, double height)
{
	double ylab = 0;
	char buf[64];

	ticks(xlo, xhi, xlog, &p->xt);
	ticks(ylo, yhi, ylog, &p->yt);
	for (int i = 0; i < p->yt.n; i++)
		ylab = fmax(ylab, il_text_width(il_tick_label(p->yt.v[i], &p->yt, buf, sizeof(buf)),
						IL_CHART_SMALL_PX));
	p->top = top;
	p->bottom = top + height;
	p->xs = (struct il_scale){ p->xt.lo, p->xt.hi, IL_CHART_MARGIN + YLABEL_ROOM + ylab + 8,
				   IL_CHART_WIDTH - IL_CHART_MARGIN - 24, xlog };
	p->ys = (struct il_scale){ p->yt.lo, p->yt.hi, p->bottom, p->top, ylog };
}

double il_plot_x(const struct il_plot *p, double v)
{
	return il_scale_map(&p->xs, v);
}

double il_plot_y(const struct il_plot *p, double v)
{
	return il_scale_map(&p->ys, v);
}

void il_plot_axes(FILE *out, const struct il_plot *p, const char *xlabel, const char *ylabel)
{
	char buf[64];

	for (int i = 0; i < p->yt.n; i++) {
		double y = il_plot_y(p, p->yt.v[i]);

		il_svg_line(out, p->xs.r0, y, p->xs.r1, y, IL_CHART_GRID, 1, NULL);
		il_svg_text(out, p->xs.r0 - 6, y + 4, "end", IL_CHART_SMALL_PX, NULL, IL_CHART_INK,
			    il_tick_label(p->yt.v[i], &p->yt, buf, sizeof(buf)));
	}
	for (int i = 0; i < p->xt.n; i++) {
		double x = il_plot_x(p, p->xt.v[i]);

		il_svg_line(out, x, p->top, x, p->bottom, IL_CHART_GRID, 1, NULL);
		il_svg_line(out, x, p->bottom, x, p->bottom + 4, IL_CHART_MUTED, 1, NULL);
		il_svg_text(out, x, p->bottom + 16, "middle", IL_CHART_SMALL_PX, NULL, IL_CHART_INK,
			    il_tick_label(p->xt.v[i], &p->xt, buf, sizeof(buf)));
	}
	il_svg_line(out, p->xs.r0, p->bottom, p->xs.r1, p->bottom, IL_CHART_MUTED, 1, NULL);
	il_svg_line(out, p->xs.r0, p->top, p->xs.r0, p->bottom, IL_CHART_MUTED, 1, NULL);
	il_svg_text(out, (p->xs.r0 + p->xs.r1) / 2, p->bottom + 36, "middle", IL_SVG_FONT_SIZE,
		    NULL, IL_CHART_INK, xlabel);
	il_svg_text_rot(out, IL_CHART_MARGIN + 6, (p->top + p->bottom) / 2, IL_SVG_FONT_SIZE,
			ylabel);
}
