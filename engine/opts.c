// SPDX-License-Identifier: GPL-2.0
/* Option checks that need no device: run at init, before any resource. */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>

#include "log.h"
#include "opts.h"
#include "proto.h"

const char *rio_verb_name(unsigned int verb)
{
	switch (verb) {
	case RIO_VERB_AUTO:
		return "auto";
	case RIO_VERB_WRITE:
		return "write";
	case RIO_VERB_READ:
		return "read";
	case RIO_VERB_SEND:
		return "send";
	case RIO_VERB_WRITE_IMM:
		return "write_imm";
	case RIO_VERB_FETCH_ADD:
		return "fetch_add";
	case RIO_VERB_CMP_SWAP:
		return "cmp_swap";
	}
	return "unknown";
}

/* The verbs a client job issues: writes are read back when verify is on. */
unsigned int rio_opts_need(const struct rio_opts *o, const struct rio_job *j)
{
	unsigned int need = 0;
	bool writes = j->writes && !j->verify_only;
	bool reads = j->reads || j->verify || j->verify_only;

	switch (o->verb) {
	case RIO_VERB_AUTO:
		if (writes)
			need |= RIO_NEED_WRITE;
		if (reads)
			need |= RIO_NEED_READ;
		break;
	case RIO_VERB_WRITE:
		need = RIO_NEED_WRITE;
		break;
	case RIO_VERB_READ:
		need = RIO_NEED_READ;
		break;
	case RIO_VERB_SEND:
		need = RIO_NEED_SEND;
		break;
	case RIO_VERB_WRITE_IMM:
		need = RIO_NEED_IMM;
		break;
	case RIO_VERB_FETCH_ADD:
	case RIO_VERB_CMP_SWAP:
		need = RIO_NEED_ATOMIC;
		break;
	}
	return need;
}

/* A target grants only the remote access its verb needs; an atomic
 * target's words can also be read, so a client can check what the atomics
 * left there (a counter's value). */
unsigned int rio_opts_allowed(const struct rio_opts *o)
{
	switch (o->verb) {
	case RIO_VERB_AUTO:
		return RIO_NEED_WRITE | RIO_NEED_READ;
	case RIO_VERB_WRITE:
		return RIO_NEED_WRITE;
	case RIO_VERB_READ:
		return RIO_NEED_READ;
	case RIO_VERB_SEND:
		return RIO_NEED_SEND;
	case RIO_VERB_WRITE_IMM:
		return RIO_NEED_IMM;
	case RIO_VERB_FETCH_ADD:
	case RIO_VERB_CMP_SWAP:
		return RIO_NEED_ATOMIC | RIO_NEED_READ;
	}
	return 0;
}

static int rio_opts_check_target(const struct rio_opts *o,
				 const struct rio_job *j)
{
	if (o->hostname && o->hostname[0]) {
		rio_err("target job: 'listen' and 'hostname=%s' are both set; a target listens, a client connects: drop one",
			o->hostname);
		return -EINVAL;
	}
	if (j->writes) {
		rio_err("target job: rw includes writes, but a target only serves and receives; use rw=read (the default) on the target");
		return -EINVAL;
	}
	if (j->verify) {
		rio_err("target job: verify= is set, but a target's data comes from its clients; verify on the client instead");
		return -EINVAL;
	}
	if (!j->size) {
		rio_err("target job: no size= given; set size= to the bytes of memory the target exposes");
		return -EINVAL;
	}
	if (!o->clients) {
		rio_err("target job: clients=0; set clients= to the number of connections to serve (at least 1)");
		return -EINVAL;
	}
	return 0;
}

static int rio_opts_check_client(const struct rio_opts *o,
				 const struct rio_job *j)
{
	const char *verb = rio_verb_name(o->verb);

	if (!o->hostname || !o->hostname[0]) {
		rio_err("client job: no hostname= given; set hostname= to the target's address, or set 'listen' to make this job the target");
		return -EINVAL;
	}
	if (!j->reads && !j->writes) {
		rio_err("client job: rw=trim moves no data, and no RDMA verb trims; use rw=read, write, randread, randwrite, rw or randrw");
		return -EINVAL;
	}
	switch (o->verb) {
	case RIO_VERB_FETCH_ADD:
	case RIO_VERB_CMP_SWAP:
		if (j->min_bs != 8 || j->max_bs != 8) {
			rio_err("client job: verb=%s works on 8-byte words, but bs is %" PRIu64
				"..%" PRIu64 "; set bs=8",
				verb, j->min_bs, j->max_bs);
			return -EINVAL;
		}
		/* An atomic is a write I/O: the write rules apply too. */
		__attribute__((fallthrough));
	case RIO_VERB_WRITE:
	case RIO_VERB_SEND:
	case RIO_VERB_WRITE_IMM:
		if (j->reads || j->verify_only) {
			rio_err("client job: verb=%s only moves data to the target, but rw includes reads; use rw=write, or verb=auto",
				verb);
			return -EINVAL;
		}
		if (j->verify) {
			rio_err("client job: verify= reads the data back, which verb=%s cannot; use verb=auto",
				verb);
			return -EINVAL;
		}
		break;
	case RIO_VERB_READ:
		if (j->writes && !j->verify_only) {
			rio_err("client job: verb=read only reads from the target, but rw includes writes; use rw=read, or verb=auto");
			return -EINVAL;
		}
		break;
	}
	if (j->max_bs > UINT32_MAX) {
		rio_err("client job: bs=%" PRIu64
			" is above the 4 GiB limit of one RDMA work request; lower bs",
			j->max_bs);
		return -EINVAL;
	}
	if (j->span && j->max_bs > j->span) {
		rio_err("client job: bs=%" PRIu64 " is larger than the %" PRIu64
			" bytes of region the job addresses; lower bs or raise size",
			j->max_bs, j->span);
		return -EINVAL;
	}
	if (o->qps > RIO_MAX_QPS || !o->qps) {
		rio_err("client job: qps=%u is outside 1..%u; choose a value in that range",
			o->qps, RIO_MAX_QPS);
		return -EINVAL;
	}
	return 0;
}

int rio_opts_check(const struct rio_opts *o, const struct rio_job *j)
{
	if (o->verb > RIO_VERB_CMP_SWAP) {
		rio_err("verb=%u is unknown; use auto, write, read, send, write_imm, fetch_add or cmp_swap",
			o->verb);
		return -EINVAL;
	}
	if (!o->port || o->port > 65535) {
		rio_err("port=%u is outside 1..65535; choose a free port",
			o->port);
		return -EINVAL;
	}
	if (!j->iodepth) {
		rio_err("iodepth=0; set iodepth to at least 1");
		return -EINVAL;
	}
	if (o->listen)
		return rio_opts_check_target(o, j);
	return rio_opts_check_client(o, j);
}
