// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the platform-file parser (lib/platform/platform.c) on arbitrary bytes.
 * Besides the sanitizers' checks, an accepted platform must satisfy what the parser promises.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "platform/platform.h"

/* At most 10 s, or exactly UINT_MAX us (a state kept but never picked). */
static int time_ok(s64 ns)
{
	return (ns >= 0 && ns <= IL_PLAT_TIME_MAX_NS) ||
	       ns == (s64)IL_PLAT_UINT_MAX_US * NSEC_PER_USEC;
}

/* Per-CPU tables: every CPU on one, alike in their states; domains within the CPUs. */
static void check_topology(const struct il_platform *p)
{
	for (int t = 0; t < p->ntables; t++)
		if (p->tables[t].drv.state_count != p->drv.state_count)
			abort();
	for (unsigned int c = 0; c < IL_PLAT_CPUS_MAX; c++) {
		if (p->ntables && (c < p->cpus) != (p->cpu_table[c] != 0))
			abort();
		if (p->cpu_table[c] > p->ntables)
			abort();
	}
	for (int i = 0; i < p->ndomains; i++) {
		const struct il_domain *d = &p->domains[i];

		if (!d->states || d->states >> p->drv.state_count || (d->states & 1) ||
		    !d->source[0])
			abort();
		for (unsigned int c = p->cpus; c < IL_PLAT_CPUS_MAX; c++)
			if (il_domain_has_cpu(d, c))
				abort();
	}
}

/* Every "uncertain:" entry: about a field that exists, with a range that holds its value. */
static void check_uncertain(const struct il_platform *p)
{
	if (p->nunc < 0 || p->nunc > IL_PLAT_UNC_MAX)
		abort();
	for (int i = 0; i < p->nunc; i++) {
		const struct il_plat_unc *u = &p->unc[i];

		bool header = u->field == IL_PF_ACTIVE_POWER || u->field == IL_PF_HZ;

		if (u->state >= p->drv.state_count || (u->state < 0) != header)
			abort();
		if (u->cls >= IL_UNC_CLASSES || !il_unc_range_holds(&u->range, il_platform_param(p, u)))
			abort();
		if ((u->cls == IL_UNC_FITTED) != !!u->fitted_to[0])
			abort();
	}
}

static void check_accepted(const struct il_platform *p)
{
	check_topology(p);
	check_uncertain(p);
	if (p->drv.state_count < 1 || p->drv.state_count > CPUIDLE_STATE_MAX)
		abort();
	if (p->cpus < 1 || p->cpus > IL_PLAT_CPUS_MAX || !p->cpus_source[0] || !p->hz_source[0])
		abort();
	for (int i = 0; i < p->drv.state_count; i++) {
		const struct il_state *s = &p->drv.states[i];

		if (!p->state_source[i][0] || !s->name[0] || strnlen(s->name, IL_NAME_LEN) == IL_NAME_LEN)
			abort();
		if (!time_ok(s->exit_latency_ns) || !time_ok(s->target_residency_ns))
			abort();
		if (s->exit_latency != (unsigned int)(s->exit_latency_ns / 1000))
			abort();
		if (i > 0 && (s->flags & CPUIDLE_FLAG_POLLING))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct il_platform plat;
	struct il_error err;

	if (il_platform_parse((const char *)data, size, "fuzz.plat", &plat, &err) == 0)
		check_accepted(&plat);
	else if (strncmp(err.msg, "fuzz.plat", 9))
		abort(); /* every error names the input */
	return 0;
}
