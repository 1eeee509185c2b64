/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli_opts.h - the option values and names every command that runs the lab shares: counts,
 * durations and lists, the options of the same letter in every command (-t, --seed, -n, -j,
 * -f), and looking up the governors, platforms and scenarios they name. Below the commands
 * and their shared front ends (lab_cli.c, perfetto_cli.c): it includes none of them.
 */
#ifndef IDLELAB_CLI_OPTS_H
#define IDLELAB_CLI_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "error.h"
#include "progress.h"

struct il_error;
struct il_platform;
struct il_preset;
struct il_scenario;
struct il_scn_common;
struct il_scn_args;

#define CLI_MAX_GOVERNORS 64
#define CLI_MAX_SCENARIOS 64
#define CLI_GOV_LIST_LEN 2048
#define CLI_MAX_ITER 1000
#define CLI_MAX_JOBS 256

/* The longest simulated time: beyond it a duration is a typo. */
#define CLI_MAX_TIME_NS (24ULL * 3600ULL * 1000000000ULL)

/** cli_parse_time - "30s", "1.5s", "500ms", "2m", "1h", "1500us", "100ns" (il_parse_time());
 * a bare number is seconds; in (0, 24h] */
int cli_parse_time(const char *s, uint64_t *ns);

/** cli_parse_count - a whole decimal number in [0, @max] into *@out; Return: 0 or -1 */
int cli_parse_count(const char *s, uint64_t max, uint64_t *out);

/** cli_parse_count_to - cli_parse_count of the text from @s up to @end_at, inside a longer text */
int cli_parse_count_to(const char *s, const char *end_at, uint64_t max, uint64_t *out);

/**
 * cli_split_list - split the comma-separated @list into at most @max @names and *@n of them,
 * the text kept in @buf of @cap bytes; @what ("governor") names the items in errors
 * Return: CLI_PARSE_OK or CLI_PARSE_ERROR with @err set (too long, too many, no name at all,
 * or an empty name between names: "a,,b" and "a," are typos, not "a,b" and "a").
 */
int cli_split_list(const char *list, char *buf, size_t cap, const char **names, int max, int *n,
		   const char *what, struct cli_error *err);

/**
 * cli_append_list - cli_split_list() for an option that may be repeated: the names of @list
 * are added after the *@n there are, the text kept at @buf + *@used (@cap bytes in all), so
 * "-g a,b -g c" is "-g a,b,c"
 * Return: CLI_PARSE_OK or CLI_PARSE_ERROR with @err set (too long, too many, empty).
 */
int cli_append_list(const char *list, char *buf, size_t cap, size_t *used, const char **names,
		    int max, int *n, const char *what, struct cli_error *err);

/**
 * cli_builtin_platforms - -p all: every built-in platform's name into @names (at most @max),
 * *@n of them
 * Return: CLI_PARSE_OK or CLI_PARSE_ERROR with @err set (more than @max).
 */
int cli_builtin_platforms(const char **names, int max, int *n, struct cli_error *err);

/*
 * DOC: the shared options, declared once (as rtla's common options are)
 *
 * An option several commands take has one id here, above every command's own ids (which
 * count from 1), and one table entry (CLI_OPTS_TIME...) that a command puts in its struct
 * cli_opt list. Its value goes through one parser below (cli_opt_time()...), so it has one
 * meaning and one message in every command. The run options (time, seed, iterations,
 * threads, format, ensemble, progress) also have one home: a command's argument struct
 * holds CLI_RUN_OPTS, and its option handler gives every id it does not take itself to
 * cli_run_option().
 */
enum cli_shared_opt {
	CLI_OPT_HELP = 1000, /* -h, --help */
	CLI_OPT_GOV,         /* -g, --governor LIST */
	CLI_OPT_PLAT,        /* -p, --platform LIST */
	CLI_OPT_SCN,         /* -s, --scenario S */
	CLI_OPT_OUT,         /* -o, --output PATH */
	CLI_OPT_TIME,        /* -t, --time T */
	CLI_OPT_SEED,        /* --seed N */
	CLI_OPT_ITER,        /* -n, --iter N */
	CLI_OPT_JOBS,        /* -j, --jobs N */
	CLI_OPT_FORMAT,      /* -f, --format F */
	CLI_OPT_ENSEMBLE,    /* --ensemble N */
	CLI_OPT_PROGRESS,    /* --progress */
	CLI_OPT_NO_PROGRESS, /* --no-progress */
};

#define CLI_OPTS_HELP { CLI_OPT_HELP, 'h', "help", false }
#define CLI_OPTS_GOV { CLI_OPT_GOV, 'g', "governor", true }
#define CLI_OPTS_PLAT { CLI_OPT_PLAT, 'p', "platform", true }
#define CLI_OPTS_SCN { CLI_OPT_SCN, 's', "scenario", true }
#define CLI_OPTS_OUT { CLI_OPT_OUT, 'o', "output", true }
#define CLI_OPTS_TIME { CLI_OPT_TIME, 't', "time", true }
#define CLI_OPTS_SEED { CLI_OPT_SEED, 0, "seed", true }
#define CLI_OPTS_ITER { CLI_OPT_ITER, 'n', "iter", true }
#define CLI_OPTS_JOBS { CLI_OPT_JOBS, 'j', "jobs", true }
#define CLI_OPTS_FORMAT { CLI_OPT_FORMAT, 'f', "format", true }
#define CLI_OPTS_ENSEMBLE { CLI_OPT_ENSEMBLE, 0, "ensemble", true }
#define CLI_OPTS_PROGRESS \
	{ CLI_OPT_PROGRESS, 0, "progress", false }, { CLI_OPT_NO_PROGRESS, 0, "no-progress", false }

#define CLI_RUN_OPTS_FIELDS \
	uint64_t time_ns;            /* -t, --time */ \
	uint64_t seed;               /* --seed: of the first iteration */ \
	int iter;                    /* -n, --iter */ \
	unsigned int jobs;           /* -j, --jobs; 0: the online CPUs */ \
	const char *format;          /* -f, --format: an output format of lib/output/ */ \
	int ensemble;                /* --ensemble: model variants per seed; 0: nominal */ \
	enum progress_mode progress; /* --progress, --no-progress */

/* The values of the run options, for cli_run_option(). */
struct cli_run_opts {
	CLI_RUN_OPTS_FIELDS
};

/*
 * CLI_RUN_OPTS - the run options in a command's argument struct: each field under its own
 * name (a->time_ns) and all of them as one struct cli_run_opts (&a->run), the way the
 * kernel's struct_group() names a group of members.
 */
#define CLI_RUN_OPTS \
	union { \
		struct { CLI_RUN_OPTS_FIELDS }; \
		struct cli_run_opts run; \
	}

#define CLI_MAX_PLATFORMS 64
#define CLI_PLAT_LIST_LEN 4096

#define CLI_GOV_PLAT_FIELDS \
	int ngov;                                 /* -g, --governor: preset names, in order */ \
	const char *governors[CLI_MAX_GOVERNORS]; \
	int nplat;                                /* -p, --platform: names or files, in order */ \
	const char *platforms[CLI_MAX_PLATFORMS]; \
	size_t gov_used, plat_used;               /* bytes of the texts below in use */ \
	char gov_buf[CLI_GOV_LIST_LEN]; \
	char plat_buf[CLI_PLAT_LIST_LEN];

/* The governors and platforms of a command that runs several of each, for cli_gov_plat_*(). */
struct cli_gov_plat {
	CLI_GOV_PLAT_FIELDS
};

/*
 * CLI_GOV_PLAT - the -g and -p lists in a command's argument struct, each field under its own
 * name (a->governors, a->nplat) and all of them as one struct cli_gov_plat (&a->gp), as
 * CLI_RUN_OPTS does for the run options.
 */
#define CLI_GOV_PLAT \
	union { \
		struct { CLI_GOV_PLAT_FIELDS }; \
		struct cli_gov_plat gp; \
	}

/**
 * cli_gov_plat_option - -g LIST (@id CLI_OPT_GOV) or -p LIST (CLI_OPT_PLAT) into @gp; either may
 * be repeated ("-g a,b -g c" is "-g a,b,c"), the platforms at most @max_plat
 * (<= CLI_MAX_PLATFORMS). Return: CLI_PARSE_OK, or CLI_PARSE_ERROR with @err set.
 */
int cli_gov_plat_option(struct cli_gov_plat *gp, int id, const char *value, int max_plat,
			struct cli_error *err);

/**
 * cli_run_option - the run option @id (CLI_OPT_TIME ... CLI_OPT_NO_PROGRESS) with its text
 * @value into @o; any other id is a positional argument no option took
 * Return: CLI_PARSE_OK, or CLI_PARSE_ERROR with @err set (a bad value, an unexpected
 * argument).
 */
int cli_run_option(struct cli_run_opts *o, int id, const char *value, struct cli_error *err);

/*
 * The options with one meaning and one message in every command; each takes the option's
 * text @value and returns CLI_PARSE_OK or CLI_PARSE_ERROR with @err set.
 */
/** cli_opt_progress - --progress (@id CLI_OPT_PROGRESS) or --no-progress into *@mode */
int cli_opt_progress(int id, enum progress_mode *mode);
/** cli_opt_count - option @name (its long form, "--iter"): a whole number in [@min, @max] */
int cli_opt_count(const char *value, const char *name, uint64_t min, uint64_t max, uint64_t *out,
		  struct cli_error *err);
/** cli_opt_time - -t, --time T: a duration in (0, 24h] */
int cli_opt_time(const char *value, uint64_t *ns, struct cli_error *err);
/** cli_opt_seed - --seed N: a whole number in [0, @max] */
int cli_opt_seed(const char *value, uint64_t max, uint64_t *seed, struct cli_error *err);
/**
 * cli_opt_ensemble - --ensemble N: model variants (verdict, compare, battery): 0 (off) or 2 to
 * IL_ENS_MAX_MEMBERS
 */
int cli_opt_ensemble(const char *value, int *ensemble, struct cli_error *err);
/** cli_opt_iter - -n, --iter N: iterations (seeds) per governor, in [1, CLI_MAX_ITER] */
int cli_opt_iter(const char *value, int *iter, struct cli_error *err);
/** cli_opt_jobs - -j, --jobs N: threads, in [1, CLI_MAX_JOBS] */
int cli_opt_jobs(const char *value, unsigned int *jobs, struct cli_error *err);
/** cli_opt_format - -f, --format F: an output format of lib/output/ (table, tsv, csv, json) */
int cli_opt_format(const char *value, const char **format, struct cli_error *err);

/**
 * cli_remedy - what would get past a library error that needs @need, worded as the option
 * that gives it ("; --allow-missing skips it"), to print after its message; "" for none
 */
const char *cli_remedy(enum il_error_need need);

/* The operands of a command whose operands are files, in order (cli_parse_files()). */
struct cli_files {
	const char **inputs;
	int ninputs;
};

/*
 * CLI_FILES - the file operands as the FIRST member of a command's state: each field under its
 * own name (a->inputs, a->ninputs) and both as one struct cli_files (&a->files), so that the
 * command's lifecycle frees them with cli_release_files().
 */
#define CLI_FILES \
	union { \
		struct { \
			const char **inputs; \
			int ninputs; \
		}; \
		struct cli_files files; \
	}

/**
 * cli_parse_files - cli_parse_options() (help at CLI_OPT_HELP) for a command whose @state starts
 * with CLI_FILES: its inputs get room for every operand (freed by cli_release_files()) before
 * the scan, where they go; @option takes the options; no operand at all is the error @none
 */
int cli_parse_files(int argc, char **argv, const struct cli_opt *opts,
		    int (*option)(void *state, int id, const char *value, struct cli_error *err),
		    void *state, const char *none, struct cli_error *err);

/** cli_release_files - a lifecycle's release for a state that starts with CLI_FILES */
void cli_release_files(void *state);

struct il_verdict_words;
struct il_kgov_framework_query;
struct il_kgov_framework;

/**
 * cli_framework_choose - il_kgov_framework_choose(), the reason of a preset the caller gave
 * worded as the option that gave it ("given with --as (...)")
 */
int cli_framework_choose(const struct il_kgov_framework_query *q, struct il_kgov_framework *fw,
			 struct il_error *err);

/* The options a verdict's text points to, as verdict and review take them. */
extern const struct il_verdict_words cli_verdict_words;

/** cli_default_jobs - what -j is when not given: the online CPUs, in [1, CLI_MAX_JOBS] */
unsigned int cli_default_jobs(void);

/** cli_wall_seconds - the monotonic clock in seconds, for the "N runs on J threads in S s" line */
double cli_wall_seconds(void);

/**
 * cli_scn_file_error - whether @err, from il_scn_parse(), is about the file a scenario's
 * operand names (-s rtapp:FILE): bad input (exit 1, like a bad platform file), not usage
 */
bool cli_scn_file_error(const struct il_scenario *scn, const struct il_scn_args *args,
			const struct il_error *err);

/**
 * cli_find_presets - look up the @n governor names of @names into @presets; for an unknown
 * one, print a usage error of @cmd
 * Return: CLI_EXIT_OK, CLI_EXIT_USAGE (an unknown name) or CLI_EXIT_RUNTIME (a file: preset
 * that does not load).
 */
int cli_find_presets(const char *const *names, int n, const struct il_preset **presets,
		     const char *cmd);

/**
 * cli_load_platform - load the built-in platform or platform file @name into @plat; on
 * failure print why for @cmd
 * Return: CLI_EXIT_OK, CLI_EXIT_RUNTIME (a file) or CLI_EXIT_USAGE (an unknown name).
 */
int cli_load_platform(const char *name, struct il_platform *plat, const char *cmd);

/**
 * cli_load_platforms - cli_load_platform() of each of the @n @specs into @plat, then
 * cli_unique_platforms(); stops at the first that fails
 * Return: CLI_EXIT_OK, or the exit status after the message for @cmd.
 */
int cli_load_platforms(const char *const *specs, int n, struct il_platform *plat,
		       const char *cmd);

/**
 * cli_unique_platforms - refuse two of the @n loaded platforms @plat (given as @specs) with one
 * name: every output (rows, case files, verdict cells, the report) keys a platform by its name,
 * so two would be indistinguishable. Return: CLI_EXIT_OK, or CLI_EXIT_USAGE after saying why.
 */
int cli_unique_platforms(const struct il_platform *plat, const char *const *specs, int n,
			 const char *cmd);

/**
 * cli_check_cpus - does @plat have every CPU the scenario's workload names (il_lab_check_cpus)?
 * On failure print why for @cmd. Return: CLI_EXIT_OK or CLI_EXIT_RUNTIME (bad input).
 */
int cli_check_cpus(const struct il_scenario *scn, const struct il_scn_common *c,
		   const struct il_platform *plat, const char *cmd);

#endif /* IDLELAB_CLI_OPTS_H */
