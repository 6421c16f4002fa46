/* SPDX-License-Identifier: MIT */
/*
 * Root's folder of records: what one nfsrdma invocation started or changed
 * (a daemon, a kernel setting) for a later one to stop or put back. Root
 * acts on what the records say, so the folder must be root's with mode
 * 0700, and a record a regular file of root's: anything else is refused.
 */
#ifndef NR_RUNDIR_H
#define NR_RUNDIR_H

#include <stddef.h>
#include <sys/types.h>

#define NR_RUN_DIR "/run/nfsrdma"

/*
 * Opens the folder (made when create): *fd is -1 when it does not exist and
 * create is 0. Returns 0 or -errno after saying why.
 */
int nr_rundir_open(int create, int *fd);

/*
 * Reads record name of the folder open as dirfd into buf (NUL-terminated):
 * its length; -ENOENT when there is none; -ELOOP for a symbolic link;
 * -EPERM when it is not a regular file of root's; -EFBIG when it has len
 * bytes or more; another -errno (said) when it cannot be read.
 */
ssize_t nr_rundir_read(int dirfd, const char *name, char *buf, size_t len);

/*
 * Runs fn on the folder under its lock (NR_RUN_DIR/lock), with signals held
 * (nr_sigdefer): not when the folder does not exist and create is 0, which
 * returns 0. Returns fn's result, or -errno after saying why.
 */
int nr_rundir_locked(int create, int (*fn)(int dirfd, void *arg), void *arg);

/*
 * A record's text as its "KEY VALUE" lines: fn gets each key and value (cut
 * in place). Returns fn's first nonzero, -EINVAL for a line without a
 * blank, else 0.
 */
int nr_rundir_lines(char *text,
		    int (*fn)(const char *key, char *val, void *arg),
		    void *arg);

/* Replaces record name (0600) with len bytes of data. Returns 0 or -errno. */
int nr_rundir_write(const char *name, const char *data, size_t len);

/* Removes record name; 0 also when there was none, else -errno (said). */
int nr_rundir_remove(int dirfd, const char *name);

#endif
