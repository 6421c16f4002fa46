// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cpucost.h"
#include "derive.h"
#include "envstatus.h"
#include "file.h"
#include "fiohosts.h"
#include "host.h"
#include "hostmap.h"
#include "jutil.h"
#include "log.h"
#include "remote.h"
#include "result.h"
#include "schema.h"
#include "strv.h"
#include "summary.h"

static json_object *fio_block(const struct rio_result_in *in,
			      const struct rio_hostmap *map)
{
	json_object *f = json_object_new_object(), *clients;
	int i;

	json_object_object_add(
		f, "source",
		json_object_new_string(in->imported_from ? "imported" : "run"));
	/* One fio run usually; a run split by role has one per job file. */
	json_object_object_add(
		f, "argv",
		rio_json_len(in->fio_runs)
			? json_object_get(rio_json_get(
				  json_object_array_get_idx(in->fio_runs, 0),
				  "argv"))
			: NULL);
	if (in->fio_runs && rio_json_len(in->fio_runs) > 1)
		json_object_object_add(f, "runs",
				       json_object_get(in->fio_runs));
	json_object_object_add(
		f, "exit_status",
		in->imported_from ? NULL
				  : json_object_new_int(in->fio_exit_status));
	if (in->imported_from)
		json_object_object_add(
			f, "imported_from",
			json_object_new_string(in->imported_from));
	clients = json_object_new_array();
	for (i = 0; i < in->nhosts; i++)
		json_object_array_add(
			clients, json_object_new_string(in->hosts[i].client));
	json_object_object_add(f, "clients", clients);
	if (in->nhosts)
		json_object_object_add(f, "hosts",
				       rio_fiohosts_json(in->hosts, in->nhosts,
							 map));
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
		const char *name = rio_json_str(
			rio_json_get(rio_json_get(r, "env"), "host"),
			"hostname");

		ws = rio_json_get(rio_json_get(r, "env"), "warnings");
		for (j = 0; j < rio_json_len(ws); j++) {
			w = json_object_array_get_idx(ws, j);
			rio_warn_add(warnings, rio_json_str(w, "code"),
				     "remote host %s: %s",
				     name ? name : rio_json_str(r, "host"),
				     rio_json_str(w, "message"));
		}
	}
}

static json_object *remote_of(json_object *remote, const char *client)
{
	json_object *r;
	size_t i;

	for (i = 0; i < rio_json_len(remote); i++) {
		r = json_object_array_get_idx(remote, i);
		if (!strcmp(rio_json_str(r, "client"), client))
			return r;
	}
	return NULL;
}

/* fio names each --client host by its address; the map gives it the name
 * its own `rdmaio env` reported, or this host's for a local server. */
static struct rio_hostmap *hostmap_build(const struct rio_result_in *in,
					 const char *local)
{
	struct rio_hostmap *m = rio_hostmap_new(local);
	json_object *env;
	char *fio_name;
	int i, ret = 0;

	for (i = 0; m && i < in->nhosts && !ret; i++) {
		fio_name = rio_remote_host_name(in->hosts[i].client);
		env = rio_json_get(remote_of(in->remote_hosts,
					     in->hosts[i].client),
				   "env");
		if (!fio_name)
			ret = -ENOMEM;
		else if (in->hosts[i].local)
			ret = rio_hostmap_add(m, fio_name, NULL);
		else if (rio_json_str(rio_json_get(env, "host"), "hostname"))
			ret = rio_hostmap_add(
				m, fio_name,
				rio_json_str(rio_json_get(env, "host"),
					     "hostname"));
		free(fio_name);
	}
	if (ret)
		rio_hostmap_delete(&m);
	return m;
}

static void host_facts_add(json_object *facts, json_object *host,
			   json_object *mounts)
{
	json_object *f;

	if (!rio_json_str(host, "hostname"))
		return;
	f = json_object_new_object();
	json_object_object_add(
		f, "addresses",
		json_object_get(rio_json_get(host, "addresses")));
	json_object_object_add(f, "mounts", json_object_get(mounts));
	json_object_object_add(facts, rio_json_str(host, "hostname"), f);
}

/* What the loopback check knows of each host: its addresses, its mounts. */
static json_object *host_facts(json_object *remote_hosts, json_object *host,
			       json_object *mounts)
{
	json_object *facts = json_object_new_object(), *env, *r;
	size_t i;

	for (i = 0; i < rio_json_len(remote_hosts); i++) {
		r = json_object_array_get_idx(remote_hosts, i);
		env = rio_json_get(r, "env");
		host_facts_add(
			facts, rio_json_get(env, "host"),
			rio_json_get(
				rio_json_get(rio_json_get(env, "environment"),
					     "status"),
				"nfs_mounts"));
	}
	host_facts_add(facts, host, mounts);
	return facts;
}

/* A --client host that is neither this one nor described by --remote-env. */
static void warn_unrecorded(const struct rio_result_in *in,
			    json_object *warnings)
{
	int i;

	for (i = 0; i < in->nhosts; i++) {
		if (in->hosts[i].local ||
		    remote_of(in->remote_hosts, in->hosts[i].client))
			continue;
		rio_warn_add(
			warnings, "remote-environment",
			"fio ran jobs on %s through fio --client; their numbers are kept per host, but that host's RDMA devices, mounts and kernel are not recorded (fio's protocol cannot carry them); record them with --remote-env 'ssh %%h rdmaio env' (any command that prints `rdmaio env` of host %%h)",
			in->hosts[i].client);
	}
}

static int warned(json_object *warnings, const char *code)
{
	size_t i;

	for (i = 0; i < rio_json_len(warnings); i++)
		if (!strcmp(rio_json_str(json_object_array_get_idx(warnings, i),
					 "code")
				    ?: "",
			    code))
			return 1;
	return 0;
}

const char *rio_result_caveat(json_object *warnings)
{
	int sw = warned(warnings, "software-rdma");
	int emu = warned(warnings, "emulated-cpu");

	if (sw && emu)
		return "software RDMA on an emulated CPU: ratios only";
	if (emu)
		return "emulated CPU: ratios only";
	if (sw)
		return "software RDMA: it measures the CPU, not a NIC";
	return NULL;
}

/* A host whose CPU could not be followed says so, with the fix. */
static void cpu_warnings(json_object *cpu, json_object *warnings)
{
	json_object *hosts = rio_json_get(cpu, "hosts"), *h;
	const char *cmd;
	size_t i;

	for (i = 0; i < rio_json_len(hosts); i++) {
		h = json_object_array_get_idx(hosts, i);
		cmd = rio_json_str(h, "command");
		if (rio_json_num(h, "readings", 0) >= 2)
			continue;
		rio_warn_add(
			warnings, "cpu-not-watched",
			"host %s: %s gave %d CPU readings (%d lines that were not rdmaio-cpu/1 readings): its CPU is not in the result; %s",
			rio_json_str(h, "host"), cmd ? cmd : "/proc/stat",
			(int)rio_json_num(h, "readings", 0),
			(int)rio_json_num(h, "bad_lines", 0),
			cmd ? "run the command by hand: it must print `rdmaio cpu-watch` lines until stopped"
			    : "the run was too short to read it twice");
	}
	if (cpu && !json_object_get_boolean(rio_json_get(cpu, "matched")))
		rio_warn_add(warnings, "cpu-not-attributed",
			     "the hosts' CPU is not attributed to jobs: %s",
			     rio_json_str(cpu, "match"));
}

/* results, comparisons and checks, every host by its name. */
static void add_measurements(json_object *doc, const struct rio_result_in *in,
			     const struct rio_hostmap *map, json_object *links,
			     json_object *warnings, int *flagged)
{
	json_object *output, *checks, *facts;
	int n;

	output = rio_fio_attributable(in->fio_output,
				      rio_json_len(in->job_files));
	json_object_object_add(doc, "results",
			       rio_summary_results(output, map, in->job_files));
	json_object_object_add(doc, "comparisons",
			       rio_derive_comparisons(output, map));
	if (in->cpu) {
		const struct rio_cpucost_in c = {
			.results = rio_json_get(doc, "results"),
			.comparisons = rio_json_get(doc, "comparisons"),
			.output = output,
			.map = map,
			.cpu = in->cpu,
			.tasks = in->tasks,
			.ntasks = in->ntasks,
			.hosts = in->hosts,
			.nhosts = in->nhosts,
		};

		json_object_object_add(doc, "cpu", rio_cpucost_attribute(&c));
		cpu_warnings(rio_json_get(doc, "cpu"), warnings);
	}
	rio_derive_verdicts(rio_json_get(doc, "comparisons"),
			    rio_result_caveat(warnings));
	json_object_object_add(doc, "links", json_object_get(links));
	checks = rio_check_run(output, in->fio_runs, map, links, warnings,
			       flagged);
	rio_check_nfs_transport(output, map, in->mounts_during_run, checks,
				flagged);
	facts = host_facts(in->remote_hosts, rio_json_get(doc, "host"),
			   in->mounts_during_run);
	n = 0;
	rio_check_loopback(output, map, facts, checks, &n);
	*flagged += n;
	json_object_put(facts);
	json_object_put(output);
	json_object_object_add(doc, "checks", checks);
}

int rio_result_build(const struct rio_result_in *in, json_object **out,
		     int *flagged)
{
	json_object *doc, *host, *env, *warnings, *links;
	struct rio_hostmap *map;
	char created[32], *sdir;
	time_t now = time(NULL);
	struct tm tm;

	warnings = json_object_new_array();
	host = rio_host_describe(in->root);
	sdir = rio_host_self_dir();
	env = rio_envstatus_gather(in->root, sdir, warnings);
	free(sdir);
	json_object_object_add(env, "nfs_mounts_during_run",
			       json_object_get(in->mounts_during_run));
	links = rio_check_links(&in->link, rio_json_get(env, "status"));
	map = hostmap_build(in, rio_json_str(host, "hostname"));
	if (!links || !map) {
		json_object_put(links);
		json_object_put(warnings);
		json_object_put(host);
		json_object_put(env);
		rio_hostmap_delete(&map);
		return links ? -ENOMEM : -EINVAL;
	}
	rio_host_warn_cpu(host, warnings);
	warn_unrecorded(in, warnings);
	remote_warnings(in->remote_hosts, warnings);
	gmtime_r(&now, &tm);
	strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ", &tm);

	doc = json_object_new_object();
	json_object_object_add(doc, "schema",
			       json_object_new_string("rdmaio-result/1"));
	json_object_object_add(doc, "created", json_object_new_string(created));
	json_object_object_add(doc, "rdmaio_argv",
			       rio_strv_json(in->argv, in->argc));
	json_object_object_add(doc, "versions", rio_host_versions(in->fio));
	json_object_object_add(doc, "host", host);
	json_object_object_add(doc, "environment", env);
	json_object_object_add(doc, "job_files",
			       json_object_get(in->job_files));
	json_object_object_add(doc, "fio", fio_block(in, map));
	if (in->remote_hosts)
		json_object_object_add(doc, "remote_hosts",
				       json_object_get(in->remote_hosts));
	add_measurements(doc, in, map, links, warnings, flagged);
	json_object_put(links);
	json_object_object_add(doc, "warnings", warnings);
	rio_hostmap_delete(&map);
	*out = doc;
	return 0;
}

void rio_result_check_loopback(json_object *doc, const struct rio_hostmap *map,
			       json_object *checks, int *flagged)
{
	json_object *facts =
		host_facts(rio_json_get(doc, "remote_hosts"),
			   rio_json_get(doc, "host"),
			   rio_json_get(rio_json_get(doc, "environment"),
					"nfs_mounts_during_run"));

	json_object *output = rio_fio_attributable(
		rio_json_get(rio_json_get(doc, "fio"), "output"),
		rio_json_len(rio_json_get(doc, "job_files")));

	rio_check_loopback(output, map, facts, checks, flagged);
	json_object_put(output);
	json_object_put(facts);
}

struct rio_hostmap *rio_result_hostmap(json_object *doc)
{
	json_object *hs = rio_json_get(rio_json_get(doc, "fio"), "hosts"), *h;
	const char *local = rio_json_str(rio_json_get(doc, "host"), "hostname");
	struct rio_hostmap *m = rio_hostmap_new(local ? local : "local");
	char *fio_name;
	size_t i;

	for (i = 0; m && i < rio_json_len(hs); i++) {
		h = json_object_array_get_idx(hs, i);
		fio_name = rio_remote_host_name(rio_json_str(h, "client"));
		if (!fio_name ||
		    rio_hostmap_add(m, fio_name, rio_json_str(h, "host")))
			rio_hostmap_delete(&m);
		free(fio_name);
	}
	return m;
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
