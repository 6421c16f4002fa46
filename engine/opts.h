/* SPDX-License-Identifier: GPL-2.0 */
/* The engine's fio options and their checks against the job. */
#ifndef RIO_OPTS_H
#define RIO_OPTS_H

#include <stdbool.h>
#include <stdint.h>

enum rio_verb {
	RIO_VERB_AUTO = 0,
	RIO_VERB_WRITE,
	RIO_VERB_READ,
	RIO_VERB_SEND,
	RIO_VERB_WRITE_IMM,
	RIO_VERB_FETCH_ADD,
	RIO_VERB_CMP_SWAP,
	/* fio's rdma engine names the SEND target's side so: a target
	 * only. */
	RIO_VERB_RECV,
};

#define RIO_DEFAULT_PORT 7471
#define RIO_MAX_QPS 64

/* inline's default: WRITEs and SENDs this small carry their data in the
 * work request, which spares the device a read of the buffer (and
 * Soft-RoCE a mapping of it); devices that take no inline data at this
 * size get none. */
#define RIO_INLINE_AUTO 64

/* Filled in by fio's option parser. */
struct rio_opts {
	void *pad; /* offset 0 belongs to fio: it stores td there */
	unsigned int listen;
	char *hostname;
	char *bindname;
	unsigned int port;
	unsigned int verb;
	unsigned int connect_timeout; /* seconds */
	unsigned int stall_timeout; /* seconds without a completion */
	unsigned int clients;
	unsigned int qps;
	int inline_size; /* -1: RIO_INLINE_AUTO where the device takes it */
	unsigned int use_events;
	unsigned int signal_every; /* 0: from iodepth and qps */
	char *device; /* the RDMA device the connection must use */
	char *tos; /* client: the IP traffic class byte, unset when NULL */
	unsigned int hugepages; /* target: the region in huge pages */
};

/* The parts of a fio job the options are checked against. */
struct rio_job {
	bool reads; /* rw includes reads */
	bool writes; /* rw includes writes */
	bool verify; /* verify= is set: writes are read back */
	bool verify_only;
	uint64_t min_bs;
	uint64_t max_bs;
	uint64_t size; /* size= */
	uint64_t start; /* client: the lowest byte addressed */
	uint64_t span; /* client: end of the highest byte addressed */
	unsigned int iodepth;
};

bool rio_opts_target(const struct rio_opts *o);
int rio_opts_tos(const struct rio_opts *o, int *tos);
uint64_t rio_opts_region(const struct rio_opts *o, const struct rio_job *j);
int rio_opts_check(const struct rio_opts *o, const struct rio_job *j);
unsigned int rio_opts_need(const struct rio_opts *o, const struct rio_job *j);
unsigned int rio_opts_allowed(const struct rio_opts *o);
const char *rio_verb_name(unsigned int verb);

#endif
