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

/* The value of line when it sets key ("key=v", "key = v", "key"). */
static const char *value_of(const char *line, const char *key)
{
	size_t n = strcspn(line, "= \t");
	const char *v = line + n;

	if (n != strlen(key) || strncmp(line, key, n))
		return NULL;
	v += strspn(v, " \t");
	return *v == '=' ? v + 1 + strspn(v + 1, " \t") : v;
}

/* Consumes text. */
static char *value_in(char *text, const char *name, const char *key)
{
	const char *global = NULL, *own = NULL, *v;
	char *line, *save = NULL, *p, *end;
	int in = 0, found = 0; /* in: 1 [global], 2 the section */

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		p = trim(line);
		if (!*p || *p == ';' || *p == '#')
			continue;
		end = strchr(p, ']');
		if (*p == '[' && end) {
			if (in == 2)
				break;
			*end = '\0';
			in = !strcmp(p + 1, "global") ? 1
			     : !strcmp(p + 1, name)   ? 2
						      : 0;
			found |= in == 2;
		} else if (in && (v = value_of(p, key))) {
			*(in == 1 ? &global : &own) = v;
		}
	}
	v = own ? own : global;
	return found && v ? strdup(v) : NULL;
}

char *rio_jobsection_value(const char *text, const char *name, const char *key)
{
	char *copy = strdup(text), *v;

	if (!copy)
		return NULL;
	v = value_in(copy, name, key);
	free(copy);
	return v;
}
