// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_states.c - `idlelab states`: this machine's cpuidle driver, governors and, per CPU and
 * state, the sysfs settings and counters (cpupower idle-info plus above/below/rejected);
 * --export writes the state table as a platform file that -p loads.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_opts.h"
#include "commands.h"
#include "live/live.h"
#include "output/output.h"
#include "util/parse.h"

enum {
	STATES_OPT_ROOT = 1, STATES_OPT_EXPORT, STATES_OPT_NAME, STATES_OPT_HZ,
	STATES_OPT_CPU, STATES_OPT_DUMP, STATES_OPT_DIFF,
};

static const struct cli_opt states_opts[] = {
	CLI_OPTS_HELP,
	{ STATES_OPT_ROOT, 0, "root", true },
	{ STATES_OPT_EXPORT, 0, "export", true },
	{ STATES_OPT_NAME, 0, "name", true },
	{ STATES_OPT_HZ, 0, "hz", true },
	{ STATES_OPT_CPU, 0, "cpu", true },
	CLI_OPTS_FORMAT,
	{ STATES_OPT_DUMP, 0, "dump", true },
	{ STATES_OPT_DIFF, 0, "diff", false },
	{ 0 },
};

struct states_args {
	const char *root;
	const char *export_file;
	const char *name;
	unsigned int hz;
	int cpu;
	const char *format;
	const char *dump;
	bool diff;
	const char *snap[2]; /* --diff BEFORE AFTER */
	int nsnap;
};

void cmd_states_usage(FILE *out)
{
	fprintf(out,
		"usage: idlelab states [--root DIR | --dump FILE] [-f FORMAT]\n"
		"                      [--export FILE [--name NAME] [--hz HZ] [--cpu N]]\n"
		"       idlelab states --diff BEFORE AFTER [-f FORMAT]\n"
		"\n"
		"Show the cpuidle driver and governors of this machine and, per CPU and idle "
		"state,\n"
		"what sysfs says: name, desc, latency and residency (us), disable, default_status "
		"and\n"
		"the counters usage, time (us), above, below and rejected. A file the kernel does "
		"not\n"
		"have is shown as '-'; an offline CPU, or one without a cpuidle directory (no "
		"driver),\n"
		"is listed as such. Reading needs no privileges.\n"
		"\n"
		"  --root DIR       read DIR/sys/... instead of /sys/... (a fixture tree)\n"
		"  --dump FILE      read a sysfs dump instead: the text of `grep -r .\n"
		"                   /sys/devices/system/cpu/cpu*/cpuidle "
		"/sys/devices/system/cpu/cpuidle`\n"
		"                   (docs/measure.md); a CONFIG_HZ=N line in it gives --export its "
		"HZ\n"
		"  --diff BEFORE AFTER\n"
		"                   the counter deltas between two snapshots (dumps or "
		"directories\n"
		"                   that hold sys/): usage, time, above, below, rejected, miss "
		"ratio\n"
		"                   and share of idle time, per CPU and state and per state in "
		"total\n"
		"  -f, --format FMT table (default), tsv, csv or json\n"
		"  --export FILE    also write the state table as a platform file "
		"(docs/platforms.md)\n"
		"                   that '-p FILE' loads; written whole or not at all\n"
		"  --name NAME      the exported platform's name (default: FILE's name without "
		".plat)\n"
		"  --hz HZ          CONFIG_HZ for the export (default: from "
		"DIR/boot/config-RELEASE or\n"
		"                   DIR/proc/config.gz, or the dump's CONFIG_HZ line)\n"
		"  --cpu N          export CPU N's states (default: the first CPU with a cpuidle "
		"directory)\n");
}

/* Base 10, no sign, overflow refused: lib/util/parse.h, as every command. */
static int parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	uint64_t v;

	if (il_parse_count(s, 0, max, &v))
		return -1;
	*out = (unsigned long)v;
	return 0;
}

static int states_option(int id, const char *value, struct states_args *args, struct cli_error *err)
{
	unsigned long v;

	switch (id) {
	case STATES_OPT_ROOT:
		args->root = value;
		return CLI_PARSE_OK;
	case STATES_OPT_EXPORT:
		args->export_file = value;
		return CLI_PARSE_OK;
	case STATES_OPT_DUMP:
		args->dump = value;
		return CLI_PARSE_OK;
	case STATES_OPT_DIFF:
		args->diff = true;
		return CLI_PARSE_OK;
	case STATES_OPT_NAME:
		args->name = value;
		return CLI_PARSE_OK;
	case STATES_OPT_HZ:
		if (il_parse_tick_hz(value, &args->hz))
			return cli_error_set(err, "--hz: '%s' is not a CONFIG_HZ (100, 250, 300, "
						  "1000)", value);
		return CLI_PARSE_OK;
	case STATES_OPT_CPU:
		if (parse_uint(value, IL_LIVE_CPUS_MAX - 1, &v))
			return cli_error_set(err, "--cpu: '%s' is not a CPU number", value);
		args->cpu = (int)v;
		return CLI_PARSE_OK;
	case CLI_OPT_FORMAT:
		return cli_opt_format(value, &args->format, err);
	default:
		return cli_error_set(err, "unexpected argument");
	}
}

static int states_parse_args(int argc, char **argv, struct states_args *args, struct cli_error *err)
{
	struct cli_scan s;
	const char *value;
	int id;

	memset(args, 0, sizeof(*args));
	args->cpu = -1;
	args->format = "table";
	cli_scan_init(&s, argc, argv);
	while ((id = cli_next_opt(&s, states_opts, &value, err)) != CLI_OPT_END) {
		if (id == CLI_PARSE_ERROR)
			return CLI_PARSE_ERROR;
		if (id == CLI_OPT_HELP)
			return CLI_PARSE_HELP;
		if (id == CLI_OPT_POSITIONAL) {
			if (!args->diff || args->nsnap == 2)
				return cli_error_set(err, "unexpected argument '%s'", value);
			args->snap[args->nsnap++] = value;
			continue;
		}
		if (states_option(id, value, args, err))
			return CLI_PARSE_ERROR;
	}
	if (args->root && args->dump)
		return cli_error_set(err, "--root and --dump are two sources: give one");
	if (args->diff && (args->root || args->dump || args->export_file))
		return cli_error_set(err, "--diff takes its two snapshots as arguments, without "
				     "--root, --dump or --export");
	if (args->diff && args->nsnap != 2)
		return cli_error_set(err, "--diff needs two snapshots: BEFORE AFTER (dumps or "
				     "directories)");
	if (!args->export_file && (args->name || args->hz || args->cpu >= 0))
		return cli_error_set(err, "--name, --hz and --cpu go with --export");
	return CLI_PARSE_OK;
}

/* ---- --export -------------------------------------------------------------------------------- */

/* "dir/vm.plat" -> "vm" when that is a valid platform name, else NULL (use the default). */
static const char *name_from_file(const char *file, char *buf, size_t cap)
{
	const char *base = strrchr(file, '/');
	size_t len;

	base = base ? base + 1 : file;
	len = strlen(base);
	if (len > 5 && !strcmp(base + len - 5, ".plat"))
		len -= 5;
	if (!len || len >= cap)
		return NULL;
	for (size_t i = 0; i < len; i++)
		if (!((base[i] >= 'a' && base[i] <= 'z') || (base[i] >= 'A' && base[i] <= 'Z') ||
		      (base[i] >= '0' && base[i] <= '9') || base[i] == '-' || base[i] == '_' ||
		      base[i] == '.'))
			return NULL;
	memcpy(buf, base, len);
	buf[len] = '\0';
	return buf;
}

static int do_export(const struct il_live *lv, const struct states_args *args)
{
	struct il_live_export opt = { .name = args->name, .hz = args->hz, .cpu = args->cpu };
	char name[32], warning[256], hz_given[64];
	struct il_error err = { 0 };
	size_t len;
	char *text;

	if (!opt.name)
		opt.name = name_from_file(args->export_file, name, sizeof(name));
	snprintf(hz_given, sizeof(hz_given), "given on the command line (--hz %u)", args->hz);
	opt.hz_given = hz_given;
	text = il_live_export_platform(lv, &opt, &len, warning, sizeof(warning), &err);
	if (!text) {
		fprintf(stderr, "idlelab states: --export: %s%s\n", err.msg,
			cli_remedy(err.need));
		return -1;
	}
	/* The only warning is of CPUs whose tables differ: another CPU can be chosen. */
	if (warning[0])
		fprintf(stderr, "idlelab states: warning: %s, choose another with --cpu\n",
			warning);
	if (cli_write_output(args->export_file, text, len)) {
		char why[CLI_WHY_LEN];

		fprintf(stderr, "idlelab states: cannot write %s: %s\n", args->export_file,
			cli_output_strerror(args->export_file, errno, why, sizeof(why)));
		free(text);
		return -1;
	}
	free(text);
	fprintf(stderr, "idlelab states: wrote %s (load it with -p %s)\n", args->export_file,
		args->export_file);
	return 0;
}

/* RAPL zones under the root; a dump has none (powercap is not in it). */
static int open_energy(const struct il_live *lv, struct il_live_rapl *rapl, struct il_error *err)
{
	if (!lv->dump)
		return il_live_rapl_open(lv, rapl, err);
	memset(rapl, 0, sizeof(*rapl));
	rapl->status = IL_RAPL_ABSENT;
	snprintf(rapl->why, sizeof(rapl->why), "a sysfs dump of cpuidle holds no powercap");
	return 0;
}

static int write_tables(const struct il_output_format *fmt, const struct il_table *const *tables,
			int n)
{
	if (fmt->write(stdout, tables, n) || fflush(stdout)) {
		fprintf(stderr, "idlelab states: cannot write the output: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/* --diff BEFORE AFTER: both read whole before anything is printed. */
static int states_diff(const struct states_args *args, const struct il_output_format *fmt)
{
	struct il_table per_cpu = { 0 }, total = { 0 };
	const struct il_table *tables[2] = { &per_cpu, &total };
	struct il_live_dump *dump[2] = { NULL, NULL };
	struct il_live *lv = calloc(2, sizeof(*lv));
	struct il_error err;
	int ret = CLI_EXIT_RUNTIME;

	if (!lv) {
		fprintf(stderr, "idlelab states: out of memory\n");
		return ret;
	}
	if (il_live_open_source(&lv[0], args->snap[0], &dump[0], &err) ||
	    il_live_open_source(&lv[1], args->snap[1], &dump[1], &err) ||
	    il_live_states_diff(&lv[0], &lv[1], &per_cpu, &total, &err)) {
		fprintf(stderr, "idlelab states: %s\n", err.msg);
		goto out;
	}
	if (write_tables(fmt, tables, 2))
		goto out;
	ret = CLI_EXIT_OK;
out:
	il_table_free(&per_cpu);
	il_table_free(&total);
	il_live_dump_free(dump[0]);
	il_live_dump_free(dump[1]);
	free(lv);
	return ret;
}

static int states_parse(int argc, char **argv, void *state, struct cli_error *err)
{
	return states_parse_args(argc, argv, state, err);
}

static int states_main(void *state)
{
	struct states_args *args = state;
	struct il_table info = { 0 }, states = { 0 };
	const struct il_table *tables[2] = { &info, &states };
	const struct il_output_format *fmt;
	struct il_live_cpuidle ci;
	struct il_live_rapl *rapl = NULL;
	struct il_live_dump *dump = NULL;
	struct il_error err;
	struct il_live lv;
	int ret = CLI_EXIT_RUNTIME;

	fmt = il_output_find(args->format);
	if (!fmt->available) {
		fprintf(stderr, "idlelab states: format %s: %s\n", fmt->name, fmt->missing);
		return CLI_EXIT_RUNTIME;
	}
	if (args->diff)
		return states_diff(args, fmt);
	rapl = malloc(sizeof(*rapl));
	if (!rapl) {
		fprintf(stderr, "idlelab states: out of memory\n");
		return CLI_EXIT_RUNTIME;
	}
	if ((args->dump ? il_live_open_source(&lv, args->dump, &dump, &err)
			: il_live_init(&lv, args->root, &err)) ||
	    il_live_read_cpuidle(&lv, &ci, &err) || open_energy(&lv, rapl, &err)) {
		fprintf(stderr, "idlelab states: %s\n", err.msg);
		goto out;
	}
	if (il_live_info_table(&info, &lv, &ci, rapl)) {
		fprintf(stderr, "idlelab states: out of memory\n");
		goto out;
	}
	if (il_live_sysfs_states_table(&states, &lv, &err)) {
		fprintf(stderr, "idlelab states: %s\n", err.msg);
		goto out;
	}
	if (args->export_file && do_export(&lv, args))
		goto out;
	if (write_tables(fmt, tables, 2))
		goto out;
	ret = CLI_EXIT_OK;
out:
	il_table_free(&info);
	il_table_free(&states);
	free(rapl);
	il_live_dump_free(dump);
	return ret;
}

int cmd_states(int argc, char **argv)
{
	static const struct cli_lifecycle lc = {
		.name = "states", .size = sizeof(struct states_args), .parse = states_parse,
		.usage = cmd_states_usage, .run = states_main,
	};

	return cli_main(&lc, argc, argv);
}
