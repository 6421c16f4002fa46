// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <string.h>

#include "base/streq.h"
#include "base/units.h"
#include "read/cell.h"
#include "read/report_three.h"

/* Pair i against plain TCP and its twin against TCP nconnect: the same
 * host, workload and directions. 0 when pair i has none. */
static int three_at(const struct rio_resultdoc *rd, size_t i,
		    const struct rio_res_pair **p,
		    const struct rio_res_pair **q)
{
	*p = rio_resultdoc_pair(rd, i);
	if (rio_res_pair_is_nconnect(*p))
		return 0;
	*q = rio_resultdoc_pair_against(rd, *p, "tcp-nconnect");
	return *q != NULL;
}

/* The connections of q's TCP mount, from the fairness check of its RDMA
 * job on a host that ran it; 0 when no check said. */
static int nconnect_of(const struct rio_resultdoc *rd,
		       const struct rio_res_pair *q)
{
	const struct rio_res_check *c;
	size_t i;

	for (i = 0; i < rio_resultdoc_nchecks(rd); i++) {
		c = rio_resultdoc_check(rd, i);
		if (c->settings && rio_streq(c->name, "fairness") &&
		    rio_res_pair_ran_on(q, c->host) &&
		    rio_streq(c->settings[0].jobname, q->rdma.jobname) &&
		    c->settings[2].nconnect > 1)
			return c->settings[2].nconnect;
	}
	return 0;
}

/* "TCP nconnect=8", or "TCP nconnect" when not known. */
static void nconnect_name(char *buf, size_t n, int nconnect)
{
	if (nconnect > 1)
		snprintf(buf, n, "TCP nconnect=%d", nconnect);
	else
		snprintf(buf, n, "TCP nconnect");
}

enum measure { BANDWIDTH, IOPS, LATENCY };

static enum measure measure_of(const struct rio_res_pair *p)
{
	return rio_streq(p->kind, "latency") ? LATENCY
	       : rio_streq(p->kind, "iops")  ? IOPS
					     : BANDWIDTH;
}

static const char *const measure_name[] = { "bandwidth", "IOPS",
					    "p50 latency" };

/* A side's figure in what p measures, in its units. */
static void figure(char *buf, const struct rio_res_side *s, enum measure m,
		   int gbit)
{
	if (m == LATENCY)
		rio_units_ns(buf, s->clat.p50);
	else if (m == IOPS)
		rio_units_count(buf, s->iops);
	else
		rio_units_rate(buf, s->bw_bytes, gbit);
}

static double ratio_of(const struct rio_res_pair *p, enum measure m)
{
	return m == LATENCY ? p->p50_ratio
	       : m == IOPS  ? p->iops_ratio
			    : p->bw_ratio;
}

/* "seq-read", as p's own verdict names it: "lab-client: seq-read (read)",
 * "seq-read, 2 clients". */
static void verdict_label(char *buf, size_t n, const struct rio_resultdoc *rd,
			  const struct rio_res_pair *p)
{
	int dir = rio_resultdoc_pair_is_one_of_several(rd, p);
	size_t k = 0;

	buf[0] = '\0';
	if (!p->nclients && rio_resultdoc_pairs_multi_host(rd))
		k = (size_t)snprintf(buf, n, "%s: ", rio_cell_str(p->host));
	if (k < n)
		k += (size_t)snprintf(buf + k, n - k, "%s",
				      rio_cell_str(p->workload));
	if (k < n && dir)
		k += (size_t)snprintf(buf + k, n - k, " (%s)",
				      rio_cell_str(p->direction));
	if (k < n && p->nclients)
		snprintf(buf + k, n - k, ", %zu clients", p->nclients);
}

void rio_report_three_verdicts(const struct rio_resultdoc *rd, FILE *out)
{
	char l[512], a[RIO_UNITS_LEN], b[RIO_UNITS_LEN], nc[32];
	const struct rio_res_pair *p, *q;
	enum measure m;
	size_t i;

	for (i = 0; i < rio_resultdoc_npairs(rd); i++) {
		if (!three_at(rd, i, &p, &q))
			continue;
		m = measure_of(p);
		verdict_label(l, sizeof(l), rd, p);
		rio_units_ratio(a, ratio_of(p, m));
		rio_units_ratio(b, ratio_of(q, m));
		nconnect_name(nc, sizeof(nc), nconnect_of(rd, q));
		fprintf(out, "- %s: RDMA %s TCP, %s %s in %s\n", l, a, b, nc,
			measure_name[m]);
	}
}

/* The connections every TCP nconnect side had, or 0 when they differ or
 * no check said. */
static int common_nconnect(const struct rio_resultdoc *rd)
{
	const struct rio_res_pair *p, *q;
	int n = -1, k;
	size_t i;

	for (i = 0; i < rio_resultdoc_npairs(rd); i++) {
		if (!three_at(rd, i, &p, &q))
			continue;
		k = nconnect_of(rd, q);
		if (n >= 0 && k != n)
			return 0;
		n = k;
	}
	return n > 0 ? n : 0;
}

static void three_row(const struct rio_resultdoc *rd,
		      const struct rio_res_pair *p,
		      const struct rio_res_pair *q, int gbit, FILE *out)
{
	char l[512], r[RIO_UNITS_LEN], t[RIO_UNITS_LEN], n[RIO_UNITS_LEN];
	char a[RIO_UNITS_LEN], b[RIO_UNITS_LEN];
	enum measure m = measure_of(p);

	rio_cell_pair_label(l, sizeof(l), p,
			    rio_resultdoc_pairs_multi_host(rd));
	figure(r, &p->rdma, m, gbit);
	figure(t, &p->tcp, m, gbit);
	figure(n, &q->tcp, m, gbit);
	rio_units_ratio(a, ratio_of(p, m));
	rio_units_ratio(b, ratio_of(q, m));
	fprintf(out, "| %s | %s | %s | %s | %s | %s | %s |\n", l,
		measure_name[m], r, t, n, a, b);
}

void rio_report_three_table(const struct rio_resultdoc *rd, int gbit, FILE *out)
{
	const struct rio_res_pair *p, *q;
	char nc[32];
	size_t i;
	int rows = 0;

	nconnect_name(nc, sizeof(nc), common_nconnect(rd));
	for (i = 0; i < rio_resultdoc_npairs(rd); i++) {
		if (!three_at(rd, i, &p, &q))
			continue;
		if (!rows++)
			fprintf(out,
				"RDMA against both TCP mounts: one connection, and several (nconnect, as the field mounts NFS over TCP on fast links), each workload in what it measures (RDMA's own figure is the same in both of its pairs):\n\n"
				"| Workload | Measures | RDMA | TCP | %s | RDMA/TCP | RDMA/%s |\n"
				"|---|---|---:|---:|---:|---:|---:|\n",
				nc, nc);
		three_row(rd, p, q, gbit, out);
	}
	if (rows)
		fprintf(out, "\n");
}
