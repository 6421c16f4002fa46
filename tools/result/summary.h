/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_SUMMARY_H
#define RDMAIO_TOOLS_SUMMARY_H

#include <stddef.h>

#include <json-c/json.h>

struct rio_hostmap;

/*
 * Naming convention for pairing jobs: a jobname ending in "-rdma" or "-tcp"
 * is that transport's run of the workload named by the rest. Returns
 * "rdma", "tcp" or NULL, and the length of the workload part.
 */
const char *rio_summary_transport(const char *jobname, size_t *workload_len);

/*
 * The result's "results" array: one entry per fio job entry, numbers taken
 * from fio's JSON as they are (the same JSON values, not recomputed), each
 * with its role: "target" when a section of that name in job_files (the
 * result's) sets `listen`, "client" when one does not, null when no job
 * file has it.
 */
json_object *rio_summary_results(json_object *output,
				 const struct rio_hostmap *hosts,
				 json_object *job_files);

/* What an entry moved, both directions: bytes and I/Os. */
struct rio_moved {
	double bytes, ios;
};
struct rio_moved rio_summary_moved(json_object *entry);

/* Adds per_gib_s and per_kio_s to o: cpu_s over what m moved (null for
 * nothing moved). */
void rio_summary_add_per_unit(json_object *o, double cpu_s, struct rio_moved m);

/* CPU seconds fio's job threads used (usr_cpu + sys_cpu over job_runtime). */
double rio_summary_fio_cpu_s(json_object *entry);

/*
 * Completion latency percentile p (e.g. 99.9) over several fio entries'
 * direction dir: fio's own figure for one entry, otherwise computed from
 * the merged json+ histograms ("bins"). NaN when not available.
 */
double rio_summary_clat_pct(json_object *const *entries, int n, const char *dir,
			    double p);

#endif
