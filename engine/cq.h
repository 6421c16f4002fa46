/* SPDX-License-Identifier: GPL-2.0 */
/* use_events: a completion channel that never blocks, and a bounded
 * sleep on it. */
#ifndef RIO_CQ_H
#define RIO_CQ_H

#include <infiniband/verbs.h>

int rio_cq_channel_new(struct ibv_context *verbs, const char *who,
		       struct ibv_comp_channel **cc);
/* Sleeps until a CQ of the channel signals or timeout_ms pass; the caller
 * armed its CQ and found it empty after arming. 0 or -errno. */
int rio_cq_wait(struct ibv_comp_channel *cc, int timeout_ms);

/* Teardown steps, safe on NULL and leaving NULL behind: a CQ first, then
 * the channel it signalled. A failure is logged and teardown goes on. */
void rio_cq_delete(struct ibv_cq **cq, const char *who);
void rio_cq_channel_delete(struct ibv_comp_channel **cc, const char *who);

#endif
