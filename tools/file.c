// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"
#include "log.h"

int rio_file_read_fd(int fd, char **buf, size_t *len)
{
	size_t used = 0, cap = 65536;
	char *b, *nb;
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) < 0 && errno != ESPIPE)
		return -errno;
	b = malloc(cap);
	if (!b)
		return -ENOMEM;
	for (;;) {
		if (cap - used < 2) {
			nb = realloc(b, cap * 2);
			if (!nb) {
				free(b);
				return -ENOMEM;
			}
			b = nb;
			cap *= 2;
		}
		n = read(fd, b + used, cap - used - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;

			free(b);
			return -err;
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

int rio_file_read(const char *path, char **buf, size_t *len)
{
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = rio_file_read_fd(fd, buf, len);
	close(fd);
	return ret;
}

static int write_all(int fd, const char *data, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		data += n;
		len -= n;
	}
	return 0;
}

int rio_file_write_atomic(const char *path, const char *data, size_t len)
{
	char *tmp = NULL, *dcopy = NULL;
	int fd = -1, dfd, ret;

	if (asprintf(&tmp, "%s.tmp.XXXXXX", path) < 0)
		return -ENOMEM;
	fd = mkstemp(tmp);
	if (fd < 0) {
		ret = -errno;
		RIO_CALL_ERR(-ret, "mkstemp", "%s", tmp);
		free(tmp);
		return ret;
	}
	ret = write_all(fd, data, len);
	if (ret) {
		RIO_CALL_ERR(-ret, "write", "%s, %zu bytes", tmp, len);
		goto fail;
	}
	/* mkstemp makes 0600; a result is meant to be shared. */
	if (fchmod(fd, 0644) || fsync(fd)) {
		ret = -errno;
		RIO_CALL_ERR(-ret, "fsync", "%s", tmp);
		goto fail;
	}
	if (close(fd)) {
		fd = -1;
		ret = -errno;
		RIO_CALL_ERR(-ret, "close", "%s", tmp);
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path)) {
		ret = -errno;
		RIO_CALL_ERR(-ret, "rename", "%s, %s", tmp, path);
		goto fail;
	}
	/* The rename itself is durable only once the folder is synced. */
	dcopy = strdup(path);
	if (dcopy) {
		dfd = open(dirname(dcopy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd >= 0) {
			fsync(dfd);
			close(dfd);
		}
	}
	free(dcopy);
	free(tmp);
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	return ret;
}

int rio_file_scratch(const char *prefix)
{
	char *tmp;
	int fd, ret;

	if (asprintf(&tmp, "/tmp/%s-XXXXXX", prefix) < 0)
		return -ENOMEM;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		RIO_CALL_ERR(-ret, "mkostemp", "%s", tmp);
		free(tmp);
		return ret;
	}
	unlink(tmp);
	free(tmp);
	return fd;
}
