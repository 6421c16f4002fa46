/* SPDX-License-Identifier: GPL-2.0 */
/* Milliseconds on CLOCK_MONOTONIC, the engine's one clock (the vDSO's:
 * no system call); the helpers that take their times as arguments read
 * no clock and also serve fio's (a client's keepalives). */
#ifndef RIO_CLOCK_H
#define RIO_CLOCK_H

#include <stdbool.h>
#include <time.h>

static inline long rio_ts_ms(const struct timespec *ts)
{
	return ts->tv_sec * 1000 + ts->tv_nsec / 1000000;
}

static inline long rio_ms_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - start->tv_sec) * 1000 +
	       (now.tv_nsec - start->tv_nsec) / 1000000;
}

/* Milliseconds from start to end, both read before. */
static inline long rio_ts_diff_ms(const struct timespec *start,
				  const struct timespec *end)
{
	return (end->tv_sec - start->tv_sec) * 1000 +
	       (end->tv_nsec - start->tv_nsec) / 1000000;
}

static inline void rio_ts_add_ms(struct timespec *ts, long ms)
{
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (ms % 1000) * 1000000;
	if (ts->tv_nsec >= 1000000000) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000;
	}
}

/* Whether now is at or past when. */
static inline bool rio_ts_reached(const struct timespec *now,
				  const struct timespec *when)
{
	return now->tv_sec > when->tv_sec ||
	       (now->tv_sec == when->tv_sec && now->tv_nsec >= when->tv_nsec);
}

/* A zeroed timespec stands for a clock not started yet. */
static inline bool rio_ts_unset(const struct timespec *ts)
{
	return !ts->tv_sec && !ts->tv_nsec;
}

#endif
