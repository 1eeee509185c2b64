// SPDX-License-Identifier: GPL-2.0-only
/*
 * lex.c - lines, tokens and numbers for the platform-file and step-input parsers.
 */
#include <string.h>

#include "lex.h"
#include "util/array.h"

void il_lex_init(struct il_lexer *lx, const char *text, size_t len, const char *file)
{
	lx->text = text;
	lx->len = len;
	lx->pos = 0;
	lx->file = file;
	lx->line = 0;
}

int il_lex_next_line(struct il_lexer *lx, const char **line, size_t *len, struct il_error *err)
{
	size_t start = lx->pos, end;

	if (lx->pos >= lx->len)
		return 0;
	lx->line++;
	end = start;
	while (end < lx->len && lx->text[end] != '\n') {
		if (lx->text[end] == '\0')
			return il_error_set(err, lx->file, lx->line, "NUL byte in the input");
		end++;
	}
	lx->pos = end < lx->len ? end + 1 : end;
	if (end > start && lx->text[end - 1] == '\r')
		end--;
	if (end - start > IL_LEX_LINE_MAX)
		return il_error_set(err, lx->file, lx->line, "line longer than %d characters",
				    IL_LEX_LINE_MAX);
	*line = lx->text + start;
	*len = end - start;
	return 1;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

/* Copy a double-quoted string starting at line[*i] == '"' into @out; *i ends past the quote. */
static int lex_quoted(const struct il_lexer *lx, const char *line, size_t len, size_t *i, char *out,
		      struct il_error *err)
{
	size_t n = 0;

	for ((*i)++; *i < len; (*i)++) {
		char c = line[*i];

		if (c == '"') {
			(*i)++;
			if (*i < len && !is_space(line[*i]))
				return il_error_set(err, lx->file, lx->line,
						    "text right after a closing quote");
			out[n] = '\0';
			return 0;
		}
		if (c == '\\' && *i + 1 < len && (line[*i + 1] == '"' || line[*i + 1] == '\\'))
			c = line[++(*i)];
		if (n + 1 >= IL_LEX_WORD_MAX)
			return il_error_set(err, lx->file, lx->line,
					    "quoted text longer than %d characters",
					    IL_LEX_WORD_MAX - 1);
		out[n++] = c;
	}
	return il_error_set(err, lx->file, lx->line, "unterminated quote");
}

/* Copy a bare word (up to whitespace, or up to '=' when @stop_at_eq) into @out. */
static int lex_bare(const struct il_lexer *lx, const char *line, size_t len, size_t *i,
		    bool stop_at_eq, char *out, struct il_error *err)
{
	size_t n = 0;

	for (; *i < len && !is_space(line[*i]); (*i)++) {
		char c = line[*i];

		if (c == '=' && stop_at_eq)
			break;
		if (c == '"')
			return il_error_set(err, lx->file, lx->line,
					    "unexpected quote inside a word");
		if (n + 1 >= IL_LEX_WORD_MAX)
			return il_error_set(err, lx->file, lx->line,
					    "word longer than %d characters", IL_LEX_WORD_MAX - 1);
		out[n++] = c;
	}
	out[n] = '\0';
	return 0;
}

static int lex_value(const struct il_lexer *lx, const char *line, size_t len, size_t *i, char *out,
		     struct il_error *err)
{
	if (*i < len && line[*i] == '"')
		return lex_quoted(lx, line, len, i, out, err);
	return lex_bare(lx, line, len, i, false, out, err);
}

static int lex_token(const struct il_lexer *lx, const char *line, size_t len, size_t *i,
		     struct il_token *tok, struct il_error *err)
{
	memset(tok, 0, sizeof(*tok));
	if (line[*i] == '"')
		return lex_quoted(lx, line, len, i, tok->key, err);
	if (lex_bare(lx, line, len, i, true, tok->key, err))
		return -1;
	if (*i < len && line[*i] == '=') {
		if (!tok->key[0])
			return il_error_set(err, lx->file, lx->line, "'=' without a key before it");
		(*i)++;
		tok->has_value = true;
		return lex_value(lx, line, len, i, tok->value, err);
	}
	return 0;
}

int il_lex_tokens(const struct il_lexer *lx, const char *line, size_t len, struct il_token *toks,
		  int max, struct il_error *err)
{
	size_t i = 0;
	int n = 0;

	for (;;) {
		while (i < len && is_space(line[i]))
			i++;
		if (i >= len || line[i] == '#')
			return n;
		if (n >= max)
			return il_error_set(err, lx->file, lx->line,
					    "more than %d fields on one line", max);
		if (lex_token(lx, line, len, &i, &toks[n], err))
			return -1;
		n++;
	}
}

int il_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		unsigned int d;

		if (*s < '0' || *s > '9')
			return -1;
		d = (unsigned int)(*s - '0');
		if (v > (max - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

/* Split "120us" into its digits and the ns multiplier of its unit. */
static int split_unit(const char *s, enum il_time_unit_rule rule, char *digits, size_t cap,
		      uint64_t *mult, const char **why)
{
	static const struct {
		const char *suffix;
		uint64_t mult;
	} units[] = { { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 } };
	size_t len = strlen(s);

	for (size_t u = 0; u < ARRAY_SIZE(units); u++) {
		size_t sl = strlen(units[u].suffix);

		if (len > sl && !strcmp(s + len - sl, units[u].suffix)) {
			len -= sl;
			*mult = units[u].mult;
			goto copy;
		}
	}
	if (rule == IL_UNIT_REQUIRED) {
		*why = "a time needs a unit: ns, us or ms";
		return -1;
	}
	*mult = 1;
copy:
	if (len + 1 > cap) {
		*why = "number too long";
		return -1;
	}
	memcpy(digits, s, len);
	digits[len] = '\0';
	return 0;
}

int il_parse_time_ns(const char *s, enum il_time_unit_rule rule, bool allow_negative,
		     int64_t max_ns, int64_t *out, const char **why)
{
	char digits[32];
	uint64_t mult, v;
	bool negative = false;

	*why = "not a number";
	if (*s == '-') {
		if (!allow_negative) {
			*why = "negative values are not allowed here";
			return -1;
		}
		negative = true;
		s++;
	}
	if (split_unit(s, rule, digits, sizeof(digits), &mult, why))
		return -1;
	if (il_parse_u64(digits, UINT64_MAX, &v))
		return -1;
	if (v > (uint64_t)max_ns / mult) {
		*why = "value out of range";
		return -1;
	}
	*out = negative ? -(int64_t)(v * mult) : (int64_t)(v * mult);
	return 0;
}
