// SPDX-License-Identifier: GPL-2.0-only
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "testenv.h"

static s64 te_sleep_length(const struct il_env *env, s64 *delta_next)
{
	struct testenv *te = env->ctx;

	te->sleep_queries++;
	if (delta_next)
		*delta_next = te->delta_next_ns;
	return te->sleep_ns;
}

static bool te_tick_stopped(const struct il_env *env)
{
	return ((struct testenv *)env->ctx)->tick_stopped;
}

static bool te_got_tick(const struct il_env *env)
{
	struct testenv *te = env->ctx;
	bool ret = te->got_tick;

	te->got_tick = false;
	te->got_tick_reads++;
	return ret;
}

static void te_qos(const struct il_env *env, struct il_qos *out)
{
	*out = ((struct testenv *)env->ctx)->qos;
}

static unsigned long te_nr_iowait(const struct il_env *env)
{
	return ((struct testenv *)env->ctx)->nr_iowait;
}

static unsigned long te_load(const struct il_env *env)
{
	return ((struct testenv *)env->ctx)->load;
}

static u64 te_clock(const struct il_env *env)
{
	return ((struct testenv *)env->ctx)->now_ns;
}

static s64 te_oracle(const struct il_env *env)
{
	return ((struct testenv *)env->ctx)->oracle_ns;
}

static const struct il_env_ops te_ops = {
	.sleep_length = te_sleep_length,
	.tick_stopped = te_tick_stopped,
	.got_tick = te_got_tick,
	.qos = te_qos,
	.nr_iowait = te_nr_iowait,
	.load_weight = te_load,
	.local_clock = te_clock,
	.oracle_idle_ns = te_oracle,
};

void te_init(struct testenv *te, const char *preset_name, bool poll0, int n, const s64 states[][2])
{
	const struct il_preset *p = il_preset_find(preset_name);

	assert_non_null(p);
	memset(te, 0, sizeof(*te));
	te->env.ops = &te_ops;
	te->env.ctx = te;
	il_env_set_hz(&te->env, 1000);
	il_qos_defaults(&te->qos);
	te->now_ns = 1000000000;
	te->drv.state_count = n;
	for (int i = 0; i < n; i++) {
		snprintf(te->drv.states[i].name, IL_NAME_LEN, i == 0 && poll0 ? "POLL" : "S%d", i);
		te->drv.states[i].exit_latency_ns = states[i][0];
		te->drv.states[i].target_residency_ns = states[i][1];
	}
	if (poll0)
		te->drv.states[0].flags |= CPUIDLE_FLAG_POLLING;
	il_driver_init(&te->drv);
	te->dev.env = &te->env;
	assert_int_equal(il_gov_bind(&te->drv, &te->dev, p), 0);
}

void te_fini(struct testenv *te)
{
	il_gov_unbind(&te->drv, &te->dev);
}

int te_select(struct testenv *te, bool *stop_tick)
{
	*stop_tick = true;
	return te->dev.preset->gov->select(&te->drv, &te->dev, stop_tick);
}

int te_idle(struct testenv *te, s64 residency_ns, bool *stop_tick)
{
	int idx = te_select(te, stop_tick);

	if ((te->drv.states[idx].flags & CPUIDLE_FLAG_POLLING) && residency_ns >= 0) {
		u64 limit = il_cpuidle_poll_time(&te->drv, &te->dev);

		te->dev.poll_time_limit = (u64)residency_ns > limit;
	}
	il_cpuidle_account(&te->drv, &te->dev, idx, residency_ns);
	if (residency_ns > 0)
		te->now_ns += (u64)residency_ns;
	if (residency_ns >= 0)
		il_cpuidle_reflect(&te->dev, idx);
	return idx;
}

u64 te_var(struct testenv *te, const char *name)
{
	struct il_var vars[IL_MAX_VARS];
	int n = te->dev.preset->gov->vars(&te->dev, vars, IL_MAX_VARS);

	for (int i = 0; i < n; i++)
		if (!strcmp(vars[i].name, name))
			return vars[i].value;
	fail_msg("no governor variable %s", name);
	return 0;
}
