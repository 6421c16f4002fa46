/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_ENVSTATUS_H
#define RDMAIO_TOOLS_ENVSTATUS_H

#include <json-c/json.h>

/*
 * The result's "environment" object: the host's rdmaio-status/1 document,
 * gathered by the code `nfsrdma status --json` prints from (common/
 * rc_status.c), so both say the same of one host. Appends a warning for each
 * software RDMA device. root prefixes /sys, /proc and /etc (unit tests; ""
 * for the system). NULL when out of memory.
 */
json_object *rio_envstatus_gather(const char *root, json_object *warnings);

#endif
