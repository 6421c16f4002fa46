/* SPDX-License-Identifier: MIT */
#ifndef RC_SPAWN_H
#define RC_SPAWN_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Child processes, never through a shell: an argv array, stdin from
 * /dev/null, a process group of their own, no signal held and the usual ones
 * at their defaults. Helpers of a program that runs as root (exportfs,
 * rpc.mountd) are taken from the system's folders by absolute path and get a
 * clean environment; tools a user names (fio, ssh, gnuplot) are found on
 * PATH.
 */

/* The system folders helpers are taken from, in order, ':'-separated. */
#define RC_HELPER_DIRS "/usr/sbin:/usr/bin:/sbin:/bin"

/* Writes the absolute path of helper name (a bare name) into out; -EINVAL
 * for a name with a '/', -ENOENT when none of RC_HELPER_DIRS has it as an
 * executable file. */
int rc_helper_path(const char *name, char *out, size_t len);

/* Runs the helper at path (from rc_helper_path) with argv and only
 * PATH=RC_HELPER_DIRS and LC_ALL=C in its environment, and waits; returns
 * as rc_spawn_run. */
int rc_spawn_helper(const char *path, char *const argv[]);

/*
 * Runs argv (searched on PATH) with stdin from /dev/null and stdout sent to
 * out_fd (-1: inherit). timeout_s > 0 kills the child after that many seconds.
 * Returns the exit status (0..255), 128+signal when it was killed, or -errno
 * when it could not be started.
 */
int rc_spawn_run(char *const argv[], int out_fd, unsigned timeout_s);

/* The same, calling tick(arg) about every 100 ms while the child runs. */
int rc_spawn_run_tick(char *const argv[], int out_fd, unsigned timeout_s,
		      void (*tick)(void *), void *arg);

/*
 * Runs argv with stdout captured into a NUL-terminated string (*out, owned
 * by the caller); stderr is passed through when keep_stderr, else dropped.
 * Returns as rc_spawn_run, or -EFBIG (the child killed) when it printed
 * more than max bytes.
 */
int rc_spawn_capture(char *const argv[], char **out, size_t max,
		     unsigned timeout_s, int keep_stderr);

/* The same with the child's stderr sent to err_fd (-1: inherit). */
int rc_spawn_capture_fd(char *const argv[], char **out, size_t max,
			unsigned timeout_s, int err_fd);

/*
 * Starts argv in its own process group (stdin /dev/null, stdout to out_fd,
 * stderr to err_fd; -1 inherits) without waiting for it: a server the caller
 * stops with rc_spawn_stop. Returns 0 or -errno (after saying why).
 */
int rc_spawn_start(char *const argv[], int out_fd, int err_fd, pid_t *pid);

/* 1 while the child started by rc_spawn_start still runs (and has not been
 * reaped); 0 once it exited, with its status in *status when not NULL. */
int rc_spawn_running(pid_t pid, int *status);

/* SIGTERM to the child's process group, SIGKILL after grace_s, and reaps
 * it. Returns its exit status as rc_spawn_run does. */
int rc_spawn_stop(pid_t pid, unsigned grace_s);

/*
 * A SIGINT/SIGTERM/SIGHUP that arrives while rc_spawn_* waits for a child is
 * passed on to the child, then re-raised in rdmaio once the child is gone.
 * rc_spawn_defer_signals() catches them from then on, passes them to the
 * children waited for, and keeps the re-raise for rc_spawn_raise_deferred(),
 * so the caller can first stop the servers it started (in their own process
 * groups, they never saw the signal).
 */
void rc_spawn_defer_signals(void);
void rc_spawn_raise_deferred(void);

/* The signal deferred so far, 0 when none: a caller stops early on it. */
int rc_spawn_signal_pending(void);

#endif
