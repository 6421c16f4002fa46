// SPDX-License-Identifier: MIT
/* nfsrdma export add|del|list */
#include <errno.h>
#include <getopt.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "cmd.h"
#include "exports.h"
#include "rc_log.h"
#include "sysfile.h"

#define NR_DEFAULT_EXPORT_OPTS "rw,sync,no_subtree_check"

/*
 * One spelling per folder: /x, /x/ and /x/../x are one export, as exportfs
 * resolves them. A path that no longer exists (del) is tidied by its text.
 */
static int canon_path(const char *path, char *out, size_t len, int must_exist)
{
	char *real;
	int ret;

	if (path[0] != '/') {
		rc_diag("give the absolute path",
			"export path '%s' is not absolute", path);
		return -EINVAL;
	}
	real = realpath(path, NULL);
	if (!real && (must_exist || errno != ENOENT)) {
		char fix[1200];

		snprintf(fix, sizeof(fix),
			 "create it first: mkdir -p '%.1000s'", path);
		rc_diag(errno == ENOENT ? fix : NULL,
			"export path '%.200s%s': %s", path,
			strlen(path) > 200 ? "..." : "", strerror(errno));
		return -errno;
	}
	if (strlen(real ? real : path) >= len) {
		rc_diag("export a shorter path (a bind mount of it, for example)",
			"export path '%.200s...' resolves to %zu bytes: exportfs "
			"reads paths of at most %d",
			path, strlen(real ? real : path), RC_EXPORT_PATH_MAX);
		free(real);
		return -ENAMETOOLONG;
	}
	ret = nr_path_tidy(real ? real : path, out, len);
	free(real);
	return ret;
}

static int check_path(const char *path, const char *options)
{
	struct statfs sfs;
	struct stat st;
	char fix[1200];

	if (stat(path, &st) || statfs(path, &sfs)) {
		rc_diag(NULL, "export path '%s': %s", path, strerror(errno));
		return -errno;
	}
	if (!S_ISDIR(st.st_mode)) {
		rc_diag("export the folder that holds it",
			"export path '%s' is not a directory", path);
		return -ENOTDIR;
	}
	/* tmpfs has no UUID to derive a file handle from: exportfs refuses
	 * it without fsid=, after the file was written. Say so first. */
	if (sfs.f_type == TMPFS_MAGIC && !strstr(options, "fsid=")) {
		snprintf(fix, sizeof(fix),
			 "add a unique fsid, e.g. --options %s,fsid=%u",
			 options, (unsigned)(st.st_ino % 1000) + 1);
		rc_diag(fix,
			"export path '%s' is on tmpfs, which needs an fsid= "
			"option",
			path);
		return -EINVAL;
	}
	return 0;
}

/* exportfs assumes no_subtree_check anyway, but warns on every run unless
 * the choice is written down. */
static const char *with_subtree(const char *options, char *buf, size_t len)
{
	if (strstr(options, "subtree_check"))
		return options;
	snprintf(buf, len, "%s%sno_subtree_check", options,
		 options[0] ? "," : "");
	return buf;
}

static int export_add(const char *arg, const char *client, const char *given)
{
	char path[RC_EXPORT_PATH_MAX + 1], optbuf[RC_EXPORT_TOKEN_MAX + 32];
	const char *options;
	int ret;

	if (nr_export_check_client(client) || nr_export_check_options(given))
		return 2;
	options = with_subtree(given, optbuf, sizeof(optbuf));
	if (canon_path(arg, path, sizeof(path), 1) ||
	    nr_export_check_entry(path, client, options) ||
	    check_path(path, options))
		return 2;
	if (nr_need_root("export add"))
		return 1;
	ret = nr_exports_add(path, client, options);
	if (ret == -EINTR)
		rc_diag(NULL, "export add %s: interrupted, nothing changed",
			path);
	if (ret < 0)
		return 1;
	printf("export %s to %s (%s) %s\n", path, client, options,
	       ret ? "added" : "already present");
	return 0;
}

static int export_del(const char *arg)
{
	char path[RC_EXPORT_PATH_MAX + 1];
	int ret;

	if (canon_path(arg, path, sizeof(path), 0))
		return 2;
	if (nr_need_root("export del"))
		return 1;
	ret = nr_exports_del(path);
	if (ret == -EINTR)
		rc_diag(NULL, "export del %s: interrupted, nothing changed",
			path);
	if (ret < 0)
		return 1;
	printf("export %s %s\n", path, ret ? "deleted" : "not present");
	return 0;
}

static int export_list(void)
{
	struct rc_exports *t = NULL;
	const struct rc_export *e;
	int i, ret;

	ret = rc_exports_load_all(nr_test_root(), &t);
	if (ret) {
		rc_call_err(ret, "reading /etc/exports and /etc/exports.d");
		return 1;
	}
	for (i = 0; (e = rc_exports_get(t, i)); i++)
		printf("%s %s(%s)\n", e->path, e->client, e->options);
	rc_exports_delete(&t);
	return 0;
}

int nr_cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "clients", required_argument, NULL, 'c' },
		{ "options", required_argument, NULL, 'o' },
		{ 0 }
	};
	const char *clients = NULL, *options = NR_DEFAULT_EXPORT_OPTS;
	int c;

	if (argc < 2)
		return nr_bad_usage("export: expected add, del or list", NULL);
	optind = 2;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'c')
			clients = optarg;
		else if (c == 'o')
			options = optarg;
		else
			return nr_bad_usage("export: unknown option", NULL);
	}
	if (!strcmp(argv[1], "list") && optind == argc)
		return export_list();
	if (!strcmp(argv[1], "del") && optind == argc - 1)
		return export_del(argv[optind]);
	if (strcmp(argv[1], "add") || optind != argc - 1)
		return nr_bad_usage("export: expected 'add PATH --clients SPEC "
				    "[--options LIST]', 'del PATH' or 'list'",
				    NULL);
	if (!clients) {
		rc_diag("add --clients, e.g. --clients 198.18.0.0/24 "
			"(--clients '*' exports to everyone)",
			"export add %s: no --clients given", argv[optind]);
		return 2;
	}
	return export_add(argv[optind], clients, options);
}
