// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the report's inputs (lib/report/) on arbitrary bytes. A text that the
 * report accepts as an idlelab result must also render: the page is built and written to
 * /dev/null, so the model and the chart code see every shape of JSON the reader lets in.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	struct il_page *page;
	struct il_error err = { 0 };
	char *text;

	if (!sink && !(sink = fopen("/dev/null", "w")))
		abort();
	text = malloc(size + 1);
	page = il_page_new();
	if (!text || !page)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	if (il_page_add(page, "fuzz.json", text, &err) == 0) {
		struct il_page_opts opts = { 0 };

		/* An accepted input may still lack what a chart needs; that is an error, not a crash. */
		il_page_write(page, &opts, sink, &err);
	} else if (!err.msg[0]) {
		abort(); /* every refusal says why */
	}
	il_page_free(page);
	free(text);
	return 0;
}
