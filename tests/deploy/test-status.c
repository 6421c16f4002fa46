// SPDX-License-Identifier: MIT
/*
 * status --json against a temporary root holding sysfs, nfsd, exports and
 * mount-table files: the documented rdmaio-status/1 shape, with null for
 * what the files do not say.
 */
#include <errno.h>
#include <ftw.h>
#include <json-c/json.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "doctor.h"
#include "rc_log.h"
#include "sysfile.h"
#include "rc_status.h"

static char root[64];

static void put(const char *rel, const char *data)
{
	char path[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(data, f);
	fclose(f);
}

static void append(const char *rel, const char *data)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	f = fopen(path, "a");
	assert_non_null(f);
	fputs(data, f);
	fclose(f);
}

static int setup(void **state)
{
	static char longline[9200];
	char link[512];

	(void)state;
	snprintf(root, sizeof(root), "/tmp/nfsrdma-status-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	setenv("NFSRDMA_ROOT", root, 1);
	put("/sys/class/infiniband/mlx5_0/node_type", "1: CA\n");
	put("/sys/class/infiniband/mlx5_0/ports/1/state", "4: ACTIVE\n");
	put("/sys/class/infiniband/mlx5_0/ports/1/phys_state", "5: LinkUp\n");
	put("/sys/class/infiniband/mlx5_0/ports/1/link_layer", "Ethernet\n");
	put("/sys/class/infiniband/mlx5_0/ports/1/rate",
	    "100 Gb/sec (4X EDR)\n");
	put("/sys/class/infiniband/mlx5_0/ports/1/gid_attrs/ndevs/0", "eth0\n");
	put("/sys/bus/pci/drivers/mlx5_core/.keep", "");
	mkdir(strcat(strcpy(link, root), "/sys/class/infiniband/mlx5_0/device"),
	      0755);
	assert_int_equal(symlink("../../../../bus/pci/drivers/mlx5_core",
				 strcat(link, "/driver")),
			 0);
	/* Its PCI function hangs off node 1 of two. */
	put("/sys/class/infiniband/mlx5_0/device/numa_node", "1\n");
	put("/sys/devices/system/node/node0/cpulist", "0\n");
	put("/sys/devices/system/node/node1/cpulist", "1\n");
	put("/sys/devices/system/node/possible", "0-1\n");
	put("/sys/class/infiniband/rxe0/node_type", "1: CA\n");
	put("/sys/class/infiniband/rxe0/ports/1/state", "1: DOWN\n");
	put("/proc/fs/nfsd/portlist", "rdma 20049\ntcp 2049\n");
	put("/proc/fs/nfsd/threads", "8\n");
	put("/proc/fs/nfsd/versions", "+3 +4 +4.1 +4.2\n");
	put("/etc/exports", "/srv/x 198.18.0.0/24(rw,sync)\n");
	put("/proc/mounts",
	    "sysfs /sys sysfs rw 0 0\n"
	    "198.18.0.1:/x /mnt/x nfs4 rw,relatime,vers=4.2,rsize=1048576,"
	    "wsize=1048576,namlen=255,hard,proto=rdma,port=20049,timeo=600,"
	    "retrans=2,sec=sys,clientaddr=198.18.0.1,local_lock=none,"
	    "addr=198.18.0.1 0 0\n"
	    "198.18.0.1:/y /mnt/a\\040b nfs4 rw,vers=4.1,rsize=65536,"
	    "wsize=65536,proto=tcp,nconnect=4,addr=198.18.0.1 0 0\n");
	/* A user's FUSE mount whose source is longer than any line buffer,
	 * ending in what reads as an NFS mount if the line is cut. */
	memset(longline, 'a', sizeof(longline));
	snprintf(longline + 9000, sizeof(longline) - 9000, "%s",
		 " /mnt/forged nfs4 rw,proto=tcp,addr=192.0.2.1 0 0\n");
	append("/proc/mounts", longline);
	return 0;
}

static int rm_entry(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path);
}

static int teardown(void **state)
{
	(void)state;
	return nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static struct json_object *get(struct json_object *o, const char *path)
{
	char buf[256], *tok, *save;

	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, ".", &save); tok && o;
	     tok = strtok_r(NULL, ".", &save)) {
		struct json_object *next = NULL;

		if (json_object_is_type(o, json_type_array))
			next = json_object_array_get_idx(o, atoi(tok));
		else if (!json_object_object_get_ex(o, tok, &next))
			fail_msg("no key %s in %s", tok, path);
		o = next;
	}
	return o;
}

static const char *str(struct json_object *o, const char *path)
{
	struct json_object *v = get(o, path);

	return v ? json_object_get_string(v) : "null";
}

static struct json_object *find_dev(struct json_object *st, const char *name)
{
	struct json_object *devs = get(st, "rdma_devices");
	size_t i;

	for (i = 0; i < json_object_array_length(devs); i++) {
		struct json_object *d = json_object_array_get_idx(devs, i);

		if (!strcmp(str(d, "name"), name))
			return d;
	}
	fail_msg("no device %s", name);
	return NULL;
}

static void status__hardware_device_from_sysfs(void **state)
{
	struct json_object *st = rc_status_collect(nr_test_root()), *d;

	(void)state;
	assert_string_equal(str(st, "schema"), "rdmaio-status/1");
	d = find_dev(st, "mlx5_0");
	assert_string_equal(str(d, "driver"), "mlx5_core");
	assert_string_equal(str(d, "transport"), "hardware");
	assert_string_equal(str(d, "node_type"), "CA");
	assert_string_equal(str(d, "ports.0.state"), "ACTIVE");
	assert_string_equal(str(d, "ports.0.phys_state"), "LINK_UP");
	assert_string_equal(str(d, "ports.0.link_layer"), "Ethernet");
	assert_string_equal(str(d, "ports.0.rate"), "100 Gb/sec (4X EDR)");
	assert_true(json_object_get_double(get(d, "ports.0.rate_gbps")) ==
		    100.0);
	assert_string_equal(str(d, "ports.0.netdev"), "eth0");
	assert_int_equal(json_object_get_int(get(d, "ports.0.port")), 1);
	/* Not in sysfs, and no verbs under a test root: null. */
	assert_null(get(d, "ports.0.active_mtu"));
	assert_int_equal(json_object_get_int(get(d, "numa_node")), 1);
	assert_string_equal(str(d, "numa_cpus"), "1");
	assert_int_equal(json_object_get_int(get(st, "numa_nodes")), 2);
	json_object_put(st);
}

static void status__unknown_facts_are_null(void **state)
{
	struct json_object *st = rc_status_collect(nr_test_root()), *d;

	(void)state;
	d = find_dev(st, "rxe0");
	assert_null(get(d, "driver"));
	/* No driver name, but no parent bus device either: software. */
	assert_string_equal(str(d, "transport"), "software");
	/* No PCI function: no NUMA node. */
	assert_null(get(d, "numa_node"));
	assert_null(get(d, "numa_cpus"));
	assert_string_equal(str(d, "ports.0.state"), "DOWN");
	assert_null(get(d, "ports.0.phys_state"));
	assert_null(get(d, "ports.0.rate"));
	assert_null(get(d, "ports.0.rate_gbps"));
	assert_int_equal(json_object_array_length(get(st, "rxe_links")), 0);
	json_object_put(st);
}

static void status__nfsd_exports_and_mounts(void **state)
{
	struct json_object *st = rc_status_collect(nr_test_root());

	(void)state;
	assert_true(json_object_get_boolean(get(st, "nfsd.running")));
	assert_int_equal(json_object_get_int(get(st, "nfsd.threads")), 8);
	assert_string_equal(str(st, "nfsd.versions.3"), "+4.2");
	assert_string_equal(str(st, "nfsd.portlist.0"), "rdma 20049");
	assert_string_equal(str(st, "nfsd.portlist.1"), "tcp 2049");
	assert_string_equal(str(st, "exports.0.path"), "/srv/x");
	assert_string_equal(str(st, "exports.0.clients"), "198.18.0.0/24");
	assert_string_equal(str(st, "exports.0.options.1"), "sync");
	assert_int_equal(json_object_array_length(get(st, "nfs_mounts")), 2);
	assert_string_equal(str(st, "nfs_mounts.0.source"), "198.18.0.1:/x");
	assert_string_equal(str(st, "nfs_mounts.0.mountpoint"), "/mnt/x");
	assert_string_equal(str(st, "nfs_mounts.0.fstype"), "nfs4");
	assert_string_equal(str(st, "nfs_mounts.0.proto"), "rdma");
	assert_int_equal(json_object_get_int(get(st, "nfs_mounts.0.port")),
			 20049);
	assert_string_equal(str(st, "nfs_mounts.0.vers"), "4.2");
	assert_int_equal(json_object_get_int(get(st, "nfs_mounts.0.rsize")),
			 1048576);
	assert_int_equal(json_object_get_int(get(st, "nfs_mounts.0.nconnect")),
			 1);
	/* Escaped mountpoint, port omitted by the kernel (2049). */
	assert_string_equal(str(st, "nfs_mounts.1.mountpoint"), "/mnt/a b");
	assert_int_equal(json_object_get_int(get(st, "nfs_mounts.1.port")),
			 2049);
	assert_int_equal(json_object_get_int(get(st, "nfs_mounts.1.nconnect")),
			 4);
	json_object_put(st);
}

static void status__rate_and_phys_state_parsers(void **state)
{
	(void)state;
	assert_true(rc_status_rate_gbps("2.5 Gb/sec (1X SDR)") == 2.5);
	assert_true(rc_status_rate_gbps("10 Gb/sec (1X FDR10)") == 10.0);
	assert_true(rc_status_rate_gbps("garbage") < 0);
	assert_string_equal(rc_status_phys_state("3: Disabled"), "DISABLED");
	assert_null(rc_status_phys_state("9: Future"));
}

/* doctor compares this with the rxe port's active_mtu: rdma_rxe keeps 80
 * bytes of a netdev's MTU for its headers (1500 -> 1024, as in the lab). */
static void doctor__roce_mtu_for_netdev_mtu(void **state)
{
	(void)state;
	assert_int_equal(nr_doctor_roce_mtu(1500), 1024);
	assert_int_equal(nr_doctor_roce_mtu(9000), 4096);
	assert_int_equal(nr_doctor_roce_mtu(4176), 4096);
	assert_int_equal(nr_doctor_roce_mtu(4175), 2048);
	assert_int_equal(nr_doctor_roce_mtu(300), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(status__hardware_device_from_sysfs),
		cmocka_unit_test(status__unknown_facts_are_null),
		cmocka_unit_test(status__nfsd_exports_and_mounts),
		cmocka_unit_test(status__rate_and_phys_state_parsers),
		cmocka_unit_test(doctor__roce_mtu_for_netdev_mtu),
	};

	rc_log_set_quiet(1);
	return cmocka_run_group_tests(tests, setup, teardown);
}
