// SPDX-License-Identifier: GPL-2.0-only
/*
 * kgov_diff_cli.c - `idlelab kgov diff OLD NEW`: both on one input stream under one framework,
 * the decisions that differ, where, and the first few in full.
 */
#include <errno.h>
#ifdef HAVE_JANSSON
#include <jansson.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_opts.h"
#include "kgov_args.h"
#include "kgov_cli.h"
#include "progress.h"
#include "kgov/kgov.h"
#include "lab/lab.h"
#include "platform/platform.h"

/* ---- diff ------------------------------------------------------------------------------------ */

#define DIFF_LAB_TIME_NS (10ULL * 1000000000ULL) /* as `idlelab run` */

/* --scenario PLATFORM:SCEN: the lab spec; Return: 0, or an exit status after a message. */
static int diff_lab_spec(const struct kgov_args *args, struct il_platform *plat,
			 struct il_lab_spec *spec, char *source, size_t cap)
{
	const char *colon = strchr(args->scenario, ':');
	char name[256];
	struct il_error err;

	snprintf(name, sizeof(name), "%.*s", (int)(colon - args->scenario), args->scenario);
	if (il_platform_load(name, plat, &err)) {
		if (!il_platform_is_path(name))
			return cli_usage_error("kgov", err.msg);
		fprintf(stderr, "idlelab kgov diff: %s\n", err.msg);
		return CLI_EXIT_RUNTIME;
	}
	memset(spec, 0, sizeof(*spec));
	if (il_scn_parse(colon + 1, &spec->scn, &spec->args, &spec->common, &err))
		return cli_usage_error("kgov", err.msg);
	spec->plat = plat;
	spec->duration_ns = args->time_ns ? args->time_ns : DIFF_LAB_TIME_NS;
	spec->seed = args->seed;
	snprintf(source, cap, "the idle periods of a %g s lab run of %s on %s driven by OLD "
		 "(seed %llu), replayed open loop", (double)spec->duration_ns / 1e9, colon + 1,
		 plat->name, args->seed);
	return 0;
}

/* One side of a diff: a preset, or a file built (.c) into its own directory, or an object. */
struct diff_side {
	const char *label;      /* "OLD" or "NEW" */
	const char *spec;
	const struct il_preset *p;
	const char *object;     /* a file side: the object to load (NULL: a preset) */
	char tmpdir[40], obj[64];
	bool built;
};

/* The framework both sides run under, and why (lib/kgov/frame.c). */
struct diff_framework {
	struct il_kgov_framework fw;
	bool shared;            /* false: two built-in presets, each under its own rules */
};

/*
 * Find a preset side, or build a C file side (not loaded yet: the framework it runs under is
 * chosen once both sides are known). Return: 0, CLI_EXIT_USAGE for an unknown preset, or
 * CLI_EXIT_RUNTIME after a message.
 */
static int diff_resolve(struct diff_side *s, bool verbose)
{
	if (!kgov_ends_with(s->spec, ".c") && !kgov_ends_with(s->spec, ".so")) {
		struct il_error err;

		s->p = il_preset_lookup(s->spec, &err);
		if (!s->p) {
			if (err.msg[0]) {
				fprintf(stderr, "idlelab kgov diff: %s %s\n", s->label, err.msg);
				return CLI_EXIT_RUNTIME;
			}
			fprintf(stderr, "idlelab kgov diff: %s '%s' is no preset (idlelab "
					"governors), "
				"C file or .so object\n", s->label, s->spec);
			return CLI_EXIT_USAGE;
		}
		return 0;
	}
	if (access(s->spec, R_OK)) {
		fprintf(stderr, "idlelab kgov diff: %s %s: %s\n", s->label, s->spec,
			strerror(errno));
		return CLI_EXIT_RUNTIME;
	}
	s->object = s->spec;
	if (kgov_ends_with(s->spec, ".c")) {
		snprintf(s->tmpdir, sizeof(s->tmpdir), "/tmp/idlelab-kgov-diff-XXXXXX");
		if (!mkdtemp(s->tmpdir)) {
			fprintf(stderr, "idlelab kgov diff: %s: %s\n", s->tmpdir, strerror(errno));
			return CLI_EXIT_RUNTIME;
		}
		snprintf(s->obj, sizeof(s->obj), "%s/gov.so", s->tmpdir);
		s->built = true;
		if (kgov_build_file(s->spec, s->obj, verbose))
			return CLI_EXIT_RUNTIME;
		s->object = s->obj;
	}
	return 0;
}

/* Load a file side under @like (NULL: as il_kgov_load() guesses). Return: 0 or an exit status. */
static int diff_load(struct diff_side *s, const struct il_preset *like)
{
	struct il_kgov_load_opts lopts = { .like = like };
	struct il_error err = { 0 };

	s->p = il_kgov_load(s->object, &lopts, &err);
	if (!s->p) {
		fprintf(stderr, "idlelab kgov diff: %s %s: %s\n", s->label, s->spec, err.msg);
		return CLI_EXIT_RUNTIME;
	}
	return 0;
}

/*
 * One framework for both sides: a built-in OLD's own; for a file OLD its blob's preset, else
 * --as, else a built-in NEW's, else the guess from OLD's era (stated). Two built-in presets
 * each keep their own rules (they are versions of the framework too).
 */
static int diff_choose_framework(const struct kgov_args *args, struct diff_side *old,
				 struct diff_side *new, struct diff_framework *f)
{
	struct il_kgov_framework_query q = { .base_name = old->spec };
	const struct il_preset *as = NULL;
	struct il_error err = { 0 };
	char guess[160];
	int ret;

	if (args->as) {
		as = il_preset_find(args->as);
		if (!as || il_kgov_is_loaded(as))
			return cli_usage_error("kgov", "unknown preset for --as (see idlelab "
						       "governors)");
	}
	f->shared = true;
	if (!old->object) {
		f->fw.preset = old->p;
		f->fw.why = IL_KGOV_FW_FALLBACK;
		snprintf(f->fw.reason, sizeof(f->fw.reason), "OLD is the built-in preset %s",
			 old->p->name);
		if (as)
			fprintf(stderr, "idlelab kgov diff: note: --as is not used: OLD, a "
					"built-in "
				"preset, decides the framework\n");
		if (new->object)
			return diff_load(new, old->p);
		f->shared = old->p->core == new->p->core;
		return 0;
	}
	ret = diff_load(old, NULL);
	if (ret)
		return ret;
	q.family = old->p->gov->name;
	q.blob = il_kgov_blob(old->p);
	q.as = as;
	if (!new->object) {
		q.fallback = new->p;
		snprintf(guess, sizeof(guess), "NEW is the built-in preset %s (OLD's blob %.12s is "
					       "no "
			 "preset's)", new->p->name, q.blob);
	} else {
		q.fallback = il_kgov_like(old->p);
		snprintf(guess, sizeof(guess), "guessed from OLD's era (its blob %.12s is no "
					       "preset's): "
			 "give --as PRESET to choose", q.blob);
	}
	q.fallback_reason = guess;
	if (cli_framework_choose(&q, &f->fw, &err)) {
		fprintf(stderr, "idlelab kgov diff: %s%s\n", err.msg, cli_remedy(err.need));
		return CLI_EXIT_RUNTIME;
	}
	ret = diff_load(old, f->fw.preset);
	if (!ret && new->object)
		ret = diff_load(new, f->fw.preset);
	if (!new->object && new->p->core != f->fw.preset->core)
		f->shared = false;
	return ret;
}

static void diff_cleanup(struct diff_side *s)
{
	if (!s->built)
		return;
	unlink(s->obj);
	rmdir(s->tmpdir);
}

static double pct(unsigned long long n, unsigned long long d)
{
	return d ? 100.0 * (double)n / (double)d : 0.0;
}

static const struct il_var *diff_find_var(const struct il_var *vars, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(vars[i].name, name))
			return &vars[i];
	return NULL;
}

static void print_value(const struct il_var *v)
{
	if (!v)
		printf(" %20s", "-");
	else if (v->is_signed)
		printf(" %20lld", (long long)(s64)v->value);
	else
		printf(" %20llu", (unsigned long long)v->value);
}

static void print_case_table(const struct il_kgov_diff_case *k)
{
	const struct kgov_step *in = &k->in[0];

	printf("\ndecision #%llu (run %u step %llu): index %d vs %d, stop_tick %d vs %d\n",
	       k->decision + 1, k->run, k->step, k->idx[0], k->idx[1], k->stop_tick[0],
	       k->stop_tick[1]);
	printf("  HZ=%u, %d states:", k->hz, k->drv.state_count);
	for (int i = 0; i < k->drv.state_count; i++)
		printf(" %s %lld/%lldns%s", k->drv.states[i].name,
		       (long long)k->drv.states[i].exit_latency_ns,
		       (long long)k->drv.states[i].target_residency_ns,
		       k->disable[i] ? " (disabled)" : "");
	printf("\n  inputs: sleep_length=%lld delta_next=%lld tick_stopped=%d/%d got_tick=%d "
	       "qos(cpu=%d resume=%d wakeup=%d us) nr_iowait=%lu clock=%llu -> %s "
	       "residency=%lld%s\n",
	       (long long)in->sleep_ns, (long long)in->delta_next_ns, in->tick_stopped,
	       k->in[1].tick_stopped, in->got_tick, in->qos.cpu_latency_us,
	       	in->qos.resume_latency_us,
	       in->qos.wakeup_latency_us, in->nr_iowait, (unsigned long long)in->clock_ns,
	       in->rejected ? "REJECTED" : "entered", (long long)in->residency_ns,
	       in->poll_timeout ? " poll_time_limit" : "");
	printf("  %-34s %20s %20s\n", "", "old", "new");
	for (int i = 0; i < k->nvars[0]; i++) {
		const struct il_var *o = &k->vars[0][i];
		const struct il_var *n = diff_find_var(k->vars[1], k->nvars[1], o->name);

		printf("%c %-34s", n && n->value != o->value ? '*' : ' ', o->name);
		print_value(o);
		print_value(n);
		printf("\n");
	}
	for (int i = 0; i < k->nvars[1]; i++) {
		const struct il_var *n = &k->vars[1][i];

		if (diff_find_var(k->vars[0], k->nvars[0], n->name))
			continue;
		printf("  %-34s", n->name);
		print_value(NULL);
		print_value(n);
		printf("\n");
	}
}

/* "the rules of menu-6.12.117 (core debian-6.12) for both sides: REASON" */
static void framework_line(const struct diff_side *old, const struct diff_side *new,
			   const struct diff_framework *f, char *buf, size_t cap)
{
	if (!old->object && !new->object)
		snprintf(buf, cap, "two presets, each under its own rules: OLD core %s, "
			 "NEW core %s", old->p->core->name, new->p->core->name);
	else if (f->shared)
		snprintf(buf, cap, "the rules of %s (core %s) for both sides: %s",
			 f->fw.preset->name,
			 f->fw.preset->core->name, f->fw.reason);
	else
		snprintf(buf, cap, "each built-in preset its own rules: OLD core %s, NEW core %s",
			 old->p->core->name, new->p->core->name);
}

/* "where they differ": the differing decisions by combination of input features */
static void print_diff_features(const struct il_kgov_diff_result *r)
{
	unsigned int keys[1u << IL_KGOV_FEAT_COUNT];
	unsigned int n = il_kgov_features_sorted(r->by_features, keys);

	if (n)
		printf("where they differ (features of the period, %% of all decisions):\n");
	for (unsigned int i = 0; i < n; i++) {
		char what[160];

		kgov_features_text(keys[i], what, sizeof(what));
		printf("  %12llu %8.4f%%  %s\n", r->by_features[keys[i]],
		       pct(r->by_features[keys[i]], r->decisions), what);
	}
}

static void print_diff_table(const struct diff_side *old, const struct diff_side *new,
			     const struct diff_framework *f, const char *source,
			     const struct il_kgov_diff_result *r)
{
	char fw[512];

	framework_line(old, new, f, fw, sizeof(fw));
	printf("kgov diff: %s (%s) vs %s (%s)\n", old->spec,
	       old->p->upstream ? old->p->upstream : "-",
	       new->spec, new->p->upstream ? new->p->upstream : "-");
	printf("input: %s; %llu decisions in %u runs\n", source, r->decisions, r->runs);
	printf("framework: %s\n", fw);
	printf("%-22s %12s %9s\n", "differing decisions", "count", "%");
	printf("%-22s %12llu %8.4f%%\n", "index", r->idx_differ, pct(r->idx_differ, r->decisions));
	if (r->compared_stop_tick) {
		printf("%-22s %12llu %8.4f%%\n", "stop_tick", r->stop_tick_differ,
		       pct(r->stop_tick_differ, r->decisions));
		printf("%-22s %12llu %8.4f%%\n", "index or stop_tick", r->any_differ,
		       pct(r->any_differ, r->decisions));
	} else {
		printf("%-22s %12s %9s\n", "stop_tick", "-", "-");
	}
	print_diff_features(r);
	if (r->ended_runs)
		printf("note: %u run(s) ended early: a side chose an index outside the state "
		       "table\n",
		       r->ended_runs);
	if (r->ncases)
		printf("\nthe first %u differing decisions (* marks values that differ):\n",
		       r->ncases);
	for (unsigned int i = 0; i < r->ncases; i++)
		print_case_table(&r->cases[i]);
}

#ifdef HAVE_JANSSON
static json_t *json_vars(const struct il_var *vars, int n)
{
	json_t *o = json_object();

	for (int i = 0; i < n; i++)
		json_object_set_new(o, vars[i].name, vars[i].is_signed ?
				    json_integer((json_int_t)(s64)vars[i].value) :
				    json_integer((json_int_t)vars[i].value));
	return o;
}

static json_t *json_case(const struct il_kgov_diff_case *k)
{
	const struct kgov_step *in = &k->in[0];
	json_t *o = json_object(), *states = json_array(), *inputs = json_object();

	json_object_set_new(o, "decision", json_integer((json_int_t)k->decision + 1));
	json_object_set_new(o, "run", json_integer(k->run));
	json_object_set_new(o, "step", json_integer((json_int_t)k->step));
	json_object_set_new(o, "hz", json_integer(k->hz));
	for (int i = 0; i < k->drv.state_count; i++) {
		json_t *s = json_object();

		json_object_set_new(s, "name", json_string(k->drv.states[i].name));
		json_object_set_new(s, "exit_latency_ns",
				    json_integer(k->drv.states[i].exit_latency_ns));
		json_object_set_new(s, "target_residency_ns",
				    json_integer(k->drv.states[i].target_residency_ns));
		json_object_set_new(s, "polling",
				    json_boolean(k->drv.states[i].flags & CPUIDLE_FLAG_POLLING));
		json_object_set_new(s, "disabled", json_boolean(k->disable[i] != 0));
		json_array_append_new(states, s);
	}
	json_object_set_new(o, "states", states);
	json_object_set_new(inputs, "sleep_length_ns", json_integer(in->sleep_ns));
	json_object_set_new(inputs, "delta_next_ns", json_integer(in->delta_next_ns));
	json_object_set_new(inputs, "tick_stopped_old", json_boolean(in->tick_stopped));
	json_object_set_new(inputs, "tick_stopped_new", json_boolean(k->in[1].tick_stopped));
	json_object_set_new(inputs, "got_tick", json_boolean(in->got_tick));
	json_object_set_new(inputs, "qos_cpu_us", json_integer(in->qos.cpu_latency_us));
	json_object_set_new(inputs, "qos_resume_us", json_integer(in->qos.resume_latency_us));
	json_object_set_new(inputs, "qos_wakeup_us", json_integer(in->qos.wakeup_latency_us));
	json_object_set_new(inputs, "nr_iowait", json_integer((json_int_t)in->nr_iowait));
	json_object_set_new(inputs, "clock_ns", json_integer((json_int_t)in->clock_ns));
	json_object_set_new(inputs, "rejected", json_boolean(in->rejected));
	json_object_set_new(inputs, "residency_ns", json_integer(in->residency_ns));
	json_object_set_new(o, "inputs", inputs);
	for (int s = 0; s < 2; s++) {
		json_t *side = json_object();

		json_object_set_new(side, "index", json_integer(k->idx[s]));
		json_object_set_new(side, "stop_tick", json_boolean(k->stop_tick[s]));
		json_object_set_new(side, "vars", json_vars(k->vars[s], k->nvars[s]));
		json_object_set_new(o, s ? "new" : "old", side);
	}
	return o;
}

static json_t *json_side(const struct diff_side *s)
{
	json_t *o = json_object();

	json_object_set_new(o, "spec", json_string(s->spec));
	json_object_set_new(o, "preset", json_string(s->p->name));
	json_object_set_new(o, "upstream", json_string(s->p->upstream ? s->p->upstream : ""));
	return o;
}

/* [{features: {"tick stopped": true, ...}, count, pct}] for every non-empty combination */
static json_t *json_features(const struct il_kgov_diff_result *r)
{
	json_t *a = json_array();

	for (unsigned int key = 0; key < 1u << IL_KGOV_FEAT_COUNT; key++) {
		json_t *o, *f;

		if (!r->by_features[key])
			continue;
		o = json_object();
		f = json_object();
		for (int i = 0; i < IL_KGOV_FEAT_COUNT; i++)
			json_object_set_new(f, il_kgov_feature_name(i, true),
					    json_boolean(key & (1u << i)));
		json_object_set_new(o, "features", f);
		json_object_set_new(o, "count", json_integer((json_int_t)r->by_features[key]));
		json_object_set_new(o, "pct", json_real(pct(r->by_features[key], r->decisions)));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *json_framework(const struct diff_side *old, const struct diff_side *new,
			      const struct diff_framework *f)
{
	json_t *o = json_object();
	char fw[512];

	framework_line(old, new, f, fw, sizeof(fw));
	json_object_set_new(o, "shared", json_boolean(f->shared));
	json_object_set_new(o, "preset", json_string(f->fw.preset->name));
	json_object_set_new(o, "old_core", json_string(old->p->core->name));
	json_object_set_new(o, "new_core", json_string(new->p->core->name));
	json_object_set_new(o, "reason", json_string(f->fw.reason));
	json_object_set_new(o, "text", json_string(fw));
	return o;
}

static int print_diff_json(const struct diff_side *old, const struct diff_side *new,
			   const struct diff_framework *f, const char *source,
			   const struct il_kgov_diff_result *r)
{
	json_t *root = json_object(), *cases = json_array();
	int ret;

	json_object_set_new(root, "old", json_side(old));
	json_object_set_new(root, "new", json_side(new));
	json_object_set_new(root, "framework", json_framework(old, new, f));
	json_object_set_new(root, "input", json_string(source));
	json_object_set_new(root, "decisions", json_integer((json_int_t)r->decisions));
	json_object_set_new(root, "runs", json_integer(r->runs));
	json_object_set_new(root, "index_differ", json_integer((json_int_t)r->idx_differ));
	json_object_set_new(root, "index_differ_pct", json_real(pct(r->idx_differ, r->decisions)));
	if (r->compared_stop_tick) {
		json_object_set_new(root, "stop_tick_differ",
				    json_integer((json_int_t)r->stop_tick_differ));
		json_object_set_new(root, "stop_tick_differ_pct",
				    json_real(pct(r->stop_tick_differ, r->decisions)));
		json_object_set_new(root, "any_differ", json_integer((json_int_t)r->any_differ));
		json_object_set_new(root, "any_differ_pct", json_real(pct(r->any_differ,
			r->decisions)));
	} else {
		json_object_set_new(root, "stop_tick_differ", json_null());
		json_object_set_new(root, "any_differ", json_integer((json_int_t)r->idx_differ));
	}
	json_object_set_new(root, "by_features", json_features(r));
	json_object_set_new(root, "ended_runs", json_integer(r->ended_runs));
	for (unsigned int i = 0; i < r->ncases; i++)
		json_array_append_new(cases, json_case(&r->cases[i]));
	json_object_set_new(root, "cases", cases);
	ret = json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	putchar('\n');
	json_decref(root);
	return ret;
}
#else
static int print_diff_json(const struct diff_side *old, const struct diff_side *new,
			   const struct diff_framework *f, const char *source,
			   const struct il_kgov_diff_result *r)
{
	return -1;
}
#endif

int kgov_cmd_diff(const struct kgov_args *args)
{
	struct diff_side old = { .label = "OLD", .spec = args->src };
	struct diff_side new = { .label = "NEW", .spec = args->src2 };
	struct il_kgov_check_opts opts = { .seed = args->seed, .steps = args->steps,
					   .platform = args->platform };
	struct il_kgov_diff_result res;
	struct il_error err = { 0 };
	struct il_platform plat;
	struct il_lab_spec spec;
	struct diff_framework fw;
	char source[512];
	int ret, diffed;

	ret = diff_resolve(&old, args->verbose);
	if (!ret)
		ret = diff_resolve(&new, args->verbose);
	if (!ret)
		ret = diff_choose_framework(args, &old, &new, &fw);
	if (ret)
		goto out;
	ret = CLI_EXIT_RUNTIME;
	opts.progress = &kgov_watchdog_progress;
	if (args->scenario) {
		ret = diff_lab_spec(args, &plat, &spec, source, sizeof(source));
		if (ret)
			goto out;
		ret = CLI_EXIT_RUNTIME;
		diffed = il_kgov_diff_lab(old.p, new.p, &spec, (unsigned int)args->show, &res,
					  &err);
	} else {
		snprintf(source, sizeof(source), "kgov check's random stream, seed %llu, %s",
			 args->seed, args->platform ? args->platform : "random platforms");
		struct progress prog;

		kgov_start_watchdog();
		progress_begin(&prog, args->progress, "idlelab kgov diff", PROGRESS_COUNT,
			       "decisions",
			       args->steps);
		progress_watch(&prog, &kgov_watchdog_progress.decisions);
		diffed = il_kgov_diff(old.p, new.p, &opts, (unsigned int)args->show, &res, &err);
		progress_end(&prog);
	}
	if (diffed) {
		alarm(0);
		fprintf(stderr, "idlelab kgov diff: %s\n", err.msg);
		goto out;
	}
	alarm(0);
	if (args->format == KGOV_FMT_JSON) {
		if (print_diff_json(&old, &new, &fw, source, &res)) {
			fprintf(stderr, "idlelab kgov diff: JSON output needs libjansson (install "
					"libjansson-dev and rebuild)\n");
			il_kgov_diff_result_free(&res);
			goto out;
		}
	} else {
		print_diff_table(&old, &new, &fw, source, &res);
	}
	il_kgov_diff_result_free(&res);
	ret = CLI_EXIT_OK;
out:
	diff_cleanup(&old);
	diff_cleanup(&new);
	return ret;
}
