// SPDX-License-Identifier: GPL-2.0-only
/*
 * table.c - a verdict as output tables: the cells (text or long machine form) and the
 * summary, in the order il_verdict_judge() left the cells in.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "verdict.h"
#include "util/array.h"

static const char *const text_cols[] = {
	"gov", "platform", "scenario", "metric", "base",
	"new", "delta_pct_ci", "p_adj", "verdict", "note",
};

static const char *const long_cols[] = {
	"gov", "baseline", "platform", "scenario",
	"metric", "metric_key", "higher_is_better", "n",
	"design", "base_mean", "new_mean", "diff",
	"delta_pct", "ci_lo_pct", "ci_hi_pct", "t",
	"p_adj", "verdict", "reason", "model_lo_pct",
	"model_hi_pct", "variants", "flips",
};

#define NCOLS(a) ((int)ARRAY_SIZE(a))

/* A real, or an empty cell ("-", null) for NaN or infinity. */
static void set_num(struct il_table *t, int row, int col, double v, int prec)
{
	if (isfinite(v))
		il_table_set_real(t, row, col, v, prec);
}

static int text_row(const struct il_verdict *v, const struct il_verdict_cell *c, struct il_table *t,
		    int row)
{
	const struct il_scenario *scn = v->scn[c->s];
	int prec = il_vmetric_prec(c->metric, scn);
	char name[64], delta[96], note[IL_VERDICT_NOTE_LEN];
	int ret;

	ret = il_table_set_str(t, row, 0, v->gov[c->g]) ||
	      il_table_set_str(t, row, 1, v->plat[c->p]) ||
	      il_table_set_str(t, row, 2, v->spec[c->s]) ||
	      il_table_set_str(t, row, 3, il_vmetric_name(c->metric, scn, name, sizeof(name))) ||
	      il_table_set_str(t, row, 8, il_verdict_class_name(c->cls));
	if (ret)
		return -1;
	if (c->cls == IL_VERDICT_NA || il_verdict_cell_note(v, c, note, sizeof(note))[0])
		if (il_table_set_str(t, row, 9, il_verdict_cell_note(v, c, note, sizeof(note))))
			return -1;
	if (c->cls == IL_VERDICT_NA)
		return 0;
	set_num(t, row, 4, c->base_mean, prec);
	set_num(t, row, 5, c->new_mean, prec);
	set_num(t, row, 7, c->p_adj, 4);
	return il_table_set_str(t, row, 6, il_verdict_cell_delta(c, delta, sizeof(delta)));
}

static int long_row(const struct il_verdict *v, const struct il_verdict_cell *c, struct il_table *t,
		    int row)
{
	const struct il_scenario *scn = v->scn[c->s];
	int prec = il_vmetric_prec(c->metric, scn);
	char name[64], note[IL_VERDICT_NOTE_LEN];
	int ret;

	ret = il_table_set_str(t, row, 0, v->gov[c->g]) ||
	      il_table_set_str(t, row, 1, v->gov[v->base]) ||
	      il_table_set_str(t, row, 2, v->plat[c->p]) ||
	      il_table_set_str(t, row, 3, v->spec[c->s]) ||
	      il_table_set_str(t, row, 4, il_vmetric_name(c->metric, scn, name, sizeof(name))) ||
	      il_table_set_str(t, row, 5, il_vmetric_key(c->metric)) ||
	      il_table_set_str(t, row, 8, v->paired ? "paired" : "welch") ||
	      il_table_set_str(t, row, 17, il_verdict_class_name(c->cls));
	if (ret)
		return -1;
	il_table_set_int(t, row, 6, il_vmetric_higher_better(c->metric, scn));
	il_table_set_int(t, row, 7, v->n);
	if (c->cls == IL_VERDICT_NA || il_verdict_cell_note(v, c, note, sizeof(note))[0])
		if (il_table_set_str(t, row, 18, il_verdict_cell_note(v, c, note, sizeof(note))))
			return -1;
	if (c->cls == IL_VERDICT_NA)
		return 0;
	il_table_set_int(t, row, 21, c->nvar);
	if (c->flips[0] && il_table_set_str(t, row, 22, c->flips))
		return -1;
	set_num(t, row, 19, c->model_lo, 3);
	set_num(t, row, 20, c->model_hi, 3);
	set_num(t, row, 9, c->base_mean, prec + 2);
	set_num(t, row, 10, c->new_mean, prec + 2);
	set_num(t, row, 11, c->d.diff, prec + 2);
	set_num(t, row, 12, c->d.rel, 3);
	set_num(t, row, 13, c->nvar > 1 ? c->lo : c->d.rel_lo, 3);
	set_num(t, row, 14, c->nvar > 1 ? c->hi : c->d.rel_hi, 3);
	set_num(t, row, 16, c->p_adj, 4);
	if (!isinf(c->t)) {
		set_num(t, row, 15, c->t, 3);
		return 0;
	}
	/* A constant non-zero difference: no spread on either side. */
	return il_table_set_str(t, row, 15, c->t > 0 ? "inf" : "-inf");
}

int il_verdict_table(const struct il_verdict *v, bool text, struct il_table *t)
{
	if (il_table_init(t, "verdict_cells", text ? NCOLS(text_cols) : NCOLS(long_cols),
			  text ? text_cols : long_cols))
		return -1;
	for (int i = 0; i < v->ncells; i++) {
		int row = il_table_add_row(t);

		if (row < 0 || (text ? text_row : long_row)(v, &v->cells[i], t, row)) {
			il_table_free(t);
			return -1;
		}
	}
	return 0;
}

static const char *const summary_cols[] = {
	"gov", "baseline", "worse", "better", "same", "unjudged", "na", "line", "sensitive",
};

int il_verdict_summary_table(const struct il_verdict *v, struct il_table *t)
{
	char line[2048];

	if (il_table_init(t, "verdict_summary", NCOLS(summary_cols), summary_cols))
		return -1;
	for (int g = 0; g < v->ngov; g++) {
		struct il_verdict_count k;
		int row;

		if (g == v->base)
			continue;
		row = il_table_add_row(t);
		il_verdict_counts(v, g, &k);
		if (row < 0 || il_table_set_str(t, row, 0, v->gov[g]) ||
		    il_table_set_str(t, row, 1, v->gov[v->base]) ||
		    il_table_set_str(t, row, 7, il_verdict_summary(v, g, line, sizeof(line)))) {
			il_table_free(t);
			return -1;
		}
		il_table_set_int(t, row, 2, k.worse);
		il_table_set_int(t, row, 3, k.better);
		il_table_set_int(t, row, 4, k.same);
		il_table_set_int(t, row, 5, k.unjudged);
		il_table_set_int(t, row, 6, k.na);
		il_table_set_int(t, row, 8, k.sensitive);
	}
	return 0;
}

static const char *const settings_cols[] = { "key", "value" };

static int settings_row(struct il_table *t, const char *k, const char *v)
{
	int row = il_table_add_row(t);

	return row < 0 || il_table_set_str(t, row, 0, k) || il_table_set_str(t, row, 1, v) ? -1 : 0;
}

static const char *ensemble_text(const struct il_verdict *v, char *buf, size_t cap)
{
	if (!v->ensemble)
		snprintf(buf, cap, "off: the nominal model only");
	else
		snprintf(buf, cap, "%d-member Latin hypercube over the uncertain numbers plus each "
			 "range's two ends one at a time, on the same seeds; %d pairs screened in, "
			 "%d scanned", v->ensemble, v->ens_runs, v->oat_runs);
	return buf;
}

int il_verdict_settings_table(const struct il_verdict *v, const struct il_verdict_settings *st,
			      struct il_table *t)
{
	char buf[512];
	int ret;

	if (il_table_init(t, "verdict", NCOLS(settings_cols), settings_cols))
		return -1;
	ret = settings_row(t, "baseline", v->gov[v->base]);
	for (int g = 0; g < v->ngov; g++)
		ret = ret || settings_row(t, "governor", v->gov[g]);
	for (int p = 0; p < v->nplat; p++)
		ret = ret || settings_row(t, "platform", v->plat[p]);
	for (int s = 0; s < v->nscn; s++)
		ret = ret || settings_row(t, "scenario", v->spec[s]);
	snprintf(buf, sizeof(buf), "%d", v->n);
	ret = ret || settings_row(t, "seeds", buf);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)st->first_seed);
	ret = ret || settings_row(t, "first_seed", buf);
	ret = ret || settings_row(t, "design",
				  st->unpaired ? "unpaired (Welch)" : "paired by seed");
	snprintf(buf, sizeof(buf), "%.3f", (double)st->time_ns / 1e9);
	ret = ret || settings_row(t, "simulated_s_per_run", buf);
	snprintf(buf, sizeof(buf), "%g", st->alpha);
	ret = ret || settings_row(t, "alpha", buf);
	snprintf(buf, sizeof(buf), "%g", st->min_effect_pct);
	ret = ret || settings_row(t, "min_effect_pct", buf);
	if (v->judged)
		snprintf(buf, sizeof(buf), "Westfall-Young step-down max-T (Welch t), %llu %s "
			 "relabellings", (unsigned long long)v->perm.used,
			 v->perm.exact ? "(every)" : "random");
	else
		snprintf(buf, sizeof(buf), "none: one run a side");
	ret = ret || settings_row(t, "test", buf);
	ret = ret || settings_row(t, "ensemble", ensemble_text(v, buf, sizeof(buf)));
	ret = ret || settings_row(t, "energy", "model values");
	if (ret)
		il_table_free(t);
	return ret ? -1 : 0;
}
