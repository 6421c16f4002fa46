// SPDX-License-Identifier: MIT
/* The export table: loading, atomic rewriting under a lock, applying with
 * rollback. */
#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "etab.h"
#include "exports.h"
#include "rc_log.h"
#include "sigdefer.h"
#include "sysfile.h"

#define NR_EXPORTS_LOCK RC_EXPORTS_DIR "/.rdmaio.lock"
/* RC_EXPORTS_MAX entries of the longest path, escaped, and CLIENT(OPTIONS)
 * take 1.2 MiB: a larger file is not one nfsrdma wrote. */
#define NR_EXPORTS_FILE_MAX (2 << 20)

int nr_exports_format(const struct rc_exports *t, char *buf, size_t len)
{
	size_t o;
	int i, n;

	n = snprintf(buf, len,
		     "# Managed by nfsrdma (export add/del): changes made "
		     "here are overwritten.\n");
	if (n < 0 || (size_t)n >= len)
		return -ENOSPC;
	o = n;
	for (i = 0; i < rc_exports_count(t); i++) {
		n = nr_export_format(rc_exports_get(t, i), buf + o, len - o);
		if (n < 0)
			return n;
		o += n;
	}
	return (int)o;
}

/* Serialises writers; readers (exportfs) only ever see whole files. */
static int lock_exports(void)
{
	int ret = nr_dir_ensure(RC_EXPORTS_DIR);

	return ret ? ret : nr_file_lock(NR_EXPORTS_LOCK);
}

static int save(const struct rc_exports *t)
{
	size_t len = 1024 + (size_t)rc_exports_count(t) * 6000;
	char *buf = malloc(len);
	int n, ret;

	if (!buf)
		return -ENOMEM;
	n = nr_exports_format(t, buf, len);
	ret = n < 0 ? n : nr_file_replace(NR_EXPORTS_FILE, buf, n, 0644);
	free(buf);
	return ret;
}

/* The file's bytes as they are before a change, to put back on failure. */
struct snapshot {
	char *data; /* NULL: the file did not exist */
	size_t len;
};

static int snapshot_take(struct snapshot *s)
{
	char path[4096];
	FILE *f;
	int ret;

	s->data = NULL;
	s->len = 0;
	ret = nr_path(path, sizeof(path), NR_EXPORTS_FILE);
	if (ret)
		return ret;
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	s->data = malloc(1);
	while (s->data) {
		char buf[8192], *grown;
		size_t n = fread(buf, 1, sizeof(buf), f);

		if (!n)
			break;
		if (s->len + n > NR_EXPORTS_FILE_MAX) {
			fclose(f);
			free(s->data);
			s->data = NULL;
			rc_diag("remove what was added to it by hand; nfsrdma "
				"export del removes its own entries",
				"%s is larger than %d MiB, more than nfsrdma "
				"ever writes",
				NR_EXPORTS_FILE, NR_EXPORTS_FILE_MAX >> 20);
			return -EFBIG;
		}
		grown = realloc(s->data, s->len + n + 1);
		if (!grown) {
			free(s->data);
			s->data = NULL;
		} else {
			s->data = grown;
			memcpy(s->data + s->len, buf, n);
			s->len += n;
		}
	}
	ret = ferror(f) ? -EIO : s->data ? 0 : -ENOMEM;
	fclose(f);
	return ret;
}

static int snapshot_restore(const struct snapshot *s)
{
	char path[4096];
	int ret;

	if (s->data)
		return nr_file_replace(NR_EXPORTS_FILE, s->data, s->len, 0644);
	ret = nr_path(path, sizeof(path), NR_EXPORTS_FILE);
	if (!ret && unlink(path) && errno != ENOENT)
		ret = -errno;
	return ret;
}

static int table_from(const struct snapshot *s, struct rc_exports **tp)
{
	struct rc_exports *t = rc_exports_new();
	FILE *f;
	int ret = 0;

	if (!t)
		return -ENOMEM;
	if (s->len) {
		f = fmemopen(s->data, s->len, "r");
		if (!f) {
			free(t);
			return -errno;
		}
		ret = rc_exports_load_stream(t, f, NR_EXPORTS_FILE);
		fclose(f);
	}
	if (ret)
		free(t);
	else
		*tp = t;
	return ret;
}

struct export_edit {
	const char *path, *client, *options;
};

static int add_entry(struct rc_exports *t, const struct export_edit *x)
{
	struct rc_export *e = NULL, *c;
	int i;

	for (i = 0; (c = rc_exports_at(t, i)); i++)
		if (!strcmp(c->path, x->path) && !strcmp(c->client, x->client))
			e = c;
	if (e && !strcmp(e->options, x->options))
		return 0;
	if (!e) {
		e = rc_exports_append(t);
		if (!e) {
			rc_diag("delete unused exports first",
				"%s already has %d entries", NR_EXPORTS_FILE,
				RC_EXPORTS_MAX);
			return -ENOSPC;
		}
		snprintf(e->path, sizeof(e->path), "%s", x->path);
		snprintf(e->client, sizeof(e->client), "%s", x->client);
	}
	snprintf(e->options, sizeof(e->options), "%s", x->options);
	return 1;
}

static int del_entries(struct rc_exports *t, const struct export_edit *x)
{
	const struct rc_export *e;
	int i = 0, changed = 0;

	while ((e = rc_exports_get(t, i))) {
		if (!strcmp(e->path, x->path) &&
		    (!x->client || !strcmp(e->client, x->client))) {
			rc_exports_remove(t, i);
			changed = 1;
		} else {
			i++;
		}
	}
	return changed;
}

/* An entry edited by hand into nfsrdma's file is written back only if it
 * would pass as new: rewriting it could otherwise change what it means. */
static int check_table(const struct rc_exports *t)
{
	const struct rc_export *e;
	int i;

	for (i = 0; (e = rc_exports_get(t, i)); i++)
		if (nr_export_check_client(e->client) ||
		    nr_export_check_options(e->options) ||
		    nr_export_check_entry(e->path, e->client, e->options)) {
			rc_diag("correct or delete that entry in the file; "
				"nfsrdma rewrites it on every change",
				"%s: the entry for %s to %s is not one nfsrdma "
				"would write",
				NR_EXPORTS_FILE, e->path, e->client);
			return -EINVAL;
		}
	return 0;
}

static int edit_table(const struct snapshot *s, const struct export_edit *x)
{
	struct rc_exports *t = NULL;
	int ret;

	ret = table_from(s, &t);
	if (ret) {
		rc_call_err(ret, "reading %s", NR_EXPORTS_FILE);
		return ret;
	}
	ret = check_table(t);
	if (!ret)
		ret = x->options ? add_entry(t, x) : del_entries(t, x);
	if (ret == 1) {
		ret = save(t);
		if (!ret)
			ret = 1;
	}
	rc_exports_delete(&t);
	return ret;
}

/* Edits the file alone, under the lock: 1 changed, 0 already so, -errno. */
static int edit_file(const struct export_edit *x)
{
	struct snapshot s;
	int lock, ret;

	lock = lock_exports();
	if (lock < 0)
		return lock;
	ret = snapshot_take(&s);
	if (ret)
		rc_call_err(ret, "reading %s", NR_EXPORTS_FILE);
	else
		ret = edit_table(&s, x);
	free(s.data);
	close(lock);
	return ret;
}

int nr_exports_file_add(const char *path, const char *client,
			const char *options)
{
	struct export_edit x = { path, client, options };

	return edit_file(&x);
}

int nr_exports_file_del(const char *path, const char *client)
{
	struct export_edit x = { path, client, NULL };

	return edit_file(&x);
}

/* One (path, client) entry a change touches, as etab listed it before. */
struct pair {
	char client[RC_EXPORT_TOKEN_MAX + 1];
	char before[RC_EXPORT_TOKEN_MAX + 1]; /* etab's options */
	int was; /* etab listed it */
};

/* The change's pairs: add's one client, del's every client of path in
 * nfsrdma's file. */
struct pairs {
	struct pair *p;
	int n;
};

/* Another exports file that lists the pair would keep (del) or shadow
 * (add) it: nfsrdma changes only what is its own. */
static int check_not_elsewhere(const struct rc_exports *mine, const char *path,
			       const char *client)
{
	struct rc_exports *all = NULL;
	const struct rc_export *e;
	int i, n = 0, ret;

	ret = rc_exports_load_all(nr_test_root(), &all);
	if (ret) {
		rc_call_err(ret, "reading /etc/exports and %s", RC_EXPORTS_DIR);
		return ret;
	}
	for (i = 0; (e = rc_exports_get(all, i)); i++)
		n += !strcmp(e->path, path) && !strcmp(e->client, client);
	for (i = 0; (e = rc_exports_get(mine, i)); i++)
		n -= !strcmp(e->path, path) && !strcmp(e->client, client);
	rc_exports_delete(&all);
	if (n <= 0)
		return 0;
	rc_diag("change it in that file and run 'exportfs -ra' yourself, or "
		"export another path",
		"%s to %s is also listed in /etc/exports or another file in "
		"%s, which nfsrdma does not change",
		path, client, RC_EXPORTS_DIR);
	return -EEXIST;
}

/* Fills the pairs and what etab says of each; refuses what is not
 * nfsrdma's alone. */
static int pairs_take(const struct snapshot *s, const struct export_edit *x,
		      struct pairs *ps)
{
	struct rc_exports *t = NULL;
	const struct rc_export *e;
	int i, ret;

	ret = table_from(s, &t);
	if (ret) {
		rc_call_err(ret, "reading %s", NR_EXPORTS_FILE);
		return ret;
	}
	ps->n = 0;
	ps->p = calloc(RC_EXPORTS_MAX, sizeof(*ps->p));
	ret = ps->p ? 0 : -ENOMEM;
	if (!ret && x->options)
		snprintf(ps->p[ps->n++].client, sizeof(ps->p->client), "%s",
			 x->client);
	for (i = 0; !ret && !x->options && (e = rc_exports_get(t, i)); i++)
		if (!strcmp(e->path, x->path))
			snprintf(ps->p[ps->n++].client, sizeof(ps->p->client),
				 "%s", e->client);
	for (i = 0; !ret && i < ps->n; i++) {
		ret = check_not_elsewhere(t, x->path, ps->p[i].client);
		if (!ret)
			ret = nr_etab_find(x->path, ps->p[i].client,
					   ps->p[i].before,
					   sizeof(ps->p[i].before));
		ps->p[i].was = ret == 1;
		ret = ret < 0 ? ret : 0;
	}
	rc_exports_delete(&t);
	return ret;
}

/* Applies the change to etab pair by pair and checks etab says so;
 * 1 when exportfs ran, 0 when there was nothing to do. */
static int apply(const struct export_edit *x, const struct pairs *ps,
		 int changed)
{
	int i, ret, ran = 0;

	if (x->options) {
		if (!changed && ps->p[0].was)
			return 0;
		ret = nr_etab_export(x->path, x->client, x->options);
		if (!ret && nr_etab_has(x->path, x->client) != 1) {
			rc_diag("run 'exportfs -v' and read its warnings",
				"export %s to %s is not in %s after exportfs",
				x->path, x->client, NR_ETAB);
			ret = -EIO;
		}
		return ret ? ret : 1;
	}
	for (i = 0; i < ps->n; i++) {
		if (!ps->p[i].was)
			continue;
		ret = nr_etab_unexport(x->path, ps->p[i].client);
		ran = 1;
		if (!ret && nr_etab_has(x->path, ps->p[i].client) != 0) {
			rc_diag("run 'exportfs -v' and read its warnings",
				"%s is still exported to %s after exportfs -u",
				x->path, ps->p[i].client);
			ret = -EIO;
		}
		if (ret)
			return ret;
	}
	return ran;
}

/* Puts one pair back in etab as it was; 0 or -errno. */
static int pair_restore(const char *path, const struct pair *p)
{
	char now[RC_EXPORT_TOKEN_MAX + 1];
	int ret = nr_etab_find(path, p->client, now, sizeof(now));

	if (ret < 0)
		return ret;
	if (p->was && (!ret || strcmp(now, p->before)))
		return nr_etab_export(path, p->client, p->before);
	if (!p->was && ret)
		return nr_etab_unexport(path, p->client);
	return 0;
}

/*
 * The file back as it was and each pair back in etab as it was, entry by
 * entry, as the change was made; then etab must list path as before.
 */
static int roll_back(const struct snapshot *s, int changed,
		     const struct export_edit *x, const struct pairs *ps,
		     const char *before)
{
	char *after = NULL;
	int ret, i;

	ret = changed ? snapshot_restore(s) : 0;
	if (ret) {
		rc_call_err(ret, "putting %s back", NR_EXPORTS_FILE);
		return ret;
	}
	for (i = 0; i < ps->n; i++)
		pair_restore(x->path, &ps->p[i]);
	ret = nr_etab_describe(x->path, &after);
	if (!ret && strcmp(before, after)) {
		rc_diag("compare 'exportfs -v' with what it was; exportfs -o "
			"and -u put single entries back",
			"%s was put back, but the export table for %s is not "
			"what it was before",
			NR_EXPORTS_FILE, x->path);
		ret = -EIO;
	}
	free(after);
	return ret;
}

static int commit_locked(const struct export_edit *x)
{
	struct snapshot s = { NULL, 0 };
	struct pairs ps = { NULL, 0 };
	char *before = NULL;
	int ret, changed = 0;

	ret = snapshot_take(&s);
	if (ret)
		rc_call_err(ret, "reading %s", NR_EXPORTS_FILE);
	if (!ret)
		ret = pairs_take(&s, x, &ps);
	if (!ret)
		ret = nr_etab_describe(x->path, &before);
	if (!ret && nr_sigdefer_pending())
		ret = -EINTR;
	if (!ret && (x->options || ps.n))
		ret = edit_table(&s, x);
	if (ret < 0)
		goto out;
	changed = ret;
	ret = apply(x, &ps, changed);
	if (ret >= 0 && nr_sigdefer_pending())
		ret = -EINTR;
	if (ret >= 0) {
		ret = changed || ret;
		goto out;
	}
	if (roll_back(&s, changed, x, &ps, before) == 0)
		rc_diag(NULL, "%s and the export table for %s are as they were",
			NR_EXPORTS_FILE, x->path);
	else
		ret = -ENOTRECOVERABLE; /* said by roll_back */
out:
	free(before);
	free(s.data);
	free(ps.p);
	return ret;
}

/* One lock from the first read to the last check, signals held. */
static int commit(const struct export_edit *x)
{
	int lock, ret;

	nr_sigdefer_begin();
	lock = lock_exports();
	ret = lock < 0 ? lock : commit_locked(x);
	if (lock >= 0)
		close(lock);
	nr_sigdefer_end();
	return ret;
}

int nr_exports_add(const char *path, const char *client, const char *options)
{
	struct export_edit x = { path, client, options };

	return commit(&x);
}

int nr_exports_del(const char *path)
{
	struct export_edit x = { path, NULL, NULL };

	return commit(&x);
}
