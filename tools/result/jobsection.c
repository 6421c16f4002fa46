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

/* The next line of a job file that is neither blank nor a comment,
 * trimmed (strtok_r cuts text into lines: text for the first, then
 * NULL); NULL at the end. */
static char *next_line(char *text, char **save)
{
	char *p;

	for (p = strtok_r(text, "\n", save); p;
	     p = strtok_r(NULL, "\n", save)) {
		p = trim(p);
		if (*p && *p != ';' && *p != '#')
			return p;
	}
	return NULL;
}

/* The section name of a "[name]" line, cut in place; NULL for another. */
static char *header_of(char *p)
{
	char *end = strchr(p, ']');

	if (*p != '[' || !end)
		return NULL;
	*end = '\0';
	return p + 1;
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
	char *save = NULL, *p, *name;

	*out = NULL;
	for (p = next_line(text, &save); p && !ret;
	     p = next_line(NULL, &save)) {
		if ((name = header_of(p))) {
			in_global = !strcmp(name, "global");
			if (!in_global)
				ret = add_section(&s, n, name, global_listen);
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
	char *save = NULL, *p, *sec;
	int in = 0, found = 0; /* in: 1 [global], 2 the section */

	for (p = next_line(text, &save); p; p = next_line(NULL, &save)) {
		if ((sec = header_of(p))) {
			if (in == 2)
				break;
			in = !strcmp(sec, "global") ? 1
			     : !strcmp(sec, name)   ? 2
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
