/* SPDX-License-Identifier: MIT */
/*
 * exports(5) files: nfsrdma owns one, /etc/exports.d/rdmaio.exports, and
 * rewrites it whole (temp file, fsync, rename) under a lock, so a crash
 * leaves the old or the new file. The parser also reads the admin's files
 * for status.
 */
#ifndef NR_EXPORTS_H
#define NR_EXPORTS_H

#include <stddef.h>

#define NR_EXPORTS_FILE "/etc/exports.d/rdmaio.exports"
#define NR_EXPORTS_MAX 256

struct nr_export {
	char path[1024];
	char client[256];
	char options[512]; /* comma-separated, may be empty */
};

struct nr_exports; /* a loaded table of entries */

/* Each validator explains what is wrong and returns -EINVAL. */
int nr_export_check_client(const char *spec);
int nr_export_check_options(const char *list);

/* exports(5) octal escaping of a path: "\040" for a space, and so on. */
int nr_export_escape(const char *path, char *out, size_t len);

/* Parses one logical line into up to max entries; returns the count. */
int nr_export_parse_line(const char *line, struct nr_export *out, int max);

/* Loads one file (a missing file is an empty table). */
int nr_exports_load(const char *abs, struct nr_exports **tp);
/* Loads /etc/exports and /etc/exports.d/ (*.exports) like exportfs. */
int nr_exports_load_all(struct nr_exports **tp);
void nr_exports_delete(struct nr_exports **tp);
int nr_exports_count(const struct nr_exports *t);
const struct nr_export *nr_exports_get(const struct nr_exports *t, int i);

/* Serialises the table in exports(5) form; returns length or -ENOSPC. */
int nr_exports_format(const struct nr_exports *t, char *buf, size_t len);

/*
 * Edits nfsrdma's file. add: replaces the entry with the same path and
 * client, or appends; del: drops the entries of path (of that client
 * only, unless client is NULL). Return 1 when the file
 * changed, 0 when it already said so, -errno on failure. Neither runs
 * exportfs: see nr_exports_apply().
 */
int nr_exports_file_add(const char *path, const char *client,
			const char *options);
int nr_exports_file_del(const char *path, const char *client);

/* exportfs -ra, then checks /var/lib/nfs/etab for (path, client), or for
 * path's absence when client is NULL. */
int nr_exports_apply(const char *path, const char *client, int present);

#endif
