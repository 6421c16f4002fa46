// SPDX-License-Identifier: MIT
/* The export table: loading, atomic rewriting under a lock, applying. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exports.h"
#include "log.h"
#include "spawn.h"
#include "sysfile.h"

#define NR_EXPORTS_DIR "/etc/exports.d"
#define NR_EXPORTS_LOCK NR_EXPORTS_DIR "/.rdmaio.lock"
#define NR_ETAB "/var/lib/nfs/etab"

struct nr_exports {
	int n;
	struct nr_export e[NR_EXPORTS_MAX];
};

void nr_exports_delete(struct nr_exports **tp)
{
	if (!tp)
		return;
	free(*tp);
	*tp = NULL;
}

int nr_exports_count(const struct nr_exports *t)
{
	return t->n;
}

const struct nr_export *nr_exports_get(const struct nr_exports *t, int i)
{
	return i >= 0 && i < t->n ? &t->e[i] : NULL;
}

static int load_into(struct nr_exports *t, const char *abs)
{
	char path[4096], line[8192], part[4096];
	FILE *f;
	int ret;

	ret = nr_path(path, sizeof(path), abs);
	if (ret)
		return ret;
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	line[0] = '\0';
	while (fgets(part, sizeof(part), f)) {
		size_t n = strcspn(part, "\n");

		part[n] = '\0';
		/* A trailing backslash continues the entry. */
		if (n && part[n - 1] == '\\') {
			part[n - 1] = ' ';
			strncat(line, part, sizeof(line) - strlen(line) - 1);
			continue;
		}
		strncat(line, part, sizeof(line) - strlen(line) - 1);
		t->n += nr_export_parse_line(line, &t->e[t->n],
					     NR_EXPORTS_MAX - t->n);
		line[0] = '\0';
	}
	fclose(f);
	return 0;
}

int nr_exports_load(const char *abs, struct nr_exports **tp)
{
	struct nr_exports *t = calloc(1, sizeof(*t));
	int ret;

	if (!t)
		return -ENOMEM;
	ret = load_into(t, abs);
	if (ret) {
		free(t);
		return ret;
	}
	*tp = t;
	return 0;
}

static int exports_file(const struct dirent *de)
{
	size_t n = strlen(de->d_name);

	return de->d_name[0] != '.' && n > 8 &&
	       !strcmp(de->d_name + n - 8, ".exports");
}

int nr_exports_load_all(struct nr_exports **tp)
{
	struct dirent **names = NULL;
	char dir[4096], abs[4200];
	int ret, n, i;

	ret = nr_exports_load("/etc/exports", tp);
	if (ret)
		return ret;
	ret = nr_path(dir, sizeof(dir), NR_EXPORTS_DIR);
	n = ret ? 0 : scandir(dir, &names, exports_file, versionsort);
	for (i = 0; i < n; i++) {
		snprintf(abs, sizeof(abs), "%s/%s", NR_EXPORTS_DIR,
			 names[i]->d_name);
		if (!ret)
			ret = load_into(*tp, abs);
		free(names[i]);
	}
	free(names);
	if (ret)
		nr_exports_delete(tp);
	return ret;
}

int nr_exports_format(const struct nr_exports *t, char *buf, size_t len)
{
	char esc[4200];
	size_t o;
	int i, n;

	n = snprintf(buf, len,
		     "# Managed by nfsrdma (export add/del): changes made "
		     "here are overwritten.\n");
	if (n < 0 || (size_t)n >= len)
		return -ENOSPC;
	o = n;
	for (i = 0; i < t->n; i++) {
		if (nr_export_escape(t->e[i].path, esc, sizeof(esc)))
			return -ENOSPC;
		n = snprintf(buf + o, len - o, "%s %s(%s)\n", esc,
			     t->e[i].client, t->e[i].options);
		if (n < 0 || (size_t)n >= len - o)
			return -ENOSPC;
		o += n;
	}
	return (int)o;
}

/* Serialises writers; readers (exportfs) only ever see whole files. */
static int lock_exports(void)
{
	char dir[4096], lock[4200];
	int fd, ret;

	ret = nr_path(dir, sizeof(dir), NR_EXPORTS_DIR);
	if (ret)
		return ret;
	if (mkdir(dir, 0755) && errno != EEXIST) {
		ret = -errno;
		nr_call_err(ret, "mkdir(%s)", dir);
		return ret;
	}
	snprintf(lock, sizeof(lock), "%s/.rdmaio.lock", dir);
	fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0 || flock(fd, LOCK_EX)) {
		ret = -errno;
		nr_call_err(ret, "locking %s", lock);
		if (fd >= 0)
			close(fd);
		return ret;
	}
	return fd;
}

static int save(const struct nr_exports *t)
{
	size_t len = 1024 + (size_t)t->n * 6000;
	char *buf = malloc(len);
	int n, ret;

	if (!buf)
		return -ENOMEM;
	n = nr_exports_format(t, buf, len);
	ret = n < 0 ? n : nr_file_replace(NR_EXPORTS_FILE, buf, n, 0644);
	free(buf);
	return ret;
}

/*
 * Read, change and rewrite nfsrdma's exports file under its lock. edit returns
 * 1 when it changed the table, 0 when there was nothing to do, or -errno.
 * Returns 1 when the file was rewritten, 0 when left alone, or -errno.
 */
static int edit_exports(int (*edit)(struct nr_exports *t, void *arg), void *arg)
{
	struct nr_exports *t = NULL;
	int lock, ret;

	lock = lock_exports();
	if (lock < 0)
		return lock;
	ret = nr_exports_load(NR_EXPORTS_FILE, &t);
	if (ret) {
		nr_call_err(ret, "reading %s", NR_EXPORTS_FILE);
		goto out;
	}
	ret = edit(t, arg);
	if (ret == 1) {
		ret = save(t);
		if (!ret)
			ret = 1;
	}
out:
	nr_exports_delete(&t);
	close(lock);
	return ret;
}

struct export_edit {
	const char *path, *client, *options;
};

static int add_entry(struct nr_exports *t, void *arg)
{
	const struct export_edit *x = arg;
	struct nr_export *e = NULL;
	int i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->e[i].path, x->path) &&
		    !strcmp(t->e[i].client, x->client))
			e = &t->e[i];
	if (e && !strcmp(e->options, x->options))
		return 0;
	if (!e) {
		if (t->n == NR_EXPORTS_MAX) {
			nr_diag("delete unused exports first",
				"%s already has %d entries", NR_EXPORTS_FILE,
				NR_EXPORTS_MAX);
			return -ENOSPC;
		}
		e = &t->e[t->n++];
		snprintf(e->path, sizeof(e->path), "%s", x->path);
		snprintf(e->client, sizeof(e->client), "%s", x->client);
	}
	snprintf(e->options, sizeof(e->options), "%s", x->options);
	return 1;
}

static int del_entries(struct nr_exports *t, void *arg)
{
	const struct export_edit *x = arg;
	int i, o = 0;

	for (i = 0; i < t->n; i++)
		if (strcmp(t->e[i].path, x->path) ||
		    (x->client && strcmp(t->e[i].client, x->client)))
			t->e[o++] = t->e[i];
	if (o == t->n)
		return 0;
	t->n = o;
	return 1;
}

int nr_exports_file_add(const char *path, const char *client,
			const char *options)
{
	struct export_edit x = { path, client, options };

	return edit_exports(add_entry, &x);
}

int nr_exports_file_del(const char *path, const char *client)
{
	struct export_edit x = { path, client, NULL };

	return edit_exports(del_entries, &x);
}

int nr_exports_apply(const char *path, const char *client, int present)
{
	char *argv[] = { "exportfs", "-ra", NULL };
	struct nr_exports *etab = NULL;
	int ret, i, found = 0;

	ret = nr_spawn_wait(argv);
	if (ret) {
		nr_diag("run 'exportfs -rav' to see which line it rejects",
			"exportfs -ra failed (status %d)", ret);
		return ret < 0 ? ret : -EIO;
	}
	ret = nr_exports_load(NR_ETAB, &etab);
	if (ret) {
		nr_call_err(ret, "reading %s", NR_ETAB);
		return ret;
	}
	for (i = 0; i < etab->n; i++)
		if (!strcmp(etab->e[i].path, path) &&
		    (!client || !strcmp(etab->e[i].client, client)))
			found = 1;
	nr_exports_delete(&etab);
	if (found == present)
		return 0;
	if (present)
		nr_diag("run 'exportfs -rav' and read its warnings",
			"export %s to %s is not in %s after exportfs -ra", path,
			client, NR_ETAB);
	else
		nr_diag("remove it from /etc/exports or other "
			"/etc/exports.d files",
			"%s is still exported after exportfs -ra: another "
			"exports file lists it",
			path);
	return -EIO;
}
