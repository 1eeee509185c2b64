// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli.c - option scanning and output helpers shared by the subcommands.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "output/output.h"
#include "util/atomic.h"
#include "util/array.h"

int cli_error_set(struct cli_error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return CLI_PARSE_ERROR;
}

static const char *const format_names[] = {
	[CLI_FORMAT_TABLE] = "table",
	[CLI_FORMAT_CSV] = "csv",
	[CLI_FORMAT_JSON] = "json",
};

int cli_parse_format(const char *s, enum cli_format *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(format_names); i++) {
		if (!strcmp(s, format_names[i])) {
			*out = (enum cli_format)i;
			return 0;
		}
	}
	return -1;
}

const char *cli_format_name(enum cli_format format)
{
	return format_names[format];
}

void cli_scan_init(struct cli_scan *s, int argc, char **argv)
{
	s->argc = argc;
	s->argv = argv;
	s->i = 1;
	s->only_positional = false;
}

static const struct cli_opt *find_long(const struct cli_opt *opts, const char *name, size_t len)
{
	for (; opts->id; opts++)
		if (opts->long_name && strlen(opts->long_name) == len &&
		    !strncmp(opts->long_name, name, len))
			return opts;
	return NULL;
}

static const struct cli_opt *find_short(const struct cli_opt *opts, char c)
{
	for (; opts->id; opts++)
		if (opts->short_name && opts->short_name == c)
			return opts;
	return NULL;
}

/* The value of an option that takes one: the rest of this argument or the next argument. */
static int option_value(struct cli_scan *s, const char *attached, const char *shown,
			const char **value, struct cli_error *err)
{
	if (attached) {
		*value = attached;
		return 0;
	}
	if (s->i >= s->argc)
		return cli_error_set(err, "option '%s' needs a value", shown);
	*value = s->argv[s->i++];
	return 0;
}

static int scan_long(struct cli_scan *s, const char *arg, const struct cli_opt *opts,
		     const char **value, struct cli_error *err)
{
	const char *name = arg + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct cli_opt *o = find_long(opts, name, len);

	if (!o)
		return cli_error_set(err, "unknown option '--%.*s'", (int)len, name);
	if (!o->has_arg) {
		if (eq)
			return cli_error_set(err, "option '--%s' takes no value", o->long_name);
		return o->id;
	}
	if (option_value(s, eq ? eq + 1 : NULL, arg, value, err))
		return CLI_PARSE_ERROR;
	return o->id;
}

static int scan_short(struct cli_scan *s, const char *arg, const struct cli_opt *opts,
		      const char **value, struct cli_error *err)
{
	const struct cli_opt *o = find_short(opts, arg[1]);
	char shown[3] = { '-', arg[1], '\0' };

	if (!o)
		return cli_error_set(err, "unknown option '%s'", shown);
	if (!o->has_arg) {
		if (arg[2])
			return cli_error_set(err, "unknown option '%s' (flags cannot be combined)",
					     arg);
		return o->id;
	}
	if (option_value(s, arg[2] ? arg + 2 : NULL, shown, value, err))
		return CLI_PARSE_ERROR;
	return o->id;
}

int cli_next_opt(struct cli_scan *s, const struct cli_opt *opts, const char **value,
		 struct cli_error *err)
{
	const char *arg;

	if (s->i >= s->argc)
		return CLI_OPT_END;
	arg = s->argv[s->i++];
	if (!s->only_positional && !strcmp(arg, "--")) {
		s->only_positional = true;
		return cli_next_opt(s, opts, value, err);
	}
	if (s->only_positional || arg[0] != '-' || !arg[1]) {
		*value = arg;
		return CLI_OPT_POSITIONAL;
	}
	if (arg[1] == '-')
		return scan_long(s, arg, opts, value, err);
	return scan_short(s, arg, opts, value, err);
}

int cli_parse_options(int argc, char **argv, const struct cli_opt *opts, int help_id,
		      int (*option)(void *state, int id, const char *value, struct cli_error *err),
		      void *state, struct cli_error *err)
{
	struct cli_scan s;
	const char *value = NULL;
	int id;

	cli_scan_init(&s, argc, argv);
	while ((id = cli_next_opt(&s, opts, &value, err)) != CLI_OPT_END) {
		if (id == CLI_PARSE_ERROR)
			return CLI_PARSE_ERROR;
		if (id == help_id)
			return CLI_PARSE_HELP;
		switch (option(state, id, value, err)) {
		case CLI_PARSE_OK:
			break;
		case CLI_PARSE_STOP:
			return CLI_PARSE_OK;
		default:
			return CLI_PARSE_ERROR;
		}
	}
	return CLI_PARSE_OK;
}

int cli_main(const struct cli_lifecycle *cmd, int argc, char **argv)
{
	void *state = calloc(1, cmd->size);
	struct cli_error err;
	int ret;

	if (!state) {
		fprintf(stderr, "idlelab %s: %s\n", cmd->name, strerror(ENOMEM));
		return CLI_EXIT_RUNTIME;
	}
	switch (cmd->parse(argc, argv, state, &err)) {
	case CLI_PARSE_ERROR:
		ret = cli_usage_error(cmd->name, err.msg);
		break;
	case CLI_PARSE_HELP:
		cmd->usage(stdout);
		ret = CLI_EXIT_OK;
		break;
	default:
		ret = cmd->run(state);
	}
	if (cmd->release)
		cmd->release(state);
	free(state);
	return ret;
}

/* Below cli_opts.h (which includes this file's header): its own two entries. */
enum { LISTING_OPT_HELP = 1, LISTING_OPT_FORMAT };

static const struct cli_opt listing_opts[] = {
	{ LISTING_OPT_HELP, 'h', "help", false },
	{ LISTING_OPT_FORMAT, 'f', "format", true },
	{ 0 },
};

int cli_parse_listing_args(int argc, char **argv, enum cli_format *format, const char **positional,
			   const char *what, struct cli_error *err)
{
	struct cli_scan s;
	const char *value;
	int id;

	cli_scan_init(&s, argc, argv);
	while ((id = cli_next_opt(&s, listing_opts, &value, err)) != CLI_OPT_END) {
		switch (id) {
		case CLI_PARSE_ERROR:
			return CLI_PARSE_ERROR;
		case LISTING_OPT_HELP:
			return CLI_PARSE_HELP;
		case LISTING_OPT_FORMAT:
			if (cli_parse_format(value, format))
				return cli_error_set(err, "unknown format '%s' (table, csv or "
							  "json)", value);
			break;
		case CLI_OPT_POSITIONAL:
			if (!positional)
				return cli_error_set(err, "unexpected argument '%s'", value);
			if (*positional)
				return cli_error_set(err, "more than one %s given", what);
			*positional = value;
			break;
		}
	}
	return CLI_PARSE_OK;
}

int cli_usage_error(const char *cmd, const char *msg)
{
	if (cmd)
		fprintf(stderr, "idlelab %s: %s\nTry 'idlelab help %s'.\n", cmd, msg, cmd);
	else
		fprintf(stderr, "idlelab: %s\nTry 'idlelab --help'.\n", msg);
	return CLI_EXIT_USAGE;
}

void cli_warn(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "idlelab %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

char *cli_read_input(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t cap = 65536, n = 0;
	char *buf;

	if (!f)
		return NULL;
	errno = 0;
	buf = malloc(cap + 1);
	while (buf) {
		size_t got = fread(buf + n, 1, cap - n, f);

		n += got;
		if (n < cap)
			break;
		cap *= 2;
		char *bigger = realloc(buf, cap + 1);

		if (!bigger)
			free(buf);
		buf = bigger;
	}
	if (buf && ferror(f)) {
		int saved = errno ? errno : EIO; /* fread() left the reason, e.g. EISDIR */

		free(buf);
		buf = NULL;
		errno = saved;
	}
	if (f != stdin)
		fclose(f);
	if (!buf)
		return NULL;
	buf[n] = '\0';
	*len = n;
	return buf;
}

const char *cli_ns_to_us(long long ns, char *buf, size_t cap)
{
	return il_ns_us_text(ns, buf, cap);
}

static int write_all(FILE *f, const char *data, size_t len)
{
	if (len && fwrite(data, 1, len, f) != len)
		return -1;
	return fflush(f);
}

const char *cli_output_strerror(const char *path, int err, char *buf, size_t cap)
{
	if (!path || !strcmp(path, "-"))
		return strerror(err);
	return il_atomic_strerror(path, err, buf, cap);
}

int cli_check_output(const char *cmd, const char *path, bool is_dir)
{
	char probe[4096], why[CLI_WHY_LEN];
	struct stat st;

	if (!path || !strcmp(path, "-"))
		return CLI_EXIT_OK;
	/* An existing directory is probed inside, a directory still to be made next to it. */
	if (is_dir && !stat(path, &st) && S_ISDIR(st.st_mode)) {
		if ((size_t)snprintf(probe, sizeof(probe), "%s/probe", path) >= sizeof(probe)) {
			errno = ENAMETOOLONG;
			goto fail;
		}
	} else if (is_dir && !stat(path, &st)) {
		errno = ENOTDIR;
		goto fail;
	} else {
		snprintf(probe, sizeof(probe), "%s", path);
	}
	if (!il_atomic_probe(probe))
		return CLI_EXIT_OK;
	fprintf(stderr, "idlelab %s: cannot write %s: %s (checked before running anything)\n", cmd,
		path, cli_output_strerror(probe, errno, why, sizeof(why)));
	return CLI_EXIT_RUNTIME;
fail:
	fprintf(stderr, "idlelab %s: cannot write %s: %s (checked before running anything)\n", cmd,
		path, strerror(errno));
	return CLI_EXIT_RUNTIME;
}

int cli_write_output(const char *path, const char *data, size_t len)
{
	if (!path || !strcmp(path, "-"))
		return write_all(stdout, data, len);
	return il_atomic_write(path, data, len);
}

int cli_write_formatted(const char *cmd, const char *path,
			int (*format)(FILE *out, const void *ctx), const void *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int ret;

	if (!mem) {
		cli_warn(cmd, "out of memory");
		return -1;
	}
	ret = format(mem, ctx);
	if (fclose(mem) && !ret)
		ret = 1;
	if (ret > 0) {
		cli_warn(cmd, "cannot format the results: %s", strerror(errno));
	} else if (!ret && cli_write_output(path, buf, len)) {
		char why[CLI_WHY_LEN];

		cli_warn(cmd, "cannot write %s: %s", path ? path : "the results",
			 cli_output_strerror(path, errno, why, sizeof(why)));
		ret = -1;
	}
	free(buf);
	return ret ? -1 : 0;
}
