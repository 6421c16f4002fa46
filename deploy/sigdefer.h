/* SPDX-License-Identifier: MIT */
/*
 * A change to the system and its undo must not be cut in half by Ctrl-C:
 * between begin and end, SIGINT, SIGTERM, SIGHUP and SIGQUIT are held. The
 * change looks at nr_sigdefer_pending() before it keeps what it did, and
 * undoes it when one came. Children are started with no signal held (see
 * spawn.c).
 */
#ifndef NR_SIGDEFER_H
#define NR_SIGDEFER_H

/* Nests: only the outermost begin and end change the signal mask. */
void nr_sigdefer_begin(void);

/* The held signal that is waiting, or 0. */
int nr_sigdefer_pending(void);

/* Takes any held signal and lets signals through again; returns the signal
 * taken (also kept for nr_sigdefer_caught()), or 0. */
int nr_sigdefer_end(void);

/* The last signal taken by nr_sigdefer_end(), or 0. */
int nr_sigdefer_caught(void);

/* Ends the process by the caught signal, as if it had not been held, so the
 * caller's shell sees the interruption; returns when none was caught. */
void nr_sigdefer_reraise(void);

#endif
