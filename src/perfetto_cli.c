// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfetto_cli.c - the --perfetto options of run and replay, and writing the file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_opts.h"
#include "perfetto_cli.h"
#include "util/atomic.h"

void perfetto_args_init(struct perfetto_args *a)
{
	memset(a, 0, sizeof(*a));
	a->limit = IL_TIMELINE_LIMIT_DEFAULT;
}

/* A window bound: a duration as --time takes it, or 0. */
static int parse_bound(const char *s, const char *end, uint64_t *ns)
{
	char buf[64];
	size_t len = (size_t)(end - s);

	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (!strcmp(buf, "0")) {
		*ns = 0;
		return 0;
	}
	return cli_parse_time(buf, ns);
}

int perfetto_parse_window(const char *s, uint64_t *from_ns, uint64_t *to_ns)
{
	const char *dots = strstr(s, "..");
	uint64_t from = 0, to = 0;

	if (!dots || (dots == s && !dots[2]))
		return -1; /* no "..", or ".." alone */
	if (dots > s && parse_bound(s, dots, &from))
		return -1;
	if (dots[2] && (parse_bound(dots + 2, dots + 2 + strlen(dots + 2), &to) || to <= from))
		return -1;
	*from_ns = from;
	*to_ns = to;
	return 0;
}

int perfetto_option(struct perfetto_args *a, enum perfetto_opt which, const char *value,
		    struct cli_error *err)
{
	switch (which) {
	case PERFETTO_OPT_FILE:
		if (!*value || !strcmp(value, "-"))
			return cli_error_set(err, "--perfetto needs a file name");
		a->path = value;
		return CLI_PARSE_OK;
	case PERFETTO_OPT_LIMIT:
		if (cli_parse_count(value, UINT64_MAX, &a->limit))
			return cli_error_set(err, "--perfetto-limit: '%s' is not a count of events "
						  "(0: no limit)",
					     value);
		a->limit_set = true;
		return CLI_PARSE_OK;
	case PERFETTO_OPT_WINDOW:
		if (perfetto_parse_window(value, &a->from_ns, &a->to_ns))
			return cli_error_set(err, "--perfetto-window: '%s' is not A..B (e.g. "
						  "100ms..150ms, 2s..)",
					     value);
		a->window_set = true;
		return CLI_PARSE_OK;
	}
	return CLI_PARSE_ERROR;
}

int perfetto_check(const struct perfetto_args *a, struct cli_error *err)
{
	if (!a->path && (a->limit_set || a->window_set))
		return cli_error_set(err, "--perfetto-limit and --perfetto-window need --perfetto "
					  "FILE");
	return CLI_PARSE_OK;
}

struct il_timeline *perfetto_open(const struct perfetto_args *a, const char *cmd)
{
	struct il_timeline_opts opts = { .limit = a->limit, .from_ns = a->from_ns,
					.to_ns = a->to_ns };
	struct il_timeline *tl = il_timeline_new(&opts);

	if (!tl)
		fprintf(stderr, "idlelab %s: %s\n", cmd, strerror(errno));
	return tl;
}

int perfetto_save(struct il_timeline *tl, const struct perfetto_args *a, const char *cmd)
{
	struct il_atomic out;

	if (il_atomic_open(&out, a->path)) {
		char why[CLI_WHY_LEN];

		fprintf(stderr, "idlelab %s: %s: %s\n", cmd, a->path,
			il_atomic_strerror(a->path, errno, why, sizeof(why)));
		return CLI_EXIT_RUNTIME;
	}
	errno = 0;
	if (il_timeline_write(tl, out.f)) {
		if (!errno)
			errno = EIO;
		il_atomic_abort(&out);
		fprintf(stderr, "idlelab %s: writing %s: %s\n", cmd, a->path, strerror(errno));
		return CLI_EXIT_RUNTIME;
	}
	if (il_atomic_commit(&out)) {
		fprintf(stderr, "idlelab %s: writing %s: %s\n", cmd, a->path, strerror(errno));
		return CLI_EXIT_RUNTIME;
	}
	return CLI_EXIT_OK;
}

void perfetto_note_truncation(const struct il_timeline *tl, const struct perfetto_args *a,
			      const char *cmd)
{
	u64 at;
	char us[48];

	if (!il_timeline_truncated(tl, &at))
		return;
	fprintf(stderr, "idlelab %s: %s: --perfetto-limit %llu reached, the timeline is complete "
			"up to "
			"ts %s us only (see --perfetto-window)\n",
		cmd, a->path, (unsigned long long)a->limit, cli_ns_to_us((long long)at, us,
			sizeof(us)));
}

/* ---- run ------------------------------------------------------------------------------------ */

static int sim_failed(struct perfetto_sim *ps, const char *cmd)
{
	fprintf(stderr, "idlelab %s: timeline: %s\n", cmd, strerror(errno));
	perfetto_sim_free(ps);
	return CLI_EXIT_RUNTIME;
}

int perfetto_sim_begin(struct perfetto_sim *ps, const struct perfetto_args *a,
		       struct il_lab_spec *spec,
		       const char *cmd)
{
	char name[512], params[256];

	memset(ps, 0, sizeof(*ps));
	ps->tl = perfetto_open(a, cmd);
	if (!ps->tl)
		return CLI_EXIT_RUNTIME;
	il_scn_format_args(spec->scn, &spec->args, params, sizeof(params));
	snprintf(name, sizeof(name), "%s on %s: %s%s%s (seed %llu)", spec->preset->name,
		 spec->plat->name,
		 spec->scn->name, *params ? ":" : "", params, (unsigned long long)spec->seed);
	il_lab_power(spec->plat, spec->active_uw, &ps->pw);
	ps->pid = il_timeline_process_plat(ps->tl, name, spec->plat, &ps->pw, true);
	if (ps->pid < 0)
		return sim_failed(ps, cmd);
	il_tl_sim_init(&ps->sim, ps->tl, ps->pid);
	il_tl_sim_observer(&ps->sim, &ps->obs);
	spec->observer = &ps->obs;
	return CLI_EXIT_OK;
}

static int sim_meta(struct perfetto_sim *ps, const struct il_lab_spec *spec,
		    const struct il_lab_result *res)
{
	char params[256], num[32];
	int err = 0;

	il_scn_format_args(spec->scn, &spec->args, params, sizeof(params));
	err |= il_timeline_meta(ps->tl, "command", "run");
	err |= il_timeline_meta(ps->tl, "governor", spec->preset->name);
	err |= il_timeline_meta(ps->tl, "platform", spec->plat->name);
	err |= il_timeline_meta(ps->tl, "scenario", spec->scn->name);
	err |= il_timeline_meta(ps->tl, "params", params);
	snprintf(num, sizeof(num), "%llu", (unsigned long long)spec->seed);
	err |= il_timeline_meta(ps->tl, "seed", num);
	snprintf(num, sizeof(num), "%llu", (unsigned long long)spec->duration_ns);
	err |= il_timeline_meta(ps->tl, "time_ns", num);
	snprintf(num, sizeof(num), "%u", res->ncpus);
	err |= il_timeline_meta(ps->tl, "cpus", num);
	err |= il_timeline_meta(ps->tl, "power", ps->pw.known ? "model values (platform power "
								"numbers)"
							      : "unknown: no power counters");
	return err;
}

int perfetto_sim_end(struct perfetto_sim *ps, const struct perfetto_args *a,
		     const struct il_lab_spec *spec,
		     const struct il_lab_result *res, const char *cmd)
{
	int ret;

	if (il_tl_sim_finish(&ps->sim, res->ncpus, spec->duration_ns) || sim_meta(ps, spec, res))
		return sim_failed(ps, cmd);
	ret = perfetto_save(ps->tl, a, cmd);
	if (ret == CLI_EXIT_OK)
		perfetto_note_truncation(ps->tl, a, cmd);
	perfetto_sim_free(ps);
	return ret;
}

void perfetto_sim_free(struct perfetto_sim *ps)
{
	il_timeline_free(ps->tl);
	ps->tl = NULL;
}
