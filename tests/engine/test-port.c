// SPDX-License-Identifier: GPL-2.0
/* rio_port_down: when a port that stays down ends a connection. The
 * device is a fake verbs context whose query_port op is the seam. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "clock.h"
#include "port.h"

static enum ibv_port_state fake_state;
static int fake_ret, fake_calls;

static int fake_query_port(struct ibv_context *ctx, uint8_t port,
			   struct ibv_port_attr *attr, size_t len)
{
	(void)ctx;
	(void)port;
	fake_calls++;
	memset(attr, 0, len);
	attr->state = fake_state;
	return fake_ret;
}

static struct ibv_device fake_dev = { .name = "rxe9" };
static struct verbs_context fake_vctx;

static struct ibv_context *fake_verbs(enum ibv_port_state state, int ret)
{
	memset(&fake_vctx, 0, sizeof(fake_vctx));
	fake_vctx.sz = sizeof(fake_vctx);
	fake_vctx.query_port = fake_query_port;
	fake_vctx.context.abi_compat = __VERBS_ABI_IS_EXTENDED;
	fake_vctx.context.device = &fake_dev;
	fake_state = state;
	fake_ret = ret;
	fake_calls = 0;
	return &fake_vctx.context;
}

/* A time ms milliseconds ago. */
static struct timespec ago(long ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec -= ms / 1000;
	ts.tv_nsec -= (ms % 1000) * 1000000L;
	if (ts.tv_nsec < 0) {
		ts.tv_nsec += 1000000000L;
		ts.tv_sec--;
	}
	return ts;
}

static bool is_zero(const struct timespec *ts)
{
	return !ts->tv_sec && !ts->tv_nsec;
}

static void port__active_is_never_down(void **state)
{
	struct ibv_context *v = fake_verbs(IBV_PORT_ACTIVE, 0);
	struct timespec checked = { 0 }, since = ago(60000);
	char st[96] = "";

	(void)state;
	assert_false(rio_port_down(v, 1, &checked, &since, st, sizeof(st)));
	assert_true(is_zero(&since));
	assert_int_equal(fake_calls, 1);
}

static void port__first_sight_of_down_starts_the_clock(void **state)
{
	struct ibv_context *v = fake_verbs(IBV_PORT_DOWN, 0);
	struct timespec checked = { 0 }, since = { 0 };
	char st[96] = "";

	(void)state;
	assert_false(rio_port_down(v, 1, &checked, &since, st, sizeof(st)));
	assert_false(is_zero(&since));
}

static void port__asks_at_most_every_100_ms(void **state)
{
	struct ibv_context *v = fake_verbs(IBV_PORT_DOWN, 0);
	struct timespec checked = ago(10), since = ago(60000);
	char st[96] = "";

	(void)state;
	assert_false(rio_port_down(v, 1, &checked, &since, st, sizeof(st)));
	assert_int_equal(fake_calls, 0);
}

static void port__down_for_the_grace_is_lost(void **state)
{
	struct ibv_context *v = fake_verbs(IBV_PORT_DOWN, 0);
	struct timespec checked = ago(150),
			since = ago(RIO_LINK_GRACE_MS + 100);
	char st[96] = "";

	(void)state;
	assert_true(rio_port_down(v, 1, &checked, &since, st, sizeof(st)));
	assert_string_equal(st, ibv_port_state_str(IBV_PORT_DOWN));
}

static void port__down_for_less_than_the_grace_is_not(void **state)
{
	struct ibv_context *v = fake_verbs(IBV_PORT_INIT, 0);
	struct timespec checked = ago(150),
			since = ago(RIO_LINK_GRACE_MS - 1000);
	char st[96] = "";

	(void)state;
	assert_false(rio_port_down(v, 1, &checked, &since, st, sizeof(st)));
}

/* Checks run only while waiting: a long gap means I/O flowed in between,
 * so an old outage must not count against a new one. */
static void port__a_stale_outage_starts_anew(void **state)
{
	struct ibv_context *v = fake_verbs(IBV_PORT_DOWN, 0);
	struct timespec checked = ago(30000), since = ago(40000);
	struct timespec before;
	char st[96] = "";

	(void)state;
	before = ago(0);
	assert_false(rio_port_down(v, 1, &checked, &since, st, sizeof(st)));
	assert_true(since.tv_sec > before.tv_sec ||
		    (since.tv_sec == before.tv_sec &&
		     since.tv_nsec >= before.tv_nsec));
}

static void port__a_device_that_cannot_be_asked_counts_as_down(void **state)
{
	struct ibv_context *v = fake_verbs(IBV_PORT_ACTIVE, ENODEV);
	struct timespec checked = ago(150),
			since = ago(RIO_LINK_GRACE_MS + 100);
	char st[96] = "";

	(void)state;
	assert_true(rio_port_down(v, 1, &checked, &since, st, sizeof(st)));
	assert_non_null(strstr(st, "ibv_query_port(rxe9, port 1)"));
	assert_non_null(strstr(st, strerror(ENODEV)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(port__active_is_never_down),
		cmocka_unit_test(port__first_sight_of_down_starts_the_clock),
		cmocka_unit_test(port__asks_at_most_every_100_ms),
		cmocka_unit_test(port__down_for_the_grace_is_lost),
		cmocka_unit_test(port__down_for_less_than_the_grace_is_not),
		cmocka_unit_test(port__a_stale_outage_starts_anew),
		cmocka_unit_test(
			port__a_device_that_cannot_be_asked_counts_as_down),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
