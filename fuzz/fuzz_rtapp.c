// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the rt-app reader (lib/rtapp/) on arbitrary bytes. Besides the
 * sanitizers' checks, an accepted workload must hold what the scenario relies on, and every
 * error must name the input with a position.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rtapp/rtapp.h"

static void check_cpus(const struct il_rtapp *rt, const struct il_rtapp_cpus *c)
{
	for (int i = 0; i < c->n; i++)
		if (c->cpu[i] < 0 || c->cpu[i] > rt->max_cpu || c->cpu[i] > IL_RTAPP_CPU_MAX)
			abort();
}

static void check_event(const struct il_rtapp *rt, const struct il_rtapp_event *ev)
{
	if (!ev->key || ev->res < -1 || ev->res >= rt->nres || ev->mutex < -1 || ev->mutex >= rt->nres)
		abort();
	if (ev->usec < 0)
		abort();
	switch (ev->type) {
	case IL_RTAPP_TIMER:
	case IL_RTAPP_BARRIER:
	case IL_RTAPP_SUSPEND:
	case IL_RTAPP_RESUME:
	case IL_RTAPP_SIGNAL:
	case IL_RTAPP_BROAD:
	case IL_RTAPP_LOCK:
	case IL_RTAPP_UNLOCK:
	case IL_RTAPP_SEM_POST:
	case IL_RTAPP_SEM_WAIT:
		if (ev->res < 0)
			abort();
		break;
	case IL_RTAPP_WAIT:
	case IL_RTAPP_SYNC:
		if (ev->res < 0 || ev->mutex < 0 || rt->res[ev->mutex].type != IL_RTAPP_RES_MUTEX)
			abort();
		break;
	default:
		break;
	}
	if (ev->type == IL_RTAPP_BARRIER && rt->res[ev->res].users < 0)
		abort();
}

static void check_accepted(const struct il_rtapp *rt)
{
	s64 threads = 0;

	if (rt->ntasks < 1 || rt->nthreads < 1 || rt->nthreads > IL_RTAPP_THREADS_MAX)
		abort();
	for (int t = 0; t < rt->ntasks; t++) {
		const struct il_rtapp_task *task = &rt->tasks[t];

		threads += task->instances;
		if (task->nphases < 1 || task->loop < -1 || !task->name)
			abort();
		check_cpus(rt, &task->cpus);
		for (int p = 0; p < task->nphases; p++) {
			const struct il_rtapp_phase *ph = &task->phases[p];

			if (ph->nevents < 1 || ph->loop == 0 || ph->loop < -1)
				abort();
			check_cpus(rt, &ph->cpus);
			for (int e = 0; e < ph->nevents; e++)
				check_event(rt, &ph->events[e]);
		}
	}
	if (threads != rt->nthreads)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct il_rtapp *rt;
	struct il_error err;

	if (il_rtapp_parse((const char *)data, size, "fuzz.json", &rt, &err) == 0) {
		check_accepted(rt);
		il_rtapp_free(rt);
	} else if (strncmp(err.msg, "fuzz.json:", 10) || rt) {
		abort(); /* every error names the input and a position */
	}
	return 0;
}
