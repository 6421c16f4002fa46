// SPDX-License-Identifier: MIT
/* nfsrdma status [--json] */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "rc_log.h"
#include "sysfile.h"
#include "rc_status.h"

static const char *s(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return "-";
	return json_object_get_string(v);
}

static struct json_object *arr(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v && json_object_is_type(v, json_type_array) ? v : NULL;
}

static void print_text(struct json_object *st)
{
	struct json_object *a = arr(st, "rdma_devices"), *nfsd, *x;
	size_t i, j;

	printf("RDMA devices:\n");
	for (i = 0; a && i < json_object_array_length(a); i++) {
		struct json_object *d = json_object_array_get_idx(a, i);
		struct json_object *ports = arr(d, "ports");

		printf("  %s driver %s (%s)\n", s(d, "name"), s(d, "driver"),
		       s(d, "transport"));
		for (j = 0; ports && j < json_object_array_length(ports); j++) {
			struct json_object *p =
				json_object_array_get_idx(ports, j);

			printf("    port %s %s %s %s mtu %s rate %s netdev "
			       "%s\n",
			       s(p, "port"), s(p, "state"), s(p, "phys_state"),
			       s(p, "link_layer"), s(p, "active_mtu"),
			       s(p, "rate"), s(p, "netdev"));
		}
	}
	json_object_object_get_ex(st, "nfsd", &nfsd);
	printf("nfsd: running %s, threads %s, versions %s, portlist %s\n",
	       s(nfsd, "running"), s(nfsd, "threads"), s(nfsd, "versions"),
	       s(nfsd, "portlist"));
	a = arr(st, "exports");
	printf("exports:\n");
	for (i = 0; a && i < json_object_array_length(a); i++) {
		x = json_object_array_get_idx(a, i);
		printf("  %s %s %s\n", s(x, "path"), s(x, "clients"),
		       s(x, "options"));
	}
	a = arr(st, "nfs_mounts");
	printf("NFS mounts:\n");
	for (i = 0; a && i < json_object_array_length(a); i++) {
		x = json_object_array_get_idx(a, i);
		printf("  %s on %s %s proto %s port %s vers %s rsize %s wsize "
		       "%s nconnect %s\n",
		       s(x, "source"), s(x, "mountpoint"), s(x, "fstype"),
		       s(x, "proto"), s(x, "port"), s(x, "vers"), s(x, "rsize"),
		       s(x, "wsize"), s(x, "nconnect"));
	}
}

int nr_cmd_status(int argc, char **argv)
{
	struct json_object *st;
	int json = argc == 2 && !strcmp(argv[1], "--json");

	if (argc > 2 || (argc == 2 && !json))
		return nr_bad_usage("status: expected [--json]", NULL);
	st = rc_status_collect(nr_test_root());
	if (!st) {
		rc_diag(NULL, "status: out of memory");
		return 1;
	}
	if (json)
		printf("%s\n",
		       json_object_to_json_string_ext(
			       st, JSON_C_TO_STRING_PRETTY |
					   JSON_C_TO_STRING_NOSLASHESCAPE));
	else
		print_text(st);
	json_object_put(st);
	return 0;
}
