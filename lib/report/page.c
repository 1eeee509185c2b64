// SPDX-License-Identifier: GPL-2.0-only
/*
 * page.c - the HTML page of `idlelab report` (report.h): inputs, chart sections, data.
 *
 * The page is XHTML syntax served as HTML: every element closed, attributes quoted, only
 * the XML entities, so both an HTML and an XML parser read it (tests/cli/report.t checks
 * both). Its style sheet is inline, it has no script, and its only links point inside it
 * (the table of contents).
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "report.h"
#include "svg.h"

#ifdef HAVE_JANSSON

#define OPEN_DETAILS_ROWS 60   /* an input with more rows starts folded */
#define MAX_TABLE_ROWS 5000    /* rows of one input table printed; the rest are counted */

struct il_page {
	int n, cap;
	struct il_rpt_input *in;
};

/* Everything the page shows, built before anything is written. */
struct page_parts {
	struct il_model m;
	const char *base;
	bool has_rel, has_sum, has_miss, has_joules, has_watts;
	struct il_bars rel, miss, joules, watts;
	struct il_rel_summary sum;
	struct il_bars *by_time, *by_entries;
	int ntime, nentries;
	struct il_lines **lines; /* per input (sweeps) */
	int *nlines;
	char (*sweep_note)[1024];
	struct il_cols *hist;    /* per input (stats) */
	bool *has_hist;
	int nsweep, nhist;
	int nverdict;            /* verdict inputs (heat maps) */
	int nfidelity;           /* fidelity inputs (lab against seeds) */
	int nbound;              /* inputs with an open-loop bound table */
};

struct il_page *il_page_new(void)
{
	return calloc(1, sizeof(struct il_page));
}

int il_page_add(struct il_page *p, const char *name, const char *text, struct il_error *err)
{
	if (p->n == p->cap) {
		int ncap = p->cap ? 2 * p->cap : 8;
		struct il_rpt_input *in = realloc(p->in, (size_t)ncap * sizeof(*in));

		if (!in) {
			il_error_set(err, NULL, 0, "%s", strerror(ENOMEM));
			errno = ENOMEM;
			return -1;
		}
		p->in = in;
		p->cap = ncap;
	}
	if (il_rpt_input_parse(&p->in[p->n], name, text, err))
		return -1;
	p->n++;
	return 0;
}

const char *il_page_kind(const struct il_page *p, int i)
{
	return i >= 0 && i < p->n ? il_rpt_kind_name(p->in[i].kind) : NULL;
}

void il_page_free(struct il_page *p)
{
	for (int i = 0; p && i < p->n; i++)
		il_rpt_input_free(&p->in[i]);
	if (p)
		free(p->in);
	free(p);
}

/* ---- building ------------------------------------------------------------------------------- */

static void parts_free(struct page_parts *P, int nin)
{
	if (P->has_rel)
		il_bars_free(&P->rel);
	if (P->has_sum)
		il_rel_summary_free(&P->sum);
	if (P->has_miss)
		il_bars_free(&P->miss);
	if (P->has_joules)
		il_bars_free(&P->joules);
	if (P->has_watts)
		il_bars_free(&P->watts);
	il_charts_free_bars(P->by_time, P->ntime);
	il_charts_free_bars(P->by_entries, P->nentries);
	for (int i = 0; i < nin; i++) {
		if (P->lines)
			il_charts_free_lines(P->lines[i], P->nlines[i]);
		if (P->has_hist && P->has_hist[i])
			il_cols_free(&P->hist[i]);
	}
	free(P->lines);
	free(P->nlines);
	free(P->sweep_note);
	free(P->hist);
	free(P->has_hist);
	il_model_free(&P->m);
}

/* A builder's answer: 0 made, 1 nothing to show, -1 failed. */
static int took(int ret, bool *has)
{
	*has = ret == 0;
	return ret < 0 ? -1 : 0;
}

static int build_sweeps(struct page_parts *P, const struct il_page *p, const struct il_page_opts *o,
			struct il_error *err)
{
	struct il_sweep_opts so = { o->sweep_x, o->metrics };
	struct il_error why = { 0 };

	for (int i = 0; i < p->n; i++) {
		int ret;

		if (p->in[i].kind != IL_RPT_SWEEP)
			continue;
		ret = il_chart_sweep(&P->m, &p->in[i], &so, &P->lines[i], &P->nlines[i], &why);
		if (ret < 0) {
			il_error_set(err, NULL, 0, "%s: %s", p->in[i].name, why.msg);
			return -1;
		}
		if (ret > 0)
			snprintf(P->sweep_note[i], sizeof(P->sweep_note[i]), "%s", why.msg);
		P->nsweep++;
	}
	return 0;
}

static int build_hists(struct page_parts *P, const struct il_page *p)
{
	for (int i = 0; i < p->n; i++) {
		if (p->in[i].kind != IL_RPT_STATS)
			continue;
		if (took(il_chart_histogram(&p->in[i], &P->hist[i]), &P->has_hist[i]))
			return -1;
		P->nhist += P->has_hist[i];
	}
	return 0;
}

static int build(struct page_parts *P, const struct il_page *p, const struct il_page_opts *o,
		 struct il_error *err)
{
	size_t n = (size_t)p->n + 1;

	memset(P, 0, sizeof(*P));
	if (il_model_build(&P->m, p->in, p->n, err))
		return -1;
	for (int i = 0; i < p->n; i++) {
		P->nverdict += p->in[i].kind == IL_RPT_VERDICT;
		P->nfidelity += p->in[i].kind == IL_RPT_FIDELITY;
		P->nbound += il_bound_has(&p->in[i]);
	}
	P->base = il_pick_baseline(&P->m, o->baseline, err);
	if (!P->base && o->baseline)
		return -1;
	P->lines = calloc(n, sizeof(*P->lines));
	P->nlines = calloc(n, sizeof(*P->nlines));
	P->sweep_note = calloc(n, sizeof(*P->sweep_note));
	P->hist = calloc(n, sizeof(*P->hist));
	P->has_hist = calloc(n, sizeof(*P->has_hist));
	if (!P->lines || !P->nlines || !P->sweep_note || !P->hist || !P->has_hist)
		goto nomem;
	if (P->base && (took(il_chart_relative(&P->m, P->base, &P->rel), &P->has_rel) ||
			took(il_rel_summary(&P->m, P->base, &P->sum), &P->has_sum)))
		goto nomem;
	if (took(il_chart_miss(&P->m, &P->miss), &P->has_miss) ||
	    took(il_chart_energy(&P->m, false, &P->joules), &P->has_joules) ||
	    took(il_chart_energy(&P->m, true, &P->watts), &P->has_watts) ||
	    il_chart_residency(&P->m, true, &P->by_time, &P->ntime) < 0 ||
	    il_chart_residency(&P->m, false, &P->by_entries, &P->nentries) < 0 || build_hists(P, p))
		goto nomem;
	return build_sweeps(P, p, o, err);
nomem:
	il_error_set(err, NULL, 0, "%s", strerror(ENOMEM));
	errno = ENOMEM;
	return -1;
}

/* ---- writing -------------------------------------------------------------------------------- */

static const char style[] =
	"body{font-family:\"DejaVu Sans\",Verdana,Arial,sans-serif;margin:0;"
	"color:#222;background:#f7f7f7}\n"
	"main{max-width:1000px;margin:0 auto;padding:12px 20px 40px}\n"
	"h1{font-size:24px;margin:10px 0 4px}\n"
	"h2{font-size:19px;margin:30px 0 8px;padding-bottom:4px;border-bottom:1px solid #d0d0d0}\n"
	"h3{font-size:15px;margin:18px 0 6px}\n"
	"p{margin:6px 0}\n"
	".muted{color:#666}\n"
	"nav ul{list-style:none;padding:0;margin:8px 0;display:flex;flex-wrap:wrap;gap:4px 18px}\n"
	"nav a{color:#2b5d8a}\n"
	"figure{margin:12px 0;padding:4px;background:#fff;"
	"border:1px solid #e0e0e0;border-radius:4px}\n"
	"figure svg{display:block;max-width:100%;height:auto}\n"
	".scroll{overflow-x:auto}\n"
	"table{border-collapse:collapse;font-size:12px;margin:6px 0 14px;background:#fff}\n"
	"caption{text-align:left;font-weight:bold;padding:4px 0}\n"
	".tcap{font-weight:bold;font-size:13px;margin:12px 0 2px}\n"
	"th,td{border:1px solid #dcdcdc;padding:3px 7px;text-align:left;white-space:nowrap}\n"
	"th{background:#eef1f4}\n"
	"td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	"details{margin:8px 0}\n"
	"summary{cursor:pointer;font-weight:bold;margin:6px 0}\n"
	".headline{margin:10px 0;padding:8px 12px;background:#fff;border-left:4px solid #2b5d8a}\n"
	".verdict-line{font-size:15px;margin:4px 0}\n"
	"footer{margin-top:30px;font-size:12px;color:#666}\n";

static void esc(FILE *out, const char *s)
{
	il_xml_escape(out, s);
}

static void head(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\"/>\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
	      "<meta name=\"generator\" content=\"idlelab report\"/>\n<title>",
	      out);
	esc(out, title);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n<h1>", style);
	esc(out, title);
	fputs("</h1>\n", out);
}

static void toc_item(FILE *out, bool show, const char *id, const char *text)
{
	if (show)
		fprintf(out, "<li><a href=\"#%s\">%s</a></li>\n", id, text);
}

static void toc(FILE *out, const struct page_parts *P)
{
	fputs("<nav>\n<ul>\n", out);
	toc_item(out, true, "inputs", "Inputs");
	toc_item(out, P->nverdict > 0, "verdict", "Verdict heat maps");
	toc_item(out, P->nfidelity > 0, "fidelity", "Lab against seeds");
	toc_item(out, P->nbound > 0, "bound", "Open-loop bound");
	toc_item(out, P->has_rel || P->has_sum, "relative", "Relative to the baseline");
	toc_item(out, P->nsweep > 0, "sweeps", "Sweeps");
	toc_item(out, P->has_miss, "misses", "Idle misses");
	toc_item(out, P->ntime || P->nentries, "residency", "State residency");
	toc_item(out, P->has_joules || P->has_watts, "energy", "Energy");
	toc_item(out, P->nhist > 0, "histograms", "Residency histograms");
	toc_item(out, true, "data", "Data");
	fputs("</ul>\n</nav>\n", out);
}

static size_t count_rows(const json_t *root, int *ntables)
{
	const char *key;
	json_t *t;
	size_t rows = 0;

	*ntables = 0;
	json_object_foreach((json_t *)root, key, t) {
		rows += json_array_size(t);
		(*ntables)++;
	}
	return rows;
}

static void inputs(FILE *out, const struct il_page *p, const struct page_parts *P)
{
	fputs("<section id=\"inputs\">\n<h2>Inputs</h2>\n<table class=\"inputs\">\n"
	      "<thead><tr><th>file</th><th>kind</th><th>tables</th><th>rows</th></tr>"
	      "</thead>\n<tbody>\n",
	      out);
	for (int i = 0; i < p->n; i++) {
		int ntables;
		size_t rows = count_rows(p->in[i].root, &ntables);

		fputs("<tr><td>", out);
		esc(out, p->in[i].name);
		fprintf(out,
			"</td><td>%s</td><td class=\"n\">%d</td><td class=\"n\">%zu</td></tr>\n",
			il_rpt_kind_name(p->in[i].kind), ntables, rows);
	}
	fputs("</tbody>\n</table>\n", out);
	if (P->base) {
		fputs("<p>Baseline: <b>", out);
		esc(out, P->base);
		fputs("</b>. Hover a bar or a point for its exact value.</p>\n", out);
	}
	fputs("</section>\n", out);
}

static void figure_bars(FILE *out, const struct il_bars *b)
{
	fputs("<figure>\n", out);
	il_bars_svg(out, b);
	fputs("</figure>\n", out);
}

static void pct_cell(FILE *out, double v, const char *gov, const char *stat)
{
	char buf[64];

	fputs("<td class=\"n\" data-gov=\"", out);
	esc(out, gov);
	fprintf(out, "\" data-stat=\"%s\">%s</td>", stat,
		il_fmt_value(v, 2, true, "%", buf, sizeof(buf)));
}

/* The seeds' table: per score, average, max and min change per governor. */
static void summary_tables(FILE *out, const struct page_parts *P)
{
	const struct il_rel_summary *r = &P->sum;
	static const char *const stats[] = { "average", "max", "min" };

	for (int k = 0; k < r->nscore; k++) {
		int better = il_score_better(r->score[k]);

		/* A heading, not a <caption>: a caption wraps to the width of a narrow table. */
		fputs("<p class=\"tcap\">", out);
		esc(out, r->score[k]);
		fprintf(out, " relative to ");
		esc(out, P->base);
		fprintf(out, "%s</p>\n",
			better < 0 ? " (negative is better)" :
			better > 0 ? " (positive is better)" : "");
		fputs("<div class=\"scroll\"><table class=\"relative\" data-score=\"", out);
		esc(out, r->score[k]);
		fputs("\">\n<thead><tr><th></th>", out);
		/* Only the governors that meet the baseline somewhere with this score. */
		for (int s = 0; s < r->ngov; s++) {
			if (!r->n[(size_t)k * (size_t)r->ngov + (size_t)s])
				continue;
			fputs("<th>", out);
			esc(out, r->gov[s]);
			fputs("</th>", out);
		}
		fputs("</tr></thead>\n<tbody>\n", out);
		for (int st = 0; st < 3; st++) {
			const double *v = st == 0 ? r->avg : st == 1 ? r->max : r->min;

			fprintf(out, "<tr><th>%s</th>", stats[st]);
			for (int s = 0; s < r->ngov; s++)
				if (r->n[(size_t)k * (size_t)r->ngov + (size_t)s])
					pct_cell(out, v[(size_t)k * (size_t)r->ngov + (size_t)s],
						 r->gov[s], stats[st]);
			fputs("</tr>\n", out);
		}
		fputs("<tr><th>groups</th>", out);
		for (int s = 0; s < r->ngov; s++)
			if (r->n[(size_t)k * (size_t)r->ngov + (size_t)s])
				fprintf(out, "<td class=\"n\">%d</td>",
					r->n[(size_t)k * (size_t)r->ngov + (size_t)s]);
		fputs("</tr>\n</tbody>\n</table></div>\n", out);
	}
}

static void section_verdict(FILE *out, const struct il_page *p, const struct page_parts *P)
{
	if (!P->nverdict)
		return;
	fputs("<section id=\"verdict\">\n<h2>Verdict heat maps</h2>\n<p class=\"muted\">Each cell "
	      "is the change of the mean of a metric against the baseline on one platform and "
	      "scenario, blue in the metric's good direction, red in its bad one. Only the cells "
	      "the verdict called better or worse (adjusted p-value and minimum effect, "
	      "docs/verdict.md) are strongly coloured and outlined; a change not called is a faint "
	      "tint whatever its size, a sensitive one (its sign depends on the model) faint and "
	      "hatched, n/a grey. The tooltip has the 95 % interval, the adjusted p-value and the "
	      "verdict.</p>\n",
	      out);
	il_heat_section(out, p->in, p->n);
	fputs("</section>\n", out);
}

static void section_fidelity(FILE *out, const struct il_page *p, const struct page_parts *P)
{
	if (!P->nfidelity)
		return;
	fputs("<section id=\"fidelity\">\n<h2>Lab against seeds</h2>\n<p class=\"muted\">The "
	      "fidelity scoreboard (make fidelity, tests/fidelity/seeds.tsv): every number of the "
	      "seeds whose size is compared, the lab's mean with its 95 % interval over the lab "
	      "seeds against the seeds' value; then every finding of the seeds (a comparison "
	      "beyond their noise) and on how many lab seeds it holds.</p>\n",
	      out);
	il_fidelity_section(out, p->in, p->n);
	fputs("</section>\n", out);
}

static void section_bound(FILE *out, const struct il_page *p, const struct page_parts *P)
{
	if (!P->nbound)
		return;
	fputs("<section id=\"bound\">\n<h2>Open-loop bound</h2>\n<p class=\"muted\">With every "
	      "idle period's length known, choosing per period the state that minimises energy + λ "
	      "× exit latency traces the least energy any governor can spend at each added latency "
	      "on these periods (docs/trace.md). Each governor is a point, labelled with its gap "
	      "to the frontier at its own added latency.</p>\n",
	      out);
	il_bound_section(out, p->in, p->n, &P->m);
	fputs("</section>\n", out);
}

static void section_relative(FILE *out, const struct page_parts *P)
{
	if (!P->has_rel && !P->has_sum)
		return;
	fputs("<section id=\"relative\">\n<h2>Relative to ", out);
	esc(out, P->base);
	fputs("</h2>\n<p class=\"muted\">The change of each governor's mean score against the "
	      "baseline's in the same scenario and device; the tables count sweep points too, like "
	      "the seeds' \"Results relative to\" tables (average, max and min over the "
	      "groups).</p>\n",
	      out);
	if (P->has_rel)
		figure_bars(out, &P->rel);
	if (P->has_sum)
		summary_tables(out, P);
	fputs("</section>\n", out);
}

static void section_sweeps(FILE *out, const struct il_page *p, const struct page_parts *P)
{
	if (!P->nsweep)
		return;
	fputs("<section id=\"sweeps\">\n<h2>Sweeps</h2>\n", out);
	for (int i = 0; i < p->n; i++) {
		if (p->in[i].kind != IL_RPT_SWEEP)
			continue;
		fputs("<h3>", out);
		esc(out, p->in[i].name);
		fputs("</h3>\n", out);
		if (P->sweep_note[i][0]) {
			fputs("<p class=\"muted\">", out);
			esc(out, P->sweep_note[i]);
			fputs("</p>\n", out);
		}
		for (int k = 0; k < P->nlines[i]; k++) {
			fputs("<figure>\n", out);
			il_lines_svg(out, &P->lines[i][k]);
			fputs("</figure>\n", out);
		}
	}
	fputs("</section>\n", out);
}

static void section_misses(FILE *out, const struct page_parts *P)
{
	if (!P->has_miss)
		return;
	fputs("<section id=\"misses\">\n<h2>Idle misses</h2>\n<p class=\"muted\">An idle miss is "
	      "an idle period that did not fit the chosen state: <i>above</i>, the CPU woke before "
	      "the state's target residency (too deep); <i>below</i>, a deeper state would have "
	      "fitted (too shallow). A trace's rows are its CPUs.</p>\n",
	      out);
	figure_bars(out, &P->miss);
	fputs("</section>\n", out);
}

static void section_residency(FILE *out, const struct page_parts *P)
{
	if (!P->ntime && !P->nentries)
		return;
	fputs("<section id=\"residency\">\n<h2>State residency</h2>\n", out);
	for (int i = 0; i < P->ntime; i++)
		figure_bars(out, &P->by_time[i]);
	for (int i = 0; i < P->nentries; i++)
		figure_bars(out, &P->by_entries[i]);
	fputs("</section>\n", out);
}

static void section_energy(FILE *out, const struct page_parts *P)
{
	if (!P->has_joules && !P->has_watts)
		return;
	fputs("<section id=\"energy\">\n<h2>Energy</h2>\n", out);
	if (P->has_joules)
		figure_bars(out, &P->joules);
	if (P->has_watts)
		figure_bars(out, &P->watts);
	fputs("</section>\n", out);
}

static void section_histograms(FILE *out, const struct il_page *p, const struct page_parts *P)
{
	if (!P->nhist)
		return;
	fputs("<section id=\"histograms\">\n<h2>Residency histograms</h2>\n", out);
	for (int i = 0; i < p->n; i++) {
		if (!P->has_hist[i])
			continue;
		fputs("<figure>\n", out);
		il_cols_svg(out, &P->hist[i]);
		fputs("</figure>\n", out);
	}
	fputs("</section>\n", out);
}

/* A JSON cell as the text formats print it: numbers as JSON has them, null as "-". */
static void json_cell(FILE *out, const char *col, const json_t *v)
{
	bool num = json_is_number(v);

	fprintf(out, "<td%s data-col=\"", num ? " class=\"n\"" : "");
	esc(out, col);
	fputs("\">", out);
	if (json_is_integer(v)) {
		fprintf(out, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	} else if (json_is_real(v)) {
		fprintf(out, "%.15g", json_real_value(v));
	} else if (json_is_string(v)) {
		esc(out, json_string_value(v));
	} else if (json_is_null(v) || !v) {
		fputs("-", out);
	} else {
		char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);

		esc(out, s ? s : "?");
		free(s);
	}
	fputs("</td>", out);
}

static void data_table(FILE *out, const char *file, const char *title, const json_t *t)
{
	const json_t *first = json_array_get(t, 0);
	const char *key;
	json_t *v, *row;
	size_t i;

	fputs("<div class=\"scroll\"><table class=\"data\" data-file=\"", out);
	esc(out, file);
	fputs("\" data-table=\"", out);
	esc(out, title);
	fputs("\">\n<caption>", out);
	esc(out, title);
	fputs("</caption>\n<thead><tr>", out);
	json_object_foreach((json_t *)first, key, v) {
		fputs("<th>", out);
		esc(out, key);
		fputs("</th>", out);
	}
	fputs("</tr></thead>\n<tbody>\n", out);
	json_array_foreach(t, i, row) {
		if (i == MAX_TABLE_ROWS) {
			fprintf(out,
				"<tr><td colspan=\"%zu\">%zu more rows in the input</td></tr>\n",
				json_object_size(first), json_array_size(t) - i);
			break;
		}
		fputs("<tr>", out);
		/* The first row's columns, in its order: every row of a table has them. */
		json_object_foreach((json_t *)first, key, v)
			json_cell(out, key, json_object_get(row, key));
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table></div>\n", out);
}

static void section_data(FILE *out, const struct il_page *p)
{
	fputs("<section id=\"data\">\n<h2>Data</h2>\n<p class=\"muted\">Every table of every input "
	      "as it is.</p>\n",
	      out);
	for (int i = 0; i < p->n; i++) {
		int ntables;
		size_t rows = count_rows(p->in[i].root, &ntables);
		const char *title;
		json_t *t;

		fprintf(out, "<details%s>\n<summary>",
			rows <= OPEN_DETAILS_ROWS ? " open=\"open\"" : "");
		esc(out, p->in[i].name);
		fprintf(out, " (%s, %zu rows)</summary>\n", il_rpt_kind_name(p->in[i].kind), rows);
		json_object_foreach(p->in[i].root, title, t)
			data_table(out, p->in[i].name, title, t);
		fputs("</details>\n", out);
	}
	fputs("</section>\n", out);
}

int il_page_write(struct il_page *p, const struct il_page_opts *o, FILE *out, struct il_error *err)
{
	static const struct il_page_opts defaults = { 0 };
	struct page_parts P;

	o = o ? o : &defaults;
	if (!p->n) {
		il_error_set(err, NULL, 0, "no input");
		errno = EINVAL;
		return -1;
	}
	if (build(&P, p, o, err)) {
		int e = errno;

		parts_free(&P, p->n);
		errno = e;
		return -1;
	}
	head(out, o->title ? o->title : "idlelab report");
	/* A verdict's answer first, before any chart: one line per governor judged. */
	il_heat_summary(out, p->in, p->n);
	toc(out, &P);
	inputs(out, p, &P);
	section_verdict(out, p, &P);
	section_fidelity(out, p, &P);
	section_bound(out, p, &P);
	section_relative(out, &P);
	section_sweeps(out, p, &P);
	section_misses(out, &P);
	section_residency(out, &P);
	section_energy(out, &P);
	section_histograms(out, p, &P);
	section_data(out, p);
	fputs("<footer>Written by idlelab report. The page has no script and loads nothing: every "
	      "chart is inline SVG.</footer>\n</main>\n</body>\n</html>\n",
	      out);
	parts_free(&P, p->n);
	if (ferror(out)) {
		il_error_set(err, NULL, 0, "%s", strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}

#else /* !HAVE_JANSSON */

struct il_page *il_page_new(void)
{
	errno = ENOTSUP;
	return NULL;
}

int il_page_add(struct il_page *p, const char *name, const char *text, struct il_error *err)
{
	il_error_set(err, NULL, 0, "built without jansson");
	errno = ENOTSUP;
	return -1;
}

const char *il_page_kind(const struct il_page *p, int i)
{
	return NULL;
}

int il_page_write(struct il_page *p, const struct il_page_opts *o, FILE *out, struct il_error *err)
{
	il_error_set(err, NULL, 0, "built without jansson");
	errno = ENOTSUP;
	return -1;
}

void il_page_free(struct il_page *p)
{
}

#endif /* HAVE_JANSSON */
