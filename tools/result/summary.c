// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result/fioentry.h"
#include "result/hostmap.h"
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
	return NULL;
}

static json_object *copy_of(json_object *obj, const char *key)
{
	return json_object_get(rio_json_get(obj, key));
}

static const char *pct_key(double p)
{
	static char buf[32];

	snprintf(buf, sizeof(buf), "%f", p);
	return buf;
}

struct bin {
	double ns;
	double count;
};

static int cmp_bin(const void *a, const void *b)
{
	double x = ((const struct bin *)a)->ns, y = ((const struct bin *)b)->ns;

	return (x > y) - (x < y);
}

/* fio's own method: the smallest bin value whose cumulative count reaches
 * p percent of all samples. */
static double pct_from_bins(json_object *const *entries, int n, const char *dir,
			    double p)
{
	struct bin *bins = NULL, *nb;
	double total = 0, acc = 0, v = NAN;
	size_t nbins = 0, i;
	int e;

	for (e = 0; e < n; e++) {
		json_object *b = rio_json_get(
			rio_json_get(rio_json_get(entries[e], dir), "clat_ns"),
			"bins");

		if (!b) {
			free(bins);
			return NAN;
		}
		json_object_object_foreach(b, key, val)
		{
			nb = realloc(bins, (nbins + 1) * sizeof(*bins));
			if (!nb) {
				free(bins);
				return NAN;
			}
			bins = nb;
			bins[nbins].ns = strtod(key, NULL);
			bins[nbins].count = json_object_get_double(val);
			total += bins[nbins++].count;
		}
	}
	if (nbins)
		qsort(bins, nbins, sizeof(*bins), cmp_bin);
	for (i = 0; i < nbins && total > 0; i++) {
		acc += bins[i].count;
		if (acc >= total * p / 100.0) {
			v = bins[i].ns;
			break;
		}
	}
	free(bins);
	return v;
}

double rio_summary_clat_pct(json_object *const *entries, int n, const char *dir,
			    double p)
{
	json_object *pcts;

	if (n == 1) {
		pcts = rio_json_get(rio_json_get(rio_json_get(entries[0], dir),
						 "clat_ns"),
				    "percentile");
		return rio_json_num(pcts, pct_key(p), NAN);
	}
	return pct_from_bins(entries, n, dir, p);
}

static json_object *latency(json_object *entry, const char *dir)
{
	json_object *clat = rio_json_get(rio_json_get(entry, dir), "clat_ns");
	json_object *pcts = rio_json_get(clat, "percentile");
	json_object *o = json_object_new_object();

	/* With no I/O fio reports mean 0 and no percentiles: say null. */
	json_object_object_add(o, "mean", pcts ? copy_of(clat, "mean") : NULL);
	json_object_object_add(o, "p50", copy_of(pcts, pct_key(50)));
	json_object_object_add(o, "p99", copy_of(pcts, pct_key(99)));
	json_object_object_add(o, "p99_9", copy_of(pcts, pct_key(99.9)));
	return o;
}

static json_object *direction(json_object *entry, const char *dir)
{
	json_object *d = rio_json_get(entry, dir), *o;

	if (!d || rio_json_num(d, "io_bytes", 0) <= 0)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "io_bytes", copy_of(d, "io_bytes"));
	json_object_object_add(o, "bw_bytes", copy_of(d, "bw_bytes"));
	json_object_object_add(o, "iops", copy_of(d, "iops"));
	json_object_object_add(o, "runtime_ms", copy_of(d, "runtime"));
	json_object_object_add(o, "total_ios", copy_of(d, "total_ios"));
	json_object_object_add(o, "clat_ns", latency(entry, dir));
	return o;
}

#define GIB (1024.0 * 1024 * 1024)

double rio_summary_fio_cpu_s(json_object *entry)
{
	double pct = rio_json_num(entry, "usr_cpu", 0) +
		     rio_json_num(entry, "sys_cpu", 0);

	/* fio's usr_cpu/sys_cpu are the job threads' rusage over the job's
	 * total_run_time, which fio prints as job_runtime (ms). */
	return pct / 100 * rio_json_num(entry, "job_runtime", 0) / 1000;
}

struct rio_moved rio_summary_moved(json_object *entry)
{
	json_object *r = rio_json_get(entry, "read"),
		    *w = rio_json_get(entry, "write");

	return (struct rio_moved){
		.bytes = rio_json_num(r, "io_bytes", 0) +
			 rio_json_num(w, "io_bytes", 0),
		.ios = rio_json_num(r, "total_ios", 0) +
		       rio_json_num(w, "total_ios", 0),
	};
}

void rio_summary_add_per_unit(json_object *o, double cpu_s, struct rio_moved m)
{
	json_object_object_add(
		o, "per_gib_s",
		rio_json_num_or_null(m.bytes > 0 ? cpu_s * GIB / m.bytes
						 : NAN));
	json_object_object_add(
		o, "per_kio_s",
		rio_json_num_or_null(m.ios > 0 ? cpu_s * 1000 / m.ios : NAN));
}

static json_object *fio_cpu(json_object *entry)
{
	double cpu = rio_summary_fio_cpu_s(entry);
	json_object *o;

	if (!rio_json_get(entry, "usr_cpu"))
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "usr_pct", copy_of(entry, "usr_cpu"));
	json_object_object_add(o, "sys_pct", copy_of(entry, "sys_cpu"));
	json_object_object_add(o, "cpu_s", json_object_new_double(cpu));
	rio_summary_add_per_unit(o, cpu, rio_summary_moved(entry));
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

json_object *rio_summary_results(json_object *output,
				 const struct rio_hostmap *hosts,
				 json_object *job_files)
{
	json_object *arr = json_object_new_array(), *e, *r;
	int i, n = rio_fio_entry_count(output);
	const char *host, *name, *tr;
	size_t wlen;

	for (i = 0; i < n; i++) {
		e = rio_fio_entry(output, i, hosts, &host);
		name = rio_json_str(e, "jobname");
		if (!name)
			name = "";
		tr = rio_summary_transport(name, &wlen);
		r = json_object_new_object();
		json_object_object_add(r, "host", json_object_new_string(host));
		json_object_object_add(r, "jobname",
				       json_object_new_string(name));
		json_object_object_add(r, "role", role_json(job_files, name));
		json_object_object_add(r, "groupid",
				       json_object_new_int((int)rio_json_num(
					       e, "groupid", 0)));
		json_object_object_add(
			r, "error",
			json_object_new_int((int)rio_json_num(e, "error", 0)));
		json_object_object_add(r, "workload",
				       json_object_new_string_len(name,
								  (int)wlen));
		json_object_object_add(r, "transport",
				       tr ? json_object_new_string(tr) : NULL);
		json_object_object_add(r, "read", direction(e, "read"));
		json_object_object_add(r, "write", direction(e, "write"));
		json_object_object_add(r, "fio_cpu", fio_cpu(e));
		json_object_array_add(arr, r);
	}
	return arr;
}
