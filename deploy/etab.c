// SPDX-License-Identifier: MIT
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "etab.h"
#include "exports.h"
#include "rc_log.h"
#include "sysfile.h"
#include "helper.h"

/* CLIENT:PATH as exportfs -o and -u read it: an IPv6 address in brackets,
 * its prefix length after them ("[fd18::]/64:/srv/x"). */
static int client_path(const char *client, const char *path, char *out,
		       size_t len)
{
	const char *slash = strchr(client, '/');
	int n;

	if (!strchr(client, ':'))
		n = snprintf(out, len, "%s:%s", client, path);
	else if (slash)
		n = snprintf(out, len, "[%.*s]%s:%s", (int)(slash - client),
			     client, slash, path);
	else
		n = snprintf(out, len, "[%s]:%s", client, path);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* Runs exportfs with argv, whose last word is CLIENT:PATH. */
static int run_exportfs(char **argv, const char *what)
{
	int ret = nr_spawn_wait(argv);

	if (ret > 0)
		rc_diag("read exportfs's complaint above, and 'exportfs -v'",
			"%s failed (status %d)", what, ret);
	return ret == 0 ? 0 : ret < 0 ? ret : -EIO;
}

int nr_etab_export(const char *path, const char *client, const char *options)
{
	char arg[RC_EXPORT_PATH_MAX + RC_EXPORT_TOKEN_MAX + 8];
	char opts[RC_EXPORT_TOKEN_MAX + 1], what[2200];
	char *argv[] = { "exportfs", "-i", "-o", opts, arg, NULL };

	if (client_path(client, path, arg, sizeof(arg)) ||
	    strlen(options) >= sizeof(opts))
		return -ENAMETOOLONG;
	snprintf(opts, sizeof(opts), "%s", options);
	snprintf(what, sizeof(what), "exportfs -i -o %s %s", opts, arg);
	return run_exportfs(argv, what);
}

int nr_etab_unexport(const char *path, const char *client)
{
	char arg[RC_EXPORT_PATH_MAX + RC_EXPORT_TOKEN_MAX + 8], what[1600];
	char *argv[] = { "exportfs", "-u", arg, NULL };

	if (client_path(client, path, arg, sizeof(arg)))
		return -ENAMETOOLONG;
	snprintf(what, sizeof(what), "exportfs -u %s", arg);
	return run_exportfs(argv, what);
}

static int load(struct rc_exports **tp)
{
	int ret = rc_exports_load(nr_test_root(), NR_ETAB, tp);

	if (ret)
		rc_call_err(ret, "reading %s", NR_ETAB);
	return ret;
}

/* exportfs writes a host name as the resolver's canonical name, in any
 * case: "lab-server" may be listed as "lab-server.lab". */
static void canonical(const char *client, char *out, size_t len)
{
	struct addrinfo hints = { .ai_flags = AI_CANONNAME }, *ai;

	out[0] = '\0';
	if (strpbrk(client, "*?@/:[") ||
	    strspn(client, "0123456789.") == strlen(client))
		return;
	if (getaddrinfo(client, NULL, &hints, &ai))
		return;
	if (ai->ai_canonname)
		snprintf(out, len, "%s", ai->ai_canonname);
	freeaddrinfo(ai);
}

int nr_etab_find(const char *path, const char *client, char *options,
		 size_t len)
{
	struct rc_exports *t = NULL;
	const struct rc_export *e;
	char canon[256] = "";
	int ret, i, found = 0;

	ret = load(&t);
	if (ret)
		return ret;
	if (client)
		canonical(client, canon, sizeof(canon));
	for (i = 0; !found && (e = rc_exports_get(t, i)); i++)
		if (!strcmp(e->path, path) &&
		    (!client || !strcasecmp(e->client, client) ||
		     (canon[0] && !strcasecmp(e->client, canon)))) {
			found = 1;
			if (options)
				snprintf(options, len, "%s", e->options);
		}
	rc_exports_delete(&t);
	return found;
}

int nr_etab_has(const char *path, const char *client)
{
	return nr_etab_find(path, client, NULL, 0);
}

int nr_etab_describe(const char *path, char **out)
{
	struct rc_exports *t = NULL;
	const struct rc_export *e;
	size_t len = 0;
	char *buf;
	FILE *f;
	int ret, i;

	ret = load(&t);
	if (ret)
		return ret;
	buf = NULL;
	f = open_memstream(&buf, &len);
	if (!f) {
		ret = -errno;
		rc_exports_delete(&t);
		return ret;
	}
	for (i = 0; (e = rc_exports_get(t, i)); i++)
		if (!strcmp(e->path, path))
			fprintf(f, "%s(%s)\n", e->client, e->options);
	ret = fclose(f) ? -errno : 0;
	rc_exports_delete(&t);
	if (ret) {
		free(buf);
		return ret;
	}
	*out = buf;
	return 0;
}
