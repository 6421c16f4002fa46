// SPDX-License-Identifier: GPL-2.0
/* Option checks that need no device: run at init, before any resource. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>

#include "opts.h"
#include "proto.h"
#include "rio_log.h"

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
	case RIO_VERB_RECV:
		return "recv";
	}
	return "unknown";
}

/* As in fio's rdma engine (and perftest), the side given no address to
 * reach is the one that waits: a job without hostname= is the target. */
bool rio_opts_target(const struct rio_opts *o)
{
	return o->listen || !o->hostname || !o->hostname[0];
}

/* The traffic class byte of tos=: -1 in *tos when unset. RoCE carries it
 * as the IP header's TOS (DSCP in the upper six bits, ECN in the lower
 * two), which is what a lossless fabric's switches classify by. */
int rio_opts_tos(const struct rio_opts *o, int *tos)
{
	const char *s = o->tos, *digits;
	bool hex;
	char *end;
	long v;

	*tos = -1;
	if (!s)
		return 0;
	/* Decimal or 0x hex; a leading 0 is not octal, as one would read
	 * "tos=010". */
	hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	digits = hex ? s + 2 : s;
	v = -1;
	if (hex ? isxdigit((unsigned char)digits[0])
		: isdigit((unsigned char)digits[0]))
		v = strtol(digits, &end, hex ? 16 : 10);
	if (v < 0 || *end || v > 255) {
		rio_err("tos=%s is not a traffic class in 0..255; give the IP TOS byte, DSCP x 4 + ECN (tos=106 is DSCP 26 with ECN, common for lossless RoCE)",
			o->tos);
		return -EINVAL;
	}
	*tos = (int)v;
	return 0;
}

/* A target with 'listen' exposes size= bytes. One in fio's rdma style
 * (no listen, no hostname) exposes what fio's rdma server does, its
 * iodepth buffers of bs bytes: its job files give the server the
 * client's size= (100g in fio's example), which no host could pin. */
uint64_t rio_opts_region(const struct rio_opts *o, const struct rio_job *j)
{
	if (o->listen)
		return j->size;
	return (uint64_t)j->iodepth * j->max_bs;
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
		/* SENDs touch no region byte, only the target's receive
		 * buffers: fio's rdma server, which names no verb, takes
		 * them too. */
		return RIO_NEED_WRITE | RIO_NEED_READ | RIO_NEED_SEND;
	case RIO_VERB_WRITE:
		return RIO_NEED_WRITE;
	case RIO_VERB_READ:
		return RIO_NEED_READ;
	case RIO_VERB_SEND:
	case RIO_VERB_RECV:
		return RIO_NEED_SEND;
	case RIO_VERB_WRITE_IMM:
		return RIO_NEED_IMM;
	case RIO_VERB_FETCH_ADD:
	case RIO_VERB_CMP_SWAP:
		return RIO_NEED_ATOMIC | RIO_NEED_READ;
	}
	return 0;
}

/* How a target came to be one, for its messages. */
static const char *rio_opts_role(const struct rio_opts *o)
{
	return o->listen ? "target job"
			 : "target job (no hostname=, so the target)";
}

static int rio_opts_check_target(const struct rio_opts *o,
				 const struct rio_job *j)
{
	const char *role = rio_opts_role(o);

	if (o->hostname && o->hostname[0]) {
		rio_err("target job: 'listen' and 'hostname=%s' are both set; a target listens, a client connects: drop one",
			o->hostname);
		return -EINVAL;
	}
	if (j->writes) {
		rio_err("%s: rw includes writes, but a target only serves and receives; use rw=read (the default) on the target%s",
			role,
			o->listen
				? ""
				: ", or give a client job hostname= (the target's address)");
		return -EINVAL;
	}
	if (j->verify) {
		rio_err("%s: verify= is set, but a target's data comes from its clients; verify on the client instead",
			role);
		return -EINVAL;
	}
	if (!rio_opts_region(o, j)) {
		rio_err("target job: no size= given; set size= to the bytes of memory the target exposes");
		return -EINVAL;
	}
	if (o->tos) {
		rio_err("%s: tos= is the client's: a connection's traffic class is the one the client's connection request carries, and the target answers in it; set tos= on the client job",
			role);
		return -EINVAL;
	}
	if (!o->clients) {
		rio_err("%s: clients=0; set clients= to the number of connections to serve (at least 1)",
			role);
		return -EINVAL;
	}
	if (!o->listen)
		rio_warn(
			"target job: no hostname= and no 'listen': this job is the target, as fio's rdma server is; it exposes iodepth x bs = %" PRIu64
			" bytes as fio's rdma does (not size=); set 'listen' to expose size= bytes",
			rio_opts_region(o, j));
	return 0;
}

/* fio's rdma engine takes verb= as the client's whatever its rw, and fio
 * counts each I/O in rw's direction: say so, for the figures' sake. */
static int rio_opts_check_direction(const struct rio_opts *o,
				    const struct rio_job *j)
{
	const char *verb = rio_verb_name(o->verb);

	if (o->verb == RIO_VERB_READ) {
		/* rw=read with verify= checks what it reads, as on a disk. */
		if (j->verify && j->writes) {
			rio_err("client job: verify= checks what the job wrote, but with verb=read it writes nothing; use verb=auto");
			return -EINVAL;
		}
		if (j->writes && !j->verify_only)
			rio_warn(
				"client job: verb=read with rw writing: every I/O is an RDMA READ from the target, as in fio's rdma engine, but fio counts the writes: read the write figures as RDMA READ");
		return 0;
	}
	if (j->verify || j->verify_only) {
		rio_err("client job: verify= reads the data back, which verb=%s cannot; use verb=auto",
			verb);
		return -EINVAL;
	}
	if (j->reads)
		rio_warn(
			"client job: verb=%s with rw reading: every I/O is a %s to the target, as in fio's rdma engine, but fio counts the reads: read the read figures as %s",
			verb, verb, verb);
	return 0;
}

static int rio_opts_check_client(const struct rio_opts *o,
				 const struct rio_job *j)
{
	const char *verb = rio_verb_name(o->verb);
	int ret;

	if (!j->reads && !j->writes) {
		rio_err("client job: rw=trim moves no data, and no RDMA verb trims; use rw=read, write, randread, randwrite, rw or randrw");
		return -EINVAL;
	}
	switch (o->verb) {
	case RIO_VERB_RECV:
		rio_err("client job: verb=recv is the target's side of a SEND; use verb=send on the client (its target needs no verb)");
		return -EINVAL;
	case RIO_VERB_FETCH_ADD:
	case RIO_VERB_CMP_SWAP:
		if (j->min_bs != 8 || j->max_bs != 8) {
			rio_err("client job: verb=%s works on 8-byte words, but bs is %" PRIu64
				"..%" PRIu64 "; set bs=8",
				verb, j->min_bs, j->max_bs);
			return -EINVAL;
		}
		break;
	}
	if (o->verb != RIO_VERB_AUTO) {
		ret = rio_opts_check_direction(o, j);
		if (ret)
			return ret;
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
	if (o->hugepages) {
		rio_err("client job: hugepages puts the target's region in huge pages, and a client has none (its buffers are fio's); drop hugepages, or set iomem=mmaphuge for fio's buffers");
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
	int tos;

	if (o->verb > RIO_VERB_RECV) {
		rio_err("verb=%u is unknown; use auto, write, read, send, write_imm, fetch_add, cmp_swap, or recv on a target",
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
	if (o->device && !o->device[0]) {
		rio_err("device= is empty; name an RDMA device (rdma link show lists them) or drop device=");
		return -EINVAL;
	}
	if (rio_opts_tos(o, &tos))
		return -EINVAL;
	if (rio_opts_target(o))
		return rio_opts_check_target(o, j);
	return rio_opts_check_client(o, j);
}
