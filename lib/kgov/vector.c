// SPDX-License-Identifier: GPL-2.0-only
/*
 * vector.c - golden decision vectors: what an upstream governor file decided, kept as test
 * data, so that a port can be checked against it without the file.
 *
 * DOC: golden vectors
 *
 *  1. Recording (il_kgov_record()) runs the upstream build alone (il_kgov_run()) on the input
 *     stream the lockstep check would give it. The inputs are not stored: they are regenerated
 *     from the seed by the same generator, which is frozen behind KGOV_GEN_VERSION (kgov.h).
 *     A replayed port that decides alike sees exactly the same stream.
 *  2. Per decision, one byte: the index + 1 in bits 0..6 (-1 .. 126) and stop_tick in bit 7.
 *  3. Per block of KGOV_VEC_BLOCK decisions, an 8-byte digest of the state the governor
 *     exposes, folded after every select() and every reflect(): the non-diag vars of the
 *     preset the vector is for (the upstream values of the fields of those names), and the
 *     device fields check.c compares (last_state_idx from 5.x, poll_limit_ns, poll_time_limit,
 *     sleep length queries, the got_tick flag).
 *  4. At KGOV_VEC_CHECKPOINTS evenly spaced block ends and at the last one, the full list of
 *     those vars with their values, so a digest difference there names the var.
 *
 * File layout: a text header of "key value" lines ending with "body", then for each block its
 * decision bytes, the digest (little endian) and, at a checkpoint, a 16-bit count followed by
 * "name\0" and an 8-byte value per var. A file is usually stored xz-compressed (the CLI
 * pipes it through xz); this code sees the plain bytes.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kgov.h"

/* ---- bytes ---------------------------------------------------------------------------------- */

static int buf_reserve(struct kgov_buf *b, size_t more)
{
	size_t cap = b->cap ? b->cap : 4096;
	unsigned char *nd;

	if (b->len + more <= b->cap)
		return 0;
	while (cap < b->len + more)
		cap *= 2;
	nd = realloc(b->data, cap);
	if (!nd)
		return -1;
	b->data = nd;
	b->cap = cap;
	return 0;
}

static int buf_put(struct kgov_buf *b, const void *p, size_t n)
{
	if (buf_reserve(b, n))
		return -1;
	memcpy(b->data + b->len, p, n);
	b->len += n;
	return 0;
}

static int buf_put_u64(struct kgov_buf *b, u64 v)
{
	unsigned char le[8];

	for (int i = 0; i < 8; i++)
		le[i] = (unsigned char)(v >> (8 * i));
	return buf_put(b, le, sizeof(le));
}

static int buf_printf(struct kgov_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int buf_printf(struct kgov_buf *b, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= sizeof(line) ? -1 : buf_put(b, line, (size_t)n);
}

void kgov_buf_free(struct kgov_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

static u64 get_u64(const unsigned char *p)
{
	u64 v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* ---- what is recorded ----------------------------------------------------------------------- */

static unsigned char decision_byte(int idx, bool stop_tick)
{
	return (unsigned char)(((unsigned int)(idx + 1) & 0x7f) | (stop_tick ? 0x80 : 0));
}

static u64 fold(u64 h, u64 v)
{
	h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 29);
}

/* The value of var @name in @v's vars; @hint: where it usually is. */
static const struct il_var *lookup(const struct il_kgov_step_view *v, const char *name, int hint)
{
	if (hint < v->nvars && (v->vars[hint].name == name || !strcmp(v->vars[hint].name, name)))
		return &v->vars[hint];
	for (int i = 0; i < v->nvars; i++)
		if (!strcmp(v->vars[i].name, name))
			return &v->vars[i];
	return NULL;
}

/* Fold the exposed state of @v into @h. Return: the name of a var not found, or NULL. */
static const char *fold_state(u64 *h, const struct il_kgov_step_view *v, bool with_last_idx)
{
	if (v->names) {
		for (int i = 0; i < v->nnames; i++) {
			const struct il_var *var = lookup(v, v->names[i].name, i);

			if (!var)
				return v->names[i].name;
			*h = fold(*h, var->value);
		}
	} else {
		for (int i = 0; i < v->nvars; i++)
			if (!v->vars[i].diag)
				*h = fold(*h, v->vars[i].value);
	}
	if (with_last_idx)
		*h = fold(*h, (u64)(s64)v->dev->last_state_idx);
	*h = fold(*h, v->dev->poll_limit_ns);
	*h = fold(*h, (u64)v->dev->poll_time_limit);
	*h = fold(*h, (u64)v->sleep_queries);
	*h = fold(*h, (u64)v->got_tick_pending);
	return NULL;
}

static unsigned int checkpoint_every(unsigned long long steps)
{
	unsigned long long blocks = (steps + KGOV_VEC_BLOCK - 1) / KGOV_VEC_BLOCK;

	return blocks / KGOV_VEC_CHECKPOINTS ? (unsigned int)(blocks / KGOV_VEC_CHECKPOINTS) : 1;
}

/* Whether the step that ends at @decision ends a block, and whether a checkpoint follows. */
static bool block_end(const struct kgov_vec_header *h, unsigned long long decision,
		      bool *checkpoint)
{
	unsigned long long block = decision / h->block;

	if ((decision + 1) % h->block && decision + 1 != h->steps)
		return false;
	*checkpoint = (block + 1) % h->checkpoint_every == 0 || decision + 1 == h->steps;
	return true;
}

/* ---- recording ------------------------------------------------------------------------------ */

struct recorder {
	struct kgov_vec_header h;
	struct kgov_buf *out;
	struct il_error *err;
	bool with_last_idx;
	u64 digest;
};

static int rec_fail(struct recorder *r, const char *fmt, const char *arg)
{
	il_error_set(r->err, "kgov record", 0, fmt, arg);
	return -1;
}

static int rec_state(struct recorder *r, const struct il_kgov_step_view *v)
{
	const char *missing = fold_state(&r->digest, v, r->with_last_idx);

	if (missing)
		return rec_fail(r, "the port shows var %s, which is not a field of the upstream "
				"per-CPU struct", missing);
	return 0;
}

static int rec_select(void *ctx, const struct il_kgov_step_view *v)
{
	struct recorder *r = ctx;
	unsigned char b = decision_byte(v->idx, v->stop_tick);

	if (v->idx < -1 || v->idx > 126)
		return rec_fail(r, "index %s cannot be recorded", "outside -1..126");
	if (buf_put(r->out, &b, 1))
		return rec_fail(r, "%s", "out of memory");
	return v->run_ended ? 0 : rec_state(r, v);
}

static int rec_checkpoint(struct recorder *r, const struct il_kgov_step_view *v)
{
	unsigned char count[2] = { (unsigned char)v->nnames, (unsigned char)(v->nnames >> 8) };

	if (buf_put(r->out, count, 2))
		return -1;
	for (int i = 0; i < v->nnames; i++) {
		const struct il_var *var = lookup(v, v->names[i].name, i);

		if (buf_put(r->out, v->names[i].name, strlen(v->names[i].name) + 1) ||
		    buf_put_u64(r->out, var ? var->value : 0))
			return -1;
	}
	return 0;
}

static int rec_done(void *ctx, const struct il_kgov_step_view *v)
{
	struct recorder *r = ctx;
	bool checkpoint;

	if (!v->run_ended && rec_state(r, v))
		return -1;
	if (!block_end(&r->h, v->decision, &checkpoint))
		return 0;
	if (buf_put_u64(r->out, r->digest) || (checkpoint && rec_checkpoint(r, v)))
		return rec_fail(r, "%s", "out of memory");
	r->digest = 0;
	return 0;
}

static int write_header(struct kgov_buf *b, const struct kgov_vec_header *h)
{
	return buf_printf(b, "idlelab-kgov-vectors %d\ngenerator %d\npreset %s\nfamily %s\n"
			  "blob %s\nseed %llu\nsteps %llu\nplatform %s\nblock %u\n"
			  "checkpoint_every %u\nbody\n", h->format, h->generator, h->preset,
			  h->family, h->blob, h->seed, h->steps, h->platform, h->block,
			  h->checkpoint_every);
}

int il_kgov_record(const struct il_preset *upstream, const struct il_preset *as,
		   const struct il_kgov_check_opts *opts, struct kgov_buf *out,
		   struct il_kgov_check_result *res, struct il_error *err)
{
	struct il_kgov_check_opts o = *opts;
	struct recorder r = { .out = out, .err = err };
	struct il_kgov_observer obs = { rec_select, rec_done, &r };
	const char *blob = il_kgov_blob(upstream);
	int ret;

	if (strcmp(upstream->gov->name, as->gov->name))
		return il_error_set(err, upstream->name, 0, "is the %s governor, %s is %s",
				    upstream->gov->name, as->name, as->gov->name);
	r.h = (struct kgov_vec_header){ .format = KGOV_VEC_FORMAT,
					.generator = opts->generator ?
						opts->generator : KGOV_GEN_VERSION,
					.seed = opts->seed, .steps = opts->steps,
					.block = KGOV_VEC_BLOCK,
					.checkpoint_every = checkpoint_every(opts->steps) };
	snprintf(r.h.platform, sizeof(r.h.platform), "%s",
		 opts->platform ? opts->platform : "random");
	snprintf(r.h.blob, sizeof(r.h.blob), "%s", blob ? blob : "unknown");
	snprintf(r.h.preset, sizeof(r.h.preset), "%s", as->name);
	snprintf(r.h.family, sizeof(r.h.family), "%s", as->gov->name);
	if (strchr(r.h.platform, ' ') || strchr(r.h.platform, '\n'))
		return il_error_set(err, "kgov record", 0,
				    "a platform name with spaces cannot be recorded");
	r.with_last_idx = as->kver >= IL_KV(5, 0, 0);
	if (write_header(out, &r.h))
		return il_error_set(err, "kgov record", 0, "out of memory");
	o.observer = &obs;
	o.names_from = as;
	ret = il_kgov_run(upstream, &o, res, err);
	if (ret > 0)
		ret = -1; /* the recorder only stops on errors */
	if (!ret && res->decisions != opts->steps)
		ret = il_error_set(err, "kgov record", 0, "%llu decisions recorded, %llu asked for",
				   res->decisions, opts->steps);
	return ret;
}

static bool copy_value(char *dst, size_t cap, const char *val)
{
	size_t n = strlen(val);

	if (n >= cap)
		return false;
	memcpy(dst, val, n + 1);
	return true;
}

/* ---- the header ----------------------------------------------------------------------------- */

int kgov_vec_parse_header(const unsigned char *data, size_t len, struct kgov_vec_header *h,
			  size_t *body, struct il_error *err)
{
	size_t pos = 0;
	int line = 0, seen = 0;
	bool ok;

	memset(h, 0, sizeof(*h));
	while (pos < len) {
		const unsigned char *nl = memchr(data + pos, '\n', len - pos);
		char text[256], key[32], val[200];

		line++;
		if (!nl || (size_t)(nl - data) - pos >= sizeof(text))
			return il_error_set(err, "vector", line, "malformed header");
		memcpy(text, data + pos, (size_t)(nl - data) - pos);
		text[(size_t)(nl - data) - pos] = '\0';
		pos = (size_t)(nl - data) + 1;
		if (!strcmp(text, "body")) {
			*body = pos;
			if (seen != 10)
				return il_error_set(err, "vector", line, "incomplete header");
			if (h->format != KGOV_VEC_FORMAT)
				return il_error_set(err, "vector", 1,
						    "format %d, this idlelab reads %d", h->format,
						    KGOV_VEC_FORMAT);
			if (!h->block || !h->checkpoint_every || !h->steps)
				return il_error_set(err, "vector", 0,
						    "block, checkpoint_every and steps must be "
						    "positive");
			return 0;
		}
		if (sscanf(text, "%31s %199s", key, val) != 2)
			return il_error_set(err, "vector", line, "expected 'key value', got '%s'",
					    text);
		seen++;
		ok = true;
		if (!strcmp(key, "idlelab-kgov-vectors"))
			h->format = atoi(val);
		else if (!strcmp(key, "generator"))
			h->generator = atoi(val);
		else if (!strcmp(key, "preset"))
			ok = copy_value(h->preset, sizeof(h->preset), val);
		else if (!strcmp(key, "family"))
			ok = copy_value(h->family, sizeof(h->family), val);
		else if (!strcmp(key, "blob"))
			ok = copy_value(h->blob, sizeof(h->blob), val);
		else if (!strcmp(key, "seed"))
			h->seed = strtoull(val, NULL, 10);
		else if (!strcmp(key, "steps"))
			h->steps = strtoull(val, NULL, 10);
		else if (!strcmp(key, "platform"))
			ok = copy_value(h->platform, sizeof(h->platform), val);
		else if (!strcmp(key, "block"))
			h->block = (unsigned int)strtoul(val, NULL, 10);
		else if (!strcmp(key, "checkpoint_every"))
			h->checkpoint_every = (unsigned int)strtoul(val, NULL, 10);
		else
			return il_error_set(err, "vector", line, "unknown header key '%s'", key);
		if (!ok)
			return il_error_set(err, "vector", line, "value of '%s' too long", key);
	}
	return il_error_set(err, "vector", line, "no body");
}

/* ---- verification --------------------------------------------------------------------------- */

struct verifier {
	const struct kgov_vec_header *h;
	const unsigned char *data;
	size_t len, pos;
	const struct il_preset *port;
	struct il_kgov_verify_result *vr;
	struct il_error *err;
	bool with_last_idx;
	u64 digest;
	char *report;
	size_t report_len;
};

static void rep(struct verifier *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void rep(struct verifier *w, const char *fmt, ...)
{
	va_list ap;
	int n;
	char *nr;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !(nr = realloc(w->report, w->report_len + (size_t)n + 1)))
		return;
	w->report = nr;
	va_start(ap, fmt);
	vsnprintf(w->report + w->report_len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	w->report_len += (size_t)n;
}

static int truncated(struct verifier *w)
{
	il_error_set(w->err, "vector", 0, "truncated body at byte %zu", w->pos);
	return -1;
}

static void rep_vars(struct verifier *w, const struct il_kgov_step_view *v)
{
	for (int i = 0; i < v->nvars; i++)
		if (!v->vars[i].diag)
			rep(w, "  %-34s %20" PRId64 "\n", v->vars[i].name,
			    (int64_t)v->vars[i].value);
}

static void rep_where(struct verifier *w, const struct il_kgov_step_view *v)
{
	rep(w, "vector: preset %s, blob %.12s, seed %llu, %llu steps, platform %s\n", w->h->preset,
	    w->h->blob, w->h->seed, w->h->steps, w->h->platform);
	rep(w, "inputs: idlelab kgov check UPSTREAM.c --against %s --seed %llu --steps %llu %s%s\n",
	    w->port->name, w->h->seed, v->decision + 1,
	    strcmp(w->h->platform, "random") ? "-p " : "--random-platforms",
	    strcmp(w->h->platform, "random") ? w->h->platform : "");
}

static int ver_select(void *ctx, const struct il_kgov_step_view *v)
{
	struct verifier *w = ctx;
	unsigned char want, got = decision_byte(v->idx, v->stop_tick);

	if (w->pos >= w->len)
		return truncated(w);
	want = w->data[w->pos++];
	if (want != got) {
		rep(w, "MISMATCH at decision #%llu (run %u step %llu): recorded index %d stop_tick "
		    "%d, port %s index %d stop_tick %d\n",
		    v->decision, v->run, v->step, (int)(want & 0x7f) - 1, want >> 7, w->port->name,
		    v->idx, v->stop_tick);
		rep(w, "port state after select:\n");
		rep_vars(w, v);
		rep_where(w, v);
		return 1;
	}
	if (!v->run_ended)
		fold_state(&w->digest, v, w->with_last_idx); /* own vars: none missing */
	return 0;
}

/* Compare the checkpoint at w->pos with the port's vars; describe it on @report. */
static int ver_checkpoint(struct verifier *w, const struct il_kgov_step_view *v, bool report)
{
	unsigned int count;
	int differ = 0;

	if (w->len - w->pos < 2)
		return truncated(w);
	count = w->data[w->pos] | (unsigned int)w->data[w->pos + 1] << 8;
	w->pos += 2;
	for (unsigned int i = 0; i < count; i++) {
		const char *name = (const char *)w->data + w->pos;
		const unsigned char *nul = memchr(w->data + w->pos, '\0', w->len - w->pos);
		const struct il_var *var;
		u64 value;

		if (!nul || (size_t)(w->data + w->len - nul) < 9)
			return truncated(w);
		value = get_u64(nul + 1);
		w->pos = (size_t)(nul - w->data) + 9;
		var = lookup(v, name, (int)i);
		if (!var || var->value != value) {
			differ++;
			if (report && var)
				rep(w, "* %-34s recorded %20" PRId64 ", port %20" PRId64 "\n", name,
				    (int64_t)value, (int64_t)var->value);
			else if (report)
				rep(w, "* %-34s recorded %20" PRId64 ", the port has no such var\n",
				    name, (int64_t)value);
		}
	}
	return differ;
}

static int ver_done(void *ctx, const struct il_kgov_step_view *v)
{
	struct verifier *w = ctx;
	bool checkpoint;
	u64 want;

	if (!v->run_ended)
		fold_state(&w->digest, v, w->with_last_idx); /* own vars: none missing */
	if (!block_end(w->h, v->decision, &checkpoint)) {
		w->vr->verified = v->decision + 1;
		return 0;
	}
	if (w->len - w->pos < 8)
		return truncated(w);
	want = get_u64(w->data + w->pos);
	w->pos += 8;
	if (want != w->digest) {
		unsigned long long block = v->decision / w->h->block;

		rep(w, "MISMATCH in the state digest of block %llu (decisions %llu..%llu; every "
		    "decision in it matched): recorded %016" PRIx64 ", port %s %016" PRIx64 "\n",
		    block, block * w->h->block, v->decision, (uint64_t)want, w->port->name,
		    (uint64_t)w->digest);
		if (checkpoint) {
			rep(w, "the vector's full var dump at the end of this block differs in:\n");
			if (ver_checkpoint(w, v, true) < 0)
				return -1;
		}
		rep(w, "port state at the end of the block (run %u step %llu):\n", v->run, v->step);
		rep_vars(w, v);
		rep(w, "  %-34s %20d\n  %-34s %20llu\n  %-34s %20d\n", "dev->last_state_idx",
		    v->dev->last_state_idx, "dev->poll_limit_ns",
		    (unsigned long long)v->dev->poll_limit_ns, "dev->poll_time_limit",
		    v->dev->poll_time_limit);
		rep_where(w, v);
		return 1;
	}
	w->digest = 0;
	if (checkpoint) {
		int differ = ver_checkpoint(w, v, true);

		if (differ < 0)
			return -1;
		if (differ) {
			/* the digest matched but the dump did not: the var lists differ */
			rep(w, "MISMATCH in the full var dump after decision #%llu (above)\n",
			    v->decision);
			rep_where(w, v);
			return 1;
		}
	}
	w->vr->verified = v->decision + 1;
	return 0;
}

int il_kgov_verify(const unsigned char *data, size_t len, const struct il_preset *port,
		   struct kgov_vec_header *h, struct il_kgov_verify_result *vr,
		   struct il_error *err)
{
	struct verifier w = { .h = h, .data = data, .len = len, .port = port, .vr = vr,
			      .err = err };
	struct il_kgov_observer obs = { ver_select, ver_done, &w };
	struct il_kgov_check_opts opts = { 0 };
	struct il_kgov_check_result res;
	int ret;

	memset(vr, 0, sizeof(*vr));
	if (kgov_vec_parse_header(data, len, h, &w.pos, err))
		return -1;
	if (h->generator < KGOV_GEN_OLDEST || h->generator > KGOV_GEN_VERSION)
		return il_error_set(err, "vector", 0, "recorded with input generator %d, this "
				    "idlelab has generators %d to %d: the vector must be "
				    "re-recorded (docs/kgov.md)",
				    h->generator, KGOV_GEN_OLDEST, KGOV_GEN_VERSION);
	if (strcmp(h->family, port->gov->name))
		return il_error_set(err, "vector", 0, "records the %s governor, %s is %s",
				    h->family, port->name, port->gov->name);
	w.with_last_idx = port->kver >= IL_KV(5, 0, 0);
	opts.seed = h->seed;
	opts.steps = h->steps;
	opts.generator = h->generator;
	opts.platform = strcmp(h->platform, "random") ? h->platform : NULL;
	opts.observer = &obs;
	ret = il_kgov_run(port, &opts, &res, err);
	if (ret > 0) {
		vr->mismatch = true;
		vr->report = w.report;
		return 1;
	}
	free(w.report);
	if (ret < 0)
		return -1;
	if (w.pos != len)
		return il_error_set(err, "vector", 0, "%zu bytes left after %llu decisions",
				    len - w.pos, res.decisions);
	return 0;
}
