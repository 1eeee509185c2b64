// SPDX-License-Identifier: GPL-2.0-only
/*
 * setup.c - step 1 of a measurement (live.h): read the machine under the root and check
 * every option against it before anything is changed, so that a measurement that cannot
 * run fails with the settings untouched and no lock taken.
 *
 *  1. A cpuidle driver must be registered (else there are no counters) and current_governor
 *     must exist (5.8+, or cpuidle_sysfs_switch).
 *  2. The governors are kept in the order given without repeats; one missing from
 *     available_governors refuses the A/B (an A/B without one arm is not the one asked
 *     for) unless allow_missing, which skips it and says so.
 *  3. The measured CPUs: those of the --cpus list, each of which must exist, have cpuidle
 *     and be online; else every online CPU with cpuidle.
 *  4. Every --disable state is looked up on every measured CPU; its disable file, like
 *     current_governor, must be writable now (else: root is needed).
 *  5. Then who runs the command, RAPL (absent zones are said once: joules stays "-"), a
 *     line saying what is measured, and the load average (not quiet: said).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "live.h"

#define CPUIDLE_DIR "/sys/devices/system/cpu/cpuidle"

static const struct il_live_hooks *hooks(const struct il_live_session *s)
{
	return &s->hooks;
}

static int check_cpuidle(struct il_live_session *s, struct il_error *err)
{
	char path[IL_LIVE_PATH_MAX];

	if (il_live_init(&s->lv, s->opts->root, err) || il_live_read_cpuidle(&s->lv, &s->ci, err))
		return -1;
	if (!il_live_has_driver(&s->ci))
		return il_error_set(err, NULL, 0, "no cpuidle driver is registered "
				    "(current_driver: %s): there are no idle-state counters to "
				    "measure", s->ci.driver);
	if (!s->ci.can_switch) {
		il_live_path(&s->lv, path, sizeof(path), CPUIDLE_DIR "/current_governor");
		return il_error_set(err, NULL, 0, "%s: missing: this kernel cannot switch "
				    "governors at run time (5.8+, or boot with "
				    "cpuidle_sysfs_switch)", path);
	}
	return 0;
}

static bool picked(const struct il_live_session *s, const char *g)
{
	for (int k = 0; k < s->ngov; k++)
		if (!strcmp(s->gov[k], g))
			return true;
	return false;
}

static int pick_governors(struct il_live_session *s, struct il_error *err)
{
	char list[IL_LIVE_GOV_MAX * (IL_LIVE_GOV_NAME_LEN + 1) + 1] = " none";
	size_t used = 0;

	for (int k = 0; k < s->ci.ngov; k++)
		used += (size_t)snprintf(list + used, sizeof(list) - used, " %s",
					 s->ci.available[k]);
	for (int i = 0; i < s->opts->ngov; i++) {
		const char *g = s->opts->governors[i];

		if (picked(s, g))
			continue;
		if (il_live_governor_available(&s->ci, g)) {
			s->gov[s->ngov++] = g;
			continue;
		}
		if (!s->opts->allow_missing) {
			il_error_set(err, NULL, 0, "governor '%s' is not available here "
				     "(available_governors:%s): an A/B without it is not the one "
				     "asked for", g, list);
			return il_error_need(err, IL_NEED_ALLOW_MISSING);
		}
		il_live_say(hooks(s), IL_LIVE_WARNING, "governor '%s' is not available here "
			    "(available_governors:%s); skipped", g, list);
	}
	if (!s->ngov)
		return il_error_set(err, NULL, 0, "none of the governors given is available; "
				    "nothing to measure");
	return 0;
}

static bool in_list(const unsigned int *list, int n, unsigned int v)
{
	for (int i = 0; i < n; i++)
		if (list[i] == v)
			return true;
	return false;
}

/* Whether CPU @cpu (its states in @c) is measured: 1 or 0, or -1 with @err set for a CPU of
 * --cpus (@wanted) that cannot be. */
static int measurable(const struct il_live_cpu *c, unsigned int cpu, bool wanted,
		      struct il_error *err)
{
	if (!c->has_cpuidle)
		return wanted ? il_error_input(err, IL_INPUT_CPUS, "cpu%u has no cpuidle directory "
					      "(offline?)", cpu) : 0;
	/* It keeps its cpuidle directory, but does not idle: nothing to measure. */
	if (c->offline)
		return wanted ? il_error_input(err, IL_INPUT_CPUS, "cpu%u is offline",
						      cpu) : 0;
	return 1;
}

static int keep_cpus(struct il_live_session *s, const unsigned int *all, int nall,
		     const unsigned int *want, int nwant, struct il_error *err)
{
	for (int i = 0; i < nwant; i++)
		if (!in_list(all, nall, want[i]))
			return il_error_input(err, IL_INPUT_CPUS, "cpu%u does not exist",
					      want[i]);
	for (int i = 0; i < nall; i++) {
		struct il_live_cpu *c = &s->before[s->ncpu];
		int ok;

		if (nwant && !in_list(want, nwant, all[i]))
			continue;
		if (il_live_read_cpu(&s->lv, all[i], IL_LIVE_READ_ALL, c, err))
			return -1;
		ok = measurable(c, all[i], nwant > 0, err);
		if (ok < 0)
			return -1;
		if (ok)
			s->cpu[s->ncpu++] = all[i];
	}
	if (!s->ncpu)
		return il_error_set(err, NULL, 0, "no CPU has a cpuidle directory; nothing to "
				    "measure");
	return 0;
}

static int pick_cpus(struct il_live_session *s, struct il_error *err)
{
	unsigned int *all = NULL, *want = NULL;
	int nall, nwant = 0, ret = -1;

	nall = il_live_list_cpus(&s->lv, &all, err);
	if (nall < 0)
		return -1;
	if (s->opts->cpus) {
		nwant = il_live_parse_cpulist(s->opts->cpus, &want, err);
		if (nwant < 0)
			goto out;
	}
	s->cpu = calloc((size_t)nall, sizeof(*s->cpu));
	s->before = calloc((size_t)nall, sizeof(*s->before));
	s->after = calloc((size_t)nall, sizeof(*s->after));
	if (!s->cpu || !s->before || !s->after)
		il_error_set(err, NULL, 0, "out of memory");
	else
		ret = keep_cpus(s, all, nall, want, nwant, err);
out:
	free(all);
	free(want);
	return ret;
}

/* Every --disable state on every measured CPU, as the list of disable files to write. */
static int resolve_disable(struct il_live_session *s, struct il_error *err)
{
	int cap = s->opts->ndisable * s->ncpu;

	if (!cap)
		return 0;
	s->disable_path = calloc((size_t)cap, sizeof(*s->disable_path));
	if (!s->disable_path)
		return il_error_set(err, NULL, 0, "out of memory");
	for (int c = 0; c < s->ncpu; c++) {
		for (int k = 0; k < s->opts->ndisable; k++) {
			const char *spec = s->opts->disable[k];
			int idx = il_live_find_state(&s->before[c], spec);
			char *path = s->disable_path[s->ndisable_paths];

			if (idx < 0)
				return il_error_input(err, IL_INPUT_DISABLE, "cpu%u has no state "
						      "'%s'",
						     s->cpu[c], spec);
			if (il_live_path(&s->lv, path, IL_LIVE_PATH_MAX,
					 "/sys/devices/system/cpu/cpu%u/cpuidle/state%d/disable",
					 s->cpu[c], idx))
				return il_error_set(err, NULL, 0, "path too long");
			s->ndisable_paths++;
		}
	}
	return 0;
}

static int compile_metrics(struct il_live_session *s, struct il_error *err)
{
	for (int i = 0; i < s->opts->nmetric; i++)
		if (il_live_metric_parse(s->opts->metrics[i], &s->metric[i], err))
			return -1;
	return 0;
}

/* Fail before anything changes when a file we will write is not writable. */
static int check_writable(struct il_live_session *s, struct il_error *err)
{
	char path[IL_LIVE_PATH_MAX];

	if (il_live_path(&s->lv, path, sizeof(path), CPUIDLE_DIR "/current_governor") ||
	    il_live_check_writable(path, err))
		return -1;
	for (int i = 0; i < s->ndisable_paths; i++)
		if (il_live_check_writable(s->disable_path[i], err))
			return -1;
	return 0;
}

static int resolve_user(struct il_live_session *s, struct il_error *err)
{
	char note[IL_ERROR_LEN];

	if (il_live_user_resolve(&s->user, s->opts->user, s->opts->sudo_uid, s->opts->sudo_gid,
				 note, sizeof(note), err))
		return -1;
	if (note[0])
		il_live_say_need(hooks(s), IL_LIVE_INFO, IL_NEED_ROOT_USER, "%s", note);
	return 0;
}

static void open_rapl(struct il_live_session *s)
{
	struct il_error err;

	if (il_live_rapl_open(&s->lv, &s->rapl, &err)) {
		s->rapl.status = IL_RAPL_ABSENT;
		snprintf(s->rapl.why, sizeof(s->rapl.why), "%s", err.msg);
	}
	/* Said once, here: joules stays "-" in every row. */
	if (s->rapl.status != IL_RAPL_OK)
		il_live_say(hooks(s), IL_LIVE_WARNING, "energy: not measured, %s", s->rapl.why);
}

/* One line before the runs: what is measured, so a log says it. */
static void announce(const struct il_live_session *s)
{
	char gov[IL_LIVE_MEASURE_GOV_MAX * (IL_LIVE_GOV_NAME_LEN + 1) + 1] = "";
	char energy[IL_LIVE_RAPL_MAX * 66 + 8] = "none";
	unsigned int iter = s->opts->iter;
	size_t used = 0;

	for (int i = 0; i < s->ngov; i++)
		used += (size_t)snprintf(gov + used, sizeof(gov) - used, "%s%s", i ? " " : "",
					 s->gov[i]);
	if (s->rapl.status == IL_RAPL_OK) {
		used = (size_t)snprintf(energy, sizeof(energy), "RAPL");
		for (int i = 0; i < s->rapl.nzones; i++)
			used += (size_t)snprintf(energy + used, sizeof(energy) - used, " %s",
						 s->rapl.zone[i].name);
	}
	il_live_say(hooks(s), IL_LIVE_INFO, "%s driver on %d CPU%s (cpu%u..cpu%u); governors %s; "
		    "%u iteration%s; settle %.3gs; energy %s", s->ci.driver, s->ncpu,
		    s->ncpu == 1 ? "" : "s", s->cpu[0], s->cpu[s->ncpu - 1], gov, iter,
		    iter == 1 ? "" : "s", (double)s->opts->settle_ns / 1e9, energy);
}

/* Before the first run: the load average (ROOT/proc/loadavg), and every process's CPU time. */
static void check_load(struct il_live_session *s)
{
	struct il_error err;
	double load;

	if (il_live_loadavg(&s->lv, &load, &err))
		il_live_say(hooks(s), IL_LIVE_WARNING, "quiet check: %s; the load average is not "
			    "checked", err.msg);
	else if (load > IL_LIVE_QUIET_LOAD)
		il_live_say(hooks(s), IL_LIVE_WARNING, "the machine is not quiet: load average "
			    "%.2f over the last minute (more than %.1f); the runs share the CPUs "
			    "with it", load, IL_LIVE_QUIET_LOAD);
	if (il_live_procs_read(&s->lv, &s->procs_before, &err))
		il_live_say(hooks(s), IL_LIVE_WARNING, "quiet check: %s; other processes are not "
			    "checked", err.msg);
	else
		s->procs_ok = true;
}

int il_live_session_init(struct il_live_session *s, const struct il_live_measure_opts *opts,
			 const struct il_live_hooks *h, struct il_error *err)
{
	memset(s, 0, sizeof(*s));
	s->opts = opts;
	s->lock_fd = -1;
	if (h)
		s->hooks = *h;
	if (check_cpuidle(s, err) || pick_governors(s, err) || pick_cpus(s, err) ||
	    resolve_disable(s, err) || compile_metrics(s, err) || check_writable(s, err) ||
	    resolve_user(s, err))
		return -1;
	open_rapl(s);
	announce(s);
	check_load(s);
	s->rows = calloc((size_t)s->ngov * opts->iter, sizeof(*s->rows));
	if (!s->rows || il_live_output_init(&s->output, IL_LIVE_CAPTURE_MAX, err))
		return il_error_set(err, NULL, 0, "out of memory");
	return 0;
}
