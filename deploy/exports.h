/* SPDX-License-Identifier: MIT */
/*
 * exports(5) files: nfsrdma owns one, /etc/exports.d/rdmaio.exports, and
 * rewrites it whole (temp file, fsync, rename) under a lock, so a crash
 * leaves the old or the new file. The parser also reads the admin's files
 * for status (common/rc_exports.c).
 */
#ifndef NR_EXPORTS_H
#define NR_EXPORTS_H

#include <stddef.h>

#include "rc_exports.h"

#define NR_EXPORTS_FILE "/etc/exports.d/rdmaio.exports"

/* The longest client name exportfs keeps. */
#define NR_EXPORT_CLIENT_MAX 255

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
int nr_export_format(const struct rc_export *e, char *buf, size_t len);

/* Serialises the table in exports(5) form; returns length or -ENOSPC. */
int nr_exports_format(const struct rc_exports *t, char *buf, size_t len);

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
