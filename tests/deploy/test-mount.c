// SPDX-License-Identifier: MIT
/*
 * The option strings nfsrdma hands the kernel, as mount.nfs would: addr=
 * always, clientaddr= for NFSv4, MOUNT over TCP for NFSv3 over RDMA.
 */
#include <errno.h>
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

#include "rc_log.h"
#include "rc_mounts.h"
#include "nfsmount.h"

static void options__v42_over_rdma(void **state)
{
	struct nr_mount_req req = { .proto = "rdma", .vers = "4.2" };
	char opts[512];

	(void)state;
	assert_int_equal(rc_mount_options(&req, "198.18.0.1", "198.18.0.2",
					  opts, sizeof(opts)),
			 0);
	assert_string_equal(opts, "vers=4.2,proto=rdma,port=20049,"
				  "addr=198.18.0.1,clientaddr=198.18.0.2");
	assert_string_equal(nr_mount_fstype(req.vers), "nfs4");
}

static void
options__v3_over_rdma_mounts_over_tcp_ipv6_names_family(void **state)
{
	struct nr_mount_req req = { .proto = "rdma",
				    .vers = "3",
				    .port = 20050 };
	char opts[512];

	(void)state;
	assert_int_equal(rc_mount_options(&req, "fd18::1", "fd18::2", opts,
					  sizeof(opts)),
			 0);
	assert_string_equal(opts, "vers=3,proto=rdma6,port=20050,addr=fd18::1,"
				  "mountproto=tcp6,mountaddr=fd18::1");
	assert_int_equal(rc_mount_options(&req, "198.18.0.1", "198.18.0.2",
					  opts, sizeof(opts)),
			 0);
	assert_string_equal(opts, "vers=3,proto=rdma,port=20050,"
				  "addr=198.18.0.1,mountproto=tcp,"
				  "mountaddr=198.18.0.1");
	assert_string_equal(nr_mount_fstype(req.vers), "nfs");
}

static void options__tcp_nconnect_and_extra(void **state)
{
	struct nr_mount_req req = {
		.proto = "tcp", .vers = "4.1", .nconnect = 8, .extra = "ro,noac"
	};
	char opts[512];

	(void)state;
	assert_int_equal(rc_mount_options(&req, "10.0.0.1", "10.0.0.9", opts,
					  sizeof(opts)),
			 0);
	assert_string_equal(opts, "vers=4.1,proto=tcp,port=2049,addr=10.0.0.1,"
				  "clientaddr=10.0.0.9,nconnect=8,ro,noac");
	assert_int_equal(rc_mount_options(&req, "10.0.0.1", "10.0.0.9", opts,
					  20),
			 -ENOSPC);
}

static void options__rejects_bad_proto_and_vers(void **state)
{
	struct nr_mount_req req = { .proto = "udp", .vers = "4.2" };
	char opts[512];

	(void)state;
	assert_int_equal(rc_mount_options(&req, "a", "b", opts, sizeof(opts)),
			 -EINVAL);
	req.proto = "rdma";
	req.vers = "2";
	assert_int_equal(rc_mount_options(&req, "a", "b", opts, sizeof(opts)),
			 -EINVAL);
}

static void split__ipv4_ipv6_and_bad(void **state)
{
	char server[64], path[64];

	(void)state;
	assert_int_equal(nr_mount_split("198.18.0.1:/srv/a b", server,
					sizeof(server), path, sizeof(path)),
			 0);
	assert_string_equal(server, "198.18.0.1");
	assert_string_equal(path, "/srv/a b");
	assert_int_equal(nr_mount_split("[fd18::1]:/", server, sizeof(server),
					path, sizeof(path)),
			 0);
	assert_string_equal(server, "fd18::1");
	assert_string_equal(path, "/");
	assert_int_equal(nr_mount_split("server", server, sizeof(server), path,
					sizeof(path)),
			 -EINVAL);
	assert_int_equal(nr_mount_split(":/x", server, sizeof(server), path,
					sizeof(path)),
			 -EINVAL);
	assert_int_equal(nr_mount_split("s:relative", server, sizeof(server),
					path, sizeof(path)),
			 -EINVAL);
}

static void mount_opt__whole_keys_only(void **state)
{
	char v[32];

	(void)state;
	assert_true(rc_mount_opt("rw,vers=4.2,mountproto=tcp,proto=rdma",
				 "proto", v, sizeof(v)));
	assert_string_equal(v, "rdma");
	assert_true(rc_mount_opt("rw,vers=4.2", "vers", v, sizeof(v)));
	assert_string_equal(v, "4.2");
	assert_false(rc_mount_opt("rw,mountport=1", "port", v, sizeof(v)));
}

/* A mount by its id, as umount finds the one it opened: fields unescaped,
 * the optional fields before " - " skipped, a field that does not fit
 * refused rather than cut. */
static void find_id__mountinfo_fields(void **state)
{
	/* Longer than any mountpoint an entry holds (PATH_MAX). */
	static char longmp[sizeof(((struct rc_mount_ent *)0)->mountpoint) + 100];
	char root[64], path[128];
	struct rc_mount_ent m;
	FILE *f;

	(void)state;
	snprintf(root, sizeof(root), "/tmp/nfsrdma-mi-XXXXXX");
	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/proc", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/self", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/self/mountinfo", root);
	f = fopen(path, "w");
	assert_non_null(f);
	memset(longmp, 'd', sizeof(longmp) - 1);
	longmp[0] = '/';
	longmp[sizeof(longmp) - 1] = '\0';
	fprintf(f,
		"21 1 0:20 / / rw shared:1 - tmpfs tmpfs rw\n"
		"35 21 0:31 / /mnt/nr\\040data rw,relatime shared:2 "
		"master:1 - nfs4 198.18.0.1:/ rw,vers=4.2\n"
		"36 21 0:32 / /mnt/t rw - tmpfs tmpfs rw\n"
		"37 21 0:33 / %s rw - tmpfs tmpfs rw\n",
		longmp);
	fclose(f);
	assert_int_equal(rc_mounts_find_id(root, 35, &m), 1);
	assert_string_equal(m.mountpoint, "/mnt/nr data");
	assert_string_equal(m.fstype, "nfs4");
	assert_string_equal(m.source, "198.18.0.1:/");
	assert_int_equal(rc_mounts_find_id(root, 36, &m), 1);
	assert_string_equal(m.fstype, "tmpfs");
	assert_int_equal(rc_mounts_find_id(root, 3, &m), 0);
	assert_int_equal(rc_mounts_find_id(root, 37, &m), -ENAMETOOLONG);
	unlink(path);
	snprintf(path, sizeof(path), "%s/proc/self", root);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/proc", root);
	rmdir(path);
	rmdir(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(options__v42_over_rdma),
		cmocka_unit_test(
			options__v3_over_rdma_mounts_over_tcp_ipv6_names_family),
		cmocka_unit_test(options__tcp_nconnect_and_extra),
		cmocka_unit_test(options__rejects_bad_proto_and_vers),
		cmocka_unit_test(split__ipv4_ipv6_and_bad),
		cmocka_unit_test(mount_opt__whole_keys_only),
		cmocka_unit_test(find_id__mountinfo_fields),
	};

	rc_log_set_quiet(1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
