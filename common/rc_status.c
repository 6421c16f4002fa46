// SPDX-License-Identifier: MIT
#include <dirent.h>
#include <errno.h>
#include <infiniband/verbs.h>
#include <json-c/json.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rc_exports.h"
#include "rc_file.h"
#include "rc_links.h"
#include "rc_mounts.h"
#include "rc_proc.h"
#include "rc_status.h"

#define RC_IB_CLASS "/sys/class/infiniband"

/*
 * What one collection reads from: root stands for / (a unit test's temporary
 * folder, where neither the kernel's netlink, the verbs provider nor
 * processes are asked), or "" for the system itself.
 */
struct host {
	const char *root;
	int live;
};

/* root + abs into path: 0, or -ENAMETOOLONG. */
static int host_path(const struct host *h, const char *abs, char *path,
		     size_t len)
{
	int n = snprintf(path, len, "%s%s", h->root, abs);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* The file at root + abs, as rc_file_read_small reads it. */
static ssize_t host_read(const struct host *h, const char *abs, char *buf,
			 size_t len)
{
	char path[PATH_MAX];
	int ret = host_path(h, abs, path, sizeof(path));

	return ret ? ret : rc_file_read_small(path, buf, len);
}

static int host_exists(const struct host *h, const char *abs)
{
	char path[PATH_MAX];
	int ret = host_path(h, abs, path, sizeof(path));

	return ret ? ret : rc_file_exists(path);
}

double rc_status_rate_gbps(const char *rate)
{
	char *end;
	double v = strtod(rate, &end);

	if (end == rate || strncmp(end, " Gb/sec", 7))
		return -1;
	return v;
}

const char *rc_status_phys_state(const char *sysfs)
{
	static const char *const names[] = {
		NULL,
		"SLEEP",
		"POLLING",
		"DISABLED",
		"PORT_CONFIGURATION_TRAINING",
		"LINK_UP",
		"LINK_ERROR_RECOVERY",
		"PHY_TEST",
	};
	int n = atoi(sysfs);

	return n > 0 && n < 8 ? names[n] : NULL;
}

static struct json_object *str_or_null(const char *s)
{
	return s && s[0] ? json_object_new_string(s) : NULL;
}

/* A sysfs attribute (dir is absolute, below the root); "4: ACTIVE" style
 * values lose the number. */
static struct json_object *sysfs_str(const struct host *h, const char *dir,
				     const char *attr, int strip_number)
{
	char path[1024], buf[256], *p = buf, *colon;

	if (snprintf(path, sizeof(path), "%s/%s", dir, attr) >=
		    (int)sizeof(path) ||
	    host_read(h, path, buf, sizeof(buf)) <= 0)
		return NULL;
	colon = strchr(buf, ':');
	if (strip_number && colon)
		p = colon + 1 + (colon[1] == ' ');
	return json_object_new_string(p);
}

/* active_mtu is not in sysfs: ask the verbs provider. */
static int active_mtu(const struct host *h, const char *dev, int port)
{
	struct ibv_device **list;
	struct ibv_port_attr pa;
	int i, n, mtu = -1;

	if (!h->live)
		return -1;
	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n; i++) {
		struct ibv_context *ctx;

		if (strcmp(ibv_get_device_name(list[i]), dev))
			continue;
		ctx = ibv_open_device(list[i]);
		if (ctx && !ibv_query_port(ctx, port, &pa))
			mtu = 128 << pa.active_mtu;
		if (ctx)
			ibv_close_device(ctx);
	}
	if (list)
		ibv_free_device_list(list);
	return mtu;
}

static struct json_object *port_obj(const struct host *h, const char *dev,
				    const char *pdir, int port)
{
	struct json_object *o = json_object_new_object(), *rate;
	char path[1024], buf[256];
	double gbps;
	int mtu;

	json_object_object_add(o, "port", json_object_new_int(port));
	json_object_object_add(o, "state", sysfs_str(h, pdir, "state", 1));
	json_object_object_add(
		o, "phys_state",
		snprintf(path, sizeof(path), "%s/phys_state", pdir) <
					(int)sizeof(path) &&
				host_read(h, path, buf, sizeof(buf)) > 0
			? str_or_null(rc_status_phys_state(buf))
			: NULL);
	json_object_object_add(o, "link_layer",
			       sysfs_str(h, pdir, "link_layer", 0));
	mtu = active_mtu(h, dev, port);
	json_object_object_add(o, "active_mtu",
			       mtu > 0 ? json_object_new_int(mtu) : NULL);
	rate = sysfs_str(h, pdir, "rate", 0);
	gbps = rate ? rc_status_rate_gbps(json_object_get_string(rate)) : -1;
	json_object_object_add(o, "rate", rate);
	json_object_object_add(o, "rate_gbps",
			       gbps >= 0 ? json_object_new_double(gbps) : NULL);
	json_object_object_add(o, "netdev",
			       sysfs_str(h, pdir, "gid_attrs/ndevs/0", 0));
	return o;
}

/* The kernel's RDMA devices over netlink, asked once per collection and
 * only when sysfs does not name a device's driver. */
#define LINKS_MAX 64
struct links {
	struct rc_link v[LINKS_MAX];
	int n; /* -1: not asked yet */
};

static const char *driver_of(const struct host *h, const char *name,
			     const char *ddir, struct links *l, char *buf,
			     size_t len)
{
	char path[PATH_MAX], rel[PATH_MAX];
	ssize_t n;
	int i;

	if ((size_t)snprintf(rel, sizeof(rel), "%s/device/driver", ddir) <
		    sizeof(rel) &&
	    !host_path(h, rel, path, sizeof(path))) {
		n = readlink(path, buf, len - 1);
		if (n > 0) {
			buf[n] = '\0';
			return basename(buf);
		}
	}
	/* Soft-RoCE and siw have no parent device: the kernel's uverbs
	 * driver id names them. */
	if (l->n < 0)
		l->n = h->live ? rc_link_list(l->v, LINKS_MAX) : 0;
	if (l->n < 0)
		l->n = 0;
	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].name, name))
			return l->v[i].driver;
	return NULL;
}

/*
 * rxe and siw are software. Without a driver name, sysfs still tells:
 * every hardware RDMA device hangs off a bus device (PCI, auxiliary), the
 * software ones have no "device" link at all.
 */
static const char *transport_of(const struct host *h, const char *drv,
				const char *ddir)
{
	char path[1200];
	int ret;

	if (drv)
		return !strcmp(drv, "rxe") || !strcmp(drv, "siw") ? "software"
								  : "hardware";
	if (snprintf(path, sizeof(path), "%s/device", ddir) >=
	    (int)sizeof(path))
		return NULL;
	ret = host_exists(h, path);
	return ret < 0 ? NULL : ret ? "hardware" : "software";
}

static int not_dot(const struct dirent *de)
{
	return de->d_name[0] != '.';
}

/* The entries of root + abs, sorted so that two runs list them in the same
 * order; the count, 0 when it cannot be read. */
static int host_list(const struct host *h, const char *abs,
		     struct dirent ***names)
{
	char path[PATH_MAX];
	int n;

	*names = NULL;
	if (host_path(h, abs, path, sizeof(path)))
		return 0;
	n = scandir(path, names, not_dot, versionsort);
	return n < 0 ? 0 : n;
}

static void names_free(struct dirent **names, int n)
{
	while (n-- > 0)
		free(names[n]);
	free(names);
}

static struct json_object *ports_of(const struct host *h, const char *dev,
				    const char *ddir)
{
	struct json_object *ports = json_object_new_array();
	char pdir[1024], rel[1200];
	struct dirent **names;
	int i, n;

	if (snprintf(pdir, sizeof(pdir), "%s/ports", ddir) >= (int)sizeof(pdir))
		return ports;
	n = host_list(h, pdir, &names);
	for (i = 0; i < n; i++)
		if (snprintf(rel, sizeof(rel), "%s/%s", pdir,
			     names[i]->d_name) < (int)sizeof(rel))
			json_object_array_add(ports,
					      port_obj(h, dev, rel,
						       atoi(names[i]->d_name)));
	names_free(names, n);
	return ports;
}

/* The rxe_links entry of an rxe device: its name and port 1's netdev. */
static struct json_object *rxe_link(const char *name, struct json_object *ports)
{
	struct json_object *l = json_object_new_object(), *nd = NULL;
	struct json_object *p0 = json_object_array_get_idx(ports, 0);

	if (p0)
		json_object_object_get_ex(p0, "netdev", &nd);
	json_object_object_add(l, "name", json_object_new_string(name));
	json_object_object_add(l, "netdev", json_object_get(nd));
	return l;
}

/* The device's NUMA node (its PCI function's numa_node) and that node's
 * CPUs: null for a device with no node (-1: one socket, or a software
 * device, which has no PCI function). */
static void add_numa(const struct host *h, const char *ddir,
		     struct json_object *dev)
{
	char path[1100], buf[256];
	int node = -1;

	snprintf(path, sizeof(path), "%s/device/numa_node", ddir);
	if (host_read(h, path, buf, sizeof(buf)) > 0)
		node = atoi(buf);
	json_object_object_add(dev, "numa_node",
			       node >= 0 ? json_object_new_int(node) : NULL);
	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist",
		 node);
	json_object_object_add(dev, "numa_cpus",
			       node >= 0 && host_read(h, path, buf,
						      sizeof(buf)) > 0
				       ? json_object_new_string(buf)
				       : NULL);
}

static struct json_object *device_obj(const struct host *h, const char *name,
				      struct links *l, int *is_rxe)
{
	struct json_object *dev = json_object_new_object();
	char ddir[512], drvbuf[512];
	const char *drv;

	snprintf(ddir, sizeof(ddir), "%s/%s", RC_IB_CLASS, name);
	drv = driver_of(h, name, ddir, l, drvbuf, sizeof(drvbuf));
	json_object_object_add(dev, "name", json_object_new_string(name));
	json_object_object_add(dev, "driver", str_or_null(drv));
	json_object_object_add(dev, "transport",
			       str_or_null(transport_of(h, drv, ddir)));
	json_object_object_add(dev, "node_type",
			       sysfs_str(h, ddir, "node_type", 1));
	json_object_object_add(dev, "ports", ports_of(h, name, ddir));
	add_numa(h, ddir, dev);
	*is_rxe = drv && !strcmp(drv, "rxe");
	return dev;
}

/* How many NUMA nodes the host has; null when sysfs does not say. */
static void add_numa_nodes(const struct host *h, struct json_object *root)
{
	struct dirent **names;
	int i, n, nodes = 0;

	n = host_list(h, "/sys/devices/system/node", &names);
	for (i = 0; i < n; i++)
		nodes += !strncmp(names[i]->d_name, "node", 4) &&
			 names[i]->d_name[4] >= '0' &&
			 names[i]->d_name[4] <= '9';
	names_free(names, n);
	json_object_object_add(root, "numa_nodes",
			       nodes ? json_object_new_int(nodes) : NULL);
}

static void add_devices(const struct host *h, struct json_object *root)
{
	struct json_object *devs = json_object_new_array();
	struct json_object *rxe = json_object_new_array(), *dev, *ports;
	struct links l = { .n = -1 };
	struct dirent **names;
	int i, n, is_rxe;

	n = host_list(h, RC_IB_CLASS, &names);
	for (i = 0; i < n; i++) {
		dev = device_obj(h, names[i]->d_name, &l, &is_rxe);
		json_object_array_add(devs, dev);
		if (is_rxe && json_object_object_get_ex(dev, "ports", &ports))
			json_object_array_add(rxe, rxe_link(names[i]->d_name,
							    ports));
	}
	names_free(names, n);
	json_object_object_add(root, "rdma_devices", devs);
	json_object_object_add(root, "rxe_links", rxe);
}

static struct json_object *split(const char *s, const char *sep)
{
	struct json_object *a = json_object_new_array();
	char *copy = strdup(s), *tok, *save;

	for (tok = copy ? strtok_r(copy, sep, &save) : NULL; tok;
	     tok = strtok_r(NULL, sep, &save))
		json_object_array_add(a, json_object_new_string(tok));
	free(copy);
	return a;
}

/* A file of the nfsd filesystem split into an array, or null. */
static struct json_object *nfsd_list(const struct host *h, int mounted,
				     const char *file, const char *sep)
{
	char buf[4096], abs[64];

	snprintf(abs, sizeof(abs), "%s/%s", RC_NFSD_DIR, file);
	if (!mounted || host_read(h, abs, buf, sizeof(buf)) < 0)
		return NULL;
	return split(buf, sep);
}

static void add_nfsd(const struct host *h, struct json_object *root)
{
	struct json_object *o = json_object_new_object();
	char buf[64];
	int mounted = host_exists(h, RC_NFSD_DIR "/portlist") == 1;
	int threads = -1;

	if (mounted &&
	    host_read(h, RC_NFSD_DIR "/threads", buf, sizeof(buf)) > 0)
		threads = atoi(buf);
	json_object_object_add(o, "running",
			       json_object_new_boolean(threads > 0));
	json_object_object_add(o, "threads",
			       threads >= 0 ? json_object_new_int(threads)
					    : NULL);
	json_object_object_add(o, "versions",
			       nfsd_list(h, mounted, "versions", " "));
	json_object_object_add(o, "portlist",
			       nfsd_list(h, mounted, "portlist", "\n"));
	if (h->live) {
		json_object_object_add(
			o, "mountd_running",
			json_object_new_boolean(rc_proc_running("rpc.mountd")));
		json_object_object_add(
			o, "rpcbind_running",
			json_object_new_boolean(rc_proc_running("rpcbind")));
	}
	json_object_object_add(root, "nfsd", o);
}

static void add_exports(const struct host *h, struct json_object *root)
{
	struct json_object *a = json_object_new_array();
	struct rc_exports *t = NULL;
	const struct rc_export *e;
	int i;

	if (rc_exports_load_all(h->root, &t) == 0) {
		for (i = 0; (e = rc_exports_get(t, i)); i++) {
			struct json_object *o = json_object_new_object();

			json_object_object_add(o, "path",
					       json_object_new_string(e->path));
			json_object_object_add(
				o, "clients",
				json_object_new_string(e->client));
			json_object_object_add(o, "options",
					       split(e->options, ","));
			json_object_array_add(a, o);
		}
		rc_exports_delete(&t);
	}
	json_object_object_add(root, "exports", a);
}
static struct json_object *opt_int(const char *opts, const char *key, int dflt)
{
	char v[64];

	if (rc_mount_opt(opts, key, v, sizeof(v)))
		return json_object_new_int(atoi(v));
	return dflt > 0 ? json_object_new_int(dflt) : NULL;
}

static int mount_cb(const struct rc_mount_ent *m, void *arg)
{
	struct json_object *a = arg, *o;
	char v[64];

	if (strcmp(m->fstype, "nfs") && strcmp(m->fstype, "nfs4"))
		return 0;
	o = json_object_new_object();
	json_object_object_add(o, "source", json_object_new_string(m->source));
	json_object_object_add(o, "mountpoint",
			       json_object_new_string(m->mountpoint));
	json_object_object_add(o, "fstype", json_object_new_string(m->fstype));
	json_object_object_add(o, "proto",
			       rc_mount_opt(m->options, "proto", v, sizeof(v))
				       ? json_object_new_string(v)
				       : NULL);
	/* The kernel omits port= when it is 2049, and nconnect= when the
	 * mount has one connection (fs/nfs/super.c). */
	json_object_object_add(o, "port", opt_int(m->options, "port", 2049));
	json_object_object_add(o, "vers",
			       rc_mount_opt(m->options, "vers", v, sizeof(v))
				       ? json_object_new_string(v)
				       : NULL);
	json_object_object_add(o, "rsize", opt_int(m->options, "rsize", 0));
	json_object_object_add(o, "wsize", opt_int(m->options, "wsize", 0));
	json_object_object_add(o, "nconnect",
			       opt_int(m->options, "nconnect", 1));
	/* Tenths of a second before a retransmission (nfs(5)). */
	json_object_object_add(o, "timeo", opt_int(m->options, "timeo", 0));
	json_object_array_add(a, o);
	return 0;
}

struct json_object *rc_status_nfs_mounts(const char *root)
{
	struct json_object *mounts = json_object_new_array();

	if (mounts)
		rc_mounts_foreach(root, mount_cb, mounts);
	return mounts;
}

struct json_object *rc_status_collect(const char *root)
{
	struct host h = { .root = root ? root : "", .live = !root || !*root };
	struct json_object *st = json_object_new_object();
	struct json_object *mounts = rc_status_nfs_mounts(h.root);

	if (!st || !mounts) {
		json_object_put(st);
		json_object_put(mounts);
		return NULL;
	}
	json_object_object_add(st, "schema",
			       json_object_new_string(RC_STATUS_SCHEMA));
	add_devices(&h, st);
	add_numa_nodes(&h, st);
	add_nfsd(&h, st);
	add_exports(&h, st);
	json_object_object_add(st, "nfs_mounts", mounts);
	return st;
}
