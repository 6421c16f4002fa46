/* SPDX-License-Identifier: MIT */
/* Reading and atomically replacing files; every path is used as given. */
#ifndef RC_FILE_H
#define RC_FILE_H

#include <stddef.h>
#include <sys/types.h>

/* Bound for a whole /proc file (/proc/stat of a large machine is ~100 KiB). */
#define RC_FILE_PROC_MAX (4u << 20)

/* Reads a whole file into a NUL-terminated buffer the caller frees;
 * -errno on failure, -EFBIG when it holds more than max bytes: what another
 * process or host wrote is never trusted to be small. */
int rc_file_read(const char *path, char **buf, size_t *len, size_t max);

/* The same for an open file, read from its start. */
int rc_file_read_fd(int fd, char **buf, size_t *len, size_t max);

/* The same for a pipe or socket, from where it stands to its end, waiting
 * at most timeout_ms in all (-1: no limit; then -ETIMEDOUT): a child that
 * hangs never closes its end. */
int rc_file_read_stream(int fd, char **buf, size_t *len, int timeout_ms,
			size_t max);

/*
 * Reads at most len - 1 bytes of a small file (proc, sysfs) into buf and
 * NUL-terminates it, without one trailing newline. Returns the length or
 * -errno.
 */
ssize_t rc_file_read_small(const char *path, char *buf, size_t len);

/*
 * Replaces path so that it holds either its old bytes or all of data, with
 * mode: a hidden temporary file in the same folder (exportfs and nfs.conf
 * skip dotfiles), fsync, rename, fsync of the folder. Says what failed and
 * returns -errno; the old file is then untouched.
 */
int rc_file_replace(const char *path, const char *data, size_t len,
		    mode_t mode);

/* 1 when path exists, 0 when not, -errno on other errors. */
int rc_file_exists(const char *path);

#endif
