/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_TMPDIR_H
#define RDMAIO_TOOLS_TMPDIR_H

#include <stddef.h>

/*
 * rdmaio's temporary files, sockets and folders, all under TMPDIR (or /tmp)
 * and only when that folder is safe for root to use: a folder every user
 * may write to without the sticky bit lets another user rename rdmaio's
 * files and put links in their place. Every message names the folder, the
 * cause and the fix.
 */

/* The folder (TMPDIR, or /tmp when it is unset or empty), checked; -errno
 * and a message in err when it is missing or unsafe. */
int rio_tmpdir_base(const char **base, char *err, size_t errlen);

/*
 * A new private folder (0700, mkdtemp) named rdmaio-PREFIX.XXXXXX in the
 * checked base; *dir is the caller's to free. A base whose path is longer
 * than max_base (a socket's path fits in 108 bytes) is replaced by /tmp,
 * checked the same way. -errno and a message in err on failure.
 */
int rio_tmpdir_new(const char *prefix, size_t max_base, char **dir, char *err,
		   size_t errlen);

/* An unnamed scratch file (O_TMPFILE, or a file unlinked at once in a
 * private folder where the file system has no O_TMPFILE) in the checked
 * base, close-on-exec, this process's alone; the fd or -errno (said). */
int rio_tmpdir_scratch(void);

#endif
