/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scenarios.h - the one explicit list of scenarios.
 *
 * Each scenario FOO lives in lib/scenario/FOO.c and defines
 *	const struct il_scenario il_scn_FOO;
 * Adding one means adding a line here and a file there. The order is the listing order.
 */
#ifndef IDLELAB_SCENARIOS_H
#define IDLELAB_SCENARIOS_H

#include "scenario.h"

#define IL_SCENARIOS(X) \
	X(fio)          \
	X(pingpong)     \
	X(wakeup)       \
	X(consume)      \
	X(idle)         \
	X(idle_busy)    \
	X(threads)      \
	X(ebizzy)       \
	X(adrestia)     \
	X(pidpersec)    \
	X(jbb)          \
	X(netrr)        \
	X(video)        \
	X(rtapp)

#define IL_DECLARE_SCENARIO(name) extern const struct il_scenario il_scn_##name;
IL_SCENARIOS(IL_DECLARE_SCENARIO)
#undef IL_DECLARE_SCENARIO

#endif /* IDLELAB_SCENARIOS_H */
