// SPDX-License-Identifier: GPL-2.0
/* Option and bounds checks: each bad combination is refused with a
 * message naming the option and the fix. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "log-capture.h"
#include "opts.h"
#include "proto.h"

static struct rio_opts client_opts(void)
{
	struct rio_opts o = {
		.hostname = "198.18.0.1",
		.port = RIO_DEFAULT_PORT,
		.verb = RIO_VERB_AUTO,
		.connect_timeout = 5,
		.clients = 1,
		.qps = 1,
	};
	return o;
}

static struct rio_opts target_opts(void)
{
	struct rio_opts o = client_opts();

	o.hostname = NULL;
	o.listen = 1;
	return o;
}

static struct rio_job write_job(void)
{
	struct rio_job j = {
		.writes = true,
		.min_bs = 4096,
		.max_bs = 4096,
		.size = 1 << 20,
		.span = 1 << 20,
		.iodepth = 32,
	};
	return j;
}

static void expect_refused(const struct rio_opts *o, const struct rio_job *j,
			   const char *needle)
{
	log_capture_reset();
	assert_int_equal(rio_opts_check(o, j), -EINVAL);
	if (!log_capture_has(needle))
		fail_msg("message '%s' lacks '%s'", log_capture_text(), needle);
}

static void check__valid_client_and_target(void **state)
{
	struct rio_opts c = client_opts(), t = target_opts();
	struct rio_job j = write_job(), tj = write_job();

	(void)state;
	tj.writes = false;
	tj.reads = true;
	log_capture_reset();
	assert_int_equal(rio_opts_check(&c, &j), 0);
	assert_int_equal(rio_opts_check(&t, &tj), 0);
	assert_string_equal(log_capture_text(), "");
}

/* As in fio's rdma engine, a job with no address to connect to is the
 * target: it says so, and exposes iodepth x bs bytes, not size=. */
static void check__job_without_hostname_is_the_target(void **state)
{
	struct rio_opts o = client_opts();
	struct rio_job j = write_job();

	(void)state;
	o.hostname = NULL;
	assert_true(rio_opts_target(&o));
	expect_refused(&o, &j, "or give a client job hostname=");
	o.hostname = "";
	assert_true(rio_opts_target(&o));
	j.writes = false;
	j.reads = true;
	j.size = 100ull << 30;
	j.iodepth = 16;
	j.max_bs = 1 << 20;
	log_capture_reset();
	assert_int_equal(rio_opts_check(&o, &j), 0);
	assert_true(log_capture_has(
		"this job is the target, as fio's rdma server is"));
	assert_true(log_capture_has("16777216 bytes"));
	assert_int_equal(rio_opts_region(&o, &j), 16ull << 20);
	o.listen = 1;
	assert_int_equal(rio_opts_region(&o, &j), 100ull << 30);
	o.hostname = "10.0.0.1";
	o.listen = 0;
	assert_false(rio_opts_target(&o));
}

static void check__target_with_hostname(void **state)
{
	struct rio_opts o = target_opts();
	struct rio_job j = write_job();

	(void)state;
	j.writes = false;
	o.hostname = "10.0.0.1";
	expect_refused(&o, &j, "'listen' and 'hostname=10.0.0.1'");
}

static void check__target_rules(void **state)
{
	struct rio_opts o = target_opts();
	struct rio_job j = write_job();

	(void)state;
	expect_refused(&o, &j, "use rw=read");
	j.writes = false;
	j.verify = true;
	expect_refused(&o, &j, "verify on the client");
	j.verify = false;
	j.size = 0;
	expect_refused(&o, &j, "set size=");
	j.size = 4096;
	o.clients = 0;
	expect_refused(&o, &j, "clients=0");
}

static void check__verb_contradicts_rw(void **state)
{
	struct rio_opts o = client_opts();
	struct rio_job j = write_job();

	(void)state;
	/* fio's rdma engine uses the client's verb whatever rw says: so
	 * does librdmaio, with a word on fio's accounting. */
	o.verb = RIO_VERB_READ;
	log_capture_reset();
	assert_int_equal(rio_opts_check(&o, &j), 0);
	assert_true(log_capture_has(
		"warning: client job: verb=read with rw writing: every I/O is an RDMA READ"));
	j.verify = true;
	expect_refused(&o, &j, "with verb=read it writes nothing");
	j.writes = false;
	j.reads = true;
	assert_int_equal(rio_opts_check(&o, &j), 0);
	j.writes = true;
	j.reads = false;
	j.verify = false;
	o.verb = RIO_VERB_WRITE;
	j.reads = true;
	log_capture_reset();
	assert_int_equal(rio_opts_check(&o, &j), 0);
	assert_true(log_capture_has("verb=write with rw reading"));
	j.reads = false;
	j.verify = true;
	expect_refused(&o, &j, "verify= reads the data back");
	o.verb = RIO_VERB_SEND;
	expect_refused(&o, &j, "verb=send");
	j.verify = false;
	log_capture_reset();
	assert_int_equal(rio_opts_check(&o, &j), 0);
	assert_string_equal(log_capture_text(), "");
	o.verb = RIO_VERB_RECV;
	expect_refused(
		&o, &j,
		"verb=recv is the target's side of a SEND; use verb=send");
	o.verb = 42;
	expect_refused(&o, &j, "verb=42 is unknown");
	/* rw=trim: fio gives such a job no buffers to register. */
	o.verb = RIO_VERB_AUTO;
	j.verify = false;
	j.writes = false;
	expect_refused(&o, &j, "rw=trim moves no data");
}

static void check__verify_only_reads(void **state)
{
	struct rio_opts o = client_opts();
	struct rio_job j = write_job();

	(void)state;
	j.verify_only = true;
	o.verb = RIO_VERB_READ;
	assert_int_equal(rio_opts_check(&o, &j), 0);
	assert_int_equal(rio_opts_need(&o, &j), RIO_NEED_READ);
	o.verb = RIO_VERB_AUTO;
	assert_int_equal(rio_opts_need(&o, &j), RIO_NEED_READ);
}

static void check__bounds(void **state)
{
	struct rio_opts o = client_opts();
	struct rio_job j = write_job();

	(void)state;
	j.max_bs = 1ull << 33;
	expect_refused(&o, &j, "4 GiB limit");
	j.max_bs = 8192;
	j.span = 4096;
	expect_refused(&o, &j, "lower bs or raise size");
	j = write_job();
	o.qps = 0;
	expect_refused(&o, &j, "qps=0");
	o.qps = RIO_MAX_QPS + 1;
	expect_refused(&o, &j, "outside 1..");
	o.qps = 1;
	o.port = 70000;
	expect_refused(&o, &j, "port=70000");
	o.port = 1;
	j.iodepth = 0;
	expect_refused(&o, &j, "iodepth=0");
}

static void need__follows_rw_and_verify(void **state)
{
	struct rio_opts o = client_opts();
	struct rio_job j = write_job();

	(void)state;
	assert_int_equal(rio_opts_need(&o, &j), RIO_NEED_WRITE);
	j.verify = true;
	assert_int_equal(rio_opts_need(&o, &j), RIO_NEED_WRITE | RIO_NEED_READ);
	o.verb = RIO_VERB_SEND;
	assert_int_equal(rio_opts_need(&o, &j), RIO_NEED_SEND);
	o.verb = RIO_VERB_WRITE_IMM;
	assert_int_equal(rio_opts_need(&o, &j), RIO_NEED_IMM);
}

static void allowed__only_what_the_verb_needs(void **state)
{
	struct rio_opts o = target_opts();

	(void)state;
	/* auto also takes SENDs, which reach no region byte. */
	assert_int_equal(rio_opts_allowed(&o),
			 RIO_NEED_WRITE | RIO_NEED_READ | RIO_NEED_SEND);
	o.verb = RIO_VERB_WRITE;
	assert_int_equal(rio_opts_allowed(&o), RIO_NEED_WRITE);
	o.verb = RIO_VERB_READ;
	assert_int_equal(rio_opts_allowed(&o), RIO_NEED_READ);
	o.verb = RIO_VERB_SEND;
	assert_int_equal(rio_opts_allowed(&o), RIO_NEED_SEND);
	o.verb = RIO_VERB_RECV;
	assert_int_equal(rio_opts_allowed(&o), RIO_NEED_SEND);
	assert_string_equal(rio_verb_name(RIO_VERB_WRITE_IMM), "write_imm");
	assert_string_equal(rio_verb_name(RIO_VERB_RECV), "recv");
}

static void check__atomics_need_8_byte_writes(void **state)
{
	struct rio_opts o = client_opts();
	struct rio_job j = write_job();

	(void)state;
	o.verb = RIO_VERB_FETCH_ADD;
	expect_refused(&o, &j, "set bs=8");
	j.min_bs = j.max_bs = 8;
	log_capture_reset();
	assert_int_equal(rio_opts_check(&o, &j), 0);
	assert_int_equal(rio_opts_need(&o, &j), RIO_NEED_ATOMIC);
	o.verb = RIO_VERB_CMP_SWAP;
	j.reads = true;
	log_capture_reset();
	assert_int_equal(rio_opts_check(&o, &j), 0);
	assert_true(log_capture_has("verb=cmp_swap with rw reading"));
	j.verify_only = true;
	expect_refused(&o, &j, "which verb=cmp_swap cannot");
	o.listen = 1;
	o.hostname = NULL;
	/* The words can be read back to check what the atomics did. */
	assert_int_equal(rio_opts_allowed(&o), RIO_NEED_ATOMIC | RIO_NEED_READ);
}

/* tos= is decimal or 0x hex, one byte; a leading zero is not octal. */
static void tos__parses_one_byte(void **state)
{
	static const struct {
		const char *s;
		int tos;
	} ok[] = { { "0", 0 },	    { "106", 106 }, { "0x6a", 106 },
		   { "0X6A", 106 }, { "010", 10 },  { "255", 255 } };
	static const char *const bad[] = { "",	  "256", "-1", "0x", "0x100",
					   "abc", "10k", " 5", "+5" };
	struct rio_opts o = client_opts();
	size_t i;
	int tos;

	(void)state;
	assert_int_equal(rio_opts_tos(&o, &tos), 0);
	assert_int_equal(tos, -1);
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		o.tos = (char *)ok[i].s;
		assert_int_equal(rio_opts_tos(&o, &tos), 0);
		assert_int_equal(tos, ok[i].tos);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o.tos = (char *)bad[i];
		log_capture_reset();
		assert_int_equal(rio_opts_tos(&o, &tos), -EINVAL);
		assert_true(log_capture_has("DSCP x 4 + ECN"));
	}
}

/* Each of device=, tos= and hugepages on the side it belongs to, and a
 * fix named on the other. */
static void check__device_tos_hugepages(void **state)
{
	struct rio_opts c = client_opts(), t = target_opts();
	struct rio_job j = write_job(), tj = write_job();

	(void)state;
	tj.writes = false;
	tj.reads = true;
	c.tos = "106";
	c.device = "rxe0";
	t.hugepages = 1;
	t.device = "rxe0";
	log_capture_reset();
	assert_int_equal(rio_opts_check(&c, &j), 0);
	assert_int_equal(rio_opts_check(&t, &tj), 0);
	assert_string_equal(log_capture_text(), "");
	c.tos = "1000";
	expect_refused(&c, &j, "tos=1000 is not a traffic class");
	c.tos = NULL;
	c.hugepages = 1;
	expect_refused(&c, &j, "iomem=mmaphuge");
	c.hugepages = 0;
	c.device = "";
	expect_refused(&c, &j, "device= is empty");
	t.tos = "106";
	expect_refused(&t, &tj, "set tos= on the client job");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(check__valid_client_and_target),
		cmocka_unit_test(check__job_without_hostname_is_the_target),
		cmocka_unit_test(check__target_with_hostname),
		cmocka_unit_test(check__target_rules),
		cmocka_unit_test(check__verb_contradicts_rw),
		cmocka_unit_test(check__verify_only_reads),
		cmocka_unit_test(check__bounds),
		cmocka_unit_test(need__follows_rw_and_verify),
		cmocka_unit_test(allowed__only_what_the_verb_needs),
		cmocka_unit_test(check__atomics_need_8_byte_writes),
		cmocka_unit_test(tos__parses_one_byte),
		cmocka_unit_test(check__device_tos_hugepages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
