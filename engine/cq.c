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

/* use_events: sleep until the CQ signals, a connection or device event
 * waits (the others), or timeout_ms pass. One poll() watches them all, so
 * a wake by the CQ alone costs its caller no look at the others: each
 * look is a syscall, and a message would otherwise pay two per side. */
int rio_cq_wait(struct ibv_comp_channel *cc, const int *others,
		unsigned int nothers, int timeout_ms)
{
	struct pollfd pfd[1 + RIO_CQ_MAX_OTHERS];
	struct ibv_cq *ev_cq;
	unsigned int i;
	void *ev_ctx;
	int ret, err, woke = 0;

	if (nothers > RIO_CQ_MAX_OTHERS)
		return -EINVAL;
	pfd[0] = (struct pollfd){ .fd = cc->fd, .events = POLLIN };
	for (i = 0; i < nothers; i++)
		pfd[1 + i] =
			(struct pollfd){ .fd = others[i], .events = POLLIN };
	ret = poll(pfd, 1 + nothers, timeout_ms);
	if (ret < 0) {
		err = errno;
		if (err == EINTR)
			return 0;
		rio_err_call(err, "poll(completion channel fd=%d and %u more)",
			     cc->fd, nothers);
		return -err;
	}
	for (i = 0; i < nothers; i++)
		if (pfd[1 + i].revents)
			woke = RIO_CQ_OTHER;
	if (!pfd[0].revents)
		return woke;
	if (ibv_get_cq_event(cc, &ev_cq, &ev_ctx)) {
		err = errno;
		if (err == EAGAIN)
			return woke;
		rio_err_call(err, "ibv_get_cq_event(fd=%d)", cc->fd);
		return -err;
	}
	ibv_ack_cq_events(ev_cq, 1);
	return woke | RIO_CQ_WOKE;
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
