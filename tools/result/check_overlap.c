// SPDX-License-Identifier: MIT
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result/check.h"
#include "result/derive.h"
#include "result/hostmap.h"
#include "result/runrecord.h"

static const char *const overlap_causes[] = {
	"a client host started its jobs late: fio's client sends the jobs to its servers one after another, and a slow host (a busy CPU, a slow ssh forward, startdelay or exec_prerun in its sections) starts them later",
	"a client host ended early: its jobs failed or ran out of data (size= without time_based), or its runtime differs",
	"the hosts' clocks are compared through the CPU watch's readings: a --remote-cpu command whose lines arrive late makes a host look late by that delay",
	"give the jobs time_based and a runtime much longer than the skew, or rerun: the sum of the client hosts is one load only while they overlap",
	NULL,
};

/* The CPU watch samples this often without readings to tell. */
#define DEFAULT_INTERVAL_S 0.1

/* One client host in one fio run. */
struct part {
	char *name;
	const struct rio_task *tasks; /* on this host's clock */
	int ntasks;
	int known; /* its tasks were watched */
	double interval; /* its watch's sampling interval, s */
	double start, end; /* its tasks in the run; start NaN: none */
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median gap between a series' readings: how late a task is seen. */
static double interval_of(const struct rio_cpu_series *s)
{
	double *gap, med = DEFAULT_INTERVAL_S;
	int i;

	if (!s || s->n < 2)
		return med;
	gap = malloc((s->n - 1) * sizeof(*gap));
	if (!gap)
		return med;
	for (i = 1; i < s->n; i++)
		gap[i - 1] = s->v[i].t - s->v[i - 1].t;
	qsort(gap, s->n - 1, sizeof(*gap), cmp_double);
	med = gap[(s->n - 1) / 2];
	free(gap);
	return med;
}

static const struct rio_cpu_series *series_of(const struct rio_overlap_in *in,
					      const char *client)
{
	int i;

	for (i = 0; i < in->ncpu; i++)
		if (client ? in->cpu[i].client &&
				     !strcmp(in->cpu[i].client, client)
			   : !in->cpu[i].client)
			return &in->cpu[i];
	return NULL;
}

/* Host h's tasks: this host's own watch's, or its --remote-cpu's. */
static void part_of(const struct rio_overlap_in *in, int h, struct part *p)
{
	const struct rio_fio_host *fh = &in->hosts[h];
	const struct rio_cpu_series *s =
		series_of(in, fh->local ? NULL : fh->client);
	char *fio_name = rio_hostmap_fio_name(fh->client);

	p->name = strdup(
		fh->local ? rio_hostmap_local(in->map)
			  : rio_hostmap_name(in->map,
					     fio_name ? fio_name : fh->client));
	free(fio_name);
	p->interval = interval_of(s);
	if (fh->local) {
		p->tasks = in->tasks;
		p->ntasks = in->ntasks;
		p->known = 1;
	} else if (s && s->n && s->tasks_watched) {
		p->tasks = s->tasks;
		p->ntasks = s->ntasks;
		p->known = 1;
	}
}

/* The span of p's tasks that ran during span r. */
static void part_span(struct part *p, const struct rio_run_span *r)
{
	const struct rio_task *t;
	double end;
	int i;

	p->start = NAN;
	p->end = NAN;
	for (i = 0; i < p->ntasks; i++) {
		t = &p->tasks[i];
		end = t->gone ? t->gone : t->last;
		if (t->first > r->end || end < r->start)
			continue;
		p->start =
			isnan(p->start) ? t->first : fmin(p->start, t->first);
		p->end = isnan(p->end) ? end : fmax(p->end, end);
	}
}

static int is_client(const struct rio_fio_host *h)
{
	return !h->role || !strcmp(h->role, "client");
}

/*
 * What a host may be off by and still count as started and ended with
 * the others: 10 % of the span, or the sampling: a task is seen up to an
 * interval after it starts or ends, on each side; 0.25 s covers fio's
 * client sending the job to its servers one after another.
 */
static double tolerance(const struct part *p, int n, double span)
{
	double interval = DEFAULT_INTERVAL_S;
	int i;

	for (i = 0; i < n; i++)
		if (!isnan(p[i].start))
			interval = fmax(interval, p[i].interval);
	return fmax(0.1 * span, 2 * interval + 0.25);
}

static void put_offsets(FILE *f, const struct part *p, int n, double a,
			double b, double tol)
{
	const char *sep = "";
	int i;

	for (i = 0; i < n; i++) {
		if (isnan(p[i].start) || p[i].start - a <= tol)
			continue;
		fprintf(f, "%s%s started %.2f s late", sep, p[i].name,
			p[i].start - a);
		sep = ", ";
	}
	for (i = 0; i < n; i++) {
		if (isnan(p[i].start) || b - p[i].end <= tol)
			continue;
		fprintf(f, "%s%s ended %.2f s early", sep, p[i].name,
			b - p[i].end);
		sep = ", ";
	}
}

/* The check of one fio run, k of nruns: 1 when flagged. */
static int run_check(json_object *checks, struct part *p, int n, int k,
		     int nruns, const struct rio_run_span *r)
{
	double a = INFINITY, b = -INFINITY, tol;
	int i, ran = 0, late = 0;
	const char *sep = " ";
	char *msg = NULL;
	size_t len = 0;
	FILE *f;

	for (i = 0; i < n; i++) {
		part_span(&p[i], r);
		if (isnan(p[i].start))
			continue;
		ran++;
		a = fmin(a, p[i].start);
		b = fmax(b, p[i].end);
	}
	if (ran < 2)
		return 0;
	tol = tolerance(p, n, b - a);
	for (i = 0; i < n; i++)
		late |= !isnan(p[i].start) &&
			(p[i].start - a > tol || b - p[i].end > tol);
	f = open_memstream(&msg, &len);
	if (!f)
		return 0;
	fprintf(f, "fio run %d of %d, %d client hosts at once: their jobs ran",
		k + 1, nruns, ran);
	for (i = 0; i < n; i++) {
		if (isnan(p[i].start))
			continue;
		fprintf(f, "%s%s %.2f-%.2f s", sep, p[i].name,
			p[i].start - r->start, p[i].end - r->start);
		sep = ", ";
	}
	fprintf(f, " after the run started; ");
	if (late)
		put_offsets(f, p, n, a, b, tol);
	else
		fprintf(f, "all started and ended together");
	fprintf(f,
		" (%s %.2f s: 10 %% of the %.2f s they spanned, at least twice the sampling interval and 0.25 s)",
		late ? "more than the" : "within", tol, b - a);
	fclose(f);
	rio_check_add(checks, "overlap", RIO_DERIVE_ALL_CLIENTS, -1, NULL,
		      late ? "flagged" : "pass", NAN, NAN, msg,
		      late ? overlap_causes : NULL);
	free(msg);
	return late;
}

/* The client hosts whose tasks nobody watched, when there are any. */
static void unknown_check(json_object *checks, const struct part *p, int n)
{
	char msg[1024] = "";
	size_t len = 0;
	int i;

	for (i = 0; i < n && len < sizeof(msg); i++)
		if (!p[i].known)
			len += snprintf(msg + len, sizeof(msg) - len, "%s%s",
					len ? ", " : "", p[i].name);
	if (!len)
		return;
	if (len < sizeof(msg))
		snprintf(
			msg + len, sizeof(msg) - len,
			": fio's jobs there were not watched, so whether the client hosts ran at once is not known (give --remote-cpu 'ssh -- %%h rdmaio cpu-watch', with an rdmaio there as new as this one)");
	rio_check_add(checks, "overlap", RIO_DERIVE_ALL_CLIENTS, -1, NULL,
		      "skipped", NAN, NAN, msg, NULL);
}

void rio_check_overlap(const struct rio_overlap_in *in, json_object *checks,
		       int *flagged)
{
	struct part *p = calloc(in->nhosts ? in->nhosts : 1, sizeof(*p));
	int h, n = 0, k, unknown = 0;

	*flagged = 0;
	for (h = 0; p && h < in->nhosts; h++) {
		if (!is_client(&in->hosts[h]))
			continue;
		part_of(in, h, &p[n]);
		unknown |= !p[n++].known;
	}
	if (n >= 2 && unknown)
		unknown_check(checks, p, n);
	for (k = 0; n >= 2 && !unknown && k < in->nspans; k++)
		if (!isnan(in->spans[k].end))
			*flagged += run_check(checks, p, n, k, in->nspans,
					      &in->spans[k]);
	while (n)
		free(p[--n].name);
	free(p);
}
