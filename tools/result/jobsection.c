// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "result/jobsection.h"

void rio_jobsection_free(struct rio_jobsection *s, int n)
{
	while (s && n-- > 0)
		free(s[n].name);
	free(s);
}

static char *trim(char *s)
{
	char *e = s + strlen(s);

	while (isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* "listen" or "listen=VALUE" (fio takes 1, 0 and flag forms alike). */
static int sets_listen(const char *line, int *on)
{
	size_t n = strcspn(line, "= \t");
	const char *v = line + n;

	if (n != 6 || strncmp(line, "listen", 6))
		return 0;
	v += strspn(v, " \t");
	if (*v == '=')
		v += 1 + strspn(v + 1, " \t");
	*on = strcmp(v, "0") != 0;
	return 1;
}

static int add_section(struct rio_jobsection **s, int n, const char *name,
		       int listen)
{
	struct rio_jobsection *ns = realloc(*s, (n + 1) * sizeof(*ns));

	if (!ns)
		return -ENOMEM;
	*s = ns;
	ns[n].name = strdup(name);
	ns[n].listen = listen;
	if (!ns[n].name)
		return -ENOMEM;
	return 0;
}

/* Consumes text (strtok_r cuts it into lines). */
static int sections_of(char *text, struct rio_jobsection **out)
{
	int n = 0, ret = 0, in_global = 0, global_listen = 0, on;
	struct rio_jobsection *s = NULL;
	char *line, *save = NULL, *p, *end;

	*out = NULL;
	for (line = strtok_r(text, "\n", &save); line && !ret;
	     line = strtok_r(NULL, "\n", &save)) {
		p = trim(line);
		if (!*p || *p == ';' || *p == '#')
			continue;
		end = strchr(p, ']');
		if (*p == '[' && end) {
			*end = '\0';
			in_global = !strcmp(p + 1, "global");
			if (!in_global)
				ret = add_section(&s, n, p + 1, global_listen);
			n += !in_global && !ret;
		} else if (sets_listen(p, &on)) {
			if (in_global)
				global_listen = on;
			else if (n)
				s[n - 1].listen = on;
		}
	}
	if (ret) {
		rio_jobsection_free(s, n);
		return ret;
	}
	*out = s;
	return n;
}

int rio_jobsection_parse(const char *text, struct rio_jobsection **out)
{
	char *copy = strdup(text);
	int ret;

	*out = NULL;
	if (!copy)
		return -ENOMEM;
	ret = sections_of(copy, out);
	free(copy);
	return ret;
}
