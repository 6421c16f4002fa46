/* SPDX-License-Identifier: GPL-2.0 */
/* A target's ledger of its clients= slots: which connection requests take
 * one, and when every slot has come and gone. No verbs, no fio: the
 * counting alone, so host tests can check it. */
#ifndef RIO_SLOTS_H
#define RIO_SLOTS_H

#include <stdbool.h>

/* What a target does with a connection request before it looks at what
 * the hello asks for. */
enum rio_admit {
	/* A free slot: judge the hello; the connection takes the slot, or
	 * its refusal does (a real client that came and went). */
	RIO_ADMIT_JUDGE,
	/* No rdmaio hello at all (rping, a port scan, fio's rdma engine):
	 * refused, and it takes nothing. */
	RIO_ADMIT_FOREIGN,
	/* No free slot, but some are held by connections not yet complete:
	 * refused for now, the client retries. */
	RIO_ADMIT_BUSY,
	/* No free slot: refused, and it takes nothing. */
	RIO_ADMIT_FULL,
};

struct rio_slots {
	unsigned int clients; /* clients= */
	/* Slots in use or used: connections accepted (complete or not)
	 * and refusals that counted. Never above clients. */
	unsigned int taken;
	unsigned int pending; /* accepted, not complete yet */
	unsigned int gone; /* came and went: never above taken */
};

void rio_slots_init(struct rio_slots *s, unsigned int clients);
enum rio_admit rio_slots_admit(const struct rio_slots *s, int decoded);
void rio_slots_refused(struct rio_slots *s);
void rio_slots_accepted(struct rio_slots *s);
void rio_slots_established(struct rio_slots *s);
void rio_slots_abandoned(struct rio_slots *s);
void rio_slots_ended(struct rio_slots *s);
bool rio_slots_served(const struct rio_slots *s);

#endif
