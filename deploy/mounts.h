/* SPDX-License-Identifier: MIT */
/* The mount table (/proc/mounts, fields octal-unescaped). */
#ifndef NR_MOUNTS_H
#define NR_MOUNTS_H

#include <stddef.h>

struct nr_mount_ent {
	char source[1024];
	char mountpoint[1024];
	char fstype[32];
	char options[2048];
};

typedef int (*nr_mounts_cb)(const struct nr_mount_ent *m, void *arg);

/* Calls cb for each entry until it returns non-zero; returns that. */
int nr_mounts_foreach(nr_mounts_cb cb, void *arg);

/* The last (topmost) entry on mountpoint: 1 found, 0 not, -errno. */
int nr_mounts_find(const char *mountpoint, struct nr_mount_ent *out);

/* Value of key= in a comma-separated option string: 1 found, 0 not. */
int nr_mount_opt(const char *options, const char *key, char *val, size_t len);

#endif
