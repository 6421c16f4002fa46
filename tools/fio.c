// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file.h"
#include "fio.h"
#include "jutil.h"
#include "log.h"
#include "spawn.h"

int rio_fio_parse(const char *text, size_t len, const char *name,
		  json_object **output)
{
	const char *p = text;
	int ret;

	while (p && *p != '{') {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p) {
		RIO_ERR("%s: no JSON object in fio's output (did fio run with --output-format=json or json+?)",
			name);
		return -EINVAL;
	}
	if (p != text)
		RIO_WARN("%s: fio printed text before its JSON: %.*s", name,
			 (int)(p - text), text);
	ret = rio_json_parse(p, len - (p - text), "fio output", name, output);
	if (ret)
		return ret;
	if (!rio_json_str(*output, "fio version") ||
	    !(json_object_is_type(rio_json_get(*output, "jobs"),
				  json_type_array) ||
	      json_object_is_type(rio_json_get(*output, "client_stats"),
				  json_type_array))) {
		RIO_ERR("%s: JSON has no \"fio version\" and jobs[] or client_stats[]: not fio's JSON output",
			name);
		json_object_put(*output);
		*output = NULL;
		return -EINVAL;
	}
	return 0;
}

static json_object *entries(json_object *output)
{
	json_object *a = rio_json_get(output, "client_stats");

	return a ? a : rio_json_get(output, "jobs");
}

static int is_sum(json_object *e)
{
	const char *n = rio_json_str(e, "jobname");

	return n && !strcmp(n, "All clients");
}

int rio_fio_entry_count(json_object *output)
{
	json_object *a = entries(output);
	int i, n = 0;

	for (i = 0; a && i < (int)rio_json_len(a); i++)
		n += !is_sum(json_object_array_get_idx(a, i));
	return n;
}

json_object *rio_fio_entry(json_object *output, int i, const char *local_host,
			   const char **host)
{
	json_object *a = entries(output), *e;
	int j;

	for (j = 0; a && j < (int)rio_json_len(a); j++) {
		e = json_object_array_get_idx(a, j);
		if (is_sum(e))
			continue;
		if (i-- == 0) {
			*host = rio_json_str(e, "hostname");
			if (!*host)
				*host = local_host;
			return e;
		}
	}
	return NULL;
}

struct argv_buf {
	char **v;
	char **owned; /* the "--client=HOST" strings */
	int nowned;
};

static void free_argv(struct argv_buf *a)
{
	while (a->nowned)
		free(a->owned[--a->nowned]);
	free(a->owned);
	free(a->v);
}

static json_object *build_argv(const struct rio_fio_run *r, struct argv_buf *a)
{
	int n = 2 + r->njobs * (r->nclients ? r->nclients : 1) + r->nclients;
	json_object *arr;
	int i, c, k = 0;

	a->v = calloc(n + 1, sizeof(*a->v));
	a->owned = calloc(r->nclients + 1, sizeof(*a->owned));
	a->nowned = 0;
	if (!a->v || !a->owned)
		goto fail;
	a->v[k++] = (char *)r->fio;
	a->v[k++] = "--output-format=json+";
	/* fio's client mode takes the job files after each --client. */
	for (c = 0; c < (r->nclients ? r->nclients : 1); c++) {
		if (r->nclients) {
			if (asprintf(&a->owned[a->nowned], "--client=%s",
				     r->clients[c]) < 0)
				goto fail;
			a->v[k++] = a->owned[a->nowned++];
		}
		for (i = 0; i < r->njobs; i++)
			a->v[k++] = r->jobs[i];
	}
	arr = json_object_new_array();
	for (i = 0; i < k; i++)
		json_object_array_add(arr, json_object_new_string(a->v[i]));
	return arr;
fail:
	free_argv(a);
	return NULL;
}

int rio_fio_run(const struct rio_fio_run *r, json_object **argv_out,
		int *exit_status, json_object **output)
{
	char *text = NULL;
	struct argv_buf argv = { 0 };
	json_object *jargv;
	size_t len;
	int fd, ret, i;

	*output = NULL;
	/* fio would take such a name for an option. */
	for (i = 0; i < r->njobs; i++)
		if (r->jobs[i][0] == '-') {
			RIO_ERR("job file %s: a name starting with '-' reads as a fio option; pass it as ./%s",
				r->jobs[i], r->jobs[i]);
			return -EINVAL;
		}
	jargv = build_argv(r, &argv);
	if (!jargv)
		return -ENOMEM;
	fd = rio_file_scratch("rdmaio-fio");
	if (fd < 0) {
		ret = fd;
		goto out;
	}
	ret = rio_spawn_run_tick(argv.v, fd, r->timeout_s, r->tick,
				 r->tick_arg);
	if (ret < 0) {
		RIO_ERR("cannot start fio '%s': %s (install fio or pass --fio PATH)",
			r->fio, strerror(-ret));
		goto out;
	}
	*exit_status = ret;
	if (ret) {
		RIO_ERR("fio exited with status %d (its messages are above); no result written",
			ret);
		ret = -EIO;
		goto out;
	}
	ret = rio_file_read_fd(fd, &text, &len);
	if (ret) {
		RIO_CALL_ERR(-ret, "read", "%s",
			     "fio's output from its scratch file");
		goto out;
	}
	ret = rio_fio_parse(text, len, "fio's stdout", output);
out:
	if (fd >= 0)
		close(fd);
	free(text);
	free_argv(&argv);
	if (ret)
		json_object_put(jargv);
	else
		*argv_out = jargv;
	return ret;
}
