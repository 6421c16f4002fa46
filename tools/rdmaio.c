// SPDX-License-Identifier: MIT
/*
 * rdmaio: run fio jobs into self-describing, self-checking result files,
 * and report on or compare them. See tools/README.md.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "compare.h"
#include "envdoc.h"
#include "file.h"
#include "fio.h"
#include "fiohosts.h"
#include "fioserver.h"
#include "hostmap.h"
#include "jobfile.h"
#include "jutil.h"
#include "log.h"
#include "mountwatch.h"
#include "remote.h"
#include "report.h"
#include "result.h"
#include "spawn.h"
#include "strv.h"

#define EXIT_FLAGGED 3
/* --remote-env's limit per host when --timeout is not given. */
#define REMOTE_ENV_TIMEOUT_S 120

static void usage(FILE *f)
{
	fprintf(f,
		"usage: rdmaio run [-o RESULT.json] [--fio PATH] [--timeout S] [LINK]\n"
		"                  [--remote-env CMD] JOB.fio... [--client HOST JOB.fio...]...\n"
		"       rdmaio run [...] --server-host HOST --client-host HOST JOB.fio...\n"
		"       rdmaio run --fio-json FIO.json [-o RESULT.json] [LINK] [JOB.fio...]\n"
		"       rdmaio check FIO_OR_RESULT.json [LINK]\n"
		"       rdmaio report RESULT.json [--plot FILE.svg|FILE.png]\n"
		"       rdmaio compare OLD.json NEW.json [--noise PCT]\n"
		"       rdmaio env [-o FILE] [--fio PATH]\n"
		"LINK:  --link-gbps G [--link-layer ethernet|infiniband] [--mtu N]\n"
		"       states the link when it cannot be read from the RDMA devices\n"
		"--client HOST: fio's client/server mode (fio --server runs on HOST);\n"
		"       the job files after it run there, the others on every --client\n"
		"--server-host/--client-host HOST: every job file's sections with\n"
		"       `listen` (targets, TCP servers) run on the server host, the\n"
		"       others on the client host; HOST 'local' is this host, through a\n"
		"       fio --server that rdmaio starts on a private unix socket\n"
		"--remote-env CMD: before fio, run CMD once per host that is not this\n"
		"       one (split on blanks, no shell; %%h in a word becomes HOST) and\n"
		"       record the `rdmaio env` document it prints, e.g. 'ssh %%h rdmaio env'\n"
		"env:   print this host's versions, host and environment as JSON\n"
		"       (schema rdmaio-env/1)\n");
}

enum {
	OPT_CLIENT = 256,
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
	OPT_CLIENT_HOST
};

static const struct option opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "client", required_argument, NULL, OPT_CLIENT },
	{ "fio", required_argument, NULL, OPT_FIO },
	{ "fio-json", required_argument, NULL, OPT_FIO_JSON },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "link-gbps", required_argument, NULL, OPT_GBPS },
	{ "link-layer", required_argument, NULL, OPT_LL },
	{ "mtu", required_argument, NULL, OPT_MTU },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "noise", required_argument, NULL, OPT_NOISE },
	{ "remote-env", required_argument, NULL, OPT_REMOTE_ENV },
	{ "server-host", required_argument, NULL, OPT_SERVER_HOST },
	{ "client-host", required_argument, NULL, OPT_CLIENT_HOST },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* One --client HOST and the job files that follow it. */
struct client_arg {
	const char *host;
	char **jobs;
	int njobs;
};

struct args {
	const char *output, *fio, *fio_json, *plot, *remote_env;
	const char *server_host, *client_host;
	struct client_arg *clients;
	int nclients;
	unsigned timeout_s;
	double noise;
	struct rio_link_opt link;
	char **pos;
	int npos;
};

static int number(const char *opt, const char *s, double min, double max,
		  double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (errno || end == s || *end || *v < min || *v > max) {
		RIO_ERR("option --%s: '%s' is not a number in %g..%g", opt, s,
			min, max);
		return -EINVAL;
	}
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
	free(a->clients);
	free(a->pos);
}

static int parse(int argc, char **argv, struct args *a)
{
	double v;
	int c;

	memset(a, 0, sizeof(*a));
	a->fio = "fio";
	a->noise = 5;
	optind = 1;
	/* "-": operands come in order, so each knows the --client before it. */
	while ((c = getopt_long(argc, argv, "-o:h", opts, NULL)) != -1) {
		switch (c) {
		case 1:
			if (add_positional(a, optarg))
				return -ENOMEM;
			break;
		case 'o':
			a->output = optarg;
			break;
		case OPT_CLIENT:
			if (add_client(a, optarg))
				return -ENOMEM;
			break;
		case OPT_SERVER_HOST:
			a->server_host = optarg;
			break;
		case OPT_CLIENT_HOST:
			a->client_host = optarg;
			break;
		case OPT_FIO:
			a->fio = optarg;
			break;
		case OPT_FIO_JSON:
			a->fio_json = optarg;
			break;
		case OPT_TIMEOUT:
			if (number("timeout", optarg, 1, 86400, &v))
				return -EINVAL;
			a->timeout_s = (unsigned)v;
			break;
		case OPT_GBPS:
			if (number("link-gbps", optarg, 0.001, 1e6,
				   &a->link.rate_gbps))
				return -EINVAL;
			break;
		case OPT_LL:
			a->link.link_layer = optarg;
			break;
		case OPT_MTU:
			if (number("mtu", optarg, 256, 4096, &v))
				return -EINVAL;
			a->link.mtu = (int)v;
			break;
		case OPT_PLOT:
			a->plot = optarg;
			break;
		case OPT_REMOTE_ENV:
			a->remote_env = optarg;
			break;
		case OPT_NOISE:
			if (number("noise", optarg, 0, 1000, &a->noise))
				return -EINVAL;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -EINVAL;
		}
	}
	while (optind < argc)
		if (add_positional(a, argv[optind++]))
			return -ENOMEM;
	return 0;
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
		RIO_CALL_ERR(errno, "mkdir", "results, 0755");
	if (asprintf(&path, "results/%s-%s.json", base, stamp) < 0)
		path = NULL;
	free(copy);
	return path;
}

/* Fails before fio runs, not after, when the result cannot be written. */
static int output_writable(const char *path)
{
	char *copy = strdup(path);
	const char *dir;
	struct stat st;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	dir = dirname(copy);
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		RIO_ERR("output %s: folder %s does not exist (create it or pass another -o)",
			path, dir);
		ret = -ENOENT;
	} else if (access(dir, W_OK)) {
		RIO_ERR("output %s: folder %s is not writable by this user (pass another -o)",
			path, dir);
		ret = -EACCES;
	} else if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		RIO_ERR("output %s: is a folder (pass a file name ending in .json)",
			path);
		ret = -EISDIR;
	}
	free(copy);
	return ret;
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
	RIO_ERR("run: %s", msg);
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
			RIO_ERR("run: --client %s: no job file for it: put the job files it runs after it, or before the first --client (they then run on every --client host without files of its own)",
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
		rio_spawn_defer_signals();
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
		RIO_ERR("run: --remote-env records the environment of hosts other than this one; give --client HOST or a --server-host/--client-host that is not 'local' (this host's own is always recorded)");
		return 2;
	}
	/* Before fio: a broken remote command fails in seconds, not after. */
	if (rio_remote_gather(a->remote_env, hosts, n,
			      a->timeout_s ? a->timeout_s
					   : REMOTE_ENV_TIMEOUT_S,
			      remote)) {
		RIO_ERR("run: no result written; fix --remote-env or drop it (the result then warns that remote environments are not recorded)");
		return 1;
	}
	return 0;
}

/* Runs fio (or imports its JSON) while watching the NFS mounts. */
static int run_fio(const struct args *a, const struct rio_fio_host *hosts,
		   int n, char **jf, int njf, struct rio_result_in *in)
{
	struct rio_fio_run r = { .fio = a->fio,
				 .jobs = jf,
				 .njobs = njf,
				 .hosts = hosts,
				 .nhosts = n,
				 .timeout_s = a->timeout_s };
	struct rio_mountwatch *watch;
	json_object *output = NULL;
	int ret;

	if (a->fio_json) {
		ret = rio_json_load(a->fio_json, "fio JSON", &output);
		if (!ret && !rio_fio_entry_count(output)) {
			RIO_ERR("fio JSON %s: no jobs[] or client_stats[] entries (not fio --output-format=json output)",
				a->fio_json);
			ret = -EINVAL;
		}
		in->fio_output = output;
		return ret;
	}
	watch = rio_mountwatch_new("");
	if (!watch)
		return -ENOMEM;
	rio_mountwatch_sample(watch);
	r.tick = rio_mountwatch_sample;
	r.tick_arg = watch;
	ret = rio_fio_run(&r, &in->fio_runs, &in->fio_exit_status,
			  &in->fio_output);
	in->mounts_during_run = rio_mountwatch_seen(watch);
	rio_mountwatch_delete(&watch);
	return ret;
}

static int cmd_run(int argc, char **argv, struct args *a)
{
	struct rio_result_in in = { .argc = argc, .argv = argv, .root = "" };
	json_object *jobs = NULL, *doc = NULL;
	struct rio_fioserver **srv = NULL;
	struct rio_fio_host *hosts = NULL;
	int ret, nhosts = 0, flagged = 0, njf;
	char *out = NULL, **jf = NULL;

	if (!a->npos && !a->nclients && !a->fio_json)
		return usage_error("no job file given (rdmaio run JOB.fio...)");
	ret = plan_hosts(a, &hosts, &nhosts);
	if (ret)
		return ret;
	if (all_jobs(a, &jf, &njf)) {
		ret = 1;
		goto out;
	}
	out = a->output ? strdup(a->output)
			: default_output(njf ? jf[0] : a->fio_json);
	srv = calloc(nhosts + 1, sizeof(*srv));
	if (!out || !srv || output_writable(out) ||
	    rio_jobfiles_record(jf, njf, &jobs) ||
	    start_local(a, hosts, nhosts, srv)) {
		ret = 1;
		goto out;
	}
	ret = remote_hosts(a, hosts, nhosts, &in.remote_hosts);
	if (ret || rio_spawn_signal_pending())
		goto out;
	in.fio = a->fio;
	in.job_files = jobs;
	in.imported_from = a->fio_json;
	in.hosts = hosts;
	in.nhosts = nhosts;
	in.link = a->link;
	ret = run_fio(a, nhosts ? hosts : NULL, nhosts, jf, njf, &in);
	stop_local(srv, nhosts);
	if (!ret)
		ret = rio_result_build(&in, &doc, &flagged);
	if (!ret)
		ret = rio_result_write(doc, out);
	if (!ret) {
		rio_report_table(doc, stdout);
		printf("\nresult: %s\n", out);
	}
	ret = ret ? 1 : 0;
out:
	stop_local(srv, nhosts);
	free(srv);
	rio_spawn_raise_deferred();
	json_object_put(in.mounts_during_run);
	json_object_put(in.remote_hosts);
	json_object_put(in.fio_output);
	json_object_put(in.fio_runs);
	json_object_put(doc);
	json_object_put(jobs);
	rio_fiohosts_free(hosts, nhosts);
	free(jf);
	free(out);
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

/* A fio JSON, or a result and the fio output in it (a new reference). */
static int check_input(const char *path, json_object **doc,
		       json_object **output)
{
	json_object *o;

	if (rio_json_load(path, "input", doc))
		return 1;
	/* A result's job files say whose [global] "global options" are. */
	o = rio_json_get(rio_json_get(*doc, "fio"), "output");
	*output = o ? rio_fio_attributable(
			      o, rio_json_len(rio_json_get(*doc, "job_files")))
		    : json_object_get(*doc);
	if (rio_json_str(*output, "fio version") &&
	    rio_fio_entry_count(*output))
		return 0;
	RIO_ERR("check: %s is neither fio JSON output (with jobs) nor an rdmaio result",
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

static int cmd_check(struct args *a)
{
	json_object *doc, *output, *links, *checks, *warnings;
	struct rio_hostmap *map = NULL;
	int flagged = 0, ret = 1;

	if (a->npos != 1) {
		RIO_ERR("check: give one fio JSON or rdmaio result (rdmaio check FILE.json)");
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
		warnings = json_object_new_array();
		checks = rio_check_run(output, map, links, warnings, &flagged);
		rio_check_nfs_transport(
			output, map,
			rio_json_get(rio_json_get(doc, "environment"),
				     "nfs_mounts_during_run"),
			checks, &flagged);
		if (rio_json_get(doc, "fio"))
			rio_result_check_loopback(doc, map, checks, &flagged);
		print_checks(checks, warnings);
		json_object_put(checks);
		json_object_put(warnings);
		ret = flagged ? EXIT_FLAGGED : 0;
	}
	rio_hostmap_delete(&map);
	json_object_put(links);
	json_object_put(output);
	json_object_put(doc);
	return ret;
}

static int cmd_report(struct args *a)
{
	json_object *doc;
	int ret = 0;

	if (a->npos != 1) {
		RIO_ERR("report: give one result file (rdmaio report RESULT.json)");
		return 2;
	}
	if (rio_result_load(a->pos[0], &doc))
		return 1;
	rio_report_table(doc, stdout);
	if (a->plot) {
		ret = rio_report_plot(doc, a->plot);
		if (!ret)
			printf("\nchart: %s\n", a->plot);
	}
	json_object_put(doc);
	return ret ? 1 : 0;
}

static int cmd_compare(struct args *a)
{
	json_object *old_doc = NULL, *new_doc = NULL;
	int ret = 1;

	if (a->npos != 2) {
		RIO_ERR("compare: give two result files (rdmaio compare OLD.json NEW.json)");
		return 2;
	}
	if (!rio_result_load(a->pos[0], &old_doc) &&
	    !rio_result_load(a->pos[1], &new_doc)) {
		rio_compare(old_doc, new_doc, a->noise, stdout);
		ret = 0;
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
		RIO_ERR("env: takes no file argument (rdmaio env [-o FILE]); '%s' is one",
			a->pos[0]);
		return 2;
	}
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
		RIO_ERR("env: the document does not validate; nothing written (this is a bug in rdmaio: please report it)");
	} else if (a->output) {
		ret = rio_file_write_atomic(a->output, text, strlen(text));
		if (ret)
			RIO_ERR("env: cannot write %s: %s (check the folder exists and is writable)",
				a->output, strerror(-ret));
	} else if (printf("%s\n", text) < 0 || fflush(stdout)) {
		RIO_CALL_ERR(errno, "write", "%s", "stdout");
		ret = -EIO;
	}
	json_object_put(doc);
	return ret ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;
	struct args a;
	int ret;

	if (!cmd) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
		usage(stdout);
		return 0;
	}
	if (strcmp(cmd, "run") && strcmp(cmd, "check") &&
	    strcmp(cmd, "report") && strcmp(cmd, "compare") &&
	    strcmp(cmd, "env")) {
		RIO_ERR("unknown command '%s' (run, check, report, compare or env)",
			cmd);
		usage(stderr);
		return 2;
	}
	if (parse(argc - 1, argv + 1, &a)) {
		args_free(&a);
		return 2;
	}
	if (!strcmp(cmd, "run"))
		ret = cmd_run(argc, argv, &a);
	else if (!strcmp(cmd, "check"))
		ret = cmd_check(&a);
	else if (!strcmp(cmd, "env"))
		ret = cmd_env(&a);
	else if (!strcmp(cmd, "report"))
		ret = cmd_report(&a);
	else
		ret = cmd_compare(&a);
	args_free(&a);
	return ret;
}
