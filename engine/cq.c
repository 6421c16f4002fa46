// SPDX-License-Identifier: GPL-2.0
/* Sleeping on a completion queue (use_events): its channel and the wait. */
#include <errno.h>
#include <poll.h>

#include "cq.h"
#include "fd.h"
#include "rio_log.h"

int rio_cq_channel_new(struct ibv_context *verbs, const char *who,
		       struct ibv_comp_channel **cc)
{
	int err;

	*cc = ibv_create_comp_channel(verbs);
	if (!*cc) {
		err = errno;
		rio_err_call(err, "ibv_create_comp_channel(%s, use_events)",
			     who);
		return -err;
	}
	return rio_fd_nonblock((*cc)->fd, "completion channel");
}

/* use_events: sleep until the CQ signals or timeout_ms pass. The caller
 * armed the CQ and found it empty after arming, so no event is lost. */
int rio_cq_wait(struct ibv_comp_channel *cc, int timeout_ms)
{
	struct pollfd pfd = { .fd = cc->fd, .events = POLLIN };
	struct ibv_cq *ev_cq;
	void *ev_ctx;
	int ret, err;

	ret = poll(&pfd, 1, timeout_ms);
	if (ret < 0) {
		err = errno;
		if (err == EINTR)
			return 0;
		rio_err_call(err, "poll(completion channel fd=%d)", cc->fd);
		return -err;
	}
	if (!ret)
		return 0;
	if (ibv_get_cq_event(cc, &ev_cq, &ev_ctx)) {
		err = errno;
		if (err == EAGAIN)
			return 0;
		rio_err_call(err, "ibv_get_cq_event(fd=%d)", cc->fd);
		return -err;
	}
	ibv_ack_cq_events(ev_cq, 1);
	return 0;
}

void rio_cq_delete(struct ibv_cq **cq, const char *who)
{
	int ret;

	if (!*cq)
		return;
	ret = ibv_destroy_cq(*cq);
	if (ret)
		rio_err_call(ret, "ibv_destroy_cq(%s)", who);
	*cq = NULL;
}

void rio_cq_channel_delete(struct ibv_comp_channel **cc, const char *who)
{
	int ret;

	if (!*cc)
		return;
	ret = ibv_destroy_comp_channel(*cc);
	if (ret)
		rio_err_call(ret, "ibv_destroy_comp_channel(%s)", who);
	*cc = NULL;
}
