/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_HOSTMAP_H
#define RDMAIO_TOOLS_HOSTMAP_H

/*
 * The hosts of one result by their real names. fio's JSON names a client
 * entry by the address rdmaio gave fio --client (a socket path for a
 * forwarded or local fio --server), which says nothing to a reader: the
 * map turns those names into host names (this host's, or the one the
 * host's `rdmaio env` reported) and tells which are this host.
 */
struct rio_hostmap;

/* A map whose entries fio ran here, without --client, are host local. */
struct rio_hostmap *rio_hostmap_new(const char *local);
void rio_hostmap_delete(struct rio_hostmap **map);

/* fio_name (as fio's JSON "hostname" has it) is host, or this host when
 * host is NULL. Returns 0 or -ENOMEM. */
int rio_hostmap_add(struct rio_hostmap *map, const char *fio_name,
		    const char *host);

/* This host's name. */
const char *rio_hostmap_local(const struct rio_hostmap *map);

/* The host behind a fio entry's "hostname" (NULL: fio ran it here); the
 * name itself when the map does not know it. */
const char *rio_hostmap_name(const struct rio_hostmap *map,
			     const char *fio_name);

/* 1 when host (a name the map returned) is this host. */
int rio_hostmap_is_local(const struct rio_hostmap *map, const char *host);

/*
 * The host name fio gives a --client string (and so results[].host): without
 * an "ip:", "ip4:", "ip6:" or "sock:" prefix and without ",PORT". Malloc'd.
 */
char *rio_hostmap_fio_name(const char *client);

#endif
