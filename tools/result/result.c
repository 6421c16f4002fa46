// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "result/cpucost.h"
#include "result/fiooutput.h"
#include "result/derive.h"
#include "result/envstatus.h"
#include "rc_file.h"
#include "result/host.h"
#include "result/hostmap.h"
#include "base/jsonread.h"
#include "rc_log.h"
#include "result/result.h"
#include "result/resultenv.h"
#include "base/text.h"
#include "result/rounds.h"
#include "result/schema.h"
#include "base/strv.h"
#include "result/summary.h"

/* argv, exit_status and, with several, runs of one run of fio. */
static void fio_run_add(json_object *f, const struct rio_result_in *r)
{
	/* One fio run usually; a run split by role has one per job file. */
	json_object_object_add(
		f, "argv",
		rio_json_len(r->fio_runs)
			? json_object_get(rio_json_get(
				  json_object_array_get_idx(r->fio_runs, 0),
				  "argv"))
			: NULL);
	if (r->fio_runs && rio_json_len(r->fio_runs) > 1)
		json_object_object_add(f, "runs", json_object_get(r->fio_runs));
	json_object_object_add(
		f, "exit_status",
		r->imported_from ? NULL
				 : json_object_new_int(r->fio_exit_status));
}

/* With rounds, each round's fio runs and output are in its own "fio". */
static json_object *fio_block(const struct rio_result_in *in,
			      const struct rio_hostmap *map)
{
	json_object *f = json_object_new_object(), *clients;
	int i;

	json_object_object_add(
		f, "source",
		json_object_new_string(in->imported_from ? "imported" : "run"));
	fio_run_add(f, in->nrounds > 1 ? in->rounds : in);
	if (in->nrounds > 1)
		json_object_object_del(f, "runs");
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
		json_object_object_add(
			f, "hosts",
			rio_runrecord_hosts_json(in->hosts, in->nhosts, map));
	if (in->nrounds <= 1)
		json_object_object_add(f, "output",
				       json_object_get(in->fio_output));
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
		fio_name = rio_hostmap_fio_name(in->hosts[i].client);
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
			"fio ran jobs on %s through fio --client; their numbers are kept per host, but that host's RDMA devices, mounts and kernel are not recorded (fio's protocol cannot carry them); record them with --remote-env 'ssh -- %%h rdmaio env' (any command that prints `rdmaio env` of host %%h)",
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
	return rio_result_caveat_of(warned(warnings, "software-rdma"),
				    warned(warnings, "emulated-cpu"));
}

const char *rio_result_caveat_of(int sw, int emu)
{
	if (sw && emu)
		return "software RDMA on an emulated CPU: ratios only";
	if (emu)
		return "emulated CPU: ratios only";
	if (sw)
		return "software RDMA: it measures the CPU, not a NIC";
	return NULL;
}

/* A host whose CPU could not be followed says so, with the fix; pre
 * names the round ("" without rounds). */
static void cpu_warnings(json_object *cpu, json_object *warnings,
			 const char *pre)
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
			"%shost %s: %s gave %d CPU readings (%d lines that were not rdmaio-cpu/1 readings): its CPU is not in the result; %s",
			pre, rio_json_str(h, "host"), cmd ? cmd : "/proc/stat",
			(int)rio_json_num(h, "readings", 0),
			(int)rio_json_num(h, "bad_lines", 0),
			cmd ? "run the command by hand: it must print `rdmaio cpu-watch` lines until stopped"
			    : "the run was too short to read it twice");
	}
	if (cpu && !json_object_get_boolean(rio_json_get(cpu, "matched")))
		rio_warn_add(warnings, "cpu-not-attributed",
			     "%sthe hosts' CPU is not attributed to jobs: %s",
			     pre, rio_json_str(cpu, "match"));
}

/*
 * The --baseline records of one run, each with the CPU of every watched
 * host over its window and its own CPU per GiB; a failed one is warned of.
 */
static json_object *baselines_json(const struct rio_result_in *r,
				   const struct rio_hostmap *map,
				   json_object *warnings, const char *pre)
{
	json_object *out = json_object_new_array(), *b, *w;
	struct rio_moved moved;
	size_t i;

	for (i = 0; i < rio_json_len(r->baselines); i++) {
		b = NULL;
		json_object_deep_copy(
			json_object_array_get_idx(r->baselines, i), &b, NULL);
		if (!b)
			continue;
		moved = (struct rio_moved){ rio_json_num(b, "bytes", 0), 0 };
		json_object_object_add(
			b, "cpu_per_gib_s",
			moved.bytes > 0 ? json_object_new_double(
						  rio_json_num(b, "cpu_s", 0) *
						  (1 << 30) / moved.bytes)
					: NULL);
		w = rio_json_get(b, "window");
		json_object_object_add(
			b, "host_cpu",
			r->ncpu && moved.bytes > 0
				? rio_cpucost_window(
					  r->cpu, r->ncpu, map,
					  rio_json_num(w, "start_s", 0),
					  rio_json_num(w, "end_s", 0), moved)
				: json_object_new_array());
		if (rio_json_get(b, "error"))
			rio_warn_add(
				warnings, "baseline-failed",
				"%sbaseline %s: '%s' %s; it has no figures (run it by hand to see why)",
				pre, rio_json_str(b, "name"),
				rio_json_str(b, "command"),
				rio_json_str(b, "error"));
		json_object_array_add(out, b);
	}
	return out;
}

/* What one run of fio (r: in itself, or a round of it) was measured in. */
struct measure {
	const struct rio_result_in *in, *r;
	struct rio_fio_output **fios; /* each round's fio output read */
	const struct rio_fio_output *fio; /* r's */
	const struct rio_hostmap *map;
	const struct rio_links *links;
	json_object *host, *env, *warnings;
	const char *caveat, *pre;
};

/*
 * Adds results, comparisons with their verdicts and cpu to dst (the result,
 * or a round of it).
 */
static int measure(json_object *dst, const struct measure *m)
{
	json_object_object_add(dst, "results",
			       rio_summary_results(m->fio, m->in->job_files));
	json_object_object_add(dst, "comparisons",
			       rio_derive_comparisons(m->fio));
	if (m->r->ncpu) {
		const struct rio_cpucost_in c = {
			.doc = dst,
			.fio = m->fio,
			.map = m->map,
			.cpu = m->r->cpu,
			.ncpu = m->r->ncpu,
			.tasks = m->r->tasks,
			.ntasks = m->r->ntasks,
			.hosts = m->in->hosts,
			.nhosts = m->in->nhosts,
		};
		json_object *cpu;

		if (rio_cpucost_attribute(&c, &cpu))
			return -ENOMEM;
		json_object_object_add(dst, "cpu", cpu);
		cpu_warnings(cpu, m->warnings, m->pre);
	}
	if (m->r->baselines)
		json_object_object_add(dst, "baselines",
				       baselines_json(m->r, m->map, m->warnings,
						      m->pre));
	return rio_derive_verdicts(dst, m->caveat);
}

/* The checks of one run of fio; NULL when out of memory. */
static json_object *run_checks(const struct measure *m, json_object *warnings,
			       int *flagged)
{
	struct rio_resultenv *env;
	struct rio_fio_argvs runs;
	json_object *checks;
	int n = 0;

	if (rio_resultenv_read_run(m->host, m->env, m->in->remote_hosts,
				   m->r->mounts_during_run, &env))
		return NULL;
	if (rio_runrecord_argvs_read(m->r->fio_runs, &runs)) {
		rio_resultenv_delete(&env);
		return NULL;
	}
	checks = rio_check_run(m->fio, &runs, m->map, m->links, warnings,
			       flagged);
	rio_runrecord_argvs_free(&runs);
	if (!checks) {
		rio_resultenv_delete(&env);
		return NULL;
	}
	rio_check_nfs_transport(m->fio, m->map, env, checks, flagged);
	rio_check_loopback(m->fio, env, checks, &n);
	*flagged += n;
	rio_check_fairness(m->fio, env, m->in->job_files, m->links, checks,
			   flagged);
	rio_check_numa(m->fio, m->in->job_files, m->map,
		       rio_json_get(m->host, "numa"), checks, flagged);
	rio_check_overlap(
		&(const struct rio_overlap_in){ .hosts = m->in->hosts,
						.nhosts = m->in->nhosts,
						.tasks = m->r->tasks,
						.ntasks = m->r->ntasks,
						.cpu = m->r->cpu,
						.ncpu = m->r->ncpu,
						.spans = m->r->fio_run_spans,
						.nspans = m->r->nfio_run_spans,
						.map = m->map },
		checks, &n);
	*flagged += n;
	rio_resultenv_delete(&env);
	return checks;
}

/* results, comparisons and checks, every host by its name. */
static int add_measurements(json_object *doc, const struct measure *m,
			    int *flagged)
{
	json_object *checks, *links;

	if (measure(doc, m))
		return -ENOMEM;
	links = rio_check_links_json(m->links);
	if (!links)
		return -ENOMEM;
	json_object_object_add(doc, "links", links);
	checks = run_checks(m, m->warnings, flagged);
	if (!checks)
		return -ENOMEM;
	json_object_object_add(doc, "checks", checks);
	return 0;
}

/* Whether two checks are the same but for the rounds they came out in. */
static bool same_check(json_object *a, json_object *b)
{
	int n = 0;

	json_object_object_foreach(a, key, val)
	{
		if (!strcmp(key, "rounds"))
			continue;
		if (!json_object_object_get_ex(b, key, NULL) ||
		    !json_object_equal(val, rio_json_get(b, key)))
			return false;
		n++;
	}
	return n == json_object_object_length(b);
}

/* A round's checks join the result's once each, with the rounds that
 * gave them: a loopback is the same every round, a ceiling is not. */
static void merge_checks(json_object *all, json_object *checks, int round)
{
	json_object *c, *d, *rounds;
	size_t i, j;

	for (i = 0; i < rio_json_len(checks); i++) {
		c = json_object_array_get_idx(checks, i);
		for (j = 0, d = NULL; j < rio_json_len(all) && !d; j++)
			if (same_check(json_object_array_get_idx(all, j), c))
				d = json_object_array_get_idx(all, j);
		if (!d) {
			d = json_object_get(c);
			json_object_object_add(d, "rounds",
					       json_object_new_array());
			json_object_array_add(all, d);
		}
		rounds = rio_json_get(d, "rounds");
		json_object_array_add(rounds, json_object_new_int(round));
	}
}

/* Adds each of items that all lacks: a warning every round gives (no
 * link known) is said once, a mount every round saw is listed once. */
static void add_unique(json_object *all, json_object *items)
{
	json_object *w;
	size_t i, j;
	bool seen;

	for (i = 0; i < rio_json_len(items); i++) {
		w = json_object_array_get_idx(items, i);
		for (j = 0, seen = false; j < rio_json_len(all) && !seen; j++)
			seen = json_object_equal(
				json_object_array_get_idx(all, j), w);
		if (!seen)
			json_object_array_add(all, json_object_get(w));
	}
}

/* Round k (1-based) of the result: its fio run, mounts and measurements;
 * NULL when memory ran out. */
static json_object *round_json(const struct measure *m, int k,
			       json_object *checks, int *flagged)
{
	json_object *round = json_object_new_object(), *f, *ws, *cs;
	char pre[32];
	struct measure rm = *m;

	snprintf(pre, sizeof(pre), "round %d: ", k);
	rm.r = &m->in->rounds[k - 1];
	rm.fio = m->fios[k - 1];
	rm.pre = pre;
	json_object_object_add(round, "round", json_object_new_int(k));
	f = json_object_new_object();
	fio_run_add(f, rm.r);
	json_object_object_add(f, "output", json_object_get(rm.r->fio_output));
	json_object_object_add(round, "fio", f);
	json_object_object_add(round, "nfs_mounts_during_run",
			       json_object_get(rm.r->mounts_during_run));
	if (measure(round, &rm)) {
		json_object_put(round);
		return NULL;
	}
	ws = json_object_new_array();
	cs = run_checks(&rm, ws, flagged);
	if (!cs) {
		json_object_put(ws);
		json_object_put(round);
		return NULL;
	}
	merge_checks(checks, cs, k);
	add_unique(m->warnings, ws);
	json_object_put(cs);
	json_object_put(ws);
	return round;
}

/*
 * Every round kept in rounds[], and results and comparisons summed up over
 * them: medians, with the spread in over_rounds, and verdicts that say so.
 * A check flagged in any round is flagged in the result.
 */
static int add_rounds(json_object *doc, const struct measure *m, int *flagged)
{
	json_object *rounds = json_object_new_array();
	json_object *checks = json_object_new_array();
	json_object *round, *links;
	char caveat[256];
	int k, f = 0;

	for (k = 1; k <= m->in->nrounds; k++) {
		round = round_json(m, k, checks, &f);
		if (!round) {
			json_object_put(rounds);
			json_object_put(checks);
			return -ENOMEM;
		}
		json_object_array_add(rounds, round);
	}
	json_object_object_add(doc, "rounds", rounds);
	json_object_object_add(doc, "results", rio_rounds_results(rounds));
	json_object_object_add(doc, "comparisons",
			       rio_rounds_comparisons(rounds));
	if (m->in->rounds[0].baselines)
		json_object_object_add(doc, "baselines",
				       rio_rounds_baselines(rounds));
	snprintf(caveat, sizeof(caveat), "median of %d rounds%s%s",
		 m->in->nrounds, m->caveat ? "; " : "", m->caveat ?: "");
	links = rio_check_links_json(m->links);
	if (!links || rio_derive_verdicts(doc, caveat)) {
		json_object_put(links);
		json_object_put(checks);
		return -ENOMEM;
	}
	json_object_object_add(doc, "links", links);
	json_object_object_add(doc, "checks", checks);
	for (k = 0; k < (int)rio_json_len(checks); k++)
		*flagged += !strcmp(
			rio_json_str(json_object_array_get_idx(checks, k),
				     "status"),
			"flagged");
	return 0;
}

/* Every distinct NFS mount any round saw. */
static json_object *mounts_seen(const struct rio_result_in *in)
{
	json_object *all;
	int k;

	if (in->nrounds <= 1)
		return json_object_get(in->mounts_during_run);
	all = json_object_new_array();
	for (k = 0; k < in->nrounds; k++)
		add_unique(all, in->rounds[k].mounts_during_run);
	return all;
}

static void free_outputs(struct rio_fio_output **fios, int n)
{
	int k;

	for (k = 0; fios && k < n; k++)
		rio_fio_output_delete(&fios[k]);
	free(fios);
}

/* The fio output of each round (one: the run's), read once. */
static struct rio_fio_output **read_outputs(const struct rio_result_in *in,
					    const struct rio_hostmap *map,
					    int n)
{
	struct rio_fio_output **fios = calloc(n, sizeof(*fios));
	int k;

	for (k = 0; fios && k < n; k++)
		if (rio_fio_output_read(
			    n > 1 ? in->rounds[k].fio_output : in->fio_output,
			    rio_json_len(in->job_files), map, &fios[k])) {
			free_outputs(fios, k);
			return NULL;
		}
	return fios;
}

/* This host and its environment, with the warnings about them and about
 * what the run recorded; -ENOMEM (nothing kept). */
static int describe(const struct rio_result_in *in, json_object *warnings,
		    json_object **host, json_object **env)
{
	*host = rio_host_describe(in->root);
	*env = rio_envstatus_gather(in->root, warnings);
	if (*host && in->numa)
		json_object_object_add(*host, "numa",
				       json_object_get(in->numa));
	if (!*host || !*env || rio_host_warn_cpu(*host, warnings)) {
		json_object_put(*host);
		json_object_put(*env);
		*host = *env = NULL;
		return -ENOMEM;
	}
	json_object_object_add(*env, "nfs_mounts_during_run", mounts_seen(in));
	warn_unrecorded(in, warnings);
	remote_warnings(in->remote_hosts, warnings);
	return 0;
}

int rio_result_build(const struct rio_result_in *in, json_object **out,
		     int *flagged)
{
	json_object *doc, *host = NULL, *env = NULL, *warnings;
	int nout = in->nrounds > 1 ? in->nrounds : 1;
	struct rio_fio_output **fios = NULL;
	struct rio_links links = { NULL, 0, 0 };
	struct rio_hostmap *map = NULL;
	char created[32];
	time_t now = time(NULL);
	struct measure m;
	struct tm tm;
	int err;

	warnings = json_object_new_array();
	err = describe(in, warnings, &host, &env);
	if (!err)
		err = rio_check_links(&in->link, rio_json_get(env, "status"),
				      &links);
	if (!err)
		map = hostmap_build(in, rio_json_str(host, "hostname"));
	if (map)
		fios = read_outputs(in, map, nout);
	if (err || !fios) {
		rio_check_links_free(&links);
		json_object_put(warnings);
		json_object_put(host);
		json_object_put(env);
		rio_hostmap_delete(&map);
		return err ? err : -ENOMEM;
	}
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
	m = (struct measure){ .in = in,
			      .r = in,
			      .fios = fios,
			      .fio = fios[0],
			      .map = map,
			      .links = &links,
			      .host = host,
			      .env = env,
			      .warnings = warnings,
			      .caveat = rio_result_caveat(warnings),
			      .pre = "" };
	err = in->nrounds > 1 ? add_rounds(doc, &m, flagged)
			      : add_measurements(doc, &m, flagged);
	rio_check_links_free(&links);
	json_object_object_add(doc, "warnings", warnings);
	free_outputs(fios, nout);
	rio_hostmap_delete(&map);
	if (err) {
		json_object_put(doc);
		return err;
	}
	*out = doc;
	return 0;
}

/* A copy of obj whose member key is val instead (a new reference). */
static json_object *with_member(json_object *obj, const char *key,
				json_object *val)
{
	json_object *o = json_object_new_object();

	json_object_object_foreach(obj, k, v)
	{
		if (strcmp(k, key))
			json_object_object_add(o, k, json_object_get(v));
	}
	json_object_object_add(o, key, json_object_get(val));
	return o;
}

json_object *rio_result_fio_output(json_object *doc)
{
	json_object *o = rio_json_get(rio_json_get(doc, "fio"), "output");

	return o ? o : doc;
}

int rio_result_is_bare_fio(json_object *doc)
{
	return !rio_json_get(doc, "fio");
}

json_object *rio_result_round_fio_output(json_object *doc, int k)
{
	json_object *rounds = rio_json_get(doc, "rounds");
	json_object *run = rio_json_len(rounds)
				   ? json_object_array_get_idx(rounds, k)
				   : (k ? NULL : doc);

	return rio_json_get(rio_json_get(run, "fio"), "output");
}

json_object *rio_result_fio_runs(json_object *doc)
{
	return rio_json_get(rio_json_get(doc, "fio"), "runs");
}

json_object *rio_result_env_status(json_object *doc)
{
	return rio_json_get(rio_json_get(doc, "environment"), "status");
}

int rio_result_nrounds(json_object *doc)
{
	return (int)rio_json_len(rio_json_get(doc, "rounds"));
}

json_object *rio_result_round_view(json_object *doc, int i)
{
	static const char *const own[] = { "results", "comparisons", "cpu",
					   NULL };
	json_object *rounds = rio_json_get(doc, "rounds"), *r, *v, *f, *env;
	int k;

	if (!rio_json_len(rounds))
		return i ? NULL : json_object_get(doc);
	if (i < 0 || i >= (int)rio_json_len(rounds))
		return NULL;
	r = json_object_array_get_idx(rounds, i);
	f = json_object_get(rio_json_get(doc, "fio"));
	json_object_object_foreach(rio_json_get(r, "fio"), key, val)
	{
		v = with_member(f, key, val);
		json_object_put(f);
		f = v;
	}
	env = with_member(rio_json_get(doc, "environment"),
			  "nfs_mounts_during_run",
			  rio_json_get(r, "nfs_mounts_during_run"));
	v = with_member(doc, "fio", f);
	json_object_put(f);
	f = with_member(v, "environment", env);
	json_object_put(v);
	json_object_put(env);
	json_object_object_del(f, "rounds");
	for (k = 0; own[k]; k++) {
		json_object_object_del(f, own[k]);
		if (rio_json_get(r, own[k]))
			json_object_object_add(
				f, own[k],
				json_object_get(rio_json_get(r, own[k])));
	}
	return f;
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
		fio_name = rio_hostmap_fio_name(rio_json_str(h, "client"));
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
		rc_err("result %s: does not match results-schema/result.schema.json %s; nothing written (this is a bug in rdmaio: please report it with the job files)",
		       path, err);
		return ret;
	}
	ret = rc_file_replace(path, text, strlen(text), 0644);
	if (ret)
		rc_err("result %s: cannot write it: %s (check the folder exists and is writable, or pass -o)",
		       path, strerror(-ret));
	return ret;
}

int rio_result_load(const char *path, json_object **doc)
{
	char err[1024], *shown;
	int ret;

	ret = rio_json_load(path, "result", doc);
	if (ret)
		return ret;
	ret = rio_schema_validate_result(*doc, err, sizeof(err));
	if (ret) {
		/* The reason may quote the file, which may hold anything. */
		shown = rio_text_clean(err, 0);
		rc_err("result %s: not an rdmaio result: %s", path,
		       shown ? shown : err);
		free(shown);
		json_object_put(*doc);
		*doc = NULL;
	}
	return ret;
}
