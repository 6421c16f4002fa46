// SPDX-License-Identifier: MIT
#include <string.h>

#include "result/fioentry.h"
#include "result/hostmap.h"
#include "base/jsonread.h"

static json_object *entries(json_object *output)
{
	json_object *a = rio_json_get(output, "client_stats");

	return a ? a : rio_json_get(output, "jobs");
}

int rio_fio_entry_is_sum(json_object *e)
{
	const char *n = rio_json_str(e, "jobname");

	return n && !strcmp(n, "All clients");
}

json_object *rio_fio_attributable(json_object *output, size_t njob_files)
{
	json_object *copy;

	if (njob_files <= 1 || !json_object_is_type(output, json_type_object))
		return json_object_get(output);
	copy = json_object_new_object();
	json_object_object_foreach(output, key, val)
	{
		if (strcmp(key, "global options"))
			json_object_object_add(copy, key, json_object_get(val));
	}
	return copy;
}

int rio_fio_entry_count(json_object *output)
{
	json_object *a = entries(output);
	int i, n = 0;

	for (i = 0; a && i < (int)rio_json_len(a); i++)
		n += !rio_fio_entry_is_sum(json_object_array_get_idx(a, i));
	return n;
}

json_object *rio_fio_entry(json_object *output, int i,
			   const struct rio_hostmap *hosts, const char **host)
{
	json_object *a = entries(output), *e;
	int j;

	for (j = 0; a && j < (int)rio_json_len(a); j++) {
		e = json_object_array_get_idx(a, j);
		if (rio_fio_entry_is_sum(e))
			continue;
		if (i-- == 0) {
			*host = rio_hostmap_name(hosts,
						 rio_json_str(e, "hostname"));
			return e;
		}
	}
	return NULL;
}
