// SPDX-License-Identifier: GPL-2.0-only
/*
 * kgov_check_cli.c - `idlelab kgov check`: a file and a port in lockstep; the watchdog that ends
 * a governor call which hangs (shared with record and diff).
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "kgov_args.h"
#include "kgov_cli.h"
#include "kgov/kgov.h"

/*
 * A governor file that loops forever (a mutated get_typical_interval() can) would hang the
 * check: a watchdog ends it when no decision finished for WATCHDOG_SECONDS.
 */
#define WATCHDOG_SECONDS 10

struct il_kgov_progress kgov_watchdog_progress;
static unsigned long long watchdog_seen;

static void put_str(const char *s)
{
	ssize_t ignored = write(STDERR_FILENO, s, strlen(s));

	(void)ignored;
}

static void watchdog(int sig)
{
	char num[24], *p = num + sizeof(num) - 1;
	unsigned long long n = kgov_watchdog_progress.decisions;
	const char *in = (const char *)kgov_watchdog_progress.in;

	(void)sig;
	if (n != watchdog_seen || !in) {
		watchdog_seen = n;
		alarm(WATCHDOG_SECONDS);
		return;
	}
	*p = '\0';
	do {
		*--p = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	put_str("idlelab kgov: decision #");
	put_str(p);
	put_str(" did not finish: ");
	put_str(in);
	put_str(" hangs (no progress for 10 s)\n");
	_exit(CLI_EXIT_RUNTIME);
}

void kgov_start_watchdog(void)
{
	struct sigaction sa = { .sa_handler = watchdog };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	alarm(WATCHDOG_SECONDS);
}

static void print_counters(const struct il_preset *up)
{
	struct il_kgov_counters c;

	if (il_kgov_counters(up, &c))
		return;
	if (c.warns || c.printks)
		printf("note: the kernel file issued %lu WARN()s and %lu printk()s during the "
		       "check\n",
		       c.warns, c.printks);
	if (c.shim_errors)
		printf("note: %lu shim errors (kernel calls the shim could not answer for the "
		       "current CPU); the result is not trustworthy\n", c.shim_errors);
}

int kgov_cmd_check(const struct kgov_args *args)
{
	struct il_kgov_check_opts opts = { .seed = args->seed, .steps = args->steps,
					   .platform = args->platform, .check_reflect = true };
	struct il_kgov_check_result res;
	struct il_error err = { 0 };
	const struct il_preset *port, *up;
	char tmpdir[] = "/tmp/idlelab-kgov-check-XXXXXX", obj[sizeof(tmpdir) + 16];
	bool built = false;
	struct il_kgov_counters counters = { 0 };
	struct progress prog;
	int ret;

	port = il_preset_find(args->against);
	if (!port || il_kgov_is_loaded(port))
		return cli_usage_error("kgov", "unknown preset for --against (see idlelab "
					       "governors)");
	up = kgov_load_source(args, port, tmpdir, obj, sizeof(obj), &built);
	if (!up) {
		ret = CLI_EXIT_RUNTIME;
		goto out_tmp;
	}
	opts.progress = &kgov_watchdog_progress;
	kgov_start_watchdog();
	progress_begin(&prog, args->progress, "idlelab kgov check", PROGRESS_COUNT, "decisions",
		       args->steps);
	progress_watch(&prog, &kgov_watchdog_progress.decisions);
	ret = il_kgov_check(up, port, &opts, &res, &err);
	progress_end(&prog);
	alarm(0);
	if (ret < 0) {
		fprintf(stderr, "idlelab kgov: %s\n", err.msg);
		ret = CLI_EXIT_RUNTIME;
		goto out_tmp;
	}
	if (ret > 0)
		fputs(res.first.report, stdout);
	print_counters(up);
	il_kgov_counters(up, &counters);
	if (args->verbose && res.not_compared[0])
		printf("upstream fields the port does not show (not compared): %s\n",
		       res.not_compared);
	if (res.invalid_index_runs)
		printf("note: %u run(s) ended early because both sides returned an index outside "
		       "the state table (first: %s)\n", res.invalid_index_runs, res.invalid_index);
	printf("kgov: %s vs %s: %llu decisions compared (%u runs, %d vars, %llu values), %s\n",
	       args->src, port->name, res.decisions, res.runs, res.vars_compared, res.comparisons,
	       ret ? "first MISMATCH above" : "no mismatch");
	il_kgov_check_result_free(&res);
	ret = ret || counters.shim_errors ? CLI_EXIT_RUNTIME : CLI_EXIT_OK;
out_tmp:
	if (built) {
		unlink(obj);
		rmdir(tmpdir);
	}
	return ret;
}
