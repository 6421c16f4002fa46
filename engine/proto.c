// SPDX-License-Identifier: GPL-2.0
/* Handshake encoding and the checks both sides apply to what the peer
 * sent. Magic, version and status keep their offsets in every version so
 * that a peer speaking another version can still be told so. */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "proto.h"
#include "rio_log.h"

static void put16(uint8_t *p, uint16_t v)
{
	v = htobe16(v);
	memcpy(p, &v, sizeof(v));
}

static void put32(uint8_t *p, uint32_t v)
{
	v = htobe32(v);
	memcpy(p, &v, sizeof(v));
}

static void put64(uint8_t *p, uint64_t v)
{
	v = htobe64(v);
	memcpy(p, &v, sizeof(v));
}

static uint16_t get16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return be16toh(v);
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return be32toh(v);
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return be64toh(v);
}

int rio_hello_encode(const struct rio_hello *h, void *buf, size_t len)
{
	uint8_t *p = buf;

	if (len < RIO_HELLO_LEN)
		return -ENOSPC;
	memset(p, 0, RIO_HELLO_LEN);
	put32(p, RIO_PROTO_MAGIC);
	put16(p + 4, h->version);
	p[6] = h->need;
	put32(p + 8, h->max_bs);
	put64(p + 12, h->span);
	put32(p + 20, h->depth);
	put64(p + 24, h->start);
	return RIO_HELLO_LEN;
}

/* -EPROTO: not our protocol; -EPROTONOSUPPORT: ours, another version
 * (only h->version is filled in then). */
int rio_hello_decode(const void *buf, size_t len, struct rio_hello *h)
{
	const uint8_t *p = buf;

	memset(h, 0, sizeof(*h));
	if (!buf || len < 6 || get32(p) != RIO_PROTO_MAGIC)
		return -EPROTO;
	h->version = get16(p + 4);
	if (h->version != RIO_PROTO_VERSION)
		return -EPROTONOSUPPORT;
	if (len < RIO_HELLO_LEN)
		return -EPROTO;
	h->need = p[6];
	h->max_bs = get32(p + 8);
	h->span = get64(p + 12);
	h->depth = get32(p + 20);
	h->start = get64(p + 24);
	return 0;
}

int rio_reply_encode(const struct rio_reply *r, void *buf, size_t len)
{
	uint8_t *p = buf;

	if (len < RIO_REPLY_LEN)
		return -ENOSPC;
	memset(p, 0, RIO_REPLY_LEN);
	put32(p, RIO_PROTO_MAGIC);
	put16(p + 4, r->version);
	put16(p + 6, r->status);
	put32(p + 8, r->rkey);
	put32(p + 12, r->recv_size);
	p[16] = r->allowed;
	put64(p + 20, r->base);
	put64(p + 28, r->length);
	put32(p + 36, r->alive_s);
	put32(p + 40, r->alive_rkey);
	put64(p + 44, r->alive_addr);
	return RIO_REPLY_LEN;
}

int rio_reply_decode(const void *buf, size_t len, struct rio_reply *r)
{
	const uint8_t *p = buf;

	memset(r, 0, sizeof(*r));
	if (!buf || len < 8 || get32(p) != RIO_PROTO_MAGIC)
		return -EPROTO;
	r->version = get16(p + 4);
	r->status = get16(p + 6);
	if (r->version != RIO_PROTO_VERSION)
		return -EPROTONOSUPPORT;
	if (len < RIO_REPLY_LEN)
		return -EPROTO;
	r->rkey = get32(p + 8);
	r->recv_size = get32(p + 12);
	r->allowed = p[16];
	r->base = get64(p + 20);
	r->length = get64(p + 28);
	r->alive_s = get32(p + 36);
	r->alive_rkey = get32(p + 40);
	r->alive_addr = get64(p + 44);
	return 0;
}

enum rio_status rio_hello_judge(const struct rio_hello *h,
				const struct rio_offer *offer)
{
	if (h->version != RIO_PROTO_VERSION)
		return RIO_STATUS_VERSION;
	if (!h->need || (h->need & ~RIO_NEED_ALL) ||
	    (h->need & ~offer->allowed))
		return RIO_STATUS_VERB;
	/* A span beyond the region wraps, as long as one I/O fits. */
	if ((h->need & RIO_NEED_REGION) &&
	    (h->start >= h->span || h->max_bs > offer->length))
		return RIO_STATUS_SPAN;
	if ((h->need & RIO_NEED_SEND) && h->max_bs > offer->recv_size)
		return RIO_STATUS_BS;
	return RIO_STATUS_OK;
}

const char *rio_status_str(unsigned int status)
{
	static const char *const str[RIO_STATUS_MAX] = {
		[RIO_STATUS_OK] = "accepted",
		[RIO_STATUS_VERSION] = "protocol version mismatch",
		[RIO_STATUS_VERB] = "verb not served by the target",
		[RIO_STATUS_SPAN] = "I/O range beyond the target's region",
		[RIO_STATUS_BS] = "block size above the target's receive size",
		[RIO_STATUS_FULL] = "target already serves all its clients",
		[RIO_STATUS_DEVICE] =
			"connection arrived on another RDMA device",
		[RIO_STATUS_RESOURCES] =
			"target could not create the queue pair",
		[RIO_STATUS_BUSY] =
			"target's slots are held by connections not yet complete",
	};

	if (status >= RIO_STATUS_MAX)
		return "unknown status";
	return str[status];
}

const char *rio_need_str(unsigned int need)
{
	static const char *const str[] = {
		[RIO_NEED_WRITE] = "RDMA WRITE",
		[RIO_NEED_READ] = "RDMA READ",
		[RIO_NEED_WRITE | RIO_NEED_READ] = "RDMA WRITE and READ",
		[RIO_NEED_SEND] = "SEND",
		[RIO_NEED_IMM] = "RDMA WRITE with immediate",
		[RIO_NEED_ATOMIC] = "8-byte atomics",
		[RIO_NEED_ATOMIC | RIO_NEED_READ] =
			"8-byte atomics and RDMA READ",
	};

	if (need < sizeof(str) / sizeof(str[0]) && str[need])
		return str[need];
	return "an unknown verb set";
}

static int rio_reply_refused(const struct rio_reply *r,
			     const struct rio_hello *h, const char *peer)
{
	switch (r->status) {
	case RIO_STATUS_VERB:
		rio_err("target %s refused the connection: this job needs %s but the target serves only %s; start the target with verb=auto or the client's verb",
			peer, rio_need_str(h->need), rio_need_str(r->allowed));
		break;
	case RIO_STATUS_SPAN:
		rio_err("target %s refused the connection: this job addresses region bytes [%" PRIu64
			", %" PRIu64 ") in I/Os of up to %" PRIu32
			" bytes but the target's region has %" PRIu64
			" bytes; lower the client's bs or raise the target's size (listen and size=, or iodepth x bs without listen)",
			peer, h->start, h->span, h->max_bs, r->length);
		break;
	case RIO_STATUS_BS:
		rio_err("target %s refused the connection: this job sends up to %" PRIu32
			" bytes but the target's receives hold %" PRIu32
			"; give the target a bs of at least the client's",
			peer, h->max_bs, r->recv_size);
		break;
	case RIO_STATUS_BUSY:
		rio_err("target %s stayed busy: all its clients= slots were held by connections that had not completed (other clients connecting, or a peer that never completes its hello, which the target drops after %d s); retry, or raise the target's clients=",
			peer, RIO_HELLO_MS / 1000);
		break;
	case RIO_STATUS_FULL:
		rio_err("target %s refused the connection: it has served all the clients it was started for; raise the target's clients=",
			peer);
		break;
	default:
		rio_err("target %s refused the connection: %s (status %u)",
			peer, rio_status_str(r->status), r->status);
		break;
	}
	return -ECONNREFUSED;
}

/* The client's view: is this reply usable for the job described by h? */
int rio_reply_check(const struct rio_reply *r, const struct rio_hello *h,
		    const char *peer)
{
	if (r->version != RIO_PROTO_VERSION) {
		rio_err("target %s speaks rdmaio protocol version %u, this engine speaks %u; use the same librdmaio on both sides",
			peer, r->version, RIO_PROTO_VERSION);
		return -EPROTONOSUPPORT;
	}
	if (r->status != RIO_STATUS_OK)
		return rio_reply_refused(r, h, peer);
	if (h->need & ~r->allowed) {
		rio_err("target %s accepted but does not serve %s; its reply is inconsistent, check the target's librdmaio version",
			peer, rio_need_str(h->need));
		return -EPROTO;
	}
	if (r->alive_s > RIO_STALL_MAX_S || (r->alive_s && !r->alive_addr)) {
		rio_err("target %s sent an invalid keepalive word (every %" PRIu32
			" s at 0x%" PRIx64
			"); check the target's librdmaio version",
			peer, r->alive_s, r->alive_addr);
		return -EPROTO;
	}
	if (!(h->need & RIO_NEED_REGION))
		return 0;
	if (!r->base || r->base + r->length < r->base) {
		rio_err("target %s sent an invalid region (base 0x%" PRIx64
			", %" PRIu64
			" bytes); check the target's librdmaio version",
			peer, r->base, r->length);
		return -EPROTO;
	}
	if (r->length < h->max_bs) {
		rio_err("target %s offers a region of %" PRIu64
			" bytes, this job's I/Os are up to %" PRIu32
			" bytes; raise the target's size (listen and size=, or iodepth x bs without listen)",
			peer, r->length, h->max_bs);
		return -ERANGE;
	}
	return 0;
}
