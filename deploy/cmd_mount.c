// SPDX-License-Identifier: MIT
/* nfsrdma mount | umount */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "nfsmount.h"

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
	req.mountpoint = argv[optind + 1];
	if (nr_need_root("mount"))
		return 1;
	return nr_mount(&req) ? 1 : 0;
}

int nr_cmd_umount(int argc, char **argv)
{
	if (argc != 2)
		return nr_bad_usage("umount: expected MOUNTPOINT", NULL);
	if (nr_need_root("umount"))
		return 1;
	return nr_umount(argv[1]) ? 1 : 0;
}
