/* SPDX-License-Identifier: GPL-2.0 */
/* rdma_cm, as the client and the target use it: addresses, the event
 * channel, its events, and the device a connection must go through. */
#ifndef RIO_CM_H
#define RIO_CM_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include <rdma/rdma_cma.h>

int rio_cm_addr(const char *host, unsigned int port, bool passive,
		struct sockaddr_storage *ss);
void rio_cm_addr_str(const struct sockaddr *sa, char *buf, size_t len);
int rio_cm_channel_new(struct rdma_event_channel **ch);
void rio_cm_channel_delete(struct rdma_event_channel **ch);
int rio_cm_next(struct rdma_event_channel *ch, int timeout_ms,
		struct rdma_cm_event **ev);
/* Says that the connection's path (via) uses device got, not the device=
 * asked, or (got NULL) that this host has no such device. */
void rio_cm_device_mismatch(const char *who, const char *want, const char *got,
			    const char *via);

#endif
