// SPDX-License-Identifier: GPL-2.0
/*
 * A peer that breaks librdmaio's protocol, for the lab tests. Every wait is
 * bounded: a test helper must not hang its test.
 *
 *   rogue-client ADDR PORT window START SPAN OFFSET
 *	declares the window [START, SPAN) of the target's region in its
 *	hello, then RDMA WRITEs 4 KiB at OFFSET, which may lie outside it.
 *	Exit 0: the write completed; 3: the target's device refused it
 *	(remote access error, what a stray offset must get); 1: anything else.
 *   rogue-client ADDR PORT garbage
 *	connects with private data that is no rdmaio hello. Exit 0 when the
 *	target refuses it.
 *   rogue-client ADDR PORT version
 *	sends a hello of the next protocol version. Exit 0 when the target
 *	refuses it; the reply's status is printed.
 *   rogue-client ADDR PORT halfway SECONDS
 *	sends a valid hello and then reads no connection event for SECONDS,
 *	so librdmacm never completes the connection (no RTU), as a process
 *	stopped right after connecting would. Exit 0 when, after that, the
 *	connection turns out not to be established (the target gave up on
 *	it); 1 when it is.
 *   rogue-client ADDR PORT silent SECONDS
 *	connects properly, then does nothing: no I/O, no keepalive. Exit 0
 *	when the target disconnects it within SECONDS, 1 when not.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rdma/rdma_cma.h>

#include "proto.h"

#define LEN 4096

static struct rdma_event_channel *ch;
static struct rdma_cm_id *id;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The next connection event within ms, or -ETIMEDOUT. */
static int next_event(int ms, struct rdma_cm_event **ev)
{
	struct pollfd pfd = { .fd = ch->fd, .events = POLLIN };
	double until = now_s() + ms / 1000.0;

	for (;;) {
		if (!rdma_get_cm_event(ch, ev))
			return 0;
		if (errno != EAGAIN)
			return -errno;
		ms = (int)((until - now_s()) * 1000);
		if (ms <= 0 || poll(&pfd, 1, ms) <= 0)
			return -ETIMEDOUT;
	}
}

static int expect(enum rdma_cm_event_type want, struct rdma_cm_event **out)
{
	struct rdma_cm_event *ev;
	int ret = next_event(10000, &ev);

	if (ret) {
		fprintf(stderr, "rogue-client: no %s: %s\n",
			rdma_event_str(want), strerror(-ret));
		return ret;
	}
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

static int resolve(const char *addr, const char *port)
{
	struct rdma_addrinfo hints = { .ai_port_space = RDMA_PS_TCP }, *ai;

	ch = rdma_create_event_channel();
	if (!ch || fcntl(ch->fd, F_SETFL, O_NONBLOCK) ||
	    rdma_getaddrinfo(addr, port, &hints, &ai) ||
	    rdma_create_id(ch, &id, NULL, RDMA_PS_TCP) ||
	    rdma_resolve_addr(id, NULL, ai->ai_dst_addr, 2000) ||
	    expect(RDMA_CM_EVENT_ADDR_RESOLVED, NULL) ||
	    rdma_resolve_route(id, 2000) ||
	    expect(RDMA_CM_EVENT_ROUTE_RESOLVED, NULL)) {
		perror("rogue-client: resolving the target");
		return -1;
	}
	return 0;
}

/* Sends the connection request with private data pdata. */
static int request(const void *pdata, size_t len)
{
	struct ibv_qp_init_attr qa = { .qp_type = IBV_QPT_RC,
				       .cap = { .max_send_wr = 1,
						.max_recv_wr = 1,
						.max_send_sge = 1,
						.max_recv_sge = 1 } };
	struct rdma_conn_param cp = { .retry_count = 7, .rnr_retry_count = 7 };

	qa.send_cq = qa.recv_cq = ibv_create_cq(id->verbs, 4, NULL, NULL, 0);
	if (!qa.send_cq || rdma_create_qp(id, NULL, &qa)) {
		perror("rogue-client: creating a queue pair");
		return -1;
	}
	cp.private_data = pdata;
	cp.private_data_len = (uint8_t)len;
	if (rdma_connect(id, &cp)) {
		perror("rogue-client: rdma_connect");
		return -1;
	}
	return 0;
}

static void hello_of(struct rio_hello *h, uint64_t start, uint64_t span)
{
	*h = (struct rio_hello){ .version = RIO_PROTO_VERSION,
				 .need = RIO_NEED_WRITE,
				 .max_bs = LEN,
				 .start = start,
				 .span = span,
				 .depth = 1 };
}

/* A valid hello, the connection established, the target's reply. */
static int connect_to(const struct rio_hello *h, struct rio_reply *r)
{
	uint8_t hello[RIO_HELLO_LEN];
	struct rdma_cm_event *ev;
	int ret;

	rio_hello_encode(h, hello, sizeof(hello));
	if (request(hello, sizeof(hello)) ||
	    expect(RDMA_CM_EVENT_ESTABLISHED, &ev))
		return -1;
	ret = rio_reply_decode(ev->param.conn.private_data,
			       ev->param.conn.private_data_len, r);
	rdma_ack_cm_event(ev);
	return ret || r->status != RIO_STATUS_OK ? -1 : 0;
}

static int window(int argc, char **argv)
{
	struct ibv_send_wr wr = { 0 }, *bad;
	static char buf[LEN];
	struct rio_hello h;
	struct rio_reply r;
	struct ibv_sge sge;
	struct ibv_mr *mr;
	struct ibv_wc wc;
	uint64_t offset;
	double t0;
	int n;

	if (argc != 3)
		return 2;
	hello_of(&h, strtoull(argv[0], NULL, 0), strtoull(argv[1], NULL, 0));
	offset = strtoull(argv[2], NULL, 0);
	if (connect_to(&h, &r)) {
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
	t0 = now_s();
	do
		n = ibv_poll_cq(id->qp->send_cq, 1, &wc);
	while (n == 0 && now_s() - t0 < 10);
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

/* garbage and version: the request must be refused. */
static int refused(const void *pdata, size_t len)
{
	struct rdma_cm_event *ev;
	struct rio_reply r;
	int dec;

	if (request(pdata, len) || next_event(10000, &ev)) {
		fprintf(stderr, "rogue-client: no answer to the request\n");
		return 1;
	}
	dec = rio_reply_decode(ev->param.conn.private_data,
			       ev->param.conn.private_data_len, &r);
	printf("rogue-client: %s, reply status: %s\n",
	       rdma_event_str(ev->event),
	       dec == -EPROTO ? "none" : rio_status_str(r.status));
	dec = ev->event == RDMA_CM_EVENT_REJECTED ? 0 : 1;
	rdma_ack_cm_event(ev);
	return dec;
}

static int halfway(int argc, char **argv)
{
	uint8_t hello[RIO_HELLO_LEN];
	struct rdma_cm_event *ev;
	struct rio_hello h;
	int established = 0;

	if (argc != 1)
		return 2;
	hello_of(&h, 0, LEN);
	rio_hello_encode(&h, hello, sizeof(hello));
	if (request(hello, sizeof(hello)))
		return 1;
	/* librdmacm sends the RTU only while it hands over the accept. */
	sleep((unsigned int)atoi(argv[0]));
	while (!next_event(3000, &ev)) {
		printf("rogue-client: after %s s: %s (status %d)\n", argv[0],
		       rdma_event_str(ev->event), ev->status);
		established |= ev->event == RDMA_CM_EVENT_ESTABLISHED;
		rdma_ack_cm_event(ev);
	}
	return established;
}

static int silent(int argc, char **argv)
{
	struct rdma_cm_event *ev;
	struct rio_hello h;
	struct rio_reply r;
	double t0;

	if (argc != 1)
		return 2;
	hello_of(&h, 0, LEN);
	if (connect_to(&h, &r)) {
		fprintf(stderr, "rogue-client: the target did not accept\n");
		return 1;
	}
	printf("rogue-client: connected; the target asks for keepalives within %" PRIu32
	       " s; sending none\n",
	       r.alive_s);
	fflush(stdout);
	t0 = now_s();
	if (next_event(atoi(argv[0]) * 1000, &ev)) {
		printf("rogue-client: still connected after %s s\n", argv[0]);
		return 1;
	}
	printf("rogue-client: %s after %.1f s\n", rdma_event_str(ev->event),
	       now_s() - t0);
	return ev->event == RDMA_CM_EVENT_DISCONNECTED ? 0 : 1;
}

int main(int argc, char **argv)
{
	static const char junk[RIO_HELLO_LEN] = "not an rdmaio hello at all";
	uint8_t hello[RIO_HELLO_LEN];
	struct rio_hello h;
	const char *mode = argc > 3 ? argv[3] : "";
	int ret = 2;

	if (argc < 4)
		goto out;
	if (resolve(argv[1], argv[2]))
		return 1;
	if (!strcmp(mode, "window")) {
		ret = window(argc - 4, argv + 4);
	} else if (!strcmp(mode, "garbage")) {
		ret = refused(junk, sizeof(junk));
	} else if (!strcmp(mode, "version")) {
		hello_of(&h, 0, LEN);
		h.version = RIO_PROTO_VERSION + 1;
		rio_hello_encode(&h, hello, sizeof(hello));
		ret = refused(hello, sizeof(hello));
	} else if (!strcmp(mode, "halfway")) {
		ret = halfway(argc - 4, argv + 4);
	} else if (!strcmp(mode, "silent")) {
		ret = silent(argc - 4, argv + 4);
	}
out:
	if (ret == 2)
		fprintf(stderr,
			"usage: rogue-client ADDR PORT window START SPAN OFFSET | garbage | version | halfway SECONDS | silent SECONDS\n");
	return ret;
}
