// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scratch.h"
#include "rc_log.h"

int rio_file_scratch(const char *prefix)
{
	char *tmp;
	int fd, ret;

	if (asprintf(&tmp, "/tmp/%s-XXXXXX", prefix) < 0)
		return -ENOMEM;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		rc_call_err(-ret, "mkostemp(%s)", tmp);
		free(tmp);
		return ret;
	}
	unlink(tmp);
	free(tmp);
	return fd;
}
