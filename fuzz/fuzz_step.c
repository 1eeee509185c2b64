// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the step-script parser (lib/step/input.c) on arbitrary bytes.
 * An accepted script must have entries whose values stay in the documented ranges.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "step/step.h"

static s64 magnitude(s64 v)
{
	return v < 0 ? -v : v;
}

static void check_accepted(const struct il_step_script *s)
{
	int last_line = 0;

	if (!s->count)
		abort();
	for (size_t i = 0; i < s->count; i++) {
		const struct il_step_input *in = &s->entries[i];

		if (in->line <= last_line)
			abort();
		last_line = in->line;
		if (magnitude(in->sleep_ns) > IL_STEP_TIME_MAX_NS || in->res_ns < 0 ||
		    in->res_ns > IL_STEP_TIME_MAX_NS || in->span_ns < 0 || in->oracle_ns < 0 ||
		    (in->has_qos && in->qos_us < 0) || (in->rejected && (in->tick || in->res_ns)))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct il_step_script script;
	struct il_error err;

	if (il_step_parse((const char *)data, size, "fuzz.step", &script, &err) == 0)
		check_accepted(&script);
	else if (strncmp(err.msg, "fuzz.step", 9))
		abort();
	il_step_script_free(&script);
	return 0;
}
