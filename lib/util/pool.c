// SPDX-License-Identifier: GPL-2.0-only
/*
 * pool.c - independent jobs on a few threads (see pool.h).
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "pool.h"

struct pool {
	il_pool_job_fn job;
	void *ctx;
	size_t n;
	size_t next;     /* the next job to hand out, under lock */
	size_t finished; /* jobs done, under lock */
	il_pool_progress_fn progress;
	void *progress_ctx;
	pthread_mutex_t lock;
};

/* Take the next job, after counting (and reporting) the one just done if @done. */
static bool take_job(struct pool *pl, size_t *i, bool done)
{
	bool ok;

	pthread_mutex_lock(&pl->lock);
	if (done) {
		pl->finished++;
		if (pl->progress)
			pl->progress(pl->progress_ctx, pl->finished, pl->n);
	}
	ok = pl->next < pl->n;
	if (ok)
		*i = pl->next++;
	pthread_mutex_unlock(&pl->lock);
	return ok;
}

static void *pool_worker(void *arg)
{
	struct pool *pl = arg;
	size_t i;

	for (bool done = false; take_job(pl, &i, done); done = true)
		pl->job(pl->ctx, i);
	return NULL;
}

void il_pool_run(size_t n, unsigned int threads, il_pool_job_fn job, void *ctx,
		 il_pool_progress_fn progress, void *progress_ctx)
{
	struct pool pl = { .job = job, .ctx = ctx, .n = n, .progress = progress,
			   .progress_ctx = progress_ctx };
	unsigned int started = 0;
	pthread_t *tid;

	if (threads < 1)
		threads = 1;
	if (threads > n)
		threads = n ? (unsigned int)n : 1;
	tid = calloc(threads, sizeof(*tid));
	pthread_mutex_init(&pl.lock, NULL);
	/* Worker 0 is this thread; the others are extra threads if they can be made. */
	for (unsigned int t = 1; tid && t < threads; t++)
		if (!pthread_create(&tid[started], NULL, pool_worker, &pl))
			started++;
	pool_worker(&pl);
	for (unsigned int t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	pthread_mutex_destroy(&pl.lock);
	free(tid);
}
