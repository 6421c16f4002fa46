// SPDX-License-Identifier: MIT
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "envstatus.h"
#include "host.h"
#include "jutil.h"
#include "rc_log.h"
#include "spawn.h"

/* Reads the first line of a small sysfs file; NULL when absent. */
static char *read_line(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static char *read_line(const char *fmt, ...)
{
	char path[PATH_MAX], buf[512];
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return strdup(buf);
}

static json_object *str_or_null(char *s)
{
	json_object *o = s ? json_object_new_string(s) : NULL;

	free(s);
	return o;
}

/* Largest IB MTU that fits the netdev MTU, as rxe and mlx5 RoCE pick it. */
static int roce_mtu(int netdev_mtu)
{
	static const int mtus[] = { 4096, 2048, 1024, 512, 256 };
	unsigned i;

	/* RoCEv2 needs room for IP, UDP, BTH and ICRC inside the frame. */
	for (i = 0; i < sizeof(mtus) / sizeof(mtus[0]); i++)
		if (mtus[i] + 20 + 8 + 12 + 4 <= netdev_mtu)
			return mtus[i];
	return 0;
}

static json_object *port_describe(const char *root, const char *dev,
				  const char *port)
{
	char *state, *ll, *rate, *ndev, *mtu;
	json_object *o = json_object_new_object();
	int active_mtu = 0;
	const char *p;

	state = read_line("%s/sys/class/infiniband/%s/ports/%s/state", root,
			  dev, port);
	ll = read_line("%s/sys/class/infiniband/%s/ports/%s/link_layer", root,
		       dev, port);
	rate = read_line("%s/sys/class/infiniband/%s/ports/%s/rate", root, dev,
			 port);
	ndev = read_line(
		"%s/sys/class/infiniband/%s/ports/%s/gid_attrs/ndevs/0", root,
		dev, port);
	if (!ndev)
		ndev = read_line("%s/sys/class/infiniband/%s/parent", root,
				 dev);
	if (ndev && ll && !strcmp(ll, "Ethernet")) {
		mtu = read_line("%s/sys/class/net/%s/mtu", root, ndev);
		if (mtu)
			active_mtu = roce_mtu(atoi(mtu));
		free(mtu);
	}
	json_object_object_add(o, "port", json_object_new_int(atoi(port)));
	/* sysfs says "4: ACTIVE"; the status contract wants "ACTIVE". */
	p = state ? strchr(state, ':') : NULL;
	json_object_object_add(
		o, "state",
		p ? json_object_new_string(p + 1 + strspn(p + 1, " ")) : NULL);
	free(state);
	json_object_object_add(o, "link_layer", str_or_null(ll));
	json_object_object_add(o, "active_mtu",
			       active_mtu ? json_object_new_int(active_mtu)
					  : NULL);
	json_object_object_add(o, "rate_gbps",
			       rate ? json_object_new_double(atof(rate))
				    : NULL);
	json_object_object_add(o, "rate", str_or_null(rate));
	json_object_object_add(o, "netdev", str_or_null(ndev));
	return o;
}

static char *device_driver(const char *root, const char *dev)
{
	char path[PATH_MAX], target[PATH_MAX], *base;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/sys/class/infiniband/%s/device/driver",
		 root, dev);
	n = readlink(path, target, sizeof(target) - 1);
	if (n > 0) {
		target[n] = '\0';
		base = strrchr(target, '/');
		return strdup(base ? base + 1 : target);
	}
	/* Software devices have no bus device, hence no driver link. */
	if (!strncmp(dev, "rxe", 3))
		return strdup("rdma_rxe");
	if (!strncmp(dev, "siw", 3))
		return strdup("siw");
	return NULL;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Directory entries sorted, so two runs list devices in the same order. */
static int list_dir(const char *path, char ***names)
{
	struct dirent *e;
	char **v = NULL, **nv;
	int n = 0;
	DIR *d;

	d = opendir(path);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		nv = realloc(v, (n + 1) * sizeof(*v));
		if (!nv)
			break;
		v = nv;
		v[n++] = strdup(e->d_name);
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_names);
	*names = v;
	return n;
}

static void free_names(char **v, int n)
{
	while (n--)
		free(v[n]);
	free(v);
}

static json_object *devices_from_sysfs(const char *root)
{
	json_object *arr = json_object_new_array(), *dev, *ports;
	char path[PATH_MAX], **devs = NULL, **pnames = NULL, *drv;
	int nd, np, i, j, sw;

	snprintf(path, sizeof(path), "%s/sys/class/infiniband", root);
	nd = list_dir(path, &devs);
	for (i = 0; i < nd; i++) {
		dev = json_object_new_object();
		drv = device_driver(root, devs[i]);
		sw = !drv || !strcmp(drv, "rdma_rxe") || !strcmp(drv, "siw");
		json_object_object_add(dev, "name",
				       json_object_new_string(devs[i]));
		json_object_object_add(dev, "driver", str_or_null(drv));
		json_object_object_add(dev, "transport",
				       json_object_new_string(sw ? "software"
								 : "hardware"));
		ports = json_object_new_array();
		snprintf(path, sizeof(path), "%s/sys/class/infiniband/%s/ports",
			 root, devs[i]);
		np = list_dir(path, &pnames);
		for (j = 0; j < np; j++)
			json_object_array_add(
				ports, port_describe(root, devs[i], pnames[j]));
		free_names(pnames, np);
		pnames = NULL;
		json_object_object_add(dev, "ports", ports);
		json_object_array_add(arr, dev);
	}
	free_names(devs, nd);
	return arr;
}

/* mount(8) writes spaces and tabs in paths as octal escapes (\040). */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] &&
		    s[3]) {
			*o++ = (char)strtol((char[]){ s[1], s[2], s[3], 0 },
					    NULL, 8);
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

static void add_opt(json_object *m, char *opts, const char *key, int is_int)
{
	size_t n = strlen(key);
	char *p;

	for (p = opts; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, key, n) && p[n] == '=') {
			char *v = strndup(p + n + 1, strcspn(p + n + 1, ","));

			json_object_object_add(
				m, key,
				is_int ? json_object_new_int(atoi(v))
				       : json_object_new_string(v));
			free(v);
			return;
		}
	json_object_object_add(m, key, NULL);
}

json_object *rio_envstatus_nfs_mounts(const char *root)
{
	char path[PATH_MAX], src[1024], mnt[1024], type[64], opts[2048];
	json_object *arr = json_object_new_array(), *m;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/self/mounts", root);
	f = fopen(path, "re");
	if (!f)
		return arr;
	while (fscanf(f, "%1023s %1023s %63s %2047s %*d %*d", src, mnt, type,
		      opts) == 4) {
		if (strcmp(type, "nfs") && strcmp(type, "nfs4"))
			continue;
		unescape(src);
		unescape(mnt);
		m = json_object_new_object();
		json_object_object_add(m, "source",
				       json_object_new_string(src));
		json_object_object_add(m, "mountpoint",
				       json_object_new_string(mnt));
		json_object_object_add(m, "fstype",
				       json_object_new_string(type));
		add_opt(m, opts, "proto", 0);
		add_opt(m, opts, "port", 1);
		add_opt(m, opts, "vers", 0);
		add_opt(m, opts, "rsize", 1);
		add_opt(m, opts, "wsize", 1);
		add_opt(m, opts, "nconnect", 1);
		json_object_array_add(arr, m);
	}
	fclose(f);
	return arr;
}

json_object *rio_envstatus_from_sysfs(const char *root)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "schema",
			       json_object_new_string("rdmaio-status/1"));
	json_object_object_add(o, "rdma_devices", devices_from_sysfs(root));
	json_object_object_add(o, "nfs_mounts", rio_envstatus_nfs_mounts(root));
	return o;
}

static char *find_nfsrdma(const char *self_dir)
{
	char *p = NULL, *path, *dir, *save = NULL;
	const char *env = getenv("PATH");

	if (self_dir && asprintf(&p, "%s/nfsrdma", self_dir) >= 0) {
		if (!access(p, X_OK))
			return p;
		free(p);
		p = NULL;
	}
	path = strdup(env ? env : "");
	for (dir = strtok_r(path, ":", &save); dir;
	     dir = strtok_r(NULL, ":", &save)) {
		if (asprintf(&p, "%s/nfsrdma", *dir ? dir : ".") < 0) {
			p = NULL;
			break;
		}
		if (!access(p, X_OK))
			break;
		free(p);
		p = NULL;
	}
	free(path);
	return p;
}

/* Runs `nfsrdma status --json`; NULL (with a warning) when unusable. */
static json_object *status_from_nfsrdma(const char *bin, json_object *warnings)
{
	char *argv[] = { (char *)bin, "status", "--json", NULL }, *out = NULL;
	json_object *st = NULL;
	const char *schema;
	int ret;

	ret = rio_spawn_capture(argv, &out, 60, 1);
	if (ret == 0 && out &&
	    !rio_json_parse(out, strlen(out), "output of", bin, &st)) {
		schema = rio_json_str(st, "schema");
		if (schema && !strcmp(schema, "rdmaio-status/1") &&
		    json_object_is_type(rio_json_get(st, "rdma_devices"),
					json_type_array)) {
			free(out);
			return st;
		}
		json_object_put(st);
		st = NULL;
	}
	rio_warn_add(
		warnings, "no-environment",
		"'%s status --json' failed (exit %d) or did not print an rdmaio-status/1 document; falling back to sysfs and the mount table",
		bin, ret);
	free(out);
	return NULL;
}

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

json_object *rio_envstatus_gather(const char *root, const char *self_dir,
				  json_object *warnings)
{
	json_object *env = json_object_new_object(), *st = NULL, *cmd = NULL;
	const char *source = "nfsrdma";
	char *bin = find_nfsrdma(self_dir);

	if (bin) {
		st = status_from_nfsrdma(bin, warnings);
		if (st) {
			cmd = json_object_new_array();
			json_object_array_add(cmd, json_object_new_string(bin));
			json_object_array_add(cmd,
					      json_object_new_string("status"));
			json_object_array_add(cmd,
					      json_object_new_string("--json"));
		}
	}
	if (!st) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/sys/class/infiniband", root);
		source = "sysfs";
		if (access(path, R_OK) == 0) {
			st = rio_envstatus_from_sysfs(root);
		} else {
			source = "none";
			if (!bin)
				rio_warn_add(
					warnings, "no-environment",
					"no nfsrdma binary next to rdmaio or on PATH and no %s: RDMA devices and links are not recorded",
					path);
		}
	}
	free(bin);
	warn_software(st, warnings);
	json_object_object_add(env, "source", json_object_new_string(source));
	json_object_object_add(env, "command", cmd);
	json_object_object_add(env, "status", st);
	return env;
}
