// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "read/csvout.h"
#include "result/resultdoc.h"

static const char *const header[] = {
	"record",
	"host",
	"name",
	"role",
	"kind",
	"direction",
	"bw_bytes_per_s",
	"iops",
	"clat_p50_ns",
	"clat_p99_ns",
	"clat_p99_9_ns",
	"fio_cpu_s",
	"fio_cpu_per_gib_s",
	"against",
	"tcp_name",
	"tcp_direction",
	"tcp_bw_bytes_per_s",
	"tcp_iops",
	"tcp_clat_p50_ns",
	"tcp_clat_p99_ns",
	"tcp_clat_p99_9_ns",
	"tcp_fio_cpu_per_gib_s",
	"bw_ratio",
	"iops_ratio",
	"p50_ratio",
	"p99_ratio",
	"fio_cpu_per_gib_ratio",
	"verdict",
};

#define NCOLS (sizeof(header) / sizeof(header[0]))

/*
 * A text field, quoted when it holds a comma, a quote or a line break. A
 * spreadsheet reads a cell that begins with = + - @ (or a tab or carriage
 * return before one) as a formula, which can fetch URLs or run commands:
 * such a name is quoted and begins with ', which makes it text.
 */
static void field(FILE *out, size_t col, const char *s)
{
	int formula;

	if (col)
		fputc(',', out);
	if (!s)
		return;
	formula = *s && strchr("=+-@\t\r", *s);
	if (!formula && !strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	if (formula)
		fputc('\'', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* A figure: never quoted, so a negative one stays a number. */
static void num(FILE *out, size_t col, double v)
{
	if (col)
		fputc(',', out);
	if (!isnan(v))
		fprintf(out, "%.10g", v);
}

/* The figures of one side: bandwidth, IOPS, three percentiles. */
static size_t side(FILE *out, size_t col, double bw, double iops,
		   const struct rio_res_lat *clat)
{
	num(out, col++, bw);
	num(out, col++, iops);
	num(out, col++, clat->p50);
	num(out, col++, clat->p99);
	num(out, col++, clat->p99_9);
	return col;
}

/* Two columns a host in a job row (busy, per GiB), one in a pair's. */
static void host_columns(FILE *out, size_t col, const struct rio_resultdoc *rd,
			 const struct rio_res_cpus *cpus, int pair)
{
	const struct rio_res_cpu *h;
	size_t i;

	for (i = 0; i < rio_resultdoc_ncpu_hosts(rd); i++) {
		h = rio_res_cpus_find(cpus,
				      rio_resultdoc_cpu_host(rd, i) ?: "");
		num(out, col++, pair || !h ? NAN : h->busy_s);
		num(out, col++, pair || !h ? NAN : h->per_gib_s);
		num(out, col++, pair && h ? h->ratio : NAN);
	}
}

static void job_row(FILE *out, const struct rio_resultdoc *rd,
		    const struct rio_res_job *j, int d)
{
	const struct rio_res_dir *dir = &j->dir[d];
	size_t col = 0;

	field(out, col++, "job");
	field(out, col++, j->host);
	field(out, col++, j->jobname);
	field(out, col++, j->role);
	field(out, col++, NULL);
	field(out, col++, d == RIO_RES_READ ? "read" : "write");
	col = side(out, col, dir->bw_bytes, dir->iops, &dir->clat);
	num(out, col++, j->fio_cpu_s);
	num(out, col++, j->fio_cpu_per_gib_s);
	while (col < NCOLS)
		field(out, col++, NULL);
	host_columns(out, col, rd, &j->host_cpu, 0);
	fputc('\n', out);
}

static void pair_row(FILE *out, const struct rio_resultdoc *rd,
		     const struct rio_res_pair *p)
{
	const double ratios[] = { p->bw_ratio, p->iops_ratio, p->p50_ratio,
				  p->p99_ratio, p->fio_cpu_per_gib_ratio };
	size_t col = 0, i;

	field(out, col++, "pair");
	field(out, col++, p->host);
	field(out, col++, p->workload);
	field(out, col++, NULL);
	field(out, col++, p->kind);
	field(out, col++, p->direction);
	col = side(out, col, p->rdma.bw_bytes, p->rdma.iops, &p->rdma.clat);
	field(out, col++, NULL);
	num(out, col++, p->rdma.fio_cpu_per_gib_s);
	field(out, col++, p->against);
	field(out, col++, p->tcp.jobname);
	field(out, col++, p->tcp_direction);
	col = side(out, col, p->tcp.bw_bytes, p->tcp.iops, &p->tcp.clat);
	num(out, col++, p->tcp.fio_cpu_per_gib_s);
	for (i = 0; i < sizeof(ratios) / sizeof(ratios[0]); i++)
		num(out, col++, ratios[i]);
	field(out, col++, p->verdict);
	host_columns(out, col, rd, &p->host_cpu_per_gib, 1);
	fputc('\n', out);
}

/* A --baseline: its bandwidth, and each host's CPU over its window. */
static void baseline_row(FILE *out, const struct rio_resultdoc *rd,
			 const struct rio_res_baseline *b)
{
	size_t col = 0;

	field(out, col++, "baseline");
	field(out, col++, rio_resultdoc_hostname(rd));
	field(out, col++, b->name);
	field(out, col++, NULL);
	field(out, col++, "copy");
	field(out, col++, NULL);
	num(out, col++, b->bw_bytes);
	/* A failed copy's error stands where a pair's verdict does. */
	while (col < NCOLS - 1)
		field(out, col++, NULL);
	field(out, col++, b->error);
	host_columns(out, col, rd, &b->host_cpu, 0);
	fputc('\n', out);
}

/* HOST_busy_s, HOST_cpu_per_gib_s, HOST_cpu_per_gib_ratio per host. */
static void header_row(FILE *out, const struct rio_resultdoc *rd)
{
	static const char *const what[] = { "busy_s", "cpu_per_gib_s",
					    "cpu_per_gib_ratio" };
	const char *h;
	char name[320];
	size_t i, k;
	int w;

	for (i = 0; i < NCOLS; i++)
		field(out, i, header[i]);
	for (k = 0; k < rio_resultdoc_ncpu_hosts(rd); k++) {
		h = rio_resultdoc_cpu_host(rd, k);
		for (w = 0; w < 3; w++) {
			snprintf(name, sizeof(name), "%s_%s", h ?: "?",
				 what[w]);
			field(out, 1, name);
		}
	}
	fputc('\n', out);
}

int rio_csv_write(const struct rio_resultdoc *rd, FILE *out)
{
	const struct rio_res_job *j;
	size_t i;
	int d;

	header_row(out, rd);
	for (i = 0; i < rio_resultdoc_njobs(rd); i++) {
		j = rio_resultdoc_job(rd, i);
		for (d = 0; d < RIO_RES_NDIRS; d++)
			if (j->dir[d].set)
				job_row(out, rd, j, d);
	}
	for (i = 0; i < rio_resultdoc_npairs(rd); i++)
		pair_row(out, rd, rio_resultdoc_pair(rd, i));
	for (i = 0; i < rio_resultdoc_nbaselines(rd); i++)
		baseline_row(out, rd, rio_resultdoc_baseline(rd, i));
	return fflush(out) || ferror(out) ? -EIO : 0;
}
