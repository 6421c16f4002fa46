// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rc_mounts.h"
#include "rc_octal.h"

/* Copies one space-separated field, turning "\040" back into a space. */
static const char *field(const char *p, char *out, size_t len)
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
	}
	out[o] = '\0';
	return p;
}

int rc_mounts_foreach(const char *root, rc_mounts_cb cb, void *arg)
{
	static char line[8192];
	struct rc_mount_ent m;
	char path[4096];
	int ret = 0;
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/proc/mounts", root ? root : "") >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (!ret && fgets(line, sizeof(line), f)) {
		const char *p = line;

		p = field(p, m.source, sizeof(m.source));
		p = field(p, m.mountpoint, sizeof(m.mountpoint));
		p = field(p, m.fstype, sizeof(m.fstype));
		field(p, m.options, sizeof(m.options));
		ret = cb(&m, arg);
	}
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
