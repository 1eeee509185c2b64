// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.c - a real trace replayed through the base and the patched governor (lib/replay):
 * how often the two pick the same state, each side's energy and misses over the recorded
 * idle periods, and each side's gap to the open-loop bound of those periods.
 *
 * The replay is open loop (docs/trace.md): both sides see the recorded residencies, so the
 * figures say what the patch would have chosen on that machine's idle periods, not how the
 * workload would have reacted to it.
 */
#include <errno.h>
#include <string.h>

#include "../replay/bound.h"
#include "review.h"

/* Counted after every replayed period: base and patched picks side by side. */
static void count_period(void *ctx, const struct il_replay_inputs *in, const int *picks,
			 const bool *stops)
{
	struct il_review_trace *res = ctx;

	(void)in;
	res->periods++;
	res->same_state += picks[0] == picks[1];
	res->same_both += picks[0] == picks[1] && stops[0] == stops[1];
}

static void keep_rows(struct il_replay *rep, struct il_review_trace *res)
{
	const struct il_bound *b = il_replay_bound(rep);

	res->recorded = *il_replay_trace_row(rep);
	res->periods_total = res->recorded.idles;
	for (int i = 0; i < 2; i++) {
		res->side[i] = *il_replay_gov_row(rep, i);
		res->have_gap[i] = !il_bound_gap(b, &res->side[i].bound, &res->gap[i]);
	}
}

int il_review_trace_replay(const struct il_review_trace_opts *o, struct il_trace *t,
			   struct il_review_trace *res, struct il_error *err)
{
	struct il_replay_cfg cfg = { .plat = o->plat, .ngov = 2, .cpu = -1,
				     .sleep_source = o->sleep_source, .sleep_why = o->sleep_why };
	struct il_trace_event ev;
	struct il_replay *rep;
	int r;

	memset(res, 0, sizeof(*res));
	cfg.presets[0] = o->base;
	cfg.presets[1] = o->patched;
	rep = il_replay_new(&cfg, err);
	if (!rep)
		return -1;
	il_replay_set_period_hook(rep, count_period, res);
	il_trace_set_events(t, o->sleep_source == IL_SLEEP_WAKEUPS ? IL_REPLAY_WAKEUP_EVENTS
								   : IL_REPLAY_EVENTS);
	while ((r = il_trace_next(t, &ev)) > 0)
		if (il_replay_event(rep, &ev))
			goto fail_errno;
	if (r < 0) {
		il_error_set(err, il_trace_path(t), 0, "%s", il_trace_error(t) ?
			     il_trace_error(t) : strerror(errno));
		goto fail;
	}
	if (il_replay_finish(rep))
		goto fail_errno;
	keep_rows(rep, res);
	il_replay_free(rep);
	if (!res->periods)
		return il_error_set(err, il_trace_path(t), 0,
				    "no idle period to replay: record power:cpu_idle");
	return 0;
fail_errno:
	il_error_set(err, il_trace_path(t), 0, "%s while replaying", strerror(errno));
fail:
	il_replay_free(rep);
	return -1;
}
