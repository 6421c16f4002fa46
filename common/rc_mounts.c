// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rc_mounts.h"
#include "rc_octal.h"

/* Copies one space-separated field, turning "\040" back into a space;
 * sets *over when it does not fit in len. */
static const char *field_over(const char *p, char *out, size_t len, int *over)
{
	size_t o = 0;

	while (*p == ' ')
		p++;
	while (*p && *p != ' ' && *p != '\n') {
		char c = *p++;

		if (c == '\\' && rc_octal_byte(p) >= 0) {
			c = (char)rc_octal_byte(p);
			p += 3;
		}
		if (o + 1 < len)
			out[o++] = c;
		else
			*over = 1;
	}
	out[o] = '\0';
	return p;
}

/* The same, cutting what does not fit. */
static const char *field(const char *p, char *out, size_t len)
{
	int over = 0;

	return field_over(p, out, len, &over);
}

/* One line of /proc/mounts into m; 0 when a field does not fit, so that a
 * cut path can never pass for another (a FUSE mount's long path ending in
 * " /mnt/x nfs4 proto=rdma" must not read as an NFS mount on /mnt/x). */
static int parse_line(const char *line, struct rc_mount_ent *m)
{
	int over = 0;

	line = field_over(line, m->source, sizeof(m->source), &over);
	line = field_over(line, m->mountpoint, sizeof(m->mountpoint), &over);
	line = field_over(line, m->fstype, sizeof(m->fstype), &over);
	field_over(line, m->options, sizeof(m->options), &over);
	return !over;
}

int rc_mounts_foreach(const char *root, rc_mounts_cb cb, void *arg)
{
	struct rc_mount_ent m;
	char path[4096], *line = NULL;
	size_t cap = 0;
	int ret = 0;
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/proc/mounts", root ? root : "") >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	/* Whole lines, however long: a line read in pieces would make its
	 * tail an entry of its own. */
	while (!ret && getline(&line, &cap, f) >= 0)
		if (parse_line(line, &m))
			ret = cb(&m, arg);
	free(line);
	fclose(f);
	return ret;
}

struct find_ctx {
	const char *mountpoint;
	struct rc_mount_ent *out;
	int found;
};

static int find_cb(const struct rc_mount_ent *m, void *arg)
{
	struct find_ctx *c = arg;

	if (!strcmp(m->mountpoint, c->mountpoint)) {
		*c->out = *m;
		c->found = 1;
	}
	return 0;
}

int rc_mounts_find(const char *root, const char *mountpoint,
		   struct rc_mount_ent *out)
{
	struct find_ctx c = { .mountpoint = mountpoint, .out = out };
	int ret = rc_mounts_foreach(root, find_cb, &c);

	return ret < 0 ? ret : c.found;
}

/* A mountinfo line holds two paths of at most PATH_MAX bytes, each byte
 * escaped in at most four, and the options: 64 KiB is more than the kernel
 * writes. */
#define MOUNTINFO_LINE_MAX 65536

/* "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE
 * SUPER": 1 with out filled when the line is mount id's. */
static int mountinfo_line(const char *line, int id, struct rc_mount_ent *out)
{
	char skip[64];
	const char *p = line, *dash;
	int over = 0, i;

	if (atoi(line) != id)
		return 0;
	for (i = 0; i < 4; i++)
		p = field(p, skip, sizeof(skip));
	p = field_over(p, out->mountpoint, sizeof(out->mountpoint), &over);
	dash = strstr(p, " - ");
	if (!dash)
		return -EPROTO;
	p = field_over(dash + 3, out->fstype, sizeof(out->fstype), &over);
	field_over(p, out->source, sizeof(out->source), &over);
	out->options[0] = '\0';
	return over ? -ENAMETOOLONG : 1;
}

int rc_mounts_find_id(const char *root, int id, struct rc_mount_ent *out)
{
	char path[4096], *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int ret = 0;
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/proc/self/mountinfo",
		     root ? root : "") >= (int)sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (!ret && (n = getline(&line, &cap, f)) >= 0)
		ret = n > MOUNTINFO_LINE_MAX ? -EFBIG
					     : mountinfo_line(line, id, out);
	free(line);
	fclose(f);
	return ret;
}

int rc_mount_opt(const char *options, const char *key, char *val, size_t len)
{
	size_t klen = strlen(key);
	const char *p = options;

	while (*p) {
		size_t n = strcspn(p, ",");

		if (n > klen && !strncmp(p, key, klen) && p[klen] == '=') {
			snprintf(val, len, "%.*s", (int)(n - klen - 1),
				 p + klen + 1);
			return 1;
		}
		p += n + (p[n] == ',');
	}
	return 0;
}
