// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_run.c - `idlelab run`: one governor, one platform, one scenario in the simulator.
 */
#include "commands.h"
#include "lab_cli.h"

void cmd_run_usage(FILE *out)
{
	fprintf(out, "usage: idlelab run -g GOV -p PLATFORM -s SCENARIO[:k=v,...] [--time T] "
		     "[--seed N]\n"
		     "                   [--format table|tsv|csv|json] [--pn-us A,B,C,D] "
		     "[--active-mw MW]\n"
		     "                   [--label NAME=VALUE ...] [-o FILE]\n"
		     "                   [--perfetto FILE [--perfetto-limit N] [--perfetto-window "
		     "A..B]]\n"
		     "\n"
		     "Simulate SCENARIO on PLATFORM with governor preset GOV and print the "
		     "linux-pm row\n"
		     "(score, idles, idle_misses, idle_miss_ratio, belows, aboves, Joules, W,\n"
		     "PowerNightmares, wakeup latency p99, usage per state), then with table and "
		     "json\n"
		     "the run, per-state and per-CPU details. The same arguments give the same "
		     "bytes.\n"
		     "\n"
		     "  -g, --governor GOV     a preset or alias (see 'idlelab governors')\n"
		     "  -p, --platform P       a built-in platform or a platform file\n"
		     "  -s, --scenario S       NAME[:k=v,...]; every scenario takes cpus=, "
		     "tick_hz=, qos_us=\n"
		     "                         (see 'idlelab scenarios')\n"
		     "  -t, --time T           simulated time: 30s, 500ms, 2m (default 10s)\n"
		     "                         (units ns, us, ms, s, m, h; a bare number is "
		     "seconds)\n"
		     "      --seed N           seed of the run's random streams (default 1)\n"
		     "  -f, --format F         table (default), tsv, csv or json\n"
		     "      --pn-us LIST       PowerNightmare thresholds per state, us (default\n"
		     "                         100,1000,2000,4000; the last repeats for deeper "
		     "states)\n"
		     "      --active-mw MW     power of a busy CPU for the energy model (default: "
		     "the\n"
		     "                         platform's active_power_uw, else its polling "
		     "state's\n"
		     "                         power; energy is unknown without any)\n"
		     "      --label NAME=VAL   a leading column NAME of the row with VAL, "
		     "repeatable\n"
		     "                         (what 'idlelab sweep --emit-jobs' uses to name its "
		     "cases)\n"
		     "  -o, --output FILE      write to FILE (complete or not at all) instead of "
		     "stdout\n"
		     "      --bound            also the open-loop bound of the run's idle periods "
		     "(the\n"
		     "                         energy / added exit latency frontier) and the "
		     "governor's\n"
		     "                         gap to it at equal added latency "
		     "(docs/governor.md)\n"
		     PERFETTO_CLI_USAGE);
}

int cmd_run(int argc, char **argv)
{
	return lab_main(argc, argv, false, cmd_run_usage);
}
