/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_ENVSTATUS_H
#define RDMAIO_TOOLS_ENVSTATUS_H

#include <json-c/json.h>

/*
 * The result's "environment" object: the output of `nfsrdma status --json`
 * when an nfsrdma binary is found next to rdmaio or on PATH, otherwise RDMA
 * devices read from sysfs and NFS mounts from the mount table, otherwise a
 * null status. Appends warnings (software RDMA, no environment).
 * root prefixes /sys and /proc (unit tests); self_dir is rdmaio's folder.
 */
json_object *rio_envstatus_gather(const char *root, const char *self_dir,
				  json_object *warnings);

/* The sysfs/mount-table fallback alone, in the nfsrdma status shape. */
json_object *rio_envstatus_from_sysfs(const char *root);

/* NFS mounts in root/proc/self/mounts, in the status "nfs_mounts" shape. */
json_object *rio_envstatus_nfs_mounts(const char *root);

#endif
