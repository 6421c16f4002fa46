/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Errors the device reports outside any completion (a QP or CQ gone to
 * error, a fatal device) arrive as async events. rio_async_init makes the
 * context's event fd non-blocking; rio_async_fatal reads what is pending,
 * acknowledges it, and returns 1 with msg describing the first fatal event
 * that concerns this job (a QP in qps, its CQ or SRQ, or the device), 0
 * when none, -errno when the fd cannot be read. The context is shared by
 * the jobs of one process: an event of another job's QP is dropped here.
 */
#ifndef RIO_ASYNC_H
#define RIO_ASYNC_H

#include <stddef.h>

#include <infiniband/verbs.h>

int rio_async_init(struct ibv_context *verbs);
int rio_async_fatal(struct ibv_context *verbs, const struct ibv_qp *const *qps,
		    unsigned int nqps, const struct ibv_cq *cq, char *msg,
		    size_t len);

#endif
