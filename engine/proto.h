/* SPDX-License-Identifier: GPL-2.0 */
/* The connection handshake carried in rdma_cm private data: the client's
 * hello in the connect request, the target's reply in the accept (or the
 * reject). Big-endian on the wire, fixed layout, versioned. */
#ifndef RIO_PROTO_H
#define RIO_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define RIO_PROTO_MAGIC 0x5244494fu /* "RDIO" */
#define RIO_PROTO_VERSION 5

/* What a client's verbs need from the target's region and queues. */
enum rio_need {
	RIO_NEED_WRITE = 1 << 0,
	RIO_NEED_READ = 1 << 1,
	RIO_NEED_SEND = 1 << 2,
	RIO_NEED_IMM = 1 << 3,
	RIO_NEED_ATOMIC = 1 << 4,
	RIO_NEED_ALL = (1 << 5) - 1,
	/* The verbs that address the target's region. */
	RIO_NEED_REGION =
		RIO_NEED_WRITE | RIO_NEED_READ | RIO_NEED_IMM | RIO_NEED_ATOMIC,
};

/* The target's verdict on a hello. */
enum rio_status {
	RIO_STATUS_OK = 0,
	RIO_STATUS_VERSION,
	RIO_STATUS_VERB,
	RIO_STATUS_SPAN,
	RIO_STATUS_BS,
	RIO_STATUS_FULL,
	RIO_STATUS_DEVICE,
	RIO_STATUS_RESOURCES,
	/* Every slot is taken, one at least by a connection that has not
	 * completed yet: the client retries (see RIO_HELLO_MS). */
	RIO_STATUS_BUSY,
	RIO_STATUS_MAX,
};

struct rio_hello {
	uint16_t version;
	uint8_t need; /* enum rio_need bits */
	uint32_t max_bs; /* largest I/O the client issues */
	/* The client touches region bytes [start, span): the target grants
	 * remote access to those alone (an MR of the connection's own). A
	 * span beyond the region wraps onto all of it: see rio_wrap(). */
	uint64_t start;
	uint64_t span;
	/* Its I/O units in flight at most: with send/write_imm, the
	 * receives it needs posted on the target. */
	uint32_t depth;
};

struct rio_reply {
	uint16_t version;
	uint16_t status; /* enum rio_status */
	uint32_t rkey;
	uint32_t recv_size; /* bytes each posted receive holds (send) */
	uint8_t allowed; /* enum rio_need bits the target serves */
	uint64_t base;
	uint64_t length;
	/* Keepalives (alive.h): the client writes a counter into the 8-byte
	 * word at alive_addr, key alive_rkey, at least four times in every
	 * alive_s seconds; the target ends a connection whose word has not
	 * changed for alive_s. 0: the target wants none (it has a runtime). */
	uint32_t alive_s;
	uint32_t alive_rkey;
	uint64_t alive_addr;
};

#define RIO_HELLO_LEN 32
#define RIO_REPLY_LEN 52

/* A target drops a connection whose client sent a hello but has not
 * completed it (no ESTABLISHED) within this, and does not count it: a live
 * client completes in milliseconds, a busy emulated one in well under a
 * second. A client that a target turns away as busy retries for at least
 * this long. */
#define RIO_HELLO_MS 10000

/* stall_timeout's range, and so alive_s's. */
#define RIO_STALL_MAX_S 3600

int rio_hello_encode(const struct rio_hello *h, void *buf, size_t len);
int rio_hello_decode(const void *buf, size_t len, struct rio_hello *h);
int rio_reply_encode(const struct rio_reply *r, void *buf, size_t len);
int rio_reply_decode(const void *buf, size_t len, struct rio_reply *r);

/* What a target offers, to judge a hello against. */
struct rio_offer {
	uint8_t allowed;
	uint64_t length;
	uint32_t recv_size;
};

enum rio_status rio_hello_judge(const struct rio_hello *h,
				const struct rio_offer *offer);
int rio_reply_check(const struct rio_reply *r, const struct rio_hello *h,
		    const char *peer);

/* The region bytes a connection's key covers, [*start, *end): the
 * hello's [start, span), or the whole region when the span is beyond it
 * and wraps. For a hello rio_hello_judge accepted, it is never empty and
 * never past length. */
static inline void rio_hello_window(const struct rio_hello *h, uint64_t length,
				    uint64_t *start, uint64_t *end)
{
	*start = h->start;
	*end = h->span;
	if (*end > length) {
		*start = 0;
		*end = length;
	}
}

/* Where an I/O of len bytes at offset lands in a region of length bytes
 * that is smaller than the client's span: offset modulo length, as fio's
 * rdma engine maps any offset onto its server's buffers; one that would
 * run past the end starts over at 0. */
static inline uint64_t rio_wrap(uint64_t offset, uint64_t len, uint64_t length)
{
	uint64_t at = offset % length;

	return at + len > length ? 0 : at;
}
const char *rio_status_str(unsigned int status);
const char *rio_need_str(unsigned int need);

#endif
