// SPDX-License-Identifier: MIT
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "read/cell.h"
#include "read/report_baselines.h"
#include "base/units.h"

#define HOSTS_MAX 8

/* A pair that reads data on both sides: what a copy is read against. */
static bool is_seq_read(const struct rio_res_pair *c)
{
	return !strcmp(c->kind ?: "", "bandwidth") &&
	       !strcmp(c->direction ?: "", "read") &&
	       !strcmp(c->tcp_direction ?: "", "read");
}

/* A pair a copy is read against. The copy came to this host: its own
 * sequential reads, not another client host's, nor the sum of them. */
static bool read_against(const struct rio_resultdoc *rd,
			 const struct rio_res_pair *c)
{
	const char *here = rio_resultdoc_hostname(rd);

	return is_seq_read(c) && !c->nclients &&
	       (!c->host || !here || !strcmp(c->host, here));
}

/* Whether c is against TCP nconnect beside a pair of its against plain
 * TCP, which has the same RDMA side: that side is said once, there. */
static bool rdma_said_before(const struct rio_resultdoc *rd,
			     const struct rio_res_pair *c)
{
	return rio_res_pair_is_nconnect(c) &&
	       rio_resultdoc_pair_against(rd, c, "tcp");
}

/* "NFS/TCP", "NFS/TCP nconnect" */
static const char *tcp_name(const struct rio_res_pair *c)
{
	return rio_res_pair_is_nconnect(c) ? "NFS/TCP nconnect" : "NFS/TCP";
}

/* "16.0 MiB in 1.20 s" */
static void fmt_copy(char *buf, size_t n, const struct rio_res_baseline *b)
{
	char sz[RIO_UNITS_LEN], t[RIO_UNITS_LEN];

	rio_units_bytes(sz, b->bytes);
	rio_units_ns(t, b->elapsed_s * 1e9);
	snprintf(buf, n, "%s in %s", sz, t);
}

static void verdict(const struct rio_resultdoc *rd,
		    const struct rio_res_baseline *b, FILE *out)
{
	char copy[2 * RIO_UNITS_LEN + 8], bw[RIO_UNITS_LEN];
	char r[RIO_UNITS_LEN], t[RIO_UNITS_LEN];
	const struct rio_res_pair *c;
	const char *sep = "";
	size_t i;

	if (!(b->bw_bytes > 0)) {
		fprintf(out, "- %s failed: %s (no figures)\n",
			rio_cell_str(b->name), rio_cell_str(b->error));
		return;
	}
	fmt_copy(copy, sizeof(copy), b);
	rio_units_rate(bw, b->bw_bytes, 0);
	fprintf(out, "- against %s (one file, %s: %s): ", rio_cell_str(b->name),
		copy, bw);
	for (i = 0; i < rio_resultdoc_npairs(rd); i++) {
		c = rio_resultdoc_pair(rd, i);
		if (!read_against(rd, c))
			continue;
		rio_units_ratio(r, c->rdma.bw_bytes / b->bw_bytes);
		rio_units_ratio(t, c->tcp.bw_bytes / b->bw_bytes);
		if (rdma_said_before(rd, c))
			fprintf(out, ", over %s %s", tcp_name(c), t);
		else
			fprintf(out,
				"%s%s over NFS/RDMA %s %s's bandwidth, over %s %s",
				sep, rio_cell_str(c->workload), r,
				rio_cell_str(b->name), tcp_name(c), t);
		sep = "; ";
	}
	fprintf(out, "%s",
		*sep ? "" : "no sequential read pair to hold it against");
	if (b->error)
		fprintf(out, " (%s)", b->error);
	fprintf(out, "\n");
}

void rio_report_baselines_verdicts(const struct rio_resultdoc *rd, FILE *out)
{
	size_t i;

	for (i = 0; i < rio_resultdoc_nbaselines(rd); i++)
		verdict(rd, rio_resultdoc_baseline(rd, i), out);
}

/* The hosts whose CPU the baselines have, in their order. */
static int hosts_of(const struct rio_resultdoc *rd, const char **h)
{
	const struct rio_res_cpus *hc;
	const char *name;
	size_t i, j;
	int n = 0, k;

	for (i = 0; i < rio_resultdoc_nbaselines(rd); i++) {
		hc = &rio_resultdoc_baseline(rd, i)->host_cpu;
		for (j = 0; j < hc->n; j++) {
			name = hc->v[j].host;
			if (!name)
				continue;
			for (k = 0; k < n && strcmp(h[k], name); k++)
				;
			if (k == n && n < HOSTS_MAX)
				h[n++] = name;
		}
	}
	return n;
}

static void cell_cpu(double per_gib, FILE *out)
{
	char t[RIO_UNITS_LEN];

	rio_units_ns(t, per_gib * 1e9);
	fprintf(out, " %s |", isnan(per_gib) ? "-" : t);
}

/* The CPU of host in cpus, per unit of field (NaN: the host has none). */
static double host_cpu(const struct rio_res_cpus *cpus, const char *host,
		       double (*field)(const struct rio_res_cpu *))
{
	const struct rio_res_cpu *c = rio_res_cpus_find(cpus, host);

	return c ? field(c) : NAN;
}

static double per_gib(const struct rio_res_cpu *c)
{
	return c->per_gib_s;
}

static double rdma_s(const struct rio_res_cpu *c)
{
	return c->rdma_s;
}

static double tcp_s(const struct rio_res_cpu *c)
{
	return c->tcp_s;
}

/* A bandwidth, with its range over the rounds when sp has one. */
static void cell_bw(double bw, const struct rio_res_spread *sp, int gbit,
		    FILE *out)
{
	char cell[RIO_CELL_LEN];

	rio_cell_range(cell, sizeof(cell), bw, sp, RIO_CELL_RATE, gbit);
	fprintf(out, " %s |", cell);
}

struct table {
	int gbit; /* rates in Gb/s */
	const char *hosts[HOSTS_MAX];
	int nhosts;
	double ref; /* the first baseline's bandwidth */
};

static void baseline_row(const struct table *t,
			 const struct rio_res_baseline *b, FILE *out)
{
	char copy[2 * RIO_UNITS_LEN + 8], r[RIO_UNITS_LEN];
	int k;

	fmt_copy(copy, sizeof(copy), b);
	rio_units_ratio(r, b->bw_bytes / t->ref);
	fprintf(out, "| %s (--baseline) |", rio_cell_str(b->name));
	cell_bw(b->bw_bytes, &b->over_rounds.bw_bytes, t->gbit, out);
	fprintf(out, " %s | %s |", r, b->bw_bytes > 0 ? copy : "failed");
	cell_cpu(b->cpu_per_gib_s, out);
	for (k = 0; k < t->nhosts; k++)
		cell_cpu(host_cpu(&b->host_cpu, t->hosts[k], per_gib), out);
	fprintf(out, "\n");
}

/* One side of a sequential read pair: RDMA's, or TCP's when tcp. */
static void side_row(const struct table *t, const struct rio_res_pair *c,
		     int tcp, FILE *out)
{
	const struct rio_res_side *s = tcp ? &c->tcp : &c->rdma;
	const struct rio_res_figures *sp =
		tcp ? &c->over_rounds.tcp : &c->over_rounds.rdma;
	char r[RIO_UNITS_LEN];
	int k;

	rio_units_ratio(r, s->bw_bytes / t->ref);
	fprintf(out, "| %s over %s (fio: %s) |", rio_cell_str(c->workload),
		tcp ? tcp_name(c) : "NFS/RDMA", rio_cell_str(s->jobname));
	cell_bw(s->bw_bytes, &sp->bw_bytes, t->gbit, out);
	fprintf(out, " %s | - |", r);
	cell_cpu(s->fio_cpu_per_gib_s, out);
	for (k = 0; k < t->nhosts; k++)
		cell_cpu(host_cpu(&c->host_cpu_per_gib, t->hosts[k],
				  tcp ? tcp_s : rdma_s),
			 out);
	fprintf(out, "\n");
}

static void head(const struct table *t, const struct rio_res_baseline *first,
		 FILE *out)
{
	int k;

	fprintf(out, "## Against a plain copy\n\n");
	fprintf(out,
		"A baseline is one command, timed from its start to its exit (its start-up and any ssh login included); its bandwidth is the size of the one file it copied over that time. The NFS rows are fio's sequential read jobs, with their own job count and requests in flight. Own CPU: the command's processes (over an ssh master connection the encryption is the master's, not theirs), or fio's job threads; each host's CPU is its busy time over the copy's or the job's window.\n\n");
	fprintf(out, "| What | Bandwidth | vs %s | Copied | Own CPU per GiB |",
		rio_cell_str(first->name));
	for (k = 0; k < t->nhosts; k++)
		fprintf(out, " %s CPU per GiB |", t->hosts[k]);
	fprintf(out, "\n|---|---:|---:|---:|---:|");
	for (k = 0; k < t->nhosts; k++)
		fprintf(out, "---:|");
	fprintf(out, "\n");
}

static void commands(const struct rio_resultdoc *rd, FILE *out)
{
	const struct rio_res_baseline *b;
	size_t i;

	for (i = 0; i < rio_resultdoc_nbaselines(rd); i++) {
		b = rio_resultdoc_baseline(rd, i);
		fprintf(out, "- %s: `%s`", rio_cell_str(b->name),
			rio_cell_str(b->command));
		if (b->error)
			fprintf(out, ": %s", b->error);
		fprintf(out, "\n");
	}
	fprintf(out, "\n");
}

void rio_report_baselines_table(const struct rio_resultdoc *rd, int gbit,
				FILE *out)
{
	size_t i, nb = rio_resultdoc_nbaselines(rd);
	const struct rio_res_baseline *first;
	const struct rio_res_pair *c;
	struct table t = { .gbit = gbit };

	if (!nb)
		return;
	t.nhosts = hosts_of(rd, t.hosts);
	/* Ratios to the first baseline that has figures. */
	first = rio_resultdoc_baseline(rd, 0);
	t.ref = NAN;
	for (i = 0; i < nb && isnan(t.ref); i++)
		if (rio_resultdoc_baseline(rd, i)->bw_bytes > 0) {
			first = rio_resultdoc_baseline(rd, i);
			t.ref = first->bw_bytes;
		}
	head(&t, first, out);
	for (i = 0; i < nb; i++)
		baseline_row(&t, rio_resultdoc_baseline(rd, i), out);
	for (i = 0; i < rio_resultdoc_npairs(rd); i++) {
		c = rio_resultdoc_pair(rd, i);
		if (!read_against(rd, c))
			continue;
		if (!rdma_said_before(rd, c))
			side_row(&t, c, 0, out);
		side_row(&t, c, 1, out);
	}
	fprintf(out, "\n");
	commands(rd, out);
}
