/* SPDX-License-Identifier: MIT */
/*
 * The mount table (/proc/mounts, fields octal-unescaped). root is the folder
 * that stands for / (a unit test's temporary root), or NULL for the system.
 */
#ifndef RC_MOUNTS_H
#define RC_MOUNTS_H

#include <stddef.h>

/* Room for any NFS source (a 1 KiB export path and its server) and any
 * mountpoint (PATH_MAX). */
struct rc_mount_ent {
	char source[1536];
	char mountpoint[4096];
	char fstype[32];
	char options[4096];
};

typedef int (*rc_mounts_cb)(const struct rc_mount_ent *m, void *arg);

/* Calls cb for each entry until it returns non-zero; returns that. An
 * entry whose fields do not fit rc_mount_ent is left out: no NFS mount is
 * one, and a cut line could pass for one. */
int rc_mounts_foreach(const char *root, rc_mounts_cb cb, void *arg);

/* The last (topmost) entry on mountpoint: 1 found, 0 not, -errno. */
int rc_mounts_find(const char *root, const char *mountpoint,
		   struct rc_mount_ent *out);

/*
 * The entry of mount id (the first field of /proc/self/mountinfo, the
 * mnt_id of /proc/self/fdinfo) into out: source, mountpoint and fstype,
 * options empty. 1 found, 0 not, -ENAMETOOLONG when its fields do not fit
 * out, -EFBIG for a line longer than any the kernel writes, -errno.
 */
int rc_mounts_find_id(const char *root, int id, struct rc_mount_ent *out);

/* Value of key= in a comma-separated option string: 1 found, 0 not. */
int rc_mount_opt(const char *options, const char *key, char *val, size_t len);

#endif
