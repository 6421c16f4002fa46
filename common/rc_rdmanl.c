// SPDX-License-Identifier: MIT
#include <errno.h>
#include <linux/netlink.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/rdma_netlink.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "rc_log.h"
#include "rc_rdmanl.h"

struct rc_rdmanl {
	int fd;
	uint32_t portid;
	uint32_t seq;
};

static int msg_start(void *buf, size_t size, uint32_t seq, int cmd,
		     uint16_t flags)
{
	struct nlmsghdr *nlh = buf;

	if (size < NLMSG_HDRLEN)
		return -ENOSPC;
	memset(buf, 0, NLMSG_HDRLEN);
	nlh->nlmsg_len = NLMSG_HDRLEN;
	nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd);
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = seq;
	return 0;
}

static int put_attr(void *buf, size_t size, uint16_t type, const void *data,
		    size_t dlen)
{
	struct nlmsghdr *nlh = buf;
	size_t off = NLMSG_ALIGN(nlh->nlmsg_len);
	size_t alen = NLA_HDRLEN + dlen;
	struct nlattr *nla;

	if (off + NLA_ALIGN(alen) > size)
		return -ENOSPC;
	nla = (struct nlattr *)((char *)buf + off);
	nla->nla_type = type;
	nla->nla_len = alen;
	memcpy((char *)nla + NLA_HDRLEN, data, dlen);
	/* Padding is zeroed, as libmnl does, so the bytes are reproducible. */
	memset((char *)nla + alen, 0, NLA_ALIGN(alen) - alen);
	nlh->nlmsg_len = off + NLA_ALIGN(alen);
	return 0;
}

static int put_strz(void *buf, size_t size, uint16_t type, const char *s)
{
	return put_attr(buf, size, type, s, strlen(s) + 1);
}

static int put_u32(void *buf, size_t size, uint16_t type, uint32_t v)
{
	return put_attr(buf, size, type, &v, sizeof(v));
}

int rc_rdmanl_build_newlink(void *buf, size_t size, uint32_t seq,
			    const char *name, const char *type,
			    const char *netdev)
{
	int ret = msg_start(buf, size, seq, RDMA_NLDEV_CMD_NEWLINK,
			    NLM_F_REQUEST | NLM_F_ACK);

	/* Same attribute order as iproute2's rdma/link.c link_add_type(). */
	if (!ret)
		ret = put_strz(buf, size, RDMA_NLDEV_ATTR_DEV_NAME, name);
	if (!ret)
		ret = put_strz(buf, size, RDMA_NLDEV_ATTR_LINK_TYPE, type);
	if (!ret)
		ret = put_strz(buf, size, RDMA_NLDEV_ATTR_NDEV_NAME, netdev);
	return ret ? ret : (int)((struct nlmsghdr *)buf)->nlmsg_len;
}

int rc_rdmanl_build_dellink(void *buf, size_t size, uint32_t seq,
			    uint32_t index)
{
	int ret = msg_start(buf, size, seq, RDMA_NLDEV_CMD_DELLINK,
			    NLM_F_REQUEST | NLM_F_ACK);

	if (!ret)
		ret = put_u32(buf, size, RDMA_NLDEV_ATTR_DEV_INDEX, index);
	return ret ? ret : (int)((struct nlmsghdr *)buf)->nlmsg_len;
}

int rc_rdmanl_build_dev_dump(void *buf, size_t size, uint32_t seq)
{
	int ret = msg_start(buf, size, seq, RDMA_NLDEV_CMD_GET,
			    NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP);

	return ret ? ret : (int)((struct nlmsghdr *)buf)->nlmsg_len;
}

int rc_rdmanl_build_port_dump(void *buf, size_t size, uint32_t seq,
			      uint32_t index)
{
	int ret = msg_start(buf, size, seq, RDMA_NLDEV_CMD_PORT_GET,
			    NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP);

	if (!ret)
		ret = put_u32(buf, size, RDMA_NLDEV_ATTR_DEV_INDEX, index);
	return ret ? ret : (int)((struct nlmsghdr *)buf)->nlmsg_len;
}

int rc_rdmanl_build_chardev(void *buf, size_t size, uint32_t seq,
			    uint32_t index)
{
	int ret = msg_start(buf, size, seq, RDMA_NLDEV_CMD_GET_CHARDEV,
			    NLM_F_REQUEST | NLM_F_ACK);

	if (!ret)
		ret = put_u32(buf, size, RDMA_NLDEV_ATTR_DEV_INDEX, index);
	if (!ret)
		ret = put_strz(buf, size, RDMA_NLDEV_ATTR_CHARDEV_TYPE,
			       "uverbs");
	return ret ? ret : (int)((struct nlmsghdr *)buf)->nlmsg_len;
}

static void copy_str(char *dst, size_t size, const struct nlattr *nla)
{
	size_t n = nla->nla_len - NLA_HDRLEN;

	if (n >= size)
		n = size - 1;
	memcpy(dst, (const char *)nla + NLA_HDRLEN, n);
	dst[n] = '\0';
}

int rc_rdmanl_parse(const void *msg, size_t len, struct rc_rdmanl_attrs *out)
{
	const struct nlmsghdr *nlh = msg;
	size_t off = NLMSG_HDRLEN;

	memset(out, 0, sizeof(*out));
	if (len < NLMSG_HDRLEN || nlh->nlmsg_len > len)
		return -EINVAL;
	while (off + NLA_HDRLEN <= nlh->nlmsg_len) {
		const struct nlattr *nla =
			(const struct nlattr *)((const char *)msg + off);
		const void *data = (const char *)nla + NLA_HDRLEN;
		size_t dlen;

		if (nla->nla_len < NLA_HDRLEN ||
		    off + nla->nla_len > nlh->nlmsg_len)
			return -EINVAL;
		dlen = nla->nla_len - NLA_HDRLEN;
		switch (nla->nla_type & NLA_TYPE_MASK) {
		case RDMA_NLDEV_ATTR_DEV_INDEX:
			if (dlen == 4) {
				memcpy(&out->index, data, 4);
				out->has_index = 1;
			}
			break;
		case RDMA_NLDEV_ATTR_DEV_NAME:
			copy_str(out->name, sizeof(out->name), nla);
			break;
		case RDMA_NLDEV_ATTR_PORT_INDEX:
			if (dlen == 4)
				memcpy(&out->port, data, 4);
			break;
		case RDMA_NLDEV_ATTR_NDEV_NAME:
			copy_str(out->ndev_name, sizeof(out->ndev_name), nla);
			break;
		case RDMA_NLDEV_ATTR_PORT_STATE:
			if (dlen >= 1) {
				out->port_state = *(const uint8_t *)data;
				out->has_port_state = 1;
			}
			break;
		case RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID:
			/* The uapi says u64; kernels put a u32. */
			if (dlen == 4 || dlen == 8) {
				uint32_t v32;

				if (dlen == 4) {
					memcpy(&v32, data, 4);
					out->driver_id = v32;
				} else {
					memcpy(&out->driver_id, data, 8);
				}
				out->has_driver_id = 1;
			}
			break;
		}
		off += NLA_ALIGN(nla->nla_len);
	}
	return 0;
}

int rc_rdmanl_open(struct rc_rdmanl **nlp)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	socklen_t salen = sizeof(sa);
	struct rc_rdmanl *nl;
	int ret;

	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return -ENOMEM;
	nl->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);
	if (nl->fd < 0) {
		ret = -errno;
		rc_call_err(ret, "socket(AF_NETLINK, NETLINK_RDMA)");
		free(nl);
		return ret;
	}
	if (bind(nl->fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    getsockname(nl->fd, (struct sockaddr *)&sa, &salen)) {
		ret = -errno;
		rc_call_err(ret, "bind(NETLINK_RDMA)");
		close(nl->fd);
		free(nl);
		return ret;
	}
	nl->portid = sa.nl_pid;
	/* iproute2 seeds its sequence with time(NULL); any value works. */
	nl->seq = (uint32_t)time(NULL);
	*nlp = nl;
	return 0;
}

void rc_rdmanl_close(struct rc_rdmanl **nlp)
{
	if (!nlp || !*nlp)
		return;
	close((*nlp)->fd);
	free(*nlp);
	*nlp = NULL;
}

uint32_t rc_rdmanl_next_seq(struct rc_rdmanl *nl)
{
	return ++nl->seq;
}

int rc_rdmanl_request(struct rc_rdmanl *nl, const void *msg, size_t len,
		      rc_rdmanl_cb cb, void *arg)
{
	uint32_t seq = ((const struct nlmsghdr *)msg)->nlmsg_seq;
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	static char buf[32768] __attribute__((aligned(4)));
	int done = 0, ret = 0;

	if (sendto(nl->fd, msg, len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0) {
		ret = -errno;
		rc_call_err(ret, "sendto(NETLINK_RDMA)");
		return ret;
	}
	while (!done) {
		ssize_t n = recv(nl->fd, buf, sizeof(buf), 0);
		struct nlmsghdr *nlh;
		size_t left;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			rc_call_err(ret, "recv(NETLINK_RDMA)");
			return ret;
		}
		left = n;
		for (nlh = (struct nlmsghdr *)buf; NLMSG_OK(nlh, left);
		     nlh = NLMSG_NEXT(nlh, left)) {
			if (nlh->nlmsg_seq != seq)
				continue;
			if (nlh->nlmsg_type == NLMSG_DONE) {
				done = 1;
				break;
			}
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(nlh);

				/* error 0 is the ACK; keep the first error
				 * of a callback over it. */
				if (!ret)
					ret = e->error;
				done = 1;
				break;
			}
			if (cb && !ret) {
				struct rc_rdmanl_attrs a;

				ret = rc_rdmanl_parse(nlh, nlh->nlmsg_len, &a);
				if (!ret)
					ret = cb(&a, arg);
			}
		}
	}
	return ret;
}

const char *rc_rdmanl_driver_name(uint64_t id)
{
	static const struct {
		uint64_t id;
		const char *name;
	} names[] = {
		{ RDMA_DRIVER_MLX5, "mlx5" },
		{ RDMA_DRIVER_MLX4, "mlx4" },
		{ RDMA_DRIVER_CXGB4, "cxgb4" },
		{ RDMA_DRIVER_MTHCA, "mthca" },
		{ RDMA_DRIVER_BNXT_RE, "bnxt_re" },
		{ RDMA_DRIVER_OCRDMA, "ocrdma" },
		{ RDMA_DRIVER_IRDMA, "irdma" },
		{ RDMA_DRIVER_VMW_PVRDMA, "vmw_pvrdma" },
		{ RDMA_DRIVER_QEDR, "qedr" },
		{ RDMA_DRIVER_HNS, "hns" },
		{ RDMA_DRIVER_USNIC, "usnic" },
		{ RDMA_DRIVER_RXE, "rxe" },
		{ RDMA_DRIVER_HFI1, "hfi1" },
		{ RDMA_DRIVER_QIB, "qib" },
		{ RDMA_DRIVER_EFA, "efa" },
		{ RDMA_DRIVER_SIW, "siw" },
		{ RDMA_DRIVER_ERDMA, "erdma" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].id == id)
			return names[i].name;
	return NULL;
}
