// SPDX-License-Identifier: MIT
/* nfsrdma mount | umount */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "rc_log.h"
#include "nfsmount.h"
#include "sysfile.h"
#include "umount.h"

/*
 * /mnt/x/, /mnt//x and x (from /mnt) name /mnt/x, as /proc/mounts lists it.
 * mount also resolves symlinks; umount goes by the text alone (no stat, which
 * a dead server's mount could hang) and refuses a path that resolves
 * elsewhere (umount.c).
 */
static int tidy_mountpoint(const char *cmd, const char *mp, char *out,
			   size_t len)
{
	char abs[4096], cwd[4096], *real = NULL;
	int ret = 0, n;

	if (mp[0] != '/') {
		if (!getcwd(cwd, sizeof(cwd)))
			ret = -errno;
		n = snprintf(abs, sizeof(abs), "%s/%s", cwd, mp);
		if (!ret && (n < 0 || (size_t)n >= sizeof(abs)))
			ret = -ENAMETOOLONG;
		mp = abs;
	}
	if (!ret && !strcmp(cmd, "mount"))
		real = realpath(mp, NULL);
	if (!ret)
		ret = nr_path_tidy(real ? real : mp, out, len);
	free(real);
	if (ret)
		rc_diag("give the mountpoint's absolute path",
			"%s: mountpoint '%.200s': %s", cmd, mp, strerror(-ret));
	return ret;
}

/* Bad input is found before anything is looked up or changed (exit 2). */
static int check_request(const struct nr_mount_req *req, const char *mp,
			 char *out, size_t len)
{
	char server[256], path[1024];
	int ret;

	ret = nr_mount_split(req->spec, server, sizeof(server), path,
			     sizeof(path));
	if (!ret)
		ret = nr_mount_check(req);
	if (!ret)
		ret = tidy_mountpoint("mount", mp, out, len);
	return ret;
}

int nr_cmd_mount(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "proto", required_argument, NULL, 'P' },
		{ "port", required_argument, NULL, 'p' },
		{ "vers", required_argument, NULL, 'v' },
		{ "nconnect", required_argument, NULL, 'n' },
		{ "retry", no_argument, NULL, 'r' },
		{ 0 }
	};
	struct nr_mount_req req = { .proto = "rdma", .vers = "4.2" };
	char mountpoint[4096];
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		switch (c) {
		case 'P':
			req.proto = optarg;
			break;
		case 'p':
			req.port = nr_parse_int(optarg, 1, 65535);
			if (req.port < 0)
				return nr_bad_usage("mount: --port needs 1 to "
						    "65535, not ",
						    optarg);
			break;
		case 'v':
			req.vers = optarg;
			break;
		case 'n':
			req.nconnect = nr_parse_int(optarg, 1, 16);
			if (req.nconnect < 0)
				return nr_bad_usage("mount: --nconnect needs "
						    "1 to 16, not ",
						    optarg);
			break;
		case 'o':
			req.extra = optarg;
			break;
		case 'r':
			req.retry = 1;
			break;
		default:
			return nr_bad_usage("mount: unknown option", NULL);
		}
	}
	if (optind != argc - 2)
		return nr_bad_usage("mount: expected SERVER:/PATH MOUNTPOINT",
				    NULL);
	req.spec = argv[optind];
	if (check_request(&req, argv[optind + 1], mountpoint,
			  sizeof(mountpoint)))
		return 2;
	req.mountpoint = mountpoint;
	if (nr_need_root("mount"))
		return 1;
	return nr_mount(&req) ? 1 : 0;
}

int nr_cmd_umount(int argc, char **argv)
{
	char mountpoint[4096];
	int ret;

	if (argc != 2)
		return nr_bad_usage("umount: expected MOUNTPOINT", NULL);
	/* An option it does not know, never a folder to unmount. */
	if (argv[1][0] == '-')
		return nr_bad_usage("umount: unknown option ", argv[1]);
	if (tidy_mountpoint("umount", argv[1], mountpoint, sizeof(mountpoint)))
		return 2;
	if (nr_need_root("umount"))
		return 1;
	ret = nr_umount(mountpoint);
	/* Refused before anything changed: the input named no NFS mount. */
	if (ret == -ELOOP || ret == -EMEDIUMTYPE)
		return 2;
	return ret ? 1 : 0;
}
