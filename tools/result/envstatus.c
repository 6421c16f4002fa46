// SPDX-License-Identifier: MIT
#include <errno.h>
#include <string.h>

#include <json-c/json.h>

#include "result/envstatus.h"
#include "result/host.h"
#include "base/streq.h"
#include "result/resultenv.h"
#include "rc_status.h"

static int warn_software(json_object *status, json_object *warnings)
{
	const struct rio_env_device *d;
	const struct rio_env_host *h;
	struct rio_resultenv *env;
	size_t i;

	if (rio_resultenv_read_status(status, &env))
		return -ENOMEM;
	h = rio_resultenv_host(env);
	for (i = 0; i < h->ndevices; i++) {
		d = &h->devices[i];
		if (rio_streq(d->transport, "software"))
			rio_warn_add(
				warnings, "software-rdma",
				"RDMA device %s is software (%s): its numbers measure the CPU, not a NIC, and Soft-RoCE is often slower than TCP on the same link",
				d->name, d->driver ? d->driver : "no driver");
	}
	rio_resultenv_delete(&env);
	return 0;
}

json_object *rio_envstatus_gather(const char *root, json_object *warnings)
{
	json_object *env = json_object_new_object();
	json_object *st = rc_status_collect(root);

	/* A status without its software-rdma warning would read as if
	 * measured on a NIC. */
	if (!env || warn_software(st, warnings)) {
		json_object_put(st);
		json_object_put(env);
		return NULL;
	}
	json_object_object_add(env, "source",
			       json_object_new_string(st ? "rdmaio" : "none"));
	json_object_object_add(env, "command", NULL);
	json_object_object_add(env, "status", st);
	return env;
}
