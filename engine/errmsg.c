// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "errmsg.h"

const char *rio_wc_hint(enum ibv_wc_status status)
{
	switch (status) {
	case IBV_WC_REM_ACCESS_ERR:
		return "the target's region does not allow this access at this address; check the target's verb= and size=";
	case IBV_WC_REM_INV_REQ_ERR:
		return "the target rejected the request (a SEND larger than its receive, or an opcode it does not serve); check the target's bs= and verb=";
	case IBV_WC_RETRY_EXC_ERR:
		return "the target stopped answering: it died or the link went down";
	case IBV_WC_RNR_RETRY_EXC_ERR:
		return "the target had no receive posted; give the target an iodepth of at least the client's";
	case IBV_WC_LOC_LEN_ERR:
		return "the local buffer length does not match; check bs=";
	case IBV_WC_LOC_PROT_ERR:
		return "the local buffer is outside the registered I/O memory";
	case IBV_WC_WR_FLUSH_ERR:
		return "an earlier request on this queue pair failed";
	case IBV_WC_LOC_QP_OP_ERR:
		return "the local device could not send: its link or netdev went down, or the queue pair is broken";
	case IBV_WC_REM_OP_ERR:
		return "the target could not complete the operation";
	default:
		return "see the device's documentation for this status";
	}
}

int rio_wc_errmsg(char *buf, size_t len, const struct ibv_wc *wc,
		  const char *verb, uint64_t offset, uint64_t bytes,
		  const char *peer)
{
	return snprintf(
		buf, len,
		"%s of %" PRIu64 " bytes at offset %" PRIu64
		" with target %s failed: %s (wc status %d, vendor error 0x%x): %s",
		verb, bytes, offset, peer, ibv_wc_status_str(wc->status),
		(int)wc->status, wc->vendor_err, rio_wc_hint(wc->status));
}

const char *rio_cm_hint(enum rdma_cm_event_type event, int status)
{
	switch (event) {
	case RDMA_CM_EVENT_ADDR_ERROR:
		/* The kernel's own resolve timeout: no neighbour answered
		 * (the same as the engine's wait running out first). */
		if (status == -ETIMEDOUT)
			return "did not resolve to a hardware address: nothing answers on that network, or its netdev has no RDMA device; check hostname= or " RIO_SOFTROCE_HINT;
		return "no RDMA device reaches this address; " RIO_SOFTROCE_HINT;
	case RDMA_CM_EVENT_ROUTE_ERROR:
		return "no route to the address over an RDMA device; check the address and the netdev's routes";
	case RDMA_CM_EVENT_UNREACHABLE:
		return "the target did not answer; check that it runs and that the address is right";
	case RDMA_CM_EVENT_REJECTED:
		if (status == 28) /* IB_CM_REJ_CONSUMER_DEFINED */
			return "the target refused the connection";
		return "nothing listens on this address and port; start the target job first or raise connect_timeout";
	case RDMA_CM_EVENT_CONNECT_ERROR:
		return "the connection could not be set up";
	case RDMA_CM_EVENT_DISCONNECTED:
		return "the peer disconnected: it ended, died or the link went down";
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		return "the RDMA device was removed";
	default:
		return "unexpected connection event";
	}
}

const char *rio_addr_hint(int err)
{
	switch (err) {
	case ENODEV:
	case EADDRNOTAVAIL:
	case ENETUNREACH:
		return "no RDMA device carries this address; " RIO_SOFTROCE_HINT;
	case EADDRINUSE:
		return "another process listens on this port; choose another port=";
	case EACCES:
	case EPERM:
		return "permission denied; run as root or with access to /dev/infiniband";
	case ENOENT:
	case ENOSYS:
		return "this kernel has no RDMA support (/dev/infiniband/rdma_cm missing); load rdma_ucm and a device driver, or " RIO_SOFTROCE_HINT;
	default:
		return "check the address and the RDMA device";
	}
}
