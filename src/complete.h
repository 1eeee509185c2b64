/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * complete.h - `idlelab help --complete WHAT [ARG]`: what the binary knows, one name per
 * line, for shell completion (completion/idlelab) and other tools.
 */
#ifndef IDLELAB_COMPLETE_H
#define IDLELAB_COMPLETE_H

#include <stdio.h>

/* The lists, for the help text. */
#define COMPLETE_WHAT "commands, governors, platforms, scenarios, params SCENARIO, formats, readers"

/**
 * cli_complete - print list @what (with @arg for "params") to @out; @commands is the
 * NULL-terminated list of command names (given by commands.c, which calls this: no cycle)
 * Return: 0, or -1 when @what is not a list (or @arg is missing or unknown).
 */
int cli_complete(FILE *out, const char *what, const char *arg, const char *const *commands);

#endif /* IDLELAB_COMPLETE_H */
