// SPDX-License-Identifier: MIT
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "read/report.h"
#include "result/resultdoc.h"
#include "result/resultenv.h"
#include "read/cell.h"
#include "read/report_baselines.h"
#include "read/report_settings.h"
#include "read/report_three.h"
#include "base/units.h"

#define GIB (1024.0 * 1024 * 1024)

/* Whether pair i is the first of its host's own pairs (not a sum). */
static int first_of_host(const struct rio_resultdoc *rd, size_t i)
{
	const struct rio_res_pair *c = rio_resultdoc_pair(rd, i), *d;
	size_t j;

	if (c->nclients)
		return 0;
	for (j = 0; j < i; j++) {
		d = rio_resultdoc_pair(rd, j);
		if (!d->nclients && !strcmp(d->host ?: "", c->host ?: ""))
			return 0;
	}
	return 1;
}

/* The verdicts of the host of pair first, from it on. */
static void host_verdicts(const struct rio_resultdoc *rd, size_t first,
			  int hosts, FILE *out)
{
	const char *h = rio_resultdoc_pair(rd, first)->host ?: "";
	const struct rio_res_pair *c;
	size_t i;

	for (i = first; i < rio_resultdoc_npairs(rd); i++) {
		c = rio_resultdoc_pair(rd, i);
		if (!c->verdict || c->nclients || strcmp(c->host ?: "", h))
			continue;
		if (hosts)
			fprintf(out, "- %s: %s\n", rio_cell_str(c->host),
				c->verdict);
		else
			fprintf(out, "- %s\n", c->verdict);
	}
}

/* The verdict of each pair, first: what a reader takes away. */
static void verdicts(const struct rio_resultdoc *rd, FILE *out)
{
	int hosts = rio_resultdoc_pairs_multi_host(rd);
	size_t i, np = rio_resultdoc_npairs(rd);
	const struct rio_res_pair *c;

	if (!np && !rio_resultdoc_nbaselines(rd))
		return;
	fprintf(out, "## What RDMA buys here\n\n");
	rio_report_three_verdicts(rd, out);
	/* The sums over the client hosts first, each naming its count of
	 * clients: what the server carried. Then each host's own, host by
	 * host. */
	for (i = 0; i < np; i++) {
		c = rio_resultdoc_pair(rd, i);
		if (c->verdict && c->nclients)
			fprintf(out, "- %s\n", c->verdict);
	}
	for (i = 0; i < np; i++)
		if (first_of_host(rd, i))
			host_verdicts(rd, i, hosts, out);
	rio_report_baselines_verdicts(rd, out);
	if (!np) {
		fprintf(out, "\n");
		return;
	}
	fprintf(out,
		"\nEach ratio is RDMA's figure over TCP's: above 1 for bandwidth and IOPS, below 1 for latency and CPU, is RDMA doing better%s.\n\n",
		rio_resultdoc_nbaselines(rd)
			? "; against a baseline, each NFS transport's bandwidth over the baseline's"
			: "");
}

static void pair_row(const struct rio_resultdoc *rd,
		     const struct rio_res_pair *c,
		     const struct rio_report_opts *o, FILE *out)
{
	char l[512], rb[RIO_UNITS_LEN], tb[RIO_UNITS_LEN], ra[RIO_UNITS_LEN];
	char ri[RIO_UNITS_LEN], ti[RIO_UNITS_LEN], ia[RIO_UNITS_LEN];
	char p50[RIO_UNITS_LEN], p99[RIO_UNITS_LEN];
	char rl[128], tl[128];

	rio_cell_pair_label(l, sizeof(l), c,
			    rio_resultdoc_pairs_multi_host(rd));
	rio_units_rate(rb, c->rdma.bw_bytes, o->gbit);
	rio_units_rate(tb, c->tcp.bw_bytes, o->gbit);
	rio_units_ratio(ra, c->bw_ratio);
	rio_units_count(ri, c->rdma.iops);
	rio_units_count(ti, c->tcp.iops);
	rio_units_ratio(ia, c->iops_ratio);
	rio_units_ratio(p50, c->p50_ratio);
	rio_units_ratio(p99, c->p99_ratio);
	rio_cell_lat(rl, sizeof(rl), &c->rdma.clat);
	rio_cell_lat(tl, sizeof(tl), &c->tcp.clat);
	fprintf(out,
		"| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
		l, c->kind ?: "-", rb, tb, ra, ri, ti, ia, rl, tl, p50, p99);
}

static void host_cpu_head(const struct rio_resultdoc *rd, FILE *out)
{
	fprintf(out,
		"CPU time of each host as a whole (busy: user + system + irq + softirq, from its /proc/stat over the job's window), per GiB moved, or per 1,000 I/Os for round trips and small I/O:\n\n");
	if (rio_resultdoc_nrounds(rd))
		fprintf(out,
			"| Workload | Host | RDMA | TCP | RDMA/TCP | over the rounds (95 %% interval) |\n|---|---|---:|---:|---:|---:|\n");
	else
		fprintf(out,
			"| Workload | Host | RDMA | TCP | RDMA/TCP |\n|---|---|---:|---:|---:|\n");
}

/*
 * CPU seconds per GiB of one side as a person reads them: "96.7 s per
 * GiB", or for small I/O per 1,000 I/Os ("31.4 ms per 1k I/Os"): bytes
 * per I/O are the side's bandwidth over its IOPS.
 */
static void fmt_cpu_cost(char *buf, size_t n, double per_gib,
			 const struct rio_res_side *side, int small)
{
	double io = side->bw_bytes / side->iops;
	char t[RIO_UNITS_LEN];

	if (small && io > 0) {
		rio_units_ns(t, per_gib * io / GIB * 1000 * 1e9);
		snprintf(buf, n, "%s per 1k I/Os", t);
	} else {
		rio_units_ns(t, per_gib * 1e9);
		snprintf(buf, n, "%s per GiB", t);
	}
}

/* The cell of a pair's CPU ratio on host over the rounds (the last entry
 * for host, as the result lists each once). */
static void host_cpu_interval(const struct rio_res_pair *c, const char *host,
			      FILE *out)
{
	const struct rio_res_ratio *ratio = NULL;
	char cell[RIO_CELL_LEN];
	size_t i;

	for (i = 0; i < c->over_rounds.nhost_cpu_per_gib; i++)
		if (!strcmp(c->over_rounds.host_cpu_per_gib[i].host ?: "",
			    host ?: ""))
			ratio = &c->over_rounds.host_cpu_per_gib[i].ratio;
	rio_cell_interval(cell, sizeof(cell), ratio);
	fprintf(out, " %s |", cell);
}

static int is_small(const struct rio_res_pair *c)
{
	return strcmp(c->kind ?: "bandwidth", "bandwidth") != 0;
}

/* Each watched host's busy CPU per GiB under each side of a pair. */
static void host_cpu_table(const struct rio_resultdoc *rd, FILE *out)
{
	char l[512], ra[RIO_UNITS_LEN], rc[64], tc[64];
	const struct rio_res_pair *c;
	const struct rio_res_cpu *h;
	int rows = 0;
	size_t i, j;

	for (i = 0; i < rio_resultdoc_npairs(rd); i++) {
		c = rio_resultdoc_pair(rd, i);
		rio_cell_pair_label(l, sizeof(l), c,
				    rio_resultdoc_pairs_multi_host(rd));
		for (j = 0; j < c->host_cpu_per_gib.n; j++) {
			h = &c->host_cpu_per_gib.v[j];
			if (!rows++)
				host_cpu_head(rd, out);
			rio_units_ratio(ra, h->ratio);
			fmt_cpu_cost(rc, sizeof(rc), h->rdma_s, &c->rdma,
				     is_small(c));
			fmt_cpu_cost(tc, sizeof(tc), h->tcp_s, &c->tcp,
				     is_small(c));
			fprintf(out, "| %s | %s | %s | %s | %s |", l,
				rio_cell_str(h->host), rc, tc, ra);
			if (rio_resultdoc_nrounds(rd))
				host_cpu_interval(c, h->host, out);
			fprintf(out, "\n");
		}
	}
	if (rows)
		fprintf(out, "\n");
	else if (rio_resultdoc_has_cpu(rd))
		fprintf(out, "Hosts' CPU: not attributed to jobs (%s).\n\n",
			rio_resultdoc_cpu_match(rd));
}

/* fio's CPU per GiB on the client side, for pairs that move data. */
static void cpu_table(const struct rio_resultdoc *rd, FILE *out)
{
	char l[512], ra[RIO_UNITS_LEN], rc[64], tc[64];
	const struct rio_res_pair *c;
	int rows = 0;
	size_t i;

	for (i = 0; i < rio_resultdoc_npairs(rd); i++) {
		c = rio_resultdoc_pair(rd, i);
		if (isnan(c->fio_cpu_per_gib_ratio) ||
		    !strcmp(c->kind ?: "", "latency"))
			continue;
		if (!rows++)
			fprintf(out,
				"CPU time of the client's fio job threads (fio's usr + sys; the kernel's work elsewhere, such as softirq and the server, is not in it):\n\n"
				"| Workload | RDMA | TCP | RDMA/TCP |\n|---|---:|---:|---:|\n");
		rio_cell_pair_label(l, sizeof(l), c,
				    rio_resultdoc_pairs_multi_host(rd));
		rio_units_ratio(ra, c->fio_cpu_per_gib_ratio);
		fmt_cpu_cost(rc, sizeof(rc), c->rdma.fio_cpu_per_gib_s,
			     &c->rdma, is_small(c));
		fmt_cpu_cost(tc, sizeof(tc), c->tcp.fio_cpu_per_gib_s, &c->tcp,
			     is_small(c));
		fprintf(out, "| %s | %s | %s | %s |\n", l, rc, tc, ra);
	}
	if (rows)
		fprintf(out, "\n");
}

static void rounds_row(const struct rio_resultdoc *rd,
		       const struct rio_res_pair *c,
		       const struct rio_report_opts *o, FILE *out)
{
	const struct rio_res_figures *r = &c->over_rounds.rdma;
	const struct rio_res_figures *t = &c->over_rounds.tcp;
	char l[512], rb[RIO_CELL_LEN], tb[RIO_CELL_LEN], ri[RIO_CELL_LEN],
		ti[RIO_CELL_LEN], ra[RIO_CELL_LEN], ia[RIO_CELL_LEN],
		p50[RIO_CELL_LEN], p99[RIO_CELL_LEN];

	rio_cell_pair_label(l, sizeof(l), c,
			    rio_resultdoc_pairs_multi_host(rd));
	rio_cell_spread(rb, sizeof(rb), &r->bw_bytes, RIO_CELL_RATE, o->gbit);
	rio_cell_spread(tb, sizeof(tb), &t->bw_bytes, RIO_CELL_RATE, o->gbit);
	rio_cell_spread(ri, sizeof(ri), &r->iops, RIO_CELL_COUNT, 0);
	rio_cell_spread(ti, sizeof(ti), &t->iops, RIO_CELL_COUNT, 0);
	rio_cell_interval(ra, sizeof(ra), &c->over_rounds.bw_ratio);
	rio_cell_interval(ia, sizeof(ia), &c->over_rounds.iops_ratio);
	rio_cell_interval(p50, sizeof(p50), &c->over_rounds.p50_ratio);
	rio_cell_interval(p99, sizeof(p99), &c->over_rounds.p99_ratio);
	fprintf(out, "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n", l,
		c->over_rounds.rounds, rb, tb, ra, ri, ti, ia, p50, p99);
}

/* Each pair over the rounds: how far the rounds spread, how sure a ratio is. */
static void rounds_table(const struct rio_resultdoc *rd,
			 const struct rio_report_opts *o, FILE *out)
{
	size_t i;

	fprintf(out,
		"Over the %d rounds: each side's median (smallest – largest round), and each RDMA/TCP ratio's median (95 %% interval of its geometric mean over the rounds, Student's t on the rounds' log ratios; RDMA and TCP of one round paired):\n\n",
		rio_resultdoc_nrounds(rd));
	fprintf(out,
		"| Workload | Rounds | RDMA | TCP | RDMA/TCP | RDMA IOPS | TCP IOPS | RDMA/TCP | p50 RDMA/TCP | p99 RDMA/TCP |\n"
		"|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	for (i = 0; i < rio_resultdoc_npairs(rd); i++)
		rounds_row(rd, rio_resultdoc_pair(rd, i), o, out);
	fprintf(out, "\n");
}

static void comparisons_table(const struct rio_resultdoc *rd,
			      const struct rio_report_opts *o, FILE *out)
{
	size_t i, np = rio_resultdoc_npairs(rd);
	int nr = rio_resultdoc_nrounds(rd);

	fprintf(out, "## RDMA vs TCP\n\n");
	if (nr && np)
		fprintf(out,
			"Medians of the %d rounds: each figure and each ratio is the median over the rounds (a ratio of its rounds' own ratios).\n\n",
			nr);
	if (!np) {
		fprintf(out,
			"No workload has both a \"-rdma\" and a \"-tcp\" or \"-tcp-nconnect\" job.\n\n");
		return;
	}
	fprintf(out,
		"| Workload | Measures | RDMA | TCP | RDMA/TCP | RDMA IOPS | TCP IOPS | RDMA/TCP | RDMA p50 / p99 / p99.9 | TCP p50 / p99 / p99.9 | p50 RDMA/TCP | p99 RDMA/TCP |\n");
	fprintf(out,
		"|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	for (i = 0; i < np; i++)
		pair_row(rd, rio_resultdoc_pair(rd, i), o, out);
	fprintf(out, "\n");
	rio_report_three_table(rd, o->gbit, out);
	if (nr)
		rounds_table(rd, o, out);
	host_cpu_table(rd, out);
	cpu_table(rd, out);
}

static int is_target(const struct rio_res_job *r)
{
	return r->role && !strcmp(r->role, "target");
}

/* fio's CPU of a job: "12.3 + 45.6 %, 1.23 s/GiB", or per 1,000 I/Os for
 * small ones, where a GiB is a figure no one moves. */
static void fmt_cpu(char *buf, size_t n, const struct rio_res_job *r)
{
	double g = r->fio_cpu_per_gib_s, k = r->fio_cpu_per_kio_s;
	char t[RIO_UNITS_LEN];

	if (!r->has_fio_cpu) {
		snprintf(buf, n, "-");
		return;
	}
	snprintf(buf, n, "%.1f + %.1f %%", r->fio_usr_pct, r->fio_sys_pct);
	/* bytes per I/O = GiB * per_kio / (1000 * per_gib) */
	if (!isnan(g) && !isnan(k) && g > 0 && GIB * k / (1000 * g) < 32768) {
		rio_units_ns(t, k * 1e9);
		snprintf(buf + strlen(buf), n - strlen(buf), ", %s per 1k I/Os",
			 t);
	} else if (!isnan(g)) {
		snprintf(buf + strlen(buf), n - strlen(buf), ", %.3g s/GiB", g);
	}
}

/* A job's bandwidth and IOPS: with rounds, their range over the rounds. */
static void job_figures(char *bw, char *iops, const struct rio_res_job *r,
			int dir, const struct rio_report_opts *o)
{
	const struct rio_res_figures *ov = &r->over_rounds.dir[dir];

	if (ov->set) {
		rio_cell_spread(bw, RIO_CELL_LEN, &ov->bw_bytes, RIO_CELL_RATE,
				o->gbit);
		rio_cell_spread(iops, RIO_CELL_LEN, &ov->iops, RIO_CELL_COUNT,
				0);
		return;
	}
	rio_units_rate(bw, r->dir[dir].bw_bytes, o->gbit);
	rio_units_count(iops, r->dir[dir].iops);
}

static void job_rows(const struct rio_resultdoc *rd,
		     const struct rio_report_opts *o, int targets, FILE *out)
{
	static const char *const dirs[] = { "read", "write" };
	char l[512], bw[RIO_CELL_LEN], iops[RIO_CELL_LEN], lat[128], cpu[96];
	const struct rio_res_job *r;
	size_t i;
	int k;

	for (i = 0; i < rio_resultdoc_njobs(rd); i++) {
		r = rio_resultdoc_job(rd, i);
		if (is_target(r) != targets)
			continue;
		fmt_cpu(cpu, sizeof(cpu), r);
		for (k = 0; k < RIO_RES_NDIRS; k++) {
			if (!r->dir[k].set)
				continue;
			rio_cell_label(l, sizeof(l), r->host, r->jobname,
				       dirs[k],
				       rio_resultdoc_jobs_multi_host(rd));
			job_figures(bw, iops, r, k, o);
			rio_cell_lat(lat, sizeof(lat), &r->dir[k].clat);
			if (targets)
				fprintf(out, "| %s | %s | %s | %s |\n", l, bw,
					iops, cpu);
			else
				fprintf(out, "| %s | %s | %s | %s | %s |\n", l,
					bw, iops, lat, cpu);
		}
	}
}

static int any_target(const struct rio_resultdoc *rd)
{
	size_t i;

	for (i = 0; i < rio_resultdoc_njobs(rd); i++)
		if (is_target(rio_resultdoc_job(rd, i)))
			return 1;
	return 0;
}

static void jobs_table(const struct rio_resultdoc *rd,
		       const struct rio_report_opts *o, FILE *out)
{
	fprintf(out, "## Jobs\n\n");
	if (rio_resultdoc_nrounds(rd))
		fprintf(out,
			"Medians of the %d rounds; bandwidth and IOPS with the smallest and the largest round.\n\n",
			rio_resultdoc_nrounds(rd));
	fprintf(out,
		"| Job | Bandwidth | IOPS | p50 / p99 / p99.9 | fio CPU usr + sys |\n");
	fprintf(out, "|---|---:|---:|---:|---:|\n");
	job_rows(rd, o, 0, out);
	fprintf(out, "\n");
	if (!any_target(rd))
		return;
	fprintf(out,
		"## Targets\n\nThe passive side of the jobs above: a target counts what it received as reads and what was read from it as writes; its latencies time its own loop, not the clients' requests.\n\n");
	fprintf(out, "| Target | Bandwidth | IOPS | fio CPU usr + sys |\n");
	fprintf(out, "|---|---:|---:|---:|\n");
	job_rows(rd, o, 1, out);
	fprintf(out, "\n");
}

/* One line per RDMA port of a host, each after pre. */
static void setup_devices(const struct rio_env_host *h, const char *pre,
			  FILE *out)
{
	const struct rio_env_device *d;
	const struct rio_env_port *p;
	size_t i, j;

	if (!h->ndevices)
		fprintf(out,
			"%s- RDMA devices: none found (environment from %s)\n",
			pre, rio_cell_str(h->source));
	for (i = 0; i < h->ndevices; i++) {
		d = &h->devices[i];
		for (j = 0; j < d->nports; j++) {
			p = &d->ports[j];
			fprintf(out,
				"%s- RDMA device %s (%s, %s) port %d: %s, %s, MTU %d, %s, netdev %s\n",
				pre, rio_cell_str(d->name),
				d->driver ?: "no driver",
				d->transport ?: "transport unknown", p->port,
				p->state ?: "?", p->link_layer ?: "?",
				p->active_mtu, p->rate ?: "rate unknown",
				p->netdev ?: "none");
		}
	}
}

static int has_option(const struct rio_env_export *e, const char *opt)
{
	size_t i;

	for (i = 0; i < e->noptions; i++)
		if (e->options[i] && !strcmp(e->options[i], opt))
			return 1;
	return 0;
}

/*
 * A host's NFS exports, and for those the jobs used whether writes were
 * acknowledged before they reached the server's storage (async) or after
 * (sync, nfs-utils' default): it decides what a write figure measures.
 */
static void setup_exports(const struct rio_resultenv *env,
			  const struct rio_env_host *h, const char *pre,
			  FILE *out)
{
	const struct rio_env_export *e;
	const char *path;
	size_t i, j;

	for (i = 0; i < h->nexports; i++) {
		e = &h->exports[i];
		path = e->path ?: "?";
		fprintf(out, "%s- NFS export %s to %s:", pre, path,
			e->clients ?: "?");
		for (j = 0; j < e->noptions; j++)
			fprintf(out, "%s%s", j ? "," : " ", e->options[j]);
		fprintf(out, "\n");
		if (!rio_resultenv_export_used(env, path))
			continue;
		fprintf(out, "%s  - %s\n", pre,
			has_option(e, "async")
				? "async: the server acknowledged each write before it reached its storage, so writes measure the network and the server's memory, and a crash of the server loses them"
				: "sync (nfs-utils' default): the server acknowledged each write only once its storage had it, so writes include the server's storage (memory, in the lab's tmpfs)");
	}
}

static void setup_mounts(const struct rio_resultenv *env, FILE *out)
{
	const struct rio_env_mount *m;
	size_t i;

	for (i = 0; i < rio_resultenv_nmounts(env); i++) {
		m = rio_resultenv_mount(env, i);
		fprintf(out,
			"- NFS mount during the run: %s on %s, proto=%s vers=%s rsize=%d wsize=%d nconnect=%d\n",
			rio_cell_str(m->source), rio_cell_str(m->mountpoint),
			m->proto ?: "?", m->vers ?: "?", m->rsize, m->wsize,
			m->nconnect);
	}
}

/* The host line: name, kernel and CPU; then, after pre, its versions. */
static void setup_host(const char *what, const struct rio_env_host *h,
		       const char *pre, FILE *out)
{
	fprintf(out, "- %s %s: kernel %s, %d x %s%s\n", what,
		rio_cell_str(h->hostname), rio_cell_str(h->kernel),
		h->cpu_count, h->cpu_model ?: "unknown CPU",
		h->cpu_emulated ? " (emulated)" : "");
	fprintf(out, "%s- rdmaio %s, %s, rdma-core %s\n", pre,
		rio_cell_str(h->rdmaio), h->fio ?: "fio ?",
		h->rdma_core ?: "not installed");
}

/* Where fio --client sent what: "server lab-server (sock:...)" per host. */
static void setup_fio_hosts(const struct rio_resultenv *env, FILE *out)
{
	const struct rio_env_fio_host *h;
	size_t i;

	if (!rio_resultenv_nfio_hosts(env))
		return;
	fprintf(out, "- fio client/server mode:");
	for (i = 0; i < rio_resultenv_nfio_hosts(env); i++) {
		h = rio_resultenv_fio_host(env, i);
		fprintf(out, "%s %s%s%s (%s%s)", i ? ";" : "", h->role ?: "",
			h->role ? " jobs on " : "", rio_cell_str(h->host),
			h->local ? "this host, " : "", rio_cell_str(h->client));
	}
	fprintf(out, "\n");
}

/* Each --client host's environment, as --remote-env recorded it. */
static void setup_remote(const struct rio_resultenv *env,
			 const struct rio_resultdoc *rd, FILE *out)
{
	const struct rio_env_host *r;
	char what[512];
	size_t i;

	for (i = 0; i < rio_resultenv_nremotes(env); i++) {
		r = rio_resultenv_remote(env, i);
		if (r->role)
			snprintf(what, sizeof(what),
				 "%s host (fio --client %s) is", r->role,
				 rio_cell_str(r->client));
		else
			snprintf(what, sizeof(what),
				 "remote host %s (fio --client %s) is",
				 rio_cell_str(r->host),
				 rio_cell_str(r->client));
		setup_host(what, r, "  ", out);
		setup_devices(r, "  ", out);
		setup_exports(env, r, "  ", out);
	}
	if (rio_resultdoc_warned(rd, "remote-environment"))
		fprintf(out,
			"- remote hosts' environments: not recorded (run with --remote-env)\n");
}

/* What the numbers were measured on, and how to read them, first. */
static void setup(const struct rio_resultenv *env,
		  const struct rio_resultdoc *rd, FILE *out)
{
	const struct rio_env_host *h = rio_resultenv_host(env);

	fprintf(out, "## Setup\n\n");
	setup_host("host", h, "", out);
	setup_devices(h, "", out);
	setup_exports(env, h, "", out);
	setup_mounts(env, out);
	setup_fio_hosts(env, out);
	setup_remote(env, rd, out);
	if (rio_resultdoc_nrounds(rd))
		fprintf(out,
			"- rounds: %d (rdmaio run --repeat %d): every job file ran once a round, its -rdma and TCP jobs in turn; each figure below is the median over the rounds\n",
			rio_resultdoc_nrounds(rd), rio_resultdoc_nrounds(rd));
	if (rio_resultdoc_warned(rd, "software-rdma"))
		fprintf(out,
			"\n**The RDMA transport is software (Soft-RoCE/siw): it measures the CPU, not a NIC; RDMA slower than TCP here is expected.**\n");
	if (h->cpu_emulated || rio_resultdoc_warned(rd, "emulated-cpu"))
		fprintf(out,
			"\n**The CPU is emulated: every figure is far below hardware; compare ratios only.**\n");
	fprintf(out, "\n");
}

static void print_causes(const struct rio_res_check *c, FILE *out)
{
	size_t j;

	for (j = 0; j < c->ncauses; j++)
		fprintf(out, "  - %s: %s\n",
			!strcmp(c->name ?: "", "fairness") ? "fix" : "likely",
			rio_cell_str(c->causes[j]));
}

static int same(const char *a, const char *b)
{
	return !strcmp(a ?: "", b ?: "");
}

static int flagged(const struct rio_res_check *c, const char *name,
		   const char *host)
{
	return same(c->status, "flagged") && (!name || same(c->name, name)) &&
	       (!host || same(c->host, host));
}

/* " (rounds 1, 3)": the rounds a check of a result of rounds came from. */
static void print_rounds(const struct rio_res_check *c, FILE *out)
{
	size_t i, n = c->nrounds;

	for (i = 0; i < n; i++)
		fprintf(out, "%s%d",
			i	? ", "
			: n > 1 ? " (rounds "
				: " (round ",
			c->rounds[i]);
	fprintf(out, "%s\n", n ? ")" : "");
}

/* A one-host run flags every job with a peer: one entry per host, naming
 * the jobs ("job NAME on HOST: ..." is how each check begins). */
static void print_loopback(const struct rio_resultdoc *rd, size_t first,
			   FILE *out)
{
	const struct rio_res_check *c0 = rio_resultdoc_check(rd, first), *c;
	const char *host = c0->host, *m, *on;
	size_t i, n = 0;

	for (i = 0; i < rio_resultdoc_nchecks(rd); i++)
		n += flagged(rio_resultdoc_check(rd, i), "loopback", host);
	fprintf(out, "- FLAGGED loopback: %zu job%s on %s reached %s itself (",
		n, n > 1 ? "s" : "", rio_cell_str(host), rio_cell_str(host));
	for (i = first, n = 0; i < rio_resultdoc_nchecks(rd); i++) {
		c = rio_resultdoc_check(rd, i);
		m = c->message ?: "";
		on = strstr(m, " on ");
		if (flagged(c, "loopback", host) && !strncmp(m, "job ", 4) &&
		    on)
			fprintf(out, "%s%.*s", n++ ? ", " : "",
				(int)(on - m - 4), m + 4);
	}
	fprintf(out, "); the first: %s", rio_cell_str(c0->message));
	print_rounds(c0, out);
	print_causes(c0, out);
}

static int print_flagged(const struct rio_resultdoc *rd, FILE *out)
{
	const struct rio_res_check *c;
	size_t i, j;
	int any = 0, seen;

	for (i = 0; i < rio_resultdoc_nchecks(rd); i++) {
		c = rio_resultdoc_check(rd, i);
		if (!flagged(c, NULL, NULL))
			continue;
		any = 1;
		if (!same(c->name, "loopback")) {
			fprintf(out, "- FLAGGED %s: %s", rio_cell_str(c->name),
				rio_cell_str(c->message));
			print_rounds(c, out);
			print_causes(c, out);
			continue;
		}
		for (j = 0, seen = 0; j < i && !seen; j++)
			seen = flagged(rio_resultdoc_check(rd, j), "loopback",
				       c->host);
		if (!seen)
			print_loopback(rd, i, out);
	}
	return any;
}

/* The checks that flagged something, then every warning. */
static void findings(const struct rio_resultdoc *rd, FILE *out)
{
	size_t i;

	fprintf(out, "## Checks\n\n");
	if (!print_flagged(rd, out))
		fprintf(out, "- nothing flagged (%zu checks)\n",
			rio_resultdoc_nchecks(rd));
	if (!rio_resultdoc_nwarnings(rd))
		return;
	fprintf(out, "\n## Warnings\n\n");
	for (i = 0; i < rio_resultdoc_nwarnings(rd); i++)
		fprintf(out, "- %s\n", rio_resultdoc_warning(rd, i)->message);
}

int rio_report_write(json_object *doc, const struct rio_report_opts *o,
		     FILE *out)
{
	struct rio_resultenv *env = NULL;
	struct rio_resultdoc *rd;
	int ret = rio_resultdoc_read(doc, &rd);

	if (!ret)
		ret = rio_resultenv_read(doc, &env);
	if (ret) {
		rio_resultdoc_delete(&rd);
		return ret;
	}
	verdicts(rd, out);
	setup(env, rd, out);
	comparisons_table(rd, o, out);
	rio_report_baselines_table(rd, o->gbit, out);
	rio_report_settings_table(rd, out);
	jobs_table(rd, o, out);
	findings(rd, out);
	rio_resultdoc_delete(&rd);
	rio_resultenv_delete(&env);
	return 0;
}

int rio_report_table(json_object *doc, FILE *out)
{
	const struct rio_report_opts o = { 0 };

	return rio_report_write(doc, &o, out);
}
