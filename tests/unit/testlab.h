/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * testlab.h - helpers that several unit tests share beyond the scripted env of testenv.h:
 * one lab run named by strings, and trace events numbered like the lines of a trace.
 */
#ifndef IDLELAB_TESTLAB_H
#define IDLELAB_TESTLAB_H

#include "lab/lab.h"
#include "trace/trace.h"

/*
 * tl_lab_run - run scenario @scn_spec ("NAME[:k=v,...]") for @time_ns with preset @gov on
 * platform @plat_name (a built-in or a file) and seed @seed, into @res; asserts every step succeeds.
 * The platform is kept in one static slot, so @res stays valid until the next call.
 * Return: the scenario that ran.
 */
const struct il_scenario *tl_lab_run(const char *plat_name, const char *gov, const char *scn_spec,
				     u64 seed, u64 time_ns, struct il_lab_result *res);

/*
 * tl_event - a zeroed event of @type on @cpu at @ts_us µs, with no target CPU, and the
 * next line number of this test program (1, 2, ...)
 */
struct il_trace_event tl_event(enum il_ev type, unsigned int cpu, u64 ts_us);

#endif /* IDLELAB_TESTLAB_H */
