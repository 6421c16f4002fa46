/* SPDX-License-Identifier: GPL-2.0 */
/* The client role: connects qps= queue pairs to a target and turns fio
 * I/O units into RDMA work requests at region base + io_u offset. */
#ifndef RIO_CLIENT_H
#define RIO_CLIENT_H

#include "fio.h"

#include "opts.h"
#include "proto.h"

struct rio_client;

int rio_client_new(struct thread_data *td, const struct rio_opts *o,
		   struct rio_client **out);
int rio_client_connect(struct rio_client *c, const struct rio_hello *hello);
enum fio_q_status rio_client_queue(struct rio_client *c, struct io_u *io_u);
int rio_client_commit(struct rio_client *c);
int rio_client_getevents(struct rio_client *c, unsigned int min,
			 unsigned int max, const struct timespec *t);
struct io_u *rio_client_event(struct rio_client *c, int i);
/* At the job's end: what the job's compare-and-swaps found. */
void rio_client_report(const struct rio_client *c);
void rio_client_close(struct rio_client *c);
void rio_client_delete(struct rio_client **c);

#endif
