// SPDX-License-Identifier: MIT
#include <signal.h>
#include <stddef.h>
#include <time.h>

#include "sigdefer.h"

static sigset_t saved;
static int depth;
static int caught;

/* A signal the caller ignores (nohup: SIGHUP) stays ignored: held, it
 * would still become pending and undo the change. */
static void held_set(sigset_t *set)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa;
	size_t i;

	sigemptyset(set);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], NULL, &sa) || sa.sa_handler != SIG_IGN)
			sigaddset(set, sigs[i]);
}

void nr_sigdefer_begin(void)
{
	sigset_t set;

	if (depth++)
		return;
	held_set(&set);
	sigprocmask(SIG_BLOCK, &set, &saved);
}

int nr_sigdefer_pending(void)
{
	static const int order[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	sigset_t set, held;
	size_t i;

	if (sigpending(&set))
		return 0;
	held_set(&held);
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (sigismember(&set, order[i]) == 1 &&
		    sigismember(&held, order[i]) == 1)
			return order[i];
	return 0;
}

int nr_sigdefer_end(void)
{
	const struct timespec now = { 0, 0 };
	sigset_t set;
	int sig, got = 0;

	if (depth == 0 || --depth)
		return 0;
	held_set(&set);
	/* Taken here, or the unblock below would deliver it at once. */
	while ((sig = sigtimedwait(&set, NULL, &now)) > 0)
		if (!got)
			got = sig;
	sigprocmask(SIG_SETMASK, &saved, NULL);
	if (got)
		caught = got;
	return got;
}

int nr_sigdefer_caught(void)
{
	return caught;
}

void nr_sigdefer_reraise(void)
{
	sigset_t set;

	if (!caught)
		return;
	signal(caught, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, caught);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(caught);
}
