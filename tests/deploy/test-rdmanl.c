// SPDX-License-Identifier: MIT
/*
 * The RDMA netlink messages nfsrdma sends, compared byte for byte with the
 * ones iproute2 builds for `rdma link add rxe0 type rxe netdev veth0` and
 * `rdma link del`, with libmnl's zeroed padding.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "link.h"
#include "rc_rdmanl.h"

static void newlink__matches_iproute2(void **state)
{
	static const unsigned char want[] = {
		/* nlmsghdr: len 48, type 5<<10|3, REQUEST|ACK, seq, pid 0 */
		0x30, 0x00, 0x00, 0x00, 0x03, 0x14, 0x05, 0x00, 0x44, 0x33,
		0x22, 0x11, 0x00, 0x00, 0x00, 0x00,
		/* DEV_NAME (2) "rxe0\0", padded to 12 */
		0x09, 0x00, 0x02, 0x00, 'r', 'x', 'e', '0', 0x00, 0x00, 0x00,
		0x00,
		/* LINK_TYPE (65) "rxe\0" */
		0x08, 0x00, 0x41, 0x00, 'r', 'x', 'e', 0x00,
		/* NDEV_NAME (51) "veth0\0", padded to 12 */
		0x0a, 0x00, 0x33, 0x00, 'v', 'e', 't', 'h', '0', 0x00, 0x00,
		0x00
	};
	unsigned char buf[256];
	int len;

	(void)state;
	memset(buf, 0xa5, sizeof(buf));
	len = rc_rdmanl_build_newlink(buf, sizeof(buf), 0x11223344, "rxe0",
				      "rxe", "veth0");
	assert_int_equal(len, sizeof(want));
	assert_memory_equal(buf, want, sizeof(want));
}

static void dellink__matches_iproute2(void **state)
{
	static const unsigned char want[] = {
		0x18, 0x00, 0x00, 0x00, 0x04, 0x14, 0x05, 0x00, 0x01, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		/* DEV_INDEX (1) u32 3 */
		0x08, 0x00, 0x01, 0x00, 0x03, 0x00, 0x00, 0x00
	};
	unsigned char buf[64];
	int len;

	(void)state;
	len = rc_rdmanl_build_dellink(buf, sizeof(buf), 1, 3);
	assert_int_equal(len, sizeof(want));
	assert_memory_equal(buf, want, sizeof(want));
}

static void dev_dump__is_get_with_dump_flags(void **state)
{
	static const unsigned char want[] = { 0x10, 0x00, 0x00, 0x00,
					      0x01, 0x14, 0x05, 0x03,
					      0x07, 0x00, 0x00, 0x00,
					      0x00, 0x00, 0x00, 0x00 };
	unsigned char buf[64];

	(void)state;
	assert_int_equal(rc_rdmanl_build_dev_dump(buf, sizeof(buf), 7), 16);
	assert_memory_equal(buf, want, sizeof(want));
}

static void newlink__too_small_buffer(void **state)
{
	unsigned char buf[40];

	(void)state;
	assert_int_equal(rc_rdmanl_build_newlink(buf, sizeof(buf), 1, "rxe0",
						 "rxe", "veth0"),
			 -ENOSPC);
	assert_int_equal(rc_rdmanl_build_newlink(buf, 8, 1, "a", "b", "c"),
			 -ENOSPC);
}

static void parse__reads_back_attributes(void **state)
{
	unsigned char buf[256];
	struct rc_rdmanl_attrs a;
	int len;

	(void)state;
	len = rc_rdmanl_build_newlink(buf, sizeof(buf), 9, "rxe7", "rxe",
				      "eth3");
	assert_int_equal(rc_rdmanl_parse(buf, len, &a), 0);
	assert_string_equal(a.name, "rxe7");
	assert_string_equal(a.ndev_name, "eth3");
	len = rc_rdmanl_build_port_dump(buf, sizeof(buf), 9, 42);
	assert_int_equal(rc_rdmanl_parse(buf, len, &a), 0);
	assert_true(a.has_index);
	assert_int_equal(a.index, 42);
}

static void parse__rejects_truncated(void **state)
{
	unsigned char buf[256];
	struct rc_rdmanl_attrs a;
	int len;

	(void)state;
	len = rc_rdmanl_build_newlink(buf, sizeof(buf), 9, "rxe7", "rxe",
				      "eth3");
	assert_int_equal(rc_rdmanl_parse(buf, len - 4, &a), -EINVAL);
	/* An attribute claiming more than the message holds. */
	buf[16] = 0xff;
	assert_int_equal(rc_rdmanl_parse(buf, len, &a), -EINVAL);
}

static void add_cause__enfile_means_name_taken(void **state)
{
	(void)state;
	assert_non_null(strstr(nr_link_add_cause(-ENFILE), "name"));
	assert_non_null(strstr(nr_link_add_cause(-EEXIST), "already"));
	assert_non_null(strstr(nr_link_add_cause(-ENODEV), "not exist"));
	assert_non_null(strstr(nr_link_add_cause(-EPERM), "CAP_NET_ADMIN"));
	assert_null(nr_link_add_cause(-EBADF));
}

static void driver_name__rxe_and_siw(void **state)
{
	(void)state;
	assert_string_equal(rc_rdmanl_driver_name(14), "rxe");
	assert_string_equal(rc_rdmanl_driver_name(18), "siw");
	assert_null(rc_rdmanl_driver_name(999));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(newlink__matches_iproute2),
		cmocka_unit_test(dellink__matches_iproute2),
		cmocka_unit_test(dev_dump__is_get_with_dump_flags),
		cmocka_unit_test(newlink__too_small_buffer),
		cmocka_unit_test(parse__reads_back_attributes),
		cmocka_unit_test(parse__rejects_truncated),
		cmocka_unit_test(add_cause__enfile_means_name_taken),
		cmocka_unit_test(driver_name__rxe_and_siw),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
