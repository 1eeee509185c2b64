// SPDX-License-Identifier: GPL-2.0-only
/*
 * step_output.c - render `idlelab step` records as tables, CSV or JSON.
 *
 * Times are integer ns inside; tables show them in µs with exact decimals ("2.5"), CSV and
 * JSON keep ns. By default only a governor's diagnostic values (vars with .diag set, such as
 * menu's predicted_ns) are shown; --vars adds every field of its per-CPU data.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_JANSSON
#include <jansson.h>
#endif

#include "output/output.h"
#include "step_output.h"

struct mem_stream {
	FILE *f;
	char *buf;
	size_t len;
};

struct step_output {
	const struct step_view *v;
	struct mem_stream main;
	struct mem_stream *per_gov; /* one per governor when per-governor tables are printed */
	int w_sleep, w_delta, w_res, w_notes;
	int *w_cell;                /* side-by-side cell width per governor */
#ifdef HAVE_JANSSON
	json_t *root, *steps;
#endif
};

#define TIME_LEN 32
#define NOTES_LEN 160
#define VAR_LEN 96
#define VARS_WRAP 100

/* ---- text helpers ------------------------------------------------------------------------- */

static const char *us(s64 ns, char *buf)
{
	return cli_ns_to_us(ns, buf, TIME_LEN);
}

static const char *res_text(const struct il_step_input *in, char *buf)
{
	return in->rejected ? "rejected" : us(in->res_ns, buf);
}

/* The inputs that have no column of their own, as "stopped tick qos=20 ...". */
static const char *notes_text(const struct il_step_input *in, char *buf, size_t cap)
{
	char t[TIME_LEN];
	size_t n = 0;

#define NOTE(...) (n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, __VA_ARGS__))
	buf[0] = '\0';
	if (in->stopped)
		NOTE("%sstopped", n ? " " : "");
	if (in->tick)
		NOTE("%stick", n ? " " : "");
	if (in->has_qos)
		NOTE("%sqos=%d", n ? " " : "", in->qos_us);
	if (in->iowait)
		NOTE("%siowait=%lu", n ? " " : "", in->iowait);
	if (in->load)
		NOTE("%sload=%lu", n ? " " : "", in->load);
	if (in->has_span)
		NOTE("%sspan=%sus", n ? " " : "", us(in->span_ns, t));
	if (in->has_oracle)
		NOTE("%soracle=%sus", n ? " " : "", us(in->oracle_ns, t));
#undef NOTE
	if (!buf[0])
		snprintf(buf, cap, "-");
	return buf;
}

static const char *var_text(const struct il_var *v, char *buf)
{
	if (v->is_signed)
		snprintf(buf, VAR_LEN, "%s=%lld", v->name, (long long)v->value);
	else
		snprintf(buf, VAR_LEN, "%s=%llu", v->name, (unsigned long long)v->value);
	return buf;
}

static bool var_shown(const struct step_view *v, const struct il_var *var)
{
	return v->all_vars || var->diag;
}

static char tick_char(const struct il_step_record *r)
{
	switch (r->tick_action) {
	case IL_TICK_STOP:
		return 'S';
	case IL_TICK_RETAIN:
		return 'r';
	default:
		return 'e';
	}
}

static char miss_char(const struct il_step_record *r)
{
	switch (r->miss) {
	case IL_MISS_ABOVE:
		return 'A';
	case IL_MISS_BELOW:
		return 'B';
	case IL_MISS_REJECTED:
		return 'R';
	default:
		return '.';
	}
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

/* ---- setup -------------------------------------------------------------------------------- */

static bool side_by_side(const struct step_view *v)
{
	return v->format == CLI_FORMAT_TABLE && v->ngov > 1;
}

static bool per_gov_tables(const struct step_view *v)
{
	return v->format == CLI_FORMAT_TABLE && (v->ngov == 1 || v->detail || v->all_vars);
}

static int stream_open(struct mem_stream *s)
{
	s->f = open_memstream(&s->buf, &s->len);
	return s->f ? 0 : -1;
}

static void stream_discard(struct mem_stream *s)
{
	if (s->f)
		fclose(s->f);
	free(s->buf);
	s->f = NULL;
	s->buf = NULL;
}

/* Column widths from the script, so that every row lines up. */
static void measure(struct step_output *o)
{
	const struct step_view *v = o->v;
	char t[TIME_LEN], notes[NOTES_LEN];
	int name_w = 0;

	o->w_sleep = strlen("sleep_us");
	o->w_delta = strlen("delta_us");
	o->w_res = strlen("res_us");
	o->w_notes = strlen("notes");
	for (size_t i = 0; i < v->script->count; i++) {
		struct il_step_input in;

		il_step_resolve_inputs(v->tick_nsec, &v->script->entries[i], &in);
		o->w_sleep = max_int(o->w_sleep, (int)strlen(us(in.sleep_ns, t)));
		o->w_delta = max_int(o->w_delta, (int)strlen(us(in.delta_ns, t)));
		o->w_res = max_int(o->w_res, (int)strlen(res_text(&in, t)));
		o->w_notes = max_int(o->w_notes, (int)strlen(notes_text(&in, notes,
			sizeof(notes))));
	}
	for (int i = 0; i < v->plat->drv.state_count; i++)
		name_w = max_int(name_w, (int)strlen(v->plat->drv.states[i].name));
	for (int g = 0; g < v->ngov; g++)
		o->w_cell[g] = max_int(name_w + 4, (int)strlen(v->presets[g]->name));
}

static void describe_run(FILE *f, const struct step_view *v)
{
	fprintf(f, "# on %s (%s, %d states, HZ=%u), input %s, %zu idle entries\n", v->plat->name,
		v->plat->drv.name, v->plat->drv.state_count, v->hz, v->input_name,
			v->script->count);
	if (v->diff_only)
		fprintf(f, "# --diff: only the entries where the governors decide differently\n");
}

static void inputs_header(FILE *f, const struct step_output *o)
{
	fprintf(f, "%4s %5s %*s %*s %*s %-*s", "step", "line", o->w_sleep, "sleep_us", o->w_delta,
		"delta_us", o->w_res, "res_us", o->w_notes, "notes");
}

static void side_by_side_header(struct step_output *o)
{
	const struct step_view *v = o->v;
	FILE *f = o->main.f;

	fprintf(f, "# idlelab step: %d governors side by side\n", v->ngov);
	describe_run(f, v);
	fprintf(f, "# cell: STATE, then the tick after select (S stopped, r retained, e stopped "
		   "on\n"
		   "#       idle entry by the 4.16 loop), then the miss (. none, A above = too "
		   "deep,\n"
		   "#       B below = too shallow, R rejected entry); * = governor bypassed\n");
	inputs_header(f, o);
	for (int g = 0; g < v->ngov; g++)
		fprintf(f, "  %-*s", g + 1 < v->ngov ? o->w_cell[g] : 0, v->presets[g]->name);
	fputc('\n', f);
}

static void per_gov_header(FILE *f, const struct step_output *o, const struct il_preset *p)
{
	fprintf(f, "# idlelab step: %s (%s %s, core rules %s, upstream %s)\n", p->name,
		p->gov->name,
		p->kernel ? p->kernel : "-", p->core ? p->core->name : "-",
		p->upstream ? p->upstream : "-");
	describe_run(f, o->v);
	fprintf(f, "# stop_tick: the governor's output; tick: what the idle loop did; sq: "
		   "sleep-length\n"
		   "# queries in select; ptl: dev->poll_time_limit after the entry\n");
	inputs_header(f, o);
	fprintf(f, "  %3s %-15s %9s %-6s %-8s %2s %3s  %s\n", "idx", "state", "stop_tick", "tick",
		"miss", "sq", "ptl", o->v->all_vars ? "vars (below)" : "values");
}

static void csv_header(FILE *f)
{
	fprintf(f, "governor,step,line,sleep_ns,delta_ns,stopped,qos_us,res_ns,rejected,tick,"
		   "iowait,load,span_ns,oracle_ns,index,state,bypassed,stop_tick,tick_action,"
		   "sleep_queries,poll_time_limit,miss,vars\n");
}

#ifdef HAVE_JANSSON
static json_t *json_platform(const struct step_view *v)
{
	json_t *p = json_object(), *states = json_array();

	json_object_set_new(p, "name", json_string(v->plat->name));
	json_object_set_new(p, "origin", json_string(v->plat->origin));
	json_object_set_new(p, "driver", json_string(v->plat->drv.name));
	json_object_set_new(p, "cpus", json_integer(v->plat->cpus));
	json_object_set_new(p, "hz", json_integer(v->hz));
	json_object_set_new(p, "tick_nsec", json_integer((json_int_t)v->tick_nsec));
	for (int i = 0; i < v->plat->drv.state_count; i++)
		json_array_append_new(states, json_string(v->plat->drv.states[i].name));
	json_object_set_new(p, "states", states);
	return p;
}

static int json_start(struct step_output *o)
{
	const struct step_view *v = o->v;
	json_t *govs = json_array();

	o->root = json_object();
	o->steps = json_array();
	for (int g = 0; g < v->ngov; g++) {
		const struct il_preset *p = v->presets[g];
		json_t *jg = json_object();

		json_object_set_new(jg, "name", json_string(p->name));
		json_object_set_new(jg, "family", json_string(p->gov->name));
		json_object_set_new(jg, "kernel", json_string(p->kernel ? p->kernel : ""));
		json_object_set_new(jg, "core", json_string(p->core ? p->core->name : ""));
		json_object_set_new(jg, "upstream", json_string(p->upstream ? p->upstream : ""));
		json_array_append_new(govs, jg);
	}
	json_object_set_new(o->root, "platform", json_platform(v));
	json_object_set_new(o->root, "input", json_string(v->input_name));
	json_object_set_new(o->root, "governors", govs);
	json_object_set_new(o->root, "steps", o->steps);
	return o->root ? 0 : -1;
}
#endif

struct step_output *step_output_start(const struct step_view *v)
{
	struct step_output *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	o->v = v;
	o->w_cell = calloc((size_t)v->ngov, sizeof(*o->w_cell));
	o->per_gov = calloc((size_t)v->ngov, sizeof(*o->per_gov));
	if (!o->w_cell || !o->per_gov || stream_open(&o->main))
		goto fail;
	measure(o);
	switch (v->format) {
	case CLI_FORMAT_CSV:
		csv_header(o->main.f);
		break;
	case CLI_FORMAT_JSON:
#ifdef HAVE_JANSSON
		if (json_start(o))
			goto fail;
		break;
#else
		goto fail;
#endif
	default:
		if (side_by_side(v))
			side_by_side_header(o);
		for (int g = 0; per_gov_tables(v) && g < v->ngov; g++) {
			if (stream_open(&o->per_gov[g]))
				goto fail;
			per_gov_header(o->per_gov[g].f, o, v->presets[g]);
		}
	}
	return o;
fail:
	step_output_free(o);
	return NULL;
}

/* ---- rows --------------------------------------------------------------------------------- */

static void inputs_row(FILE *f, const struct step_output *o, int step,
		       const struct il_step_input *in)
{
	char sleep[TIME_LEN], delta[TIME_LEN], res[TIME_LEN], notes[NOTES_LEN];

	fprintf(f, "%4d %5d %*s %*s %*s %-*s", step + 1, in->line, o->w_sleep, us(in->sleep_ns,
		sleep),
		o->w_delta, us(in->delta_ns, delta), o->w_res, res_text(in, res), o->w_notes,
		notes_text(in, notes, sizeof(notes)));
}

static void side_by_side_row(struct step_output *o, int step, const struct il_step_record *recs)
{
	const struct step_view *v = o->v;
	FILE *f = o->main.f;

	inputs_row(f, o, step, &recs[0].in);
	for (int g = 0; g < v->ngov; g++) {
		const struct il_step_record *r = &recs[g];
		char cell[64];

		snprintf(cell, sizeof(cell), "%s %c%c%s", v->plat->drv.states[r->index].name,
			 tick_char(r),
			 miss_char(r), r->bypassed ? "*" : "");
		/* No padding after the last cell: rows end without trailing blanks. */
		fprintf(f, "  %-*s", g + 1 < v->ngov ? o->w_cell[g] : 0, cell);
	}
	fputc('\n', f);
}

/* The shown vars: on the row itself, or (--vars) wrapped on indented lines below it. */
static void vars_text(FILE *f, const struct step_view *v, const struct il_step_record *r)
{
	char text[VAR_LEN];
	int col = VARS_WRAP;

	for (int i = 0, shown = 0; i < r->nvars; i++) {
		if (!var_shown(v, &r->vars[i]))
			continue;
		var_text(&r->vars[i], text);
		if (!v->all_vars) {
			fprintf(f, "%s%s", shown++ ? " " : "  ", text);
			continue;
		}
		if (col + 1 + (int)strlen(text) > VARS_WRAP) {
			fprintf(f, "\n          ");
			col = 10;
		}
		col += fprintf(f, " %s", text);
	}
	fputc('\n', f);
}

static void per_gov_row(struct step_output *o, FILE *f, int step, const struct il_step_record *r)
{
	const struct il_driver *drv = &o->v->plat->drv;

	inputs_row(f, o, step, &r->in);
	fprintf(f, "  %3d %-15s %9d %-6s %-8s %2d %3d", r->index, drv->states[r->index].name,
		r->stop_tick, r->bypassed ? "bypass" : il_tick_action_name(r->tick_action),
		il_miss_name(r->miss), r->sleep_queries, r->poll_time_limit);
	vars_text(f, o->v, r);
}

static void csv_vars(FILE *f, const struct step_view *v, const struct il_step_record *r)
{
	char text[VAR_LEN], *list;
	size_t len = 0;
	FILE *m = open_memstream(&list, &len);
	bool first = true;

	if (!m)
		return;
	for (int i = 0; i < r->nvars; i++) {
		if (!var_shown(v, &r->vars[i]))
			continue;
		fprintf(m, "%s%s", first ? "" : ";", var_text(&r->vars[i], text));
		first = false;
	}
	fclose(m);
	il_csv_field(f, list);
	free(list);
}

static void csv_row(struct step_output *o, int step, const struct il_step_record *r,
		    const struct il_preset *p)
{
	const struct il_step_input *in = &r->in;
	FILE *f = o->main.f;

	il_csv_field(f, p->name);
	fprintf(f, ",%d,%d,%lld,%lld,%d,", step + 1, in->line, (long long)in->sleep_ns,
		(long long)in->delta_ns, in->stopped);
	if (in->has_qos)
		fprintf(f, "%d", in->qos_us);
	fprintf(f, ",%lld,%d,%d,%lu,%lu,%lld,%lld,%d,", (long long)in->res_ns, in->rejected,
		in->tick,
		in->iowait, in->load, (long long)in->span_ns, (long long)in->oracle_ns, r->index);
	il_csv_field(f, o->v->plat->drv.states[r->index].name);
	fprintf(f, ",%d,%d,%s,%d,%d,%s,", r->bypassed, r->stop_tick,
		r->bypassed ? "bypass" : il_tick_action_name(r->tick_action), r->sleep_queries,
		r->poll_time_limit, il_miss_name(r->miss));
	csv_vars(f, o->v, r);
	fputc('\n', f);
}

#ifdef HAVE_JANSSON
static json_t *json_u64(u64 v)
{
	char buf[32];

	if (v <= (u64)INT64_MAX)
		return json_integer((json_int_t)v);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	return json_string(buf);
}

static json_t *json_inputs(const struct il_step_input *in)
{
	json_t *j = json_object();

	json_object_set_new(j, "sleep_ns", json_integer(in->sleep_ns));
	json_object_set_new(j, "delta_ns", json_integer(in->delta_ns));
	json_object_set_new(j, "stopped", json_boolean(in->stopped));
	json_object_set_new(j, "qos_us", in->has_qos ? json_integer(in->qos_us) : json_null());
	json_object_set_new(j, "res_ns", in->rejected ? json_null() : json_integer(in->res_ns));
	json_object_set_new(j, "rejected", json_boolean(in->rejected));
	json_object_set_new(j, "tick", json_boolean(in->tick));
	json_object_set_new(j, "iowait", json_integer((json_int_t)in->iowait));
	json_object_set_new(j, "load", json_integer((json_int_t)in->load));
	json_object_set_new(j, "span_ns", json_integer(in->span_ns));
	json_object_set_new(j, "oracle_ns", json_integer(in->oracle_ns));
	return j;
}

static json_t *json_decision(const struct step_view *v, const struct il_step_record *r,
			     const struct il_preset *p)
{
	json_t *d = json_object(), *vars = json_object();

	json_object_set_new(d, "governor", json_string(p->name));
	json_object_set_new(d, "index", json_integer(r->index));
	json_object_set_new(d, "state", json_string(v->plat->drv.states[r->index].name));
	json_object_set_new(d, "bypassed", json_boolean(r->bypassed));
	json_object_set_new(d, "stop_tick", json_boolean(r->stop_tick));
	json_object_set_new(d, "tick_action", json_string(r->bypassed ? "bypass" :
							   il_tick_action_name(r->tick_action)));
	json_object_set_new(d, "sleep_queries", json_integer(r->sleep_queries));
	json_object_set_new(d, "poll_time_limit", json_boolean(r->poll_time_limit));
	json_object_set_new(d, "miss", json_string(il_miss_name(r->miss)));
	for (int i = 0; i < r->nvars; i++) {
		const struct il_var *var = &r->vars[i];

		if (!var_shown(v, var))
			continue;
		json_object_set_new(vars, var->name,
				    var->is_signed ? json_integer((json_int_t)var->value) :
								      json_u64(var->value));
	}
	json_object_set_new(d, "vars", vars);
	return d;
}

static void json_row(struct step_output *o, int step, const struct il_step_record *recs)
{
	json_t *s = json_object(), *decisions = json_array();

	json_object_set_new(s, "step", json_integer(step + 1));
	json_object_set_new(s, "line", json_integer(recs[0].in.line));
	json_object_set_new(s, "inputs", json_inputs(&recs[0].in));
	for (int g = 0; g < o->v->ngov; g++)
		json_array_append_new(decisions, json_decision(o->v, &recs[g], o->v->presets[g]));
	json_object_set_new(s, "decisions", decisions);
	json_array_append_new(o->steps, s);
}
#endif

void step_output_row(struct step_output *o, int step, const struct il_step_record *recs)
{
	const struct step_view *v = o->v;

	switch (v->format) {
	case CLI_FORMAT_CSV:
		for (int g = 0; g < v->ngov; g++)
			csv_row(o, step, &recs[g], v->presets[g]);
		break;
	case CLI_FORMAT_JSON:
#ifdef HAVE_JANSSON
		json_row(o, step, recs);
#endif
		break;
	default:
		if (side_by_side(v))
			side_by_side_row(o, step, recs);
		for (int g = 0; per_gov_tables(v) && g < v->ngov; g++)
			per_gov_row(o, o->per_gov[g].f, step, &recs[g]);
	}
}

/* ---- finish ------------------------------------------------------------------------------- */

static int append_stream(struct mem_stream *dst, struct mem_stream *src)
{
	if (fclose(src->f))
		return -1;
	src->f = NULL;
	if (src->len && fwrite(src->buf, 1, src->len, dst->f) != src->len)
		return -1;
	return 0;
}

char *step_output_finish(struct step_output *o, size_t *len)
{
	const struct step_view *v = o->v;
	char *buf = NULL;
	int failed = 0;

#ifdef HAVE_JANSSON
	if (v->format == CLI_FORMAT_JSON) {
		failed = json_dumpf(o->root, o->main.f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', o->main.f);
	}
#endif
	for (int g = 0; per_gov_tables(v) && g < v->ngov && !failed; g++) {
		if (g > 0 || side_by_side(v))
			fputc('\n', o->main.f);
		failed = append_stream(&o->main, &o->per_gov[g]);
	}
	if (fclose(o->main.f))
		failed = -1;
	o->main.f = NULL;
	if (!failed) {
		buf = o->main.buf;
		*len = o->main.len;
		o->main.buf = NULL;
	}
	step_output_free(o);
	return buf;
}

void step_output_free(struct step_output *o)
{
	if (!o)
		return;
	stream_discard(&o->main);
	for (int g = 0; o->per_gov && g < o->v->ngov; g++)
		stream_discard(&o->per_gov[g]);
	free(o->per_gov);
	free(o->w_cell);
#ifdef HAVE_JANSSON
	json_decref(o->root);
#endif
	free(o);
}
