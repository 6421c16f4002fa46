// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <nfsc/libnfs.h>
#include <nfsc/libnfs-raw-mount.h>

#include "rc_log.h"
#include "nfsmount.h"
#include "probe.h"
#include "reach.h"

static void list_exports(const char *server, struct exportnode *ex)
{
	struct groupnode *g;

	printf("exports of %s:\n", server);
	if (!ex)
		printf("  (none)\n");
	for (; ex; ex = ex->ex_next) {
		printf("  %s", ex->ex_dir);
		for (g = ex->ex_groups; g; g = g->gr_next)
			printf(" %s", g->gr_name);
		printf("%s\n", ex->ex_groups ? "" : " (everyone)");
	}
}

int nr_probe(const char *spec)
{
	char server[256], path[1024] = "", fix[512];
	struct nfs_context *nfs;
	struct exportnode *ex;
	int ret;

	if (strchr(spec, ':') && spec[0] != '[' &&
	    strchr(spec, ':') != strrchr(spec, ':'))
		snprintf(server, sizeof(server), "%s", spec); /* bare IPv6 */
	else if (strchr(spec, ':')) {
		ret = nr_mount_split(spec, server, sizeof(server), path,
				     sizeof(path));
		if (ret)
			return ret;
	} else {
		snprintf(server, sizeof(server), "%s", spec);
	}
	/* libnfs has no timeout for the export list: see first whether
	 * anything answers at all. */
	ret = nr_reach_tcp(server, NR_RPCBIND_PORT, 3000);
	if (ret) {
		snprintf(fix, sizeof(fix),
			 "check the address and that rpcbind runs on %s "
			 "('nfsrdma server start' starts it)",
			 server);
		rc_diag(fix, "probe %s: rpcbind (TCP %d) does not answer: %s",
			server, NR_RPCBIND_PORT, strerror(-ret));
		return ret;
	}
	ex = mount_getexports(server);
	if (!path[0]) {
		list_exports(server, ex);
		mount_free_export_list(ex);
		return 0;
	}
	nfs = nfs_init_context();
	if (!nfs) {
		mount_free_export_list(ex);
		return -ENOMEM;
	}
	nfs_set_timeout(nfs, 5000);
	ret = nfs_mount(nfs, server, path);
	if (ret == 0) {
		printf("%s:%s is exported to this host and mounts over TCP "
		       "(NFSv3, libnfs)\n",
		       server, path);
		nfs_umount(nfs);
	} else {
		snprintf(fix, sizeof(fix),
			 "on %s: nfsrdma export add %s --clients <this host>",
			 server, path);
		rc_diag(fix, "probe %s:%s: the server refuses it: %s", server,
			path, nfs_get_error(nfs));
		list_exports(server, ex);
		ret = -EACCES;
	}
	nfs_destroy_context(nfs);
	mount_free_export_list(ex);
	return ret;
}
