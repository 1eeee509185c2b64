// SPDX-License-Identifier: GPL-2.0-only
/*
 * battery_bench.c - the time of the default battery of `idlelab battery` and `make demo`
 * (lib/lab/battery.h), printed as "name value" lines: wall and CPU seconds on one
 * thread per online CPU, and simulated idle periods per CPU second over all its runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gov/governors.h"
#include "platform/platform.h"
#include "lab/battery.h"

#define MAX_GOV 16
#define MAX_PLAT 4

static double seconds(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int split(const char *list, char *buf, size_t cap, const char **out, int max)
{
	char *save = NULL;
	int n = 0;

	snprintf(buf, cap, "%s", list);
	for (char *s = strtok_r(buf, ",", &save); s && n < max; s = strtok_r(NULL, ",", &save))
		out[n++] = s;
	return n;
}

int main(void)
{
	static struct il_platform plat[MAX_PLAT];
	const char *govs[MAX_GOV], *plats[MAX_PLAT];
	char gbuf[256], pbuf[64];
	int ngov = split(IL_BATTERY_GOVERNORS, gbuf, sizeof(gbuf), govs, MAX_GOV);
	int nplat = split(IL_BATTERY_PLATFORMS, pbuf, sizeof(pbuf), plats, MAX_PLAT);
	int nvar = il_battery_count();
	size_t n = (size_t)ngov * (size_t)nplat * (size_t)nvar, k = 0;
	struct il_lab_spec *specs = calloc(n, sizeof(*specs));
	struct il_lab_result *res = calloc(n, sizeof(*res));
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct il_error err;
	double wall, cpu;
	u64 idles = 0;

	if (!specs || !res)
		return 1;
	for (int p = 0; p < nplat; p++) {
		if (il_platform_load(plats[p], &plat[p], &err)) {
			fprintf(stderr, "battery_bench: %s\n", err.msg);
			return 1;
		}
		for (int v = 0; v < nvar; v++) {
			for (int g = 0; g < ngov; g++, k++) {
				struct il_lab_spec *s = &specs[k];

				s->plat = &plat[p];
				s->preset = il_preset_find(govs[g]);
				if (!s->preset || il_scn_parse(il_battery_at(v)->spec, &s->scn, &s->args, &s->common, &err)) {
					fprintf(stderr, "battery_bench: cannot set up %s %s\n", govs[g], il_battery_at(v)->spec);
					return 1;
				}
				s->duration_ns = IL_BATTERY_TIME_NS;
				s->seed = 1;
			}
		}
	}
	wall = seconds(CLOCK_MONOTONIC);
	cpu = seconds(CLOCK_PROCESS_CPUTIME_ID);
	if (il_lab_run_all(specs, res, n, cpus < 1 ? 1 : (unsigned int)cpus, NULL)) {
		perror("battery_bench");
		return 1;
	}
	wall = seconds(CLOCK_MONOTONIC) - wall;
	cpu = seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu;
	for (k = 0; k < n; k++) {
		idles += res[k].sum.idles;
		il_lab_result_free(&res[k]);
	}
	printf("battery_runs %zu\n", n);
	printf("battery_simulated_s_per_run %.0f\n", (double)IL_BATTERY_TIME_NS / 1e9);
	printf("battery_threads %ld\n", cpus);
	printf("battery_wall_s %.1f\n", wall);
	printf("battery_cpu_s %.1f\n", cpu);
	printf("battery_idle_periods_per_cpu_s %.0f\n", (double)idles / cpu);
	free(specs);
	free(res);
	return 0;
}
