// SPDX-License-Identifier: GPL-2.0
/* The ring of a queue pair's requests in flight: see sendq.h. */
#include <errno.h>
#include <stdlib.h>

#include "sendq.h"

int rio_sendq_init(struct rio_sendq *q, unsigned int depth, unsigned int every)
{
	unsigned int size;

	if (!depth || depth > (1u << 30))
		return -EINVAL;
	size = rio_pow2_ceil(depth);
	*q = (struct rio_sendq){ .mask = size - 1, .every = every ?: 1 };
	q->ring = calloc(size, sizeof(*q->ring));
	q->asked = calloc(size, sizeof(*q->asked));
	if (q->ring && q->asked)
		return 0;
	rio_sendq_fini(q);
	return -ENOMEM;
}

void rio_sendq_fini(struct rio_sendq *q)
{
	if (!q)
		return;
	free(q->ring);
	free(q->asked);
	q->ring = NULL;
	q->asked = NULL;
	q->count = 0;
}

/* Takes the newest (count must be non-zero): a request that was never
 * posted, or one given up on. */
void *rio_sendq_pop_newest(struct rio_sendq *q)
{
	void *item;

	q->count--;
	q->queued--;
	item = q->ring[(q->head + q->count) & q->mask];
	/* The newest that are left and asked for nothing, up to one that
	 * did (or a nudge's last): error paths only, so a walk is fine. */
	for (q->unsig = 0; q->unsig < q->count; q->unsig++)
		if (q->asked[(q->head + q->count - 1 - q->unsig) & q->mask])
			break;
	return item;
}

/* fio waits on requests none of which asks for a completion: a nudge
 * posted now asks for one after them. False when there is nothing to
 * nudge, or a nudge is in flight already (one at a time: its completion
 * says how far it reached). */
bool rio_sendq_nudge(struct rio_sendq *q)
{
	if (!q->unsig || q->nudging)
		return false;
	q->nudging = true;
	q->nudge_at = q->queued;
	q->unsig = 0;
	/* The newest is covered as if it had asked. */
	q->asked[(q->head + q->count - 1) & q->mask] = true;
	return true;
}

/* The nudge completed: how many of the oldest requests it retires, those
 * posted before it that are still here. */
unsigned int rio_sendq_nudged(struct rio_sendq *q)
{
	uint32_t n = q->nudge_at - q->retired;

	q->nudging = false;
	/* Requests given up on since (pop_newest) are gone already. */
	if (n > q->count)
		n = q->count;
	return n;
}
