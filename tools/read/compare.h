/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_COMPARE_H
#define RDMAIO_TOOLS_COMPARE_H

#include <stdio.h>

#include <json-c/json.h>

/*
 * Prints, as Markdown, the environment differences between two results
 * (versions, host, RDMA devices and ports, NFS mounts, job files, links),
 * then every job's bandwidth, IOPS and latency change and every pair's
 * RDMA/TCP ratios' change, each judged from the rounds of either result
 * (rio_changes_write, with min_noise_pct as --noise). Returns the number of
 * regressions beyond noise, or -ENOMEM.
 */
int rio_compare(json_object *old_doc, json_object *new_doc,
		double min_noise_pct, FILE *out);

#endif
