// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "read/chart.h"
#include "result/fiooutput.h"
#include "read/gpstr.h"
#include "read/plotfile.h"
#include "result/hostmap.h"
#include "rc_log.h"
#include "read/cell.h"
#include "result/result.h"
#include "result/resultdoc.h"
#include "base/streq.h"
#include "rc_file.h"

#define MIB (1024.0 * 1024)
#define PANEL_H 330
/* A line of the 10 pt font, in pixels; a character is about half as wide. */
#define LINE_PX 14

/* One bar group: a workload's two sides, or one job (tcp NaN). */
struct row {
	char label[256];
	int latency_only;
	int nconnect; /* against TCP nconnect */
	int rdma_elsewhere; /* its RDMA side is its plain TCP pair's row's */
	double bw[2]; /* MiB/s */
	double lat[2][3]; /* p50, p99, p99.9 in ns */
	double cpu[2]; /* fio CPU s per GiB */
};

/* A bar group of the CPU panel: a workload on one host. */
struct cpurow {
	char label[320];
	double v[2];
};

struct chart {
	struct row *rows;
	int n;
	struct cpurow *cpu;
	int ncpu;
	int host_cpu; /* the hosts' own counters, not fio's */
	int paired;
	double max_bw, min_lat, max_lat, min_cpu, max_cpu;
	double ceiling; /* MiB/s, NaN when unknown */
	/* lines under the bars' panels, for their labels; more height for
	 * every panel */
	int bmargin, cpu_bmargin, extra;
	int ncdf; /* latency CDF blocks: two per pair, from CDF_INDEX */
	int nsweep; /* sizes of a message-size sweep, after the CDF blocks */
	char sweep[64]; /* its jobs' name before "-SIZE" */
	double min_cdf, max_cdf;
};

/* The data blocks of the bandwidth, latency and CPU panels come first. */
#define CDF_INDEX 3

static void side_values(struct row *r, int k, double bw,
			const struct rio_res_lat *clat, double cpu)
{
	r->bw[k] = bw / MIB;
	r->lat[k][0] = clat->p50;
	r->lat[k][1] = clat->p99;
	r->lat[k][2] = clat->p99_9;
	r->cpu[k] = cpu;
}

static struct row *new_row(struct chart *c)
{
	struct row *nr = realloc(c->rows, (c->n + 1) * sizeof(*nr));

	if (!nr)
		return NULL;
	c->rows = nr;
	memset(&nr[c->n], 0, sizeof(*nr));
	return &nr[c->n++];
}

static int pair_rows(const struct rio_resultdoc *rd, struct chart *c)
{
	const struct rio_res_side *s;
	const struct rio_res_pair *p;
	struct row *r;
	size_t i;
	int k;

	for (i = 0; i < rio_resultdoc_npairs(rd); i++) {
		p = rio_resultdoc_pair(rd, i);
		r = new_row(c);
		if (!r)
			return -ENOMEM;
		rio_cell_pair_label(r->label, sizeof(r->label), p,
				    rio_resultdoc_pairs_multi_host(rd));
		r->latency_only = !strcmp(p->kind ?: "", "latency");
		r->nconnect = rio_res_pair_is_nconnect(p);
		r->rdma_elsewhere =
			r->nconnect && rio_resultdoc_pair_against(rd, p, "tcp");
		for (k = 0; k < 2; k++) {
			s = k ? &p->tcp : &p->rdma;
			side_values(r, k, s->bw_bytes, &s->clat,
				    s->fio_cpu_per_gib_s);
		}
	}
	c->paired = c->n > 0;
	return 0;
}

/* Without pairs: every client job and direction, alone. */
static int job_rows(const struct rio_resultdoc *rd, struct chart *c)
{
	static const struct rio_res_lat none = { NAN, NAN, NAN, NAN };
	const struct rio_res_job *j;
	struct row *r;
	size_t i;
	int k;

	for (i = 0; i < rio_resultdoc_njobs(rd); i++) {
		j = rio_resultdoc_job(rd, i);
		if (j->role && !strcmp(j->role, "target"))
			continue;
		for (k = 0; k < RIO_RES_NDIRS; k++) {
			if (!j->dir[k].set)
				continue;
			r = new_row(c);
			if (!r)
				return -ENOMEM;
			snprintf(r->label, sizeof(r->label), "%s (%s)",
				 j->jobname ?: "-", k ? "write" : "read");
			side_values(r, 0, j->dir[k].bw_bytes, &j->dir[k].clat,
				    j->fio_cpu_per_gib_s);
			side_values(r, 1, NAN, &none, NAN);
		}
	}
	return 0;
}

/* "seq-read (read)" is "seq-read" in a key: the length to print. */
static int short_label(const char *l)
{
	const char *p = strstr(l, " (");

	return p ? (int)(p - l) : (int)strlen(l);
}

/* The workload alone names a row, unless another row is the same
 * workload in other directions (randrw's read and write): then all of it. */
static int name_len(const struct chart *c, const char *l)
{
	int i, n = short_label(l);

	for (i = 0; i < c->n; i++)
		if (strcmp(c->rows[i].label, l) &&
		    short_label(c->rows[i].label) == n &&
		    !strncmp(c->rows[i].label, l, n))
			return (int)strlen(l);
	return n;
}

static int add_cpu(struct chart *c, const char *label, const char *host,
		   double rdma, double tcp)
{
	struct cpurow *n = realloc(c->cpu, (c->ncpu + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	c->cpu = n;
	/* Workload and host: the panel has a bar pair per host. */
	snprintf(n[c->ncpu].label, sizeof(n[c->ncpu].label), "%.*s%s%s",
		 name_len(c, label), label, host ? ", " : "", host ?: "");
	n[c->ncpu].v[0] = rdma;
	n[c->ncpu++].v[1] = tcp;
	return 0;
}

/* The hosts' CPU per GiB when it was watched, else fio's own. */
static int cpu_rows(const struct rio_resultdoc *rd, struct chart *c)
{
	const struct rio_res_cpus *hc;
	int k, ret = 0;
	size_t i, j;

	for (i = 0; i < rio_resultdoc_npairs(rd); i++)
		c->host_cpu |=
			rio_resultdoc_pair(rd, i)->host_cpu_per_gib.n > 0;
	for (k = 0; k < c->n && !ret; k++) {
		if (c->rows[k].latency_only)
			continue;
		if (!c->host_cpu) {
			ret = add_cpu(c, c->rows[k].label, NULL,
				      c->rows[k].cpu[0], c->rows[k].cpu[1]);
			continue;
		}
		hc = &rio_resultdoc_pair(rd, k)->host_cpu_per_gib;
		for (j = 0; j < hc->n && !ret; j++)
			ret = add_cpu(c, c->rows[k].label, hc->v[j].host,
				      hc->v[j].rdma_s, hc->v[j].tcp_s);
	}
	return ret;
}

static void scan(struct chart *c)
{
	int i, k, p;

	c->max_bw = c->max_cpu = c->max_lat = 0;
	c->min_lat = c->min_cpu = INFINITY;
	c->min_cdf = INFINITY;
	for (i = 0; i < c->n; i++) {
		for (k = 0; k < 2; k++) {
			if (!c->rows[i].latency_only &&
			    !isnan(c->rows[i].bw[k]))
				c->max_bw = fmax(c->max_bw, c->rows[i].bw[k]);
			for (p = 0; p < 3; p++)
				if (c->rows[i].lat[k][p] > 0) {
					c->max_lat = fmax(c->max_lat,
							  c->rows[i].lat[k][p]);
					c->min_lat = fmin(c->min_lat,
							  c->rows[i].lat[k][p]);
				}
		}
	}
	for (i = 0; i < c->ncpu; i++)
		for (k = 0; k < 2; k++)
			if (c->cpu[i].v[k] > 0) {
				c->max_cpu = fmax(c->max_cpu, c->cpu[i].v[k]);
				c->min_cpu = fmin(c->min_cpu, c->cpu[i].v[k]);
			}
}

/*
 * The lines under the bar panels, for their rotated labels: more with the
 * pairs against TCP nconnect, whose labels say so at length, and every
 * panel as much taller (they share the height). From what the rows are,
 * never from how long their names are: a name may change no more of the
 * script than its own quoted text.
 */
static void margins(struct chart *c)
{
	int i, nconnect = 0;

	for (i = 0; i < c->n; i++)
		nconnect |= c->rows[i].nconnect;
	c->bmargin = nconnect ? 7 : 4;
	c->cpu_bmargin = !c->host_cpu ? c->bmargin : nconnect ? 14 : 6;
	c->extra = nconnect ? c->cpu_bmargin - 6 : 0;
}

static void write_data(FILE *f, const struct chart *c)
{
	const struct row *r;
	int i, block;

	for (block = 0; block < 2; block++) {
		for (i = 0; i < c->n; i++) {
			r = &c->rows[i];
			if (block != 1 && r->latency_only)
				continue;
			rio_gpstr_datum(f, r->label);
			if (block == 0)
				fprintf(f, " %g %g", r->bw[0], r->bw[1]);
			else if (block == 1)
				fprintf(f, " %g %g %g %g %g %g", r->lat[0][0],
					r->lat[0][1], r->lat[0][2],
					r->lat[1][0], r->lat[1][1],
					r->lat[1][2]);
			fprintf(f, "\n");
		}
		/* Two blank lines end a gnuplot data block ("index N"). */
		fprintf(f, "\n\n");
	}
	for (i = 0; i < c->ncpu; i++) {
		rio_gpstr_datum(f, c->cpu[i].label);
		fprintf(f, " %g %g\n", c->cpu[i].v[0], c->cpu[i].v[1]);
	}
	fprintf(f, "\n\n");
}

static int bw_rows(const struct chart *c)
{
	int i, n = 0;

	for (i = 0; i < c->n; i++)
		n += !c->rows[i].latency_only;
	return n;
}

/* The bars of one block: two per row when paired, else one. */
static void bars(FILE *f, int index, const char *scale, const struct chart *c,
		 const char *what)
{
	if (!c->paired) {
		fprintf(f,
			"plot data index %d using 0:($2/%s):xtic(1) with boxes lc rgb '#1f77b4' title '%s'",
			index, scale, what);
		return;
	}
	fprintf(f,
		"plot data index %d using ($0-0.19):($2/%s):xtic(1) with boxes lc rgb '#1f77b4' title 'RDMA', "
		"'' index %d using ($0+0.19):($3/%s) with boxes lc rgb '#ff7f0e' title 'TCP'",
		index, scale, index, scale);
}

static void bw_panel(FILE *f, const struct chart *c)
{
	int gib = c->max_bw >= 1024;
	const char *unit = gib ? "GiB/s" : "MiB/s",
		   *scale = gib ? "1024." : "1.";
	int ceil_shown = !isnan(c->ceiling) && c->ceiling <= 20 * c->max_bw;

	fprintf(f, "set title \"Bandwidth (higher is better)");
	if (!isnan(c->ceiling) && !ceil_shown)
		fprintf(f,
			": the link payload ceiling, %.3g %s, is off this scale",
			c->ceiling / (gib ? 1024 : 1), unit);
	fprintf(f, "\"\n");
	fprintf(f, "set ylabel '%s'\n", unit);
	if (ceil_shown)
		fprintf(f, "set yrange [0:%g]\n",
			fmax(c->ceiling, c->max_bw) * 1.1 / (gib ? 1024 : 1));
	else
		fprintf(f, "set yrange [0:*]\n");
	bars(f, 0, scale, c, "bandwidth");
	if (ceil_shown)
		fprintf(f,
			", %g with lines lw 2 dt 2 lc rgb '#d62728' title 'link payload ceiling %.3g %s'",
			c->ceiling / (gib ? 1024 : 1),
			c->ceiling / (gib ? 1024 : 1), unit);
	fprintf(f, "\n");
}

static void lat_side(FILE *f, int col, const char *x, const char *scale,
		     const char *color, const char *name, int first)
{
	fprintf(f,
		"%sdata index 1 using (%s):($%d/%s)%s with boxes lc rgb '%s' title '%s p50', "
		"'' index 1 using (%s):($%d/%s):($%d/%s):($%d/%s) with yerrorbars lc rgb 'black' pt 0 %s, "
		"'' index 1 using (%s):($%d/%s) with points pt 6 ps 0.8 lc rgb 'black' %s",
		first ? "plot " : ", ", x, col, scale, first ? ":xtic(1)" : "",
		color, name, x, col, scale, col, scale, col + 1, scale,
		first ? "title 'p99'" : "notitle", x, col + 2, scale,
		first ? "title 'p99.9'" : "notitle");
}

/* The unit that keeps a panel's numbers readable: by the largest value on
 * a linear axis, by the middle of the range on a log one. */
static void time_unit(double lo, double hi, int log, const char **unit,
		      const char **scale)
{
	double m = log ? sqrt(lo * hi) : hi;

	*unit = m >= 1e9 ? "s" : m >= 1e6 ? "ms" : m >= 1e3 ? "µs" : "ns";
	*scale = m >= 1e9 ? "1e9" : m >= 1e6 ? "1e6" : m >= 1e3 ? "1e3" : "1.";
}

static void lat_panel(FILE *f, const struct chart *c)
{
	int log = c->min_lat > 0 && c->max_lat / c->min_lat > 20;
	const char *unit, *scale;

	time_unit(c->min_lat, c->max_lat, log, &unit, &scale);
	fprintf(f,
		"set title 'Completion latency: p50 bar, p99 whisker, p99.9 circle (lower is better)%s'\n",
		log ? "; log scale: the workloads are far apart" : "");
	fprintf(f, "set ylabel '%s'\n", unit);
	if (log)
		fprintf(f, "set logscale y\nset yrange [*:*]\n");
	else
		fprintf(f, "set yrange [0:*]\n");
	lat_side(f, 2, c->paired ? "$0-0.19" : "$0", scale, "#1f77b4",
		 c->paired ? "RDMA" : "job", 1);
	if (c->paired)
		lat_side(f, 5, "$0+0.19", scale, "#ff7f0e", "TCP", 0);
	fprintf(f, "\n");
	if (log)
		fprintf(f, "unset logscale y\n");
}

static void cpu_panel(FILE *f, const struct chart *c)
{
	int log = c->min_cpu > 0 && c->max_cpu / c->min_cpu > 20;

	fprintf(f, "set title \"%s (lower is better)%s\"\n",
		c->host_cpu
			? "CPU per GiB moved, each host as a whole: busy seconds from its /proc/stat"
			: "Client CPU per GiB moved: fio's usr + sys of the job threads",
		log ? "; log scale: the workloads are far apart" : "");
	fprintf(f, "set ylabel 'CPU s per GiB'\n");
	/* A bar pair per workload and host: longer labels, steeper. */
	if (c->host_cpu)
		fprintf(f, "set xtics rotate by -35\n");
	fprintf(f, "set bmargin %d\n", c->cpu_bmargin);
	fprintf(f, log ? "set logscale y\nset yrange [*:*]\n"
		       : "set yrange [0:*]\n");
	bars(f, 2, "1.", c, "CPU");
	fprintf(f, "\nset xtics rotate by -20\nset bmargin %d\n", c->bmargin);
	if (log)
		fprintf(f, "unset logscale y\n");
}

/* Adds the directions of one side of a pair (TCP's when tcp) in one fio
 * output to dirs[] (nd so far, room for every job of the output): the new
 * count. */
static int side_dirs(const struct rio_fio_output *fio,
		     const struct rio_res_pair *p, int tcp,
		     const struct rio_fio_dir **dirs, int nd)
{
	int d = rio_fio_dir_index(tcp ? p->tcp_direction : p->direction);
	const char *job = tcp ? p->tcp.jobname : p->rdma.jobname;
	const struct rio_fio_job *j;
	int i;

	if (d < 0 || !job || !p->host)
		return nd;
	for (i = 0; i < rio_fio_output_njobs(fio); i++) {
		j = rio_fio_output_job(fio, i);
		if (!rio_res_pair_ran_on(p, j->host) ||
		    strcmp(j->jobname ?: "", job))
			continue;
		dirs[nd++] = &j->dir[d];
	}
	return nd;
}

/* The fio output of each round of doc (of doc itself without rounds):
 * *n of them, to free with free_outputs. -ENOMEM. */
static int read_outputs(json_object *doc, const struct rio_hostmap *map,
			struct rio_fio_output ***out, int *n)
{
	int r, nr = rio_result_nrounds(doc);

	*n = nr ? nr : 1;
	*out = calloc(*n, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (r = 0; r < *n; r++)
		if (rio_fio_output_read(rio_result_round_fio_output(doc, r), 0,
					map, &(*out)[r]))
			return -ENOMEM;
	return 0;
}

static void free_outputs(struct rio_fio_output **fios, int n)
{
	int r;

	for (r = 0; fios && r < n; r++)
		rio_fio_output_delete(&fios[r]);
	free(fios);
}

/* The merged json+ completion latency bins of one side of a pair over
 * every round (the CDF of the whole run); -1 when out of memory. */
static int side_bins(struct rio_fio_output *const *fios, int n,
		     const struct rio_res_pair *p, int tcp,
		     struct rio_fio_bin **out)
{
	const struct rio_fio_dir **dirs;
	int r, nd = 0, cap = 0;

	*out = NULL;
	for (r = 0; r < n; r++)
		cap += rio_fio_output_njobs(fios[r]);
	dirs = calloc(cap ? cap : 1, sizeof(*dirs));
	if (!dirs)
		return -1;
	for (r = 0; r < n; r++)
		nd = side_dirs(fios[r], p, tcp, dirs, nd);
	nd = rio_fio_bins_merge(dirs, nd, out);
	free(dirs);
	return nd < 0 ? -1 : nd;
}

/* One data block per side of each pair: latency, cumulative percent.
 * Returns 0 or -ENOMEM. */
static int write_cdf(FILE *f, json_object *doc, const struct rio_resultdoc *rd,
		     struct chart *c)
{
	struct rio_hostmap *map = rio_result_hostmap(doc);
	struct rio_fio_output **fios = NULL;
	double total, acc;
	struct rio_fio_bin *b;
	int k, j, n = 0, nf = 0;
	size_t i;

	c->ncdf = 0;
	if (!map)
		return -ENOMEM;
	if (c->paired && read_outputs(doc, map, &fios, &nf))
		n = -1;
	for (i = 0; c->paired && n >= 0 && i < rio_resultdoc_npairs(rd); i++)
		for (k = 0; k < 2 && n >= 0; k++) {
			n = side_bins(fios, nf, rio_resultdoc_pair(rd, i), k,
				      &b);
			for (j = 0, total = 0; j < n; j++)
				total += b[j].count;
			for (j = 0, acc = 0; j < n && total > 0; j++) {
				acc += b[j].count;
				fprintf(f, "%g %g\n", b[j].ns,
					100 * acc / total);
				c->min_cdf = fmin(c->min_cdf, b[j].ns);
				c->max_cdf = fmax(c->max_cdf, b[j].ns);
			}
			/* An empty block keeps the pairs' indexes in step. */
			fprintf(f, "\n\n");
			c->ncdf += 1;
			free(b);
		}
	free_outputs(fios, nf);
	rio_hostmap_delete(&map);
	return n < 0 ? -ENOMEM : 0;
}

/* A CDF line's title: "seq-read RDMA", "seq-read TCP nconnect", with
 * the direction where the workload has two ("randrw TCP nconnect (read)"). */
static void cdf_title(FILE *f, const struct chart *c, const struct row *r,
		      int tcp)
{
	const char *vs =
		r->nconnect ? strstr(r->label, " vs TCP nconnect") : NULL;
	int full = name_len(c, r->label) == (int)strlen(r->label);

	if (!vs) {
		rio_gpstr_printf(f, "%.*s %s", name_len(c, r->label), r->label,
				 tcp ? "TCP" : "RDMA");
		return;
	}
	rio_gpstr_printf(f, "%.*s %s%s", (int)(vs - r->label), r->label,
			 tcp ? "TCP nconnect" : "RDMA",
			 full ? vs + strlen(" vs TCP nconnect") : "");
}

static void cdf_panel(FILE *f, const struct chart *c)
{
	static const char *const colors[] = { "#1f77b4", "#ff7f0e", "#2ca02c",
					      "#d62728", "#9467bd", "#8c564b",
					      "#e377c2", "#7f7f7f" };
	const char *unit, *scale;
	const struct row *r;
	int i, n;

	time_unit(c->min_cdf, c->max_cdf, 1, &unit, &scale);
	for (i = 0, n = 0; i < c->n; i++)
		n |= c->rows[i].nconnect;
	fprintf(f,
		"set title 'Completion latency, cumulative: the share of I/Os done within a time (further left is better; RDMA solid, TCP dashed%s)'\n"
		"set logscale x\nset xrange [*:*]\nset yrange [0:100]\nset xtics norotate\n"
		"set xlabel '%s'\nset ylabel '%% of I/Os'\nset grid xtics ytics\n",
		n ? ", TCP nconnect dotted" : "", unit);
	/* Many lines: a smaller key, and the workload alone names them. */
	fprintf(f, "set key font ',8' spacing 0.9 samplen 2\n");
	for (i = 0, n = 0; i < c->ncdf; i++) {
		r = &c->rows[i / 2];
		/* Against TCP nconnect, RDMA's line is the TCP pair's again. */
		if (r->rdma_elsewhere && !(i % 2))
			continue;
		fprintf(f,
			"%sdata index %d using ($1/%s):2 with steps lw 2 dt %d lc rgb '%s' title ",
			n++ ? ", " : "plot ", CDF_INDEX + i, scale,
			i % 2 ? (r->nconnect ? 3 : 2) : 1, colors[(i / 2) % 8]);
		cdf_title(f, c, r, i % 2);
	}
	fprintf(f, "\nunset logscale x\nunset xlabel\nset grid noxtics ytics\n"
		   "set key font ',10' spacing 1 samplen 4\n");
}

/*
 * A message-size sweep: client jobs named PREFIX-SIZE (sweep.fio's
 * write-2 ... write-1048576), four sizes or more of one prefix. Writes
 * "size MiB/s" rows, smallest first, as one data block; returns the rows.
 */
static int write_sweep(FILE *f, const struct rio_resultdoc *rd, struct chart *c)
{
	double size[64], bw[64], t;
	const struct rio_res_job *r;
	const struct rio_res_dir *d;
	const char *name, *dash;
	int i, j, n = 0;

	for (i = 0; i < (int)rio_resultdoc_njobs(rd) && n < 64; i++) {
		r = rio_resultdoc_job(rd, i);
		name = r->jobname ?: "";
		dash = strrchr(name, '-');
		d = r->dir[RIO_RES_WRITE].set  ? &r->dir[RIO_RES_WRITE]
		    : r->dir[RIO_RES_READ].set ? &r->dir[RIO_RES_READ]
					       : NULL;
		if (!dash || !d ||
		    strspn(dash + 1, "0123456789") != strlen(dash + 1) ||
		    !dash[1] || (n && strncmp(name, c->sweep, dash - name)) ||
		    (size_t)(dash - name) >= sizeof(c->sweep))
			continue;
		if (!n)
			snprintf(c->sweep, sizeof(c->sweep), "%.*s",
				 (int)(dash - name), name);
		size[n] = strtod(dash + 1, NULL);
		bw[n++] = (isnan(d->bw_bytes) ? 0 : d->bw_bytes) / MIB;
	}
	/* Smallest size first: the line reads left to right. */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && size[j] < size[j - 1]; j--) {
			t = size[j], size[j] = size[j - 1], size[j - 1] = t;
			t = bw[j], bw[j] = bw[j - 1], bw[j - 1] = t;
		}
	if (n < 4)
		return 0;
	for (i = 0; i < n; i++)
		fprintf(f, "%g %g\n", size[i], bw[i]);
	fprintf(f, "\n\n");
	return n;
}

static void sweep_panel(FILE *f, const struct chart *c)
{
	fprintf(f, "set title ");
	rio_gpstr_printf(
		f,
		"Bandwidth against message size: the %s jobs (higher is better)",
		c->sweep);
	fprintf(f,
		"\nset logscale x 2\nset xrange [*:*]\nset yrange [0:*]\nset xtics norotate\n"
		"set format x '%%.0b%%B'\nset xlabel 'message size (bytes)'\nset ylabel 'MiB/s'\n"
		"set grid xtics ytics\n"
		"plot data index %d using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title ",
		CDF_INDEX + c->ncdf);
	rio_gpstr_write(f, c->sweep);
	fprintf(f,
		"\nunset logscale x\nset format x '%%g'\nunset xlabel\nset grid noxtics ytics\n");
}

static int write_script(FILE *f, const char *data, const char *out, int svg,
			const struct chart *c, const char *caveat)
{
	int nbw = bw_rows(c), cdf = c->max_cdf > 0;
	int panels = 1 + (nbw > 0) + (c->max_cpu > 0) + cdf + (c->nsweep > 0);

	/* noenhanced: a name's ^, _ or @ is shown, not taken for markup. */
	fprintf(f, "set terminal %s size 1100,%d font 'Sans,10' noenhanced\n",
		svg ? "svg dynamic" : "pngcairo",
		(PANEL_H + LINE_PX * c->extra) * panels + 40);
	fprintf(f, "set encoding utf8\nset output ");
	rio_gpstr_write(f, out);
	fprintf(f, "\ndata = ");
	rio_gpstr_write(f, data);
	fprintf(f, "\nset multiplot layout %d,1 title ", panels);
	rio_gpstr_printf(f, "%s%s%s", c->paired ? "RDMA vs TCP" : "Jobs",
			 caveat ? ": " : "", caveat ?: "");
	fprintf(f, "\n");
	fprintf(f,
		"set style fill solid 0.8 border -1\nset grid ytics\nset key noenhanced outside right top\n"
		"set xtics noenhanced rotate by -20\nset bmargin %d\nset boxwidth %g\n"
		/* Fixed margins line the panels up whatever their keys. */
		"set lmargin at screen 0.08\nset rmargin at screen 0.86\n",
		c->bmargin, c->paired ? 0.36 : 0.6);
	if (nbw) {
		fprintf(f, "set xrange [-0.6:%g]\n", nbw - 0.4);
		bw_panel(f, c);
	}
	fprintf(f, "set xrange [-0.6:%g]\n", c->n - 0.4);
	lat_panel(f, c);
	if (c->max_cpu > 0) {
		fprintf(f, "set xrange [-0.6:%g]\n", c->ncpu - 0.4);
		cpu_panel(f, c);
	}
	if (cdf)
		cdf_panel(f, c);
	if (c->nsweep)
		sweep_panel(f, c);
	fprintf(f, "unset multiplot\n");
	return ferror(f) ? -EIO : 0;
}

static int gather(const struct rio_resultdoc *rd, struct chart *c,
		  const char *path)
{
	int ret = pair_rows(rd, c);

	if (!ret && !c->n)
		ret = job_rows(rd, c);
	if (!ret && !c->n) {
		rc_err("plot %s: the result has no client job that moved data: nothing to draw",
		       path);
		ret = -EINVAL;
	}
	if (!ret)
		ret = cpu_rows(rd, c);
	c->ceiling = rio_resultdoc_link_ceiling(rd) / MIB;
	scan(c);
	margins(c);
	return ret;
}

int rio_chart_script(json_object *doc, FILE *data, const char *data_path,
		     FILE *script, const char *img_path, int svg)
{
	struct chart c = { 0 };
	struct rio_resultdoc *rd;
	int ret = rio_resultdoc_read(doc, &rd);

	if (!ret)
		ret = gather(rd, &c, img_path);
	if (!ret) {
		write_data(data, &c);
		ret = write_cdf(data, doc, rd, &c);
	}
	if (!ret) {
		c.nsweep = write_sweep(data, rd, &c);
		ret = write_script(
			script, data_path, img_path, svg, &c,
			rio_result_caveat_of(
				rio_resultdoc_warned(rd, "software-rdma"),
				rio_resultdoc_warned(rd, "emulated-cpu")));
	}
	rio_resultdoc_delete(&rd);
	free(c.rows);
	free(c.cpu);
	return ret;
}

static int chart_write(void *doc, FILE *data, const char *data_path,
		       FILE *script, const char *img_path, int svg)
{
	return rio_chart_script(doc, data, data_path, script, img_path, svg);
}

int rio_chart_draw(json_object *doc, const char *path)
{
	return rio_plot_file(path, chart_write, doc);
}
