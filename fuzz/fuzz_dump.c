// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the sysfs dump reader (lib/live/dump.c, `states --dump`) on arbitrary
 * bytes. An accepted dump must read back through struct il_live as the parser promises
 * (CPUs 0..N-1 without a gap, states with name, usage and time); every refusal names the
 * input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "live/live.h"

static void check_accepted(const struct il_live_dump *d)
{
	static struct il_live_cpu cpu;
	struct il_live_cpuidle ci;
	struct il_error err;
	struct il_live lv;
	unsigned int *cpus;
	int n;

	if (il_live_init_dump(&lv, d, &err))
		abort();
	n = il_live_list_cpus(&lv, &cpus, &err);
	if (n < 1)
		abort();
	for (int i = 0; i < n; i++) {
		if (cpus[i] != (unsigned int)i || il_live_read_cpu(&lv, cpus[i], IL_LIVE_READ_ALL,
								   &cpu, &err))
			abort();
		if (!cpu.has_cpuidle || cpu.nstates < 1 || cpu.nstates > CPUIDLE_STATE_MAX)
			abort();
		for (int k = 0; k < cpu.nstates; k++)
			if ((cpu.st[k].have & (IL_LF_NAME | IL_LF_USAGE | IL_LF_TIME)) !=
			    (IL_LF_NAME | IL_LF_USAGE | IL_LF_TIME) || !cpu.st[k].name[0])
				abort();
	}
	free(cpus);
	if (il_live_read_cpuidle(&lv, &ci, &err) && strncmp(err.msg, "fuzz.dump", 9))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct il_error err;
	struct il_live_dump *d = il_live_dump_parse((const char *)data, size, "fuzz.dump", &err);

	if (d)
		check_accepted(d);
	else if (strncmp(err.msg, "fuzz.dump", 9))
		abort(); /* every error names the input */
	il_live_dump_free(d);
	return 0;
}
