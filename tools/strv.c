// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "strv.h"

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
