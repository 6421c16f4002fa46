// SPDX-License-Identifier: MIT
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result/fiooutput.h"
#include "result/hostmap.h"
#include "base/jsonread.h"

struct rio_fio_output {
	json_object *src; /* held: the jobs' strings point into it */
	json_object *global; /* "global options", NULL when not the jobs' */
	json_object **options; /* each job's "job options" */
	struct rio_fio_job *jobs;
	int njobs;
};

static const char *const dir_names[RIO_FIO_NDIRS] = { "read", "write" };

json_object *rio_fio_output_entries(json_object *output)
{
	json_object *a = rio_json_get(output, "client_stats");

	return a ? a : rio_json_get(output, "jobs");
}

int rio_fio_output_is_sum(json_object *entry)
{
	const char *n = rio_json_str(entry, "jobname");

	return n && !strcmp(n, "All clients");
}

int rio_fio_output_count(json_object *output)
{
	json_object *a = rio_fio_output_entries(output);
	size_t i, n = 0;

	for (i = 0; i < rio_json_len(a); i++)
		n += !rio_fio_output_is_sum(json_object_array_get_idx(a, i));
	return (int)n;
}

int rio_fio_output_is_fio(json_object *o)
{
	return rio_json_str(o, "fio version") &&
	       (json_object_is_type(rio_json_get(o, "jobs"), json_type_array) ||
		json_object_is_type(rio_json_get(o, "client_stats"),
				    json_type_array));
}

void rio_fio_output_join(json_object *into, json_object *more)
{
	json_object *dst = rio_json_get(into, "client_stats");
	json_object *src = rio_json_get(more, "client_stats"), *e;
	size_t i;

	for (i = 0; dst && i < rio_json_len(src); i++) {
		e = json_object_array_get_idx(src, i);
		if (!rio_fio_output_is_sum(e))
			json_object_array_add(dst, json_object_get(e));
	}
}

json_object *rio_fio_output_globals(json_object *output)
{
	return rio_json_get(output, "global options");
}

void rio_fio_output_drop_globals(json_object *output)
{
	json_object_object_del(output, "global options");
}

static struct rio_fio_num num_of(json_object *v)
{
	struct rio_fio_num n = { 0 };
	const char *t;

	if (json_object_is_type(v, json_type_int)) {
		n.set = n.is_int = 1;
		n.i = json_object_get_int64(v);
		n.d = (double)n.i;
	} else if (json_object_is_type(v, json_type_double)) {
		n.set = 1;
		n.d = json_object_get_double(v);
		/* json-c keeps the text it parsed a double from. */
		t = json_object_get_string(v);
		if (t && strlen(t) < sizeof(n.text))
			strcpy(n.text, t);
	}
	return n;
}

static struct rio_fio_num num(json_object *obj, const char *key)
{
	return num_of(rio_json_get(obj, key));
}

static int cmp_bin(const void *a, const void *b)
{
	double x = ((const struct rio_fio_bin *)a)->ns;
	double y = ((const struct rio_fio_bin *)b)->ns;

	return (x > y) - (x < y);
}

static int read_pcts(struct rio_fio_dir *d, json_object *pcts)
{
	struct rio_fio_pct *p;
	size_t n = 0;

	if (!json_object_is_type(pcts, json_type_object))
		return 0;
	p = calloc(json_object_object_length(pcts) + 1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	json_object_object_foreach(pcts, key, val)
	{
		p[n].p = strtod(key, NULL);
		p[n++].ns = num_of(val);
	}
	d->pct = p;
	d->npct = n;
	return 0;
}

static int read_bins(struct rio_fio_dir *d, json_object *bins)
{
	struct rio_fio_bin *b;
	size_t n = 0;

	if (!json_object_is_type(bins, json_type_object))
		return 0;
	b = calloc(json_object_object_length(bins) + 1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	json_object_object_foreach(bins, key, val)
	{
		b[n].ns = strtod(key, NULL);
		b[n++].count = json_object_get_double(val);
	}
	qsort(b, n, sizeof(*b), cmp_bin);
	d->bins = b;
	d->nbins = n;
	return 0;
}

static int read_dir(struct rio_fio_dir *d, json_object *obj)
{
	json_object *clat = rio_json_get(obj, "clat_ns");

	d->io_bytes = num(obj, "io_bytes");
	d->bw_bytes = num(obj, "bw_bytes");
	d->iops = num(obj, "iops");
	d->runtime_ms = num(obj, "runtime");
	d->total_ios = num(obj, "total_ios");
	d->clat_mean = num(clat, "mean");
	if (read_pcts(d, rio_json_get(clat, "percentile")))
		return -ENOMEM;
	return read_bins(d, rio_json_get(clat, "bins"));
}

static int read_job(struct rio_fio_job *j, json_object *e,
		    const struct rio_hostmap *hosts)
{
	int d;

	j->hostname = rio_json_str(e, "hostname");
	j->host = rio_hostmap_name(hosts, j->hostname);
	j->jobname = rio_json_str(e, "jobname");
	j->groupid = (int)rio_json_num(e, "groupid", 0);
	j->error = (int)rio_json_num(e, "error", 0);
	j->port = (int)rio_json_num(e, "port", 0);
	j->usr_cpu = num(e, "usr_cpu");
	j->sys_cpu = num(e, "sys_cpu");
	j->job_runtime_ms = num(e, "job_runtime");
	j->depth1_pct = rio_json_num(rio_json_get(e, "iodepth_level"), "1", 0);
	for (d = 0; d < RIO_FIO_NDIRS; d++)
		if (read_dir(&j->dir[d], rio_json_get(e, dir_names[d])))
			return -ENOMEM;
	return 0;
}

static int read_jobs(struct rio_fio_output *o, const struct rio_hostmap *hosts)
{
	json_object *a = rio_fio_output_entries(o->src), *e;
	size_t i, n = rio_json_len(a);

	o->jobs = calloc(n + 1, sizeof(*o->jobs));
	o->options = calloc(n + 1, sizeof(*o->options));
	if (!o->jobs || !o->options)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		e = json_object_array_get_idx(a, i);
		if (rio_fio_output_is_sum(e))
			continue;
		o->options[o->njobs] = rio_json_get(e, "job options");
		if (read_job(&o->jobs[o->njobs++], e, hosts))
			return -ENOMEM;
	}
	return 0;
}

int rio_fio_output_read(json_object *output, size_t njob_files,
			const struct rio_hostmap *hosts,
			struct rio_fio_output **out)
{
	struct rio_fio_output *o = calloc(1, sizeof(*o));

	*out = NULL;
	if (!o)
		return -ENOMEM;
	o->src = json_object_get(output);
	if (njob_files <= 1)
		o->global = rio_json_get(output, "global options");
	if (read_jobs(o, hosts)) {
		rio_fio_output_delete(&o);
		return -ENOMEM;
	}
	*out = o;
	return 0;
}

void rio_fio_output_delete(struct rio_fio_output **op)
{
	struct rio_fio_output *o = *op;
	int i, d;

	if (!o)
		return;
	for (i = 0; o->jobs && i < o->njobs; i++)
		for (d = 0; d < RIO_FIO_NDIRS; d++) {
			free((void *)o->jobs[i].dir[d].pct);
			free((void *)o->jobs[i].dir[d].bins);
		}
	free(o->jobs);
	free(o->options);
	json_object_put(o->src);
	free(o);
	*op = NULL;
}

int rio_fio_output_njobs(const struct rio_fio_output *o)
{
	return o ? o->njobs : 0;
}

const struct rio_fio_job *rio_fio_output_job(const struct rio_fio_output *o,
					     int i)
{
	return o && i >= 0 && i < o->njobs ? &o->jobs[i] : NULL;
}

const char *rio_fio_job_option(const struct rio_fio_output *o,
			       const struct rio_fio_job *j, const char *key)
{
	return rio_json_str(o->options[j - o->jobs], key);
}

const char *rio_fio_output_global(const struct rio_fio_output *o,
				  const char *key)
{
	return rio_json_str(o->global, key);
}

const char *rio_fio_job_setting(const struct rio_fio_output *o,
				const struct rio_fio_job *j, const char *key)
{
	const char *v = rio_fio_job_option(o, j, key);

	return v ? v : rio_fio_output_global(o, key);
}

int rio_fio_dir_index(const char *name)
{
	int d;

	for (d = 0; name && d < RIO_FIO_NDIRS; d++)
		if (!strcmp(name, dir_names[d]))
			return d;
	return -1;
}

const char *rio_fio_dir_name(int dir)
{
	return dir >= 0 && dir < RIO_FIO_NDIRS ? dir_names[dir] : NULL;
}

const struct rio_fio_num *rio_fio_dir_pct_num(const struct rio_fio_dir *d,
					      double p)
{
	size_t i;

	/* fio prints its percentile list's values with six decimals. */
	for (i = 0; i < d->npct; i++)
		if (fabs(d->pct[i].p - p) < 5e-7 && d->pct[i].ns.set)
			return &d->pct[i].ns;
	return NULL;
}

double rio_fio_dir_pct(const struct rio_fio_dir *d, double p)
{
	const struct rio_fio_num *n = rio_fio_dir_pct_num(d, p);

	return n ? n->d : NAN;
}

int rio_fio_bins_merge(const struct rio_fio_dir *const *dirs, int n,
		       struct rio_fio_bin **out)
{
	struct rio_fio_bin *b;
	size_t total = 0, at = 0;
	int i;

	*out = NULL;
	for (i = 0; i < n; i++)
		total += dirs[i]->bins ? dirs[i]->nbins : 0;
	if (!total)
		return 0;
	if (total > INT_MAX)
		return -EOVERFLOW;
	b = malloc(total * sizeof(*b));
	if (!b)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (!dirs[i]->bins)
			continue;
		memcpy(b + at, dirs[i]->bins, dirs[i]->nbins * sizeof(*b));
		at += dirs[i]->nbins;
	}
	qsort(b, total, sizeof(*b), cmp_bin);
	*out = b;
	return (int)total;
}

double rio_fio_job_bytes(const struct rio_fio_job *j)
{
	return j->dir[RIO_FIO_READ].io_bytes.d +
	       j->dir[RIO_FIO_WRITE].io_bytes.d;
}

double rio_fio_job_ios(const struct rio_fio_job *j)
{
	return j->dir[RIO_FIO_READ].total_ios.d +
	       j->dir[RIO_FIO_WRITE].total_ios.d;
}

double rio_fio_job_cpu_s(const struct rio_fio_job *j)
{
	/* fio's usr_cpu/sys_cpu are the job threads' rusage over the job's
	 * total_run_time, which fio prints as job_runtime (ms). */
	return (j->usr_cpu.d + j->sys_cpu.d) / 100 * j->job_runtime_ms.d / 1000;
}

json_object *rio_fio_num_json(const struct rio_fio_num *n)
{
	if (!n->set)
		return NULL;
	if (n->is_int)
		return json_object_new_int64(n->i);
	return n->text[0] ? json_object_new_double_s(n->d, n->text)
			  : json_object_new_double(n->d);
}
