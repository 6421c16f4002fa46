/* SPDX-License-Identifier: MIT */
/*
 * RDMA netlink (NETLINK_RDMA, the NLDEV client) without libmnl: the message
 * builders are pure so their bytes can be compared with what iproute2's
 * `rdma link` sends; struct rc_rdmanl is the socket that carries them.
 */
#ifndef RC_RDMANL_H
#define RC_RDMANL_H

#include <stddef.h>
#include <stdint.h>

/* Each returns the message length or -ENOSPC when size is too small. */
int rc_rdmanl_build_newlink(void *buf, size_t size, uint32_t seq,
			    const char *name, const char *type,
			    const char *netdev);
int rc_rdmanl_build_dellink(void *buf, size_t size, uint32_t seq,
			    uint32_t index);
/* Dump of all devices (RDMA_NLDEV_CMD_GET). */
int rc_rdmanl_build_dev_dump(void *buf, size_t size, uint32_t seq);
/* Dump of one device's ports (RDMA_NLDEV_CMD_PORT_GET). */
int rc_rdmanl_build_port_dump(void *buf, size_t size, uint32_t seq,
			      uint32_t index);
/* The uverbs char device of a device: carries the kernel driver id. */
int rc_rdmanl_build_chardev(void *buf, size_t size, uint32_t seq,
			    uint32_t index);

/* One attribute set from a reply: only the fields nfsrdma reads. */
struct rc_rdmanl_attrs {
	int has_index;
	uint32_t index;
	char name[64];
	uint32_t port;
	char ndev_name[64];
	int has_port_state;
	uint8_t port_state;
	int has_driver_id;
	uint64_t driver_id;
};

/* Parses one message's attributes; -EINVAL on a malformed message. */
int rc_rdmanl_parse(const void *msg, size_t len, struct rc_rdmanl_attrs *out);

struct rc_rdmanl;

int rc_rdmanl_open(struct rc_rdmanl **nlp);
void rc_rdmanl_close(struct rc_rdmanl **nlp);
uint32_t rc_rdmanl_next_seq(struct rc_rdmanl *nl);

typedef int (*rc_rdmanl_cb)(const struct rc_rdmanl_attrs *attrs, void *arg);

/*
 * Sends msg and reads replies until the kernel's ACK or DONE; calls cb (may be
 * NULL) for each data message. Returns 0, the kernel's -errno, or cb's
 * negative return.
 */
int rc_rdmanl_request(struct rc_rdmanl *nl, const void *msg, size_t len,
		      rc_rdmanl_cb cb, void *arg);

/* Kernel driver id (enum rdma_driver_id) to a name, or NULL if unknown. */
const char *rc_rdmanl_driver_name(uint64_t id);

#endif
