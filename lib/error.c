// SPDX-License-Identifier: GPL-2.0-only
/*
 * error.c - compiler-style error messages for the library's text parsers.
 */
#include <stdarg.h>
#include <stdio.h>

#include "error.h"

int il_error_set(struct il_error *err, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!err)
		return -1;
	if (line > 0)
		n = snprintf(err->msg, sizeof(err->msg), "%s:%d: ", file, line);
	else
		n = snprintf(err->msg, sizeof(err->msg), "%s: ", file);
	if (n < 0)
		n = 0;
	if ((size_t)n < sizeof(err->msg)) {
		va_start(ap, fmt);
		vsnprintf(err->msg + n, sizeof(err->msg) - (size_t)n, fmt, ap);
		va_end(ap);
	}
	err->line = line;
	err->need = IL_NEED_NOTHING;
	err->about = IL_INPUT_NONE;
	return -1;
}

int il_error_input(struct il_error *err, enum il_error_input about, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	err->line = 0;
	err->need = IL_NEED_NOTHING;
	err->about = about;
	return -1;
}

int il_error_need(struct il_error *err, enum il_error_need need)
{
	if (err)
		err->need = need;
	return -1;
}
