// SPDX-License-Identifier: MIT
/*
 * rdmaio run: fio (or its JSON imported) on the hosts of the command line,
 * watched while it runs, into a result that is checked, written and shown.
 */
#include <errno.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "args.h"
#include "cmd.h"
#include "base/jsonread.h"
#include "base/strv.h"
#include "base/text.h"
#include "rc_log.h"
#include "rc_spawn.h"
#include "rc_status.h"
#include "read/report.h"
#include "result/fiooutput.h"
#include "result/outfile.h"
#include "result/result.h"
#include "result/resultdoc.h"
#include "run/baseline.h"
#include "run/fiohosts.h"
#include "run/fiorun.h"
#include "run/fioserver.h"
#include "run/jobfile.h"
#include "run/jobpath.h"
#include "run/numa.h"
#include "run/remote.h"
#include "run/runwatch.h"

/* --remote-env's limit per host when --timeout is not given. */
#define REMOTE_ENV_TIMEOUT_S 120

static char *default_output(const char *first)
{
	char *copy = strdup(first), *base, *dot, stamp[32], *path = NULL;
	time_t now = time(NULL);
	struct tm tm;

	if (!copy)
		return NULL;
	base = basename(copy);
	dot = strrchr(base, '.');
	if (dot && dot != base)
		*dot = '\0';
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	if (mkdir("results", 0755) && errno != EEXIST)
		rc_call_err(errno, "mkdir(results, 0755)");
	if (asprintf(&path, "results/%s-%s.json", base, stamp) < 0)
		path = NULL;
	free(copy);
	return path;
}

/* Every job file once, in the order first given: the result's job_files. */
static int all_jobs(const struct rio_args *a, char ***jobs, int *n)
{
	int i, j, k;

	*jobs = NULL;
	*n = 0;
	for (i = -1; i < a->nclients; i++) {
		char **v = i < 0 ? a->pos : a->clients[i].jobs;
		int nv = i < 0 ? a->npos : a->clients[i].njobs;

		for (j = 0; j < nv; j++) {
			for (k = 0; k < *n && strcmp((*jobs)[k], v[j]); k++)
				;
			if (k == *n && rio_strv_push(jobs, n, v[j]))
				return -ENOMEM;
		}
	}
	return 0;
}

static int usage_error(const char *msg)
{
	rc_err("run: %s", msg);
	return 2;
}

/* The run's fio hosts, from --client or --server-host/--client-host.
 * Returns 0, 1 (failed, said why) or 2 (usage). */
static int plan_hosts(const struct rio_args *a, struct rio_fio_host **hosts,
		      int *n)
{
	int i, ret = 0;

	*hosts = NULL;
	*n = 0;
	if (!a->server_host != !a->nclient_hosts)
		return usage_error(
			"--server-host and --client-host go together: give both (HOST 'local' is this host)");
	if (a->server_host && a->nclients)
		return usage_error(
			"--client cannot join --server-host/--client-host: use one or the other");
	if (a->fio_json && (a->nclients || a->server_host))
		return usage_error(
			"--fio-json imports a finished run; --client and --server-host/--client-host cannot apply to it");
	if (a->server_host) {
		ret = rio_fiohosts_distinct(a->server_host, a->client_hosts,
					    a->nclient_hosts);
		if (ret)
			return ret == -EINVAL ? 2 : 1;
	}
	if (a->server_host)
		return rio_fiohosts_split(a->server_host, a->client_hosts,
					  a->nclient_hosts, a->pos, a->npos,
					  hosts, n)
			       ? 1
			       : 0;
	for (i = 0; i < a->nclients && !ret; i++) {
		const struct rio_client_arg *c = &a->clients[i];

		if (!c->njobs && !a->npos) {
			rc_err("run: --client %s: no job file for it: put the job files it runs after it, or before the first --client (they then run on every --client host without files of its own)",
			       c->host);
			ret = 2;
			break;
		}
		ret = rio_fiohosts_add(hosts, n, c->host,
				       c->njobs ? c->jobs : a->pos,
				       c->njobs ? c->njobs : a->npos)
			      ? 1
			      : 0;
	}
	if (ret) {
		rio_fiohosts_free(*hosts, *n);
		*hosts = NULL;
		*n = 0;
	}
	return ret;
}

/*
 * Each `local` host runs through a fio --server of ours on a private socket,
 * one per host: fio's client merges what it sends to one address.
 */
static int start_local(const struct rio_args *a, struct rio_fio_host *hosts,
		       int n, struct rio_fioserver **srv)
{
	char *client;
	int i;

	for (i = 0; i < n; i++) {
		if (!hosts[i].local)
			continue;
		rc_spawn_defer_signals();
		if (rio_fioserver_start(a->fio, &srv[i]))
			return -EIO;
		client = strdup(rio_fioserver_client(srv[i]));
		if (!client)
			return -ENOMEM;
		free(hosts[i].client);
		hosts[i].client = client;
	}
	return 0;
}

static void stop_local(struct rio_fioserver **srv, int n)
{
	while (srv && n-- > 0)
		rio_fioserver_stop(&srv[n]);
}

static int remote_hosts(const struct rio_args *a,
			const struct rio_fio_host *hosts, int n,
			json_object **remote)
{
	int i, remotes = 0;

	*remote = NULL;
	for (i = 0; i < n; i++)
		remotes += !hosts[i].local;
	if (!a->remote_env)
		return 0;
	if (!remotes) {
		rc_err("run: --remote-env records the environment of hosts other than this one; give --client HOST or a --server-host/--client-host that is not 'local' (this host's own is always recorded)");
		return 2;
	}
	/* Before fio: a broken remote command fails in seconds, not after. */
	if (rio_remote_gather(a->remote_env, hosts, n,
			      a->timeout_s ? a->timeout_s
					   : REMOTE_ENV_TIMEOUT_S,
			      remote)) {
		rc_err("run: no result written; fix --remote-env or drop it (the result then warns that remote environments are not recorded)");
		return 1;
	}
	return 0;
}

/* A --baseline command that hangs is stopped after this long. */
#define BASELINE_TIMEOUT_S 600

/*
 * Every --baseline once, after the round's fio and under its watch, so
 * that the hosts' CPU over a copy is read as over a job. A failed one is
 * recorded and the others still run. A Ctrl-C waits for the copy's
 * removal (a copy may be as large as a job's file), then stops the run.
 */
static int run_baselines(const struct rio_args *a, struct rio_result_in *in,
			 struct rio_runwatch *watch)
{
	int i, ret = 0;

	rc_spawn_defer_signals();
	in->baselines = json_object_new_array();
	for (i = 0; i < a->nbaselines && ret != -ENOMEM; i++) {
		if (rc_spawn_signal_pending())
			return -EINTR;
		fprintf(stderr, "rdmaio: baseline %s\n",
			rio_baseline_name(a->baselines[i]));
		ret = rio_baseline_run(a->baselines[i],
				       a->timeout_s ? a->timeout_s
						    : BASELINE_TIMEOUT_S,
				       rio_runwatch_tick, watch, in->baselines);
	}
	if (rc_spawn_signal_pending())
		return -EINTR;
	return ret == -ENOMEM ? ret : 0;
}

/* Runs fio (or imports its JSON) while watching the hosts. */
static int run_fio(const struct rio_args *a, const struct rio_fio_host *hosts,
		   int n, char **jf, int njf, struct rio_result_in *in,
		   struct rio_runwatch *watch)
{
	struct rio_fio_run r = { .fio = a->fio,
				 .jobs = jf,
				 .njobs = njf,
				 .hosts = hosts,
				 .nhosts = n,
				 .timeout_s = a->timeout_s,
				 .tick = rio_runwatch_tick,
				 .edge = rio_runwatch_edge,
				 .tick_arg = watch };
	json_object *output = NULL;
	int ret;

	if (a->fio_json) {
		ret = rio_json_load(a->fio_json, "fio JSON", &output);
		if (!ret && !rio_fio_output_count(output)) {
			rc_err("fio JSON %s: no jobs[] or client_stats[] entries (not fio --output-format=json output)",
			       a->fio_json);
			ret = -EINVAL;
		}
		in->fio_output = output;
		return ret;
	}
	ret = rio_fio_run(&r, &in->fio_runs, &in->fio_exit_status,
			  &in->fio_output);
	if (!ret && a->nbaselines)
		ret = run_baselines(a, in, watch);
	if (rio_runwatch_finish(watch, in) && !ret)
		ret = -ENOMEM;
	return ret;
}

/* What a run holds until it ends; run_free() lets go of all of it. */
struct run {
	struct rio_result_in in;
	json_object *jobs, *doc;
	struct rio_fioserver **srv;
	struct rio_fio_host *hosts;
	struct rio_runwatch *watch;
	/* --repeat N > 1: each round's fio run and watch, as in and watch */
	struct rio_result_in *rounds;
	struct rio_runwatch **watches;
	int nhosts, njf, nrounds;
	char *out, **jf;
};

/*
 * Binds this process to the RDMA device's NUMA node before any fio starts
 * here: fio and its jobs inherit the CPUs it may run on. A bind that fails
 * is only noted: the numa check says so.
 */
static int place_numa(const struct rio_args *a, struct run *r)
{
	struct rio_numa n;
	json_object *st;

	if (a->fio_json)
		return 0;
	st = rc_status_collect(NULL);
	if (!st)
		return -ENOMEM;
	rio_numa_plan(st, !a->no_numa, &n);
	json_object_put(st);
	rio_numa_place(&n);
	r->in.numa = rio_numa_json(&n);
	return r->in.numa ? 0 : -ENOMEM;
}

/*
 * Whatever can fail before fio starts fails here: the output's folder, the
 * job files, the local fio servers, the remote hosts' environments.
 * Returns 0, 1 (failed, said why) or 2 (usage).
 */
static int run_prepare(const struct rio_args *a, struct run *r)
{
	int ret;

	if (a->fio_json && a->remote_cpu)
		return usage_error(
			"--remote-cpu watches a run rdmaio starts; --fio-json imports a finished one");
	if (a->fio_json && a->nbaselines)
		return usage_error(
			"--baseline runs a command beside fio; --fio-json imports a finished run");
	if (a->fio_json && a->repeat > 1)
		return usage_error(
			"--repeat runs fio several times; --fio-json imports one finished run (drop --repeat, or run the jobs with it)");
	if (all_jobs(a, &r->jf, &r->njf))
		return 1;
	r->out = a->output ? strdup(a->output)
			   : default_output(r->njf ? r->jf[0] : a->fio_json);
	r->srv = calloc(r->nhosts + 1, sizeof(*r->srv));
	/* Fails before fio runs, not after, when the result cannot be
	 * written, or would replace what is not a result. */
	if (!r->out || !r->srv ||
	    rio_outfile_check(r->out, "rdmaio-result/", "an rdmaio result",
			      a->force, r->jf, r->njf) ||
	    rio_jobfiles_record(r->jf, r->njf, &r->jobs) ||
	    (!a->fio_json && rio_jobfiles_check_env(r->jf, r->njf)) ||
	    place_numa(a, r) || start_local(a, r->hosts, r->nhosts, r->srv))
		return 1;
	ret = remote_hosts(a, r->hosts, r->nhosts, &r->in.remote_hosts);
	if (ret || a->fio_json)
		return ret;
	ret = rio_runwatch_start(a->remote_cpu, r->hosts, r->nhosts, &r->watch);
	return ret == -EINVAL ? 2 : ret ? 1 : 0;
}

/*
 * --repeat N: every job file N times, one round after the other, each round
 * with a watch of its own so that the CPU windows are that round's. The
 * first round's watch is r->watch, started before anything ran.
 */
static int run_rounds(const struct rio_args *a, struct run *r)
{
	const struct rio_fio_host *hosts = r->nhosts ? r->hosts : NULL;
	int k, ret = 0;

	r->rounds = calloc(a->repeat, sizeof(*r->rounds));
	r->watches = calloc(a->repeat, sizeof(*r->watches));
	if (!r->rounds || !r->watches)
		return -ENOMEM;
	for (k = 0; k < (int)a->repeat && !ret; k++) {
		/* A Ctrl-C between rounds stops here: no result is written. */
		if (rc_spawn_signal_pending())
			return -EINTR;
		if (k && rio_runwatch_start(a->remote_cpu, r->hosts, r->nhosts,
					    &r->watches[k]))
			return -EIO;
		fprintf(stderr, "rdmaio: round %d of %u\n", k + 1, a->repeat);
		r->nrounds = k + 1;
		ret = run_fio(a, hosts, r->nhosts, r->jf, r->njf, &r->rounds[k],
			      k ? r->watches[k] : r->watch);
	}
	r->in.rounds = r->rounds;
	r->in.nrounds = r->nrounds;
	return ret;
}

/* Whether a --baseline failed in some round (its record has an error). */
static bool baselines_failed(json_object *doc)
{
	const struct rio_resultdoc *round;
	struct rio_resultdoc *rd;
	bool failed = false;
	size_t i;
	int k;

	/* Out of memory: which baselines failed is not known, and the run
	 * does not say it succeeded. */
	if (rio_resultdoc_read(doc, &rd))
		return true;
	for (k = 0; (round = rio_resultdoc_round(rd, k)); k++)
		for (i = 0; i < rio_resultdoc_nbaselines(round); i++)
			failed |=
				rio_resultdoc_baseline(round, i)->error != NULL;
	rio_resultdoc_delete(&rd);
	return failed;
}

/* Whether a line-rate check (--expect-link-pct) found a group below it: 1,
 * 0, or -ENOMEM after saying so. */
static int line_rate_failed(json_object *doc)
{
	const struct rio_res_check *c;
	struct rio_resultdoc *rd;
	int failed = 0;
	size_t i;

	if (rio_resultdoc_read(doc, &rd)) {
		rc_call_err(ENOMEM, "%s", "the result's line-rate checks");
		return -ENOMEM;
	}
	for (i = 0; i < rio_resultdoc_nchecks(rd); i++) {
		c = rio_resultdoc_check(rd, i);
		failed |= !strcmp(c->name, "line-rate") &&
			  !strcmp(c->status, "flagged");
	}
	rio_resultdoc_delete(&rd);
	return failed;
}

/* Runs fio, then builds, validates, writes and reports the result. */
static int run_execute(const struct rio_args *a, struct run *r)
{
	struct rio_result_in *in = &r->in;
	int ret, flagged = 0;

	in->fio = a->fio;
	in->job_files = r->jobs;
	in->imported_from = a->fio_json;
	in->hosts = r->hosts;
	in->nhosts = r->nhosts;
	in->link = a->link;
	if (a->repeat > 1)
		ret = run_rounds(a, r);
	else
		ret = run_fio(a, r->nhosts ? r->hosts : NULL, r->nhosts, r->jf,
			      r->njf, in, r->watch);
	stop_local(r->srv, r->nhosts);
	if (!ret && (ret = rio_result_build(in, &r->doc, &flagged)) == -ENOMEM)
		rc_call_err(ENOMEM, "result(%s)", r->out);
	if (!ret)
		ret = rio_result_write(r->doc, r->out);
	/* What fio and the hosts said is shown, never obeyed: the result
	 * keeps it as it was; the table, only what a terminal shows as is. */
	if (!ret && rio_text_clean_json(r->doc, RIO_TEXT_MARKDOWN) < 0)
		ret = -ENOMEM;
	if (!ret && (ret = rio_report_table(r->doc, stdout)))
		rc_call_err(-ret, "report(%s)", r->out);
	if (!ret)
		printf("\nresult: %s\n", r->out);
	if (ret || baselines_failed(r->doc))
		return 1;
	/* The line rate asked for and not reached: a gate, as check's. */
	ret = a->link.expect_pct > 0 ? line_rate_failed(r->doc) : 0;
	return ret < 0 ? 1 : ret ? 3 : 0;
}

static void run_free(struct run *r)
{
	json_object_put(r->in.numa);
	stop_local(r->srv, r->nhosts);
	free(r->srv);
	/* A Ctrl-C held back while our fio servers ran ends us once they stop. */
	rc_spawn_raise_deferred();
	json_object_put(r->in.mounts_during_run);
	json_object_put(r->in.remote_hosts);
	json_object_put(r->in.fio_output);
	json_object_put(r->in.fio_runs);
	json_object_put(r->in.baselines);
	json_object_put(r->doc);
	json_object_put(r->jobs);
	rio_fiohosts_free(r->hosts, r->nhosts);
	rio_runwatch_delete(&r->watch);
	while (r->nrounds--) {
		json_object_put(r->rounds[r->nrounds].mounts_during_run);
		json_object_put(r->rounds[r->nrounds].fio_output);
		json_object_put(r->rounds[r->nrounds].fio_runs);
		json_object_put(r->rounds[r->nrounds].baselines);
		rio_runwatch_delete(&r->watches[r->nrounds]);
	}
	free(r->rounds);
	free(r->watches);
	free(r->jf);
	free(r->out);
}

/* Job names become paths: an installed job file goes by its name. */
static int resolve_jobs(struct rio_args *a)
{
	int i, ret;

	ret = rio_jobpath_resolve_all(a->pos, a->npos, &a->resolved,
				      &a->nresolved);
	for (i = 0; !ret && i < a->nclients; i++)
		ret = rio_jobpath_resolve_all(a->clients[i].jobs,
					      a->clients[i].njobs, &a->resolved,
					      &a->nresolved);
	/* A name that means two files is the command line's fault. */
	return ret == -EEXIST ? 2 : ret ? 1 : 0;
}

int rio_cmd_run(struct rio_args *a)
{
	struct run r = {
		.in = { .argc = a->argc, .argv = a->argv, .root = "" },
	};
	int ret;

	if (!a->npos && !a->nclients && !a->fio_json)
		return usage_error("no job file given (rdmaio run JOB.fio...)");
	ret = resolve_jobs(a);
	if (ret)
		return ret;
	ret = plan_hosts(a, &r.hosts, &r.nhosts);
	if (ret)
		return ret;
	ret = run_prepare(a, &r);
	/* A Ctrl-C while our fio servers started or remote hosts answered. */
	if (!ret && !rc_spawn_signal_pending())
		ret = run_execute(a, &r);
	run_free(&r);
	return ret;
}
