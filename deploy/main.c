// SPDX-License-Identifier: MIT
/*
 * nfsrdma: sets up Soft-RoCE links, an NFS/RDMA server, exports and mounts
 * with direct syscalls, verifies each step and explains each failure.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "link.h"
#include "log.h"

static void usage(FILE *f)
{
	fputs("usage: nfsrdma COMMAND ...\n"
	      "  link add NAME NETDEV | link del NAME | link list\n"
	      "  server start [--rdma-port P] [--threads N] [--versions LIST]\n"
	      "               [--grace S] [--lease S] [--persist]\n"
	      "  server stop | server status\n"
	      "  export add PATH --clients SPEC [--options LIST]\n"
	      "  export del PATH | export list\n"
	      "  mount SERVER:PATH MOUNTPOINT [--proto rdma|tcp] [--port N]\n"
	      "        [--vers V] [--nconnect N] [-o EXTRA] [--retry]\n"
	      "  umount MOUNTPOINT\n"
	      "  probe SERVER[:PATH]\n"
	      "  status [--json]\n"
	      "  doctor\n",
	      f);
}

int nr_need_root(const char *what)
{
	if (geteuid() == 0)
		return 0;
	nr_diag("run it as root (sudo nfsrdma ...)",
		"%s needs root: it changes kernel state", what);
	return -EPERM;
}

int nr_bad_usage(const char *fmt, const char *arg)
{
	fputs("nfsrdma: ", stderr);
	fprintf(stderr, "%s%s\n", fmt, arg ? arg : "");
	fputs("  run 'nfsrdma help' for the syntax\n", stderr);
	return 2;
}

static int cmd_link(int argc, char **argv)
{
	struct nr_link links[64];
	int n, i;

	if (argc >= 2 && !strcmp(argv[1], "list") && argc == 2) {
		n = nr_link_list(links, 64);
		if (n < 0)
			return 1;
		for (i = 0; i < n; i++)
			printf("%s netdev %s driver %s\n", links[i].name,
			       links[i].netdev[0] ? links[i].netdev : "-",
			       links[i].driver ? links[i].driver : "-");
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "add"))
		return nr_need_root("link add") || nr_link_add(argv[2], argv[3])
			       ? 1
			       : 0;
	if (argc == 3 && !strcmp(argv[1], "del"))
		return nr_need_root("link del") || nr_link_del(argv[2]) ? 1 : 0;
	return nr_bad_usage("link: expected 'add NAME NETDEV', 'del NAME' or "
			    "'list'",
			    NULL);
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} cmds[] = {
	{ "link", cmd_link },
};

int main(int argc, char **argv)
{
	size_t i;

	/* Children (exportfs, rpc.mountd) inherit stdout: flush in order. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2 || !strcmp(argv[1], "help") ||
	    !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	return nr_bad_usage("unknown command: ", argv[1]);
}
