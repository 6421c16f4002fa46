/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_REPORT_THREE_H
#define RDMAIO_TOOLS_REPORT_THREE_H

#include <stdio.h>

#include "result/resultdoc.h"

/*
 * RDMA against both TCP mounts, for each workload a result pairs with its
 * -tcp and its -tcp-nconnect job: one verdict line ("seq-read: RDMA 1.90x
 * TCP, 1.10x TCP nconnect=8 in bandwidth"), and one table of the three
 * sides' figure and RDMA's two ratios, by what the workload measures
 * (bandwidth, IOPS, p50 latency of round trips). nconnect comes from the
 * workload's fairness check (the mount's); nothing without such pairs.
 */
void rio_report_three_verdicts(const struct rio_resultdoc *rd, FILE *out);
/* gbit: rates in Gb/s (report --units gbit). */
void rio_report_three_table(const struct rio_resultdoc *rd, int gbit,
			    FILE *out);

#endif
