// SPDX-License-Identifier: GPL-2.0
/* Handshake encoding, decoding and the checks on what the peer sent. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "log-capture.h"
#include "proto.h"

static const struct rio_hello hello = {
	.version = RIO_PROTO_VERSION,
	.need = RIO_NEED_WRITE | RIO_NEED_READ,
	.max_bs = 65536,
	.start = 0x10000,
	.span = 1 << 20,
	.depth = 0x1234,
};

static struct rio_reply good_reply(void)
{
	struct rio_reply r = {
		.version = RIO_PROTO_VERSION,
		.status = RIO_STATUS_OK,
		.rkey = 0x1234,
		.recv_size = 4096,
		.allowed = RIO_NEED_WRITE | RIO_NEED_READ,
		.base = 0x7f0000000000ull,
		.length = 1 << 20,
		.alive_s = 30,
		.alive_rkey = 0x5678,
		.alive_addr = 0x7f0000100000ull,
	};
	return r;
}

static void hello__round_trip(void **state)
{
	uint8_t buf[56];
	struct rio_hello out;

	(void)state;
	assert_int_equal(rio_hello_encode(&hello, buf, sizeof(buf)),
			 RIO_HELLO_LEN);
	assert_int_equal(rio_hello_decode(buf, sizeof(buf), &out), 0);
	assert_int_equal(out.version, hello.version);
	assert_int_equal(out.need, hello.need);
	assert_int_equal(out.max_bs, hello.max_bs);
	assert_true(out.span == hello.span);
	assert_true(out.start == hello.start);
	assert_int_equal(out.depth, hello.depth);
}

static void hello__big_endian_on_the_wire(void **state)
{
	uint8_t buf[RIO_HELLO_LEN];

	(void)state;
	rio_hello_encode(&hello, buf, sizeof(buf));
	assert_memory_equal(buf, "RDIO", 4);
	assert_int_equal(buf[4], 0);
	assert_int_equal(buf[5], RIO_PROTO_VERSION);
	assert_int_equal(buf[6], RIO_NEED_WRITE | RIO_NEED_READ);
	assert_int_equal(buf[17], 0x10); /* span 1 MiB: 0x0000000000100000 */
	assert_int_equal(buf[22], 0x12); /* depth 0x1234 */
	assert_int_equal(buf[23], 0x34);
	assert_int_equal(buf[29], 0x01); /* start 64 KiB: 0x10000 */
}

static void hello__short_buffer(void **state)
{
	uint8_t buf[RIO_HELLO_LEN];
	struct rio_hello out;

	(void)state;
	assert_int_equal(rio_hello_encode(&hello, buf, RIO_HELLO_LEN - 1),
			 -ENOSPC);
	rio_hello_encode(&hello, buf, sizeof(buf));
	assert_int_equal(rio_hello_decode(buf, RIO_HELLO_LEN - 1, &out),
			 -EPROTO);
	assert_int_equal(rio_hello_decode(NULL, 0, &out), -EPROTO);
}

static void hello__foreign_data(void **state)
{
	uint8_t buf[56] = "fio rdma engine private data";
	struct rio_hello out;

	(void)state;
	assert_int_equal(rio_hello_decode(buf, sizeof(buf), &out), -EPROTO);
}

static void hello__other_version(void **state)
{
	struct rio_hello h = hello;
	uint8_t buf[RIO_HELLO_LEN];
	struct rio_hello out;

	(void)state;
	h.version = RIO_PROTO_VERSION + 1;
	rio_hello_encode(&h, buf, sizeof(buf));
	/* Even a shorter message of another version names its version. */
	assert_int_equal(rio_hello_decode(buf, 8, &out), -EPROTONOSUPPORT);
	assert_int_equal(out.version, RIO_PROTO_VERSION + 1);
}

static void reply__round_trip(void **state)
{
	struct rio_reply r = good_reply(), out;
	uint8_t buf[64];

	(void)state;
	assert_int_equal(rio_reply_encode(&r, buf, sizeof(buf)), RIO_REPLY_LEN);
	assert_int_equal(rio_reply_decode(buf, sizeof(buf), &out), 0);
	assert_int_equal(out.rkey, r.rkey);
	assert_int_equal(out.recv_size, r.recv_size);
	assert_int_equal(out.allowed, r.allowed);
	assert_true(out.base == r.base);
	assert_true(out.length == r.length);
	assert_int_equal(out.alive_s, r.alive_s);
	assert_int_equal(out.alive_rkey, r.alive_rkey);
	assert_true(out.alive_addr == r.alive_addr);
	/* The keepalive's fields, big-endian, after version 4's. */
	assert_int_equal(buf[39], 30);
	assert_int_equal(buf[42], 0x56);
	assert_int_equal(buf[43], 0x78);
	assert_int_equal(buf[46], 0x7f);
	assert_int_equal(buf[49], 0x10);
	/* A version 4 reply's length is too short for this version. */
	assert_int_equal(rio_reply_decode(buf, 36, &out), -EPROTO);
}

/* A target's reply that would have the client write its keepalives
 * nowhere, or less than once an hour, is not a librdmaio target's. */
static void check__rejects_bad_keepalive(void **state)
{
	struct rio_reply r = good_reply();

	(void)state;
	r.alive_addr = 0;
	log_capture_reset();
	assert_int_equal(rio_reply_check(&r, &hello, "h:1"), -EPROTO);
	assert_true(log_capture_has("target h:1 sent an invalid keepalive"));
	r = good_reply();
	r.alive_s = RIO_STALL_MAX_S + 1;
	assert_int_equal(rio_reply_check(&r, &hello, "h:1"), -EPROTO);
	/* A target with a runtime asks for none. */
	r.alive_s = 0;
	r.alive_addr = 0;
	assert_int_equal(rio_reply_check(&r, &hello, "h:1"), 0);
}

static void judge__accepts_fitting_client(void **state)
{
	struct rio_offer offer = { RIO_NEED_WRITE | RIO_NEED_READ, 1 << 20, 0 };

	(void)state;
	assert_int_equal(rio_hello_judge(&hello, &offer), RIO_STATUS_OK);
}

static void judge__refuses(void **state)
{
	struct rio_offer offer = { RIO_NEED_WRITE, 1 << 20, 4096 };
	struct rio_hello h = hello;

	(void)state;
	assert_int_equal(rio_hello_judge(&h, &offer), RIO_STATUS_VERB);
	offer.allowed = RIO_NEED_WRITE | RIO_NEED_READ;
	/* A span beyond the region wraps onto it (fio's rdma engine's
	 * mapping), as long as one I/O fits in it. */
	offer.length = (1 << 20) - 1;
	assert_int_equal(rio_hello_judge(&h, &offer), RIO_STATUS_OK);
	offer.length = h.max_bs - 1;
	assert_int_equal(rio_hello_judge(&h, &offer), RIO_STATUS_SPAN);
	offer.length = 1 << 20;
	h.need = RIO_NEED_SEND;
	offer.allowed = RIO_NEED_SEND;
	assert_int_equal(rio_hello_judge(&h, &offer), RIO_STATUS_BS);
	h.max_bs = 4096;
	assert_int_equal(rio_hello_judge(&h, &offer), RIO_STATUS_OK);
	h.need = 0x80;
	assert_int_equal(rio_hello_judge(&h, &offer), RIO_STATUS_VERB);
	h.need = RIO_NEED_ATOMIC;
	offer.allowed = RIO_NEED_ATOMIC;
	h.span = offer.length + 8;
	assert_int_equal(rio_hello_judge(&h, &offer), RIO_STATUS_OK);
	/* An empty or inverted window is no window. */
	h.span = 4096;
	h.start = 4096;
	assert_int_equal(rio_hello_judge(&h, &offer), RIO_STATUS_SPAN);
	h.start = 0;
	assert_int_equal(rio_hello_judge(&h, &offer), RIO_STATUS_OK);
	h.need = RIO_NEED_SEND;
	offer.allowed = RIO_NEED_SEND;
	h.version = 9;
	assert_int_equal(rio_hello_judge(&h, &offer), RIO_STATUS_VERSION);
}

static void check__accepts_good_reply(void **state)
{
	struct rio_reply r = good_reply();

	(void)state;
	log_capture_reset();
	assert_int_equal(rio_reply_check(&r, &hello, "198.18.0.1:7471"), 0);
	assert_string_equal(log_capture_text(), "");
}

static void check__version_mismatch(void **state)
{
	struct rio_reply r = good_reply();

	(void)state;
	r.version = 7;
	log_capture_reset();
	assert_int_equal(rio_reply_check(&r, &hello, "198.18.0.1:7471"),
			 -EPROTONOSUPPORT);
	assert_true(log_capture_has("version 7"));
	assert_true(log_capture_has("198.18.0.1:7471"));
}

static void check__refusal_names_cause_and_fix(void **state)
{
	struct rio_reply r = good_reply();

	(void)state;
	r.status = RIO_STATUS_SPAN;
	r.length = 4096;
	log_capture_reset();
	assert_int_equal(rio_reply_check(&r, &hello, "h:1"), -ECONNREFUSED);
	assert_true(log_capture_has("1048576"));
	assert_true(log_capture_has("4096 bytes"));
	assert_true(log_capture_has("raise the target's size"));

	r.status = RIO_STATUS_VERB;
	r.allowed = RIO_NEED_WRITE;
	log_capture_reset();
	assert_int_equal(rio_reply_check(&r, &hello, "h:1"), -ECONNREFUSED);
	assert_true(log_capture_has("RDMA WRITE and READ"));
	assert_true(log_capture_has("verb=auto"));

	/* An atomic target also serves READ, to read the words back. */
	r.allowed = RIO_NEED_ATOMIC | RIO_NEED_READ;
	log_capture_reset();
	assert_int_equal(rio_reply_check(&r, &hello, "h:1"), -ECONNREFUSED);
	assert_true(
		log_capture_has("serves only 8-byte atomics and RDMA READ"));

	/* A client tells this one only once it gave up retrying. */
	r.status = RIO_STATUS_BUSY;
	log_capture_reset();
	assert_int_equal(rio_reply_check(&r, &hello, "h:1"), -ECONNREFUSED);
	assert_true(log_capture_has("target h:1 stayed busy"));
	assert_true(log_capture_has("drops after 10 s"));

	r.status = 999;
	log_capture_reset();
	assert_int_equal(rio_reply_check(&r, &hello, "h:1"), -ECONNREFUSED);
	assert_true(log_capture_has("unknown status"));
}

static void check__rejects_bad_region(void **state)
{
	struct rio_reply r = good_reply();

	(void)state;
	r.base = 0;
	log_capture_reset();
	assert_int_equal(rio_reply_check(&r, &hello, "h:1"), -EPROTO);
	assert_true(log_capture_has("invalid region"));

	r = good_reply();
	r.base = UINT64_MAX - 10;
	assert_int_equal(rio_reply_check(&r, &hello, "h:1"), -EPROTO);

	/* A smaller region is wrapped onto; one below one I/O is not. */
	r = good_reply();
	r.length = hello.span - 1;
	assert_int_equal(rio_reply_check(&r, &hello, "h:1"), 0);
	r.length = hello.max_bs - 1;
	log_capture_reset();
	assert_int_equal(rio_reply_check(&r, &hello, "h:1"), -ERANGE);
	assert_true(log_capture_has("raise the target's size"));

	r = good_reply();
	r.allowed = RIO_NEED_READ;
	assert_int_equal(rio_reply_check(&r, &hello, "h:1"), -EPROTO);
}

static void check__send_ignores_region(void **state)
{
	struct rio_hello h = hello;
	struct rio_reply r = good_reply();

	(void)state;
	h.need = RIO_NEED_SEND;
	r.allowed = RIO_NEED_SEND;
	r.base = 0;
	r.length = 0;
	assert_int_equal(rio_reply_check(&r, &h, "h:1"), 0);
}

/* fio's rdma engine puts any offset somewhere in its server's buffers:
 * a wrapped I/O lands inside the region, whole, at offset mod length. */
static void wrap__lands_inside_the_region(void **state)
{
	const uint64_t len = 16 << 20, bs = 1 << 20;
	uint64_t off;

	(void)state;
	assert_int_equal(rio_wrap(0, bs, len), 0);
	assert_int_equal(rio_wrap(len, bs, len), 0);
	assert_int_equal(rio_wrap(len + 3 * bs, bs, len), 3 * bs);
	assert_int_equal(rio_wrap((100ull << 30) - bs, bs, len), len - bs);
	/* An I/O that would run past the end starts over at 0. */
	assert_int_equal(rio_wrap(len - 4096, bs, len), 0);
	for (off = 0; off < 4 * len; off += 12345)
		assert_true(rio_wrap(off, 4096, len) + 4096 <= len);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(wrap__lands_inside_the_region),
		cmocka_unit_test(hello__round_trip),
		cmocka_unit_test(hello__big_endian_on_the_wire),
		cmocka_unit_test(hello__short_buffer),
		cmocka_unit_test(hello__foreign_data),
		cmocka_unit_test(hello__other_version),
		cmocka_unit_test(reply__round_trip),
		cmocka_unit_test(judge__accepts_fitting_client),
		cmocka_unit_test(judge__refuses),
		cmocka_unit_test(check__accepts_good_reply),
		cmocka_unit_test(check__version_mismatch),
		cmocka_unit_test(check__refusal_names_cause_and_fix),
		cmocka_unit_test(check__rejects_bad_region),
		cmocka_unit_test(check__send_ignores_region),
		cmocka_unit_test(check__rejects_bad_keepalive),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
