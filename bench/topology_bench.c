// SPDX-License-Identifier: GPL-2.0-only
/*
 * topology_bench.c - what per-CPU tables and power domains cost, printed as "name value"
 * lines (`make bench`; docs/lab.md and docs/trace.md give the figures):
 *
 *  1. topo_lab_<gov>_periods_per_s_{flat,domains} and topo_lab_<gov>_domain_ratio: the lab
 *     on rk3399 (fio nvme, 6 CPUs, 10 simulated s) with its two platform-coordinated
 *     cluster domains (platforms/rk3399.plat) and without them (the same text, its domain
 *     lines left out); idle periods per CPU second, fastest of 5 alternating rounds; the goal
 *     is a ratio (domains / flat) of at least 0.9;
 *  2. topo_replay_<gov>_periods_per_s_{one,per_cpu}: replay of the same synthetic periods
 *     on a platform with one table and on the same states split into two per-CPU tables;
 *     goal: at least 2 M periods/s per governor;
 *  3. topo_stats_events_per_s_{one,per_cpu}: idlelab stats' accounting of the same
 *     cpu_idle events with one table and with per-CPU tables.
 * The periods and events come from a seeded generator: the same every run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lab/lab.h"
#include "platform/platform.h"
#include "replay/replay.h"
#include "util/rng.h"
#include "stats/stats.h"
#include "util/array.h"

#define LAB_TIME_NS (10ULL * NSEC_PER_SEC)
#define ROUNDS 5
#define NPERIODS 1000000
#define REPLAY_GOAL 2e6
#define DOMAIN_RATIO_GOAL 0.9

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what, const char *msg)
{
	fprintf(stderr, "topology_bench: %s: %s\n", what, msg);
	exit(1);
}

static void parse(const char *text, const char *name, struct il_platform *plat)
{
	struct il_error err;

	if (il_platform_parse(text, strlen(text), name, plat, &err))
		die(name, err.msg);
}

/* @text without its domain lines and their source notes. */
static char *without_domains(const char *text)
{
	char *out = malloc(strlen(text) + 1), *o = out;
	bool skipping = false;

	if (!out)
		die("memory", "out of memory");
	for (const char *line = text; *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line + 1) : strlen(line);
		const char *p = line;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!strncmp(line, "domain ", 7))
			skipping = true;
		else if (strncmp(p, "source:", 7))
			skipping = false;
		if (!skipping) {
			memcpy(o, line, len);
			o += len;
		}
		line += len;
	}
	*o = '\0';
	return out;
}

static double lab_rate(const struct il_platform *plat, const struct il_preset *p)
{
	struct il_lab_spec spec = { .plat = plat, .preset = p, .duration_ns = LAB_TIME_NS,
				    .seed = 1 };
	struct il_lab_result res;
	struct il_error err;
	double t;

	if (il_scn_parse("fio:device=nvme", &spec.scn, &spec.args, &spec.common, &err))
		die("fio", err.msg);
	t = cpu_seconds();
	if (il_lab_run(&spec, &res))
		die("lab", "the run failed");
	t = cpu_seconds() - t;
	il_lab_result_free(&res);
	return (double)res.sum.idles / t;
}

static void bench_lab(const char *gov)
{
	struct il_platform *dom = malloc(sizeof(*dom)), *flat = malloc(sizeof(*flat));
	const struct il_preset *p = il_preset_find(gov);
	char *text = without_domains(il_platform_builtin_text("rk3399"));
	double best_dom = 0, best_flat = 0;

	if (!dom || !flat || !p)
		die(gov, "no memory or no such preset");
	parse(il_platform_builtin_text("rk3399"), "rk3399", dom);
	parse(text, "rk3399-flat", flat);
	if (!dom->ndomains || flat->ndomains)
		die("rk3399", "expected domains in the built-in and none without them");
	for (int r = 0; r < ROUNDS; r++) {
		double a = lab_rate(flat, p), b = lab_rate(dom, p);

		best_flat = a > best_flat ? a : best_flat;
		best_dom = b > best_dom ? b : best_dom;
	}
	printf("topo_lab_%s_periods_per_s_flat %.0f\n", gov, best_flat);
	printf("topo_lab_%s_periods_per_s_domains %.0f\n", gov, best_dom);
	printf("topo_lab_%s_domain_ratio %.3f\n", gov, best_dom / best_flat);
	printf("topo_lab_%s_domain_goal_met %d\n", gov, best_dom / best_flat >= DOMAIN_RATIO_GOAL);
	free(text);
	free(dom);
	free(flat);
}

/* The same three states, as one table for CPUs 0-1 or as a table per CPU. */
static const char one_table[] =
	"platform b\ndriver psci_idle\ndescription b\ncpus 2\n  source: b\nhz 250\n  source: b\n"
	"state WFI exit_latency=1us target_residency=1us power_uw=100000 entry_exit_energy_nj=0\n"
	"  source: b\n"
	"state cpu-off exit_latency=300us target_residency=800us flags=timer-stop "
	"power_uw=20000 entry_exit_energy_nj=64000\n  source: b\n"
	"state cluster-off exit_latency=800us target_residency=2000us flags=timer-stop "
	"power_uw=5000 entry_exit_energy_nj=94000\n  source: b\n";

static char *per_cpu_tables(void)
{
	const char *states = strstr(one_table, "state WFI");
	size_t head = (size_t)(states - one_table);
	char *out = malloc(2 * sizeof(one_table) + 128);

	if (!out)
		die("memory", "out of memory");
	sprintf(out, "%.*stable a cpus=0\n  source: b\n%stable b cpus=1\n  source: b\n%s",
		(int)head, one_table, states, states);
	return out;
}

static struct il_replay_inputs *synthetic_periods(void)
{
	struct il_replay_inputs *in = calloc(NPERIODS, sizeof(*in));
	struct il_rng rng;
	u64 ts = 0;

	if (!in)
		die("memory", "out of memory");
	il_rng_init(&rng, 1, 25);
	for (size_t i = 0; i < NPERIODS; i++) {
		u64 res = 1000 + il_rng_below(&rng, 4000000);

		in[i].cpu = (unsigned int)(i & 1);
		in[i].enter_ts = ts;
		in[i].exit_ts = ts + res;
		in[i].residency_ns = (s64)res;
		in[i].sleep_ns = (s64)(res + il_rng_below(&rng, 2000000));
		in[i].delta_next_ns = in[i].sleep_ns;
		in[i].tick_stopped = il_rng_chance(&rng, 500);
		in[i].recorded_state = (int)il_rng_below(&rng, 3);
		ts += res + 5000;
	}
	return in;
}

static double replay_rate(const struct il_platform *plat, const char *gov,
			  const struct il_replay_inputs *in)
{
	double best = 0;

	for (int r = 0; r < 3; r++) {
		struct il_replay_cfg cfg = { .plat = plat, .cpu = -1, .ngov = 1 };
		struct il_replay *rp;
		struct il_error err;
		double t;

		cfg.presets[0] = il_preset_find(gov);
		rp = il_replay_new(&cfg, &err);
		if (!rp)
			die(gov, err.msg);
		t = cpu_seconds();
		for (size_t i = 0; i < NPERIODS; i++)
			il_replay_run_period(rp, &in[i]);
		t = cpu_seconds() - t;
		il_replay_free(rp);
		best = NPERIODS / t > best ? NPERIODS / t : best;
	}
	return best;
}

static double stats_rate(const struct il_platform *plat, const struct il_replay_inputs *in)
{
	const struct il_driver *cpu_drv[2] = { il_platform_cpu_drv(plat, 0),
					       il_platform_cpu_drv(plat, 1) };
	struct il_stats_cfg cfg;
	struct il_stats *s;
	double t;

	il_stats_default_cfg(&cfg);
	cfg.drv = &plat->drv;
	if (plat->ntables > 1) {
		cfg.cpu_drv = cpu_drv;
		cfg.ncpu_drv = 2;
	}
	s = il_stats_new(&cfg);
	if (!s)
		die("stats", "out of memory");
	t = cpu_seconds();
	for (size_t i = 0; i < NPERIODS; i++) {
		struct il_trace_event ev = { .type = IL_EV_CPU_IDLE, .cpu = in[i].cpu,
					     .cpu_id = in[i].cpu, .ts_ns = in[i].enter_ts,
					     .state = (u32)in[i].recorded_state };

		il_stats_event(s, &ev);
		ev.ts_ns = in[i].exit_ts;
		ev.state = IL_PWR_EVENT_EXIT;
		il_stats_event(s, &ev);
	}
	t = cpu_seconds() - t;
	il_stats_free(s);
	return 2.0 * NPERIODS / t;
}

static void bench_tables(void)
{
	static const char *const govs[] = { "menu-6.18", "teo-7.1" };
	struct il_platform *one = malloc(sizeof(*one)), *split = malloc(sizeof(*split));
	struct il_replay_inputs *in = synthetic_periods();
	char *text = per_cpu_tables();
	double slowest = -1;

	if (!one || !split)
		die("memory", "out of memory");
	parse(one_table, "one", one);
	parse(text, "split", split);
	for (size_t g = 0; g < ARRAY_SIZE(govs); g++) {
		double a = replay_rate(one, govs[g], in), b = replay_rate(split, govs[g], in);

		printf("topo_replay_%s_periods_per_s_one %.0f\n", govs[g], a);
		printf("topo_replay_%s_periods_per_s_per_cpu %.0f\n", govs[g], b);
		slowest = slowest < 0 || b < slowest ? b : slowest;
	}
	printf("topo_replay_goal_met %d\n", slowest >= REPLAY_GOAL);
	printf("topo_stats_events_per_s_one %.0f\n", stats_rate(one, in));
	printf("topo_stats_events_per_s_per_cpu %.0f\n", stats_rate(split, in));
	free(text);
	free(in);
	free(one);
	free(split);
}

int main(void)
{
	bench_lab("menu-6.18");
	bench_lab("teo-7.1");
	bench_tables();
	return 0;
}
