/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * error.h - the library's error type: a message it hands back instead of printing it.
 *
 * The parsers (platform files, step inputs, rt-app files, scenario specs) report where
 * the problem is, compiler-style: "FILE:LINE: message". The library fills a struct il_error
 * and returns -1; only the CLI prints it.
 */
#ifndef IDLELAB_ERROR_H
#define IDLELAB_ERROR_H

#define IL_ERROR_LEN 512

struct il_error {
	char msg[IL_ERROR_LEN]; /* "FILE:LINE: message", or "FILE: message" when no line applies */
	int line;               /* 1-based line of the problem, 0 if none */
};

/**
 * il_error_set - fill @err with "FILE:LINE: message"
 * @err: the error to fill (may be NULL: nothing is written)
 * @file: the name to show for the input ("platforms/skx.plat", "builtin:demo", "<stdin>")
 * @line: the 1-based line, or 0 to leave the line out
 * @fmt: printf-style message
 *
 * Return: -1, so that a parser can write "return il_error_set(...)".
 */
int il_error_set(struct il_error *err, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif /* IDLELAB_ERROR_H */
