/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_REMOTE_H
#define RDMAIO_TOOLS_REMOTE_H

#include <json-c/json.h>

#include "run/fiorun.h"

/*
 * Runs cmd once per host that is not this one (stdin /dev/null, at most
 * timeout_s seconds each; split as rio_strv_split with %h the host), expecting an `rdmaio env` document on its stdout,
 * and returns the result's "remote_hosts" array: {client, host, command,
 * env} per host. Stops at the first failure, printing the client, the
 * command, its exit status and the end of its stderr, and returns a
 * negative code.
 */
int rio_remote_gather(const char *cmd, const struct rio_fio_host *hosts,
		      int nhosts, unsigned timeout_s, json_object **out);

#endif
