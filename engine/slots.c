// SPDX-License-Identifier: GPL-2.0
/* The target's clients= slots: see slots.h. A slot is taken only by a
 * peer that speaks rdmaio, and only while one is free: so no stray
 * connection uses one up, and no refusal, forged or not, can bring the
 * count to clients= while a client is still being served. */
#include <errno.h>

#include "slots.h"

void rio_slots_init(struct rio_slots *s, unsigned int clients)
{
	*s = (struct rio_slots){ .clients = clients };
}

/* decoded: rio_hello_decode's result for the request's private data. A
 * hello of another version is still an rdmaio client's: it is judged
 * (and refused, counted) like any other. */
enum rio_admit rio_slots_admit(const struct rio_slots *s, int decoded)
{
	if (decoded == -EPROTO)
		return RIO_ADMIT_FOREIGN;
	if (s->taken < s->clients)
		return RIO_ADMIT_JUDGE;
	return s->pending ? RIO_ADMIT_BUSY : RIO_ADMIT_FULL;
}

/* A client judged and refused: it took a free slot and left at once. */
void rio_slots_refused(struct rio_slots *s)
{
	s->taken++;
	s->gone++;
}

void rio_slots_accepted(struct rio_slots *s)
{
	s->taken++;
	s->pending++;
}

void rio_slots_established(struct rio_slots *s)
{
	s->pending--;
}

/* An accepted connection that never completed gives its slot back. */
void rio_slots_abandoned(struct rio_slots *s)
{
	s->pending--;
	s->taken--;
}

/* A complete connection ended: its client came and went. */
void rio_slots_ended(struct rio_slots *s)
{
	s->gone++;
}

bool rio_slots_served(const struct rio_slots *s)
{
	return s->gone >= s->clients;
}
