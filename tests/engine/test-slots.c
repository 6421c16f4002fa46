// SPDX-License-Identifier: GPL-2.0
/* The target's clients= slots: a peer that sends no hello takes none, a
 * connection that never completes gives its slot back, a refused client
 * counts only into a free slot, and the target is served only once every
 * slot's client came and went. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "slots.h"

/* The invariants every transition keeps. */
static void sane(const struct rio_slots *s)
{
	assert_true(s->gone <= s->taken);
	assert_true(s->taken <= s->clients);
	assert_true(s->pending <= s->taken - s->gone);
}

/* rping, a port scan, fio's rdma engine: refused, never counted, however
 * many come, and the real client still finds its slot. */
static void foreign__takes_nothing(void **state)
{
	struct rio_slots s;
	int i;

	(void)state;
	rio_slots_init(&s, 1);
	for (i = 0; i < 100; i++)
		assert_int_equal(rio_slots_admit(&s, -EPROTO),
				 RIO_ADMIT_FOREIGN);
	assert_int_equal(s.taken, 0);
	assert_false(rio_slots_served(&s));
	assert_int_equal(rio_slots_admit(&s, 0), RIO_ADMIT_JUDGE);
	rio_slots_accepted(&s);
	rio_slots_established(&s);
	rio_slots_ended(&s);
	sane(&s);
	assert_true(rio_slots_served(&s));
}

/* A valid hello whose connection never completes holds its slot (a real
 * client meanwhile is told busy, and retries) until it is dropped; then
 * the slot is free again and the drop did not count. */
static void pending__busy_then_given_back(void **state)
{
	struct rio_slots s;

	(void)state;
	rio_slots_init(&s, 1);
	assert_int_equal(rio_slots_admit(&s, 0), RIO_ADMIT_JUDGE);
	rio_slots_accepted(&s);
	sane(&s);
	assert_int_equal(rio_slots_admit(&s, 0), RIO_ADMIT_BUSY);
	/* Even a stray peer is foreign first, not busy. */
	assert_int_equal(rio_slots_admit(&s, -EPROTO), RIO_ADMIT_FOREIGN);
	rio_slots_abandoned(&s);
	sane(&s);
	assert_int_equal(s.taken, 0);
	assert_false(rio_slots_served(&s));
	assert_int_equal(rio_slots_admit(&s, 0), RIO_ADMIT_JUDGE);
}

/* Once every slot is held by a complete connection, more are full: the
 * same answer as when all have come and gone. */
static void full__only_when_no_slot_is_pending(void **state)
{
	struct rio_slots s;

	(void)state;
	rio_slots_init(&s, 2);
	rio_slots_accepted(&s);
	rio_slots_accepted(&s);
	assert_int_equal(rio_slots_admit(&s, 0), RIO_ADMIT_BUSY);
	rio_slots_established(&s);
	assert_int_equal(rio_slots_admit(&s, 0), RIO_ADMIT_BUSY);
	rio_slots_established(&s);
	assert_int_equal(rio_slots_admit(&s, 0), RIO_ADMIT_FULL);
	/* Another version's hello is judged only into a free slot. */
	assert_int_equal(rio_slots_admit(&s, -EPROTONOSUPPORT), RIO_ADMIT_FULL);
	rio_slots_ended(&s);
	rio_slots_ended(&s);
	sane(&s);
	assert_true(rio_slots_served(&s));
	assert_int_equal(rio_slots_admit(&s, 0), RIO_ADMIT_FULL);
}

/* A refused client (another version, a verb the target does not serve)
 * came and went: it counts, so a target whose only client was refused
 * ends. */
static void refused__counts(void **state)
{
	struct rio_slots s;

	(void)state;
	rio_slots_init(&s, 1);
	assert_int_equal(rio_slots_admit(&s, -EPROTONOSUPPORT),
			 RIO_ADMIT_JUDGE);
	rio_slots_refused(&s);
	sane(&s);
	assert_true(rio_slots_served(&s));
}

/* What a forged hello of another version could do before: with clients=1
 * and the real client connected, its refusal counted and the target
 * ended, cutting the client off. Now it finds no free slot, and however
 * many come, the target is served only when the real client has gone. */
static void refused__cannot_end_a_target_that_serves(void **state)
{
	struct rio_slots s;
	int i;

	(void)state;
	rio_slots_init(&s, 1);
	rio_slots_accepted(&s);
	rio_slots_established(&s);
	for (i = 0; i < 100; i++) {
		enum rio_admit a = rio_slots_admit(&s, -EPROTONOSUPPORT);

		assert_int_equal(a, RIO_ADMIT_FULL);
		assert_false(rio_slots_served(&s));
	}
	/* With two slots the forged one takes the free one: the target
	 * still ends only after the real client has gone. */
	rio_slots_init(&s, 2);
	rio_slots_accepted(&s);
	rio_slots_established(&s);
	assert_int_equal(rio_slots_admit(&s, -EPROTONOSUPPORT),
			 RIO_ADMIT_JUDGE);
	rio_slots_refused(&s);
	sane(&s);
	assert_false(rio_slots_served(&s));
	assert_int_equal(rio_slots_admit(&s, 0), RIO_ADMIT_FULL);
	rio_slots_ended(&s);
	assert_true(rio_slots_served(&s));
}

/* Any sequence of requests and outcomes keeps the invariants, and the
 * target is served exactly when every slot's client came and went. */
static void random__invariants_hold(void **state)
{
	struct rio_slots s;
	unsigned int round, established, pending;

	(void)state;
	srand(7);
	for (round = 0; round < 200; round++) {
		unsigned int step;

		rio_slots_init(&s, 1 + rand() % 5);
		established = pending = 0;
		for (step = 0; step < 200; step++) {
			int decoded = (int[]){ 0, -EPROTO,
					       -EPROTONOSUPPORT }[rand() % 3];
			enum rio_admit a = rio_slots_admit(&s, decoded);

			if (a == RIO_ADMIT_JUDGE) {
				if (rand() % 2) {
					rio_slots_refused(&s);
				} else {
					rio_slots_accepted(&s);
					pending++;
				}
			}
			if (pending && rand() % 2) {
				pending--;
				if (rand() % 2) {
					rio_slots_established(&s);
					established++;
				} else {
					rio_slots_abandoned(&s);
				}
			}
			if (established && rand() % 3 == 0) {
				established--;
				rio_slots_ended(&s);
			}
			sane(&s);
			assert_int_equal(s.pending, pending);
			assert_true(!rio_slots_served(&s) ||
				    (!established && !pending));
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(foreign__takes_nothing),
		cmocka_unit_test(pending__busy_then_given_back),
		cmocka_unit_test(full__only_when_no_slot_is_pending),
		cmocka_unit_test(refused__counts),
		cmocka_unit_test(refused__cannot_end_a_target_that_serves),
		cmocka_unit_test(random__invariants_hold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
