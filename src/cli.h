/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli.h - what the idlelab subcommands share: exit codes, option scanning, argument structs
 * and their pure parsers, output helpers.
 *
 * DOC: the command line
 *
 *  1. src/commands.h lists the subcommands (one line each); src/commands.c turns the list
 *     into the dispatch table and the usage text; src/idlelab.c is main() and nothing else.
 *  2. Every subcommand FOO has a pure parser, foo_parse_args(argc, argv, &args, &err): no
 *     I/O, no exit, so tests/unit/test_cli.c can check every option. It returns CLI_PARSE_OK,
 *     CLI_PARSE_HELP (print the command's usage, exit 0) or CLI_PARSE_ERROR (err says why,
 *     exit 2).
 *  3. Only the CLI prints and exits. Exit codes: 0 success, 1 runtime or input error (a
 *     file that cannot be read, a bad platform file or step script, a run that failed), 2
 *     usage error (bad option, missing argument, and any bad value given on the command
 *     line: an unknown command, governor, built-in platform, scenario, metric or format, a
 *     malformed number), 3 a verdict or threshold failed (--fail-on), 128+N killed by
 *     signal N (idlelab(1), idlelab --help; tests/cli/exit-status.t).
 *  4. The lifecycle is cli_main()'s (struct cli_lifecycle): a command file gives its parser,
 *     usage and run steps; the options shared by several commands are in cli_opts.h.
 */
#ifndef IDLELAB_CLI_H
#define IDLELAB_CLI_H

#include <stdbool.h>
#include <stdio.h>

#ifndef IDLELAB_VERSION
#define IDLELAB_VERSION "0.1.0"
#endif

enum cli_exit {
	CLI_EXIT_OK = 0,
	CLI_EXIT_RUNTIME = 1,
	CLI_EXIT_USAGE = 2,
};

enum cli_parse {
	CLI_PARSE_ERROR = -1,
	CLI_PARSE_OK = 0,
	CLI_PARSE_HELP = 1,
	/* from an option handler of cli_parse_options(): the rest is not ours */
	CLI_PARSE_STOP = 2,
};

#define CLI_ERROR_LEN 512

struct cli_error {
	char msg[CLI_ERROR_LEN];
};

/** cli_error_set - fill @err; Return: CLI_PARSE_ERROR */
int cli_error_set(struct cli_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

enum cli_format {
	CLI_FORMAT_TABLE,
	CLI_FORMAT_CSV,
	CLI_FORMAT_JSON,
};

/** cli_parse_format - "table", "csv" or "json"; Return: 0, or -1 for anything else */
int cli_parse_format(const char *s, enum cli_format *out);
const char *cli_format_name(enum cli_format format);

/* ---- option scanning ------------------------------------------------------------------- */

struct cli_opt {
	int id;              /* returned by cli_next_opt(); > 0 */
	char short_name;     /* 0 if none */
	const char *long_name; /* without "--"; NULL if none */
	bool has_arg;
};

#define CLI_OPT_END 0          /* no more arguments */
#define CLI_OPT_POSITIONAL (-2) /* a non-option argument, in *value */

struct cli_scan {
	int argc;
	char **argv;
	int i;               /* next argument; starts at 1 (argv[0] is the command) */
	bool only_positional; /* after "--" */
};

void cli_scan_init(struct cli_scan *s, int argc, char **argv);

/**
 * cli_next_opt - the next option of argv: "-x VALUE", "-xVALUE", "--long VALUE",
 * "--long=VALUE", or a positional argument; "--" ends the options
 * Return: the option's id, CLI_OPT_POSITIONAL, CLI_OPT_END, or CLI_PARSE_ERROR (unknown
 * option, missing value, value given to a flag).
 */
int cli_next_opt(struct cli_scan *s, const struct cli_opt *opts, const char **value,
		 struct cli_error *err);

/**
 * cli_parse_options - the option loop of every parser: scan @argv with @opts and give each
 * option and each positional argument (id CLI_OPT_POSITIONAL) to @option, in order
 * Return: CLI_PARSE_HELP at option @help_id (-h, --help), CLI_PARSE_ERROR at the first
 * scanning error or option that @option refuses (@err says why), else CLI_PARSE_OK; also
 * CLI_PARSE_OK when @option returns CLI_PARSE_STOP, which ends the scan there (measure's
 * CMD [ARGS...]: the first positional and all after it are the command's, found in argv
 * by the pointer @value).
 */
int cli_parse_options(int argc, char **argv, const struct cli_opt *opts, int help_id,
		      int (*option)(void *state, int id, const char *value, struct cli_error *err),
		      void *state, struct cli_error *err);

/*
 * struct cli_lifecycle - one command's steps, for cli_main(), which owns the rest: allocate
 * @size zeroed bytes of state, @parse (pure), the usage error (exit 2) or @usage (exit 0) it
 * asks for, else @run, then @release and free. So a command file holds only its own steps.
 */
struct cli_lifecycle {
	const char *name;  /* the command: "idlelab NAME: ..." in its messages */
	size_t size;       /* of its state */
	int (*parse)(int argc, char **argv, void *state, struct cli_error *err); /* CLI_PARSE_* */
	void (*usage)(FILE *out);
	int (*run)(void *state);       /* the exit code */
	void (*release)(void *state);  /* what parse or run left to free in @state, or NULL */
};

/** cli_main - run the command @cmd with @argc/@argv; Return: its exit code */
int cli_main(const struct cli_lifecycle *cmd, int argc, char **argv);

/* ---- the subcommands' arguments ----------------------------------------------------------- */

struct governors_args {
	enum cli_format format;
};

struct platforms_args {
	enum cli_format format;
	const char *platform; /* one platform to show in detail, or NULL for the list */
};

#define STEP_MAX_GOVERNORS 256
#define STEP_MAX_PARAMS 16
#define STEP_GOV_LIST_LEN 8192

struct step_args {
	int ngov;
	const char *governors[STEP_MAX_GOVERNORS]; /* preset or alias names, in order */
	char gov_buf[STEP_GOV_LIST_LEN];           /* storage for governors[] */
	size_t gov_buf_used;
	const char *platform;  /* -p: built-in name or path */
	const char *input;     /* --input: path, "-" or "builtin:NAME" */
	const char *output;    /* -o: path, NULL for stdout */
	enum cli_format format;
	bool all_vars;         /* --vars */
	bool detail;           /* --detail: per-governor tables after the side-by-side table */
	bool print_input;      /* --print-input: print the script (after checking it), run
				  nothing */
	bool diff;             /* --diff: only the lines where the governors decide differently */
	unsigned int hz;       /* --hz, 0: the platform's */
	int nparams;
	const char *params[STEP_MAX_PARAMS]; /* --param NAME=VALUE */
};

struct help_args {
	const char *command; /* NULL: the overview */
	const char *complete;     /* --complete WHAT: a list for completion (src/complete.h) */
	const char *complete_arg; /* its argument (params SCENARIO) */
};

/* What main() does with the global arguments. */
enum global_action {
	GLOBAL_USAGE_ERROR, /* no command, or an unknown global option */
	GLOBAL_HELP,
	GLOBAL_VERSION,
	GLOBAL_COMMAND,
};

struct global_args {
	enum global_action action;
	int command;       /* index in the command table for GLOBAL_COMMAND */
	int argc;          /* the command's argc/argv (argv[0] is the command name) */
	char **argv;
};

/**
 * cli_parse_listing_args - the options of a command that lists things: -h, -f FORMAT into
 * *@format and, when @positional is not NULL, at most one argument (a @what) into it;
 * without @positional any argument is an error
 */
int cli_parse_listing_args(int argc, char **argv, enum cli_format *format, const char **positional,
			   const char *what, struct cli_error *err);
int global_parse_args(int argc, char **argv, struct global_args *args, struct cli_error *err);
int governors_parse_args(int argc, char **argv, struct governors_args *args, struct cli_error *err);
int platforms_parse_args(int argc, char **argv, struct platforms_args *args, struct cli_error *err);
int step_parse_args(int argc, char **argv, struct step_args *args, struct cli_error *err);
int help_parse_args(int argc, char **argv, struct help_args *args, struct cli_error *err);

/* ---- helpers for the commands (these do I/O) ------------------------------------------------ */

/** cli_usage_error - print "idlelab CMD: MSG" and a hint to stderr; Return: CLI_EXIT_USAGE */
int cli_usage_error(const char *cmd, const char *msg);

/** cli_warn - print "idlelab CMD: " and the message of @fmt on a line of its own to stderr */
void cli_warn(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * cli_read_input - read all of @path ("-" is stdin) into a malloc'ed, NUL-terminated buffer
 * Return: the buffer (length in *@len), or NULL with errno set.
 */
char *cli_read_input(const char *path, size_t *len);

/** cli_ns_to_us - exact µs text of @ns ("1995", "2.5", "-0.001") into @buf */
const char *cli_ns_to_us(long long ns, char *buf, size_t cap);

/**
 * cli_write_output - write @len bytes of @data to @path (NULL or "-": stdout); a file is
 * written through il_atomic_write() (lib/util/atomic.h: an mkostemp() temporary, renamed),
 * so it either appears whole or not at all
 * Return: 0, or -1 with errno set.
 */
int cli_write_output(const char *path, const char *data, size_t len);

#define CLI_WHY_LEN 512

/**
 * cli_output_strerror - why writing the output @path failed with @err, naming the real
 * problem (lib/util/atomic.h il_atomic_strerror(): a directory, a directory that takes no
 * new files, a protected symbolic link); strerror(@err) for stdout. Written into @buf.
 */
const char *cli_output_strerror(const char *path, int err, char *buf, size_t cap);

/**
 * cli_write_formatted - what @format(@out, @ctx) writes, formatted in memory first, then
 * written by cli_write_output() to @path: a failure leaves no partial output. @format
 * returns 0, 1 when writing to @out failed, or -1 when it failed and said why.
 * Says why @cmd failed on stderr. Return: 0 or -1.
 */
int cli_write_formatted(const char *cmd, const char *path,
			int (*format)(FILE *out, const void *ctx), const void *ctx);

/**
 * cli_check_output - before any work: can @cmd write its output @path (a file; with @is_dir a
 * directory, which may not exist yet)? Says why not on stderr. NULL or "-" is stdout: yes.
 * Return: CLI_EXIT_OK, or CLI_EXIT_RUNTIME after printing the reason.
 */
int cli_check_output(const char *cmd, const char *path, bool is_dir);

#endif /* IDLELAB_CLI_H */
