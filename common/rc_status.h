/* SPDX-License-Identifier: MIT */
/*
 * The host's RDMA and NFS facts as one json-c object, schema
 * "rdmaio-status/1" (documented in deploy/README.md): what `nfsrdma status
 * --json` prints and what rdmaio records as a host's environment, from this
 * one code. Facts that cannot be read are null, never guessed.
 */
#ifndef RC_STATUS_H
#define RC_STATUS_H

struct json_object;

#define RC_STATUS_SCHEMA "rdmaio-status/1"

/* Where the kernel's nfsd filesystem is mounted. */
#define RC_NFSD_DIR "/proc/fs/nfsd"

/*
 * Builds the status object from this host (root NULL or "") or from the
 * files below root (a unit test's temporary folder, where netlink, the verbs
 * provider and processes are not asked). NULL only when memory runs out.
 */
struct json_object *rc_status_collect(const char *root);

/* Its nfs_mounts array alone, from root's /proc/mounts. */
struct json_object *rc_status_nfs_mounts(const char *root);

/* "10 Gb/sec (1X FDR10)" -> 10.0; -1 when it does not parse. */
double rc_status_rate_gbps(const char *rate);

/* "5: LinkUp" -> "LINK_UP"; NULL when unknown. */
const char *rc_status_phys_state(const char *sysfs);

#endif
