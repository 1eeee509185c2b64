// SPDX-License-Identifier: GPL-2.0-only
/*
 * error.c - compiler-style error messages for the library's text parsers.
 */
#include <stdarg.h>
#include <stdio.h>

#include "error.h"

/* Fill @err: "FILE:LINE: ", "FILE: " or nothing before the message, and nothing needed. */
static void set_message(struct il_error *err, const char *file, int line, const char *fmt,
			va_list ap)
{
	int n = 0;

	if (file && line > 0)
		n = snprintf(err->msg, sizeof(err->msg), "%s:%d: ", file, line);
	else if (file)
		n = snprintf(err->msg, sizeof(err->msg), "%s: ", file);
	if (n < 0)
		n = 0;
	if ((size_t)n < sizeof(err->msg))
		vsnprintf(err->msg + n, sizeof(err->msg) - (size_t)n, fmt, ap);
	err->line = line;
	err->need = IL_NEED_NOTHING;
	err->about = IL_INPUT_NONE;
}

int il_error_set(struct il_error *err, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	set_message(err, file, line, fmt, ap);
	va_end(ap);
	return -1;
}

int il_error_need(struct il_error *err, enum il_error_need need)
{
	if (err)
		err->need = need;
	return -1;
}

int il_error_input(struct il_error *err, enum il_error_input about, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	set_message(err, NULL, 0, fmt, ap);
	va_end(ap);
	err->about = about;
	return -1;
}
