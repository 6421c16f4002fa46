/* SPDX-License-Identifier: GPL-2.0 */
/* Turning verbs and rdma_cm failures into messages that say what to do. */
#ifndef RIO_ERRMSG_H
#define RIO_ERRMSG_H

#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#define RIO_SOFTROCE_HINT                                                      \
	"create Soft-RoCE with 'modprobe rdma_rxe; rdma link add rxe0 type rxe netdev <netdev>' on the netdev that carries the address"

const char *rio_wc_hint(enum ibv_wc_status status);
int rio_wc_errmsg(char *buf, size_t len, const struct ibv_wc *wc,
		  const char *verb, uint64_t offset, uint64_t bytes,
		  const char *peer);
const char *rio_cm_hint(enum rdma_cm_event_type event, int status);
const char *rio_addr_hint(int err);

#endif
