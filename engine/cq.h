/* SPDX-License-Identifier: GPL-2.0 */
/* use_events: a completion channel that never blocks, and a bounded
 * sleep on it. */
#ifndef RIO_CQ_H
#define RIO_CQ_H

#include <infiniband/verbs.h>

int rio_cq_channel_new(struct ibv_context *verbs, const char *who,
		       struct ibv_comp_channel **cc);
/* A use_events sleep's descriptors, the CQ channel and at most
 * RIO_CQ_MAX_OTHERS others (the CM channel, the device's async events),
 * in one epoll set made with the job: a sleep is then one epoll_wait,
 * where poll() would hook every descriptor in and out again each time. */
struct rio_cq_sleep;

#define RIO_CQ_MAX_OTHERS 2
/* A sleep ends at the latest on the next of ticks tick_ms apart. */
int rio_cq_sleep_new(struct ibv_comp_channel *cc, const int *others,
		     unsigned int nothers, unsigned int tick_ms,
		     struct rio_cq_sleep **s);
/* Stops watching fd, one of the others: one that reports an error on
 * every read would end every sleep at once. A no-op when already done. */
void rio_cq_sleep_forget(struct rio_cq_sleep *s, int fd);
void rio_cq_sleep_delete(struct rio_cq_sleep **s);

/* What ended a rio_cq_wait: the channel's event (taken and acked), one of
 * the others readable, or both; 0 when the tick or a signal did. */
#define RIO_CQ_WOKE 1
#define RIO_CQ_OTHER 2

/* Sleeps until the CQ signals, one of the others is readable or the
 * tick fires; the caller armed its CQ and found it empty after arming.
 * A mask of RIO_CQ_WOKE and RIO_CQ_OTHER, or -errno. */
int rio_cq_wait(struct rio_cq_sleep *s);

/* Teardown steps, safe on NULL and leaving NULL behind: a CQ first, then
 * the sleep, then the channel it signalled. A failure is logged and teardown goes on. */
void rio_cq_delete(struct ibv_cq **cq, const char *who);
void rio_cq_channel_delete(struct ibv_comp_channel **cc, const char *who);

#endif
