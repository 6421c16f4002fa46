/* SPDX-License-Identifier: GPL-2.0 */
/* Port liveness. */
#ifndef RIO_PORT_H
#define RIO_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <infiniband/verbs.h>

/* How long a port may stay down before the connections over it count as
 * lost: Soft-RoCE may never fail the requests in flight once its netdev
 * goes down (seen with Debian 12's 6.1: no completion, ever), and a
 * dropped disconnect never reaches the peer. A shorter flap is left to the
 * transport's own retries. */
#define RIO_LINK_GRACE_MS 5000
bool rio_port_down(struct ibv_context *verbs, uint8_t port,
		   struct timespec *checked, struct timespec *down_since,
		   char *state, size_t len);

#endif
