/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_FIOOUTPUT_H
#define RDMAIO_TOOLS_FIOOUTPUT_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

struct rio_hostmap;

/*
 * fio's JSON output read once into structs, as fio's own struct thread_stat
 * carries a job: the checks, derivations and the result's per-job numbers
 * take these, not keys. Only this file reads fio's keys.
 */
struct rio_fio_output;

/*
 * A number as fio printed it: integers stay integers (int64, io_bytes of a
 * long run do not fit a double exactly) and a double keeps fio's text, so
 * the result can carry the same value fio wrote.
 */
struct rio_fio_num {
	int set; /* 0: fio did not print it */
	int is_int;
	int64_t i;
	double d; /* the value either way; 0 when not set */
	char text[40]; /* fio's text of a double; "" when it did not fit */
};

/* One completion-latency percentile: p (50.0, 99.9, ...) and its value. */
struct rio_fio_pct {
	double p;
	struct rio_fio_num ns;
};

/* One bin of fio's json+ latency histogram. */
struct rio_fio_bin {
	double ns;
	double count;
};

enum { RIO_FIO_READ, RIO_FIO_WRITE, RIO_FIO_NDIRS };

/* One direction of a job: fio's "read" or "write". */
struct rio_fio_dir {
	struct rio_fio_num io_bytes, bw_bytes, iops, runtime_ms, total_ios;
	struct rio_fio_num clat_mean;
	const struct rio_fio_pct *pct; /* fio's order; NULL: none printed */
	size_t npct;
	const struct rio_fio_bin *bins; /* ascending ns; NULL: no json+ */
	size_t nbins;
};

/* One of fio's per-job entries (jobs[], or client_stats[] less the sum). */
struct rio_fio_job {
	const char *host; /* the host map's name for it */
	const char *hostname; /* fio's "hostname" as printed; NULL: none */
	const char *jobname; /* NULL when fio printed none */
	int groupid, error, port;
	struct rio_fio_num usr_cpu, sys_cpu; /* percent of job_runtime */
	struct rio_fio_num job_runtime_ms;
	double depth1_pct; /* iodepth_level "1": share of time at depth 1 */
	struct rio_fio_dir dir[RIO_FIO_NDIRS];
};

/*
 * Reads output (fio's JSON). With several job files, fio's top-level
 * "global options" are the last file's [global] only, which would be read
 * as every job's: then the model has no global options. hosts names each
 * job's host. Returns 0, or -ENOMEM (nothing allocated).
 */
int rio_fio_output_read(json_object *output, size_t njob_files,
			const struct rio_hostmap *hosts,
			struct rio_fio_output **out);
void rio_fio_output_delete(struct rio_fio_output **o);

int rio_fio_output_njobs(const struct rio_fio_output *o);
/* Job i (0 <= i < njobs) in fio's order. */
const struct rio_fio_job *rio_fio_output_job(const struct rio_fio_output *o,
					     int i);

/* A job's own option (its "job options"), NULL when it has none. */
const char *rio_fio_job_option(const struct rio_fio_output *o,
			       const struct rio_fio_job *j, const char *key);
/* An option of the output's [global]; NULL when none, or when several job
 * files make it no job's. */
const char *rio_fio_output_global(const struct rio_fio_output *o,
				  const char *key);
/* The job's own option, else the global one. */
const char *rio_fio_job_setting(const struct rio_fio_output *o,
				const struct rio_fio_job *j, const char *key);

/* The directions by name ("read", "write"); -1 for another name. */
int rio_fio_dir_index(const char *name);
const char *rio_fio_dir_name(int dir);

/* Percentile p of one direction as fio printed it; NaN (NULL) when it did
 * not. */
double rio_fio_dir_pct(const struct rio_fio_dir *d, double p);
const struct rio_fio_num *rio_fio_dir_pct_num(const struct rio_fio_dir *d,
					      double p);

/* The json+ bins of n directions as one ascending list (*out, to free;
 * NULL when there are none), a direction without bins adding nothing:
 * how many, or -ENOMEM (-EOVERFLOW past INT_MAX bins). */
int rio_fio_bins_merge(const struct rio_fio_dir *const *dirs, int n,
		       struct rio_fio_bin **out);

/* What a job moved, both directions. */
double rio_fio_job_bytes(const struct rio_fio_job *j);
double rio_fio_job_ios(const struct rio_fio_job *j);

/* CPU seconds fio's job threads used (usr + sys over job_runtime). */
double rio_fio_job_cpu_s(const struct rio_fio_job *j);

/* n as JSON with fio's value (NULL when not set), for the result's writer. */
json_object *rio_fio_num_json(const struct rio_fio_num *n);

/*
 * Before reading, for telling fio's output from other JSON and joining
 * several runs' outputs: the per-job entries of output (client_stats[]
 * when present, else jobs[]), how many there are less fio's "All clients"
 * sum, and whether an entry is that sum.
 */
json_object *rio_fio_output_entries(json_object *output);
int rio_fio_output_count(json_object *output);
int rio_fio_output_is_sum(json_object *entry);

/* Whether o is fio's JSON output: a "fio version" and jobs[] or
 * client_stats[]. */
int rio_fio_output_is_fio(json_object *o);

/*
 * A run split by role runs fio once per job file: the later runs'
 * per-job entries (not their "All clients" sums) join the first run's
 * output, and each run's [global] options, which are one job file's,
 * are kept per run (globals: not a new reference; NULL for none) and
 * dropped from the joined output.
 */
void rio_fio_output_join(json_object *into, json_object *more);
json_object *rio_fio_output_globals(json_object *output);
void rio_fio_output_drop_globals(json_object *output);

#endif
