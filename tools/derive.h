/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_DERIVE_H
#define RDMAIO_TOOLS_DERIVE_H

#include <json-c/json.h>

struct rio_hostmap;

/*
 * The result's "comparisons": for each host and workload that has both a
 * "<workload>-rdma" and a "<workload>-tcp" job, and each direction both
 * moved data in, bandwidth and IOPS (summed over the job's entries) side by
 * side with their RDMA/TCP ratio and completion latency percentiles.
 */
json_object *rio_derive_comparisons(json_object *output,
				    const struct rio_hostmap *hosts);

#endif
