// SPDX-License-Identifier: MIT
#include <string.h>

#include "read/changes.h"
#include "read/compare.h"
#include "base/jsonread.h"

static const char *str_of(json_object *v, char *buf, size_t n)
{
	if (!v)
		return "null";
	snprintf(buf, n, "%s",
		 json_object_is_type(v, json_type_string)
			 ? json_object_get_string(v)
			 : json_object_to_json_string_ext(
				   v, JSON_C_TO_STRING_PLAIN));
	return buf;
}

/* Reports one field that differs; returns 1 when it does. */
static int diff_field(FILE *out, const char *what, json_object *a,
		      json_object *b)
{
	char x[512], y[512];

	if (json_object_equal(a, b))
		return 0;
	fprintf(out, "- %s: %s -> %s\n", what, str_of(a, x, sizeof(x)),
		str_of(b, y, sizeof(y)));
	return 1;
}

/* Fields of objects in two arrays matched by key, both ways. */
static int diff_keyed(FILE *out, const char *pre, const char *what,
		      json_object *a, json_object *b, const char *key,
		      const char *const *fields)
{
	json_object *ea, *eb;
	char label[512];
	int n = 0, pass;
	size_t i, f;

	for (pass = 0; pass < 2; pass++) {
		json_object *from = pass ? b : a, *to = pass ? a : b;

		for (i = 0; i < rio_json_len(from); i++) {
			ea = json_object_array_get_idx(from, i);
			eb = rio_json_find(to, key, rio_json_str(ea, key));
			if (!eb) {
				fprintf(out,
					"- %s%s %s: only in the %s result\n",
					pre, what, rio_json_str(ea, key),
					pass ? "new" : "old");
				n++;
				continue;
			}
			if (pass)
				continue;
			for (f = 0; fields[f]; f++) {
				snprintf(label, sizeof(label), "%s%s %s %s",
					 pre, what, rio_json_str(ea, key),
					 fields[f]);
				n += diff_field(out, label,
						rio_json_get(ea, fields[f]),
						rio_json_get(eb, fields[f]));
			}
		}
	}
	return n;
}

static int diff_ports(FILE *out, const char *pre, json_object *da,
		      json_object *db)
{
	static const char *const pf[] = { "state",	"link_layer",
					  "active_mtu", "rate_gbps",
					  "netdev",	NULL };
	json_object *pa = rio_json_get(da, "ports"),
		    *pb = rio_json_get(db, "ports");
	char label[256];
	size_t i, f;
	int n = 0;

	for (i = 0; i < rio_json_len(pa) && i < rio_json_len(pb); i++)
		for (f = 0; pf[f]; f++) {
			snprintf(label, sizeof(label),
				 "%sRDMA device %s port %zu %s", pre,
				 rio_json_str(da, "name"), i + 1, pf[f]);
			n += diff_field(
				out, label,
				rio_json_get(json_object_array_get_idx(pa, i),
					     pf[f]),
				rio_json_get(json_object_array_get_idx(pb, i),
					     pf[f]));
		}
	return n;
}

static const char *const mount_fields[] = { "source",	"proto", "port",
					    "vers",	"rsize", "wsize",
					    "nconnect", NULL };

/*
 * Versions, host, devices and mounts of two documents that both have
 * "versions", "host" and "environment" (results, or rdmaio env documents);
 * every label starts with pre.
 */
static int diff_host(json_object *a, json_object *b, const char *pre, FILE *out)
{
	static const char *const ver[] = { "rdmaio", "fio", "kernel",
					   "rdma_core", NULL };
	static const char *const dev[] = { "driver", "transport", NULL };
	static const char *const cpu[] = { "model", "count", "emulated", NULL };
	json_object *sa =
		rio_json_get(rio_json_get(a, "environment"), "status");
	json_object *sb =
		rio_json_get(rio_json_get(b, "environment"), "status");
	json_object *da = rio_json_get(sa, "rdma_devices");
	json_object *db = rio_json_get(sb, "rdma_devices"), *d2;
	char label[512];
	size_t i;
	int n = 0;

	for (i = 0; ver[i]; i++) {
		snprintf(label, sizeof(label), "%s%s version", pre, ver[i]);
		n += diff_field(
			out, label,
			rio_json_get(rio_json_get(a, "versions"), ver[i]),
			rio_json_get(rio_json_get(b, "versions"), ver[i]));
	}
	snprintf(label, sizeof(label), "%shostname", pre);
	n += diff_field(out, label,
			rio_json_get(rio_json_get(a, "host"), "hostname"),
			rio_json_get(rio_json_get(b, "host"), "hostname"));
	for (i = 0; cpu[i]; i++) {
		snprintf(label, sizeof(label), "%sCPU %s", pre, cpu[i]);
		n += diff_field(
			out, label,
			rio_json_get(rio_json_get(rio_json_get(a, "host"),
						  "cpu"),
				     cpu[i]),
			rio_json_get(rio_json_get(rio_json_get(b, "host"),
						  "cpu"),
				     cpu[i]));
	}
	snprintf(label, sizeof(label), "%senvironment source", pre);
	n += diff_field(out, label,
			rio_json_get(rio_json_get(a, "environment"), "source"),
			rio_json_get(rio_json_get(b, "environment"), "source"));
	n += diff_keyed(out, pre, "RDMA device", da, db, "name", dev);
	for (i = 0; i < rio_json_len(da); i++) {
		d2 = rio_json_find(
			db, "name",
			rio_json_str(json_object_array_get_idx(da, i), "name"));
		if (d2)
			n += diff_ports(out, pre,
					json_object_array_get_idx(da, i), d2);
	}
	n += diff_keyed(out, pre, "NFS mount", rio_json_get(sa, "nfs_mounts"),
			rio_json_get(sb, "nfs_mounts"), "mountpoint",
			mount_fields);
	return n;
}

/* --client hosts' environments, matched by host name (ports may change). */
static int diff_remote(json_object *a, json_object *b, FILE *out)
{
	json_object *ra = rio_json_get(a, "remote_hosts"),
		    *rb = rio_json_get(b, "remote_hosts"), *ea, *eb;
	char pre[512];
	size_t i;
	int n = 0;

	/* Nothing to compare when neither or only one side recorded them. */
	if (!ra || !rb) {
		if (!ra != !rb) {
			fprintf(out,
				"- remote hosts' environments: recorded only in the %s result (--remote-env)\n",
				ra ? "old" : "new");
			n++;
		}
		return n;
	}
	for (i = 0; i < rio_json_len(ra); i++) {
		ea = json_object_array_get_idx(ra, i);
		eb = rio_json_find(rb, "host", rio_json_str(ea, "host"));
		if (!eb)
			continue; /* "fio clients" names the change */
		snprintf(pre, sizeof(pre),
			 "remote host %s: ", rio_json_str(ea, "host"));
		n += diff_host(rio_json_get(ea, "env"), rio_json_get(eb, "env"),
			       pre, out);
	}
	return n;
}

static int diff_env(json_object *a, json_object *b, FILE *out)
{
	static const char *const job[] = { "sha256", NULL };
	int n = 0;

	n += diff_host(a, b, "", out);
	n += diff_keyed(out, "", "NFS mount during the run",
			rio_json_get(rio_json_get(a, "environment"),
				     "nfs_mounts_during_run"),
			rio_json_get(rio_json_get(b, "environment"),
				     "nfs_mounts_during_run"),
			"mountpoint", mount_fields);
	n += diff_keyed(out, "", "job file", rio_json_get(a, "job_files"),
			rio_json_get(b, "job_files"), "path", job);
	n += diff_field(out, "fio clients",
			rio_json_get(rio_json_get(a, "fio"), "clients"),
			rio_json_get(rio_json_get(b, "fio"), "clients"));
	n += diff_remote(a, b, out);
	return n;
}

int rio_compare(json_object *a, json_object *b, double min_noise_pct, FILE *out)
{
	struct rio_changes_count c;
	int envdiff, ret;

	fprintf(out, "## Environment differences\n\n");
	envdiff = diff_env(a, b, out);
	if (!envdiff)
		fprintf(out,
			"- none: same versions, host, devices, mounts and job files\n");
	fprintf(out, "\n## Measured changes\n\n");
	ret = rio_changes_write(a, b, min_noise_pct, out, &c);
	if (ret)
		return ret;
	fprintf(out, "\n%d change(s) beyond noise, %d of them regressions",
		c.beyond, c.worse);
	if (c.beyond && envdiff)
		fprintf(out,
			"; the %d environment difference(s) above may explain them",
			envdiff);
	else if (c.beyond)
		fprintf(out,
			"; the environment is the same, so they come from the run itself or from something rdmaio does not record");
	fprintf(out, ".\n");
	if (c.unknown)
		fprintf(out,
			"%d of the %d figures were judged without knowing the run-to-run noise (one round): their verdicts are --noise's alone.\n",
			c.unknown, c.figures);
	return c.worse;
}
