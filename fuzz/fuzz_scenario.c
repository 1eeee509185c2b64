// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the scenario specification parser behind -s (lib/scenario/param.c) on
 * arbitrary bytes. An accepted specification must hold values inside each parameter's
 * declared range, and formatting it back must give a specification that parses to the
 * same values. Scenarios that read a file (rtapp:FILE) are left out: the fuzzer would
 * only probe the file system.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"

static void check_ranges(const struct il_scenario *scn, const struct il_scn_args *args)
{
	for (int i = 0; i < il_scn_nparams(scn); i++) {
		const struct il_scn_param *p = &scn->params[i];

		if (p->type == IL_SCN_INT && (args->v[i] < p->min || args->v[i] > p->max))
			abort();
	}
}

/* Format the parsed values back and parse them again: the same scenario and values. */
static void check_round_trip(const struct il_scenario *scn, const struct il_scn_args *args)
{
	char spec[IL_SCN_OPERAND_LEN + 2048], values[2048];
	const struct il_scenario *scn2;
	struct il_scn_args args2;
	struct il_scn_common common2;
	struct il_error err;

	il_scn_format_args(scn, args, values, sizeof(values));
	snprintf(spec, sizeof(spec), "%s%s%s", scn->name, values[0] ? ":" : "", values);
	if (il_scn_parse(spec, &scn2, &args2, &common2, &err) || scn2 != scn)
		abort();
	for (int i = 0; i < il_scn_nparams(scn); i++)
		if (args2.v[i] != args->v[i])
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct il_scenario *scn;
	struct il_scn_args args;
	struct il_scn_common common;
	struct il_error err;
	char spec[IL_SCN_OPERAND_LEN];

	if (size >= sizeof(spec) || memchr(data, '\0', size))
		return 0;
	memcpy(spec, data, size);
	spec[size] = '\0';
	if (strstr(spec, "rtapp"))
		return 0;
	if (il_scn_parse(spec, &scn, &args, &common, &err) == 0) {
		check_ranges(scn, &args);
		if (!scn->operand)
			check_round_trip(scn, &args);
	} else if (!err.msg[0]) {
		abort(); /* every refusal says why */
	}
	return 0;
}
