// SPDX-License-Identifier: GPL-2.0-only
/*
 * events.c - a CPU's queue of device interrupts and IPIs: a 4-ary min-heap ordered by (time,
 * scheduling order), so that simultaneous events run in the order they were scheduled. Four
 * children per node halve the depth of a binary heap; pop compares more per level but walks
 * fewer. A CPU's earliest interrupt waits outside its heap (struct sim_cpu.irq_next), so most
 * heaps stay empty.
 */
#include <errno.h>
#include <stdlib.h>

#include "sim-local.h"

static bool ev_before(const struct sim_ev *a, const struct sim_ev *b)
{
	return sim_key_of(a->t, a->seq) < sim_key_of(b->t, b->seq);
}

int sim_evq_push_slow(struct sim_evq *q, const struct sim_ev *ev)
{
	size_t i;

	if (q->len == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 16;
		struct sim_ev *n = realloc(q->ev, cap * sizeof(*n));

		if (!n) {
			errno = ENOMEM;
			return -1;
		}
		q->ev = n;
		q->cap = cap;
	}
	/* Move parents down into the hole until the new event's place is found. */
	for (i = q->len++; i > 0; ) {
		size_t parent = (i - 1) / 4;

		if (!ev_before(ev, &q->ev[parent]))
			break;
		q->ev[i] = q->ev[parent];
		i = parent;
	}
	q->ev[i] = *ev; /* ev->seq is set by the caller */
	return 0;
}

void sim_evq_pop_slow(struct sim_evq *q, struct sim_ev *out)
{
	const struct sim_ev *last;
	size_t i = 0;

	*out = q->ev[0];
	if (--q->len == 0)
		return;
	last = &q->ev[q->len];
	/* Sift the last element down from the root into the hole. */
	for (;;) {
		size_t first = 4 * i + 1, m = first, end = first + 4;

		if (first >= q->len)
			break;
		if (end > q->len)
			end = q->len;
		for (size_t k = first + 1; k < end; k++)
			if (ev_before(&q->ev[k], &q->ev[m]))
				m = k;
		if (!ev_before(&q->ev[m], last))
			break;
		q->ev[i] = q->ev[m];
		i = m;
	}
	q->ev[i] = *last;
}

void sim_evq_free(struct sim_evq *q)
{
	free(q->ev);
	q->ev = NULL;
	q->len = q->cap = 0;
}
