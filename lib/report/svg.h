/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * svg.h - a small SVG writer for the charts of `idlelab report`: XML escaping, the
 * elements the charts use, axis scales with "nice" ticks, text width estimates.
 *
 * DOC: svg
 *
 * Every chart is written straight to a FILE as one <svg> element that is well-formed XML
 * on its own (it carries its namespace), so it can be inlined in the HTML page or saved as
 * a file. Styling is by presentation attributes, never by a stylesheet, so a chart
 * extracted from the page looks the same. Coordinates are user units (px) with one
 * decimal.
 *
 *  1. Text from the inputs (governor, state, device names) goes through il_xml_escape():
 *     & < > " ' become entities, and characters XML 1.0 forbids (C0 controls other than
 *     tab, line feed and carriage return) become U+FFFD.
 *  2. A "scale" maps a domain [d0, d1] onto a pixel range [r0, r1], linearly or on a log10
 *     axis. il_ticks_linear() picks steps of 1, 2 or 5 x 10^k and widens the domain to
 *     whole steps; il_ticks_log() puts ticks at 1, 2, 5 x 10^k over at most three decades
 *     and at the powers of ten beyond that.
 *  3. il_want_log() is the log/linear choice: a log axis only when every value is positive
 *     and they span at least the given ratio (20 for a swept parameter, where 5..500 µs
 *     reads best on a log axis, 1000 for counts).
 *  4. Text widths are estimates (no font metrics here): il_text_width() counts code points
 *     at 0.6 em, a little over the average advance of DejaVu Sans, so labels never
 *     overlap, and il_text_fit() shortens a label with an ellipsis to fit a width.
 */
#ifndef IDLELAB_REPORT_SVG_H
#define IDLELAB_REPORT_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define IL_SVG_FONT "DejaVu Sans, Verdana, Arial, sans-serif"
#define IL_SVG_FONT_SIZE 12.0
#define IL_TICKS_MAX 32

/** il_xml_escape - write @s to @out with the XML special characters as entities */
void il_xml_escape(FILE *out, const char *s);

/** il_text_width - the estimated width in px of @s at @font_px */
double il_text_width(const char *s, double font_px);
/**
 * il_text_fit - @s, or its longest prefix that fits @width px at @font_px followed by an
 * ellipsis, into @buf; Return: @buf
 */
const char *il_text_fit(const char *s, double width, double font_px, char *buf, size_t cap);

struct il_scale {
	double d0, d1; /* domain */
	double r0, r1; /* pixel range */
	bool log;      /* log10 axis (d0 > 0) */
};

/** il_scale_map - the pixel position of @v (clamped to the domain) */
double il_scale_map(const struct il_scale *s, double v);

struct il_ticks {
	int n;
	double v[IL_TICKS_MAX];
	double step; /* linear: the step; log: 0 */
	double lo, hi; /* the domain the ticks cover */
};

/**
 * il_ticks_linear - about @target "nice" ticks covering [@lo, @hi]; the domain is widened
 * to whole steps (an empty range [v, v] becomes one step around v, [0, 0] becomes [0, 1])
 */
void il_ticks_linear(double lo, double hi, int target, struct il_ticks *t);
/** il_ticks_log - ticks for a log axis over [@lo, @hi] (both > 0); the domain is [lo, hi] */
void il_ticks_log(double lo, double hi, struct il_ticks *t);
/**
 * il_tick_label - the text of tick @v: as many decimals as the step needs (on a log axis
 * the shortest text), thousands as "k" from 10000 on and millions as "M"
 */
const char *il_tick_label(double v, const struct il_ticks *t, char *buf, size_t cap);

/**
 * il_want_log - true when all @n finite values of @v (NaN ignored) are > 0 and the largest
 * is at least @ratio times the smallest
 */
bool il_want_log(const double *v, int n, double ratio);

/* ---- elements --------------------------------------------------------------------------- */

/** il_svg_open - <svg> of @w x @h px with @label as its accessible name and <title> */
void il_svg_open(FILE *out, double w, double h, const char *label);
void il_svg_close(FILE *out);
/** il_svg_text - text at (@x, @y); @anchor start|middle|end, @weight NULL or "bold" */
void il_svg_text(FILE *out, double x, double y, const char *anchor, double font_px,
		 const char *weight, const char *fill, const char *text);
/** il_svg_text_rot - text turned 90° counter-clockwise around (@x, @y) (a vertical axis label) */
void il_svg_text_rot(FILE *out, double x, double y, double font_px, const char *text);
/** il_svg_rect - a rectangle; @tip, when not NULL, is its tooltip (a <title> child) */
void il_svg_rect(FILE *out, double x, double y, double w, double h, const char *fill,
		 const char *tip);
/** il_svg_line - a line of @width px; @dash NULL or a stroke-dasharray */
void il_svg_line(FILE *out, double x1, double y1, double x2, double y2, const char *stroke,
		 double width, const char *dash);
/** il_svg_polyline - an open line through @n points */
void il_svg_polyline(FILE *out, const double *x, const double *y, int n, const char *stroke,
		     double width);
/** il_svg_circle - a marker; @tip as for il_svg_rect */
void il_svg_circle(FILE *out, double cx, double cy, double r, const char *fill, const char *tip);

/* ---- colours ---------------------------------------------------------------------------- */

/** il_color_series - the colour of series @i: ten distinct hues, then again */
const char *il_color_series(int i);
/**
 * il_color_state - the colour of idle state @i of @n: light (shallow) to dark (deep) blue,
 * a polling state first in a sand colour so it stands apart
 */
const char *il_color_state(int i, int n, bool polling, char *buf, size_t cap);

#endif /* IDLELAB_REPORT_SVG_H */
