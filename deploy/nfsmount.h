/* SPDX-License-Identifier: MIT */
/* NFS client mounts over RDMA or TCP, as mount.nfs would make them. */
#ifndef NR_NFSMOUNT_H
#define NR_NFSMOUNT_H

#include <stddef.h>

struct nr_mount_req {
	const char *spec; /* SERVER:PATH, [v6addr]:PATH */
	const char *mountpoint;
	const char *proto; /* "rdma" or "tcp" */
	int port; /* 0: 20049 for rdma, 2049 for tcp */
	const char *vers; /* "3", "4", "4.0", "4.1", "4.2" */
	int nconnect; /* 0: not passed */
	const char *extra; /* more options, or NULL */
	int retry; /* keep trying for up to two minutes */
};

/* Splits SERVER:PATH; -EINVAL (explained) when it is not one. */
int nr_mount_split(const char *spec, char *server, size_t slen, char *path,
		   size_t plen);

/* The protocol and version asked for are ones nfsrdma mounts; -EINVAL
 * after saying which is not. */
int nr_mount_check(const struct nr_mount_req *req);

/*
 * The option string for the kernel: vers, proto, port, addr (and
 * clientaddr for NFSv4, mountproto/mountaddr for NFSv3), nconnect, extra.
 * Returns 0, or -EINVAL (explained) for a bad request.
 */
int rc_mount_options(const struct nr_mount_req *req, const char *addr,
		     const char *clientaddr, char *out, size_t len);

/* The filesystem type for vers: "nfs" for 3, "nfs4" for 4.x. */
const char *nr_mount_fstype(const char *vers);

/* Explains a failed NFS mount; msg is the kernel's text or "". */
void nr_mount_explain(int err, const struct nr_mount_req *req,
		      const char *server, const char *clientaddr,
		      const char *msg);

/* Mounts as asked, after starting the daemons an NFSv3 mount needs here
 * (daemon.h); a mount that fails stops those it started. */
int nr_mount(const struct nr_mount_req *req);

#endif
