// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result/derive.h"
#include "result/fiooutput.h"
#include "result/resultdoc.h"
#include "base/jsonread.h"
#include "result/summary.h"
#include "base/units.h"
#include "base/streq.h"

/* All fio entries of one job on one host (numjobs=N without
 * group_reporting gives N entries with the same name). */
struct side {
	const struct rio_fio_job **e;
	int n;
};

static int has_host(const char *const *hosts, int nhosts, const char *host)
{
	while (nhosts-- > 0)
		if (!strcmp(hosts[nhosts], host))
			return 1;
	return 0;
}

/* The entries of the job on any of the hosts. */
static void collect_on(const struct rio_fio_output *fio,
		       const char *const *hosts, int nhosts,
		       const char *jobname, struct side *s)
{
	int i, n = rio_fio_output_njobs(fio);
	const struct rio_fio_job *e, **ne;

	s->e = NULL;
	s->n = 0;
	for (i = 0; i < n; i++) {
		e = rio_fio_output_job(fio, i);
		if (!has_host(hosts, nhosts, e->host) || !e->jobname ||
		    strcmp(e->jobname, jobname))
			continue;
		ne = realloc(s->e, (s->n + 1) * sizeof(*ne));
		if (!ne)
			return;
		s->e = ne;
		s->e[s->n++] = e;
	}
}

static void collect(const struct rio_fio_output *fio, const char *host,
		    const char *jobname, struct side *s)
{
	collect_on(fio, &host, 1, jobname, s);
}

enum figure { BW, IOPS, BYTES };

static double sum(const struct side *s, int dir, enum figure f)
{
	const struct rio_fio_dir *d;
	double v = 0;
	int i;

	for (i = 0; i < s->n; i++) {
		d = &s->e[i]->dir[dir];
		v += f == BW	 ? d->bw_bytes.d
		     : f == IOPS ? d->iops.d
				 : d->io_bytes.d;
	}
	return v;
}

#define GIB (1024.0 * 1024 * 1024)

/* fio's own CPU time of the side's job threads per GiB it moved, both
 * ways: in a mixed job the same CPU serves reads and writes. */
static double cpu_per_gib(const struct side *s)
{
	double cpu = 0, bytes = sum(s, RIO_FIO_READ, BYTES) +
				sum(s, RIO_FIO_WRITE, BYTES);
	int i;

	for (i = 0; i < s->n; i++) {
		if (!s->e[i]->usr_cpu.set)
			return NAN;
		cpu += rio_fio_job_cpu_s(s->e[i]);
	}
	return bytes > 0 ? cpu * GIB / bytes : NAN;
}

static json_object *side_json(const struct side *s, const char *jobname,
			      int dir)
{
	json_object *o = json_object_new_object(), *lat, *mean = NULL;

	/* Only a single entry's mean is fio's own; merging means would need
	 * each entry's sample count. */
	if (s->n == 1)
		mean = rio_fio_num_json(&s->e[0]->dir[dir].clat_mean);
	lat = json_object_new_object();
	json_object_object_add(lat, "mean", mean);
	json_object_object_add(lat, "p50",
			       rio_json_num_or_null(rio_summary_clat_pct(
				       s->e, s->n, dir, 50)));
	json_object_object_add(lat, "p99",
			       rio_json_num_or_null(rio_summary_clat_pct(
				       s->e, s->n, dir, 99)));
	json_object_object_add(lat, "p99_9",
			       rio_json_num_or_null(rio_summary_clat_pct(
				       s->e, s->n, dir, 99.9)));
	json_object_object_add(o, "jobname", json_object_new_string(jobname));
	json_object_object_add(o, "entries", json_object_new_int(s->n));
	json_object_object_add(o, "bw_bytes",
			       json_object_new_int64((int64_t)sum(s, dir, BW)));
	json_object_object_add(o, "iops",
			       json_object_new_double(sum(s, dir, IOPS)));
	json_object_object_add(o, "clat_ns", lat);
	json_object_object_add(o, "fio_cpu_per_gib_s",
			       rio_json_num_or_null(cpu_per_gib(s)));
	return o;
}

static double ratio_of(double a, double b)
{
	return b > 0 && !isnan(a) && !isnan(b) ? a / b : NAN;
}

static json_object *ratio(double a, double b)
{
	return rio_json_num_or_null(ratio_of(a, b));
}

/*
 * What a pair measures: "bandwidth" from 32 KiB per I/O up; below that
 * "latency" when both sides kept one request in flight (fio's
 * iodepth_level "1" holds 99 % or more of the time: round trips), else
 * "iops".
 */
static const char *pair_kind(const struct side *r, int rdir,
			     const struct side *t)
{
	double depth1 = 100, bw = sum(r, rdir, BW), iops = sum(r, rdir, IOPS);
	int i;

	if (!(iops > 0) || bw / iops >= 32768)
		return "bandwidth";
	for (i = 0; i < r->n + t->n; i++)
		depth1 =
			fmin(depth1,
			     (i < r->n ? r->e[i] : t->e[i - r->n])->depth1_pct);
	return depth1 >= 99 ? "latency" : "iops";
}

/* One phrase per known ratio, "RDMA 2.40x bandwidth, ..." */
static void add_phrase(char *buf, size_t n, int *count, double v,
		       const char *what)
{
	char r[RIO_UNITS_LEN];

	if (isnan(v))
		return;
	rio_units_ratio(r, v);
	snprintf(buf + strlen(buf), n - strlen(buf), "%s%s %s",
		 (*count)++ ? ", " : " ", r, what);
}

/* "0.30x CPU per GiB on lab-server", for each host whose CPU was watched. */
static void host_phrases(char *v, size_t n, int *k,
			 const struct rio_res_pair *c, const char *per)
{
	const struct rio_res_cpus *hc = &c->host_cpu_per_gib;
	char what[300];
	size_t i;

	for (i = 0; i < hc->n; i++) {
		snprintf(what, sizeof(what), "CPU per %s on %s", per,
			 hc->v[i].host);
		add_phrase(v, n, k, hc->v[i].ratio, what);
	}
}

static json_object *verdict(const struct rio_res_pair *c, int label_dir,
			    const char *caveat)
{
	const char *kind = c->kind ?: "bandwidth";
	int lat = !strcmp(kind, "latency"), iops = !strcmp(kind, "iops");
	char v[1024], clients[64] = "";
	int k = 0;

	/* "seq-read, 3 clients: RDMA vs TCP 1.40x aggregate bandwidth" */
	if (c->nclients)
		snprintf(clients, sizeof(clients), ", %zu clients",
			 c->nclients);
	if (label_dir)
		snprintf(v, sizeof(v), "%s (%s)%s: RDMA vs %s", c->workload,
			 c->direction, clients, rio_res_pair_against_name(c));
	else
		snprintf(v, sizeof(v), "%s%s: RDMA vs %s", c->workload, clients,
			 rio_res_pair_against_name(c));
	if (lat) {
		add_phrase(v, sizeof(v), &k, c->p50_ratio, "p50 latency");
		add_phrase(v, sizeof(v), &k, c->p99_ratio, "p99 latency");
		add_phrase(v, sizeof(v), &k, c->iops_ratio, "round trips/s");
	} else {
		add_phrase(v, sizeof(v), &k, iops ? c->iops_ratio : c->bw_ratio,
			   c->nclients ? (iops ? "aggregate IOPS"
					       : "aggregate bandwidth")
			   : iops      ? "IOPS"
				       : "bandwidth");
		add_phrase(v, sizeof(v), &k, c->p99_ratio, "p99 latency");
	}
	if (c->host_cpu_per_gib.n)
		host_phrases(v, sizeof(v), &k, c,
			     lat    ? "round trip"
			     : iops ? "I/O"
				    : "GiB");
	else if (!lat)
		add_phrase(v, sizeof(v), &k, c->fio_cpu_per_gib_ratio,
			   "client fio CPU per GiB");
	if (!k)
		return NULL;
	if (caveat)
		snprintf(v + strlen(v), sizeof(v) - strlen(v), " (%s)", caveat);
	return json_object_new_string(v);
}

int rio_derive_pairs_add(json_object *doc, const char *key,
			 rio_derive_pair_fn *fn, void *ctx)
{
	json_object *cs = rio_json_get(doc, "comparisons");
	struct rio_resultdoc *rd;
	json_object **v;
	size_t i, n;
	int err;

	err = rio_resultdoc_read(doc, &rd);
	if (err)
		return err;
	n = rio_resultdoc_npairs(rd);
	v = calloc(n ? n : 1, sizeof(*v));
	for (i = 0; v && i < n; i++)
		v[i] = fn(rd, rio_resultdoc_pair(rd, i), ctx);
	rio_resultdoc_delete(&rd);
	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		json_object_object_add(json_object_array_get_idx(cs, i), key,
				       v[i]);
	free(v);
	return 0;
}

static json_object *pair_verdict(const struct rio_resultdoc *rd,
				 const struct rio_res_pair *c, void *caveat)
{
	return verdict(c, rio_resultdoc_pair_is_one_of_several(rd, c), caveat);
}

int rio_derive_verdicts(json_object *doc, const char *caveat)
{
	return rio_derive_pairs_add(doc, "verdict", pair_verdict,
				    (void *)caveat);
}

/* The names of one pair's jobs: its workload, and which TCP it is against
 * ("tcp", "tcp-nconnect"). */
struct pairname {
	const char *workload, *against, *rname, *tname;
};

static void add_comparison(json_object *arr, const char *host,
			   const struct pairname *pn, const struct side *r,
			   int rdir, const struct side *t, int tdir)
{
	json_object *c = json_object_new_object();
	const char *kind = pair_kind(r, rdir, t);

	json_object_object_add(c, "host", json_object_new_string(host));
	json_object_object_add(c, "workload",
			       json_object_new_string(pn->workload));
	json_object_object_add(c, "against",
			       json_object_new_string(pn->against));
	json_object_object_add(c, "direction",
			       json_object_new_string(rio_fio_dir_name(rdir)));
	json_object_object_add(c, "tcp_direction",
			       json_object_new_string(rio_fio_dir_name(tdir)));
	json_object_object_add(c, "kind", json_object_new_string(kind));
	json_object_object_add(c, "rdma", side_json(r, pn->rname, rdir));
	json_object_object_add(c, "tcp", side_json(t, pn->tname, tdir));
	json_object_object_add(c, "bw_ratio",
			       ratio(sum(r, rdir, BW), sum(t, tdir, BW)));
	json_object_object_add(c, "iops_ratio",
			       ratio(sum(r, rdir, IOPS), sum(t, tdir, IOPS)));
	json_object_object_add(
		c, "p50_ratio",
		ratio(rio_summary_clat_pct(r->e, r->n, rdir, 50),
		      rio_summary_clat_pct(t->e, t->n, tdir, 50)));
	json_object_object_add(
		c, "p99_ratio",
		ratio(rio_summary_clat_pct(r->e, r->n, rdir, 99),
		      rio_summary_clat_pct(t->e, t->n, tdir, 99)));
	json_object_object_add(c, "fio_cpu_per_gib_ratio",
			       ratio(cpu_per_gib(r), cpu_per_gib(t)));
	json_object_array_add(arr, c);
}

/* The one direction a side moved data in, or -1 (none, or both). */
static int only_direction(const struct side *s)
{
	int rd = sum(s, RIO_FIO_READ, BYTES) > 0;
	int wr = sum(s, RIO_FIO_WRITE, BYTES) > 0;

	return rd == wr ? -1 : rd ? RIO_FIO_READ : RIO_FIO_WRITE;
}

/* Adds the pair's comparisons: how many. */
static int compare_pair(json_object *arr, const char *host,
			const struct pairname *pn, const struct side *r,
			const struct side *t)
{
	int rd = only_direction(r), td = only_direction(t), d, n = 0;

	for (d = 0; d < RIO_FIO_NDIRS; d++) {
		if (sum(r, d, BYTES) <= 0 || sum(t, d, BYTES) <= 0)
			continue;
		add_comparison(arr, host, pn, r, d, t, d);
		n++;
	}
	/*
	 * A round trip can count as a read on one transport and a write on
	 * the other (RDMA READ against fio's net engine in ping-pong mode):
	 * when each side moved data one way only, those two are the pair.
	 */
	if (!n && rd >= 0 && td >= 0) {
		add_comparison(arr, host, pn, r, rd, t, td);
		n++;
	}
	return n;
}

/* Whether an entry before upto is the job's (on host; NULL: any host). */
static int seen_before(const struct rio_fio_output *fio, int upto,
		       const char *host, const char *name)
{
	const struct rio_fio_job *e;
	int i;

	for (i = 0; i < upto; i++) {
		e = rio_fio_output_job(fio, i);
		if (e->jobname && (!host || !strcmp(e->host, host)) &&
		    !strcmp(e->jobname, name))
			return 1;
	}
	return 0;
}

/* The hosts that ran both jobs, in fio's order: how many (hosts is
 * malloc'd), or -ENOMEM. */
static int pair_hosts(const struct rio_fio_output *fio, const char *rname,
		      const char *tname, const char ***hosts)
{
	int i, nh = 0, n = rio_fio_output_njobs(fio);
	const struct rio_fio_job *e;
	const char **nv;

	*hosts = NULL;
	for (i = 0; i < n; i++) {
		e = rio_fio_output_job(fio, i);
		if (!e->jobname || strcmp(e->jobname, rname) ||
		    has_host(*hosts, nh, e->host) ||
		    !seen_before(fio, n, e->host, tname))
			continue;
		nv = realloc(*hosts, (nh + 1) * sizeof(*nv));
		if (!nv) {
			free(*hosts);
			*hosts = NULL;
			return -ENOMEM;
		}
		*hosts = nv;
		nv[nh++] = e->host;
	}
	return nh;
}

/*
 * A pair that several hosts ran in one fio run (fio --client per host, all
 * at once): one more comparison of their sum, host RIO_DERIVE_ALL_CLIENTS,
 * with the hosts in "clients". Bandwidth and IOPS add up, the percentiles
 * come from the hosts' merged histograms. fio's own "All clients" entries
 * are not used: fio 3.33 sends one for a single group of a run only.
 */
static void compare_all_clients(json_object *arr,
				const struct rio_fio_output *fio,
				const struct pairname *pn)
{
	const char **hosts;
	json_object *names;
	struct side r, t;
	int nh, k, i;

	nh = pair_hosts(fio, pn->rname, pn->tname, &hosts);
	if (nh < 2) {
		free(hosts);
		return;
	}
	collect_on(fio, hosts, nh, pn->rname, &r);
	collect_on(fio, hosts, nh, pn->tname, &t);
	k = compare_pair(arr, RIO_DERIVE_ALL_CLIENTS, pn, &r, &t);
	while (k-- > 0) {
		names = json_object_new_array();
		for (i = 0; i < nh; i++)
			json_object_array_add(names,
					      json_object_new_string(hosts[i]));
		json_object_object_add(json_object_array_get_idx(
					       arr, rio_json_len(arr) - 1 - k),
				       "clients", names);
	}
	free(r.e);
	free(t.e);
	free(hosts);
}

/* The TCP jobs an RDMA job is compared with, in this order: "-<against>". */
static const char *const against[] = { "tcp", "tcp-nconnect" };
#define NAGAINST (sizeof(against) / sizeof(against[0]))

/* Entry i's job is an RDMA job first seen there (on its host, or on any
 * host when all): its workload, malloc'd. */
static int rdma_job_at(const struct rio_fio_output *fio, int i, int all,
		       char **workload)
{
	const struct rio_fio_job *e = rio_fio_output_job(fio, i);
	const char *tr;
	size_t wlen;

	if (!e->jobname ||
	    seen_before(fio, i, all ? NULL : e->host, e->jobname))
		return 0;
	tr = rio_summary_transport(e->jobname, &wlen);
	if (!tr || strcmp(tr, "rdma"))
		return 0;
	*workload = strndup(e->jobname, wlen);
	return *workload != NULL;
}

/* Pair k of the RDMA job at entry i: pn, with its TCP job's name
 * malloc'd; 0 when that cannot be made. */
static int pairname_of(const struct rio_fio_output *fio, int i,
		       const char *workload, size_t k, struct pairname *pn,
		       char **tname)
{
	if (asprintf(tname, "%s-%s", workload, against[k]) < 0)
		return 0;
	pn->workload = workload;
	pn->against = against[k];
	pn->rname = rio_fio_output_job(fio, i)->jobname;
	pn->tname = *tname;
	return 1;
}

/* The pair pn of host's jobs, on that host alone. */
static void compare_on_host(json_object *arr, const struct rio_fio_output *fio,
			    const char *host, const struct pairname *pn)
{
	struct side r, t;

	collect(fio, host, pn->rname, &r);
	collect(fio, host, pn->tname, &t);
	if (r.n && t.n)
		compare_pair(arr, host, pn, &r, &t);
	free(r.e);
	free(t.e);
}

json_object *rio_derive_comparisons(const struct rio_fio_output *fio)
{
	json_object *arr = json_object_new_array();
	int i, all, n = rio_fio_output_njobs(fio);
	char *workload, *tname;
	struct pairname pn;
	size_t k;

	/* The RDMA jobs in fio's order so the output order is stable: each
	 * host's own pairs first, then the sums of those several hosts ran. */
	for (all = 0; all < 2; all++) {
		for (i = 0; i < n; i++) {
			if (!rdma_job_at(fio, i, all, &workload))
				continue;
			for (k = 0; k < NAGAINST; k++) {
				if (!pairname_of(fio, i, workload, k, &pn,
						 &tname))
					continue;
				if (all)
					compare_all_clients(arr, fio, &pn);
				else
					compare_on_host(
						arr, fio,
						rio_fio_output_job(fio, i)->host,
						&pn);
				free(tname);
			}
			free(workload);
		}
	}
	return arr;
}
