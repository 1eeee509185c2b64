/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pool.h - independent jobs on a few threads: the lab's runs (il_lab_run_all()) and a
 * review's kgov diffs over the lab's idle periods.
 */
#ifndef IDLELAB_UTIL_POOL_H
#define IDLELAB_UTIL_POOL_H

#include <stddef.h>

/* Job @i of a pool; it writes only its own result slot, so nothing depends on the threads. */
typedef void (*il_pool_job_fn)(void *ctx, size_t i);
/* @done of @total jobs have finished (called under the pool's lock, in no job's order). */
typedef void (*il_pool_progress_fn)(void *ctx, size_t done, size_t total);

/**
 * il_pool_run - @job(@ctx, i) for every i in [0, @n), handed out in order from a shared
 * counter to this thread and up to @threads - 1 more (fewer if they cannot be made: the
 * jobs then run on the threads there are); @progress (may be NULL) after each job.
 */
void il_pool_run(size_t n, unsigned int threads, il_pool_job_fn job, void *ctx,
		 il_pool_progress_fn progress, void *progress_ctx);

#endif /* IDLELAB_UTIL_POOL_H */
