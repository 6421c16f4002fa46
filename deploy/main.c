// SPDX-License-Identifier: MIT
/*
 * nfsrdma: sets up Soft-RoCE links, an NFS/RDMA server, exports and mounts
 * with direct syscalls, verifies each step and explains each failure.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "link.h"
#include "rc_links.h"
#include "rc_log.h"
#include "sigdefer.h"
#include "doctor.h"
#include "nfsd.h"
#include "probe.h"
#include "rc_status.h"

static void usage(FILE *f)
{
	fputs("usage: nfsrdma COMMAND ...\n"
	      "  link add NAME NETDEV | link del NAME | link list\n"
	      "  server start [--rdma-port P] [--tcp-port P] [--threads N]\n"
	      "               [--versions LIST] [--grace S] [--lease S] "
	      "[--persist]\n"
	      "               [--sock-buf BYTES] [--rdma-requests N]\n"
	      "  server stop | server status\n"
	      "  export add PATH --clients SPEC [--options LIST]\n"
	      "  export del PATH | export list\n"
	      "  mount SERVER:PATH MOUNTPOINT [--proto rdma|tcp] [--port N]\n"
	      "        [--vers V] [--nconnect N] [-o EXTRA] [--retry]\n"
	      "  umount MOUNTPOINT\n"
	      "  probe SERVER[:PATH]\n"
	      "  status [--json]\n"
	      "  doctor [SERVER:/PATH]\n",
	      f);
}

int nr_need_root(const char *what)
{
	if (geteuid() == 0)
		return 0;
	rc_diag("run it as root (sudo nfsrdma ...)",
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
	struct rc_link links[64];
	int n, i;

	if (argc >= 2 && !strcmp(argv[1], "list") && argc == 2) {
		n = rc_link_list(links, 64);
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

/* Parses a whole decimal number in [min, max]; -1 when it is not one. */
int nr_parse_int(const char *s, int min, int max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	return (int)v;
}

static int int_opt(const char *name, const char *arg, int min, int max,
		   int *out)
{
	int v = nr_parse_int(arg, min, max);

	if (v < 0) {
		fprintf(stderr,
			"nfsrdma: %s '%s' is not a number from %d to %d\n",
			name, arg, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

/* One option of server start into req; -1 after saying why. */
static int server_opt(int c, struct nr_nfsd_req *req, const char **versions,
		      int *persist)
{
	switch (c) {
	case 'r':
		return int_opt("--rdma-port", optarg, 1, 65535,
			       &req->rdma_port);
	case 'T':
		return int_opt("--tcp-port", optarg, 1, 65535, &req->tcp_port);
	case 't':
		return int_opt("--threads", optarg, 1, 4096, &req->threads);
	case 'g':
		return int_opt("--grace", optarg, 10, 3600, &req->grace);
	case 'l':
		return int_opt("--lease", optarg, 10, 3600, &req->lease);
	case 'v':
		*versions = optarg;
		return 0;
	case 'p':
		*persist = 1;
		return 0;
	case 'b':
		return int_opt("--sock-buf", optarg, 65536, INT_MAX,
			       &req->tune.sock_buf);
	case 'q':
		/* svcrdma's own bounds (net/sunrpc/xprtrdma/svc_rdma.c). */
		return int_opt("--rdma-requests", optarg, 4, 16384,
			       &req->tune.rdma_requests);
	default:
		return -2;
	}
}

static int cmd_server(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rdma-port", required_argument, NULL, 'r' },
		{ "tcp-port", required_argument, NULL, 'T' },
		{ "threads", required_argument, NULL, 't' },
		{ "versions", required_argument, NULL, 'v' },
		{ "grace", required_argument, NULL, 'g' },
		{ "lease", required_argument, NULL, 'l' },
		{ "persist", no_argument, NULL, 'p' },
		{ "sock-buf", required_argument, NULL, 'b' },
		{ "rdma-requests", required_argument, NULL, 'q' },
		{ 0 }
	};
	struct nr_nfsd_req req = { .rdma_port = 20049, .tcp_port = 2049 };
	const char *versions = "3,4,4.1,4.2";
	int c, persist = 0, bad = 0, ret;

	if (argc < 2)
		return nr_bad_usage("server: expected start, stop or status",
				    NULL);
	optind = 2;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		ret = server_opt(c, &req, &versions, &persist);
		if (ret == -2)
			return nr_bad_usage("server: unknown option", NULL);
		bad |= ret;
	}
	if (bad)
		return 2;
	if (optind != argc)
		return nr_bad_usage("server: unexpected argument ",
				    argv[optind]);
	if (!strcmp(argv[1], "status"))
		return nr_nfsd_print_status() ? 1 : 0;
	if (!strcmp(argv[1], "stop"))
		return nr_need_root("server stop") || nr_nfsd_stop() ? 1 : 0;
	if (strcmp(argv[1], "start"))
		return nr_bad_usage("server: unknown subcommand ", argv[1]);
	if (nr_nfsd_versions_line(versions, req.versions, sizeof(req.versions)))
		return 2;
	if (nr_need_root("server start"))
		return 1;
	return nr_nfsd_start(&req, persist) ? 1 : 0;
}

static int cmd_probe(int argc, char **argv)
{
	if (argc != 2)
		return nr_bad_usage("probe: expected SERVER or SERVER:/PATH",
				    NULL);
	/* An option it does not know, not a host name. */
	if (argv[1][0] == '-')
		return nr_bad_usage("probe: unknown option ", argv[1]);
	return nr_probe(argv[1]) ? 1 : 0;
}

static int cmd_doctor(int argc, char **argv)
{
	if (argc > 2)
		return nr_bad_usage("doctor: expected [SERVER:/PATH]", NULL);
	if (argc == 2 && argv[1][0] == '-')
		return nr_bad_usage("doctor: unknown option ", argv[1]);
	return nr_doctor(argc == 2 ? argv[1] : NULL) ? 1 : 0;
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} cmds[] = {
	{ "link", cmd_link },	     { "server", cmd_server },
	{ "export", nr_cmd_export }, { "mount", nr_cmd_mount },
	{ "umount", nr_cmd_umount }, { "status", nr_cmd_status },
	{ "probe", cmd_probe },	     { "doctor", cmd_doctor },
};

/*
 * "nfsrdma umount --help" must print the syntax, not unmount ./--help, and
 * "probe -h" must not probe a host called -h: -h and --help anywhere
 * before "--" ask for it, whatever the subcommand.
 */
static int wants_help(int argc, char **argv)
{
	int i;

	for (i = 2; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	size_t i;

	rc_log_init("nfsrdma");
	/* Children (exportfs, rpc.mountd) inherit stdout: flush in order. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2 || !strcmp(argv[1], "help") ||
	    !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name)) {
			int ret;

			if (wants_help(argc, argv)) {
				usage(stdout);
				return 0;
			}
			ret = cmds[i].fn(argc - 1, argv + 1);

			/* A Ctrl-C held through a change ends the process
			 * now that the change is whole or undone. */
			nr_sigdefer_reraise();
			return ret;
		}
	return nr_bad_usage("unknown command: ", argv[1]);
}
