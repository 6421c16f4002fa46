// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
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
	ssize_t n, total = 0;
	int fd, ret;

	ret = nr_path(path, sizeof(path), abs);
	if (ret)
		return ret;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((size_t)total < len - 1) {
		n = read(fd, buf + total, len - 1 - total);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			close(fd);
			return ret;
		}
		if (n == 0)
			break;
		total += n;
	}
	close(fd);
	buf[total] = '\0';
	if (total > 0 && buf[total - 1] == '\n')
		buf[--total] = '\0';
	return total;
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
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, str, len);
	ret = n < 0 ? -errno : ((size_t)n == len ? 0 : -EIO);
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

static int write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		data += n;
		len -= n;
	}
	return 0;
}

int nr_file_replace(const char *abs, const char *data, size_t len, mode_t mode)
{
	char path[4096], tmp[4200], dir[4096];
	int fd, dfd, ret;

	ret = nr_path(path, sizeof(path), abs);
	if (ret)
		return ret;
	snprintf(dir, sizeof(dir), "%s", path);
	/* A dotfile: exportfs and nfs.conf skip those, so a crash cannot
	 * leave a half-written file that they would read. */
	snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dirname(dir),
		 strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		nr_call_err(ret, "mkostemp(%s)", tmp);
		return ret;
	}
	ret = write_all(fd, data, len);
	if (!ret && fchmod(fd, mode))
		ret = -errno;
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret) {
		nr_call_err(ret, "writing %s through %s", path, tmp);
		unlink(tmp);
		return ret;
	}
	/* The rename is durable only once the folder is synced; the new file
	 * is in place either way, so a failed sync is said, not returned. */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		if (fsync(dfd))
			nr_call_err(errno, "fsync(%s) after renaming %s", dir,
				    path);
		close(dfd);
	}
	return 0;
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
		nr_call_err(ret, "open(%s)", path);
		return ret;
	}
	/* Not a blocking flock: a Ctrl-C held meanwhile must still end the
	 * wait for another nfsrdma's lock. */
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			ret = -errno;
			nr_call_err(ret, "flock(%s)", path);
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
	struct stat st;
	int ret;

	ret = nr_path(path, sizeof(path), abs);
	if (ret)
		return ret;
	if (stat(path, &st) == 0)
		return 1;
	return errno == ENOENT ? 0 : -errno;
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
