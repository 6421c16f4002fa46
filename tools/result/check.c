// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "result/check.h"
#include "result/derive.h"
#include "result/runrecord.h"
#include "result/fiooutput.h"
#include "result/hostmap.h"
#include "result/host.h"
#include "result/resultenv.h"
#include "base/jsonread.h"
#include "rc_log.h"

#define GIB (1024.0 * 1024 * 1024)

/* Bytes on the wire per packet beyond the payload. */
#define ETH_ROCEV2_OVERHEAD (8 + 12 + 14 + 4 + 20 + 8 + 12 + 4)
#define IB_OVERHEAD (8 + 12 + 4 + 2)

double rio_check_ceiling(double rate_gbps, const char *link_layer, int mtu)
{
	int ib = link_layer && !strcasecmp(link_layer, "infiniband");
	double overhead = ib ? IB_OVERHEAD : ETH_ROCEV2_OVERHEAD;

	return rate_gbps * 1e9 / 8 * mtu / (mtu + overhead);
}

static json_object *link_json(const struct rio_link *l)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(o, "source", json_object_new_string(l->source));
	json_object_object_add(o, "device",
			       l->device ? json_object_new_string(l->device)
					 : NULL);
	json_object_object_add(o, "port",
			       l->port ? json_object_new_int(l->port) : NULL);
	json_object_object_add(o, "link_layer",
			       json_object_new_string(l->link_layer));
	json_object_object_add(o, "rate_gbps",
			       json_object_new_double(l->rate_gbps));
	json_object_object_add(o, "active_mtu",
			       json_object_new_int(l->active_mtu));
	json_object_object_add(o, "ceiling_bytes_per_s",
			       json_object_new_double(l->ceiling));
	return o;
}

json_object *rio_check_links_json(const struct rio_links *links)
{
	json_object *arr = json_object_new_array(), *o;
	size_t i;

	for (i = 0; arr && i < links->n; i++) {
		o = link_json(&links->v[i]);
		if (!o || json_object_array_add(arr, o)) {
			json_object_put(o);
			json_object_put(arr);
			return NULL;
		}
	}
	return arr;
}

void rio_check_links_free(struct rio_links *links)
{
	while (links->n)
		free(links->v[--links->n].device);
	free(links->v);
	links->v = NULL;
}

/* Adds a link; -ENOMEM. */
static int link_add(struct rio_links *links, const char *source,
		    const char *dev, int port, const char *ll, double gbps,
		    int mtu)
{
	struct rio_link *v = realloc(links->v, (links->n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	links->v = v;
	v[links->n] = (struct rio_link){
		.source = source,
		.device = dev ? strdup(dev) : NULL,
		.port = port,
		.link_layer = ll,
		.rate_gbps = gbps,
		.active_mtu = mtu,
		.ceiling = rio_check_ceiling(gbps, ll, mtu),
	};
	if (dev && !v[links->n].device)
		return -ENOMEM;
	links->n++;
	return 0;
}

/*
 * sysfs gives SDR/DDR/QDR rates as signalling rates, which carry 8b/10b
 * encoding: the data rate is 80% of the figure.
 */
static double data_gbps(const struct rio_env_port *p)
{
	const char *rate = p->rate;

	if (rate &&
	    (strstr(rate, "SDR") || strstr(rate, "DDR") || strstr(rate, "QDR")))
		return p->rate_gbps * 0.8;
	return p->rate_gbps;
}

/* A link per active port of the host's hardware RDMA devices; -ENOMEM. */
static int device_links(struct rio_links *links, const struct rio_env_host *h)
{
	const struct rio_env_device *d;
	const struct rio_env_port *p;
	size_t i, j;
	int ib;

	for (i = 0; i < h->ndevices; i++) {
		d = &h->devices[i];
		/* rxe and siw report a rate mapped from the netdev's speed,
		 * 2.5 Gb/s when it has none (veth): not a ceiling. */
		if (d->transport && !strcmp(d->transport, "software"))
			continue;
		for (j = 0; j < d->nports; j++) {
			p = &d->ports[j];
			if (!p->state || strcasecmp(p->state, "ACTIVE") ||
			    data_gbps(p) <= 0)
				continue;
			ib = p->link_layer &&
			     !strcasecmp(p->link_layer, "infiniband");
			/* Unknown MTU: 4096 gives the highest ceiling, so
			 * the check can miss a claim but never invents one. */
			if (link_add(links, "environment", d->name, p->port,
				     ib ? "infiniband" : "ethernet",
				     data_gbps(p),
				     p->active_mtu < 256 ? 4096
							 : p->active_mtu))
				return -ENOMEM;
		}
	}
	return 0;
}

/* The --link-gbps link; -EINVAL (printed) when the options are not one. */
static int option_link(const struct rio_link_opt *opt, struct rio_links *out)
{
	const char *ll = opt->link_layer ? opt->link_layer : "ethernet";
	int mtu = opt->mtu ? opt->mtu : 4096;

	if (!(opt->rate_gbps > 0) ||
	    (strcmp(ll, "ethernet") && strcmp(ll, "infiniband")) || mtu < 256 ||
	    mtu > 4096) {
		rc_err("link: need --link-gbps > 0, --link-layer ethernet|infiniband and --mtu 256..4096 (got %g Gb/s, %s, %d)",
		       opt->rate_gbps, ll, mtu);
		return -EINVAL;
	}
	return link_add(out, "option", NULL, 0,
			strcmp(ll, "ethernet") ? "infiniband" : "ethernet",
			opt->rate_gbps, mtu);
}

int rio_check_links(const struct rio_link_opt *opt, json_object *env_status,
		    struct rio_links *out)
{
	struct rio_resultenv *env;
	int ret;

	*out = (struct rio_links){ NULL, 0, opt->expect_pct };
	if (opt->rate_gbps > 0 || opt->link_layer || opt->mtu)
		ret = option_link(opt, out);
	else if (!(ret = rio_resultenv_read_status(env_status, &env))) {
		ret = device_links(out, rio_resultenv_host(env));
		rio_resultenv_delete(&env);
	}
	if (ret)
		rio_check_links_free(out);
	return ret;
}

static const char *const ceiling_causes[] = {
	"a cache answered: the client's page cache (direct=0, or data read twice) or the server's, so the bytes never crossed the link",
	"the traffic used more links than recorded: several ports, bonding, multipath or nconnect over several NICs",
	"a unit error: GB vs GiB, Gb/s vs GB/s, or one total counted once per job",
	"the job did not use this link at all: a local engine, loopback or a different interface",
	NULL,
};

/* The server's link under several client hosts: first, that their sum
 * overstates it when they did not run at once. */
static const char *const clients_causes[] = {
	"the client hosts did not run at once (one started late or ended early), so their figures do not add up to one load: see the overlap check of this fio run",
	"each client host has a link of its own to a server with several ports or links, so no one link carried the sum",
	"a cache answered: the clients' page caches (direct=0, or data read twice) or the server's, so the bytes never crossed the link",
	"a unit error: GB vs GiB, Gb/s vs GB/s, or one total counted once per job",
	NULL,
};

void rio_check_add(json_object *arr, const char *name, const char *host,
		   int groupid, const char *dir, const char *status,
		   double measured, double ceiling, const char *msg,
		   const char *const *causes)
{
	json_object *c = json_object_new_object(), *lc;
	size_t i;

	lc = json_object_new_array();
	for (i = 0; causes && causes[i]; i++)
		json_object_array_add(lc, json_object_new_string(causes[i]));
	json_object_object_add(c, "name", json_object_new_string(name));
	json_object_object_add(c, "host", json_object_new_string(host));
	json_object_object_add(c, "groupid", json_object_new_int(groupid));
	json_object_object_add(c, "direction",
			       dir ? json_object_new_string(dir) : NULL);
	json_object_object_add(c, "status", json_object_new_string(status));
	json_object_object_add(c, "measured_bytes_per_s",
			       rio_json_num_or_null(measured));
	json_object_object_add(c, "ceiling_bytes_per_s",
			       rio_json_num_or_null(ceiling));
	json_object_object_add(c, "message", json_object_new_string(msg));
	json_object_object_add(c, "likely_causes", lc);
	json_object_array_add(arr, c);
}

static double links_ceiling(const struct rio_links *links, const char *host,
			    const struct rio_hostmap *hosts, char *desc,
			    size_t dlen)
{
	const struct rio_link *l;
	double sum = 0;
	size_t i;
	int n = 0;

	desc[0] = '\0';
	for (i = 0; i < links->n; i++) {
		l = &links->v[i];
		/* The environment describes this host only; NULL host: the
		 * server's link, which only the options describe. */
		if (!strcmp(l->source, "environment") &&
		    (!host || !rio_hostmap_is_local(hosts, host)))
			continue;
		sum += l->ceiling;
		n++;
		snprintf(desc + strlen(desc), dlen - strlen(desc),
			 "%s%g Gb/s %s MTU %d", n > 1 ? " + " : "",
			 l->rate_gbps, l->link_layer, l->active_mtu);
	}
	return n ? sum : NAN;
}

/* One fio job entry as the payload-ceiling check sees it. */
struct job {
	const char *name;
	const char *wait_for; /* fio's wait_for of the job; NULL: none */
	const char *host; /* the host's name, as the hostmap gives it */
	const char *server; /* fio's name of its fio --server; NULL: here */
	int port;
	int run; /* its fio run: the index in fio.runs */
	int gid;
	int parent; /* the job of its group it waits for; -1: none */
	double w[2]; /* read, write bytes/s */
	/* Why the job cannot fill a link (the line-rate check): its rate=
	 * option, or NULL; and whether it ran at depth 1 (a latency job). */
	const char *rate;
	int depth1;
	/* One direction at a time: the most in flight at once in its subtree,
	 * the same summed over its waiters, and whether it is summed. */
	double best, below;
	int take, descend;
};

static int same_server(const struct job *a, const struct job *b)
{
	if (a->port != b->port || !a->server != !b->server)
		return 0;
	return !a->server || !strcmp(a->server, b->server);
}

static int same_group(const struct job *a, const struct job *b)
{
	return a->gid == b->gid && a->run == b->run &&
	       !strcmp(a->host, b->host);
}

/*
 * Whether the fio run's argv gave the fio --server named server the section
 * job, or all of its job file (no --section for it).
 */
static int run_lists(const struct rio_fio_argv *run, const char *server,
		     const char *job)
{
	int mine = 0, filtered = 0, found = 0;
	const char *a;
	char *name;
	size_t i;

	if (!server || !job)
		return 1;
	for (i = 0; i <= run->n; i++) {
		a = i < run->n ? run->v[i] : NULL;
		if (a && strncmp(a, "--client=", 9)) {
			if (!strncmp(a, "--section=", 10)) {
				filtered = 1;
				found |= !strcmp(a + 10, job);
			}
			continue;
		}
		if (mine && (found || !filtered))
			return 1;
		name = a ? rio_hostmap_fio_name(a + 9) : NULL;
		mine = name && !strcmp(name, server);
		filtered = found = 0;
		free(name);
	}
	return 0;
}

/*
 * A run split by role joins the entries of its fio runs in run order, and
 * each fio --server numbers its groups from 0 again in every run: the run
 * of an entry is the first one from its predecessor's on that lists its
 * section for its server, and a later one when its server's groupid fell.
 */
static void assign_runs(struct job *jobs, int n,
			const struct rio_fio_argvs *runs)
{
	int nr = (int)runs->n, i, j, lb, k;

	for (i = 0; i < n; i++) {
		jobs[i].run = 0;
		if (nr < 2)
			continue;
		lb = i ? jobs[i - 1].run : 0;
		for (j = i - 1; j >= 0 && !same_server(&jobs[i], &jobs[j]); j--)
			;
		if (j >= 0 && jobs[i].gid < jobs[j].gid && jobs[j].run >= lb)
			lb = jobs[j].run + 1;
		for (k = lb; k < nr && !run_lists(&runs->v[k], jobs[i].server,
						  jobs[i].name);
		     k++)
			;
		jobs[i].run = k < nr ? k : lb < nr ? lb : nr - 1;
	}
}

/*
 * fio's wait_for names a job defined before, of the same fio process: the
 * nearest such entry of the same group. A name found nowhere there leaves
 * the job a root, which can only raise the sum.
 */
static void link_waits(struct job *jobs, int n)
{
	const char *w;
	int i, j;

	for (i = 0; i < n; i++) {
		jobs[i].parent = -1;
		w = jobs[i].wait_for;
		for (j = i - 1; w && j >= 0; j--)
			if (same_group(&jobs[i], &jobs[j]) &&
			    same_server(&jobs[i], &jobs[j]) && jobs[j].name &&
			    !strcmp(jobs[j].name, w)) {
				jobs[i].parent = j;
				break;
			}
	}
}

/*
 * The most bandwidth of direction d in flight at once among the group's
 * jobs m[0..k) (in entry order, so a job's waitee comes before it): wait_for
 * makes them a forest, whose heaviest antichain is best(v) = max(w(v), the
 * sum of best() of its waiters), summed over the roots. Marks the jobs it
 * sums (take).
 */
static double antichain(struct job *jobs, const int *m, int k, int d)
{
	struct job *j;
	double total = 0;
	int i, open;

	for (i = 0; i < k; i++)
		jobs[m[i]].below = 0;
	for (i = k - 1; i >= 0; i--) {
		j = &jobs[m[i]];
		j->best = fmax(j->w[d], j->below);
		if (j->parent >= 0)
			jobs[j->parent].below += j->best;
		else
			total += j->best;
	}
	for (i = 0; i < k; i++) {
		j = &jobs[m[i]];
		open = j->parent < 0 || jobs[j->parent].descend;
		/* On a tie the one job is named, not its waiters. */
		j->take = open && j->w[d] >= j->below;
		j->descend = open && !j->take;
	}
	return total;
}

/* Moves data in d and is (or, with taken 0, is not) summed. */
static int named(const struct job *j, int d, int taken)
{
	return j->w[d] > 0 && !j->take == !taken;
}

/* "job a" or "jobs a + b": the group's jobs named(); returns how many. */
static int put_names(FILE *f, const struct job *jobs, const int *m, int k,
		     int d, int taken, const char *sep)
{
	int i, c = 0;

	for (i = 0; i < k; i++)
		c += named(&jobs[m[i]], d, taken);
	fprintf(f, "job%s ", c > 1 ? "s" : "");
	for (i = 0, c = 0; i < k; i++)
		if (named(&jobs[m[i]], d, taken))
			fprintf(f, "%s%s", c++ ? sep : "",
				jobs[m[i]].name ? jobs[m[i]].name
						: "(unnamed)");
	return c;
}

/* The job file of one fio run of a split run: its argv's first operand. */
static const char *run_job_file(const struct rio_fio_argv *run)
{
	size_t i;

	for (i = 1; i < run->n; i++)
		if (run->v[i] && run->v[i][0] != '-')
			return run->v[i];
	return "?";
}

/* "of jobs a + c that may run at once (fio run 2 of 5, lat.fio)" */
static void put_summed(FILE *f, const struct job *jobs, const int *m, int k,
		       int d, const struct rio_fio_argvs *runs)
{
	size_t nr = runs->n;
	int run = jobs[m[0]].run;

	fputs("of ", f);
	if (put_names(f, jobs, m, k, d, 1, " + ") > 1)
		fputs(" that may run at once", f);
	if (nr > 1)
		fprintf(f, " (fio run %d of %zu, %s)", run + 1, nr,
			run_job_file(&runs->v[run]));
}

static void put_left_out(FILE *f, const struct job *jobs, const int *m, int k,
			 int d)
{
	int i, c = 0;

	for (i = 0; i < k; i++)
		c += named(&jobs[m[i]], d, 0);
	if (!c)
		return;
	fputs("; ", f);
	put_names(f, jobs, m, k, d, 0, ", ");
	fprintf(f,
		" %s left out: wait_for ran %s before or after the jobs summed",
		c > 1 ? "were" : "was", c > 1 ? "them" : "it");
}

static const char *const line_rate_causes[] = {
	"the link runs slower than stated: --link-gbps, or a port that negotiated a lower speed or width (ibv_devinfo -v, ethtool)",
	"too little in flight to fill the link: raise iodepth, numjobs or qps, or the message size",
	"the CPU: a job's core busy all the time, or jobs on a NUMA node away from the NIC",
	"the NIC's PCIe slot is narrower or slower than the link (lspci -vv: LnkSta)",
	"other traffic on the link, or congestion control (PFC pauses, ECN) slowing it",
	NULL,
};

/*
 * The line-rate check (--expect-link-pct): what a group moved that way
 * against pct % of the ceiling, a fabric's bring-up test. skip says why it
 * is not judged (NULL: it is).
 */
static void line_rate(json_object *arr, const char *host, int gid,
		      const char *dir, double bw, double ceil, const char *desc,
		      const char *skip, double pct, int *flagged)
{
	char msg[1024];
	int low;

	if (skip || isnan(ceil)) {
		snprintf(
			msg, sizeof(msg),
			"%s %.2f GiB/s not judged against %g %% of a link: %s",
			dir, bw / GIB, pct,
			skip ? skip
			     : "no link rate is known (software RDMA devices such as Soft-RoCE have none, and no --link-gbps was given): state the link with --link-gbps to judge it");
		rio_check_add(arr, "line-rate", host, gid, dir, "skipped", bw,
			      ceil, msg, NULL);
		return;
	}
	low = bw < ceil * pct / 100;
	snprintf(
		msg, sizeof(msg),
		"%s %.2f GiB/s is %.1f %% of the %.2f GiB/s payload ceiling of %s: %s %g %% expected (--expect-link-pct)",
		dir, bw / GIB, 100 * bw / ceil, ceil / GIB, desc,
		low ? "below the" : "at least the", pct);
	rio_check_add(arr, "line-rate", host, gid, dir,
		      low ? "flagged" : "pass", bw, ceil, msg,
		      low ? line_rate_causes : NULL);
	*flagged += low;
}

/* Why a group cannot be expected to fill a link: a job of it has rate=, or
 * every one ran at depth 1 (latency jobs); NULL when it can. */
static const char *no_line_rate(const struct job *jobs, const int *m, int k,
				char *buf, size_t len)
{
	int i, depth1 = 1;

	for (i = 0; i < k; i++) {
		if (jobs[m[i]].rate) {
			snprintf(
				buf, len,
				"job %s is held to rate=%s, so it is not meant to fill the link",
				jobs[m[i]].name ? jobs[m[i]].name : "?",
				jobs[m[i]].rate);
			return buf;
		}
		depth1 &= jobs[m[i]].depth1;
	}
	if (depth1)
		return "its jobs ran at I/O depth 1: latency jobs, not meant to fill the link";
	return NULL;
}

/* The payload-ceiling check of one group's direction d, when it moved data:
 * what the group moved that way. */
static double group_check(json_object *arr, struct job *jobs, const int *m,
			  int k, int d, const struct rio_links *links,
			  const struct rio_hostmap *hosts,
			  const struct rio_fio_argvs *runs, int *flagged)
{
	static const char *const dirs[] = { "read", "write" };
	const struct job *j0 = &jobs[m[0]];
	double bw = antichain(jobs, m, k, d), ceil;
	char desc[512], why[512], *msg = NULL;
	size_t len = 0;
	int over;
	FILE *f;

	if (bw <= 0)
		return bw;
	ceil = links_ceiling(links, j0->host, hosts, desc, sizeof(desc));
	over = !isnan(ceil) && bw > ceil;
	f = open_memstream(&msg, &len);
	if (!f)
		return bw;
	fprintf(f, "%s %.2f GiB/s (%.1f Gb/s) ", dirs[d], bw / GIB,
		bw * 8 / 1e9);
	put_summed(f, jobs, m, k, d, runs);
	if (isnan(ceil))
		fprintf(f,
			": no link rate known for host %s (pass --link-gbps to check it)",
			j0->host);
	else
		fprintf(f, " %s the %.2f GiB/s payload ceiling of %s",
			over ? "exceeds" : "is within", ceil / GIB, desc);
	put_left_out(f, jobs, m, k, d);
	fclose(f);
	rio_check_add(arr, "payload-ceiling", j0->host, j0->gid, dirs[d],
		      isnan(ceil) ? "skipped"
		      : over	  ? "flagged"
				  : "pass",
		      bw, ceil, msg, over ? ceiling_causes : NULL);
	*flagged += over;
	free(msg);
	if (links->expect_pct > 0)
		line_rate(arr, j0->host, j0->gid, dirs[d], bw, ceil, desc,
			  no_line_rate(jobs, m, k, why, sizeof(why)),
			  links->expect_pct, flagged);
	return bw;
}

/* A run split by role (--server-host/--client-host): fio got --section
 * filters. Only there are the client hosts known to load one server; plain
 * --client hosts may each have a server of their own. */
static int split_by_role(const struct rio_fio_argvs *runs)
{
	size_t r, i;

	for (r = 0; r < runs->n; r++)
		for (i = 0; i < runs->v[r].n; i++)
			if (runs->v[r].v[i] &&
			    !strncmp(runs->v[r].v[i], "--section=", 10))
				return 1;
	return 0;
}

/* One group of one host: its first job and what it had in flight. */
struct group {
	int lead;
	double bw[2];
	int summed;
};

static int same_sections(const struct job *jobs, const struct group *a,
			 const struct group *b)
{
	const struct job *x = &jobs[a->lead], *y = &jobs[b->lead];

	return x->run == y->run && x->gid == y->gid &&
	       strcmp(x->host, y->host) && x->name && y->name &&
	       !strcmp(x->name, y->name);
}

/*
 * Groups that several client hosts ran at once (the same sections, fio
 * run and group: one fio run sends them to every host) load the server's
 * link with their sum: checked against the links that describe every host
 * (--link-gbps; this host's devices say nothing of the server's), host
 * "all clients".
 */
static void clients_check(json_object *arr, const struct job *jobs,
			  struct group *g, int ng, int d,
			  const struct rio_links *links, int *flagged)
{
	static const char *const dirs[] = { "read", "write" };
	char desc[512], why[512], msg[1024];
	double bw, ceil;
	int i, j, hosts, over;

	for (i = 0; i < ng; i++) {
		if (g[i].summed)
			continue;
		for (j = i, bw = 0, hosts = 0; j < ng; j++)
			if (j == i || same_sections(jobs, &g[i], &g[j])) {
				bw += g[j].bw[d];
				hosts++;
			}
		if (hosts < 2 || bw <= 0)
			continue;
		for (j = i + 1; j < ng; j++)
			g[j].summed |= same_sections(jobs, &g[i], &g[j]);
		ceil = links_ceiling(links, NULL, NULL, desc, sizeof(desc));
		over = !isnan(ceil) && bw > ceil;
		snprintf(
			msg, sizeof(msg),
			"%s %.2f GiB/s (%.1f Gb/s) of the group of job %s on %d client hosts at once, through the server's link: ",
			dirs[d], bw / GIB, bw * 8 / 1e9, jobs[g[i].lead].name,
			hosts);
		if (isnan(ceil))
			snprintf(
				msg + strlen(msg), sizeof(msg) - strlen(msg),
				"no link rate known for it (pass --link-gbps to check it)");
		else
			snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg),
				 "%s the %.2f GiB/s payload ceiling of %s",
				 over ? "exceeds" : "is within", ceil / GIB,
				 desc);
		rio_check_add(arr, "payload-ceiling", RIO_DERIVE_ALL_CLIENTS,
			      jobs[g[i].lead].gid, dirs[d],
			      isnan(ceil) ? "skipped"
			      : over	  ? "flagged"
					  : "pass",
			      bw, ceil, msg, over ? clients_causes : NULL);
		*flagged += over;
		/* Judged by its lead job: every client host ran the same
		 * sections. */
		if (links->expect_pct > 0)
			line_rate(arr, RIO_DERIVE_ALL_CLIENTS,
				  jobs[g[i].lead].gid, dirs[d], bw, ceil, desc,
				  no_line_rate(jobs, &g[i].lead, 1, why,
					       sizeof(why)),
				  links->expect_pct, flagged);
	}
}

/* One entry's figures, and a job-error check when fio reported an error. */
static void read_job(struct job *j, const struct rio_fio_output *fio, int i,
		     json_object *arr, int *flagged)
{
	const struct rio_fio_job *e = rio_fio_output_job(fio, i);
	char msg[512];
	int err = e->error;

	j->name = e->jobname;
	j->wait_for = rio_fio_job_option(fio, e, "wait_for");
	j->host = e->host;
	j->server = e->hostname;
	j->port = e->port;
	j->gid = e->groupid;
	j->w[0] = e->dir[RIO_FIO_READ].bw_bytes.d;
	j->w[1] = e->dir[RIO_FIO_WRITE].bw_bytes.d;
	j->rate = rio_fio_job_setting(fio, e, "rate");
	if (!j->rate)
		j->rate = rio_fio_job_setting(fio, e, "rate_iops");
	j->depth1 = e->depth1_pct >= 99;
	if (!err)
		return;
	snprintf(
		msg, sizeof(msg),
		"job %s on %s reported error %d (%s); its numbers are not a measurement",
		j->name, j->host, err, strerror(err));
	rio_check_add(arr, "job-error", j->host, j->gid, NULL, "flagged", NAN,
		      NAN, msg, NULL);
	(*flagged)++;
}

/* A run split by role keeps each run's [global] apart from the joined
 * output: a rate= there holds that run's jobs too. */
static void run_rates(struct job *jobs, int n, const struct rio_fio_argvs *runs)
{
	json_object *g;
	int i;

	for (i = 0; i < n; i++) {
		if (jobs[i].rate || jobs[i].run < 0 ||
		    (size_t)jobs[i].run >= runs->n)
			continue;
		g = runs->v[jobs[i].run].globals;
		jobs[i].rate = rio_json_str(g, "rate");
		if (!jobs[i].rate)
			jobs[i].rate = rio_json_str(g, "rate_iops");
	}
}

json_object *rio_check_run(const struct rio_fio_output *fio,
			   const struct rio_fio_argvs *runs,
			   const struct rio_hostmap *hosts,
			   const struct rio_links *links, json_object *warnings,
			   int *flagged)
{
	int i, j, k, d, ng = 0, n = rio_fio_output_njobs(fio);
	json_object *arr = json_object_new_array();
	struct job *jobs = calloc(n ? n : 1, sizeof(*jobs));
	struct group *g = calloc(n ? n : 1, sizeof(*g));
	int *m = calloc(n ? n : 1, sizeof(*m));

	*flagged = 0;
	if (!jobs || !m || !g)
		goto out;
	for (i = 0; i < n; i++)
		read_job(&jobs[i], fio, i, arr, flagged);
	assign_runs(jobs, n, runs);
	run_rates(jobs, n, runs);
	link_waits(jobs, n);
	/* One check per group and direction, in the order of its first job. */
	for (i = 0; i < n; i++) {
		for (j = 0; j < i && !same_group(&jobs[i], &jobs[j]); j++)
			;
		if (j < i)
			continue;
		for (j = i, k = 0; j < n; j++)
			if (same_group(&jobs[i], &jobs[j]))
				m[k++] = j;
		g[ng].lead = i;
		for (d = 0; d < 2; d++)
			g[ng].bw[d] = group_check(arr, jobs, m, k, d, links,
						  hosts, runs, flagged);
		ng++;
	}
	for (d = 0; d < 2 && split_by_role(runs); d++) {
		for (i = 0; i < ng; i++)
			g[i].summed = 0;
		clients_check(arr, jobs, g, ng, d, links, flagged);
	}
	if (!links->n)
		rio_warn_add(
			warnings, "no-link",
			"no link rate known (no ACTIVE hardware RDMA port, no --link-gbps; software RDMA devices have none): bandwidth was not checked against a link's payload ceiling");
out:
	free(m);
	free(g);
	free(jobs);
	return arr;
}
