/* SPDX-License-Identifier: MIT */
/* Whether a host answers on a TCP port: the first question of a probe or
 * of an explained mount refusal, before any RPC that has no timeout. */
#ifndef NR_REACH_H
#define NR_REACH_H

/* rpcbind's port: NFSv3's MOUNT call and the lock manager start there. */
#define NR_RPCBIND_PORT 111

/* TCP connect to host:port within timeout_ms: 0, or -errno (-ETIMEDOUT,
 * -ECONNREFUSED, -EHOSTUNREACH when host does not resolve). */
int nr_reach_tcp(const char *host, int port, int timeout_ms);

#endif
