// SPDX-License-Identifier: GPL-2.0-only
/*
 * run-preset.c - run one governor preset on a platform and a scenario with libidlelab, and
 * print its idles and idle misses: what `idlelab run` shows in its first columns.
 *
 *	cc -o run-preset run-preset.c $(pkg-config --cflags --libs idlelab)
 *	./run-preset [PRESET [PLATFORM [SCENARIO [SECONDS [SEED]]]]]
 *	./run-preset teo-6.12.117 rk3588 fio:jobs=2 1 1
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <idlelab/idlelab.h>

int main(int argc, char **argv)
{
	const char *preset_name = argc > 1 ? argv[1] : "menu";
	const char *platform = argc > 2 ? argv[2] : "skx";
	const char *scenario = argc > 3 ? argv[3] : "fio";
	u64 seconds = argc > 4 ? strtoull(argv[4], NULL, 10) : 1;
	u64 seed = argc > 5 ? strtoull(argv[5], NULL, 10) : 1;
	const struct il_preset *preset;
	struct il_platform *plat;
	struct il_run *run;
	char err[IL_ERRLEN];

	preset = il_preset_find(preset_name);
	if (!preset) {
		fprintf(stderr, "run-preset: unknown preset '%s'\n", preset_name);
		return 1;
	}
	plat = il_platform_open(platform, err, sizeof(err));
	if (!plat) {
		fprintf(stderr, "run-preset: %s\n", err);
		return 1;
	}
	run = il_lab_simulate(plat, preset, scenario, seconds * NSEC_PER_SEC, seed, err, sizeof(err));
	if (!run) {
		fprintf(stderr, "run-preset: %s\n", err);
		il_platform_close(plat);
		return 1;
	}
	printf("%s on %s, %s: %" PRIu64 " idles, %" PRIu64 " idle misses (%" PRIu64 " above, %"
	       PRIu64 " below)\n", preset->name, il_platform_name(plat), scenario, il_run_idles(run),
	       il_run_idle_misses(run), il_run_aboves(run), il_run_belows(run));
	il_run_free(run);
	il_platform_close(plat);
	return 0;
}
