// SPDX-License-Identifier: GPL-2.0
/* The device's asynchronous events: errors outside any completion. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>

#include "async.h"
#include "fd.h"
#include "rio_log.h"

int rio_async_init(struct ibv_context *verbs)
{
	return rio_fd_nonblock(verbs->async_fd, "async events");
}

static bool rio_async_ours(const struct ibv_async_event *ev,
			   const struct ibv_qp *const *qps, unsigned int nqps,
			   const struct ibv_cq *cq)
{
	unsigned int i;

	switch (ev->event_type) {
	case IBV_EVENT_QP_FATAL:
	case IBV_EVENT_QP_REQ_ERR:
	case IBV_EVENT_QP_ACCESS_ERR:
		for (i = 0; i < nqps; i++)
			if (qps[i] && qps[i] == ev->element.qp)
				return true;
		return false;
	case IBV_EVENT_CQ_ERR:
		return ev->element.cq == cq;
	case IBV_EVENT_SRQ_ERR:
	case IBV_EVENT_DEVICE_FATAL:
		return true;
	default:
		/* Port changes are left to rio_port_down's grace. */
		return false;
	}
}

int rio_async_fatal(struct ibv_context *verbs, const struct ibv_qp *const *qps,
		    unsigned int nqps, const struct ibv_cq *cq, char *msg,
		    size_t len)
{
	struct ibv_async_event ev;
	int found = 0, err;

	while (!ibv_get_async_event(verbs, &ev)) {
		if (!found && rio_async_ours(&ev, qps, nqps, cq)) {
			found = 1;
			if (ev.event_type == IBV_EVENT_QP_FATAL ||
			    ev.event_type == IBV_EVENT_QP_REQ_ERR ||
			    ev.event_type == IBV_EVENT_QP_ACCESS_ERR)
				snprintf(msg, len, "%s on queue pair %u",
					 ibv_event_type_str(ev.event_type),
					 ev.element.qp->qp_num);
			else
				snprintf(msg, len, "%s",
					 ibv_event_type_str(ev.event_type));
		}
		ibv_ack_async_event(&ev);
	}
	err = errno;
	if (err != EAGAIN && err != EWOULDBLOCK && !found)
		return -err; /* the caller says so, once */
	return found;
}
