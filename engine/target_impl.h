/* SPDX-License-Identifier: GPL-2.0 */
/* The target's state, shared by its connection code (target.c) and its
 * data path (target_io.c); not for other files. */
#ifndef RIO_TARGET_IMPL_H
#define RIO_TARGET_IMPL_H

#include "alive.h"
#include "cm.h"
#include "proto.h"
#include "slots.h"
#include "target.h"

struct rio_tconn {
	struct rdma_cm_id *id;
	struct ibv_mr *mr; /* the region bytes this client declared */
	char peer[80];
	bool established;
	bool sends; /* its client sends: the target busy-polls for it */
	struct timespec port_checked, port_down_since;
	struct timespec accepted; /* for RIO_HELLO_MS */
	/* Its client's keepalive word, written by the device alone
	 * (alive.h), and its registration, this connection's own. */
	uint64_t word;
	struct ibv_mr *word_mr;
	struct rio_alive alive;
	struct rio_tconn *next;
};

struct rio_target {
	struct thread_data *td;
	const struct rio_opts *o;
	char where[80];
	struct rdma_event_channel *ch;
	struct rdma_cm_id *listen_id;
	struct ibv_context **devs;
	struct ibv_context *verbs;
	struct ibv_device_attr attr;
	struct ibv_pd *pd;
	struct ibv_comp_channel *cc;
	struct rio_cq_sleep *sleep; /* cc, ch and the async fd (use_events) */
	struct ibv_cq *cq;
	struct ibv_srq *srq;
	void *region;
	size_t region_len;
	size_t map_len; /* region_len, rounded up to whole huge pages */
	int region_access; /* what each connection's MR grants */
	struct ibv_mr *io_mr;
	struct rio_offer offer;
	struct rio_tconn *conns;
	struct rio_slots slots;
	/* stall_timeout when it has no runtime: a connection whose
	 * keepalives stop for this long is ended. 0: never. */
	uint32_t alive_s;
	struct timespec looked; /* when its connections were last checked */
	unsigned int foreign; /* peers refused that sent no rdmaio hello */
	unsigned int silenced; /* connections ended for their silence */
	bool receives; /* its I/O units are receives posted to the SRQ */
	bool spin; /* busy-poll the CQ: a client sends (or will) */
	bool spin_always; /* its verb is the SEND side's */
	unsigned int senders; /* connected clients that send */
	bool finished;
	bool depth_told;
	bool linger_told;
	bool async_told;
	unsigned int depth;
	struct io_u **staged;
	unsigned int nstaged;
	/* Receives fio handed back, posted as one list when it next waits:
	 * by io_u->index. */
	struct ibv_recv_wr *rwr;
	struct ibv_sge *rsge;
	struct ibv_recv_wr *repost, **repost_tail;
	struct io_u **ready;
	unsigned int rmask; /* ready's size - 1, a power of two less one */
	unsigned int rhead, rcount, rgiven;
	struct timespec watched; /* when a spinning target last looked */
	struct ibv_wc *wc;
	struct timespec start;
};

int rio_target_watch(struct rio_target *t, int timeout_ms);

#endif
