// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rc_file.h"
#include "rc_log.h"
#include "sigdefer.h"
#include "sysfile.h"

const char *nr_test_root(void)
{
#ifdef NR_TEST_BUILD
	return getenv("NFSRDMA_ROOT");
#else
	return NULL;
#endif
}

int nr_path(char *buf, size_t len, const char *abs)
{
	const char *root = nr_test_root();
	int n;

	n = snprintf(buf, len, "%s%s", root ? root : "", abs);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

ssize_t nr_file_read(const char *abs, char *buf, size_t len)
{
	char path[4096];
	int ret;

	ret = nr_path(path, sizeof(path), abs);
	return ret ? ret : rc_file_read_small(path, buf, len);
}

int nr_file_write(const char *abs, const char *str)
{
	char path[4096];
	size_t len = strlen(str);
	ssize_t n;
	int fd, ret;

	ret = nr_path(path, sizeof(path), abs);
	if (ret)
		return ret;
	/* A kernel file takes each write whole; a test root's plain file
	 * stands in for one when it holds the last write alone. */
	fd = open(path, O_WRONLY | O_CLOEXEC | (nr_test_root() ? O_TRUNC : 0));
	if (fd < 0)
		return -errno;
	n = write(fd, str, len);
	ret = n < 0 ? -errno : ((size_t)n == len ? 0 : -EIO);
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

int nr_file_replace(const char *abs, const char *data, size_t len, mode_t mode)
{
	char path[4096];
	int ret;

	ret = nr_path(path, sizeof(path), abs);
	return ret ? ret : rc_file_replace(path, data, len, mode);
}

int nr_file_lock(const char *abs)
{
	struct timespec tick = { 0, 50 * 1000 * 1000 };
	char path[4096];
	int fd, ret;

	ret = nr_path(path, sizeof(path), abs);
	if (ret)
		return ret;
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = -errno;
		rc_call_err(ret, "open(%s)", path);
		return ret;
	}
	/* Not a blocking flock: a Ctrl-C held meanwhile must still end the
	 * wait for another nfsrdma's lock. */
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			ret = -errno;
			rc_call_err(ret, "flock(%s)", path);
			close(fd);
			return ret;
		}
		if (nr_sigdefer_pending()) {
			close(fd);
			return -EINTR;
		}
		nanosleep(&tick, NULL);
	}
	return fd;
}

int nr_file_exists(const char *abs)
{
	char path[4096];
	int ret;

	ret = nr_path(path, sizeof(path), abs);
	return ret ? ret : rc_file_exists(path);
}

int nr_path_tidy(const char *path, char *out, size_t len)
{
	char *o = out;

	if (path[0] != '/')
		return -EINVAL;
	if (strlen(path) >= len)
		return -ENAMETOOLONG;
	for (; *path; path++)
		if (*path != '/' || o == out || o[-1] != '/')
			*o++ = *path;
	if (o > out + 1 && o[-1] == '/')
		o--;
	*o = '\0';
	return 0;
}

int nr_dir_ensure(const char *abs)
{
	char dir[4096];
	int ret;

	ret = nr_path(dir, sizeof(dir), abs);
	if (ret)
		return ret;
	if (mkdir(dir, 0755) && errno != EEXIST) {
		ret = -errno;
		rc_call_err(ret, "mkdir(%s)", dir);
		return ret;
	}
	return 0;
}
