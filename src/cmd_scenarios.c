// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_scenarios.c - `idlelab scenarios [NAME]`: the built-in workloads and their parameters.
 */
#include <inttypes.h>
#include <string.h>

#include "cli.h"
#include "cli_opts.h"
#include "commands.h"
#include "scenario/scenario.h"

static void print_choices(FILE *out, const struct il_scn_param *p)
{
	for (int i = 0; p->choices[i]; i++)
		fprintf(out, "%s%s", i ? "|" : "", p->choices[i]);
}

/* The parameter's class and range (scenario.h struct il_scn_unc), where it has them. */
static void print_uncertain(FILE *out, const struct il_scn_param *p)
{
	const struct il_scn_unc *u = p->unc;

	if (!u)
		return;
	fprintf(out, "                   class: %s", il_unc_class_name(u->cls));
	if (u->range)
		fprintf(out, ", range %s (%s)", u->range, u->why);
	if (u->fitted_to)
		fprintf(out, "; fitted to %s", u->fitted_to);
	fputc('\n', out);
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
	print_uncertain(out, p);
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
		fprintf(out, "  operand: -s %s:%s[,k=v...] (the %s comes first)\n", scn->name,
			scn->operand,
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
		     "    ipi_ns=N       IPI delivery to a sleeping CPU (default: 0 on intel_idle, "
		     "else %d)\n"
		     "    rcu_pct=N      work pieces that leave RCU callbacks, keeping the tick "
		     "(default %u)\n"
		     "    nohz_full=LIST CPUs (0,2-5) that keep the tick stopped while running one "
		     "task (default: none)\n",
		IL_SIM_IPI_NS_DEFAULT, scn->default_rcu_pct);
}

void cmd_scenarios_usage(FILE *out)
{
	fprintf(out, "usage: idlelab scenarios [-v] [NAME]\n"
		     "\n"
		     "List the built-in scenarios, or show one scenario's score, sources and "
		     "typed\n"
		     "parameters with their defaults.\n"
		     "\n"
		     "  -v, --verbose   show every scenario's parameters\n");
}

enum { SCN_OPT_VERBOSE = 1 };

static const struct cli_opt scenarios_opts[] = {
	CLI_OPTS_HELP,
	{ SCN_OPT_VERBOSE, 'v', "verbose", false },
	{ 0 },
};

struct scenarios_args {
	const struct il_scenario *one; /* NAME: this one in full; NULL: the list */
	bool verbose;                  /* -v: the list in full */
};

static int scenarios_option(void *state, int id, const char *value, struct cli_error *err)
{
	struct scenarios_args *a = state;

	if (id == SCN_OPT_VERBOSE) {
		a->verbose = true;
		return CLI_PARSE_OK;
	}
	if (a->one)
		return cli_error_set(err, "more than one scenario given");
	a->one = il_scenario_find(value);
	if (!a->one)
		return cli_error_set(err, "unknown scenario '%s'", value);
	return CLI_PARSE_OK;
}

static int scenarios_parse(int argc, char **argv, void *state, struct cli_error *err)
{
	return cli_parse_options(argc, argv, scenarios_opts, CLI_OPT_HELP, scenarios_option, state,
				 err);
}

static int scenarios_main(void *state)
{
	const struct scenarios_args *a = state;

	if (a->one) {
		print_scenario(stdout, a->one, true);
		return CLI_EXIT_OK;
	}
	for (int i = 0; i < il_scenario_count(); i++)
		print_scenario(stdout, il_scenario_at(i), a->verbose);
	return CLI_EXIT_OK;
}

int cmd_scenarios(int argc, char **argv)
{
	static const struct cli_lifecycle lc = {
		.name = "scenarios", .size = sizeof(struct scenarios_args),
			.parse = scenarios_parse,
		.usage = cmd_scenarios_usage, .run = scenarios_main,
	};

	return cli_main(&lc, argc, argv);
}
