/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_CHANGES_H
#define RDMAIO_TOOLS_CHANGES_H

#include <stdio.h>

#include <json-c/json.h>

/* What rio_changes_write found. */
struct rio_changes_count {
	int figures; /* figures judged */
	int beyond; /* changes beyond noise */
	int worse; /* of them, regressions */
	int unknown; /* figures whose run-to-run noise is unknown */
};

/*
 * Prints, as Markdown, how each job's bandwidth, IOPS, p50 and p99 and each
 * pair's RDMA/TCP ratios (bandwidth, IOPS, p50, p99, each host's CPU per
 * GiB) changed from old_doc to new_doc, from the rounds of either (a result
 * without rounds is one), each judged by rio_noise_judge: the threshold is
 * noise_pct (twice that for latency percentiles and their ratios), and
 * Welch's level 0.05 over the number of figures judged. A regression is
 * bandwidth, IOPS or their RDMA/TCP ratio down, latency, its ratio or the
 * CPU per GiB ratio up. Returns 0 or -ENOMEM.
 */
int rio_changes_write(json_object *old_doc, json_object *new_doc,
		      double noise_pct, FILE *out,
		      struct rio_changes_count *count);

#endif
