// SPDX-License-Identifier: GPL-2.0
/* The target's data path: with send/write_imm (and auto, for a client
 * that sends) each I/O unit is a receive posted to the SRQ and completes
 * as a read of the bytes that arrived; otherwise units are only held
 * while getevents serves connections. */
#include <errno.h>
#include <stdio.h>
#include <time.h>

#include "async.h"
#include "clock.h"
#include "cq.h"
#include "errmsg.h"
#include "rio_log.h"
#include "target_impl.h"

enum fio_q_status rio_target_queue(struct rio_target *t, struct io_u *io_u)
{
	struct ibv_recv_wr *wr;
	struct ibv_sge *sge;

	if (io_u->ddir != DDIR_READ) {
		io_u->error = EINVAL;
		return FIO_Q_COMPLETED;
	}
	/* Once served, units are only held while fio takes the last
	 * completions. Otherwise the receive joins the list that goes to
	 * the SRQ when fio next waits: one post for every unit fio handed
	 * back, whatever its iodepth_batch. */
	if (t->receives && !t->finished) {
		wr = &t->rwr[io_u->index];
		sge = &t->rsge[io_u->index];
		sge->addr = (uintptr_t)io_u->xfer_buf;
		sge->length = io_u->xfer_buflen;
		sge->lkey = t->io_mr->lkey;
		*wr = (struct ibv_recv_wr){ .wr_id = (uintptr_t)io_u,
					    .sg_list = sge,
					    .num_sge = 1 };
		*t->repost_tail = wr;
		t->repost_tail = &wr->next;
	}
	/* Without receives the unit only marks the target as busy. */
	t->staged[t->nstaged++] = io_u;
	return FIO_Q_QUEUED;
}

static void rio_target_ready(struct rio_target *t, struct io_u *io_u)
{
	t->ready[(t->rhead + t->rcount) & t->rmask] = io_u;
	t->rcount++;
}

/* Posts the receives fio handed back since it last waited; those the SRQ
 * refuses complete at once with its error. */
static void rio_target_repost(struct rio_target *t)
{
	struct ibv_recv_wr *bad = NULL;
	int ret;

	if (!t->repost)
		return;
	ret = ibv_post_srq_recv(t->srq, t->repost, &bad);
	if (ret) {
		rio_err_call(ret, "ibv_post_srq_recv(target %s)", t->where);
		for (; bad; bad = bad->next) {
			struct io_u *io_u =
				(struct io_u *)(uintptr_t)bad->wr_id;

			io_u->error = ret;
			rio_target_ready(t, io_u);
		}
	}
	t->repost = NULL;
	t->repost_tail = &t->repost;
}

int rio_target_commit(struct rio_target *t)
{
	struct thread_data *td = t->td;
	struct timespec now;
	unsigned int i;

	if (!t->nstaged)
		return 0;
	if (fio_fill_issue_time(td)) {
		fio_gettime(&now, NULL);
		for (i = 0; i < t->nstaged; i++) {
			t->staged[i]->issue_time = now;
			io_u_queued(td, t->staged[i]);
		}
	}
	io_u_mark_submit(td, t->nstaged);
	t->nstaged = 0;
	return 0;
}

static int rio_target_reap(struct rio_target *t)
{
	char msg[512];
	int n, i;

	if (!t->receives)
		return 0;
	n = ibv_poll_cq(t->cq, t->depth, t->wc);
	if (n < 0) {
		rio_err_call(-n, "ibv_poll_cq(target %s)", t->where);
		return -EIO;
	}
	for (i = 0; i < n; i++) {
		const struct ibv_wc *wc = &t->wc[i];
		struct io_u *io_u = (struct io_u *)(uintptr_t)wc->wr_id;

		if (wc->status == IBV_WC_SUCCESS) {
			/* A message shorter than the buffer is a whole I/O of
			 * its own size; as a short read fio would requeue the
			 * rest and not count these bytes. */
			io_u->xfer_buflen = wc->byte_len;
			io_u->resid = 0;
		} else {
			io_u->error = EIO;
			rio_wc_errmsg(msg, sizeof(msg), wc, "receive",
				      io_u->offset, io_u->xfer_buflen,
				      "(any client)");
			rio_err("target job: %s", msg);
		}
		rio_target_ready(t, io_u);
	}
	return n;
}

/* use_events: arm, reap what raced in, else sleep a little on the
 * channel. Woken by the CQ alone, it reaps at once: the caller looks at
 * connection and device events only after a sleep that ended otherwise
 * (their descriptors share the sleep's epoll set, so none waits unseen). */
static int rio_target_sleep(struct rio_target *t)
{
	int ret;

	ret = ibv_req_notify_cq(t->cq, 0);
	if (ret) {
		rio_err_call(ret, "ibv_req_notify_cq(target %s)", t->where);
		return -ret;
	}
	ret = rio_target_reap(t);
	if (ret)
		return ret;
	ret = rio_cq_wait(t->sleep);
	if (ret < 0)
		return ret;
	return ret == RIO_CQ_WOKE ? rio_target_reap(t) : 0;
}

/* fio's exitall_on_error ends the other jobs only when a job fails after
 * its I/O began: one that fails in init or post_init, like a client whose
 * options are refused or that finds no target, skips it (fio 3.33,
 * thread_main's "goto err"), and its target would wait for it until its
 * runtime ends. Look for such a job the way fio_terminate_threads would
 * have picked this one. fio's job table is shared memory: reads only. */
static const struct thread_data *rio_target_peer_failed(struct rio_target *t)
{
	const struct thread_data *td = t->td, *other;
	int i;

	for_each_td(other, i)
	{
		if (other == td || !other->error || !other->o.exitall_error ||
		    other->runstate < TD_EXITED)
			continue;
		if (other->o.exit_what != TERMINATE_GROUP ||
		    other->groupid == td->groupid)
			return other;
	}
	return NULL;
}

/* Clients that share the target's runtime started after it and end after
 * it: those still connected when it ends are served this much longer. */
#define RIO_TARGET_LINGER_MS 10000

static long rio_target_runtime_ms(const struct rio_target *t)
{
	const struct thread_data *td = t->td;

	return (long)((td->o.timeout + td->o.ramp_time) / 1000);
}

static bool rio_target_lingers(struct rio_target *t)
{
	long over;

	if (!t->td->o.timeout || !t->conns)
		return false;
	over = rio_ms_since(&t->start) - rio_target_runtime_ms(t);
	if (over < 0)
		return false;
	if (over < RIO_TARGET_LINGER_MS)
		return true;
	if (!t->linger_told) {
		t->linger_told = true;
		rio_err("target job: its runtime ended %d s ago and client %s is still connected; ending it now (give the clients a shorter runtime than the target's, or none)",
			RIO_TARGET_LINGER_MS / 1000, t->conns->peer);
	}
	return false;
}

/* Served: every client came and went, or the runtime (and its linger)
 * is over. */
static bool rio_target_served(struct rio_target *t)
{
	if (rio_slots_served(&t->slots))
		return true;
	return t->td->o.timeout &&
	       rio_ms_since(&t->start) >= rio_target_runtime_ms(t) &&
	       !rio_target_lingers(t);
}

/* Device errors outside any completion end the job. */
static int rio_target_async(struct rio_target *t)
{
	char what[128];
	int ret;

	ret = rio_async_fatal(t->verbs, NULL, 0, t->cq, what, sizeof(what));
	if (ret < 0 && !t->async_told) {
		t->async_told = true;
		rio_err_call(-ret, "ibv_get_async_event(%s)",
			     ibv_get_device_name(t->verbs->device));
		rio_cq_sleep_forget(t->sleep, t->verbs->async_fd);
	}
	if (ret <= 0)
		return 0;
	rio_err("target job: RDMA device %s reported %s; check the kernel log (dmesg) and 'rdma link show'",
		ibv_get_device_name(t->verbs->device), what);
	return -EIO;
}

/* A target busy-polling for receives looks at connection and device
 * events once a millisecond: polls between are the CQ's alone, with no
 * syscall (the clock is the vDSO's) and no yield. */
#define RIO_TARGET_LOOK_NS 1000000L

static bool rio_target_look(struct rio_target *t, unsigned int spins)
{
	struct timespec now;

	if (spins & 63)
		return false;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if ((now.tv_sec - t->watched.tv_sec) * 1000000000L + now.tv_nsec -
		    t->watched.tv_nsec <
	    RIO_TARGET_LOOK_NS)
		return false;
	t->watched = now;
	return true;
}

int rio_target_getevents(struct rio_target *t, unsigned int min,
			 unsigned int max, const struct timespec *ts)
{
	struct thread_data *td = t->td;
	const struct thread_data *peer;
	struct timespec start;
	unsigned int spins = 0;
	int ret;

	t->rhead = (t->rhead + t->rgiven) & t->rmask;
	t->rcount -= t->rgiven;
	t->rgiven = 0;
	rio_target_repost(t);
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (t->rcount < min && !t->finished) {
		ret = rio_target_reap(t);
		if (ret < 0)
			return ret;
		if (ret)
			continue;
		if (t->cc) {
			ret = rio_target_sleep(t);
			if (ret < 0)
				return ret;
			if (ret)
				continue;
		} else if (t->spin && !rio_target_look(t, ++spins)) {
			continue;
		}
		/* Receives want busy polling; a one-sided target only waits
		 * for connection events, so it sleeps in poll(). */
		ret = rio_target_watch(t, t->spin ? 0 : 10);
		if (!ret)
			ret = rio_target_async(t);
		if (ret)
			return ret;
		if (rio_target_served(t)) {
			/* Receives that landed before the last disconnect
			 * are still counted. */
			if (rio_target_reap(t) < 0)
				return -EIO;
			t->finished = true;
			/* It served them all, but not every one to its end:
			 * the run is not one to take figures from. */
			if (t->silenced)
				td_verror(
					td, ETIMEDOUT,
					"rdmaio target: a client went silent");
			break;
		}
		if (!td->terminate && (peer = rio_target_peer_failed(t))) {
			rio_err("target job: ending early: job '%s' failed and has exitall_on_error set; its message above names the cause",
				peer->o.name);
			fio_mark_td_terminate(td);
		}
		/* fio ends a job at its runtime by setting terminate. */
		if (td->terminate && !rio_target_lingers(t))
			break;
		/* No early return otherwise: with every unit held, fio
		 * would find none free and end the job. */
		if (ts && rio_ms_since(&start) >= rio_ts_ms(ts))
			break;
	}
	t->rgiven = t->rcount < max ? t->rcount : max;
	/* Served, and every completion handed to fio (it may take fewer
	 * than we have per call): nothing will arrive any more, and the
	 * receive buffers' MR must go before fio frees them. */
	if (t->finished && t->rgiven == t->rcount) {
		td->done = 1;
		rio_target_close(t);
	}
	return t->rgiven;
}

struct io_u *rio_target_event(struct rio_target *t, int i)
{
	return t->ready[(t->rhead + i) & t->rmask];
}
