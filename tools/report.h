/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_REPORT_H
#define RDMAIO_TOOLS_REPORT_H

#include <stdio.h>

#include <json-c/json.h>

/*
 * Markdown: the RDMA vs TCP table (workload, RDMA and TCP bandwidth in
 * MiB/s, ratio, p50/p99/p99.9 completion latency in microseconds), every
 * job's own figures, then flagged checks and warnings.
 */
void rio_report_table(json_object *doc, FILE *out);

/*
 * Bar chart of RDMA vs TCP bandwidth per workload (or of every job when
 * nothing pairs up) with the link ceiling drawn as a line, rendered by
 * gnuplot into path (.svg or .png). Returns 0 or a negative code.
 */
int rio_report_plot(json_object *doc, const char *path);

#endif
