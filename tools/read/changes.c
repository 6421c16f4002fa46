// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "read/changes.h"
#include "base/jsonread.h"
#include "read/noise.h"
#include "read/cell.h"
#include "result/resultdoc.h"
#include "result/rounds.h"
#include "result/stats.h"

/* The chance that a comparison of two runs without any change calls any
 * of its figures beyond noise (Bonferroni over the figures judged). */
#define FAMILY_ALPHA 0.05

struct metric {
	const char *name, *path;
	double unit; /* shown divided by it; 0: a ratio, shown as 2.00x */
	bool higher_is_better, latency;
};

static const struct metric job_metrics[] = {
	{ "MiB/s", "bw_bytes", 1024.0 * 1024, true, false },
	{ "IOPS", "iops", 1, true, false },
	{ "p50 latency us", "clat_ns.p50", 1000, false, true },
	{ "p99 latency us", "clat_ns.p99", 1000, false, true },
};

static const struct metric pair_metrics[] = {
	{ "bandwidth", "bw_ratio", 0, true, false },
	{ "IOPS", "iops_ratio", 0, true, false },
	{ "p50 latency", "p50_ratio", 0, false, true },
	{ "p99 latency", "p99_ratio", 0, false, true },
};

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

typedef double (*getter)(json_object *x, const char *arg);

static double get_path(json_object *x, const char *path)
{
	return rio_rounds_num(x, path);
}

/* A pair's CPU per GiB ratio on the host named host. */
static double get_host_ratio(json_object *x, const char *host)
{
	return rio_json_num(rio_json_find(rio_json_get(x, "host_cpu_per_gib"),
					  "host", host),
			    "ratio", NAN);
}

/* The figure of e's counterpart in each round of doc (NaN: not there). */
static double *per_round(json_object *doc, const char *what, json_object *e,
			 int occ, getter get, const char *arg, int *n)
{
	double *v;
	json_object *x;
	int k;

	*n = rio_rounds_count(doc);
	v = calloc(*n, sizeof(*v));
	for (k = 0; v && k < *n; k++) {
		x = rio_rounds_find(rio_json_get(rio_rounds_get(doc, k), what),
				    e, occ);
		v[k] = x ? get(x, arg) : NAN;
	}
	return v;
}

struct figure {
	json_object *a, *b, *e; /* the results, and e of a's top level */
	const char *what; /* "results" or "comparisons" */
	int occ;
};

static void figure_add(struct table *t, const struct figure *f,
		       const char *label, const char *metric, getter get,
		       const char *arg, const struct metric *m)
{
	struct row *r = row_add(t, label, !strcmp(f->what, "comparisons"));

	if (!r)
		return;
	snprintf(r->metric, sizeof(r->metric), "%s", metric);
	r->unit = m->unit;
	r->higher_is_better = m->higher_is_better;
	/* Latency percentiles move more from run to run than throughput. */
	r->threshold = m->latency ? 2 * t->noise : t->noise;
	r->old = per_round(f->a, f->what, f->e, f->occ, get, arg, &r->nold);
	r->new = per_round(f->b, f->what, f->e, f->occ, get, arg, &r->nnew);
	if (!r->old || !r->new)
		t->failed = 1;
}

static bool several_hosts(json_object *rs)
{
	size_t i;

	for (i = 1; i < rio_json_len(rs); i++)
		if (strcmp(rio_json_str(json_object_array_get_idx(rs, i),
					"host"),
			   rio_json_str(json_object_array_get_idx(rs, 0),
					"host")))
			return true;
	return false;
}

static void job_label(char *buf, size_t n, json_object *x, const char *dir,
		      bool hosts)
{
	if (hosts)
		snprintf(buf, n, "%s: %s (%s)", rio_json_str(x, "host"),
			 rio_json_str(x, "jobname"), dir);
	else
		snprintf(buf, n, "%s (%s)", rio_json_str(x, "jobname"), dir);
}

static void job_figures(struct table *t, struct figure *f, json_object *y,
			bool hosts)
{
	static const char *const dirs[] = { "read", "write" };
	char label[320], path[64];
	size_t d, m;

	for (d = 0; d < NELEM(dirs); d++) {
		if (!rio_json_get(f->e, dirs[d]) || !rio_json_get(y, dirs[d]))
			continue;
		job_label(label, sizeof(label), f->e, dirs[d], hosts);
		for (m = 0; m < NELEM(job_metrics); m++) {
			snprintf(path, sizeof(path), "%s.%s", dirs[d],
				 job_metrics[m].path);
			figure_add(t, f, label, job_metrics[m].name, get_path,
				   path, &job_metrics[m]);
		}
	}
}

/* Entries of from without a counterpart in to: "only in the X result". */
static void only_in(struct table *t, json_object *from, json_object *to,
		    const char *which, int pair)
{
	json_object *x;
	struct row *r;
	size_t i;

	for (i = 0; i < rio_json_len(from); i++) {
		x = json_object_array_get_idx(from, i);
		if (rio_rounds_find(to, x, rio_rounds_occurrence(from, i)))
			continue;
		r = row_add(t, rio_json_str(x, pair ? "workload" : "jobname"),
			    pair);
		if (r)
			r->only = which;
	}
}

static void job_rows(struct table *t, json_object *a, json_object *b)
{
	json_object *ra = rio_json_get(a, "results"),
		    *rb = rio_json_get(b, "results"), *y;
	struct figure f = { .a = a, .b = b, .what = "results" };
	bool hosts = several_hosts(ra);
	size_t i;

	for (i = 0; i < rio_json_len(ra); i++) {
		f.e = json_object_array_get_idx(ra, i);
		f.occ = rio_rounds_occurrence(ra, i);
		y = rio_rounds_find(rb, f.e, f.occ);
		if (y)
			job_figures(t, &f, y, hosts);
	}
	only_in(t, ra, rb, "old", 0);
	only_in(t, rb, ra, "new", 0);
}

static void pair_rows(struct table *t, json_object *a, json_object *b,
		      const struct rio_resultdoc *ra)
{
	json_object *ca = rio_json_get(a, "comparisons"),
		    *cb = rio_json_get(b, "comparisons"), *hc;
	struct figure f = { .a = a, .b = b, .what = "comparisons" };
	char label[320], metric[320];
	const struct metric cpu = { NULL, NULL, 0, false, false };
	size_t i, m;

	for (i = 0; i < rio_json_len(ca); i++) {
		f.e = json_object_array_get_idx(ca, i);
		f.occ = rio_rounds_occurrence(ca, i);
		if (!rio_rounds_find(cb, f.e, f.occ))
			continue;
		rio_cell_pair_label(label, sizeof(label),
				    rio_resultdoc_pair(ra, i),
				    rio_resultdoc_pairs_multi_host(ra));
		for (m = 0; m < NELEM(pair_metrics); m++)
			figure_add(t, &f, label, pair_metrics[m].name, get_path,
				   pair_metrics[m].path, &pair_metrics[m]);
		hc = rio_json_get(f.e, "host_cpu_per_gib");
		for (m = 0; m < rio_json_len(hc); m++) {
			const char *host = rio_json_str(
				json_object_array_get_idx(hc, m), "host");

			snprintf(metric, sizeof(metric), "CPU per GiB on %s",
				 host);
			figure_add(t, &f, label, metric, get_host_ratio, host,
				   &cpu);
		}
	}
	only_in(t, ca, cb, "old", 1);
	only_in(t, cb, ca, "new", 1);
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
static void print_rule(json_object *a, json_object *b, double noise, int known,
		       FILE *out)
{
	int na = rio_rounds_count(a), nb = rio_rounds_count(b);

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
	struct rio_resultdoc *ra;

	memset(count, 0, sizeof(*count));
	if (rio_resultdoc_read(a, &ra))
		return -ENOMEM;
	job_rows(&t, a, b);
	pair_rows(&t, a, b, ra);
	rio_resultdoc_delete(&ra);
	if (!t.failed) {
		judge_all(&t, count);
		print_rule(a, b, noise_pct, t.known, out);
		print_table(&t, 0, out);
		fprintf(out, "\n### RDMA/TCP ratios\n\n");
		print_table(&t, 1, out);
	}
	table_free(&t);
	return t.failed ? -ENOMEM : 0;
}
