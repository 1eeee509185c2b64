// SPDX-License-Identifier: GPL-2.0-only
/*
 * complete.c - machine-readable lists of what the binary knows, for shell completion:
 * commands, presets and aliases, built-in platforms, scenarios and their parameters, output
 * formats, trace readers and the metrics verdict -m takes. One entry per line, nothing else,
 * so a completion script never parses the human tables (whose layout may change).
 */
#include <string.h>

#include "complete.h"
#include "gov/governors.h"
#include "output/output.h"
#include "platform/platform.h"
#include "scenario/scenario.h"
#include "trace/trace.h"
#include "verdict/verdict.h"
#include "util/array.h"

static void list_commands(FILE *out, const char *const *commands)
{
	for (int i = 0; commands[i]; i++)
		fprintf(out, "%s\n", commands[i]);
}

static void list_governors(FILE *out)
{
	for (int i = 0; i < il_preset_count(); i++)
		fprintf(out, "%s\n", il_preset_at(i)->name);
#define IL_ALIAS_NAME(alias, target) fprintf(out, "%s\n", alias);
	IL_ALIASES(IL_ALIAS_NAME)
#undef IL_ALIAS_NAME
}

static void list_platforms(FILE *out)
{
	for (int i = 0; i < il_platform_builtin_count(); i++)
		fprintf(out, "%s\n", il_platform_builtin_name(i));
}

static void list_scenarios(FILE *out)
{
	for (int i = 0; i < il_scenario_count(); i++)
		fprintf(out, "%s\n", il_scenario_at(i)->name);
}

/* One line per parameter: its name, then its values when it is an enum. */
static int list_params(FILE *out, const char *name)
{
	static const char *const common[] = { "cpus", "tick_hz", "qos_us", "ipi_ns", "rcu_pct" };
	const struct il_scenario *scn = name ? il_scenario_find(name) : NULL;

	if (!scn)
		return -1;
	for (int i = 0; i < il_scn_nparams(scn); i++) {
		const struct il_scn_param *p = &scn->params[i];

		fprintf(out, "%s", p->name);
		for (int c = 0; p->type == IL_SCN_ENUM && p->choices[c]; c++)
			fprintf(out, " %s", p->choices[c]);
		fputc('\n', out);
	}
	for (size_t i = 0; i < ARRAY_SIZE(common); i++)
		fprintf(out, "%s\n", common[i]);
	return 0;
}

static void list_formats(FILE *out)
{
	const struct il_output_format *const formats[] = { &il_output_table, &il_output_tsv,
							   &il_output_csv, &il_output_json };

	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		if (formats[i]->available)
			fprintf(out, "%s\n", formats[i]->name);
}

static void list_readers(FILE *out)
{
	const char *name, *desc, *unavailable;

	for (int i = 0; il_trace_reader_at(i, &name, &desc, &unavailable) == 0; i++)
		if (!unavailable)
			fprintf(out, "%s\n", name);
}

static void list_verdict_metrics(FILE *out)
{
	for (int m = 0; m < IL_VM_COUNT; m++)
		fprintf(out, "%s\n", il_vmetric_key((enum il_vmetric)m));
}

int cli_complete(FILE *out, const char *what, const char *arg, const char *const *commands)
{
	if (!strcmp(what, "params"))
		return list_params(out, arg);
	if (arg)
		return -1;
	if (!strcmp(what, "commands"))
		list_commands(out, commands);
	else if (!strcmp(what, "governors"))
		list_governors(out);
	else if (!strcmp(what, "platforms"))
		list_platforms(out);
	else if (!strcmp(what, "scenarios"))
		list_scenarios(out);
	else if (!strcmp(what, "formats"))
		list_formats(out);
	else if (!strcmp(what, "readers"))
		list_readers(out);
	else if (!strcmp(what, "verdict-metrics"))
		list_verdict_metrics(out);
	else
		return -1;
	return 0;
}
