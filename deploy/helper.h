/* SPDX-License-Identifier: MIT */
/*
 * The NFS helpers nfsrdma runs (exportfs, rpc.mountd, rpcbind, rpc.statd;
 * daemon.h keeps track of the daemons among them), through common/rc_spawn:
 * an argv array, no shell. nfsrdma runs as root, so a helper is looked up in
 * the system's own folders, never in the caller's PATH, and starts with a
 * clean environment.
 */
#ifndef NR_HELPER_H
#define NR_HELPER_H

#include <sys/types.h>

/* Runs helper argv[0] (a bare name, see rc_helper_path) and waits; returns
 * its exit status (0-255), 128 + signal when killed, or -errno when it could
 * not start (after saying why). */
int nr_spawn_wait(char *const argv[]);

#endif
