// SPDX-License-Identifier: GPL-2.0
/* Whether a port is still up, asked of the device a few times a second. */
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "port.h"

/* True once the port has not been ACTIVE for RIO_LINK_GRACE_MS, with
 * state naming what it is instead. Asks the device at most every 100 ms
 * (*checked); *down_since is zero while the port is up. Callers ask only
 * while they wait, so a check more than a second after the last one is a
 * new outage, not the old one. A device that cannot be asked counts as a
 * port that is down. */
bool rio_port_down(struct ibv_context *verbs, uint8_t port,
		   struct timespec *checked, struct timespec *down_since,
		   char *state, size_t len)
{
	struct ibv_port_attr pa;
	bool fresh = true;
	int ret;

	if (!rio_ts_unset(checked)) {
		long gap = rio_ms_since(checked);

		if (gap < 100)
			return false;
		fresh = gap > 1000;
	}
	clock_gettime(CLOCK_MONOTONIC, checked);
	ret = ibv_query_port(verbs, port, &pa);
	if (!ret && pa.state == IBV_PORT_ACTIVE) {
		*down_since = (struct timespec){ 0 };
		return false;
	}
	if (fresh || rio_ts_unset(down_since)) {
		*down_since = *checked;
		return false;
	}
	if (ret)
		snprintf(state, len, "unknown: ibv_query_port(%s, port %u): %s",
			 ibv_get_device_name(verbs->device), port,
			 strerror(ret));
	else
		snprintf(state, len, "%s", ibv_port_state_str(pa.state));
	return rio_ms_since(down_since) >= RIO_LINK_GRACE_MS;
}
