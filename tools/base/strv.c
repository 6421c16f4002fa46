// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/strv.h"

int rio_strv_push(char ***v, int *n, char *s)
{
	char **nv = realloc(*v, (*n + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[(*n)++] = s;
	return 0;
}

json_object *rio_strv_json(char *const *v, int n)
{
	json_object *a = json_object_new_array();
	int i;

	for (i = 0; n < 0 ? v[i] != NULL : i < n; i++)
		json_object_array_add(a, json_object_new_string(v[i]));
	return a;
}

char *rio_strv_join(char *const *argv)
{
	size_t i, len = 1;
	char *s;

	for (i = 0; argv[i]; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	for (i = 0; s && argv[i]; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

void rio_strv_free(char **argv)
{
	size_t i;

	for (i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* One word with %key and %% replaced. */
static char *expand(const char *w, size_t n, char key, const char *value)
{
	size_t i, len = 0, vl = strlen(value);
	char *out, *o;

	for (i = 0; i < n; i++)
		len += (w[i] == '%' && i + 1 < n && w[i + 1] == key) ? vl : 1;
	out = malloc(len + 1);
	if (!out)
		return NULL;
	for (i = 0, o = out; i < n; i++) {
		if (w[i] == '%' && i + 1 < n && w[i + 1] == key) {
			memcpy(o, value, vl);
			o += vl;
			i++;
		} else if (w[i] == '%' && i + 1 < n && w[i + 1] == '%') {
			*o++ = '%';
			i++;
		} else {
			*o++ = w[i];
		}
	}
	*o = '\0';
	return out;
}

int rio_strv_split(const char *cmd, char key, const char *value, char ***argv)
{
	static const char blanks[] = " \t\n";
	size_t n = 0, k = 0, len;
	const char *p;
	char **v;

	*argv = NULL;
	for (p = cmd + strspn(cmd, blanks); *p; p += strspn(p, blanks)) {
		n++;
		p += strcspn(p, blanks);
	}
	if (!n)
		return -EINVAL;
	v = calloc(n + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (p = cmd + strspn(cmd, blanks); *p; p += strspn(p, blanks)) {
		len = strcspn(p, blanks);
		v[k] = expand(p, len, key, value);
		if (!v[k++]) {
			rio_strv_free(v);
			return -ENOMEM;
		}
		p += len;
	}
	*argv = v;
	return 0;
}
