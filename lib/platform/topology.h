/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * topology.h - the platform parser's per-CPU tables and power domains (topology.c); only
 * platform.c includes it.
 */
#ifndef IDLELAB_PLATFORM_TOPOLOGY_H
#define IDLELAB_PLATFORM_TOPOLOGY_H

#include "lex.h"
#include "platform.h"

/*
 * il_plat_table_line, il_plat_domain_line - a "table" or "domain" line (@t, @n tokens) at
 * @file:@line. Return: the buffer its "source:" notes go to, or NULL with @err set.
 */
char *il_plat_table_line(struct il_platform *plat, const struct il_token *t, int n,
			 const char *file, int line, struct il_error *err);
char *il_plat_domain_line(struct il_platform *plat, const struct il_token *t, int n,
			  const char *file, int line, struct il_error *err);

/**
 * il_plat_topology_finish - after the last line: save the last table, make tables[0] the
 * platform's drv, and check the tables and domains against each other and the CPU count
 * (@cpus_line: the line a CPU without a table is reported on).
 * Return: 0, or -1 with @err set.
 */
int il_plat_topology_finish(struct il_platform *plat, const char *file, int cpus_line,
			    struct il_error *err);

/** il_plat_name_chars - only letters, digits, '-', '_' and '.' (platform, table, domain names) */
bool il_plat_name_chars(const char *s);

/** il_plat_is_uint_max_us - whether a time field is exactly UINT_MAX microseconds */
bool il_plat_is_uint_max_us(const char *text);

#endif /* IDLELAB_PLATFORM_TOPOLOGY_H */
