// SPDX-License-Identifier: MIT
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "reach.h"

int nr_reach_tcp(const char *host, int port, int timeout_ms)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai;
	struct pollfd pfd = { .events = POLLOUT };
	socklen_t elen = sizeof(int);
	char portstr[16];
	int fd, ret, err = 0;

	snprintf(portstr, sizeof(portstr), "%d", port);
	if (getaddrinfo(host, portstr, &hints, &ai))
		return -EHOSTUNREACH;
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    0);
	if (fd < 0) {
		ret = -errno;
		freeaddrinfo(ai);
		return ret;
	}
	ret = connect(fd, ai->ai_addr, ai->ai_addrlen) ? -errno : 0;
	freeaddrinfo(ai);
	if (ret == -EINPROGRESS) {
		pfd.fd = fd;
		ret = poll(&pfd, 1, timeout_ms);
		if (ret == 0)
			ret = -ETIMEDOUT;
		else if (ret < 0)
			ret = -errno;
		else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen))
			ret = -errno;
		else
			ret = -err;
	}
	close(fd);
	return ret;
}
