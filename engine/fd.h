/* SPDX-License-Identifier: GPL-2.0 */
/* The engine's file descriptors (CM channel, completion channel, async
 * events) never block: every wait goes through poll() with a timeout, or
 * epoll_wait() on a set that holds a periodic tick (cq.c). */
#ifndef RIO_FD_H
#define RIO_FD_H

#include <errno.h>
#include <fcntl.h>

#include "rio_log.h"

/* 0, or -errno after naming the descriptor (what). */
static inline int rio_fd_nonblock(int fd, const char *what)
{
	int flags = fcntl(fd, F_GETFL), err;

	if (flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) >= 0)
		return 0;
	err = errno;
	rio_err_call(err, "fcntl(%s fd=%d, F_SETFL, O_NONBLOCK)", what, fd);
	return -err;
}

#endif
