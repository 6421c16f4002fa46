// SPDX-License-Identifier: GPL-2.0
/* rdma_cm for the client and the target: see cm.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cm.h"
#include "errmsg.h"
#include "fd.h"
#include "rio_log.h"

int rio_cm_addr(const char *host, unsigned int port, bool passive,
		struct sockaddr_storage *ss)
{
	struct addrinfo hints = { 0 }, *res = NULL;
	char svc[16];
	int ret;

	snprintf(svc, sizeof(svc), "%u", port);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0);
	ret = getaddrinfo(host, svc, &hints, &res);
	if (ret) {
		rio_err("%s '%s' does not resolve: %s; check %s=",
			passive ? "bindname" : "hostname", host,
			gai_strerror(ret), passive ? "bindname" : "hostname");
		return -EHOSTUNREACH;
	}
	memset(ss, 0, sizeof(*ss));
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	freeaddrinfo(res);
	return 0;
}

void rio_cm_addr_str(const struct sockaddr *sa, char *buf, size_t len)
{
	char ip[INET6_ADDRSTRLEN] = "?";
	unsigned int port = 0;

	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const void *)sa;

		inet_ntop(AF_INET, &in->sin_addr, ip, sizeof(ip));
		port = ntohs(in->sin_port);
		snprintf(buf, len, "%s:%u", ip, port);
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const void *)sa;

		inet_ntop(AF_INET6, &in6->sin6_addr, ip, sizeof(ip));
		port = ntohs(in6->sin6_port);
		snprintf(buf, len, "[%s]:%u", ip, port);
	} else {
		snprintf(buf, len, "(address family %d)", sa->sa_family);
	}
}

/* librdmacm opens every RDMA device once per process, on first use, and
 * keeps the handles. A job process that fio forks after a thread job used
 * RDMA in fio's own process inherits them, and they do not work there:
 * Soft-RoCE's first post fails with EACCES, other devices may fault. The
 * process that first used librdmacm through this engine is noted; a job
 * in another process that sees a note at all inherited it. */
static pid_t rio_cm_owner;

static int rio_cm_claim(void)
{
	pid_t self = getpid();
	pid_t owner = __atomic_load_n(&rio_cm_owner, __ATOMIC_ACQUIRE);

	if (owner && owner != self) {
		rio_err("this job runs in a process fio forked after a thread job had used RDMA in fio's own process (pid %d), and librdmacm's device handles do not work across fork; set thread for every job of the run, or for none",
			(int)owner);
		return -EPERM;
	}
	__atomic_store_n(&rio_cm_owner, self, __ATOMIC_RELEASE);
	return 0;
}

int rio_cm_channel_new(struct rdma_event_channel **ch)
{
	int err;

	*ch = NULL;
	err = rio_cm_claim();
	if (err)
		return err;
	*ch = rdma_create_event_channel();
	if (!*ch) {
		err = errno;
		rio_err_call(err, "rdma_create_event_channel()");
		rio_err("no RDMA connection manager: %s", rio_addr_hint(err));
		return -err;
	}
	/* Never block in rdma_get_cm_event: every wait goes through poll()
	 * with a timeout, so nothing hangs on a silent peer. */
	err = rio_fd_nonblock((*ch)->fd, "rdma_cm event channel");
	if (err) {
		rdma_destroy_event_channel(*ch);
		*ch = NULL;
	}
	return err;
}

void rio_cm_channel_delete(struct rdma_event_channel **ch)
{
	if (!ch || !*ch)
		return;
	rdma_destroy_event_channel(*ch);
	*ch = NULL;
}

/* 0 and an event to ack, -ETIMEDOUT, or -errno. */
int rio_cm_next(struct rdma_event_channel *ch, int timeout_ms,
		struct rdma_cm_event **ev)
{
	struct pollfd pfd = { .fd = ch->fd, .events = POLLIN };
	int ret, err;

	if (!rdma_get_cm_event(ch, ev))
		return 0;
	if (errno != EAGAIN && errno != EWOULDBLOCK) {
		err = errno;
		rio_err_call(err, "rdma_get_cm_event(fd=%d)", ch->fd);
		return -err;
	}
	if (!timeout_ms)
		return -ETIMEDOUT;
	ret = poll(&pfd, 1, timeout_ms);
	if (ret < 0) {
		err = errno;
		if (err == EINTR)
			return -ETIMEDOUT;
		rio_err_call(err, "poll(fd=%d, %d ms)", ch->fd, timeout_ms);
		return -err;
	}
	if (!ret)
		return -ETIMEDOUT;
	if (!rdma_get_cm_event(ch, ev))
		return 0;
	if (errno == EAGAIN || errno == EWOULDBLOCK)
		return -ETIMEDOUT;
	err = errno;
	rio_err_call(err, "rdma_get_cm_event(fd=%d)", ch->fd);
	return -err;
}

/* The names of this host's RDMA devices, comma separated, in buf; and
 * whether want is one of them. */
static bool rio_cm_devices_str(const char *want, char *buf, size_t len)
{
	struct ibv_device **list;
	bool found = false;
	size_t used = 0;
	int i, n = 0;

	buf[0] = '\0';
	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n && used < len; i++) {
		const char *name = ibv_get_device_name(list[i]);
		int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
				 name);

		found |= !strcmp(name, want);
		used += w > 0 ? (size_t)w : 0;
	}
	if (list)
		ibv_free_device_list(list);
	if (!buf[0])
		snprintf(buf, len, "none");
	return found;
}

void rio_cm_device_mismatch(const char *who, const char *want, const char *got,
			    const char *via)
{
	char have[256];

	if (!rio_cm_devices_str(want, have, sizeof(have)) || !got || !got[0]) {
		rio_err("%s: device=%s: no such RDMA device on this host (it has: %s); name one of those (rdma link show) or drop device=",
			who, want, have);
		return;
	}
	rio_err("%s: %s goes through RDMA device %s, not device=%s; use an address on %s's netdev (rdma link show names it), or change device=",
		who, via, got, want, want);
}
