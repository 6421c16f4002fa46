/* SPDX-License-Identifier: MIT */
/* The RDMA devices as the kernel lists them over RDMA netlink. */
#ifndef RC_LINKS_H
#define RC_LINKS_H

#include <stdint.h>

/* One RDMA device as the RDMA netlink API reports it. */
struct rc_link {
	uint32_t index;
	char name[64];
	char netdev[64]; /* of port 1; empty when the port has none */
	const char *driver; /* NULL when the kernel does not say */
};

/* Fills up to max entries; returns the count or -errno (said). */
int rc_link_list(struct rc_link *links, int max);

#endif
