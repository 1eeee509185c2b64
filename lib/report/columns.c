// SPDX-License-Identifier: GPL-2.0-only
/*
 * columns.c - vertical grouped columns over ordered bins (struct il_cols): residency
 * histograms. The bins sit side by side like a histogram's; the labels mark the bin edges
 * (every k-th edge when they would collide). The y axis is log10 when the caller says so
 * (counts spanning three decades); a zero count draws nothing on it.
 */
#include <math.h>
#include <string.h>

#include "chart.h"
#include "svg.h"

#define PLOT_H 260.0
#define AXIS_ROOM 46.0
#define NOTE_ROOM 20.0
#define YLABEL_ROOM 22.0
#define SLOT_PAD 0.12 /* of a bin's width, on each side */

int il_cols_svg(FILE *out, const struct il_cols *c)
{
	struct il_legend lg = { c->nser, c->ser, c->ser_color, IL_SWATCH_BOX };
	double lo = INFINITY, hi = 0, ylab = 0, top, bottom, x0, x1, slot, h;
	struct il_ticks yt;
	struct il_scale ys;
	char buf[64], tip[512];
	int every = 1;

	for (int i = 0; i < c->ncat * c->nser; i++) {
		if (isnan(c->v[i]) || c->v[i] <= 0)
			continue;
		lo = fmin(lo, c->v[i]);
		hi = fmax(hi, c->v[i]);
	}
	if (!c->ncat || !(hi > 0))
		return -1;
	if (c->ylog)
		il_ticks_log(fmin(lo, 1) * 0.7, hi * 1.3, &yt); /* a count of 1 still shows */
	else
		il_ticks_linear(0, hi, 5, &yt);
	for (int i = 0; i < yt.n; i++)
		ylab = fmax(ylab, il_text_width(il_tick_label(yt.v[i], &yt, buf, sizeof(buf)),
						IL_CHART_SMALL_PX));
	top = il_chart_head_height(c->subtitle, &lg);
	bottom = top + PLOT_H;
	x0 = IL_CHART_MARGIN + YLABEL_ROOM + ylab + 8;
	x1 = IL_CHART_WIDTH - IL_CHART_MARGIN - 24;
	slot = (x1 - x0) / c->ncat;
	for (int i = 0; i <= c->ncat; i++)
		while (il_text_width(c->edge[i] ? c->edge[i] : "", IL_CHART_SMALL_PX) + 6 >
		       slot * every)
			every++;
	ys = (struct il_scale){ yt.lo, yt.hi, bottom, top, c->ylog };
	h = bottom + AXIS_ROOM + (c->note ? NOTE_ROOM : 0) + 6;

	il_svg_open(out, IL_CHART_WIDTH, h, c->title);
	il_chart_head(out, c->title, c->subtitle, &lg);
	for (int i = 0; i < yt.n; i++) {
		double y = il_scale_map(&ys, yt.v[i]);

		il_svg_line(out, x0, y, x1, y, IL_CHART_GRID, 1, NULL);
		il_svg_text(out, x0 - 6, y + 4, "end", IL_CHART_SMALL_PX, NULL, IL_CHART_INK,
			    il_tick_label(yt.v[i], &yt, buf, sizeof(buf)));
	}
	for (int k = 0; k < c->ncat; k++) {
		double w = slot * (1 - 2 * SLOT_PAD) / c->nser;

		for (int s = 0; s < c->nser; s++) {
			double v = c->v[(size_t)k * (size_t)c->nser + (size_t)s], y;

			if (isnan(v) || v <= 0)
				continue;
			y = il_scale_map(&ys, v);
			snprintf(tip, sizeof(tip), "%s \xe2\x80\x94 %s: %g", c->cat[k], c->ser[s],
				 v);
			il_svg_rect(out, x0 + k * slot + slot * SLOT_PAD + s * w, y, w, bottom - y,
				    c->ser_color[s], tip);
		}
	}
	for (int i = 0; i <= c->ncat; i += every) {
		double x = x0 + i * slot;

		il_svg_line(out, x, bottom, x, bottom + 4, IL_CHART_MUTED, 1, NULL);
		if (c->edge[i])
			il_svg_text(out, x, bottom + 16, "middle", IL_CHART_SMALL_PX, NULL,
				    IL_CHART_INK, c->edge[i]);
	}
	il_svg_line(out, x0, bottom, x1, bottom, IL_CHART_MUTED, 1, NULL);
	il_svg_line(out, x0, top, x0, bottom, IL_CHART_MUTED, 1, NULL);
	if (c->xlabel)
		il_svg_text(out, (x0 + x1) / 2, bottom + 36, "middle", IL_SVG_FONT_SIZE, NULL,
			    IL_CHART_INK, c->xlabel);
	if (c->ylabel)
		il_svg_text_rot(out, IL_CHART_MARGIN + 6, (top + bottom) / 2, IL_SVG_FONT_SIZE,
				c->ylabel);
	il_chart_note(out, bottom + AXIS_ROOM + 10, c->note);
	il_svg_close(out);
	return ferror(out) ? -1 : 0;
}
