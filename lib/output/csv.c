// SPDX-License-Identifier: GPL-2.0-only
/*
 * csv.c - comma-separated values (the backend: delimited.c): a header line, then the rows,
 * for each table. A field with a comma, quote or line break is quoted with its quotes
 * doubled (RFC 4180); lines end in \n.
 */
#include <string.h>

#include "output.h"

void il_csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static int csv_write(FILE *out, const struct il_table *const *tables, int ntables)
{
	static const struct il_delimited fmt = { ',', il_csv_field };

	return il_delimited_write(out, &fmt, tables, ntables);
}

const struct il_output_format il_output_csv = { "csv", true, NULL, csv_write };
