/* SPDX-License-Identifier: MIT */
/*
 * The daemons nfsrdma starts (rpcbind, rpc.mountd, rpc.statd) and stops
 * again. Start and stop are separate invocations, so each daemon nfsrdma
 * started is recorded in NR_RUN_DIR: its pid with its start time and
 * executable (a pid alone could name another process by the time it is
 * stopped), and who uses it: the server, the NFSv3 mounts, or both (rpcbind).
 * A daemon that ran before nfsrdma started it is never recorded, never
 * stopped. A daemon is stopped when its last user releases it, and only once
 * the process is verified to be the one recorded.
 */
#ifndef NR_DAEMON_H
#define NR_DAEMON_H

#include "rundir.h"

enum nr_daemon_user {
	NR_DAEMON_SERVER = 1, /* server start, until server stop */
	NR_DAEMON_MOUNT = 2, /* NFSv3 mounts, until the last one is gone */
};

/*
 * Makes sure daemon argv[0] (a helper that forks into the background) runs
 * for user: one that nfsrdma did not start is left as it is; one nfsrdma
 * started gets user on its record; otherwise it is started and recorded.
 * why says what it is for, in the message when it does not start. *added is
 * set to 1 when user was not on the record before, so that
 * nr_daemon_release(argv[0], user) undoes this call. Returns 0 or -errno
 * after saying why.
 */
int nr_daemon_use(char *const argv[], const char *why, enum nr_daemon_user user,
		  int *added);

/*
 * Takes user off comm's record; when no user is left, stops the daemon
 * (SIGTERM, only if it is still the process recorded; waits for it to exit)
 * and removes the record. A record whose pid now names another process is
 * removed and that process left alone, with a warning. Returns 0 (also when
 * nothing was recorded) or -errno after saying why; a daemon that does not
 * exit keeps its record, so that the command can be run again.
 */
int nr_daemon_release(const char *comm, enum nr_daemon_user user);

/* Prints one line per recorded daemon ("  rpcbind pid 12 for server,
 * mount"), or that none is; for server status. */
void nr_daemon_print(void);

#endif
