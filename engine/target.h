/* SPDX-License-Identifier: GPL-2.0 */
/* The target role: exposes a region of the job's size to clients=N
 * connections and, for send/write_imm, turns receives into fio reads. */
#ifndef RIO_TARGET_H
#define RIO_TARGET_H

#include "fio.h"

#include "opts.h"

struct rio_target;

int rio_target_new(struct thread_data *td, const struct rio_opts *o,
		   uint64_t region_len, struct rio_target **out);
int rio_target_post_init(struct rio_target *t);
enum fio_q_status rio_target_queue(struct rio_target *t, struct io_u *io_u);
int rio_target_commit(struct rio_target *t);
int rio_target_getevents(struct rio_target *t, unsigned int min,
			 unsigned int max, const struct timespec *ts);
struct io_u *rio_target_event(struct rio_target *t, int i);
void rio_target_close(struct rio_target *t);
void rio_target_delete(struct rio_target **t);

#endif
