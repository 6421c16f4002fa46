/* SPDX-License-Identifier: GPL-2.0 */
/* One queue pair's posted requests, oldest first, and which of them ask
 * the device for a completion. RC completes in order, so one completion
 * retires every request posted before it: the client asks for one in
 * every few (perftest's CQ moderation), for the one that fills fio's
 * iodepth (fio then waits), and, when fio waits on requests no completion
 * was asked for, posts a "nudge" that asks for one after them. No verbs
 * and no fio here: the counting alone, so host tests can check it. */
#ifndef RIO_SENDQ_H
#define RIO_SENDQ_H

#include <stdbool.h>
#include <stdint.h>

struct rio_sendq {
	void **ring;
	bool *asked; /* by slot: a completion comes after this one */
	unsigned int mask; /* ring size - 1, a power of two less one */
	unsigned int head, count;
	unsigned int every; /* ask for a completion in one of this many */
	unsigned int unsig; /* the newest requests, after the last that asks */
	uint32_t queued,
		retired; /* totals, wrapping: their difference is count */
	uint32_t nudge_at; /* queued when the nudge in flight was posted */
	bool nudging;
};

/* The least power of two >= n, capped at 2^31: the engine's rings are
 * sized so, and the hot path masks instead of dividing. */
static inline unsigned int rio_pow2_ceil(unsigned int n)
{
	unsigned int size = 1;

	while (size < n && size < (1u << 31))
		size <<= 1;
	return size;
}

int rio_sendq_init(struct rio_sendq *q, unsigned int depth, unsigned int every);
void rio_sendq_fini(struct rio_sendq *q);

/* Adds item as the newest; true when its request must ask for a
 * completion (one in every, or full: fio waits once it is posted). */
static inline bool rio_sendq_push(struct rio_sendq *q, void *item, bool full)
{
	unsigned int slot = (q->head + q->count) & q->mask;
	bool ask = ++q->unsig >= q->every || full;

	q->ring[slot] = item;
	q->asked[slot] = ask;
	q->count++;
	q->queued++;
	if (ask)
		q->unsig = 0;
	return ask;
}

/* Takes the oldest (count must be non-zero). */
static inline void *rio_sendq_pop(struct rio_sendq *q)
{
	void *item = q->ring[q->head];

	q->head = (q->head + 1) & q->mask;
	q->count--;
	q->retired++;
	if (q->unsig > q->count)
		q->unsig = q->count;
	return item;
}

void *rio_sendq_pop_newest(struct rio_sendq *q);

/* How many of the requests in flight a completion already asked for
 * will retire. */
static inline unsigned int rio_sendq_covered(const struct rio_sendq *q)
{
	return q->count - q->unsig;
}

bool rio_sendq_nudge(struct rio_sendq *q);
unsigned int rio_sendq_nudged(struct rio_sendq *q);

#endif
