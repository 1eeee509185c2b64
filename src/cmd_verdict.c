// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_verdict.c - `idlelab verdict`: its help text; what it does is src/verdict_cli.c
 * (shared with `idlelab merge`, which turns its case files into the verdict).
 */
#include "commands.h"
#include "verdict_cli.h"

void cmd_verdict_usage(FILE *out)
{
	fprintf(out, "usage: idlelab verdict -g BASE,NEW[,NEW...] [-p LIST|all] [-s SCEN ...|--battery]\n"
		     "                       [--iter N] [--seed N] [--time T] [--alpha A] [--min-effect PCT]\n"
		     "                       [--fail-on worse|any] [--unpaired] [--baseline GOV] [-m LIST]\n"
		     "                       [--ensemble N] [-j N] [-f table|tsv|csv|json] [-o FILE]\n"
		     "                       [--emit-jobs FILE] [--progress|--no-progress]\n"
		     "\n"
		     "Run every scenario on every platform for every governor on the same N seeds and\n"
		     "call each (platform, scenario, metric) cell of every NEW governor better, worse or\n"
		     "same against BASE: worse/better needs an adjusted p-value <= A after correcting for\n"
		     "all the governor's cells (Westfall-Young step-down max-T permutation test, valid\n"
		     "without normality) AND a change of the mean beyond PCT %%. Metrics: the scenario's\n"
		     "score, idle_misses, idle_miss_ratio, aboves, belows, wakeup_p99_us, rejected (lower\n"
		     "is better)\n"
		     "and energy: uJ per unit of work where the score measures work (requests, loops ...),\n"
		     "Joules alone where it does not. A scenario needing more CPUs than a platform has is\n"
		     "n/a there. The table is worst first, then one summary line per NEW governor; tsv and\n"
		     "csv are one long table, json also has the settings and summary. The output is the\n"
		     "same bytes whatever -j is. With the ensemble (default), a cell is better/worse\n"
		     "only when it also moves beyond PCT the same way under every model variant it ran\n"
		     "(the ranges of the platform's and scenario's uncertain numbers); a cell whose\n"
		     "direction depends on the variant is 'sensitive', with the parameters that flip\n"
		     "it. See docs/verdict.md.\n"
		     "\n"
		     "  -g, --governor LIST    presets, aliases or file:OBJ.so[@PRESET]; the first is BASE\n"
		     "  -p, --platform LIST    built-in platforms or platform files, or all (default all)\n"
		     "  -s, --scenario S       NAME[:k=v,...], repeatable\n"
		     "      --battery          the battery's scenario variants (idlelab battery --list)\n"
		     "  -n, --iter N           seeds per governor, N, N+1, ... (default 5; 1: means only)\n"
		     "      --seed N           the first seed (default 1)\n"
		     "  -t, --time T           simulated time per run (default 2s)\n"
		     "                         (units ns, us, ms, s, m, h; a bare number is seconds)\n"
		     "      --alpha A          family-wise error rate per governor (default 0.05)\n"
		     "      --min-effect PCT   smallest change of the mean that counts, %% (default 1)\n"
		     "      --fail-on C        exit 3 when a cell is worse (worse) or not same (any)\n"
		     "      --unpaired         every governor on its own seeds (Welch intervals)\n"
		     "      --baseline GOV     BASE is this governor of -g instead of the first\n"
		     "  -m, --metric LIST      judge only these: score, idle_misses, idle_miss_ratio,\n"
		     "                         aboves, belows, wakeup_p99_us, rejected, energy\n"
		     "                         (default all)\n"
		     "      --ensemble N       model variants of the Latin hypercube per screened (platform,\n"
		     "                         scenario), plus each range's two ends (default 6; 0: the\n"
		     "                         nominal model only, said in the output)\n"
		     "  -j, --jobs N           threads (default: the online CPUs)\n"
		     "  -f, --format F         table (default), tsv, csv or json\n"
		     "  -o, --output FILE      write to FILE (complete or not at all) instead of stdout\n"
		     "      --emit-jobs FILE   run nothing: write one command line per run to FILE, each\n"
		     "                         writing DIR/case-N.csv (DIR: FILE's directory); then\n"
		     "                         'idlelab merge DIR/case-*.csv [-o FILE]' prints the verdict\n"
		     "      --case K           run only case K and write its case file to -o (what the\n"
		     "                         lines of --emit-jobs do)\n"
		     "      --progress         show progress on stderr even when it is not a terminal\n"
		     "      --no-progress      never show progress (default: only on a terminal)\n"
		     "\n"
		     "Exit status: 0, 1 bad input or failure, 2 usage, 3 --fail-on matched.\n");
}

int cmd_verdict(int argc, char **argv)
{
	return verdict_main(argc, argv, cmd_verdict_usage);
}
