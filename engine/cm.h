/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers around rdma_cm shared by the client and the target. */
#ifndef RIO_CM_H
#define RIO_CM_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <time.h>

#include <rdma/rdma_cma.h>

int rio_cm_addr(const char *host, unsigned int port, bool passive,
		struct sockaddr_storage *ss);
void rio_cm_addr_str(const struct sockaddr *sa, char *buf, size_t len);
int rio_cm_channel_new(struct rdma_event_channel **ch);
void rio_cm_channel_delete(struct rdma_event_channel **ch);
int rio_cm_next(struct rdma_event_channel *ch, int timeout_ms,
		struct rdma_cm_event **ev);
int rio_cm_mr_reg(struct ibv_pd *pd, void *addr, size_t len, int access,
		  const char *what, struct ibv_mr **mr);
/* -ENOMEM, after saying how to raise it, when the locked memory limit
 * would refuse to register len bytes: checked before any client comes. */
int rio_cm_pin_check(size_t len, const char *what);
/* Says that the connection's path (via) uses device got, not the device=
 * asked, or (got NULL) that this host has no such device. */
void rio_cm_device_mismatch(const char *who, const char *want, const char *got,
			    const char *via);
long rio_ms_since(const struct timespec *start);
/* A zeroed timespec stands for a clock not started yet. */
static inline bool rio_ts_unset(const struct timespec *ts)
{
	return !ts->tv_sec && !ts->tv_nsec;
}

/* How long a port may stay down before the connections over it count as
 * lost: Soft-RoCE may never fail the requests in flight once its netdev
 * goes down (seen with Debian 12's 6.1: no completion, ever), and a
 * dropped disconnect never reaches the peer. A shorter flap is left to the
 * transport's own retries. */
#define RIO_LINK_GRACE_MS 5000
bool rio_cm_port_down(struct ibv_context *verbs, uint8_t port,
		      struct timespec *checked, struct timespec *down_since,
		      char *state, size_t len);
long rio_cm_ts_ms(const struct timespec *ts);

/*
 * Errors the device reports outside any completion (a QP or CQ gone to
 * error, a fatal device) arrive as async events. rio_async_init makes the
 * context's event fd non-blocking; rio_async_fatal reads what is pending,
 * acknowledges it, and returns 1 with msg describing the first fatal event
 * that concerns this job (a QP in qps, its CQ or SRQ, or the device), 0
 * when none, -errno when the fd cannot be read. The context is shared by
 * the jobs of one process: an event of another job's QP is dropped here.
 */
int rio_async_init(struct ibv_context *verbs);
int rio_async_fatal(struct ibv_context *verbs, const struct ibv_qp *const *qps,
		    unsigned int nqps, const struct ibv_cq *cq, char *msg,
		    size_t len);
int rio_cq_channel_new(struct ibv_context *verbs, const char *who,
		       struct ibv_comp_channel **cc);
int rio_cq_wait(struct ibv_comp_channel *cc, struct ibv_cq *cq, int timeout_ms);

#endif
