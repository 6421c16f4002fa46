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
 * from fio's JSON as they are (the same JSON values, not recomputed).
 */
json_object *rio_summary_results(json_object *output,
				 const struct rio_hostmap *hosts);

/*
 * Completion latency percentile p (e.g. 99.9) over several fio entries'
 * direction dir: fio's own figure for one entry, otherwise computed from
 * the merged json+ histograms ("bins"). NaN when not available.
 */
double rio_summary_clat_pct(json_object *const *entries, int n, const char *dir,
			    double p);

#endif
