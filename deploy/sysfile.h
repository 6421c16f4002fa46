/* SPDX-License-Identifier: MIT */
/*
 * Paths under /proc, /sys, /etc and /var. In the unit tests' build of this
 * file (NR_TEST_BUILD) they are resolved below NFSRDMA_ROOT, so the writers
 * run against a temporary folder; the nfsrdma program has no such switch and
 * always acts on the live system.
 */
#ifndef NR_SYSFILE_H
#define NR_SYSFILE_H

#include <stddef.h>
#include <sys/types.h>

/* The test root, or NULL: always NULL outside the unit tests' build. */
const char *nr_test_root(void);

/* Writes the test root + abs into buf; -ENAMETOOLONG when it does not fit. */
int nr_path(char *buf, size_t len, const char *abs);

/*
 * Reads at most len - 1 bytes of a small file (proc, sysfs) and NUL-terminates
 * it; strips one trailing newline. Returns the length or -errno.
 */
ssize_t nr_file_read(const char *abs, char *buf, size_t len);

/*
 * Writes str with a single write(2): proc and nfsd control files act on each
 * write call, so a split write would be two commands. Returns 0 or -errno.
 */
int nr_file_write(const char *abs, const char *str);

/* Writes data to abs through a temp file in the same folder, fsync, rename. */
int nr_file_replace(const char *abs, const char *data, size_t len, mode_t mode);

/* An absolute path by its text alone (no stat, so a dead NFS mount cannot
 * hang it): '//' collapsed, the trailing '/' dropped. -ENAMETOOLONG when it
 * does not fit, -EINVAL when it is not absolute. */
int nr_path_tidy(const char *path, char *out, size_t len);

/* Takes an exclusive flock on abs (created 0600), waiting for another
 * holder; returns the fd, or -EINTR when a signal held by nr_sigdefer came
 * meanwhile, or -errno. Closing the fd releases it. */
int nr_file_lock(const char *abs);

/* Makes folder abs (0755) unless it exists; says why not and returns
 * -errno. */
int nr_dir_ensure(const char *abs);

/* 1 when abs exists, 0 when not, -errno on other errors. */
int nr_file_exists(const char *abs);

#endif
