/* SPDX-License-Identifier: GPL-2.0 */
/* The client's state, shared by its connection code (client.c) and its
 * data path (client_io.c); not for other files but the data path's unit
 * test (tests/engine/test-client-io.c), which builds one over a fake
 * device. */
#ifndef RIO_CLIENT_IMPL_H
#define RIO_CLIENT_IMPL_H

#include <sys/socket.h>
#include <time.h>

#include "rio_client.h"
#include "cm.h"
#include "sendq.h"

/* A nudge's wr_id: this bit, and its queue pair's index below it. I/O
 * units' wr_ids are their addresses, which never have it set. */
#define RIO_NUDGE_WR (1ull << 63)
/* A keepalive's (alive.h), the same way. */
#define RIO_ALIVE_WR (1ull << 62)

struct rio_cqp {
	struct rdma_cm_id *id;
	bool connected;
	uint32_t qp_num;
	uint32_t rkey; /* this connection's window on the region */
	struct rio_sendq sq; /* its I/O units in flight, oldest first */
	struct ibv_send_wr *first, *last; /* staged since the last commit */
	/* The target's keepalive word for this connection (alive.h). */
	uint64_t alive_addr;
	uint32_t alive_rkey;
	bool alive_busy; /* a keepalive is in flight: one at a time */
	struct timespec alive_next; /* when the next is due, fio's clock */
};

/* cmp_swap swaps a word holding RIO_SWAP_COMPARE for RIO_SWAP_VALUE. */
#define RIO_SWAP_COMPARE 0
#define RIO_SWAP_VALUE 1

struct rio_client {
	struct thread_data *td;
	const struct rio_opts *o;
	char peer[80];
	struct sockaddr_storage addr;
	struct sockaddr_storage src; /* bindname=, when bound */
	bool bound;
	int tos; /* tos=, or -1 */
	struct rdma_event_channel *ch;
	struct ibv_context *verbs;
	struct ibv_device_attr attr;
	struct ibv_pd *pd;
	struct ibv_comp_channel *cc;
	struct rio_cq_sleep *sleep; /* cc, ch and the async fd (use_events) */
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	uint64_t base, length;
	bool wrap; /* the job addresses more than the region: rio_wrap() */
	uint32_t inline_max;
	enum ibv_wr_opcode write_op, read_op; /* by fio's direction */
	unsigned int depth;
	unsigned int next_qp;
	struct ibv_send_wr *wr; /* indexed by io_u->index */
	struct ibv_sge *sge;
	struct io_u **staged;
	unsigned int nstaged;
	unsigned char *qp_of; /* by io_u->index: the queue pair it went on */
	unsigned int inflight; /* staged or posted, not yet completed */
	struct io_u **ready; /* completed, not yet handed to fio */
	unsigned int rmask; /* ready's size - 1, a power of two less one */
	unsigned int rhead, rcount, rgiven;
	struct ibv_wc *wc;
	uint8_t port; /* the device port the queue pairs use */
	struct timespec port_checked, port_down_since;
	/* Since when no completion came while I/Os were in flight: kept
	 * across getevents calls, so short fio timeouts cannot reset it. */
	struct timespec idle_since;
	long alive_ms; /* between keepalives; 0: the target wants none */
	uint64_t *alive_vals; /* by queue pair: the counters they write */
	struct ibv_mr *alive_mr;
	bool alive_told;
	bool async_told;
	bool dead;
	struct timespec dead_since; /* when getevents first saw dead */
	bool flush_told;
	/* cmp_swap: completed compares, and those that found the compare
	 * value and swapped. */
	uint64_t compared, swapped;
	unsigned int nqps;
	struct rio_cqp qps[];
};

int rio_client_alloc(struct thread_data *td, const struct rio_opts *o,
		     struct rio_client **out);

#endif
