// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio.c - fio psync random reads, iodepth 1, on one of the seeds' device classes.
 *
 * DOC: fio model
 *
 * Christian Loehle's runs (seeds/000, rk3399 and rk3588):
 *	fio --rw=randread --bs=4k --ioengine=psync --iodepth=1 --direct=1 --runtime=30s
 * (dm-slow: --numjobs=16 on a dm-delay device adding 51 ms). Each job is a thread that:
 *
 *  1. runs the submission path (submit_us of CPU time) and blocks: nr_iowait of its CPU
 *     goes up (4.x and 6.1 menu read it);
 *  2. the device completes after a latency drawn from a log-normal distribution (median
 *     lat_us, log-space sigma lat_sigma/1000, as a 4096-step table), with tail_pm per
 *     mille of requests taking tail_us instead (garbage collection, retries);
 *  3. the completion interrupt arrives on the submitting CPU (NVMe: one queue per CPU) or
 *     on irq_cpu (one interrupt line: SATA, MMC, MTD). In the second case the block layer
 *     runs irq_work_us of completion work there and wakes the job with an IPI;
 *  4. with probability migrate_pct % the job wakes on another CPU (uniformly chosen) instead
 *     of its previous one: wake-up placement (select_idle_sibling, EAS on big.LITTLE parts)
 *     moves a lightly loaded thread around, and leaves behind a CPU whose recent idle
 *     history is short intervals while its coming idle period is long;
 *  5. MMC hosts also raise a command-done interrupt cmd_irq_us after submission that wakes
 *     no task (an idle period ended by a non-timer, non-task wakeup);
 *  6. the job runs complete_us of completion plus submit_us for the next request;
 *  7. with hops=N the device latency is split into N+1 stages, and after each of the first
 *     N an interrupt wakes a helper thread (usb-storage's kthread, MMC request work) on a
 *     random CPU for hop_ns before the next stage. The defaults use no hops: the device
 *     latencies were fitted to the seeds' iops without them.
 *
 * Score: iops = completed requests per simulated second. Device defaults come from the
 * seeds' teo/menu-5 rows, which are the least disturbed by idle-state exit latency: the
 * service time per request is 1/iops, split into CPU time and device latency.
 */
#include <stdio.h>
#include <stdlib.h>

#include "background.h"
#include "scenario.h"

struct fio_device {
	const char *name;
	const char *label;     /* the seeds' device column */
	u64 lat_us;
	unsigned int sigma;    /* log-space sigma, 1/1000 */
	unsigned int tail_pm;
	u64 tail_us;
	u64 cmd_irq_us;
	bool irq_local;
	u64 submit_ns;
	u64 complete_ns;
	u64 irq_work_ns;
	unsigned int jobs;
	unsigned int hops;
	u64 hop_ns;
};

/*
 * Sources (seeds/000, Loehle 2025-02, rk3588 teo and menu-5 rows):
 * nvme0n1 13.2-14.3k iops -> ~72 µs per request, of which ~16 µs CPU;
 * sda 2.4-2.6k iops -> ~400 µs; mmcblk1 ~870 iops -> ~1.15 ms;
 * nullb0 ~337k iops -> ~3 µs, all CPU (null_blk completes in the submission path);
 * mtdblock3 ~257 iops (rk3399) -> ~3.9 ms; dm-slow 307 iops with 16 jobs -> 52 ms each
 * (dm-delay 51 ms over an MMC-like device).
 */
static const struct fio_device devices[] = {
	{ "nvme", "nvme0n1", 56, 250, 5, 400, 0, true, 8000, 8000, 0, 1, 0, 6000 },
	{ "sda", "sda", 370, 300, 5, 2000, 0, false, 9000, 9000, 3000, 1, 0, 8000 },
	{ "mmcblk", "mmcblk1", 1100, 250, 10, 3000, 60, false, 9000, 9000, 4000, 1, 0, 6000 },
	{ "nullb", "nullb0", 0, 0, 0, 0, 0, true, 1500, 1500, 0, 1, 0, 0 },
	{ "mtdblock", "mtdblock3", 3800, 150, 5, 8000, 0, false, 9000, 9000, 4000, 1, 0, 6000 },
	{ "dm-slow", "mapper/dm-slow", 52000, 20, 0, 0, 0, false, 9000, 9000, 4000, 16, 0, 6000 },
};

static const char *const device_names[] = { "nvme", "sda", "mmcblk", "nullb", "mtdblock", "dm-slow", NULL };

enum { P_DEVICE, P_JOBS, P_LAT, P_SIGMA, P_TAIL_PM, P_TAIL, P_CMD_IRQ, P_IRQ_CPU, P_MIGRATE,
       P_SUBMIT, P_COMPLETE, P_HOPS, P_HOP, P_BG };

static const struct il_scn_param fio_params[] = {
	[P_DEVICE] = { "device", IL_SCN_ENUM, 0, 0, 0, device_names, "", "device class (sets every default below)" },
	[P_JOBS] = { "jobs", IL_SCN_INT, 0, 0, 1024, NULL, "", "fio --numjobs; 0: device default (16 for dm-slow, else 1)" },
	[P_LAT] = { "lat_us", IL_SCN_INT, -1, -1, 10000000, NULL, "us", "median device latency; -1: device default" },
	[P_SIGMA] = { "lat_sigma", IL_SCN_INT, -1, -1, 3000, NULL, "", "log-normal sigma x1000; -1: device default" },
	[P_TAIL_PM] = { "tail_pm", IL_SCN_INT, -1, -1, 1000, NULL, "", "slow requests per mille; -1: device default" },
	[P_TAIL] = { "tail_us", IL_SCN_INT, -1, -1, 10000000, NULL, "us", "latency of a slow request; -1: device default" },
	[P_CMD_IRQ] = { "cmd_irq_us", IL_SCN_INT, -1, -1, 1000000, NULL, "us", "command-done interrupt after submit (0: none); -1: device default" },
	[P_IRQ_CPU] = { "irq_cpu", IL_SCN_INT, 0, 0, IL_SIM_CPUS_MAX - 1, NULL, "", "CPU of a shared completion interrupt" },
	[P_MIGRATE] = { "migrate_pct", IL_SCN_INT, 0, 0, 100, NULL, "pct", "chance per request that the job wakes on another CPU" },
	[P_SUBMIT] = { "submit_ns", IL_SCN_INT, -1, -1, 100000000, NULL, "", "CPU time to submit a request; -1: device default" },
	[P_COMPLETE] = { "complete_ns", IL_SCN_INT, -1, -1, 100000000, NULL, "", "CPU time to complete one; -1: device default" },
	[P_HOPS] = { "hops", IL_SCN_INT, -1, -1, 16, NULL, "", "helper-thread stages per request (usb-storage, mmc work); -1: device default" },
	[P_HOP] = { "hop_ns", IL_SCN_INT, -1, -1, 100000000, NULL, "", "CPU time of one helper stage; -1: device default" },
	[P_BG] = { "background", IL_SCN_INT, 1, 0, 1, NULL, "", "housekeeping timers and interrupts on every CPU (lib/scenario/background.h)" },
	{ 0 }
};

struct fio_ctx;

struct fio_job {
	struct fio_ctx *f;
	unsigned int cpu;
	u64 issued_ns;
	u64 stage_ns;           /* device time of each stage of the request in flight */
	unsigned int hops_left; /* helper stages still to come */
};

struct fio_ctx {
	struct fio_device dev;
	unsigned int irq_cpu;
	unsigned int migrate_pct;
	struct il_rng rng;
	struct il_lognormal lat;
	struct fio_job *jobs;
	unsigned int njobs;
	u64 completed;
	struct il_bg *bg;
};

static s64 arg_or(const struct il_scn_args *a, int i, s64 dflt)
{
	return a->v[i] < 0 ? dflt : a->v[i];
}

static void fio_configure(struct fio_ctx *f, const struct il_scn_args *a, unsigned int ncpus)
{
	f->dev = devices[a->v[P_DEVICE]];
	f->dev.lat_us = (u64)arg_or(a, P_LAT, (s64)f->dev.lat_us);
	f->dev.sigma = (unsigned int)arg_or(a, P_SIGMA, f->dev.sigma);
	f->dev.tail_pm = (unsigned int)arg_or(a, P_TAIL_PM, f->dev.tail_pm);
	f->dev.tail_us = (u64)arg_or(a, P_TAIL, (s64)f->dev.tail_us);
	f->dev.cmd_irq_us = (u64)arg_or(a, P_CMD_IRQ, (s64)f->dev.cmd_irq_us);
	f->dev.submit_ns = (u64)arg_or(a, P_SUBMIT, (s64)f->dev.submit_ns);
	f->dev.complete_ns = (u64)arg_or(a, P_COMPLETE, (s64)f->dev.complete_ns);
	f->dev.hops = (unsigned int)arg_or(a, P_HOPS, f->dev.hops);
	f->dev.hop_ns = (u64)arg_or(a, P_HOP, (s64)f->dev.hop_ns);
	if (a->v[P_JOBS])
		f->dev.jobs = (unsigned int)a->v[P_JOBS];
	f->irq_cpu = (unsigned int)a->v[P_IRQ_CPU] % ncpus;
	f->migrate_pct = (unsigned int)a->v[P_MIGRATE];
	il_lognormal_init(&f->lat, f->dev.sigma);
}

static u64 fio_latency_ns(struct fio_ctx *f)
{
	if (f->dev.tail_pm && il_rng_chance(&f->rng, f->dev.tail_pm))
		return f->dev.tail_us * NSEC_PER_USEC;
	return il_lognormal_draw(&f->rng, &f->lat, f->dev.lat_us * NSEC_PER_USEC);
}

static void fio_issue(struct il_sim *sim, unsigned int cpu, void *arg);

/* A CPU other than @cpu, uniformly: where the scheduler places a waking job that moves. */
static unsigned int fio_other_cpu(struct il_sim *sim, struct fio_ctx *f, unsigned int cpu)
{
	unsigned int n = il_sim_ncpus(sim);

	if (n < 2)
		return cpu;
	return (cpu + 1 + (unsigned int)il_rng_below(&f->rng, n - 1)) % n;
}

/* The job has its completion and the next submission to run. */
static void fio_wake_job(struct il_sim *sim, unsigned int from, struct fio_job *job)
{
	struct fio_ctx *f = job->f;

	il_sim_iowait_add(sim, job->cpu, -1);
	if (f->migrate_pct && il_rng_chance(&f->rng, f->migrate_pct * 10))
		job->cpu = fio_other_cpu(sim, f, job->cpu);
	il_sim_wake(sim, from, job->cpu, f->dev.complete_ns + f->dev.submit_ns, fio_issue, job, -1);
}

static void fio_softirq_done(struct il_sim *sim, unsigned int cpu, void *arg)
{
	fio_wake_job(sim, cpu, arg);
}

static void fio_irq(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct fio_job *job = arg;

	job->f->completed++;
	if (cpu == job->cpu || !job->f->dev.irq_work_ns)
		fio_wake_job(sim, cpu, job);
	else
		il_sim_wake(sim, cpu, cpu, job->f->dev.irq_work_ns, fio_softirq_done, job, job->cpu);
}

static void fio_hop_irq(struct il_sim *sim, unsigned int cpu, void *arg);
static void fio_irq(struct il_sim *sim, unsigned int cpu, void *arg);

/* The next stage of the request: its interrupt comes stage_ns from now on @irq_cpu. */
static void fio_next_stage(struct il_sim *sim, struct fio_job *job, unsigned int irq_cpu)
{
	u64 at = il_sim_now(sim) + job->stage_ns;

	if (job->hops_left)
		il_sim_irq(sim, irq_cpu, at, fio_hop_irq, job, -1);
	else
		il_sim_irq(sim, irq_cpu, at, fio_irq, job, (int)job->cpu);
}

/* A helper stage ended: the helper thread submits the next stage of the request. */
static void fio_hop_done(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct fio_job *job = arg;

	job->hops_left--;
	fio_next_stage(sim, job, job->f->dev.irq_local ? job->cpu : job->f->irq_cpu);
}

/* A stage's interrupt wakes the helper thread on a CPU the scheduler finds idle. */
static void fio_hop_irq(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct fio_job *job = arg;
	struct fio_ctx *f = job->f;
	unsigned int helper = (unsigned int)il_rng_below(&f->rng, il_sim_ncpus(sim));

	il_sim_wake(sim, cpu, helper, f->dev.hop_ns ? f->dev.hop_ns : 1, fio_hop_done, job, -1);
}

/* The job has submitted a request and blocks until the device completes it. */
static void fio_issue(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct fio_job *job = arg;
	struct fio_ctx *f = job->f;
	unsigned int irq_cpu = f->dev.irq_local ? cpu : f->irq_cpu;
	u64 now = il_sim_now(sim), lat;

	if (!f->dev.lat_us) {
		/* null_blk: completed in the submission path, the job never sleeps. */
		f->completed++;
		il_sim_wake(sim, cpu, cpu, f->dev.complete_ns + f->dev.submit_ns, fio_issue, job, -1);
		return;
	}
	lat = fio_latency_ns(f);
	job->issued_ns = now;
	il_sim_iowait_add(sim, cpu, 1);
	if (f->dev.cmd_irq_us && f->dev.cmd_irq_us * NSEC_PER_USEC < lat)
		il_sim_irq(sim, irq_cpu, now + f->dev.cmd_irq_us * NSEC_PER_USEC, NULL, NULL, -1);
	job->hops_left = f->dev.hops;
	job->stage_ns = lat / (f->dev.hops + 1);
	fio_next_stage(sim, job, irq_cpu);
}

static int fio_setup(struct il_sim *sim, void *ctx, const struct il_scn_args *args)
{
	struct fio_ctx *f = ctx;
	unsigned int ncpus = il_sim_ncpus(sim);

	fio_configure(f, args, ncpus);
	il_sim_rng_init(sim, &f->rng, 1);
	f->njobs = f->dev.jobs;
	f->jobs = calloc(f->njobs, sizeof(*f->jobs));
	if (!f->jobs)
		return -1;
	/* Jobs start next to the interrupt CPU, one per CPU, wrapping around. */
	for (unsigned int j = 0; j < f->njobs; j++) {
		struct fio_job *job = &f->jobs[j];

		job->f = f;
		job->cpu = (f->irq_cpu + 1 + j) % ncpus;
		if (il_sim_wake(sim, job->cpu, job->cpu, f->dev.submit_ns, fio_issue, job, -1))
			return -1;
	}
	return il_bg_start_default(sim, args->v[P_BG], 2, &f->bg);
}

static void fio_cleanup(void *ctx)
{
	struct fio_ctx *f = ctx;

	free(f->jobs);
	il_bg_free(f->bg);
}

static double fio_score(const struct il_sim *sim, const void *ctx)
{
	const struct fio_ctx *f = ctx;

	return (double)f->completed * 1e9 / (double)il_sim_duration_ns(sim);
}

static void fio_label(const struct il_scn_args *args, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s", devices[args->v[P_DEVICE]].label);
}

const struct il_scenario il_scn_fio = {
	.name = "fio",
	.summary = "fio psync randread 4k, iodepth 1, per device class (Loehle's battery)",
	.score = "iops",
	.score_help = "completed requests per second",
	.score_prec = 0,
	.higher_is_better = true,
	.sources = "device latencies: 1/iops of the teo and menu-5 rows of seeds/000 (rk3588, rk3399)",
	.params = fio_params,
	.ctx_size = sizeof(struct fio_ctx),
	.setup = fio_setup,
	.cleanup = fio_cleanup,
	.score_fn = fio_score,
	.label = fio_label,
};
