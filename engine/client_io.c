// SPDX-License-Identifier: GPL-2.0
/* The client's data path: fio I/O units become work requests, staged per
 * queue pair in queue, posted as one chain per queue pair in commit, and
 * retired from the CQ in getevents. Allocates nothing, logs only errors. */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alive.h"
#include "async.h"
#include "client_impl.h"
#include "clock.h"
#include "cq.h"
#include "errmsg.h"
#include "port.h"
#include "rio_log.h"

static const char *rio_client_verb(enum ibv_wr_opcode op)
{
	switch (op) {
	case IBV_WR_RDMA_READ:
		return "RDMA READ";
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

/* Where in the target's memory wr goes: region base + at. */
static int rio_client_remote(const struct rio_client *c,
			     const struct rio_cqp *q, struct ibv_send_wr *wr,
			     uint64_t at)
{
	if (wr->opcode != IBV_WR_ATOMIC_FETCH_AND_ADD &&
	    wr->opcode != IBV_WR_ATOMIC_CMP_AND_SWP) {
		wr->wr.rdma.remote_addr = c->base + at;
		wr->wr.rdma.rkey = q->rkey;
		return 0;
	}
	/* The word's old value lands in the I/O buffer. */
	if (at & 7 || wr->sg_list->length != 8)
		return -EINVAL;
	wr->send_flags = 0;
	wr->wr.atomic.remote_addr = c->base + at;
	wr->wr.atomic.rkey = q->rkey;
	wr->wr.atomic.compare_add = wr->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD
					    ? 1
					    : RIO_SWAP_COMPARE;
	wr->wr.atomic.swap = RIO_SWAP_VALUE;
	return 0;
}

enum fio_q_status rio_client_queue(struct rio_client *c, struct io_u *io_u)
{
	struct ibv_send_wr *wr = &c->wr[io_u->index];
	struct ibv_sge *sge = &c->sge[io_u->index];
	struct rio_cqp *q;
	uint64_t at = io_u->offset;

	switch (io_u->ddir) {
	case DDIR_WRITE:
		wr->opcode = c->write_op;
		break;
	case DDIR_READ:
		wr->opcode = c->read_op;
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
	if (c->wrap) {
		at = rio_wrap(at, io_u->xfer_buflen, c->length);
	} else if (wr->opcode != IBV_WR_SEND &&
		   (at + io_u->xfer_buflen > c->length ||
		    at + io_u->xfer_buflen < at)) {
		io_u->error = ERANGE;
		return FIO_Q_COMPLETED;
	}
	q = &c->qps[c->next_qp];
	if (++c->next_qp == c->nqps)
		c->next_qp = 0;
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
	if (rio_client_remote(c, q, wr, at)) {
		io_u->error = EINVAL;
		return FIO_Q_COMPLETED;
	}
	if (wr->opcode == IBV_WR_RDMA_WRITE_WITH_IMM)
		wr->imm_data = htobe32(io_u->index);

	/* Completions are asked for independently of fio's commits: with
	 * fio's default iodepth_batch=1, one per commit would be one per
	 * request. */
	c->inflight++;
	if (rio_sendq_push(&q->sq, io_u, c->inflight == c->depth))
		wr->send_flags |= IBV_SEND_SIGNALED;
	c->qp_of[io_u->index] = (unsigned char)(q - c->qps);
	if (q->last)
		q->last->next = wr;
	else
		q->first = wr;
	q->last = wr;
	c->staged[c->nstaged++] = io_u;
	return FIO_Q_QUEUED;
}

static void rio_client_ready(struct rio_client *c, struct io_u *io_u)
{
	c->ready[(c->rhead + c->rcount) & c->rmask] = io_u;
	c->rcount++;
}

/* Fails the newest n units posted on q. Those leave the ring from its
 * end, and are handed back oldest first. */
static void rio_client_fail_last(struct rio_client *c, struct rio_cqp *q,
				 unsigned int n, int err)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct io_u *io_u = rio_sendq_pop_newest(&q->sq);

		io_u->error = err;
		c->ready[(c->rhead + c->rcount + n - 1 - i) & c->rmask] = io_u;
	}
	c->rcount += n;
	c->inflight -= n;
}

/* The staged chain from bad onward was not posted: fail those units. */
static void rio_client_unpost(struct rio_client *c, struct rio_cqp *q,
			      struct ibv_send_wr *bad, int err)
{
	struct ibv_send_wr *wr;
	unsigned int n = 0;

	for (wr = bad; wr; wr = wr->next)
		n++;
	rio_client_fail_last(c, q, n > q->sq.count ? q->sq.count : n, err);
}

/* The requests a failed post took before the bad one carry no signalled
 * completion: in the error state the device flushes them at once (each
 * with its own completion) instead of leaving them to the dead-peer wait.
 * Whether they reached the target is unknown, so they count as failed. */
static void rio_client_flush(struct rio_cqp *q)
{
	struct ibv_qp_attr attr = { .qp_state = IBV_QPS_ERR };
	int ret;

	if (!q->sq.count)
		return;
	ret = ibv_modify_qp(q->id->qp, &attr, IBV_QP_STATE);
	if (ret)
		rio_err_call(ret, "ibv_modify_qp(qp %u, ERR)", q->qp_num);
}

/* A keepalive goes at most every alive_ms, one at a time: checked on
 * every commit, so it must cost no more than a comparison. */
static inline bool rio_client_alive_due(const struct rio_client *c,
					const struct rio_cqp *q,
					const struct timespec *now)
{
	return c->alive_ms && !q->alive_busy &&
	       rio_ts_reached(now, &q->alive_next);
}

/* Tells a target without runtime that this job is alive (alive.h): an
 * 8-byte RDMA WRITE of the queue pair's counter into the word the target
 * gave its connection. It asks for a completion, which frees its place on
 * the send queue and touches no I/O unit. */
static void rio_client_keepalive(struct rio_client *c, struct rio_cqp *q,
				 const struct timespec *now)
{
	unsigned int i = (unsigned int)(q - c->qps);
	struct ibv_sge sge = { .addr = (uintptr_t)&c->alive_vals[i],
			       .length = sizeof(c->alive_vals[i]),
			       .lkey = c->alive_mr->lkey };
	struct ibv_send_wr wr = { 0 }, *bad;
	int ret;

	q->alive_next = *now;
	rio_ts_add_ms(&q->alive_next, c->alive_ms);
	c->alive_vals[i]++;
	wr.wr_id = RIO_ALIVE_WR | i;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.wr.rdma.remote_addr = q->alive_addr;
	wr.wr.rdma.rkey = q->alive_rkey;
	ret = ibv_post_send(q->id->qp, &wr, &bad);
	if (!ret) {
		q->alive_busy = true;
		return;
	}
	/* The I/O posted on this queue pair meets the same fault and
	 * says so: this is told once. */
	if (!c->alive_told)
		rio_err_call(ret, "ibv_post_send(qp %u to %s, keepalive)",
			     q->qp_num, c->peer);
	c->alive_told = true;
}

int rio_client_commit(struct rio_client *c)
{
	struct thread_data *td = c->td;
	struct ibv_send_wr *bad;
	struct timespec now;
	bool stamp = fio_fill_issue_time(td);
	unsigned int i;
	int ret, err = 0;

	if (!c->nstaged)
		return 0;
	/* Stamp, post, and only then account: fio's slat bookkeeping
	 * (io_u_queued) between the stamp and the post would count as
	 * completion latency. The keepalives go by the same clock. */
	if (stamp || c->alive_ms)
		fio_gettime(&now, NULL);
	if (stamp) {
		for (i = 0; i < c->nstaged; i++)
			c->staged[i]->issue_time = now;
		if (td->o.read_iolog_file)
			td->last_issue = now;
	}
	for (i = 0; i < c->nqps; i++) {
		struct rio_cqp *q = &c->qps[i];

		if (!q->first)
			continue;
		bad = NULL;
		ret = ibv_post_send(q->id->qp, q->first, &bad);
		if (ret) {
			rio_err_call(ret, "ibv_post_send(qp %u to %s)",
				     q->qp_num, c->peer);
			rio_client_unpost(c, q, bad ? bad : q->first, ret);
			rio_client_flush(q);
			c->dead = true;
			err = -ret;
		} else if (rio_client_alive_due(c, q, &now)) {
			/* After the I/O, whose latency it must not add to. */
			rio_client_keepalive(c, q, &now);
		}
		q->first = q->last = NULL;
	}
	if (stamp)
		for (i = 0; i < c->nstaged; i++)
			io_u_queued(td, c->staged[i]);
	io_u_mark_submit(td, c->nstaged);
	c->nstaged = 0;
	return err;
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
	rio_wc_errmsg(msg, sizeof(msg), wc,
		      rio_client_verb(io_u->ddir == DDIR_READ ? c->read_op
							      : c->write_op),
		      io_u->offset, io_u->xfer_buflen, c->peer);
	rio_err("client job: %s", msg);
}

/* The word's old value is in the I/O buffer, in the byte order the device
 * writes (not the same on every device); the compare value 0 reads the
 * same in both. */
static void rio_client_count_swap(struct rio_client *c, const struct io_u *io_u)
{
	uint64_t old;

	memcpy(&old, io_u->xfer_buf, sizeof(old));
	c->compared++;
	if (old == RIO_SWAP_COMPARE)
		c->swapped++;
}

/* A nudge's completion: it retires what was posted on its queue pair
 * before it, which RC completed first. */
static void rio_client_nudged(struct rio_client *c, const struct ibv_wc *wc)
{
	struct rio_cqp *q = &c->qps[wc->wr_id & 0xff];
	unsigned int n = rio_sendq_nudged(&q->sq);
	char msg[512];

	if (wc->status != IBV_WC_SUCCESS && wc->status != IBV_WC_WR_FLUSH_ERR) {
		rio_wc_errmsg(msg, sizeof(msg), wc,
			      "zero-length RDMA WRITE (asks for a completion)",
			      0, 0, c->peer);
		rio_err("client job: %s", msg);
		/* The target's device refused the write itself; other
		 * statuses are the link's or the target's, as for any
		 * request, and rio_wc_errmsg named them. */
		if (wc->status == IBV_WC_REM_ACCESS_ERR ||
		    wc->status == IBV_WC_REM_INV_REQ_ERR ||
		    wc->status == IBV_WC_REM_OP_ERR)
			rio_err("client job: the target's device refuses zero-length RDMA WRITEs; set signal_every=1 so that every request asks for its own completion");
		c->dead = true;
	}
	c->inflight -= n;
	while (n--)
		rio_client_ready(c, rio_sendq_pop(&q->sq));
}

/* A keepalive's completion: the next may go. One that failed for another
 * reason than a flush means the target no longer takes them (it ended
 * this connection, see alive.h). */
static void rio_client_kept(struct rio_client *c, const struct ibv_wc *wc)
{
	struct rio_cqp *q = &c->qps[wc->wr_id & 0xff];
	char msg[512];

	q->alive_busy = false;
	if (wc->status == IBV_WC_SUCCESS || wc->status == IBV_WC_WR_FLUSH_ERR)
		return;
	rio_wc_errmsg(msg, sizeof(msg), wc,
		      "keepalive (8-byte RDMA WRITE to the target's word)", 0,
		      8, c->peer);
	rio_err("client job: %s", msg);
	c->dead = true;
}

/* The completion of a request of the engine's own, not an I/O unit's. */
static void rio_client_own(struct rio_client *c, const struct ibv_wc *wc)
{
	if (wc->wr_id & RIO_NUDGE_WR)
		rio_client_nudged(c, wc);
	else
		rio_client_kept(c, wc);
}

static void rio_client_reap(struct rio_client *c, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		const struct ibv_wc *wc = &c->wc[i];
		struct io_u *done = (struct io_u *)(uintptr_t)wc->wr_id;
		struct rio_cqp *q;

		if (wc->wr_id & (RIO_NUDGE_WR | RIO_ALIVE_WR)) {
			rio_client_own(c, wc);
			continue;
		}
		q = &c->qps[c->qp_of[done->index]];
		/* Everything posted before the signalled request is done. */
		while (q->sq.count) {
			struct io_u *io_u = rio_sendq_pop(&q->sq);

			c->inflight--;
			if (io_u == done && wc->status != IBV_WC_SUCCESS)
				rio_client_wc_error(c, wc, io_u);
			else if (c->write_op == IBV_WR_ATOMIC_CMP_AND_SWP)
				rio_client_count_swap(c, io_u);
			rio_client_ready(c, io_u);
			if (io_u == done)
				break;
		}
	}
}

/* fio waits for min completions (it has committed all it queued): if the
 * completions asked for cannot retire that many, post a nudge, a
 * signalled zero-length RDMA WRITE, behind the requests that asked for
 * none. A zero-length RDMA WRITE checks no key on the target (IB C9-88),
 * so it works whatever the target granted; rdma_cm gives every RC queue
 * pair remote write access, which rxe checks even then. On a dead
 * connection the queue pair goes to the error state first: the nudge is
 * flushed at once, and its completion retires the requests that finished
 * without one, as the kernel's ib_drain_sq does. */
static bool rio_client_nudge(struct rio_client *c, unsigned int min)
{
	struct ibv_send_wr wr = { 0 }, *bad;
	unsigned int i, covered = c->rcount;
	int ret;

	for (i = 0; i < c->nqps; i++)
		covered += rio_sendq_covered(&c->qps[i].sq);
	for (i = 0; i < c->nqps && covered < min; i++) {
		struct rio_cqp *q = &c->qps[i];
		unsigned int more = q->sq.unsig;

		if (!rio_sendq_nudge(&q->sq))
			continue;
		covered += more;
		if (c->dead)
			rio_client_flush(q);
		wr.wr_id = RIO_NUDGE_WR | i;
		wr.opcode = IBV_WR_RDMA_WRITE;
		wr.send_flags = IBV_SEND_SIGNALED;
		wr.wr.rdma.remote_addr = c->base;
		wr.wr.rdma.rkey = q->rkey;
		ret = ibv_post_send(q->id->qp, &wr, &bad);
		if (ret) {
			/* Not retried (the nudge stays marked in flight): the
			 * requests left wait out the dead-peer bound. */
			rio_err_call(
				ret,
				"ibv_post_send(qp %u to %s, zero-length RDMA WRITE asking for a completion)",
				q->qp_num, c->peer);
			rio_err("client job: %u I/Os to %s cannot be completed and will count as failed; if the device refuses zero-length RDMA WRITEs, set signal_every=1",
				more, c->peer);
			rio_client_flush(q);
			c->dead = true;
		}
	}
	/* Not yet when a nudge in flight keeps another from going out. */
	return covered >= min;
}

/* A QP or device error the device reported outside any completion. */
static bool rio_client_async(struct rio_client *c)
{
	const struct ibv_qp *qps[RIO_MAX_QPS];
	char what[128];
	unsigned int i;
	int ret;

	for (i = 0; i < c->nqps; i++)
		qps[i] = c->qps[i].id ? c->qps[i].id->qp : NULL;
	ret = rio_async_fatal(c->verbs, qps, c->nqps, c->cq, what,
			      sizeof(what));
	if (ret < 0 && !c->async_told) {
		c->async_told = true;
		rio_err_call(-ret, "ibv_get_async_event(%s)",
			     ibv_get_device_name(c->verbs->device));
		rio_cq_sleep_forget(c->sleep, c->verbs->async_fd);
	}
	if (ret <= 0)
		return false;
	rio_err("client job: RDMA device %s reported %s while %u I/Os to target %s were in flight; they count as failed; check the kernel log (dmesg) and 'rdma link show'",
		ibv_get_device_name(c->verbs->device), what, c->inflight,
		c->peer);
	return true;
}

static void rio_client_watch(struct rio_client *c)
{
	struct rdma_cm_event *ev;
	int ret;

	while (!(ret = rio_cm_next(c->ch, 0, &ev))) {
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
	/* rio_cm_next said why; a channel that fails stays readable. */
	if (ret != -ETIMEDOUT)
		rio_cq_sleep_forget(c->sleep, c->ch->fd);
}

/* How long the client waits without a completion once its peer is gone
 * or fio ends the job. */
#define RIO_STUCK_MS 5000

/* Gives up on every request in flight: fio counts them as in flight until
 * they are handed back, and some of its loops (io_u_quiesce) wait for
 * that without end. The queue pairs go to the error state first, so the
 * device writes no buffer that fio hands out again; completions that
 * still come find nothing to retire. */
static void rio_client_abandon(struct rio_client *c, int err)
{
	struct ibv_qp_attr attr = { .qp_state = IBV_QPS_ERR };
	unsigned int i;
	int ret;

	for (i = 0; i < c->nqps; i++) {
		struct rio_cqp *q = &c->qps[i];

		if (q->id && q->id->qp) {
			ret = ibv_modify_qp(q->id->qp, &attr, IBV_QP_STATE);
			if (ret)
				rio_err_call(ret, "ibv_modify_qp(qp %u, ERR)",
					     q->qp_num);
		}
		rio_client_fail_last(c, q, q->sq.count, err);
	}
	c->dead = true;
}

/* Ends the job once the queue pairs' port has stayed down: the requests
 * in flight may never complete (see RIO_LINK_GRACE_MS). */
static bool rio_client_link_lost(struct rio_client *c)
{
	char state[96];

	if (c->dead ||
	    !rio_port_down(c->verbs, c->port, &c->port_checked,
			   &c->port_down_since, state, sizeof(state)))
		return false;
	rio_err("client job: the link to target %s went down mid-run: port %u of RDMA device %s has not been ACTIVE for %d s (it is %s) and %u I/Os are still outstanding; bring its netdev back up ('rdma link show' names it, then 'ip link set <netdev> up') and rerun",
		c->peer, c->port, ibv_get_device_name(c->verbs->device),
		RIO_LINK_GRACE_MS / 1000, state, c->inflight);
	rio_client_abandon(c, ENOTCONN);
	return true;
}

/* fio ends a job (its runtime, a signal, exitall) by waiting for what is
 * in flight, and checks the runtime only between I/Os. */
static bool rio_client_ending(const struct rio_client *c)
{
	const struct thread_data *td = c->td;

	return td->terminate ||
	       (td->o.timeout &&
		mtime_since_now(&td->epoch) >=
			(td->o.timeout + td->o.ramp_time) / 1000);
}

/* Polls the CQ once and retires what it found. Returns how many
 * completions it reaped, or -EIO. */
static int rio_client_poll(struct rio_client *c)
{
	int n = ibv_poll_cq(c->cq, c->depth, c->wc);

	if (n < 0) {
		rio_err_call(-n, "ibv_poll_cq(client of %s)", c->peer);
		return -EIO;
	}
	if (n)
		rio_client_reap(c, n);
	return n;
}

/* Arms the CQ, reaps what raced in, else sleeps a while on the channel
 * and reaps when the CQ alone woke it: the caller's idle path (connection
 * and device events, the clocks) runs only after a sleep that ended
 * otherwise. Returns how many completions it reaped, or -errno. */
static int rio_client_sleep(struct rio_client *c)
{
	int n, ret;

	ret = ibv_req_notify_cq(c->cq, 0);
	if (ret) {
		rio_err_call(ret, "ibv_req_notify_cq(client of %s)", c->peer);
		return -ret;
	}
	n = rio_client_poll(c);
	if (n)
		return n;
	/* A dead client no longer takes device events: one left unread
	 * would end every sleep at once. */
	if (c->dead)
		rio_cq_sleep_forget(c->sleep, c->verbs->async_fd);
	ret = rio_cq_wait(c->sleep);
	if (ret < 0)
		return ret;
	return ret == RIO_CQ_WOKE ? rio_client_poll(c) : 0;
}

/* fio waits on completions that do not come yet (a slow target, long
 * I/Os): still alive. */
static void rio_client_waiting_alive(struct rio_client *c)
{
	struct timespec now;
	unsigned int i;

	if (!c->alive_ms || c->dead)
		return;
	fio_gettime(&now, NULL);
	for (i = 0; i < c->nqps; i++)
		if (c->qps[i].connected &&
		    rio_client_alive_due(c, &c->qps[i], &now))
			rio_client_keepalive(c, &c->qps[i], &now);
}

int rio_client_getevents(struct rio_client *c, unsigned int min,
			 unsigned int max, const struct timespec *t)
{
	struct timespec start = { 0 };
	unsigned int spins = 0;
	bool covered = false;
	int n;

	c->rhead = (c->rhead + c->rgiven) & c->rmask;
	c->rcount -= c->rgiven;
	c->rgiven = 0;
	while (c->rcount < min) {
		n = rio_client_poll(c);
		/* Nothing is queued while fio waits: once covered, it
		 * stays so for this call. Before any sleep: requests that
		 * asked for no completion wake nobody. */
		if (!n && !covered)
			covered = rio_client_nudge(c, min);
		if (!n && c->cc)
			n = rio_client_sleep(c);
		if (n < 0)
			return n;
		if (n) {
			/* The idle clocks restart at the next idle spell. */
			start = (struct timespec){ 0 };
			c->idle_since = start;
			continue;
		}
		if (!c->cc && ++spins & 1023)
			continue;
		/* The clock starts at the first idle spell: a completion
		 * found at once costs no clock read. */
		if (rio_ts_unset(&start))
			clock_gettime(CLOCK_MONOTONIC, &start);
		if (rio_ts_unset(&c->idle_since) || !c->inflight)
			c->idle_since = start;
		rio_client_watch(c);
		rio_client_waiting_alive(c);
		if (rio_client_link_lost(c))
			break;
		if (!c->dead && rio_client_async(c)) {
			rio_client_abandon(c, EIO);
			break;
		}
		/* Size-based jobs have no runtime to end them: a target
		 * that stopped serving (RNR retries are endless) is found
		 * by its silence. */
		if (c->inflight && rio_ms_since(&c->idle_since) >=
					   (long)c->o->stall_timeout * 1000) {
			rio_err("client job: %u I/Os to target %s got no completion for stall_timeout=%u s; they count as failed. The target stopped serving them (a stopped target leaves SENDs retrying for ever) or the device never finished them: check the target, the link ('rdma link show') and the kernel log (dmesg), or raise stall_timeout",
				c->inflight, c->peer, c->o->stall_timeout);
			rio_client_abandon(c, ETIMEDOUT);
			break;
		}
		if (c->dead && rio_ts_unset(&c->dead_since))
			clock_gettime(CLOCK_MONOTONIC, &c->dead_since);
		/* A dead peer's requests are flushed at once; do not wait
		 * for ever if the device never reports them. */
		if (c->dead && rio_ms_since(&c->dead_since) > RIO_STUCK_MS) {
			rio_client_abandon(c, ENOTCONN);
			break;
		}
		/* Requests that never complete must not keep fio from ending
		 * the job. */
		if (rio_ms_since(&start) >= RIO_STUCK_MS &&
		    rio_client_ending(c)) {
			rio_err("client job: fio is ending the job, but %u I/Os to target %s got no completion for %d s; they count as failed. The target stopped taking them (a stalled target leaves SENDs waiting for receives for ever) or the device never finished them: check the target, the link ('rdma link show') and the kernel log (dmesg)",
				c->inflight, c->peer, RIO_STUCK_MS / 1000);
			rio_client_abandon(c, ETIMEDOUT);
			break;
		}
		if (t && rio_ms_since(&start) >= rio_ts_ms(t))
			break;
	}
	c->rgiven = c->rcount < max ? c->rcount : max;
	return c->rgiven;
}

void rio_client_report(const struct rio_client *c)
{
	char line[384];

	if (!c || !c->compared)
		return;
	snprintf(
		line, sizeof(line),
		"rdmaio: client job '%s' to %s: cmp_swap: %llu of %llu compares found %d and swapped it for %d; %llu found another value and left it\n",
		c->td->o.name, c->peer, (unsigned long long)c->swapped,
		(unsigned long long)c->compared, RIO_SWAP_COMPARE,
		RIO_SWAP_VALUE, (unsigned long long)(c->compared - c->swapped));
	/* Not an error, so not through rio_err: fio's log_err also writes
	 * into an --output file, which must stay fio's JSON. The backend of
	 * a fio --client run still relays it to the client. */
	if (f_err == stderr || is_backend)
		log_err("%s", line);
	else
		fputs(line, stderr);
}

struct io_u *rio_client_event(struct rio_client *c, int i)
{
	return c->ready[(c->rhead + i) & c->rmask];
}
