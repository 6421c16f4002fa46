/* SPDX-License-Identifier: GPL-2.0 */
/* Keepalives: how a target without runtime= tells a client that is alive
 * from one that is not. A one-sided client (RDMA WRITE, READ, atomics) is
 * invisible to the target's CPU, so every client, whatever its verb,
 * writes a counter with an 8-byte RDMA WRITE into a word the target
 * registered for its connection alone, at most every alive_s / 4 seconds
 * while fio calls the engine (each commit, and each wait without
 * completions). The target reads the word when it looks at its
 * connections and ends one whose word has not changed for alive_s. A
 * client's process that stops, its host gone, or a peer that is no
 * librdmaio client writes nothing; fio's thinktime calls nothing either. */
#ifndef RIO_ALIVE_H
#define RIO_ALIVE_H

#include <stdint.h>
#include <time.h>

#include "clock.h"

/* Keepalives per alive_s: a client that calls the engine at all is seen
 * alive three times over before the target would give up on it. */
#define RIO_ALIVE_PER_STALL 4

/* How often a target reads its connections' words. */
#define RIO_ALIVE_LOOK_MS 100

/* What a target last saw of one connection's word, and since when. */
struct rio_alive {
	uint64_t seen;
	struct timespec since;
};

static inline void rio_alive_start(struct rio_alive *a, uint64_t word,
				   const struct timespec *now)
{
	a->seen = word;
	a->since = *now;
}

/* Milliseconds the word has kept its value as of now; 0 when it just
 * changed (any change: the value is the client's). */
static inline long rio_alive_silent_ms(struct rio_alive *a, uint64_t word,
				       const struct timespec *now)
{
	if (word != a->seen) {
		rio_alive_start(a, word, now);
		return 0;
	}
	return rio_ts_diff_ms(&a->since, now);
}

/* A client's pause between keepalives for a target's alive_s (0: none). */
static inline long rio_alive_every_ms(uint32_t alive_s)
{
	return (long)alive_s * 1000 / RIO_ALIVE_PER_STALL;
}

#endif
