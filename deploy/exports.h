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

/*
 * nfs-utils' own limits: exportfs reads a path into 1,024 bytes (less the
 * room an escape takes while it is decoded) and CLIENT(OPTIONS) as one token
 * of at most 511 bytes; beyond them it drops the entry and the rest of the
 * line.
 */
#define NR_EXPORT_PATH_MAX 1020
#define NR_EXPORT_TOKEN_MAX 511
#define NR_EXPORT_CLIENT_MAX 255

struct nr_export {
	char path[NR_EXPORT_PATH_MAX + 4];
	char client[NR_EXPORT_TOKEN_MAX + 1];
	char options[NR_EXPORT_TOKEN_MAX + 1]; /* comma-separated, or empty */
};

struct nr_exports; /* a loaded table of entries */

/*
 * Each validator explains what is wrong and returns -errno. A client spec
 * and every option value hold no byte that exportfs would read as a blank,
 * a quote, an escape, a comment or the list's punctuation, so what nfsrdma
 * writes cannot grow into another client or another line.
 */
int nr_export_check_client(const char *spec);
int nr_export_check_options(const char *list);
/* nfs-utils' limits on one entry: -ENAMETOOLONG or -E2BIG. */
int nr_export_check_entry(const char *path, const char *client,
			  const char *options);

/* exports(5) octal escaping of a path: "\040" for a space, and so on. */
int nr_export_escape(const char *path, char *out, size_t len);

/* One entry as an exports(5) line, "PATH CLIENT(OPTIONS)\n"; returns its
 * length or -ENOSPC. */
int nr_export_format(const struct nr_export *e, char *buf, size_t len);

/* Parses one logical line into up to max entries; returns the count, or
 * -E2BIG (a token longer than nfs-utils reads), -EINVAL (an option list
 * not closed by its token's last byte), -ENOSPC (more than max entries). */
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

/*
 * The whole change, under the lock and with signals held: edit the file,
 * exportfs -ra, check etab. On any failure, or a SIGINT/SIGTERM meanwhile
 * (-EINTR), the file is put back, exportfs -ra runs again and etab is checked
 * to list path as before. Return as the file_ functions.
 */
int nr_exports_add(const char *path, const char *client, const char *options);
int nr_exports_del(const char *path);

#endif
