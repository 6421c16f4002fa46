/* SPDX-License-Identifier: GPL-2.0 */
/* Milliseconds on CLOCK_MONOTONIC, the engine's one clock (the vDSO's:
 * no system call). */
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

/* A zeroed timespec stands for a clock not started yet. */
static inline bool rio_ts_unset(const struct timespec *ts)
{
	return !ts->tv_sec && !ts->tv_nsec;
}

#endif
