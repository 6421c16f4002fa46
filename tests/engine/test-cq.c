// SPDX-License-Identifier: GPL-2.0
/* A use_events sleep's epoll set: what wakes it, what a forgotten
 * descriptor no longer does, and its refusals. The completion channel is
 * an eventfd standing in for the device's; taking a CQ event needs a
 * device, so the lab tests that half. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "clock.h"
#include "cq.h"
#include "log-capture.h"

struct fixture {
	struct ibv_comp_channel cc;
	int others[2];
	struct rio_cq_sleep *s;
};

static int setup(void **state)
{
	static struct fixture f;

	f.cc.fd = eventfd(0, EFD_NONBLOCK);
	f.others[0] = eventfd(0, EFD_NONBLOCK);
	f.others[1] = eventfd(0, EFD_NONBLOCK);
	f.s = NULL;
	if (f.cc.fd < 0 || f.others[0] < 0 || f.others[1] < 0 ||
	    rio_cq_sleep_new(&f.cc, f.others, 2, 10, &f.s))
		return -1;
	log_capture_reset();
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	rio_cq_sleep_delete(&f->s);
	close(f->cc.fd);
	close(f->others[0]);
	close(f->others[1]);
	return 0;
}

static void ready(int fd)
{
	uint64_t one = 1;

	assert_int_equal(write(fd, &one, sizeof(one)), sizeof(one));
}

static void wait__times_out_with_nothing_ready(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(rio_cq_wait(f->s), 0);
}

/* Ticks 200 ms apart, and bounds half a tick wide: a loaded machine's
 * scheduling delays stay well inside them. */
#define TICK_MS 200

/* A sleep on ticks TICK_MS apart, just woken by one. */
static struct rio_cq_sleep *on_a_tick(struct fixture *f)
{
	struct rio_cq_sleep *s = NULL;

	assert_int_equal(rio_cq_sleep_new(&f->cc, f->others, 2, TICK_MS, &s),
			 0);
	assert_int_equal(rio_cq_wait(s), 0);
	return s;
}

/* How long the next wait of s takes, ms; it must end on the tick. */
static long wait_ms(struct rio_cq_sleep *s)
{
	struct timespec t0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(rio_cq_wait(s), 0);
	return rio_ms_since(&t0);
}

static void wait__ends_on_the_next_tick_and_takes_it(void **state)
{
	struct rio_cq_sleep *s = on_a_tick(*state);

	/* Taken: the next wait sleeps until the tick fires again. */
	assert_in_range(wait_ms(s), TICK_MS / 2, 10 * TICK_MS);
	rio_cq_sleep_delete(&s);
}

static void wait__ticks_missed_while_awake_end_one_sleep_only(void **state)
{
	struct timespec pause = { .tv_nsec = 5 * TICK_MS / 2 * 1000000L };
	struct rio_cq_sleep *s = on_a_tick(*state);

	/* Two more ticks fire in the pause, the next half a tick after it. */
	assert_int_equal(nanosleep(&pause, NULL), 0);
	assert_in_range(wait_ms(s), 0, TICK_MS / 2 - 1);
	assert_in_range(wait_ms(s), TICK_MS / 4, 10 * TICK_MS);
	rio_cq_sleep_delete(&s);
}

static void wait__another_descriptor_wakes_it_and_says_so(void **state)
{
	struct fixture *f = *state;

	ready(f->others[1]);
	assert_int_equal(rio_cq_wait(f->s), RIO_CQ_OTHER);
	/* Level-triggered: it stays ready until its owner reads it. */
	assert_int_equal(rio_cq_wait(f->s), RIO_CQ_OTHER);
}

static void forget__a_ready_descriptor_no_longer_wakes_it(void **state)
{
	struct fixture *f = *state;

	ready(f->others[0]);
	rio_cq_sleep_forget(f->s, f->others[0]);
	assert_int_equal(rio_cq_wait(f->s), 0);
	/* Once is enough; again, and for one it never had, is no error. */
	rio_cq_sleep_forget(f->s, f->others[0]);
	rio_cq_sleep_forget(f->s, 12345);
	rio_cq_sleep_forget(NULL, f->others[0]);
	assert_string_equal(log_capture_text(), "");
	ready(f->others[1]);
	assert_int_equal(rio_cq_wait(f->s), RIO_CQ_OTHER);
}

static void new__refuses_more_others_than_it_holds(void **state)
{
	struct fixture *f = *state;
	int three[3] = { f->others[0], f->others[1], f->others[0] };
	struct rio_cq_sleep *s = NULL;

	assert_int_equal(rio_cq_sleep_new(&f->cc, three, 3, 10, &s), -EINVAL);
	assert_null(s);
	assert_true(log_capture_has("at most 2"));
}

static void new__refuses_a_tick_of_zero(void **state)
{
	struct fixture *f = *state;
	struct rio_cq_sleep *s = NULL;

	assert_int_equal(rio_cq_sleep_new(&f->cc, f->others, 2, 0, &s),
			 -EINVAL);
	assert_null(s);
	assert_true(log_capture_has("a tick of 0 ms"));
}

static void new__names_a_descriptor_it_cannot_watch(void **state)
{
	struct fixture *f = *state;
	int bad[1] = { -1 };
	struct rio_cq_sleep *s = NULL;

	assert_int_equal(rio_cq_sleep_new(&f->cc, bad, 1, 10, &s), -EBADF);
	assert_null(s);
	assert_true(log_capture_has("epoll_ctl(ADD, fd=-1)"));
}

static void delete__is_safe_on_null_and_leaves_null(void **state)
{
	struct rio_cq_sleep *s = NULL;

	(void)state;
	rio_cq_sleep_delete(NULL);
	rio_cq_sleep_delete(&s);
	assert_null(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			wait__times_out_with_nothing_ready, setup, teardown),
		cmocka_unit_test_setup_teardown(
			wait__ends_on_the_next_tick_and_takes_it, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			wait__ticks_missed_while_awake_end_one_sleep_only,
			setup, teardown),
		cmocka_unit_test_setup_teardown(
			wait__another_descriptor_wakes_it_and_says_so, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			forget__a_ready_descriptor_no_longer_wakes_it, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			new__refuses_more_others_than_it_holds, setup,
			teardown),
		cmocka_unit_test_setup_teardown(new__refuses_a_tick_of_zero,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			new__names_a_descriptor_it_cannot_watch, setup,
			teardown),
		cmocka_unit_test(delete__is_safe_on_null_and_leaves_null),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
