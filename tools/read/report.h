/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_REPORT_H
#define RDMAIO_TOOLS_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

#include "base/units.h"

struct rio_report_opts {
	int gbit; /* rates in Gb/s, as perftest's --report_gbits */
};

/*
 * Markdown: the verdict of each RDMA/TCP pair, the setup, the RDMA vs TCP
 * table (bandwidth, IOPS and latency of both, with their ratios; fio's CPU
 * per GiB), the client jobs, the targets apart, flagged checks and
 * warnings. Figures in human units.
 */
void rio_report_write(json_object *doc, const struct rio_report_opts *o,
		      FILE *out);

/* rio_report_write with the default options. */
void rio_report_table(json_object *doc, FILE *out);

/* A cell of a median and two bounds, each in RIO_UNITS_LEN. */
#define RIO_REPORT_SPREAD_LEN (3 * RIO_UNITS_LEN + 16)

/*
 * A rate and its range over the rounds, the bounds from spread sp:
 * "80.0 MiB/s (79.9 MiB/s – 80.1 MiB/s)"; the rate alone without sp. The
 * rate is the caller's, as a result's top-level median may be rounded.
 */
void rio_report_spread(char *buf, size_t n, double rate, json_object *sp,
		       int gbit);

/* "workload (read)", host-prefixed when the pairs come from several. */
void rio_report_pair_label(char *buf, size_t n, json_object *doc,
			   json_object *c);

#endif
