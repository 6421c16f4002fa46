// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "read/changes.h"
#include "read/noise.h"
#include "read/cell.h"
#include "result/resultdoc.h"
#include "result/stats.h"

/* The chance that a comparison of two runs without any change calls any
 * of its figures beyond noise (Bonferroni over the figures judged). */
#define FAMILY_ALPHA 0.05

/* Which figure of a job's direction, or of a pair, a row holds. */
enum figure_kind { FIG_BW, FIG_IOPS, FIG_P50, FIG_P99, FIG_HOST_CPU };

struct metric {
	const char *name;
	enum figure_kind fig;
	double unit; /* shown divided by it; 0: a ratio, shown as 2.00x */
	bool higher_is_better, latency;
};

static const struct metric job_metrics[] = {
	{ "MiB/s", FIG_BW, 1024.0 * 1024, true, false },
	{ "IOPS", FIG_IOPS, 1, true, false },
	{ "p50 latency us", FIG_P50, 1000, false, true },
	{ "p99 latency us", FIG_P99, 1000, false, true },
};

static const struct metric pair_metrics[] = {
	{ "bandwidth", FIG_BW, 0, true, false },
	{ "IOPS", FIG_IOPS, 0, true, false },
	{ "p50 latency", FIG_P50, 0, false, true },
	{ "p99 latency", FIG_P99, 0, false, true },
};

static const struct metric host_cpu_metric = { NULL, FIG_HOST_CPU, 0, false,
					       false };

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* One figure of one job or pair: its value in each round of either. */
struct row {
	char label[320], metric[320];
	const char *only; /* "old", "new": the job is in that result only */
	double unit, threshold, *old, *new;
	int nold, nnew, pair, judged;
	bool higher_is_better;
	struct rio_noise_change c;
};

struct table {
	struct row *v;
	int n, failed, known; /* known: figures whose noise is measured */
	double noise;
};

static struct row *row_add(struct table *t, const char *label, int pair)
{
	struct row *v = realloc(t->v, (t->n + 1) * sizeof(*v));

	if (!v) {
		t->failed = 1;
		return NULL;
	}
	t->v = v;
	v = &t->v[t->n++];
	memset(v, 0, sizeof(*v));
	snprintf(v->label, sizeof(v->label), "%s", label);
	v->pair = pair;
	return v;
}

/* The job or pair of the old result a row follows, which of its figures,
 * and where (a direction; a host for a pair's CPU). */
struct figure {
	const struct rio_resultdoc *a, *b;
	const struct rio_res_job *job; /* or */
	const struct rio_res_pair *pair;
	int occ, dir;
	enum figure_kind fig;
	const char *host;
};

static double job_value(const struct rio_res_job *j, const struct figure *f)
{
	const struct rio_res_dir *d = &j->dir[f->dir];

	switch (f->fig) {
	case FIG_BW:
		return d->bw_bytes;
	case FIG_IOPS:
		return d->iops;
	case FIG_P50:
		return d->clat.p50;
	case FIG_P99:
		return d->clat.p99;
	case FIG_HOST_CPU:
		break;
	}
	return NAN;
}

static double pair_value(const struct rio_res_pair *p, const struct figure *f)
{
	const struct rio_res_cpu *c;

	switch (f->fig) {
	case FIG_BW:
		return p->bw_ratio;
	case FIG_IOPS:
		return p->iops_ratio;
	case FIG_P50:
		return p->p50_ratio;
	case FIG_P99:
		return p->p99_ratio;
	case FIG_HOST_CPU:
		c = rio_res_cpus_find(&p->host_cpu_per_gib, f->host);
		return c ? c->ratio : NAN;
	}
	return NAN;
}

/* A result's rounds, as its table says: one without rounds[] is one. */
static int rounds_in(const struct rio_resultdoc *doc)
{
	int n = rio_resultdoc_nrounds(doc);

	return n ? n : 1;
}

/* The figure of f's counterpart in each round of doc (NaN: not there). */
static double *per_round(const struct rio_resultdoc *doc,
			 const struct figure *f, int *n)
{
	const struct rio_resultdoc *r;
	const struct rio_res_job *j;
	const struct rio_res_pair *p;
	double *v;
	int k;

	*n = rounds_in(doc);
	v = calloc(*n, sizeof(*v));
	for (k = 0; v && k < *n; k++) {
		r = rio_resultdoc_round(doc, k);
		v[k] = NAN;
		if (f->pair) {
			p = rio_resultdoc_pair_find(r, f->pair, f->occ);
			if (p)
				v[k] = pair_value(p, f);
		} else {
			j = rio_resultdoc_job_find(r, f->job, f->occ);
			if (j)
				v[k] = job_value(j, f);
		}
	}
	return v;
}

static void figure_add(struct table *t, const struct figure *f,
		       const char *label, const char *metric,
		       const struct metric *m)
{
	struct row *r = row_add(t, label, f->pair != NULL);

	if (!r)
		return;
	snprintf(r->metric, sizeof(r->metric), "%s", metric);
	r->unit = m->unit;
	r->higher_is_better = m->higher_is_better;
	/* Latency percentiles move more from run to run than throughput. */
	r->threshold = m->latency ? 2 * t->noise : t->noise;
	r->old = per_round(f->a, f, &r->nold);
	r->new = per_round(f->b, f, &r->nnew);
	if (!r->old || !r->new)
		t->failed = 1;
}

static void job_label(char *buf, size_t n, const struct rio_res_job *j,
		      const char *dir, bool hosts)
{
	if (hosts)
		snprintf(buf, n, "%s: %s (%s)", j->host, j->jobname, dir);
	else
		snprintf(buf, n, "%s (%s)", j->jobname, dir);
}

static void job_figures(struct table *t, struct figure *f,
			const struct rio_res_job *y, bool hosts)
{
	static const char *const dirs[RIO_RES_NDIRS] = { "read", "write" };
	char label[320];
	size_t m;

	for (f->dir = 0; f->dir < RIO_RES_NDIRS; f->dir++) {
		if (!f->job->dir[f->dir].set || !y->dir[f->dir].set)
			continue;
		job_label(label, sizeof(label), f->job, dirs[f->dir], hosts);
		for (m = 0; m < NELEM(job_metrics); m++) {
			f->fig = job_metrics[m].fig;
			figure_add(t, f, label, job_metrics[m].name,
				   &job_metrics[m]);
		}
	}
}

/* Jobs of from without a counterpart in to: "only in the X result". */
static void jobs_only_in(struct table *t, const struct rio_resultdoc *from,
			 const struct rio_resultdoc *to, const char *which)
{
	const struct rio_res_job *x;
	struct row *r;
	size_t i;

	for (i = 0; i < rio_resultdoc_njobs(from); i++) {
		x = rio_resultdoc_job(from, i);
		if (rio_resultdoc_job_find(
			    to, x, rio_resultdoc_job_occurrence(from, i)))
			continue;
		r = row_add(t, x->jobname, 0);
		if (r)
			r->only = which;
	}
}

static void pairs_only_in(struct table *t, const struct rio_resultdoc *from,
			  const struct rio_resultdoc *to, const char *which)
{
	const struct rio_res_pair *x;
	char label[320];
	struct row *r;
	size_t i;

	for (i = 0; i < rio_resultdoc_npairs(from); i++) {
		x = rio_resultdoc_pair(from, i);
		if (rio_resultdoc_pair_find(
			    to, x, rio_resultdoc_pair_occurrence(from, i)))
			continue;
		rio_cell_pair_label(label, sizeof(label), x,
				    rio_resultdoc_pairs_multi_host(from));
		r = row_add(t, label, 1);
		if (r)
			r->only = which;
	}
}

static void job_rows(struct table *t, const struct rio_resultdoc *a,
		     const struct rio_resultdoc *b)
{
	struct figure f = { .a = a, .b = b };
	bool hosts = rio_resultdoc_jobs_multi_host(a);
	const struct rio_res_job *y;
	size_t i;

	for (i = 0; i < rio_resultdoc_njobs(a); i++) {
		f.job = rio_resultdoc_job(a, i);
		f.occ = rio_resultdoc_job_occurrence(a, i);
		y = rio_resultdoc_job_find(b, f.job, f.occ);
		if (y)
			job_figures(t, &f, y, hosts);
	}
	jobs_only_in(t, a, b, "old");
	jobs_only_in(t, b, a, "new");
}

static void pair_rows(struct table *t, const struct rio_resultdoc *a,
		      const struct rio_resultdoc *b)
{
	struct figure f = { .a = a, .b = b };
	char label[320], metric[320];
	size_t i, m;

	for (i = 0; i < rio_resultdoc_npairs(a); i++) {
		f.pair = rio_resultdoc_pair(a, i);
		f.occ = rio_resultdoc_pair_occurrence(a, i);
		if (!rio_resultdoc_pair_find(b, f.pair, f.occ))
			continue;
		rio_cell_pair_label(label, sizeof(label), f.pair,
				    rio_resultdoc_pairs_multi_host(a));
		for (m = 0; m < NELEM(pair_metrics); m++) {
			f.fig = pair_metrics[m].fig;
			figure_add(t, &f, label, pair_metrics[m].name,
				   &pair_metrics[m]);
		}
		f.fig = FIG_HOST_CPU;
		for (m = 0; m < f.pair->host_cpu_per_gib.n; m++) {
			f.host = f.pair->host_cpu_per_gib.v[m].host;
			snprintf(metric, sizeof(metric), "CPU per GiB on %s",
				 f.host);
			figure_add(t, &f, label, metric, &host_cpu_metric);
		}
	}
	pairs_only_in(t, a, b, "old");
	pairs_only_in(t, b, a, "new");
}

/* Judges every figure, at FAMILY_ALPHA over those whose noise is known. */
static void judge_all(struct table *t, struct rio_changes_count *count)
{
	double lo, hi, alpha;
	struct row *r;
	int i, known = 0;

	for (i = 0; i < t->n; i++) {
		r = &t->v[i];
		known += !r->only &&
			 rio_stats_range(r->old, r->nold, &lo, &hi) >= 2 &&
			 rio_stats_range(r->new, r->nnew, &lo, &hi) >= 2;
	}
	t->known = known;
	alpha = FAMILY_ALPHA / (known ? known : 1);
	for (i = 0; i < t->n; i++) {
		r = &t->v[i];
		if (r->only)
			continue;
		r->judged = !rio_noise_judge(r->old, r->nold, r->new, r->nnew,
					     r->threshold, alpha,
					     r->higher_is_better, &r->c);
		if (!r->judged)
			continue;
		count->figures++;
		count->beyond += r->c.beyond;
		count->worse += r->c.worse;
		count->unknown += !r->c.known;
	}
}

static void one_value(char *buf, size_t n, const struct row *r, double v)
{
	if (r->unit)
		snprintf(buf, n, "%.2f", v / r->unit);
	else
		snprintf(buf, n, "%.3fx", v);
}

/* "80.00 [79.98, 80.02]": the median, and the range with several rounds. */
static void value(char *buf, size_t n, const struct row *r, double median,
		  double min, double max, int rounds)
{
	char m[40], lo[40], hi[40];

	one_value(m, sizeof(m), r, median);
	if (rounds < 2) {
		snprintf(buf, n, "%s", m);
		return;
	}
	one_value(lo, sizeof(lo), r, min);
	one_value(hi, sizeof(hi), r, max);
	snprintf(buf, n, "%s [%s, %s]", m, lo, hi);
}

static const char *verdict(const struct row *r)
{
	if (!r->c.known)
		return !r->c.beyond ? "within --noise (noise unknown)"
		       : r->c.worse
			       ? "**beyond noise** by --noise alone (noise unknown), worse"
			       : "**beyond noise** by --noise alone (noise unknown), better";
	return !r->c.beyond ? "within noise"
	       : r->c.worse ? "**beyond noise**, worse"
			    : "**beyond noise**, better";
}

static void print_row(const struct row *r, FILE *out)
{
	const struct rio_noise_change *c = &r->c;
	char a[160], b[160], p[32] = "-";

	if (r->only) {
		fprintf(out,
			"| %s | - | - | - | - | - | only in the %s result |\n",
			r->label, r->only);
		return;
	}
	if (!r->judged)
		return;
	value(a, sizeof(a), r, c->old_median, c->old_min, c->old_max, c->nold);
	value(b, sizeof(b), r, c->new_median, c->new_min, c->new_max, c->nnew);
	if (!isnan(c->p))
		snprintf(p, sizeof(p), "%.2g", c->p);
	fprintf(out, "| %s | %s | %s | %s | %+.1f%% | %s | %s |\n", r->label,
		r->metric, a, b, c->change_pct, p, verdict(r));
}

static void print_table(const struct table *t, int pair, FILE *out)
{
	int i, rows = 0;

	for (i = 0; i < t->n; i++) {
		if (t->v[i].pair != pair)
			continue;
		if (!rows++)
			fprintf(out,
				"| %s | %s | Old | New | Change | p | Verdict |\n|---|---|---:|---:|---:|---:|---|\n",
				pair ? "Pair" : "Job",
				pair ? "RDMA/TCP ratio" : "Metric");
		print_row(&t->v[i], out);
	}
	if (!rows)
		fprintf(out, "No %s in both results.\n",
			pair ? "RDMA/TCP pair" : "job");
}

/* How the figures below are judged, said before them. */
static void print_rule(const struct rio_resultdoc *a,
		       const struct rio_resultdoc *b, double noise, int known,
		       FILE *out)
{
	int na = rounds_in(a), nb = rounds_in(b);

	fprintf(out,
		"Old result: %d round%s; new result: %d round%s. Each figure is the median over the rounds, with their range in brackets.\n\n",
		na, na > 1 ? "s" : "", nb, nb > 1 ? "s" : "");
	if (na < 2 || nb < 2)
		fprintf(out,
			"**Run-to-run noise is unknown**: the %s result has one round only, and fio's own spread of per-interval samples within a run is not the variance between runs. Each change is judged by --noise alone (%g %%; %g %% for latency percentiles and their ratios) and marked \"noise unknown\". Run both with `rdmaio run --repeat 3` or more to measure the noise.\n\n",
			na < 2 && nb < 2 ? "old and the new"
			: na < 2	 ? "old"
					 : "new",
			noise, 2 * noise);
	else
		fprintf(out,
			"A change is beyond noise when the two ranges of rounds do not overlap, Welch's t test of the logarithms of the rounds' values gives p below %.2g (%g %% over the %d figures judged: Bonferroni), and the medians differ by more than --noise (%g %%; %g %% for latency percentiles and their ratios).\n\n",
			FAMILY_ALPHA / (known ? known : 1), FAMILY_ALPHA * 100,
			known, noise, 2 * noise);
}

static void table_free(struct table *t)
{
	while (t->n--) {
		free(t->v[t->n].old);
		free(t->v[t->n].new);
	}
	free(t->v);
}

int rio_changes_write(json_object *a, json_object *b, double noise_pct,
		      FILE *out, struct rio_changes_count *count)
{
	struct table t = { .noise = noise_pct };
	struct rio_resultdoc *ra = NULL, *rb = NULL;

	memset(count, 0, sizeof(*count));
	if (rio_resultdoc_read(a, &ra) || rio_resultdoc_read(b, &rb)) {
		rio_resultdoc_delete(&ra);
		return -ENOMEM;
	}
	job_rows(&t, ra, rb);
	pair_rows(&t, ra, rb);
	if (!t.failed) {
		judge_all(&t, count);
		print_rule(ra, rb, noise_pct, t.known, out);
		print_table(&t, 0, out);
		fprintf(out, "\n### RDMA/TCP ratios\n\n");
		print_table(&t, 1, out);
	}
	table_free(&t);
	rio_resultdoc_delete(&ra);
	rio_resultdoc_delete(&rb);
	return t.failed ? -ENOMEM : 0;
}
