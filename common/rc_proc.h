/* SPDX-License-Identifier: MIT */
/*
 * Processes by their name in /proc/PID/comm. Always the live /proc: no test
 * root stands in for processes.
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

#endif
