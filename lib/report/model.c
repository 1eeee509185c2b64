// SPDX-License-Identifier: GPL-2.0-only
/*
 * model.c - the inputs of `idlelab report` as groups of linux-pm rows (model.h, step 2).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "svg.h"
#include "util/array.h"

#ifdef HAVE_JANSSON

#define KEY_SEP "\x1f" /* between the parts of a group key: never in a name */
#define USAGE_PREFIX "usage_"

double il_json_num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *il_json_str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

const char *il_json_kv(const json_t *t, const char *key)
{
	size_t i;
	json_t *row;

	json_array_foreach(t, i, row) {
		const char *k = il_json_str(row, "key");

		if (k && !strcmp(k, key))
			return il_json_str(row, "value");
	}
	return NULL;
}

const char *il_pm_score_col(const json_t *o)
{
	static const char *const not_scores[] = { "device", "gov", "governor", "iter",
						  "seed", "case", "platform" };
	const char *key, *prev = NULL;
	json_t *v;

	json_object_foreach((json_t *)o, key, v) {
		if (!strcmp(key, IL_RPT_PM_COL(idles)))
			break;
		prev = key;
	}
	for (size_t i = 0; prev && i < ARRAY_SIZE(not_scores); i++)
		if (!strcmp(prev, not_scores[i]))
			return NULL;
	return prev;
}

int il_score_better(const char *name)
{
	static const char *const higher[] = { "iops", "_per_s" };
	static const char *const lower[] = { "_us", "_ns", "_ms", "_pct", "_s" };
	static const char *const time_per[] = { "us_per_", "ns_per_", "ms_per_" };
	size_t len = name ? strlen(name) : 0;

	for (size_t i = 0; i < ARRAY_SIZE(time_per); i++)
		if (len && !strncmp(name, time_per[i], strlen(time_per[i])))
			return -1; /* a time per operation: us_per_loop */

	for (size_t i = 0; i < ARRAY_SIZE(higher); i++) {
		size_t l = strlen(higher[i]);

		if (len >= l && !strcmp(name + len - l, higher[i]))
			return 1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(lower); i++) {
		size_t l = strlen(lower[i]);

		if (len >= l && !strcmp(name + len - l, lower[i]))
			return -1;
	}
	return 0;
}

/* ---- groups --------------------------------------------------------------------------------- */

static struct il_pm_group *find_group(struct il_model *m, const char *key)
{
	for (int i = 0; i < m->ngroups; i++)
		if (!strcmp(m->groups[i].key, key))
			return &m->groups[i];
	return NULL;
}

/* The group called @key, made with @title, @score and @states when it is new. */
static struct il_pm_group *get_group(struct il_model *m, const char *key, const char *title,
				     const char *score, const char *file, enum il_group_src src,
				     const char *const *states, int nstates)
{
	struct il_pm_group *g = find_group(m, key);

	if (g)
		return g;
	if (m->ngroups == m->cap) {
		int cap = m->cap ? 2 * m->cap : 16;
		struct il_pm_group *n = realloc(m->groups, (size_t)cap * sizeof(*n));

		if (!n)
			return NULL;
		m->groups = n;
		m->cap = cap;
	}
	g = &m->groups[m->ngroups];
	memset(g, 0, sizeof(*g));
	g->src = src;
	g->key = strdup(key);
	g->title = strdup(title);
	g->file = strdup(file);
	g->score = score ? strdup(score) : NULL;
	g->states = calloc((size_t)nstates + 1, sizeof(char *));
	if (!g->key || !g->title || !g->file || (score && !g->score) || !g->states)
		goto fail;
	for (g->nstates = 0; g->nstates < nstates; g->nstates++)
		if (!(g->states[g->nstates] = strdup(states[g->nstates])))
			goto fail;
	m->ngroups++;
	return g;
fail:
	for (int i = 0; g->states && i < g->nstates; i++)
		free(g->states[i]);
	free(g->states);
	free(g->key);
	free(g->title);
	free(g->file);
	free(g->score);
	return NULL;
}

static double *nan_values(int n)
{
	double *v = malloc((size_t)(n ? n : 1) * sizeof(*v));

	for (int i = 0; v && i < n; i++)
		v[i] = NAN;
	return v;
}

static struct il_pm_row *add_row(struct il_pm_group *g, const char *gov)
{
	struct il_pm_row *r;

	if (g->nrows == g->cap) {
		int cap = g->cap ? 2 * g->cap : 8;
		struct il_pm_row *n = realloc(g->rows, (size_t)cap * sizeof(*n));

		if (!n)
			return NULL;
		g->rows = n;
		g->cap = cap;
	}
	r = &g->rows[g->nrows];
	*r = (struct il_pm_row){ gov, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NULL, NULL, NULL };
	r->usage = nan_values(g->nstates);
	r->idle_s = nan_values(g->nstates);
	if (!r->usage || !r->idle_s) {
		free(r->usage);
		free(r->idle_s);
		return NULL;
	}
	g->nrows++;
	return r;
}

static int add_gov(struct il_model *m, const char *gov)
{
	char **n;

	if (il_model_gov(m, gov) >= 0)
		return 0;
	n = realloc(m->gov, (size_t)(m->ngov + 1) * sizeof(*n));
	if (!n)
		return -1;
	m->gov = n;
	if (!(m->gov[m->ngov] = strdup(gov)))
		return -1;
	m->ngov++;
	return 0;
}

int il_model_gov(const struct il_model *m, const char *name)
{
	for (int i = 0; i < m->ngov; i++)
		if (!strcmp(m->gov[i], name))
			return i;
	return -1;
}

const char *il_model_gov_color(const struct il_model *m, const char *name)
{
	int i = il_model_gov(m, name);

	return i >= 0 ? il_color_series(i) : "#888888";
}

/* ---- linux-pm rows (run, compare, battery, sweep) -------------------------------------------- */

/* The states of a linux-pm row: its usage_STATE columns that have a value. */
static int pm_states(const json_t *row, const char **states)
{
	const char *key;
	json_t *v;
	int n = 0;

	json_object_foreach((json_t *)row, key,
			    v) if (n < IL_RPT_MAX_STATES &&
				   !strncmp(key, USAGE_PREFIX, strlen(USAGE_PREFIX)) &&
				   !json_is_null(v)) states[n++] = key + strlen(USAGE_PREFIX);
	return n;
}

/* The counts of a linux-pm or replay row, by catalogue line. */
static void fill_counts(struct il_pm_row *r, const json_t *row)
{
	r->idles = il_json_num(row, IL_RPT_PM_COL(idles));
	r->misses = il_json_num(row, IL_RPT_PM_COL(idle_misses));
	r->belows = il_json_num(row, IL_RPT_PM_COL(belows));
	r->aboves = il_json_num(row, IL_RPT_PM_COL(aboves));
}

static void fill_pm_row(struct il_pm_row *r, const struct il_pm_group *g, const json_t *row)
{
	char col[256];

	r->score = g->score ? il_json_num(row, g->score) : NAN;
	fill_counts(r, row);
	r->joules = il_json_num(row, IL_RPT_PM_COL(joules));
	r->watts = il_json_num(row, IL_RPT_PM_COL(watts));
	for (int i = 0; i < g->nstates; i++) {
		snprintf(col, sizeof(col), USAGE_PREFIX "%s", g->states[i]);
		r->usage[i] = il_json_num(row, col);
	}
}

/* A row of a linux-pm table into the group @key, title @title. */
static int add_pm_row(struct il_model *m, const json_t *row, const char *gov, const char *key,
		      const char *title, const char *file, enum il_group_src src,
		      struct il_pm_row **out)
{
	const char *states[IL_RPT_MAX_STATES];
	int n = pm_states(row, states);
	struct il_pm_group *g =
		get_group(m, key, title, il_pm_score_col(row), file, src, states, n);
	struct il_pm_row *r = g ? add_row(g, gov) : NULL;

	if (!r || add_gov(m, gov))
		return -1;
	fill_pm_row(r, g, row);
	if (out)
		*out = r;
	return 0;
}

static int add_pm_table(struct il_model *m, const struct il_rpt_input *in, const char *title,
			const json_t *t)
{
	size_t i;
	json_t *row;

	json_array_foreach(t, i, row) {
		const char *device = il_json_str(row, "device");
		char *key = il_strf("%s" KEY_SEP "%s" KEY_SEP "%s", in->name, title,
				    device ? device : "");
		/*
		 * The device only when the title does not say it already ("rk3588 idle",
		 * "idle").
		 */
		char *gtitle = device && *device && !strstr(title, device) ?
			il_strf("%s \xc2\xb7 %s", title, device) : il_strf("%s", title);
		int ret = key && gtitle ? add_pm_row(m, row, il_json_str(row, "gov"), key, gtitle,
						     in->name, IL_GROUP_LAB, NULL) : -1;

		free(key);
		free(gtitle);
		if (ret)
			return -1;
	}
	return 0;
}

static int add_compare(struct il_model *m, const struct il_rpt_input *in)
{
	const char *title;
	json_t *t;

	json_object_foreach(in->root, title, t)
		if ((strcmp(title, "battery") || in->kind != IL_RPT_BATTERY) &&
		    !il_rpt_is_summary(t) && !il_rpt_is_bound(title) &&
		    add_pm_table(m, in, title, t))
			return -1;
	return 0;
}

/* A run: the group is the case (platform, scenario, parameters, device), whatever the file. */
static int add_run(struct il_model *m, const struct il_rpt_input *in)
{
	const json_t *info = json_object_get(in->root, "run"),
		     *states = json_object_get(in->root, "states");
	const json_t *row = json_array_get(json_object_get(in->root, "summary"), 0);
	const char *plat = il_json_kv(info, "platform"), *scn = il_json_kv(info, "scenario");
	const char *params = il_json_kv(info, "params"), *device = il_json_str(row, "device");
	char *key, *title;
	struct il_pm_row *r = NULL;
	struct il_pm_group *g;
	int ret;
	size_t i;
	json_t *st;

	plat = plat ? plat : "?";
	scn = scn ? scn : "?";
	key = il_strf("run" KEY_SEP "%s" KEY_SEP "%s" KEY_SEP "%s" KEY_SEP "%s", plat, scn,
		      params ? params : "", device ? device : "");
	title = il_strf("%s %s \xc2\xb7 %s", plat, scn, device ? device : "");
	ret = key && title ? add_pm_row(m, row, il_json_str(row, "gov"), key, title, in->name,
					IL_GROUP_LAB, &r) : -1;
	g = ret ? NULL : find_group(m, key);
	free(key);
	free(title);
	if (ret)
		return -1;
	json_array_foreach(states, i, st) {
		const char *name = il_json_str(st, "state");

		for (int s = 0; name && s < g->nstates; s++)
			if (!strcmp(g->states[s], name))
				r->idle_s[s] = il_json_num(st, IL_RPT_STATE_COL(time_ns));
	}
	return 0;
}

/* A sweep: one group per point (platform and parameter values). */
static int add_sweep(struct il_model *m, const struct il_rpt_input *in)
{
	const json_t *rows = json_object_get(in->root, "sweep");
	const char *params[2];
	int np = il_sweep_params(rows, params, 2);
	size_t i;
	json_t *row;

	json_array_foreach(rows, i, row) {
		char point[512] = "", val[128];
		size_t used = 0;
		char *key, *title;
		int ret;

		for (int p = 0; p < np; p++) {
			const json_t *v = json_object_get(row, params[p]);

			if (json_is_string(v))
				snprintf(val, sizeof(val), "%s", json_string_value(v));
			else
				snprintf(val, sizeof(val), "%g", json_number_value(v));
			used += (size_t)snprintf(point + used,
						 used < sizeof(point) ? sizeof(point) - used : 0,
						 "%s%s=%s", p ? ", " : "", params[p], val);
		}
		key = il_strf("sweep" KEY_SEP "%s" KEY_SEP "%s" KEY_SEP "%s", in->name,
			      il_json_str(row, "platform"), point);
		title = il_strf("%s %s", il_json_str(row, "platform"), point);
		ret = key && title ? add_pm_row(m, row, il_json_str(row, "governor"), key, title,
						in->name, IL_GROUP_SWEEP, NULL) : -1;
		free(key);
		free(title);
		if (ret)
			return -1;
	}
	return 0;
}

static const char *trace_name(const struct il_rpt_input *in)
{
	const char *path = il_json_kv(json_object_get(in->root, "trace"), "path"), *slash;

	if (!path)
		return in->name;
	slash = strrchr(path, '/');
	return slash && slash[1] ? slash + 1 : path;
}

/* A replay: its governors over the trace, entries per state from the "usage" table. */
static int add_replay(struct il_model *m, const struct il_rpt_input *in)
{
	const json_t *govs = json_object_get(in->root, "governors"),
		     *usage = json_object_get(in->root, "usage");
	const json_t *first = json_array_get(usage, 0);
	const char *states[IL_RPT_MAX_STATES], *key;
	char *gkey = il_strf("replay" KEY_SEP "%s", in->name),
	     *title = il_strf("replay of %s", trace_name(in));
	struct il_pm_group *g;
	int n = 0;
	bool recorded_done = false;
	size_t i;
	json_t *row, *v;

	json_object_foreach((json_t *)first, key, v)
		if (n < IL_RPT_MAX_STATES && strcmp(key, "governor"))
			states[n++] = key;
	g = gkey && title ?
		get_group(m, gkey, title, NULL, in->name, IL_GROUP_REPLAY, states, n) : NULL;
	free(gkey);
	free(title);
	if (!g)
		return -1;
	json_array_foreach(govs, i, row) {
		const char *gov = il_json_str(row, "governor");
		struct il_pm_row *r = gov ? add_row(g, gov) : NULL;
		size_t j;
		json_t *u;

		if (!r || add_gov(m, gov))
			return -1;
		fill_counts(r, row);
		/* replay's own energy column, in mJ (lib/replay/tables.c), not the lab's joules */
		r->joules = il_json_num(row, "energy_mj") / 1e3;
		/* The usage row "recorded" goes with the first "recorded (...)" governor row. */
		json_array_foreach(usage, j, u) {
			const char *ug = il_json_str(u, "governor");
			bool match = ug && (!strcmp(ug, gov) ||
					    (!recorded_done && !strcmp(ug, "recorded") &&
					     !strncmp(gov, "recorded", strlen("recorded"))));

			if (!match)
				continue;
			recorded_done |= !strcmp(ug, "recorded");
			for (int s = 0; s < g->nstates; s++)
				r->usage[s] = il_json_num(u, g->states[s]);
			break;
		}
	}
	return 0;
}

/* The states of a stats file, by index: the names its "states" table gives them. */
static int trace_states(const json_t *states, const char **names)
{
	int n = 0;
	size_t i;
	json_t *row;

	json_array_foreach(states, i, row) {
		double idx = il_json_num(row, "state");

		if (!isnan(idx) && idx >= 0 && idx < IL_RPT_MAX_STATES &&
		    il_json_str(row, "name")) {
			while (n <= (int)idx)
				names[n++] = NULL;
			names[(int)idx] = il_json_str(row, "name");
		}
	}
	for (int s = 0; s < n; s++)
		if (!names[s])
			names[s] = "?";
	return n;
}

static double add_nan(double a, double b)
{
	if (isnan(b))
		return a;
	return isnan(a) ? b : a + b;
}

/* A stats file: one row per CPU with idle events; misses as recomputed from the states. */
static int add_stats(struct il_model *m, const struct il_rpt_input *in)
{
	const json_t *states = json_object_get(in->root, "states");
	const char *names[IL_RPT_MAX_STATES];
	int n = trace_states(states, names);
	char *key = il_strf("stats" KEY_SEP "%s", in->name);
	char *title = il_strf("trace %s", trace_name(in));
	struct il_pm_group *g = key && title ?
		get_group(m, key, title, NULL, in->name, IL_GROUP_TRACE, names, n) : NULL;
	size_t i;
	json_t *row;

	free(key);
	free(title);
	if (!g)
		return -1;
	json_array_foreach(states, i, row) {
		int cpu = (int)il_json_num(row, "cpu"), s = (int)il_json_num(row, "state");
		char gov[32];
		struct il_pm_row *r = NULL;

		if (s < 0 || s >= g->nstates)
			continue;
		snprintf(gov, sizeof(gov), "cpu %d", cpu);
		for (int k = 0; k < g->nrows && !r; k++)
			if (!strcmp(g->rows[k].gov, gov))
				r = &g->rows[k];
		if (!r) {
			char *name = strdup(gov);

			if (!name || !(r = add_row(g, name))) {
				free(name);
				return -1;
			}
			r->gov_owned = name;
		}
		r->usage[s] = il_json_num(row, "entries");
		r->idle_s[s] = il_json_num(row, "total_us") / 1e6;
		r->idles = add_nan(r->idles, r->usage[s]);
		r->aboves = add_nan(r->aboves, il_json_num(row, "above"));
		r->belows = add_nan(r->belows, il_json_num(row, "below"));
		r->misses = add_nan(r->aboves, r->belows);
		if (isnan(il_json_num(row, "above")))
			/* no state table: not recomputed */
			r->misses = r->aboves = r->belows = NAN;
	}
	return 0;
}

int il_sweep_params(const json_t *rows, const char **names, int cap)
{
	const json_t *row = json_array_get(rows, 0);
	bool after_platform = false;
	const char *key;
	json_t *v;
	int n = 0;

	json_object_foreach((json_t *)row, key, v) {
		if (!strcmp(key, "iter"))
			break;
		if (after_platform && n < cap)
			names[n++] = key;
		after_platform |= !strcmp(key, "platform");
	}
	return n;
}

/* Two groups with the same title: name the file after each. */
static int disambiguate(struct il_model *m)
{
	for (int i = 0; i < m->ngroups; i++) {
		bool dup = false;

		for (int j = 0; j < m->ngroups && !dup; j++)
			dup = j != i && !strcmp(m->groups[i].title, m->groups[j].title) &&
			      strcmp(m->groups[i].file, m->groups[j].file);
		if (dup) {
			char *t = il_strf("%s (%s)", m->groups[i].title, m->groups[i].file);

			if (!t)
				return -1;
			free(m->groups[i].title);
			m->groups[i].title = t;
		}
	}
	return 0;
}

/* A verdict or a fidelity result makes no groups: it is drawn as it is (heatmap.c, fidelity.c). */
static int add_verdict(struct il_model *m, const struct il_rpt_input *in)
{
	return 0;
}

int il_model_build(struct il_model *m, const struct il_rpt_input *in, int nin,
		   struct il_error *err)
{
	static int (*const add[])(struct il_model *, const struct il_rpt_input *) = {
		[IL_RPT_RUN] = add_run, [IL_RPT_COMPARE] = add_compare,
		[IL_RPT_BATTERY] = add_compare, [IL_RPT_SWEEP] = add_sweep,
		[IL_RPT_REPLAY] = add_replay, [IL_RPT_STATS] = add_stats,
		[IL_RPT_VERDICT] = add_verdict, [IL_RPT_FIDELITY] = add_verdict,
	};

	memset(m, 0, sizeof(*m));
	m->in = in;
	m->nin = nin;
	for (int i = 0; i < nin; i++) {
		if (add[in[i].kind](m, &in[i])) {
			il_error_set(err, NULL, 0, "%s: %s", in[i].name, strerror(ENOMEM));
			il_model_free(m);
			errno = ENOMEM;
			return -1;
		}
	}
	if (disambiguate(m)) {
		il_error_set(err, NULL, 0, "%s", strerror(ENOMEM));
		il_model_free(m);
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

void il_model_free(struct il_model *m)
{
	for (int i = 0; i < m->ngroups; i++) {
		struct il_pm_group *g = &m->groups[i];

		for (int r = 0; r < g->nrows; r++) {
			free(g->rows[r].usage);
			free(g->rows[r].idle_s);
			free(g->rows[r].gov_owned);
		}
		for (int s = 0; s < g->nstates; s++)
			free(g->states[s]);
		free(g->states);
		free(g->rows);
		free(g->key);
		free(g->title);
		free(g->file);
		free(g->score);
	}
	free(m->groups);
	for (int i = 0; i < m->ngov; i++)
		free(m->gov[i]);
	free(m->gov);
	memset(m, 0, sizeof(*m));
}

static bool has_name(const char **names, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

int il_row_names(const struct il_model *m, const int *groups, int ng, const char **names, int cap)
{
	int n = 0;

	for (int s = 0; s < m->ngov; s++) {
		bool used = false;

		for (int i = 0; i < ng && !used; i++)
			for (int r = 0; r < m->groups[groups[i]].nrows && !used; r++)
				used = !strcmp(m->groups[groups[i]].rows[r].gov, m->gov[s]);
		if (used && n < cap)
			names[n++] = m->gov[s];
	}
	for (int i = 0; i < ng; i++) {
		const struct il_pm_group *g = &m->groups[groups[i]];

		for (int r = 0; r < g->nrows; r++)
			if (n < cap && !has_name(names, n, g->rows[r].gov))
				names[n++] = g->rows[r].gov;
	}
	return n;
}

int il_bars_series(struct il_bars *b, const struct il_model *m, const char *const *names)
{
	for (int s = 0; s < b->nser; s++) {
		b->ser[s] = strdup(names[s]);
		b->ser_color[s] = strdup(il_model_gov_color(m, names[s]));
		if (!b->ser[s] || !b->ser_color[s])
			return -1;
	}
	return 0;
}

int il_group_bars(const struct il_model *m, const struct il_group_bars_ops *ops, int nseg,
		  struct il_bars *b)
{
	int *cats = calloc((size_t)m->ngroups + 1, sizeof(int)), ncat = 0, nser, ret = -1;
	const char *names[IL_REPORT_MAX_SERIES];

	if (!cats)
		goto out;
	for (int i = 0; i < m->ngroups; i++)
		if (ops->want(m, &m->groups[i], ops->ctx))
			cats[ncat++] = i;
	if (!ncat) {
		ret = 1;
		goto out;
	}
	nser = il_row_names(m, cats, ncat, names, IL_REPORT_MAX_SERIES);
	if (il_bars_init(b, ncat, nser, nseg))
		goto out;
	for (int c = 0; c < ncat; c++) {
		const struct il_pm_group *g = &m->groups[cats[c]];

		if (!(b->cat[c] = strdup(g->title)))
			goto out_bars;
		for (int s = 0; s < nser; s++)
			ops->fill(g, names[s], il_bars_at(b, c, s, 0), ops->ctx);
	}
	if (il_bars_series(b, m, names))
		goto out_bars;
	ret = 0;
	goto out;
out_bars:
	il_bars_free(b);
out:
	free(cats);
	if (ret < 0)
		errno = ENOMEM;
	return ret;
}

static void mean_add(double *sum, int *n, double v)
{
	if (isnan(v))
		return;
	*sum += v;
	(*n)++;
}

int il_group_mean(const struct il_pm_group *g, const char *gov, struct il_gov_mean *mean)
{
	double sum[7] = { 0 };
	int n[7] = { 0 }, rows = 0;
	double *out[7] = { &mean->score, &mean->idles, &mean->misses, &mean->belows, &mean->aboves,
			   &mean->joules, &mean->watts };

	for (int r = 0; r < g->nrows; r++) {
		const struct il_pm_row *row = &g->rows[r];
		const double v[7] = { row->score, row->idles, row->misses, row->belows, row->aboves,
				      row->joules, row->watts };

		if (strcmp(row->gov, gov))
			continue;
		rows++;
		for (int k = 0; k < 7; k++)
			mean_add(&sum[k], &n[k], v[k]);
	}
	for (int k = 0; k < 7; k++)
		*out[k] = n[k] ? sum[k] / n[k] : NAN;
	mean->nrows = rows;
	return rows;
}

#endif /* HAVE_JANSSON */
