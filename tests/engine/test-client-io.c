// SPDX-License-Identifier: GPL-2.0
/* The client's data path (client_io.c) against a fake device behind the
 * verbs ops seam: its ops record every work request posted and complete
 * them as RC does, in order per queue pair, with a completion only for
 * those that ask (and for every one flushed in the error state). What is
 * checked is the counting the hot path depends on: which requests ask,
 * when a nudge goes out, that every I/O unit comes back exactly once and
 * in order, what a failed post or a failed request leaves, and that
 * keepalives go out on time, one at a time, within the queue's size. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "client_impl.h"
#include "clock.h"
#include "log-capture.h"

/* fio's side: the data path calls these between its posts. fio's clock
 * is the test's: it moves only when a test moves it. */
FILE *f_err;
bool is_backend;
static struct timespec fio_now;

void fio_gettime(struct timespec *ts, void *unused)
{
	(void)unused;
	*ts = fio_now;
}

void io_u_queued(struct thread_data *td, struct io_u *io_u)
{
	(void)td;
	(void)io_u;
}

static unsigned int submitted;

void io_u_mark_submit(struct thread_data *td, unsigned int n)
{
	(void)td;
	submitted += n;
}

uint64_t mtime_since_now(const struct timespec *ts)
{
	(void)ts;
	return 0;
}

#define DEPTH_MAX 128
#define QPS_MAX 4
#define LOG_MAX 8192

struct fake_wr {
	uint64_t wr_id;
	enum ibv_wr_opcode opcode;
	unsigned int flags;
	uint32_t length;
};

/* One queue pair's send queue on the fake device: iodepth requests, a
 * nudge and a keepalive, as the client sized it. */
#define SQ_MAX (DEPTH_MAX + 2)
struct fake_sq {
	struct fake_wr wr[SQ_MAX];
	unsigned int head, count;
	bool error; /* in the error state: everything flushes */
};

static struct fake {
	struct ibv_context ctx;
	struct ibv_device dev;
	struct ibv_cq cq;
	struct ibv_qp qp[QPS_MAX];
	struct rdma_cm_id id[QPS_MAX];
	struct fake_sq sq[QPS_MAX];
	struct ibv_wc cqe[LOG_MAX];
	unsigned int cq_head, cq_count;
	struct fake_wr posted[LOG_MAX]; /* every WR, in posting order */
	unsigned int nposted, nposts; /* WRs, and ibv_post_send calls */
	int fail_post_at; /* the nth WR posted (from 1) fails; 0: none */
	uint64_t fail_wr_id; /* this request completes in error */
	unsigned int run; /* WRs the device executes per poll; 0: all */
	unsigned int empty_polls;
	unsigned int sq_size; /* what the client asked for: depth + 2 */
} dev;

static struct ibv_mr mr = { .lkey = 0x1234 };

static struct fake_sq *fake_sq_of(const struct ibv_qp *qp)
{
	return &dev.sq[qp - dev.qp];
}

static void fake_cqe(uint64_t wr_id, enum ibv_wc_status status,
		     const struct ibv_qp *qp)
{
	struct ibv_wc *wc = &dev.cqe[(dev.cq_head + dev.cq_count) % LOG_MAX];

	assert_true(dev.cq_count < LOG_MAX);
	*wc = (struct ibv_wc){ .wr_id = wr_id,
			       .status = status,
			       .qp_num = qp->qp_num };
	dev.cq_count++;
}

static unsigned int fake_alive_in(const struct fake_sq *sq)
{
	unsigned int i, n = 0;

	for (i = 0; i < sq->count; i++)
		n += !!(sq->wr[(sq->head + i) % SQ_MAX].wr_id & RIO_ALIVE_WR);
	return n;
}

static int fake_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
			  struct ibv_send_wr **bad)
{
	struct fake_sq *sq = fake_sq_of(qp);

	dev.nposts++;
	for (; wr; wr = wr->next) {
		struct fake_wr f = { wr->wr_id, wr->opcode, wr->send_flags,
				     wr->num_sge ? wr->sg_list[0].length : 0 };

		if (dev.fail_post_at &&
		    dev.nposted + 1 == (unsigned int)dev.fail_post_at) {
			*bad = wr;
			return ENOMEM;
		}
		/* The log keeps the first LOG_MAX; the count goes on. */
		if (dev.nposted < LOG_MAX)
			dev.posted[dev.nposted] = f;
		dev.nposted++;
		/* A queue pair in the error state flushes what it is given. */
		if (sq->error) {
			fake_cqe(f.wr_id, IBV_WC_WR_FLUSH_ERR, qp);
			continue;
		}
		/* The client sized the queue: never more in it. */
		assert_true(sq->count < dev.sq_size);
		/* One keepalive in flight per queue pair at most. */
		if (f.wr_id & RIO_ALIVE_WR)
			assert_int_equal(fake_alive_in(sq), 0);
		sq->wr[(sq->head + sq->count) % SQ_MAX] = f;
		sq->count++;
	}
	return 0;
}

/* Executes the oldest request of qp i, as RC does: in order; one in
 * error moves the queue pair to the error state. */
static void fake_run_one(unsigned int i)
{
	struct fake_sq *sq = &dev.sq[i];
	struct fake_wr *f = &sq->wr[sq->head];
	enum ibv_wc_status st = IBV_WC_SUCCESS;

	sq->head = (sq->head + 1) % SQ_MAX;
	sq->count--;
	if (sq->error)
		st = IBV_WC_WR_FLUSH_ERR;
	else if (dev.fail_wr_id && f->wr_id == dev.fail_wr_id)
		st = IBV_WC_REM_ACCESS_ERR;
	if (st != IBV_WC_SUCCESS || f->flags & IBV_SEND_SIGNALED)
		fake_cqe(f->wr_id, st, &dev.qp[i]);
	if (st != IBV_WC_SUCCESS)
		sq->error = true;
}

static int fake_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc)
{
	unsigned int i, ran = 0;
	int got = 0;

	(void)cq;
	for (i = 0; i < QPS_MAX; i++)
		while (dev.sq[i].count && (!dev.run || ran < dev.run)) {
			fake_run_one(i);
			ran++;
		}
	while (got < n && dev.cq_count) {
		wc[got++] = dev.cqe[dev.cq_head];
		dev.cq_head = (dev.cq_head + 1) % LOG_MAX;
		dev.cq_count--;
	}
	/* A client that waits on requests none of which asked would spin
	 * here for ever: fail instead, before its idle checks (every 1024
	 * polls) reach for rdma_cm, which this test has none of. The device
	 * runs at least one request a poll, so legitimate waits are shorter
	 * than a queue. */
	if (!got && ++dev.empty_polls > 1000)
		fail_msg(
			"the client polls an empty CQ: no completion was asked for");
	if (got)
		dev.empty_polls = 0;
	return got;
}

static int fake_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	(void)cq;
	(void)solicited_only;
	return 0;
}

/* The data path moves a queue pair to the error state after a failed
 * post; the device then flushes what it holds. */
int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask)
{
	assert_true(mask & IBV_QP_STATE);
	assert_int_equal(attr->qp_state, IBV_QPS_ERR);
	fake_sq_of(qp)->error = true;
	return 0;
}

static struct rio_opts opts;
static struct thread_data td;
static struct io_u units[DEPTH_MAX];
static char bufs[DEPTH_MAX][64];

/* A connected client as rio_client_new and rio_client_connect leave it,
 * over the fake device: the client's own allocation, then the device's
 * objects and the target's answer as a connection would set them. */
static struct rio_client *client_new(unsigned int depth, unsigned int qps,
				     unsigned int every, unsigned int verb)
{
	struct rio_client *c;
	unsigned int i;

	memset(&dev, 0, sizeof(dev));
	dev.sq_size = depth + 2;
	fio_now = (struct timespec){ 1000, 0 };
	dev.ctx.device = &dev.dev;
	dev.ctx.ops.poll_cq = fake_poll_cq;
	dev.ctx.ops.req_notify_cq = fake_req_notify_cq;
	dev.ctx.ops.post_send = fake_post_send;
	dev.cq.context = &dev.ctx;
	submitted = 0;
	memset(&td, 0, sizeof(td));
	td.o.iodepth = depth;
	opts = (struct rio_opts){ .qps = qps,
				  .signal_every = every,
				  .verb = verb,
				  .stall_timeout = 30 };
	assert_int_equal(rio_client_alloc(&td, &opts, &c), 0);
	c->verbs = &dev.ctx;
	c->cq = &dev.cq;
	c->mr = &mr;
	c->alive_mr = &mr;
	c->length = 1 << 20;
	snprintf(c->peer, sizeof(c->peer), "fake:7471");
	for (i = 0; i < qps; i++) {
		dev.qp[i].context = &dev.ctx;
		dev.qp[i].qp_num = 100 + i;
		dev.id[i].qp = &dev.qp[i];
		c->qps[i].id = &dev.id[i];
		c->qps[i].qp_num = 100 + i;
		c->qps[i].connected = true;
	}
	for (i = 0; i < depth; i++) {
		units[i] = (struct io_u){ .index = i,
					  .ddir = DDIR_WRITE,
					  .offset = (uint64_t)i * 64,
					  .xfer_buf = bufs[i],
					  .xfer_buflen = 64 };
	}
	return c;
}

/* The fake device's objects are the test's: rio_client_delete frees
 * the client's own. */
static void client_free(struct rio_client *c)
{
	unsigned int i;

	for (i = 0; i < c->nqps; i++) {
		c->qps[i].id = NULL;
		c->qps[i].connected = false;
	}
	c->cq = NULL;
	c->mr = NULL;
	c->alive_mr = NULL;
	c->verbs = NULL;
	rio_client_delete(&c);
	assert_null(c);
}

/* What fio's getevents loop takes: up to max units, checked one by one. */
static unsigned int reap(struct rio_client *c, unsigned int min,
			 unsigned int max, struct io_u **got)
{
	int n = rio_client_getevents(c, min, max, NULL);
	int i;

	assert_true(n >= (int)min && n <= (int)max);
	for (i = 0; i < n; i++)
		got[i] = rio_client_event(c, i);
	return (unsigned int)n;
}

static unsigned int signalled(unsigned int from, unsigned int to)
{
	unsigned int i, n = 0;

	for (i = from; i < to; i++)
		n += !!(dev.posted[i].flags & IBV_SEND_SIGNALED);
	return n;
}

/* fio's default iodepth_batch=1: a commit per request. One in every
 * asks, and the request that fills iodepth; each commit is one post. */
static void commits__one_request_each(void **state)
{
	struct rio_client *c = client_new(16, 1, 4, RIO_VERB_WRITE);
	struct io_u *got[16];
	unsigned int i, n;

	(void)state;
	for (i = 0; i < 16; i++) {
		assert_int_equal(rio_client_queue(c, &units[i]), FIO_Q_QUEUED);
		assert_int_equal(rio_client_commit(c), 0);
	}
	assert_int_equal(dev.nposts, 16);
	assert_int_equal(submitted, 16);
	for (i = 0; i < 16; i++)
		assert_int_equal(!!(dev.posted[i].flags & IBV_SEND_SIGNALED),
				 (i + 1) % 4 == 0);
	n = reap(c, 1, 16, got);
	assert_int_equal(n, 16);
	for (i = 0; i < n; i++) {
		assert_ptr_equal(got[i], &units[i]);
		assert_int_equal(got[i]->error, 0);
	}
	assert_int_equal(c->inflight, 0);
	client_free(c);
}

/* fio waits on three requests none of which asked: one nudge, a
 * signalled zero-length RDMA WRITE behind them, retires all three. */
static void nudge__retires_what_asked_for_none(void **state)
{
	struct rio_client *c = client_new(16, 1, 8, RIO_VERB_WRITE);
	struct io_u *got[16];
	unsigned int i;

	(void)state;
	for (i = 0; i < 3; i++)
		rio_client_queue(c, &units[i]);
	rio_client_commit(c);
	assert_int_equal(dev.nposts, 1);
	assert_int_equal(signalled(0, 3), 0);
	assert_int_equal(reap(c, 3, 16, got), 3);
	for (i = 0; i < 3; i++)
		assert_ptr_equal(got[i], &units[i]);
	assert_int_equal(dev.nposted, 4);
	assert_true(dev.posted[3].wr_id & RIO_NUDGE_WR);
	assert_int_equal(dev.posted[3].opcode, IBV_WR_RDMA_WRITE);
	assert_int_equal(dev.posted[3].length, 0);
	assert_true(dev.posted[3].flags & IBV_SEND_SIGNALED);
	/* The device runs one request per poll: the client keeps polling
	 * until the nudge it posted behind the next two comes back. */
	rio_client_queue(c, &units[3]);
	rio_client_queue(c, &units[4]);
	rio_client_commit(c);
	dev.run = 1;
	assert_int_equal(reap(c, 2, 16, got), 2);
	assert_ptr_equal(got[0], &units[3]);
	assert_ptr_equal(got[1], &units[4]);
	assert_int_equal(dev.nposted, 7);
	assert_true(dev.posted[6].wr_id & RIO_NUDGE_WR);
	client_free(c);
}

/* The request that fills iodepth asks, whatever signal_every: fio waits
 * once it is posted, and no nudge is needed. */
static void full__the_request_that_fills_iodepth_asks(void **state)
{
	struct rio_client *c = client_new(8, 1, 64, RIO_VERB_WRITE);
	struct io_u *got[8];
	unsigned int i;

	(void)state;
	for (i = 0; i < 8; i++) {
		rio_client_queue(c, &units[i]);
		rio_client_commit(c);
	}
	assert_int_equal(signalled(0, 7), 0);
	assert_true(dev.posted[7].flags & IBV_SEND_SIGNALED);
	assert_int_equal(reap(c, 1, 8, got), 8);
	assert_int_equal(dev.nposted, 8);
	client_free(c);
}

/* fio waits for fewer than it committed: what the asked-for completions
 * already cover needs no nudge. */
static void nudge__not_when_covered(void **state)
{
	struct rio_client *c = client_new(16, 1, 4, RIO_VERB_WRITE);
	struct io_u *got[16];
	unsigned int i;

	(void)state;
	for (i = 0; i < 6; i++)
		rio_client_queue(c, &units[i]);
	rio_client_commit(c);
	/* The 4th asked: 4 are covered, 2 are not. */
	assert_int_equal(reap(c, 4, 4, got), 4);
	assert_int_equal(dev.nposted, 6);
	/* Now fio waits for the last two: a nudge. */
	assert_int_equal(reap(c, 2, 16, got), 2);
	assert_ptr_equal(got[0], &units[4]);
	assert_ptr_equal(got[1], &units[5]);
	assert_int_equal(dev.nposted, 7);
	client_free(c);
}

/* Round robin over the queue pairs, one chain per queue pair per commit,
 * and a completion retires only its own queue pair's requests. */
static void qps__own_rings(void **state)
{
	struct rio_client *c = client_new(12, 3, 2, RIO_VERB_WRITE);
	struct io_u *got[12];
	unsigned int i, n, seen[12] = { 0 };

	(void)state;
	for (i = 0; i < 12; i++)
		rio_client_queue(c, &units[i]);
	rio_client_commit(c);
	assert_int_equal(dev.nposts, 3);
	for (i = 0; i < 12; i++)
		assert_int_equal(c->qp_of[i], i % 3);
	/* The other queue pairs' requests never complete (as if their
	 * target stalled): nothing of theirs may come back. */
	dev.sq[1].count = dev.sq[2].count = 0;
	n = reap(c, 1, 12, got);
	assert_int_equal(n, 4);
	for (i = 0; i < n; i++)
		assert_ptr_equal(got[i], &units[3 * i]);
	assert_int_equal(c->inflight, 8);
	for (i = 0; i < n; i++)
		seen[got[i]->index]++;
	for (i = 0; i < 12; i++)
		assert_int_equal(seen[i], i % 3 == 0);
	client_free(c);
}

/* A post that fails at its second request: that one and those after it
 * fail at once; the first is flushed by the error state and fails too. */
static void post__failure_fails_the_rest(void **state)
{
	struct rio_client *c = client_new(8, 1, 1, RIO_VERB_WRITE);
	struct io_u *got[8];
	unsigned int i, n;

	(void)state;
	for (i = 0; i < 4; i++)
		rio_client_queue(c, &units[i]);
	dev.fail_post_at = 2;
	log_capture_reset();
	assert_int_equal(rio_client_commit(c), -ENOMEM);
	assert_true(log_capture_has("ibv_post_send(qp 100 to fake:7471)"));
	assert_true(c->dead);
	assert_true(dev.sq[0].error);
	n = reap(c, 4, 8, got);
	assert_int_equal(n, 4);
	/* Those never posted come back first, then the flushed one. */
	for (i = 0; i < 3; i++) {
		assert_ptr_equal(got[i], &units[i + 1]);
		assert_int_equal(got[i]->error, ENOMEM);
	}
	assert_ptr_equal(got[3], &units[0]);
	assert_int_equal(got[3]->error, EIO);
	assert_int_equal(c->inflight, 0);
	/* A dead client takes no more. */
	assert_int_equal(rio_client_queue(c, &units[4]), FIO_Q_COMPLETED);
	assert_int_equal(units[4].error, ENOTCONN);
	client_free(c);
}

/* A request the target refuses fails with EIO and says why; those before
 * it, which RC completed first, succeed; those after are flushed. */
static void completion__error_of_one(void **state)
{
	struct rio_client *c = client_new(8, 1, 4, RIO_VERB_WRITE);
	struct io_u *got[8];
	unsigned int i, n;

	(void)state;
	for (i = 0; i < 8; i++)
		rio_client_queue(c, &units[i]);
	dev.fail_wr_id = (uintptr_t)&units[5];
	rio_client_commit(c);
	log_capture_reset();
	n = reap(c, 8, 8, got);
	assert_int_equal(n, 8);
	for (i = 0; i < 8; i++)
		assert_ptr_equal(got[i], &units[i]);
	for (i = 0; i < 5; i++)
		assert_int_equal(units[i].error, 0);
	for (i = 5; i < 8; i++)
		assert_int_not_equal(units[i].error, 0);
	assert_true(log_capture_has("fake:7471"));
	client_free(c);
}

/* A target without runtime wants keepalives: the first commit writes one
 * after its I/O, an 8-byte RDMA WRITE of the counter to the target's
 * word that asks for a completion; none again before alive_ms, nor while
 * one is in flight; its completion hands fio nothing. */
static void keepalive__after_the_io_once_per_interval(void **state)
{
	struct rio_client *c = client_new(16, 1, 4, RIO_VERB_WRITE);
	struct io_u *got[16];
	unsigned int i, n, back = 0;

	(void)state;
	c->alive_ms = 750;
	c->qps[0].alive_addr = 0x9000;
	c->qps[0].alive_rkey = 0x77;
	rio_client_queue(c, &units[0]);
	assert_int_equal(rio_client_commit(c), 0);
	assert_int_equal(dev.nposted, 2);
	assert_int_equal(dev.posted[0].wr_id, (uintptr_t)&units[0]);
	assert_true(dev.posted[1].wr_id == (RIO_ALIVE_WR | 0));
	assert_int_equal(dev.posted[1].opcode, IBV_WR_RDMA_WRITE);
	assert_int_equal(dev.posted[1].length, 8);
	assert_true(dev.posted[1].flags & IBV_SEND_SIGNALED);
	assert_true(c->alive_vals[0] == 1);
	/* Not again within alive_ms. */
	fio_now.tv_nsec = 749000000;
	rio_client_queue(c, &units[1]);
	rio_client_commit(c);
	assert_int_equal(dev.nposted, 3);
	/* Due, but the first is still in flight. */
	fio_now.tv_nsec = 750000000;
	rio_client_queue(c, &units[2]);
	rio_client_commit(c);
	assert_int_equal(dev.nposted, 4);
	/* Its completion frees the way and hands fio no unit. */
	while (back < 3) {
		n = reap(c, 3 - back, 16, got);
		for (i = 0; i < n; i++)
			assert_ptr_equal(got[i], &units[back + i]);
		back += n;
	}
	assert_false(c->qps[0].alive_busy);
	assert_int_equal(c->inflight, 0);
	rio_client_queue(c, &units[3]);
	rio_client_commit(c);
	assert_true(dev.posted[dev.nposted - 1].wr_id == (RIO_ALIVE_WR | 0));
	assert_true(c->alive_vals[0] == 2);
	/* The next is due alive_ms after that one, completed or not. */
	assert_int_equal(reap(c, 1, 16, got), 1);
	assert_false(c->qps[0].alive_busy);
	rio_ts_add_ms(&fio_now, 749);
	rio_client_queue(c, &units[4]);
	rio_client_commit(c);
	assert_int_equal(dev.posted[dev.nposted - 1].wr_id,
			 (uintptr_t)&units[4]);
	client_free(c);
}

/* A target with a runtime asks for none: nothing but the I/O is posted. */
static void keepalive__none_when_the_target_wants_none(void **state)
{
	struct rio_client *c = client_new(8, 2, 1, RIO_VERB_WRITE);
	struct io_u *got[8];
	unsigned int i;

	(void)state;
	for (i = 0; i < 8; i++) {
		rio_client_queue(c, &units[i]);
		rio_client_commit(c);
		fio_now.tv_sec += 60;
	}
	assert_int_equal(reap(c, 8, 8, got), 8);
	assert_int_equal(dev.nposted, 8);
	for (i = 0; i < dev.nposted; i++)
		assert_false(dev.posted[i].wr_id &
			     (RIO_ALIVE_WR | RIO_NUDGE_WR));
	client_free(c);
}

/* Each queue pair is a connection of its own on the target: each writes
 * its own counter to its own word. */
static void keepalive__one_per_queue_pair(void **state)
{
	struct rio_client *c = client_new(8, 3, 1, RIO_VERB_WRITE);
	struct io_u *got[8];
	unsigned int i, seen = 0;

	(void)state;
	c->alive_ms = 1000;
	for (i = 0; i < 3; i++)
		c->qps[i].alive_addr = 0x9000 + 8 * i;
	for (i = 0; i < 3; i++)
		rio_client_queue(c, &units[i]);
	rio_client_commit(c);
	for (i = 0; i < dev.nposted; i++)
		if (dev.posted[i].wr_id & RIO_ALIVE_WR)
			seen |= 1u << (dev.posted[i].wr_id & 0xff);
	assert_int_equal(seen, 7);
	assert_int_equal(reap(c, 3, 8, got), 3);
	client_free(c);
}

/* A keepalive the target's device refuses (it ended this connection and
 * dropped the word's key): the client says so, naming the target, and
 * takes no more I/O. */
static void keepalive__refused_ends_the_client(void **state)
{
	struct rio_client *c = client_new(8, 1, 1, RIO_VERB_WRITE);
	struct io_u *got[8];

	(void)state;
	c->alive_ms = 1000;
	dev.fail_wr_id = RIO_ALIVE_WR | 0;
	rio_client_queue(c, &units[0]);
	rio_client_commit(c);
	log_capture_reset();
	assert_int_equal(reap(c, 1, 8, got), 1);
	assert_int_equal(got[0]->error, 0);
	assert_true(log_capture_has("keepalive"));
	assert_true(log_capture_has("fake:7471"));
	assert_true(c->dead);
	assert_int_equal(rio_client_queue(c, &units[1]), FIO_Q_COMPLETED);
	assert_int_equal(units[1].error, ENOTCONN);
	client_free(c);
}

/* Many rounds of fio's loop with random batches, waits and device
 * progress: every unit comes back exactly once, in order per queue pair,
 * and never more than iodepth are out. */
static void random__every_unit_once_in_order(void **state)
{
	static const unsigned int shapes[][3] = {
		{ 1, 1, 0 },   { 3, 1, 0 }, { 8, 2, 0 },  { 64, 4, 0 },
		{ 128, 1, 0 }, { 7, 3, 1 }, { 16, 4, 5 }, { 5, 1, 2 },
	};
	unsigned int s;

	(void)state;
	srand(42);
	for (s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
		unsigned int depth = shapes[s][0], qps = shapes[s][1];
		struct rio_client *c =
			client_new(depth, qps, shapes[s][2], RIO_VERB_WRITE);
		unsigned int free_n = depth, round, i,
			     next_seq[QPS_MAX] = { 0 };
		unsigned int seq[DEPTH_MAX], out = 0, back = 0, posted = 0;
		struct io_u *freel[DEPTH_MAX], *got[DEPTH_MAX];

		/* Keepalives in every other shape, due now and then: the
		 * fake device checks the queue never holds more than the
		 * client asked for. */
		c->alive_ms = s % 2 ? 250 : 0;
		for (i = 0; i < depth; i++)
			freel[i] = &units[depth - 1 - i];
		for (round = 0; round < 2000; round++) {
			unsigned int batch = 1 + rand() % depth, n, k;

			/* fio queues while it has free units, committing
			 * after every batch. */
			for (k = 0; k < batch && free_n; k++) {
				struct io_u *u = freel[--free_n];

				seq[u->index] = posted++;
				assert_int_equal(rio_client_queue(c, u),
						 FIO_Q_QUEUED);
				out++;
			}
			rio_client_commit(c);
			assert_true(out <= depth);
			rio_ts_add_ms(&fio_now, rand() % 100);
			dev.run = rand() % 3 ? 0 : 1 + rand() % depth;
			/* Full: fio must wait for at least one. */
			n = reap(c, free_n ? 0 : 1 + rand() % out, depth, got);
			for (k = 0; k < n; k++) {
				unsigned int q = c->qp_of[got[k]->index];

				assert_int_equal(got[k]->error, 0);
				/* In order within a queue pair. */
				assert_true(seq[got[k]->index] >= next_seq[q]);
				next_seq[q] = seq[got[k]->index];
				freel[free_n++] = got[k];
			}
			out -= n;
			back += n;
			assert_int_equal(c->inflight, out);
		}
		/* fio's end: it waits for all that is out. */
		dev.run = 0;
		while (out) {
			unsigned int n = reap(c, out, depth, got);

			out -= n;
			back += n;
		}
		assert_int_equal(back, posted);
		if (c->alive_ms)
			assert_true(c->alive_vals[0] > 100);
		client_free(c);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(commits__one_request_each),
		cmocka_unit_test(nudge__retires_what_asked_for_none),
		cmocka_unit_test(nudge__not_when_covered),
		cmocka_unit_test(full__the_request_that_fills_iodepth_asks),
		cmocka_unit_test(qps__own_rings),
		cmocka_unit_test(post__failure_fails_the_rest),
		cmocka_unit_test(completion__error_of_one),
		cmocka_unit_test(keepalive__after_the_io_once_per_interval),
		cmocka_unit_test(keepalive__none_when_the_target_wants_none),
		cmocka_unit_test(keepalive__one_per_queue_pair),
		cmocka_unit_test(keepalive__refused_ends_the_client),
		cmocka_unit_test(random__every_unit_once_in_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
