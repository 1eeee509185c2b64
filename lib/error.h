/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * error.h - the library's error type: a message it hands back instead of printing it.
 *
 * The parsers (platform files, step inputs, rt-app files, scenario specs) report where
 * the problem is, compiler-style: "FILE:LINE: message". The library fills a struct il_error
 * and returns -1; only the CLI prints it.
 */
#ifndef IDLELAB_ERROR_H
#define IDLELAB_ERROR_H

#define IL_ERROR_LEN 512

/*
 * What the caller could give to get past an error, in the library's terms: the message says
 * what is missing, and the front end words the remedy as its own option (the library names
 * no command-line flag).
 */
enum il_error_need {
	IL_NEED_NOTHING = 0,
	IL_NEED_HZ,      /* a CONFIG_HZ the source does not give (struct il_live_export.hz) */
	IL_NEED_ONE_CPU, /* one CPU's table rather than all of them (struct il_live_export.cpu) */
	IL_NEED_ALLOW_MISSING, /* leave out what this machine lacks (il_live_measure_opts) */
	IL_NEED_USER,    /* the user to run a command as (il_live_measure_opts.user) */
	IL_NEED_TREE,    /* the top directory of a kernel tree (il_review_patch_apply()'s tree) */
	IL_NEED_PRESET,  /* a preset for the base file's framework (il_kgov_framework_query.as) */
	/* and in a note, what the caller could give to change what was done: */
	IL_NEED_ROOT_USER,    /* "root" as the user (il_live_measure_opts.user) */
	IL_NEED_TRACE_BUFFER, /* a larger trace buffer (il_live_measure_opts.trace_buffer_kb) */
};

/*
 * Which of the caller's settings an error is about, in the library's terms (the fields of
 * struct il_live_measure_opts): the front end names it as its own option.
 */
enum il_error_input {
	IL_INPUT_NONE = 0,
	IL_INPUT_CPUS,    /* the CPUs to measure (.cpus) */
	IL_INPUT_DISABLE, /* the idle states to disable (.disable) */
	IL_INPUT_METRIC,  /* a metric read from the command's output (.metrics) */
	IL_INPUT_TRACE,   /* the trace to record (.trace) */
	IL_INPUT_USER,    /* the user to run the command as (.user) */
};

struct il_error {
	char msg[IL_ERROR_LEN]; /* "FILE:LINE: message", or "FILE: message" when no line applies */
	int line;               /* 1-based line of the problem, 0 if none */
	enum il_error_need need; /* set by il_error_need(); il_error_set() clears it */
	enum il_error_input about; /* set by il_error_input(); il_error_set() clears it */
};

/**
 * il_error_set - fill @err with "FILE:LINE: message"
 * @err: the error to fill (may be NULL: nothing is written)
 * @file: the name to show for the input ("platforms/skx.plat", "builtin:demo", "<stdin>"),
 *        or NULL for a message that names none (the caller knows the input and adds it)
 * @line: the 1-based line, or 0 to leave the line out
 * @fmt: printf-style message
 *
 * Return: -1, so that a parser can write "return il_error_set(...)".
 */
int il_error_set(struct il_error *err, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/**
 * il_error_need - say what the caller could give to get past the error @err holds
 * @err: an error filled by il_error_set() (may be NULL)
 * @need: what is missing
 *
 * Return: -1, so that a function can write "return il_error_need(...)" after il_error_set().
 */
int il_error_need(struct il_error *err, enum il_error_need need);

/**
 * il_error_input - fill @err with a message about the caller's setting @about, naming no
 * file (the front end puts the setting's name before it)
 * @err: the error to fill (may be NULL: nothing is written)
 * @about: the setting
 * @fmt: printf-style message
 *
 * Return: -1, so that a function can write "return il_error_input(...)".
 */
int il_error_input(struct il_error *err, enum il_error_input about, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* IDLELAB_ERROR_H */
