// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/streq.h"
#include "result/resultdoc.h"
#include "base/jsonread.h"

struct rio_resultdoc {
	json_object *doc; /* held: the strings point into it */
	struct rio_arena arena; /* every array of the model */
	const char *hostname;
	struct rio_res_job *jobs;
	size_t njobs;
	struct rio_res_pair *pairs;
	size_t npairs;
	struct rio_res_baseline *baselines;
	size_t nbaselines;
	const char **cpu_hosts;
	size_t ncpu_hosts;
	struct rio_res_check *checks;
	size_t nchecks;
	struct rio_res_warning *warnings;
	size_t nwarnings;
	struct rio_resultdoc **rounds; /* rounds[]'s, each a model of its own */
	int nrounds, has_cpu;
	int jobs_multi_host, pairs_multi_host;
	const char *cpu_match;
	double link_ceiling;
};

static const char *const dir_names[RIO_RES_NDIRS] = { "read", "write" };

static double num(json_object *o, const char *key)
{
	return rio_json_num(o, key, NAN);
}

static struct rio_res_lat lat_of(json_object *clat)
{
	return (struct rio_res_lat){ .mean = num(clat, "mean"),
				     .p50 = num(clat, "p50"),
				     .p99 = num(clat, "p99"),
				     .p99_9 = num(clat, "p99_9") };
}

static int is_object(json_object *o)
{
	return o && json_object_is_type(o, json_type_object);
}

static struct rio_res_spread spread_of(json_object *o)
{
	return (struct rio_res_spread){ .set = is_object(o),
					.n = (int)rio_json_num(o, "n", 0),
					.median = num(o, "median"),
					.min = num(o, "min"),
					.max = num(o, "max") };
}

static struct rio_res_ratio ratio_of(json_object *o)
{
	return (struct rio_res_ratio){ .spread = spread_of(o),
				       .geomean = num(o, "geomean"),
				       .ci95_low = num(o, "ci95_low"),
				       .ci95_high = num(o, "ci95_high") };
}

static struct rio_res_figures figures_of(json_object *o)
{
	return (struct rio_res_figures){
		.set = is_object(o),
		.bw_bytes = spread_of(rio_json_get(o, "bw_bytes")),
		.iops = spread_of(rio_json_get(o, "iops")),
		.p50 = spread_of(rio_json_get(o, "p50")),
		.p99 = spread_of(rio_json_get(o, "p99")),
	};
}

static int cpus_of(struct rio_arena *a, struct rio_res_cpus *c,
		   json_object *arr)
{
	struct rio_res_cpu *v;
	json_object *h;
	size_t i;

	c->n = rio_json_len(arr);
	c->v = v = rio_arena_calloc(a, c->n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < c->n; i++) {
		h = json_object_array_get_idx(arr, i);
		v[i] = (struct rio_res_cpu){ .host = rio_json_str(h, "host"),
					     .busy_s = num(h, "busy_s"),
					     .per_gib_s = num(h, "per_gib_s"),
					     .per_kio_s = num(h, "per_kio_s"),
					     .rdma_s = num(h, "rdma_s"),
					     .tcp_s = num(h, "tcp_s"),
					     .ratio = num(h, "ratio") };
	}
	return 0;
}

static void dir_of(struct rio_res_dir *d, json_object *o)
{
	d->set = o != NULL;
	d->io_bytes = num(o, "io_bytes");
	d->bw_bytes = num(o, "bw_bytes");
	d->iops = num(o, "iops");
	d->runtime_ms = num(o, "runtime_ms");
	d->total_ios = num(o, "total_ios");
	d->clat = lat_of(rio_json_get(o, "clat_ns"));
}

static int job_of(struct rio_arena *a, struct rio_res_job *j, json_object *r)
{
	json_object *cpu = rio_json_get(r, "fio_cpu");
	json_object *ov = rio_json_get(r, "over_rounds");
	int d;

	j->host = rio_json_str(r, "host");
	j->jobname = rio_json_str(r, "jobname");
	j->role = rio_json_str(r, "role");
	j->workload = rio_json_str(r, "workload");
	j->transport = rio_json_str(r, "transport");
	j->groupid = (int)rio_json_num(r, "groupid", 0);
	j->error = (int)rio_json_num(r, "error", 0);
	j->over_rounds.rounds = (int)rio_json_num(ov, "rounds", 0);
	for (d = 0; d < RIO_RES_NDIRS; d++) {
		dir_of(&j->dir[d], rio_json_get(r, dir_names[d]));
		j->over_rounds.dir[d] =
			figures_of(rio_json_get(ov, dir_names[d]));
	}
	j->has_fio_cpu = cpu != NULL;
	j->fio_cpu_s = num(cpu, "cpu_s");
	j->fio_cpu_per_gib_s = num(cpu, "per_gib_s");
	j->fio_cpu_per_kio_s = num(cpu, "per_kio_s");
	j->fio_usr_pct = rio_json_num(cpu, "usr_pct", 0);
	j->fio_sys_pct = rio_json_num(cpu, "sys_pct", 0);
	return cpus_of(a, &j->host_cpu, rio_json_get(r, "host_cpu"));
}

static struct rio_res_side side_of(json_object *s)
{
	return (struct rio_res_side){
		.jobname = rio_json_str(s, "jobname"),
		.bw_bytes = num(s, "bw_bytes"),
		.iops = num(s, "iops"),
		.fio_cpu_per_gib_s = num(s, "fio_cpu_per_gib_s"),
		.clat = lat_of(rio_json_get(s, "clat_ns")),
	};
}

static int pair_rounds_of(struct rio_arena *a, struct rio_res_pair *p,
			  json_object *ov)
{
	json_object *hc = rio_json_get(ov, "host_cpu_per_gib"), *h;
	struct rio_res_host_ratio *v;
	size_t i, n = rio_json_len(hc);

	p->over_rounds.rounds = (int)rio_json_num(ov, "rounds", 0);
	p->over_rounds.rdma = figures_of(rio_json_get(ov, "rdma"));
	p->over_rounds.tcp = figures_of(rio_json_get(ov, "tcp"));
	p->over_rounds.bw_ratio = ratio_of(rio_json_get(ov, "bw_ratio"));
	p->over_rounds.iops_ratio = ratio_of(rio_json_get(ov, "iops_ratio"));
	p->over_rounds.p50_ratio = ratio_of(rio_json_get(ov, "p50_ratio"));
	p->over_rounds.p99_ratio = ratio_of(rio_json_get(ov, "p99_ratio"));
	p->over_rounds.fio_cpu_per_gib_ratio =
		ratio_of(rio_json_get(ov, "fio_cpu_per_gib_ratio"));
	p->over_rounds.host_cpu_per_gib = v =
		rio_arena_calloc(a, n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	p->over_rounds.nhost_cpu_per_gib = n;
	for (i = 0; i < n; i++) {
		h = json_object_array_get_idx(hc, i);
		v[i].host = rio_json_str(h, "host");
		v[i].ratio = ratio_of(rio_json_get(h, "ratio"));
	}
	return 0;
}

/* An array of strings, in the arena (NULL strings for other values). */
static int strv_of(struct rio_arena *a, json_object *arr, const char ***v,
		   size_t *n)
{
	size_t i;

	*n = rio_json_len(arr);
	*v = rio_arena_calloc(a, *n ? *n : 1, sizeof(**v));
	if (!*v)
		return -ENOMEM;
	for (i = 0; i < *n; i++) {
		json_object *x = json_object_array_get_idx(arr, i);

		if (json_object_is_type(x, json_type_string))
			(*v)[i] = json_object_get_string(x);
	}
	return 0;
}

static int pair_of(struct rio_arena *a, struct rio_res_pair *p, json_object *c)
{
	p->host = rio_json_str(c, "host");
	if (strv_of(a, rio_json_get(c, "clients"), &p->clients, &p->nclients))
		return -ENOMEM;
	p->workload = rio_json_str(c, "workload");
	p->against = rio_json_str(c, "against") ?: "tcp";
	p->kind = rio_json_str(c, "kind");
	p->verdict = rio_json_str(c, "verdict");
	p->direction = rio_json_str(c, "direction");
	p->tcp_direction = rio_json_str(c, "tcp_direction");
	p->rdma = side_of(rio_json_get(c, "rdma"));
	p->tcp = side_of(rio_json_get(c, "tcp"));
	p->bw_ratio = num(c, "bw_ratio");
	p->iops_ratio = num(c, "iops_ratio");
	p->p50_ratio = num(c, "p50_ratio");
	p->p99_ratio = num(c, "p99_ratio");
	p->fio_cpu_per_gib_ratio = num(c, "fio_cpu_per_gib_ratio");
	if (pair_rounds_of(a, p, rio_json_get(c, "over_rounds")))
		return -ENOMEM;
	return cpus_of(a, &p->host_cpu_per_gib,
		       rio_json_get(c, "host_cpu_per_gib"));
}

static int baseline_of(struct rio_arena *a, struct rio_res_baseline *b,
		       json_object *o)
{
	json_object *ov = rio_json_get(o, "over_rounds");

	b->name = rio_json_str(o, "name");
	b->command = rio_json_str(o, "command");
	b->error = rio_json_str(o, "error");
	b->bytes = num(o, "bytes");
	b->elapsed_s = num(o, "elapsed_s");
	b->bw_bytes = num(o, "bw_bytes");
	b->cpu_per_gib_s = num(o, "cpu_per_gib_s");
	b->over_rounds.rounds = (int)rio_json_num(ov, "rounds", 0);
	b->over_rounds.failed = (int)rio_json_num(ov, "failed", 0);
	b->over_rounds.bw_bytes = spread_of(rio_json_get(ov, "bw_bytes"));
	b->over_rounds.elapsed_s = spread_of(rio_json_get(ov, "elapsed_s"));
	return cpus_of(a, &b->host_cpu, rio_json_get(o, "host_cpu"));
}

/* The watched hosts: a result of rounds has them in each round's cpu. */
static int cpu_hosts_of(struct rio_resultdoc *rd)
{
	json_object *cpu = rio_json_get(rd->doc, "cpu"), *hosts;
	json_object *rounds = rio_json_get(rd->doc, "rounds");
	size_t i;

	if (!cpu && rio_json_len(rounds))
		cpu = rio_json_get(json_object_array_get_idx(rounds, 0), "cpu");
	hosts = rio_json_get(cpu, "hosts");
	rd->ncpu_hosts = rio_json_len(hosts);
	rd->cpu_hosts = rio_arena_calloc(&rd->arena, rd->ncpu_hosts,
					 sizeof(*rd->cpu_hosts));
	if (!rd->cpu_hosts)
		return -ENOMEM;
	for (i = 0; i < rd->ncpu_hosts; i++)
		rd->cpu_hosts[i] = rio_json_str(
			json_object_array_get_idx(hosts, i), "host");
	return 0;
}

static void fair_side_of(struct rio_res_fair_side *s, json_object *o)
{
	*s = (struct rio_res_fair_side){
		.jobname = rio_json_str(o, "jobname"),
		.host = rio_json_str(o, "host"),
		.source = rio_json_str(o, "source"),
		.mountpoint = rio_json_str(o, "mountpoint"),
		.proto = rio_json_str(o, "proto"),
		.vers = rio_json_str(o, "vers"),
		.server = rio_json_str(o, "server"),
		.export = rio_json_str(o, "export"),
		.export_sync = rio_json_str(o, "export_sync"),
		.rsize = (int)rio_json_num(o, "rsize", 0),
		.wsize = (int)rio_json_num(o, "wsize", 0),
		.nconnect = (int)rio_json_num(o, "nconnect", 0),
		.timeo = (int)rio_json_num(o, "timeo", 0),
		.nfsd_threads = (int)rio_json_num(o, "nfsd_threads", 0),
		.depth = (int)rio_json_num(o, "depth", 0),
	};
}

static int settings_of(struct rio_arena *a, struct rio_res_check *c,
		       json_object *set)
{
	struct rio_res_fair_side *v;

	if (!set)
		return 0;
	c->settings = v = rio_arena_calloc(a, RIO_RES_NFAIR, sizeof(*v));
	if (!v)
		return -ENOMEM;
	fair_side_of(&v[0], rio_json_get(set, "rdma"));
	fair_side_of(&v[1], rio_json_get(set, "tcp"));
	fair_side_of(&v[2], rio_json_get(set, "tcp_nconnect"));
	return 0;
}

static int check_of(struct rio_arena *a, struct rio_res_check *c,
		    json_object *o)
{
	json_object *lc = rio_json_get(o, "likely_causes");
	json_object *rs = rio_json_get(o, "rounds");
	const char **causes;
	int *rounds;
	size_t i;

	c->name = rio_json_str(o, "name");
	c->status = rio_json_str(o, "status");
	c->message = rio_json_str(o, "message");
	c->host = rio_json_str(o, "host");
	c->causes = causes =
		rio_arena_calloc(a, rio_json_len(lc), sizeof(*causes));
	c->rounds = rounds =
		rio_arena_calloc(a, rio_json_len(rs), sizeof(*rounds));
	if (!causes || !rounds)
		return -ENOMEM;
	for (; c->ncauses < rio_json_len(lc); c->ncauses++)
		causes[c->ncauses] = json_object_get_string(
			json_object_array_get_idx(lc, c->ncauses));
	for (i = 0; i < rio_json_len(rs); i++)
		rounds[c->nrounds++] =
			json_object_get_int(json_object_array_get_idx(rs, i));
	return settings_of(a, c, rio_json_get(o, "settings"));
}

/* The checks and warnings: what the result says of its own figures. */
static int findings_of(struct rio_resultdoc *rd)
{
	json_object *cs = rio_json_get(rd->doc, "checks");
	json_object *ws = rio_json_get(rd->doc, "warnings"), *w;
	size_t i;

	rd->checks = rio_arena_calloc(&rd->arena, rio_json_len(cs),
				      sizeof(*rd->checks));
	rd->warnings = rio_arena_calloc(&rd->arena, rio_json_len(ws),
					sizeof(*rd->warnings));
	if (!rd->checks || !rd->warnings)
		return -ENOMEM;
	for (; rd->nchecks < rio_json_len(cs); rd->nchecks++)
		if (check_of(&rd->arena, &rd->checks[rd->nchecks],
			     json_object_array_get_idx(cs, rd->nchecks)))
			return -ENOMEM;
	for (i = 0; i < rio_json_len(ws); i++) {
		w = json_object_array_get_idx(ws, i);
		rd->warnings[rd->nwarnings++] = (struct rio_res_warning){
			.code = rio_json_str(w, "code"),
			.message = rio_json_str(w, "message"),
		};
	}
	return 0;
}

static double link_ceiling_of(json_object *links)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < rio_json_len(links); i++)
		sum += rio_json_num(json_object_array_get_idx(links, i),
				    "ceiling_bytes_per_s", 0);
	return i ? sum : NAN;
}

/* Takes one more row's host into *first: 1 once two rows' differ. */
static int host_differs(const char **first, const char *h)
{
	if (!h)
		return 0;
	if (*first && strcmp(*first, h))
		return 1;
	*first = h;
	return 0;
}

/* Whether the jobs, and the pairs, come from several hosts: each row of
 * a table asks. */
static void multi_host_of(struct rio_resultdoc *rd)
{
	const char *first = NULL;
	size_t i;

	for (i = 0; i < rd->njobs && !rd->jobs_multi_host; i++)
		rd->jobs_multi_host = host_differs(&first, rd->jobs[i].host);
	first = NULL;
	for (i = 0; i < rd->npairs && !rd->pairs_multi_host; i++)
		rd->pairs_multi_host = host_differs(&first, rd->pairs[i].host);
}

static int read_new(json_object *doc, int top, struct rio_resultdoc **out);

/* Each round's own model, read as a round: what a round holds of rounds
 * is not read, so a crafted result cannot nest them. */
static int rounds_of(struct rio_resultdoc *rd)
{
	json_object *rs = rio_json_get(rd->doc, "rounds");
	int k;

	rd->rounds =
		rio_arena_calloc(&rd->arena, rd->nrounds, sizeof(*rd->rounds));
	if (!rd->rounds)
		return -ENOMEM;
	for (k = 0; k < rd->nrounds; k++)
		if (read_new(json_object_array_get_idx(rs, k), 0,
			     &rd->rounds[k]))
			return -ENOMEM;
	return 0;
}

static int read_all(struct rio_resultdoc *rd, int top)
{
	json_object *rs = rio_json_get(rd->doc, "results");
	json_object *cs = rio_json_get(rd->doc, "comparisons");
	json_object *bs = rio_json_get(rd->doc, "baselines");
	size_t i;

	rd->hostname = rio_json_str(rio_json_get(rd->doc, "host"), "hostname");
	rd->nrounds =
		top ? (int)rio_json_len(rio_json_get(rd->doc, "rounds")) : 0;
	rd->has_cpu = rio_json_get(rd->doc, "cpu") != NULL;
	rd->cpu_match = rio_json_str(rio_json_get(rd->doc, "cpu"), "match");
	rd->link_ceiling = link_ceiling_of(rio_json_get(rd->doc, "links"));
	rd->jobs = rio_arena_calloc(&rd->arena, rio_json_len(rs),
				    sizeof(*rd->jobs));
	rd->pairs = rio_arena_calloc(&rd->arena, rio_json_len(cs),
				     sizeof(*rd->pairs));
	rd->baselines = rio_arena_calloc(&rd->arena, rio_json_len(bs),
					 sizeof(*rd->baselines));
	if (!rd->jobs || !rd->pairs || !rd->baselines)
		return -ENOMEM;
	for (; rd->njobs < rio_json_len(rs); rd->njobs++)
		if (job_of(&rd->arena, &rd->jobs[rd->njobs],
			   json_object_array_get_idx(rs, rd->njobs)))
			return -ENOMEM;
	for (; rd->npairs < rio_json_len(cs); rd->npairs++)
		if (pair_of(&rd->arena, &rd->pairs[rd->npairs],
			    json_object_array_get_idx(cs, rd->npairs)))
			return -ENOMEM;
	for (i = 0; i < rio_json_len(bs); i++, rd->nbaselines++)
		if (baseline_of(&rd->arena, &rd->baselines[i],
				json_object_array_get_idx(bs, i)))
			return -ENOMEM;
	if (findings_of(rd) || rounds_of(rd))
		return -ENOMEM;
	multi_host_of(rd);
	return cpu_hosts_of(rd);
}

/* A model of doc: a result (top), or one of its rounds. */
static int read_new(json_object *doc, int top, struct rio_resultdoc **out)
{
	struct rio_resultdoc *rd = calloc(1, sizeof(*rd));

	*out = NULL;
	if (!rd)
		return -ENOMEM;
	rd->doc = json_object_get(doc);
	if (read_all(rd, top)) {
		rio_resultdoc_delete(&rd);
		return -ENOMEM;
	}
	*out = rd;
	return 0;
}

int rio_resultdoc_read(json_object *doc, struct rio_resultdoc **out)
{
	return read_new(doc, 1, out);
}

void rio_resultdoc_delete(struct rio_resultdoc **rdp)
{
	struct rio_resultdoc *rd = *rdp;
	int k;

	if (!rd)
		return;
	for (k = 0; rd->rounds && k < rd->nrounds; k++)
		rio_resultdoc_delete(&rd->rounds[k]);
	rio_arena_free(&rd->arena);
	json_object_put(rd->doc);
	free(rd);
	*rdp = NULL;
}

const char *rio_resultdoc_hostname(const struct rio_resultdoc *rd)
{
	return rd->hostname;
}

int rio_resultdoc_nrounds(const struct rio_resultdoc *rd)
{
	return rd->nrounds;
}

const struct rio_resultdoc *rio_resultdoc_round(const struct rio_resultdoc *rd,
						int k)
{
	if (!rd->nrounds)
		return k == 0 ? rd : NULL;
	return k >= 0 && k < rd->nrounds ? rd->rounds[k] : NULL;
}

static int same_job(const struct rio_res_job *a, const struct rio_res_job *b)
{
	return rio_streq_or_null(a->host, b->host) &&
	       rio_streq_or_null(a->jobname, b->jobname);
}

static int same_pair(const struct rio_res_pair *a, const struct rio_res_pair *b)
{
	return rio_streq_or_null(a->host, b->host) &&
	       rio_streq_or_null(a->workload, b->workload) &&
	       rio_streq(a->against, b->against) &&
	       rio_streq_or_null(a->direction, b->direction) &&
	       rio_streq_or_null(a->tcp_direction, b->tcp_direction);
}

int rio_resultdoc_job_occurrence(const struct rio_resultdoc *rd, size_t i)
{
	size_t j;
	int n = 0;

	for (j = 0; j < i && i < rd->njobs; j++)
		n += same_job(&rd->jobs[j], &rd->jobs[i]);
	return n;
}

const struct rio_res_job *rio_resultdoc_job_find(const struct rio_resultdoc *rd,
						 const struct rio_res_job *like,
						 int occ)
{
	size_t i;

	for (i = 0; i < rd->njobs; i++)
		if (same_job(&rd->jobs[i], like) && occ-- == 0)
			return &rd->jobs[i];
	return NULL;
}

int rio_resultdoc_pair_occurrence(const struct rio_resultdoc *rd, size_t i)
{
	size_t j;
	int n = 0;

	for (j = 0; j < i && i < rd->npairs; j++)
		n += same_pair(&rd->pairs[j], &rd->pairs[i]);
	return n;
}

int rio_resultdoc_pair_is_one_of_several(const struct rio_resultdoc *rd,
					 const struct rio_res_pair *p)
{
	size_t i;
	int n = 0;

	for (i = 0; i < rd->npairs; i++)
		n += rio_streq(rd->pairs[i].workload, p->workload) &&
		     rio_streq(rd->pairs[i].host, p->host) &&
		     rio_streq(rd->pairs[i].against, p->against);
	return n > 1;
}

const struct rio_res_pair *
rio_resultdoc_pair_against(const struct rio_resultdoc *rd,
			   const struct rio_res_pair *p, const char *against)
{
	struct rio_res_pair like = *p;
	size_t i;
	int occ = 0;

	for (i = 0; i < rd->npairs && &rd->pairs[i] != p; i++)
		occ += same_pair(&rd->pairs[i], p);
	like.against = against;
	return rio_resultdoc_pair_find(rd, &like, occ);
}

int rio_res_pair_is_nconnect(const struct rio_res_pair *p)
{
	return rio_streq(p->against, "tcp-nconnect");
}

const char *rio_res_pair_against_name(const struct rio_res_pair *p)
{
	return rio_res_pair_is_nconnect(p) ? "TCP nconnect" : "TCP";
}

const struct rio_res_pair *
rio_resultdoc_pair_find(const struct rio_resultdoc *rd,
			const struct rio_res_pair *like, int occ)
{
	size_t i;

	for (i = 0; i < rd->npairs; i++)
		if (same_pair(&rd->pairs[i], like) && occ-- == 0)
			return &rd->pairs[i];
	return NULL;
}

int rio_res_pair_ran_on(const struct rio_res_pair *p, const char *host)
{
	size_t i;

	if (!host)
		return 0;
	for (i = 0; i < p->nclients; i++)
		if (rio_streq(p->clients[i], host))
			return 1;
	return !p->nclients && rio_streq(p->host, host);
}

int rio_resultdoc_has_cpu(const struct rio_resultdoc *rd)
{
	return rd->has_cpu;
}

const char *rio_resultdoc_cpu_match(const struct rio_resultdoc *rd)
{
	return rd->cpu_match;
}

double rio_resultdoc_link_ceiling(const struct rio_resultdoc *rd)
{
	return rd->link_ceiling;
}

int rio_resultdoc_jobs_multi_host(const struct rio_resultdoc *rd)
{
	return rd->jobs_multi_host;
}

int rio_resultdoc_pairs_multi_host(const struct rio_resultdoc *rd)
{
	return rd->pairs_multi_host;
}

size_t rio_resultdoc_njobs(const struct rio_resultdoc *rd)
{
	return rd->njobs;
}

const struct rio_res_job *rio_resultdoc_job(const struct rio_resultdoc *rd,
					    size_t i)
{
	return i < rd->njobs ? &rd->jobs[i] : NULL;
}

size_t rio_resultdoc_npairs(const struct rio_resultdoc *rd)
{
	return rd->npairs;
}

const struct rio_res_pair *rio_resultdoc_pair(const struct rio_resultdoc *rd,
					      size_t i)
{
	return i < rd->npairs ? &rd->pairs[i] : NULL;
}

size_t rio_resultdoc_nbaselines(const struct rio_resultdoc *rd)
{
	return rd->nbaselines;
}

const struct rio_res_baseline *
rio_resultdoc_baseline(const struct rio_resultdoc *rd, size_t i)
{
	return i < rd->nbaselines ? &rd->baselines[i] : NULL;
}

size_t rio_resultdoc_nchecks(const struct rio_resultdoc *rd)
{
	return rd->nchecks;
}

const struct rio_res_check *rio_resultdoc_check(const struct rio_resultdoc *rd,
						size_t i)
{
	return i < rd->nchecks ? &rd->checks[i] : NULL;
}

size_t rio_resultdoc_nwarnings(const struct rio_resultdoc *rd)
{
	return rd->nwarnings;
}

int rio_resultdoc_warned(const struct rio_resultdoc *rd, const char *code)
{
	size_t i;

	for (i = 0; code && i < rd->nwarnings; i++)
		if (rd->warnings[i].code && !strcmp(rd->warnings[i].code, code))
			return 1;
	return 0;
}

const struct rio_res_warning *
rio_resultdoc_warning(const struct rio_resultdoc *rd, size_t i)
{
	return i < rd->nwarnings ? &rd->warnings[i] : NULL;
}

size_t rio_resultdoc_ncpu_hosts(const struct rio_resultdoc *rd)
{
	return rd->ncpu_hosts;
}

const char *rio_resultdoc_cpu_host(const struct rio_resultdoc *rd, size_t i)
{
	return i < rd->ncpu_hosts ? rd->cpu_hosts[i] : NULL;
}

const struct rio_res_cpu *rio_res_cpus_find(const struct rio_res_cpus *cpus,
					    const char *host)
{
	size_t i;

	for (i = 0; host && i < cpus->n; i++)
		if (cpus->v[i].host && !strcmp(cpus->v[i].host, host))
			return &cpus->v[i];
	return NULL;
}
