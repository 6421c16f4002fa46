/* SPDX-License-Identifier: MIT */
/*
 * Processes by their name in /proc/PID/comm, and by their identity: a pid
 * alone names whichever process the kernel gave it to last, so a process
 * that is to be signalled later is known by its pid, its start time and its
 * executable together. Always the live /proc: no test root stands in for
 * processes.
 */
#ifndef RC_PROC_H
#define RC_PROC_H

#include <sys/types.h>

/* 1 when process pid runs and its comm is comm, else 0. */
int rc_proc_is(pid_t pid, const char *comm);

/* The pid of a process whose comm is comm, 0 when none runs. */
pid_t rc_proc_find(const char *comm);

/* 1 when such a process runs, else 0. */
int rc_proc_running(const char *comm);

/* What tells one process from a later one given the same pid. */
struct rc_proc_id {
	pid_t pid;
	pid_t ppid;
	/* clock ticks after boot, /proc/PID/stat field 22 */
	unsigned long long start;
	/* /proc/PID/exe without the " (deleted)" of a replaced file; empty
	 * for a kernel thread */
	char exe[256];
	char comm[16];
};

/* Reads pid's identity: 0, -ESRCH when no process has that pid, -EPROTO
 * when its stat line cannot be read as the kernel writes it, or -errno. */
int rc_proc_id_read(pid_t pid, struct rc_proc_id *id);

/* 1 when a and b are one process: pid, start time and executable. */
int rc_proc_id_same(const struct rc_proc_id *a, const struct rc_proc_id *b);

/* Now, in the clock ticks of rc_proc_id.start. */
unsigned long long rc_proc_ticks_now(void);

/* The processes named comm that started at or after since (clock ticks):
 * fills up to max of them into out and returns how many there are (more
 * than max when out was too small), or -errno. */
int rc_proc_find_since(const char *comm, unsigned long long since,
		       struct rc_proc_id *out, int max);

/*
 * Stops the process id names with SIGTERM, only if pid is still that very
 * process: the signal goes through a pidfd opened before the identity is
 * checked, so a pid reused meanwhile cannot receive it. Waits up to
 * timeout_ms for it to exit. Returns 0 when it exited; 1 when pid is not that
 * process (nothing was signalled; *now, when not NULL, is the process that
 * has the pid, or has pid 0 when none has); -ETIMEDOUT when it still runs;
 * -errno.
 */
int rc_proc_stop(const struct rc_proc_id *id, int timeout_ms,
		 struct rc_proc_id *now);

#endif
