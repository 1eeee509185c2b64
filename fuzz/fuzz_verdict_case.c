// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the run fields of a verdict case file (lib/verdict/casefile.c) on
 * arbitrary bytes, taken as a line of names and a line of values, comma-separated. An
 * accepted run must come back the same through its own text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "verdict/verdict.h"

#define MAX_FIELDS 64

static int split(char *s, const char **out)
{
	int n = 0;

	for (char *save = NULL, *t = strtok_r(s, ",", &save); t && n < MAX_FIELDS; t = strtok_r(NULL, ",", &save))
		out[n++] = t;
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *names[MAX_FIELDS], *texts[MAX_FIELDS], *names2[IL_VERDICT_RUN_FIELDS_MAX];
	const char *texts2[IL_VERDICT_RUN_FIELDS_MAX];
	char *buf = malloc(size + 1), *nl, bufs[IL_VERDICT_RUN_FIELDS_MAX][64];
	struct il_error err;
	struct il_verdict_run r, back;
	int n, m;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	nl = strchr(buf, '\n');
	if (nl) {
		*nl = '\0';
		n = split(buf, names);
		m = split(nl + 1, texts);
		if (il_verdict_run_parse(n < m ? n : m, names, texts, &r, &err) == 0) {
			for (int i = 0; i < IL_VERDICT_RUN_FIELDS; i++) {
				names2[i] = il_verdict_run_field(i);
				texts2[i] = il_verdict_run_format(&r, i, bufs[i], sizeof(bufs[i]));
			}
			if (il_verdict_run_parse(IL_VERDICT_RUN_FIELDS, names2, texts2, &back, &err) ||
			    memcmp(&r.score, &back.score, sizeof(double)) || memcmp(&r.joules, &back.joules, sizeof(double)) ||
			    memcmp(r.field, back.field, sizeof(r.field)) || r.energy_known != back.energy_known ||
			    r.duration_ns != back.duration_ns)
				abort();
		}
	}
	free(buf);
	return 0;
}
