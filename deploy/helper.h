/* SPDX-License-Identifier: MIT */
/*
 * The NFS helpers nfsrdma runs (exportfs, rpc.mountd, rpcbind, rpc.statd),
 * through common/rc_spawn: an argv array, no shell. nfsrdma runs as root, so
 * a helper is looked up in the system's own folders, never in the caller's
 * PATH, and starts with a clean environment.
 */
#ifndef NR_HELPER_H
#define NR_HELPER_H

#include <sys/types.h>

/* Runs helper argv[0] (a bare name, see rc_helper_path) and waits; returns
 * its exit status (0-255), 128 + signal when killed, or -errno when it could
 * not start (after saying why). */
int nr_spawn_wait(char *const argv[]);

/*
 * Makes sure daemon argv[0], which forks itself into the background, runs:
 * nothing when a process of that name is already there, else starts it and
 * checks it stayed. why says what it is for, in the message when it does not
 * start. Returns 0 or a negative code after saying why.
 */
int nr_daemon_ensure(char *const argv[], const char *why);

/* The same, returning the pid of the daemon it started, 0 when one already
 * ran, or a negative code: what a rollback may stop. */
pid_t nr_daemon_start(char *const argv[], const char *why);

/* Stops a daemon this process started (SIGTERM, then waits up to 3 s), if
 * pid is still a process named comm; 0 when it is gone. */
int nr_daemon_stop(pid_t pid, const char *comm);

#endif
