// SPDX-License-Identifier: GPL-2.0
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cm.h"
#include "errmsg.h"
#include "log.h"

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
	int flags, err;

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
	flags = fcntl((*ch)->fd, F_GETFL);
	if (flags < 0 || fcntl((*ch)->fd, F_SETFL, flags | O_NONBLOCK) < 0) {
		err = errno;
		rio_err_call(err, "fcntl(fd=%d, F_SETFL, O_NONBLOCK)",
			     (*ch)->fd);
		rdma_destroy_event_channel(*ch);
		*ch = NULL;
		return -err;
	}
	return 0;
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

/* Registration fails with ENOMEM/EPERM when the locked-memory limit is
 * too low; that is the common case, so name the limit and the fix. */
/* What the kernel checks when it pins pages (ib_umem_get): the locked
 * memory limit, unless the process has CAP_IPC_LOCK. */
static bool rio_cm_may_pin(size_t len, struct rlimit *rl)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3,
						0 };
	struct __user_cap_data_struct data[2] = { { 0 } };

	if (getrlimit(RLIMIT_MEMLOCK, rl) || rl->rlim_cur == RLIM_INFINITY ||
	    rl->rlim_cur >= len)
		return true;
	if (syscall(SYS_capget, &hdr, data))
		return false;
	return data[CAP_IPC_LOCK / 32].effective & (1u << (CAP_IPC_LOCK % 32));
}

int rio_cm_pin_check(size_t len, const char *what)
{
	struct rlimit rl;

	if (rio_cm_may_pin(len, &rl))
		return 0;
	rio_err("%s: %zu bytes to register but RLIMIT_MEMLOCK is %llu bytes; raise it with 'ulimit -l unlimited' (or at least %zu KiB) before fio",
		what, len, (unsigned long long)rl.rlim_cur,
		(len + 1023) / 1024);
	return -ENOMEM;
}

int rio_cm_mr_reg(struct ibv_pd *pd, void *addr, size_t len, int access,
		  const char *what, struct ibv_mr **mr)
{
	int err;

	*mr = ibv_reg_mr(pd, addr, len, access);
	if (*mr)
		return 0;
	err = errno ? errno : ENOMEM;
	rio_err_call(err, "ibv_reg_mr(%s, addr=%p, len=%zu, access=0x%x)", what,
		     addr, len, access);
	/* Says so when the locked-memory limit is the cause. */
	if (err == ENOMEM || err == EPERM || err == EAGAIN)
		rio_cm_pin_check(len, what);
	return -err;
}

int rio_cq_channel_new(struct ibv_context *verbs, const char *who,
		       struct ibv_comp_channel **cc)
{
	int flags, err;

	*cc = ibv_create_comp_channel(verbs);
	if (!*cc) {
		err = errno;
		rio_err_call(err, "ibv_create_comp_channel(%s, use_events)",
			     who);
		return -err;
	}
	flags = fcntl((*cc)->fd, F_GETFL);
	if (flags < 0 || fcntl((*cc)->fd, F_SETFL, flags | O_NONBLOCK) < 0) {
		err = errno;
		rio_err_call(err, "fcntl(fd=%d, F_SETFL, O_NONBLOCK)",
			     (*cc)->fd);
		return -err;
	}
	return 0;
}

/* use_events: sleep until the CQ signals or timeout_ms pass. The caller
 * armed the CQ and found it empty after arming, so no event is lost. */
int rio_cq_wait(struct ibv_comp_channel *cc, struct ibv_cq *cq, int timeout_ms)
{
	struct pollfd pfd = { .fd = cc->fd, .events = POLLIN };
	struct ibv_cq *ev_cq;
	void *ev_ctx;
	int ret, err;

	(void)cq;
	ret = poll(&pfd, 1, timeout_ms);
	if (ret < 0) {
		err = errno;
		if (err == EINTR)
			return 0;
		rio_err_call(err, "poll(completion channel fd=%d)", cc->fd);
		return -err;
	}
	if (!ret)
		return 0;
	if (ibv_get_cq_event(cc, &ev_cq, &ev_ctx)) {
		err = errno;
		if (err == EAGAIN)
			return 0;
		rio_err_call(err, "ibv_get_cq_event(fd=%d)", cc->fd);
		return -err;
	}
	ibv_ack_cq_events(ev_cq, 1);
	return 0;
}

long rio_ms_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - start->tv_sec) * 1000 +
	       (now.tv_nsec - start->tv_nsec) / 1000000;
}

/* True once the port has not been ACTIVE for RIO_LINK_GRACE_MS, with
 * state naming what it is instead. Asks the device at most every 100 ms
 * (*checked); *down_since is zero while the port is up. Callers ask only
 * while they wait, so a check more than a second after the last one is a
 * new outage, not the old one. A device that cannot be asked counts as a
 * port that is down. */
bool rio_cm_port_down(struct ibv_context *verbs, uint8_t port,
		      struct timespec *checked, struct timespec *down_since,
		      char *state, size_t len)
{
	struct ibv_port_attr pa;
	bool fresh = true;
	int ret;

	if (!rio_ts_unset(checked)) {
		long gap = rio_ms_since(checked);

		if (gap < 100)
			return false;
		fresh = gap > 1000;
	}
	clock_gettime(CLOCK_MONOTONIC, checked);
	ret = ibv_query_port(verbs, port, &pa);
	if (!ret && pa.state == IBV_PORT_ACTIVE) {
		*down_since = (struct timespec){ 0 };
		return false;
	}
	if (fresh || rio_ts_unset(down_since)) {
		*down_since = *checked;
		return false;
	}
	if (ret)
		snprintf(state, len, "unknown: ibv_query_port(%s, port %u): %s",
			 ibv_get_device_name(verbs->device), port,
			 strerror(ret));
	else
		snprintf(state, len, "%s", ibv_port_state_str(pa.state));
	return rio_ms_since(down_since) >= RIO_LINK_GRACE_MS;
}

long rio_cm_ts_ms(const struct timespec *ts)
{
	return ts->tv_sec * 1000 + ts->tv_nsec / 1000000;
}

int rio_async_init(struct ibv_context *verbs)
{
	int flags = fcntl(verbs->async_fd, F_GETFL), err;

	if (flags < 0 ||
	    fcntl(verbs->async_fd, F_SETFL, flags | O_NONBLOCK) < 0) {
		err = errno;
		rio_err_call(err,
			     "fcntl(async fd=%d of %s, F_SETFL, O_NONBLOCK)",
			     verbs->async_fd,
			     ibv_get_device_name(verbs->device));
		return -err;
	}
	return 0;
}

static bool rio_async_ours(const struct ibv_async_event *ev,
			   const struct ibv_qp *const *qps, unsigned int nqps,
			   const struct ibv_cq *cq)
{
	unsigned int i;

	switch (ev->event_type) {
	case IBV_EVENT_QP_FATAL:
	case IBV_EVENT_QP_REQ_ERR:
	case IBV_EVENT_QP_ACCESS_ERR:
		for (i = 0; i < nqps; i++)
			if (qps[i] && qps[i] == ev->element.qp)
				return true;
		return false;
	case IBV_EVENT_CQ_ERR:
		return ev->element.cq == cq;
	case IBV_EVENT_SRQ_ERR:
	case IBV_EVENT_DEVICE_FATAL:
		return true;
	default:
		/* Port changes are left to rio_cm_port_down's grace. */
		return false;
	}
}

int rio_async_fatal(struct ibv_context *verbs, const struct ibv_qp *const *qps,
		    unsigned int nqps, const struct ibv_cq *cq, char *msg,
		    size_t len)
{
	struct ibv_async_event ev;
	int found = 0, err;

	while (!ibv_get_async_event(verbs, &ev)) {
		if (!found && rio_async_ours(&ev, qps, nqps, cq)) {
			found = 1;
			if (ev.event_type == IBV_EVENT_QP_FATAL ||
			    ev.event_type == IBV_EVENT_QP_REQ_ERR ||
			    ev.event_type == IBV_EVENT_QP_ACCESS_ERR)
				snprintf(msg, len, "%s on queue pair %u",
					 ibv_event_type_str(ev.event_type),
					 ev.element.qp->qp_num);
			else
				snprintf(msg, len, "%s",
					 ibv_event_type_str(ev.event_type));
		}
		ibv_ack_async_event(&ev);
	}
	err = errno;
	if (err != EAGAIN && err != EWOULDBLOCK && !found)
		return -err; /* the caller says so, once */
	return found;
}
