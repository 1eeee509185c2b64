// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_step.c - `idlelab step`: drive one CPU's governor(s) through a scripted sequence of
 * idle entries and print every decision (library part: lib/step/, format: docs/step.md).
 *
 * Order of checks: the arguments (exit 2), the governor names (2), the platform (2 for an
 * unknown built-in, 1 for a bad file), the script (1), then the run. Nothing is printed
 * until every governor has run every line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_opts.h"
#include "commands.h"
#include "step_output.h"
#include "util/parse.h"

enum {
	STEP_OPT_INPUT = 1, STEP_OPT_VARS, STEP_OPT_DETAIL, STEP_OPT_HZ, STEP_OPT_PARAM,
	STEP_OPT_PRINT_INPUT, STEP_OPT_DIFF,
};

static const struct cli_opt step_opts[] = {
	CLI_OPTS_HELP, CLI_OPTS_GOV, CLI_OPTS_PLAT,
	{ STEP_OPT_INPUT, 'i', "input", true },
	CLI_OPTS_OUT,
	CLI_OPTS_FORMAT, /* table, csv or json here */
	{ STEP_OPT_VARS, 0, "vars", false },
	{ STEP_OPT_DETAIL, 0, "detail", false },
	{ STEP_OPT_HZ, 0, "hz", true },
	{ STEP_OPT_PARAM, 0, "param", true },
	{ STEP_OPT_PRINT_INPUT, 0, "print-input", false },
	{ STEP_OPT_DIFF, 0, "diff", false },
	{ 0 },
};

static const char builtin_prefix[] = "builtin:";

static int parse_hz(const char *value, unsigned int *hz, struct cli_error *err)
{
	if (il_parse_tick_hz(value, hz))
		return cli_error_set(err, "invalid --hz '%s' (CONFIG_HZ: 100, 250, 300 or 1000)",
				     value);
	return CLI_PARSE_OK;
}

static int add_param(struct step_args *args, const char *value, struct cli_error *err)
{
	const char *eq = strchr(value, '=');

	if (!eq || eq == value || !eq[1])
		return cli_error_set(err, "invalid --param '%s' (NAME=VALUE)", value);
	if (args->nparams == STEP_MAX_PARAMS)
		return cli_error_set(err, "more than %d --param options", STEP_MAX_PARAMS);
	args->params[args->nparams++] = value;
	return CLI_PARSE_OK;
}

static int step_option(void *state, int id, const char *value, struct cli_error *err)
{
	struct step_args *args = state;

	switch (id) {
	case CLI_OPT_GOV:
		return cli_append_list(value, args->gov_buf, sizeof(args->gov_buf),
				       &args->gov_buf_used, args->governors, STEP_MAX_GOVERNORS,
				       &args->ngov, "governor", err);
	case CLI_OPT_PLAT:
		if (args->platform)
			return cli_error_set(err, "more than one platform given");
		args->platform = value;
		return CLI_PARSE_OK;
	case STEP_OPT_INPUT:
		if (args->input)
			return cli_error_set(err, "more than one input given");
		args->input = value;
		return CLI_PARSE_OK;
	case CLI_OPT_OUT:
		args->output = value;
		return CLI_PARSE_OK;
	case CLI_OPT_FORMAT:
		if (cli_parse_format(value, &args->format))
			return cli_error_set(err, "unknown format '%s' (table, csv or json)",
					     value);
		return CLI_PARSE_OK;
	case STEP_OPT_VARS:
		args->all_vars = true;
		return CLI_PARSE_OK;
	case STEP_OPT_DETAIL:
		args->detail = true;
		return CLI_PARSE_OK;
	case STEP_OPT_HZ:
		return parse_hz(value, &args->hz, err);
	case STEP_OPT_PARAM:
		return add_param(args, value, err);
	case STEP_OPT_PRINT_INPUT:
		args->print_input = true;
		return CLI_PARSE_OK;
	case STEP_OPT_DIFF:
		args->diff = true;
		return CLI_PARSE_OK;
	case CLI_OPT_POSITIONAL:
		return cli_error_set(err, "unexpected argument '%s' (the script is given with "
					  "--input)",
				     value);
	default:
		return CLI_PARSE_ERROR;
	}
}

int step_parse_args(int argc, char **argv, struct step_args *args, struct cli_error *err)
{
	int ret;

	memset(args, 0, sizeof(*args));
	ret = cli_parse_options(argc, argv, step_opts, CLI_OPT_HELP, step_option, args, err);
	if (ret != CLI_PARSE_OK)
		return ret;
	if (!args->input)
		return cli_error_set(err, "no input given (--input FILE, --input - or --input "
					  "builtin:demo)");
	if (!args->ngov && !args->print_input)
		return cli_error_set(err, "no governor given (-g GOV[,GOV...])");
	if (!args->platform && !args->print_input)
		return cli_error_set(err, "no platform given (-p NAME or -p FILE.plat)");
	if (args->diff && (args->ngov < 2 || args->print_input))
		return cli_error_set(err, "--diff compares governors: give two or more with -g "
					  "A,B");
	if (!strncmp(args->input, builtin_prefix, sizeof(builtin_prefix) - 1) &&
	    !args->input[sizeof(builtin_prefix) - 1])
		return cli_error_set(err, "empty built-in script name in '%s'", args->input);
	return CLI_PARSE_OK;
}

void cmd_step_usage(FILE *out)
{
	fprintf(out, "usage: idlelab step -g GOV[,GOV...] -p PLATFORM --input FILE|-|builtin:NAME\n"
		     "                    [-f table|csv|json] [-o FILE] [--vars] [--detail] [--hz "
		     "HZ]\n"
		     "                    [--param NAME=VALUE] [--diff]\n"
		     "       idlelab step --input FILE|-|builtin:NAME --print-input\n"
		     "\n"
		     "Drive one CPU's governor through a scripted sequence of idle entries, one "
		     "per\n"
		     "input line, and print every decision: the state, stop_tick, what the idle "
		     "loop\n"
		     "did with the tick, the miss (above = too deep, below = too shallow), and "
		     "the\n"
		     "governor's internal values. With several governors, each runs on its own "
		     "CPU\n"
		     "and the decisions are shown side by side. The script format is described in\n"
		     "docs/step.md; 'builtin:demo' is a built-in script.\n"
		     "\n"
		     "  -g, --governor LIST  presets or aliases, comma-separated (see 'idlelab "
		     "governors')\n"
		     "  -p, --platform P     a built-in platform, or a platform file (a path with "
		     "a '/'\n"
		     "                       or ending in .plat; see 'idlelab platforms')\n"
		     "  -i, --input SCRIPT   a script file, '-' for stdin, or builtin:NAME (");
	for (int i = 0; i < il_step_builtin_count(); i++)
		fprintf(out, "%sbuiltin:%s", i ? ", " : "", il_step_builtin_name(i));
	fprintf(out, ")\n"
		     "                       (its times: ns, or with a unit ns, us, ms; a bare "
		     "number\n"
		     "                       is ns, unlike the lab's --time, where it is seconds)\n"
		     "  -f, --format FMT     table (default), csv or json\n"
		     "  -o, --output FILE    write there instead of stdout (only if the run "
		     "succeeds)\n"
		     "      --vars           show every field of each governor's per-CPU data "
		     "(default:\n"
		     "                       only its diagnostic values, such as menu's "
		     "predicted_ns)\n"
		     "      --detail         with several governors, add one table per governor\n"
		     "      --hz HZ          run at this CONFIG_HZ instead of the platform's\n"
		     "      --param N=V      set governor tunable N (e.g. guest_halt_poll_ns=0) on "
		     "every\n"
		     "                       governor that has it\n"
		     "      --diff           with several governors, print only the lines where "
		     "they\n"
		     "                       differ (state, stop_tick, tick action or bypass)\n"
		     "      --print-input    check the script and print it (e.g. to start from\n"
		     "                       builtin:demo); runs nothing\n");
}

/* ---- the run ------------------------------------------------------------------------------ */

struct step_ctx {
	struct step_args args;
	const struct il_preset *presets[STEP_MAX_GOVERNORS];
	struct il_platform *plat;
	struct il_step_script script;
	char *text;
	char input_name[512];
	struct il_step_cpu *cpus[STEP_MAX_GOVERNORS];
	struct il_step_record *recs;
};

static int load_platform(struct step_ctx *c)
{
	struct il_error err;

	c->plat = malloc(sizeof(*c->plat));
	if (!c->plat) {
		fprintf(stderr, "idlelab step: out of memory\n");
		return CLI_EXIT_RUNTIME;
	}
	if (il_platform_load(c->args.platform, c->plat, &err)) {
		if (!il_platform_is_path(c->args.platform))
			return cli_usage_error("step", err.msg);
		fprintf(stderr, "idlelab step: %s\n", err.msg);
		return CLI_EXIT_RUNTIME;
	}
	return CLI_EXIT_OK;
}

static int load_script(struct step_ctx *c)
{
	const char *input = c->args.input;
	struct il_error err;
	size_t len;

	if (!strncmp(input, builtin_prefix, sizeof(builtin_prefix) - 1)) {
		const char *text = il_step_builtin_text(input + sizeof(builtin_prefix) - 1);
		char msg[256];

		if (!text) {
			snprintf(msg, sizeof(msg), "no built-in script '%s'", input);
			return cli_usage_error("step", msg);
		}
		c->text = strdup(text);
		len = strlen(text);
	} else {
		c->text = cli_read_input(input, &len);
		if (!c->text) {
			fprintf(stderr, "idlelab step: %s: cannot read: %s\n", input,
				strerror(errno));
			return CLI_EXIT_RUNTIME;
		}
	}
	snprintf(c->input_name, sizeof(c->input_name), "%s", strcmp(input,
		"-") ? input : "<stdin>");
	if (!c->text || il_step_parse(c->text, len, c->input_name, &c->script, &err)) {
		fprintf(stderr, "idlelab step: %s\n", c->text ? err.msg : "out of memory");
		return CLI_EXIT_RUNTIME;
	}
	return CLI_EXIT_OK;
}

/* Apply every --param to the governors that have that tunable; each must fit at least one. */
static int apply_params(struct step_ctx *c)
{
	for (int i = 0; i < c->args.nparams; i++) {
		char name[128];
		const char *value = strchr(c->args.params[i], '=') + 1;
		size_t nlen = (size_t)(value - 1 - c->args.params[i]);
		bool used = false;

		snprintf(name, sizeof(name), "%.*s", (int)nlen, c->args.params[i]);
		for (int g = 0; g < c->args.ngov; g++) {
			struct il_error err;
			int ret = il_step_cpu_set_param(c->cpus[g], name, value, &err);

			if (ret < 0)
				return cli_usage_error("step", err.msg);
			used |= ret == 0;
		}
		if (!used) {
			char msg[256];

			snprintf(msg, sizeof(msg), "no selected governor has a tunable '%s'", name);
			return cli_usage_error("step", msg);
		}
	}
	return CLI_EXIT_OK;
}

static int start_cpus(struct step_ctx *c)
{
	for (int g = 0; g < c->args.ngov; g++) {
		struct il_error err;

		c->cpus[g] = il_step_cpu_alloc(c->plat, c->args.hz, c->presets[g], &err);
		if (!c->cpus[g]) {
			fprintf(stderr, "idlelab step: %s\n", err.msg);
			return CLI_EXIT_RUNTIME;
		}
	}
	return apply_params(c);
}

/* --diff: whether the governors decided this line alike. */
static bool same_decision(const struct il_step_record *recs, int ngov)
{
	for (int g = 1; g < ngov; g++)
		if (recs[g].index != recs[0].index || recs[g].stop_tick != recs[0].stop_tick ||
		    recs[g].tick_action != recs[0].tick_action ||
		    	recs[g].bypassed != recs[0].bypassed)
			return false;
	return true;
}

static int run_and_render(struct step_ctx *c, char **buf, size_t *len)
{
	struct step_view view = {
		.plat = c->plat,
		.hz = c->args.hz ? c->args.hz : c->plat->hz,
		.tick_nsec = il_step_cpu_tick_nsec(c->cpus[0]),
		.input_name = c->input_name,
		.script = &c->script,
		.ngov = c->args.ngov,
		.presets = c->presets,
		.format = c->args.format,
		.all_vars = c->args.all_vars,
		.detail = c->args.detail,
		.diff_only = c->args.diff,
	};
	struct step_output *out = step_output_start(&view);

	c->recs = calloc((size_t)c->args.ngov, sizeof(*c->recs));
	if (!out || !c->recs) {
		step_output_free(out);
		fprintf(stderr, "idlelab step: out of memory\n");
		return CLI_EXIT_RUNTIME;
	}
	for (size_t i = 0; i < c->script.count; i++) {
		for (int g = 0; g < c->args.ngov; g++) {
			struct il_error err;

			if (il_step_cpu_run(c->cpus[g], &c->script.entries[i], c->input_name,
					    &c->recs[g],
					    &err)) {
				step_output_free(out);
				fprintf(stderr, "idlelab step: %s\n", err.msg);
				return CLI_EXIT_RUNTIME;
			}
		}
		if (!c->args.diff || !same_decision(c->recs, c->args.ngov))
			step_output_row(out, (int)i, c->recs);
	}
	*buf = step_output_finish(out, len);
	if (!*buf) {
		fprintf(stderr, "idlelab step: cannot render the output (out of memory)\n");
		return CLI_EXIT_RUNTIME;
	}
	return CLI_EXIT_OK;
}

static int step_run(struct step_ctx *c)
{
	char *buf = NULL;
	size_t len = 0;
	int ret;

#ifndef HAVE_JANSSON
	if (c->args.format == CLI_FORMAT_JSON) {
		fprintf(stderr, "idlelab step: JSON output needs libjansson (install "
				"libjansson-dev "
				"and rebuild)\n");
		return CLI_EXIT_RUNTIME;
	}
#endif
	if (c->args.print_input) {
		ret = load_script(c);
		if (!ret && cli_write_output(c->args.output, c->text, strlen(c->text)))
			ret = CLI_EXIT_RUNTIME;
		return ret;
	}
	ret = cli_check_output("step", c->args.output, false);
	if (!ret)
		ret = cli_find_presets(c->args.governors, c->args.ngov, c->presets, "step");
	if (!ret)
		ret = load_platform(c);
	if (!ret)
		ret = load_script(c);
	if (!ret)
		ret = start_cpus(c);
	if (!ret)
		ret = run_and_render(c, &buf, &len);
	if (!ret && cli_write_output(c->args.output, buf, len)) {
		char why[CLI_WHY_LEN];

		fprintf(stderr, "%s: cannot write: %s\n",
			c->args.output ? c->args.output : "<stdout>",
			cli_output_strerror(c->args.output, errno, why, sizeof(why)));
		ret = CLI_EXIT_RUNTIME;
	}
	free(buf);
	return ret;
}

static void step_release(void *state)
{
	struct step_ctx *c = state;

	for (int g = 0; g < STEP_MAX_GOVERNORS; g++)
		il_step_cpu_free(c->cpus[g]);
	il_step_script_free(&c->script);
	free(c->recs);
	free(c->text);
	free(c->plat);
}

static int step_parse(int argc, char **argv, void *state, struct cli_error *err)
{
	return step_parse_args(argc, argv, &((struct step_ctx *)state)->args, err);
}

static int step_main(void *state)
{
	return step_run(state);
}

int cmd_step(int argc, char **argv)
{
	static const struct cli_lifecycle lc = {
		.name = "step", .size = sizeof(struct step_ctx), .parse = step_parse,
		.usage = cmd_step_usage, .run = step_main, .release = step_release,
	};

	return cli_main(&lc, argc, argv);
}
