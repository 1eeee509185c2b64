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
 *  1. runs the submission path (submit_ns of CPU time) and blocks: nr_iowait of its CPU
 *     goes up (4.x and 6.1 menu read it);
 *  2. the device completes after a latency drawn from a log-normal distribution (median
 *     lat_us, log-space sigma lat_sigma/1000, as a 4096-step table), with tail_pm per
 *     mille of requests taking tail_us instead (garbage collection, retries);
 *  3. the request's interrupts arrive on the submitting CPU (NVMe: one queue per CPU) or
 *     on irq_cpu (one interrupt line: SATA, MMC, MTD); irq_remote_pct says for what share
 *     of the requests it is irq_cpu (device default 0 for nvme, 100 for the others). When
 *     that is not the job's CPU, irq_work_ns of completion work runs there (so the
 *     interrupt CPU's exit latency delays the completion: the engine runs an interrupt's
 *     callback at the interrupt itself) and an IPI wakes the job;
 *  4. with probability migrate_pct % the job wakes on another CPU (uniformly chosen) instead
 *     of its previous one: wake-up placement (select_idle_sibling, EAS on big.LITTLE parts)
 *     moves a lightly loaded thread around, and leaves behind a CPU whose recent idle
 *     history is short intervals while its coming idle period is long;
 *  5. MMC hosts also raise a command-done interrupt cmd_irq_us after submission, and any
 *     device may raise irq_extra more interrupts per request (FIFO, DMA and transfer-stage
 *     events), spread over the whole latency or over the last irq_extra_us of it (the data
 *     transfer). They wake no task: each ends an idle period of the interrupt CPU with a
 *     non-timer, non-task wakeup;
 *  6. the job runs complete_ns of completion plus submit_ns for the next request;
 *  7. with hops=N the device latency is split into N+1 stages, and after each of the first
 *     N an interrupt wakes a helper thread (usb-storage's kthread, MMC request work) for
 *     hop_ns before the next stage, on a random CPU among hop_cpus CPUs from irq_cpu on
 *     (a cluster; 0: any CPU);
 *  8. the housekeeping background is lib/scenario/background.h's default, or, with
 *     bg_hz=N, one periodic timer per CPU at N Hz and nothing else: only wakeups that the
 *     governors can see coming. bg_rate_pct scales the rate of either (an ensemble varies
 *     it: the background's rate is an assumption, background.c's il_bg_rate_unc); the
 *     default's shape (bg_burst_pct, bg_irq_hz, bg_pair_pct) is out of play with bg_hz;
 *     bg_wheel_pct, the share of the timers on the kernel's timer wheel, applies to both.
 *
 * Score: iops = completed requests per simulated second. Device defaults come from the
 * seeds' teo/menu-5 rows, which are the least disturbed by idle-state exit latency: the
 * service time per request is 1/iops, split into CPU time and device latency.
 *
 * The defaults of steps 3, 5, 7 and 8 reproduce the model as it was before the request
 * structure below was measured. What the seeds' rk3588 rows show per request (docs/lab.md,
 * "fio on rk3588: the request structure"; their `belows` column counts the kernel's aboves,
 * too-deep periods, and their `aboves` column is 0 everywhere), and the values that fit it
 * (the battery's rows, with the default background):
 *
 *  - nvme0n1: 2.3 idle periods per request; teo and menu-5 almost no too-deep periods,
 *    menu-6.13 and menu-4 0.3 per request and 17 % fewer iops: the completion interrupt
 *    fires on a CPU other than fio's for most requests (irq_remote_pct=85, irq_work_ns=3000:
 *    fewer interrupt vectors than CPUs or one CPU for all of them, the seeds do not say
 *    which; nvme_irq and the blk-mq completion, an assumption of ~3 us on Cortex-A55/A76).
 *    The mixture of one-CPU and two-CPU requests scatters the intervals of fio's CPU and
 *    the interrupt CPU; menu-6.13 and menu-4 give up on them (then the timer decides:
 *    cpu-sleep), menu-5 and teo stay in WFI. lat_us=48 fits teo's iops;
 *  - sda: 19 idle periods per request; teo 0.3 too deep, menu-6.13 3.5 at 0.73 of teo's
 *    iops, menu-5 0.8 at 0.96: usb-storage's bulk-only transport, one hand-over to its
 *    kernel thread per request on whichever CPU the scheduler finds idle (hops=1,
 *    hop_cpus=0) and 16 xHCI transfer interrupts on the interrupt CPU (irq_extra=16).
 *    teo's and menu-5's too-deep periods are on the helper CPUs (picked again within a few
 *    hundred us of a long idle period); the helper's wake-up, from WFI or from cpu-sleep,
 *    makes fio's waits bimodal, and menu-6.13 gives up on them and sleeps too deep on fio's
 *    CPU. lat_us=200 fits teo's iops with the helper's wake-ups paid;
 *  - mmcblk1: 13 idle periods per request, teo 0.7 too deep and none too shallow: the SD
 *    host's interrupts on fio's own CPU (irq_remote_pct=0), two hand-overs to the MMC
 *    request work on any idle CPU (hops=2, hop_cpus=0) and 8 transfer interrupts in the last
 *    150 us (irq_extra=8, irq_extra_us=150). The stage and transfer interrupts cut fio's
 *    wait into pieces shorter than cpu-sleep's residency, so WFI there is never too
 *    shallow; teo and menu-5 sleep too deep on the helper CPUs, menu-6.13 on fio's CPU,
 *    where an early wake-up often overlaps the rest of the device's latency. lat_us=700 is
 *    what is left of the 1.14 ms per request;
 *  - the background on rk3588 (nullb0 row): ~2.9 k idle periods per second and ~5 too-deep
 *    ones. The default background has 440 and 80: a timer-only one (bg_hz) matches the
 *    rates but takes away the irregular wakeups that make menu-6.13 give up, and with them
 *    its misses on all three devices, so the rows keep the default. The default at
 *    bg_rate_pct=550 has the board's rate (2933 for menu-6.13) with 515 too-deep periods
 *    per second: that is the upper end of bg_rate_pct's range (background.c).
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

static const char *const device_names[] = { "nvme", "sda", "mmcblk", "nullb", "mtdblock",
					    "dm-slow", NULL };

enum { P_DEVICE, P_JOBS, P_LAT, P_SIGMA, P_TAIL_PM, P_TAIL, P_CMD_IRQ, P_IRQ_CPU, P_MIGRATE,
       P_SUBMIT, P_COMPLETE, P_HOPS, P_HOP, P_BG, P_IRQ_REMOTE, P_IRQ_WORK, P_IRQ_EXTRA,
       P_IRQ_EXTRA_US, P_HOP_CPUS, P_BG_HZ, P_BG_SHAPE };

/*
 * The numbers fitted to the seeds' rk3588 rows (docs/lab.md "fio on rk3588: the request
 * structure"; seeds/000 "full dump", 5 iterations of 30 s) and the assumptions among the
 * defaults. The seeds' iops vary about 4.5 % between iterations; a device latency is about
 * half of a request's service time, so a latency fitted to iops is good to about 9 %.
 */
static const struct il_scn_unc fio_lat_unc = {
	.cls = IL_UNC_FITTED, .range = "0.9x..1.1x",
	.why = "the seeds' iops spread ~4.5 % between iterations; the latency is ~half the "
		"service time",
	.fitted_to = "teo-6.14's iops in the seeds' rk3588 rows (per device; the scoreboard's "
		     "rk3399 mmc rows: rk3399's)",
};
static const struct il_scn_unc fio_remote_unc = {
	.cls = IL_UNC_FITTED, .range = "0.8x..1.18x",
	.why = "the seeds give no interrupt-vector count; 85 % reproduces menu-6.13's iops ratio"
		" to teo (0.80, seeds 0.83) and its range is what keeps that ratio within the "
		"seeds' spread",
	.fitted_to = "menu-6.13's iops and too-deep periods per request on nvme0n1 (rk3588)",
};
static const struct il_scn_unc fio_irq_work_unc = {
	.cls = IL_UNC_ASSUMED, .range = "0.5x..2x",
	.why = "an assumption of ~3 us for nvme_irq and the blk-mq completion on Cortex-A55/A76:"
		" a factor of 2 either way",
};
static const struct il_scn_unc fio_extra_unc = {
	.cls = IL_UNC_FITTED, .range = "0.9x..1.1x",
	.why = "the idle periods per request of the seeds' rows spread 6-10 % between governors "
		"(sda 18.0-19.1, mmcblk 10.1-13.0); these interrupts are most of them",
	.fitted_to = "the seeds' idle periods per request on sda and mmcblk1 (rk3588; the "
		     "scoreboard's rk3399 mmc rows: rk3399's)",
};
static const struct il_scn_unc fio_extra_us_unc = {
	.cls = IL_UNC_ASSUMED, .range = "0.67x..1.5x",
	.why = "the transfer window is not in the seeds: chosen to put the transfer interrupts "
		"in the data phase of a 1.14 ms request; a factor of 1.5 either way",
};
static const struct il_scn_unc fio_hops_unc = {
	.cls = IL_UNC_DATASHEET, /* the drivers' structure: usb-storage, mmc */
};

static const struct il_scn_param fio_params[] = {
	[P_DEVICE] = { "device", IL_SCN_ENUM, 0, 0, 0, device_names, "",
		       "device class (sets every default below)" },
	[P_JOBS] = { "jobs", IL_SCN_INT, 0, 0, 1024, NULL, "",
		     "fio --numjobs; 0: device default (16 for dm-slow, else 1)" },
	[P_LAT] = { "lat_us", IL_SCN_INT, -1, -1, 10000000, NULL, "us",
		    "median device latency; -1: device default", .unc = &fio_lat_unc },
	[P_SIGMA] = { "lat_sigma", IL_SCN_INT, -1, -1, 3000, NULL, "",
		      "log-normal sigma x1000; -1: device default" },
	[P_TAIL_PM] = { "tail_pm", IL_SCN_INT, -1, -1, 1000, NULL, "",
			"slow requests per mille; -1: device default" },
	[P_TAIL] = { "tail_us", IL_SCN_INT, -1, -1, 10000000, NULL, "us",
		     "latency of a slow request; -1: device default" },
	[P_CMD_IRQ] = { "cmd_irq_us", IL_SCN_INT, -1, -1, 1000000, NULL, "us",
			"command-done interrupt after submit (0: none); -1: device default" },
	[P_IRQ_CPU] = { "irq_cpu", IL_SCN_INT, 0, 0, IL_SIM_CPUS_MAX - 1, NULL, "",
			"CPU of a shared completion interrupt" },
	[P_MIGRATE] = { "migrate_pct", IL_SCN_INT, 0, 0, 100, NULL, "pct",
			"chance per request that the job wakes on another CPU" },
	[P_SUBMIT] = { "submit_ns", IL_SCN_INT, -1, -1, 100000000, NULL, "",
		       "CPU time to submit a request; -1: device default" },
	[P_COMPLETE] = { "complete_ns", IL_SCN_INT, -1, -1, 100000000, NULL, "",
			 "CPU time to complete one; -1: device default" },
	[P_HOPS] = { "hops", IL_SCN_INT, -1, -1, 16, NULL, "",
		     "helper-thread stages per request (usb-storage, mmc work); -1: device "
		     "default", .unc = &fio_hops_unc },
	[P_HOP] = { "hop_ns", IL_SCN_INT, -1, -1, 100000000, NULL, "",
		    "CPU time of one helper stage; -1: device default" },
	[P_BG] = { "background", IL_SCN_INT, 1, 0, 1, NULL, "",
		   "housekeeping timers and interrupts on every CPU (lib/scenario/background.h)" },
	[P_IRQ_REMOTE] = { "irq_remote_pct", IL_SCN_INT, -1, -1, 100, NULL, "pct",
			   "requests whose interrupts arrive on irq_cpu instead of the job's CPU; "
			   "-1: device default (0 for nvme, 100 for the shared lines)",
			   .unc = &fio_remote_unc },
	[P_IRQ_WORK] = { "irq_work_ns", IL_SCN_INT, -1, -1, 100000000, NULL, "",
			 "completion work on the interrupt CPU before the IPI to the job, when "
			 "they differ; -1: device default", .unc = &fio_irq_work_unc },
	[P_IRQ_EXTRA] = { "irq_extra", IL_SCN_INT, 0, 0, 64, NULL, "",
			  "more device interrupts per request that wake no task (transfer events), "
			  "on the interrupt CPU", .unc = &fio_extra_unc },
	[P_IRQ_EXTRA_US] = { "irq_extra_us", IL_SCN_INT, 0, 0, 1000000, NULL, "us",
			     "irq_extra falls in this window before the completion (the data "
			     "transfer); 0: anywhere in the latency", .unc = &fio_extra_us_unc },
	[P_HOP_CPUS] = { "hop_cpus", IL_SCN_INT, 0, 0, IL_SIM_CPUS_MAX, NULL, "",
			 "helper threads run on one of this many CPUs from irq_cpu on (1: the "
			 "interrupt CPU); 0: any CPU" },
	[P_BG_HZ] = { "bg_hz", IL_SCN_INT, 0, 0, 100000, NULL, "hz",
		      "instead of the default background: one periodic timer per CPU at this rate, "
		      "nothing else (0: off)" },
	IL_BG_PARAMS_UNC(P_BG_SHAPE, "background", "bg_hz"),
	{ 0 }
};

struct fio_ctx;

struct fio_job {
	struct fio_ctx *f;
	unsigned int cpu;
	unsigned int req_irq_cpu; /* the interrupt CPU of the request in flight */
	u64 issued_ns;
	u64 stage_ns;           /* device time of each stage of the request in flight */
	unsigned int hops_left; /* helper stages still to come */
};

struct fio_ctx {
	struct fio_device dev;
	unsigned int irq_cpu;
	unsigned int migrate_pct;
	unsigned int irq_remote_pct;
	unsigned int irq_extra;
	u64 irq_extra_ns;
	unsigned int hop_cpus;
	/* The device's times in ns, worked out once instead of per request. */
	u64 tail_ns;
	u64 cmd_irq_ns;
	u64 wake_run_ns;        /* complete_ns + submit_ns: the job's work per request */
	bool staged;            /* hops, a command-done interrupt or extra interrupts */
	struct il_rng rng;
	/* irq_remote_pct and irq_extra draws: stream 1 keeps its numbers */
	struct il_rng chain_rng;
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
	f->dev.irq_work_ns = (u64)arg_or(a, P_IRQ_WORK, (s64)f->dev.irq_work_ns);
	if (a->v[P_JOBS])
		f->dev.jobs = (unsigned int)a->v[P_JOBS];
	f->irq_cpu = (unsigned int)a->v[P_IRQ_CPU] % ncpus;
	f->migrate_pct = (unsigned int)a->v[P_MIGRATE];
	f->irq_remote_pct = (unsigned int)arg_or(a, P_IRQ_REMOTE, f->dev.irq_local ? 0 : 100);
	f->irq_extra = (unsigned int)a->v[P_IRQ_EXTRA];
	f->irq_extra_ns = (u64)a->v[P_IRQ_EXTRA_US] * NSEC_PER_USEC;
	f->hop_cpus = a->v[P_HOP_CPUS] && a->v[P_HOP_CPUS] < ncpus ?
			      (unsigned int)a->v[P_HOP_CPUS] : ncpus;
	f->tail_ns = f->dev.tail_us * NSEC_PER_USEC;
	f->cmd_irq_ns = f->dev.cmd_irq_us * NSEC_PER_USEC;
	f->wake_run_ns = f->dev.complete_ns + f->dev.submit_ns;
	f->staged = f->dev.hops || f->cmd_irq_ns || f->irq_extra;
	il_lognormal_init(&f->lat, f->dev.sigma, f->dev.lat_us * NSEC_PER_USEC);
}

static u64 fio_latency_ns(struct fio_ctx *f)
{
	if (f->dev.tail_pm && il_rng_chance(&f->rng, f->dev.tail_pm))
		return f->tail_ns;
	return il_lognormal_draw(&f->rng, &f->lat);
}

static void fio_issue(struct il_sim *sim, unsigned int cpu, void *arg);

/* The CPU of this request's interrupts: the submitting CPU's queue, or the shared line. */
static unsigned int fio_pick_irq_cpu(struct fio_ctx *f, unsigned int cpu)
{
	if (f->irq_remote_pct >= 100)
		return f->irq_cpu;
	if (!f->irq_remote_pct)
		return cpu;
	return il_rng_chance(&f->chain_rng, f->irq_remote_pct * 10) ? f->irq_cpu : cpu;
}

/* A CPU other than @cpu, uniformly: where the scheduler places a waking job that moves. */
static unsigned int fio_other_cpu(struct il_sim *sim, struct fio_ctx *f, unsigned int cpu)
{
	unsigned int n = il_sim_ncpus(sim);

	if (n < 2)
		return cpu;
	return (cpu + 1 + (unsigned int)il_rng_below(&f->rng, n - 1)) % n;
}

/*
 * With probability migrate_pct the job moves to another CPU. Out of line (as the other rare
 * paths below), so that the per-request functions need no registers saved.
 */
static __attribute__((noinline)) void fio_maybe_migrate(struct il_sim *sim, struct fio_job *job)
{
	struct fio_ctx *f = job->f;

	if (il_rng_chance(&f->rng, f->migrate_pct * 10))
		job->cpu = fio_other_cpu(sim, f, job->cpu);
}

/* The job has its completion and the next submission to run. */
static void fio_wake_job(struct il_sim *sim, unsigned int from, struct fio_job *job)
{
	struct fio_ctx *f = job->f;

	il_sim_iowait_add(sim, job->cpu, -1);
	if (f->migrate_pct)
		fio_maybe_migrate(sim, job);
	il_sim_wake(sim, from, job->cpu, f->wake_run_ns, fio_issue, job, -1);
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
		il_sim_wake(sim, cpu, cpu, job->f->dev.irq_work_ns, fio_softirq_done, job,
			    job->cpu);
}

static void fio_hop_irq(struct il_sim *sim, unsigned int cpu, void *arg);
static void fio_irq(struct il_sim *sim, unsigned int cpu, void *arg);

/* The next stage of the request: its interrupt comes stage_ns from @now on @irq_cpu. */
static void fio_next_stage(struct il_sim *sim, struct fio_job *job, unsigned int irq_cpu, u64 now)
{
	u64 at = now + job->stage_ns;

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
	fio_next_stage(sim, job, job->req_irq_cpu, il_sim_now(sim));
}

/* A stage's interrupt wakes the helper thread on a CPU the scheduler finds idle. */
static void fio_hop_irq(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct fio_job *job = arg;
	struct fio_ctx *f = job->f;
	unsigned int helper;

	if (f->hop_cpus < il_sim_ncpus(sim))
		helper = (f->irq_cpu + (unsigned int)il_rng_below(&f->rng, f->hop_cpus)) %
			 il_sim_ncpus(sim);
	else
		helper = (unsigned int)il_rng_below(&f->rng, il_sim_ncpus(sim));
	il_sim_wake(sim, cpu, helper, f->dev.hop_ns ? f->dev.hop_ns : 1, fio_hop_done, job, -1);
}

/* Interrupts of the transfer that wake no task, within the window before the completion. */
static void fio_extra_irqs(struct il_sim *sim, struct fio_ctx *f, unsigned int irq_cpu, u64 now,
			   u64 lat)
{
	u64 window = f->irq_extra_ns && f->irq_extra_ns < lat ? f->irq_extra_ns : lat - 1;

	if (lat < 2)
		return;
	for (unsigned int k = 0; k < f->irq_extra; k++)
		il_sim_irq(sim, irq_cpu, now + lat - 1 - il_rng_below(&f->chain_rng, window), NULL,
			   NULL, -1);
}

/*
 * A request in stages (hops), or with interrupts that wake no task (command done, transfer):
 * those interrupts, then its first stage.
 */
static __attribute__((noinline)) void fio_issue_staged(struct il_sim *sim, struct fio_job *job,
						       unsigned int irq_cpu, u64 now, u64 lat)
{
	struct fio_ctx *f = job->f;

	job->stage_ns = lat / (f->dev.hops + 1);
	if (f->cmd_irq_ns && f->cmd_irq_ns < lat)
		il_sim_irq(sim, irq_cpu, now + f->cmd_irq_ns, NULL, NULL, -1);
	if (f->irq_extra)
		fio_extra_irqs(sim, f, irq_cpu, now, lat);
	fio_next_stage(sim, job, irq_cpu, now);
}

/* null_blk: the request completes in the submission path, the job never sleeps. */
static __attribute__((noinline)) void fio_issue_null(struct il_sim *sim, unsigned int cpu,
						     struct fio_job *job)
{
	job->f->completed++;
	il_sim_wake(sim, cpu, cpu, job->f->wake_run_ns, fio_issue, job, -1);
}

/*
 * The job has submitted a request and blocks until the device completes it. The usual case
 * makes one call, the last (the request's interrupt).
 */
static void fio_issue(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct fio_job *job = arg;
	struct fio_ctx *f = job->f;
	unsigned int irq_cpu = fio_pick_irq_cpu(f, cpu);
	u64 now = il_sim_now(sim), lat;

	if (!f->dev.lat_us) {
		fio_issue_null(sim, cpu, job);
		return;
	}
	lat = fio_latency_ns(f);
	job->issued_ns = now;
	il_sim_iowait_add(sim, cpu, 1);
	job->req_irq_cpu = irq_cpu;
	job->hops_left = f->dev.hops;
	if (f->staged) {
		fio_issue_staged(sim, job, irq_cpu, now, lat);
		return;
	}
	job->stage_ns = lat;
	fio_next_stage(sim, job, irq_cpu, now);
}

/*
 * A background of timers only: one periodic timer per CPU at @hz (each expiry jittered by up
 * to 1/8 of the period), half of the expiries waking a kworker on that CPU; no I/O chains,
 * no companion timers, no device interrupts. Every wakeup is one the governors can see. The
 * shape's rate and timer-wheel share (@shape) apply to it.
 */
static int fio_timer_background(struct il_sim *sim, struct fio_ctx *f, unsigned int hz,
				const s64 shape[IL_BG_NPARAMS])
{
	struct il_bg_params bp;

	il_bg_defaults(&bp);
	il_bg_apply_shape(&bp, shape); /* the rate and the wheel share; the rest is cleared below */
	bp.timers = 1;
	bp.period_min_us = USEC_PER_SEC / hz;
	bp.period_max_us = bp.period_min_us;
	bp.burst_pct = 0;
	bp.pair_pct = 0;
	bp.irq_hz = 0;
	f->bg = il_bg_start(sim, &bp, 2);
	return f->bg ? 0 : -1;
}

static int fio_setup(struct il_sim *sim, void *ctx, const struct il_scn_args *args)
{
	struct fio_ctx *f = ctx;
	unsigned int ncpus = il_sim_ncpus(sim);

	fio_configure(f, args, ncpus);
	il_sim_rng_init(sim, &f->rng, 1);
	il_sim_rng_init(sim, &f->chain_rng, 3);
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
	if (args->v[P_BG_HZ])
		return fio_timer_background(sim, f, (unsigned int)args->v[P_BG_HZ],
					    &args->v[P_BG_SHAPE]);
	return il_bg_start_default(sim, args->v[P_BG], &args->v[P_BG_SHAPE], 2, &f->bg);
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
	.sources =
		"device latencies: 1/iops of the teo and menu-5 rows of seeds/000 (rk3588, rk3399)",
	.params = fio_params,
	.ctx_size = sizeof(struct fio_ctx),
	.setup = fio_setup,
	.cleanup = fio_cleanup,
	.score_fn = fio_score,
	.label = fio_label,
};
