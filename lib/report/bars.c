// SPDX-License-Identifier: GPL-2.0-only
/*
 * bars.c - horizontal bar charts (struct il_bars): relative changes, miss ratios, state
 * shares, energy.
 *
 *   title / subtitle / legend
 *   category A   menu |■■■■■■■■■■■■          +3.2%
 *                teo  |■■■■■■                +1.0%
 *   category B   menu |■■■■■■■■■■■■■■■■■■    +5.1%
 *                     +------+------+------+
 *                     0      2      4      6
 *                         axis label (unit)
 *
 * Labels go in a gutter on the left (category, then the series unless colours say it),
 * values after the bar ends, and the blocks of every other category on a light band.
 * A series without a value in a category gets no row there. A category label may have a
 * second line after a '\n' (what the value is), drawn smaller under the first.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "svg.h"

#define BAR_H 16.0
#define BAR_GAP 3.0
#define CAT_PAD 6.0
#define CAT_LABEL_MAX 330.0
#define SER_LABEL_MAX 170.0
#define VALUE_ROOM 72.0
#define AXIS_ROOM 44.0
#define NOTE_ROOM 20.0
#define BAND "#f4f6f8"

struct bars_layout {
	double cat_w, ser_w;  /* label columns */
	double x0, x1;        /* the value axis, px */
	struct il_ticks ticks;
	struct il_scale scale;
	double top;           /* first block */
	double plot_h;        /* all blocks */
};

/* Each bar names its series unless the colours and the legend do (one segment, one series). */
static bool series_labels(const struct il_bars *b)
{
	return b->nser > 1 || b->nseg > 1;
}

static bool bar_present(const struct il_bars *b, int c, int s)
{
	for (int g = 0; g < b->nseg; g++)
		if (!isnan(*il_bars_at(b, c, s, g)))
			return true;
	return false;
}

static int bars_in_cat(const struct il_bars *b, int c)
{
	int n = 0;

	for (int s = 0; s < b->nser; s++)
		n += bar_present(b, c, s);
	return n;
}

/* The length of bar (@c, @s): its value, or the sum of its segments. */
static double bar_total(const struct il_bars *b, int c, int s)
{
	double sum = 0;

	for (int g = 0; g < b->nseg; g++) {
		double v = *il_bars_at(b, c, s, g);

		if (!isnan(v))
			sum += v;
	}
	return sum;
}

#define TWO_LINE_MIN_H 36.0

/* The category label's first line into @first, its second line (or NULL). */
static const char *label_lines(const char *cat, char *first, size_t cap)
{
	const char *nl = strchr(cat, '\n');

	snprintf(first, cap, "%.*s", nl ? (int)(nl - cat) : (int)strlen(cat), cat);
	return nl ? nl + 1 : NULL;
}

static double block_height(const struct il_bars *b, int c)
{
	double h = bars_in_cat(b, c) * (BAR_H + BAR_GAP) - BAR_GAP + 2 * CAT_PAD;

	return strchr(b->cat[c], '\n') ? fmax(h, TWO_LINE_MIN_H) : h;
}

static double label_width(const char *cat)
{
	char first[512];
	const char *second = label_lines(cat, first, sizeof(first));

	return fmax(il_text_width(first, IL_SVG_FONT_SIZE),
		    second ? il_text_width(second, IL_CHART_SMALL_PX) : 0);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * How far the axis of a clipped chart reaches: 1.5 x the 90th percentile of the bars' sizes,
 * at least 10, so one outlier (an oracle at +27000 %) does not squash every other bar.
 */
static double clip_limit(const struct il_bars *b)
{
	double *mag = malloc(sizeof(double) * (size_t)(b->ncat * b->nser + 1)), limit;
	int n = 0;

	if (!mag)
		return INFINITY;
	for (int c = 0; c < b->ncat; c++)
		for (int s = 0; s < b->nser; s++)
			if (bar_present(b, c, s))
				mag[n++] = fabs(bar_total(b, c, s));
	qsort(mag, (size_t)n, sizeof(double), cmp_double);
	limit = n ? fmax(10, 1.5 * mag[(n - 1) * 9 / 10]) : INFINITY;
	free(mag);
	return limit;
}

static int bars_layout(const struct il_bars *b, struct bars_layout *L)
{
	double lo = 0, hi = 0, neg_room = 0;
	int nbars = 0;

	memset(L, 0, sizeof(*L));
	for (int c = 0; c < b->ncat; c++) {
		int n = bars_in_cat(b, c);

		if (!n)
			continue;
		nbars += n;
		L->plot_h += block_height(b, c);
		L->cat_w = fmax(L->cat_w, label_width(b->cat[c]));
		for (int s = 0; s < b->nser; s++) {
			if (!bar_present(b, c, s))
				continue;
			lo = fmin(lo, bar_total(b, c, s));
			hi = fmax(hi, bar_total(b, c, s));
		}
	}
	if (!nbars)
		return -1;
	for (int s = 0; series_labels(b) && s < b->nser; s++)
		L->ser_w = fmax(L->ser_w, il_text_width(b->ser[s], IL_CHART_SMALL_PX));
	L->cat_w = fmin(L->cat_w, CAT_LABEL_MAX);
	L->ser_w = series_labels(b) ? fmin(L->ser_w, SER_LABEL_MAX) + 10 : 0;
	if (b->clip) {
		double limit = clip_limit(b);

		lo = fmax(lo, -limit);
		hi = fmin(hi, limit);
	}
	if (b->axis_max > 0)
		il_ticks_linear(0, b->axis_max, 5, &L->ticks);
	else
		il_ticks_linear(lo, hi, 6, &L->ticks);
	if (b->value_labels && lo < 0)
		neg_room = VALUE_ROOM - 16;
	L->x0 = IL_CHART_MARGIN + L->cat_w + 10 + L->ser_w + neg_room;
	L->x1 = IL_CHART_WIDTH - IL_CHART_MARGIN - (b->value_labels ? VALUE_ROOM : 12);
	L->scale = (struct il_scale){ L->ticks.lo, L->ticks.hi, L->x0, L->x1, false };
	return 0;
}

static void tip_text(const struct il_bars *b, int c, int s, int g, double v, char *buf, size_t cap)
{
	char val[64], first[512];
	const char *second = label_lines(b->cat[c], first, sizeof(first));

	il_fmt_value(v, b->prec, b->sign, b->unit, val, sizeof(val));
	if (b->nseg > 1)
		snprintf(buf, cap, "%s \xe2\x80\x94 %s \xe2\x80\x94 %s: %s", first, b->ser[s],
			 b->seg[g], val);
	else
		snprintf(buf, cap, "%s \xe2\x80\x94 %s: %s%s%s%s", first, b->ser[s], val,
			 second ? " (" : "", second ? second : "", second ? ")" : "");
}

/* @v on the axis; a clipped chart's outliers stop at its ends. */
static double bar_x(const struct bars_layout *L, double v)
{
	return il_scale_map(&L->scale, fmin(fmax(v, L->ticks.lo), L->ticks.hi));
}

/* One bar: its segments from 0 outwards, values inside the wide ones, the total after it. */
static void draw_bar(FILE *out, const struct il_bars *b, const struct bars_layout *L, int c, int s,
		     double y)
{
	double acc = 0, total = bar_total(b, c, s), end;
	char tip[768], val[64];
	int nonzero = 0;

	for (int g = 0; g < b->nseg; g++)
		nonzero += *il_bars_at(b, c, s, g) > 0;

	for (int g = 0; g < b->nseg; g++) {
		double v = *il_bars_at(b, c, s, g), xa, xb;
		const char *fill = b->nseg > 1 ? b->seg_color[g] : b->ser_color[s];

		if (isnan(v))
			continue;
		xa = bar_x(L, fmin(acc, acc + v));
		xb = bar_x(L, fmax(acc, acc + v));
		acc += v;
		tip_text(b, c, s, g, v, tip, sizeof(tip));
		il_svg_rect(out, xa, y, xb - xa, BAR_H, fill, tip);
		il_fmt_value(v, b->prec, false, b->unit, val, sizeof(val));
		/* Values inside the segments, unless the total after the bar says the same. */
		if (b->nseg > 1 && !(b->value_labels && nonzero == 1) &&
		    xb - xa >= il_text_width(val, IL_CHART_SMALL_PX) + 6)
			il_svg_text(out, (xa + xb) / 2, y + BAR_H - 4.5, "middle",
				    IL_CHART_SMALL_PX, NULL, il_ink_on(fill), val);
	}
	if (!b->value_labels)
		return;
	end = bar_x(L, total);
	il_fmt_value(total, b->prec, b->sign, b->unit, val, sizeof(val));
	if (total > L->ticks.hi || total < L->ticks.lo) { /* cut: say so at the axis end */
		char num[64];

		il_fmt_value(total, b->prec, b->sign, b->unit, num, sizeof(num));
		snprintf(val, sizeof(val), "%s %.60s", total < 0 ? "\xc2\xab" : "\xc2\xbb", num);
	}
	if (total < 0)
		il_svg_text(out, end - 4, y + BAR_H - 4, "end", IL_CHART_SMALL_PX, NULL,
			    IL_CHART_INK, val);
	else
		il_svg_text(out, end + 4, y + BAR_H - 4, "start", IL_CHART_SMALL_PX, NULL,
			    IL_CHART_INK, val);
}

static void draw_block(FILE *out, const struct il_bars *b, const struct bars_layout *L, int c,
		       double y)
{
	int n = bars_in_cat(b, c);
	double h = block_height(b, c), xr = IL_CHART_MARGIN + L->cat_w;
	double yb =
		y + (h - (n * (BAR_H + BAR_GAP) - BAR_GAP)) / 2; /* the bars centred in the block */
	char first[512];
	const char *second = label_lines(b->cat[c], first, sizeof(first));

	if (second) {
		il_chart_label(out, xr, y + h / 2 - 2, "end", L->cat_w, IL_SVG_FONT_SIZE,
			       IL_CHART_INK, first);
		il_chart_label(out, xr, y + h / 2 + 11, "end", L->cat_w, IL_CHART_SMALL_PX,
			       IL_CHART_MUTED, second);
	} else {
		il_chart_label(out, xr, y + h / 2 + 4, "end", L->cat_w, IL_SVG_FONT_SIZE,
			       IL_CHART_INK, first);
	}
	for (int s = 0; s < b->nser; s++) {
		if (!bar_present(b, c, s))
			continue;
		if (series_labels(b))
			il_chart_label(out, IL_CHART_MARGIN + L->cat_w + 10 + L->ser_w - 8,
				       yb + BAR_H - 4, "end", L->ser_w - 10, IL_CHART_SMALL_PX,
				       IL_CHART_MUTED, b->ser[s]);
		draw_bar(out, b, L, c, s, yb);
		yb += BAR_H + BAR_GAP;
	}
}

static void draw_value_axis(FILE *out, const struct il_bars *b, const struct bars_layout *L,
			    double bottom)
{
	char label[64];

	for (int i = 0; i < L->ticks.n; i++) {
		double x = il_scale_map(&L->scale, L->ticks.v[i]);

		il_svg_line(out, x, L->top, x, bottom,
			    L->ticks.v[i] == 0 ? IL_CHART_MUTED : IL_CHART_GRID, 1, NULL);
		il_svg_text(out, x, bottom + 15, "middle", IL_CHART_SMALL_PX, NULL, IL_CHART_INK,
			    il_tick_label(L->ticks.v[i], &L->ticks, label, sizeof(label)));
	}
	il_svg_line(out, L->x0, bottom, L->x1, bottom, IL_CHART_MUTED, 1, NULL);
	if (b->axis)
		il_svg_text(out, (L->x0 + L->x1) / 2, bottom + 34, "middle", IL_SVG_FONT_SIZE, NULL,
			    IL_CHART_INK, b->axis);
}

int il_bars_svg(FILE *out, const struct il_bars *b)
{
	struct il_legend lg = { 0 };
	struct bars_layout L;
	double y, h;
	int band = 0;

	if (bars_layout(b, &L))
		return -1;
	if (b->nseg > 1)
		lg = (struct il_legend){ b->nseg, b->seg, b->seg_color, IL_SWATCH_BOX };
	else if (b->nser > 1)
		lg = (struct il_legend){ b->nser, b->ser, b->ser_color, IL_SWATCH_BOX };
	L.top = il_chart_head_height(b->subtitle, &lg);
	h = L.top + L.plot_h + AXIS_ROOM + (b->note ? NOTE_ROOM : 0) + 6;
	il_svg_open(out, IL_CHART_WIDTH, h, b->title);
	il_chart_head(out, b->title, b->subtitle, &lg);
	y = L.top;
	/* Bands first, so that grid lines run over them and under the bars. */
	for (int c = 0; c < b->ncat; c++) {
		int n = bars_in_cat(b, c);

		if (n && band++ % 2)
			il_svg_rect(out, IL_CHART_MARGIN - 6, y,
				    IL_CHART_WIDTH - 2 * IL_CHART_MARGIN + 12, block_height(b, c),
				    BAND, NULL);
		y += n ? block_height(b, c) : 0;
	}
	draw_value_axis(out, b, &L, L.top + L.plot_h);
	y = L.top;
	for (int c = 0; c < b->ncat; c++) {
		int n = bars_in_cat(b, c);

		if (!n)
			continue;
		draw_block(out, b, &L, c, y);
		y += block_height(b, c);
	}
	il_chart_note(out, L.top + L.plot_h + AXIS_ROOM + 10, b->note);
	il_svg_close(out);
	return ferror(out) ? -1 : 0;
}
