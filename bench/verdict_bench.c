// SPDX-License-Identifier: GPL-2.0-only
/*
 * verdict_bench.c - the time of `idlelab verdict -g menu-6.16,menu-6.17 -p all --battery`
 * at its defaults (5 seeds, IL_VERDICT_TIME_NS per run) on one thread per online CPU,
 * printed as "name value" lines: the runs' wall and CPU seconds, the judging's (the max-T
 * permutation test over every cell), and the load average around it, since the figure
 * means little on a machine that other work shares.
 *
 * An optional argument is the simulated time per run in ms (for the noise-against-time
 * measurements of docs/verdict.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gov/governors.h"
#include "platform/platform.h"
#include "lab/battery.h"
#include "verdict/verdict.h"

#define MAX_PLAT 16
#define MAX_SCN 64

static double seconds(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double load1(void)
{
	double l[1];

	return getloadavg(l, 1) == 1 ? l[0] : -1.0;
}

int main(int argc, char **argv)
{
	static struct il_platform plat[MAX_PLAT];
	static const char *plat_names[MAX_PLAT], *specs[MAX_SCN];
	static const struct il_scenario *scn[MAX_SCN];
	static struct il_scn_args args[MAX_SCN];
	static struct il_scn_common common[MAX_SCN];
	const char *gov[] = { "menu-6.16", "menu-6.17" };
	const struct il_preset *presets[2];
	int nplat = il_platform_builtin_count(), nscn = il_battery_count();
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct il_verdict_opts o = { .alpha = IL_VERDICT_DEFAULT_ALPHA, .min_effect_pct = IL_VERDICT_DEFAULT_MIN_EFFECT,
				     .paired = true, .metrics = IL_VM_ALL, .perm_seed = 1 };
	struct il_verdict v;
	struct il_verdict_plan pl;
	struct il_verdict_count k;
	struct il_error err;
	double wall, cpu, jwall, l0, runs = 0;
	size_t failed;
	char line[2048];

	for (int g = 0; g < 2; g++)
		if (!(presets[g] = il_preset_find(gov[g])))
			return 1;
	for (int p = 0; p < nplat; p++) {
		if (il_platform_load(il_platform_builtin_name(p), &plat[p], &err)) {
			fprintf(stderr, "verdict_bench: %s\n", err.msg);
			return 1;
		}
		plat_names[p] = plat[p].name;
	}
	for (int s = 0; s < nscn; s++) {
		specs[s] = il_battery_at(s)->spec;
		if (il_scn_parse(specs[s], &scn[s], &args[s], &common[s], &err))
			return 1;
	}
	if (il_verdict_init(&v, nplat, nscn, 2, 0, IL_VERDICT_DEFAULT_ITER))
		return 1;
	v.gov = gov;
	v.plat = plat_names;
	v.spec = specs;
	v.scn = scn;
	v.args = args;
	pl = (struct il_verdict_plan){ .plat = plat, .preset = presets, .common = common,
				       .duration_ns = argc > 1 ? strtoull(argv[1], NULL, 10) * 1000000ULL
							       : IL_VERDICT_TIME_NS,
				       .seed = 1, .paired = true, .threads = cpus < 1 ? 1 : (unsigned int)cpus };
	il_verdict_mark_na(&v, &pl);
	for (int i = 0; i < nplat * nscn; i++)
		runs += v.na[i][0] ? 0 : 2 * IL_VERDICT_DEFAULT_ITER;
	l0 = load1();
	wall = seconds(CLOCK_MONOTONIC);
	cpu = seconds(CLOCK_PROCESS_CPUTIME_ID);
	if (il_verdict_run(&v, &pl, &failed)) {
		perror("verdict_bench");
		return 1;
	}
	jwall = seconds(CLOCK_MONOTONIC);
	if (il_verdict_judge(&v, &o)) {
		perror("verdict_bench");
		return 1;
	}
	jwall = seconds(CLOCK_MONOTONIC) - jwall;
	wall = seconds(CLOCK_MONOTONIC) - wall;
	cpu = seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu;
	il_verdict_counts(&v, 1, &k);
	printf("verdict_runs %.0f\n", runs);
	printf("verdict_cells %d\n", v.ncells);
	printf("verdict_simulated_s_per_run %.3f\n", (double)pl.duration_ns / 1e9);
	printf("verdict_threads %u\n", pl.threads);
	printf("verdict_wall_s %.1f\n", wall);
	printf("verdict_cpu_s %.1f\n", cpu);
	printf("verdict_judge_wall_s %.3f\n", jwall);
	printf("verdict_loadavg_1m_before %.2f\n", l0);
	printf("verdict_loadavg_1m_after %.2f\n", load1());
	printf("verdict_worse_cells %d\n", k.worse);
	printf("verdict_better_cells %d\n", k.better);
	fprintf(stderr, "verdict_bench: %s\n", il_verdict_summary(&v, 1, line, sizeof(line)));
	il_verdict_free(&v);
	return 0;
}
