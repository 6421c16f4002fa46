// SPDX-License-Identifier: MIT
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "daemon.h"
#include "kmodule.h"
#include "rc_log.h"
#include "rc_mounts.h"
#include "nfsmount.h"
#include "reach.h"
#include "helper.h"
#include "sigdefer.h"
#include "sysfile.h"

int nr_mount_split(const char *spec, char *server, size_t slen, char *path,
		   size_t plen)
{
	const char *colon;

	if (spec[0] == '[') {
		const char *close = strchr(spec, ']');

		colon = close && close[1] == ':' ? close + 1 : NULL;
		if (colon && (size_t)(close - spec) <= slen)
			snprintf(server, slen, "%.*s", (int)(close - spec - 1),
				 spec + 1);
	} else {
		colon = strchr(spec, ':');
		if (colon && (size_t)(colon - spec) < slen)
			snprintf(server, slen, "%.*s", (int)(colon - spec),
				 spec);
	}
	if (!colon || colon == spec || colon[1] != '/' ||
	    strlen(colon + 1) >= plen) {
		rc_diag("write it as SERVER:/path, e.g. 198.18.0.1:/srv/x "
			"([fd18::1]:/srv/x for IPv6)",
			"'%s' is not SERVER:/PATH", spec);
		return -EINVAL;
	}
	snprintf(path, plen, "%s", colon + 1);
	return 0;
}

const char *nr_mount_fstype(const char *vers)
{
	return vers[0] == '3' ? "nfs" : "nfs4";
}

int nr_mount_check(const struct nr_mount_req *req)
{
	if (strcmp(req->proto, "rdma") && strcmp(req->proto, "tcp")) {
		rc_diag("use --proto rdma or --proto tcp",
			"mount protocol '%s' is not supported", req->proto);
		return -EINVAL;
	}
	if (strcmp(req->vers, "3") && strcmp(req->vers, "4") &&
	    strcmp(req->vers, "4.0") && strcmp(req->vers, "4.1") &&
	    strcmp(req->vers, "4.2")) {
		rc_diag("use --vers 3, 4.0, 4.1 or 4.2",
			"NFS version '%s' is not supported", req->vers);
		return -EINVAL;
	}
	return 0;
}

int rc_mount_options(const struct nr_mount_req *req, const char *addr,
		     const char *clientaddr, char *out, size_t len)
{
	int port = req->port ? req->port
			     : (!strcmp(req->proto, "rdma") ? 20049 : 2049);
	int v3 = !strcmp(req->vers, "3"), v6 = strchr(addr, ':') != NULL;
	size_t o;
	int n;

	if (nr_mount_check(req))
		return -EINVAL;
	/* The kernel wants the address family in the transport name
	 * (tcp6, rdma6), as mount.nfs writes it. */
	n = snprintf(out, len, "vers=%s,proto=%s%s,port=%d,addr=%s", req->vers,
		     req->proto, v6 ? "6" : "", port, addr);
	/* NFSv3 over RDMA still speaks MOUNT over TCP; NFSv4.0 needs
	 * clientaddr for callbacks, and mount.nfs passes it for 4.x. */
	if (n > 0 && (size_t)n < len && v3)
		n += snprintf(out + n, len - n,
			      ",mountproto=tcp%s,mountaddr=%s", v6 ? "6" : "",
			      addr);
	else if (n > 0 && (size_t)n < len)
		n += snprintf(out + n, len - n, ",clientaddr=%s", clientaddr);
	if (n > 0 && (size_t)n < len && req->nconnect)
		n += snprintf(out + n, len - n, ",nconnect=%d", req->nconnect);
	if (n > 0 && (size_t)n < len && req->extra && req->extra[0])
		n += snprintf(out + n, len - n, ",%s", req->extra);
	o = n < 0 ? len : (size_t)n;
	return o < len ? 0 : -ENOSPC;
}

/* The local address the kernel would use to reach addr. */
static int local_addr(const struct sockaddr_storage *ss, socklen_t sl,
		      char *out, size_t len)
{
	struct sockaddr_storage me;
	socklen_t ml = sizeof(me);
	int fd, ret = 0;

	fd = socket(ss->ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (const struct sockaddr *)ss, sl) ||
	    getsockname(fd, (struct sockaddr *)&me, &ml))
		ret = -errno;
	else if (getnameinfo((struct sockaddr *)&me, ml, out, len, NULL, 0,
			     NI_NUMERICHOST))
		ret = -EINVAL;
	close(fd);
	return ret;
}

static int resolve(const char *server, int port, char *addr, size_t alen,
		   char *clientaddr, size_t clen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_DGRAM }, *ai;
	char portstr[16];
	int ret;

	snprintf(portstr, sizeof(portstr), "%d", port);
	ret = getaddrinfo(server, portstr, &hints, &ai);
	if (ret) {
		rc_diag("check the server name, or give its IP address",
			"server '%s' cannot be resolved: %s", server,
			gai_strerror(ret));
		return -EHOSTUNREACH;
	}
	getnameinfo(ai->ai_addr, ai->ai_addrlen, addr, alen, NULL, 0,
		    NI_NUMERICHOST);
	ret = local_addr((struct sockaddr_storage *)ai->ai_addr, ai->ai_addrlen,
			 clientaddr, clen);
	freeaddrinfo(ai);
	if (ret)
		rc_diag("check 'ip route get' for the server address",
			"no route from this host to server %s (%s): %s", server,
			addr, strerror(-ret));
	return ret;
}

/* fsopen/fsconfig: unlike mount(2), the kernel says why it refused. */
static int do_mount(const char *fstype, const char *source, const char *options,
		    const char *mountpoint, char *msg, size_t mlen)
{
	char opts[4096], *tok, *save;
	int fs, mnt = -1, ret = 0;
	ssize_t n;

	msg[0] = '\0';
	fs = fsopen(fstype, FSOPEN_CLOEXEC);
	if (fs < 0) {
		if (errno != ENOSYS)
			return -errno;
		return mount(source, mountpoint, fstype, 0, options) ? -errno
								     : 0;
	}
	snprintf(opts, sizeof(opts), "%s", options);
	if (fsconfig(fs, FSCONFIG_SET_STRING, "source", source, 0))
		ret = -errno;
	for (tok = strtok_r(opts, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');

		if (eq)
			*eq = '\0';
		if (eq ? fsconfig(fs, FSCONFIG_SET_STRING, tok, eq + 1, 0)
		       : fsconfig(fs, FSCONFIG_SET_FLAG, tok, NULL, 0))
			ret = -errno;
	}
	if (!ret && fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0))
		ret = -errno;
	if (!ret) {
		mnt = fsmount(fs, FSMOUNT_CLOEXEC, 0);
		if (mnt < 0)
			ret = -errno;
	}
	if (!ret &&
	    move_mount(mnt, "", AT_FDCWD, mountpoint, MOVE_MOUNT_F_EMPTY_PATH))
		ret = -errno;
	/* Messages come one per read, "e text" for errors. */
	while (ret && (n = read(fs, opts, sizeof(opts) - 1)) > 0) {
		opts[n] = '\0';
		if (opts[0] == 'e' && opts[1] == ' ') {
			size_t l = strnlen(opts + 2, mlen - 1);

			memcpy(msg, opts + 2, l);
			msg[l] = '\0';
		}
	}
	if (mnt >= 0)
		close(mnt);
	close(fs);
	return ret;
}

void nr_mount_explain(int err, const struct nr_mount_req *req,
		      const char *server, const char *clientaddr,
		      const char *msg)
{
	int rdma = !strcmp(req->proto, "rdma");
	char fix[512];

	switch (-err) {
	case EINVAL:
		if (rdma && strstr(msg, "transport")) {
			rc_diag("load it: modprobe rpcrdma (and remove any "
				"blacklist of rpcrdma/xprtrdma)",
				"mount %s: this client has no RDMA transport "
				"for NFS (%s)",
				req->spec, msg);
			return;
		}
		break;
	case EPROTO:
		if (rdma) {
			rc_diag("create one on the interface toward the "
				"server: nfsrdma link add rxe0 NETDEV",
				"mount %s: no RDMA device on the route to %s",
				req->spec, server);
			return;
		}
		break;
	case ECONNREFUSED:
		snprintf(fix, sizeof(fix),
			 "on %s run 'nfsrdma server start%s' or pass the "
			 "right --port",
			 server, rdma ? "" : " (it listens on TCP 2049)");
		rc_diag(fix, "mount %s: %s refuses %s connections on port %d",
			req->spec, server, req->proto,
			req->port ? req->port : (rdma ? 20049 : 2049));
		return;
	case EACCES:
	case EPERM:
		snprintf(fix, sizeof(fix),
			 "on %s: nfsrdma export add PATH --clients %s (see "
			 "'nfsrdma probe %s')",
			 server, clientaddr, req->spec);
		rc_diag(fix,
			"mount %s: the server does not export it to this "
			"client (%s)",
			req->spec, clientaddr);
		return;
	case ENOENT:
		snprintf(fix, sizeof(fix), "list the exports: nfsrdma probe %s",
			 server);
		rc_diag(fix, "mount %s: the server has no such export%s%s",
			req->spec, msg[0] ? ": " : "", msg);
		return;
	case ETIMEDOUT:
	case EHOSTUNREACH:
	case ENETUNREACH:
		rc_diag("check the address, the link and the server",
			"mount %s: server %s does not answer (%s)", req->spec,
			server, strerror(-err));
		return;
	case EBUSY:
		rc_diag("umount it first, or pick another mountpoint",
			"mount %s: mountpoint %s is busy", req->spec,
			req->mountpoint);
		return;
	}
	rc_diag("see 'dmesg' for the kernel's NFS messages",
		"mount %s on %s failed: %s%s%s", req->spec, req->mountpoint,
		strerror(-err), msg[0] ? ": " : "", msg);
}

/* "rdma6" is "rdma" over IPv6. */
static int same_proto(const char *shown, const char *want)
{
	size_t n = strlen(want);

	return !strncmp(shown, want, n) &&
	       (shown[n] == '\0' || !strcmp(shown + n, "6"));
}

/* nconnect= as the mount table shows it: the kernel leaves it out at 1. */
static int shown_nconnect(const char *options)
{
	char v[16];

	return rc_mount_opt(options, "nconnect", v, sizeof(v)) ? atoi(v) : 1;
}

static int check_mountpoint(const struct nr_mount_req *req, const char *src,
			    const char *fstype)
{
	struct rc_mount_ent m;
	char proto[16] = "", fix[1200];
	struct stat st;
	int ret;

	if (stat(req->mountpoint, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(fix, sizeof(fix), "create it: mkdir -p '%s'",
			 req->mountpoint);
		rc_diag(fix, "mountpoint %s %s", req->mountpoint,
			errno == ENOENT ? "does not exist"
					: "is not a directory");
		return -ENOENT;
	}
	ret = rc_mounts_find(nr_test_root(), req->mountpoint, &m);
	if (ret <= 0)
		return ret;
	rc_mount_opt(m.options, "proto", proto, sizeof(proto));
	if (!strcmp(m.source, src) && !strcmp(m.fstype, fstype) &&
	    same_proto(proto, req->proto) &&
	    (!req->nconnect || shown_nconnect(m.options) == req->nconnect)) {
		printf("%s already mounted on %s (proto=%s)\n", src,
		       req->mountpoint, proto);
		return 1;
	}
	snprintf(fix, sizeof(fix), "nfsrdma umount %s first", req->mountpoint);
	rc_diag(fix, "mountpoint %s is busy: %s (%s%s%s) is mounted there",
		req->mountpoint, m.source, m.fstype, proto[0] ? ", proto=" : "",
		proto);
	return -EBUSY;
}

struct share_ctx {
	const char *addr;
	const char *proto;
	struct rc_mount_ent found;
	char found_proto[16];
};

static int share_cb(const struct rc_mount_ent *m, void *arg)
{
	struct share_ctx *c = arg;
	char addr[64], proto[16];

	if (strcmp(m->fstype, "nfs4") ||
	    !rc_mount_opt(m->options, "addr", addr, sizeof(addr)) ||
	    strcmp(addr, c->addr) ||
	    !rc_mount_opt(m->options, "proto", proto, sizeof(proto)) ||
	    same_proto(proto, c->proto))
		return 0;
	c->found = *m;
	snprintf(c->found_proto, sizeof(c->found_proto), "%s", proto);
	return 1;
}

/*
 * The kernel keeps one NFSv4 client per server (trunking discovery finds
 * it again even with nosharecache), and a new mount silently rides on its
 * transport: proto= is ignored. Refuse up front instead.
 */
static int check_shared_client(const struct nr_mount_req *req, const char *addr)
{
	struct share_ctx c = { .addr = addr, .proto = req->proto };
	char fix[4096 + 128];

	if (nr_mount_fstype(req->vers)[3] == '\0' ||
	    rc_mounts_foreach(nr_test_root(), share_cb, &c) <= 0)
		return 0;
	snprintf(fix, sizeof(fix),
		 "unmount it first (nfsrdma umount %s): mount the two "
		 "protocols one after the other",
		 c.found.mountpoint);
	rc_diag(fix,
		"mount %s over %s: %s is already mounted over %s on %s, and "
		"the kernel would reuse that NFSv4 client and its transport",
		req->spec, req->proto, c.found.source, c.found_proto,
		c.found.mountpoint);
	return -EBUSY;
}

/* What one mount works out before it mounts. */
struct mount_ctx {
	char server[256], path[1024], addr[64], caddr[64], src[1400];
	char opts[4096];
	const char *fstype;
	int port;
};

struct conn_ctx {
	const char *addr, *proto, *fstype, *vers, *mountpoint;
	int port, nconnect; /* asked for */
	struct rc_mount_ent found;
	int found_n;
};

/* Another mount of the same server address and port, protocol and
 * version whose nconnect is not the one asked for. */
static int conn_cb(const struct rc_mount_ent *m, void *arg)
{
	struct conn_ctx *c = arg;
	char addr[64], proto[16], port[16], vers[16];

	/* The kernel shows port= only when it is not 2049. */
	if (!rc_mount_opt(m->options, "port", port, sizeof(port)))
		snprintf(port, sizeof(port), "2049");
	/* NFSv4.1 and 4.2 mounts are clients of their own. */
	if (!rc_mount_opt(m->options, "vers", vers, sizeof(vers)))
		vers[0] = '\0';
	if (strcmp(m->fstype, c->fstype) || atoi(port) != c->port ||
	    strcmp(vers, c->vers) || !strcmp(m->mountpoint, c->mountpoint) ||
	    !rc_mount_opt(m->options, "addr", addr, sizeof(addr)) ||
	    strcmp(addr, c->addr) ||
	    !rc_mount_opt(m->options, "proto", proto, sizeof(proto)) ||
	    !same_proto(proto, c->proto) ||
	    shown_nconnect(m->options) == c->nconnect)
		return 0;
	c->found = *m;
	c->found_n = shown_nconnect(m->options);
	return 1;
}

/*
 * The kernel keeps one NFS client per server address and port, protocol and
 * version, and its connections are the first mount's: a second mount with
 * another --nconnect silently gets the first one's (seen on Linux 6.1:
 * nconnect=8 next to a mount without it got one connection). Refuse it
 * before mounting; after the mount, the mount table is checked as well.
 */
static int check_nconnect(const struct nr_mount_req *req,
			  const struct mount_ctx *mc)
{
	struct conn_ctx c = { .addr = mc->addr,
			      .proto = req->proto,
			      .fstype = mc->fstype,
			      .vers = req->vers,
			      .mountpoint = req->mountpoint,
			      .port = mc->port,
			      .nconnect = req->nconnect ? req->nconnect : 1 };
	char fix[4096 + 160];

	if (rc_mounts_foreach(nr_test_root(), conn_cb, &c) <= 0)
		return 0;
	snprintf(fix, sizeof(fix),
		 "unmount it first (nfsrdma umount %s), or mount this one with "
		 "--nconnect %d as it has",
		 c.found.mountpoint, c.found_n);
	rc_diag(fix,
		"mount %s with %d connection%s: %s is mounted over %s on %s "
		"with %d, and the kernel would give this mount that client and "
		"its connections",
		req->spec, c.nconnect, c.nconnect == 1 ? "" : "s",
		c.found.source, req->proto, c.found.mountpoint, c.found_n);
	return -EBUSY;
}

/*
 * An NFSv3 mount needs rpcbind here too: the kernel's lock manager (lockd)
 * registers with this host's rpcbind, and without it the mount fails with
 * ECONNREFUSED, as if the server had refused. rpc.statd answers the
 * server's lock recovery; mount.nfs refuses to mount without it unless
 * "nolock" is given, and so does this.
 */
struct v3_daemons {
	int rpcbind, statd; /* this mount made NFSv3 mounts their user */
};

static int v3_client_daemons(const struct nr_mount_req *req,
			     struct v3_daemons *d)
{
	char *rpcbind[] = { "rpcbind", NULL };
	char *statd[] = { "rpc.statd", "--no-notify", NULL };
	int ret;

	if (strcmp(req->vers, "3") ||
	    (req->extra && strstr(req->extra, "nolock")))
		return 0;
	ret = nr_daemon_use(rpcbind,
			    "this client's port registration, which NFSv3's "
			    "lock manager needs",
			    NR_DAEMON_MOUNT, &d->rpcbind);
	if (!ret)
		ret = nr_daemon_use(statd, "NFSv3 lock recovery on this client",
				    NR_DAEMON_MOUNT, &d->statd);
	return ret;
}

/* A mount that failed leaves no daemon it started. */
static void v3_client_daemons_undo(const struct v3_daemons *d)
{
	if (d->statd)
		nr_daemon_release("rpc.statd", NR_DAEMON_MOUNT);
	if (d->rpcbind)
		nr_daemon_release("rpcbind", NR_DAEMON_MOUNT);
}

/*
 * ECONNREFUSED from an NFSv3 mount has three sources: this host's rpcbind
 * (lockd), the server's rpcbind (MOUNT asks it for mountd's port) and the
 * server's NFS listener. Returns 1 after naming the one that refused.
 */
static int explain_v3_refused(const struct nr_mount_req *req,
			      const char *server, const char *addr)
{
	char fix[512];

	if (strcmp(req->vers, "3"))
		return 0;
	if (nr_reach_tcp(strchr(addr, ':') ? "::1" : "127.0.0.1",
			 NR_RPCBIND_PORT, 2000) == -ECONNREFUSED &&
	    !(req->extra && strstr(req->extra, "nolock"))) {
		rc_diag("start it: rpcbind (or mount with -o nolock, and no "
			"locks cross hosts)",
			"mount %s: this client runs no rpcbind, so the kernel's "
			"NFSv3 lock manager could not start (the refusal is "
			"local, not the server's)",
			req->spec);
		return 1;
	}
	if (nr_reach_tcp(addr, NR_RPCBIND_PORT, 3000) == -ECONNREFUSED) {
		snprintf(fix, sizeof(fix),
			 "on %s run 'nfsrdma server start' (it starts rpcbind "
			 "for NFSv3)",
			 server);
		rc_diag(fix,
			"mount %s: %s runs no rpcbind (TCP port %d refused), "
			"and NFSv3's MOUNT call asks it where mountd is",
			req->spec, server, NR_RPCBIND_PORT);
		return 1;
	}
	return 0;
}

static int retryable(int err)
{
	return err == -ECONNREFUSED || err == -ETIMEDOUT || err == -EAGAIN ||
	       err == -EHOSTUNREACH;
}

static int mount_prepare(const struct nr_mount_req *req, struct mount_ctx *c)
{
	int ret;

	c->fstype = nr_mount_fstype(req->vers);
	c->port = req->port ? req->port
			    : (!strcmp(req->proto, "rdma") ? 20049 : 2049);
	ret = nr_mount_split(req->spec, c->server, sizeof(c->server), c->path,
			     sizeof(c->path));
	if (!ret)
		ret = resolve(c->server, c->port, c->addr, sizeof(c->addr),
			      c->caddr, sizeof(c->caddr));
	if (!ret)
		ret = rc_mount_options(req, c->addr, c->caddr, c->opts,
				       sizeof(c->opts));
	if (ret)
		return ret;
	if (strchr(c->server, ':'))
		snprintf(c->src, sizeof(c->src), "[%s]:%s", c->server, c->path);
	else
		snprintf(c->src, sizeof(c->src), "%s:%s", c->server, c->path);
	ret = check_mountpoint(req, c->src, c->fstype);
	if (ret)
		return ret;
	ret = check_shared_client(req, c->addr);
	if (!ret)
		ret = check_nconnect(req, c);
	if (!ret && !strcmp(req->proto, "rdma"))
		ret = nr_module_load("rpcrdma", "NFS/RDMA client transport");
	if (!ret)
		ret = nr_module_load(c->fstype[3] ? "nfsv4" : "nfsv3",
				     "NFS client");
	return ret;
}

/* Mounts, for up to two minutes with --retry; explains a failure. */
static int mount_retry(const struct nr_mount_req *req,
		       const struct mount_ctx *c)
{
	time_t deadline = time(NULL) + 120;
	char msg[512];
	int ret;

	for (;;) {
		ret = do_mount(c->fstype, c->src, c->opts, req->mountpoint, msg,
			       sizeof(msg));
		if (!ret || !req->retry || !retryable(ret) ||
		    time(NULL) >= deadline)
			break;
		sleep(2);
	}
	if (ret && (ret != -ECONNREFUSED ||
		    !explain_v3_refused(req, c->server, c->addr)))
		nr_mount_explain(ret, req, c->server, c->caddr, msg);
	return ret;
}

/* The mount table is the proof of what the kernel really did; a mount
 * that is not what was asked for is taken down again. */
static int mount_verify(const struct nr_mount_req *req,
			const struct mount_ctx *c)
{
	char want[16], proto[16] = "", got[16] = "";
	struct rc_mount_ent m;
	int ret;

	ret = rc_mounts_find(nr_test_root(), req->mountpoint, &m);
	rc_mount_opt(ret > 0 ? m.options : "", "proto", proto, sizeof(proto));
	/* The kernel shows port= only when it is not 2049. */
	if (!rc_mount_opt(ret > 0 ? m.options : "", "port", got, sizeof(got)))
		snprintf(got, sizeof(got), "2049");
	snprintf(want, sizeof(want), "%d", c->port);
	if (ret > 0 && same_proto(proto, req->proto) && !strcmp(got, want) &&
	    shown_nconnect(m.options) != (req->nconnect ? req->nconnect : 1)) {
		rc_diag("see 'nfsrdma status' for another mount of this server; "
			"unmount it first",
			"mounted %s on %s with %d connection(s) asked, but the "
			"mount table shows %d: the kernel reused another mount's "
			"client",
			c->src, req->mountpoint,
			req->nconnect ? req->nconnect : 1,
			shown_nconnect(m.options));
		umount2(req->mountpoint, UMOUNT_NOFOLLOW);
		return -EPROTO;
	}
	if (ret > 0 && same_proto(proto, req->proto) && !strcmp(got, want))
		return 0;
	rc_diag("see 'dmesg'; the kernel did not keep proto/port",
		"mounted %s on %s, but the mount table shows proto=%s port=%s, "
		"not %s port %s",
		c->src, req->mountpoint, proto[0] ? proto : "?",
		got[0] ? got : "?", req->proto, want);
	umount2(req->mountpoint, UMOUNT_NOFOLLOW);
	return -EPROTO;
}

int nr_mount(const struct nr_mount_req *req)
{
	struct v3_daemons d = { 0, 0 };
	struct mount_ctx c;
	int ret;

	ret = mount_prepare(req, &c);
	if (ret)
		return ret < 0 ? ret : 0;
	ret = v3_client_daemons(req, &d);
	/* A Ctrl-C held while a daemon started: stop before mounting. */
	if (!ret && nr_sigdefer_caught())
		ret = -EINTR;
	if (!ret)
		ret = mount_retry(req, &c);
	if (!ret)
		ret = mount_verify(req, &c);
	if (ret == -EINTR)
		rc_diag(NULL, "mount %s: interrupted, nothing mounted",
			req->spec);
	if (ret) {
		v3_client_daemons_undo(&d);
		return ret;
	}
	printf("mounted %s on %s (%s, %s)\n", c.src, req->mountpoint, c.fstype,
	       c.opts);
	return 0;
}
