// SPDX-License-Identifier: GPL-2.0-only
/*
 * video.c - video playback: frame-decode bursts paced by the display, audio interrupts.
 *
 * DOC: video model
 *
 * Christian Loehle's 10-minute firefox 4K playback (seeds/000: Joules per run, ~0.3 idle
 * miss ratio, nearly all belows) and Mike Galbraith's BigBuckBunny PkgWatt (seeds/003).
 * The display raises a vblank interrupt on CPU 0 at fps Hz; the compositor runs comp_us
 * there and then wakes `threads` decode threads (CPUs 1.., wrapping) for the next frame,
 * decode_us each (log-normal, sigma 0.3). The sound card interrupts CPU 0 every audio_ms
 * and the audio thread runs audio_us. A frame is late when a decode thread ends after the
 * next vblank. All wakeups are device interrupts or IPIs. The main output is the energy
 * (joules, watts); score: late_pct.
 */
#include <stdio.h>
#include <stdlib.h>

#include "background.h"
#include "scenario.h"

enum { P_FPS, P_THREADS, P_DECODE, P_COMP, P_AUDIO_MS, P_AUDIO_US, P_BG, P_BG_SHAPE };

static const struct il_scn_param video_params[] = {
	[P_FPS] = { "fps", IL_SCN_INT, 60, 1, 1000, NULL, "hz", "frames per second (30 or 60)" },
	[P_THREADS] = { "threads", IL_SCN_INT, 4, 1, 1024, NULL, "", "decode threads" },
	[P_DECODE] = { "decode_us", IL_SCN_INT, 3000, 1, 100000000, NULL, "us",
		       "median decode work per thread and frame" },
	[P_COMP] = { "comp_us", IL_SCN_INT, 800, 1, 100000000, NULL, "us",
		     "compositor work per vblank" },
	[P_AUDIO_MS] = { "audio_ms", IL_SCN_INT, 10, 1, 100000, NULL, "ms",
			 "audio interrupt period" },
	[P_AUDIO_US] = { "audio_us", IL_SCN_INT, 150, 1, 100000000, NULL, "us",
			 "audio work per interrupt" },
	[P_BG] = { "background", IL_SCN_INT, 1, 0, 1, NULL, "",
		   "housekeeping timers and interrupts" },
	IL_BG_PARAMS(P_BG_SHAPE),
	{ 0 }
};

struct video_ctx {
	u64 period_ns, decode_ns, comp_ns, audio_period_ns, audio_ns;
	unsigned int threads;
	struct il_rng rng;
	u64 next_vblank;      /* deadline of the frame being decoded */
	u64 deadline;
	unsigned int decoding;
	bool late;
	u64 frames, late_frames;
	struct il_bg *bg;
};

static void video_decoded(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct video_ctx *v = arg;

	if (il_sim_now(sim) > v->deadline)
		v->late = true;
	if (--v->decoding)
		return;
	v->frames++;
	v->late_frames += v->late;
}

static void video_composited(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct video_ctx *v = arg;
	unsigned int n = il_sim_ncpus(sim);

	if (v->decoding)
		return; /* the previous frame is still decoding: this one is dropped */
	v->deadline = v->next_vblank;
	v->late = false;
	v->decoding = v->threads;
	for (unsigned int t = 0; t < v->threads; t++) {
		unsigned int target = n > 1 ? 1 + t % (n - 1) : 0;
		u64 work = il_rng_lognormal_ns(&v->rng, v->decode_ns, 300);

		il_sim_wake(sim, cpu, target, work ? work : 1, video_decoded, v, -1);
	}
}

static void video_vblank(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct video_ctx *v = arg;

	v->next_vblank = il_sim_now(sim) + v->period_ns;
	il_sim_irq(sim, 0, v->next_vblank, video_vblank, v, -1);
	il_sim_wake(sim, cpu, cpu, v->comp_ns, video_composited, v, -1);
}

static void video_audio(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct video_ctx *v = arg;

	il_sim_irq(sim, cpu, il_sim_now(sim) + v->audio_period_ns, video_audio, v, -1);
	il_sim_wake(sim, cpu, cpu, v->audio_ns, NULL, NULL, -1);
}

static int video_setup(struct il_sim *sim, void *ctx, const struct il_scn_args *args)
{
	struct video_ctx *v = ctx;

	v->period_ns = NSEC_PER_SEC / (u64)args->v[P_FPS];
	v->threads = (unsigned int)args->v[P_THREADS];
	v->decode_ns = (u64)args->v[P_DECODE] * NSEC_PER_USEC;
	v->comp_ns = (u64)args->v[P_COMP] * NSEC_PER_USEC;
	v->audio_period_ns = (u64)args->v[P_AUDIO_MS] * NSEC_PER_MSEC;
	v->audio_ns = (u64)args->v[P_AUDIO_US] * NSEC_PER_USEC;
	il_sim_rng_init(sim, &v->rng, 1);
	if (il_sim_irq(sim, 0, v->period_ns, video_vblank, v, -1) ||
	    il_sim_irq(sim, 0, v->audio_period_ns / 2, video_audio, v, -1))
		return -1;
	return il_bg_start_default(sim, args->v[P_BG], &args->v[P_BG_SHAPE], 2, &v->bg);
}

static void video_cleanup(void *ctx)
{
	il_bg_free(((struct video_ctx *)ctx)->bg);
}

static double video_score(const struct il_sim *sim, const void *ctx)
{
	const struct video_ctx *v = ctx;
	u64 vblanks = il_sim_duration_ns(sim) / v->period_ns;

	/* Dropped frames (never decoded) count as late. */
	if (!vblanks)
		return 0.0;
	return 100.0 * (double)(vblanks - (v->frames - v->late_frames)) / (double)vblanks;
}

static void video_label(const struct il_scn_args *args, char *buf, size_t cap)
{
	snprintf(buf, cap, "video-%lldfps", (long long)args->v[P_FPS]);
}

const struct il_scenario il_scn_video = {
	.name = "video",
	.summary = "video playback: decode bursts paced by vblank interrupts, audio interrupts",
	.score = "late_pct",
	.score_help = "frames not decoded by their vblank, %",
	.score_prec = 2,
	.higher_is_better = false,
	.default_cpus = 0,
	.sources = "4K playback Joules table (seeds/000, Loehle) and BigBuckBunny PkgWatt "
		   "(seeds/003); amounts assumed",
	.params = video_params,
	.ctx_size = sizeof(struct video_ctx),
	.setup = video_setup,
	.cleanup = video_cleanup,
	.score_fn = video_score,
	.label = video_label,
};
