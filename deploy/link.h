/* SPDX-License-Identifier: MIT */
#ifndef NR_LINK_H
#define NR_LINK_H

/* Soft-RoCE links; each explains its failures and returns 0 or -errno. */
int nr_link_add(const char *name, const char *netdev);
int nr_link_del(const char *name);

/* Reason for a NEWLINK error, as the kernel means it (see rdmanl tests). */
const char *nr_link_add_cause(int err);

#endif
