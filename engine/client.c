// SPDX-License-Identifier: GPL-2.0
/* Client connections. One PD, one CQ and one MR over fio's I/O buffers are
 * shared by the job's queue pairs; each queue pair is its own rdma_cm
 * connection with its own handshake. The arrays the data path
 * (client_io.c) uses are sized here, at init. */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "verify.h"

#include "alive.h"
#include "async.h"
#include "client_impl.h"
#include "clock.h"
#include "cm.h"
#include "cq.h"
#include "errmsg.h"
#include "mr.h"
#include "rio_log.h"

/* A use_events client sleeps at most this long between looks at its
 * connection, its keepalives and fio's end of runtime. */
#define RIO_CLIENT_TICK_MS 100

#define RIO_CM_STEP_MS 3000
#define RIO_RETRY_MS 200

/* What each of fio's directions posts: auto reads with READ and writes
 * with WRITE; any other verb is used both ways, as fio's rdma engine
 * does (rio_opts_check warned about fio's accounting). */
static void rio_client_ops(struct rio_client *c)
{
	switch (c->o->verb) {
	case RIO_VERB_READ:
		c->write_op = IBV_WR_RDMA_READ;
		break;
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
	c->read_op =
		c->o->verb == RIO_VERB_AUTO ? IBV_WR_RDMA_READ : c->write_op;
}

/* One request in this many asks for a completion: a quarter of a queue
 * pair's share of iodepth. fio refills only what a completion hands back,
 * so a completion per N requests leaves iodepth - N in flight at worst:
 * a quarter keeps at least three quarters busy and spares the device
 * three CQEs in four (perftest asks for one in 100 of its 128). */
static unsigned int rio_client_every(const struct rio_opts *o,
				     unsigned int depth)
{
	unsigned int per_qp = (depth + o->qps - 1) / o->qps;

	if (o->signal_every)
		return o->signal_every;
	return per_qp > 4 ? (per_qp + 3) / 4 : 1;
}

/* The target's address, and bindname= as the source address, as fio's
 * rdma engine takes it on a client (a path of several, or loopback). */
static int rio_client_addrs(struct rio_client *c)
{
	const struct rio_opts *o = c->o;
	int ret;

	ret = rio_cm_addr(o->hostname, o->port, false, &c->addr);
	if (ret || !o->bindname || !o->bindname[0])
		return ret;
	ret = rio_cm_addr(o->bindname, 0, true, &c->src);
	if (ret)
		return ret;
	if (c->src.ss_family != c->addr.ss_family) {
		rio_err("client job: bindname=%s and hostname=%s resolve to addresses of different families (IPv4 and IPv6); give both as addresses of one family",
			o->bindname, o->hostname);
		return -EINVAL;
	}
	c->bound = true;
	return 0;
}

/* The client and what its data path indexes, sized by iodepth and qps:
 * nothing of a device or a connection yet. */
int rio_client_alloc(struct thread_data *td, const struct rio_opts *o,
		     struct rio_client **out)
{
	unsigned int depth = td->o.iodepth, i;
	struct rio_client *c;
	int ret;

	*out = NULL;
	c = calloc(1, sizeof(*c) + o->qps * sizeof(c->qps[0]));
	if (!c)
		return -ENOMEM;
	c->td = td;
	c->o = o;
	c->depth = depth;
	c->nqps = o->qps;
	c->rmask = rio_pow2_ceil(depth) - 1;
	c->wr = calloc(depth, sizeof(*c->wr));
	c->sge = calloc(depth, sizeof(*c->sge));
	c->staged = calloc(depth, sizeof(*c->staged));
	c->qp_of = calloc(depth, sizeof(*c->qp_of));
	c->ready = calloc(c->rmask + 1, sizeof(*c->ready));
	c->wc = calloc(depth, sizeof(*c->wc));
	c->alive_vals = calloc(c->nqps, sizeof(*c->alive_vals));
	if (!c->wr || !c->sge || !c->staged || !c->qp_of || !c->ready ||
	    !c->wc || !c->alive_vals)
		goto nomem;
	for (i = 0; i < c->nqps; i++)
		if (rio_sendq_init(&c->qps[i].sq, depth,
				   rio_client_every(o, depth)))
			goto nomem;
	rio_client_ops(c);
	ret = rio_opts_tos(o, &c->tos);
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

int rio_client_new(struct thread_data *td, const struct rio_opts *o,
		   struct rio_client **out)
{
	struct rio_client *c;
	int ret;

	ret = rio_client_alloc(td, o, &c);
	if (ret)
		return ret;
	ret = rio_client_addrs(c);
	if (ret)
		goto fail;
	rio_cm_addr_str((struct sockaddr *)&c->addr, c->peer, sizeof(c->peer));
	ret = rio_cm_channel_new(&c->ch);
	if (ret)
		goto fail;
	*out = c;
	return 0;
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

	if (c->o->device && strcmp(dev, c->o->device)) {
		char via[128];

		snprintf(via, sizeof(via), "the route to %s%s%s", c->peer,
			 c->bound ? " from bindname=" : "",
			 c->bound ? c->o->bindname : "");
		rio_cm_device_mismatch("client job", c->o->device, dev, via);
		return -EXDEV;
	}
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
	/* Each queue pair: depth requests, a nudge and a keepalive. */
	cqe = c->depth + 2 * c->nqps;
	if ((c->write_op == IBV_WR_ATOMIC_FETCH_AND_ADD ||
	     c->write_op == IBV_WR_ATOMIC_CMP_AND_SWP) &&
	    c->attr.atomic_cap == IBV_ATOMIC_NONE) {
		rio_err("client job: RDMA device %s does not support atomics; use another verb or device",
			dev);
		return -EOPNOTSUPP;
	}
	if (c->depth + 2 > (unsigned int)c->attr.max_qp_wr ||
	    cqe > c->attr.max_cqe) {
		int lim = c->attr.max_qp_wr - 2;

		if (c->attr.max_cqe - 2 * (int)c->nqps < lim)
			lim = c->attr.max_cqe - 2 * (int)c->nqps;
		rio_err("client job: iodepth=%u is above the limit of RDMA device %s (max_qp_wr=%d, max_cqe=%d, with room for a zero-length RDMA WRITE and a keepalive per queue pair); lower iodepth to at most %d",
			c->depth, dev, c->attr.max_qp_wr, c->attr.max_cqe, lim);
		return -EINVAL;
	}
	c->verbs = verbs;
	ret = rio_async_init(verbs);
	if (ret)
		return ret;
	c->pd = ibv_alloc_pd(verbs);
	if (!c->pd) {
		ret = errno;
		rio_err_call(ret, "ibv_alloc_pd(%s)", dev);
		return -ret;
	}
	if (c->o->use_events) {
		const int others[] = { c->ch->fd, verbs->async_fd };

		ret = rio_cq_channel_new(verbs, c->peer, &c->cc);
		if (!ret)
			ret = rio_cq_sleep_new(c->cc, others, 2,
					       RIO_CLIENT_TICK_MS, &c->sleep);
		if (ret)
			return ret;
	}
	c->cq = ibv_create_cq(verbs, cqe, NULL, c->cc, 0);
	if (!c->cq) {
		ret = errno;
		rio_err_call(ret, "ibv_create_cq(%s, cqe=%d)", dev, cqe);
		return -ret;
	}
	ret = rio_mr_reg(c->pd, td->orig_buffer, td->orig_buffer_size,
			 IBV_ACCESS_LOCAL_WRITE, "client job's I/O buffers",
			 &c->mr);
	if (ret)
		return ret;
	return rio_mr_reg(c->pd, c->alive_vals,
			  c->nqps * sizeof(*c->alive_vals),
			  IBV_ACCESS_LOCAL_WRITE,
			  "client job's keepalive counters", &c->alive_mr);
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

/* One try at the queue pair, asking for inline data up to this many
 * bytes; errno's value when the device refuses. */
static int rio_client_qp_try(struct rio_client *c, struct rio_cqp *q,
			     uint32_t inline_size)
{
	struct ibv_qp_init_attr qa = { 0 };

	qa.send_cq = c->cq;
	qa.recv_cq = c->cq;
	qa.qp_type = IBV_QPT_RC;
	qa.cap.max_send_wr = c->depth + 2; /* and a nudge and a keepalive */
	qa.cap.max_recv_wr = 1;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	qa.cap.max_inline_data = inline_size;
	if (rdma_create_qp(q->id, c->pd, &qa))
		return errno;
	/* The device may return a larger cap than asked: inline=0 means
	 * none, and inline=N no more than N. */
	c->inline_max = qa.cap.max_inline_data < inline_size
				? qa.cap.max_inline_data
				: inline_size;
	q->qp_num = q->id->qp->qp_num;
	return 0;
}

static int rio_client_qp_create(struct rio_client *c, struct rio_cqp *q)
{
	bool automatic = c->o->inline_size < 0;
	uint32_t want =
		automatic ? RIO_INLINE_AUTO : (uint32_t)c->o->inline_size;
	int ret;

	ret = rio_client_qp_try(c, q, want);
	/* inline's default is a wish: a device that takes no inline data
	 * of that size sends from the buffer, as with inline=0. */
	if (ret && automatic) {
		want = 0;
		ret = rio_client_qp_try(c, q, 0);
	}
	if (ret) {
		rio_err_call(
			ret,
			"rdma_create_qp(%s, max_send_wr=%u, max_inline_data=%u)",
			c->peer, c->depth + 2, want);
		if (want)
			rio_err("client job: the device may not support inline=%u; lower inline",
				want);
		return -ret;
	}
	return 0;
}

/* tos= goes into the route the CM resolves, so before resolving it; the
 * target's side of the connection follows the class of the request. */
static int rio_client_tos_set(struct rio_client *c, struct rio_cqp *q)
{
	uint8_t tos = (uint8_t)c->tos;

	if (c->tos < 0)
		return 0;
	if (rdma_set_option(q->id, RDMA_OPTION_ID, RDMA_OPTION_ID_TOS, &tos,
			    sizeof(tos))) {
		int ret = errno;

		rio_err_call(ret,
			     "rdma_set_option(%s, RDMA_OPTION_ID_TOS, tos=%u)",
			     c->peer, tos);
		return -ret;
	}
	return 0;
}

/* What the device put in the connection's address vector: a subnet
 * manager or the device may give a class other than the one asked. */
static void rio_client_tos_check(struct rio_client *c, struct rio_cqp *q)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr qa;
	int ret;

	if (c->tos < 0 || q != &c->qps[0])
		return;
	ret = ibv_query_qp(q->id->qp, &qa, IBV_QP_AV, &init);
	if (ret) {
		rio_err_call(ret, "ibv_query_qp(%s, IBV_QP_AV)", c->peer);
		return;
	}
	if (qa.ah_attr.is_global && qa.ah_attr.grh.traffic_class == c->tos)
		return;
	rio_warn(
		"client job: tos=%d was asked, but the connection to %s uses traffic class %u; the fabric chose its own (on InfiniBand, the subnet manager's path)",
		c->tos, c->peer,
		qa.ah_attr.is_global ? qa.ah_attr.grh.traffic_class : 0);
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
	ret = rio_client_tos_set(c, q);
	if (ret)
		return ret;
	if (rdma_resolve_addr(q->id,
			      c->bound ? (struct sockaddr *)&c->src : NULL,
			      (struct sockaddr *)&c->addr, RIO_CM_STEP_MS)) {
		ret = errno;
		rio_err_call(ret, "rdma_resolve_addr(%s%s%s)", c->peer,
			     c->bound ? ", from bindname=" : "",
			     c->bound ? c->o->bindname : "");
		rio_err("client job: cannot reach %s%s%s: %s", c->peer,
			c->bound ? " from bindname=" : "",
			c->bound ? c->o->bindname : "", rio_addr_hint(ret));
		return -ret;
	}
	ret = rio_client_step(c, q->id, RDMA_CM_EVENT_ADDR_RESOLVED,
			      RIO_CM_STEP_MS, NULL, retry);
	if (ret)
		return ret;
	ret = rio_client_device(c, q->id->verbs);
	if (ret)
		return ret;
	c->port = q->id->port_num;
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
	bool retry, busy;
	int ret;

	for (;;) {
		long left = budget - rio_ms_since(start);

		retry = false;
		memset(&reply, 0, sizeof(reply));
		ret = rio_client_try(c, q, hello,
				     left > 1000 ? (int)left : 1000, &reply,
				     &retry);
		/* Busy: slots held by connections that have not completed,
		 * which the target drops after RIO_HELLO_MS: wait that out,
		 * whatever connect_timeout says. */
		busy = !ret && reply.status == RIO_STATUS_BUSY &&
		       reply.version == RIO_PROTO_VERSION;
		if (!ret && !busy)
			break;
		if (busy && budget < RIO_HELLO_MS + RIO_CM_STEP_MS)
			budget = RIO_HELLO_MS + RIO_CM_STEP_MS;
		rio_client_qp_drop(q);
		if (!(retry || busy) || c->td->terminate)
			return busy ? rio_reply_check(&reply, hello, c->peer)
				    : ret;
		if (rio_ms_since(start) >= budget) {
			if (busy)
				return rio_reply_check(&reply, hello, c->peer);
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
	/* Each queue pair has a key of its own (the target registers every
	 * connection's window apart), but one region. */
	if (q != &c->qps[0] && reply.base != c->base) {
		rio_err("client job: target %s gave queue pairs different regions; check the target's clients= and that one target serves this port",
			c->peer);
		return -EPROTO;
	}
	c->base = reply.base;
	c->length = reply.length;
	c->wrap = (hello->need & RIO_NEED_REGION) && reply.length < hello->span;
	q->rkey = reply.rkey;
	q->alive_addr = reply.alive_addr;
	q->alive_rkey = reply.alive_rkey;
	c->alive_ms = rio_alive_every_ms(reply.alive_s);
	rio_client_tos_check(c, q);
	return 0;
}

/* fio's rdma engine maps every offset onto its server's buffers; this
 * job addresses more than the target exposes, so its offsets wrap the
 * same way. Blocks the region's length apart then share bytes, which
 * verify would report as corruption. */
static int rio_client_wrap_check(struct rio_client *c,
				 const struct rio_hello *hello)
{
	if (!c->wrap)
		return 0;
	if (c->td->o.verify != VERIFY_NONE) {
		rio_err("client job: verify= needs each block at a place of its own, but this job addresses [%" PRIu64
			", %" PRIu64 ") and target %s exposes %" PRIu64
			" bytes, so offsets wrap and blocks overwrite each other; keep offset+size at most %" PRIu64
			" (offset=0 size=%" PRIu64
			"), or give the target more with listen and size=",
			hello->start, hello->span, c->peer, c->length,
			c->length, c->length);
		return -EINVAL;
	}
	rio_warn(
		"client job: this job addresses [%" PRIu64 ", %" PRIu64
		") but target %s exposes %" PRIu64
		" bytes: offsets wrap onto them, as in fio's rdma engine; for another job to verify what this one wrote, keep offset+size at most %" PRIu64,
		hello->start, hello->span, c->peer, c->length, c->length);
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
	ret = rio_client_wrap_check(c, hello);
	if (ret)
		rio_client_close(c);
	return ret;
}

/* Releases the verbs resources (before fio frees the buffers under the
 * MR); safe to call more than once. */
void rio_client_close(struct rio_client *c)
{
	char who[128];
	unsigned int i;

	if (!c)
		return;
	for (i = 0; i < c->nqps; i++)
		if (c->qps[i].id && c->qps[i].connected)
			rdma_disconnect(c->qps[i].id);
	for (i = 0; i < c->nqps; i++)
		if (c->qps[i].id && c->qps[i].id->qp)
			rdma_destroy_qp(c->qps[i].id);
	snprintf(who, sizeof(who), "client of %s", c->peer);
	rio_cq_delete(&c->cq, who);
	rio_cq_sleep_delete(&c->sleep);
	rio_cq_channel_delete(&c->cc, "client");
	rio_mr_delete(&c->mr, "client I/O buffers");
	rio_mr_delete(&c->alive_mr, "client keepalive counters");
	rio_pd_delete(&c->pd, who);
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
		rio_sendq_fini(&c->qps[i].sq);
	free(c->wr);
	free(c->sge);
	free(c->staged);
	free(c->qp_of);
	free(c->ready);
	free(c->wc);
	free(c->alive_vals);
	free(c);
	*cp = NULL;
}
