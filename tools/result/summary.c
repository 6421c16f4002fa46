// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result/fiooutput.h"
#include "result/jobsection.h"
#include "base/jsonread.h"
#include "result/summary.h"

const char *rio_summary_transport(const char *jobname, size_t *workload_len)
{
	size_t n = strlen(jobname);

	*workload_len = n;
	if (n > 5 && !strcmp(jobname + n - 5, "-rdma")) {
		*workload_len = n - 5;
		return "rdma";
	}
	if (n > 4 && !strcmp(jobname + n - 4, "-tcp")) {
		*workload_len = n - 4;
		return "tcp";
	}
	if (n > 13 && !strcmp(jobname + n - 13, "-tcp-nconnect")) {
		*workload_len = n - 13;
		return "tcp-nconnect";
	}
	return NULL;
}

/* fio's own method: the smallest bin value whose cumulative count reaches
 * p percent of all samples; NaN when a job has no bins. */
static double pct_from_bins(const struct rio_fio_job *const *jobs, int n,
			    int dir, double p)
{
	const struct rio_fio_dir **dirs;
	double total = 0, acc = 0, v = NAN;
	struct rio_fio_bin *b;
	int e, nb;

	dirs = calloc(n ? n : 1, sizeof(*dirs));
	if (!dirs)
		return NAN;
	for (e = 0; e < n; e++) {
		if (!jobs[e]->dir[dir].bins) {
			free(dirs);
			return NAN;
		}
		dirs[e] = &jobs[e]->dir[dir];
	}
	nb = rio_fio_bins_merge(dirs, n, &b);
	free(dirs);
	for (e = 0; e < nb; e++)
		total += b[e].count;
	for (e = 0; e < nb && total > 0; e++) {
		acc += b[e].count;
		if (acc >= total * p / 100.0) {
			v = b[e].ns;
			break;
		}
	}
	free(b);
	return v;
}

double rio_summary_clat_pct(const struct rio_fio_job *const *jobs, int n,
			    int dir, double p)
{
	if (n == 1)
		return rio_fio_dir_pct(&jobs[0]->dir[dir], p);
	return pct_from_bins(jobs, n, dir, p);
}

/* Percentile p as fio printed it, NULL when it did not. */
static json_object *pct_json(const struct rio_fio_dir *d, double p)
{
	const struct rio_fio_num *n = rio_fio_dir_pct_num(d, p);

	return n ? rio_fio_num_json(n) : NULL;
}

static json_object *latency(const struct rio_fio_dir *d)
{
	json_object *o = json_object_new_object();

	/* With no I/O fio reports mean 0 and no percentiles: say null. */
	json_object_object_add(o, "mean",
			       d->pct ? rio_fio_num_json(&d->clat_mean) : NULL);
	json_object_object_add(o, "p50", pct_json(d, 50));
	json_object_object_add(o, "p99", pct_json(d, 99));
	json_object_object_add(o, "p99_9", pct_json(d, 99.9));
	return o;
}

static json_object *direction(const struct rio_fio_dir *d)
{
	json_object *o;

	if (d->io_bytes.d <= 0)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "io_bytes", rio_fio_num_json(&d->io_bytes));
	json_object_object_add(o, "bw_bytes", rio_fio_num_json(&d->bw_bytes));
	json_object_object_add(o, "iops", rio_fio_num_json(&d->iops));
	json_object_object_add(o, "runtime_ms",
			       rio_fio_num_json(&d->runtime_ms));
	json_object_object_add(o, "total_ios", rio_fio_num_json(&d->total_ios));
	json_object_object_add(o, "clat_ns", latency(d));
	return o;
}

#define GIB (1024.0 * 1024 * 1024)

struct rio_moved rio_summary_moved(const struct rio_fio_job *j)
{
	return (struct rio_moved){
		.bytes = rio_fio_job_bytes(j),
		.ios = rio_fio_job_ios(j),
	};
}

double rio_summary_per_gib(double cpu_s, struct rio_moved m)
{
	return m.bytes > 0 ? cpu_s * GIB / m.bytes : NAN;
}

void rio_summary_add_per_unit(json_object *o, double cpu_s, struct rio_moved m)
{
	json_object_object_add(
		o, "per_gib_s",
		rio_json_num_or_null(rio_summary_per_gib(cpu_s, m)));
	json_object_object_add(
		o, "per_kio_s",
		rio_json_num_or_null(m.ios > 0 ? cpu_s * 1000 / m.ios : NAN));
}

static json_object *fio_cpu(const struct rio_fio_job *j)
{
	double cpu = rio_fio_job_cpu_s(j);
	json_object *o;

	if (!j->usr_cpu.set)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "usr_pct", rio_fio_num_json(&j->usr_cpu));
	json_object_object_add(o, "sys_pct", rio_fio_num_json(&j->sys_cpu));
	json_object_object_add(o, "cpu_s", json_object_new_double(cpu));
	rio_summary_add_per_unit(o, cpu, rio_summary_moved(j));
	return o;
}

/* Section names that set `listen`, over every recorded job file. */
static int role_of(json_object *job_files, const char *name)
{
	struct rio_jobsection *s;
	int i, f, n, found = 0, target = 0;

	for (f = 0; f < (int)rio_json_len(job_files); f++) {
		n = rio_jobsection_parse(
			rio_json_str(json_object_array_get_idx(job_files, f),
				     "text")
				?: "",
			&s);
		for (i = 0; i < n; i++)
			if (!strcmp(s[i].name, name)) {
				found = 1;
				target |= s[i].listen;
			}
		if (n > 0)
			rio_jobsection_free(s, n);
	}
	return target ? 1 : found ? 0 : -ENOENT;
}

static json_object *role_json(json_object *job_files, const char *name)
{
	int r = role_of(job_files, name);

	return r < 0 ? NULL : json_object_new_string(r ? "target" : "client");
}

json_object *rio_summary_results(const struct rio_fio_output *fio,
				 json_object *job_files)
{
	json_object *arr = json_object_new_array(), *r;
	int i, n = rio_fio_output_njobs(fio);
	const struct rio_fio_job *j;
	const char *name, *tr;
	size_t wlen;

	for (i = 0; i < n; i++) {
		j = rio_fio_output_job(fio, i);
		name = j->jobname ? j->jobname : "";
		tr = rio_summary_transport(name, &wlen);
		r = json_object_new_object();
		json_object_object_add(r, "host",
				       json_object_new_string(j->host));
		json_object_object_add(r, "jobname",
				       json_object_new_string(name));
		json_object_object_add(r, "role", role_json(job_files, name));
		json_object_object_add(r, "groupid",
				       json_object_new_int(j->groupid));
		json_object_object_add(r, "error",
				       json_object_new_int(j->error));
		json_object_object_add(r, "workload",
				       json_object_new_string_len(name,
								  (int)wlen));
		json_object_object_add(r, "transport",
				       tr ? json_object_new_string(tr) : NULL);
		json_object_object_add(r, "read",
				       direction(&j->dir[RIO_FIO_READ]));
		json_object_object_add(r, "write",
				       direction(&j->dir[RIO_FIO_WRITE]));
		json_object_object_add(r, "fio_cpu", fio_cpu(j));
		json_object_array_add(arr, r);
	}
	return arr;
}
