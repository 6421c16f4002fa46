// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "result/hostmap.h"

struct alias {
	char *fio_name;
	char *host;
};

struct rio_hostmap {
	char *local;
	struct alias *a;
	size_t n;
};

struct rio_hostmap *rio_hostmap_new(const char *local)
{
	struct rio_hostmap *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->local = strdup(local);
	if (!m->local) {
		free(m);
		return NULL;
	}
	return m;
}

void rio_hostmap_delete(struct rio_hostmap **map)
{
	struct rio_hostmap *m = map ? *map : NULL;

	if (!m)
		return;
	while (m->n--) {
		free(m->a[m->n].fio_name);
		free(m->a[m->n].host);
	}
	free(m->a);
	free(m->local);
	free(m);
	*map = NULL;
}

int rio_hostmap_add(struct rio_hostmap *m, const char *fio_name,
		    const char *host)
{
	struct alias *na = realloc(m->a, (m->n + 1) * sizeof(*na));

	if (!na)
		return -ENOMEM;
	m->a = na;
	na[m->n].fio_name = strdup(fio_name);
	na[m->n].host = strdup(host ? host : m->local);
	if (!na[m->n].fio_name || !na[m->n].host) {
		free(na[m->n].fio_name);
		free(na[m->n].host);
		return -ENOMEM;
	}
	m->n++;
	return 0;
}

const char *rio_hostmap_local(const struct rio_hostmap *m)
{
	return m ? m->local : "";
}

const char *rio_hostmap_name(const struct rio_hostmap *m, const char *fio_name)
{
	size_t i;

	if (!fio_name)
		return rio_hostmap_local(m);
	for (i = 0; m && i < m->n; i++)
		if (!strcmp(m->a[i].fio_name, fio_name))
			return m->a[i].host;
	return fio_name;
}

int rio_hostmap_is_local(const struct rio_hostmap *m, const char *host)
{
	return m && !strcmp(host, m->local);
}

char *rio_hostmap_fio_name(const char *client)
{
	static const char *const prefixes[] = { "ip:", "ip4:", "ip6:", NULL };
	const char *h = client;
	unsigned i;

	if (!strncmp(h, "sock:", 5))
		return strdup(h + 5);
	for (i = 0; prefixes[i]; i++)
		if (!strncmp(h, prefixes[i], strlen(prefixes[i]))) {
			h += strlen(prefixes[i]);
			break;
		}
	return strndup(h, strcspn(h, ","));
}
