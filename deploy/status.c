// SPDX-License-Identifier: MIT
#include <dirent.h>
#include <errno.h>
#include <infiniband/verbs.h>
#include <json-c/json.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exports.h"
#include "link.h"
#include "mounts.h"
#include "nfsd.h"
#include "spawn.h"
#include "status.h"
#include "sysfile.h"

#define NR_IB_CLASS "/sys/class/infiniband"

double nr_status_rate_gbps(const char *rate)
{
	char *end;
	double v = strtod(rate, &end);

	if (end == rate || strncmp(end, " Gb/sec", 7))
		return -1;
	return v;
}

const char *nr_status_phys_state(const char *sysfs)
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

/* Reads a sysfs attribute; "4: ACTIVE" style values lose the number. */
static struct json_object *sysfs_str(const char *fmt_dir, const char *attr,
				     int strip_number)
{
	char path[512], buf[256], *p = buf;

	if (snprintf(path, sizeof(path), "%s/%s", fmt_dir, attr) >=
		    (int)sizeof(path) ||
	    nr_file_read(path, buf, sizeof(buf)) <= 0)
		return NULL;
	if (strip_number && strchr(buf, ':'))
		p = strchr(buf, ':') + 1 + (strchr(buf, ':')[1] == ' ');
	return json_object_new_string(p);
}

/* active_mtu is not in sysfs: ask the verbs provider. */
static int active_mtu(const char *dev, int port)
{
	struct ibv_device **list;
	struct ibv_port_attr pa;
	int i, n, mtu = -1;

	if (nr_test_root())
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

static struct json_object *port_obj(const char *dev, const char *pdir, int port)
{
	struct json_object *o = json_object_new_object(), *rate;
	char path[512], buf[256];
	double gbps;
	int mtu;

	json_object_object_add(o, "port", json_object_new_int(port));
	json_object_object_add(o, "state", sysfs_str(pdir, "state", 1));
	json_object_object_add(
		o, "phys_state",
		snprintf(path, sizeof(path), "%s/phys_state", pdir) <
					(int)sizeof(path) &&
				nr_file_read(path, buf, sizeof(buf)) > 0
			? str_or_null(nr_status_phys_state(buf))
			: NULL);
	json_object_object_add(o, "link_layer",
			       sysfs_str(pdir, "link_layer", 0));
	mtu = active_mtu(dev, port);
	json_object_object_add(o, "active_mtu",
			       mtu > 0 ? json_object_new_int(mtu) : NULL);
	rate = sysfs_str(pdir, "rate", 0);
	gbps = rate ? nr_status_rate_gbps(json_object_get_string(rate)) : -1;
	json_object_object_add(o, "rate", rate);
	json_object_object_add(o, "rate_gbps",
			       gbps >= 0 ? json_object_new_double(gbps) : NULL);
	json_object_object_add(o, "netdev",
			       sysfs_str(pdir, "gid_attrs/ndevs/0", 0));
	return o;
}

static const char *driver_of(const char *name, const char *ddir,
			     struct nr_link *links, int *nlinks, char *buf,
			     size_t len)
{
	char path[512], link[512];
	ssize_t n;
	int i;

	if (snprintf(path, sizeof(path), "%s/device/driver", ddir) <
		    (int)sizeof(path) &&
	    nr_path(link, sizeof(link), path) == 0) {
		n = readlink(link, buf, len - 1);
		if (n > 0) {
			buf[n] = '\0';
			return basename(buf);
		}
	}
	/* Soft-RoCE and siw have no parent device: the kernel's uverbs
	 * driver id names them. */
	if (*nlinks < 0 && !nr_test_root())
		*nlinks = nr_link_list(links, 64);
	if (*nlinks < 0)
		*nlinks = 0;
	for (i = 0; i < *nlinks; i++)
		if (!strcmp(links[i].name, name))
			return links[i].driver;
	return NULL;
}

/*
 * rxe and siw are software. Without a driver name, sysfs still tells:
 * every hardware RDMA device hangs off a bus device (PCI, auxiliary), the
 * software ones have no "device" link at all.
 */
static const char *transport_of(const char *drv, const char *ddir)
{
	char path[600];
	int ret;

	if (drv)
		return !strcmp(drv, "rxe") || !strcmp(drv, "siw") ? "software"
								  : "hardware";
	if (snprintf(path, sizeof(path), "%s/device", ddir) >=
	    (int)sizeof(path))
		return NULL;
	ret = nr_file_exists(path);
	return ret < 0 ? NULL : ret ? "hardware" : "software";
}

static void add_devices(struct json_object *root)
{
	struct json_object *devs = json_object_new_array();
	struct json_object *rxe = json_object_new_array();
	struct nr_link links[64];
	char dir[512], ddir[512], pdir[600], drvbuf[512];
	int nlinks = -1; /* asked for only when sysfs does not say */
	struct dirent *de;
	DIR *d;

	d = nr_path(dir, sizeof(dir), NR_IB_CLASS) ? NULL : opendir(dir);
	while (d && (de = readdir(d))) {
		struct json_object *dev, *ports;
		const char *drv;
		DIR *pd;

		if (de->d_name[0] == '.')
			continue;
		ports = json_object_new_array();
		if (snprintf(ddir, sizeof(ddir), "%s/%s", NR_IB_CLASS,
			     de->d_name) >= (int)sizeof(ddir) ||
		    snprintf(pdir, sizeof(pdir), "%s/%s/ports", dir,
			     de->d_name) >= (int)sizeof(pdir)) {
			json_object_put(ports);
			continue;
		}
		dev = json_object_new_object();
		json_object_object_add(dev, "name",
				       json_object_new_string(de->d_name));
		drv = driver_of(de->d_name, ddir, links, &nlinks, drvbuf,
				sizeof(drvbuf));
		json_object_object_add(dev, "driver", str_or_null(drv));
		json_object_object_add(dev, "transport",
				       str_or_null(transport_of(drv, ddir)));
		json_object_object_add(dev, "node_type",
				       sysfs_str(ddir, "node_type", 1));
		pd = opendir(pdir);
		while (pd) {
			struct dirent *pe = readdir(pd);
			char rel[700];

			if (!pe)
				break;
			if (pe->d_name[0] == '.')
				continue;
			if (snprintf(rel, sizeof(rel), "%s/ports/%s", ddir,
				     pe->d_name) >= (int)sizeof(rel))
				continue;
			json_object_array_add(ports,
					      port_obj(de->d_name, rel,
						       atoi(pe->d_name)));
		}
		if (pd)
			closedir(pd);
		json_object_object_add(dev, "ports", ports);
		json_object_array_add(devs, dev);
		if (drv && !strcmp(drv, "rxe")) {
			struct json_object *l = json_object_new_object();
			struct json_object *p0 =
				json_object_array_get_idx(ports, 0);
			struct json_object *nd = NULL;

			if (p0)
				json_object_object_get_ex(p0, "netdev", &nd);
			json_object_object_add(
				l, "name", json_object_new_string(de->d_name));
			json_object_object_add(l, "netdev",
					       json_object_get(nd));
			json_object_array_add(rxe, l);
		}
	}
	if (d)
		closedir(d);
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

static void add_nfsd(struct json_object *root)
{
	struct json_object *o = json_object_new_object();
	char buf[4096];
	int mounted = nr_file_exists(NR_NFSD_DIR "/portlist") == 1;
	int threads = -1;

	if (mounted &&
	    nr_file_read(NR_NFSD_DIR "/threads", buf, sizeof(buf)) > 0)
		threads = atoi(buf);
	json_object_object_add(o, "running",
			       json_object_new_boolean(threads > 0));
	json_object_object_add(o, "threads",
			       threads >= 0 ? json_object_new_int(threads)
					    : NULL);
	json_object_object_add(o, "versions",
			       mounted && nr_file_read(NR_NFSD_DIR "/versions",
						       buf, sizeof(buf)) >= 0
				       ? split(buf, " ")
				       : NULL);
	json_object_object_add(o, "portlist",
			       mounted && nr_file_read(NR_NFSD_DIR "/portlist",
						       buf, sizeof(buf)) >= 0
				       ? split(buf, "\n")
				       : NULL);
	if (!nr_test_root()) {
		json_object_object_add(
			o, "mountd_running",
			json_object_new_boolean(nr_proc_running("rpc.mountd")));
		json_object_object_add(
			o, "rpcbind_running",
			json_object_new_boolean(nr_proc_running("rpcbind")));
	}
	json_object_object_add(root, "nfsd", o);
}

static void add_exports(struct json_object *root)
{
	struct json_object *a = json_object_new_array();
	struct nr_exports *t = NULL;
	const struct nr_export *e;
	int i;

	if (nr_exports_load_all(&t) == 0) {
		for (i = 0; (e = nr_exports_get(t, i)); i++) {
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
		nr_exports_delete(&t);
	}
	json_object_object_add(root, "exports", a);
}

static struct json_object *opt_int(const char *opts, const char *key, int dflt)
{
	char v[64];

	if (nr_mount_opt(opts, key, v, sizeof(v)))
		return json_object_new_int(atoi(v));
	return dflt > 0 ? json_object_new_int(dflt) : NULL;
}

static int mount_cb(const struct nr_mount_ent *m, void *arg)
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
			       nr_mount_opt(m->options, "proto", v, sizeof(v))
				       ? json_object_new_string(v)
				       : NULL);
	/* The kernel omits port= when it is 2049, and nconnect= when the
	 * mount has one connection (fs/nfs/super.c). */
	json_object_object_add(o, "port", opt_int(m->options, "port", 2049));
	json_object_object_add(o, "vers",
			       nr_mount_opt(m->options, "vers", v, sizeof(v))
				       ? json_object_new_string(v)
				       : NULL);
	json_object_object_add(o, "rsize", opt_int(m->options, "rsize", 0));
	json_object_object_add(o, "wsize", opt_int(m->options, "wsize", 0));
	json_object_object_add(o, "nconnect",
			       opt_int(m->options, "nconnect", 1));
	json_object_array_add(a, o);
	return 0;
}

struct json_object *nr_status_collect(void)
{
	struct json_object *root = json_object_new_object();
	struct json_object *mounts = json_object_new_array();

	if (!root || !mounts) {
		json_object_put(root);
		json_object_put(mounts);
		return NULL;
	}
	json_object_object_add(root, "schema",
			       json_object_new_string(NR_STATUS_SCHEMA));
	add_devices(root);
	add_nfsd(root);
	add_exports(root);
	nr_mounts_foreach(mount_cb, mounts);
	json_object_object_add(root, "nfs_mounts", mounts);
	return root;
}
