// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rc_file.h"
#include "rc_log.h"

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Waits until fd is readable or the deadline (ms, -1: none) passes. */
static int wait_readable(int fd, long long deadline)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	long long left;

	if (deadline < 0)
		return 0;
	left = deadline - now_ms();
	if (left <= 0 ||
	    poll(&p, 1, (int)(left > INT_MAX ? INT_MAX : left)) == 0)
		return -ETIMEDOUT;
	return 0;
}

int rc_file_read_stream(int fd, char **buf, size_t *len, int timeout_ms,
			size_t max)
{
	long long deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
	size_t used = 0, cap = 65536;
	char *b, *nb;
	ssize_t n;
	int ret;

	b = malloc(cap);
	if (!b)
		return -ENOMEM;
	for (;;) {
		if (used > max) {
			free(b);
			return -EFBIG;
		}
		if (cap - used < 2) {
			nb = realloc(b, cap * 2);
			if (!nb) {
				free(b);
				return -ENOMEM;
			}
			b = nb;
			cap *= 2;
		}
		ret = wait_readable(fd, deadline);
		n = ret ? -1 : read(fd, b + used, cap - used - 1);
		if (!ret && n < 0 && errno == EINTR)
			continue;
		if (!ret && n < 0)
			ret = -errno;
		if (ret) {
			free(b);
			return ret;
		}
		if (n == 0)
			break;
		used += n;
	}
	b[used] = '\0';
	*buf = b;
	if (len)
		*len = used;
	return 0;
}

int rc_file_read_fd(int fd, char **buf, size_t *len, size_t max)
{
	if (lseek(fd, 0, SEEK_SET) < 0 && errno != ESPIPE)
		return -errno;
	return rc_file_read_stream(fd, buf, len, -1, max);
}

int rc_file_read(const char *path, char **buf, size_t *len, size_t max)
{
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = rc_file_read_fd(fd, buf, len, max);
	close(fd);
	return ret;
}

ssize_t rc_file_read_small(const char *path, char *buf, size_t len)
{
	ssize_t n, total = 0;
	int fd, ret;

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

/* The rename is durable only once the folder is synced; the new file is in
 * place either way, so a failed sync is said, not returned. */
static void sync_dir(const char *dir, const char *path)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dfd < 0)
		return;
	if (fsync(dfd))
		rc_call_err(errno, "fsync(%s) after renaming %s", dir, path);
	close(dfd);
}

int rc_file_replace(const char *path, const char *data, size_t len, mode_t mode)
{
	char tmp[4200], copy[4096];
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	const char *dir;
	int fd, ret;

	if (snprintf(copy, sizeof(copy), "%s", path) >= (int)sizeof(copy))
		return -ENAMETOOLONG;
	/* dirname() may return a static "." rather than edit copy. */
	dir = dirname(copy);
	if (snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, base) >=
	    (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		rc_call_err(ret, "mkostemp(%s)", tmp);
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
		rc_call_err(ret, "writing %s through %s", path, tmp);
		unlink(tmp);
		return ret;
	}
	sync_dir(dir, path);
	return 0;
}

int rc_file_exists(const char *path)
{
	struct stat st;

	if (stat(path, &st) == 0)
		return 1;
	return errno == ENOENT ? 0 : -errno;
}
