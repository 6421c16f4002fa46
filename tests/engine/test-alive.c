// SPDX-License-Identifier: GPL-2.0
/* Keepalive timing (alive.h), on times given, not read: when a target
 * sees a connection's word as silent, and how often a client writes it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "alive.h"

static struct timespec at(long ms)
{
	struct timespec ts = { 1000, 0 };

	rio_ts_add_ms(&ts, ms);
	return ts;
}

static void clock__arithmetic(void **state)
{
	struct timespec a = at(0), b = at(1999), c = at(2000);

	(void)state;
	assert_int_equal(rio_ts_diff_ms(&a, &b), 1999);
	assert_int_equal(b.tv_sec, 1001);
	assert_int_equal(b.tv_nsec, 999000000);
	assert_int_equal(c.tv_sec, 1002);
	assert_int_equal(c.tv_nsec, 0);
	assert_true(rio_ts_reached(&c, &b));
	assert_true(rio_ts_reached(&c, &c));
	assert_false(rio_ts_reached(&b, &c));
}

/* Silence is timed from the last change of the word, whatever its value:
 * a client's counter may start anywhere and wrap. */
static void silent__from_the_last_change(void **state)
{
	struct rio_alive a;
	struct timespec t;

	(void)state;
	t = at(0);
	rio_alive_start(&a, 0, &t);
	t = at(2500);
	assert_int_equal(rio_alive_silent_ms(&a, 0, &t), 2500);
	t = at(2600);
	assert_int_equal(rio_alive_silent_ms(&a, UINT64_MAX, &t), 0);
	t = at(4000);
	assert_int_equal(rio_alive_silent_ms(&a, UINT64_MAX, &t), 1400);
	t = at(4100);
	assert_int_equal(rio_alive_silent_ms(&a, 0, &t), 0);
	t = at(9100);
	assert_int_equal(rio_alive_silent_ms(&a, 0, &t), 5000);
}

/* A client that writes every alive_s / 4 while it runs is never seen
 * silent for alive_s, even when the target looks only now and then; one
 * that stops after its last write is seen silent within alive_s and a
 * look. */
static void every__keeps_a_running_client_alive(void **state)
{
	const uint32_t alive_s = 3;
	long every = rio_alive_every_ms(alive_s), t_ms, next = 0, stop = 20000;
	uint64_t word = 0;
	struct rio_alive a;
	struct timespec t;
	long silent_at = -1;

	(void)state;
	assert_int_equal(every, 750);
	assert_int_equal(rio_alive_every_ms(0), 0);
	t = at(0);
	rio_alive_start(&a, word, &t);
	for (t_ms = 0; t_ms < 40000; t_ms += 10) {
		/* The client commits every 10 ms until it stops. */
		if (t_ms < stop && t_ms >= next) {
			word++;
			next = t_ms + every;
		}
		/* The target looks every RIO_ALIVE_LOOK_MS. */
		if (t_ms % RIO_ALIVE_LOOK_MS)
			continue;
		t = at(t_ms);
		if (rio_alive_silent_ms(&a, word, &t) >= alive_s * 1000) {
			silent_at = t_ms;
			break;
		}
	}
	assert_true(silent_at >= stop);
	assert_true(silent_at <= stop + alive_s * 1000 + RIO_ALIVE_LOOK_MS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(clock__arithmetic),
		cmocka_unit_test(silent__from_the_last_change),
		cmocka_unit_test(every__keeps_a_running_client_alive),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
