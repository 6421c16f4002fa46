/* SPDX-License-Identifier: MIT */
/*
 * The kernel NFS server through its control files in /proc/fs/nfsd. The
 * order of writes matters: versions, grace and lease return EBUSY once the
 * first listener exists, so nr_nfsd_plan() decides the steps and
 * nr_nfsd_start() only carries them out.
 */
#ifndef NR_NFSD_H
#define NR_NFSD_H

#include <stddef.h>

#include "rc_status.h"
#include "tuning.h"

enum nr_nfsd_step {
	NR_NFSD_VERSIONS,
	NR_NFSD_GRACE,
	NR_NFSD_LEASE,
	NR_NFSD_TCP,
	NR_NFSD_RDMA,
	NR_NFSD_THREADS,
	NR_NFSD_NSTEPS
};

struct nr_nfsd_req {
	int rdma_port;
	int tcp_port;
	int threads; /* 0: 8 on a fresh start, unchanged on a running one */
	char versions[64]; /* as written to the versions file */
	int grace; /* seconds; 0: leave the kernel's */
	int lease;
	struct nr_tuning_req tune; /* raised before the listeners start */
};

struct nr_nfsd_state {
	int running; /* the portlist has a listener */
	int has_rdma; /* ... and "rdma <rdma_port>" among them */
	int threads;
};

/*
 * Turns "3,4.1,4.2" into the versions-file line "-2 +3 -4 ..." form;
 * -EINVAL (explained) for an unknown version.
 */
int nr_nfsd_versions_line(const char *list, char *out, size_t len);

/* Fills steps in write order; returns their count. */
int nr_nfsd_plan(const struct nr_nfsd_req *req, const struct nr_nfsd_state *st,
		 enum nr_nfsd_step *steps);

const char *nr_nfsd_step_name(enum nr_nfsd_step step);

/* Reads portlist and threads (nfsd fs must be mounted). */
int nr_nfsd_read_state(int rdma_port, struct nr_nfsd_state *st);

/* 1 when portlist has the line "<proto> <port>". */
int nr_nfsd_portlist_has(const char *portlist, const char *proto, int port);

int nr_nfsd_start(const struct nr_nfsd_req *req, int persist);
int nr_nfsd_stop(void);
int nr_nfsd_print_status(void);

/* Writes the nfs.conf drop-in that keeps RDMA across nfs-server restarts. */
int nr_nfsd_persist(int rdma_port);

#endif
