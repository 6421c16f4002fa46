/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_CHART_H
#define RDMAIO_TOOLS_CHART_H

#include <json-c/json.h>
#include <stdio.h>

/*
 * One figure of a result, in panels, rendered by gnuplot into path (.svg or
 * .png): bandwidth of RDMA vs TCP per workload (axis from zero; the link's
 * payload ceiling as a line when it is on the same scale; round-trip
 * workloads left out), completion latency (p50 bar, p99 whisker, p99.9
 * circle; a log axis when the workloads are more than 20x apart), CPU
 * seconds per GiB (each watched host's, else fio's own of the client) and
 * the cumulative completion latency of both sides of each pair from fio's
 * json+ bins, and bandwidth against message size for a sweep (jobs named
 * PREFIX-SIZE). Without RDMA/TCP pairs the panels show every client job.
 * Returns 0 or a negative code after saying why.
 */
int rio_chart_draw(json_object *doc, const char *path);

/*
 * The chart's gnuplot data and script for doc, without running gnuplot:
 * the data file (to be read from data_path) and the script that draws
 * img_path. Every string that is not the chart's own reaches the script
 * quoted (gpstr.h). Returns 0 or a negative code after saying why.
 */
int rio_chart_script(json_object *doc, FILE *data, const char *data_path,
		     FILE *script, const char *img_path, int svg);

#endif
