// SPDX-License-Identifier: MIT
#include <json-c/json.h>
#include <string.h>

#include "result/envstatus.h"
#include "result/host.h"
#include "base/jsonread.h"
#include "rc_status.h"

static void warn_software(json_object *status, json_object *warnings)
{
	json_object *devs = rio_json_get(status, "rdma_devices"), *d;
	size_t i;

	for (i = 0; devs && i < rio_json_len(devs); i++) {
		d = json_object_array_get_idx(devs, i);
		if (rio_json_str(d, "transport") &&
		    !strcmp(rio_json_str(d, "transport"), "software"))
			rio_warn_add(
				warnings, "software-rdma",
				"RDMA device %s is software (%s): its numbers measure the CPU, not a NIC, and Soft-RoCE is often slower than TCP on the same link",
				rio_json_str(d, "name"),
				rio_json_str(d, "driver")
					? rio_json_str(d, "driver")
					: "no driver");
	}
}

json_object *rio_envstatus_gather(const char *root, json_object *warnings)
{
	json_object *env = json_object_new_object();
	json_object *st = rc_status_collect(root);

	warn_software(st, warnings);
	json_object_object_add(env, "source",
			       json_object_new_string(st ? "rdmaio" : "none"));
	json_object_object_add(env, "command", NULL);
	json_object_object_add(env, "status", st);
	return env;
}
