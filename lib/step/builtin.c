// SPDX-License-Identifier: GPL-2.0-only
/*
 * builtin.c - step scripts built into idlelab ("--input builtin:NAME").
 */
#include <string.h>

#include "step.h"
#include "util/array.h"

/*
 * builtin:demo - one pass over the paths that tell the governors apart: a steady timer,
 * short non-timer wakeups, a very short idle, a tick wakeup, a long idle with the tick
 * already stopped, a refused entry, a QoS limit and pending I/O. docs/step.md shows it.
 */
static const char demo[] =
	"# builtin:demo - idle periods that exercise the main paths of every governor.\n"
	"# Times are ns unless they carry a unit (us, ms). Format: docs/step.md.\n"
	"\n"
	"# 1-4: a steady 2 ms timer ends each period (the tick is running)\n"
	"sleep=2ms res=1995us\n"
	"sleep=2ms res=1995us\n"
	"sleep=2ms res=1995us\n"
	"sleep=2ms res=1995us\n"
	"# 5-8: short non-timer wakeups (I/O completions) while the 2 ms timer is pending\n"
	"sleep=2ms res=40us\n"
	"sleep=2ms res=35us\n"
	"sleep=2ms res=45us\n"
	"sleep=2ms res=40us\n"
	"# 9: a very short idle period\n"
	"sleep=2ms res=2us\n"
	"# 10: no timer for 50 ms, but the running tick ends the period after 900 us\n"
	"sleep=50ms res=900us tick=1\n"
	"# 11: the tick is already stopped; the 50 ms timer ends a long idle period\n"
	"sleep=50ms stopped=1 res=50ms\n"
	"# 12: the entry is refused (need_resched() was already set)\n"
	"sleep=10ms res=rejected\n"
	"# 13: a PM QoS limit of 20 us rules out the deep states\n"
	"sleep=10ms qos=20 res=9990us\n"
	"# 14: a task waits for I/O (4.x menu counts it) and the I/O ends the period early\n"
	"sleep=5ms iowait=1 load=1024 res=100us\n";

static const struct {
	const char *name;
	const char *text;
} builtins[] = {
	{ "demo", demo },
};

int il_step_builtin_count(void)
{
	return (int)ARRAY_SIZE(builtins);
}

const char *il_step_builtin_name(int i)
{
	return i >= 0 && i < il_step_builtin_count() ? builtins[i].name : NULL;
}

const char *il_step_builtin_text(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(builtins); i++)
		if (!strcmp(builtins[i].name, name))
			return builtins[i].text;
	return NULL;
}
