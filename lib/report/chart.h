/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * chart.h - the three plot shapes of `idlelab report` and their SVG renderers.
 *
 * DOC: charts
 *
 * A chart is plain data (titles, labels, colours, a value array with NaN for "no value")
 * that one renderer turns into one <svg> through svg.h:
 *
 *  - struct il_bars: horizontal bars, one block per category (a scenario, a device), one
 *    bar per series (a governor) in each block, each bar a stack of segments (idle states,
 *    below/above). With one segment the series have the colours and the legend; with
 *    several the segments do, and each bar is labelled with its series. The value axis
 *    always includes 0; values may be negative only without segments.
 *  - struct il_lines: one line per series over a numeric x (a swept parameter), markers
 *    at the points with their values as tooltips, log or linear axes.
 *  - struct il_cols: vertical grouped columns over ordered bins (a residency histogram),
 *    labels at the bin edges.
 *
 * Every string is owned by the chart (malloc'ed) and freed by its _free().
 */
#ifndef IDLELAB_REPORT_CHART_H
#define IDLELAB_REPORT_CHART_H

#include <stdbool.h>
#include <stdio.h>

#define IL_CHART_WIDTH 960.0

struct il_bars {
	char *title, *subtitle, *axis, *note;
	int ncat, nser, nseg;
	char **cat, **ser, **seg;
	char **ser_color, **seg_color;
	double *v;         /* [cat][ser][seg], NaN: no value */
	char *unit;        /* after the values in labels and tooltips: "%", " J" */
	int prec;          /* decimals of the values printed */
	bool sign;         /* print "+" before positive values (changes) */
	bool value_labels; /* the value (or, with segments, the total) after each bar */
	double axis_max;   /* > 0: the axis ends there (100 for shares) */
	/*
	 * clip: end the axis near the bulk of the values: a far outlier is cut at the axis end
	 * (marked, its label still exact) instead of flattening the rest
	 */
	bool clip;
};

/** il_bars_init - a chart of @ncat x @nser x @nseg values, all NaN; Return: 0 or -1 (ENOMEM) */
int il_bars_init(struct il_bars *b, int ncat, int nser, int nseg);
void il_bars_free(struct il_bars *b);
/** il_bars_at - the value of category @c, series @s, segment @g */
double *il_bars_at(const struct il_bars *b, int c, int s, int g);
/** il_bars_svg - render @b; Return: 0, or -1 when there is nothing to draw */
int il_bars_svg(FILE *out, const struct il_bars *b);

struct il_lines {
	char *title, *subtitle, *xlabel, *ylabel, *note;
	char *xname;       /* the x parameter's name, for tooltips */
	int nser, npt;
	char **ser, **ser_color;
	double *x;         /* npt values, ascending */
	double *y;         /* [ser][pt], NaN: no point */
	char *unit;        /* after y values in tooltips */
	int prec;
	bool xlog, ylog;   /* set by il_lines_choose_axes() or by the caller */
};

int il_lines_init(struct il_lines *l, int nser, int npt);
void il_lines_free(struct il_lines *l);
/** il_lines_choose_axes - log x when x spans 20x and more (all > 0), log y at 1000x */
void il_lines_choose_axes(struct il_lines *l);
int il_lines_svg(FILE *out, const struct il_lines *l);

struct il_cols {
	char *title, *subtitle, *xlabel, *ylabel, *note;
	int ncat, nser;
	char **edge;       /* ncat + 1 labels at the bin edges */
	char **cat;        /* ncat bin names for tooltips */
	char **ser, **ser_color;
	double *v;         /* [cat][ser] */
	bool ylog;
};

int il_cols_init(struct il_cols *c, int ncat, int nser);
void il_cols_free(struct il_cols *c);
int il_cols_svg(FILE *out, const struct il_cols *c);

/* ---- shared by the renderers (chart.c) ------------------------------------------------------ */

#define IL_CHART_MARGIN 16.0
#define IL_CHART_TITLE_PX 15.0
#define IL_CHART_SMALL_PX 11.0
#define IL_CHART_GRID "#e3e3e3"
#define IL_CHART_INK "#222222"
#define IL_CHART_MUTED "#666666"

enum il_swatch { IL_SWATCH_BOX, IL_SWATCH_LINE };

struct il_legend {
	int n;
	char *const *label;
	char *const *color;
	enum il_swatch swatch;
};

/** il_chart_head_height - the height of the title, subtitle and legend */
double il_chart_head_height(const char *subtitle, const struct il_legend *lg);
/** il_chart_head - draw them; Return: the y where the plot may start */
double il_chart_head(FILE *out, const char *title, const char *subtitle,
		     const struct il_legend *lg);
/** il_chart_note - a muted line of text at @y (nothing when @note is NULL) */
void il_chart_note(FILE *out, double y, const char *note);
/** il_chart_label - @text fitted into @width px, the whole text as a tooltip when shortened */
void il_chart_label(FILE *out, double x, double y, const char *anchor, double width, double font_px,
		    const char *fill, const char *text);
/** il_ink_on - a text colour readable on the fill colour @hex ("#rrggbb") */
const char *il_ink_on(const char *hex);

/** il_strf - a malloc'ed printf; NULL on ENOMEM */
char *il_strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** il_fmt_value - @v with @prec decimals (and a sign when @sign) then @unit, into @buf */
const char *il_fmt_value(double v, int prec, bool sign, const char *unit, char *buf, size_t cap);

#endif /* IDLELAB_REPORT_CHART_H */
