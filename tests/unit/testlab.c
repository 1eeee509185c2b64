// SPDX-License-Identifier: GPL-2.0-only
/*
 * testlab.c - the helpers of testlab.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "governor.h"
#include "testlab.h"

const struct il_scenario *tl_lab_run(const char *plat_name, const char *gov, const char *scn_spec,
				     u64 seed, u64 time_ns, struct il_lab_result *res)
{
	static struct il_platform plat;
	struct il_lab_spec spec = { 0 };
	struct il_error err;

	assert_int_equal(il_platform_load(plat_name, &plat, &err), 0);
	spec.plat = &plat;
	spec.preset = il_preset_find(gov);
	assert_non_null(spec.preset);
	assert_int_equal(il_scn_parse(scn_spec, &spec.scn, &spec.args, &spec.common, &err), 0);
	spec.duration_ns = time_ns;
	spec.seed = seed;
	assert_int_equal(il_lab_run(&spec, res), 0);
	return spec.scn;
}

struct il_trace_event tl_event(enum il_ev type, unsigned int cpu, u64 ts_us)
{
	static u64 line_no;
	struct il_trace_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = type;
	ev.cpu = cpu;
	ev.ts_ns = ts_us * 1000;
	ev.line = ++line_no;
	ev.target_cpu = -1;
	return ev;
}
