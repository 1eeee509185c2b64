/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plot.h - an x/y plot frame shared by the scatter charts of `idlelab report` (fidelity.c:
 * the lab against the seeds, frontier.c: governors against the open-loop bound): the two
 * scales with their ticks, the grid, the tick labels and the axis titles.
 */
#ifndef IDLELAB_REPORT_PLOT_H
#define IDLELAB_REPORT_PLOT_H

#include <stdbool.h>
#include <stdio.h>

#include "svg.h"

struct il_plot {
	struct il_scale xs, ys;
	struct il_ticks xt, yt;
	double top, bottom;
};

/**
 * il_plot_layout - the frame for x in [@xlo, @xhi] and y in [@ylo, @yhi] (log axes for @xlog,
 * @ylog; both bounds > 0 there), @height px high from @top, as wide as a chart
 */
void il_plot_layout(struct il_plot *p, double xlo, double xhi, bool xlog, double ylo, double yhi,
		    bool ylog, double top, double height);
/** il_plot_axes - the grid, the tick labels and the axis titles @xlabel, @ylabel */
void il_plot_axes(FILE *out, const struct il_plot *p, const char *xlabel, const char *ylabel);
/** il_plot_x, il_plot_y - the pixel position of @v */
double il_plot_x(const struct il_plot *p, double v);
double il_plot_y(const struct il_plot *p, double v);

#define IL_PLOT_AXIS_ROOM 46.0 /* under the frame: tick labels and the x axis title */

#endif /* IDLELAB_REPORT_PLOT_H */
