/* SPDX-License-Identifier: MIT */
/*
 * The server's kernel settings as the field tunes them for NFS: the socket
 * buffer limits (net.core.rmem_max/wmem_max and the limits of TCP's window
 * autotuning, net.ipv4.tcp_rmem/tcp_wmem) and the credits svcrdma grants
 * each RDMA connection (sunrpc.svc_rdma.max_requests). A setting is only
 * raised: a value below the kernel's own would make things worse and is
 * refused before anything changes. Each setting's value before nfsrdma first
 * changed it is recorded in NR_RUN_DIR/settings before the write, and put
 * back by server stop.
 */
#ifndef NR_TUNING_H
#define NR_TUNING_H

struct nr_tuning_req {
	int sock_buf; /* bytes; 0: the kernel's limits stay */
	int rdma_requests; /* 0: the kernel's credits stay */
};

/*
 * Refuses, saying why and what to give instead, a request below the value
 * the kernel had before nfsrdma changed it (-EINVAL), or for a setting the
 * kernel lacks (-ENOENT). Changes nothing.
 */
int nr_tuning_check(const struct nr_tuning_req *req);

/* What one nr_tuning_apply() changed, for nr_tuning_undo(). */
struct nr_tuning_undo {
	unsigned changed; /* bit i: setting i was written */
	unsigned added; /* bit i: setting i was recorded by this apply */
	long before[8][3]; /* setting i as it was before this apply */
};

/*
 * Records and writes each requested setting, reading it back; says what it
 * changed, into u as well. Returns 0 or -errno after saying why; u then
 * holds what was changed before the failure.
 */
int nr_tuning_apply(const struct nr_tuning_req *req, struct nr_tuning_undo *u);

/*
 * Undoes one apply (a start that failed): writes back each setting it
 * changed as it was before it, and drops from the record what it added,
 * whatever an earlier start recorded staying. 0, or -errno after saying
 * why.
 */
int nr_tuning_undo(const struct nr_tuning_undo *u);

/*
 * Puts back every recorded setting and reads it back; the record goes once
 * all are back (one that is not stays recorded, said). 0 also when there is
 * no record.
 */
int nr_tuning_restore(void);

/* Prints each setting's value now, and what it was where nfsrdma changed
 * it. */
void nr_tuning_print(void);

#endif
