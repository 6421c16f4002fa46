/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_REPORT_H
#define RDMAIO_TOOLS_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

struct rio_report_opts {
	int gbit; /* rates in Gb/s, as perftest's --report_gbits */
};

/*
 * Markdown: the verdict of each RDMA/TCP pair, the setup, the RDMA vs TCP
 * table (bandwidth, IOPS and latency of both, with their ratios; fio's CPU
 * per GiB), the client jobs, the targets apart, flagged checks and
 * warnings. Figures in human units. Returns 0, or -ENOMEM before it
 * writes anything.
 */
int rio_report_write(json_object *doc, const struct rio_report_opts *o,
		     FILE *out);

/* rio_report_write with the default options. */
int rio_report_table(json_object *doc, FILE *out);

#endif
