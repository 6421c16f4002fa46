/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_SPAWN_H
#define RDMAIO_TOOLS_SPAWN_H

#include <stddef.h>

/*
 * Runs argv (searched on PATH) with stdin from /dev/null and stdout sent to
 * out_fd (-1: inherit). timeout_s > 0 kills the child after that many seconds.
 * Returns the exit status (0..255), 128+signal when it was killed, or -errno
 * when it could not be started.
 */
int rio_spawn_run(char *const argv[], int out_fd, unsigned timeout_s);

/* The same, calling tick(arg) about every 100 ms while the child runs. */
int rio_spawn_run_tick(char *const argv[], int out_fd, unsigned timeout_s,
		       void (*tick)(void *), void *arg);

/*
 * Runs argv with stdout captured into a NUL-terminated string (*out, owned
 * by the caller); stderr is passed through when keep_stderr, else dropped.
 * Returns as rio_spawn_run.
 */
int rio_spawn_capture(char *const argv[], char **out, unsigned timeout_s,
		      int keep_stderr);

/* The same with the child's stderr sent to err_fd (-1: inherit). */
int rio_spawn_capture_fd(char *const argv[], char **out, unsigned timeout_s,
			 int err_fd);

#endif
