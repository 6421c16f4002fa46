/* SPDX-License-Identifier: MIT */
/*
 * The kernel's export table as exportfs keeps it in /var/lib/nfs/etab (what
 * `exportfs -v` prints and rpc.mountd answers the kernel from).
 */
#ifndef NR_ETAB_H
#define NR_ETAB_H

#include <stddef.h>

#define NR_ETAB "/var/lib/nfs/etab"

/*
 * One entry, as nfs-utils documents for a single export: exportfs -i -o
 * OPTIONS CLIENT:PATH adds or replaces it, exportfs -u CLIENT:PATH takes it
 * out. Every other entry of etab stays as it is, those made with
 * 'exportfs -o' and listed in no file included (exportfs -r would drop
 * them). 0 or -errno, after saying why.
 */
int nr_etab_export(const char *path, const char *client, const char *options);
int nr_etab_unexport(const char *path, const char *client);

/* 1 when etab lists path for client (any client when client is NULL), with
 * that entry's options copied into options when it is not NULL; 0 when not;
 * -errno when etab cannot be read. */
int nr_etab_find(const char *path, const char *client, char *options,
		 size_t len);

/* 1 when etab lists path for client (for any client when client is NULL),
 * 0 when not, -errno when etab cannot be read. */
int nr_etab_has(const char *path, const char *client);

/* path's entries in etab as "client(options)\n" lines, in etab's order, in
 * a string the caller frees: to compare the table before and after. */
int nr_etab_describe(const char *path, char **out);

#endif
