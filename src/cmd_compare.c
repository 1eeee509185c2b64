// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_compare.c - `idlelab compare`: the linux-pm table, one row per governor and iteration.
 */
#include "commands.h"
#include "lab_cli.h"

void cmd_compare_usage(FILE *out)
{
	fprintf(out, "usage: idlelab compare -g GOV[,GOV...] -p PLATFORM -s SCENARIO[:k=v,...] [-s ...]\n"
		     "                       [--iter N] [--ensemble N] [--baseline GOV] [--time T]\n"
		     "                       [--seed N]\n"
		     "                       [--format table|tsv|csv|json]\n"
		     "\n"
		     "Print the table the linux-pm threads show: one row per scenario, governor and\n"
		     "iteration, with the columns\n"
		     "  device gov iter SCORE idles idle_misses idle_miss_ratio belows aboves joules watts\n"
		     "  nightmares nightmare_s wakeup_p99_us wakeup_p50_us wakeup_mean_us wakeup_max_us\n"
		     "  usage_STATE...\n"
		     "where SCORE is named after the scenario's score (iops, us_per_loop, wakeup_us ...).\n"
		     "Iteration i runs with seed N+i. Scenarios of the same kind share one table.\n"
		     "\n"
		     "With --iter N > 1, each table is followed by its summary, one row per device,\n"
		     "metric (every numeric column) and governor: n, mean, sd, min, max, the 95 %%\n"
		     "confidence interval of the mean (shown as 'mean ± half-width in %%', as perf\n"
		     "stat -r does), and the difference from the baseline in %% with its 95 %% interval\n"
		     "and p, paired by seed ('-12.1 %% [-14.0, -10.2]  0.003'). json adds each summary\n"
		     "as a table 'TITLE summary'.\n"
		     "tsv and csv print ONE table when there is more than one: columns scenario, row\n"
		     "(iter or summary, with --iter > 1), then the union of the tables' columns; '-' where\n"
		     "a row has no value (docs/lab.md, \"Summary statistics\").\n"
		     "With --ensemble E, each seed runs under E model variants (a Latin hypercube over\n"
		     "the ranges of the platform's and scenario's uncertain numbers, the verdict's):\n"
		     "row iter k is seed N + k / E under variant k %% E, the same for every governor,\n"
		     "so the summary's intervals carry the seed and the model spread together.\n"
		     "\n"
		     "  -g, --governor LIST    presets or aliases, comma-separated or repeated\n"
		     "  -p, --platform P       a built-in platform or a platform file\n"
		     "  -s, --scenario S       NAME[:k=v,...], repeatable\n"
		     "  -n, --iter N           iterations per governor (default 1)\n"
		     "      --ensemble N       model variants per seed (default 0: the nominal model)\n"
		     "      --baseline GOV     the governor the summaries compare with (default: the first -g)\n"
		     "  -t, --time T           simulated time per run (default 10s)\n"
		     "                         (units ns, us, ms, s, m, h; a bare number is seconds)\n"
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
	return lab_main(argc, argv, true, cmd_compare_usage);
}
