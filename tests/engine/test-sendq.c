// SPDX-License-Identifier: GPL-2.0
/* The client's per-queue-pair counting: which requests ask for a
 * completion, what a completion retires, and what a nudge covers. The
 * hot path depends on it, and the lab cannot show an off-by-one. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "sendq.h"

static char items[1024];

/* Pushes n requests, none filling the queue: how many asked. */
static unsigned int push_n(struct rio_sendq *q, unsigned int from,
			   unsigned int n)
{
	unsigned int i, asked = 0;

	for (i = 0; i < n; i++)
		asked += rio_sendq_push(q, &items[from + i], false);
	return asked;
}

static void push__asks_one_in_every(void **state)
{
	struct rio_sendq q;
	unsigned int i;

	(void)state;
	assert_int_equal(rio_sendq_init(&q, 64, 4), 0);
	for (i = 1; i <= 12; i++)
		assert_int_equal(rio_sendq_push(&q, &items[i], false),
				 i % 4 == 0);
	assert_int_equal(q.count, 12);
	assert_int_equal(rio_sendq_covered(&q), 12);
	/* Two after the last that asked. */
	assert_false(rio_sendq_push(&q, &items[13], false));
	assert_false(rio_sendq_push(&q, &items[14], false));
	assert_int_equal(rio_sendq_covered(&q), 12);
	/* The request that fills fio's iodepth always asks: fio waits. */
	assert_true(rio_sendq_push(&q, &items[15], true));
	assert_int_equal(rio_sendq_covered(&q), 15);
	assert_false(rio_sendq_push(&q, &items[16], false));
	rio_sendq_fini(&q);
}

static void push__every_one_when_every_is_1(void **state)
{
	struct rio_sendq q;

	(void)state;
	assert_int_equal(rio_sendq_init(&q, 1, 1), 0);
	assert_true(rio_sendq_push(&q, &items[0], false));
	assert_ptr_equal(rio_sendq_pop(&q), &items[0]);
	assert_true(rio_sendq_push(&q, &items[1], false));
	rio_sendq_fini(&q);
	/* 0 means 1: never a queue that asks for nothing. */
	assert_int_equal(rio_sendq_init(&q, 3, 0), 0);
	assert_true(rio_sendq_push(&q, &items[0], false));
	rio_sendq_fini(&q);
	assert_int_equal(rio_sendq_init(&q, 0, 1), -EINVAL);
}

/* The ring is a power of two at least the depth, and stays in order
 * across many wraps of a depth that is not one. */
static void ring__keeps_order_across_wraps(void **state)
{
	struct rio_sendq q;
	unsigned int i, next = 0;

	(void)state;
	assert_int_equal(rio_sendq_init(&q, 3, 2), 0);
	assert_int_equal(q.mask, 3);
	for (i = 0; i < 1000; i++) {
		rio_sendq_push(&q, &items[i % 1024], false);
		if (q.count == 3) {
			assert_ptr_equal(rio_sendq_pop(&q), &items[next++]);
			assert_ptr_equal(rio_sendq_pop(&q), &items[next++]);
		}
	}
	assert_int_equal(q.queued - q.retired, q.count);
	rio_sendq_fini(&q);
	assert_int_equal(rio_sendq_init(&q, 128, 64), 0);
	assert_int_equal(q.mask, 127);
	rio_sendq_fini(&q);
}

/* A nudge covers what was posted before it and nothing after. */
static void nudge__covers_what_came_before(void **state)
{
	struct rio_sendq q;

	(void)state;
	assert_int_equal(rio_sendq_init(&q, 16, 8), 0);
	assert_int_equal(push_n(&q, 0, 5), 0);
	assert_int_equal(rio_sendq_covered(&q), 0);
	assert_true(rio_sendq_nudge(&q));
	assert_int_equal(rio_sendq_covered(&q), 5);
	/* One at a time, and none with nothing uncovered. */
	assert_false(rio_sendq_nudge(&q));
	/* fio queues more before the nudge completes. */
	assert_int_equal(push_n(&q, 5, 3), 0);
	assert_int_equal(rio_sendq_covered(&q), 5);
	assert_false(rio_sendq_nudge(&q));
	assert_int_equal(rio_sendq_nudged(&q), 5);
	while (q.count > 3)
		rio_sendq_pop(&q);
	assert_ptr_equal(q.ring[q.head], &items[5]);
	/* The three after it need a nudge of their own. */
	assert_true(rio_sendq_nudge(&q));
	assert_int_equal(rio_sendq_nudged(&q), 3);
	rio_sendq_fini(&q);
}

/* Completions that came between the nudge and its own completion
 * retired part of what it covers: it retires the rest only. */
static void nudge__after_partial_retire(void **state)
{
	struct rio_sendq q;

	(void)state;
	assert_int_equal(rio_sendq_init(&q, 16, 4), 0);
	assert_int_equal(push_n(&q, 0, 6), 1); /* the 4th asks */
	assert_int_equal(rio_sendq_covered(&q), 4);
	assert_true(rio_sendq_nudge(&q));
	/* The 4th's completion retires four. */
	rio_sendq_pop(&q);
	rio_sendq_pop(&q);
	rio_sendq_pop(&q);
	rio_sendq_pop(&q);
	assert_int_equal(rio_sendq_nudged(&q), 2);
	rio_sendq_fini(&q);
}

/* Requests given up on (never posted, or abandoned) leave from the end;
 * a nudge in flight then retires no more than is left. */
static void pop_newest__and_a_nudge(void **state)
{
	struct rio_sendq q;

	(void)state;
	assert_int_equal(rio_sendq_init(&q, 8, 8), 0);
	push_n(&q, 0, 6);
	assert_true(rio_sendq_nudge(&q));
	assert_ptr_equal(rio_sendq_pop_newest(&q), &items[5]);
	assert_ptr_equal(rio_sendq_pop_newest(&q), &items[4]);
	assert_int_equal(q.count, 4);
	assert_int_equal(q.queued - q.retired, 4);
	assert_int_equal(rio_sendq_nudged(&q), 4);
	while (q.count)
		rio_sendq_pop_newest(&q);
	assert_true(rio_sendq_nudge(&q) == false);
	/* Unsignalled count never exceeds what is there. */
	push_n(&q, 0, 3);
	rio_sendq_pop_newest(&q);
	rio_sendq_pop_newest(&q);
	assert_int_equal(q.unsig, 1);
	assert_int_equal(rio_sendq_covered(&q), 0);
	rio_sendq_fini(&q);
}

/* Taking the newest keeps the count of those after the last that asked
 * true: one that asked and two after it lose one of the two; one that
 * asked, taken, uncovers the three before it. */
static void pop_newest__keeps_unsig_true(void **state)
{
	struct rio_sendq q;

	(void)state;
	assert_int_equal(rio_sendq_init(&q, 16, 16), 0);
	assert_true(rio_sendq_push(&q, &items[0], true));
	push_n(&q, 1, 2);
	assert_int_equal(q.unsig, 2);
	rio_sendq_pop_newest(&q);
	assert_int_equal(q.unsig, 1);
	assert_int_equal(rio_sendq_covered(&q), 1);
	rio_sendq_fini(&q);

	assert_int_equal(rio_sendq_init(&q, 16, 16), 0);
	push_n(&q, 0, 3);
	assert_true(rio_sendq_push(&q, &items[3], true));
	assert_int_equal(rio_sendq_covered(&q), 4);
	assert_ptr_equal(rio_sendq_pop_newest(&q), &items[3]);
	assert_int_equal(q.unsig, 3);
	assert_int_equal(rio_sendq_covered(&q), 0);
	/* A nudge's last counts as asked. */
	assert_true(rio_sendq_nudge(&q));
	push_n(&q, 3, 2);
	rio_sendq_pop_newest(&q);
	rio_sendq_pop_newest(&q);
	assert_int_equal(q.unsig, 0);
	assert_int_equal(rio_sendq_covered(&q), 3);
	rio_sendq_fini(&q);
}

/* The totals wrap at 2^32 without losing the difference. */
static void totals__wrap(void **state)
{
	struct rio_sendq q;

	(void)state;
	assert_int_equal(rio_sendq_init(&q, 8, 8), 0);
	q.queued = q.retired = UINT32_MAX - 2;
	push_n(&q, 0, 6);
	assert_true(rio_sendq_nudge(&q));
	rio_sendq_pop(&q);
	assert_int_equal(rio_sendq_nudged(&q), 5);
	rio_sendq_fini(&q);
	rio_sendq_fini(NULL);
}

/* Ring sizes: exact powers stay, others round up, and no n overflows. */
static void pow2_ceil__rounds_up_and_caps(void **state)
{
	(void)state;
	assert_int_equal(rio_pow2_ceil(0), 1);
	assert_int_equal(rio_pow2_ceil(1), 1);
	assert_int_equal(rio_pow2_ceil(3), 4);
	assert_int_equal(rio_pow2_ceil(64), 64);
	assert_int_equal(rio_pow2_ceil(65), 128);
	assert_int_equal(rio_pow2_ceil(1u << 31), 1u << 31);
	assert_int_equal(rio_pow2_ceil(UINT32_MAX), 1u << 31);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(push__asks_one_in_every),
		cmocka_unit_test(push__every_one_when_every_is_1),
		cmocka_unit_test(ring__keeps_order_across_wraps),
		cmocka_unit_test(nudge__covers_what_came_before),
		cmocka_unit_test(nudge__after_partial_retire),
		cmocka_unit_test(pop_newest__and_a_nudge),
		cmocka_unit_test(pop_newest__keeps_unsig_true),
		cmocka_unit_test(totals__wrap),
		cmocka_unit_test(pow2_ceil__rounds_up_and_caps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
