/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_COMPARE_H
#define RDMAIO_TOOLS_COMPARE_H

#include <stdio.h>

#include <json-c/json.h>

/*
 * Prints, as Markdown, the environment differences between two results
 * (versions, host, RDMA devices and ports, NFS mounts, job files, links) and
 * every job's bandwidth, IOPS and latency change, each marked as beyond
 * noise or not. Noise for bandwidth and IOPS is the larger of min_noise_pct
 * and twice fio's own sample spread (bw_dev/bw_mean, iops_stddev/iops_mean);
 * for latency percentiles it is twice min_noise_pct. Returns the number of
 * changes beyond noise.
 */
int rio_compare(json_object *old_doc, json_object *new_doc,
		double min_noise_pct, FILE *out);

#endif
