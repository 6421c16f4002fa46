/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_SUMMARY_H
#define RDMAIO_TOOLS_SUMMARY_H

#include <stddef.h>

#include <json-c/json.h>

struct rio_fio_job;
struct rio_fio_output;

/*
 * Naming convention for pairing jobs: a jobname ending in "-rdma", "-tcp"
 * or "-tcp-nconnect" (NFS over TCP with several connections: a mount with
 * nconnect=) is that transport's run of the workload named by the rest.
 * Returns "rdma", "tcp", "tcp-nconnect" or NULL, and the length of the
 * workload part.
 */
const char *rio_summary_transport(const char *jobname, size_t *workload_len);

/*
 * The result's "results" array: one entry per fio job entry, numbers taken
 * from fio's JSON as fio printed them (not recomputed), each
 * with its role: "target" when a section of that name in job_files (the
 * result's) sets `listen`, "client" when one does not, null when no job
 * file has it.
 */
json_object *rio_summary_results(const struct rio_fio_output *fio,
				 json_object *job_files);

/* What an entry moved, both directions: bytes and I/Os. */
struct rio_moved {
	double bytes, ios;
};
struct rio_moved rio_summary_moved(const struct rio_fio_job *j);

/* cpu_s per GiB m moved; NaN for nothing moved. */
double rio_summary_per_gib(double cpu_s, struct rio_moved m);

/* Adds per_gib_s and per_kio_s to o: cpu_s over what m moved (null for
 * nothing moved). */
void rio_summary_add_per_unit(json_object *o, double cpu_s, struct rio_moved m);

/*
 * Completion latency percentile p (e.g. 99.9) over several fio jobs'
 * direction dir (RIO_FIO_READ, RIO_FIO_WRITE): fio's own figure for one
 * job, otherwise computed from the merged json+ histograms. NaN when not
 * available.
 */
double rio_summary_clat_pct(const struct rio_fio_job *const *jobs, int n,
			    int dir, double p);

#endif
