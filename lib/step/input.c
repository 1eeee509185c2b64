// SPDX-License-Identifier: GPL-2.0-only
/*
 * input.c - the step-script parser (format: docs/step.md).
 *
 * One line per idle entry, "key=value" fields in any order, "#" comments. The parser checks
 * everything it can without a platform or a governor, so that `idlelab step` rejects a bad
 * script before it prints anything.
 */
#include <stdlib.h>
#include <string.h>

#include "../platform/lex.h"
#include "step.h"

enum field {
	F_SLEEP, F_DELTA, F_STOPPED, F_QOS, F_RES, F_TICK, F_IOWAIT, F_LOAD, F_SPAN, F_ORACLE,
	F_COUNT
};

static const char *const field_names[F_COUNT] = {
	[F_SLEEP] = "sleep", [F_DELTA] = "delta", [F_STOPPED] = "stopped", [F_QOS] = "qos",
	[F_RES] = "res", [F_TICK] = "tick", [F_IOWAIT] = "iowait", [F_LOAD] = "load",
	[F_SPAN] = "span", [F_ORACLE] = "oracle",
};

struct step_parser {
	struct il_lexer lx;
	struct il_error *err;
};

#define serr(p, ...) il_error_set((p)->err, (p)->lx.file, (p)->lx.line, __VA_ARGS__)

static int parse_time(struct step_parser *p, const struct il_token *t, bool allow_negative,
		      s64 *out)
{
	const char *why;

	if (il_parse_time_ns(t->value, IL_UNIT_DEFAULT_NS, allow_negative, IL_STEP_TIME_MAX_NS, out,
			     &why))
		return serr(p, "invalid %s '%s': %s", t->key, t->value, why);
	return 0;
}

static int parse_bool(struct step_parser *p, const struct il_token *t, bool *out)
{
	if (strcmp(t->value, "0") && strcmp(t->value, "1"))
		return serr(p, "invalid %s '%s' (0 or 1)", t->key, t->value);
	*out = t->value[0] == '1';
	return 0;
}

static int parse_count(struct step_parser *p, const struct il_token *t, unsigned long *out)
{
	u64 v;

	if (il_parse_u64(t->value, UINT32_MAX, &v))
		return serr(p, "invalid %s '%s' (a number from 0 to %u)", t->key, t->value,
			    UINT32_MAX);
	*out = (unsigned long)v;
	return 0;
}

static int parse_qos(struct step_parser *p, const struct il_token *t, struct il_step_input *in)
{
	u64 v;

	if (!strcmp(t->value, "none"))
		return 0;
	if (il_parse_u64(t->value, INT32_MAX, &v))
		return serr(p, "invalid qos '%s' (a latency limit in us from 0 to %d, or none)",
			    t->value, INT32_MAX);
	in->has_qos = true;
	in->qos_us = (s32)v;
	return 0;
}

static int parse_res(struct step_parser *p, const struct il_token *t, struct il_step_input *in)
{
	if (!strcmp(t->value, "rejected")) {
		in->rejected = true;
		in->res_ns = 0;
		return 0;
	}
	return parse_time(p, t, false, &in->res_ns);
}

static int parse_field(struct step_parser *p, const struct il_token *t, enum field f,
		       struct il_step_input *in)
{
	switch (f) {
	case F_SLEEP:
		return parse_time(p, t, true, &in->sleep_ns);
	case F_DELTA:
		in->has_delta = true;
		return parse_time(p, t, true, &in->delta_ns);
	case F_STOPPED:
		return parse_bool(p, t, &in->stopped);
	case F_QOS:
		return parse_qos(p, t, in);
	case F_RES:
		return parse_res(p, t, in);
	case F_TICK:
		return parse_bool(p, t, &in->tick);
	case F_IOWAIT:
		return parse_count(p, t, &in->iowait);
	case F_LOAD:
		return parse_count(p, t, &in->load);
	case F_SPAN:
		in->has_span = true;
		return parse_time(p, t, false, &in->span_ns);
	case F_ORACLE:
		in->has_oracle = true;
		return parse_time(p, t, false, &in->oracle_ns);
	default:
		return -1;
	}
}

static int find_field(struct step_parser *p, const struct il_token *t)
{
	if (!t->has_value)
		return serr(p, "expected key=value, got '%s'", t->key);
	for (int f = 0; f < F_COUNT; f++)
		if (!strcmp(t->key, field_names[f]))
			return f;
	return serr(p,
		    "unknown field '%s' (sleep, delta, stopped, qos, res, tick, iowait, load, "
		    "span, oracle)",
		    t->key);
}

static int parse_entry(struct step_parser *p, const struct il_token *t, int n,
		       struct il_step_input *in)
{
	bool seen[F_COUNT] = { false };

	memset(in, 0, sizeof(*in));
	in->line = p->lx.line;
	for (int i = 0; i < n; i++) {
		int f = find_field(p, &t[i]);

		if (f < 0)
			return -1;
		if (seen[f])
			return serr(p, "duplicate field '%s'", t[i].key);
		seen[f] = true;
		if (parse_field(p, &t[i], (enum field)f, in))
			return -1;
	}
	if (!seen[F_SLEEP])
		return serr(p, "missing sleep= (the sleep length)");
	if (!seen[F_RES])
		return serr(p, "missing res= (the measured residency, or res=rejected)");
	if (in->rejected && in->tick)
		return serr(p,
			    "tick=1 with res=rejected: a refused entry is not ended by the tick");
	return 0;
}

static int append(struct step_parser *p, struct il_step_script *s, const struct il_step_input *in)
{
	if (s->count == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct il_step_input *v;

		if (s->count >= IL_STEP_LINES_MAX)
			return serr(p, "more than %d idle entries", IL_STEP_LINES_MAX);
		v = realloc(s->entries, cap * sizeof(*v));
		if (!v)
			return serr(p, "out of memory");
		s->entries = v;
		s->cap = cap;
	}
	s->entries[s->count++] = *in;
	return 0;
}

int il_step_parse(const char *text, size_t len, const char *file, struct il_step_script *script,
		  struct il_error *err)
{
	struct step_parser p = { .err = err };
	struct il_token toks[IL_LEX_TOKENS_MAX];
	const char *line;
	size_t line_len;
	int ret;

	memset(script, 0, sizeof(*script));
	il_lex_init(&p.lx, text, len, file);
	while ((ret = il_lex_next_line(&p.lx, &line, &line_len, err)) > 0) {
		struct il_step_input in;
		int n = il_lex_tokens(&p.lx, line, line_len, toks, IL_LEX_TOKENS_MAX, err);

		if (n < 0 || (n > 0 && (parse_entry(&p, toks, n, &in) || append(&p, script, &in))))
			return -1;
	}
	if (ret < 0)
		return -1;
	if (!script->count)
		return il_error_set(err, file, 0,
				    "no idle entries (one line per idle period, see docs/step.md)");
	return 0;
}

void il_step_script_free(struct il_step_script *script)
{
	free(script->entries);
	memset(script, 0, sizeof(*script));
}
