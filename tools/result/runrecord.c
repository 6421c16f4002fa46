// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonread.h"
#include "base/strv.h"
#include "result/hostmap.h"
#include "result/runrecord.h"

json_object *rio_runrecord_hosts_json(const struct rio_fio_host *hosts,
				      int nhosts, const struct rio_hostmap *map)
{
	json_object *arr = json_object_new_array(), *o;
	char *fio_name;
	int i;

	for (i = 0; i < nhosts; i++) {
		fio_name = rio_hostmap_fio_name(hosts[i].client);
		o = json_object_new_object();
		json_object_object_add(o, "client",
				       json_object_new_string(hosts[i].client));
		json_object_object_add(
			o, "host",
			json_object_new_string(rio_hostmap_name(
				map, fio_name ? fio_name : hosts[i].client)));
		json_object_object_add(
			o, "role",
			hosts[i].role ? json_object_new_string(hosts[i].role)
				      : NULL);
		json_object_object_add(o, "local",
				       json_object_new_boolean(hosts[i].local));
		json_object_object_add(o, "job_files",
				       rio_strv_json(hosts[i].jobs,
						     hosts[i].njobs));
		json_object_object_add(o, "sections",
				       rio_strv_json(hosts[i].sections,
						     hosts[i].nsections));
		json_object_array_add(arr, o);
		free(fio_name);
	}
	return arr;
}

json_object *rio_runrecord_series_json(const struct rio_cpu_series *s)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "readings", json_object_new_int(s->n));
	json_object_object_add(o, "hz",
			       s->n ? json_object_new_int(s->v[0].hz) : NULL);
	json_object_object_add(o, "ncpu",
			       s->n ? json_object_new_int(s->v[0].ncpu) : NULL);
	json_object_object_add(o, "command",
			       s->command ? json_object_new_string(s->command)
					  : NULL);
	json_object_object_add(
		o, "clock_offset_s",
		s->client && s->n ? json_object_new_double(s->clock_offset_s)
				  : NULL);
	json_object_object_add(o, "bad_lines",
			       json_object_new_int(s->bad_lines));
	return o;
}

int rio_runrecord_argvs_read(json_object *runs, struct rio_fio_argvs *out)
{
	json_object *run, *argv;
	const char **v;
	size_t i, j;

	out->n = 0;
	out->v = calloc(rio_json_len(runs) + 1, sizeof(*out->v));
	if (!out->v)
		return -ENOMEM;
	for (i = 0; i < rio_json_len(runs); i++) {
		run = json_object_array_get_idx(runs, i);
		argv = rio_json_get(run, "argv");
		v = calloc(rio_json_len(argv) + 1, sizeof(*v));
		if (!v) {
			rio_runrecord_argvs_free(out);
			return -ENOMEM;
		}
		for (j = 0; j < rio_json_len(argv); j++)
			v[j] = json_object_get_string(
				json_object_array_get_idx(argv, j));
		out->v[out->n++] = (struct rio_fio_argv){
			v, j, rio_json_get(run, "global_options")
		};
	}
	return 0;
}

void rio_runrecord_argvs_free(struct rio_fio_argvs *argvs)
{
	while (argvs->n)
		free((void *)argvs->v[--argvs->n].v);
	free(argvs->v);
	argvs->v = NULL;
}

json_object *rio_runrecord_tasks_header_json(void)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "schema",
			       json_object_new_string("rdmaio-tasks/1"));
	return o;
}

json_object *rio_runrecord_task_json(const struct rio_task *t)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "schema",
			       json_object_new_string("rdmaio-task/1"));
	json_object_object_add(o, "id", json_object_new_int(t->id));
	json_object_object_add(o, "runner", json_object_new_int(t->runner));
	json_object_object_add(o, "thread", json_object_new_boolean(t->thread));
	json_object_object_add(o, "first", json_object_new_double(t->first));
	json_object_object_add(o, "last", json_object_new_double(t->last));
	json_object_object_add(o, "gone", json_object_new_double(t->gone));
	return o;
}

static int task_int(json_object *o, const char *key, int *out)
{
	json_object *v = rio_json_get(o, key);
	int64_t x = json_object_get_int64(v);

	if (!json_object_is_type(v, json_type_int) || x <= 0 || x > INT32_MAX)
		return -EINVAL;
	*out = (int)x;
	return 0;
}

int rio_runrecord_task_parse(const char *line, struct rio_task *t)
{
	json_object *o = json_tokener_parse(line);
	const char *schema = rio_json_str(o, "schema");
	int ret = -EINVAL;

	memset(t, 0, sizeof(*t));
	if (schema && !strcmp(schema, "rdmaio-tasks/1")) {
		ret = 1;
		goto out;
	}
	if (!schema || strcmp(schema, "rdmaio-task/1") ||
	    task_int(o, "id", &t->id) || task_int(o, "runner", &t->runner) ||
	    !json_object_is_type(rio_json_get(o, "thread"), json_type_boolean))
		goto out;
	t->thread = json_object_get_boolean(rio_json_get(o, "thread"));
	t->first = rio_json_num(o, "first", NAN);
	t->last = rio_json_num(o, "last", NAN);
	t->gone = rio_json_num(o, "gone", NAN);
	if (isfinite(t->first) && isfinite(t->last) && isfinite(t->gone) &&
	    t->last >= t->first && (!t->gone || t->gone >= t->last))
		ret = 0;
out:
	json_object_put(o);
	return ret;
}
