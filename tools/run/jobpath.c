// SPDX-License-Identifier: MIT
/* Job files by name under the installed data folder: see jobpath.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/jobpath.h"
#include "rc_log.h"
#include "base/strv.h"

/* The Makefile sets it from PREFIX; this is PREFIX's own default. */
#ifndef RDMAIO_DATADIR
#define RDMAIO_DATADIR "/usr/local/share/rdmaio"
#endif

#define JOB_SUFFIX ".fio"
/* make install puts job files one folder down (jobs/verbs/bw.fio): a list
 * that only serves a message need not go deeper than this. */
#define LIST_DEPTH 4

const char *rio_jobpath_datadir(void)
{
	const char *env = getenv("RDMAIO_DATADIR");

	return env && *env ? env : RDMAIO_DATADIR;
}

/* "./x" and "../x" mean the current folder as plainly as "/x" means the
 * root: such a name is never looked for among the installed ones. */
static bool spelled_as_path(const char *arg)
{
	return arg[0] == '/' || !strncmp(arg, "./", 2) ||
	       !strncmp(arg, "../", 3);
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* DATADIR/jobs/ARG SUFFIX, malloc'd, when it is a regular file (a folder
 * such as jobs/verbs is no job file); NULL with errno otherwise. */
static char *installed(const char *arg, const char *suffix)
{
	struct stat st;
	char *p;

	if (asprintf(&p, "%s/jobs/%s%s", rio_jobpath_datadir(), arg, suffix) <
	    0) {
		errno = ENOMEM;
		return NULL;
	}
	if (!stat(p, &st) && S_ISREG(st.st_mode))
		return p;
	free(p);
	errno = ENOENT;
	return NULL;
}

/* The installed job file a bare name means, or NULL with errno. */
static char *installed_job(const char *arg)
{
	char *p = installed(arg, "");

	if (!p && errno == ENOENT && !has_suffix(arg, JOB_SUFFIX))
		p = installed(arg, JOB_SUFFIX);
	return p;
}

/* The installed job file of arg's name when it is another file than the
 * local arg (st): which one the user meant is then not ours to guess. */
static char *other_installed(const char *arg, const struct stat *st)
{
	struct stat ist;
	char *p;

	if (spelled_as_path(arg))
		return NULL;
	p = installed_job(arg);
	if (p && !stat(p, &ist) && ist.st_dev == st->st_dev &&
	    ist.st_ino == st->st_ino) {
		free(p);
		p = NULL;
	}
	return p;
}

char *rio_jobpath_resolve(const char *arg)
{
	struct stat st;
	char *p;
	int found;

	if (!arg[0]) {
		errno = ENOENT;
		return NULL;
	}
	/*
	 * Only a name that is surely absent here is looked for elsewhere: a
	 * file that exists but cannot be looked at (EACCES) is still the one
	 * the user meant, and the job file reader says why it cannot read it.
	 */
	found = !stat(arg, &st);
	if (!found && errno != ENOENT && errno != ENOTDIR)
		found = 1;
	else if (found && (p = other_installed(arg, &st))) {
		free(p);
		errno = EEXIST;
		return NULL;
	}
	if (found) {
		p = strdup(arg);
		if (!p)
			errno = ENOMEM;
		return p;
	}
	if (spelled_as_path(arg)) {
		errno = ENOENT;
		return NULL;
	}
	return installed_job(arg);
}

static int scan(int fd, const char *prefix, int depth, char ***v, int *n);

/*
 * One entry of a folder under jobs/ whose name there is PREFIX: a job file
 * joins *V by its name without ".fio", a folder is scanned in turn, but not
 * a symlink to one (it could lead back up). What cannot be looked at is
 * left out: the list only helps a message. Returns 0 or -ENOMEM.
 */
static int scan_entry(int dfd, const char *entry, const char *prefix, int depth,
		      char ***v, int *n)
{
	struct stat st;
	char *name;
	int fd, ret = 0;

	if (entry[0] == '.' || fstatat(dfd, entry, &st, AT_SYMLINK_NOFOLLOW))
		return 0;
	/* A symlink counts as what it points to, unless that is a folder. */
	if (S_ISLNK(st.st_mode) &&
	    (fstatat(dfd, entry, &st, 0) || S_ISDIR(st.st_mode)))
		return 0;
	if (S_ISDIR(st.st_mode) && depth < LIST_DEPTH) {
		if (asprintf(&name, "%s%s/", prefix, entry) < 0)
			return -ENOMEM;
		fd = openat(dfd, entry, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0)
			ret = scan(fd, name, depth + 1, v, n);
		free(name);
		return ret;
	}
	if (!S_ISREG(st.st_mode) || !has_suffix(entry, JOB_SUFFIX))
		return 0;
	if (asprintf(&name, "%s%.*s", prefix,
		     (int)(strlen(entry) - strlen(JOB_SUFFIX)), entry) < 0)
		return -ENOMEM;
	if (rio_strv_push(v, n, name)) {
		free(name);
		return -ENOMEM;
	}
	return 0;
}

/* The job files of the folder open as FD (closed here) into *V. */
static int scan(int fd, const char *prefix, int depth, char ***v, int *n)
{
	DIR *d = fdopendir(fd);
	struct dirent *e;
	int ret = 0;

	if (!d) {
		close(fd);
		return 0;
	}
	while (!ret && (e = readdir(d)))
		ret = scan_entry(dirfd(d), e->d_name, prefix, depth, v, n);
	closedir(d);
	return ret;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The N names of V as "a, b, c", malloc'd; NULL when out of memory. */
static char *join(char *const *v, int n)
{
	size_t len = 1;
	char *s;
	int i;

	for (i = 0; i < n; i++)
		len += strlen(v[i]) + 2;
	s = malloc(len);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i)
			strcat(s, ", ");
		strcat(s, v[i]);
	}
	return s;
}

char *rio_jobpath_installed(void)
{
	char **v = NULL, *dir, *s = NULL;
	int n = 0, fd, ret = 0;

	if (asprintf(&dir, "%s/jobs", rio_jobpath_datadir()) < 0) {
		errno = ENOMEM;
		return NULL;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (fd >= 0)
		ret = scan(fd, "", 1, &v, &n);
	if (!ret) {
		/* readdir's order is the file system's: sort for the reader. */
		if (n)
			qsort(v, n, sizeof(*v), by_name);
		s = join(v, n);
	}
	rio_jobpath_free(v, n);
	if (!s)
		errno = ENOMEM;
	return s;
}

void rio_jobpath_report_missing(const char *name)
{
	const char *dir = rio_jobpath_datadir(), *tail;
	char *list = rio_jobpath_installed(), *what = NULL;

	if (list && list[0] &&
	    asprintf(&what, "installed job files: %s", list) < 0)
		what = NULL;
	tail = what   ? what
	       : list ? "no job files are installed there"
		      : "out of memory listing the installed ones";
	if (spelled_as_path(name))
		rc_err("job file %s: not found (spelled as a path, so not looked for under %s/jobs; %s)",
		       name, dir, tail);
	else
		rc_err("job file %s: not found, neither as a path nor under %s/jobs (%s)",
		       name, dir, tail);
	free(what);
	free(list);
}

/* A job file runs commands (exec_prerun=), so a file that happens to lie
 * here never silently stands in for the installed job of its name. */
static void report_ambiguous(const char *name)
{
	char *p = installed_job(name);

	rc_err("job file %s: both ./%s here and the installed %s have that name: job files can run commands, so rdmaio does not pick one (say ./%s for the one here, or the installed one's path)",
	       name, name, p ? p : "job file", name);
	free(p);
}

int rio_jobpath_resolve_all(char **v, int n, char ***owned, int *nowned)
{
	char *p;
	int i;

	for (i = 0; i < n; i++) {
		p = rio_jobpath_resolve(v[i]);
		if (!p && errno == ENOENT) {
			rio_jobpath_report_missing(v[i]);
			return -ENOENT;
		}
		if (!p && errno == EEXIST) {
			report_ambiguous(v[i]);
			return -EEXIST;
		}
		if (!p || rio_strv_push(owned, nowned, p)) {
			free(p);
			rc_err("job file %s: out of memory finding it", v[i]);
			return -ENOMEM;
		}
		v[i] = p;
	}
	return 0;
}

void rio_jobpath_free(char **owned, int nowned)
{
	while (nowned > 0)
		free(owned[--nowned]);
	free(owned);
}
