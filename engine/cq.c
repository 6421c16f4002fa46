// SPDX-License-Identifier: GPL-2.0
/* Sleeping on a completion queue (use_events): its channel, and the wait
 * on it and on the job's connection and device events. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "clock.h"
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

struct rio_cq_sleep {
	struct ibv_comp_channel *cc;
	int epfd;
	int tickfd;
	int others[RIO_CQ_MAX_OTHERS]; /* -1 once forgotten */
	unsigned int nothers;
};

/* The channel is event 0, the others 1 to nothers, the tick the last. */
#define RIO_CQ_TICK (RIO_CQ_MAX_OTHERS + 1)

static int rio_cq_sleep_add(struct rio_cq_sleep *s, int fd, uint32_t i)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = i };
	int err;

	if (!epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ev))
		return 0;
	err = errno;
	rio_err_call(err, "epoll_ctl(ADD, fd=%d)", fd);
	return -err;
}

/* The sleep's bound is a periodic timer in the set, armed once: an
 * epoll_wait with a timeout arms and cancels an hrtimer on every sleep,
 * about 550 instructions each (counted in the exact lab), where
 * ib_send_bw -e blocks in read() with none. */
static int rio_cq_sleep_tick(struct rio_cq_sleep *s, unsigned int tick_ms)
{
	struct itimerspec its = { 0 };
	int err;

	rio_ts_add_ms(&its.it_value, tick_ms);
	its.it_interval = its.it_value;
	s->tickfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (s->tickfd < 0) {
		err = errno;
		rio_err_call(err, "timerfd_create(use_events tick)");
		return -err;
	}
	if (timerfd_settime(s->tickfd, 0, &its, NULL)) {
		err = errno;
		rio_err_call(err, "timerfd_settime(fd=%d, every %u ms)",
			     s->tickfd, tick_ms);
		return -err;
	}
	return rio_cq_sleep_add(s, s->tickfd, RIO_CQ_TICK);
}

int rio_cq_sleep_new(struct ibv_comp_channel *cc, const int *others,
		     unsigned int nothers, unsigned int tick_ms,
		     struct rio_cq_sleep **sp)
{
	struct rio_cq_sleep *s;
	unsigned int i;
	int err;

	if (nothers > RIO_CQ_MAX_OTHERS) {
		rio_err("use_events: %u descriptors besides the completion channel, at most %d",
			nothers, RIO_CQ_MAX_OTHERS);
		return -EINVAL;
	}
	if (!tick_ms) {
		rio_err("use_events: a tick of 0 ms; give the sleep a bound of at least 1 ms");
		return -EINVAL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		rio_err_call(ENOMEM, "calloc(use_events sleep)");
		return -ENOMEM;
	}
	s->cc = cc;
	s->nothers = nothers;
	s->tickfd = -1;
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (s->epfd < 0) {
		err = errno;
		rio_err_call(err, "epoll_create1(use_events)");
		free(s);
		return -err;
	}
	err = rio_cq_sleep_tick(s, tick_ms);
	if (!err)
		err = rio_cq_sleep_add(s, cc->fd, 0);
	for (i = 0; !err && i < nothers; i++) {
		s->others[i] = others[i];
		err = rio_cq_sleep_add(s, others[i], i + 1);
	}
	if (err) {
		rio_cq_sleep_delete(&s);
		return err;
	}
	*sp = s;
	return 0;
}

void rio_cq_sleep_forget(struct rio_cq_sleep *s, int fd)
{
	unsigned int i;

	for (i = 0; s && i < s->nothers; i++) {
		if (s->others[i] != fd)
			continue;
		s->others[i] = -1;
		if (epoll_ctl(s->epfd, EPOLL_CTL_DEL, fd, NULL))
			rio_err_call(errno, "epoll_ctl(DEL, fd=%d)", fd);
	}
}

void rio_cq_sleep_delete(struct rio_cq_sleep **sp)
{
	if (!sp || !*sp)
		return;
	if (close((*sp)->epfd))
		rio_err_call(errno, "close(epoll fd=%d)", (*sp)->epfd);
	if ((*sp)->tickfd >= 0 && close((*sp)->tickfd))
		rio_err_call(errno, "close(timerfd=%d)", (*sp)->tickfd);
	free(*sp);
	*sp = NULL;
}

/* Takes the tick's expirations, so that it wakes the next sleep only when
 * it fires again. */
static int rio_cq_sleep_ticked(struct rio_cq_sleep *s)
{
	uint64_t n;
	int err;

	if (read(s->tickfd, &n, sizeof(n)) >= 0 || errno == EAGAIN)
		return 0;
	err = errno;
	rio_err_call(err, "read(timerfd=%d)", s->tickfd);
	return -err;
}

/* A tick that fired while the job was awake ends its next sleep at once:
 * at most one extra look per tick. */
int rio_cq_wait(struct rio_cq_sleep *s)
{
	struct epoll_event evs[2 + RIO_CQ_MAX_OTHERS];
	struct ibv_cq *ev_cq;
	void *ev_ctx;
	int i, n, err, woke = 0, cq = 0;

	n = epoll_wait(s->epfd, evs, 2 + RIO_CQ_MAX_OTHERS, -1);
	if (n < 0) {
		err = errno;
		if (err == EINTR)
			return 0;
		rio_err_call(err, "epoll_wait(fd=%d, completion channel fd=%d)",
			     s->epfd, s->cc->fd);
		return -err;
	}
	for (i = 0; i < n; i++) {
		if (evs[i].data.u32 == RIO_CQ_TICK) {
			err = rio_cq_sleep_ticked(s);
			if (err)
				return err;
		} else if (evs[i].data.u32) {
			woke = RIO_CQ_OTHER;
		} else {
			cq = 1;
		}
	}
	if (!cq)
		return woke;
	if (ibv_get_cq_event(s->cc, &ev_cq, &ev_ctx)) {
		err = errno;
		if (err == EAGAIN)
			return woke;
		rio_err_call(err, "ibv_get_cq_event(fd=%d)", s->cc->fd);
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
