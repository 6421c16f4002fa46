// SPDX-License-Identifier: GPL-2.0
/* Failure messages: verb, offset, peer, the device's status and a fix. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "errmsg.h"

static void wc__names_verb_offset_status_and_fix(void **state)
{
	struct ibv_wc wc = { .status = IBV_WC_REM_ACCESS_ERR };
	char msg[512];

	(void)state;
	rio_wc_errmsg(msg, sizeof(msg), &wc, "RDMA WRITE", 8192, 4096,
		      "198.18.0.1:7471");
	assert_non_null(strstr(msg, "RDMA WRITE of 4096 bytes"));
	assert_non_null(strstr(msg, "offset 8192"));
	assert_non_null(strstr(msg, "198.18.0.1:7471"));
	assert_non_null(strstr(msg, ibv_wc_status_str(IBV_WC_REM_ACCESS_ERR)));
	assert_non_null(strstr(msg, "verb="));
}

static void wc__retry_exceeded_means_peer_gone(void **state)
{
	(void)state;
	assert_non_null(strstr(rio_wc_hint(IBV_WC_RETRY_EXC_ERR), "died"));
	assert_non_null(
		strstr(rio_wc_hint(IBV_WC_RNR_RETRY_EXC_ERR), "receive"));
	assert_non_null(strstr(rio_wc_hint(IBV_WC_LOC_QP_OP_ERR), "link"));
	assert_non_null(rio_wc_hint((enum ibv_wc_status)999));
}

static void wc__truncates_safely(void **state)
{
	struct ibv_wc wc = { .status = IBV_WC_RETRY_EXC_ERR };
	char msg[16];

	(void)state;
	rio_wc_errmsg(msg, sizeof(msg), &wc, "RDMA READ", 0, 8, "h:1");
	assert_int_equal(strlen(msg), sizeof(msg) - 1);
}

static void cm__hints(void **state)
{
	(void)state;
	/* The kernel's resolve timeout: nobody answered, said as when the
	 * engine's own wait runs out first. */
	assert_non_null(
		strstr(rio_cm_hint(RDMA_CM_EVENT_ADDR_ERROR, -ETIMEDOUT),
		       "did not resolve to a hardware address"));
	assert_non_null(strstr(rio_cm_hint(RDMA_CM_EVENT_ADDR_ERROR, -19),
			       "rdma link add"));
	assert_non_null(strstr(rio_cm_hint(RDMA_CM_EVENT_REJECTED, 8),
			       "nothing listens"));
	assert_non_null(
		strstr(rio_cm_hint(RDMA_CM_EVENT_REJECTED, 28), "refused"));
	assert_non_null(
		strstr(rio_cm_hint(RDMA_CM_EVENT_DISCONNECTED, 0), "died"));
}

static void addr__hints(void **state)
{
	(void)state;
	assert_non_null(strstr(rio_addr_hint(ENODEV), "Soft-RoCE"));
	assert_non_null(strstr(rio_addr_hint(EADDRNOTAVAIL), "rdma_rxe"));
	assert_non_null(strstr(rio_addr_hint(EADDRINUSE), "port="));
	assert_non_null(strstr(rio_addr_hint(ENOENT), "rdma_cm"));
	assert_non_null(rio_addr_hint(E2BIG));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(wc__names_verb_offset_status_and_fix),
		cmocka_unit_test(wc__retry_exceeded_means_peer_gone),
		cmocka_unit_test(wc__truncates_safely),
		cmocka_unit_test(cm__hints),
		cmocka_unit_test(addr__hints),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
