/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_CELL_H
#define RDMAIO_TOOLS_CELL_H

#include <stddef.h>

#include "base/units.h"
#include "result/resultdoc.h"

/*
 * The cells of the tables that read results (the report, its baselines,
 * compare, the chart's labels): figures in human units with their range
 * over the rounds, ratios with their interval, and the labels of jobs and
 * pairs. Each writes at most n bytes into buf.
 */

/* A cell of a median and two bounds, each in RIO_UNITS_LEN. */
#define RIO_CELL_LEN (3 * RIO_UNITS_LEN + 16)

enum rio_cell_unit { RIO_CELL_RATE, RIO_CELL_COUNT, RIO_CELL_NS };

/* s, or "?" for a string the result should hold but a hand-made one
 * lacks. */
const char *rio_cell_str(const char *s);

/* A latency triple "p50 / p99 / p99.9". */
void rio_cell_lat(char *buf, size_t n, const struct rio_res_lat *clat);

/*
 * v with the bounds of spread sp, "80.0 MiB/s (79.9 MiB/s – 80.1 MiB/s)";
 * v alone without sp (NULL or not set). v is the caller's, as a result's
 * top-level median may be rounded. Rates in Gb/s when gbit.
 */
void rio_cell_range(char *buf, size_t n, double v,
		    const struct rio_res_spread *sp, enum rio_cell_unit f,
		    int gbit);

/* A figure over the rounds from its spread alone (its median), "-" without. */
void rio_cell_spread(char *buf, size_t n, const struct rio_res_spread *sp,
		     enum rio_cell_unit f, int gbit);

/* A ratio over the rounds: its median and the 95 % interval of its
 * geometric mean, "2.00x (1.98x – 2.02x)"; "-" without. */
void rio_cell_interval(char *buf, size_t n, const struct rio_res_ratio *rs);

/* "NAME (DIR)", or "HOST: NAME (DIR)" when hosts. */
void rio_cell_label(char *buf, size_t n, const char *host, const char *name,
		    const char *dir, int hosts);

/* A pair's name: its workload, and the TCP it is against where that is
 * not plain TCP ("seq-read vs TCP nconnect"). */
void rio_cell_pair_name(char *buf, size_t n, const struct rio_res_pair *p);

/* "workload (read)", host-prefixed when hosts (the pairs come from
 * several). */
void rio_cell_pair_label(char *buf, size_t n, const struct rio_res_pair *p,
			 int hosts);

#endif
