// SPDX-License-Identifier: GPL-2.0-only
/*
 * scan.c - read an upstream governor file and write the wrapper kgov compiles it with.
 *
 * DOC: the wrapper
 *
 * The wrapper is one generated C file:
 *
 *	#include "/abs/path/drivers/cpuidle/governors/menu.c"	(unmodified)
 *	const struct kshim_file kshim_file = { .family = "menu", .blob = "...",
 *		.select_nargs = _Generic(&menu_select, ...), ... };
 *	int kshim_gen_vars(drv, vars, max) { ...one KSHIM_PUT per field of struct menu_device... }
 *
 * Because it includes the file, it sees the file's static per-CPU variable and its struct,
 * and can list every field under the upstream name ("correction_factor[3]",
 * "state_bins[2].hits", "states[1].threshold.promotion_time_ns"). To know the fields, this
 * file parses the struct definition: members are "type name[dim]...;", a named struct type
 * defined in the same file, or an anonymous "struct { ... } name;". Arrays whose size is
 * CPUIDLE_STATE_MAX are listed up to the driver's state_count, as the ports list them.
 * Pointers and bit-fields are not listed.
 *
 * The select() form (4.16: two arguments; 4.17+: bool *stop_tick) is decided by the compiler
 * with _Generic on the file's own function, not by guessing from the text.
 */
#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "kgov.h"

/* ---- text helpers ------------------------------------------------------------------------ */

/*
 * The text with comments replaced by spaces and preprocessor lines blanked, same length,
 * so that offsets stay valid and the regular expressions below see only C.
 */
static char *clean_text(const char *text, size_t len)
{
	char *out = malloc(len + 1);
	bool line_start = true;

	if (!out)
		return NULL;
	for (size_t i = 0; i < len;) {
		char c = text[i];

		if (c == '/' && i + 1 < len && text[i + 1] == '*') {
			out[i++] = ' ';
			out[i++] = ' ';
			while (i < len && !(text[i] == '*' && i + 1 < len && text[i + 1] == '/')) {
				out[i] = text[i] == '\n' ? '\n' : ' ';
				i++;
			}
			for (int k = 0; k < 2 && i < len; k++)
				out[i++] = ' ';
			continue;
		}
		if (c == '/' && i + 1 < len && text[i + 1] == '/') {
			while (i < len && text[i] != '\n')
				out[i++] = ' ';
			continue;
		}
		if (line_start && c == '#') {
			/* a directive, with its backslash continuations */
			while (i < len && text[i] != '\n') {
				if (text[i] == '\\' && i + 1 < len && text[i + 1] == '\n') {
					out[i++] = ' ';
					out[i++] = '\n';
					continue;
				}
				out[i++] = ' ';
			}
			continue;
		}
		if (c == '"' || c == '\'') {
			char q = c;

			out[i++] = c;
			while (i < len && text[i] != q && text[i] != '\n') {
				if (text[i] == '\\' && i + 1 < len)
					out[i] = text[i], i++;
				out[i] = text[i];
				i++;
			}
			if (i < len)
				out[i] = text[i], i++;
			line_start = false;
			continue;
		}
		if (c == '\n')
			line_start = true;
		else if (!isspace((unsigned char)c))
			line_start = false;
		out[i++] = c == '\0' ? ' ' : c;
	}
	out[len] = '\0';
	return out;
}

/* Copy regex match @m of @s into @dst (at most @cap - 1 bytes). */
static void copy_match(char *dst, size_t cap, const char *s, const regmatch_t *m)
{
	size_t n = (size_t)(m->rm_eo - m->rm_so);

	if (n >= cap)
		n = cap - 1;
	memcpy(dst, s + m->rm_so, n);
	dst[n] = '\0';
}

/* First match of @pattern in @s; fills @m[0..nm-1]. Return: true if found. */
static bool find_re(const char *s, const char *pattern, regmatch_t *m, size_t nm)
{
	regex_t re;
	bool found;

	if (regcomp(&re, pattern, REG_EXTENDED))
		return false;
	found = regexec(&re, s, nm, m, 0) == 0;
	regfree(&re);
	return found;
}

/* Offset of the brace matching the '{' at @open, or -1. */
static long match_brace(const char *s, size_t open)
{
	int depth = 0;

	for (size_t i = open; s[i]; i++) {
		if (s[i] == '{')
			depth++;
		else if (s[i] == '}' && --depth == 0)
			return (long)i;
	}
	return -1;
}

/* ---- scan ---------------------------------------------------------------------------------- */

#define RE_ID "([A-Za-z_][A-Za-z_0-9]*)"

static int scan_governor(const char *c, const char *file, struct kgov_scan *scan,
			 struct il_error *err)
{
	regmatch_t m[3];
	char *body;
	long close;
	size_t open;

	if (!find_re(c,
		     "struct[[:space:]]+cpuidle_governor[[:space:]]+" RE_ID
		     "[[:space:]]*=[[:space:]]*\\{",
		     m, 2))
		return il_error_set(err, file, 0,
				    "no 'struct cpuidle_governor NAME = { ... }' found");
	copy_match(scan->gov_var, sizeof(scan->gov_var), c, &m[1]);
	open = (size_t)m[0].rm_eo - 1;
	close = match_brace(c, open);
	if (close < 0)
		return il_error_set(err, file, 0, "unbalanced braces in %s", scan->gov_var);
	body = strndup(c + open, (size_t)close - open + 1);
	if (!body)
		return il_error_set(err, file, 0, "out of memory");
	if (find_re(body, "\\.name[[:space:]]*=[[:space:]]*\"([^\"]*)\"", m, 2))
		copy_match(scan->family, sizeof(scan->family), body, &m[1]);
	if (find_re(body, "\\.select[[:space:]]*=[[:space:]]*&?[[:space:]]*" RE_ID, m, 2))
		copy_match(scan->select_fn, sizeof(scan->select_fn), body, &m[1]);
	free(body);
	if (!scan->select_fn[0])
		return il_error_set(err, file, 0, "%s has no .select", scan->gov_var);
	return 0;
}

/* Whether the definition of @fn has a "bool *" parameter (the 4.17+ stop_tick). */
static bool select_takes_stop_tick(const char *c, const char *fn)
{
	char pattern[256];
	regmatch_t m[2];

	snprintf(pattern, sizeof(pattern), "[[:space:]]%s[[:space:]]*\\(([^)]*)\\)[[:space:]]*\\{",
		 fn);
	char params[1024];

	if (!find_re(c, pattern, m, 2))
		return true;
	snprintf(params, sizeof(params), "%.*s", (int)(m[1].rm_eo - m[1].rm_so), c + m[1].rm_so);
	return strstr(params, "bool") != NULL;
}

int kgov_scan_source(const char *text, size_t len, const char *file, struct kgov_scan *scan,
		     struct il_error *err)
{
	regmatch_t m[3];
	char *c;
	int ret;

	memset(scan, 0, sizeof(*scan));
	kgov_blob_sha1(text, len, scan->blob);
	if (memchr(text, '\0', len))
		return il_error_set(err, file, 0, "not a C source file (NUL byte)");
	c = clean_text(text, len);
	if (!c)
		return il_error_set(err, file, 0, "out of memory");
	ret = scan_governor(c, file, scan, err);
	if (ret == 0) {
		if (find_re(c, "DEFINE_PER_CPU[[:space:]]*\\([[:space:]]*struct[[:space:]]+" RE_ID
			    "[[:space:]]*,[[:space:]]*" RE_ID "[[:space:]]*\\)", m, 3)) {
			copy_match(scan->percpu_tag, sizeof(scan->percpu_tag), c, &m[1]);
			copy_match(scan->percpu_var, sizeof(scan->percpu_var), c, &m[2]);
		}
		scan->dev_last_state_idx = strstr(c, "dev->last_state_idx") != NULL;
		scan->dev_poll_limit_ns = strstr(c, "dev->poll_limit_ns") != NULL;
		scan->stop_tick = select_takes_stop_tick(c, scan->select_fn);
		scan->units_us = !strstr(c, "_ns");
	}
	free(c);
	return ret;
}

/* ---- struct parsing and the vars() generator ----------------------------------------------- */

#define MAX_DEPTH 6
#define MAX_DIMS 2

/* The path from the per-CPU struct to one member: "states" [i0] "." "threshold" "." ... */
struct field_path {
	int nseg;
	struct {
		char name[KGOV_IDENT_LEN];
		int ndims;
		char dim[MAX_DIMS][KGOV_IDENT_LEN * 2];
	} seg[MAX_DEPTH];
};

struct gen_ctx {
	FILE *out;
	const char *c;      /* the cleaned file text, for named struct lookups */
	const char *file;
	struct il_error *err;
	int leaves;
	int depth;
	int loops; /* loops open around the code being emitted */
};

static void trim(char *s)
{
	size_t n = strlen(s), b = 0;

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	while (s[b] && isspace((unsigned char)s[b]))
		b++;
	memmove(s, s + b, strlen(s + b) + 1);
}

static int path_dims(const struct field_path *p)
{
	int n = 0;

	for (int i = 0; i < p->nseg; i++)
		n += p->seg[i].ndims;
	return n;
}

static bool dim_is_per_state(const char *dim)
{
	char d[KGOV_IDENT_LEN * 2];

	snprintf(d, sizeof(d), "%s", dim);
	trim(d);
	return !strcmp(d, "CPUIDLE_STATE_MAX");
}

/* Append printf-formatted text to the NUL-terminated buffer @buf of @cap bytes. */
static void append(char *buf, size_t cap, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= cap)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, cap - used, fmt, ap);
	va_end(ap);
}

/*
 * The C expression for the member at the end of @p: "d->states[i0].threshold.promotion_count",
 * with the loop indices, or with [0] for every index (@zero) to take a size with ARRAY_SIZE().
 * @upto_dims limits the indices of the last segment (to size one of its dimensions).
 */
static void path_access(const struct field_path *p, bool zero, int upto_dims, char *buf, size_t cap)
{
	int idx = 0;

	snprintf(buf, cap, "d->");
	for (int s = 0; s < p->nseg; s++) {
		int dims = s + 1 == p->nseg && upto_dims >= 0 ? upto_dims : p->seg[s].ndims;

		append(buf, cap, "%s%s", s ? "." : "", p->seg[s].name);
		for (int k = 0; k < dims; k++, idx++) {
			if (zero)
				append(buf, cap, "[0]");
			else
				append(buf, cap, "[i%d]", idx);
		}
		if (dims < p->seg[s].ndims)
			idx += p->seg[s].ndims - dims;
	}
}

/* Open one loop per array dimension of the last segment of @p (bounded as kshim_dim() says). */
static void open_loops(struct gen_ctx *g, const struct field_path *p)
{
	const int last = p->nseg - 1;
	char size[1100];

	for (int k = 0; k < p->seg[last].ndims; k++) {
		path_access(p, true, k, size, sizeof(size));
		fprintf(g->out,
			"%*sfor (int i%d = 0; i%d < kshim_dim(ARRAY_SIZE(%s), %d, drv); i%d++) {\n",
			8 + g->loops * 8, "", g->loops, g->loops, size,
			dim_is_per_state(p->seg[last].dim[k]), g->loops);
		g->loops++;
	}
}

static void close_loops(struct gen_ctx *g, int count)
{
	while (count-- > 0) {
		g->loops--;
		fprintf(g->out, "%*s}\n", 8 + g->loops * 8, "");
	}
}

/*
 * Emit the code that lists one scalar leaf (its loops are open): a cache of each element's
 * name, built once, and KSHIM_PUT. For states[i0].threshold.promotion_count:
 *
 *	static const char *nm3[ARRAY_SIZE(d->states)];
 *	if (!nm3[i0])
 *		nm3[i0] = kshim_name("states[", i0, "].threshold.promotion_count", -1, "");
 *	KSHIM_PUT(vars, n, vmax, nm3[i0], d->states[i0].threshold.promotion_count);
 */
static void emit_leaf(struct gen_ctx *g, const struct field_path *p)
{
	char access[1024], name[MAX_DIMS + 1][512] = { "", "", "" };
	char cache[1200] = "", idx[64] = "", size[1100];
	int piece = 0, ndims = path_dims(p), indent = 8 + g->loops * 8;
	struct field_path partial = { 0 };
	FILE *o = g->out;

	path_access(p, false, -1, access, sizeof(access));
	for (int s = 0; s < p->nseg; s++) {
		partial.seg[partial.nseg++] = p->seg[s];
		append(name[piece], sizeof(name[piece]), "%s%s", s ? "." : "", p->seg[s].name);
		for (int k = 0; k < p->seg[s].ndims; k++) {
			path_access(&partial, true, k, size, sizeof(size));
			append(cache, sizeof(cache), "[ARRAY_SIZE(%s)]", size);
			append(idx, sizeof(idx), "[i%d]", piece);
			append(name[piece], sizeof(name[piece]), "[");
			piece++;
			append(name[piece], sizeof(name[piece]), "]");
		}
	}
	g->leaves++;
	if (!ndims) {
		fprintf(o, "%*sKSHIM_PUT(vars, n, vmax, \"%s\", %s);\n", indent, "", name[0],
			access);
		return;
	}
	fprintf(o, "%*sstatic const char *nm%d%s;\n\n", indent, "", g->leaves, cache);
	fprintf(o, "%*sif (!nm%d%s)\n", indent, "", g->leaves, idx);
	fprintf(o, "%*s\tnm%d%s = kshim_name(\"%s\", i0, \"%s\", %s, \"%s\");\n", indent, "",
		g->leaves, idx, name[0], name[1], ndims > 1 ? "i1" : "-1", name[2]);
	fprintf(o, "%*sKSHIM_PUT(vars, n, vmax, nm%d%s, %s);\n", indent, "", g->leaves, idx,
		access);
}

static int emit_members(struct gen_ctx *g, const char *body, size_t len, struct field_path *p);

/* The body of "struct @tag { ... }" in the file, or NULL. */
static char *find_struct_body(const char *c, const char *tag, size_t *len)
{
	char pattern[256];
	regmatch_t m[1];
	long close;
	const char *s = c;

	snprintf(pattern, sizeof(pattern), "struct[[:space:]]+%s[[:space:]]*\\{", tag);
	while (find_re(s, pattern, m, 1)) {
		size_t open = (size_t)(s - c) + (size_t)m[0].rm_eo - 1;

		/* "struct tag {" preceded by an identifier character is another word */
		if (m[0].rm_so > 0 &&
		    (isalnum((unsigned char)s[m[0].rm_so - 1]) || s[m[0].rm_so - 1] == '_')) {
			s += m[0].rm_eo;
			continue;
		}
		close = match_brace(c, open);
		if (close < 0)
			return NULL;
		*len = (size_t)close - open - 1;
		return strndup(c + open + 1, *len);
	}
	return NULL;
}

/*
 * One declarator: "*name[A][B]" or "name : 3". Sets the segment's name and dims.
 * Return: 1 for a listable member, 0 to skip it (pointer, bit-field, function), -1 if unparsable.
 */
static int parse_declarator(const char *decl, char *name, size_t cap, int *ndims,
			    char dims[MAX_DIMS][KGOV_IDENT_LEN * 2])
{
	const char *s = decl;
	bool pointer = false;
	size_t n = 0;

	while (*s && (isspace((unsigned char)*s) || *s == '*' || *s == '(')) {
		if (*s == '*' || *s == '(')
			pointer = true;
		s++;
	}
	while ((isalnum((unsigned char)s[n]) || s[n] == '_') && n + 1 < cap)
		n++;
	if (!n)
		return -1;
	memcpy(name, s, n);
	name[n] = '\0';
	s += n;
	*ndims = 0;
	while (*s) {
		if (isspace((unsigned char)*s)) {
			s++;
		} else if (*s == '[') {
			const char *end = strchr(s, ']');

			if (!end || *ndims >= MAX_DIMS)
				return *ndims >= MAX_DIMS ? 0 : -1;
			snprintf(dims[*ndims], KGOV_IDENT_LEN * 2, "%.*s", (int)(end - s - 1),
				 s + 1);
			(*ndims)++;
			s = end + 1;
		} else if (*s == ':' || *s == '(' || *s == ')') {
			return 0; /* bit-field or function pointer */
		} else {
			return -1;
		}
	}
	return pointer ? 0 : 1;
}

/* Split "base a, *b, c[3]" into the base type and the declarators. */
static int split_declaration(char *decl, char **base_end)
{
	/* the first declarator starts at the last identifier before any '[', ':' or ',' */
	char *stop = decl + strcspn(decl, "[:,");
	char *p = stop;

	while (p > decl && isspace((unsigned char)p[-1]))
		p--;
	while (p > decl && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
		p--;
	while (p > decl && (isspace((unsigned char)p[-1]) || p[-1] == '*'))
		p--;
	*base_end = p;
	return p > decl ? 0 : -1;
}

/* Emit every declarator of one declaration whose base type is @base ("" = scalar). */
static int emit_declarators(struct gen_ctx *g, const char *list, const char *struct_body,
			    size_t struct_len, struct field_path *p)
{
	char *copy = strdup(list), *save = NULL;
	int ret = 0;

	if (!copy)
		return il_error_set(g->err, g->file, 0, "out of memory");
	for (char *d = strtok_r(copy, ",", &save); d && ret == 0; d = strtok_r(NULL, ",", &save)) {
		int k = p->nseg, ok;

		if (k >= MAX_DEPTH) {
			ret = il_error_set(g->err, g->file, 0, "per-CPU struct nested too deeply");
			break;
		}
		ok = parse_declarator(d, p->seg[k].name, sizeof(p->seg[k].name), &p->seg[k].ndims,
				      p->seg[k].dim);
		if (ok < 0) {
			ret = il_error_set(g->err, g->file, 0, "cannot parse member '%s'", d);
			break;
		}
		if (ok == 0)
			continue;
		p->nseg++;
		if (path_dims(p) > MAX_DIMS) {
			fprintf(g->out, "%*s/* %s: more than %d array dimensions, not listed */\n",
				8 + g->loops * 8, "", p->seg[k].name, MAX_DIMS);
			p->nseg--;
			continue;
		}
		open_loops(g, p);
		if (struct_body)
			ret = emit_members(g, struct_body, struct_len, p);
		else
			emit_leaf(g, p);
		close_loops(g, p->seg[k].ndims);
		p->nseg--;
	}
	free(copy);
	return ret;
}

/* One member declaration (without its ';'). */
static int emit_declaration(struct gen_ctx *g, char *decl, struct field_path *p)
{
	char *brace, *base_end, *rest;
	char tag[KGOV_IDENT_LEN];
	int ret;

	trim(decl);
	if (!*decl)
		return 0;
	brace = strchr(decl, '{');
	if (brace) {
		/* "struct [tag] { members } declarators" */
		long close = match_brace(decl, (size_t)(brace - decl));

		if (close < 0)
			return il_error_set(g->err, g->file, 0, "unbalanced braces in a member");
		decl[close] = '\0';
		return emit_declarators(g, decl + close + 1, brace + 1,
					(size_t)(close - (brace - decl) - 1), p);
	}
	if (split_declaration(decl, &base_end))
		return il_error_set(g->err, g->file, 0, "cannot parse member '%s'", decl);
	rest = base_end;
	if (sscanf(decl, "struct %63[A-Za-z0-9_]", tag) == 1 ||
	    sscanf(decl, "union %63[A-Za-z0-9_]", tag) == 1) {
		size_t blen = 0;
		char *body;
		char *star = strchr(rest, '*');

		if (star && star < rest + strcspn(rest, "[,"))
			return 0; /* a pointer to a struct: not listed */
		body = find_struct_body(g->c, tag, &blen);
		if (!body)
			return il_error_set(g->err, g->file, 0,
					    "struct %s is not defined in the file", tag);
		ret = emit_declarators(g, rest, body, blen, p);
		free(body);
		return ret;
	}
	return emit_declarators(g, rest, NULL, 0, p);
}

static int emit_members(struct gen_ctx *g, const char *body, size_t len, struct field_path *p)
{
	char *copy = strndup(body, len);
	size_t start = 0;
	int depth = 0, ret = 0;

	if (!copy)
		return il_error_set(g->err, g->file, 0, "out of memory");
	if (++g->depth > MAX_DEPTH) {
		free(copy);
		return il_error_set(g->err, g->file, 0, "per-CPU struct nested too deeply");
	}
	for (size_t i = 0; i < len && ret == 0; i++) {
		if (copy[i] == '{')
			depth++;
		else if (copy[i] == '}')
			depth--;
		else if (copy[i] == ';' && depth == 0) {
			copy[i] = '\0';
			ret = emit_declaration(g, copy + start, p);
			start = i + 1;
		}
	}
	g->depth--;
	free(copy);
	return ret;
}

static void write_c_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

int kgov_write_wrapper(FILE *out, const char *text, size_t len, const char *src,
		       const struct kgov_scan *scan, struct il_error *err)
{
	struct gen_ctx g = { .out = out, .file = src, .err = err };
	struct field_path path = { 0 };
	char *c = clean_text(text, len), *body = NULL;
	size_t blen = 0;
	int ret = 0;

	if (!c)
		return il_error_set(err, src, 0, "out of memory");
	g.c = c;
	fprintf(out, "/* Generated by idlelab kgov for %s (blob %.12s). Do not edit. */\n", src,
		scan->blob);
	fprintf(out, "#include ");
	write_c_string(out, src);
	fprintf(out, "\n\n#include <linux/kshim.h>\n#include <kshim/kshim-abi.h>\n\n");
	fprintf(out, "const struct kshim_file kshim_file = {\n\t.family = ");
	write_c_string(out, scan->family);
	fprintf(out, ",\n\t.percpu_type = \"%s%s\",\n\t.source = ",
		scan->percpu_tag[0] ? "struct " : "", scan->percpu_tag);
	write_c_string(out, src);
	fprintf(out, ",\n\t.blob = \"%s\",\n\t.units_us = %d,\n", scan->blob, scan->units_us);
	fprintf(out, "\t.select_nargs = _Generic(&%s,\n"
		"\t\tint (*)(struct cpuidle_driver *, struct cpuidle_device *): 2,\n"
		"\t\tdefault: 3),\n};\n\n", scan->select_fn);
	fprintf(out, "/* An array's length to list: all of it, or up to state_count for "
		"per-state arrays. */\n"
		"static inline int kshim_dim(size_t size, int per_state, "
		"const struct il_driver *drv)\n"
		"{\n\tif (per_state && drv && (size_t)drv->state_count < size)\n"
		"\t\treturn drv->state_count < 0 ? 0 : drv->state_count;\n"
		"\treturn (int)size;\n}\n\n");
	fprintf(out, "int kshim_gen_vars(const struct il_driver *drv, struct il_var *vars, "
		"int vmax)\n{\n"
		"\tconst struct il_device *dev = kshim_dev();\n\tint n = 0;\n\n\t(void)dev;\n");
	if (scan->percpu_var[0]) {
		body = find_struct_body(c, scan->percpu_tag, &blen);
		if (!body) {
			ret = il_error_set(err, src, 0,
					   "struct %s (of %s) is not defined in the file",
					   scan->percpu_tag, scan->percpu_var);
			goto out;
		}
		fprintf(out, "\tconst struct %s *d = this_cpu_ptr(&%s);\n\n\t{\n", scan->percpu_tag,
			scan->percpu_var);
		ret = emit_members(&g, body, blen, &path);
		if (ret)
			goto out;
		fprintf(out, "\t}\n");
	}
	/*
	 * Device fields a governor drives: listed under their own names unless the per-CPU
	 * struct has a field of that name (4.x menu and ladder keep last_state_idx there).
	 */
	if (scan->dev_last_state_idx && !(body && strstr(body, "last_state_idx")))
		fprintf(out,
			"\tKSHIM_PUT(vars, n, vmax, \"last_state_idx\", dev->last_state_idx);\n");
	if (scan->dev_poll_limit_ns)
		fprintf(out,
			"\tKSHIM_PUT(vars, n, vmax, \"poll_limit_ns\", dev->poll_limit_ns);\n");
	fprintf(out, "\treturn n;\n}\n");
out:
	free(body);
	free(c);
	return ret;
}
