// SPDX-License-Identifier: MIT
/*
 * rdmaio: run fio jobs into self-describing, self-checking result files,
 * and report on or compare them. See tools/README.md.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "read/chart.h"
#include "result/check.h"
#include "read/compare.h"
#include "run/cpustat.h"
#include "read/csvout.h"
#include "result/envdoc.h"
#include "rc_file.h"
#include "result/fioentry.h"
#include "run/fiorun.h"
#include "run/fiohosts.h"
#include "run/fioserver.h"
#include "result/hostmap.h"
#include "run/jobfile.h"
#include "run/jobpath.h"
#include "run/baseline.h"
#include "base/jutil.h"
#include "result/outfile.h"
#include "rc_log.h"
#include "run/remote.h"
#include "read/report.h"
#include "result/result.h"
#include "run/runwatch.h"
#include "rc_spawn.h"
#include "base/strv.h"
#include "base/text.h"

#define EXIT_FLAGGED 3
/* --remote-env's limit per host when --timeout is not given. */
#define REMOTE_ENV_TIMEOUT_S 120

/* One --client HOST and the job files that follow it. */
struct client_arg {
	const char *host;
	char **jobs;
	int njobs;
};

struct args {
	int argc; /* rdmaio's own command line, for the result */
	char **argv;
	const char *output, *fio, *fio_json, *plot, *remote_env, *remote_cpu;
	const char *server_host, *client_host;
	struct client_arg *clients;
	int nclients;
	struct rio_baseline **baselines; /* --baseline, in the order given */
	int nbaselines;
	unsigned timeout_s, repeat;
	double noise;
	bool csv, gbit, force;
	unsigned interval_ms, max_s; /* cpu-watch */
	struct rio_link_opt link;
	char **pos;
	int npos;
	char **resolved; /* job paths rio_jobpath_resolve_all() made */
	int nresolved;
};

static int number(const char *opt, const char *s, double min, double max,
		  double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (errno || end == s || *end || *v < min || *v > max) {
		rc_err("option --%s: '%s' is not a number in %g..%g", opt, s,
		       min, max);
		return -EINVAL;
	}
	return 0;
}

#define BASELINES_MAX 8

static int add_baseline(struct args *a, const char *spec)
{
	struct rio_baseline **nb, *b;
	int i, ret;

	if (a->nbaselines == BASELINES_MAX) {
		rc_err("run: more than %d --baseline commands", BASELINES_MAX);
		return -EINVAL;
	}
	ret = rio_baseline_parse(spec, &b);
	if (ret)
		return ret;
	for (i = 0; i < a->nbaselines; i++)
		if (!strcmp(rio_baseline_name(a->baselines[i]),
			    rio_baseline_name(b))) {
			rc_err("run: two --baseline commands are named %s: give each its own name",
			       rio_baseline_name(b));
			rio_baseline_delete(&b);
			return -EINVAL;
		}
	nb = realloc(a->baselines, (a->nbaselines + 1) * sizeof(*nb));
	if (!nb) {
		rio_baseline_delete(&b);
		return -ENOMEM;
	}
	a->baselines = nb;
	nb[a->nbaselines++] = b;
	return 0;
}

static int add_client(struct args *a, const char *host)
{
	struct client_arg *nc =
		realloc(a->clients, (a->nclients + 1) * sizeof(*nc));

	if (!nc)
		return -ENOMEM;
	a->clients = nc;
	nc[a->nclients++] = (struct client_arg){ .host = host };
	return 0;
}

/* A job file: the last --client's when one came before it, as in fio. */
static int add_positional(struct args *a, char *arg)
{
	struct client_arg *c =
		a->nclients ? &a->clients[a->nclients - 1] : NULL;

	return c ? rio_strv_push(&c->jobs, &c->njobs, arg)
		 : rio_strv_push(&a->pos, &a->npos, arg);
}

static void args_free(struct args *a)
{
	while (a->nclients)
		free(a->clients[--a->nclients].jobs);
	while (a->nbaselines)
		rio_baseline_delete(&a->baselines[--a->nbaselines]);
	free(a->baselines);
	free(a->clients);
	free(a->pos);
	rio_jobpath_free(a->resolved, a->nresolved);
}

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
static int all_jobs(const struct args *a, char ***jobs, int *n)
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
static int plan_hosts(const struct args *a, struct rio_fio_host **hosts, int *n)
{
	int i, ret = 0;

	*hosts = NULL;
	*n = 0;
	if (!a->server_host != !a->client_host)
		return usage_error(
			"--server-host and --client-host go together: give both (HOST 'local' is this host)");
	if (a->server_host && a->nclients)
		return usage_error(
			"--client cannot join --server-host/--client-host: use one or the other");
	if (a->fio_json && (a->nclients || a->server_host))
		return usage_error(
			"--fio-json imports a finished run; --client and --server-host/--client-host cannot apply to it");
	if (a->server_host)
		return rio_fiohosts_split(a->server_host, a->client_host,
					  a->pos, a->npos, hosts, n)
			       ? 1
			       : 0;
	for (i = 0; i < a->nclients && !ret; i++) {
		const struct client_arg *c = &a->clients[i];

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
static int start_local(const struct args *a, struct rio_fio_host *hosts, int n,
		       struct rio_fioserver **srv)
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

static int remote_hosts(const struct args *a, const struct rio_fio_host *hosts,
			int n, json_object **remote)
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
static int run_baselines(const struct args *a, struct rio_result_in *in,
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
static int run_fio(const struct args *a, const struct rio_fio_host *hosts,
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
				 .tick_arg = watch };
	json_object *output = NULL;
	int ret;

	if (a->fio_json) {
		ret = rio_json_load(a->fio_json, "fio JSON", &output);
		if (!ret && !rio_fio_entry_count(output)) {
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
	rio_runwatch_finish(watch, in);
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
 * Whatever can fail before fio starts fails here: the output's folder, the
 * job files, the local fio servers, the remote hosts' environments.
 * Returns 0, 1 (failed, said why) or 2 (usage).
 */
static int run_prepare(const struct args *a, struct run *r)
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
	    start_local(a, r->hosts, r->nhosts, r->srv))
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
static int run_rounds(const struct args *a, struct run *r)
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
	json_object *rounds = rio_json_get(doc, "rounds"), *b;
	size_t k, i, n = rounds ? rio_json_len(rounds) : 1;

	for (k = 0; k < n; k++) {
		b = rio_json_get(rounds ? json_object_array_get_idx(rounds, k)
					: doc,
				 "baselines");
		for (i = 0; i < rio_json_len(b); i++)
			if (rio_json_get(json_object_array_get_idx(b, i),
					 "error"))
				return true;
	}
	return false;
}

/* Runs fio, then builds, validates, writes and reports the result. */
static int run_execute(const struct args *a, struct run *r)
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
	if (!ret)
		ret = rio_result_build(in, &r->doc, &flagged);
	if (!ret)
		ret = rio_result_write(r->doc, r->out);
	/* What fio and the hosts said is shown, never obeyed: the result
	 * keeps it as it was; the table, only what a terminal shows as is. */
	if (!ret && rio_text_clean_json(r->doc, RIO_TEXT_MARKDOWN) < 0)
		ret = -ENOMEM;
	if (!ret) {
		rio_report_table(r->doc, stdout);
		printf("\nresult: %s\n", r->out);
	}
	return ret || baselines_failed(r->doc) ? 1 : 0;
}

static void run_free(struct run *r)
{
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
static int resolve_jobs(struct args *a)
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

static int cmd_run(struct args *a)
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

static void print_causes(FILE *f, json_object *check, const char *prefix)
{
	json_object *lc = rio_json_get(check, "likely_causes");
	size_t i;

	for (i = 0; i < rio_json_len(lc); i++)
		fprintf(f, "%s%s\n", prefix,
			json_object_get_string(
				json_object_array_get_idx(lc, i)));
}

/* A result's job files say whose [global] "global options" are. */
static json_object *result_output(json_object *doc)
{
	json_object *o = rio_json_get(rio_json_get(doc, "fio"), "output");

	return o ? rio_fio_attributable(
			   o, rio_json_len(rio_json_get(doc, "job_files")))
		 : json_object_get(doc);
}

static int is_fio_output(json_object *output)
{
	return rio_json_str(output, "fio version") &&
	       rio_fio_entry_count(output);
}

/* A fio JSON, or a result and the fio output in it (a new reference; NULL
 * for a result of rounds, whose every round has its own). */
static int check_input(const char *path, json_object **doc,
		       json_object **output)
{
	if (rio_json_load(path, "input", doc))
		return 1;
	if (rio_text_clean_json(*doc, 0) < 0) {
		json_object_put(*doc);
		return 1;
	}
	*output = rio_json_len(rio_json_get(*doc, "rounds"))
			  ? NULL
			  : result_output(*doc);
	if (!*output || is_fio_output(*output))
		return 0;
	rc_err("check: %s is neither fio JSON output (with jobs) nor an rdmaio result",
	       path);
	json_object_put(*output);
	json_object_put(*doc);
	return 1;
}

static void print_checks(json_object *checks, json_object *warnings)
{
	json_object *c;
	size_t i;

	for (i = 0; i < rio_json_len(checks); i++) {
		c = json_object_array_get_idx(checks, i);
		printf("%s %s: %s\n", rio_json_str(c, "status"),
		       rio_json_str(c, "name"), rio_json_str(c, "message"));
		print_causes(stdout, c, "  likely cause: ");
	}
	for (i = 0; i < rio_json_len(warnings); i++)
		printf("warning: %s\n",
		       rio_json_str(json_object_array_get_idx(warnings, i),
				    "message"));
}

/* Checks one run of fio (doc: a fio JSON, a result, a round of one) and
 * prints them; returns how many are flagged. */
static int check_run(json_object *doc, json_object *output,
		     const struct rio_hostmap *map, json_object *links)
{
	json_object *checks, *warnings = json_object_new_array();
	int flagged = 0;

	checks = rio_check_run(output,
			       rio_json_get(rio_json_get(doc, "fio"), "runs"),
			       map, links, warnings, &flagged);
	rio_check_nfs_transport(output, map,
				rio_json_get(rio_json_get(doc, "environment"),
					     "nfs_mounts_during_run"),
				checks, &flagged);
	if (rio_json_get(doc, "fio"))
		rio_result_check_loopback(doc, map, checks, &flagged);
	print_checks(checks, warnings);
	json_object_put(checks);
	json_object_put(warnings);
	return flagged;
}

/* Each round of a result of rounds, as the run of fio it was; -1 when one
 * holds no fio output. */
static int check_rounds(const char *path, json_object *doc,
			const struct rio_hostmap *map, json_object *links)
{
	int k, n = rio_json_len(rio_json_get(doc, "rounds")), flagged = 0;
	json_object *view, *output;

	for (k = 0; k < n && flagged >= 0; k++) {
		view = rio_result_round_view(doc, k);
		output = result_output(view);
		if (is_fio_output(output)) {
			printf("%sround %d of %d:\n", k ? "\n" : "", k + 1, n);
			flagged += check_run(view, output, map, links);
		} else {
			rc_err("check: %s: round %d holds no fio output with jobs (not an rdmaio result of rounds)",
			       path, k + 1);
			flagged = -1;
		}
		json_object_put(output);
		json_object_put(view);
	}
	return flagged;
}

static int cmd_check(struct args *a)
{
	json_object *doc, *output, *links;
	struct rio_hostmap *map = NULL;
	int flagged = 0, ret = 1;

	if (a->npos != 1) {
		rc_err("check: give one fio JSON or rdmaio result (rdmaio check FILE.json)");
		return 2;
	}
	if (check_input(a->pos[0], &doc, &output))
		return 1;
	links = rio_check_links(&a->link,
				rio_json_get(rio_json_get(doc, "environment"),
					     "status"));
	if (!links)
		ret = 2;
	else
		map = rio_result_hostmap(doc);
	if (map) {
		flagged = output ? check_run(doc, output, map, links)
				 : check_rounds(a->pos[0], doc, map, links);
		ret = flagged < 0 ? 1 : flagged ? EXIT_FLAGGED : 0;
	}
	rio_hostmap_delete(&map);
	json_object_put(links);
	json_object_put(output);
	json_object_put(doc);
	return ret;
}

/* The report of a copy whose names cannot add a table column: the chart
 * and the CSV keep them as they are. */
static int report_markdown(json_object *doc, const struct rio_report_opts *o)
{
	json_object *copy = NULL;
	int ret = json_object_deep_copy(doc, &copy, NULL) ? -ENOMEM : 0;

	if (!ret && rio_text_clean_json(copy, RIO_TEXT_MARKDOWN) < 0)
		ret = -ENOMEM;
	if (!ret)
		rio_report_write(copy, o, stdout);
	json_object_put(copy);
	return ret;
}

static int cmd_report(struct args *a)
{
	const struct rio_report_opts o = { .gbit = a->gbit };
	json_object *doc;
	int ret = 0;

	if (a->npos != 1) {
		rc_err("report: give one result file (rdmaio report RESULT.json)");
		return 2;
	}
	if (a->csv && a->gbit) {
		rc_err("report: --units applies to the Markdown report; --csv gives bytes/s and ns as they are (drop one)");
		return 2;
	}
	if (rio_result_load(a->pos[0], &doc))
		return 1;
	ret = rio_text_clean_json(doc, 0) < 0 ? -ENOMEM : 0;
	if (!ret && a->csv)
		ret = rio_csv_write(doc, stdout);
	else if (!ret)
		ret = report_markdown(doc, &o);
	if (ret)
		rc_call_err(-ret, "write(%s)", "stdout");
	if (!ret && a->plot) {
		ret = rio_chart_draw(doc, a->plot);
		if (!ret)
			/* The CSV stays one table for a spreadsheet. */
			fprintf(a->csv ? stderr : stdout, "\nchart: %s\n",
				a->plot);
	}
	json_object_put(doc);
	return ret ? 1 : 0;
}

static int cmd_cpu_watch(struct args *a)
{
	int ret;

	if (a->npos) {
		rc_err("cpu-watch: takes no file argument; '%s' is one",
		       a->pos[0]);
		return 2;
	}
	ret = rio_cpustat_stream("", a->interval_ms, a->max_s, stdout);
	if (ret)
		rc_call_err(-ret, "read(%s)", "/proc/stat");
	return ret ? 1 : 0;
}

/* 1 when a regression is beyond noise, so that a CI can gate on it; 2
 * when nothing could be compared. */
static int cmd_compare(struct args *a)
{
	json_object *old_doc = NULL, *new_doc = NULL;
	int ret = 2, n;

	if (a->npos != 2) {
		rc_err("compare: give two result files (rdmaio compare OLD.json NEW.json)");
		return 2;
	}
	if (!rio_result_load(a->pos[0], &old_doc) &&
	    !rio_result_load(a->pos[1], &new_doc) &&
	    rio_text_clean_json(old_doc, RIO_TEXT_MARKDOWN) >= 0 &&
	    rio_text_clean_json(new_doc, RIO_TEXT_MARKDOWN) >= 0) {
		n = rio_compare(old_doc, new_doc, a->noise, stdout);
		ret = n < 0 ? 2 : n > 0;
		if (n < 0)
			rc_err("compare: %s: nothing compared", strerror(-n));
	}
	json_object_put(old_doc);
	json_object_put(new_doc);
	return ret;
}

static int cmd_env(struct args *a)
{
	json_object *doc, *back = NULL;
	const char *text;
	int ret;

	if (a->npos) {
		rc_err("env: takes no file argument (rdmaio env [-o FILE]); '%s' is one",
		       a->pos[0]);
		return 2;
	}
	if (a->output &&
	    rio_outfile_check(a->output, "rdmaio-env/",
			      "an `rdmaio env` document", a->force, NULL, 0))
		return 1;
	doc = rio_envdoc_describe(a->fio, "");
	text = json_object_to_json_string_ext(
		doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			     JSON_C_TO_STRING_NOSLASHESCAPE);
	/* Check the very bytes a reader will get, as run does for results. */
	ret = text ? rio_envdoc_parse(text, strlen(text), "(this host's)",
				      &back)
		   : -ENOMEM;
	json_object_put(back);
	if (ret) {
		rc_err("env: the document does not validate; nothing written (this is a bug in rdmaio: please report it)");
	} else if (a->output) {
		ret = rc_file_replace(a->output, text, strlen(text), 0644);
		if (ret)
			rc_err("env: cannot write %s: %s (check the folder exists and is writable)",
			       a->output, strerror(-ret));
	} else if (printf("%s\n", text) < 0 || fflush(stdout)) {
		rc_call_err(errno, "write(%s)", "stdout");
		ret = -EIO;
	}
	json_object_put(doc);
	return ret ? 1 : 0;
}

/*
 * The command line. Each subcommand has a table of the options it takes;
 * getopt_long's tables are made from it, and an option it does not take is
 * refused, naming the subcommands that do. A new option is an OPT_ value, a
 * line in its subcommand's table, a case in set_option() and its usage.
 */
/* The values of options without a letter start past every letter. */
#define OPT_LONG 256

enum {
	OPT_CLIENT = OPT_LONG,
	OPT_FIO,
	OPT_FIO_JSON,
	OPT_TIMEOUT,
	OPT_GBPS,
	OPT_LL,
	OPT_MTU,
	OPT_PLOT,
	OPT_NOISE,
	OPT_REMOTE_ENV,
	OPT_SERVER_HOST,
	OPT_CLIENT_HOST,
	OPT_REMOTE_CPU,
	OPT_CSV,
	OPT_UNITS,
	OPT_INTERVAL,
	OPT_MAX_S,
	OPT_REPEAT,
	OPT_BASELINE,
	OPT_FORCE
};

/* An option: its long name, its letter or OPT_ value, its argument. */
struct opt {
	const char *name; /* without "--" */
	int val; /* its letter when it has a short form, else an OPT_ value */
	const char *arg; /* its argument as messages name it; NULL: none */
};

/* Options that go together; a subcommand takes one set or a few. */
struct opt_set {
	const char *group; /* plural, what messages call them; NULL: none */
	const struct opt *opts; /* ends with a NULL name */
};

static const struct opt run_opts[] = {
	{ "output", 'o', "FILE" },
	{ "client", OPT_CLIENT, "HOST" },
	{ "server-host", OPT_SERVER_HOST, "HOST" },
	{ "client-host", OPT_CLIENT_HOST, "HOST" },
	{ "fio", OPT_FIO, "PATH" },
	{ "fio-json", OPT_FIO_JSON, "FILE" },
	{ "timeout", OPT_TIMEOUT, "S" },
	{ "repeat", OPT_REPEAT, "N" },
	{ "remote-env", OPT_REMOTE_ENV, "CMD" },
	{ "remote-cpu", OPT_REMOTE_CPU, "CMD" },
	{ "baseline", OPT_BASELINE, "NAME=CMD" },
	{ "force", OPT_FORCE, NULL },
	{ NULL, 0, NULL },
};

static const struct opt link_opts[] = {
	{ "link-gbps", OPT_GBPS, "G" },
	{ "link-layer", OPT_LL, "ethernet|infiniband" },
	{ "mtu", OPT_MTU, "N" },
	{ NULL, 0, NULL },
};

static const struct opt report_opts[] = {
	{ "plot", OPT_PLOT, "FILE" },
	{ "csv", OPT_CSV, NULL },
	{ "units", OPT_UNITS, "binary|gbit" },
	{ NULL, 0, NULL },
};

static const struct opt cpu_watch_opts[] = {
	{ "interval-ms", OPT_INTERVAL, "MS" },
	{ "max-s", OPT_MAX_S, "S" },
	{ NULL, 0, NULL },
};

static const struct opt compare_opts[] = {
	{ "noise", OPT_NOISE, "PCT" },
	{ NULL, 0, NULL },
};

static const struct opt env_opts[] = {
	{ "output", 'o', "FILE" },
	{ "force", OPT_FORCE, NULL },
	{ "fio", OPT_FIO, "PATH" },
	{ NULL, 0, NULL },
};

/* Every subcommand takes it; messages leave it out of what one takes. */
static const struct opt help_opt = { "help", 'h', NULL };

#define LINK_OPTIONS "LINK options"

/* Lines after a synopsis's first are indented as "usage: " is long. */
static const char run_synopsis[] =
	"rdmaio run [-o RESULT.json [--force]] [--fio PATH] [--timeout S] [--repeat N] [LINK]\n"
	"                  [--remote-env CMD] [--remote-cpu CMD] [--baseline NAME=CMD]...\n"
	"                  JOB... [--client HOST JOB...]...\n"
	"       rdmaio run [...] --server-host HOST --client-host HOST JOB...\n"
	"       rdmaio run --fio-json FIO.json [-o RESULT.json] [LINK] [JOB...]\n"
	"JOB:   a job file, or the name of an installed one (verbs/bw, nfs/seq)\n";

static const char link_note[] =
	"LINK:  --link-gbps G [--link-layer ethernet|infiniband] [--mtu N]\n"
	"       states the link when it cannot be read from the RDMA devices\n";

static const char run_note[] =
	"--client HOST: fio's client/server mode (fio --server runs on HOST);\n"
	"       the job files after it run there, the others on every --client\n"
	"--server-host/--client-host HOST: every job file's sections with\n"
	"       `listen` (targets, TCP servers) run on the server host, the\n"
	"       others on the client host; HOST 'local' is this host, through a\n"
	"       fio --server that rdmaio starts on a private unix socket\n"
	"--remote-env CMD: before fio, run CMD once per host that is not this\n"
	"       one (split on blanks, no shell; %h in a word becomes HOST) and\n"
	"       record the `rdmaio env` document it prints, e.g. 'ssh -- %h rdmaio env'\n"
	"--remote-cpu CMD: while fio runs, run CMD per such host (as --remote-env)\n"
	"       and read the CPU counters it prints, e.g. 'ssh -- %h rdmaio cpu-watch'\n"
	"--repeat N: run the job files N times (1..100), one round after the\n"
	"       other; the result keeps every round and sums them up as medians\n"
	"--baseline NAME=CMD: after each round's fio, time CMD (split as\n"
	"       --remote-env) that copies a file to %o, a path rdmaio makes here:\n"
	"       the file's size over CMD's time is its bandwidth, shown beside the\n"
	"       sequential reads, e.g. 'scp=scp -q HOST:/srv/FILE %o'; a CMD that\n"
	"       fails leaves its error in the result and makes run exit 1\n";

static const char report_note[] =
	"report: Markdown (verdicts, setup, RDMA vs TCP, jobs, targets, checks);\n"
	"       --csv prints every job and pair as CSV instead; --units gbit gives\n"
	"       rates in Gb/s; --plot draws the chart (bandwidth, latency, CPU)\n";

static const char cpu_watch_note[] =
	"cpu-watch: print this host's CPU counters (/proc/stat) as one\n"
	"       rdmaio-cpu/1 JSON line every MS (100) until S seconds (3600)\n"
	"       pass or its reader goes away: what --remote-cpu runs remotely\n";

static const char compare_note[] =
	"compare: exit status 1 when a regression is beyond noise (judged from\n"
	"       the rounds of `run --repeat N`; by --noise alone with one round),\n"
	"       0 when none is, 2 on usage errors or a file that is no result\n";

static const char env_note[] =
	"env:   print this host's versions, host and environment as JSON\n"
	"       (schema rdmaio-env/1)\n";

#define NOTES_MAX 3
#define SETS_MAX 3

struct subcmd {
	const char *name;
	int (*fn)(struct args *a);
	struct opt_set sets[SETS_MAX]; /* { NULL, NULL } after the last */
	const char *synopsis;
	const char *notes[NOTES_MAX]; /* NULL after the last */
};

static const struct subcmd subcmds[] = {
	{ .name = "run",
	  .fn = cmd_run,
	  .sets = { { NULL, run_opts }, { LINK_OPTIONS, link_opts } },
	  .synopsis = run_synopsis,
	  .notes = { link_note, run_note } },
	{ .name = "check",
	  .fn = cmd_check,
	  .sets = { { LINK_OPTIONS, link_opts } },
	  .synopsis = "rdmaio check FIO_OR_RESULT.json [LINK]\n",
	  .notes = { link_note } },
	{ .name = "report",
	  .fn = cmd_report,
	  .sets = { { NULL, report_opts } },
	  .synopsis =
		  "rdmaio report RESULT.json [--plot FILE.svg|FILE.png] [--units binary|gbit] [--csv]\n",
	  .notes = { report_note } },
	{ .name = "compare",
	  .fn = cmd_compare,
	  .sets = { { NULL, compare_opts } },
	  .synopsis = "rdmaio compare OLD.json NEW.json [--noise PCT]\n",
	  .notes = { compare_note } },
	{ .name = "env",
	  .fn = cmd_env,
	  .sets = { { NULL, env_opts } },
	  .synopsis = "rdmaio env [-o FILE [--force]] [--fio PATH]\n",
	  .notes = { env_note } },
	{ .name = "cpu-watch",
	  .fn = cmd_cpu_watch,
	  .sets = { { NULL, cpu_watch_opts } },
	  .synopsis = "rdmaio cpu-watch [--interval-ms MS] [--max-s S]\n",
	  .notes = { cpu_watch_note } },
	{ .name = NULL },
};

#define SUBCMDS_MAX 8
#define OPTS_MAX 32
#define LABEL_MAX 64
#define TEXT_MAX 512

static void sub_usage(const struct subcmd *s, FILE *f)
{
	int i;

	fprintf(f, "usage: %s", s->synopsis);
	for (i = 0; i < NOTES_MAX && s->notes[i]; i++)
		fputs(s->notes[i], f);
}

/* Whether a subcommand before S has NOTE: the whole usage says it once. */
static bool note_said(const struct subcmd *s, const char *note)
{
	const struct subcmd *p;
	int i;

	for (p = subcmds; p < s; p++)
		for (i = 0; i < NOTES_MAX && p->notes[i]; i++)
			if (p->notes[i] == note)
				return true;
	return false;
}

static void usage(FILE *f)
{
	const struct subcmd *s;
	int i;

	for (s = subcmds; s->name; s++)
		fprintf(f, "%s%s", s == subcmds ? "usage: " : "       ",
			s->synopsis);
	for (s = subcmds; s->name; s++)
		for (i = 0; i < NOTES_MAX && s->notes[i]; i++)
			if (!note_said(s, s->notes[i]))
				fputs(s->notes[i], f);
}

/* Appends ITEMS to BUF as "a", "a and b", "a, b and c" (CONJ: " and "). */
static void join(char *buf, size_t len, const char *const items[], int n,
		 const char *conj)
{
	size_t used = strlen(buf);
	const char *sep;
	int i;

	for (i = 0; i < n && used < len; i++) {
		sep = i == 0 ? "" : i == n - 1 ? conj : ", ";
		used += snprintf(buf + used, len - used, "%s%s", sep, items[i]);
	}
}

/* An option as a subcommand takes it: with the group of its set. */
struct opt_ref {
	const struct opt *o; /* NULL after the last */
	const char *group;
};

static bool has_letter(const struct opt *o)
{
	return o->val < OPT_LONG;
}

static bool same_group(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/*
 * The options S takes, its sets' and --help, into R (OPTS_MAX + 1 long).
 * Returns how many, or -E2BIG after saying so (a bug).
 */
static int sub_opts(const struct subcmd *s, struct opt_ref *r)
{
	const struct opt_set *set;
	const struct opt *o;
	int n = 0;

	for (set = s->sets; set < s->sets + SETS_MAX && set->opts; set++)
		for (o = set->opts; o->name && n < OPTS_MAX; o++)
			r[n++] = (struct opt_ref){ o, set->group };
	if (n == OPTS_MAX) {
		rc_err("%s: more options than OPTS_MAX (%d) in tools/rdmaio.c: raise it (a bug)",
		       s->name, OPTS_MAX);
		return -E2BIG;
	}
	r[n++] = (struct opt_ref){ &help_opt, NULL };
	r[n] = (struct opt_ref){ NULL, NULL };
	return n;
}

/* "-o FILE", "--plot FILE", "--help": an option as messages name it. */
static void opt_label(const struct opt *o, char *buf, size_t len)
{
	int n = has_letter(o) ? snprintf(buf, len, "-%c", o->val)
			      : snprintf(buf, len, "--%s", o->name);

	if (o->arg && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - n, " %s", o->arg);
}

static const struct opt_ref *find_val(const struct opt_ref *r, int val)
{
	for (; r->o; r++)
		if (r->o->val == val)
			return r;
	return NULL;
}

/*
 * The options of R that --NAME can mean, by getopt_long's rule: the one of
 * that name, else each whose name begins with NAME. Returns how many; the
 * first MAX of them go to M.
 */
static int find_long(const struct opt_ref *r, const char *name,
		     const struct opt_ref **m, int max)
{
	size_t len = strlen(name);
	int n = 0;

	for (; r->o; r++) {
		if (strncmp(r->o->name, name, len))
			continue;
		if (!r->o->name[len]) {
			m[0] = r;
			return 1;
		}
		if (n < max)
			m[n] = r;
		n++;
	}
	return n;
}

/* The option of R that NAME ("-o", "--noise", "--nois") is, or NULL. */
static const struct opt_ref *find_opt(const struct opt_ref *r, const char *name)
{
	const struct opt_ref *m;

	if (name[1] != '-') {
		m = find_val(r, name[1]);
		return m && has_letter(m->o) ? m : NULL;
	}
	return find_long(r, name + 2, &m, 1) == 1 ? m : NULL;
}

/* What R takes, as "--plot FILE" or "-o FILE and --fio PATH". */
static void takes_text(const struct opt_ref *r, char *buf, size_t len)
{
	char labels[OPTS_MAX][LABEL_MAX];
	const char *items[OPTS_MAX];
	int i, n = 0;

	for (i = 0; r[i].o; i++) {
		if (r[i].o == &help_opt)
			continue;
		if (r[i].group) {
			/* A group is named once, where its first option is. */
			if (!i || !same_group(r[i - 1].group, r[i].group))
				items[n++] = r[i].group;
			continue;
		}
		opt_label(r[i].o, labels[n], LABEL_MAX);
		items[n] = labels[n];
		n++;
	}
	buf[0] = '\0';
	if (n)
		join(buf, len, items, n, " and ");
	else
		snprintf(buf, len, "no options");
}

/*
 * Which subcommands but SUB take the option NAME, as "LINK options belong
 * to run and check" or "-o belongs to run and env". False when none does.
 */
static bool owners_text(const struct subcmd *sub, const char *name, char *buf,
			size_t len)
{
	const char *names[SUBCMDS_MAX], *group = NULL, *full = NULL;
	struct opt_ref r[OPTS_MAX + 1];
	const struct opt_ref *f;
	const struct subcmd *s;
	int n = 0;

	for (s = subcmds; s->name && n < SUBCMDS_MAX; s++) {
		if (s == sub || sub_opts(s, r) < 0 || !(f = find_opt(r, name)))
			continue;
		if (!n) {
			group = f->group;
			full = f->o->name;
		}
		names[n++] = s->name;
	}
	if (!n)
		return false;
	if (group)
		snprintf(buf, len, "%s belong to ", group);
	else if (name[1] != '-')
		snprintf(buf, len, "%s belongs to ", name);
	else
		snprintf(buf, len, "--%s belongs to ", full);
	join(buf, len, names, n, " and ");
	return true;
}

/* An option SUB (taking R) does not take: another subcommand's, or none's. */
static void refuse_foreign(const struct subcmd *sub, const struct opt_ref *r,
			   const char *name)
{
	char takes[TEXT_MAX], owners[TEXT_MAX], which[TEXT_MAX] = "";
	char labels[OPTS_MAX][LABEL_MAX];
	const struct opt_ref *m[OPTS_MAX];
	const char *items[OPTS_MAX];
	int i, n = 0;

	if (name[1] == '-')
		n = find_long(r, name + 2, m, OPTS_MAX);
	if (n > 1) {
		/* getopt_long refuses an abbreviation of several options. */
		for (i = 0; i < n && i < OPTS_MAX; i++) {
			snprintf(labels[i], LABEL_MAX, "--%s", m[i]->o->name);
			items[i] = labels[i];
		}
		join(which, sizeof(which), items, i, " or ");
		rc_err("%s: %s is ambiguous (%s): spell the option out",
		       sub->name, name, which);
		return;
	}
	takes_text(r, takes, sizeof(takes));
	if (owners_text(sub, name, owners, sizeof(owners)))
		rc_err("%s: %s is not an option of %s (it takes %s; %s)",
		       sub->name, name, sub->name, takes, owners);
	else
		rc_err("%s: unknown option %s (%s takes %s)", sub->name, name,
		       sub->name, takes);
}

/* Says why getopt_long returned C ('?' or ':') for ARGV[optind - 1]. */
static void refuse(const struct subcmd *sub, const struct opt_ref *r, int c,
		   char *const argv[])
{
	const struct opt_ref *own = optopt ? find_val(r, optopt) : NULL;
	const char *arg = argv[optind - 1];
	char name[LABEL_MAX];

	if (own) {
		/* One of its own, with an argument missing or one too many. */
		opt_label(own->o, name, sizeof(name));
		if (c == ':')
			rc_err("%s: %s needs an argument (%s)", sub->name, arg,
			       name);
		else
			rc_err("%s: --%s takes no argument", sub->name,
			       own->o->name);
		return;
	}
	if (optopt)
		snprintf(name, sizeof(name), "-%c", optopt);
	else
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(arg, "="),
			 arg);
	refuse_foreign(sub, r, name);
}

/*
 * getopt_long's tables for R. Short options begin "-:": "-" hands operands
 * over in order, so that each job file knows the --client before it; ":"
 * tells a missing argument from an unknown option and keeps getopt_long
 * quiet, since refuse() says more.
 */
static void getopt_tables(const struct opt_ref *r, struct option *lo, char *so)
{
	*so++ = '-';
	*so++ = ':';
	for (; r->o; r++, lo++) {
		*lo = (struct option){ r->o->name,
				       r->o->arg ? required_argument
						 : no_argument,
				       NULL, r->o->val };
		if (has_letter(r->o)) {
			*so++ = (char)r->o->val;
			if (r->o->arg)
				*so++ = ':';
		}
	}
	*lo = (struct option){ NULL, 0, NULL, 0 };
	*so = '\0';
}

static int rounds(struct args *a, const char *arg)
{
	double v;

	if (number("repeat", arg, 1, 100, &v))
		return -EINVAL;
	if (v != (unsigned)v) {
		rc_err("option --repeat: '%s' is not a whole number of rounds (1..100)",
		       arg);
		return -EINVAL;
	}
	a->repeat = (unsigned)v;
	return 0;
}

static int units(struct args *a, const char *arg)
{
	if (strcmp(arg, "binary") && strcmp(arg, "gbit")) {
		rc_err("option --units: '%s' is neither 'binary' (KiB/s, MiB/s, GiB/s) nor 'gbit' (Gb/s, as perftest's --report_gbits)",
		       arg);
		return -EINVAL;
	}
	a->gbit = !strcmp(arg, "gbit");
	return 0;
}

/* Option C with its argument ARG; only SUB's own get this far. */
static int set_option(struct args *a, int c, char *arg)
{
	double v;

	switch (c) {
	case 'o':
		a->output = arg;
		break;
	case OPT_CLIENT:
		return rio_fiohosts_check("client", arg) ?: add_client(a, arg);
	case OPT_SERVER_HOST:
		a->server_host = arg;
		return rio_fiohosts_check("server-host", arg);
	case OPT_CLIENT_HOST:
		a->client_host = arg;
		return rio_fiohosts_check("client-host", arg);
	case OPT_FIO:
		a->fio = arg;
		break;
	case OPT_FIO_JSON:
		a->fio_json = arg;
		break;
	case OPT_TIMEOUT:
		if (number("timeout", arg, 1, 86400, &v))
			return -EINVAL;
		a->timeout_s = (unsigned)v;
		break;
	case OPT_GBPS:
		return number("link-gbps", arg, 0.001, 1e6, &a->link.rate_gbps);
	case OPT_LL:
		a->link.link_layer = arg;
		break;
	case OPT_MTU:
		if (number("mtu", arg, 256, 4096, &v))
			return -EINVAL;
		a->link.mtu = (int)v;
		break;
	case OPT_PLOT:
		a->plot = arg;
		break;
	case OPT_REMOTE_ENV:
		a->remote_env = arg;
		break;
	case OPT_NOISE:
		return number("noise", arg, 0, 1000, &a->noise);
	case OPT_REMOTE_CPU:
		a->remote_cpu = arg;
		break;
	case OPT_CSV:
		a->csv = true;
		break;
	case OPT_UNITS:
		return units(a, arg);
	case OPT_INTERVAL:
		if (number("interval-ms", arg, 10, 60000, &v))
			return -EINVAL;
		a->interval_ms = (unsigned)v;
		break;
	case OPT_MAX_S:
		if (number("max-s", arg, 1, 7 * 86400, &v))
			return -EINVAL;
		a->max_s = (unsigned)v;
		break;
	case OPT_REPEAT:
		return rounds(a, arg);
	case OPT_BASELINE:
		return add_baseline(a, arg);
	case OPT_FORCE:
		a->force = true;
		break;
	default:
		rc_err("option %d is in a table but not in set_option() (a bug in tools/rdmaio.c)",
		       c);
		return -EINVAL;
	}
	return 0;
}

/* False when rdmaio is to exit with *status instead: --help, a usage error. */
static bool parse(const struct subcmd *sub, int argc, char **argv,
		  struct args *a, int *status)
{
	struct opt_ref r[OPTS_MAX + 1];
	struct option lo[OPTS_MAX + 1];
	char so[2 * OPTS_MAX + 3];
	int c, ret;

	*status = 1;
	if (sub_opts(sub, r) < 0)
		return false;
	getopt_tables(r, lo, so);
	optind = 1;
	ret = 0;
	while (!ret && (c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		if (c == 'h') {
			sub_usage(sub, stdout);
			*status = 0;
			return false;
		}
		if (c == '?' || c == ':') {
			refuse(sub, r, c, argv);
			sub_usage(sub, stderr);
			*status = 2;
			return false;
		}
		ret = c == 1 ? add_positional(a, optarg)
			     : set_option(a, c, optarg);
	}
	while (!ret && optind < argc)
		ret = add_positional(a, argv[optind++]);
	if (ret == -ENOMEM)
		rc_err("%s: out of memory reading the command line", sub->name);
	else if (ret)
		*status = 2;
	return !ret;
}

int main(int argc, char **argv)
{
	struct args a = { .argc = argc,
			  .argv = argv,
			  .fio = "fio",
			  .noise = 5,
			  .repeat = 1,
			  .interval_ms = 100,
			  .max_s = 3600 };
	const char *cmd = argc > 1 ? argv[1] : NULL, *names[SUBCMDS_MAX];
	const struct subcmd *sub;
	char list[TEXT_MAX] = "";
	int n = 0, ret;

	rc_log_init("rdmaio");

	if (!cmd) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
		usage(stdout);
		return 0;
	}
	for (sub = subcmds; sub->name && strcmp(sub->name, cmd); sub++)
		;
	if (!sub->name) {
		for (sub = subcmds; sub->name && n < SUBCMDS_MAX; sub++)
			names[n++] = sub->name;
		join(list, sizeof(list), names, n, " or ");
		rc_err("unknown command '%s' (%s)", cmd, list);
		usage(stderr);
		return 2;
	}
	if (parse(sub, argc - 1, argv + 1, &a, &ret))
		ret = sub->fn(&a);
	args_free(&a);
	return ret;
}
