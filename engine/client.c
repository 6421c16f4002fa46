// SPDX-License-Identifier: GPL-2.0
/* Client connections. One PD, one CQ and one MR over fio's I/O buffers are
 * shared by the job's queue pairs; each queue pair is its own rdma_cm
 * connection with its own handshake. The hot path (queue, commit,
 * getevents) uses arrays sized at init and logs only on errors. */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "cm.h"
#include "errmsg.h"
#include "log.h"

#define RIO_CM_STEP_MS 3000
#define RIO_RETRY_MS 200

struct rio_cqp {
	struct rdma_cm_id *id;
	bool connected;
	uint32_t qp_num;
	struct io_u **ring; /* posted I/O units, oldest first */
	unsigned int head, count;
	struct ibv_send_wr *first, *last; /* staged since the last commit */
};

struct rio_client {
	struct thread_data *td;
	const struct rio_opts *o;
	char peer[80];
	struct sockaddr_storage addr;
	struct rdma_event_channel *ch;
	struct ibv_context *verbs;
	struct ibv_device_attr attr;
	struct ibv_pd *pd;
	struct ibv_comp_channel *cc;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	uint64_t base, length;
	uint32_t rkey;
	uint32_t inline_max;
	enum ibv_wr_opcode write_op;
	unsigned int depth;
	unsigned int next_qp;
	struct ibv_send_wr *wr; /* indexed by io_u->index */
	struct ibv_sge *sge;
	struct io_u **staged;
	unsigned int nstaged;
	struct io_u **ready; /* completed, not yet handed to fio */
	unsigned int rhead, rcount, rgiven;
	struct ibv_wc *wc;
	bool dead;
	bool flush_told;
	unsigned int nqps;
	struct rio_cqp qps[];
};

int rio_client_new(struct thread_data *td, const struct rio_opts *o,
		   struct rio_client **out)
{
	unsigned int depth = td->o.iodepth, i;
	struct rio_client *c;
	int ret;

	c = calloc(1, sizeof(*c) + o->qps * sizeof(c->qps[0]));
	if (!c)
		return -ENOMEM;
	c->td = td;
	c->o = o;
	c->depth = depth;
	c->nqps = o->qps;
	c->wr = calloc(depth, sizeof(*c->wr));
	c->sge = calloc(depth, sizeof(*c->sge));
	c->staged = calloc(depth, sizeof(*c->staged));
	c->ready = calloc(depth, sizeof(*c->ready));
	c->wc = calloc(depth, sizeof(*c->wc));
	if (!c->wr || !c->sge || !c->staged || !c->ready || !c->wc)
		goto nomem;
	for (i = 0; i < c->nqps; i++) {
		c->qps[i].ring = calloc(depth, sizeof(*c->qps[i].ring));
		if (!c->qps[i].ring)
			goto nomem;
	}
	switch (o->verb) {
	case RIO_VERB_SEND:
		c->write_op = IBV_WR_SEND;
		break;
	case RIO_VERB_WRITE_IMM:
		c->write_op = IBV_WR_RDMA_WRITE_WITH_IMM;
		break;
	case RIO_VERB_FETCH_ADD:
		c->write_op = IBV_WR_ATOMIC_FETCH_AND_ADD;
		break;
	case RIO_VERB_CMP_SWAP:
		c->write_op = IBV_WR_ATOMIC_CMP_AND_SWP;
		break;
	default:
		c->write_op = IBV_WR_RDMA_WRITE;
		break;
	}
	ret = rio_cm_addr(o->hostname, o->port, false, &c->addr);
	if (ret)
		goto fail;
	rio_cm_addr_str((struct sockaddr *)&c->addr, c->peer, sizeof(c->peer));
	ret = rio_cm_channel_new(&c->ch);
	if (ret)
		goto fail;
	*out = c;
	return 0;
nomem:
	ret = -ENOMEM;
	rio_err("client job: out of memory for %u I/O units; lower iodepth",
		depth);
fail:
	rio_client_delete(&c);
	return ret;
}

/* The first resolved address names the device: PD, CQ and MR live there. */
static int rio_client_device(struct rio_client *c, struct ibv_context *verbs)
{
	struct thread_data *td = c->td;
	const char *dev = ibv_get_device_name(verbs->device);
	int ret, cqe;

	if (c->verbs) {
		if (verbs == c->verbs)
			return 0;
		rio_err("client job: %s is reached through RDMA device %s but earlier queue pairs use %s; use an address on one device",
			c->peer, dev, ibv_get_device_name(c->verbs->device));
		return -EXDEV;
	}
	ret = ibv_query_device(verbs, &c->attr);
	if (ret) {
		rio_err_call(ret, "ibv_query_device(%s)", dev);
		return -ret;
	}
	cqe = c->depth + c->nqps;
	if ((c->write_op == IBV_WR_ATOMIC_FETCH_AND_ADD ||
	     c->write_op == IBV_WR_ATOMIC_CMP_AND_SWP) &&
	    c->attr.atomic_cap == IBV_ATOMIC_NONE) {
		rio_err("client job: RDMA device %s does not support atomics; use another verb or device",
			dev);
		return -EOPNOTSUPP;
	}
	if (c->depth > (unsigned int)c->attr.max_qp_wr ||
	    cqe > c->attr.max_cqe) {
		rio_err("client job: iodepth=%u is above the limit of RDMA device %s (max_qp_wr=%d, max_cqe=%d); lower iodepth",
			c->depth, dev, c->attr.max_qp_wr, c->attr.max_cqe);
		return -EINVAL;
	}
	c->verbs = verbs;
	c->pd = ibv_alloc_pd(verbs);
	if (!c->pd) {
		ret = errno;
		rio_err_call(ret, "ibv_alloc_pd(%s)", dev);
		return -ret;
	}
	if (c->o->use_events) {
		ret = rio_cq_channel_new(verbs, c->peer, &c->cc);
		if (ret)
			return ret;
	}
	c->cq = ibv_create_cq(verbs, cqe, NULL, c->cc, 0);
	if (!c->cq) {
		ret = errno;
		rio_err_call(ret, "ibv_create_cq(%s, cqe=%d)", dev, cqe);
		return -ret;
	}
	return rio_cm_mr_reg(c->pd, td->orig_buffer, td->orig_buffer_size,
			     IBV_ACCESS_LOCAL_WRITE, "client job's I/O buffers",
			     &c->mr);
}

/* Waits for one step of connection setup. *retry says the target may
 * simply not listen yet. */
static int rio_client_step(struct rio_client *c, struct rdma_cm_id *id,
			   enum rdma_cm_event_type want, int ms,
			   struct rio_reply *reply, bool *retry)
{
	struct rdma_cm_event *ev;
	enum rdma_cm_event_type got;
	int ret, status;

	ret = rio_cm_next(c->ch, ms, &ev);
	if (ret == -ETIMEDOUT) {
		*retry = want == RDMA_CM_EVENT_ESTABLISHED;
		if (want == RDMA_CM_EVENT_ADDR_RESOLVED)
			rio_err("client job: %s did not resolve to a hardware address within %d ms: nothing answers on that network, or its netdev has no RDMA device; check hostname= or %s",
				c->peer, ms, RIO_SOFTROCE_HINT);
		else if (!*retry)
			rio_err("client job: no answer from the connection manager for %s within %d ms while waiting for %s",
				c->peer, ms, rdma_event_str(want));
		return ret;
	}
	if (ret)
		return ret;
	got = ev->event;
	status = ev->status;
	if (ev->id != id) {
		/* A late event for an earlier attempt's id: not ours now. */
		rdma_ack_cm_event(ev);
		return rio_client_step(c, id, want, ms, reply, retry);
	}
	if (got == want) {
		ret = 0;
		if (reply) {
			ret = rio_reply_decode(ev->param.conn.private_data,
					       ev->param.conn.private_data_len,
					       reply);
			if (ret == -EPROTO)
				rio_err("client job: %s accepted without an rdmaio reply; is it an rdmaio target (ioengine=external:librdmaio.so with listen)?",
					c->peer);
		}
		rdma_ack_cm_event(ev);
		return ret == -EPROTONOSUPPORT ? 0 : ret;
	}
	if (got == RDMA_CM_EVENT_REJECTED && reply &&
	    rio_reply_decode(ev->param.conn.private_data,
			     ev->param.conn.private_data_len,
			     reply) != -EPROTO) {
		/* Refused by an rdmaio target: the reply says why. */
		rdma_ack_cm_event(ev);
		if (reply->status == RIO_STATUS_OK)
			reply->status = RIO_STATUS_MAX;
		return 0;
	}
	rdma_ack_cm_event(ev);
	if (got == RDMA_CM_EVENT_REJECTED || got == RDMA_CM_EVENT_UNREACHABLE) {
		*retry = true;
		return -ECONNREFUSED;
	}
	rio_err("client job: connecting to %s: %s (status %d) while waiting for %s: %s",
		c->peer, rdma_event_str(got), status, rdma_event_str(want),
		rio_cm_hint(got, status));
	return status < 0 ? status : -ECONNREFUSED;
}

static void rio_client_qp_drop(struct rio_cqp *q)
{
	if (!q->id)
		return;
	if (q->connected)
		rdma_disconnect(q->id);
	if (q->id->qp)
		rdma_destroy_qp(q->id);
	rdma_destroy_id(q->id);
	q->id = NULL;
	q->connected = false;
}

static int rio_client_qp_create(struct rio_client *c, struct rio_cqp *q)
{
	struct ibv_qp_init_attr qa = { 0 };
	int ret;

	qa.send_cq = c->cq;
	qa.recv_cq = c->cq;
	qa.qp_type = IBV_QPT_RC;
	qa.cap.max_send_wr = c->depth;
	qa.cap.max_recv_wr = 1;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	qa.cap.max_inline_data = c->o->inline_size;
	if (rdma_create_qp(q->id, c->pd, &qa)) {
		ret = errno;
		rio_err_call(
			ret,
			"rdma_create_qp(%s, max_send_wr=%u, max_inline_data=%u)",
			c->peer, c->depth, c->o->inline_size);
		if (c->o->inline_size)
			rio_err("client job: the device may not support inline=%u; lower inline",
				c->o->inline_size);
		return -ret;
	}
	c->inline_max = qa.cap.max_inline_data;
	q->qp_num = q->id->qp->qp_num;
	return 0;
}

static int rio_client_try(struct rio_client *c, struct rio_cqp *q,
			  const struct rio_hello *hello, int wait_ms,
			  struct rio_reply *reply, bool *retry)
{
	struct rdma_conn_param cp = { 0 };
	uint8_t pdata[RIO_HELLO_LEN];
	int ret;

	if (rdma_create_id(c->ch, &q->id, q, RDMA_PS_TCP)) {
		ret = errno;
		rio_err_call(ret, "rdma_create_id(RDMA_PS_TCP)");
		return -ret;
	}
	if (rdma_resolve_addr(q->id, NULL, (struct sockaddr *)&c->addr,
			      RIO_CM_STEP_MS)) {
		ret = errno;
		rio_err_call(ret, "rdma_resolve_addr(%s)", c->peer);
		rio_err("client job: cannot reach %s: %s", c->peer,
			rio_addr_hint(ret));
		return -ret;
	}
	ret = rio_client_step(c, q->id, RDMA_CM_EVENT_ADDR_RESOLVED,
			      RIO_CM_STEP_MS, NULL, retry);
	if (ret)
		return ret;
	ret = rio_client_device(c, q->id->verbs);
	if (ret)
		return ret;
	if (rdma_resolve_route(q->id, RIO_CM_STEP_MS)) {
		ret = errno;
		rio_err_call(ret, "rdma_resolve_route(%s)", c->peer);
		return -ret;
	}
	ret = rio_client_step(c, q->id, RDMA_CM_EVENT_ROUTE_RESOLVED,
			      RIO_CM_STEP_MS, NULL, retry);
	if (ret)
		return ret;
	ret = rio_client_qp_create(c, q);
	if (ret)
		return ret;
	rio_hello_encode(hello, pdata, sizeof(pdata));
	cp.private_data = pdata;
	cp.private_data_len = sizeof(pdata);
	/* As many RDMA READs in flight as the device allows, not one. */
	cp.initiator_depth = c->attr.max_qp_init_rd_atom;
	cp.responder_resources = c->attr.max_qp_rd_atom;
	cp.retry_count = 7;
	cp.rnr_retry_count = 7;
	if (rdma_connect(q->id, &cp)) {
		ret = errno;
		rio_err_call(ret, "rdma_connect(%s, initiator_depth=%u)",
			     c->peer, cp.initiator_depth);
		return -ret;
	}
	return rio_client_step(c, q->id, RDMA_CM_EVENT_ESTABLISHED, wait_ms,
			       reply, retry);
}

static int rio_client_connect_qp(struct rio_client *c, struct rio_cqp *q,
				 const struct rio_hello *hello,
				 const struct timespec *start)
{
	long budget = (long)c->o->connect_timeout * 1000;
	struct rio_reply reply;
	bool retry;
	int ret;

	for (;;) {
		long left = budget - rio_ms_since(start);

		retry = false;
		memset(&reply, 0, sizeof(reply));
		ret = rio_client_try(c, q, hello,
				     left > 1000 ? (int)left : 1000, &reply,
				     &retry);
		if (!ret)
			break;
		rio_client_qp_drop(q);
		if (!retry || c->td->terminate)
			return ret;
		if (rio_ms_since(start) >= budget) {
			rio_err("client job: nothing listens on %s after connect_timeout=%u s; start the target job (listen) or raise connect_timeout",
				c->peer, c->o->connect_timeout);
			return -ETIMEDOUT;
		}
		usleep(RIO_RETRY_MS * 1000);
	}
	/* Connected at the transport level; now judge the target's answer. */
	q->connected = reply.status == RIO_STATUS_OK &&
		       reply.version == RIO_PROTO_VERSION;
	ret = rio_reply_check(&reply, hello, c->peer);
	if (ret)
		return ret;
	if (q != &c->qps[0] &&
	    (reply.base != c->base || reply.rkey != c->rkey)) {
		rio_err("client job: target %s gave queue pairs different regions; check the target's clients= and that one target serves this port",
			c->peer);
		return -EPROTO;
	}
	c->base = reply.base;
	c->length = reply.length;
	c->rkey = reply.rkey;
	return 0;
}

int rio_client_connect(struct rio_client *c, const struct rio_hello *hello)
{
	struct timespec start;
	unsigned int i;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (i = 0; i < c->nqps; i++) {
		ret = rio_client_connect_qp(c, &c->qps[i], hello, &start);
		if (ret) {
			rio_client_close(c);
			return ret;
		}
	}
	return 0;
}

static const char *rio_client_verb(const struct rio_client *c,
				   const struct io_u *io_u)
{
	if (io_u->ddir == DDIR_READ)
		return "RDMA READ";
	switch (c->write_op) {
	case IBV_WR_SEND:
		return "SEND";
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		return "RDMA WRITE with immediate";
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		return "atomic fetch-and-add";
	case IBV_WR_ATOMIC_CMP_AND_SWP:
		return "atomic compare-and-swap";
	default:
		return "RDMA WRITE";
	}
}

enum fio_q_status rio_client_queue(struct rio_client *c, struct io_u *io_u)
{
	struct ibv_send_wr *wr = &c->wr[io_u->index];
	struct ibv_sge *sge = &c->sge[io_u->index];
	struct rio_cqp *q;

	switch (io_u->ddir) {
	case DDIR_WRITE:
		wr->opcode = c->write_op;
		break;
	case DDIR_READ:
		wr->opcode = IBV_WR_RDMA_READ;
		break;
	case DDIR_SYNC:
	case DDIR_DATASYNC:
	case DDIR_SYNC_FILE_RANGE:
		/* A completed RDMA WRITE was acknowledged by the target's
		 * device: there is nothing left to flush. */
		return FIO_Q_COMPLETED;
	default:
		io_u->error = EINVAL;
		return FIO_Q_COMPLETED;
	}
	if (c->dead) {
		io_u->error = ENOTCONN;
		return FIO_Q_COMPLETED;
	}
	if (wr->opcode != IBV_WR_SEND &&
	    (io_u->offset + io_u->xfer_buflen > c->length ||
	     io_u->offset + io_u->xfer_buflen < io_u->offset)) {
		io_u->error = ERANGE;
		return FIO_Q_COMPLETED;
	}
	sge->addr = (uintptr_t)io_u->xfer_buf;
	sge->length = io_u->xfer_buflen;
	sge->lkey = c->mr->lkey;
	wr->wr_id = (uintptr_t)io_u;
	wr->next = NULL;
	wr->sg_list = sge;
	wr->num_sge = 1;
	wr->send_flags = 0;
	if (wr->opcode != IBV_WR_RDMA_READ && sge->length <= c->inline_max)
		wr->send_flags = IBV_SEND_INLINE;
	if (wr->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD ||
	    wr->opcode == IBV_WR_ATOMIC_CMP_AND_SWP) {
		/* The word's old value lands in the I/O buffer. */
		if (io_u->offset & 7 || sge->length != 8) {
			io_u->error = EINVAL;
			return FIO_Q_COMPLETED;
		}
		wr->send_flags = 0;
		wr->wr.atomic.remote_addr = c->base + io_u->offset;
		wr->wr.atomic.rkey = c->rkey;
		wr->wr.atomic.compare_add =
			wr->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD ? 1 : 0;
		wr->wr.atomic.swap = 1;
	} else {
		wr->wr.rdma.remote_addr = c->base + io_u->offset;
		wr->wr.rdma.rkey = c->rkey;
	}
	if (wr->opcode == IBV_WR_RDMA_WRITE_WITH_IMM)
		wr->imm_data = htobe32(io_u->index);

	q = &c->qps[c->next_qp];
	if (++c->next_qp == c->nqps)
		c->next_qp = 0;
	if (q->last)
		q->last->next = wr;
	else
		q->first = wr;
	q->last = wr;
	q->ring[(q->head + q->count) % c->depth] = io_u;
	q->count++;
	c->staged[c->nstaged++] = io_u;
	return FIO_Q_QUEUED;
}

static void rio_client_ready(struct rio_client *c, struct io_u *io_u)
{
	c->ready[(c->rhead + c->rcount) % c->depth] = io_u;
	c->rcount++;
}

/* The staged chain from bad onward was not posted: fail those units. */
static void rio_client_unpost(struct rio_client *c, struct rio_cqp *q,
			      struct ibv_send_wr *bad, int err)
{
	struct ibv_send_wr *wr;
	unsigned int n = 0, i;

	for (wr = bad; wr; wr = wr->next)
		n++;
	if (n > q->count)
		n = q->count;
	for (i = q->count - n; i < q->count; i++) {
		struct io_u *io_u = q->ring[(q->head + i) % c->depth];

		io_u->error = err;
		rio_client_ready(c, io_u);
	}
	q->count -= n;
}

int rio_client_commit(struct rio_client *c)
{
	struct thread_data *td = c->td;
	struct ibv_send_wr *bad;
	struct timespec now;
	unsigned int i;
	int ret, err = 0;

	if (!c->nstaged)
		return 0;
	if (fio_fill_issue_time(td)) {
		fio_gettime(&now, NULL);
		for (i = 0; i < c->nstaged; i++) {
			c->staged[i]->issue_time = now;
			io_u_queued(td, c->staged[i]);
		}
		if (td->o.read_iolog_file)
			td->last_issue = now;
	}
	for (i = 0; i < c->nqps; i++) {
		struct rio_cqp *q = &c->qps[i];

		if (!q->first)
			continue;
		/* Selective signalling: one completion per batch per queue
		 * pair; RC completes in order, so it retires the batch. */
		q->last->send_flags |= IBV_SEND_SIGNALED;
		bad = NULL;
		ret = ibv_post_send(q->id->qp, q->first, &bad);
		if (ret) {
			rio_err_call(ret, "ibv_post_send(qp %u to %s)",
				     q->qp_num, c->peer);
			rio_client_unpost(c, q, bad ? bad : q->first, ret);
			c->dead = true;
			err = -ret;
		}
		q->first = q->last = NULL;
	}
	io_u_mark_submit(td, c->nstaged);
	c->nstaged = 0;
	return err;
}

static struct rio_cqp *rio_client_qp_of(struct rio_client *c, uint32_t num)
{
	unsigned int i;

	for (i = 0; i < c->nqps; i++)
		if (c->qps[i].qp_num == num)
			return &c->qps[i];
	return NULL;
}

static void rio_client_wc_error(struct rio_client *c, const struct ibv_wc *wc,
				struct io_u *io_u)
{
	char msg[512];

	io_u->error = wc->status == IBV_WC_RETRY_EXC_ERR ? ETIMEDOUT : EIO;
	if (wc->status == IBV_WC_WR_FLUSH_ERR) {
		if (c->flush_told)
			return;
		c->flush_told = true;
	}
	rio_wc_errmsg(msg, sizeof(msg), wc, rio_client_verb(c, io_u),
		      io_u->offset, io_u->xfer_buflen, c->peer);
	rio_err("client job: %s", msg);
}

static void rio_client_reap(struct rio_client *c, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		const struct ibv_wc *wc = &c->wc[i];
		struct io_u *done = (struct io_u *)(uintptr_t)wc->wr_id;
		struct rio_cqp *q = rio_client_qp_of(c, wc->qp_num);

		if (!q)
			continue;
		/* Everything posted before the signalled request is done. */
		while (q->count) {
			struct io_u *io_u = q->ring[q->head];

			q->head = (q->head + 1) % c->depth;
			q->count--;
			if (io_u == done && wc->status != IBV_WC_SUCCESS)
				rio_client_wc_error(c, wc, io_u);
			rio_client_ready(c, io_u);
			if (io_u == done)
				break;
		}
	}
}

static void rio_client_watch(struct rio_client *c)
{
	struct rdma_cm_event *ev;

	while (!rio_cm_next(c->ch, 0, &ev)) {
		enum rdma_cm_event_type type = ev->event;

		rdma_ack_cm_event(ev);
		if (type != RDMA_CM_EVENT_DISCONNECTED &&
		    type != RDMA_CM_EVENT_DEVICE_REMOVAL)
			continue;
		if (!c->dead)
			rio_err("client job: target %s went away mid-run (%s): %s",
				c->peer, rdma_event_str(type),
				rio_cm_hint(type, 0));
		c->dead = true;
	}
}

/* Arms the CQ, reaps what raced in, else sleeps a while on the channel.
 * Returns how many completions it reaped, or -errno. */
static int rio_client_sleep(struct rio_client *c)
{
	int n, ret;

	ret = ibv_req_notify_cq(c->cq, 0);
	if (ret) {
		rio_err_call(ret, "ibv_req_notify_cq(client of %s)", c->peer);
		return -ret;
	}
	n = ibv_poll_cq(c->cq, c->depth, c->wc);
	if (n < 0) {
		rio_err_call(-n, "ibv_poll_cq(client of %s)", c->peer);
		return -EIO;
	}
	if (n) {
		rio_client_reap(c, n);
		return n;
	}
	ret = rio_cq_wait(c->cc, c->cq, 100);
	return ret < 0 ? ret : 0;
}

static long rio_ts_ms(const struct timespec *t)
{
	return t->tv_sec * 1000 + t->tv_nsec / 1000000;
}

int rio_client_getevents(struct rio_client *c, unsigned int min,
			 unsigned int max, const struct timespec *t)
{
	struct timespec start, dead_since;
	unsigned int spins = 0;
	bool dead_seen = false;
	int n;

	c->rhead = (c->rhead + c->rgiven) % c->depth;
	c->rcount -= c->rgiven;
	c->rgiven = 0;
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (c->rcount < min) {
		n = ibv_poll_cq(c->cq, c->depth, c->wc);
		if (n < 0) {
			rio_err_call(-n, "ibv_poll_cq(client of %s)", c->peer);
			return -EIO;
		}
		if (n) {
			rio_client_reap(c, n);
			continue;
		}
		if (c->cc) {
			n = rio_client_sleep(c);
			if (n < 0)
				return n;
			if (n)
				continue;
		} else if (++spins & 1023) {
			continue;
		}
		rio_client_watch(c);
		if (c->dead && !dead_seen) {
			dead_seen = true;
			clock_gettime(CLOCK_MONOTONIC, &dead_since);
		}
		/* A dead peer's requests are flushed at once; do not wait
		 * for ever if the device never reports them. */
		if (dead_seen && rio_ms_since(&dead_since) > 5000)
			return -ENOTCONN;
		if (t && rio_ms_since(&start) >= rio_ts_ms(t))
			break;
	}
	c->rgiven = c->rcount < max ? c->rcount : max;
	return c->rgiven;
}

struct io_u *rio_client_event(struct rio_client *c, int i)
{
	return c->ready[(c->rhead + i) % c->depth];
}

/* Releases the verbs resources (before fio frees the buffers under the
 * MR); safe to call more than once. */
void rio_client_close(struct rio_client *c)
{
	unsigned int i;
	int ret;

	if (!c)
		return;
	for (i = 0; i < c->nqps; i++)
		if (c->qps[i].id && c->qps[i].connected)
			rdma_disconnect(c->qps[i].id);
	for (i = 0; i < c->nqps; i++)
		if (c->qps[i].id && c->qps[i].id->qp)
			rdma_destroy_qp(c->qps[i].id);
	if (c->cq) {
		ret = ibv_destroy_cq(c->cq);
		if (ret)
			rio_err_call(ret, "ibv_destroy_cq(client of %s)",
				     c->peer);
		c->cq = NULL;
	}
	if (c->cc) {
		ret = ibv_destroy_comp_channel(c->cc);
		if (ret)
			rio_err_call(ret, "ibv_destroy_comp_channel(client)");
		c->cc = NULL;
	}
	if (c->mr) {
		ret = ibv_dereg_mr(c->mr);
		if (ret)
			rio_err_call(ret, "ibv_dereg_mr(client I/O buffers)");
		c->mr = NULL;
	}
	if (c->pd) {
		ret = ibv_dealloc_pd(c->pd);
		if (ret)
			rio_err_call(ret, "ibv_dealloc_pd(client of %s)",
				     c->peer);
		c->pd = NULL;
	}
	for (i = 0; i < c->nqps; i++) {
		if (c->qps[i].id) {
			rdma_destroy_id(c->qps[i].id);
			c->qps[i].id = NULL;
		}
		c->qps[i].connected = false;
	}
	c->dead = true;
}

void rio_client_delete(struct rio_client **cp)
{
	struct rio_client *c;
	unsigned int i;

	if (!cp || !*cp)
		return;
	c = *cp;
	rio_client_close(c);
	rio_cm_channel_delete(&c->ch);
	for (i = 0; i < c->nqps; i++)
		free(c->qps[i].ring);
	free(c->wr);
	free(c->sge);
	free(c->staged);
	free(c->ready);
	free(c->wc);
	free(c);
	*cp = NULL;
}
