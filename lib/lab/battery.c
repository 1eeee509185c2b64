// SPDX-License-Identifier: GPL-2.0-only
/*
 * battery.c - the seeds' battery of scenario variants, and the parallel lab runner.
 *
 * DOC: the battery
 *
 * One variant per test of the linux-pm threads in seeds/ that the lab models (23 in all):
 * Loehle's fio psync randread on six device classes, Doug Smythies' token ping-pong on 2, 6
 * and 12 CPUs, Aboorva's pipe and timer wakeups, the consume, idle, idle + busy, 500
 * threads, sleeping ebizzy, adrestia, PIDs per second, SPECjbb-like, request/response
 * network and video playback tests. Every variant runs on its scenario's defaults except the
 * parameters named in its spec; `idlelab scenarios -v` documents them. The nvme, sda and
 * mmcblk variants carry the request structure fitted to the seeds' rk3588 rows (iops, idle
 * periods and too-deep misses per request; lib/scenario/fio.c and docs/lab.md "fio on
 * rk3588: the request structure"), which the scenario's own defaults leave off.
 *
 * Two variants put the work on nohz_full CPUs, so that a change to the stopped-tick path
 * has cells of its own: without them the largest effect of such a change (menu-6.19 against
 * menu-7.1 on request/response work, docs/lab.md "Scenarios") is in no cell of a default
 * verdict or review. They run on every platform like the others; the reports they model are
 * from servers (spr, icx, skx among the built-in platforms).
 *
 * The runner hands runs to threads from a shared counter; each run writes only its own
 * result slot, so the results are the same whatever the number of threads.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../output/output.h"
#include "../util/pool.h"
#include "battery.h"
#include "util/array.h"

static const struct il_battery_case battery[] = {
	{ "fio:device=nvme,lat_us=48,irq_remote_pct=85,irq_work_ns=3000",
	  "Loehle 2025: fio randread iodepth 1, nvme0n1" },
	{ "fio:device=sda,lat_us=200,hops=1,hop_cpus=0,irq_extra=16",
	  "Loehle 2025: fio randread iodepth 1, sda" },
	{ "fio:device=mmcblk,lat_us=700,irq_remote_pct=0,irq_extra=8,irq_extra_us=150,"
	  "hops=2,hop_cpus=0",
	  "Loehle 2025: fio randread iodepth 1, mmcblk1" },
	{ "fio:device=nullb", "Loehle 2025: fio randread iodepth 1, nullb0" },
	{ "fio:device=mtdblock", "Loehle 2025: fio randread iodepth 1, mtdblock3" },
	{ "fio:device=dm-slow", "Loehle 2025: fio randread 16 jobs, dm-delay 51 ms" },
	{ "pingpong:cpus=2", "Smythies: token ping-pong, 2 CPUs" },
	{ "pingpong:cpus=6", "Smythies: token ping-pong, 6 CPUs" },
	{ "pingpong:cpus=12", "Smythies: token ping-pong, 12 CPUs" },
	{ "wakeup:mode=pipe", "Aboorva: cpuidle_wakeup, pipe wakeups" },
	{ "wakeup:mode=timer", "Aboorva: cpuidle_wakeup, timer wakeups" },
	{ "consume", "Smythies: consume, periodic timer-based work/sleep" },
	{ "idle", "Smythies 2018: idle system" },
	{ "idle-busy", "Smythies 2018: idle + one CPU 100 % busy" },
	{ "threads", "Smythies: 500 threads periodic work/sleep" },
	{ "ebizzy", "sleeping ebizzy" },
	{ "adrestia", "adrestia: periodic 20 us wakeups" },
	{ "pidpersec", "serialized short tasks: PIDs per second" },
	{ "jbb", "SPECjbb-like: frequent non-timer wakeups (menu, Feb 2025)" },
	{ "netrr", "request/response network latency (tbench, pgbench)" },
	{ "video", "video playback, 60 fps" },
	{ "netrr:nohz_full=0-1",
	  "NOHZ_FULL request/response latency reports (qperf, 120-150 us; anchors.md 2.4)" },
	{ "adrestia:threads=2,nohz_full=0-1",
	  "periodic 20 us timer work on nohz_full CPUs (isolated-CPU latency loops)" },
};

int il_battery_count(void)
{
	return (int)ARRAY_SIZE(battery);
}

const struct il_battery_case *il_battery_at(int i)
{
	return i >= 0 && i < il_battery_count() ? &battery[i] : NULL;
}

struct run_all {
	const struct il_lab_spec *specs;
	struct il_lab_result *res;
	int *errs;
};

static void run_one(void *ctx, size_t i)
{
	struct run_all *ra = ctx;

	ra->errs[i] = il_lab_run(&ra->specs[i], &ra->res[i]) ? (errno ? errno : EIO) : 0;
}

int il_lab_run_all(const struct il_lab_spec *specs, struct il_lab_result *res, size_t n,
		   unsigned int threads, int *errs)
{
	return il_lab_run_all_progress(specs, res, n, threads, errs, NULL, NULL);
}

int il_lab_run_all_progress(const struct il_lab_spec *specs, struct il_lab_result *res, size_t n,
			    unsigned int threads, int *errs, il_lab_progress_fn fn, void *ctx)
{
	struct run_all ra = { .specs = specs, .res = res, .errs = errs };
	int *own = NULL;

	if (!errs) {
		own = calloc(n ? n : 1, sizeof(*own));
		if (!own) {
			errno = ENOMEM;
			return -1;
		}
		ra.errs = own;
	}
	il_pool_run(n, threads, run_one, &ra, fn, ctx);
	for (size_t i = 0; i < n; i++) {
		if (ra.errs[i]) {
			int err = ra.errs[i];

			free(own);
			errno = err;
			return -1;
		}
	}
	free(own);
	return 0;
}

int il_battery_settings_table(struct il_table *t, const struct il_battery_settings *s)
{
	static const char *const cols[] = { "key", "value" };
	char buf[64];
	int ret;

	if (il_table_init(t, "battery", 2, cols))
		return -1;
	snprintf(buf, sizeof(buf), "%.3f", (double)s->time_ns / 1e9);
	ret = il_table_kv_str(t, "simulated_s_per_run", buf);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)s->seed);
	ret = ret || il_table_kv_str(t, "seed", buf);
	snprintf(buf, sizeof(buf), "%d", s->iter);
	ret = ret || il_table_kv_str(t, "iterations", buf);
	snprintf(buf, sizeof(buf), "%d", s->ensemble);
	if (s->ensemble)
		ret = ret || il_table_kv_str(t, "ensemble", buf);
	for (int p = 0; p < s->nplat; p++)
		ret = ret || il_table_kv_str(t, "platform", s->platforms[p]);
	for (int g = 0; g < s->ngov; g++)
		ret = ret || il_table_kv_str(t, "governor", s->governors[g]);
	for (int v = 0; v < s->nscn; v++)
		ret = ret || il_table_kv_str(t, "scenario", s->scenarios[v]);
	ret = ret || il_table_kv_str(t, "energy", "model values");
	return ret ? -1 : 0;
}
