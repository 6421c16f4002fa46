/* SPDX-License-Identifier: GPL-2.0 */
/* use_events: a completion channel that never blocks, and a bounded
 * sleep on it. */
#ifndef RIO_CQ_H
#define RIO_CQ_H

#include <infiniband/verbs.h>

int rio_cq_channel_new(struct ibv_context *verbs, const char *who,
		       struct ibv_comp_channel **cc);
/* What ended a rio_cq_wait: the channel's event (taken and acked), one of
 * the other descriptors readable, or both; 0 when timeout_ms passed. */
#define RIO_CQ_WOKE 1
#define RIO_CQ_OTHER 2
#define RIO_CQ_MAX_OTHERS 2

/* Sleeps until a CQ of the channel signals, one of the nothers (at most
 * RIO_CQ_MAX_OTHERS) descriptors in others is readable, or timeout_ms
 * pass; the caller armed its CQ and found it empty after arming. A mask
 * of RIO_CQ_WOKE and RIO_CQ_OTHER, or -errno. */
int rio_cq_wait(struct ibv_comp_channel *cc, const int *others,
		unsigned int nothers, int timeout_ms);

/* Teardown steps, safe on NULL and leaving NULL behind: a CQ first, then
 * the channel it signalled. A failure is logged and teardown goes on. */
void rio_cq_delete(struct ibv_cq **cq, const char *who);
void rio_cq_channel_delete(struct ibv_comp_channel **cc, const char *who);

#endif
