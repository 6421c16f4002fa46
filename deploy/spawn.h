/* SPDX-License-Identifier: MIT */
/*
 * Other programs (exportfs, rpc.mountd, rpcbind) run only through
 * posix_spawnp with an argv array: no shell parses anything.
 */
#ifndef NR_SPAWN_H
#define NR_SPAWN_H

/* Runs argv[0] from PATH and waits; returns its exit status (0-255),
 * 128 + signal when killed, or -errno when it could not start. */
int nr_spawn_wait(char *const argv[]);

/* 1 when a process whose /proc/PID/comm is comm runs, else 0. */
int nr_proc_running(const char *comm);

#endif
