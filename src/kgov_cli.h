/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kgov_cli.h - what the files of `idlelab kgov` share: one file per action (build, check,
 * record and verify, diff), the parser (kgov_args.c), and the steps several actions run.
 */
#ifndef IDLELAB_KGOV_CLI_H
#define IDLELAB_KGOV_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "kgov_args.h"
#include "kgov/kgov.h"

/* The actions; each returns the exit code. */
int kgov_cmd_build(const struct kgov_args *args);
int kgov_cmd_check(const struct kgov_args *args);
int kgov_cmd_record(const struct kgov_args *args);
int kgov_cmd_verify(const struct kgov_args *args);
int kgov_cmd_diff(const struct kgov_args *args);

/* kgov_build_cli.c */
/** kgov_build_file - compile @src into @out; the compiler's output on failure. Return: exit code */
int kgov_build_file(const char *src, const char *out, bool verbose);
/** kgov_check_output - can the @what (an object, a vector) be written to @out? Says why not. */
int kgov_check_output(const char *out, const char *what, const char *example);
/**
 * kgov_load_source - load args->src like @like (NULL: by its blob): a C file is built into
 * @tmpdir first (*@built is then true: the caller removes @obj and @tmpdir)
 */
const struct il_preset *kgov_load_source(const struct kgov_args *args, const struct il_preset *like,
					 char *tmpdir, char *obj, size_t obj_cap, bool *built);

/* kgov_check_cli.c: the watchdog that ends a governor call which hangs */
extern struct il_kgov_progress kgov_watchdog_progress;
void kgov_start_watchdog(void);

#endif /* IDLELAB_KGOV_CLI_H */
