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

int nr_etab_reload(void)
{
	char *argv[] = { "exportfs", "-ra", NULL };
	int ret;

	ret = nr_spawn_wait(argv);
	if (ret == 0)
		return 0;
	if (ret > 0)
		rc_diag("run 'exportfs -rav' to see which line it rejects",
			"exportfs -ra failed (status %d)", ret);
	return ret < 0 ? ret : -EIO;
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

int nr_etab_has(const char *path, const char *client)
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
	for (i = 0; (e = rc_exports_get(t, i)); i++)
		if (!strcmp(e->path, path) &&
		    (!client || !strcasecmp(e->client, client) ||
		     (canon[0] && !strcasecmp(e->client, canon))))
			found = 1;
	rc_exports_delete(&t);
	return found;
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
