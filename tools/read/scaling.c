// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/scaling.h"
#include "read/cell.h"
#include "read/gpstr.h"
#include "read/plotfile.h"
#include "rc_log.h"
#include "result/result.h"
#include "result/resultdoc.h"
#include "result/resultenv.h"
#include "base/streq.h"

#define MIB (1024.0 * 1024)

/* A workload at one count of client hosts. */
struct point {
	char *label; /* the workload, with its direction where it has two */
	int clients;
	const struct rio_res_pair *p;
	const struct rio_res_cpu *srv; /* NULL: the server's CPU unwatched */
};

struct rio_scaling {
	struct rio_resultdoc **rd;
	size_t nrd;
	struct point *pts; /* by workload (first seen), then count */
	size_t npts;
	const char **work;
	size_t nwork;
	int caveat_sw, caveat_emu;
};

/* How many client hosts a result's jobs ran on at once: the widest sum,
 * else the hosts of its pairs (one: a one-client result). */
static int result_clients(const struct rio_resultdoc *rd, const char *name)
{
	const struct rio_res_pair *p, *first = NULL;
	size_t i;
	int n = 0;

	for (i = 0; i < rio_resultdoc_npairs(rd); i++) {
		p = rio_resultdoc_pair(rd, i);
		if (p->nclients > (size_t)n)
			n = (int)p->nclients;
		if (!first)
			first = p;
	}
	if (!first) {
		rc_err("scale: %s has no RDMA/TCP pair (jobs named NAME-rdma and NAME-tcp or NAME-tcp-nconnect): nothing to scale",
		       name);
		return -EINVAL;
	}
	if (n)
		return n;
	for (i = 0; i < rio_resultdoc_npairs(rd); i++) {
		p = rio_resultdoc_pair(rd, i);
		if (strcmp(p->host, first->host)) {
			rc_err("scale: %s has pairs on %s and on %s but no sum of them (\"all clients\"): run its client hosts through --server-host/--client-host",
			       name, first->host, p->host);
			return -EINVAL;
		}
	}
	return 1;
}

/* The server's CPU per GiB under p: the host fio.hosts names the server;
 * where none is named (its sections sat out), a watched host that ran none
 * of p's jobs, but not this host when fio ran nothing here (it only drove
 * the run, idle). NULL: none. */
static const struct rio_res_cpu *server_cpu(const struct rio_res_pair *p,
					    const struct rio_resultenv *env,
					    const char *here)
{
	const struct rio_env_fio_host *h;
	const char *name;
	size_t i, j;
	int in_fio;

	for (j = 0; j < rio_resultenv_nfio_hosts(env); j++) {
		h = rio_resultenv_fio_host(env, j);
		if (h->role && !strcmp(h->role, "server") && h->host)
			return rio_res_cpus_find(&p->host_cpu_per_gib, h->host);
	}
	for (i = 0; i < p->host_cpu_per_gib.n; i++) {
		name = p->host_cpu_per_gib.v[i].host;
		for (j = 0, in_fio = 0; j < rio_resultenv_nfio_hosts(env); j++)
			in_fio |= rio_streq(
				rio_resultenv_fio_host(env, j)->host, name);
		/* This host, when fio ran nothing here, only drove the run. */
		if (!rio_res_pair_ran_on(p, name) &&
		    (in_fio || !rio_streq(name, here)))
			return &p->host_cpu_per_gib.v[i];
	}
	return NULL;
}

static int add_work(struct rio_scaling *s, const char *w)
{
	const char **nw;
	size_t i;

	for (i = 0; i < s->nwork; i++)
		if (!strcmp(s->work[i], w))
			return 0;
	nw = realloc(s->work, (s->nwork + 1) * sizeof(*nw));
	if (!nw)
		return -ENOMEM;
	s->work = nw;
	s->work[s->nwork++] = w;
	return 0;
}

/* The pair's workload, the TCP it is against where that is not plain TCP,
 * and its direction where rd pairs that workload twice (randrw's read and
 * write), as its verdict names it. */
static char *pair_label(const struct rio_resultdoc *rd,
			const struct rio_res_pair *p)
{
	int dir = rio_resultdoc_pair_is_one_of_several(rd, p) && p->direction;
	char name[256], *label;

	rio_cell_pair_name(name, sizeof(name), p);
	return asprintf(&label, "%s%s%s%s", name, dir ? " (" : "",
			dir ? p->direction : "", dir ? ")" : "") < 0
		       ? NULL
		       : label;
}

/* One point of pair p at its count. */
static int add_point(struct rio_scaling *s, const struct rio_resultdoc *rd,
		     const struct rio_res_pair *p, int clients,
		     const struct rio_resultenv *env)
{
	struct point *np = realloc(s->pts, (s->npts + 1) * sizeof(*np));

	if (!np)
		return -ENOMEM;
	s->pts = np;
	np = &s->pts[s->npts];
	*np = (struct point){ pair_label(rd, p), clients, p,
			      server_cpu(p, env, rio_resultdoc_hostname(rd)) };
	if (!np->label)
		return -ENOMEM;
	s->npts++;
	return add_work(s, np->label);
}

/* Every pair of rd (read from doc) at its count: the sums, or a one-client
 * result's own. */
static int add_points(struct rio_scaling *s, const struct rio_resultdoc *rd,
		      json_object *doc, int clients)
{
	const struct rio_res_pair *p;
	struct rio_resultenv *env;
	size_t i;
	int ret = rio_resultenv_read(doc, &env);

	for (i = 0; !ret && i < rio_resultdoc_npairs(rd); i++) {
		p = rio_resultdoc_pair(rd, i);
		if ((clients > 1) == (p->nclients > 0) && p->workload)
			ret = add_point(s, rd, p, clients, env);
	}
	rio_resultenv_delete(&env);
	return ret;
}

static size_t work_index(const struct rio_scaling *s, const char *w)
{
	size_t i;

	for (i = 0; i < s->nwork && strcmp(s->work[i], w); i++)
		;
	return i;
}

static int point_cmp(const void *a, const void *b, void *arg)
{
	const struct point *x = a, *y = b;
	size_t wx = work_index(arg, x->label), wy = work_index(arg, y->label);

	if (wx != wy)
		return wx < wy ? -1 : 1;
	return x->clients - y->clients;
}

/* -EINVAL after saying why when two results have one count. */
static int counts_distinct(const int *counts, const char *const *names,
			   size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < i; j++)
			if (counts[i] == counts[j]) {
				rc_err("scale: %s and %s were both run by %d client host%s: give one result per count",
				       names[j], names[i], counts[i],
				       counts[i] == 1 ? "" : "s");
				return -EINVAL;
			}
	return 0;
}

static int read_all(struct rio_scaling *s, json_object *const *docs,
		    const char *const *names, int *counts)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < s->nrd && !ret; i++) {
		ret = rio_resultdoc_read(docs[i], &s->rd[i]);
		if (ret)
			break;
		counts[i] = ret = result_clients(s->rd[i], names[i]);
		if (ret > 0)
			ret = 0;
		s->caveat_sw |= rio_resultdoc_warned(s->rd[i], "software-rdma");
		s->caveat_emu |= rio_resultdoc_warned(s->rd[i], "emulated-cpu");
	}
	if (!ret)
		ret = counts_distinct(counts, names, s->nrd);
	for (i = 0; i < s->nrd && !ret; i++)
		ret = add_points(s, s->rd[i], docs[i], counts[i]);
	return ret;
}

int rio_scaling_new(json_object *const *docs, const char *const *names,
		    size_t n, struct rio_scaling **out)
{
	struct rio_scaling *s = calloc(1, sizeof(*s));
	int *counts = calloc(n ? n : 1, sizeof(*counts)), ret = -ENOMEM;

	*out = NULL;
	if (s && counts && (s->rd = calloc(n ? n : 1, sizeof(*s->rd)))) {
		s->nrd = n;
		ret = read_all(s, docs, names, counts);
	}
	free(counts);
	if (ret) {
		rio_scaling_delete(&s);
		return ret;
	}
	qsort_r(s->pts, s->npts, sizeof(*s->pts), point_cmp, s);
	*out = s;
	return 0;
}

void rio_scaling_delete(struct rio_scaling **s)
{
	size_t i;

	if (!*s)
		return;
	for (i = 0; (*s)->rd && i < (*s)->nrd; i++)
		rio_resultdoc_delete(&(*s)->rd[i]);
	for (i = 0; i < (*s)->npts; i++)
		free((*s)->pts[i].label);
	free((*s)->rd);
	free((*s)->pts);
	free((*s)->work);
	free(*s);
	*s = NULL;
}

/* A figure with digits after the point and a suffix ("x"), or "-". */
static void cell(FILE *f, double v, int digits, const char *suffix)
{
	if (isnan(v))
		fprintf(f, " - |");
	else
		fprintf(f, " %.*f%s |", digits, v, suffix);
}

static void table(const struct rio_scaling *s, FILE *f)
{
	const struct point *pt;
	size_t i;

	fprintf(f,
		"| workload | client hosts | RDMA MiB/s | TCP MiB/s | RDMA/TCP | server | server CPU s/GiB, RDMA | TCP | RDMA/TCP |\n"
		"|---|---:|---:|---:|---:|---|---:|---:|---:|\n");
	for (i = 0; i < s->npts; i++) {
		pt = &s->pts[i];
		fprintf(f, "| %s | %d |", pt->label, pt->clients);
		cell(f, pt->p->rdma.bw_bytes / MIB, 1, "");
		cell(f, pt->p->tcp.bw_bytes / MIB, 1, "");
		cell(f, pt->p->bw_ratio, 2, "x");
		fprintf(f, " %s |", pt->srv ? pt->srv->host : "not watched");
		cell(f, pt->srv ? pt->srv->rdma_s : NAN, 3, "");
		cell(f, pt->srv ? pt->srv->tcp_s : NAN, 3, "");
		cell(f, pt->srv ? pt->srv->ratio : NAN, 2, "x");
		fprintf(f, "\n");
	}
}

/* "RDMA 1.8x, TCP 1.2x": how a figure grew from the first point to the
 * last of one workload. */
static void growth(FILE *f, const char *what, double r0, double r1, double t0,
		   double t1)
{
	fprintf(f, "%s%sRDMA ", what, *what ? " " : "");
	if (r0 > 0 && !isnan(r1))
		fprintf(f, "%.2fx", r1 / r0);
	else
		fprintf(f, "-");
	fprintf(f, ", TCP ");
	if (t0 > 0 && !isnan(t1))
		fprintf(f, "%.2fx", t1 / t0);
	else
		fprintf(f, "-");
}

static void summary(const struct rio_scaling *s, FILE *f)
{
	const struct point *a, *b;
	size_t i, j;

	for (i = 0; i < s->npts; i = j) {
		for (j = i + 1;
		     j < s->npts && !strcmp(s->pts[j].label, s->pts[i].label);
		     j++)
			;
		a = &s->pts[i];
		b = &s->pts[j - 1];
		if (a == b)
			continue;
		fprintf(f, "- %s, %d to %d client hosts: ", a->label,
			a->clients, b->clients);
		growth(f, "aggregate bandwidth", a->p->rdma.bw_bytes,
		       b->p->rdma.bw_bytes, a->p->tcp.bw_bytes,
		       b->p->tcp.bw_bytes);
		if (a->srv && b->srv) {
			fprintf(f, "; %s's CPU per GiB ", b->srv->host);
			growth(f, "", a->srv->rdma_s, b->srv->rdma_s,
			       a->srv->tcp_s, b->srv->tcp_s);
		}
		fprintf(f, "\n");
	}
}

/* A sum's verdict names its count ("seq-read, 2 clients: ..."); a
 * one-client pair's ("seq-read: ...") is given its count the same way. */
static void verdict(FILE *f, const struct point *pt)
{
	const char *v = pt->p->verdict, *w = pt->label;
	size_t n = strlen(w);

	if (!v)
		fprintf(f, "- %s, %d client host%s: no verdict\n", w,
			pt->clients, pt->clients == 1 ? "" : "s");
	else if (pt->clients == 1 && !strncmp(v, w, n) && v[n] == ':')
		fprintf(f, "- %s, 1 client:%s\n", w, v + n + 1);
	else
		fprintf(f, "- %s\n", v);
}

int rio_scaling_report(const struct rio_scaling *s, FILE *f)
{
	const char *caveat = rio_result_caveat_of(s->caveat_sw, s->caveat_emu);
	size_t i;

	fprintf(f,
		"# Many clients, one server: %zu runs, %d to %d client hosts at once\n\n",
		s->nrd, s->npts ? s->pts[0].clients : 0,
		s->npts ? s->pts[s->npts - 1].clients : 0);
	if (caveat)
		fprintf(f, "Note: %s.\n\n", caveat);
	fprintf(f, "## Verdicts by client count\n\n");
	for (i = 0; i < s->npts; i++)
		verdict(f, &s->pts[i]);
	fprintf(f, "\n## From the fewest client hosts to the most\n\n");
	summary(s, f);
	fprintf(f,
		"\n## Aggregate bandwidth and the server's CPU per GiB\n\n"
		"Bandwidth is the sum over the client hosts (one host's own at 1); the server's CPU per GiB is under that load.\n\n");
	table(s, f);
	return ferror(f) ? -EIO : 0;
}

/* A figure of a point by data column (2, 3: RDMA, TCP MiB/s; 4, 5: the
 * server's CPU s per GiB); NaN when there is none. */
static double column(const struct point *pt, int col)
{
	switch (col) {
	case 2:
		return pt->p->rdma.bw_bytes / MIB;
	case 3:
		return pt->p->tcp.bw_bytes / MIB;
	case 4:
		return pt->srv ? pt->srv->rdma_s : NAN;
	default:
		return pt->srv ? pt->srv->tcp_s : NAN;
	}
}

/* Per workload a data block: count, RDMA and TCP MiB/s, the server's RDMA
 * and TCP CPU s per GiB ('?': not watched). */
static void write_data(const struct rio_scaling *s, FILE *f)
{
	const struct point *pt;
	size_t w, i;

	fprintf(f,
		"# clients rdma_mib_s tcp_mib_s server_rdma_s_per_gib server_tcp_s_per_gib\n");
	for (w = 0; w < s->nwork; w++) {
		for (i = 0; i < s->npts; i++) {
			pt = &s->pts[i];
			if (strcmp(pt->label, s->work[w]))
				continue;
			fprintf(f, "%d %g %g", pt->clients, column(pt, 2),
				column(pt, 3));
			if (pt->srv && !isnan(pt->srv->rdma_s) &&
			    !isnan(pt->srv->tcp_s))
				fprintf(f, " %g %g\n", pt->srv->rdma_s,
					pt->srv->tcp_s);
			else
				fprintf(f, " ? ?\n");
		}
		fprintf(f, "\n\n");
	}
}

/* From zero; a log axis when the panel's figures (columns col and col+1)
 * are more than 20x apart (sequential MiB/s beside random 4 KiB I/O). */
static void y_axis(const struct rio_scaling *s, FILE *f, int col,
		   const char *unit)
{
	double lo = INFINITY, hi = 0, v;
	size_t i;
	int c;

	for (i = 0; i < s->npts; i++)
		for (c = col; c <= col + 1; c++) {
			v = column(&s->pts[i], c);
			if (v > 0) {
				lo = fmin(lo, v);
				hi = fmax(hi, v);
			}
		}
	if (hi > 20 * lo)
		fprintf(f,
			"set logscale y\nset yrange [*:*]\nset ylabel '%s (log scale)'\n",
			unit);
	else
		fprintf(f,
			"unset logscale y\nset yrange [0:*]\nset ylabel '%s'\n",
			unit);
}

/* RDMA blue and TCP orange, as in the report's chart; a point shape and
 * dash per workload. */
static void panel(const struct rio_scaling *s, FILE *f, int col,
		  const char *unit)
{
	size_t w;

	y_axis(s, f, col, unit);
	fprintf(f, "plot ");
	for (w = 0; w < s->nwork; w++) {
		fprintf(f,
			"%sdata index %zu using 1:%d with linespoints lw 2 pt %zu dt 1 lc rgb '#1f77b4' title ",
			w ? ", " : "", w, col, 5 + 2 * (w % 6));
		rio_gpstr_printf(f, "%s RDMA", s->work[w]);
		fprintf(f,
			", '' index %zu using 1:%d with linespoints lw 2 pt %zu dt 2 lc rgb '#ff7f0e' title ",
			w, col + 1, 4 + 2 * (w % 6));
		rio_gpstr_printf(f, "%s TCP", s->work[w]);
	}
	fprintf(f, "\n");
}

static int write_script(const struct rio_scaling *s, FILE *f, const char *data,
			const char *img, int svg)
{
	const char *caveat = rio_result_caveat_of(s->caveat_sw, s->caveat_emu);
	int lo = s->pts[0].clients, hi = s->pts[0].clients, cpu = 0;
	size_t i;

	for (i = 0; i < s->npts; i++) {
		lo = s->pts[i].clients < lo ? s->pts[i].clients : lo;
		hi = s->pts[i].clients > hi ? s->pts[i].clients : hi;
	}
	for (i = 0; i < s->npts; i++)
		cpu |= s->pts[i].srv && !isnan(s->pts[i].srv->rdma_s) &&
		       !isnan(s->pts[i].srv->tcp_s);
	fprintf(f, "set terminal %s size 900,%d font 'Sans,10' noenhanced\n",
		svg ? "svg dynamic" : "pngcairo", cpu ? 700 : 380);
	fprintf(f, "set encoding utf8\nset output ");
	rio_gpstr_write(f, img);
	fprintf(f, "\ndata = ");
	rio_gpstr_write(f, data);
	fprintf(f,
		"\nset datafile missing '?'\nset multiplot layout %d,1 title ",
		1 + cpu);
	rio_gpstr_printf(f, "Many clients, one server: RDMA vs TCP%s%s",
			 caveat ? ": " : "", caveat ? caveat : "");
	fprintf(f,
		"\nset grid xtics ytics\nset key noenhanced outside right top\n"
		"set lmargin at screen 0.1\nset rmargin at screen 0.75\n"
		"set xrange [%g:%g]\nset xtics 1\n"
		"set xlabel 'client hosts at once'\n",
		lo - 0.3, hi + 0.3);
	fprintf(f,
		"set title 'Aggregate bandwidth over the client hosts (higher is better)%s'\n",
		cpu ? "" : "; the server''s CPU was not watched");
	panel(s, f, 2, "MiB/s");
	if (cpu) {
		fprintf(f,
			"set title 'The server''s CPU per GiB moved, under that load (lower is better)'\n");
		panel(s, f, 4, "CPU s per GiB");
	}
	fprintf(f, "unset multiplot\n");
	return ferror(f) ? -EIO : 0;
}

static int plot_write(void *arg, FILE *data, const char *data_path,
		      FILE *script, const char *img_path, int svg)
{
	const struct rio_scaling *s = arg;

	write_data(s, data);
	return write_script(s, script, data_path, img_path, svg);
}

int rio_scaling_plot(const struct rio_scaling *s, const char *path)
{
	if (!s->npts) {
		rc_err("plot %s: no workload to draw", path);
		return -EINVAL;
	}
	return rio_plot_file(path, plot_write, (void *)s);
}
