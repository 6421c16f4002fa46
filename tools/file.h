/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_FILE_H
#define RDMAIO_TOOLS_FILE_H

#include <stddef.h>

/* Reads a whole file into a NUL-terminated buffer; -errno on failure. */
int rio_file_read(const char *path, char **buf, size_t *len);

/* The same for an open file, read from its start. */
int rio_file_read_fd(int fd, char **buf, size_t *len);

/*
 * Writes data to path so that path either keeps its old content or holds all
 * of data: temp file in the same folder, fsync, rename, fsync of the folder.
 */
int rio_file_write_atomic(const char *path, const char *data, size_t len);

/*
 * An unnamed scratch file under /tmp (name prefix-XXXXXX, unlinked at once),
 * close-on-exec: a child gets it only as the stream it is dup'ed to, so
 * nothing the child leaves behind (an ssh ControlPersist master) keeps it.
 * Returns the fd or -errno.
 */
int rio_file_scratch(const char *prefix);

#endif
