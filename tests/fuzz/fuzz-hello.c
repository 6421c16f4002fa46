// SPDX-License-Identifier: GPL-2.0
/*
 * librdmaio's handshake decoders on any bytes a peer may send: no crash, a
 * decoded message encodes back to the bytes it came from (the fields it
 * carries), a hello the target accepts gets a non-empty window inside the
 * region it offers, and a reply the client accepts has it send keepalives
 * to a word, within the range of stall_timeout.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alive.h"
#include "proto.h"
#include "rio_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* fio's log_err: every message is formatted (a bad format would show) and
 * dropped. */
ssize_t log_err(const char *format, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, format);
	n = vsnprintf(buf, sizeof(buf), format, ap);
	va_end(ap);
	return n;
}

static void hello(const uint8_t *data, size_t size)
{
	struct rio_offer offer = { .allowed = RIO_NEED_ALL,
				   .length = 1 << 20,
				   .recv_size = 4096 };
	uint8_t again[RIO_HELLO_LEN];
	struct rio_hello h, h2;
	uint64_t start, end;

	if (rio_hello_decode(data, size, &h))
		return;
	if (rio_hello_encode(&h, again, sizeof(again)) != RIO_HELLO_LEN ||
	    rio_hello_decode(again, sizeof(again), &h2) ||
	    memcmp(&h, &h2, sizeof(h)))
		abort();
	/* Accepted: the key the target registers covers a non-empty window
	 * inside the region (a span beyond it wraps onto all of it), and one
	 * I/O fits in that window. */
	if (rio_hello_judge(&h, &offer) != RIO_STATUS_OK ||
	    !(h.need & RIO_NEED_REGION))
		return;
	rio_hello_window(&h, offer.length, &start, &end);
	if (start >= end || end > offer.length ||
	    (h.span > offer.length && h.max_bs > end - start))
		abort();
}

static void reply(const uint8_t *data, size_t size)
{
	struct rio_hello h = { .version = RIO_PROTO_VERSION,
			       .need = RIO_NEED_REGION,
			       .max_bs = 4096,
			       .span = 65536,
			       .depth = 16 };
	uint8_t again[RIO_REPLY_LEN];
	struct rio_reply r, r2;

	if (rio_reply_decode(data, size, &r))
		return;
	if (rio_reply_encode(&r, again, sizeof(again)) != RIO_REPLY_LEN ||
	    rio_reply_decode(again, sizeof(again), &r2) ||
	    memcmp(&r, &r2, sizeof(r)))
		abort();
	/* A reply the client accepts holds one I/O; offsets beyond it wrap
	 * to places inside it. */
	if (rio_reply_check(&r, &h, "fuzz") == 0 &&
	    (r.length < h.max_bs ||
	     rio_wrap(h.span - h.max_bs, h.max_bs, r.length) + h.max_bs >
		     r.length ||
	     rio_wrap(r.length + 4095, h.max_bs, r.length) + h.max_bs >
		     r.length))
		abort();
	/* Keepalives go to a word, no rarer than a quarter of the longest
	 * stall_timeout (none when the target wants none). */
	if (rio_reply_check(&r, &h, "fuzz") == 0 &&
	    ((r.alive_s && !r.alive_addr) ||
	     rio_alive_every_ms(r.alive_s) >
		     RIO_STALL_MAX_S * 1000L / RIO_ALIVE_PER_STALL))
		abort();
	(void)rio_status_str(r.status);
	(void)rio_need_str(r.allowed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	hello(data, size);
	reply(data, size);
	return 0;
}
