/* SPDX-License-Identifier: MIT */
#ifndef NR_LINK_H
#define NR_LINK_H

#include <stdint.h>

/* One RDMA device as the RDMA netlink API reports it. */
struct nr_link {
	uint32_t index;
	char name[64];
	char netdev[64]; /* of port 1; empty when the port has none */
	const char *driver; /* NULL when the kernel does not say */
};

/* Fills up to max entries; returns the count or -errno. */
int nr_link_list(struct nr_link *links, int max);

/* Soft-RoCE links; each explains its failures and returns 0 or -errno. */
int nr_link_add(const char *name, const char *netdev);
int nr_link_del(const char *name);

/* Reason for a NEWLINK error, as the kernel means it (see rdmanl tests). */
const char *nr_link_add_cause(int err);

#endif
