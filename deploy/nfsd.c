// SPDX-License-Identifier: MIT
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rpc/rpc.h>
#include <rpc/pmap_clnt.h>

#include "daemon.h"
#include "kmodule.h"
#include "rc_log.h"
#include "nfsd.h"
#include "sigdefer.h"
#include "rc_proc.h"
#include "helper.h"
#include "sysfile.h"

#define NR_PERSIST_CONF "/etc/nfs.conf.d/rdmaio-rdma.conf"
#define NR_MOUNT_PROGRAM 100005
#define NR_NFSD_LOCK "/run/nfsrdma-server.lock"

int nr_nfsd_versions_line(const char *list, char *out, size_t len)
{
	static const char *const known[] = { "3", "4", "4.1", "4.2" };
	int want[4] = { 0 }, any = 0, v4 = 0, n;
	char buf[128], *tok, *save;
	size_t i;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ", ", &save); tok;
	     tok = strtok_r(NULL, ", ", &save)) {
		if (!strcmp(tok, "4.0"))
			tok = "4";
		for (i = 0; i < 4; i++)
			if (!strcmp(tok, known[i]))
				break;
		if (i == 4) {
			rc_diag("use a comma-separated list of 3, 4, 4.1, 4.2",
				"NFS version '%s' in --versions '%s' is not "
				"one the server offers",
				tok, list);
			return -EINVAL;
		}
		want[i] = 1;
		any = 1;
		v4 |= i > 0;
	}
	if (!any) {
		rc_diag("name at least one of 3, 4, 4.1, 4.2",
			"--versions '%s' enables no NFS version", list);
		return -EINVAL;
	}
	/* "+4" alone switches every minor on; the explicit minors after it
	 * then set each one (fs/nfsd/nfsctl.c __write_versions). */
	if (v4)
		n = snprintf(out, len, "-2 %c3 +4 %c4.0 %c4.1 %c4.2\n",
			     want[0] ? '+' : '-', want[1] ? '+' : '-',
			     want[2] ? '+' : '-', want[3] ? '+' : '-');
	else
		n = snprintf(out, len, "-2 +3 -4\n");
	return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
}

int nr_nfsd_plan(const struct nr_nfsd_req *req, const struct nr_nfsd_state *st,
		 enum nr_nfsd_step *steps)
{
	int n = 0;

	if (!st->running) {
		steps[n++] = NR_NFSD_VERSIONS;
		if (req->grace)
			steps[n++] = NR_NFSD_GRACE;
		if (req->lease)
			steps[n++] = NR_NFSD_LEASE;
		steps[n++] = NR_NFSD_TCP;
		steps[n++] = NR_NFSD_RDMA;
		steps[n++] = NR_NFSD_THREADS;
		return n;
	}
	/* A running server keeps its versions; only listeners and threads
	 * can still change. */
	if (!st->has_rdma)
		steps[n++] = NR_NFSD_RDMA;
	if (st->threads == 0 || (req->threads && req->threads != st->threads))
		steps[n++] = NR_NFSD_THREADS;
	return n;
}

const char *nr_nfsd_step_name(enum nr_nfsd_step step)
{
	static const char *const names[] = { "versions", "grace", "lease",
					     "tcp",	 "rdma",  "threads" };

	return step < NR_NFSD_NSTEPS ? names[step] : "?";
}

int nr_nfsd_portlist_has(const char *portlist, const char *proto, int port)
{
	char want[64];
	const char *p = portlist;
	size_t n;

	n = snprintf(want, sizeof(want), "%s %d", proto, port);
	while ((p = strstr(p, want))) {
		if ((p == portlist || p[-1] == '\n') &&
		    (p[n] == '\0' || p[n] == '\n'))
			return 1;
		p += n;
	}
	return 0;
}

int nr_nfsd_read_state(int rdma_port, struct nr_nfsd_state *st)
{
	char buf[4096];
	ssize_t n;

	memset(st, 0, sizeof(*st));
	n = nr_file_read(RC_NFSD_DIR "/portlist", buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	st->running = n > 0;
	st->has_rdma = nr_nfsd_portlist_has(buf, "rdma", rdma_port);
	n = nr_file_read(RC_NFSD_DIR "/threads", buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	st->threads = atoi(buf);
	return 0;
}

/* Mounts the nfsd control filesystem unless it is there already. */
static int mount_nfsd_fs(int *mounted)
{
	int ret = nr_file_exists(RC_NFSD_DIR "/portlist");

	*mounted = 0;
	if (ret != 0 || nr_test_root())
		return ret < 0 ? ret : 0;
	if (mount("nfsd", RC_NFSD_DIR, "nfsd", 0, NULL)) {
		ret = -errno;
		rc_call_err(ret, "mount(nfsd, %s, nfsd)", RC_NFSD_DIR);
		return ret;
	}
	*mounted = 1;
	return 0;
}

static int write_ctl(const char *file, const char *value, const char *what)
{
	char path[128];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", RC_NFSD_DIR, file);
	ret = nr_file_write(path, value);
	if (ret)
		rc_call_err(ret, "nfsd %s: write(%s, \"%.*s\")", what, path,
			    (int)strcspn(value, "\n"), value);
	return ret;
}

static int listen_tcp(int family, int port)
{
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6,
				   .sin6_port = htons(port),
				   .sin6_addr = IN6ADDR_ANY_INIT };
	struct sockaddr_in a4 = { .sin_family = AF_INET,
				  .sin_port = htons(port) };
	int fd, one = 1, ret;

	fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* One socket per family, as rpc.nfsd does. */
	if (family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if ((family == AF_INET
		     ? bind(fd, (struct sockaddr *)&a4, sizeof(a4))
		     : bind(fd, (struct sockaddr *)&a6, sizeof(a6))) ||
	    listen(fd, 64)) {
		ret = -errno;
		close(fd);
		return ret;
	}
	return fd;
}

static int add_tcp(int port)
{
	static const int families[] = { AF_INET, AF_INET6 };
	char fdstr[32], fix[160];
	int i, fd, ret;

	for (i = 0; i < 2; i++) {
		fd = listen_tcp(families[i], port);
		if (fd == -EAFNOSUPPORT && families[i] == AF_INET6)
			continue;
		if (fd < 0) {
			snprintf(fix, sizeof(fix),
				 "stop whatever listens on TCP port %d (ss "
				 "-ltnp)",
				 port);
			rc_diag(fix, "nfsd TCP listener: port %d: %s", port,
				strerror(-fd));
			return fd;
		}
		snprintf(fdstr, sizeof(fdstr), "%d\n", fd);
		ret = nr_file_write(RC_NFSD_DIR "/portlist", fdstr);
		close(fd);
		if (ret == -ECONNREFUSED) {
			rc_diag("start rpcbind, or leave NFSv3 out of "
				"--versions",
				"nfsd TCP listener: the kernel could not "
				"register NFSv3 with rpcbind (%s)",
				strerror(-ret));
			return ret;
		}
		if (ret) {
			rc_call_err(ret, "nfsd TCP listener: write(portlist, "
					 "fd)");
			return ret;
		}
	}
	return 0;
}

static int add_rdma(int port)
{
	char line[32];
	int ret;

	snprintf(line, sizeof(line), "rdma %d\n", port);
	ret = nr_file_write(RC_NFSD_DIR "/portlist", line);
	if (ret == -EPROTONOSUPPORT)
		rc_diag("check 'modinfo rpcrdma' and that no /etc/modprobe.d "
			"file blacklists rpcrdma or svcrdma",
			"nfsd RDMA listener on port %d: the kernel has no "
			"svcrdma transport (module rpcrdma cannot load)",
			port);
	else if (ret == -EADDRINUSE)
		rc_diag("pick another --rdma-port or stop its user",
			"nfsd RDMA listener: port %d is in use", port);
	else if (ret)
		rc_call_err(ret,
			    "nfsd RDMA listener: write(portlist, \"rdma "
			    "%d\")",
			    port);
	return ret;
}

static int run_step(enum nr_nfsd_step step, const struct nr_nfsd_req *req)
{
	char val[32];

	switch (step) {
	case NR_NFSD_VERSIONS:
		return write_ctl("versions", req->versions, "versions");
	case NR_NFSD_GRACE:
		snprintf(val, sizeof(val), "%d\n", req->grace);
		return write_ctl("nfsv4gracetime", val, "grace time");
	case NR_NFSD_LEASE:
		snprintf(val, sizeof(val), "%d\n", req->lease);
		return write_ctl("nfsv4leasetime", val, "lease time");
	case NR_NFSD_TCP:
		return add_tcp(req->tcp_port);
	case NR_NFSD_RDMA:
		return add_rdma(req->rdma_port);
	case NR_NFSD_THREADS:
		snprintf(val, sizeof(val), "%d\n",
			 req->threads ? req->threads : 8);
		return write_ctl("threads", val, "threads");
	default:
		return -EINVAL;
	}
}

/*
 * A stopped server's export table is brought up to the exports files with
 * exportfs -a, which adds what they list and drops nothing: an export made
 * with 'exportfs -o' lives in etab alone, and -r would drop it. A running
 * server's table is live and left as it is: nfsrdma's own exports were
 * applied one by one when they were made.
 */
static int exportfs_all(void)
{
	char *argv[] = { "exportfs", "-a", NULL };
	int ret = nr_spawn_wait(argv);

	if (ret)
		rc_diag("run 'exportfs -av' to see the complaint",
			"exportfs -a failed (status %d)", ret);
	return ret ? -EIO : 0;
}

/*
 * An rpc.mountd started while no rpcbind ran (an NFSv4-only start) never
 * registers NFSv3's MOUNT service: v3 clients then get "program not
 * available". Found before anything changes, with the pid to restart.
 */
static int check_mountd_registered(void)
{
	struct sockaddr_in lo = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	pid_t pid = rc_proc_find("rpc.mountd");
	char fix[160];

	if (!pid || nr_test_root() ||
	    pmap_getport(&lo, NR_MOUNT_PROGRAM, 3, IPPROTO_TCP))
		return 0;
	snprintf(fix, sizeof(fix),
		 "restart it: kill %d, then nfsrdma server start again",
		 (int)pid);
	rc_diag(fix,
		"rpc.mountd (pid %d) runs but rpcbind does not know it (it "
		"started before rpcbind, for NFSv4 only): NFSv3 clients would "
		"get \"program not available\"",
		(int)pid);
	return -ESRCH;
}

/* What one start changed, so that a failure can put it back. */
struct nfsd_undo {
	int was_running; /* nfsd had listeners or threads before; -1 unknown */
	int mounted_fs; /* this start mounted the nfsd filesystem */
	int changed; /* steps written to a running nfsd */
	struct nr_tuning_undo tune; /* the kernel settings this start raised */
	int rpcbind; /* this start made the server a user of the daemon */
	int mountd;
};

static void undo_start(const struct nfsd_undo *u)
{
	int bad = 0;

	/* Zero threads drops every listener: only for a server that was
	 * known to be down before. */
	if (u->was_running == 0 && nr_file_write(RC_NFSD_DIR "/threads", "0\n"))
		bad = 1;
	if (u->mountd && nr_daemon_release("rpc.mountd", NR_DAEMON_SERVER))
		bad = 1;
	if (u->rpcbind && nr_daemon_release("rpcbind", NR_DAEMON_SERVER))
		bad = 1;
	if (u->mounted_fs && umount2(RC_NFSD_DIR, 0))
		bad = 1;
	if (nr_tuning_undo(&u->tune))
		bad = 1;
	if (bad)
		rc_diag("run 'nfsrdma server stop' and check 'nfsrdma status'",
			"could not undo all of the partial nfsd start");
	else if (u->was_running == 1 && u->changed)
		rc_diag("run 'nfsrdma server status'; 'nfsrdma server stop' "
			"drops them with the server",
			"server start: nfsd was already running and keeps what "
			"this start added: the kernel cannot drop one listener "
			"alone");
	else
		rc_diag(NULL, "server start: undone, the NFS server is as it "
			      "was before");
}

static int check_started(const struct nr_nfsd_req *req)
{
	struct nr_nfsd_state st;
	char portlist[4096] = "";
	int ret;

	ret = nr_nfsd_read_state(req->rdma_port, &st);
	if (ret)
		return ret;
	if (st.has_rdma && st.threads > 0)
		return 0;
	nr_file_read(RC_NFSD_DIR "/portlist", portlist, sizeof(portlist));
	rc_diag("check 'dmesg' for svcrdma errors",
		"nfsd: after start the portlist has no 'rdma %d' (has: %s) or "
		"no threads (%d)",
		req->rdma_port, portlist, st.threads);
	return -EIO;
}

/* The steps after the lock; every change is recorded in u. */
static int start_locked(const struct nr_nfsd_req *req, struct nfsd_undo *u,
			int *nsteps)
{
	char *rpcbind[] = { "rpcbind", NULL },
	     *mountd[] = { "rpc.mountd", NULL };
	enum nr_nfsd_step steps[NR_NFSD_NSTEPS];
	struct nr_nfsd_state st;
	int i, ret;

	ret = nr_nfsd_read_state(req->rdma_port, &st);
	if (ret) {
		rc_call_err(ret, "reading %s/portlist", RC_NFSD_DIR);
		return ret;
	}
	u->was_running = st.running;
	if (strstr(req->versions, "+3")) {
		ret = nr_daemon_use(rpcbind, "NFSv3 port registration",
				    NR_DAEMON_SERVER, &u->rpcbind);
		if (!ret)
			ret = check_mountd_registered();
		if (ret)
			return ret;
	}
	if (!nr_test_root() && !st.running && (ret = exportfs_all()))
		return ret;
	/* Before the listeners: svcrdma reads its credits per connection. */
	ret = nr_tuning_apply(&req->tune, &u->tune);
	if (ret)
		return ret;
	*nsteps = nr_nfsd_plan(req, &st, steps);
	for (i = 0; i < *nsteps && !nr_sigdefer_pending(); i++) {
		ret = run_step(steps[i], req);
		u->changed = 1;
		if (ret)
			return ret;
	}
	if (!nr_test_root() && !nr_sigdefer_pending()) {
		ret = nr_daemon_use(mountd, "export upcalls", NR_DAEMON_SERVER,
				    &u->mountd);
		if (ret)
			return ret;
	}
	return nr_sigdefer_pending() ? -EINTR : check_started(req);
}

int nr_nfsd_start(const struct nr_nfsd_req *req, int persist)
{
	struct nfsd_undo u = { .was_running = -1 };
	struct nr_nfsd_state st;
	int ret, lock, n = 0;

	if ((ret = nr_module_load("nfsd", "NFS server")) ||
	    (ret = nr_module_load("rpcrdma", "NFS/RDMA transport")) ||
	    (ret = nr_tuning_check(&req->tune)))
		return ret;
	nr_sigdefer_begin();
	/* Serialises starts: two at once would race on rpcbind and
	 * interleave their writes to /proc/fs/nfsd. */
	lock = nr_file_lock(NR_NFSD_LOCK);
	ret = lock < 0 ? lock : mount_nfsd_fs(&u.mounted_fs);
	if (!ret)
		ret = start_locked(req, &u, &n);
	/* The last step: once the drop-in is written the start is kept,
	 * whatever signal comes after. */
	if (!ret && persist)
		ret = nr_nfsd_persist(req->rdma_port);
	if (ret == -EINTR)
		rc_diag(NULL, "server start: interrupted");
	if (ret && lock >= 0)
		undo_start(&u);
	if (!ret)
		ret = nr_nfsd_read_state(req->rdma_port, &st);
	if (lock >= 0)
		close(lock);
	nr_sigdefer_end();
	if (ret)
		return ret;
	printf("nfsd %s: threads %d, rdma port %d\n",
	       u.was_running == 0 ? "started"
	       : n		  ? "updated"
				  : "already running",
	       st.threads, req->rdma_port);
	return 0;
}

/* Threads 0: nfsd drops every listener. */
static int stop_threads(void)
{
	struct nr_nfsd_state st;
	int ret;

	if (nr_file_exists(RC_NFSD_DIR "/portlist") != 1) {
		printf("nfsd not running (nfsd filesystem not mounted)\n");
		return 0;
	}
	ret = nr_nfsd_read_state(0, &st);
	if (ret)
		return ret;
	if (!st.running && !st.threads) {
		printf("nfsd already stopped\n");
		return 0;
	}
	ret = write_ctl("threads", "0\n", "stop");
	if (ret)
		return ret;
	ret = nr_nfsd_read_state(0, &st);
	if (!ret && (st.running || st.threads)) {
		rc_diag("look for nfsd users in 'dmesg'",
			"nfsd still has listeners or threads after stop");
		return -EBUSY;
	}
	printf("nfsd stopped\n");
	return ret;
}

int nr_nfsd_stop(void)
{
	int ret = stop_threads(), ret2;

	if (ret)
		return ret;
	/* What server start launched goes with the server; rpcbind stays
	 * while NFSv3 mounts use it. Also after a stop that found nfsd
	 * already down (an earlier stop that failed half-way). */
	ret = nr_daemon_release("rpc.mountd", NR_DAEMON_SERVER);
	ret2 = nr_daemon_release("rpcbind", NR_DAEMON_SERVER);
	ret = ret ? ret : ret2;
	/* The kernel settings server start raised go back with the server. */
	ret2 = nr_tuning_restore();
	return ret ? ret : ret2;
}

int nr_nfsd_print_status(void)
{
	char buf[4096];
	ssize_t n;
	char *p;

	if (nr_file_exists(RC_NFSD_DIR "/portlist") != 1) {
		printf("nfsd: not running (nfsd filesystem not mounted)\n");
		return 0;
	}
	n = nr_file_read(RC_NFSD_DIR "/threads", buf, sizeof(buf));
	printf("nfsd: %s, threads %s\n",
	       n > 0 && atoi(buf) > 0 ? "running" : "stopped",
	       n > 0 ? buf : "?");
	if (nr_file_read(RC_NFSD_DIR "/versions", buf, sizeof(buf)) >= 0)
		printf("versions: %s\n", buf);
	if (nr_file_read(RC_NFSD_DIR "/portlist", buf, sizeof(buf)) >= 0) {
		for (p = buf; (p = strchr(p, '\n'));)
			*p = ',';
		printf("portlist: %s\n", buf[0] ? buf : "(none)");
	}
	printf("rpc.mountd: %s\nrpcbind: %s\n",
	       rc_proc_running("rpc.mountd") ? "running" : "not running",
	       rc_proc_running("rpcbind") ? "running" : "not running");
	nr_daemon_print();
	nr_tuning_print();
	return 0;
}

int nr_nfsd_persist(int rdma_port)
{
	char conf[512];
	int n, ret;

	ret = nr_dir_ensure("/etc/nfs.conf.d");
	if (ret)
		return ret;
	n = snprintf(
		conf, sizeof(conf),
		"# Written by 'nfsrdma server start --persist': bookworm's "
		"nfs.conf\n# leaves rdma off and /etc/services lacks "
		"nfsrdma, so name the port.\n[nfsd]\nrdma=y\n"
		"rdma-port=%d\n",
		rdma_port);
	ret = nr_file_replace(NR_PERSIST_CONF, conf, n, 0644);
	if (!ret)
		printf("wrote %s\n", NR_PERSIST_CONF);
	return ret;
}
