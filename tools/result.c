// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "derive.h"
#include "envstatus.h"
#include "file.h"
#include "host.h"
#include "jutil.h"
#include "log.h"
#include "result.h"
#include "schema.h"
#include "summary.h"

static json_object *str_array(char *const *v, int n)
{
	json_object *a = json_object_new_array();
	int i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_string(v[i]));
	return a;
}

static json_object *fio_block(const struct rio_result_in *in)
{
	json_object *f = json_object_new_object();

	json_object_object_add(
		f, "source",
		json_object_new_string(in->imported_from ? "imported" : "run"));
	json_object_object_add(f, "argv", json_object_get(in->fio_argv));
	json_object_object_add(
		f, "exit_status",
		in->imported_from ? NULL
				  : json_object_new_int(in->fio_exit_status));
	if (in->imported_from)
		json_object_object_add(
			f, "imported_from",
			json_object_new_string(in->imported_from));
	json_object_object_add(f, "clients",
			       str_array(in->clients, in->nclients));
	json_object_object_add(f, "output", json_object_get(in->fio_output));
	return f;
}

/* A remote host's own warnings count for the numbers measured there. */
static void remote_warnings(json_object *remote, json_object *warnings)
{
	json_object *ws, *w;
	size_t i, j;

	for (i = 0; i < rio_json_len(remote); i++) {
		json_object *r = json_object_array_get_idx(remote, i);

		ws = rio_json_get(rio_json_get(r, "env"), "warnings");
		for (j = 0; j < rio_json_len(ws); j++) {
			w = json_object_array_get_idx(ws, j);
			rio_warn_add(warnings, rio_json_str(w, "code"),
				     "remote host %s: %s",
				     rio_json_str(r, "host"),
				     rio_json_str(w, "message"));
		}
	}
}

int rio_result_build(const struct rio_result_in *in, json_object **out,
		     int *flagged)
{
	json_object *doc, *host, *env, *warnings, *links, *output, *checks;
	char created[32], *sdir;
	const char *hostname;
	time_t now = time(NULL);
	struct tm tm;

	warnings = json_object_new_array();
	host = rio_host_describe(in->root);
	hostname = rio_json_str(host, "hostname");
	sdir = rio_host_self_dir();
	env = rio_envstatus_gather(in->root, sdir, warnings);
	free(sdir);
	json_object_object_add(env, "nfs_mounts_during_run",
			       json_object_get(in->mounts_during_run));
	links = rio_check_links(&in->link, rio_json_get(env, "status"));
	if (!links) {
		json_object_put(warnings);
		json_object_put(host);
		json_object_put(env);
		return -EINVAL;
	}
	rio_host_warn_cpu(host, warnings);
	if (in->nclients && !in->remote_hosts)
		rio_warn_add(
			warnings, "remote-environment",
			"fio ran on %d remote host(s) through fio --client; their numbers are kept per host, but their RDMA devices, mounts and kernels are not recorded (fio's protocol cannot carry them): only this host's are; record them with --remote-env 'ssh %%h rdmaio env' (any command that prints `rdmaio env` of host %%h)",
			in->nclients);
	remote_warnings(in->remote_hosts, warnings);
	gmtime_r(&now, &tm);
	strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ", &tm);
	output = in->fio_output;

	doc = json_object_new_object();
	json_object_object_add(doc, "schema",
			       json_object_new_string("rdmaio-result/1"));
	json_object_object_add(doc, "created", json_object_new_string(created));
	json_object_object_add(doc, "rdmaio_argv",
			       str_array(in->argv, in->argc));
	json_object_object_add(doc, "versions", rio_host_versions(in->fio));
	json_object_object_add(doc, "host", host);
	json_object_object_add(doc, "environment", env);
	json_object_object_add(doc, "job_files",
			       json_object_get(in->job_files));
	json_object_object_add(doc, "fio", fio_block(in));
	if (in->remote_hosts)
		json_object_object_add(doc, "remote_hosts",
				       json_object_get(in->remote_hosts));
	json_object_object_add(doc, "results",
			       rio_summary_results(output, hostname));
	json_object_object_add(doc, "comparisons",
			       rio_derive_comparisons(output, hostname));
	json_object_object_add(doc, "links", links);
	checks = rio_check_run(output, hostname, links, warnings, flagged);
	rio_check_nfs_transport(output, hostname, in->mounts_during_run, checks,
				flagged);
	json_object_object_add(doc, "checks", checks);
	json_object_object_add(doc, "warnings", warnings);
	*out = doc;
	return 0;
}

int rio_result_write(json_object *doc, const char *path)
{
	const char *text;
	json_object *back;
	char err[1024];
	int ret;

	text = json_object_to_json_string_ext(
		doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			     JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text)
		return -ENOMEM;
	/* Validate the very bytes that will be written, not the tree. */
	ret = rio_json_parse(text, strlen(text), "result", path, &back);
	if (ret)
		return ret;
	ret = rio_schema_validate_result(back, err, sizeof(err));
	json_object_put(back);
	if (ret) {
		RIO_ERR("result %s: does not match results-schema/result.schema.json %s; nothing written (this is a bug in rdmaio: please report it with the job files)",
			path, err);
		return ret;
	}
	ret = rio_file_write_atomic(path, text, strlen(text));
	if (ret)
		RIO_ERR("result %s: cannot write it: %s (check the folder exists and is writable, or pass -o)",
			path, strerror(-ret));
	return ret;
}

int rio_result_load(const char *path, json_object **doc)
{
	char err[1024];
	int ret;

	ret = rio_json_load(path, "result", doc);
	if (ret)
		return ret;
	ret = rio_schema_validate_result(*doc, err, sizeof(err));
	if (ret) {
		RIO_ERR("result %s: not an rdmaio result: %s", path, err);
		json_object_put(*doc);
		*doc = NULL;
	}
	return ret;
}
