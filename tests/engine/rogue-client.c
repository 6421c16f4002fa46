// SPDX-License-Identifier: GPL-2.0
/*
 * A client that breaks its word, for the lab tests: it declares the window
 * [START, SPAN) of a librdmaio target's region in its hello, then RDMA
 * WRITEs 4 KiB at OFFSET, which may lie outside it. Exit 0: the write
 * completed; 3: the target's device refused it (remote access error, what
 * a stray offset must get); 1: anything else.
 * Usage: rogue-client ADDR PORT START SPAN OFFSET
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rdma/rdma_cma.h>

#include "proto.h"

#define LEN 4096

static int expect(struct rdma_event_channel *ch, enum rdma_cm_event_type want,
		  struct rdma_cm_event **out)
{
	struct rdma_cm_event *ev;

	if (rdma_get_cm_event(ch, &ev))
		return -errno;
	if (ev->event != want) {
		fprintf(stderr, "rogue-client: got %s, wanted %s\n",
			rdma_event_str(ev->event), rdma_event_str(want));
		rdma_ack_cm_event(ev);
		return -EPROTO;
	}
	if (out)
		*out = ev;
	else
		rdma_ack_cm_event(ev);
	return 0;
}

static int connect_to(struct rdma_cm_id *id, struct rdma_event_channel *ch,
		      const struct rio_hello *h, struct rio_reply *r)
{
	struct ibv_qp_init_attr qa = { .qp_type = IBV_QPT_RC,
				       .cap = { .max_send_wr = 1,
						.max_recv_wr = 1,
						.max_send_sge = 1,
						.max_recv_sge = 1 } };
	struct rdma_conn_param cp = { .retry_count = 7, .rnr_retry_count = 7 };
	uint8_t hello[RIO_HELLO_LEN];
	struct rdma_cm_event *ev;
	int ret;

	qa.send_cq = qa.recv_cq = ibv_create_cq(id->verbs, 4, NULL, NULL, 0);
	if (!qa.send_cq || rdma_create_qp(id, NULL, &qa))
		return -errno;
	rio_hello_encode(h, hello, sizeof(hello));
	cp.private_data = hello;
	cp.private_data_len = sizeof(hello);
	if (rdma_connect(id, &cp))
		return -errno;
	ret = expect(ch, RDMA_CM_EVENT_ESTABLISHED, &ev);
	if (ret)
		return ret;
	ret = rio_reply_decode(ev->param.conn.private_data,
			       ev->param.conn.private_data_len, r);
	rdma_ack_cm_event(ev);
	return ret;
}

int main(int argc, char **argv)
{
	struct rio_hello h = { .version = RIO_PROTO_VERSION,
			       .need = RIO_NEED_WRITE,
			       .max_bs = LEN,
			       .depth = 1 };
	struct rdma_event_channel *ch = rdma_create_event_channel();
	struct rdma_addrinfo hints = { .ai_port_space = RDMA_PS_TCP }, *ai;
	struct ibv_send_wr wr = { 0 }, *bad;
	struct ibv_sge sge;
	struct rdma_cm_id *id;
	struct rio_reply r;
	struct timespec t0, now;
	struct ibv_wc wc;
	struct ibv_mr *mr;
	uint64_t offset;
	static char buf[LEN];
	int n;

	if (argc != 6) {
		fprintf(stderr,
			"usage: rogue-client ADDR PORT START SPAN OFFSET\n");
		return 2;
	}
	h.start = strtoull(argv[3], NULL, 0);
	h.span = strtoull(argv[4], NULL, 0);
	offset = strtoull(argv[5], NULL, 0);
	if (!ch || rdma_getaddrinfo(argv[1], argv[2], &hints, &ai) ||
	    rdma_create_id(ch, &id, NULL, RDMA_PS_TCP) ||
	    rdma_resolve_addr(id, NULL, ai->ai_dst_addr, 2000) ||
	    expect(ch, RDMA_CM_EVENT_ADDR_RESOLVED, NULL) ||
	    rdma_resolve_route(id, 2000) ||
	    expect(ch, RDMA_CM_EVENT_ROUTE_RESOLVED, NULL)) {
		perror("rogue-client: resolving the target");
		return 1;
	}
	if (connect_to(id, ch, &h, &r) || r.status != RIO_STATUS_OK) {
		fprintf(stderr, "rogue-client: the target did not accept\n");
		return 1;
	}
	mr = ibv_reg_mr(id->pd, buf, LEN, IBV_ACCESS_LOCAL_WRITE);
	if (!mr)
		return 1;
	memset(buf, 0x5a, LEN);
	sge = (struct ibv_sge){ (uintptr_t)buf, LEN, mr->lkey };
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.wr.rdma.remote_addr = r.base + offset;
	wr.wr.rdma.rkey = r.rkey;
	if (ibv_post_send(id->qp, &wr, &bad))
		return 1;
	/* Bounded: a test helper must not hang its test. */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		n = ibv_poll_cq(id->qp->send_cq, 1, &wc);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (n == 0 && now.tv_sec - t0.tv_sec < 10);
	if (n <= 0) {
		fprintf(stderr, "rogue-client: no completion in 10 s\n");
		return 1;
	}
	printf("rogue-client: write of %d bytes at offset %" PRIu64
	       " (window [%" PRIu64 ", %" PRIu64 ")): %s\n",
	       LEN, offset, h.start, h.span, ibv_wc_status_str(wc.status));
	rdma_disconnect(id);
	return wc.status == IBV_WC_SUCCESS	    ? 0
	       : wc.status == IBV_WC_REM_ACCESS_ERR ? 3
						    : 1;
}
