// SPDX-License-Identifier: GPL-2.0
/* The target listens, judges each client's hello, and serves until
 * clients= connections have come and gone or its runtime ends. One PD,
 * CQ and SRQ serve all connections; each connection registers the part
 * of the region its client declared, with only the remote access the
 * target's verb needs, so a stray offset is an access error and not a
 * write into another client's bytes. The region lives for the whole job,
 * so later clients see what earlier ones wrote. */
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "async.h"
#include "clock.h"
#include "cm.h"
#include "cq.h"
#include "errmsg.h"
#include "mr.h"
#include "port.h"
#include "proto.h"
#include "rio_log.h"
#include "sendq.h"
#include "target_impl.h"

/* A use_events target sleeps at most this long between looks at its
 * connections, its clients' keepalives and fio's end of runtime. */
#define RIO_TARGET_TICK_MS 20

/* IB encoding 12: 0.64 ms before a sender retries after an RNR NAK. */
#define RIO_MIN_RNR_TIMER 12

static int rio_target_listen(struct rio_target *t)
{
	const struct rio_opts *o = t->o;
	struct sockaddr_storage ss = { 0 };
	int ret;

	if (o->bindname && o->bindname[0]) {
		ret = rio_cm_addr(o->bindname, o->port, true, &ss);
		if (ret)
			return ret;
	} else {
		/* Both families: an IPv6 wildcard also takes IPv4. */
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;

		in6->sin6_family = AF_INET6;
		in6->sin6_addr = in6addr_any;
		in6->sin6_port = htons(o->port);
	}
	rio_cm_addr_str((struct sockaddr *)&ss, t->where, sizeof(t->where));
	ret = rio_cm_channel_new(&t->ch);
	if (ret)
		return ret;
	if (rdma_create_id(t->ch, &t->listen_id, t, RDMA_PS_TCP)) {
		ret = errno;
		rio_err_call(ret, "rdma_create_id(RDMA_PS_TCP)");
		return -ret;
	}
	if (rdma_bind_addr(t->listen_id, (struct sockaddr *)&ss)) {
		ret = errno;
		rio_err_call(ret, "rdma_bind_addr(%s)", t->where);
		rio_err("target job: cannot listen on %s: %s", t->where,
			rio_addr_hint(ret));
		return -ret;
	}
	if (rdma_listen(t->listen_id, 128)) {
		ret = errno;
		rio_err_call(ret, "rdma_listen(%s, backlog=128)", t->where);
		rio_err("target job: cannot listen on %s: %s", t->where,
			rio_addr_hint(ret));
		return -ret;
	}
	return 0;
}

/* A listener bound to an address has its device; a wildcard one has
 * none yet: device= names it, or with exactly one device there is no
 * doubt which one clients will come through. */
static int rio_target_pick_device(struct rio_target *t)
{
	const char *want = t->o->device;
	int i, n = 0;

	if (t->listen_id->verbs) {
		const char *dev =
			ibv_get_device_name(t->listen_id->verbs->device);
		char via[128];

		t->verbs = t->listen_id->verbs;
		if (!want || !strcmp(dev, want))
			return 0;
		snprintf(via, sizeof(via), "bindname=%s", t->o->bindname);
		rio_cm_device_mismatch("target job", want, dev, via);
		return -EXDEV;
	}
	t->devs = rdma_get_devices(&n);
	if (!t->devs || n == 0) {
		rio_err("target job: no RDMA device on this host; %s",
			RIO_SOFTROCE_HINT);
		return -ENODEV;
	}
	for (i = 0; want && i < n; i++) {
		if (!strcmp(ibv_get_device_name(t->devs[i]->device), want)) {
			t->verbs = t->devs[i];
			return 0;
		}
	}
	if (want) {
		rio_cm_device_mismatch("target job", want, NULL, NULL);
		return -ENODEV;
	}
	if (n > 1) {
		rio_err("target job: %d RDMA devices and no device= or bindname=; set device= to the one to serve, or bindname= to an address on it",
			n);
		return -EINVAL;
	}
	t->verbs = t->devs[0];
	return 0;
}

static int rio_target_region_map(struct rio_target *t, size_t len, int flags)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);
	int ret;

	if (p == MAP_FAILED) {
		ret = errno;
		rio_err_call(ret, "mmap(target region, %zu bytes%s)", len,
			     flags ? ", MAP_HUGETLB" : "");
		return -ret;
	}
	t->region = p;
	t->map_len = len;
	return 0;
}

/* A /proc/meminfo figure (in kB for sizes), or -1. */
static long rio_target_meminfo(const char *key)
{
	size_t klen = strlen(key);
	char line[128];
	long v = -1;
	FILE *f;

	f = fopen("/proc/meminfo", "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			v = strtol(line + klen + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

/* hugepages: the region in the default huge page size, rounded up to
 * whole pages, from the pool vm.nr_hugepages reserves. */
static int rio_target_region_huge(struct rio_target *t)
{
	long page_kb = rio_target_meminfo("Hugepagesize");
	long free_pages = rio_target_meminfo("HugePages_Free");
	size_t page, pages;
	int ret;

	if (page_kb <= 0) {
		rio_err("target job: hugepages is set but this kernel has no huge pages (no Hugepagesize in /proc/meminfo); drop hugepages");
		return -EOPNOTSUPP;
	}
	page = (size_t)page_kb * 1024;
	pages = (t->region_len + page - 1) / page;
	ret = rio_target_region_map(t, pages * page, MAP_HUGETLB);
	if (ret != -ENOMEM)
		return ret;
	rio_err("target job: hugepages: the %zu-byte region needs %zu huge pages of %ld KiB and %ld are free; reserve more (sysctl vm.nr_hugepages=N, N at least %zu beyond those in use) or drop hugepages",
		t->region_len, pages, page_kb, free_pages, pages);
	return ret;
}

/* The memory the target exposes, with the remote access its verb needs. */
static int rio_target_region(struct rio_target *t, unsigned int allowed)
{
	int access = IBV_ACCESS_LOCAL_WRITE, ret;

	if (!(allowed & RIO_NEED_REGION))
		return 0;
	if (allowed & RIO_NEED_ATOMIC)
		access |= IBV_ACCESS_REMOTE_ATOMIC;
	if (allowed & (RIO_NEED_WRITE | RIO_NEED_IMM))
		access |= IBV_ACCESS_REMOTE_WRITE;
	if (allowed & RIO_NEED_READ)
		access |= IBV_ACCESS_REMOTE_READ;
	ret = t->o->hugepages ? rio_target_region_huge(t)
			      : rio_target_region_map(t, t->region_len, 0);
	if (ret)
		return ret;
	t->region_access = access;
	ret = rio_mr_pin_check(t->region_len, "target region");
	if (ret)
		return ret;
	t->offer.length = t->region_len;
	return 0;
}

static int rio_target_resources(struct rio_target *t)
{
	const char *dev = ibv_get_device_name(t->verbs->device);
	struct ibv_srq_init_attr sa = { 0 };
	unsigned int allowed = rio_opts_allowed(t->o);
	int ret, cqe = t->depth + 1;

	ret = rio_async_init(t->verbs);
	if (ret)
		return ret;
	ret = ibv_query_device(t->verbs, &t->attr);
	if (ret) {
		rio_err_call(ret, "ibv_query_device(%s)", dev);
		return -ret;
	}
	/* An auto target takes SENDs only where the device has an SRQ to
	 * post their receives on: WRITE and READ need none. */
	if (t->receives && !t->spin &&
	    (t->attr.max_srq <= 0 ||
	     t->depth > (unsigned int)t->attr.max_srq_wr)) {
		t->receives = false;
		allowed &= ~RIO_NEED_SEND;
		rio_warn(
			"target job: RDMA device %s has no shared receive queue for iodepth=%u (max_srq=%d, max_srq_wr=%d): this verb=auto target serves RDMA WRITE and READ but no SEND",
			dev, t->depth, t->attr.max_srq, t->attr.max_srq_wr);
	}
	if (cqe > t->attr.max_cqe ||
	    (t->receives && t->depth > (unsigned int)t->attr.max_srq_wr)) {
		rio_err("target job: iodepth=%u is above the limit of RDMA device %s (max_srq_wr=%d, max_cqe=%d); lower iodepth",
			t->depth, dev, t->attr.max_srq_wr, t->attr.max_cqe);
		return -EINVAL;
	}
	t->pd = ibv_alloc_pd(t->verbs);
	if (!t->pd) {
		ret = errno;
		rio_err_call(ret, "ibv_alloc_pd(%s)", dev);
		return -ret;
	}
	if (t->receives && t->o->use_events) {
		const int others[] = { t->ch->fd, t->verbs->async_fd };

		ret = rio_cq_channel_new(t->verbs, t->where, &t->cc);
		if (!ret)
			ret = rio_cq_sleep_new(t->cc, others, 2,
					       RIO_TARGET_TICK_MS, &t->sleep);
		if (ret)
			return ret;
	}
	t->cq = ibv_create_cq(t->verbs, cqe, NULL, t->cc, 0);
	if (!t->cq) {
		ret = errno;
		rio_err_call(ret, "ibv_create_cq(%s, cqe=%d)", dev, cqe);
		return -ret;
	}
	if (t->receives) {
		sa.attr.max_wr = t->depth;
		sa.attr.max_sge = 1;
		t->srq = ibv_create_srq(t->pd, &sa);
		if (!t->srq) {
			ret = errno;
			rio_err_call(ret, "ibv_create_srq(%s, max_wr=%u)", dev,
				     t->depth);
			return -ret;
		}
	}
	t->offer.allowed = allowed;
	t->offer.recv_size = t->td->o.min_bs[DDIR_READ];
	return rio_target_region(t, allowed);
}

/* fio's pacing, which a [global] section shares with the clients, would
 * make the target sit out its own think time or rate while clients wait,
 * or fail it for a minimum rate a passive job cannot meet: it only serves. */
static void rio_target_unpace(struct thread_data *td)
{
	int d;

	td->o.thinktime = 0;
	td->o.thinktime_spin = 0;
	td->o.thinktime_blocks = 1;
	td->o.latency_target = 0;
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		td->o.rate[d] = td->o.ratemin[d] = 0;
		td->o.rate_iops[d] = td->o.rate_iops_min[d] = 0;
		td->rate_bps[d] = 0;
	}
}

int rio_target_new(struct thread_data *td, const struct rio_opts *o,
		   uint64_t region_len, struct rio_target **out)
{
	struct rio_target *t;
	int ret;

	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->td = td;
	t->o = o;
	rio_slots_init(&t->slots, o->clients);
	/* With a runtime the target ends anyway: it asks for no keepalives. */
	t->alive_s = td->o.timeout ? 0 : o->stall_timeout;
	rio_target_unpace(td);
	t->depth = td->o.iodepth;
	t->region_len = region_len;
	/* An auto target posts its receives too, for a client that sends,
	 * but busy-polls only once one does: posted receives cost nothing. */
	t->spin_always = o->verb == RIO_VERB_SEND || o->verb == RIO_VERB_RECV ||
			 o->verb == RIO_VERB_WRITE_IMM;
	t->spin = t->spin_always;
	t->receives = t->spin || o->verb == RIO_VERB_AUTO;
	t->rmask = rio_pow2_ceil(t->depth) - 1;
	t->staged = calloc(t->depth, sizeof(*t->staged));
	t->ready = calloc(t->rmask + 1, sizeof(*t->ready));
	t->wc = calloc(t->depth, sizeof(*t->wc));
	t->rwr = calloc(t->depth, sizeof(*t->rwr));
	t->rsge = calloc(t->depth, sizeof(*t->rsge));
	t->repost_tail = &t->repost;
	if (!t->staged || !t->ready || !t->wc || !t->rwr || !t->rsge) {
		ret = -ENOMEM;
		rio_err("target job: out of memory for %u I/O units; lower iodepth",
			t->depth);
		goto fail;
	}
	ret = rio_target_listen(t);
	if (ret)
		goto fail;
	ret = rio_target_pick_device(t);
	if (ret)
		goto fail;
	ret = rio_target_resources(t);
	if (ret)
		goto fail;
	clock_gettime(CLOCK_MONOTONIC, &t->start);
	*out = t;
	return 0;
fail:
	rio_target_delete(&t);
	return ret;
}

int rio_target_post_init(struct rio_target *t)
{
	struct thread_data *td = t->td;

	if (!t->receives)
		return 0;
	return rio_mr_reg(t->pd, td->orig_buffer, td->orig_buffer_size,
			  IBV_ACCESS_LOCAL_WRITE,
			  "target job's receive buffers", &t->io_mr);
}

/* Refuses a request with a reply that says why, and forgets it. */
static void rio_target_refuse(struct rio_target *t, struct rdma_cm_id *id,
			      const char *peer, enum rio_status status)
{
	struct rio_reply r = { 0 };
	uint8_t pdata[RIO_REPLY_LEN];

	r.version = RIO_PROTO_VERSION;
	r.status = status;
	r.allowed = t->offer.allowed;
	r.recv_size = t->offer.recv_size;
	r.length = t->offer.length;
	rio_reply_encode(&r, pdata, sizeof(pdata));
	if (rdma_reject(id, pdata, sizeof(pdata)))
		rio_err_call(errno, "rdma_reject(%s)", peer);
	rdma_destroy_id(id);
}

/* rdma_cm leaves min_rnr_timer at 0, which IB reads as 655 ms: a SEND that
 * finds the SRQ empty for a moment (the target reposts receives only as fio
 * reaps them) would stall its client that long per RNR NAK. Ask for
 * perftest's 0.64 ms instead. */
static void rio_target_rnr_timer(struct rdma_cm_id *id, const char *peer)
{
	struct ibv_qp_attr rnr = { .qp_state = IBV_QPS_RTS,
				   .min_rnr_timer = RIO_MIN_RNR_TIMER };
	int ret;

	/* Still a working connection, only slow after an RNR NAK. */
	ret = ibv_modify_qp(id->qp, &rnr, IBV_QP_STATE | IBV_QP_MIN_RNR_TIMER);
	if (ret)
		rio_err("target job: ibv_modify_qp(client %s, RTS, min_rnr_timer=%u) failed: %s; a SEND that finds no receive posted will wait 655 ms",
			peer, RIO_MIN_RNR_TIMER, strerror(ret));
}

/* After its QP is gone: the MRs it used go too. */
static void rio_target_conn_unreg(struct rio_tconn *tc)
{
	const char *peer = tc->peer[0] ? tc->peer : "a client";
	char what[128];

	snprintf(what, sizeof(what), "target region for %s", peer);
	rio_mr_delete(&tc->mr, what);
	snprintf(what, sizeof(what), "keepalive word of %s", peer);
	rio_mr_delete(&tc->word_mr, what);
}

static void rio_target_conn_free(struct rio_tconn *tc)
{
	rio_target_conn_unreg(tc);
	free(tc);
}

/* The client's own window on the region: [start, span) of it. */
static enum rio_status rio_target_window(struct rio_target *t,
					 struct rio_tconn *tc,
					 const struct rio_hello *h,
					 const char *peer)
{
	char what[192];

	uint64_t start, end;

	if (!(h->need & RIO_NEED_REGION))
		return RIO_STATUS_OK;
	/* A client addressing more than the region wraps its offsets onto
	 * all of it (rio_hello_judge allowed it). */
	rio_hello_window(h, t->region_len, &start, &end);
	snprintf(what, sizeof(what),
		 "target region [%" PRIu64 ", %" PRIu64 ") for client %s",
		 start, end, peer);
	if (rio_mr_reg(t->pd, (char *)t->region + start, end - start,
		       t->region_access, what, &tc->mr))
		return RIO_STATUS_RESOURCES;
	return RIO_STATUS_OK;
}

/* The word this connection's keepalives land in: its own registration, so
 * a client can write no other connection's word. */
static enum rio_status rio_target_word(struct rio_target *t,
				       struct rio_tconn *tc, const char *peer)
{
	char what[128];

	if (!t->alive_s)
		return RIO_STATUS_OK;
	snprintf(what, sizeof(what), "keepalive word for client %s", peer);
	if (rio_mr_reg(t->pd, &tc->word, sizeof(tc->word),
		       IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE, what,
		       &tc->word_mr))
		return RIO_STATUS_RESOURCES;
	return RIO_STATUS_OK;
}

/* What the accept tells the client: the region, and its connection's keys
 * to its window and to its keepalive word. */
static void rio_target_reply(const struct rio_target *t, struct rio_tconn *tc,
			     struct rio_reply *r)
{
	r->version = RIO_PROTO_VERSION;
	r->status = RIO_STATUS_OK;
	r->allowed = t->offer.allowed;
	r->recv_size = t->offer.recv_size;
	r->length = t->offer.length;
	r->base = (uintptr_t)t->region;
	/* Offsets stay the client's own: base is the region's start, and
	 * the key works only inside [start, span) of it. */
	r->rkey = tc->mr ? tc->mr->rkey : 0;
	if (tc->word_mr) {
		r->alive_s = t->alive_s;
		r->alive_rkey = tc->word_mr->rkey;
		r->alive_addr = (uintptr_t)&tc->word;
	}
}

static enum rio_status rio_target_accept(struct rio_target *t,
					 struct rdma_cm_id *id,
					 const struct rdma_conn_param *req,
					 const struct rio_hello *h,
					 const char *peer)
{
	struct ibv_qp_init_attr qa = { 0 };
	struct rdma_conn_param cp = { 0 };
	struct rio_reply r = { 0 };
	uint8_t pdata[RIO_REPLY_LEN];
	struct rio_tconn *tc;
	int ret;

	tc = calloc(1, sizeof(*tc));
	if (!tc)
		return RIO_STATUS_RESOURCES;
	if (rio_target_window(t, tc, h, peer) != RIO_STATUS_OK ||
	    rio_target_word(t, tc, peer) != RIO_STATUS_OK) {
		rio_target_conn_free(tc);
		return RIO_STATUS_RESOURCES;
	}
	qa.send_cq = t->cq;
	qa.recv_cq = t->cq;
	qa.srq = t->srq;
	qa.qp_type = IBV_QPT_RC;
	qa.cap.max_send_wr = 1;
	qa.cap.max_recv_wr = t->srq ? 0 : 1;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	if (rdma_create_qp(id, t->pd, &qa)) {
		ret = errno;
		rio_err_call(ret, "rdma_create_qp(client %s)", peer);
		rio_target_conn_free(tc);
		return RIO_STATUS_RESOURCES;
	}
	rio_target_reply(t, tc, &r);
	rio_reply_encode(&r, pdata, sizeof(pdata));
	cp.private_data = pdata;
	cp.private_data_len = sizeof(pdata);
	/* Serve as many RDMA READs in flight as both ends allow. */
	cp.responder_resources = req->initiator_depth;
	if (cp.responder_resources > t->attr.max_qp_rd_atom)
		cp.responder_resources = t->attr.max_qp_rd_atom;
	cp.initiator_depth = req->responder_resources;
	if (cp.initiator_depth > t->attr.max_qp_init_rd_atom)
		cp.initiator_depth = t->attr.max_qp_init_rd_atom;
	cp.rnr_retry_count = 7;
	if (rdma_accept(id, &cp)) {
		ret = errno;
		rio_err_call(ret,
			     "rdma_accept(client %s, responder_resources=%u)",
			     peer, cp.responder_resources);
		rdma_destroy_qp(id);
		rio_target_conn_free(tc);
		return RIO_STATUS_RESOURCES;
	}
	if (t->srq)
		rio_target_rnr_timer(id, peer);
	if (h->need & (RIO_NEED_SEND | RIO_NEED_IMM)) {
		tc->sends = true;
		t->senders++;
		t->spin = true;
	}
	tc->id = id;
	snprintf(tc->peer, sizeof(tc->peer), "%s", peer);
	id->context = tc;
	tc->next = t->conns;
	t->conns = tc;
	clock_gettime(CLOCK_MONOTONIC, &tc->accepted);
	rio_slots_accepted(&t->slots);
	return RIO_STATUS_OK;
}

/* Each I/O unit of a send/write_imm target is one posted receive: a
 * client with more messages in flight than that meets receiver-not-ready
 * NAKs and waits out an RNR timer for each. It still works, so warn. */
static void rio_target_check_depth(struct rio_target *t,
				   const struct rio_hello *h, const char *peer)
{
	if (!(h->need & (RIO_NEED_SEND | RIO_NEED_IMM)) ||
	    h->depth <= t->depth || t->depth_told)
		return;
	t->depth_told = true;
	rio_err("target job: client %s keeps up to %u messages in flight (its iodepth) but this target posts only iodepth=%u receives; each message that finds none waits for an RNR retry and throughput collapses; set iodepth=%u or more on the target job (the sum of the clients' iodepths when several send at once)",
		peer, h->depth, t->depth, h->depth);
}

/* How many refusals of peers that sent no hello are told one by one: a
 * port scan or a flood of them must not fill the log. */
#define RIO_TARGET_FOREIGN_TOLD 10

/* A peer that sent no rdmaio hello takes no slot: one stray connection
 * (an rping, a port scan) must not use up clients= before the real
 * client comes. */
static void rio_target_foreign(struct rio_target *t, struct rdma_cm_id *id,
			       const char *peer)
{
	if (++t->foreign <= RIO_TARGET_FOREIGN_TOLD)
		rio_err("target job: refused peer %s: it does not speak the rdmaio protocol (no rdmaio hello in its connection request: rping, a port scan, fio's rdma engine?); it does not count against clients=%u. A librdmaio client needs ioengine=external:librdmaio.so%s",
			peer, t->o->clients,
			t->foreign == RIO_TARGET_FOREIGN_TOLD
				? " (further such refusals are counted, not shown)"
				: "");
	rio_target_refuse(t, id, peer, RIO_STATUS_VERSION);
}

/* A request with a free slot: accepted, or refused for what its hello
 * asks (or for its version). */
static enum rio_status rio_target_judge(struct rio_target *t,
					struct rdma_cm_id *id,
					const struct rdma_conn_param *req,
					const struct rio_hello *h, int decoded,
					const char *peer)
{
	enum rio_status st;

	if (decoded == -EPROTONOSUPPORT) {
		rio_err("target job: client %s speaks rdmaio protocol version %u, this target %u; use the same librdmaio on both sides",
			peer, h->version, RIO_PROTO_VERSION);
		return RIO_STATUS_VERSION;
	}
	if (id->verbs != t->verbs)
		return RIO_STATUS_DEVICE;
	st = rio_hello_judge(h, &t->offer);
	if (st == RIO_STATUS_OK)
		st = rio_target_accept(t, id, req, h, peer);
	if (st == RIO_STATUS_OK)
		rio_target_check_depth(t, h, peer);
	return st;
}

static void rio_target_request(struct rio_target *t, struct rdma_cm_event *ev)
{
	struct rdma_cm_id *id = ev->id;
	struct rdma_conn_param req = ev->param.conn;
	struct rio_hello h;
	enum rio_status st;
	char peer[80];
	int decoded;

	rio_cm_addr_str(rdma_get_peer_addr(id), peer, sizeof(peer));
	decoded = rio_hello_decode(req.private_data, req.private_data_len, &h);
	rdma_ack_cm_event(ev);
	switch (rio_slots_admit(&t->slots, decoded)) {
	case RIO_ADMIT_FOREIGN:
		rio_target_foreign(t, id, peer);
		return;
	case RIO_ADMIT_BUSY:
		/* Said nowhere: the client retries, and a connection that
		 * does not complete is reported when it is dropped. */
		rio_target_refuse(t, id, peer, RIO_STATUS_BUSY);
		return;
	case RIO_ADMIT_FULL:
		rio_err("target job: refused client %s: %s", peer,
			rio_status_str(RIO_STATUS_FULL));
		rio_target_refuse(t, id, peer, RIO_STATUS_FULL);
		return;
	case RIO_ADMIT_JUDGE:
		break;
	}
	st = rio_target_judge(t, id, &req, &h, decoded, peer);
	if (st == RIO_STATUS_OK)
		return;
	rio_err("target job: refused client %s: %s", peer, rio_status_str(st));
	rio_target_refuse(t, id, peer, st);
	/* A refused client came and went: count it, or a target whose only
	 * client was refused would wait for ever. It took a free slot, so
	 * it cannot end a target that still serves others. */
	rio_slots_refused(&t->slots);
}

static void rio_target_drop(struct rio_target *t, struct rio_tconn *tc)
{
	struct rio_tconn **pp;

	for (pp = &t->conns; *pp; pp = &(*pp)->next) {
		if (*pp == tc) {
			*pp = tc->next;
			break;
		}
	}
	/* An auto target goes back to sleeping in poll() once its last
	 * client that sends has gone. */
	if (tc->sends && !--t->senders)
		t->spin = t->spin_always;
	/* A connection that never completed gives its slot back. */
	if (tc->established)
		rio_slots_ended(&t->slots);
	else
		rio_slots_abandoned(&t->slots);
	if (tc->id->qp)
		rdma_destroy_qp(tc->id);
	rdma_destroy_id(tc->id);
	rio_target_conn_free(tc);
}

/* A client whose port stays down is lost: its disconnect cannot reach
 * us, and without this a target with no runtime would wait for ever. */
static void rio_target_links(struct rio_target *t)
{
	struct rio_tconn *tc, *next;
	char state[96];

	for (tc = t->conns; tc; tc = next) {
		next = tc->next;
		if (!tc->established ||
		    !rio_port_down(tc->id->verbs, tc->id->port_num,
				   &tc->port_checked, &tc->port_down_since,
				   state, sizeof(state)))
			continue;
		rio_err("target job: connection from %s lost: port %u of RDMA device %s has not been ACTIVE for %d s (it is %s); bring its netdev back up ('rdma link show' names it)",
			tc->peer, tc->id->port_num,
			ibv_get_device_name(tc->id->verbs->device),
			RIO_LINK_GRACE_MS / 1000, state);
		rio_target_drop(t, tc);
	}
}

/* A peer that sent a valid hello but does not complete the connection
 * (its process stopped after connecting, or it never meant to) would hold
 * a slot for ever: drop it after RIO_HELLO_MS, uncounted. */
static void rio_target_unfinished(struct rio_target *t, struct rio_tconn *tc,
				  const struct timespec *now)
{
	if (rio_ts_diff_ms(&tc->accepted, now) < RIO_HELLO_MS)
		return;
	rio_err("target job: client %s sent a hello but did not complete the connection within %d s; dropped it, and it does not count against clients=%u",
		tc->peer, RIO_HELLO_MS / 1000, t->o->clients);
	rio_target_drop(t, tc);
}

/* A connected client whose keepalive word has not changed for alive_s is
 * ended: a stopped or vanished client would hold a target without
 * runtime for ever (alive.h). */
static void rio_target_silent(struct rio_target *t, struct rio_tconn *tc,
			      const struct timespec *now)
{
	uint64_t word = __atomic_load_n(&tc->word, __ATOMIC_RELAXED);

	if (!t->alive_s || rio_alive_silent_ms(&tc->alive, word, now) <
				   (long)t->alive_s * 1000)
		return;
	rio_err("target job: client %s sent no keepalive for stall_timeout=%u s: its process is stopped or pauses (thinktime) that long, its host is gone, or it is no librdmaio client; ended its connection. For clients that pause that long, raise the target's stall_timeout or give the target a runtime=",
		tc->peer, t->alive_s);
	if (rdma_disconnect(tc->id))
		rio_err_call(errno, "rdma_disconnect(client %s)", tc->peer);
	rio_target_drop(t, tc);
	t->silenced++;
}

/* At most every RIO_ALIVE_LOOK_MS: connections that never completed, and
 * connected clients gone silent. */
static void rio_target_look_conns(struct rio_target *t)
{
	struct rio_tconn *tc, *next;
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!rio_ts_unset(&t->looked) &&
	    rio_ts_diff_ms(&t->looked, &now) < RIO_ALIVE_LOOK_MS)
		return;
	t->looked = now;
	for (tc = t->conns; tc; tc = next) {
		next = tc->next;
		if (!tc->established)
			rio_target_unfinished(t, tc, &now);
		else
			rio_target_silent(t, tc, &now);
	}
}

/* The connection is complete: its silence is timed from now. */
static void rio_target_established(struct rio_target *t, struct rio_tconn *tc)
{
	struct timespec now;

	if (tc->established)
		return;
	tc->established = true;
	rio_slots_established(&t->slots);
	clock_gettime(CLOCK_MONOTONIC, &now);
	rio_alive_start(&tc->alive,
			__atomic_load_n(&tc->word, __ATOMIC_RELAXED), &now);
}

int rio_target_watch(struct rio_target *t, int timeout_ms)
{
	struct rdma_cm_event *ev;
	int ret;

	while (!(ret = rio_cm_next(t->ch, timeout_ms, &ev))) {
		enum rdma_cm_event_type type = ev->event;
		struct rdma_cm_id *id = ev->id;
		struct rio_tconn *tc = id->context;

		timeout_ms = 0;
		if (type == RDMA_CM_EVENT_CONNECT_REQUEST) {
			rio_target_request(t, ev);
			continue;
		}
		rdma_ack_cm_event(ev);
		if (id == t->listen_id || (void *)tc == (void *)t) {
			if (type == RDMA_CM_EVENT_DEVICE_REMOVAL) {
				rio_err("target job: the RDMA device under %s was removed",
					t->where);
				return -ENODEV;
			}
			continue;
		}
		switch (type) {
		case RDMA_CM_EVENT_ESTABLISHED:
			rio_target_established(t, tc);
			break;
		case RDMA_CM_EVENT_DISCONNECTED:
		case RDMA_CM_EVENT_CONNECT_ERROR:
		case RDMA_CM_EVENT_UNREACHABLE:
		case RDMA_CM_EVENT_REJECTED:
		case RDMA_CM_EVENT_DEVICE_REMOVAL:
			if (!tc->established)
				rio_err("target job: client %s did not complete the connection (%s); dropped it, and it does not count against clients=%u",
					tc->peer, rdma_event_str(type),
					t->o->clients);
			else if (type != RDMA_CM_EVENT_DISCONNECTED)
				rio_err("target job: connection from %s failed: %s",
					tc->peer, rdma_event_str(type));
			rio_target_drop(t, tc);
			break;
		default:
			break;
		}
	}
	rio_target_links(t);
	rio_target_look_conns(t);
	return ret == -ETIMEDOUT ? 0 : ret;
}

void rio_target_close(struct rio_target *t)
{
	struct rio_tconn *tc, *next;
	char who[128];
	int ret;

	if (!t)
		return;
	if (t->foreign > RIO_TARGET_FOREIGN_TOLD)
		rio_err("target job: refused %u peers in all that sent no rdmaio hello",
			t->foreign);
	t->foreign = 0;
	for (tc = t->conns; tc; tc = tc->next)
		if (tc->established)
			rdma_disconnect(tc->id);
	for (tc = t->conns; tc; tc = tc->next) {
		if (tc->id->qp)
			rdma_destroy_qp(tc->id);
		rio_target_conn_unreg(tc);
	}
	if (t->srq) {
		ret = ibv_destroy_srq(t->srq);
		if (ret)
			rio_err_call(ret, "ibv_destroy_srq(target %s)",
				     t->where);
		t->srq = NULL;
	}
	snprintf(who, sizeof(who), "target %s", t->where);
	rio_cq_delete(&t->cq, who);
	rio_cq_sleep_delete(&t->sleep);
	rio_cq_channel_delete(&t->cc, "target");
	rio_mr_delete(&t->io_mr, "target receive buffers");
	rio_pd_delete(&t->pd, who);
	for (tc = t->conns; tc; tc = next) {
		next = tc->next;
		rdma_destroy_id(tc->id);
		free(tc);
	}
	t->conns = NULL;
	if (t->listen_id) {
		rdma_destroy_id(t->listen_id);
		t->listen_id = NULL;
	}
	rio_cm_channel_delete(&t->ch);
	if (t->devs) {
		rdma_free_devices(t->devs);
		t->devs = NULL;
	}
	if (t->region) {
		munmap(t->region, t->map_len);
		t->region = NULL;
	}
}

void rio_target_delete(struct rio_target **tp)
{
	struct rio_target *t;

	if (!tp || !*tp)
		return;
	t = *tp;
	rio_target_close(t);
	free(t->staged);
	free(t->ready);
	free(t->wc);
	free(t->rwr);
	free(t->rsge);
	free(t);
	*tp = NULL;
}
