// SPDX-License-Identifier: GPL-2.0-only
/*
 * registry.c - scenario lookup over the IL_SCENARIOS() list.
 */
#include <string.h>

#include "scenarios.h"
#include "util/array.h"

static const struct il_scenario *const scenarios[] = {
#define IL_SCENARIO_ENTRY(name) &il_scn_##name,
	IL_SCENARIOS(IL_SCENARIO_ENTRY)
#undef IL_SCENARIO_ENTRY
};

#define N_SCENARIOS ((int)ARRAY_SIZE(scenarios))

int il_scenario_count(void)
{
	return N_SCENARIOS;
}

const struct il_scenario *il_scenario_at(int i)
{
	return i >= 0 && i < N_SCENARIOS ? scenarios[i] : NULL;
}

const struct il_scenario *il_scenario_find(const char *name)
{
	for (int i = 0; i < N_SCENARIOS; i++)
		if (!strcmp(scenarios[i]->name, name))
			return scenarios[i];
	return NULL;
}
