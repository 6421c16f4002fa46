/* SPDX-License-Identifier: MIT */
/*
 * The kernel's export table as exportfs keeps it in /var/lib/nfs/etab (what
 * `exportfs -v` prints and rpc.mountd answers the kernel from).
 */
#ifndef NR_ETAB_H
#define NR_ETAB_H

#define NR_ETAB "/var/lib/nfs/etab"

/* exportfs -ra: every exports file into etab and the kernel. 0 or -errno,
 * after saying why. */
int nr_etab_reload(void);

/* 1 when etab lists path for client (for any client when client is NULL),
 * 0 when not, -errno when etab cannot be read. */
int nr_etab_has(const char *path, const char *client);

/* path's entries in etab as "client(options)\n" lines, in etab's order, in
 * a string the caller frees: to compare the table before and after. */
int nr_etab_describe(const char *path, char **out);

#endif
