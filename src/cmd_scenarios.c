// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_scenarios.c - `idlelab scenarios [NAME]`: the built-in workloads and their parameters.
 */
#include <inttypes.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "scenario/scenario.h"

static void print_choices(FILE *out, const struct il_scn_param *p)
{
	for (int i = 0; p->choices[i]; i++)
		fprintf(out, "%s%s", i ? "|" : "", p->choices[i]);
}

static void print_param(FILE *out, const struct il_scn_param *p)
{
	fprintf(out, "    %-14s ", p->name);
	if (p->type == IL_SCN_ENUM) {
		print_choices(out, p);
		fprintf(out, " (default %s)", p->choices[p->def]);
	} else {
		fprintf(out, "%" PRId64 "..%" PRId64 "%s%s (default %" PRId64 ")", p->min, p->max,
			*p->unit ? " " : "", p->unit, p->def);
	}
	fprintf(out, "\n                   %s\n", p->help);
}

static void print_scenario(FILE *out, const struct il_scenario *scn, bool verbose)
{
	fprintf(out, "%-10s %s\n", scn->name, scn->summary);
	if (!verbose)
		return;
	fprintf(out, "  score: %s (%s, %s is better)\n", scn->score, scn->score_help,
		scn->higher_is_better ? "higher" : "lower");
	fprintf(out, "  sources: %s\n", scn->sources);
	if (scn->operand)
		fprintf(out, "  operand: -s %s:%s[,k=v...] (the %s comes first)\n", scn->name, scn->operand,
			scn->operand);
	fprintf(out, "  parameters:\n");
	for (int i = 0; i < il_scn_nparams(scn); i++)
		print_param(out, &scn->params[i]);
	fprintf(out, "  common parameters (every scenario):\n");
	if (scn->default_cpus)
		fprintf(out, "    cpus=N         simulated CPUs (default %u)\n", scn->default_cpus);
	else
		fprintf(out, "    cpus=N         simulated CPUs (default: the platform's)\n");
	fprintf(out, "    tick_hz=N      CONFIG_HZ (default: the platform's)\n"
		     "    qos_us=N       PM QoS CPU latency limit (default: none)\n"
		     "    ipi_ns=N       IPI delivery to a sleeping CPU (default: 0 on intel_idle, else %d)\n"
		     "    rcu_pct=N      work pieces that leave RCU callbacks, keeping the tick (default %u)\n"
		     "    nohz_full=LIST CPUs (0,2-5) that keep the tick stopped while running one task (default: none)\n",
		IL_SIM_IPI_NS_DEFAULT, scn->default_rcu_pct);
}

void cmd_scenarios_usage(FILE *out)
{
	fprintf(out, "usage: idlelab scenarios [-v] [NAME]\n"
		     "\n"
		     "List the built-in scenarios, or show one scenario's score, sources and typed\n"
		     "parameters with their defaults.\n"
		     "\n"
		     "  -v, --verbose   show every scenario's parameters\n");
}

enum { SCN_OPT_HELP = 1, SCN_OPT_VERBOSE };

static const struct cli_opt scenarios_opts[] = {
	{ SCN_OPT_HELP, 'h', "help", false },
	{ SCN_OPT_VERBOSE, 'v', "verbose", false },
	{ 0 },
};

int cmd_scenarios(int argc, char **argv)
{
	const struct il_scenario *one = NULL;
	struct cli_scan s;
	struct cli_error err;
	const char *value;
	bool verbose = false;
	int id;

	cli_scan_init(&s, argc, argv);
	while ((id = cli_next_opt(&s, scenarios_opts, &value, &err)) != CLI_OPT_END) {
		if (id == CLI_PARSE_ERROR)
			return cli_usage_error("scenarios", err.msg);
		if (id == SCN_OPT_HELP) {
			cmd_scenarios_usage(stdout);
			return CLI_EXIT_OK;
		}
		if (id == SCN_OPT_VERBOSE) {
			verbose = true;
			continue;
		}
		if (one || !(one = il_scenario_find(value))) {
			snprintf(err.msg, sizeof(err.msg), one ? "more than one scenario given" : "unknown scenario '%s'", value);
			return cli_usage_error("scenarios", err.msg);
		}
	}
	if (one) {
		print_scenario(stdout, one, true);
		return CLI_EXIT_OK;
	}
	for (int i = 0; i < il_scenario_count(); i++)
		print_scenario(stdout, il_scenario_at(i), verbose);
	return CLI_EXIT_OK;
}
