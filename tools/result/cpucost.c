// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result/cpucost.h"
#include "result/derive.h"
#include "result/fiooutput.h"
#include "result/hostmap.h"
#include "result/resultdoc.h"
#include "base/jsonread.h"
#include "base/streq.h"
#include "result/summary.h"

struct window {
	double a, b; /* on this host's CLOCK_MONOTONIC; b == 0: none */
};

static double task_end(const struct rio_task *t)
{
	/* It ended between the last walk that saw it and the first that
	 * did not. */
	return t->gone ? (t->last + t->gone) / 2 : t->last;
}

/*
 * The job's I/O time: per direction fio gives the longest of its jobs
 * (job_runtime sums the jobs of a group_reporting entry).
 */
static void set_window(struct window *w, double end,
		       const struct rio_fio_job *job)
{
	double runtime = fmax(job->dir[RIO_FIO_READ].runtime_ms.d,
			      job->dir[RIO_FIO_WRITE].runtime_ms.d) /
			 1000;

	if (!(runtime > 0))
		runtime = job->job_runtime_ms.d / 1000;
	if (runtime > 0 && end > 0) {
		w->a = end - runtime;
		w->b = end;
	}
}

/* One fio run on this host: its entries (indexes into the output) and the
 * tasks of the fio that ran them. */
struct part {
	int *e;
	int ne;
	const struct rio_task **t;
	int nt;
};

static double chunk_end(const struct part *p, int from, int n)
{
	double e = 0;
	int j;

	for (j = 0; j < n; j++)
		e = fmax(e, task_end(p->t[from + j]));
	return e;
}

/* Groups of a part's tasks whose lifetimes overlap: their ends. */
static int part_clusters(const struct part *p, double *end)
{
	double cur = -INFINITY;
	int i, k = -1;

	for (i = 0; i < p->nt; i++) {
		if (p->t[i]->first > cur)
			end[++k] = -INFINITY;
		end[k] = fmax(end[k], task_end(p->t[i]));
		cur = fmax(cur, task_end(p->t[i]));
	}
	return k + 1;
}

/*
 * Windows for one part: a task per entry; or, when every entry had as many
 * (numjobs with group_reporting), that many tasks in the order fio made
 * them; or a group of tasks that ran at the same time per entry. Returns
 * the way, or NULL.
 */
static const char *match_part(const struct rio_fio_output *fio,
			      const struct part *p, struct window *w)
{
	double *end = calloc(p->nt ? p->nt : 1, sizeof(*end));
	const char *how = NULL;
	int i, k;

	if (!end || !p->ne) {
		how = NULL;
	} else if (p->nt == p->ne) {
		for (i = 0; i < p->nt; i++)
			set_window(&w[p->e[i]], task_end(p->t[i]),
				   rio_fio_output_job(fio, p->e[i]));
		how = "one task per job";
	} else if (p->nt > p->ne && p->nt % p->ne == 0) {
		k = p->nt / p->ne;
		for (i = 0; i < p->ne; i++)
			set_window(&w[p->e[i]], chunk_end(p, i * k, k),
				   rio_fio_output_job(fio, p->e[i]));
		how = "the same number of tasks per job, in the order fio made them";
	} else if (part_clusters(p, end) == p->ne) {
		for (i = 0; i < p->ne; i++)
			set_window(&w[p->e[i]], end[i],
				   rio_fio_output_job(fio, p->e[i]));
		how = "one group of tasks running together per job";
	}
	free(end);
	return how;
}

/* The fio run (index into this host's job files) an entry came from, from
 * the --section filters rdmaio gave this host; -1 when unknown. */
static int run_of(const struct rio_fio_host *h, const char *job)
{
	int s;

	for (s = 0; h && job && s < h->nsections; s++)
		if (!strcmp(h->sections[s], job))
			return h->section_job[s];
	return -1;
}

static const struct rio_fio_host *local_host(const struct rio_fio_host *hosts,
					     int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (hosts[i].local && hosts[i].nsections)
			return &hosts[i];
	return NULL;
}

/* The runners in the order they started (tasks come sorted by start). */
static int runner_index(const struct rio_task *t, int nt, int runner)
{
	int i, k = -1, last = 0;

	for (i = 0; i < nt; i++) {
		if (t[i].runner != last) {
			int j;

			for (j = 0; j < i && t[j].runner != t[i].runner; j++)
				;
			k += j == i;
			last = t[i].runner;
		}
		if (t[i].runner == runner)
			return k;
	}
	return -1;
}

static int nrunners(const struct rio_task *t, int nt)
{
	int i, n = 0;

	for (i = 0; i < nt; i++)
		n = n > runner_index(t, nt, t[i].runner) + 1
			    ? n
			    : runner_index(t, nt, t[i].runner) + 1;
	return n;
}

/*
 * The part (fio run) of each entry and task: with --section filters, an
 * entry's run is its section's job file, and the k-th run's tasks are the
 * k-th runner's; without them, or when the runs and runners disagree in
 * number, everything is one part. Returns the number of parts.
 */
static int assign(const struct rio_fio_output *fio, const int *local,
		  int nlocal, const struct rio_task *t, int nt,
		  const struct rio_fio_host *h, int *epart, int *tpart)
{
	int i, j, nruns = 0, runs[64], r;

	for (i = 0; h && i < nlocal; i++) {
		r = run_of(h, rio_fio_output_job(fio, local[i])->jobname);
		for (j = 0; j < nruns && runs[j] != r; j++)
			;
		if (r < 0 || (j == nruns && nruns == 64)) {
			nruns = 0;
			break;
		}
		if (j == nruns)
			runs[nruns++] = r;
		epart[i] = j;
	}
	if (!nruns || nruns != nrunners(t, nt)) {
		for (i = 0; i < nlocal; i++)
			epart[i] = 0;
		for (i = 0; i < nt; i++)
			tpart[i] = 0;
		return 1;
	}
	for (i = 0; i < nt; i++)
		tpart[i] = runner_index(t, nt, t[i].runner);
	return nruns;
}

static void part_of(int k, const int *local, const int *epart, int nlocal,
		    const struct rio_task *t, const int *tpart, int nt,
		    struct part *p)
{
	int i;

	p->ne = p->nt = 0;
	for (i = 0; i < nlocal; i++)
		if (epart[i] == k)
			p->e[p->ne++] = local[i];
	for (i = 0; i < nt; i++)
		if (tpart[i] == k)
			p->t[p->nt++] = &t[i];
}

/* Windows for this host's entries; says how, or why not, in how. */
static int match(const struct rio_fio_output *fio, const int *local, int nlocal,
		 const struct rio_task *t, int nt, const struct rio_fio_host *h,
		 struct window *w, char *how, size_t len)
{
	int *epart = calloc(nlocal + 1, sizeof(int));
	int *tpart = calloc(nt + 1, sizeof(int)), k, n, ok = 0;
	struct part p = { .e = calloc(nlocal + 1, sizeof(int)),
			  .t = calloc(nt + 1, sizeof(*p.t)) };
	const char *way;
	double *end = calloc(nt + 1, sizeof(double));

	snprintf(how, len, "out of memory");
	if (!epart || !tpart || !p.e || !p.t || !end)
		goto out;
	if (!nlocal) {
		snprintf(how, len, "no job ran on this host");
		goto out;
	}
	n = assign(fio, local, nlocal, t, nt, h, epart, tpart);
	snprintf(how, len, "%s", n > 1 ? "per fio run:" : "");
	for (k = 0; k < n; k++) {
		part_of(k, local, epart, nlocal, t, tpart, nt, &p);
		way = match_part(fio, &p, w);
		ok += way != NULL;
		snprintf(how + strlen(how), len - strlen(how), "%s%s",
			 n > 1 ? (k ? "; " : " ") : "", way ? way : "");
		if (!way)
			snprintf(
				how + strlen(how), len - strlen(how),
				"%d jobs on this host did not match its %d fio tasks one by one, in equal numbers, nor as %d groups of tasks that ran together: they get no window",
				p.ne, p.nt, part_clusters(&p, end));
	}
	ok = ok == n;
out:
	free(epart);
	free(tpart);
	free(p.e);
	free(p.t);
	free(end);
	return ok;
}

/* One host's CPU over one window: busy is user + nice + system + irq +
 * softirq (idle, iowait and a hypervisor's steal are not this host's
 * work), for what m moved. */
struct cost {
	double f[RIO_CPU_NFIELDS], busy_s, window_s, busy_pct;
	struct rio_moved m;
};

/* 0 when the series does not cover the window. */
static int cost_of(const struct rio_cpustat *v, int n, const struct window *w,
		   struct rio_moved m, struct cost *c)
{
	static const enum rio_cpustat_field busy[] = {
		RIO_CPU_USER, RIO_CPU_NICE, RIO_CPU_SYSTEM, RIO_CPU_IRQ,
		RIO_CPU_SOFTIRQ
	};
	size_t i;

	c->busy_s = 0;
	c->window_s = w->b - w->a;
	c->m = m;
	for (i = 0; i < RIO_CPU_NFIELDS; i++)
		c->f[i] = rio_cpustat_between(v, n, w->a, w->b, i);
	for (i = 0; i < sizeof(busy) / sizeof(busy[0]); i++)
		c->busy_s += c->f[busy[i]];
	c->busy_pct = 100 * c->busy_s / (c->window_s * v[0].ncpu);
	return !isnan(c->busy_s);
}

static json_object *cost_json(const char *host, const struct cost *c)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "host", json_object_new_string(host));
	json_object_object_add(o, "window_s",
			       json_object_new_double(c->window_s));
	json_object_object_add(o, "busy_s", json_object_new_double(c->busy_s));
	json_object_object_add(o, "user_s",
			       json_object_new_double(c->f[RIO_CPU_USER] +
						      c->f[RIO_CPU_NICE]));
	json_object_object_add(o, "system_s",
			       json_object_new_double(c->f[RIO_CPU_SYSTEM]));
	json_object_object_add(o, "irq_s",
			       json_object_new_double(c->f[RIO_CPU_IRQ]));
	json_object_object_add(o, "softirq_s",
			       json_object_new_double(c->f[RIO_CPU_SOFTIRQ]));
	json_object_object_add(o, "busy_pct",
			       json_object_new_double(c->busy_pct));
	rio_summary_add_per_unit(o, c->busy_s, c->m);
	return o;
}

/* The CPU series of every watched host. */
struct series {
	const struct rio_cpu_series *v;
	int n;
};

/* The result's name of series s: this host's, or its fio client's. */
static char *series_host(const struct rio_cpu_series *s,
			 const struct rio_hostmap *map)
{
	const char *client = s->client;
	char *fio_name, *name;

	if (!client)
		return strdup(rio_hostmap_local(map));
	fio_name = rio_hostmap_fio_name(client);
	name = fio_name ? strdup(rio_hostmap_name(map, fio_name)) : NULL;
	free(fio_name);
	return name;
}

static json_object *costs(struct series cpu, const struct rio_hostmap *map,
			  const struct window *w, struct rio_moved m)
{
	json_object *arr = json_object_new_array();
	const struct rio_cpu_series *s;
	struct cost c;
	char *host;
	int i;

	for (i = 0; i < cpu.n; i++) {
		s = &cpu.v[i];
		host = series_host(s, map);
		if (host && s->v && cost_of(s->v, s->n, w, m, &c))
			json_object_array_add(arr, cost_json(host, &c));
		free(host);
	}
	return arr;
}

json_object *rio_cpucost_window(const struct rio_cpu_series *cpu, int ncpu,
				const struct rio_hostmap *map, double a,
				double b, struct rio_moved m)
{
	const struct window w = { a, b };

	return costs((struct series){ cpu, ncpu }, map, &w, m);
}

/* What pairs' CPU per GiB is over. */
struct pair_ctx {
	const struct rio_fio_output *fio;
	const struct rio_hostmap *map;
	struct series cpu;
	const struct window *w;
};

/*
 * The union of the windows of one side's job's entries, and what they
 * moved: the pair's host's entries, each with a window; or, for an "all
 * clients" pair, its client hosts' entries, over the windows of those that
 * ran on this host (the client hosts ran them at once, in one fio run).
 * 0 when there is no window.
 */
static int side_window(const struct pair_ctx *pc, const struct rio_res_pair *p,
		       const char *job, struct window *u, struct rio_moved *m)
{
	int i, n = rio_fio_output_njobs(pc->fio), found = 0;
	const struct rio_fio_job *e;
	struct rio_moved one;

	u->a = INFINITY;
	u->b = 0;
	*m = (struct rio_moved){ 0 };
	for (i = 0; i < n; i++) {
		e = rio_fio_output_job(pc->fio, i);
		if (!rio_res_pair_ran_on(p, e->host) || !e->jobname ||
		    strcmp(e->jobname, job ?: ""))
			continue;
		one = rio_summary_moved(e);
		m->bytes += one.bytes;
		m->ios += one.ios;
		if (!pc->w[i].b && !p->nclients)
			return 0;
		if (!pc->w[i].b)
			continue;
		u->a = fmin(u->a, pc->w[i].a);
		u->b = fmax(u->b, pc->w[i].b);
		found = 1;
	}
	return found;
}

/* One side of pair p on series s (one host's): its job's window and what
 * it moved. 0 when the job has no window or s does not cover it. */
static json_object *host_ratio(const char *host, const struct cost *r,
			       const struct cost *t)
{
	double a = rio_summary_per_gib(r->busy_s, r->m);
	double b = rio_summary_per_gib(t->busy_s, t->m);
	json_object *o = json_object_new_object();

	json_object_object_add(o, "host", json_object_new_string(host));
	json_object_object_add(o, "rdma_s", rio_json_num_or_null(a));
	json_object_object_add(o, "tcp_s", rio_json_num_or_null(b));
	json_object_object_add(o, "ratio",
			       rio_json_num_or_null(b > 0 ? a / b : NAN));
	return o;
}

/* Whether host ran a pair of p's workload of its own, other than p: another
 * client host of the same jobs. */
static int other_client(const struct rio_resultdoc *rd,
			const struct rio_res_pair *p, const char *host)
{
	const struct rio_res_pair *q;
	size_t i;

	for (i = 0; i < rio_resultdoc_npairs(rd); i++) {
		q = rio_resultdoc_pair(rd, i);
		if (q != p && !q->nclients && rio_streq(q->host, host) &&
		    !rio_streq(q->host, p->host) &&
		    rio_streq(q->workload, p->workload))
			return 1;
	}
	return 0;
}

/* Whether pair p's CPU per GiB on host means something: not for an "all
 * clients" pair on its clients (a client's CPU per GiB of all the clients'
 * bytes), nor for one host's pair on another client host of the same jobs
 * (its CPU went to its own jobs); on the servers, and on p's own host. */
static int cost_applies(const struct rio_resultdoc *rd,
			const struct rio_res_pair *p, const char *host)
{
	if (p->nclients)
		return !rio_res_pair_ran_on(p, host);
	return !other_client(rd, p, host);
}

/* Pair p's CPU per GiB, RDMA over TCP, on every watched host where it
 * applies. */
static json_object *pair_cost(const struct rio_resultdoc *rd,
			      const struct rio_res_pair *p, void *ctx)
{
	const struct pair_ctx *pc = ctx;
	json_object *arr = json_object_new_array();
	const struct rio_cpu_series *s;
	struct window ru, tu; /* each side's job's window */
	struct rio_moved rm, tm;
	struct cost r, t;
	char *host;
	int i;

	if (!side_window(pc, p, p->rdma.jobname, &ru, &rm) ||
	    !side_window(pc, p, p->tcp.jobname, &tu, &tm))
		return arr;
	for (i = 0; i < pc->cpu.n; i++) {
		s = &pc->cpu.v[i];
		host = series_host(s, pc->map);
		if (host && s->v && cost_applies(rd, p, host) &&
		    cost_of(s->v, s->n, &ru, rm, &r) &&
		    cost_of(s->v, s->n, &tu, tm, &t))
			json_object_array_add(arr, host_ratio(host, &r, &t));
		free(host);
	}
	return arr;
}

static json_object *cpu_doc(struct series cpu, const struct rio_hostmap *map,
			    const char *how, int matched)
{
	json_object *o = json_object_new_object(), *hosts, *h;
	char *name;
	int i;

	json_object_object_add(
		o, "method",
		json_object_new_string(
			"each host's /proc/stat about every 100 ms; a job's window ends when its fio process or thread on this host ended and starts its job_runtime before; busy = user + nice + system + irq + softirq"));
	json_object_object_add(o, "match", json_object_new_string(how));
	json_object_object_add(o, "matched", json_object_new_boolean(matched));
	hosts = json_object_new_array();
	for (i = 0; i < cpu.n; i++) {
		h = rio_runrecord_series_json(&cpu.v[i]);
		name = series_host(&cpu.v[i], map);
		json_object_object_add(h, "host",
				       json_object_new_string(name ?: "?"));
		free(name);
		json_object_array_add(hosts, h);
	}
	json_object_object_add(o, "hosts", hosts);
	return o;
}

int rio_cpucost_attribute(const struct rio_cpucost_in *in, json_object **out)
{
	int i, n = rio_fio_output_njobs(in->fio), nlocal = 0, matched = 0;
	const struct series cpu = { in->cpu, in->ncpu };
	struct window *w = calloc(n + 1, sizeof(*w));
	int *local = calloc(n + 1, sizeof(*local));
	struct pair_ctx ctx;
	json_object *results, *r;
	char how[1024];
	int err = 0;

	*out = NULL;
	if (!w || !local) {
		free(w);
		free(local);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		if (rio_hostmap_is_local(in->map,
					 rio_fio_output_job(in->fio, i)->host))
			local[nlocal++] = i;
	matched = match(in->fio, local, nlocal, in->tasks, in->ntasks,
			local_host(in->hosts, in->nhosts), w, how, sizeof(how));
	results = rio_json_get(in->doc, "results");
	for (i = 0; i < n; i++) {
		r = json_object_array_get_idx(results, i);
		json_object_object_add(
			r, "host_cpu",
			w[i].b ? costs(cpu, in->map, &w[i],
				       rio_summary_moved(
					       rio_fio_output_job(in->fio, i)))
			       : NULL);
	}
	ctx = (struct pair_ctx){ in->fio, in->map, cpu, w };
	err = rio_derive_pairs_add(in->doc, "host_cpu_per_gib", pair_cost,
				   &ctx);
	free(w);
	free(local);
	if (!err)
		*out = cpu_doc(cpu, in->map, how, matched);
	return err;
}
