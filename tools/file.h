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

#endif
