/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_SCRATCH_H
#define RDMAIO_TOOLS_SCRATCH_H

/*
 * An unnamed scratch file under /tmp (name prefix-XXXXXX, unlinked at once),
 * close-on-exec: a child gets it only as the stream it is dup'ed to, so
 * nothing the child leaves behind (an ssh ControlPersist master) keeps it.
 * Returns the fd or -errno.
 */
int rio_file_scratch(const char *prefix);

#endif
