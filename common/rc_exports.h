/* SPDX-License-Identifier: MIT */
/*
 * exports(5) files read as exportfs reads them: /etc/exports and
 * /etc/exports.d/ (*.exports), and etab, which has their syntax. root is the
 * folder that stands for / (a unit test's temporary root), or NULL.
 */
#ifndef RC_EXPORTS_H
#define RC_EXPORTS_H

#include <stdio.h>

#define RC_EXPORTS_DIR "/etc/exports.d"
#define RC_EXPORTS_MAX 256

/*
 * nfs-utils' own limits: exportfs reads a path into 1,024 bytes (less the
 * room an escape takes while it is decoded) and CLIENT(OPTIONS) as one token
 * of at most 511 bytes; beyond them it drops the entry and the rest of the
 * line.
 */
#define RC_EXPORT_PATH_MAX 1020
#define RC_EXPORT_TOKEN_MAX 511

/* exportfs reads lines of any length; this reader stops at 1 MiB, more than
 * RC_EXPORTS_MAX entries of the longest take. */
#define RC_EXPORTS_LINE_MAX (1 << 20)

struct rc_export {
	char path[RC_EXPORT_PATH_MAX + 4];
	char client[RC_EXPORT_TOKEN_MAX + 1];
	char options[RC_EXPORT_TOKEN_MAX + 1]; /* comma-separated, or empty */
};

struct rc_exports; /* a table of entries */

/* Parses one logical line into up to max entries; returns the count, or
 * -E2BIG (a token longer than nfs-utils reads), -EINVAL (an option list
 * not closed by its token's last byte), -ENOSPC (more than max entries). */
int rc_export_parse_line(const char *line, struct rc_export *out, int max);

/* An empty table, NULL when memory runs out. */
struct rc_exports *rc_exports_new(void);
void rc_exports_delete(struct rc_exports **tp);

/* Adds the entries of a stream to t; name is what a message calls it.
 * A line exportfs would not read, or one longer than RC_EXPORTS_LINE_MAX
 * (-EFBIG), is said and returned as -errno. */
int rc_exports_load_stream(struct rc_exports *t, FILE *f, const char *name);
/* Loads one file (a missing file is an empty table). */
int rc_exports_load(const char *root, const char *abs, struct rc_exports **tp);
/* Loads /etc/exports and then /etc/exports.d/ (*.exports) in exportfs's
 * order. */
int rc_exports_load_all(const char *root, struct rc_exports **tp);

int rc_exports_count(const struct rc_exports *t);
const struct rc_export *rc_exports_get(const struct rc_exports *t, int i);

/* For a writer: entry i to edit, NULL past the end; a new zeroed entry at
 * the end, NULL when the table holds RC_EXPORTS_MAX; entry i removed. */
struct rc_export *rc_exports_at(struct rc_exports *t, int i);
struct rc_export *rc_exports_append(struct rc_exports *t);
void rc_exports_remove(struct rc_exports *t, int i);

#endif
