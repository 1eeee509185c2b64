// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_compare.c - `idlelab compare`: the linux-pm table, one row per governor and iteration.
 */
#include "commands.h"
#include "lab_cli.h"

void cmd_compare_usage(FILE *out)
{
	fprintf(out, "usage: idlelab compare -g GOV[,GOV...] -p PLATFORM -s SCENARIO[:k=v,...] [-s ...]\n"
		     "                       [--iter N] [--time T] [--seed N] [--format table|tsv|csv|json]\n"
		     "\n"
		     "Print the table the linux-pm threads show: one row per scenario, governor and\n"
		     "iteration, with the columns\n"
		     "  device gov iter SCORE idles idle_misses idle_miss_ratio belows aboves joules watts\n"
		     "  nightmares nightmare_s wakeup_p99_us usage_STATE...\n"
		     "where SCORE is named after the scenario's score (iops, us_per_loop, wakeup_us ...).\n"
		     "Iteration i runs with seed N+i. Scenarios of the same kind share one table.\n"
		     "\n"
		     "  -g, --governor LIST    presets or aliases, comma-separated or repeated\n"
		     "  -p, --platform P       a built-in platform or a platform file\n"
		     "  -s, --scenario S       NAME[:k=v,...], repeatable\n"
		     "  -n, --iter N           iterations per governor (default 1)\n"
		     "  -t, --time T           simulated time per run (default 10s)\n"
		     "      --seed N           seed of the first iteration (default 1)\n"
		     "  -f, --format F         table (default), tsv, csv or json\n"
		     "      --pn-us LIST       PowerNightmare thresholds per state, us\n"
		     "      --active-mw MW     power of a busy CPU for the energy model\n"
		     "  -o, --output FILE      write to FILE (complete or not at all) instead of stdout\n"
		     "      --bound            also, per scenario, each row's gap to the open-loop bound\n"
		     "                         of its own idle periods (docs/governor.md)\n");
}

int cmd_compare(int argc, char **argv)
{
	return lab_main(argc, argv, true);
}
