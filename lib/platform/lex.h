/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lex.h - the line/token reader shared by the platform-file and step-input parsers.
 *
 * DOC: the text syntax both parsers share
 *
 *  1. The input is a byte buffer, read line by line ("\n" or "\r\n"). A NUL byte or a line
 *     longer than IL_LEX_LINE_MAX is an error.
 *  2. A line is split into whitespace-separated tokens. A token is a bare word ("state") or
 *     "key=value". A value may be double-quoted to hold spaces; inside quotes \" and \\ are
 *     the only escapes.
 *  3. "#" at the start of a token, outside quotes, starts a comment that runs to the end of the
 *     line. Empty and comment-only lines carry no tokens.
 *  4. Numbers are plain decimal integers (no sign unless the field allows one, no spaces, no
 *     leading "+", no hex); times carry a unit suffix "ns", "us" or "ms".
 */
#ifndef IDLELAB_LEX_H
#define IDLELAB_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../error.h"

#define IL_LEX_LINE_MAX 4096
#define IL_LEX_WORD_MAX 256
#define IL_LEX_TOKENS_MAX 24

struct il_lexer {
	const char *text;
	size_t len;
	size_t pos;
	const char *file; /* name used in error messages */
	int line;         /* number of the line last returned, 1-based */
};

struct il_token {
	char key[IL_LEX_WORD_MAX];   /* the bare word, or the key of "key=value" */
	char value[IL_LEX_WORD_MAX]; /* the value of "key=value", unquoted */
	bool has_value;              /* "key=value" rather than a bare word */
};

void il_lex_init(struct il_lexer *lx, const char *text, size_t len, const char *file);

/**
 * il_lex_next_line - the next line of the input, without its line terminator
 * Return: 1 and the line in @line/@len, 0 at the end of the input, -1 on error (@err set).
 */
int il_lex_next_line(struct il_lexer *lx, const char **line, size_t *len, struct il_error *err);

/**
 * il_lex_tokens - split one line into tokens (see the DOC above)
 * Return: the number of tokens (0 for an empty or comment line), or -1 on error (@err set
 * with the lexer's file and line).
 */
int il_lex_tokens(const struct il_lexer *lx, const char *line, size_t len, struct il_token *toks,
		  int max, struct il_error *err);

/**
 * il_parse_u64 - a plain decimal integer in [0, @max]
 * Return: 0, or -1 if @s is empty, has a non-digit, or exceeds @max.
 */
int il_parse_u64(const char *s, uint64_t max, uint64_t *out);

enum il_time_unit_rule {
	IL_UNIT_REQUIRED, /* "120us", "3102000ns" */
	IL_UNIT_DEFAULT_NS, /* a bare number means ns */
};

/**
 * il_parse_time_ns - a time with an optional sign and a unit suffix ns, us or ms, as ns
 * @s: the text
 * @rule: whether a bare number (ns) is accepted
 * @allow_negative: whether a leading "-" is accepted
 * @max_ns: the largest magnitude accepted, in ns
 * @out: the value in ns
 *
 * Return: 0, or -1 (and a static explanation in *@why) if the text is not such a time.
 */
int il_parse_time_ns(const char *s, enum il_time_unit_rule rule, bool allow_negative,
		     int64_t max_ns, int64_t *out, const char **why);

#endif /* IDLELAB_LEX_H */
